//! `ccr keystats` on the built binary: a small run prints the result tables on stdout,
//! exits 0 and leaves no working files behind; the shards of a run (`--shard K/N --out FILE`)
//! merge (`--merge FILE…`) into the tables one process prints; bad arguments (a missing
//! `--dir`, a bad shard, a missing or incomplete partial result among them) are one stderr
//! line `error: …` with exit status 2 and nothing on stdout; SIGINT and SIGTERM remove the
//! working files before the process ends, at once even while the bucket files are made on a
//! slow disk. `--out` follows symbolic links and refuses what is not a regular file; `--merge`
//! reads line by line and refuses a bad field or a checksum that does not match.

use crate::common;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use common::cli::{
    arg, assert_no_panic, assert_one_error_line, ccr, keystats_args, spawn_ccr, text, wait_within,
};

/// A fresh directory for one test's working files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ccr-keystats-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Runs `ccr keystats` of `positions` positions with the arguments `more` in a fresh
/// directory for `name`, which must succeed; returns the directory, stdout and stderr.
fn successful_run(name: &str, positions: &str, more: &[&str]) -> (PathBuf, String, String) {
    let dir = scratch(name);
    let out = ccr(&keystats_args(positions, &dir, more));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    (dir, stdout, stderr)
}

#[test]
fn a_small_run_prints_the_tables() {
    let (dir, stdout, stderr) = successful_run("run", "20k", &["--seed", "5"]);
    assert_no_panic(&stderr);
    for row in [
        "### Full 64-bit collisions",
        "| rotation | 20,",
        "| zobrist | 20,",
        "| rotation | top 32 |",
        "| zobrist | low 56 |",
        "| rotation | 2^20 | low 20 bits |",
        "| zobrist | 2^24 | top 24 bits |",
        "### Bits flipped per move (avalanche)",
        "| **incremental update** (the first row minus `make`) |",
        "| **from scratch** (`RotationKey::key` / `Zobrist::key`) |",
        "### Deviations",
    ] {
        assert!(stdout.contains(row), "missing {row:?} in\n{stdout}");
    }
    // n is reported and at least the count asked for.
    let n: u64 = stdout
        .split("**n = ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .map(|n| n.replace(',', ""))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no n in\n{stdout}"));
    assert!((20_000..22_000).contains(&n), "n = {n}");
    // The working directory is gone.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir(&dir).unwrap();
}

