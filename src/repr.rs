//! One interface over the board representations ccr compares: the C.C.R. itself
//! ([`Position`]), the 0x88 board ([`crate::x88::X88`]) and the bitboards converted from
//! the C.C.R. ([`crate::bitboard::Bitboards`]).
//!
//! Every representation speaks the same [`Move`] (squares in C.C.R. order, see
//! [`crate::types::Square`]) and fills the same [`MoveList`], so perft, the differential
//! tests and the benches are written once and switch representation by type. A
//! representation is built from a validated [`Position`]: FEN parsing and its errors live
//! in one place, the C.C.R., which stays the engine's own board.

use crate::ccr::{FenError, Position};
use crate::moves::MoveList;
use crate::types::Move;

/// A board representation that can generate legal moves, make them and count perft.
pub trait Representation: Clone {
    /// The name `--repr` selects it by (`ccr`, `x88`, `bitboard`).
    const NAME: &'static str;

    /// The same position in this representation.
    fn from_position(pos: &Position) -> Self;

    /// The same position as a C.C.R. [`Position`] (for FEN output and the tests).
    fn to_position(&self) -> Position;

    /// Fills `list` with the legal moves.
    fn generate_legal(&self, list: &mut MoveList);

    /// Fills `list` with the legal captures: every move that takes a piece, en passant and
    /// capturing promotions included, quiet promotions not.
    fn generate_captures(&self, list: &mut MoveList);

    /// The position after `mv`, which must be one of the legal moves.
    fn make(&self, mv: Move) -> Self;

    /// Whether the side to move is in check.
    fn in_check(&self) -> bool;

    /// Parses a FEN through the C.C.R.'s strict parser.
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        Position::from_fen(fen).map(|pos| Self::from_position(&pos))
    }

    /// The bytes a copy of the position takes (what copy-make copies per node).
    fn size_in_bytes() -> usize {
        size_of::<Self>()
    }
}

impl Representation for Position {
    const NAME: &'static str = "ccr";

    fn from_position(pos: &Position) -> Self {
        *pos
    }

    fn to_position(&self) -> Position {
        *self
    }

    #[inline]
    fn generate_legal(&self, list: &mut MoveList) {
        Position::generate_legal(self, list);
    }

    #[inline]
    fn generate_captures(&self, list: &mut MoveList) {
        Position::generate_captures(self, list);
    }

    #[inline(always)]
    fn make(&self, mv: Move) -> Self {
        Position::make(self, mv)
    }

    #[inline]
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }
}

/// A C.C.R. [`Position`] wrapper whose legal and captures generation call the given
/// `Position` methods (another source of the enemy's attack table); the rest is the
/// C.C.R.'s own.
macro_rules! position_with_attacks {
    ($(#[$doc:meta])* $name:ident, $legal:ident, $captures:ident) => {
        $(#[$doc])*
        #[derive(Copy, Clone, PartialEq, Eq, Debug)]
        pub struct $name(pub crate::ccr::Position);

        impl crate::repr::Representation for $name {
            const NAME: &'static str = "ccr";

            fn from_position(pos: &crate::ccr::Position) -> Self {
                $name(*pos)
            }

            fn to_position(&self) -> crate::ccr::Position {
                self.0
            }

            #[inline]
            fn generate_legal(&self, list: &mut crate::moves::MoveList) {
                self.0.$legal(list);
            }

            #[inline]
            fn generate_captures(&self, list: &mut crate::moves::MoveList) {
                self.0.$captures(list);
            }

            #[inline(always)]
            fn make(&self, mv: crate::types::Move) -> Self {
                $name(self.0.make(mv))
            }

            #[inline]
            fn in_check(&self) -> bool {
                self.0.in_check()
            }
        }
    };
}

pub(crate) use position_with_attacks;
