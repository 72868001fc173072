//! The search of one node, top to bottom as [`Worker::negamax`] runs it: the table, the
//! static evaluation (and the tablebases), the prunings that need no move, the move loop
//! (each move's own prunings, then its principal variation search with late-move
//! reductions), and the table again; and the quiescence search below it.
//!
//! Whether a node is a PV node is its type ([`NodeType`], as Stockfish's): the root, the
//! first move of a PV node and a move that beats alpha in a PV node are searched as PV
//! nodes, everything else with a null window as a non-PV node, whose calls compile without
//! the PV-only code.

use std::sync::atomic::Ordering::Relaxed;

use super::params::*;
use super::picker::{self, Class, MovePicker, piece_value, piece_value_of};
use super::see::{is_unchallenged, see_at_least};
use super::tablebase::{DECISIVE, TB_WIN, piece_count};
use super::tt::{Bound, Entry, score_from_tt, score_to_tt};
use super::{INFINITY, MATE, MAX_PLY, Worker};
use crate::ccr::attacks::AttackBlock;
use crate::ccr::board::nibbles_equal;
use crate::ccr::{Kernel, Position};
use crate::types::{Colour, Move, MoveKind, PieceCode, PieceType};

/// What kind of node a call of [`Worker::negamax`] searches.
pub(super) trait NodeType {
    /// A principal-variation node: searched with an open window, never cut by the table or
    /// pruned.
    const PV: bool;
    /// The root: the choice among the root moves, and their node counts.
    const ROOT: bool;
}

/// The root node.
pub(super) struct Root;
/// A node on the principal variation below the root.
struct Pv;
/// A node searched with a null window.
struct NonPv;

impl NodeType for Root {
    const PV: bool = true;
    const ROOT: bool = true;
}

impl NodeType for Pv {
    const PV: bool = true;
    const ROOT: bool = false;
}

impl NodeType for NonPv {
    const PV: bool = false;
    const ROOT: bool = false;
}

/// What a node has learnt before its moves, handed to the parts of the search that follow.
struct Node<'p> {
    pos: &'p Position,
    key: u64,
    ply: usize,
    /// The depth its moves are searched to (after the check extension and the internal
    /// iterative reduction).
    depth: i32,
    block: AttackBlock,
    in_check: bool,
    /// The static evaluation, `-INFINITY` in check.
    static_eval: i32,
    /// What the prunings take the position to be worth: the static evaluation, or the
    /// table's score (not a decisive one) where it is exact or its bound says a search found
    /// the position better (a lower bound above it) or worse (an upper bound below it).
    eval: i32,
    /// Better than two plies ago (our last turn): the prunings trust the static score more
    /// where the side to move is making progress.
    improving: bool,
    tt_move: Option<Move>,
    /// The least and most the node can score, by the tablebases (`-INFINITY` and
    /// `INFINITY` without them).
    floor: i32,
    ceiling: i32,
}

/// How a node's move loop ended.
enum LoopEnd {
    /// The node's score, returned without a table entry: the search stopped, there is no
    /// legal move, every move was pruned, or the root's line is one after the first.
    Return(i32),
    /// The best score and the move that raised alpha, if any, for the table.
    Best(i32, Option<Move>),
}

/// What a node's moves have reached so far: the best score, the lower bound of the window
/// (raised by every better score inside it) and the move that last raised it.
struct Best {
    score: i32,
    alpha: i32,
    mv: Option<Move>,
}

