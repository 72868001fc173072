//! The UCI command loop on arbitrary sequences of lines, `go`/`stop`/`setoption`/
//! `ucinewgame`/`position` races included.
//!
//! The lines go through `Uci::run` as a GUI would send them, all at once, so every command
//! meets whatever the search thread is doing. Checked: no panic; exactly one `bestmove` per
//! `go` read before `quit`; every output line whole; no control character in an
//! `info string`. To keep an input fast, every `go` gets a node limit appended (later
//! arguments win, so it always holds; `go infinite` still waits for `stop` or the end of
//! input), `Hash` values above 8 MiB become 8, and only the first 32 `go` lines are kept.

#![no_main]

use ccr::{Uci, UciOutput as Output};
use libfuzzer_sys::fuzz_target;

/// Most `go` commands kept from one input.
const MAX_GOS: usize = 32;
/// The node limit appended to every `go`.
const NODES: u64 = 2_000;
/// The largest `Hash` passed on, MiB.
const MAX_HASH: u64 = 8;

/// `line` made cheap to run: a node limit on `go`, a small `Hash`.
fn tame(line: &str) -> String {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    match tokens.first() {
        // The `0` gives a dangling `depth`, `wtime`… a value, or ends `searchmoves`, so
        // that `nodes` is always read as the limit.
        Some(&"go") => format!("{} 0 nodes {NODES}", line.trim_end()),
        Some(&"setoption") => {
            let value = tokens.iter().position(|&t| t == "value");
            let name = tokens[1..value.unwrap_or(tokens.len())].join(" ");
            match value.and_then(|i| tokens.get(i + 1)) {
                Some(v) if name.eq_ignore_ascii_case("name hash") => match v.parse::<u64>() {
                    Ok(mb) if mb > MAX_HASH => format!("setoption name Hash value {MAX_HASH}"),
                    _ => line.to_string(),
                },
                _ => line.to_string(),
            }
        }
        _ => line.to_string(),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Vec::new();
    let mut gos = 0;
    for raw in data.split(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(raw);
        let first = line.split_whitespace().next();
        if first == Some("go") {
            if gos == MAX_GOS {
                continue;
            }
            gos += 1;
        }
        input.extend_from_slice(tame(&line).as_bytes());
        input.push(b'\n');
        if first == Some("quit") {
            break;
        }
    }

    let (out, transcript) = Output::transcribed();
    Uci::new(out).run(&input[..]);

    let text = transcript.text();
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "a line cut short: {text:?}"
    );
    let bestmoves = text.lines().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(
        bestmoves, gos,
        "{gos} go commands, {bestmoves} bestmoves:\n{text}"
    );
    for line in text.lines().filter(|l| l.starts_with("info string")) {
        assert!(!line.chars().any(char::is_control), "unescaped: {line:?}");
    }
});
