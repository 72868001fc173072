//! The command line under limits, on the built binary: a small address space (`ulimit -v`),
//! a file-size limit (`ulimit -f`), a full or closed standard output (and the null device
//! opened for reading and writing, which is not a closed one), a data file whose last line
//! has no newline. Whatever runs short, the program ends with one stderr line `error: …` and
//! exit status 2: no panic, no abort, no hang (every run has a deadline, and
//! `RUST_BACKTRACE=1` is set, under which a panic without memory would hang in its
//! backtrace), no output lost in silence, no half-written record.

#![cfg(target_os = "linux")]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use ccr::Position;
use ccr::positions::KIWIPETE;
use common::cli::{arg, datagen_args, keystats_args, tune_args, wait_within};

/// How long any one run may take before it counts as hung.
const DEADLINE: Duration = Duration::from_secs(120);

/// Runs `ccr ARGS` through `sh -c '<setup>; exec ccr ARGS <redirect>'` with
/// `RUST_BACKTRACE=1` and `stdin` as standard input; kills it and fails the test if it
/// outlives the deadline.
fn run_in(setup: &str, redirect: &str, args: &[&str], stdin: &str) -> Output {
    let script = format!("{setup}; exec \"$0\" \"$@\" {redirect}");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_ccr"))
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let input = stdin.as_bytes().to_vec();
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = pipe.write_all(&input);
    });
    let out = wait_within(child, DEADLINE, format!("{script} {args:?}"));
    let _ = writer.join();
    out
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Asserts exit status 2 and a stderr that is exactly one `error: …` line; returns it.
fn one_error(out: &Output, what: &str) -> String {
    let line = last_error(out, what);
    assert_eq!(text(&out.stderr).lines().count(), 1, "{what}: {line:?}");
    line
}

/// Like [`one_error`] for commands that report progress on stderr: the error is the last
/// line and the only `error:` line.
fn last_error(out: &Output, what: &str) -> String {
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    assert_eq!(
        out.status.code(),
        Some(2),
        "{what}: {:?} {stderr}",
        out.status
    );
    let errors: Vec<&str> = stderr.lines().filter(|l| l.contains("error:")).collect();
    assert_eq!(errors.len(), 1, "{what}: {stderr:?}");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(last.starts_with("error: "), "{what}: {stderr:?}");
    last.to_string()
}

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ccr-limits-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Two labelled positions in `dir/data.txt`, enough for `ccr tune` to run.
fn training_data(dir: &Path) -> PathBuf {
    let data = dir.join("data.txt");
    std::fs::write(
        &data,
        "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 12;1.0\n4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 12;0.5\n",
    )
    .unwrap();
    data
}

/// The commands that read a position or a file, each with its standard input: key, tables
/// and bitboards of `fen`, a short tune on `data` into `weights`, one datagen game into
/// `generated`.
fn commands_on<'a>(
    fen: &'a str,
    data: &'a Path,
    weights: &'a Path,
    generated: &'a Path,
) -> Vec<(Vec<&'a str>, &'static str)> {
    vec![
        (vec!["key"], "8/8/8/8/8/8/8/K1k5 w - - 0 1\n"),
        (vec!["tables", "--fen", fen], ""),
        (vec!["bitboards", "--fen", fen], ""),
        (tune_args(data, weights, "5"), ""),
        (datagen_args(generated, "1", "50"), ""),
    ]
}

/// Asserts that `data` is whole `FEN;RESULT` lines that the tuner reads as such.
fn assert_whole_records(data: &str) {
    assert!(
        data.is_empty() || data.ends_with('\n'),
        "a cut last line: {data:?}"
    );
    for line in data.lines() {
        let (fen, result) = line
            .split_once(';')
            .unwrap_or_else(|| panic!("no ';' in {line:?}"));
        assert!(Position::from_fen(fen).is_ok(), "{line:?}");
        assert!(["1.0", "0.5", "0.0"].contains(&result), "{line:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Memory

/// An address space too small for bench's 16 MiB table: bench's table size is part of its
/// signature, so it is an error, not a smaller table.
#[test]
fn bench_without_memory_is_one_error_line() {
    let out = run_in("ulimit -v 16000", "", &["bench", "2"], "");
    let line = one_error(&out, "bench 2");
    assert!(line.contains("no memory"), "{line}");
    assert!(out.stdout.is_empty());
}

/// `ccr bench 2` in an address space of `kbytes` KiB, with `RUST_BACKTRACE=<backtrace>`.
fn bench_in(kbytes: u32, backtrace: &str) -> Output {
    let child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kbytes}; exec \"$0\" bench 2"))
        .arg(env!("CARGO_BIN_EXE_ccr"))
        .env("RUST_BACKTRACE", backtrace)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    wait_within(
        child,
        Duration::from_secs(30),
        format!("bench 2 under ulimit -v {kbytes}, RUST_BACKTRACE={backtrace}"),
    )
}

