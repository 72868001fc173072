//! `ccr bench`: the fixed positions searched to a fixed depth; the node count is the
//! search's signature.

use ccr::eval::Evaluator;

use super::{Failure, emit, parse_evaluator};

/// The arguments of `ccr bench`.
#[derive(clap::Args)]
pub struct Args {
    /// The depth of every search.
    #[arg(value_parser = clap::value_parser!(i32).range(1..=64), default_value_t = ccr::bench::DEFAULT_DEPTH)]
    depth: i32,
    /// The static evaluation: frame (the frame over the C.C.R. and its attack tables) or
    /// bitboards (the board converted to bitboards, the paper's hybrid). The node count is
    /// the same with either.
    #[arg(long, value_name = "EVAL", default_value = "frame", value_parser = parse_evaluator)]
    eval: Evaluator,
}

/// Runs `ccr bench`.
pub fn run(args: Args) -> Result<(), Failure> {
    let Args { depth, eval } = args;
    let (lines, elapsed) = ccr::bench::run(depth, eval).map_err(Failure)?;
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let best = line
            .outcome
            .best
            .map_or("(none)".to_string(), |m| m.to_string());
        out.push_str(&format!(
            "position {:2} bestmove {best:5} nodes {:9} {}\n",
            i + 1,
            line.outcome.nodes,
            line.fen
        ));
    }
    let nodes: u64 = lines.iter().map(|l| l.outcome.nodes).sum();
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    out.push_str(&format!("{nodes} nodes {nps} nps\n"));
    emit(&out)
}
