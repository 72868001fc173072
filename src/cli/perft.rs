//! `ccr perft`: the leaves of the legal move tree, in any representation and implementation.

use std::io::{self, Write};
use std::time::Instant;

use ccr::Leaves;
use ccr::positions::STARTPOS;
use ccr::{Impl, Notation, Position, Repr, Representation, Variant, WithRepresentation};

use super::{Failure, emit};

/// The arguments of `ccr perft`.
#[derive(clap::Args)]
pub struct Args {
    /// Plies to search.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=30))]
    depth: u32,
    /// Start from this position instead of the initial one.
    #[arg(long, default_value = STARTPOS)]
    fen: String,
    /// Board representation: ccr, x88, bitboard (C.C.R. in the tree, converted to
    /// bitboards for move generation), bitboard-native (bitboards made move by move) or
    /// rotated (rotated bitboards, Hyatt's line lookups).
    #[arg(long, default_value = "ccr", value_parser = parse_repr)]
    repr: Repr,
    /// Implementation: portable, simd or asm (hand-written x86, where built). With --repr
    /// ccr they build the enemy's attack table (AVX2 / assembly; the assembly also gives
    /// the sliders' targets), with --repr bitboard they convert the board; 0x88,
    /// bitboard-native and rotated are portable only.
    #[arg(long = "impl", value_name = "IMPL", default_value = "portable", value_parser = parse_impl)]
    implementation: Impl,
    /// Count the last ply's legal moves without making them.
    #[arg(long)]
    bulk: bool,
    /// Print `move: count` for each root move first.
    #[arg(long)]
    divide: bool,
    /// Chess960: read the FEN's castling field as X-FEN or Shredder-FEN on any setup, and
    /// write castling as the king taking its own rook (`e1h1`). The C.C.R. only.
    #[arg(long)]
    chess960: bool,
}

/// Runs `ccr perft`.
pub fn run(args: Args) -> Result<(), Failure> {
    let Args {
        depth,
        fen,
        repr,
        implementation,
        bulk,
        divide,
        chess960,
    } = args;
    let Some(variant) = Variant::new(repr, implementation) else {
        let built: Vec<&str> = repr.implementations().iter().map(|i| i.name()).collect();
        return Err(Failure(format!(
            "--impl {} is not built for --repr {}; built: {}",
            implementation.name(),
            repr.name(),
            built.join(", ")
        )));
    };
    let pos =
        Position::parse_fen(&fen, chess960).map_err(|e| Failure(format!("invalid FEN: {e}")))?;
    if pos.is_chess960() && repr != Repr::Ccr {
        return Err(Failure(format!(
            "--repr {} does not castle by Chess960's rules; this position needs them (use --repr ccr)",
            repr.name()
        )));
    }
    let leaves = if bulk { Leaves::Bulk } else { Leaves::Make };
    let start = Instant::now();
    let (out, nodes, kernel) = variant.dispatch(Count {
        pos: &pos,
        depth,
        leaves,
        divide,
        notation: pos.notation(chess960),
    });
    let seconds = start.elapsed().as_secs_f64();
    emit(&out)?;
    let rate = nodes as f64 / seconds.max(1e-9) / 1e6;
    let _ = writeln!(
        io::stderr(),
        "time {seconds:.6} s, {rate:.1} M nodes/s, kernel {kernel}"
    );
    Ok(())
}

/// `--repr`'s value: one of the representations.
fn parse_repr(name: &str) -> Result<Repr, String> {
    Repr::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Repr::ALL.iter().map(|r| r.name()).collect();
        format!("unknown --repr '{name}'; available: {}", names.join(", "))
    })
}

/// `--impl`'s value: one of the implementations this build has.
fn parse_impl(name: &str) -> Result<Impl, String> {
    let built: Vec<&str> = Impl::built().iter().map(|i| i.name()).collect();
    match Impl::from_name(name) {
        Some(implementation) if implementation.is_built() => Ok(implementation),
        Some(_) => Err(format!(
            "--impl {name} is not built yet; available: {}",
            built.join(", ")
        )),
        None => Err(format!(
            "unknown --impl '{name}'; available: {}",
            built.join(", ")
        )),
    }
}

/// Perft (or divide) of `pos` to `depth`, for [`Variant::dispatch`].
struct Count<'a> {
    pos: &'a Position,
    depth: u32,
    leaves: Leaves,
    divide: bool,
    notation: Notation,
}

impl WithRepresentation for Count<'_> {
    /// The output text, the node count and the kernel that ran.
    type Output = (String, u64, &'static str);

    fn run<R: Representation>(self, _: Variant) -> (String, u64, &'static str) {
        let (out, nodes) = count::<R>(
            self.pos,
            self.depth,
            self.leaves,
            self.divide,
            self.notation,
        );
        (out, nodes, R::KERNEL)
    }
}

/// Perft (or divide) in representation `R`: the output text and the node count.
fn count<R: Representation>(
    pos: &Position,
    depth: u32,
    leaves: Leaves,
    divide: bool,
    notation: Notation,
) -> (String, u64) {
    let board = R::from_position(pos);
    let mut out = String::new();
    let nodes = if divide {
        let split = ccr::divide(&board, depth, leaves);
        for (mv, n) in &split {
            out.push_str(&format!("{}: {n}\n", notation.text(*mv)));
        }
        if depth == 0 {
            1
        } else {
            split.iter().map(|&(_, n)| n).sum()
        }
    } else {
        ccr::perft(&board, depth, leaves)
    };
    out.push_str(&format!("Nodes searched: {nodes}\n"));
    (out, nodes)
}
