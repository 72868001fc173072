//! `ccr bench` (OpenBench style): a fixed set of positions, each searched to
//! a fixed depth on one thread with a fresh table of fixed size, so the total node count is a
//! signature of the search — any change to what the engine searches changes it.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use crate::ccr::Position;
use crate::eval::Evaluator;
use crate::history::History;
use crate::search::room::Reservation;
use crate::search::tt::TranspositionTable;
use crate::search::{Control, Limits, Outcome, Profile, SEARCH_HEADROOM, Search};

/// The depth `ccr bench` searches without an argument.
pub const DEFAULT_DEPTH: i32 = 11;

/// The table size of every bench search, MiB.
const HASH_MB: usize = 16;

/// The positions: the six standard perft positions, then openings, middle games and
/// endings of every kind.
pub const POSITIONS: [&str; 24] = [
    crate::positions::STARTPOS,
    crate::positions::KIWIPETE,
    crate::positions::POSITION_3,
    crate::positions::POSITION_4,
    crate::positions::POSITION_5,
    crate::positions::POSITION_6,
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    "r1bq1rk1/ppp1bppp/2n2n2/3pp3/2PP4/2N1PN2/PP2BPPP/R1BQK2R w KQ - 0 7",
    "r2q1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1PN1PN2/PB2BPPP/R2Q1RK1 w - - 0 10",
    "2rq1rk1/pp1bppbp/2np1np1/8/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 5 12",
    "r1b2rk1/2q1bppp/p2ppn2/1p6/3BPP2/2N2B2/PPPQ2PP/2KR3R w - - 0 14",
    "3r1rk1/p4ppp/1qp1b3/2b1P3/8/1BN1Q3/PPP3PP/3R1R1K b - - 0 20",
    "r4rk1/pp3ppp/2n1b3/q1pp2B1/8/P1Q2NP1/1PP1PP1P/2KR3R w - - 0 15",
    "2r3k1/1q3ppp/p3p3/1p1nP3/3P4/P4N2/1P2QPPP/2R3K1 w - - 0 25",
    "6k1/5p1p/6p1/8/3r4/6P1/5PKP/4R3 w - - 0 40",
    "8/5pk1/6p1/p7/P1R5/5KP1/5P2/2r5 b - - 3 45",
    "8/8/4kpp1/3p1b2/p6P/2B5/6P1/6K1 b - - 0 47",
    "8/3k4/8/2PK4/8/8/8/8 w - - 0 1",
    "8/8/8/5k2/8/8/2KB4/3N4 w - - 0 1",
    "4k3/8/8/8/8/8/3PPP2/4K3 w - - 0 1",
    "6k1/8/8/8/8/8/1Q6/6K1 w - - 0 1",
    "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 0 7",
    "8/pp3p1k/2p2q1p/3r1P2/5R2/7P/P1P1QP2/7K b - - 0 30",
];

/// How often the sampler looks where the search is: often enough for thousands of samples
/// in a bench of a few seconds, rarely enough to cost the search nothing measurable.
const SAMPLE_INTERVAL: Duration = Duration::from_millis(1);

/// The sampler's stack: it only sleeps and reads a flag.
const SAMPLER_STACK: usize = 64 << 10;

/// One position's result.
pub struct BenchLine {
    /// The position.
    pub fen: &'static str,
    /// What the search found.
    pub outcome: Outcome,
}

/// A whole bench: each position's result, the time, and where the time went.
pub struct BenchRun {
    /// One line per position.
    pub lines: Vec<BenchLine>,
    /// The time of all the searches.
    pub elapsed: Duration,
    /// Samples taken while the searches ran.
    pub samples: u64,
    /// Of those, the samples that found the search in its quiescence search.
    pub quiescence_samples: u64,
}

