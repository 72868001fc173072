//! Making a move on the 0x88 board: copy-make of the 128 bytes.

use super::tables::X88_OF;
use super::{CASTLING, COUNTS, EP, FULLMOVE, HALFMOVE, LISTS, NO_EP, SIDE, X88};
use crate::ccr::board::{MAX_FULLMOVE_NUMBER, MAX_HALFMOVE_CLOCK};
use crate::ccr::make as ccr_make;
use crate::ccr::validate;
use crate::repr::Representation;
use crate::types::{Colour, Move, MoveKind, PieceType, Square};

/// For each 0x88 square, the castling rights that survive a move from or to it: the
/// C.C.R.'s table ([`ccr_make::CASTLING_KEPT`]) moved to the 0x88 squares, so that make reads
/// it by the squares it already has.
const CASTLING_KEPT: [u8; 128] = {
    let mut kept = [0xF; 128];
    let mut i = 0;
    while i < 64 {
        let sq = Square::new(i as u8);
        kept[16 * sq.rank() as usize + sq.file() as usize] = ccr_make::CASTLING_KEPT[i];
        i += 1;
    }
    kept
};

/// One in every byte.
const ONES: u128 = u128::MAX / 0xFF;

impl X88 {
    /// The position after `mv`, which must be legal here.
    #[inline(always)]
    pub fn make(&self, mv: Move) -> X88 {
        let mut next = *self;
        next.play(mv);
        next
    }

    /// Plays `mv`, which must be legal here, in place (debug builds then check what the
    /// move could have broken, or the whole board with the slow checks on).
    #[inline(always)]
    pub fn play(&mut self, mv: Move) {
        let from = X88_OF[mv.from().index()];
        let to = X88_OF[mv.to().index()];
        let us = self.side();
        let piece = self.board[from as usize & 0x7F];
        let captured = self.board[to as usize & 0x7F];
        if captured != 0 {
            self.remove(us.flip(), to);
        }
        self.board[to as usize & 0x7F] = match mv.promotion() {
            Some(piece_type) => us.code_bit() | piece_type.bits(),
            None => piece,
        };
        self.relocate(us, from, to);
        self.board[EP] = NO_EP;
        match mv.kind() {
            MoveKind::Normal => {}
            MoveKind::DoublePush => self.board[EP] = (from + to) / 2,
            MoveKind::Castle => {
                let (rook_from, rook_to) = if to & 7 == 6 {
                    (from + 3, from + 1)
                } else {
                    (from - 4, from - 1)
                };
                self.board[rook_to as usize & 0x7F] = self.board[rook_from as usize & 0x7F];
                self.relocate(us, rook_from, rook_to);
            }
            MoveKind::EnPassant => self.remove(us.flip(), (to & 7) | (from & 0x70)),
            _ => {}
        }
        if self.board[CASTLING] != 0 {
            self.board[CASTLING] &=
                CASTLING_KEPT[from as usize & 0x7F] & CASTLING_KEPT[to as usize & 0x7F];
        }
        // The clocks stop where the C.C.R. stops them, so both reach equal positions.
        let halfmove = if piece & 7 == PieceType::Pawn.bits() || captured != 0 {
            0
        } else {
            (self.halfmove_clock() + 1).min(MAX_HALFMOVE_CLOCK)
        };
        self.board[HALFMOVE] = halfmove as u8;
        if us == Colour::Black {
            let fullmove = (self.fullmove_number() + 1).min(MAX_FULLMOVE_NUMBER);
            self.board[FULLMOVE..FULLMOVE + 2].copy_from_slice(&fullmove.to_le_bytes());
        }
        self.board[SIDE] = us.flip() as u8;
        if cfg!(debug_assertions) {
            validate::check_made(
                mv,
                || format!("{self:?}"),
                || self.check_move(mv),
                || self.validate(),
            );
        }
    }

    /// The slot of `sq` in `colour`'s list: the sixteen slots are compared at once as one
    /// 128-bit word (the lowest zero byte of `list ^ sq` is exact; stale slots past the
    /// count lie above the live one).
    #[inline(always)]
    fn slot_of(&self, colour: Colour, sq: u8) -> usize {
        let base = LISTS[colour as usize];
        let mut bytes = [0; 16];
        bytes[..8].copy_from_slice(&self.board[base..base + 8]);
        bytes[8..].copy_from_slice(&self.board[base + 16..base + 24]);
        let x = u128::from_le_bytes(bytes) ^ (sq as u128 * ONES);
        let zero = x.wrapping_sub(ONES) & !x & (ONES << 7);
        (zero.trailing_zeros() / 8) as usize
    }

    /// Moves the list entry of `colour`'s piece on `from` to `to` and empties `from` (the
    /// caller has put the piece's code on `to`).
    #[inline(always)]
    fn relocate(&mut self, colour: Colour, from: u8, to: u8) {
        let slot = self.slot_of(colour, from);
        self.board[Self::slot_index(colour, slot)] = to;
        self.board[from as usize & 0x7F] = 0;
    }

    /// Takes the piece on `sq` off `colour`'s list: the last entry fills its slot, so the
    /// king (never captured) stays first.
    #[inline(always)]
    fn remove(&mut self, colour: Colour, sq: u8) {
        let slot = self.slot_of(colour, sq);
        let count = self.board[COUNTS + colour as usize] - 1;
        self.board[COUNTS + colour as usize] = count;
        let last = self.board[Self::slot_index(colour, count as usize)];
        self.board[Self::slot_index(colour, slot)] = last;
        self.board[sq as usize & 0x7F] = 0;
    }
}

#[cfg(test)]
mod tests {
    use crate::ccr::Position;
    use crate::repr::Representation;
    use crate::types::PieceType;
    use crate::x88::X88;

    #[test]
    fn captures_keep_the_lists() {
        // Take pieces until few are left; the lists must follow every capture.
        let mut x = X88::from_fen(crate::positions::KIWIPETE).unwrap();
        let mut pos = x.to_position();
        for _ in 0..40 {
            let mut caps = crate::moves::MoveList::new();
            x.generate_captures(&mut caps);
            let Some(&mv) = caps.as_slice().first() else {
                break;
            };
            (x, pos) = (x.make(mv), Position::make(&pos, mv));
            assert_eq!(x.to_position(), pos);
            for colour in [crate::types::Colour::White, crate::types::Colour::Black] {
                let list = x.pieces(colour);
                let squares = list.as_slice();
                assert_eq!(
                    x.code(squares[0]).piece_type(),
                    Some(PieceType::King),
                    "king first"
                );
                for &sq in squares {
                    assert!(x.code(sq).code() != 0 && x.code(sq).colour() == colour);
                }
                let on_board = (0..128u8)
                    .filter(|s| {
                        s & 0x88 == 0 && x.code(*s).code() != 0 && x.code(*s).colour() == colour
                    })
                    .count();
                assert_eq!(squares.len(), on_board);
            }
        }
    }
}
