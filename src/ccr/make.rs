//! Making a move: copy-make of the 48-byte position (the board is 32 of them).

use crate::ccr::board::{Position, nibbles_equal};
use crate::ccr::checks::is_attacked;
use crate::ccr::frame::sideways;
use crate::ccr::validate;
use crate::types::{Colour, Move, MoveKind, PieceCode, PieceType, Square};

/// For each C.C.R. square index, the castling rights that survive a move from or to it.
pub(crate) const CASTLING_KEPT: [u8; 64] = {
    let mut kept = [0xF; 64];
    // Rank 8 is word 0: a8 is index 7, e8 index 3, h8 index 0.
    kept[7] = !8 & 0xF; // a8: black queen side
    kept[3] = !(4 | 8) & 0xF; // e8: black king
    kept[0] = !4 & 0xF; // h8: black king side
    kept[63] = !2 & 0xF; // a1: white queen side
    kept[59] = !(1 | 2) & 0xF; // e1: white king
    kept[56] = !1 & 0xF; // h1: white king side
    kept
};

/// For each C.C.R. square index, a board that is `0xF` on that square and zero elsewhere.
static SQUARE_BOARDS: [[u32; 8]; 64] = {
    let mut boards = [[0; 8]; 64];
    let mut i = 0;
    while i < 64 {
        boards[i][i / 8] = 0xF << (4 * (i % 8));
        i += 1;
    }
    boards
};

/// The rank words with the code on `from` emptied and `piece` put on `to`, built as one
/// whole board.
///
/// Each word is the same expression of its two squares' boards, a loop the compiler turns
/// into 16-byte vector operations, so the new board leaves in whole 16-byte stores. Writing
/// the two words into a copy in place stored 4-byte words into the 16-byte ones just
/// copied, and the next 16-byte load of that board (perft's leaf copy, the child's
/// generator) waited for both to retire: a store-forwarding stall that made perft on
/// x86_64 slower than on i686 (docs/BENCHMARKS.md, "Pure generation goals").
#[inline(always)]
fn moved(words: &[u32; 8], from: Square, to: Square, piece: u32) -> [u32; 8] {
    let (from_board, to_board) = (&SQUARE_BOARDS[from.index()], &SQUARE_BOARDS[to.index()]);
    let spread = piece * 0x1111_1111;
    let mut next = [0; 8];
    for (((n, &w), &f), &t) in next.iter_mut().zip(words).zip(from_board).zip(to_board) {
        *n = (w & !(f | t)) | (t & spread);
    }
    next
}

impl Position {
    /// The position after `mv`, which must be legal here.
    #[inline(always)]
    pub fn make(&self, mv: Move) -> Position {
        let mut next = *self;
        next.play(mv);
        next
    }

    /// Plays `mv`, which must be legal here, in place (debug builds then check what the
    /// move could have broken, or the whole position with the slow checks on).
    ///
    /// The common move rewrites two nibbles, the board built anew as a whole (`moved`);
    /// every special move (double push, castling, en passant, promotion) takes one branch to
    /// `special`, last.
    /// Each value is used as soon as it is known and the call comes after everything else,
    /// so that few values live at once: on i686 (seven general registers) an earlier call
    /// makes the leaf loop spill the piece, the target and the side around it
    /// (docs/BENCHMARKS.md, "Fewer live values across calls").
    #[inline(always)]
    // The clock's two identical branches keep the common move's test apart (see there).
    #[allow(clippy::if_same_then_else)]
    pub fn play(&mut self, mv: Move) {
        let (from, to) = (mv.from(), mv.to());
        let us = self.side();
        let words = self.board.0;
        let piece = (words[from.word()] >> from.shift()) & 0xF;
        let target = words[to.word()];
        self.board.0 = moved(&words, from, to, piece);
        self.en_passant = None;
        let type_bits = (piece & 7) as u8;
        // One more ply flips the side and counts both clocks (see `Position`).
        self.ply = self.ply.wrapping_add(1);
        // A capture or a pawn move stops the clock. A Chess960 king may castle onto its own
        // rook or stay on its square, which is no capture: only the special moves are asked
        // about castling, in a branch of their own, so that the common move's test compiles
        // as it did without Chess960 (asked in one condition, it cost every move).
        let occupied = target & to.mask() != 0;
        if type_bits == PieceType::Pawn.bits() || (occupied && mv.kind() == MoveKind::Normal) {
            self.irreversible = self.ply;
        } else if occupied && mv.kind() != MoveKind::Castle {
            self.irreversible = self.ply;
        }
        if type_bits == PieceType::King.bits() {
            self.kings[us as usize] = to;
        }
        if !self.castling.is_empty() {
            let kept = if self.rook_files.is_standard() {
                CASTLING_KEPT[from.index()] & CASTLING_KEPT[to.index()]
            } else {
                self.chess960_rights_kept(from, to, type_bits == PieceType::King.bits(), us)
            };
            self.castling = self.castling.retain_bits(kept);
        }
        if mv.kind() != MoveKind::Normal {
            self.special(mv, us);
        }
        if cfg!(debug_assertions) {
            validate::check_made(
                mv,
                || self.to_fen(),
                || validate::check_move(mv, &self.state(), |sq| self.board.get(sq)),
                || self.validate(),
            );
        }
    }

