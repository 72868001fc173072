//! One interface over the board representations ccr compares: the C.C.R. itself
//! ([`Position`]), the 0x88 board ([`crate::x88::X88`]), the bitboards converted from
//! the C.C.R. ([`crate::bitboard::Bitboards`]) and rotated bitboards
//! ([`crate::rotated::Rotated`]).
//!
//! Every representation speaks the same [`Move`] (squares in C.C.R. order, see
//! [`crate::types::Square`]) and fills the same [`MoveList`], so perft, the differential
//! tests and the benches are written once and switch representation by type. A
//! representation is built from a validated [`Position`]: FEN parsing and its errors live
//! in one place, the C.C.R., which stays the engine's own board.
//!
//! The registry that names them all ([`crate::variants`]) sits above them; this module
//! only says what a representation is, so every representation can use it.

use std::marker::PhantomData;

use crate::ccr::{FenError, Invariant, Kernel, Portable, Position};
use crate::moves::MoveList;
use crate::types::Move;

/// `impl From<Inner> for Outer` by wrapping: a representation's invariant holds the broken
/// invariant of what it is built on as one of its variants (as thiserror's `#[from]`).
macro_rules! wraps_invariant {
    ($outer:ident :: $variant:ident ($inner:ty)) => {
        impl From<$inner> for $outer {
            fn from(broken: $inner) -> $outer {
                $outer::$variant(broken)
            }
        }
    };
}
pub(crate) use wraps_invariant;

/// A board representation that can generate legal moves, make them and count perft.
pub trait Representation: Clone + 'static {
    /// The name `--repr` selects it by (`ccr`, `x88`, `bitboard`, `rotated`).
    const NAME: &'static str;

    /// The kernel its generation runs on ([`Kernel::NAME`]); `portable` for the
    /// representations without kernel choices.
    const KERNEL: &'static str = "portable";

    /// The same position in this representation.
    fn from_position(pos: &Position) -> Self;

    /// The same position as a C.C.R. [`Position`] (for FEN output and the tests).
    fn to_position(&self) -> Position;

    /// Fills `list` with the legal moves.
    fn generate_legal(&self, list: &mut MoveList);

    /// Fills `list` with the legal captures: every move that takes a piece, en passant and
    /// capturing promotions included, quiet promotions not.
    fn generate_captures(&self, list: &mut MoveList);

    /// The number of legal moves (perft's last ply); `list` is room to generate them in, for
    /// the representations that cannot count without listing.
    #[inline]
    fn count_legal(&self, list: &mut MoveList) -> u64 {
        self.generate_legal(list);
        list.len() as u64
    }

    /// The position after `mv`, which must be one of the legal moves.
    fn make(&self, mv: Move) -> Self;

    /// Plays `mv`, which must be one of the legal moves, in place (by default the made
    /// position written over this one; a representation with an in-place play uses it).
    #[inline]
    fn play(&mut self, mv: Move) {
        *self = self.make(mv);
    }

    /// Whether the side to move is in check.
    fn in_check(&self) -> bool;

    /// What [`Representation::validate`] reports: the C.C.R.'s [`Invariant`] for a
    /// representation that holds a [`Position`], else the representation's own error, which
    /// names what it caches and wraps the invariants of the position it stands for.
    type Invalid: std::error::Error;

    /// Checks every invariant of the position and of what the representation caches beside
    /// it, each recomputed from scratch, and returns the first that does not hold.
    fn validate(&self) -> Result<(), Self::Invalid>;

    /// Parses a FEN through the C.C.R.'s strict parser.
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        Position::from_fen(fen).map(|pos| Self::from_position(&pos))
    }

    /// The bytes a copy of the position takes (what copy-make copies per node).
    fn size_in_bytes() -> usize {
        size_of::<Self>()
    }
}

/// The C.C.R. itself, on the portable kernel (as [`CcrWith<Portable>`]; the other kernels are
/// [`CcrWith`]'s).
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
        Position::generate_legal(self, Portable, list);
    }

    #[inline]
    fn generate_captures(&self, list: &mut MoveList) {
        Position::generate_captures(self, Portable, list);
    }

    #[inline]
    fn count_legal(&self, _: &mut MoveList) -> u64 {
        Position::count_legal(self, Portable)
    }

    #[inline(always)]
    fn make(&self, mv: Move) -> Self {
        Position::make(self, mv)
    }

    #[inline(always)]
    fn play(&mut self, mv: Move) {
        Position::play(self, mv);
    }

    #[inline]
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    type Invalid = Invariant;

    fn validate(&self) -> Result<(), Invariant> {
        Position::validate(self)
    }
}

/// The C.C.R. [`Position`] with the legal and captures generation and the bulk count on the
/// kernel `K` (where the enemy's attack table, the counts by sets and, for the assembly, the
/// sliders' targets come from); everything else is the C.C.R.'s own.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct CcrWith<K: Kernel>(pub Position, PhantomData<K>);

impl<K: Kernel> CcrWith<K> {
    /// Wraps a position.
    pub fn new(pos: Position) -> CcrWith<K> {
        CcrWith(pos, PhantomData)
    }
}

impl<K: Kernel> Representation for CcrWith<K> {
    const NAME: &'static str = "ccr";
    const KERNEL: &'static str = K::NAME;

    fn from_position(pos: &Position) -> Self {
        CcrWith::new(*pos)
    }

    fn to_position(&self) -> Position {
        self.0
    }

    #[inline]
    fn generate_legal(&self, list: &mut MoveList) {
        self.0.generate_legal(K::default(), list);
    }

    #[inline]
    fn generate_captures(&self, list: &mut MoveList) {
        self.0.generate_captures(K::default(), list);
    }

    #[inline]
    fn count_legal(&self, _: &mut MoveList) -> u64 {
        self.0.count_legal(K::default())
    }

    #[inline(always)]
    fn make(&self, mv: Move) -> Self {
        CcrWith::new(self.0.make(mv))
    }

    #[inline(always)]
    fn play(&mut self, mv: Move) {
        self.0.play(mv);
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.0.in_check()
    }

    type Invalid = Invariant;

    fn validate(&self) -> Result<(), Invariant> {
        self.0.validate()
    }
}
