//! Perft by the oracle crates (shakmaty, cozy-chess, chess) with `ccr perft`'s contract:
//! `crate_perft CRATE DEPTH [--bulk] [--fen FEN]` prints `Nodes searched: N` on stdout and
//! `time S s` on stderr (the search alone: no start-up, no FEN parsing), so that
//! `scripts/reproduce.py` times the crates exactly as it times ccr, on x86_64 and i686.
//!
//! The perft functions are the benchmarks' own (benches/common), which do the work
//! `ccr::perft::perft` does: every leaf made, or the last ply counted (`--bulk`).

use std::process::ExitCode;
use std::time::Instant;

#[path = "../benches/common/mod.rs"]
mod common;

use common::{chess3, cozy, shak};

const USAGE: &str = "usage: crate_perft shakmaty|cozy-chess|chess DEPTH [--bulk] [--fen FEN]";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The parsed command line.
struct Args {
    name: String,
    depth: u32,
    bulk: bool,
    fen: String,
}

fn parse(mut words: impl Iterator<Item = String>) -> Result<Args, String> {
    let name = words.next().ok_or(USAGE)?;
    if !["shakmaty", "cozy-chess", "chess"].contains(&name.as_str()) {
        return Err(format!("unknown crate {name:?}; {USAGE}"));
    }
    let depth = words.next().ok_or(USAGE)?;
    let depth = match depth.parse::<u32>() {
        Ok(d) if (1..=9).contains(&d) => d,
        _ => return Err(format!("depth must be 1-9, not {depth:?}")),
    };
    let (mut bulk, mut fen) = (false, START.to_string());
    while let Some(word) = words.next() {
        match word.as_str() {
            "--bulk" => bulk = true,
            "--fen" => fen = words.next().ok_or("--fen needs a FEN")?,
            other => return Err(format!("unexpected argument {other:?}; {USAGE}")),
        }
    }
    Ok(Args {
        name,
        depth,
        bulk,
        fen,
    })
}

/// Runs `perft` on the parsed position, timing the search alone.
fn timed<P>(position: P, perft: impl Fn(&P) -> u64) -> (u64, f64) {
    let start = Instant::now();
    let nodes = perft(&position);
    (nodes, start.elapsed().as_secs_f64())
}

fn run(args: &Args) -> Result<(u64, f64), String> {
    let d = args.depth;
    // The benches' `position` helpers panic on a bad FEN; check it with shakmaty first.
    args.fen
        .parse::<shakmaty::fen::Fen>()
        .map_err(|e| format!("bad FEN: {e}"))?
        .into_position::<shakmaty::Chess>(shakmaty::CastlingMode::Standard)
        .map_err(|e| format!("illegal position: {e}"))?;
    Ok(match (args.name.as_str(), args.bulk) {
        ("shakmaty", false) => timed(shak::position(&args.fen), |p| shak::perft_make(p, d)),
        ("shakmaty", true) => timed(shak::position(&args.fen), |p| shak::perft_bulk(p, d)),
        ("cozy-chess", false) => timed(cozy::position(&args.fen), |p| cozy::perft_make(p, d)),
        ("cozy-chess", true) => timed(cozy::position(&args.fen), |p| cozy::perft_bulk(p, d)),
        (_, false) => timed(chess3::position(&args.fen), |p| chess3::perft_make(p, d)),
        (_, true) => timed(chess3::position(&args.fen), |p| chess3::perft_bulk(p, d)),
    })
}

fn main() -> ExitCode {
    match parse(std::env::args().skip(1)).and_then(|args| run(&args)) {
        Ok((nodes, seconds)) => {
            println!("Nodes searched: {nodes}");
            eprintln!(
                "time {seconds:.6} s, {:.1} M nodes/s",
                nodes as f64 / seconds.max(1e-9) / 1e6
            );
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}
