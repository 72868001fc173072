//! Move ordering: the hash move, then captures by victim and attacker, then killers, then
//! quiet moves by history, and last the captures that lose material.
//!
//! A capture is good if the victim is worth at least the attacker (whatever follows, the
//! exchange then cannot lose), or if the node's attack table shows that nothing can take
//! back, else if its static exchange evaluation is not negative. The exchange is evaluated
//! only when the capture would be handed out next: until then it is ranked as a good
//! capture, the best it can be. A node that cuts off early never pays for the exchanges of
//! the captures it did not reach, and the moves still come in the order that evaluating
//! every exchange first would give.

use super::see::{is_unchallenged, see_at_least};
use crate::ccr::attacks::AttackBlock;
use crate::ccr::{MoveList, Position};
use crate::moves::MAX_MOVES;
use crate::types::{Move, MoveKind, PieceCode};

/// Piece values for ordering and pruning, by piece type (1 = pawn … 6 = king).
const VALUES: [i32; 8] = [0, 100, 320, 330, 500, 900, 20_000, 0];

/// The ordering value of a piece type.
#[inline]
pub fn piece_value(piece_type: u8) -> i32 {
    VALUES[piece_type as usize & 7]
}

const HASH_MOVE: i32 = 4_000_000;
const GOOD_CAPTURE: i32 = 2_000_000;
const KILLER: i32 = 1_000_000;
const BAD_CAPTURE: i32 = -2_000_000;
const UNDERPROMOTION: i32 = -3_000_000;

/// What kind of move the picker hands out.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Class {
    /// Neither a capture nor a promotion.
    Quiet,
    /// A promotion, or a capture that does not lose material.
    Tactical,
    /// A capture that loses material in the exchange on its square.
    LosingCapture,
}

/// Hands out a node's moves best first (selection sort: a cutoff usually comes early).
pub struct MovePicker<'a> {
    pos: &'a Position,
    moves: [Move; MAX_MOVES],
    scores: [i32; MAX_MOVES],
    /// Each move's class, `None` for a capture whose exchange is not evaluated yet.
    class: [Option<Class>; MAX_MOVES],
    len: usize,
    next: usize,
}

impl<'a> MovePicker<'a> {
    /// Scores every move of `list`.
    pub fn new(
        pos: &'a Position,
        block: &AttackBlock,
        list: &MoveList,
        hash_move: Option<Move>,
        killers: [Move; 2],
        history: &[[i32; 64]; 64],
    ) -> MovePicker<'a> {
        let mut picker = MovePicker {
            pos,
            moves: [Move::default(); MAX_MOVES],
            scores: [0; MAX_MOVES],
            class: [None; MAX_MOVES],
            len: list.len(),
            next: 0,
        };
        let them = pos.side().flip();
        for (i, &mv) in list.as_slice().iter().enumerate() {
            let victim = pos.board().get(mv.to());
            let promotion = mv.promotion();
            // A Chess960 king may castle onto its own rook: no capture.
            let quiet = (victim.code() == 0 || mv.kind() == MoveKind::Castle)
                && promotion.is_none()
                && mv.kind() != MoveKind::EnPassant;
            let (score, class) = if quiet {
                let score = if Some(mv) == hash_move {
                    HASH_MOVE
                } else if mv == killers[0] {
                    KILLER + 1
                } else if mv == killers[1] {
                    KILLER
                } else {
                    history[mv.from().index()][mv.to().index()]
                };
                (score, Some(Class::Quiet))
            } else {
                // En passant takes a pawn from beside the target.
                let victim_type = if victim.code() == 0 && promotion.is_none() {
                    PieceCode::PAWN
                } else {
                    victim.piece_type()
                };
                let attacker = pos.board().get(mv.from()).piece_type();
                let class = if promotion.is_some()
                    || piece_value(victim_type) >= piece_value(attacker)
                    || is_unchallenged(block, them, mv)
                {
                    Some(Class::Tactical)
                } else {
                    None
                };
                let score = if Some(mv) == hash_move {
                    HASH_MOVE
                } else if matches!(promotion, Some(p) if p != PieceCode::QUEEN) {
                    UNDERPROMOTION
                } else {
                    let gain = piece_value(victim_type) + promotion.map_or(0, |_| 800);
                    GOOD_CAPTURE + 16 * gain / 100 - attacker as i32
                };
                (score, class)
            };
            picker.moves[i] = mv;
            picker.scores[i] = score;
            picker.class[i] = class;
        }
        picker
    }

    /// The best move not yet handed out, and its class.
    pub fn next(&mut self) -> Option<(Move, Class)> {
        if self.next >= self.len {
            return None;
        }
        let (best, class) = loop {
            let best = self.next + first_max(&self.scores[self.next..self.len]);
            if let Some(class) = self.class[best] {
                break (best, class);
            }
            // Ranked as a good capture so far: evaluate the exchange now. A losing one drops
            // to its place among the losing captures (the hash move keeps its rank), and the
            // scan runs again, so the order is the one every exchange evaluated up front
            // would give: each score only falls, and the move handed out has its final one.
            if see_at_least(self.pos, self.moves[best], 0) {
                self.class[best] = Some(Class::Tactical);
                break (best, Class::Tactical);
            }
            self.class[best] = Some(Class::LosingCapture);
            if self.scores[best] == HASH_MOVE {
                break (best, Class::LosingCapture);
            }
            self.scores[best] += BAD_CAPTURE - GOOD_CAPTURE;
        };
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.class.swap(self.next, best);
        let i = self.next;
        self.next += 1;
        Some((self.moves[i], class))
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn order(fen: &str, hash: Option<&str>) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap();
        let list = pos.legal_moves();
        let hash = hash.map(|h| pos.parse_uci_move(h).unwrap());
        let block = AttackBlock::new(pos.board());
        let mut picker = MovePicker::new(
            &pos,
            &block,
            &list,
            hash,
            [Move::default(); 2],
            &[[0; 64]; 64],
        );
        let mut out = Vec::new();
        while let Some((mv, _)) = picker.next() {
            out.push(mv.to_string());
        }
        assert_eq!(out.len(), list.len());
        out
    }

    #[test]
    fn hash_move_then_good_captures_then_quiets_then_losing_captures() {
        // Bxc6 bxc6 trades a bishop for a knight: even, so a good capture. Nxd5 Qxd5 gives
        // the knight for a pawn: losing, so last. The rook move is the hash move.
        let fen = "r1bqkbnr/ppp2ppp/2n5/1B1p4/8/2N5/PPPP1PPP/R1BQK1NR w KQkq - 0 4";
        let moves = order(fen, Some("a1b1"));
        assert_eq!(moves[..2], ["a1b1", "b5c6"], "{moves:?}");
        assert_eq!(moves.last().map(String::as_str), Some("c3d5"), "{moves:?}");
    }
}
