//! The search: iterative deepening over a principal variation search with aspiration
//! windows, a quiescence search, a shared transposition table and Lazy SMP threads, on the
//! C.C.R. board by copy-make of the position (42 bytes of fields, 48 aligned).
//!
//! Every node builds one [`AttackBlock`] (the board and both attack tables, paper 4.4) and
//! uses it twice: whether the side to move is in check, and the static evaluation (the
//! frame evaluator's; the bitboard one, [`Search::evaluator`], converts the board instead).
//! Captures are ordered and pruned by their static exchange evaluation ([`see`]).

mod node;
mod params;
mod picker;
pub(crate) mod room;
pub mod see;
pub(crate) mod strength;
pub(crate) mod tablebase;
pub(crate) mod time;
pub(crate) mod tt;
pub(crate) mod wdl;

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use crate::arch::Impl;
use crate::ccr::attacks::AttackBlock;
use crate::ccr::{Kernel, Position, WithKernel, with_kernel};
use crate::eval::Evaluator;
use crate::history::History;
use crate::types::Move;
use node::Root;
use params::{ASPIRATION_MIN_DEPTH, ASPIRATION_WINDOW};
use room::Reservation;
use tablebase::{DECISIVE, Plan, Syzygy};
use time::Budget;
use tt::TranspositionTable;

/// The score of being mated now; a mate in n plies scores `MATE - n`.
pub(crate) const MATE: i32 = 32_000;
/// Above every score.
pub(crate) const INFINITY: i32 = 32_001;
/// The deepest ply a search reaches.
pub(crate) const MAX_PLY: usize = 128;
/// Scores at or beyond this are mates (tablebase wins lie just below: [`tablebase::TB_WIN`]).
pub(crate) const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// What limits one search (`go`'s arguments).
#[derive(Clone, Debug, Default)]
pub(crate) struct Limits {
    /// Iterations to complete at most.
    pub depth: Option<i32>,
    /// Nodes to search at most.
    pub nodes: Option<u64>,
    /// Stop once a mate in this many moves is found.
    pub mate: Option<i32>,
    /// Soft and hard time limits, if any.
    pub time: Option<Budget>,
    /// Search only these root moves (empty = all).
    pub searchmoves: Vec<Move>,
    /// How many best root moves to find, each with its own score and line (MultiPV; 0
    /// counts as 1, and there are never more than the legal root moves).
    pub multipv: usize,
}

/// Flags the protocol thread sets while a search runs.
#[derive(Debug, Default)]
pub(crate) struct Control {
    /// Stop as soon as possible.
    pub stop: AtomicBool,
    /// The search ponders (or runs `go infinite`): its time limits wait for `ponderhit`.
    pub pondering: AtomicBool,
}

/// A score as UCI prints it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// The UCI form of a search score.
    pub(crate) fn from_search(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-(MATE + score) / 2)
        } else {
            Score::Cp(score)
        }
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// How often, in nodes, the main thread reads the clock of a timed search: about every
/// quarter of a millisecond, so that a budget of a few milliseconds is kept to.
const CLOCK_INTERVAL: u64 = 256;

/// The stack of each helper thread.
const HELPER_STACK: usize = 8 << 20;

/// The address space a search thread needs beside its stack (its worker's history and
/// principal-variation tables, the thread's own start-up): a thread is started only where
/// this much stays free after its stack, since under an address-space limit a stack that
/// fits exactly leaves the thread's first allocation to abort the process.
pub(crate) const SEARCH_HEADROOM: usize = 2 << 20;

/// Stack sizes tried for the thread that runs a search, largest first: under a small
/// address space a smaller stack still searches. A release build takes a few KiB a ply
/// (160 KiB held the 37-ply lines of a three-second search, 112 KiB did not), so even the
/// smallest holds the deepest line, `MAX_PLY` plies, with room to spare.
pub(crate) const SEARCH_STACKS: [usize; 4] = [16 << 20, 8 << 20, 4 << 20, 2 << 20];

/// The address space the smallest search thread needs: its stack and its headroom. The
/// transposition table is sized with this much kept free, so that a table never takes the
/// memory the search itself needs.
pub(crate) const SEARCH_ROOM: usize = SEARCH_STACKS[SEARCH_STACKS.len() - 1] + SEARCH_HEADROOM;