/// Where bench's table fits and its search or its sampler thread may not: from 4,000 KiB
/// below the least address space it runs in on this build (found by bisection) to 1,000
/// above, every 100 KiB, with and without `RUST_BACKTRACE` (under which a panic without
/// memory hung in its backtrace), bench prints its signature or one error line: never a
/// panic, an abort or a hang.
#[test]
fn bench_at_the_edge_of_its_memory() {
    let (mut low, mut high) = (16_000, 64_000);
    assert!(
        bench_in(high, "0").status.success(),
        "bench needs more than {high} KiB"
    );
    while high - low > 50 {
        let middle = (low + high) / 2;
        if bench_in(middle, "0").status.success() {
            high = middle;
        } else {
            low = middle;
        }
    }
    let (mut signatures, mut errors) = (0, 0);
    for kbytes in (high - 4_000..=high + 1_000).step_by(100) {
        for backtrace in ["0", "1"] {
            let out = bench_in(kbytes, backtrace);
            let what = format!("ulimit -v {kbytes}, RUST_BACKTRACE={backtrace}");
            let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
            match out.status.code() {
                Some(0) => {
                    let last = stdout.lines().last().unwrap_or_default();
                    let words: Vec<&str> = last.split(' ').collect();
                    assert!(
                        matches!(words[..], [n, "nodes", _, "nps"] if n.parse::<u64>().is_ok()),
                        "{what}: {stdout}"
                    );
                    assert!(stderr.is_empty(), "{what}: {stderr}");
                    signatures += 1;
                }
                _ => {
                    one_error(&out, &what);
                    errors += 1;
                }
            }
        }
    }
    // The scan straddles the edge.
    assert!(signatures > 0 && errors > 0, "{signatures} {errors}");
}

