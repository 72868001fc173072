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
//! [`Variant::all`] is the one list of representation × implementation this build has: the
//! `perft` command, the perft and differential tests, the benchmarks and the fuzz target all
//! iterate it, and [`Variant::dispatch`] is the one place a variant becomes a type.

use std::marker::PhantomData;

pub use crate::arch::Impl;
use crate::bitboard::{Bitboards, Converted};
#[cfg(ccr_asm)]
use crate::ccr::Asm;
use crate::ccr::{FenError, Kernel, Portable, Position, Simd};
use crate::moves::MoveList;
use crate::rotated::Rotated;
use crate::types::Move;
use crate::x88::X88;

/// A board representation that can generate legal moves, make them and count perft.
pub trait Representation: Clone {
    /// The name `--repr` selects it by (`ccr`, `x88`, `bitboard`, `rotated`).
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

    #[inline]
    fn count_legal(&self, _: &mut MoveList) -> u64 {
        Position::count_legal(self)
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
}

/// The C.C.R. [`Position`] with the legal and captures generation on the kernel `K` (where
/// the enemy's attack table and, for the assembly, the sliders' targets come from);
/// everything else is the C.C.R.'s own. `Position` itself generates on the engine's
/// kernel, [`Simd`].
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

    fn from_position(pos: &Position) -> Self {
        CcrWith::new(*pos)
    }

    fn to_position(&self) -> Position {
        self.0
    }

    #[inline]
    fn generate_legal(&self, list: &mut MoveList) {
        self.0.generate_legal_with::<K>(list);
    }

    #[inline]
    fn generate_captures(&self, list: &mut MoveList) {
        self.0.generate_captures_with::<K>(list);
    }

    #[inline]
    fn count_legal(&self, _: &mut MoveList) -> u64 {
        self.0.count_legal_with::<K>()
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
}

/// A board representation, as `--repr` names it.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Repr {
    /// The C.C.R. itself ([`Position`]; [`CcrWith`] for the other kernels).
    Ccr,
    /// The 0x88 board ([`X88`]).
    X88,
    /// The C.C.R. in the tree, converted to bitboards for move generation ([`Converted`]).
    Bitboard,
    /// Bitboards made move by move ([`Bitboards`]).
    BitboardNative,
    /// Rotated bitboards, sliders looked up by the state of their line ([`Rotated`]).
    Rotated,
}

impl Repr {
    /// Every representation, in `--repr`'s order.
    pub const ALL: [Repr; 5] = [
        Repr::Ccr,
        Repr::X88,
        Repr::Bitboard,
        Repr::BitboardNative,
        Repr::Rotated,
    ];

    /// The `--repr` name.
    pub fn name(self) -> &'static str {
        match self {
            Repr::Ccr => "ccr",
            Repr::X88 => "x88",
            Repr::Bitboard => "bitboard",
            Repr::BitboardNative => "bitboard-native",
            Repr::Rotated => "rotated",
        }
    }

    /// The representation of this `--repr` name.
    pub fn from_name(name: &str) -> Option<Repr> {
        Repr::ALL.into_iter().find(|r| r.name() == name)
    }

    /// Whether the representation has a kernel choice: the C.C.R. takes the enemy's attack
    /// table from the kernel, `bitboard` its conversion; 0x88, native and rotated bitboards
    /// are portable only.
    pub fn has_kernels(self) -> bool {
        matches!(self, Repr::Ccr | Repr::Bitboard)
    }

    /// The implementations this build has for the representation.
    pub fn implementations(self) -> Vec<Impl> {
        Impl::built()
            .into_iter()
            .filter(|&i| i == Impl::Portable || self.has_kernels())
            .collect()
    }
}

/// One representation in one implementation.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Variant {
    /// The board representation.
    pub repr: Repr,
    /// Where its machine-specific parts come from.
    pub imp: Impl,
}

/// Code generic over the representation, run by [`Variant::dispatch`] (a closure cannot be
/// generic, a trait method can).
pub trait WithRepresentation {
    /// What the code returns.
    type Output;

