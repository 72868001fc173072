//! `ccr eval`: a position's static evaluation, term group by term group, by either
//! evaluator; the last line is the score in centipawns from the side to move's view.

use ccr::positions::STARTPOS;
use ccr::tune::{FULL_SCALE, MAX_PHASE, S, param};
use ccr::{AttackBlock, Colour, Evaluator, Position};

use super::{Failure, emit, parse_evaluator, position};

/// The arguments of `ccr eval`.
#[derive(clap::Args)]
pub struct Args {
    /// The position (the initial one if not given).
    #[arg(long, default_value = STARTPOS)]
    fen: String,
    /// The evaluator: frame (the frame over the C.C.R. and its attack tables), bitboards
    /// (the board converted to bitboards, the paper's hybrid; the same terms and score) or
    /// network (the learnt evaluation, which has no terms: its score alone).
    #[arg(long, value_name = "EVAL", default_value = "frame", value_parser = parse_evaluator)]
    via: Evaluator,
}

/// Runs `ccr eval`.
pub fn run(args: Args) -> Result<(), Failure> {
    let Args { fen, via } = args;
    let pos = position(&fen)?;
    emit(&report(&pos, via))
}

/// The breakdown and, last, the score from the side to move's view.
fn report(pos: &Position, via: Evaluator) -> String {
    let mut out = format!("evaluator {}\n", via.name());
    let Some(b) = via.breakdown(pos) else {
        let ours = via.evaluate(pos, &AttackBlock::new(pos.board()));
        let white = match pos.side() {
            Colour::White => ours,
            Colour::Black => -ours,
        };
        out.push_str(&format!("white's view {white}\n{ours}\n"));
        return out;
    };
    out.push_str(&format!(
        "{:<18} {:>8} {:>8} {:>8} {:>8}\n",
        "term", "white mg", "white eg", "black mg", "black eg"
    ));
    let (mut white, mut black) = (S::default(), S::default());
    for (name, params) in param::GROUPS {
        let (w, k) = (
            b.sum(Colour::White, params.clone()),
            b.sum(Colour::Black, params),
        );
        out.push_str(&format!(
            "{name:<18} {:>8} {:>8} {:>8} {:>8}\n",
            w.mg, w.eg, k.mg, k.eg
        ));
        (white.mg, white.eg, black.mg, black.eg) = (
            white.mg + w.mg,
            white.eg + w.eg,
            black.mg + k.mg,
            black.eg + k.eg,
        );
    }
    out.push_str(&format!(
        "{:<18} {:>8} {:>8} {:>8} {:>8}\n",
        "total", white.mg, white.eg, black.mg, black.eg
    ));
    if b.drawn {
        out.push_str("drawn by material: no pawns and at most a minor piece each\n");
    } else {
        out.push_str(&format!(
            "phase {} of {MAX_PHASE}, end-game scale {} of {FULL_SCALE}\n",
            b.phase, b.scale
        ));
    }
    out.push_str(&format!("white's view {}\n", b.white));
    let ours = match pos.side() {
        Colour::White => b.white,
        Colour::Black => -b.white,
    };
    out.push_str(&format!("{ours}\n"));
    out
}
