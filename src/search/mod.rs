//! The search: iterative deepening over a principal variation search with aspiration
//! windows, a quiescence search, a shared transposition table and Lazy SMP threads, on the
//! C.C.R. board by copy-make of the position (42 bytes of fields, 48 aligned).
//!
//! Every node builds one [`AttackBlock`] (the board and both attack tables, paper 4.4) and
//! uses it twice: whether the side to move is in check, and the static evaluation (the
//! frame evaluator's; the bitboard one, [`Search::evaluator`], converts the board instead).
//! Captures are ordered and pruned by their static exchange evaluation ([`see`]).

mod ordering;
mod params;
pub mod room;
pub mod see;
pub mod tablebase;
pub mod time;
pub mod tt;
pub mod wdl;

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use crate::arch::Impl;
use crate::ccr::attacks::AttackBlock;
use crate::ccr::board::nibbles_equal;
use crate::ccr::{Kernel, MoveList, Position, WithKernel, with_kernel};
use crate::eval::Evaluator;
use crate::history::History;
use crate::types::{Colour, Move, MoveKind, PieceCode};
use ordering::{Class, MovePicker, piece_value};
use params::*;
use room::Reservation;
use see::{is_unchallenged, see_at_least};
use tablebase::{DECISIVE, Plan, Syzygy, TB_WIN, piece_count};
use time::Budget;
use tt::{Bound, Entry, TranspositionTable, score_from_tt, score_to_tt};