/// Where a search's time goes, for `ccr bench`: the worker raises the flag while it is
/// inside a quiescence search (from the main search's call at depth 0 to its return), and
/// a sampler on another thread reads it at intervals.
#[derive(Debug, Default)]
pub(crate) struct Profile {
    /// Whether the main thread is in a quiescence search now.
    pub in_quiescence: AtomicBool,
}

/// What the main thread's search did, counted as it went (cheap counters, always on).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Nodes of the quiescence search (of the main thread's nodes, which with one thread are
    /// all of [`Outcome::nodes`]).
    pub quiescence_nodes: u64,
    /// Positions copied by copy-make: every move made and the null moves. A move that
    /// late-move pruning or futility prunes is never made (whether it gives check is read
    /// from the position before it), so each copy is searched.
    pub copies: u64,
}

/// One iteration's report (a UCI `info` line).
#[derive(Clone, Debug)]
pub(crate) struct Info {
    /// The depth completed.
    pub depth: i32,
    /// The deepest ply reached.
    pub seldepth: usize,
    /// The score.
    pub score: Score,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The transposition table's fill, permille.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Which line this is, 1 for the best (MultiPV).
    pub multipv: usize,
    /// Tablebase probes that gave a result, by all threads (`None`: no tables loaded).
    pub tbhits: Option<u64>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The move to play (`None` only without legal moves).
    pub best: Option<Move>,
    /// The reply expected (for pondering).
    pub ponder: Option<Move>,
    /// The score of the best move.
    pub score: i32,
    /// The last depth completed.
    pub depth: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// The main thread's counts.
    pub counts: Counts,
}

/// A search of one root position: the table, the game so far, the limits and the threads.
pub(crate) struct Search<'a> {
    /// The shared transposition table.
    pub tt: &'a TranspositionTable,
    /// The flags of the protocol thread.
    pub control: &'a Control,
    /// The position to search.
    pub root: Position,
    /// The keys of the game's positions up to and including the root, for repetitions.
    pub history: History,
    /// The limits.
    pub limits: Limits,
    /// How many threads search (Lazy SMP).
    pub threads: usize,
    /// Where the main thread tells a sampler whether it is in the quiescence search, if
    /// anyone samples.
    pub profile: Option<&'a Profile>,
    /// The static evaluation's implementation (the same score either way).
    pub evaluator: Evaluator,
    /// The Syzygy tables and how to use them, if any are loaded.
    pub syzygy: Option<Syzygy<'a>>,
}

impl Search<'_> {
    /// Runs the search; `report` receives the main thread's iterations.
    pub(crate) fn run(&self, report: &mut dyn FnMut(&Info)) -> Outcome {
        self.run_then(report, |outcome| outcome)
    }

    /// Runs the search and hands its outcome to `finish` as soon as the main thread has it:
    /// the helper threads are told to stop then, but `finish` does not wait for them to be
    /// scheduled and end (they are joined after it returns). The main thread alone decides
    /// when the search ends.
    pub(crate) fn run_then<R>(
        &self,
        report: &mut dyn FnMut(&Info),
        finish: impl FnOnce(Outcome) -> R,
    ) -> R {
        with_kernel(
            Impl::Simd,
            OnKernel {
                search: self,
                report,
                finish,
            },
        )
    }

    /// [`Search::run_then`] on the kernel `K`, the engine's, chosen once per search.
    fn run_on<K: Kernel, R>(
        &self,
        report: &mut dyn FnMut(&Info),
        finish: impl FnOnce(Outcome) -> R,
    ) -> R {
        let threads = self.threads.max(1);
        let counters: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
        let helpers_stop = AtomicBool::new(false);
        let start = Instant::now();
        self.tt.new_search();
        // The root's tablebase probes, before any other thread probes.
        let plan = self
            .syzygy
            .map(|s| s.plan(&self.root, &self.history))
            .unwrap_or_default();
        let tb_hits = AtomicU64::new(plan.root_hits);
        let shared = Shared {
            counters: &counters,
            helpers_stop: &helpers_stop,
            plan: &plan,
            tb_hits: &tb_hits,
        };
        std::thread::scope(|scope| {
            // The main thread's tables first: helpers' stacks must not take their memory.
            let mut main = Worker::<K>::new(self, 0, shared, start);
            for id in 1..threads {
                // A helper the system cannot start (`Threads` beyond what memory allows) is
                // left out: the search runs on the threads it has. So is one whose stack
                // would leave the searches no heap.
                if Reservation::hold(HELPER_STACK + SEARCH_HEADROOM).is_none() {
                    continue;
                }
                let _ = std::thread::Builder::new()
                    .stack_size(HELPER_STACK)
                    .spawn_scoped(scope, move || {
                        let mut worker = Worker::<K>::new(self, id, shared, start);
                        worker.iterate(&mut |_| {});
                    });
            }
            let outcome = main.iterate(report);
            helpers_stop.store(true, Relaxed);
            finish(Outcome {
                nodes: counters.iter().map(|c| c.load(Relaxed)).sum(),
                counts: main.counts,
                ..outcome
            })
        })
    }
}

