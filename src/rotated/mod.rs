//! Rotated bitboards, as Hyatt published them for Crafty: the pieces as bitboards and the
//! occupancy kept four ways, so every slider attack is one table lookup by the occupied
//! state of the rank, file or diagonal the slider stands on.
//!
//! - [`tables`]: the four layouts (normal, rotated 90°, 45° and 315°), each square's bit in
//!   each, the per-square diagonal shifts and the attack tables, all `const`.
//! - [`lines`]: [`Occupancy`], the four boards, their lookups and the square toggle make
//!   and the generator use.
//! - [`Rotated`]: the position, made move by move (copy-make), with the legal generator of
//!   [`crate::bitboard::movegen`] served by the rotated lookups: no magic table is read
//!   and no board is rotated whole after the position is built.

pub(crate) mod lines;
pub(crate) mod tables;

pub(crate) use lines::Occupancy;

use std::fmt;

use crate::bitboard::movegen::{self, PieceSets, SliderLines};
use crate::bitboard::{Bitboards, BitboardsInvariant};
use crate::ccr::Position;
use crate::moves::MoveList;
use crate::repr::{Representation, wraps_invariant};
use crate::types::Move;

/// What [`Rotated::validate`](Representation::validate) finds broken: the piece boards (as
/// [`Bitboards`] checks them) or the four occupancy boards.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RotatedInvariant {
    /// The piece boards or the position they hold.
    Board(BitboardsInvariant),
    /// The normal occupancy board disagrees with the pieces, or a rotated one with the
    /// normal one rotated.
    Lines,
}

wraps_invariant!(RotatedInvariant::Board(BitboardsInvariant));

impl fmt::Display for RotatedInvariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RotatedInvariant::Board(broken) => broken.fmt(f),
            RotatedInvariant::Lines => write!(
                f,
                "the occupancy boards disagree with the pieces or with each other"
            ),
        }
    }
}

impl std::error::Error for RotatedInvariant {}

/// A position as rotated bitboards: the piece sets and the state as [`Bitboards`] keeps them
/// (colour and type boards, side, castling, en passant, clocks) and the occupancy in four
/// layouts (`Occupancy`). 104 bytes a copy: the native bitboards' 72 and the four
/// occupancy boards (the normal one kept beside the colour boards, as Crafty keeps it).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Rotated {
    /// The pieces and the state.
    pub board: Bitboards,
    /// The occupied squares, four ways.
    pub lines: Occupancy,
}

impl PieceSets for Rotated {
    #[inline(always)]
    fn of(&self, base: usize, piece_type: usize) -> u64 {
        self.board.of(base, piece_type)
    }

    #[inline(always)]
    fn colour(&self, base: usize) -> u64 {
        self.board.colour(base)
    }

    #[inline(always)]
    fn occupied(&self) -> u64 {
        self.lines.ranks
    }

    type Lines = Occupancy;

    #[inline(always)]
    fn lines(&self, occupied: u64) -> Occupancy {
        debug_assert_eq!(occupied, self.lines.ranks);
        self.lines
    }
}

impl Rotated {
    /// The same position, converted from the C.C.R. (the one place the occupancy is rotated
    /// whole).
    pub fn from_position(pos: &Position) -> Rotated {
        let board = Bitboards::from_position(pos);
        Rotated {
            board,
            lines: Occupancy::of(board.occupied()),
        }
    }

    /// The position after `mv`, which must be legal here: the piece boards as
    /// [`Bitboards::make`] moves them, and in the four occupancy boards the bits of the
    /// squares that emptied or filled (the old occupancy against the new: `from`, `to` unless
    /// it held a piece, an en-passant capture's pawn, a castling rook's two squares) toggled
    /// from `tables::SQUARE_BITS`.
    #[inline(always)]
    pub fn make(&self, mv: Move) -> Rotated {
        let board = self.board.make(mv);
        let mut changed = self.lines.ranks ^ board.occupied();
        let mut lines = self.lines;
        while changed != 0 {
            lines = lines.toggle(changed.trailing_zeros() as usize);
            changed &= changed - 1;
        }
        let next = Rotated { board, lines };
        // The four boards in full, whether the slow checks are on or not (the cheap check
        // would cost as much); the piece boards were checked by their own make.
        debug_assert_eq!(next.check_lines(), Ok(()), "{next:?} after {mv}");
        next
    }

