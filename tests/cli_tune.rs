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

/// `FEN;RESULT;SCORE` records of the setup's positions in `dir/scored.txt`, `copies` times
/// over, for `ccr train`.
fn scored_data(dir: &std::path::Path, copies: usize) -> PathBuf {
    let records: String = std::fs::read_to_string(dir.join("data.txt"))
        .unwrap()
        .lines()
        .enumerate()
        .map(|(i, line)| format!("{line};{}\n", i as i32 * 40 - 200))
        .collect();
    let scored = dir.join("scored.txt");
    std::fs::write(&scored, records.repeat(copies)).unwrap();
    scored
}

/// A step size at which the fit runs away (the weights no longer finite, or an output bias
/// beyond the network's integer): one error line saying so, and the network that was at
/// `--out` is left byte for byte.
#[test]
fn a_diverged_network_fit_writes_no_network() {
    let (dir, _) = setup("train-diverge");
    let scored = scored_data(&dir, 20);
    let network = dir.join("network.bin");
    let before = include_bytes!("../src/eval/network.bin");
    std::fs::write(&network, before).unwrap();
    for rate in ["1e300", "1e30"] {
        let args = [
            "train",
            "--data",
            common::cli::arg(&scored),
            "--epochs",
            "3",
            "--rate",
            rate,
            "--out",
            common::cli::arg(&network),
        ];
        let line = one_error(&ccr(&args), rate);
        assert!(
            line.starts_with("error: train: the fit diverged at epoch 1 (")
                && line.ends_with("); no network written (try a smaller --rate)"),
            "{rate}: {line}"
        );
        assert!(
            std::fs::read(&network).unwrap() == before,
            "{rate}: changed"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Fewer than 100 positions hold none out (every hundredth is): the epochs and the summary
/// say "none held out", not an error of zero.
#[test]
fn a_network_fit_on_few_positions_holds_none_out() {
    let (dir, _) = setup("train-few");
    let network = dir.join("network.bin");
    for (copies, held) in [(1, None), (10, Some(1))] {
        let scored = scored_data(&dir, copies);
        let args = [
            "train",
            "--data",
            common::cli::arg(&scored),
            "--epochs",
            "2",
            "--out",
            common::cli::arg(&network),
        ];
        let out = ccr(&args);
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert!(out.status.success(), "{stderr}");
        assert!(
            !stdout.contains("-0.0") && !stderr.contains("-0.0"),
            "{stdout}{stderr}"
        );
        let epochs: Vec<&str> = stderr.lines().filter(|l| l.starts_with("epoch")).collect();
        assert_eq!(epochs.len(), 2, "{stderr}");
        match held {
            None => {
                assert!(
                    epochs.iter().all(|l| l.contains(", none held out (")),
                    "{stderr}"
                );
                let summary = format!(
                    "{} positions trained, none held out (fewer than 100 positions); error 0.",
                    11 * copies
                );
                assert!(stdout.starts_with(&summary), "{stdout}");
                assert!(stdout.contains(" trained; network written to "), "{stdout}");
            }
            Some(held) => {
                assert!(
                    epochs.iter().all(|l| l.contains(", held out 0.")),
                    "{stderr}"
                );
                let summary = format!("{} positions trained, {held} held out;", 110 - held);
                assert!(stdout.starts_with(&summary), "{stdout}");
                assert!(
                    stdout.contains(" held out; network written to "),
                    "{stdout}"
                );
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `train --out` and `tune --out` that cannot take a file (a missing directory, a
/// directory) are one error line before any work: no position is read or fitted.
#[test]
fn the_output_is_checked_before_the_fit() {
    let (dir, data) = setup("out-first");
    let scored = scored_data(&dir, 1);
    let missing = dir.join("missing").join("out");
    for out_path in [missing.as_path(), dir.as_path()] {
        let out_arg = common::cli::arg(out_path);
        let train = [
            "train",
            "--data",
            common::cli::arg(&scored),
            "--out",
            out_arg,
        ];
        let tune = tune_args(&data, out_path, "5");
        for args in [&train[..], &tune[..]] {
            let out = ccr(args);
            let what = format!("{args:?}");
            let line = one_error(&out, &what);
            assert_eq!(text(&out.stderr).lines().count(), 1, "{what}: {line}");
            assert!(
                line.starts_with(&format!("error: --out {out_arg}")),
                "{line}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--random-plies` is below 400, the plies after which a game is called a draw: 400 and
/// four billion are one error line and no file, 399 plays (its games end at once, drawn).
#[test]
fn random_plies_stay_below_the_length_of_a_game() {
    let (dir, _) = setup("random-plies");
    let out_file = dir.join("selfplay.txt");
    let out_arg = common::cli::arg(&out_file);
    let args = |plies| {
        [
            "datagen",
            "--games",
            "2",
            "--nodes",
            "50",
            "--random-plies",
            plies,
            "--out",
            out_arg,
        ]
    };
    for plies in ["400", "4000000000"] {
        let line = one_error(&ccr(&args(plies)), plies);
        assert!(
            line.contains("--random-plies") && line.contains(plies),
            "{line}"
        );
        assert!(!out_file.exists(), "--random-plies {plies} made a file");
    }
    let out = ccr(&args("399"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A random opening that reaches a draw by rule ends its game there, as one that mates or
/// stalemates does, with no positions: from a position one quiet ply short of the
/// fifty-move rule, White's random first ply (a king move, White has nothing else) draws,
/// whatever Black's pawn does next.
#[test]
fn a_random_opening_that_draws_by_rule_gives_no_positions() {
    let (dir, _) = setup("opening-draw");
    let openings = dir.join("openings.epd");
    std::fs::write(&openings, "4k3/4p3/8/8/8/8/8/4K3 w - - 99 60\n").unwrap();
    let out_file = dir.join("selfplay.txt");
    let args = [
        "datagen",
        "--games",
        "20",
        "--nodes",
        "50",
        "--random-plies",
        "2",
        "--openings",
        common::cli::arg(&openings),
        "--out",
        common::cli::arg(&out_file),
    ];
    let out = ccr(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("20 games, 0 positions written to "),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(std::fs::read(&out_file).unwrap(), b"");
    std::fs::remove_dir_all(&dir).unwrap();
}
