//! `ccr tables` and `ccr bitboards`: a position's attack tables and its bitboards.

use ccr::AttackBlock;
use ccr::kernels::to_bitboards;

use super::{Failure, emit, position};

/// The arguments of `ccr tables` and `ccr bitboards`: the position.
#[derive(clap::Args)]
pub struct Args {
    /// The position.
    #[arg(long)]
    fen: String,
}

/// Runs `ccr tables`: the board and both attack tables as hex rank words.
pub fn tables(args: Args) -> Result<(), Failure> {
    let Args { fen } = args;
    let block = AttackBlock::new(position(&fen)?.board());
    let mut out = String::new();
    for (name, part) in ["ccr", "white_attacks", "black_attacks"]
        .iter()
        .zip(block.parts())
    {
        let words: Vec<String> = part.iter().map(|w| format!("{w:08x}")).collect();
        out.push_str(&format!("{name}: {}\n", words.join(" ")));
    }
    emit(&out)
}

/// Runs `ccr bitboards`: the 16 bitboards converted from the C.C.R.
pub fn bitboards(args: Args) -> Result<(), Failure> {
    let Args { fen } = args;
    let boards = to_bitboards(position(&fen)?.board());
    let out: String = boards
        .iter()
        .enumerate()
        .map(|(code, board)| format!("{code}: {board:016x}\n"))
        .collect();
    emit(&out)
}