    /// Checks the four occupancy boards: the normal one against the pieces, the rotated ones
    /// against the normal one rotated.
    fn check_lines(&self) -> Result<(), RotatedInvariant> {
        if self.lines.ranks != self.board.occupied()
            || Occupancy::of(self.lines.ranks) != self.lines
        {
            return Err(RotatedInvariant::Lines);
        }
        Ok(())
    }
}

impl Representation for Rotated {
    const NAME: &'static str = "rotated";

    fn from_position(pos: &Position) -> Self {
        Rotated::from_position(pos)
    }

    fn to_position(&self) -> Position {
        self.board.to_position()
    }

    #[inline]
    fn generate_legal(&self, list: &mut MoveList) {
        let b = &self.board;
        movegen::generate_legal(self, b.side, b.castling, b.en_passant, list);
    }

    #[inline]
    fn generate_captures(&self, list: &mut MoveList) {
        movegen::generate_captures(self, self.board.side, self.board.en_passant, list);
    }

    #[inline(always)]
    fn make(&self, mv: Move) -> Self {
        Rotated::make(self, mv)
    }

    #[inline]
    fn in_check(&self) -> bool {
        movegen::in_check(self, self.board.side)
    }

    type Invalid = RotatedInvariant;

    /// Checks everything [`Bitboards`] checks, then the four occupancy boards against the
    /// pieces and each other.
    fn validate(&self) -> Result<(), RotatedInvariant> {
        self.board.validate()?;
        self.check_lines()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::{Leaves, perft};
    use crate::positions::random_games;
    use crate::types::{MoveKind, PieceCode};

    #[test]
    fn a_copy_is_104_bytes() {
        assert_eq!(size_of::<Rotated>(), 104);
        assert_eq!(Rotated::size_in_bytes(), 104);
    }

    /// Random games from the standard and tricky positions: after every legal move the four
    /// occupancy boards equal the rotations of the normal one, which equals the pieces, and
    /// the position equals the C.C.R.'s after the same move.
    #[test]
    fn make_keeps_the_four_boards_rotations_of_the_normal_one() {
        let fens = [
            &crate::positions::STANDARD[..5],
            &["rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"],
        ]
        .concat();
        let (mut made, mut kinds) = (0, [0usize; 4]);
        random_games(
            fens,
            8,
            0x5EED,
            119,
            Rotated::from_position,
            |rotated, pos, legal, line| {
                if let Some(&mv) = line.last() {
                    rotated.play(mv);
                    assert_eq!(rotated.validate(), Ok(()));
                }
                for &mv in legal {
                    let after = rotated.make(mv);
                    assert_eq!(after.lines, Occupancy::of(after.board.occupied()), "{mv}");
                    assert_eq!(after.lines.ranks, after.board.occupied());
                    assert_eq!(
                        after.to_position(),
                        pos.make(mv),
                        "{mv} in {}",
                        pos.to_fen()
                    );
                    made += 1;
                    kinds[match mv.kind() {
                        MoveKind::EnPassant => 1,
                        MoveKind::Castle => 2,
                        _ if pos.board().get(mv.to()) == PieceCode::EMPTY => 0,
                        _ => 3,
                    }] += 1;
                }
                true
            },
        );
        assert!(
            made > 50_000 && kinds.iter().all(|&n| n > 20),
            "{made} {kinds:?}"
        );
    }

    #[test]
    fn validate_sees_a_rotated_board_out_of_step() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").expect("a valid FEN");
        let good = Rotated::from_position(&pos);
        assert_eq!(good.validate(), Ok(()));
        for layout in 0..4 {
            let mut bad = good;
            let board = match layout {
                0 => &mut bad.lines.ranks,
                1 => &mut bad.lines.files,
                2 => &mut bad.lines.a1h8,
                _ => &mut bad.lines.a8h1,
            };
            *board ^= 1 << 20;
            assert_eq!(
                bad.validate(),
                Err(RotatedInvariant::Lines),
                "layout {layout}"
            );
        }
    }

    #[test]
    fn perft_standard_start_and_kiwipete() {
        let start = Rotated::from_position(&Position::startpos());
        for leaves in [Leaves::Make, Leaves::Bulk] {
            assert_eq!(perft(&start, 4, leaves), 197_281);
        }
        let kiwipete = Rotated::from_fen(crate::positions::KIWIPETE).expect("a valid FEN");
        assert_eq!(perft(&kiwipete, 3, Leaves::Make), 97_862);
    }
}