    /// Runs the code on representation `R`, which is `variant`.
    fn run<R: Representation>(self, variant: Variant) -> Self::Output;
}

impl Variant {
    /// The variant, if this build has it.
    pub fn new(repr: Repr, imp: Impl) -> Option<Variant> {
        repr.implementations()
            .contains(&imp)
            .then_some(Variant { repr, imp })
    }

    /// Every representation × implementation this build has, in `--repr` order, portable
    /// first.
    pub fn all() -> Vec<Variant> {
        Repr::ALL
            .into_iter()
            .flat_map(|repr| {
                repr.implementations()
                    .into_iter()
                    .map(move |imp| Variant { repr, imp })
            })
            .collect()
    }

    /// The name the benchmarks and the tests' messages use: the `--repr` name, with the
    /// implementation appended where it is not the default (`ccr-simd`, `bitboard-asm`). The
    /// converted path's default is its SIMD conversion (`bitboard`; `bitboard-portable` is the
    /// paper's loop), every other representation's the portable code.
    pub fn name(self) -> String {
        let default = match self.repr {
            Repr::Bitboard => Impl::Simd,
            _ => Impl::Portable,
        };
        if self.imp == default {
            self.repr.name().to_string()
        } else {
            format!("{}-{}", self.repr.name(), self.imp.name())
        }
    }

    /// Runs `f` on the representation type of this variant: the one place a variant
    /// becomes a type.
    pub fn dispatch<F: WithRepresentation>(self, f: F) -> F::Output {
        match (self.repr, self.imp) {
            (Repr::Ccr, Impl::Simd) => f.run::<CcrWith<Simd>>(self),
            #[cfg(ccr_asm)]
            (Repr::Ccr, Impl::Asm) => f.run::<CcrWith<Asm>>(self),
            (Repr::Ccr, _) => f.run::<CcrWith<Portable>>(self),
            (Repr::X88, _) => f.run::<X88>(self),
            (Repr::Bitboard, Impl::Simd) => f.run::<Converted<Simd>>(self),
            #[cfg(ccr_asm)]
            (Repr::Bitboard, Impl::Asm) => f.run::<Converted<Asm>>(self),
            (Repr::Bitboard, _) => f.run::<Converted<Portable>>(self),
            (Repr::BitboardNative, _) => f.run::<Bitboards>(self),
            (Repr::Rotated, _) => f.run::<Rotated>(self),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_variant_runs_its_own_kernel() {
        struct TypeName;
        impl WithRepresentation for TypeName {
            type Output = &'static str;
            fn run<R: Representation>(self, _: Variant) -> &'static str {
                std::any::type_name::<R>()
            }
        }
        for variant in Variant::all().into_iter().filter(|v| v.repr.has_kernels()) {
            let name = variant.dispatch(TypeName);
            // `Position` generates on `Simd`; a type's default kernel goes unnamed.
            let runs = |kernel: &str| name.ends_with(&format!("::{kernel}>"));
            let ok = match variant.imp {
                Impl::Portable => runs("Portable"),
                Impl::Asm => runs("Asm"),
                Impl::Simd => !runs("Portable") && !runs("Asm"),
            };
            assert!(ok, "{} runs {name}", variant.name());
        }
    }

    #[test]
    fn every_built_implementation_has_a_variant() {
        let all = Variant::all();
        for repr in Repr::ALL {
            assert!(all.contains(&Variant {
                repr,
                imp: Impl::Portable
            }));
        }
        assert_eq!(
            all.contains(&Variant {
                repr: Repr::Ccr,
                imp: Impl::Asm
            }),
            cfg!(ccr_asm)
        );
        assert!(Variant::new(Repr::X88, Impl::Simd).is_none());
        let names: Vec<String> = all.iter().map(|v| v.name()).collect();
        assert!(
            names.contains(&"bitboard-portable".to_string()),
            "{names:?}"
        );
        assert!(names.contains(&"ccr-simd".to_string()), "{names:?}");
    }
}
