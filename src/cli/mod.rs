//! The commands of `ccr`, one module each: the arguments (a `clap::Args` struct) and the
//! function that runs the command. A command returns its output through [`emit`] (all at
//! once) or fails with a [`Failure`], which `main` reports as `error: …` with exit status 2.

pub mod bench;
pub mod eval;
pub mod key;
pub mod keystats;
pub mod on_board;
pub mod perft;
pub mod tables;
pub mod tune;
pub mod whole_file;

use std::io::{self, Write};

use ccr::Position;
use ccr::eval::Evaluator;

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
