//! The layout of the workspace: the key statistics are a crate apart from the engine, with no
//! way back into it (a package cycle), and the positions they sample are the standard ones.

mod common;

use std::process::Command;

/// The packages a package depends on (normal dependencies, all depths), by name.
fn dependencies(package: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "-e",
            "normal",
            "--prefix",
            "none",
            "-p",
        ])
        .arg(package)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "cargo tree -p {package}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .skip(1)
        .filter_map(|line| line.split(' ').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn keystats_is_a_crate_that_does_not_depend_on_the_engine() {
    let keystats = dependencies("ccr-keystats");
    assert!(!keystats.iter().any(|p| p == "ccr"), "{keystats:?}");
    let engine = dependencies("ccr");
    assert!(engine.iter().any(|p| p == "ccr-keystats"), "{engine:?}");
}

#[test]
fn the_named_standard_positions_are_those_of_the_perft_file() {
    let fens = common::epd::fens("standard-perft.epd");
    assert_eq!(fens, ccr::positions::STANDARD.map(str::to_string).to_vec());
}