/// [`Search::run_then`]'s arguments, for [`with_kernel`].
struct OnKernel<'s, 'r, F> {
    search: &'s Search<'s>,
    report: &'r mut dyn FnMut(&Info),
    finish: F,
}

impl<R, F: FnOnce(Outcome) -> R> WithKernel for OnKernel<'_, '_, F> {
    type Output = R;

    fn run<K: Kernel>(self) -> R {
        self.search.run_on::<K, R>(self.report, self.finish)
    }
}

/// What the threads of one search share besides the [`Search`].
#[derive(Copy, Clone)]
struct Shared<'a> {
    /// Each thread's node count.
    counters: &'a [AtomicU64],
    /// Set when the main thread is done.
    helpers_stop: &'a AtomicBool,
    /// What the search does with the tablebases.
    plan: &'a Plan,
    /// Tablebase hits so far.
    tb_hits: &'a AtomicU64,
}

/// One thread's search state, on the kernel `K` (its attack blocks and moves).
struct Worker<'a, K: Kernel> {
    kernel: PhantomData<K>,
    search: &'a Search<'a>,
    id: usize,
    counters: &'a [AtomicU64],
    helpers_stop: &'a AtomicBool,
    plan: &'a Plan,
    tb_hits: &'a AtomicU64,
    start: Instant,
    /// When the limits count from: the start, or the `ponderhit`.
    clock_start: Instant,
    was_pondering: bool,
    nodes: u64,
    counts: Counts,
    stopped: bool,
    seldepth: usize,
    history: History,
    /// The line being searched, by ply.
    stack: [StackEntry; MAX_PLY + 1],
    /// Butterfly history of quiet moves: side, from, to.
    quiet_history: Box<[[[i32; 64]; 64]; 2]>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    root_moves: Vec<Move>,
    /// Each root move's tablebase rank (all 0 unless the root is in the tables): a line
    /// searches only the best-ranked of the root moves it may choose from.
    root_ranks: Vec<i32>,
    /// Nodes searched below each root move (in `root_moves`' order) since the search began.
    root_nodes: Vec<u64>,
    /// Root moves already given a line in this iteration: the next line's search leaves
    /// them out (MultiPV).
    excluded: Vec<Move>,
}

/// What the search keeps for one ply of the line it is on (Stockfish's `Stack`): written
/// by the node at that ply, read by it and by the nodes below.
#[derive(Copy, Clone)]
struct StackEntry {
    /// The two quiet moves that last refuted a node at this ply, most recent first.
    killers: [Move; 2],
    /// The node's static evaluation (`-INFINITY` in check).
    static_eval: i32,
    /// The move being searched from the node (`None` while the null move is).
    current: Option<Move>,
}

impl Default for StackEntry {
    fn default() -> StackEntry {
        StackEntry {
            killers: [Move::default(); 2],
            static_eval: -INFINITY,
            current: None,
        }
    }
}

/// One root move's line of an iteration: its score and principal variation.
struct Line {
    score: i32,
    pv: Vec<Move>,
}

