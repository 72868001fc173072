//! `ccr perft`: the leaves of the legal move tree, in any representation and implementation.

use std::io::{self, Write};
use std::time::Instant;

#[cfg(ccr_asm)]
use ccr::asm::AsmPosition;
use ccr::bitboard::{Bitboards, Hybrid};
use ccr::ccr::Position;
use ccr::ccr::fen::STARTPOS;
use ccr::ccr::simd::SimdPosition;
#[cfg(ccr_asm)]
use ccr::convert::Asm;
use ccr::convert::{Portable, Simd};
use ccr::perft::{self, Leaves};
use ccr::repr::Representation;
use ccr::x88::X88;

use super::{Failure, emit, position};

/// The arguments of `ccr perft`.
#[derive(clap::Args)]
pub struct Args {
    /// Plies to search.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=30))]
    depth: u32,
    /// Start from this position instead of the initial one.
    #[arg(long, default_value = STARTPOS)]
    fen: String,
    /// Board representation: ccr, x88, bitboard (the paper's hybrid: C.C.R. in the
    /// tree, converted to bitboards for move generation) or bitboard-native (bitboards
    /// made move by move).
    #[arg(long, default_value = "ccr")]
    repr: String,
    /// Implementation: portable, simd or asm (hand-written x86, where built). With --repr
    /// ccr they build the enemy's attack table (AVX2 / assembly; the assembly also gives
    /// the sliders' targets), with --repr bitboard they convert the board; 0x88 and
    /// bitboard-native are portable only.
    #[arg(long = "impl", default_value = "portable")]
    implementation: String,
    /// Count the last ply's legal moves without making them.
    #[arg(long)]
    bulk: bool,
    /// Print `move: count` for each root move first.
    #[arg(long)]
    divide: bool,
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
    } = args;
    const REPRS: [&str; 4] = ["ccr", "x88", "bitboard", "bitboard-native"];
    check_choice("--repr", &repr, &REPRS, &[])?;
    // The assembly is there when build.rs found asm/ for this architecture.
    let (impls, missing): (&[&str], &[&str]) = if cfg!(ccr_asm) {
        (&["portable", "simd", "asm"], &[])
    } else {
        (&["portable", "simd"], &["asm"])
    };
    check_choice("--impl", &implementation, impls, missing)?;
    let built = implementations(&repr);
    if !built.contains(&implementation.as_str()) {
        return Err(Failure(format!(
            "--impl {implementation} is not built for --repr {repr}; built: {}",
            built.join(", ")
        )));
    }
    let pos = position(&fen)?;
    let leaves = if bulk { Leaves::Bulk } else { Leaves::Make };
    let start = Instant::now();
    let (out, nodes) = match (repr.as_str(), implementation.as_str()) {
        ("ccr", "simd") => count::<SimdPosition>(&pos, depth, leaves, divide),
        #[cfg(ccr_asm)]
        ("ccr", "asm") => count::<AsmPosition>(&pos, depth, leaves, divide),
        ("ccr", _) => count::<Position>(&pos, depth, leaves, divide),
        ("x88", _) => count::<X88>(&pos, depth, leaves, divide),
        ("bitboard", "simd") => count::<Hybrid<Simd>>(&pos, depth, leaves, divide),
        #[cfg(ccr_asm)]
        ("bitboard", "asm") => count::<Hybrid<Asm>>(&pos, depth, leaves, divide),
        ("bitboard", _) => count::<Hybrid<Portable>>(&pos, depth, leaves, divide),
        _ => count::<Bitboards>(&pos, depth, leaves, divide),
    };
    let seconds = start.elapsed().as_secs_f64();
    emit(&out)?;
    let rate = nodes as f64 / seconds.max(1e-9) / 1e6;
    let _ = writeln!(io::stderr(), "time {seconds:.3} s, {rate:.1} M nodes/s");
    Ok(())
}

/// Checks a `--repr` or `--impl` choice against what this build offers.
fn check_choice(
    option: &str,
    value: &str,
    available: &[&str],
    planned: &[&str],
) -> Result<(), Failure> {
    if available.contains(&value) {
        Ok(())
    } else if planned.contains(&value) {
        Err(Failure(format!(
            "{option} {value} is not built yet; available: {}",
            available.join(", ")
        )))
    } else {
        Err(Failure(format!(
            "unknown {option} '{value}'; available: {}",
            available.join(", ")
        )))
    }
}

/// The implementations built for a representation: the C.C.R. takes the enemy's attack
/// table from AVX2 (`simd`) or the assembly (`asm`), the bitboard hybrid its conversion;
/// 0x88 and native bitboards are portable only.
fn implementations(repr: &str) -> Vec<&'static str> {
    let asm = cfg!(ccr_asm);
    match repr {
        "ccr" | "bitboard" if asm => vec!["portable", "simd", "asm"],
        "ccr" | "bitboard" => vec!["portable", "simd"],
        _ => vec!["portable"],
    }
}

/// Perft (or divide) in representation `R`: the output text and the node count.
fn count<R: Representation>(
    pos: &Position,
    depth: u32,
    leaves: Leaves,
    divide: bool,
) -> (String, u64) {
    let board = R::from_position(pos);
    let mut out = String::new();
    let nodes = if divide {
        let split = perft::divide(&board, depth, leaves);
        for (mv, n) in &split {
            out.push_str(&format!("{mv}: {n}\n"));
        }
        if depth == 0 {
            1
        } else {
            split.iter().map(|&(_, n)| n).sum()
        }
    } else {
        perft::perft(&board, depth, leaves)
    };
    out.push_str(&format!("Nodes searched: {nodes}\n"));
    (out, nodes)
}
