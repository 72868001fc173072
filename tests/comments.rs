//! Comments speak of the code as it is: every file a comment names exists, and every
//! section of docs/BENCHMARKS.md a comment cites is a heading there.
//!
//! The comments read are those of the Rust sources (`//` to the end of the line), the
//! assembly (`#` and `//`), the Makefile, the shell and Python scripts and the Cargo
//! configuration (`#`). A name is a path under one of the project's folders
//! (`src/…`, `docs/…`, `tests/…`, …) or a top-level file (`Makefile`, `build.rs`); a path with
//! a wildcard (`*`, `{`, `<`) names a pattern, not a file, and is left alone.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The folders whose paths a comment may name.
const FOLDERS: [&str; 11] = [
    "src/",
    "docs/",
    "tests/",
    "benches/",
    "scripts/",
    "asm/",
    "fuzz/",
    "keystats/",
    "examples/",
    ".cargo/",
    ".ci/",
];

/// Every file under `dir` (relative to the root) whose name ends in one of `extensions`.
fn files_under(dir: &str, extensions: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(root().join(dir)) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let relative = path.strip_prefix(root()).unwrap().to_path_buf();
        let name = relative.to_string_lossy().to_string();
        if path.is_dir() {
            if !name.ends_with("target") && !name.contains("corpus") && !name.contains("artifacts")
            {
                files_under(&name, extensions, out);
            }
        } else if extensions.iter().any(|e| name.ends_with(e)) {
            out.push(relative);
        }
    }
}

/// The comment text of each line of `text`, by the file's kind.
fn comments(path: &Path, text: &str) -> Vec<String> {
    let name = path.to_string_lossy();
    let rust = name.ends_with(".rs");
    let assembly = name.ends_with(".s");
    text.lines()
        .filter_map(|line| {
            let at = if rust {
                line.find("//")
            } else if assembly {
                [line.find('#'), line.find("//")]
                    .into_iter()
                    .flatten()
                    .min()
            } else {
                line.find('#')
            };
            at.map(|i| line[i..].to_string())
        })
        .collect()
}

/// The paths a comment names.
fn named_paths(comment: &str) -> Vec<String> {
    let mut found = Vec::new();
    let is_path_char = |c: char| c.is_ascii_alphanumeric() || "_-./*{}<>".contains(c);
    for folder in FOLDERS.iter().copied().chain(["Makefile", "build.rs"]) {
        let mut rest = comment;
        while let Some(i) = rest.find(folder) {
            let before = rest[..i].chars().next_back();
            let tail = &rest[i..];
            let end = tail.find(|c| !is_path_char(c)).unwrap_or(tail.len());
            let path = tail[..end].trim_end_matches(['.', ',', ')']);
            rest = &tail[folder.len()..];
            // Part of a longer name (`keystats/src/…` is read at `keystats/`, a URL's path).
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || "/_.-:".contains(c)) {
                continue;
            }
            let bare_folder = folder.ends_with('/') && path == folder;
            if path.contains(['*', '{', '<']) || bare_folder {
                continue;
            }
            found.push(path.to_string());
        }
    }
    found
}

/// The files whose comments are read.
fn commented_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [
        "src",
        "tests",
        "benches",
        "keystats",
        "fuzz/fuzz_targets",
        "examples",
    ] {
        files_under(dir, &[".rs"], &mut files);
    }
    files_under("asm", &[".s"], &mut files);
    files_under("scripts", &[".sh", ".py"], &mut files);
    files_under("tests/uci", &[".py"], &mut files);
    for top in [
        "build.rs",
        "Makefile",
        ".cargo/config.toml",
        "Cargo.toml",
        ".ci/run",
    ] {
        files.push(PathBuf::from(top));
    }
    files.retain(|f| root().join(f).is_file());
    files
}

/// Each commented file with its comments.
fn commented() -> Vec<(PathBuf, Vec<String>)> {
    commented_files()
        .into_iter()
        .map(|file| {
            let text = fs::read_to_string(root().join(&file)).unwrap_or_default();
            let found = comments(&file, &text);
            (file, found)
        })
        .collect()
}

/// Fails with `what` and the list when `missing` is not empty.
fn assert_none(what: &str, missing: BTreeSet<String>) {
    let list: Vec<String> = missing.into_iter().collect();
    assert!(list.is_empty(), "{what}:\n{}", list.join("\n"));
}

#[test]
fn every_file_a_comment_names_exists() {
    let mut missing = BTreeSet::new();
    let mut checked = 0;
    for (file, comments) in commented() {
        for comment in comments {
            for path in named_paths(&comment) {
                checked += 1;
                if !root().join(&path).exists() {
                    missing.insert(format!("{}: {path}", file.display()));
                }
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} names found: is the reader right?"
    );
    assert_none("comments name files that do not exist", missing);
}

#[test]
fn every_benchmarks_section_a_comment_cites_is_a_heading() {
    let benchmarks = fs::read_to_string(root().join("docs/BENCHMARKS.md")).unwrap();
    let headings: BTreeSet<&str> = benchmarks
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim())
        .collect();
    let mut missing = BTreeSet::new();
    let mut cited = 0;
    for (file, comments) in commented() {
        // A citation may run over two comment lines: join each file's comments.
        let joined: String = comments
            .iter()
            .map(|c| c.trim_start_matches(['/', '!', '#', ' ']).to_string())
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = joined.as_str();
        while let Some(i) = rest.find("BENCHMARKS.md, \"") {
            let tail = &rest[i + "BENCHMARKS.md, \"".len()..];
            let Some(end) = tail.find('"') else { break };
            cited += 1;
            let title = &tail[..end];
            if !headings.contains(title) {
                missing.insert(format!("{}: \"{title}\"", file.display()));
            }
            rest = &tail[end..];
        }
    }
    assert!(cited > 0, "no citation found: is the reader right?");
    assert_none(
        "comments cite BENCHMARKS sections that do not exist",
        missing,
    );
}

#[test]
fn the_reader_finds_names_and_leaves_patterns() {
    assert_eq!(
        named_paths("// see src/ccr/make.rs, and docs/BENCHMARKS.md."),
        ["src/ccr/make.rs", "docs/BENCHMARKS.md"]
    );
    assert!(named_paths("# tests/uci/test_*.py").is_empty());
    assert!(named_paths("// https://example.org/src/lib.rs").is_empty());
    assert_eq!(
        named_paths("# make -C keystats/ and Makefile"),
        ["Makefile"]
    );
}
