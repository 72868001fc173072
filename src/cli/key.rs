//! `ccr key`: one key per FEN line of standard input.

use ccr::Position;
use ccr::polyglot_key;
use ccr_keystats::Zobrist;

use super::on_board::OnBoard;
use super::{Failure, emit, read_stdin};

/// The arguments of `ccr key`.
#[derive(clap::Args)]
pub struct Args {
    /// The Zobrist baseline instead of the rotation key.
    #[arg(long, conflicts_with = "polyglot")]
    zobrist: bool,
    /// The Polyglot book key instead of the rotation key.
    #[arg(long)]
    polyglot: bool,
    /// Read castling fields as X-FEN or Shredder-FEN on any Chess960 setup (the rotation
    /// key, which tells castling rights apart by their rook's file).
    #[arg(long, conflicts_with_all = ["zobrist", "polyglot"])]
    chess960: bool,
}

/// Runs `ccr key`.
pub fn run(args: Args) -> Result<(), Failure> {
    let Args {
        zobrist,
        polyglot,
        chess960,
    } = args;
    let input = read_stdin()?;
    // 17 bytes per key line, reserved fallibly: the input can be as long as the user likes.
    let mut out = String::new();
    out.try_reserve_exact(input.lines().count().saturating_mul(17))
        .map_err(|_| Failure("no memory for the keys".to_string()))?;
    // Blank lines are skipped; any bad line fails the whole run before anything is written.
    for (number, line) in input
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let pos = Position::parse_fen(line, chess960)
            .map_err(|e| Failure(format!("invalid FEN: line {}: {e}", number + 1)))?;
        let key = if zobrist {
            Zobrist::get().key(&OnBoard(&pos))
        } else if polyglot {
            polyglot_key(&pos)
        } else {
            pos.key()
        };
        out.push_str(&format!("{key:016x}\n"));
    }
    emit(&out)
}
