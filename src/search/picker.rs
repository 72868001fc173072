//! The staged move picker: a node's moves in the order the search tries them, each stage
//! prepared only when the one before it runs out, so that a node that cuts off early never
//! pays for the stages it did not reach.
//!
//! 1. The hash move, if it is legal here (the generator lists only legal moves, so this is a
//!    look-up in the node's list).
//! 2. The good captures and promotions, most valuable victim first and, among equal victims,
//!    least valuable attacker. A capture is good if the victim is worth at least the
//!    attacker (whatever follows, the exchange then cannot lose), if the node's attack table
//!    shows that nothing can take back, else if its static exchange evaluation is not
//!    negative. The exchange is evaluated only when the capture would be handed out next; a
//!    losing one is set aside for the last stage.
//! 3. The killers (the quiet moves that last refuted a node at this ply), if they are quiet
//!    moves of this position.
//! 4. The other quiet moves, by history, scored when the stage is reached.
//! 5. The captures that lose material, then the underpromotions.
//!
//! The quiescence search's picker runs the same stages on the captures and the quiet
//! promotions to a queen (every evasion when in check). This module is also the search's one
//! caller of the move generator.

use super::see::{is_unchallenged, see_at_least};
use crate::ccr::attacks::AttackBlock;
use crate::ccr::board::nibbles_equal;
use crate::ccr::{MoveList, Position};
use crate::moves::MAX_MOVES;
use crate::types::{Colour, Move, MoveKind, PieceCode, PieceType};

/// Piece values for ordering and pruning, by type bits ([`PieceType::bits`], 1 = pawn … 6 =
/// king; 0 for the empty square).
const VALUES: [i32; 8] = [0, 100, 320, 330, 500, 900, 20_000, 0];

/// The ordering value of a piece type.
#[inline]
pub(super) fn piece_value(piece_type: PieceType) -> i32 {
    VALUES[piece_type.bits() as usize & 7]
}

/// The ordering value of the piece a code holds, 0 for the empty square.
#[inline]
pub(super) fn piece_value_of(code: PieceCode) -> i32 {
    VALUES[code.type_bits() as usize]
}

/// The score of an underpromotion: below every capture, so that it comes last of the moves
/// set aside.
const UNDERPROMOTION: i32 = -1_000_000;

/// What kind of move the picker hands out.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Class {
    /// Neither a capture nor a promotion.
    Quiet,
    /// A promotion, or a capture that does not lose material.
    Tactical,
    /// A capture that loses material in the exchange on its square.
    LosingCapture,
}

/// Where the picker is: each stage hands out its moves, the `Score…` ones prepare the next.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Stage {
    HashMove,
    ScoreCaptures,
    GoodCaptures,
    Killers,
    ScoreQuiets,
    Quiets,
    BadCaptures,
    Done,
}

/// Hands out a node's moves stage by stage, each stage best first (selection sort: a cutoff
/// usually comes early).
pub(super) struct MovePicker<'a> {
    pos: &'a Position,
    block: &'a AttackBlock,
    list: MoveList,
    /// The hash move, `None` too once it proved not to be a move of this position.
    hash_move: Option<Move>,
    killers: [Move; 2],
    /// Which killers are quiet moves of the list (and not the hash move).
    killer_found: [bool; 2],
    /// Whether the list holds only captures and promotions (no killer or quiet stages).
    tactical_only: bool,
    stage: Stage,
    /// The moves of the stages being handed out: the losing captures set aside at the front
    /// (`..end_bad`), the current stage's moves in `cur..end`.
    moves: [Move; MAX_MOVES],
    scores: [i32; MAX_MOVES],
    cur: usize,
    end: usize,
    end_bad: usize,
}

