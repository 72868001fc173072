//! `ccr probe`: the Syzygy tables' verdict on each FEN line of standard input.

use ccr::Position;
use ccr::Tablebases;

use super::{Failure, emit, read_stdin};

/// The arguments of `ccr probe`.
#[derive(clap::Args)]
pub struct Args {
    /// The tables' directories, separated by ':' (as `SyzygyPath`).
    #[arg(long, value_name = "PATH")]
    syzygy: String,
}

/// Runs `ccr probe`: one line per FEN, `wdl W dtz D` (W from -2 to 2 and D Syzygy's DTZ,
/// both from the side to move's view, with the half-move clock taken as zero) or `not in
/// tables: WHY`. Blank lines are skipped; a bad FEN fails the whole run before anything is
/// written.
pub fn run(args: Args) -> Result<(), Failure> {
    let tables = Tablebases::load(&args.syzygy).map_err(|e| Failure(format!("--syzygy: {e}")))?;
    let input = read_stdin()?;
    let mut out = String::new();
    for (number, line) in input
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let pos = Position::from_fen(line)
            .map_err(|e| Failure(format!("invalid FEN: line {}: {e}", number + 1)))?;
        let verdict = tables
            .probe_wdl(&pos)
            .and_then(|wdl| tables.probe_root(&pos).map(|root| (wdl, root.dtz)));
        match verdict {
            Ok((wdl, dtz)) => out.push_str(&format!("wdl {} dtz {dtz}\n", wdl.value())),
            Err(why) => out.push_str(&format!("not in tables: {why}\n")),
        }
    }
    emit(&out)
}
