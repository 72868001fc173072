//! The kernel choice: one type parameter that says where the machine-specific parts come
//! from (the enemy's attack table of the legal generator, the C.C.R. → bitboards conversion
//! of the converted generator, `--repr bitboard`, the sliders' target sets), so that every variant is its own monomorphised
//! copy of the same generator and the choice costs nothing per node.
//!
//! The markers are zero-sized: [`Portable`] (the frame and the paper's loops), [`Simd`] (the
//! best vector code the CPU has, detected once by [`crate::arch::cpu`]) and [`Asm`] (the
//! hand-written assembly, where built). The kernels themselves live in [`crate::arch`].

use std::fmt::Debug;

pub use crate::arch::Impl;
use crate::arch::convert::{self, PieceBoards};
use crate::ccr::attacks::{attacks_of, attacks_with_occupancy};
use crate::ccr::board::Ccr;
use crate::types::Colour;

/// Where the machine-specific parts of move generation come from.
pub trait Kernel: Copy + Default + Eq + Debug + Send + Sync + 'static {
    /// The `--impl` this kernel is.
    const IMPL: Impl;

    /// The attack table of `by` on `board`, whose occupancy (`0xF` per occupied square) is
    /// `occupied`.
    fn attacks(board: &Ccr, occupied: [u32; 8], by: Colour) -> [u32; 8];

    /// The sixteen piece boards of `board`.
    fn convert(board: &Ccr) -> PieceBoards;

    /// Whether [`Kernel::count_piece_moves`] may count (known at compile time, so that a
    /// kernel without the count pays nothing for asking).
    const COUNTS_BY_SETS: bool;

    /// Whether this CPU runs the kernel's counts ([`Kernel::count_piece_moves`] and
    /// [`Kernel::attacks_and_moves`] give one).
    #[inline(always)]
    fn counts() -> bool {
        false
    }

    /// How many moves the knights, bishops, rooks and queens of `by` on `pieces` have onto
    /// `targets` (`0xF` per square), the rays blocked by `occupied`, counted by sets; `None`
    /// where the kernel has no such count (the frame's handlers count them one by one).
    fn count_piece_moves(
        pieces: &Ccr,
        occupied: &[u32; 8],
        targets: &[u32; 8],
        by: Colour,
    ) -> Option<u32>;

    /// The attack table of `them` ([`Kernel::attacks`]) and, where the kernel counts by
    /// sets, how many moves the other side has but those of its pieces on `pinned` (`0xF`
    /// per square), en passant and castling, its king's as if not in check, made by the
    /// same pass: the legal move count of a position without check, pins or en passant.
    #[inline(always)]
    fn attacks_and_moves(board: &Ccr, pinned: &[u32; 8], them: Colour) -> ([u32; 8], Option<u32>) {
        let _ = pinned;
        (attacks_of(board, them), None)
    }
}

/// Portable Rust: the frame's attack table, the paper's conversion loop.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Portable;

/// The best vector code the CPU has: the AVX2 attack table, the SSSE3 or AVX2 conversion
/// (each the portable code where the CPU lacks it).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Simd;

/// The hand-written assembly of `asm/`: its attack table, conversion and the sliders'
/// target sets.
#[cfg(ccr_asm)]
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Asm;

impl Kernel for Portable {
    const IMPL: Impl = Impl::Portable;
    const COUNTS_BY_SETS: bool = false;

    #[inline(always)]
    fn attacks(board: &Ccr, occupied: [u32; 8], by: Colour) -> [u32; 8] {
        attacks_with_occupancy(board, occupied, by)
    }

    #[inline]
    fn convert(board: &Ccr) -> PieceBoards {
        convert::portable(board)
    }

    #[inline(always)]
    fn count_piece_moves(_: &Ccr, _: &[u32; 8], _: &[u32; 8], _: Colour) -> Option<u32> {
        None
    }
}

impl Kernel for Simd {
    const IMPL: Impl = Impl::Simd;
    const COUNTS_BY_SETS: bool = true;

    #[inline(always)]
    fn counts() -> bool {
        crate::arch::attacks::counts()
    }

    #[inline(always)]
    fn attacks(board: &Ccr, occupied: [u32; 8], by: Colour) -> [u32; 8] {
        crate::arch::attacks::attacks_of(board, by, |board, by| {
            attacks_with_occupancy(board, occupied, by)
        })
    }

    #[inline]
    fn convert(board: &Ccr) -> PieceBoards {
        convert::best(board)
    }

    #[inline(always)]
    fn count_piece_moves(
        pieces: &Ccr,
        occupied: &[u32; 8],
        targets: &[u32; 8],
        by: Colour,
    ) -> Option<u32> {
        crate::arch::attacks::count_piece_moves(pieces, occupied, targets, by)
    }

    #[inline(always)]
    fn attacks_and_moves(board: &Ccr, pinned: &[u32; 8], them: Colour) -> ([u32; 8], Option<u32>) {
        crate::arch::attacks::attacks_and_moves(board, pinned, them, || attacks_of(board, them))
    }
}

#[cfg(ccr_asm)]
impl Kernel for Asm {
    const IMPL: Impl = Impl::Asm;
    const COUNTS_BY_SETS: bool = false;

    #[inline(always)]
    fn attacks(board: &Ccr, _occupied: [u32; 8], by: Colour) -> [u32; 8] {
        crate::arch::asm::attacks_of(board, by)
    }

    #[inline]
    fn convert(board: &Ccr) -> PieceBoards {
        crate::arch::asm::convert(board)
    }

    #[inline(always)]
    fn count_piece_moves(_: &Ccr, _: &[u32; 8], _: &[u32; 8], _: Colour) -> Option<u32> {
        None
    }
}