/// The score of being mated now; a mate in n plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Above every score.
pub const INFINITY: i32 = 32_001;
/// The deepest ply a search reaches.
pub const MAX_PLY: usize = 128;
/// Scores at or beyond this are mates (tablebase wins lie just below: [`tablebase::TB_WIN`]).
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// What limits one search (`go`'s arguments).
#[derive(Clone, Debug, Default)]
pub struct Limits {
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
pub struct Control {
    /// Stop as soon as possible.
    pub stop: AtomicBool,
    /// The search ponders (or runs `go infinite`): its time limits wait for `ponderhit`.
    pub pondering: AtomicBool,
}

/// A score as UCI prints it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// The UCI form of a search score.
    pub fn from_search(score: i32) -> Score {
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
pub const SEARCH_HEADROOM: usize = 2 << 20;

/// Stack sizes tried for the thread that runs a search, largest first: under a small
/// address space a smaller stack still searches. A release build takes a few KiB a ply
/// (160 KiB held the 37-ply lines of a three-second search, 112 KiB did not), so even the
/// smallest holds the deepest line, `MAX_PLY` plies, with room to spare.
pub const SEARCH_STACKS: [usize; 4] = [16 << 20, 8 << 20, 4 << 20, 2 << 20];

/// The address space the smallest search thread needs: its stack and its headroom. The
/// transposition table is sized with this much kept free, so that a table never takes the
/// memory the search itself needs.
pub const SEARCH_ROOM: usize = SEARCH_STACKS[SEARCH_STACKS.len() - 1] + SEARCH_HEADROOM;

/// Where a search's time goes, for `ccr bench`: the worker raises the flag while it is
/// inside a quiescence search (from the main search's call at depth 0 to its return), and
/// a sampler on another thread reads it at intervals.
#[derive(Debug, Default)]
pub struct Profile {
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
pub struct Info {
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
pub struct Search<'a> {
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
    pub fn run(&self, report: &mut dyn FnMut(&Info)) -> Outcome {
        self.run_then(report, |outcome| outcome)
    }

    /// Runs the search and hands its outcome to `finish` as soon as the main thread has it:
    /// the helper threads are told to stop then, but `finish` does not wait for them to be
    /// scheduled and end (they are joined after it returns). The main thread alone decides
    /// when the search ends.
    pub fn run_then<R>(
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
    killers: [[Move; 2]; MAX_PLY + 1],
    /// Butterfly history of quiet moves: side, from, to.
    quiet_history: Box<[[[i32; 64]; 64]; 2]>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// The static evaluation at each ply of the current line (`-INFINITY` in check).
    static_evals: [i32; MAX_PLY + 1],
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

/// One root move's line of an iteration: its score and principal variation.
struct Line {
    score: i32,
    pv: Vec<Move>,
}

impl<'a, K: Kernel> Worker<'a, K> {
    fn new(search: &'a Search<'a>, id: usize, shared: Shared<'a>, start: Instant) -> Worker<'a, K> {
        let mut list = MoveList::new();
        search.root.generate_legal(K::default(), &mut list);
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
            killers: [[Move::default(); 2]; MAX_PLY + 1],
            quiet_history: Box::new([[[0; 64]; 64]; 2]),
            pv: Box::new([[Move::default(); MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            static_evals: [-INFINITY; MAX_PLY + 1],
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

    /// The tablebase probe of a node (Stockfish's): a position with few enough pieces, just
    /// after a capture or pawn move, without castling rights, is looked up in the WDL tables.
    /// Returns the score and its bound when the table's verdict decides the node; otherwise
    /// narrows `best` (a win found is a floor) or `ceiling` (a loss is a cap) in PV nodes.
    #[allow(clippy::too_many_arguments)]
    fn probe_tables(
        &mut self,
        pos: &Position,
        depth: i32,
        alpha: &mut i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        floor: &mut i32,
        ceiling: &mut i32,
    ) -> Option<(i32, Bound)> {
        let plan = self.plan;
        if plan.cardinality == 0 || pos.halfmove_clock() != 0 || !pos.castling().is_empty() {
            return None;
        }
        let pieces = piece_count(pos);
        if pieces > plan.cardinality || (pieces == plan.cardinality && depth < plan.probe_depth) {
            return None;
        }
        let tables = self.search.syzygy?.tables;
        let wdl = tables.probe_wdl(pos).ok()?.value();
        self.tb_hits.fetch_add(1, Relaxed);
        let draw = i32::from(plan.rule50);
        let (score, bound) = if wdl < -draw {
            (-TB_WIN + ply as i32, Bound::Upper)
        } else if wdl > draw {
            (TB_WIN - ply as i32, Bound::Lower)
        } else {
            (2 * wdl * draw, Bound::Exact)
        };
        let decides = match bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= *alpha,
        };
        if decides {
            return Some((score, bound));
        }
        if pv_node {
            if bound == Bound::Lower {
                *floor = score;
                *alpha = (*alpha).max(score);
            } else {
                *ceiling = score;
            }
        }
        None
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
            let result = self.negamax(root, root_key, depth, alpha, beta, 0, false);
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

    /// The principal variation search.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        key: u64,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        after_null: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        // The table is probed after the attack block is built, which hides part of the load.
        self.search.tt.prefetch(key);
        self.pv_len[ply] = 0;
        if ply > 0 {
            if self.history.is_repetition() {
                return 0;
            }
            // Mate-distance pruning: no result here can beat a shorter mate found already.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let block = AttackBlock::by_kernel::<K>(pos.board());
        let us = pos.side();
        let in_check = block.in_check(us, pos.king(us));
        if ply > 0 && pos.halfmove_clock() >= 100 {
            // The fifty-move rule, unless the last move mated.
            let mated = in_check && pos.legal_moves().is_empty();
            return if mated { -MATE + ply as i32 } else { 0 };
        }
        if in_check {
            depth += 1;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.enter_quiescence(pos, key, alpha, beta, ply);
        }
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        let entry = self.search.tt.probe(key);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry {
            let score = score_from_tt(e.score, ply);
            if !pv_node
                && e.depth >= depth
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                }
            {
                return score;
            }
        }
        let static_eval = if in_check {
            -INFINITY
        } else {
            entry.map_or_else(|| self.search.evaluator.evaluate(pos, &block), |e| e.eval)
        };
        self.static_evals[ply] = static_eval;
        // The tablebases: a verdict that decides the node is stored and returned; one that
        // does not bounds the node's score in a PV node.
        let (mut floor, mut ceiling) = (-INFINITY, INFINITY);
        if ply > 0 && self.plan.cardinality != 0 {
            let probed = self.probe_tables(
                pos,
                depth,
                &mut alpha,
                beta,
                ply,
                pv_node,
                &mut floor,
                &mut ceiling,
            );
            if let Some((score, bound)) = probed {
                self.search.tt.store(
                    key,
                    Entry {
                        mv: None,
                        score: score_to_tt(score, ply),
                        eval: if in_check { 0 } else { static_eval },
                        depth: (depth + 6).min(MAX_PLY as i32 - 1),
                        bound,
                    },
                );
                return score;
            }
        }
        // Better than two plies ago (our last turn): the prunings below trust the static
        // score more where the side to move is making progress.
        let improving = !in_check && ply >= 2 && static_eval > self.static_evals[ply - 2];

        if !pv_node && !in_check {
            // Reverse futility: far above beta near the leaves, a quiet move will not undo it.
            let margin = RFP_MARGIN * (depth - improving as i32);
            if depth <= RFP_MAX_DEPTH && static_eval - margin >= beta && beta.abs() < DECISIVE {
                return static_eval;
            }
            // Null move: if passing still holds beta, a real move will too (not in pawn
            // endings, where passing can be the only good move: zugzwang).
            if !after_null && depth >= NMP_MIN_DEPTH && static_eval >= beta && has_pieces(pos, us) {
                let r = NMP_BASE
                    + depth / NMP_DEPTH_DIVISOR
                    + ((static_eval - beta) / NMP_EVAL_DIVISOR).min(NMP_EVAL_MAX);
                let (child, child_key) = pos.make_null_keyed(key);
                self.counts.copies += 1;
                self.history.push(child_key, child.halfmove_clock());
                let score = -self.negamax(
                    &child,
                    child_key,
                    depth - 1 - r,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    true,
                );
                self.history.pop();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= DECISIVE { beta } else { score };
                }
            }
        }

        // Internal iterative reduction: with no hash move the ordering is a guess, so a deep
        // node is searched a ply shallower (its entry gives the next visit a move).
        if tt_move.is_none() && depth >= IIR_MIN_DEPTH {
            depth -= 1;
        }

        let mut list = MoveList::new();
        pos.generate_legal(&block, &mut list);
        if ply == 0 {
            let rank = self.best_root_rank();
            list.retain(|m| {
                let index = self.root_moves.iter().position(|&r| r == m);
                index.is_some_and(|i| self.root_ranks[i] == rank) && !self.excluded.contains(&m)
            });
        }
        if list.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let killers = self.killers[ply];
        let mut picker = MovePicker::new(
            pos,
            &block,
            &list,
            tt_move,
            killers,
            &self.quiet_history[us as usize],
        );
        let original_alpha = alpha;
        let mut best = floor;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets_tried: [Move; 64] = [Move::default(); 64];
        let mut quiet_count = 0;
        while let Some((mv, class)) = picker.next() {
            let quiet = class == Class::Quiet;
            // Late-move pruning and futility near the leaves, for quiet moves that do not
            // give check (a check is the move most likely to change what the static score
            // says: the mating attacks these prunings would hide).
            let prunable = !pv_node && !in_check && quiet && best > -DECISIVE;
            let late_move = late_move_limit(depth, improving);
            let late = prunable && depth <= LMP_MAX_DEPTH && searched >= late_move as usize;
            let futile = prunable
                && depth <= FUTILITY_MAX_DEPTH
                && static_eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * depth <= alpha;
            // Decided before the move is made: a pruned move costs no copy-make.
            if (late || futile) && !pos.gives_check(mv) {
                continue;
            }
            // Exchange pruning: near the leaves, a move that loses more material on its
            // square than the depth left could win back.
            if !pv_node && !in_check && best > -DECISIVE && depth <= SEE_PRUNE_MAX_DEPTH {
                let margin = if quiet {
                    SEE_QUIET_MARGIN * depth
                } else {
                    SEE_CAPTURE_MARGIN * depth * depth
                };
                let exchange = if quiet {
                    !is_unchallenged(&block, us.flip(), mv)
                } else {
                    class == Class::LosingCapture
                };
                if exchange && !see_at_least(pos, mv, -margin) {
                    continue;
                }
            }
            let (child, child_key) = pos.make_keyed(mv, key);
            self.counts.copies += 1;
            self.history.push(child_key, child.halfmove_clock());
            let nodes_before = self.nodes;
            let new_depth = depth - 1;
            let mut score;
            if searched == 0 {
                score = -self.negamax(&child, child_key, new_depth, -beta, -alpha, ply + 1, false);
            } else {
                let mut r = 0;
                if depth >= LMR_MIN_DEPTH && quiet && !in_check && searched >= LMR_MIN_MOVES {
                    r = reduction(depth, searched);
                    if pv_node {
                        r -= 1;
                    }
                    if killers.contains(&mv) {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    r -= self.quiet_history[us as usize][mv.from().index()][mv.to().index()]
                        / LMR_HISTORY_DIVISOR;
                    if r > 0 && child.in_check() {
                        r = 0;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.negamax(
                    &child,
                    child_key,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                );
                if score > alpha && r > 0 {
                    score = -self.negamax(
                        &child,
                        child_key,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        false,
                    );
                }
                if score > alpha && score < beta {
                    score =
                        -self.negamax(&child, child_key, new_depth, -beta, -alpha, ply + 1, false);
                }
            }
            self.history.pop();
            if ply == 0 {
                if let Some(i) = self.root_moves.iter().position(|&m| m == mv) {
                    self.root_nodes[i] += self.nodes - nodes_before;
                }
            }
            if self.stopped {
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    self.update_pv(ply, mv);
                    if score >= beta {
                        if quiet {
                            self.reward_quiet(us, ply, mv, depth, &quiets_tried[..quiet_count]);
                        }
                        break;
                    }
                }
            }
            if quiet && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = mv;
                quiet_count += 1;
            }
        }
        if searched == 0 {
            // Every move was pruned (only quiet ones are): the position is no better than
            // what the pruning assumed.
            return alpha;
        }
        if ply == 0 && !self.excluded.is_empty() {
            // The best of the root moves left is not the root's best move: the table
            // keeps the first line's.
            return best;
        }
        let best = best.min(ceiling);
        let bound = Bound::of(best, original_alpha, beta);
        self.search.tt.store(
            key,
            Entry {
                mv: best_move.or(tt_move),
                score: score_to_tt(best, ply),
                eval: if in_check { 0 } else { static_eval },
                depth,
                bound,
            },
        );
        best
    }

    /// The quiescence search called from the main search, with the profile's flag raised
    /// while it runs.
    fn enter_quiescence(
        &mut self,
        pos: &Position,
        key: u64,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let Some(profile) = self.search.profile.filter(|_| self.id == 0) else {
            return self.quiescence(pos, key, alpha, beta, ply);
        };
        profile.in_quiescence.store(true, Relaxed);
        let score = self.quiescence(pos, key, alpha, beta, ply);
        profile.in_quiescence.store(false, Relaxed);
        score
    }

    /// Captures (and queen promotions) until the position is quiet; every evasion in check.
    fn quiescence(
        &mut self,
        pos: &Position,
        key: u64,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.search.tt.prefetch(key);
        self.pv_len[ply] = 0;
        if self.tick() {
            return 0;
        }
        self.counts.quiescence_nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let block = AttackBlock::by_kernel::<K>(pos.board());
        let us = pos.side();
        let in_check = block.in_check(us, pos.king(us));
        if ply >= MAX_PLY - 1 {
            return if in_check {
                0
            } else {
                self.search.evaluator.evaluate(pos, &block)
            };
        }
        // The table: any stored result is at least as deep as this search's (depth 0).
        let entry = self.search.tt.probe(key);
        if let Some(e) = entry {
            let score = score_from_tt(e.score, ply);
            let cuts = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cuts {
                return score;
            }
        }
        let original_alpha = alpha;
        let mut list = MoveList::new();
        let (mut best, stand_pat) = if in_check {
            pos.generate_legal(&block, &mut list);
            if list.is_empty() {
                return -MATE + ply as i32;
            }
            (-INFINITY, -INFINITY)
        } else {
            let stand_pat =
                entry.map_or_else(|| self.search.evaluator.evaluate(pos, &block), |e| e.eval);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            pos.generate_captures(&block, &mut list);
            add_quiet_queen_promotions(pos, &block, &mut list);
            (stand_pat, stand_pat)
        };
        let mut picker = MovePicker::new(
            pos,
            &block,
            &list,
            entry.and_then(|e| e.mv),
            [Move::default(); 2],
            &self.quiet_history[us as usize],
        );
        let mut best_move = None;
        while let Some((mv, class)) = picker.next() {
            if !in_check && mv.promotion().is_none() {
                // Attack-table pruning: a capture by a dearer piece of a defended one loses
                // material (the picker read the enemy's table for it).
                if class == Class::LosingCapture {
                    continue;
                }
                // Delta pruning: even winning the piece clear leaves us below alpha.
                if stand_pat + captured_value(pos, mv) + DELTA_MARGIN <= alpha {
                    continue;
                }
            }
            let (child, child_key) = pos.make_keyed(mv, key);
            self.counts.copies += 1;
            let score = -self.quiescence(&child, child_key, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    self.update_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = Bound::of(best, original_alpha, beta);
        self.search.tt.store(
            key,
            Entry {
                mv: best_move,
                score: score_to_tt(best, ply),
                eval: if in_check { 0 } else { stand_pat },
                depth: 0,
                bound,
            },
        );
        best
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = if ply < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line[0] = mv;
        line[1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// A quiet move that refuted the node: a killer, and history up (down for the quiet
    /// moves tried before it).
    fn reward_quiet(&mut self, us: Colour, ply: usize, mv: Move, depth: i32, tried: &[Move]) {
        let killers = &mut self.killers[ply];
        if killers[0] != mv {
            killers[1] = killers[0];
            killers[0] = mv;
        }
        let bonus = (depth * depth).min(HISTORY_BONUS_MAX);
        let table = &mut self.quiet_history[us as usize];
        let mut update = |m: Move, delta: i32| {
            let h = &mut table[m.from().index()][m.to().index()];
            *h += delta - *h * delta.abs() / HISTORY_MAX;
        };
        update(mv, bonus);
        for &m in tried {
            update(m, -bonus);
        }
    }
}

/// Whether `colour` has a piece other than pawns and the king.
/// Whether `score` is a mate, given or taken, in at most `depth` plies.
fn mate_within(score: i32, depth: i32) -> bool {
    score.abs() >= MATE_BOUND && MATE - score.abs() <= depth
}

fn has_pieces(pos: &Position, colour: Colour) -> bool {
    pos.board().0.iter().any(|&word| {
        (PieceCode::KNIGHT..=PieceCode::QUEEN)
            .any(|t| nibbles_equal(word, colour.code_bit() | t) != 0)
    })
}

/// The value of what `mv` captures (a pawn for en passant, nothing for a quiet move).
fn captured_value(pos: &Position, mv: Move) -> i32 {
    if mv.kind() == MoveKind::EnPassant {
        piece_value(PieceCode::PAWN)
    } else {
        piece_value(pos.board().get(mv.to()).piece_type())
    }
}

/// Adds the quiet promotions to a queen (the captures generator leaves them out).
fn add_quiet_queen_promotions(pos: &Position, block: &AttackBlock, list: &mut MoveList) {
    let (word, pawn) = match pos.side() {
        Colour::White => (1, PieceCode::PAWN),
        Colour::Black => (6, 8 | PieceCode::PAWN),
    };
    if nibbles_equal(pos.board().0[word], pawn) == 0 {
        return;
    }
    let mut all = MoveList::new();
    pos.generate_legal(block, &mut all);
    for &mv in all.as_slice() {
        if mv.kind() == MoveKind::PromoteQueen && pos.board().get(mv.to()).code() == 0 {
            list.push(mv);
        }
    }
}

#[cfg(test)]
mod tests;