/// `--pairs low24` lists every group of positions whose keys agree in their low 24 bits:
/// each listed key is the rotation (or Zobrist) key of its FEN, the keys of a group agree in
/// those bits and no two groups do.
#[test]
fn pairs_lists_the_positions_of_a_truncation() {
    let (dir, stdout, _) = successful_run("pairs", "20k", &["--pairs", "low24"]);
    let section = stdout
        .split("### Keys agreeing in the low24 bits")
        .nth(1)
        .unwrap_or_else(|| panic!("no section in\n{stdout}"));
    let blocks: Vec<&str> = section.split("```").collect();
    for (scheme, block) in [("rotation", blocks[1]), ("zobrist", blocks[3])] {
        let mut groups: Vec<Vec<u64>> = Vec::new();
        let block = block.strip_prefix("text").expect("a text block");
        for group in block.trim().split("\n\n").filter(|g| !g.is_empty()) {
            let mut keys = Vec::new();
            for line in group.lines() {
                let (key, fen) = line.split_once(' ').expect("key FEN");
                let key = u64::from_str_radix(key, 16).expect("a hex key");
                let pos = ccr::Position::from_fen(fen).expect("a FEN");
                let recomputed = if scheme == "rotation" {
                    pos.key()
                } else {
                    common::zobrist::key(&pos)
                };
                assert_eq!(key, recomputed, "{scheme}: {line}");
                keys.push(key);
            }
            assert!(keys.len() >= 2, "{scheme}: {group}");
            assert!(
                keys.iter().all(|k| k & 0xFF_FFFF == keys[0] & 0xFF_FFFF),
                "{group}"
            );
            groups.push(keys);
        }
        let lows: std::collections::HashSet<u64> =
            groups.iter().map(|g| g[0] & 0xFF_FFFF).collect();
        assert_eq!(
            lows.len(),
            groups.len(),
            "{scheme}: one group per low 24 bits"
        );
        let pairs: usize = groups.iter().map(|g| g.len() * (g.len() - 1) / 2).sum();
        assert!(
            pairs > 0,
            "{scheme}: no pairs (about 12 expected)\n{section}"
        );
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir(&dir).unwrap();
}

#[test]
fn bad_arguments_fail_with_one_line() {
    let dir = scratch("bad");
    let blocker = dir.join("a-file");
    std::fs::write(&blocker, "not a directory").unwrap();
    let below_a_file = blocker.join("sub");
    let missing = dir.join("missing.tsv");
    // The arguments after `keystats`, split at spaces.
    let mut cases: Vec<Vec<&str>> = [
        "--positions 0",
        "--positions many",
        "--positions 1.5",
        "--positions 1e",
        "--positions -3",
        "--seed x",
        "--pairs low65",
        "--pairs mid48",
        "--pairs top",
        "--bogus",
        "extra",
        "--shard 3/2",
        "--shard 0/0",
        "--shard 1/0",
        "--shard x",
        "--shard 1/2/3",
        "--out somewhere",
        "--merge",
        "--merge a --positions 5",
        "--merge a --shard 1/2",
        "--shard 1/2 --pairs low16",
    ]
    .iter()
    .map(|args| ["keystats"].into_iter().chain(args.split(' ')).collect())
    .collect();
    // Paths: to `--merge` a missing file, a file that is no partial result and a directory;
    // an `--out` below a file and one that is a directory; a `--dir` below a file.
    cases.extend([
        vec!["keystats", "--merge", arg(&missing)],
        vec!["keystats", "--merge", arg(&blocker)],
        vec!["keystats", "--merge", arg(&dir)],
        vec!["keystats", "--shard", "1/2", "--out", arg(&below_a_file)],
        vec!["keystats", "--shard", "1/2", "--out", arg(&dir)],
        keystats_args("100", &below_a_file, &[]),
    ]);
    for args in cases {
        assert_one_error_line(&ccr(&args), &args);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The markdown without the lines that are timings (the time line and the cost section).
fn without_timings(text: &str) -> String {
    let (before, after) = text
        .split_once("### Cost per key")
        .unwrap_or_else(|| panic!("no cost section in\n{text}"));
    let after = &after[after.find("\n### ").expect("a section after the cost")..];
    before
        .lines()
        .chain(after.lines())
        .filter(|line| !line.starts_with("- time"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Three shards of a run, each a process writing its partial result to a file, merge into the
/// tables one process prints (all but the timings), with the positions of the full collisions
/// and of the keys agreeing in the low 24 bits; a merge of two of the three is refused.
#[test]
fn shards_merge_into_the_one_process_report() {
    let dir = scratch("shards");
    let common = keystats_args("30k", &dir, &["--seed", "3", "--pairs", "low24"]);
    let whole = ccr(&common);
    let (expected, stderr) = (text(&whole.stdout), text(&whole.stderr));
    assert!(whole.status.success(), "{stderr}");
    let mut files = Vec::new();
    for k in 1..=3 {
        let file = dir.join(format!("part-{k}.tsv"));
        let mut args = common.clone();
        let shard = format!("{k}/3");
        args.extend(["--shard", &shard, "--out", file.to_str().unwrap()]);
        let out = ccr(&args);
        let stderr = text(&out.stderr);
        assert!(out.status.success(), "{shard}: {stderr}");
        assert_no_panic(&stderr);
        assert!(out.stdout.is_empty(), "{shard}: the result goes to --out");
        files.push(file.to_str().unwrap().to_string());
    }
    // Only the partial results are left: no working directory, no temporary file.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);
    let mut args = vec!["keystats", "--merge"];
    args.extend(files.iter().rev().map(String::as_str));
    let merged = ccr(&args);
    let (stdout, stderr) = (text(&merged.stdout), text(&merged.stderr));
    assert!(merged.status.success(), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    assert!(stdout.contains("(summed over 3 shards)"), "{stdout}");
    assert!(stdout.contains("### Keys agreeing in the low24 bits"));
    assert_eq!(without_timings(&stdout), without_timings(&expected));

    let two = ccr(&["keystats", "--merge", &files[0], &files[2]]);
    let stderr = text(&two.stderr);
    assert_eq!(two.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr,
        "error: --merge: shard 2/3 is missing (every shard 1/3 to 3/3 is needed)\n"
    );
    assert!(two.stdout.is_empty());
    // A partial result cut short (a shard stopped while writing it) is refused.
    let text_1 = std::fs::read_to_string(&files[0]).unwrap();
    std::fs::write(&files[0], &text_1[..text_1.len() / 2]).unwrap();
    let cut = ccr(&["keystats", "--merge", &files[0], &files[1], &files[2]]);
    let stderr = text(&cut.stderr);
    assert_eq!(cut.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(&format!("error: --merge {}: ", files[0])),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A partial result whose lines end in CR LF (copied through a tool that writes them) merges
/// as the one the shard wrote: the CRs are no part of the lines, nor of the checksum, and
/// never reach the output.
#[test]
fn a_crlf_partial_result_merges_as_its_lf_one() {
    let dir = scratch("crlf");
    let part = dir.join("part.tsv");
    let made = ccr(&keystats_args(
        "2000",
        &dir,
        &["--shard", "1/1", "--out", arg(&part)],
    ));
    assert!(made.status.success(), "{}", text(&made.stderr));
    let crlf = dir.join("crlf.tsv");
    let lf = std::fs::read_to_string(&part).unwrap();
    std::fs::write(&crlf, lf.replace('\n', "\r\n")).unwrap();
    let expected = ccr(&["keystats", "--merge", arg(&part)]);
    let merged = ccr(&["keystats", "--merge", arg(&crlf)]);
    let (stdout, stderr) = (text(&merged.stdout), text(&merged.stderr));
    assert!(
        !stderr.contains('\r') && !stdout.contains('\r'),
        "{stderr:?}"
    );
    assert!(merged.status.success(), "{stderr}");
    assert_eq!(stdout, text(&expected.stdout));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A `--dir` that does not exist is an error; nothing is made there.
#[test]
fn a_missing_dir_is_an_error() {
    let dir = scratch("missing");
    let missing = dir.join("not").join("there");
    let out = ccr(&keystats_args("100", &missing, &[]));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr,
        format!("error: --dir {}: no such directory\n", missing.display())
    );
    assert!(out.stdout.is_empty());
    assert!(!dir.join("not").exists(), "the path was made");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// SIGINT and SIGTERM stop a run: its working directory is removed, the last stderr line
/// says which signal stopped it, and the exit status is the shell's 128 + N (130, 143).
#[cfg(unix)]
#[test]
fn signals_remove_the_working_directory() {
    use std::time::Instant;
    for (signal, name, code) in [("INT", "SIGINT", 130), ("TERM", "SIGTERM", 143)] {
        let dir = scratch(&format!("signal-{name}"));
        let child = spawn_ccr(&keystats_args("100M", &dir, &[]));
        let work = dir.join(format!("ccr-keystats-{}", child.id()));
        let start = Instant::now();
        // Signal once the run has made its working files.
        while std::fs::read_dir(&work).map_or(0, |d| d.count()) == 0 {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no working files in {}",
                work.display()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(200));
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success());
        let out = wait_within(child, Duration::from_secs(60), format!("{name}: keystats"));
        let stderr = text(&out.stderr);
        assert_no_panic(&stderr);
        assert_eq!(out.status.code(), Some(code), "{name}: {stderr}");
        assert_eq!(
            stderr.lines().last(),
            Some(format!("error: keystats: stopped by {name}; working files removed").as_str()),
            "{name}: {stderr}"
        );
        assert!(out.stdout.is_empty());
        assert!(!work.exists(), "{name}: {} is left", work.display());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Whether `path` is a character device with the null device's numbers (1, 3).
#[cfg(unix)]
fn is_null_device(path: &std::path::Path) -> bool {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    std::fs::symlink_metadata(path)
        .is_ok_and(|m| m.file_type().is_char_device() && m.rdev() == libc::makedev(1, 3))
}

/// `--out` through a symbolic link (absolute, or relative from another directory) writes the
/// file the link points to, and the link stays a link. An `--out` that exists and is not a
/// regular file (a FIFO, a socket, a device node, a directory), a link to one of them or to
/// nothing, or a descriptor of the process (`/dev/stdout` through a link) is refused before
/// any work (a run of 10^8 positions ends at once) with one error line, and is left as it
/// was: the rename would replace the node itself. No device outside the test's directory is
/// ever given as `--out` itself: `/dev/null` only through a link, after the same refusal was
/// seen to work on a FIFO and on a device node made in the test's directory.
#[cfg(unix)]
#[test]
fn out_follows_links_and_refuses_what_is_not_a_regular_file() {
    use std::os::unix::fs::{FileTypeExt, symlink};
    let dir = scratch("out-kinds");
    let work = dir.join("work");
    std::fs::create_dir(&work).unwrap();
    // A refused run of 10^8 positions would take hours; the real run of 2000 takes seconds in
    // a debug build, more on a loaded machine: the limit tells the two apart with room.
    let shard = |out: &std::path::Path, positions: &str| {
        let args = keystats_args(positions, &work, &["--shard", "1/1", "--out", arg(out)]);
        wait_within(
            spawn_ccr(&args),
            Duration::from_secs(120),
            format!("ccr {args:?}"),
        )
    };
    let refused = |out: &std::path::Path, what: &str| {
        let stderr = assert_one_error_line(&shard(out, "100M"), what);
        let expected = format!("error: --out {}: {what}", out.display());
        assert!(
            stderr.starts_with(&expected),
            "{stderr:?} is not {expected:?}…"
        );
        assert_eq!(std::fs::read_dir(&work).unwrap().count(), 0, "{what}");
    };
    let kind = |path: &std::path::Path| std::fs::symlink_metadata(path).unwrap().file_type();

    // A FIFO and a socket stay what they are.
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    refused(&fifo, "is a FIFO");
    assert!(kind(&fifo).is_fifo());
    let socket = dir.join("socket");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    refused(&socket, "is a socket");
    assert!(kind(&socket).is_socket());
    refused(&work, "is a directory");

    // A device node: one made here when the test may (as root), and the null device through
    // a link.
    let node = dir.join("null-node");
    let mknod = Command::new("mknod")
        .arg(&node)
        .args(["c", "1", "3"])
        .stderr(std::process::Stdio::null())
        .status();
    if mknod.is_ok_and(|status| status.success()) {
        refused(&node, "is a character device");
        assert!(
            is_null_device(&node),
            "the node made for the test was replaced"
        );
        let to_node = dir.join("to-node");
        symlink(&node, &to_node).unwrap();
        refused(&to_node, "is a character device");
        assert!(is_null_device(&node));
        assert!(kind(&to_node).is_symlink());
    }
    let to_null = dir.join("to-null");
    symlink("/dev/null", &to_null).unwrap();
    refused(&to_null, "is a character device (/dev/null)");
    assert!(kind(&to_null).is_symlink());
    assert!(is_null_device(std::path::Path::new("/dev/null")));

    // A link to nothing, and a descriptor of the process through a link.
    let dangling = dir.join("dangling");
    symlink(dir.join("missing.tsv"), &dangling).unwrap();
    refused(&dangling, "is a symbolic link to nothing");
    assert!(kind(&dangling).is_symlink());
    assert!(!dir.join("missing.tsv").exists());
    let to_stdout = dir.join("to-stdout");
    symlink("/dev/stdout", &to_stdout).unwrap();
    refused(&to_stdout, "is a descriptor of the process");
    assert!(kind(&to_stdout).is_symlink());

    // Links to a regular file: the file gets the result, the links stay links.
    let target = dir.join("part.tsv");
    std::fs::write(&target, "an older result\n").unwrap();
    let absolute = dir.join("absolute");
    symlink(&target, &absolute).unwrap();
    let sub = dir.join("sub");
    std::fs::create_dir(&sub).unwrap();
    let relative = sub.join("relative");
    symlink("../part.tsv", &relative).unwrap();
    for link in [&absolute, &relative] {
        std::fs::write(&target, "an older result\n").unwrap();
        let result = shard(link, "2000");
        let stderr = text(&result.stderr);
        assert!(result.status.success(), "{}: {stderr}", link.display());
        assert!(kind(link).is_symlink());
        let written = std::fs::read_to_string(&target).unwrap();
        assert!(
            written.starts_with("ccr-keystats partial ") && written.ends_with("end\n"),
            "{}: {written}",
            link.display()
        );
    }
    // No temporary file is left beside the link or the file.
    for folder in [&dir, &sub] {
        for entry in std::fs::read_dir(folder).unwrap() {
            let name = entry.unwrap().file_name();
            assert!(
                !name.to_string_lossy().ends_with(".tmp"),
                "{name:?} is left"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// SIGTERM early in a large run, while it makes its 4,096 bucket files on a slow disk (strace
/// delays every `openat` by 5 ms: 20 s for all of them, as on a loaded network disk), stops it
/// within 2 s with the working directory removed, well before `docker stop` would kill it.
/// Skipped, with a note, where strace is missing or may not trace.
#[cfg(target_os = "linux")]
#[test]
fn sigterm_while_making_the_bucket_files_stops_at_once() {
    use std::process::Stdio;
    use std::time::Instant;
    let traced = Command::new("strace")
        .args(["-qq", "-o", "/dev/null", "true"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !traced.is_ok_and(|status| status.success()) {
        eprintln!("skipped: strace cannot run here (the slow disk is simulated with it)");
        return;
    }
    let dir = scratch("slow-disk");
    let mut child = Command::new("strace")
        .args(["-f", "-qq", "-o", "/dev/null", "-e", "trace=openat"])
        .args(["-e", "inject=openat:delay_exit=5000"])
        .arg(env!("CARGO_BIN_EXE_ccr"))
        .args(["keystats", "--positions", "1e12", "--dir"])
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("strace runs");
    // The working directory's name gives the traced process's id.
    let start = Instant::now();
    let (work, pid) = loop {
        let made = std::fs::read_dir(&dir).unwrap().find_map(|entry| {
            let entry = entry.ok()?;
            let pid = entry
                .file_name()
                .to_str()?
                .strip_prefix("ccr-keystats-")?
                .to_string();
            Some((entry.path(), pid))
        });
        if let Some((work, pid)) = made {
            if std::fs::read_dir(&work).map_or(0, |d| d.count()) >= 20 {
                break (work, pid);
            }
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("no bucket files appeared in {}", dir.display());
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let sent = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let signalled = Instant::now();
    let out = wait_within(child, Duration::from_secs(60), "keystats");
    let took = signalled.elapsed();
    let stderr = text(&out.stderr);
    assert!(
        took < Duration::from_secs(2),
        "stopped after {took:?}: {stderr}"
    );
    assert_no_panic(&stderr);
    assert_eq!(out.status.code(), Some(143), "{stderr}");
    assert_eq!(
        stderr.lines().last(),
        Some("error: keystats: stopped by SIGTERM; working files removed"),
        "{stderr}"
    );
    assert!(!work.exists(), "{} is left", work.display());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The text of a partial result with its checksum line made again over the text before it
/// (64-bit FNV-1a, as README says), as someone who knows the format would; a text without
/// one is left as it is.
fn with_checksum_again(text: &str) -> String {
    let Some(at) = text.find("\nchecksum\t") else {
        return text.to_string();
    };
    let body = &text[..at + 1];
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in body.as_bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{body}checksum\t{hash:016x}\nend\n")
}

/// `--merge` reads a partial result line by line and checks all of it. `/dev/zero` and a
/// large file that is not a partial result are refused at their first line, and a partial
/// result whose second line never ends at its 16 MiB (each in an address space of 200 MB,
/// which a 300 MB file read whole would not fit in); so are seconds that are not a finite
/// number of at least 0, an extra value and an unknown line (the checksum made again, as
/// whoever knows the format could), and a hand-raised pair count (the checksum left as the
/// shard wrote it). Each is one error line naming the file, exit status 2.
#[cfg(target_os = "linux")]
#[test]
fn merge_reads_line_by_line_and_checks_every_field() {
    let dir = scratch("merge-checks");
    let part = dir.join("part.tsv");
    let made = ccr(&keystats_args(
        "2000",
        &dir,
        &["--shard", "1/1", "--out", arg(&part)],
    ));
    assert!(made.status.success(), "{}", text(&made.stderr));
    let merged = ccr(&["keystats", "--merge", part.to_str().unwrap()]);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    let good = std::fs::read_to_string(&part).unwrap();

    let limited = |file: &std::path::Path| {
        let script = "ulimit -v 200000; exec \"$0\" keystats --merge \"$1\"";
        let child = Command::new("sh")
            .args(["-c", script, env!("CARGO_BIN_EXE_ccr")])
            .arg(file)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("sh runs");
        let what = format!("--merge {}", file.display());
        wait_within(child, Duration::from_secs(60), what)
    };
    let refused = |out: &std::process::Output, file: &std::path::Path, what: &str| {
        let stderr = assert_one_error_line(out, what);
        let start = format!("error: --merge {}: ", file.display());
        assert!(
            stderr.starts_with(&start) && stderr.contains(what),
            "{stderr:?} does not say {what:?}"
        );
    };

    let zero = std::path::Path::new("/dev/zero");
    refused(&limited(zero), zero, "not a keystats partial result");
    let big = dir.join("big.bin");
    std::fs::File::create(&big)
        .and_then(|f| f.set_len(300 << 20))
        .unwrap();
    refused(&limited(&big), &big, "not a keystats partial result");
    let endless = dir.join("endless.tsv");
    std::fs::write(&endless, format!("{}\n", good.lines().next().unwrap())).unwrap();
    std::fs::OpenOptions::new()
        .append(true)
        .open(&endless)
        .and_then(|f| f.set_len(300 << 20))
        .unwrap();
    refused(&limited(&endless), &endless, "line 2: longer than");

    let bad = dir.join("bad.tsv");
    let seconds = good.lines().find(|l| l.starts_with("seconds\t")).unwrap();
    let others = seconds.splitn(3, '\t').nth(2).unwrap();
    let seed = good.lines().find(|l| l.starts_with("seed\t")).unwrap();
    for (to, what) in [
        (
            format!("seconds\tNaN\t{others}"),
            "'NaN' is not a finite number",
        ),
        (
            format!("seconds\tinf\t{others}"),
            "'inf' is not a finite number",
        ),
        (
            format!("seconds\t-2\t{others}"),
            "'-2' is not a finite number",
        ),
        (format!("{seed}\t7"), "'seed' has 2 values, not 1"),
        (format!("{seed}\nspeed\t7"), "unknown line 'speed'"),
    ] {
        let from = if to.starts_with("seconds") {
            seconds
        } else {
            seed
        };
        let edited = good.replacen(&format!("\n{from}\n"), &format!("\n{to}\n"), 1);
        std::fs::write(&bad, with_checksum_again(&edited)).unwrap();
        refused(
            &ccr(&["keystats", "--merge", bad.to_str().unwrap()]),
            &bad,
            what,
        );
    }
    // One more pair of keys agreeing in their top 20 bits, by hand.
    let stream = good.lines().find(|l| l.starts_with("stream\t0\t")).unwrap();
    let mut values: Vec<String> = stream.split('\t').map(String::from).collect();
    values[4] = (values[4].parse::<u64>().unwrap() + 1).to_string();
    let raised = good.replacen(stream, &values.join("\t"), 1);
    std::fs::write(&bad, raised).unwrap();
    refused(
        &ccr(&["keystats", "--merge", bad.to_str().unwrap()]),
        &bad,
        "the file was changed after the shard wrote it",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