impl<'a, K: Kernel> Worker<'a, K> {
    fn new(search: &'a Search<'a>, id: usize, shared: Shared<'a>, start: Instant) -> Worker<'a, K> {
        let list = picker::legal_moves(
            &search.root,
            &AttackBlock::by_kernel::<K>(search.root.board()),
        );
        let all = list.as_slice();
        let mut root_moves: Vec<Move> = all
            .iter()
            .copied()
            .filter(|m| {
                search.limits.searchmoves.is_empty() || search.limits.searchmoves.contains(m)
            })
            .collect();
        if root_moves.is_empty() {
            // `searchmoves` named no legal move: search them all rather than none.
            root_moves = all.to_vec();
        }
        let root_ranks = root_moves
            .iter()
            .map(|&m| {
                let ranked = shared.plan.root.as_deref().unwrap_or_default();
                ranked.iter().find(|r| r.mv == m).map_or(0, |r| r.rank)
            })
            .collect();
        Worker {
            kernel: PhantomData,
            search,
            id,
            counters: shared.counters,
            helpers_stop: shared.helpers_stop,
            plan: shared.plan,
            tb_hits: shared.tb_hits,
            root_ranks,
            start,
            clock_start: start,
            was_pondering: search.control.pondering.load(Relaxed),
            nodes: 0,
            counts: Counts::default(),
            stopped: false,
            seldepth: 0,
            history: search.history.clone(),
            stack: [StackEntry::default(); MAX_PLY + 1],
            quiet_history: Box::new([[[0; 64]; 64]; 2]),
            pv: Box::new([[Move::default(); MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            root_nodes: vec![0; root_moves.len()],
            root_moves,
            excluded: Vec::new(),
        }
    }

    fn total_nodes(&self) -> u64 {
        self.counters.iter().map(|c| c.load(Relaxed)).sum()
    }

    /// Counts a node and decides whether to stop: the flags at every node, the clock every
    /// [`CLOCK_INTERVAL`] nodes, the node limit every 1,024 (every node on one thread).
    #[inline]
    fn tick(&mut self) -> bool {
        // A stopped search unwinds without counting the calls it makes on the way out.
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        let counter = &self.counters[self.id];
        counter.store(self.nodes, Relaxed);
        if self.search.control.stop.load(Relaxed) || self.helpers_stop.load(Relaxed) {
            self.stopped = true;
            return true;
        }
        if self.id != 0 {
            return false;
        }
        let limits = &self.search.limits;
        if let Some(limit) = limits.nodes {
            let nodes = if self.counters.len() == 1 {
                self.nodes
            } else if self.nodes % 1024 == 0 {
                self.total_nodes()
            } else {
                0
            };
            if nodes >= limit {
                self.stopped = true;
                return true;
            }
        }
        if self.nodes % CLOCK_INTERVAL == 0 {
            if let Some(budget) = limits.time {
                if !self.pondering() && self.clock_start.elapsed() >= budget.hard {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    /// Whether the time limits wait (pondering); restarts them at `ponderhit`.
    fn pondering(&mut self) -> bool {
        let now = self.search.control.pondering.load(Relaxed);
        if self.was_pondering && !now {
            self.clock_start = Instant::now();
        }
        self.was_pondering = now;
        now
    }

    /// Iterative deepening with aspiration windows; reports each completed iteration.
    fn iterate(&mut self, report: &mut dyn FnMut(&Info)) -> Outcome {
        let root = self.search.root;
        let root_key = root.key();
        let limits = self.search.limits.clone();
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 1)
            .clamp(1, MAX_PLY as i32 - 1);
        let mut outcome = Outcome {
            best: self.root_moves.first().copied(),
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
            counts: Counts::default(),
        };
        if self.root_moves.is_empty() {
            outcome.score = if root.in_check() { -MATE } else { 0 };
            return outcome;
        }
        // Helpers search one line: they only fill the table for the main thread.
        let wanted = if self.id == 0 {
            limits.multipv.clamp(1, self.root_moves.len())
        } else {
            1
        };
        // Each line's score in the last iteration, the centre of its aspiration window.
        let mut scores = vec![0; wanted];
        for depth in 1..=max_depth {
            // Helpers start at staggered depths so the threads spread over the tree.
            if self.id != 0 && depth < 1 + (self.id as i32 & 1) {
                continue;
            }
            self.seldepth = 0;
            let mut lines: Vec<Line> = Vec::with_capacity(wanted);
            for &last in &scores {
                let score = self.aspiration(&root, root_key, depth, last);
                if self.stopped {
                    break;
                }
                let pv = self.pv[0][..self.pv_len[0]].to_vec();
                let Some(&first) = pv.first() else {
                    // No move raised alpha (none should, with the window widened to hold the
                    // score): the line cannot be told from the next.
                    break;
                };
                self.excluded.push(first);
                lines.push(Line { score, pv });
            }
            self.excluded.clear();
            if self.stopped {
                if let Some(best) = lines.iter().max_by_key(|l| (self.rank_of(&l.pv), l.score)) {
                    // The best line of this depth is complete; later ones may not be.
                    outcome.best = best.pv.first().copied().or(outcome.best);
                    outcome.ponder = best.pv.get(1).copied();
                } else if self.pv_len[0] > 0 {
                    // A root move that raised alpha in the unfinished first line was
                    // searched in full and beat the moves before it (the previous best
                    // comes first): it is the better move to play.
                    outcome.best = Some(self.pv[0][0]);
                    outcome.ponder = (self.pv_len[0] > 1).then(|| self.pv[0][1]);
                }
                break;
            }
            if lines.is_empty() {
                break;
            }
            // A later line can come out above an earlier one (the table moved between
            // them): the lines are reported best first (a better tablebase rank first).
            lines.sort_by_key(|l| std::cmp::Reverse((self.rank_of(&l.pv), l.score)));
            for (last, line) in scores.iter_mut().zip(&lines) {
                *last = line.score;
            }
            let score = lines[0].score;
            outcome.best = lines[0].pv.first().copied().or(outcome.best);
            outcome.ponder = lines[0].pv.get(1).copied();
            outcome.score = score;
            outcome.depth = depth;
            if self.id == 0 {
                for (index, line) in lines.into_iter().enumerate() {
                    report(&Info {
                        depth,
                        seldepth: self.seldepth,
                        score: Score::from_search(self.shown_score(&line)),
                        nodes: self.total_nodes(),
                        time: self.start.elapsed(),
                        hashfull: self.search.tt.hashfull(),
                        pv: line.pv,
                        multipv: index + 1,
                        tbhits: self.search.syzygy.map(|_| self.tb_hits.load(Relaxed)),
                    });
                }
                if let Some(mate) = limits.mate {
                    if let Score::Mate(n) = Score::from_search(score) {
                        if n > 0 && n <= mate {
                            break;
                        }
                    }
                }
                if let Some(budget) = limits.time {
                    // A mate either way that this depth proves is not worth the clock of
                    // another iteration.
                    if mate_within(score, depth) {
                        break;
                    }
                    let soft = budget.soft_for(self.root_share(outcome.best));
                    if !self.pondering() && self.clock_start.elapsed() >= soft {
                        break;
                    }
                }
            }
        }
        outcome
    }

    /// The tablebase rank of a line's root move (0 for all without a tablebase root).
    fn rank_of(&self, pv: &[Move]) -> i32 {
        let index = pv
            .first()
            .and_then(|&mv| self.root_moves.iter().position(|&m| m == mv));
        index.map_or(0, |i| self.root_ranks[i])
    }

    /// The score a line reports: the tablebase's for its root move when the root is in the
    /// tables, unless the search proved a mate.
    fn shown_score(&self, line: &Line) -> i32 {
        let ranked = self.plan.root.as_deref().unwrap_or_default();
        match ranked.iter().find(|r| line.pv.first() == Some(&r.mv)) {
            Some(r) if line.score.abs() < MATE_BOUND => r.score,
            _ => line.score,
        }
    }

    /// The best tablebase rank among the root moves a line may still choose from.
    fn best_root_rank(&self) -> i32 {
        self.root_moves
            .iter()
            .zip(&self.root_ranks)
            .filter(|(m, _)| !self.excluded.contains(m))
            .map(|(_, &rank)| rank)
            .max()
            .unwrap_or(0)
    }

    /// One line's search at `depth`, in a window around `last` (its score an iteration
    /// earlier) widened until the score falls inside; meaningless once stopped.
    fn aspiration(&mut self, root: &Position, root_key: u64, depth: i32, last: i32) -> i32 {
        let mut window = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && last.abs() < DECISIVE {
            (last - window, last + window)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let result = self.negamax::<Root>(root, root_key, depth, alpha, beta, 0);
            if self.stopped {
                return result;
            }
            if result <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (result - window).max(-INFINITY);
            } else if result >= beta {
                beta = (result + window).min(INFINITY);
            } else {
                return result;
            }
            window *= 2;
        }
    }

    /// The share of the search's nodes, in per-mille, that went below `best` at the root
    /// (`None` before any).
    fn root_share(&self, best: Option<Move>) -> Option<u64> {
        let total: u64 = self.root_nodes.iter().sum();
        let index = best.and_then(|b| self.root_moves.iter().position(|&m| m == b))?;
        (total > 0).then(|| self.root_nodes[index] * 1000 / total)
    }
}

/// Whether `score` is a mate, given or taken, in at most `depth` plies.
fn mate_within(score: i32, depth: i32) -> bool {
    score.abs() >= MATE_BOUND && MATE - score.abs() <= depth
}

#[cfg(test)]
mod tests;
