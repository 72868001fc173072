//! Move generation on the conversion (`--repr bitboard`): the C.C.R. [`Position`] in the
//! tree, converted to bitboards for MOVE GENERATION. Make is the C.C.R.'s own 42-byte
//! copy-make; at every node the generator converts the 32-byte board to the sixteen piece
//! boards (paper 5.5, with the conversion of the kernel `K`) and runs the bitboard legal
//! generator on them.
//!
//! This is not the paper's hybrid: the paper keeps the C.C.R. for the tree, the quiescence
//! search and move generation, and converts to bitboards to EVALUATE. That is the search
//! with `--eval bitboards` ([`crate::eval::bitboards`]).

use std::marker::PhantomData;

use crate::bitboard::movegen;
use crate::ccr::Invariant;
use crate::ccr::Kernel;
use crate::ccr::Position;
use crate::moves::MoveList;
use crate::repr::Representation;
use crate::types::Move;

/// A C.C.R. position whose moves are generated on its bitboard conversion by the kernel `K`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Converted<K: Kernel>(pub Position, PhantomData<K>);

impl<K: Kernel> Converted<K> {
    /// Wraps a position.
    pub fn new(pos: Position) -> Converted<K> {
        Converted(pos, PhantomData)
    }
}

impl<K: Kernel> Representation for Converted<K> {
    const NAME: &'static str = "bitboard";
    const KERNEL: &'static str = K::NAME;

    fn from_position(pos: &Position) -> Self {
        Converted::new(*pos)
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
        Converted::new(self.0.make(mv))
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        self.0.play(mv);
    }

    /// On the conversion too, so that this representation measures the bitboard path
    /// throughout.
    #[inline]
    fn in_check(&self) -> bool {
        let boards = K::convert(self.0.board());
        movegen::in_check(&boards, self.0.side())
    }

    type Invalid = Invariant;

    /// The C.C.R.'s: the conversion is made afresh at every node, so nothing else is cached.
    fn validate(&self) -> Result<(), Invariant> {
        self.0.validate()
    }
}
