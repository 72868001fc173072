//! The search's pruning, reduction and extension constants, named in one place so that each
//! can be found and tuned without reading `negamax`. Scores are in centipawns, depths in plies.
//!
//! Every value is an integer so that every build prunes alike and `ccr bench` counts the same
//! nodes on i686 and x86_64.

/// Half-width of the first aspiration window around the previous iteration's score.
pub(crate) const ASPIRATION_WINDOW: i32 = 25;
/// First iteration searched with an aspiration window (shallower ones use the full window).
pub(crate) const ASPIRATION_MIN_DEPTH: i32 = 5;

/// Reverse futility margin per ply of depth (one ply less when the side is improving).
pub(crate) const RFP_MARGIN: i32 = 80;
/// Deepest node where reverse futility pruning applies.
pub(crate) const RFP_MAX_DEPTH: i32 = 6;

/// Shallowest node where the null move is tried.
pub(crate) const NMP_MIN_DEPTH: i32 = 3;
/// Null-move reduction at any depth, before the depth and eval terms.
pub(crate) const NMP_BASE: i32 = 3;
/// One more ply of null-move reduction per this many plies of depth.
pub(crate) const NMP_DEPTH_DIVISOR: i32 = 4;
/// One more ply of null-move reduction per this many centipawns of static eval above beta.
pub(crate) const NMP_EVAL_DIVISOR: i32 = 200;
/// Most plies the eval term adds to the null-move reduction.
pub(crate) const NMP_EVAL_MAX: i32 = 3;

/// Shallowest node where ProbCut tries the captures that win material.
pub(crate) const PROBCUT_MIN_DEPTH: i32 = 5;
/// How far above beta a capture's shallow search must hold for ProbCut to cut.
pub(crate) const PROBCUT_MARGIN: i32 = 200;
/// How many plies shallower than the node ProbCut's verifying search is.
pub(crate) const PROBCUT_REDUCTION: i32 = 4;

/// Shallowest node searched a ply shallower when it has no hash move (internal iterative
/// reduction).
pub(crate) const IIR_MIN_DEPTH: i32 = 4;

/// Deepest node where late-move pruning applies.
pub(crate) const LMP_MAX_DEPTH: i32 = 3;
/// Quiet moves searched before late-move pruning starts, at depth 0 (see [`late_move_limit`]).
pub(crate) const LMP_BASE: i32 = 3;
/// Growth of the late-move pruning count with the square of the depth.
pub(crate) const LMP_PER_DEPTH_SQ: i32 = 2;

/// Quiet moves searched at `depth` before the rest are pruned: `(3 + 2d²) / 2`, or all of
/// `3 + 2d²` when the side to move is improving.
#[inline]
pub(crate) fn late_move_limit(depth: i32, improving: bool) -> i32 {
    (LMP_BASE + LMP_PER_DEPTH_SQ * depth * depth) / (2 - improving as i32)
}

/// Deepest node where futility pruning of quiet moves applies.
pub(crate) const FUTILITY_MAX_DEPTH: i32 = 2;
/// Futility margin at depth 0.
pub(crate) const FUTILITY_BASE: i32 = 100;
/// Futility margin added per ply of depth.
pub(crate) const FUTILITY_PER_DEPTH: i32 = 100;

/// Deepest node where moves that lose material in the exchange on their square are pruned.
pub(crate) const SEE_PRUNE_MAX_DEPTH: i32 = 6;
/// A quiet move is pruned when it loses more than this per ply of depth in the exchange.
pub(crate) const SEE_QUIET_MARGIN: i32 = 60;
/// A losing capture is pruned when it loses more than this times the depth squared.
pub(crate) const SEE_CAPTURE_MARGIN: i32 = 20;

/// Shallowest node where late moves are reduced.
pub(crate) const LMR_MIN_DEPTH: i32 = 3;
/// Moves searched in full before the later ones are reduced.
pub(crate) const LMR_MIN_MOVES: usize = 2;
/// One ply less reduction per this much quiet-move history.
pub(crate) const LMR_HISTORY_DIVISOR: i32 = 8192;
/// The LMR table's constant term, 0.75 plies, times 2.25 × 1024² (see [`reduction`]).
pub(crate) const LMR_BASE_SCALED: i64 = 1_769_472;
/// The LMR table's divisor, 2.25, times 1024² (both logarithms carry a factor 1024).
pub(crate) const LMR_DIVISOR_SCALED: i64 = 2_359_296;

/// `ln(i) × 1024`, rounded, for i in 1..64 (integers, so that every build reduces alike).
#[rustfmt::skip]
const LN_1024: [i64; 64] = [
    0, 0, 710, 1125, 1420, 1648, 1835, 1993,
    2129, 2250, 2358, 2455, 2545, 2627, 2702, 2773,
    2839, 2901, 2960, 3015, 3068, 3118, 3165, 3211,
    3254, 3296, 3336, 3375, 3412, 3448, 3483, 3516,
    3549, 3580, 3611, 3641, 3670, 3698, 3725, 3751,
    3777, 3803, 3827, 3851, 3875, 3898, 3921, 3943,
    3964, 3985, 4006, 4026, 4046, 4066, 4085, 4104,
    4122, 4140, 4158, 4175, 4193, 4210, 4226, 4243,
];

/// Late-move reduction by depth and move number: `0.75 + ln d × ln n / 2.25` plies.
pub(crate) fn reduction(depth: i32, moves: usize) -> i32 {
    let (d, n) = (depth.clamp(1, 63) as usize, moves.clamp(1, 63));
    ((LMR_BASE_SCALED + LN_1024[d] * LN_1024[n]) / LMR_DIVISOR_SCALED) as i32
}

/// Quiescence delta margin: a capture is skipped when even this much on top of the captured
/// piece leaves the score at or below alpha.
pub(crate) const DELTA_MARGIN: i32 = 200;

/// Largest history bonus (depth² up to this) a quiet move that refutes a node earns.
pub(crate) const HISTORY_BONUS_MAX: i32 = 400;
/// History scores stay within ± this (each update decays the entry toward 0 by its share).
pub(crate) const HISTORY_MAX: i32 = 16_384;