impl<K: Kernel> Worker<'_, K> {
    /// The principal variation search of one node.
    pub(super) fn negamax<N: NodeType>(
        &mut self,
        pos: &Position,
        key: u64,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        debug_assert!(N::PV || beta - alpha == 1, "a null window in a non-PV node");
        // The table is probed after the attack block is built, which hides part of the load.
        self.search.tt.prefetch(key);
        self.pv_len[ply] = 0;
        if !N::ROOT {
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
        if !N::ROOT && pos.halfmove_clock() >= 100 {
            // The fifty-move rule, unless the last move mated.
            let mated = in_check && picker::legal_moves(pos, &block).is_empty();
            return if mated { -MATE + ply as i32 } else { 0 };
        }
        let depth = depth + in_check as i32;
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.enter_quiescence(pos, key, alpha, beta, ply);
        }
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        let entry = self.search.tt.probe(key);
        if let Some(e) = entry.filter(|e| !N::PV && e.depth >= depth) {
            let score = score_from_tt(e.score, ply);
            if e.bound.cuts(score, alpha, beta) {
                return score;
            }
        }

        let static_eval = if in_check {
            -INFINITY
        } else {
            entry.map_or_else(|| self.search.evaluator.evaluate(pos, &block), |e| e.eval)
        };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;
        // The table's score where its bound settles a null window at the static score: the
        // search it stores knows which side of the static score the position lies on.
        let eval = match entry.map(|e| (score_from_tt(e.score, ply), e.bound)) {
            Some((score, bound))
                if !in_check
                    && score.abs() < DECISIVE
                    && bound.cuts(score, static_eval, static_eval) =>
            {
                score
            }
            _ => static_eval,
        };
        let mut node = Node {
            pos,
            key,
            ply,
            depth,
            block,
            in_check,
            static_eval,
            eval,
            improving,
            tt_move: entry.and_then(|e| e.mv),
            floor: -INFINITY,
            ceiling: INFINITY,
        };
        if !N::ROOT && self.plan.cardinality != 0 {
            if let Some(score) = self.probe_tables::<N>(&mut node, &mut alpha, beta) {
                return score;
            }
        }

        if !N::PV && !in_check {
            if let Some(score) = self.prune_node(&node, beta) {
                return score;
            }
            if let Some(score) = self.probcut(&node, entry, beta) {
                return score;
            }
        }
        // Internal iterative reduction: with no hash move the ordering is a guess, so a deep
        // node is searched a ply shallower (its entry gives the next visit a move).
        if node.tt_move.is_none() && depth >= IIR_MIN_DEPTH {
            node.depth -= 1;
        }

        let (best, best_move) = match self.search_moves::<N>(&node, alpha, beta) {
            LoopEnd::Return(score) => return score,
            LoopEnd::Best(best, best_move) => (best, best_move),
        };
        let best = best.min(node.ceiling);
        self.search.tt.store(
            key,
            Entry {
                mv: best_move.or(node.tt_move),
                score: score_to_tt(best, ply),
                eval: if in_check { 0 } else { static_eval },
                depth: node.depth,
                bound: Bound::of(best, alpha, beta),
            },
        );
        best
    }

    /// The tablebase probe of a node (Stockfish's): a position with few enough pieces, just
    /// after a capture or pawn move, without castling rights, is looked up in the WDL tables.
    /// A verdict that decides the node is stored and returned; one that does not bounds the
    /// node's score in a PV node: a win found is its floor (and alpha), a loss its ceiling.
    fn probe_tables<N: NodeType>(
        &mut self,
        node: &mut Node,
        alpha: &mut i32,
        beta: i32,
    ) -> Option<i32> {
        let (pos, plan) = (node.pos, self.plan);
        if pos.halfmove_clock() != 0 || !pos.castling().is_empty() {
            return None;
        }
        let pieces = piece_count(pos);
        if pieces > plan.cardinality
            || (pieces == plan.cardinality && node.depth < plan.probe_depth)
        {
            return None;
        }
        let tables = self.search.syzygy?.tables;
        let wdl = tables.probe_wdl(pos).ok()?.value();
        self.tb_hits.fetch_add(1, Relaxed);
        let draw = i32::from(plan.rule50);
        let ply = node.ply as i32;
        let (score, bound) = if wdl < -draw {
            (-TB_WIN + ply, Bound::Upper)
        } else if wdl > draw {
            (TB_WIN - ply, Bound::Lower)
        } else {
            (2 * wdl * draw, Bound::Exact)
        };
        if bound.cuts(score, *alpha, beta) {
            let entry = Entry {
                mv: None,
                score: score_to_tt(score, node.ply),
                eval: if node.in_check { 0 } else { node.static_eval },
                depth: (node.depth + 6).min(MAX_PLY as i32 - 1),
                bound,
            };
            self.search.tt.store(node.key, entry);
            return Some(score);
        }
        if N::PV {
            if bound == Bound::Lower {
                node.floor = score;
                *alpha = (*alpha).max(score);
            } else {
                node.ceiling = score;
            }
        }
        None
    }

    /// The prunings of a non-PV node out of check that need no move: reverse futility and
    /// the null move. Returns the node's score if one applies.
    fn prune_node(&mut self, node: &Node, beta: i32) -> Option<i32> {
        let (depth, eval) = (node.depth, node.eval);
        // Reverse futility: far above beta near the leaves, a quiet move will not undo it.
        let margin = RFP_MARGIN * (depth - node.improving as i32);
        if depth <= RFP_MAX_DEPTH && eval - margin >= beta && beta.abs() < DECISIVE {
            return Some(eval);
        }
        // Null move: if passing still holds beta, a real move will too (not in pawn endings,
        // where passing can be the only good move: zugzwang), and not right after a pass.
        let after_null = self.stack[node.ply - 1].current.is_none();
        let us = node.pos.side();
        if after_null || depth < NMP_MIN_DEPTH || eval < beta || !has_pieces(node.pos, us) {
            return None;
        }
        let r = NMP_BASE
            + depth / NMP_DEPTH_DIVISOR
            + ((eval - beta) / NMP_EVAL_DIVISOR).min(NMP_EVAL_MAX);
        let (child, child_key) = self.make_child(node, None);
        let score = -self.negamax::<NonPv>(
            &child,
            child_key,
            depth - 1 - r,
            -beta,
            -beta + 1,
            node.ply + 1,
        );
        self.history.pop();
        if self.stopped {
            return Some(0);
        }
        (score >= beta).then_some(if score >= DECISIVE { beta } else { score })
    }

    /// ProbCut: a capture that holds a margin above beta in a search `PROBCUT_REDUCTION`
    /// plies shallower would almost surely hold beta at full depth, so the node is cut
    /// (unless the table says a search that deep falls short of the margin). Returns the
    /// shallow search's score if a capture holds.
    fn probcut(&mut self, node: &Node, entry: Option<Entry>, beta: i32) -> Option<i32> {
        let (pos, ply, depth) = (node.pos, node.ply, node.depth);
        let probcut_beta = beta + PROBCUT_MARGIN;
        let refuted = entry.is_some_and(|e| {
            e.depth > depth - PROBCUT_REDUCTION && score_from_tt(e.score, ply) < probcut_beta
        });
        if depth < PROBCUT_MIN_DEPTH || beta.abs() >= DECISIVE || refuted {
            return None;
        }
        let mut picker = MovePicker::quiescence(pos, &node.block, false, node.tt_move);
        while let Some((mv, _)) = picker.next(&self.quiet_history[pos.side() as usize]) {
            if !see_at_least(pos, mv, probcut_beta - node.static_eval) {
                continue;
            }
            let (child, child_key) = self.make_child(node, Some(mv));
            // The quiescence search first: a capture that cannot hold the margin even there
            // is not worth the deeper search.
            let window = (-probcut_beta, -probcut_beta + 1);
            let mut score = -self.enter_quiescence(&child, child_key, window.0, window.1, ply + 1);
            if score >= probcut_beta {
                let shallow = depth - 1 - PROBCUT_REDUCTION;
                score =
                    -self.negamax::<NonPv>(&child, child_key, shallow, window.0, window.1, ply + 1);
            }
            self.history.pop();
            if self.stopped {
                return Some(0);
            }
            if score >= probcut_beta {
                let entry = Entry {
                    mv: Some(mv),
                    score: score_to_tt(score, ply),
                    eval: node.static_eval,
                    depth: depth - PROBCUT_REDUCTION,
                    bound: Bound::Lower,
                };
                self.search.tt.store(node.key, entry);
                return Some(score);
            }
        }
        None
    }

    /// The move loop: each move the picker hands out, unless pruned, searched until one
    /// refutes the node.
    fn search_moves<N: NodeType>(&mut self, node: &Node, alpha: i32, beta: i32) -> LoopEnd {
        let (pos, ply) = (node.pos, node.ply);
        let us = pos.side();
        let mut picker = MovePicker::new(pos, &node.block, node.tt_move, self.stack[ply].killers);
        if N::ROOT {
            let rank = self.best_root_rank();
            picker.retain(|m| {
                let index = self.root_moves.iter().position(|&r| r == m);
                index.is_some_and(|i| self.root_ranks[i] == rank) && !self.excluded.contains(&m)
            });
        }
        if picker.is_empty() {
            return LoopEnd::Return(if node.in_check { -MATE + ply as i32 } else { 0 });
        }
        let mut best = Best {
            score: node.floor,
            alpha,
            mv: None,
        };
        let mut searched = 0usize;
        let mut quiets_tried: [Move; 64] = [Move::default(); 64];
        let mut quiet_count = 0;
        while let Some((mv, class)) = picker.next(&self.quiet_history[us as usize]) {
            let quiet = class == Class::Quiet;
            if !N::PV
                && !node.in_check
                && best.score > -DECISIVE
                && self.prunes_move(node, mv, class, searched, best.alpha)
            {
                continue;
            }
            let nodes_before = self.nodes;
            let score = self.search_move::<N>(node, mv, quiet, searched, best.alpha, beta);
            if N::ROOT {
                if let Some(i) = self.root_moves.iter().position(|&m| m == mv) {
                    self.root_nodes[i] += self.nodes - nodes_before;
                }
            }
            if self.stopped {
                return LoopEnd::Return(0);
            }
            searched += 1;
            if self.raise(&mut best, ply, mv, score, beta) {
                if quiet {
                    let tried = &quiets_tried[..quiet_count];
                    self.reward_quiet(us, ply, mv, node.depth, tried);
                }
                break;
            }
            if quiet && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = mv;
                quiet_count += 1;
            }
        }
        if searched == 0 {
            // Every move was pruned: the position is no better than what the pruning assumed.
            return LoopEnd::Return(best.alpha);
        }
        if N::ROOT && !self.excluded.is_empty() {
            // The best of the root moves left is not the root's best move: the table keeps
            // the first line's.
            return LoopEnd::Return(best.score);
        }
        LoopEnd::Best(best.score, best.mv)
    }

    /// Whether a move of a non-PV node out of check is pruned unsearched (decided before it
    /// is made: a pruned move costs no copy-make).
    fn prunes_move(
        &self,
        node: &Node,
        mv: Move,
        class: Class,
        searched: usize,
        alpha: i32,
    ) -> bool {
        let (pos, depth) = (node.pos, node.depth);
        let quiet = class == Class::Quiet;
        // Late-move pruning and futility near the leaves, for quiet moves that do not give
        // check (a check is the move most likely to change what the static score says: the
        // mating attacks these prunings would hide).
        let late =
            depth <= LMP_MAX_DEPTH && searched >= late_move_limit(depth, node.improving) as usize;
        let futile = depth <= FUTILITY_MAX_DEPTH
            && node.eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * depth <= alpha;
        if quiet && (late || futile) && !pos.gives_check(mv) {
            return true;
        }
        // Exchange pruning: near the leaves, a move that loses more material on its square
        // than the depth left could win back.
        if depth > SEE_PRUNE_MAX_DEPTH {
            return false;
        }
        let (margin, exchange) = if quiet {
            let challenged = !is_unchallenged(&node.block, pos.side().flip(), mv);
            (SEE_QUIET_MARGIN * depth, challenged)
        } else {
            let losing = class == Class::LosingCapture;
            (SEE_CAPTURE_MARGIN * depth * depth, losing)
        };
        exchange && !see_at_least(pos, mv, -margin)
    }

    /// Makes `mv` and searches it: the first move with the node's window, a later one with a
    /// null window (reduced if it is a late quiet move, again at full depth if it beats
    /// alpha), and in a PV node again with the full window if it lands inside it.
    fn search_move<N: NodeType>(
        &mut self,
        node: &Node,
        mv: Move,
        quiet: bool,
        searched: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let (child, child_key) = self.make_child(node, Some(mv));
        let (ply, new_depth) = (node.ply + 1, node.depth - 1);
        let score = if searched == 0 {
            if N::PV {
                -self.negamax::<Pv>(&child, child_key, new_depth, -beta, -alpha, ply)
            } else {
                -self.negamax::<NonPv>(&child, child_key, new_depth, -beta, -alpha, ply)
            }
        } else {
            let reduced =
                node.depth >= LMR_MIN_DEPTH && quiet && !node.in_check && searched >= LMR_MIN_MOVES;
            let r = if reduced {
                self.late_move_reduction::<N>(node, mv, searched, &child)
            } else {
                0
            };
            let null_window = |w: &mut Self, depth| {
                -w.negamax::<NonPv>(&child, child_key, depth, -alpha - 1, -alpha, ply)
            };
            let mut score = null_window(self, new_depth - r);
            if score > alpha && r > 0 {
                score = null_window(self, new_depth);
            }
            if N::PV && score > alpha && score < beta {
                score = -self.negamax::<Pv>(&child, child_key, new_depth, -beta, -alpha, ply);
            }
            score
        };
        self.history.pop();
        score
    }

    /// How many plies shallower a late quiet move is searched: by depth and move number,
    /// less in PV nodes, for a killer and for a move with a good history, more where the
    /// side is not improving, none for a check; at least a ply above the quiescence search.
    fn late_move_reduction<N: NodeType>(
        &self,
        node: &Node,
        mv: Move,
        searched: usize,
        child: &Position,
    ) -> i32 {
        let mut r = reduction(node.depth, searched);
        if N::PV {
            r -= 1;
        }
        if self.stack[node.ply].killers.contains(&mv) {
            r -= 1;
        }
        if !node.improving {
            r += 1;
        }
        let history = &self.quiet_history[node.pos.side() as usize];
        r -= history[mv.from().index()][mv.to().index()] / LMR_HISTORY_DIVISOR;
        if r > 0 && child.in_check() {
            r = 0;
        }
        r.clamp(0, node.depth - 2)
    }

    /// Makes `mv` from the node (`None`: passes) for a search below it: the child and its
    /// key, with the copy counted, the child pushed on the game's history (the caller pops
    /// it) and the move on the stack.
    #[inline(always)]
    fn make_child(&mut self, node: &Node, mv: Option<Move>) -> (Position, u64) {
        let (child, child_key) = match mv {
            Some(mv) => node.pos.make_keyed(mv, node.key),
            None => node.pos.make_null_keyed(node.key),
        };
        self.counts.copies += 1;
        self.history.push(child_key, child.halfmove_clock());
        self.stack[node.ply].current = mv;
        (child, child_key)
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
            if e.bound.cuts(score, alpha, beta) {
                return score;
            }
        }
        let original_alpha = alpha;
        let stand_pat = if in_check {
            -INFINITY
        } else {
            let stand_pat =
                entry.map_or_else(|| self.search.evaluator.evaluate(pos, &block), |e| e.eval);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            stand_pat
        };
        let mut picker = MovePicker::quiescence(pos, &block, in_check, entry.and_then(|e| e.mv));
        if in_check && picker.is_empty() {
            return -MATE + ply as i32;
        }
        let mut best = Best {
            score: stand_pat,
            alpha,
            mv: None,
        };
        while let Some((mv, class)) = picker.next(&self.quiet_history[us as usize]) {
            if !in_check && mv.promotion().is_none() {
                // Attack-table pruning: a capture by a dearer piece of a defended one loses
                // material (the picker read the enemy's table for it).
                if class == Class::LosingCapture {
                    continue;
                }
                // Delta pruning: even winning the piece clear leaves us below alpha.
                if stand_pat + captured_value(pos, mv) + DELTA_MARGIN <= best.alpha {
                    continue;
                }
            }
            let (child, child_key) = pos.make_keyed(mv, key);
            self.counts.copies += 1;
            let score = -self.quiescence(&child, child_key, -beta, -best.alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if self.raise(&mut best, ply, mv, score, beta) {
                break;
            }
        }
        let entry = Entry {
            mv: best.mv,
            score: score_to_tt(best.score, ply),
            eval: if in_check { 0 } else { stand_pat },
            depth: 0,
            bound: Bound::of(best.score, original_alpha, beta),
        };
        self.search.tt.store(key, entry);
        best.score
    }

    /// Takes a searched move's `score` into `best`, and its line into the principal
    /// variation where it raises alpha; whether it refutes the node (reaches `beta`).
    #[inline(always)]
    fn raise(&mut self, best: &mut Best, ply: usize, mv: Move, score: i32, beta: i32) -> bool {
        if score <= best.score {
            return false;
        }
        best.score = score;
        if score <= best.alpha {
            return false;
        }
        best.alpha = score;
        best.mv = Some(mv);
        self.update_pv(ply, mv);
        score >= beta
    }

    /// The line from `ply` on: `mv`, then the line of the child it leads to.
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
        let killers = &mut self.stack[ply].killers;
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
fn has_pieces(pos: &Position, colour: Colour) -> bool {
    pos.board().words().iter().any(|&word| {
        [
            PieceType::Knight,
            PieceType::Bishop,
            PieceType::Rook,
            PieceType::Queen,
        ]
        .iter()
        .any(|&t| nibbles_equal(word, PieceCode::new(colour, t).code()) != 0)
    })
}

/// The value of what `mv` captures (a pawn for en passant, nothing for a quiet move).
fn captured_value(pos: &Position, mv: Move) -> i32 {
    if mv.kind() == MoveKind::EnPassant {
        piece_value(PieceType::Pawn)
    } else {
        piece_value_of(pos.board().get(mv.to()))
    }
}