    /// The rest of a move other than [`MoveKind::Normal`] by `us`, after `play` has done
    /// everything else (moved the piece to its target, flipped the side to move).
    #[inline(never)]
    fn special(&mut self, mv: Move, us: Colour) {
        let (from, to) = (mv.from(), mv.to());
        match mv.kind() {
            MoveKind::Normal => {}
            MoveKind::DoublePush => {
                // Halfway between the pawn's two squares (one file, two words apart).
                self.en_passant = Some(Square::new((from.index() + to.index()) as u8 / 2));
            }
            MoveKind::Castle => {
                // The rook jumps over the king within the same rank word. In Chess960 the
                // king may have landed on the rook, or the rook start on the king's
                // square: the rook leaves first, then king and rook take their targets.
                let (rook_from, rook_to) = self.rook_files.castling_rook(mv);
                self.board.set(rook_from, PieceCode::EMPTY);
                self.board.set(to, PieceCode::new(us, PieceType::King));
                self.board.set(rook_to, PieceCode::new(us, PieceType::Rook));
            }
            MoveKind::EnPassant => {
                self.board.set(
                    Square::from_file_rank(to.file(), from.rank()),
                    PieceCode::EMPTY,
                );
            }
            MoveKind::PromoteKnight
            | MoveKind::PromoteBishop
            | MoveKind::PromoteRook
            | MoveKind::PromoteQueen => {
                let piece_type = mv.promotion().unwrap_or(PieceType::Queen);
                self.board.set(to, PieceCode::new(us, piece_type));
            }
        }
    }

    /// The castling rights bits a move from `from` to `to` keeps in a Chess960 setup: a
    /// king move loses its side's two, a move from or onto a rook's square that rook's.
    #[cold]
    fn chess960_rights_kept(&self, from: Square, to: Square, king_moved: bool, us: Colour) -> u8 {
        let mut kept = 0xF;
        if king_moved {
            kept &= !(0b11 << (2 * us as u8));
        }
        for index in 0..4 {
            let rook = self.rook_files.rook_square(index);
            if rook == from || rook == to {
                kept &= !(1 << index);
            }
        }
        kept
    }

    /// Whether the side to move has a legal en-passant capture onto `en_passant`.
    ///
    /// Rare (only after a double push with an enemy pawn beside it), so it plays the capture
    /// on a copy of the board and looks for a check, rather than reasoning about pins.
    #[cold]
    pub fn ep_capture_is_legal(&self) -> bool {
        let Some(target) = self.en_passant else {
            return false;
        };
        let us = self.side();
        // The pawn that just advanced stands on the target's file, one rank toward its side.
        let pushed = match us {
            Colour::White => Square::from_file_rank(target.file(), target.rank() - 1),
            Colour::Black => Square::from_file_rank(target.file(), target.rank() + 1),
        };
        let our_pawn = PieceCode::new(us, PieceType::Pawn).code() as u32;
        let word = self.board.0[pushed.word()];
        let mut capturers = nibbles_equal(word, our_pawn as u8) & sideways(pushed.mask(), 1);
        while capturers != 0 {
            let mask = 0xF << (capturers.trailing_zeros() & !3);
            let mut board = self.board;
            board.0[pushed.word()] &= !(mask | pushed.mask());
            board.set(target, PieceCode::from_stored(our_pawn as u8));
            if !is_attacked(&board, self.king(us), us.flip()) {
                return true;
            }
            capturers &= !mask;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ccr::board::Ccr;

    #[test]
    fn the_whole_board_move_equals_two_nibble_writes() {
        let kiwipete = Position::from_fen(crate::positions::KIWIPETE).unwrap();
        for board in [kiwipete.board, Position::startpos().board] {
            for (from, to) in (0..64).flat_map(|f| (0..64).map(move |t| (f, t))) {
                let (from, to) = (Square::new(from), Square::new(to));
                if from == to {
                    continue;
                }
                let piece = board.get(from);
                let mut expected: Ccr = board;
                expected.set(from, PieceCode::EMPTY);
                expected.set(to, piece);
                let next = moved(&board.0, from, to, piece.code() as u32);
                assert_eq!(next, expected.0, "{from} to {to}");
            }
        }
    }
}
