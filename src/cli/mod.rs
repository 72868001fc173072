//! The commands of `ccr`, one module each: the arguments (a `clap::Args` struct) and the
//! function that runs the command. A command returns its output through [`emit`] (all at
//! once) or fails with a [`Failure`], which `main` reports as `error: …` with exit status 2.

pub mod bench;
pub mod eval;
pub mod key;
pub mod keystats;
pub mod on_board;
pub mod perft;
pub mod probe;
pub mod tables;
pub mod tune;
pub mod whole_file;

use std::io::{self, Write};

use ccr::Evaluator;
use ccr::Position;

/// A failure to report as `error: …` with exit status 2.
pub struct Failure(pub String);

/// Parses a FEN for a command, as the contract's one-line error on failure.
pub fn position(fen: &str) -> Result<Position, Failure> {
    Position::from_fen(fen).map_err(|e| Failure(format!("invalid FEN: {e}")))
}

/// `--eval` / `--via`'s value: one of the evaluators.
pub fn parse_evaluator(name: &str) -> Result<Evaluator, String> {
    Evaluator::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Evaluator::ALL.iter().map(|e| e.name()).collect();
        format!(
            "unknown evaluator '{name}'; available: {}",
            names.join(", ")
        )
    })
}

/// Writes all of a command's output at once, so an error leaves nothing half-written.
pub fn emit(out: &str) -> Result<(), Failure> {
    let mut stdout = io::stdout().lock();
    stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| Failure(format!("cannot write the result: {e}")))
}

/// All of standard input as text, in a buffer grown fallibly (it can be as long as the user
/// likes).
pub fn read_stdin() -> Result<String, Failure> {
    use std::io::Read;
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 1 << 14];
    let mut stdin = io::stdin().lock();
    loop {
        let n = match stdin.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Failure(format!("cannot read standard input: {e}"))),
        };
        bytes.try_reserve(n).map_err(|_| {
            Failure(format!(
                "no memory to read standard input (after {} bytes)",
                bytes.len()
            ))
        })?;
        bytes.extend_from_slice(&chunk[..n]);
    }
    String::from_utf8(bytes).map_err(|_| {
        Failure("cannot read standard input: stream did not contain valid UTF-8".to_string())
    })
}