/// Searches every position to `depth` (one thread, a fresh 16 MiB table each time) while
/// a sampler thread notes every millisecond whether the search is in its quiescence
/// search, with `evaluator`. The table's size is part of the signature, so when those 16 MiB
/// cannot be had there is no smaller table, only an error; so is too little memory left
/// beside it for the search or for the sampler's thread. Both evaluators give the same
/// scores, so the signature is the same with either.
pub fn run(depth: i32, evaluator: Evaluator) -> Result<BenchRun, String> {
    let tt = TranspositionTable::new(HASH_MB)
        .ok_or_else(|| format!("bench: no memory for its {HASH_MB} MiB table"))?;
    // The search's own allocations and stack beside the table, probed before it starts: an
    // allocation that fails in the middle of a search ends the process.
    if Reservation::hold(SEARCH_HEADROOM).is_none() {
        return Err(format!(
            "bench: no memory for the search beside its {HASH_MB} MiB table"
        ));
    }
    let control = Control::default();
    let profile = Profile::default();
    let done = AtomicBool::new(false);
    let start = Instant::now();
    let (lines, (samples, quiescence_samples)) = std::thread::scope(|scope| {
        let sampler = std::thread::Builder::new()
            .name("sampler".into())
            .stack_size(SAMPLER_STACK)
            .spawn_scoped(scope, || sample(&profile, &done))
            .map_err(|e| format!("bench: cannot start the sampler thread ({e})"))?;
        let lines = search_all(depth, &tt, &control, &profile, evaluator);
        done.store(true, Relaxed);
        // A sampler that panicked took no samples.
        Ok::<_, String>((lines, sampler.join().unwrap_or((0, 0))))
    })?;
    Ok(BenchRun {
        lines,
        elapsed: start.elapsed(),
        samples,
        quiescence_samples,
    })
}

/// Counts samples, and those in the quiescence search, until `done`.
fn sample(profile: &Profile, done: &AtomicBool) -> (u64, u64) {
    let (mut samples, mut quiescence) = (0, 0);
    while !done.load(Relaxed) {
        std::thread::sleep(SAMPLE_INTERVAL);
        samples += 1;
        quiescence += profile.in_quiescence.load(Relaxed) as u64;
    }
    (samples, quiescence)
}

/// The searches of every position.
fn search_all(
    depth: i32,
    tt: &TranspositionTable,
    control: &Control,
    profile: &Profile,
    evaluator: Evaluator,
) -> Vec<BenchLine> {
    POSITIONS
        .iter()
        .map(|&fen| {
            tt.clear();
            let root = Position::from_fen(fen).expect("bench positions are valid");
            let mut history = History::new();
            history.push(root.key(), root.halfmove_clock());
            let search = Search {
                tt,
                control,
                root,
                history,
                limits: Limits {
                    depth: Some(depth),
                    ..Limits::default()
                },
                threads: 1,
                profile: Some(profile),
                evaluator,
                syzygy: None,
            };
            BenchLine {
                fen,
                outcome: search.run(&mut |_| {}),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_valid_and_distinct() {
        let mut keys: Vec<u64> = POSITIONS
            .iter()
            .map(|fen| Position::from_fen(fen).unwrap().key())
            .collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), POSITIONS.len());
    }

    #[test]
    fn bench_is_deterministic() {
        let total = |lines: &[BenchLine]| lines.iter().map(|l| l.outcome.nodes).sum::<u64>();
        let (a, b) = (
            run(4, Evaluator::Frame).unwrap(),
            run(4, Evaluator::Frame).unwrap(),
        );
        assert_eq!(total(&a.lines), total(&b.lines));
        assert!(a.lines.iter().all(|l| l.outcome.best.is_some()));
    }

    #[test]
    fn both_evaluators_search_the_same_tree() {
        let nodes = |evaluator| {
            run(3, evaluator)
                .unwrap()
                .lines
                .iter()
                .map(|l| (l.outcome.nodes, l.outcome.best, l.outcome.score))
                .collect::<Vec<_>>()
        };
        assert_eq!(nodes(Evaluator::Frame), nodes(Evaluator::Bitboards));
    }
}
