//! The paper's hybrid (section 5.5): the C.C.R. [`Position`] in the tree, bitboards where
//! they pay. Make is the C.C.R.'s own 42-byte copy-make; at every node the generator
//! converts the 32-byte board to the sixteen piece boards (with the conversion of the kernel `K`) and runs
//! the bitboard legal generator on them.

use std::marker::PhantomData;

use crate::bitboard::movegen;
use crate::ccr::Position;
use crate::ccr::{Kernel, Simd};
use crate::moves::MoveList;
use crate::repr::Representation;
use crate::types::Move;

/// A C.C.R. position whose moves are generated on its bitboard conversion by the kernel `K`
/// (the fastest SIMD one the CPU has unless chosen otherwise).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Hybrid<K: Kernel = Simd>(pub Position, PhantomData<K>);

impl<K: Kernel> Hybrid<K> {
    /// Wraps a position.
    pub fn new(pos: Position) -> Hybrid<K> {
        Hybrid(pos, PhantomData)
    }
}

impl<K: Kernel> Representation for Hybrid<K> {
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
        let boards = K::convert(pos.board());
        movegen::generate_legal(&boards, pos.side(), pos.castling(), pos.en_passant(), list);
    }

    #[inline]
    fn generate_captures(&self, list: &mut MoveList) {
        let pos = &self.0;
        let boards = K::convert(pos.board());
        movegen::generate_captures(&boards, pos.side(), pos.en_passant(), list);
    }

    #[inline]
    fn make(&self, mv: Move) -> Self {
        Hybrid::new(self.0.make(mv))
    }

    /// On the conversion too, so that the hybrid measures the bitboard path throughout.
    #[inline]
    fn in_check(&self) -> bool {
        let boards = K::convert(self.0.board());
        movegen::in_check(&boards, self.0.side())
    }
}
