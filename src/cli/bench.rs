//! `ccr bench`: the fixed positions searched to a fixed depth; the node count is the
//! search's signature, the last line printed on either stream (OpenBench merges stderr into
//! stdout and reads the last lines). With `--profile`, where the search spent its nodes and
//! time goes to stderr before it.

use std::io::{self, Write};

use ccr::Evaluator;
use ccr::bench::BenchRun;
use ccr::{Repr, Representation, Variant, WithRepresentation};

use super::{Failure, emit, parse_evaluator};

/// The arguments of `ccr bench`.
#[derive(clap::Args)]
pub struct Args {
    /// The depth of every search.
    #[arg(value_parser = clap::value_parser!(i32).range(1..=64), default_value_t = ccr::bench::DEFAULT_DEPTH)]
    depth: i32,
    /// The static evaluation: network (the engine as it plays: the frame's score with the
    /// network's correction), frame (the frame over the C.C.R. and its attack tables) or
    /// bitboards (the board converted to bitboards, the paper's hybrid; the frame's node
    /// count).
    #[arg(long, value_name = "EVAL", default_value = "network", value_parser = parse_evaluator)]
    eval: Evaluator,
    /// Also print, on stderr and before the signature, where the search went: the
    /// quiescence search's share of the nodes and of the time, and the bytes copy-make copies.
    #[arg(long)]
    profile: bool,
}

/// Runs `ccr bench`.
pub fn run(args: Args) -> Result<(), Failure> {
    let Args {
        depth,
        eval,
        profile: with_profile,
    } = args;
    let bench = ccr::bench::run(depth, eval).map_err(Failure)?;
    let mut out = String::new();
    for (i, line) in bench.lines.iter().enumerate() {
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
    let nodes: u64 = bench.lines.iter().map(|l| l.outcome.nodes).sum();
    let nps = (nodes as f64 / bench.elapsed.as_secs_f64().max(1e-9)) as u64;
    out.push_str(&format!("{nodes} nodes {nps} nps\n"));
    if with_profile {
        // On stderr, and first: the signature stays the last line of either stream.
        let _ = io::stderr().write_all(profile(&bench, nodes).as_bytes());
    }
    emit(&out)
}

/// Where the search went: the quiescence search's share of the nodes and of the time, and
/// the bytes copy-make copies per node with each representation's position.
fn profile(bench: &BenchRun, nodes: u64) -> String {
    let quiescence: u64 = bench
        .lines
        .iter()
        .map(|l| l.outcome.counts.quiescence_nodes)
        .sum();
    let copies: u64 = bench.lines.iter().map(|l| l.outcome.counts.copies).sum();
    let percent = |part: u64, whole: u64| 100.0 * part as f64 / whole.max(1) as f64;
    let per_node = copies as f64 / nodes.max(1) as f64;
    let sizes: Vec<String> = Repr::ALL
        .into_iter()
        .filter_map(|repr| Variant::new(repr, ccr::Impl::Portable))
        .map(|variant| {
            let bytes = variant.dispatch(PositionBytes);
            format!(
                "{} {:.1} ({bytes} B)",
                variant.repr.name(),
                per_node * bytes as f64
            )
        })
        .collect();
    format!(
        "quiescence {:.1} % of nodes ({quiescence} of {nodes}), {:.1} % of time ({} of {} samples)\n\
         copy-make {per_node:.3} positions per node; bytes copied per node (position size): {}\n",
        percent(quiescence, nodes),
        percent(bench.quiescence_samples, bench.samples),
        bench.quiescence_samples,
        bench.samples,
        sizes.join(", ")
    )
}

/// The bytes of one position of a representation.
struct PositionBytes;

impl WithRepresentation for PositionBytes {
    type Output = usize;

    fn run<R: Representation>(self, _: Variant) -> usize {
        R::size_in_bytes()
    }
}
