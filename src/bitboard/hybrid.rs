//! The paper's hybrid (section 5.5): the C.C.R. [`Position`] in the tree, bitboards where
//! they pay. Make is the C.C.R.'s own 42-byte copy-make; at every node the generator
//! converts the 32-byte board to the sixteen piece boards (with the conversion `C`) and runs
//! the bitboard legal generator on them.

use std::fmt;
use std::marker::PhantomData;

use crate::bitboard::movegen;
use crate::ccr::Position;
use crate::convert::{Converter, Simd};
use crate::moves::MoveList;
use crate::repr::Representation;
use crate::types::Move;

/// A C.C.R. position whose moves are generated on its bitboard conversion `C` (the fastest
/// SIMD one the CPU has unless chosen otherwise).
pub struct Hybrid<C: Converter = Simd>(pub Position, PhantomData<C>);

impl<C: Converter> Hybrid<C> {
    /// Wraps a position.
    pub fn new(pos: Position) -> Hybrid<C> {
        Hybrid(pos, PhantomData)
    }
}

// By hand: derived impls would ask the conversion marker for them too.
impl<C: Converter> Clone for Hybrid<C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C: Converter> Copy for Hybrid<C> {}

impl<C: Converter> PartialEq for Hybrid<C> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl<C: Converter> Eq for Hybrid<C> {}

impl<C: Converter> fmt::Debug for Hybrid<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Hybrid")
            .field(&C::NAME)
            .field(&self.0)
            .finish()
    }
}

impl<C: Converter> Representation for Hybrid<C> {
    const NAME: &'static str = "bitboard";

    fn from_position(pos: &Position) -> Self {
        Hybrid::new(*pos)
    }

    fn to_position(&self) -> Position {
        self.0
    }

    #[inline]
    fn generate_legal(&self, list: &mut MoveList) {
        let pos = &self.0;
        let boards = C::convert(&pos.board);
        movegen::generate_legal(&boards, pos.side, pos.castling, pos.en_passant, list);
    }

    #[inline]
    fn generate_captures(&self, list: &mut MoveList) {
        let pos = &self.0;
        let boards = C::convert(&pos.board);
        movegen::generate_captures(&boards, pos.side, pos.en_passant, list);
    }

    #[inline]
    fn make(&self, mv: Move) -> Self {
        Hybrid::new(self.0.make(mv))
    }

    /// On the conversion too, so that the hybrid measures the bitboard path throughout.
    #[inline]
    fn in_check(&self) -> bool {
        let boards = C::convert(&self.0.board);
        movegen::in_check(&boards, self.0.side)
    }
}
