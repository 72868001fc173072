//! The integration tests, one module per file of `tests/`, built as one test binary: each
//! binary of its own linked the whole engine again under fat LTO, and the links took most of
//! the suite's build time. `common` is what they share.
//!
//! Cargo does not discover `tests/*.rs` on its own here (`autotests = false`), so a new file
//! needs its line below; `every_test_file_is_a_module` fails until it has one.

mod common;

mod architecture;
mod attacks;
mod chess960;
mod cli;
mod cli_limits;
mod cli_tune;
mod comments;
mod differential;
mod eval;
mod fen;
mod gives_check;
mod keys;
mod keystats_cli;
mod paper;
mod perft;
mod see;
mod special_moves;
mod validate;
mod workspace;

/// Every `.rs` file of `tests/` is a module of this binary.
#[test]
fn every_test_file_is_a_module() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let root = std::fs::read_to_string(dir.join("integration.rs")).expect("tests/integration.rs");
    let declared: Vec<&str> = root
        .lines()
        .filter_map(|line| line.strip_prefix("mod ")?.strip_suffix(';'))
        .collect();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/") {
        let path = entry.expect("a tests/ entry").path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        let is_test_file = path.extension().is_some_and(|e| e == "rs") && stem != "integration";
        if is_test_file && !declared.contains(&stem) {
            missing.push(stem.to_owned());
        }
    }
    assert!(
        missing.is_empty(),
        "tests/ files that are no module of tests/integration.rs: {missing:?}"
    );
}
