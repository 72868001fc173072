//! The layout of the workspace: the key statistics are a crate apart from the engine, with no
//! way back into it (a package cycle), the Zobrist baseline is theirs and the engine library
//! does not use them, and the positions they sample are the standard ones.

use crate::common;

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

/// The Rust sources under `dir`, recursively, with their text.
fn sources(dir: &std::path::Path) -> Vec<(std::path::PathBuf, String)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).expect("the source directory is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            found.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("a source file is readable");
            found.push((path, text));
        }
    }
    found
}

#[test]
fn the_zobrist_baseline_is_in_the_key_statistics_not_in_the_engine() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let engine = sources(&root.join("src"));
    assert!(engine.len() > 20);
    for (path, text) in &engine {
        assert!(
            !text.contains("struct Zobrist") && !text.contains("ZOBRIST_SEED"),
            "{} defines the Zobrist baseline",
            path.display()
        );
        // Only the binary (main.rs and its commands) drives the key statistics.
        let binary = path.ends_with("src/main.rs") || path.starts_with(root.join("src/cli"));
        assert!(
            binary || !text.contains("ccr_keystats"),
            "{} is engine library code that uses the key statistics",
            path.display()
        );
    }
    let crate_sources = sources(&root.join("keystats/src"));
    assert!(
        crate_sources
            .iter()
            .any(|(_, text)| text.contains("pub struct Zobrist")),
        "the key statistics define the Zobrist baseline"
    );
}