/// keystats' bucket buffers do not fit: one error line, and its working directory is gone.
#[test]
fn keystats_without_memory_is_one_error_line() {
    let dir = scratch("keystats-oom");
    let out = run_in("ulimit -v 16000", "", &keystats_args("1000", &dir, &[]), "");
    let line = one_error(&out, "keystats");
    assert!(line.contains("no memory"), "{line}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "left behind");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Input larger than the address space (`key`'s standard input, `tune`'s data): the buffers
/// that would hold it are reserved fallibly, so it is one error line, not an abort.
#[test]
fn input_larger_than_memory_is_one_error_line() {
    let dir = scratch("big-input");
    let line = "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 12;1.0\n";
    let big = line.repeat(24 << 20 >> 5);
    let data = dir.join("data.txt");
    std::fs::write(&data, &big).unwrap();
    let fens: String = big.replace(";1.0", "");
    let out = run_in("ulimit -v 16000", "", &["key"], &fens);
    let error = one_error(&out, "key");
    assert!(error.contains("no memory"), "{error}");
    let weights = dir.join("weights.rs");
    let out = run_in(
        "ulimit -v 16000",
        "",
        &["tune", "--data", arg(&data), "--out", arg(&weights)],
        "",
    );
    let error = one_error(&out, "tune");
    assert!(error.contains("no memory"), "{error}");
    assert!(!weights.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The other commands in the same small address space: they do their work or fail with one
/// line, never a panic or an abort.
#[test]
fn other_commands_in_a_small_address_space() {
    let dir = scratch("small");
    let data = training_data(&dir);
    let (weights, generated) = (dir.join("weights.rs"), dir.join("dg"));
    let fen = KIWIPETE;
    let mut commands = vec![
        (vec!["perft", "4", "--divide", "--fen", fen], ""),
        (vec!["perft", "4", "--repr", "x88"], ""),
        (
            vec!["perft", "4", "--repr", "bitboard-native", "--bulk"],
            "",
        ),
    ];
    commands.extend(commands_on(fen, &data, &weights, &generated));
    for (args, stdin) in commands {
        let out = run_in("ulimit -v 16000", "", &args, stdin);
        let stderr = text(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        match out.status.code() {
            Some(0) => assert!(!out.stdout.is_empty(), "{args:?}"),
            Some(2) => {
                let errors: Vec<&str> = stderr.lines().filter(|l| l.contains("error")).collect();
                assert_eq!(errors.len(), 1, "{args:?}: {stderr}");
                assert!(
                    stderr.lines().last().unwrap().starts_with("error: "),
                    "{stderr}"
                );
            }
            _ => panic!("{args:?}: {:?} {stderr}", out.status),
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `ccr datagen` of `games` games on `threads` threads (100 nodes a move) in an address
/// space of `kbytes` KiB: the scratch directory, the output file and the run.
fn datagen_threads(
    name: &str,
    kbytes: u32,
    games: &str,
    threads: &str,
) -> (PathBuf, PathBuf, Output) {
    let dir = scratch(name);
    let data = dir.join("data.txt");
    let args = [
        datagen_args(&data, games, "100"),
        vec!["--threads", threads],
    ]
    .concat();
    let out = run_in(&format!("ulimit -v {kbytes}"), "", &args, "");
    (dir, data, out)
}

/// `--threads` above `--games` takes one table per game, not per thread asked for: two
/// games fit in 300 MB whatever the thread count.
#[test]
fn datagen_takes_the_tables_the_games_need() {
    let (dir, data, out) = datagen_threads("datagen-threads", 300_000, "2", "256");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_whole_records(&std::fs::read_to_string(&data).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Tables that cannot be had: one error line, and no output file is made.
#[test]
fn datagen_without_memory_makes_no_file() {
    let (dir, data, out) = datagen_threads("datagen-oom", 200_000, "64", "64");
    let line = one_error(&out, "datagen");
    assert!(line.contains("no memory"), "{line}");
    assert!(!data.exists(), "an output file was made");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `ccr train` in address spaces from too small to load the program to large enough for
/// everything (its weights, their moments and gradients, a second thread's stack), and with
/// more threads than the CPUs (capped to them: 256 threads' stacks would not fit in 200 MB):
/// it trains, or fails with one error line naming the memory or the threads, never a panic
/// or an abort. Some spaces are too small and some large enough.
#[test]
fn train_without_memory_or_threads_is_one_error_line() {
    let dir = scratch("train-oom");
    let scored = dir.join("scored.txt");
    let record = "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 12;1.0;250\n";
    std::fs::write(&scored, record.repeat(20)).unwrap();
    let network = dir.join("network.bin");
    let (mut failed, mut trained) = (0, 0);
    let limits = (6_000..=14_000).step_by(250).map(|kbytes| (kbytes, "2"));
    for (kbytes, threads) in limits.chain([(200_000, "256")]) {
        let _ = std::fs::remove_file(&network);
        let args = [
            "train",
            "--data",
            arg(&scored),
            "--epochs",
            "2",
            "--threads",
            threads,
            "--out",
            arg(&network),
        ];
        let limit = format!("ulimit -v {kbytes}");
        // Below what the process needs to start at all (its libraries mapped, the runtime's
        // first allocations), no command can answer: such a limit tests nothing of train.
        if !run_in(&limit, "", &["--version"], "").status.success() {
            continue;
        }
        let out = run_in(&limit, "", &args, "");
        let what = format!("train --threads {threads} under ulimit -v {kbytes}");
        if out.status.success() {
            let written = std::fs::read(&network).unwrap();
            assert!(ccr::tune::Network::from_bytes(&written).is_some(), "{what}");
            trained += 1;
            continue;
        }
        let line = last_error(&out, &what);
        assert!(
            line.contains("no memory") || line.contains("cannot start"),
            "{what}: {line}"
        );
        assert!(!network.exists(), "{what}: a network was written");
        failed += 1;
    }
    assert!(
        failed > 0 && trained > 0,
        "{failed} failed, {trained} trained"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------
// Files

/// A file-size limit stops datagen mid-game: an error line, and the file holds whole
/// records only (the partial game is cut back; SIGXFSZ does not kill the process: it ignores
/// it, and the write fails with EFBIG). A second run appends cleanly after them.
#[test]
fn datagen_under_a_file_size_limit_keeps_whole_records() {
    let dir = scratch("datagen-fsize");
    let data = dir.join("data.txt");
    let args = datagen_args(&data, "8", "200");
    let out = run_in("ulimit -f 16", "", &args, "");
    let line = one_error(&out, "datagen under ulimit -f");
    assert!(line.contains("File too large"), "{line}");
    let first = std::fs::read_to_string(&data).unwrap();
    assert_whole_records(&first);
    // The error says what the file keeps: the positions are its lines.
    let kept = format!("({} positions) written before", first.lines().count());
    assert!(
        line.contains("whole game") && line.ends_with(&kept),
        "{line}"
    );
    let out = run_in(
        "true",
        "",
        &[datagen_args(&data, "1", "200"), vec!["--seed", "9"]].concat(),
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let second = std::fs::read_to_string(&data).unwrap();
    assert!(second.starts_with(&first) && second.len() > first.len());
    assert_whole_records(&second);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One datagen game appended to a file `data.txt` that holds `before`, in a scratch
/// directory `name`: the run must succeed and leave whole records only. Returns the file's
/// path, what the run wrote on stderr and the file after it.
fn datagen_appending_to(name: &str, before: &str) -> (PathBuf, String, String) {
    let dir = scratch(name);
    let data = dir.join("data.txt");
    std::fs::write(&data, before).unwrap();
    let out = run_in("true", "", &datagen_args(&data, "1", "200"), "");
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let after = std::fs::read_to_string(&data).unwrap();
    assert_whole_records(&after);
    std::fs::remove_dir_all(&dir).unwrap();
    (data, stderr, after)
}

/// A file that ends in a partial record (a writer killed mid-line) loses that partial line
/// before datagen appends, and stderr says so: no record is glued onto it.
#[test]
fn datagen_drops_a_partial_last_line() {
    let whole = "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 12;1.0\n";
    let before = format!("{whole}4k3/4p3/8/8/8/8/4P");
    let (data, stderr, after) = datagen_appending_to("datagen-partial", &before);
    let said = format!(
        "datagen: the last line of {} had no newline and is not a record; dropped it (18 \
         bytes, starting \"4k3/4p3/8/8/8/8/4P\")",
        data.display()
    );
    assert_eq!(stderr.lines().next(), Some(said.as_str()), "{stderr}");
    assert!(after.starts_with(whole), "{after}");
    assert!(after.len() > whole.len());
}

/// A last line without its newline that is a whole record (written by another tool or by
/// hand) is kept: datagen adds its newline before appending, and says so on stderr.
#[test]
fn datagen_keeps_a_last_record_without_its_newline() {
    let records = "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 12;0.5\n\
                   r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 4 4;1.0";
    let (data, stderr, after) = datagen_appending_to("datagen-unterminated", records);
    let said = format!(
        "datagen: the last line of {} had no newline; it is a record, kept with its newline \
         added",
        data.display()
    );
    assert_eq!(stderr.lines().next(), Some(said.as_str()), "{stderr}");
    assert!(after.starts_with(&format!("{records}\n")), "{after}");
    assert!(after.len() > records.len() + 1);
}

/// A write that fails at once (`/dev/full`) is an error that says no game was written, not
/// that the file keeps the games written before; the device is written to, not replaced.
#[test]
fn datagen_to_a_full_device_claims_no_games() {
    use std::os::unix::fs::FileTypeExt;
    let out = run_in(
        "true",
        "",
        &datagen_args(Path::new("/dev/full"), "1", "50"),
        "",
    );
    let line = one_error(&out, "datagen --out /dev/full");
    assert_eq!(
        line,
        "error: cannot write /dev/full: No space left on device (os error 28); no game was \
         written to it"
    );
    let full = std::fs::symlink_metadata("/dev/full").unwrap();
    assert!(full.file_type().is_char_device());
}

/// A second writer to a datagen output (another `ccr datagen` holds its lock for its run:
/// here the test holds it) is refused with one line and changes nothing: no record of it is
/// glued into the other's, and its failure cannot cut the other's games. Once the lock is
/// free, the run appends.
#[test]
fn datagen_refuses_a_second_writer() {
    use std::os::unix::io::AsRawFd;
    let dir = scratch("datagen-locked");
    let data = dir.join("data.txt");
    let before = "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 12;1.0\n";
    std::fs::write(&data, before).unwrap();
    let holder = std::fs::File::open(&data).unwrap();
    // SAFETY: flock only reads the descriptor, which `holder` keeps open through the call.
    let locked = unsafe { libc::flock(holder.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    assert_eq!(locked, 0, "the test takes the lock");
    let out = run_in("true", "", &datagen_args(&data, "1", "200"), "");
    let line = one_error(&out, "datagen while another writer holds the lock");
    assert_eq!(
        line,
        format!(
            "error: cannot write {}: another process holds its lock (another ccr datagen \
             writing to it); nothing was written",
            data.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&data).unwrap(), before);
    drop(holder);
    let out = run_in("true", "", &datagen_args(&data, "1", "200"), "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let after = std::fs::read_to_string(&data).unwrap();
    assert!(after.starts_with(before) && after.len() > before.len());
    assert_whole_records(&after);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A pipe as `--out` (`/dev/stdout` here) is written to as a file is: nothing is read back
/// from it and no lock stands in the way.
#[test]
fn datagen_writes_to_a_pipe() {
    let out = run_in(
        "true",
        "",
        &datagen_args(Path::new("/dev/stdout"), "1", "50"),
        "",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (records, summary) = stdout.trim_end().rsplit_once('\n').expect("records");
    assert!(summary.starts_with("1 games, "), "{summary}");
    assert_whole_records(&format!("{records}\n"));
}

/// An existing `--out` that is not datagen data is refused with one line and left byte for
/// byte as it was: a MiB without a newline, binary data ending in a line that is no record
/// (as an archive may), text lines, records followed by more than a record's length, a
/// record followed by a tail that cannot begin one.
#[test]
fn datagen_refuses_a_file_that_is_not_data() {
    let dir = scratch("datagen-not-data");
    let data = dir.join("data.txt");
    let record = "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 12;1.0\n";
    // Bytes of every value but the newline, in a fixed scramble.
    let noise: Vec<u8> = (0u32..1 << 20)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .map(|b| if b == b'\n' { b'x' } else { b })
        .collect();
    let mut binary_lines = noise[..4096].to_vec();
    binary_lines[1000] = b'\n';
    binary_lines[4000] = b'\n';
    let long_tail = [record.as_bytes(), "1".repeat(2000).as_bytes()].concat();
    let bad_tail = [record.as_bytes(), b"\x89PNG\r".as_slice()].concat();
    let cases: [(&str, Vec<u8>, &str); 5] = [
        ("a MiB without a newline", noise, "without its newline"),
        ("binary lines", binary_lines, "its last line"),
        ("text", b"hello\nworld\n".to_vec(), "its last line"),
        ("a long tail", long_tail, "without its newline"),
        (
            "a tail no record begins like",
            bad_tail,
            "without its newline",
        ),
    ];
    for (what, before, said) in cases {
        std::fs::write(&data, &before).unwrap();
        let out = run_in("true", "", &datagen_args(&data, "1", "100"), "");
        let line = one_error(&out, what);
        let start = format!("error: {} is not datagen data (", data.display());
        assert!(line.starts_with(&start), "{what}: {line}");
        assert!(line.contains(said), "{what}: {line}");
        assert!(
            line.ends_with("nothing was written to it"),
            "{what}: {line}"
        );
        assert!(std::fs::read(&data).unwrap() == before, "{what}: changed");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `train --out` and `tune --out` are written whole: a write that fails (`ulimit -f`) is one
/// error line and leaves the network or weights that were there byte for byte, and no
/// temporary file beside them.
#[test]
fn train_and_tune_keep_the_old_output_when_the_write_fails() {
    let dir = scratch("whole-outputs");
    let scored = dir.join("scored.txt");
    let record = "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 12;1.0;250\n";
    std::fs::write(&scored, record.repeat(10)).unwrap();
    let data = training_data(&dir);
    let network = dir.join("network.bin");
    let weights = dir.join("weights.rs");
    let old_network = include_bytes!("../src/eval/network.bin");
    let old_weights = include_bytes!("../src/eval/weights.rs");
    std::fs::write(&network, old_network).unwrap();
    std::fs::write(&weights, old_weights).unwrap();
    let train = [
        "train",
        "--data",
        arg(&scored),
        "--epochs",
        "1",
        "--out",
        arg(&network),
    ];
    for (args, limit, file, old) in [
        (train.to_vec(), "ulimit -f 64", &network, &old_network[..]),
        (
            tune_args(&data, &weights, "5"),
            "ulimit -f 4",
            &weights,
            &old_weights[..],
        ),
    ] {
        let out = run_in(limit, "", &args, "");
        let line = last_error(&out, &format!("{args:?} under {limit}"));
        assert!(line.contains("File too large"), "{line}");
        assert!(
            std::fs::read(file).unwrap() == old,
            "{args:?}: the old file changed"
        );
    }
    let mut left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(
        left,
        ["data.txt", "network.bin", "scored.txt", "weights.rs"]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------
// Standard output full or closed

/// Every command's result to a full device (`>/dev/full`) and to a closed standard output
/// (`>&-`) is an error line and exit 2, not exit 0 with the output lost.
#[test]
fn lost_output_is_an_error() {
    let dir = scratch("lost");
    let data = training_data(&dir);
    let weights = dir.join("weights.rs");
    let generated = dir.join("dg.txt");
    let fen = "4k3/8/8/8/6N1/4P3/R1B1K3/8 w - - 0 1";
    let mut commands: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--help"], ""),
        (vec!["--version"], ""),
        (vec!["perft", "2"], ""),
        (vec!["perft", "2", "--divide"], ""),
        (vec!["bench", "1"], ""),
        (keystats_args("2000", &dir, &[]), ""),
    ];
    commands.extend(commands_on(fen, &data, &weights, &generated));
    for redirect in [">/dev/full", ">&-"] {
        for (args, stdin) in &commands {
            let out = run_in("true", redirect, args, stdin);
            let what = format!("{args:?} {redirect}");
            let line = last_error(&out, &what);
            assert!(line.contains("cannot write the result"), "{what}: {line}");
        }
    }
    // No keystats working directory is left behind.
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("ccr-keystats-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Writing to `/dev/null` is not a lost output: it succeeds.
#[test]
fn output_to_dev_null_succeeds() {
    for args in [vec!["--version"], vec!["perft", "2"]] {
        let out = run_in("true", ">/dev/null", &args, "");
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    }
}

/// The null device opened for reading and writing, as `1<>/dev/null`, Python's
/// `subprocess.DEVNULL`, daemon(3) and systemd's `StandardOutput=null` give it, is output
/// thrown away on purpose, not a closed one: every command runs, and datagen and keystats
/// write their files. A standard output closed by the shell (`>&-`) is still refused.
#[test]
fn the_null_device_opened_for_reading_and_writing_is_not_a_closed_output() {
    let dir = scratch("null-rw");
    let data = dir.join("data.txt");
    let part = dir.join("part.tsv");
    let commands = [
        vec!["perft", "2"],
        datagen_args(&data, "1", "50"),
        keystats_args("2000", &dir, &["--shard", "1/1", "--out", arg(&part)]),
    ];
    for args in &commands {
        let out = run_in("true", "1<>/dev/null", args, "");
        assert!(
            out.status.success(),
            "{args:?} 1<>/dev/null: {}",
            text(&out.stderr)
        );
        // The same descriptor handed over directly, as Python's subprocess.DEVNULL does.
        let null = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/null")
            .expect("the null device opens");
        let out = Command::new(env!("CARGO_BIN_EXE_ccr"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(null)
            .stderr(Stdio::piped())
            .output()
            .expect("ccr runs");
        assert!(
            out.status.success(),
            "{args:?} DEVNULL: {}",
            text(&out.stderr)
        );
    }
    assert_whole_records(&std::fs::read_to_string(&data).unwrap());
    let partial = std::fs::read_to_string(&part).unwrap();
    assert!(partial.starts_with("ccr-keystats partial "), "{partial}");
    let out = run_in("true", ">&-", &["perft", "2"], "");
    let line = one_error(&out, "perft 2 >&-");
    assert_eq!(
        line,
        "error: cannot write the result: standard output is closed"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