impl<'a> MovePicker<'a> {
    /// The picker of a node of the main search: every legal move (`block` is the position's
    /// attack block).
    pub(super) fn new(
        pos: &'a Position,
        block: &'a AttackBlock,
        hash_move: Option<Move>,
        killers: [Move; 2],
    ) -> MovePicker<'a> {
        MovePicker::with_list(
            pos,
            block,
            legal_moves(pos, block),
            hash_move,
            killers,
            false,
        )
    }

    /// The picker of a quiescence node: every evasion when in check, else the captures and
    /// the quiet promotions to a queen.
    pub(super) fn quiescence(
        pos: &'a Position,
        block: &'a AttackBlock,
        in_check: bool,
        hash_move: Option<Move>,
    ) -> MovePicker<'a> {
        let mut list = MoveList::new();
        if in_check {
            pos.generate_legal(block, &mut list);
        } else {
            pos.generate_captures(block, &mut list);
            add_quiet_queen_promotions(pos, block, &mut list);
        }
        let no_killers = [Move::default(); 2];
        MovePicker::with_list(pos, block, list, hash_move, no_killers, !in_check)
    }

    fn with_list(
        pos: &'a Position,
        block: &'a AttackBlock,
        list: MoveList,
        hash_move: Option<Move>,
        killers: [Move; 2],
        tactical_only: bool,
    ) -> MovePicker<'a> {
        MovePicker {
            pos,
            block,
            list,
            hash_move,
            killers,
            killer_found: [false; 2],
            tactical_only,
            stage: Stage::HashMove,
            moves: [Move::default(); MAX_MOVES],
            scores: [0; MAX_MOVES],
            cur: 0,
            end: 0,
            end_bad: 0,
        }
    }

    /// Whether the node has no move to hand out (checkmate or stalemate in the main search).
    pub(super) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Keeps only the moves for which `keep` is true (the root's choice of moves); before the
    /// first move is handed out.
    pub(super) fn retain(&mut self, keep: impl FnMut(Move) -> bool) {
        debug_assert_eq!(self.stage, Stage::HashMove, "retain after the first move");
        self.list.retain(keep);
    }

    /// The next move and its class; `history` (the side to move's quiet-move history) orders
    /// the quiet moves when their stage begins.
    pub(super) fn next(&mut self, history: &[[i32; 64]; 64]) -> Option<(Move, Class)> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = Stage::ScoreCaptures;
                    self.hash_move = self.hash_move.filter(|m| self.list.as_slice().contains(m));
                    if let Some(mv) = self.hash_move {
                        return Some((mv, self.class_of(mv)));
                    }
                }
                Stage::ScoreCaptures => {
                    self.score_captures();
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    if let Some(mv) = self.good_capture() {
                        return Some((mv, Class::Tactical));
                    }
                    self.stage = if self.tactical_only {
                        self.start_bad_captures()
                    } else {
                        Stage::Killers
                    };
                }
                Stage::Killers => {
                    if let Some(i) = self.killer_found.iter().position(|&found| found) {
                        self.killer_found[i] = false;
                        return Some((self.killers[i], Class::Quiet));
                    }
                    self.stage = Stage::ScoreQuiets;
                }
                Stage::ScoreQuiets => {
                    self.score_quiets(history);
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if let Some((mv, _)) = self.pick_best() {
                        return Some((mv, Class::Quiet));
                    }
                    self.stage = self.start_bad_captures();
                }
                Stage::BadCaptures => {
                    if let Some((mv, _)) = self.pick_best() {
                        let class = if mv.promotion().is_some() {
                            Class::Tactical
                        } else {
                            Class::LosingCapture
                        };
                        return Some((mv, class));
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// The class of a move handed out before its stage (the hash move).
    fn class_of(&self, mv: Move) -> Class {
        if is_quiet(self.pos, mv) {
            Class::Quiet
        } else if capture_score(self.pos, mv) != UNDERPROMOTION && !self.holds(mv) {
            Class::LosingCapture
        } else {
            Class::Tactical
        }
    }

    /// Whether a capture or promotion does not lose material on its square.
    fn holds(&self, mv: Move) -> bool {
        let board = self.pos.board();
        let victim = board.get(mv.to());
        // En passant takes a pawn from beside the target.
        let victim_value = if victim == PieceCode::EMPTY && mv.kind() == MoveKind::EnPassant {
            piece_value(PieceType::Pawn)
        } else {
            piece_value_of(victim)
        };
        mv.promotion().is_some()
            || victim_value >= piece_value_of(board.get(mv.from()))
            || is_unchallenged(self.block, self.pos.side().flip(), mv)
            || see_at_least(self.pos, mv, 0)
    }

    /// Lists the captures and promotions with their scores, and notes which killers are
    /// quiet moves of the list.
    fn score_captures(&mut self) {
        let mut n = 0;
        for &mv in self.list.as_slice() {
            if Some(mv) == self.hash_move {
                continue;
            }
            if is_quiet(self.pos, mv) {
                if mv == self.killers[0] {
                    self.killer_found[0] = true;
                } else if mv == self.killers[1] {
                    self.killer_found[1] = true;
                }
                continue;
            }
            self.moves[n] = mv;
            self.scores[n] = capture_score(self.pos, mv);
            n += 1;
        }
        self.cur = 0;
        self.end = n;
    }

    /// The best capture left that does not lose material; the losing ones met on the way, and
    /// the underpromotions, are set aside at the front of the buffer (where the captures
    /// already handed out were).
    fn good_capture(&mut self) -> Option<Move> {
        while let Some((mv, score)) = self.pick_best() {
            if score != UNDERPROMOTION && self.holds(mv) {
                return Some(mv);
            }
            self.moves[self.end_bad] = mv;
            self.scores[self.end_bad] = score;
            self.end_bad += 1;
        }
        None
    }

    /// Lists the quiet moves other than the hash move and the killers (handed out already)
    /// after the captures set aside, scored by history.
    fn score_quiets(&mut self, history: &[[i32; 64]; 64]) {
        let mut n = self.end_bad;
        for &mv in self.list.as_slice() {
            if Some(mv) == self.hash_move || self.killers.contains(&mv) || !is_quiet(self.pos, mv) {
                continue;
            }
            self.moves[n] = mv;
            self.scores[n] = history[mv.from().index()][mv.to().index()];
            n += 1;
        }
        self.cur = self.end_bad;
        self.end = n;
    }

    /// Turns to the captures set aside.
    fn start_bad_captures(&mut self) -> Stage {
        self.cur = 0;
        self.end = self.end_bad;
        Stage::BadCaptures
    }

    /// The best-scored move of the current stage not yet handed out, and its score.
    fn pick_best(&mut self) -> Option<(Move, i32)> {
        if self.cur >= self.end {
            return None;
        }
        let best = self.cur + first_max(&self.scores[self.cur..self.end]);
        self.moves.swap(self.cur, best);
        self.scores.swap(self.cur, best);
        let i = self.cur;
        self.cur += 1;
        Some((self.moves[i], self.scores[i]))
    }
}

/// Whether `mv` neither captures nor promotes (a Chess960 king may castle onto its own
/// rook: no capture).
#[inline]
fn is_quiet(pos: &Position, mv: Move) -> bool {
    (pos.board().get(mv.to()).code() == 0 || mv.kind() == MoveKind::Castle)
        && mv.promotion().is_none()
        && mv.kind() != MoveKind::EnPassant
}

/// The order of a capture or promotion: the victim (and a queen promotion's gain) first, the
/// attacker second; an underpromotion last.
fn capture_score(pos: &Position, mv: Move) -> i32 {
    let promotion = mv.promotion();
    if matches!(promotion, Some(p) if p != PieceType::Queen) {
        return UNDERPROMOTION;
    }
    let board = pos.board();
    let victim = board.get(mv.to());
    // En passant takes a pawn from beside the target.
    let victim_value = if victim.code() == 0 && promotion.is_none() {
        piece_value(PieceType::Pawn)
    } else {
        piece_value_of(victim)
    };
    // The cheaper attacker first among equal victims: its type bits break the tie.
    let attacker = board.get(mv.from()).type_bits();
    let gain = victim_value + promotion.map_or(0, |_| 800);
    16 * gain / 100 - i32::from(attacker)
}

/// The index of the first highest score (`scores` is not empty). The running maximum stays
/// in a register, so the scan reads each score once.
#[inline]
fn first_max(scores: &[i32]) -> usize {
    let mut best = 0;
    let mut best_score = scores[0];
    for (i, &score) in scores.iter().enumerate().skip(1) {
        if score > best_score {
            best = i;
            best_score = score;
        }
    }
    best
}

/// The legal moves of `pos`, whose attack block is `block`.
pub(super) fn legal_moves(pos: &Position, block: &AttackBlock) -> MoveList {
    let mut list = MoveList::new();
    pos.generate_legal(block, &mut list);
    list
}

/// Adds the quiet promotions to a queen (the captures generator leaves them out).
fn add_quiet_queen_promotions(pos: &Position, block: &AttackBlock, list: &mut MoveList) {
    let (word, pawn) = match pos.side() {
        Colour::White => (1, PieceCode::new(Colour::White, PieceType::Pawn).code()),
        Colour::Black => (6, PieceCode::new(Colour::Black, PieceType::Pawn).code()),
    };
    if nibbles_equal(pos.board().words()[word], pawn) == 0 {
        return;
    }
    for &mv in legal_moves(pos, block).as_slice() {
        if mv.kind() == MoveKind::PromoteQueen && pos.board().get(mv.to()).code() == 0 {
            list.push(mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;

    /// A move of no particular kind by its UCI squares: the hash move or a killer, which may
    /// not be a move of the position.
    fn plain(text: &str) -> Move {
        let (from, to) = (Square::parse(&text[..2]), Square::parse(&text[2..4]));
        Move::new(from.unwrap(), to.unwrap(), MoveKind::Normal)
    }

    /// Every move the picker hands out for `fen`, in order, given the hash move and killers;
    /// each legal move exactly once.
    fn order(fen: &str, hash: &str, killers: [&str; 2]) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap();
        let block = AttackBlock::new(pos.board());
        let mut picker = MovePicker::new(&pos, &block, Some(plain(hash)), killers.map(plain));
        let mut out = Vec::new();
        while let Some((mv, class)) = picker.next(&[[0; 64]; 64]) {
            assert_eq!(class == Class::Quiet, is_quiet(&pos, mv), "{mv}");
            out.push(mv.to_string());
        }
        let mut handed_out = out.clone();
        handed_out.sort();
        let legal = pos.legal_moves();
        let mut legal: Vec<String> = legal.as_slice().iter().map(Move::to_string).collect();
        legal.sort();
        assert_eq!(handed_out, legal);
        out
    }

    /// Bxc6 bxc6 trades a bishop for a knight: even, so a good capture. Nxd5 Qxd5 gives the
    /// knight for a pawn: losing, so last.
    const TWO_CAPTURES: &str = "r1bqkbnr/ppp2ppp/2n5/1B1p4/8/2N5/PPPP1PPP/R1BQK1NR w KQkq - 0 4";

    #[test]
    fn hash_move_then_good_captures_then_killers_then_quiets_then_losing_captures() {
        let moves = order(TWO_CAPTURES, "a1b1", ["h2h3", "a2a3"]);
        assert_eq!(moves[..4], ["a1b1", "b5c6", "h2h3", "a2a3"], "{moves:?}");
        assert_eq!(moves.last().map(String::as_str), Some("c3d5"), "{moves:?}");
    }

    #[test]
    fn moves_of_another_position_are_not_handed_out() {
        // The hash move is blocked by the a2 pawn, the first killer moves from an empty
        // square, and the second captures here: it comes as the losing capture it is.
        let moves = order(TWO_CAPTURES, "a1a5", ["h3h4", "c3d5"]);
        assert_eq!(moves[0], "b5c6", "{moves:?}");
        assert_eq!(moves.last().map(String::as_str), Some("c3d5"), "{moves:?}");
    }

    #[test]
    fn quiescence_hands_out_captures_and_queen_promotions() {
        let pos = Position::from_fen("2r1k3/1P6/8/3p4/4P3/2N5/8/4K3 w - - 0 1").unwrap();
        let block = AttackBlock::new(pos.board());
        let mut picker = MovePicker::quiescence(&pos, &block, false, None);
        let mut out = Vec::new();
        while let Some((mv, _)) = picker.next(&[[0; 64]; 64]) {
            out.push(mv.to_string());
        }
        // The capture of the rook that promotes gains most, then the quiet queen promotion;
        // the pawn and the knight take the same pawn, the cheaper attacker first; the
        // capturing underpromotions come last and the quiet ones not at all.
        assert_eq!(out[..4], ["b7c8q", "b7b8q", "e4d5", "c3d5"], "{out:?}");
        out[4..].sort();
        assert_eq!(out[4..], ["b7c8b", "b7c8n", "b7c8r"], "{out:?}");
    }
}
