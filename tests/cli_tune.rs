//! `ccr tune`'s arguments on the built binary: a rate or L2 weight that is not finite or out
//! of range, a fit that diverges, and an output that is the training data itself are each
//! one stderr line `error: …` with exit status 2, and no weights file is written.

use crate::common;

use std::path::PathBuf;
use std::process::Output;

use common::cli::{ccr, text, tune_args};

/// A fresh directory holding a small training set, `data.txt`.
fn setup(name: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("ccr-cli-tune-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let data = dir.join("data.txt");
    let mut lines = String::new();
    for (fen, result) in [
        ("4k3/8/8/8/8/8/3PP3/4K3 w - - 0 12", "1.0"),
        ("4k3/8/8/8/8/4P3/3P4/4K3 b - - 0 12", "1.0"),
        ("4k3/8/8/3P4/8/4P3/8/4K3 w - - 0 12", "1.0"),
        ("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 12", "0.5"),
        ("4k3/3pp3/8/8/8/8/4P3/4K3 w - - 0 12", "0.0"),
        ("r3k3/8/8/8/8/8/8/4K2R w - - 0 12", "0.5"),
        ("r3k3/8/8/8/8/8/8/4K3 w - - 0 12", "0.0"),
        ("4k3/8/8/8/8/8/8/R3K2R w - - 0 12", "1.0"),
        ("3qk3/8/8/8/8/8/8/3QK3 b - - 0 12", "0.5"),
        ("3qk3/8/8/8/8/8/8/4K3 b - - 0 12", "0.0"),
        ("4k3/8/8/8/8/8/8/2N1KB2 w - - 0 12", "1.0"),
    ] {
        lines.push_str(&format!("{fen};{result}\n"));
    }
    std::fs::write(&data, lines).expect("the data file");
    (dir, data)
}

/// Asserts exit status 2, one `error: …` stderr line last, and no panic; returns the line.
fn one_error(out: &Output, what: &str) -> String {
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    assert_eq!(out.status.code(), Some(2), "{what}: {stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.contains("error:")).collect();
    assert_eq!(errors.len(), 1, "{what}: {stderr:?}");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(last.starts_with("error: "), "{what}: {stderr:?}");
    assert!(out.stdout.is_empty(), "{what}: {}", text(&out.stdout));
    last.to_string()
}

#[test]
fn a_fit_with_good_settings_writes_weights() {
    let (dir, data) = setup("good");
    let weights = dir.join("weights.rs");
    let out = ccr(&tune_args(&data, &weights, "20"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&weights).unwrap();
    assert_eq!(written.matches("s(").count(), ccr::tune::param::COUNT);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Not-a-number, infinite, negative and zero rates, and such L2 weights, are rejected
/// before anything runs.
#[test]
fn rates_and_l2_weights_must_be_finite_and_in_range() {
    let (dir, data) = setup("range");
    let weights = dir.join("weights.rs");
    for (option, value) in [
        ("--rate", "NaN"),
        ("--rate", "nan"),
        ("--rate", "inf"),
        ("--rate", "-inf"),
        ("--rate", "-1"),
        ("--rate", "0"),
        ("--rate", "x"),
        ("--l2", "NaN"),
        ("--l2", "inf"),
        ("--l2", "-1"),
        ("--l2", "-1e-9"),
    ] {
        let out = ccr(&[tune_args(&data, &weights, "5"), vec![option, value]].concat());
        let what = format!("{option} {value}");
        let line = one_error(&out, &what);
        assert!(line.contains(option), "{what}: {line}");
        assert!(!weights.exists(), "{what}: weights were written");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A rate so large that the weights run away: an error, and no weights file.
#[test]
fn a_diverged_fit_writes_no_weights() {
    let (dir, data) = setup("diverge");
    let weights = dir.join("weights.rs");
    for rate in ["1e300", "1e12"] {
        let out = ccr(&[tune_args(&data, &weights, "50"), vec!["--rate", rate]].concat());
        let line = one_error(&out, rate);
        assert!(line.contains("diverged"), "{rate}: {line}");
        assert!(!weights.exists(), "--rate {rate}: weights were written");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--out` naming the `--data` file, however spelled (the same path, through `.` and `..`,
/// through a symbolic link, a hard link), is refused and the data is left as it was.
#[test]
fn the_output_cannot_be_the_training_data() {
    let (dir, data) = setup("same");
    let before = std::fs::read(&data).unwrap();
    let sub = dir.join("sub");
    std::fs::create_dir(&sub).unwrap();
    let symlink = dir.join("symlink.txt");
    let hardlink = dir.join("hardlink.txt");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&data, &symlink).unwrap();
    std::fs::hard_link(&data, &hardlink).unwrap();
    let dotted = sub.join("..").join(".").join("data.txt");
    let mut outs = vec![data.clone(), dotted, hardlink];
    if cfg!(unix) {
        outs.push(symlink);
    }
    for out_path in outs {
        let out = ccr(&tune_args(&data, &out_path, "5"));
        let what = out_path.display().to_string();
        let line = one_error(&out, &what);
        assert!(line.contains("--data"), "{what}: {line}");
        assert_eq!(
            std::fs::read(&data).unwrap(),
            before,
            "{what}: data changed"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `ccr datagen --openings FILE` starts its games from the file's positions (FEN or EPD);
/// a file with a bad position, or with none, is one error line and no data file.
#[test]
fn datagen_starts_from_an_openings_file() {
    let (dir, _) = setup("openings");
    let openings = dir.join("openings.epd");
    let out_file = dir.join("selfplay.txt");
    std::fs::write(
        &openings,
        "# two openings\n4k3/8/8/8/8/8/4P3/4K3 w - - id \"pawn\";\n\n4k3/8/8/8/8/8/3P4/4K3 w - - 0 1\n",
    )
    .unwrap();
    let (openings_arg, out_arg) = (openings.to_str().unwrap(), out_file.to_str().unwrap());
    let args = [
        "datagen",
        "--games",
        "2",
        "--nodes",
        "200",
        "--random-plies",
        "0",
        "--openings",
        openings_arg,
        "--out",
        out_arg,
    ];
    let out = ccr(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines = std::fs::read_to_string(&out_file).unwrap();
    for start in ["4k3/8/8/8/8/8/4P3/4K3 w", "4k3/8/8/8/8/8/3P4/4K3 w"] {
        assert!(lines.contains(start), "no game from {start}:\n{lines}");
    }
    std::fs::remove_file(&out_file).unwrap();
    for (content, what) in [
        ("4k3/8/8/8/8/8/4P3/4K3 w - -\nnot a position\n", "line 2"),
        ("# nothing\n\n", "no positions"),
    ] {
        std::fs::write(&openings, content).unwrap();
        let line = one_error(&ccr(&args), what);
        assert!(line.contains("--openings") && line.contains(what), "{line}");
        assert!(!out_file.exists(), "{what}: data was written");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `ccr datagen --eval` searches the games with the evaluator it names (the network's own
/// data: `FEN;RESULT;SCORE` lines); an unknown name is one error line and no data file.
#[test]
fn datagen_searches_with_the_named_evaluator() {
    let (dir, _) = setup("eval");
    let out_file = dir.join("selfplay.txt");
    let out_arg = out_file.to_str().unwrap();
    let args = |eval| {
        [
            "datagen", "--games", "1", "--nodes", "300", "--scores", "--eval", eval, "--out",
            out_arg,
        ]
    };
    let out = ccr(&args("network"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines = std::fs::read_to_string(&out_file).unwrap();
    assert!(!lines.is_empty(), "no positions written");
    for line in lines.lines() {
        assert_eq!(line.split(';').count(), 3, "not FEN;RESULT;SCORE: {line}");
    }
    std::fs::remove_file(&out_file).unwrap();
    let line = one_error(&ccr(&args("nonsense")), "an unknown evaluator");
    assert!(
        line.contains("nonsense") && line.contains("network, frame, bitboards"),
        "{line}"
    );
    assert!(!out_file.exists(), "an unknown evaluator wrote data");
    std::fs::remove_dir_all(&dir).unwrap();
}
