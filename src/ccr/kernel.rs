//! The kernel choice: one type parameter that says where the machine-specific parts come
//! from (the enemy's attack table of the legal generator and both tables of an
//! [`AttackBlock`](crate::ccr::attacks::AttackBlock), the bulk count, the C.C.R. → bitboards
//! conversion of the converted generator, `--repr bitboard`, the sliders' target sets), so
//! that every variant is its own monomorphised copy of the same generator and the choice
//! costs nothing per node: no kernel asks the CPU, branches on a tier or reads an atomic.
//!
//! The markers are zero-sized: [`Portable`] (the frame and the paper's loops), one per SIMD
//! tier (`Ssse3`, `Avx2`, `Avx512`: crate-private, because their code may only run on a CPU
//! that has the tier, which [`with_kernel`] checks before it hands one out) and [`Asm`] (the
//! hand-written assembly, where built). `--impl simd` is no type: [`with_kernel`] resolves it
//! into the best tier's marker this CPU has ([`crate::arch::cpu`], capped by `CCR_SIMD_MAX`),
//! once, where a variant becomes a type or the engine starts a search. The kernels
//! themselves live in [`crate::arch`].

use std::fmt::Debug;

pub(crate) use crate::arch::Impl;
use crate::arch::Tier;
use crate::arch::convert::{self, PieceBoards};
use crate::ccr::attacks::{AttackBlock, attacks_of, attacks_with_occupancy, frame_tables};
use crate::ccr::board::Ccr;
use crate::types::{Colour, Square};

/// A slider's target sets from the occupancy (`0xF` per occupied square), its square and its
/// directions.
pub(crate) type SliderTargets = fn(&[u32; 8], Square, u32) -> [u32; 8];

/// Where the machine-specific parts of move generation come from. Every method is the
/// portable one unless the kernel has its own.
pub trait Kernel: Copy + Default + Eq + Debug + Send + Sync + 'static {
    /// The `--impl` this kernel is.
    const IMPL: Impl;

    /// The kernel's name (`portable`, `ssse3`, `avx2`, `avx512`, `asm`): `--impl simd`'s
    /// is the tier it resolved to.
    const NAME: &'static str;

    /// The SIMD tier whose code the kernel runs (`None` for the portable code and the
    /// assembly).
    const TIER: Option<Tier> = None;

    /// The attack table of `by` on `board`, whose occupancy (`0xF` per occupied square) is
    /// `occupied`.
    #[inline(always)]
    fn attacks(board: &Ccr, occupied: [u32; 8], by: Colour) -> [u32; 8] {
        attacks_with_occupancy(board, occupied, by)
    }

    /// WHITE_ATTACKS and BLACK_ATTACKS of `board`.
    #[inline(always)]
    fn attack_tables(board: &Ccr) -> [[u32; 8]; 2] {
        frame_tables(board)
    }

    /// The sixteen piece boards of `board`.
    #[inline]
    fn convert(board: &Ccr) -> PieceBoards {
        convert::portable(board)
    }

    /// Whether [`Kernel::count_piece_moves`] and [`Kernel::attacks_and_moves`] count
    /// (known at compile time, so that a kernel without the counts pays nothing for asking).
    const COUNTS_BY_SETS: bool = false;

    /// How many moves the knights, bishops, rooks and queens of `by` on `pieces` have onto
    /// `targets` (`0xF` per square), the rays blocked by `occupied`, counted by sets; `None`
    /// where the kernel has no such count (the frame's handlers count them one by one).
    #[inline(always)]
    fn count_piece_moves(
        pieces: &Ccr,
        occupied: &[u32; 8],
        targets: &[u32; 8],
        by: Colour,
    ) -> Option<u32> {
        let _ = (pieces, occupied, targets, by);
        None
    }

    /// The attack table of `them` ([`Kernel::attacks`]) and, where the kernel counts by
    /// sets, how many moves the other side has but those of its pieces on `pinned` (`0xF`
    /// per square), en passant and castling, its king's as if not in check, made by the
    /// same pass: the legal move count of a position without check, pins or en passant.
    #[inline(always)]
    fn attacks_and_moves(board: &Ccr, pinned: &[u32; 8], them: Colour) -> ([u32; 8], Option<u32>) {
        let _ = pinned;
        (attacks_of(board, them), None)
    }

    /// Whether [`Kernel::compiled`] compiles its body with CPU features beyond the build's
    /// (the generator calls the others' copies directly: through the closure, the portable
    /// copy compiles to more instructions).
    const OWN_FEATURES: bool = false;

    /// Runs `body` (a copy of the generator) compiled for the instructions the kernel's CPU
    /// has, so that the vector tiers' copies use the wider encodings throughout and call
    /// their tables' code without a feature boundary.
    #[inline(always)]
    fn compiled<R>(body: impl FnOnce() -> R) -> R {
        body()
    }

    /// The kernel's own routine for a slider's target sets (the squares up to and including
    /// each ray's first piece, from the occupancy, the square and the directions), if it has
    /// one: the generator's bishop, rook and queen handlers then take their targets from it
    /// instead of walking the rays (chosen when the handler tables are built, at compile
    /// time).
    const SLIDER_TARGETS: Option<SliderTargets> = None;
}

/// Portable Rust: the frame's attack tables, the paper's conversion loop.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Portable;

impl Kernel for Portable {
    const IMPL: Impl = Impl::Portable;
    const NAME: &'static str = "portable";
}

/// The hand-written assembly of `asm/`: its attack table, conversion and the sliders'
/// target sets.
#[cfg(ccr_asm)]
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Asm;

#[cfg(ccr_asm)]
impl Kernel for Asm {
    const IMPL: Impl = Impl::Asm;
    const NAME: &'static str = "asm";
    const SLIDER_TARGETS: Option<SliderTargets> = Some(crate::arch::asm::slider_targets);

    #[inline(always)]
    fn attacks(board: &Ccr, _occupied: [u32; 8], by: Colour) -> [u32; 8] {
        crate::arch::asm::attacks_of(board, by)
    }

    #[inline]
    fn convert(board: &Ccr) -> PieceBoards {
        crate::arch::asm::convert(board)
    }
}

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub(crate) use tiers::{Avx2, Avx512, Ssse3};

/// The SIMD tiers' markers. Each runs its tier's `#[target_feature]` code unchecked, so each
/// is crate-private and made only by [`with_kernel`] after [`crate::arch::cpu`] reported the
/// tier's features (the `// SAFETY:` lines below rest on that).
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod tiers {
    use super::{Impl, Kernel, PieceBoards, Tier};
    use crate::arch::{avx2, avx512, convert};
    use crate::ccr::board::Ccr;
    use crate::types::Colour;

    /// SSSE3: its conversion; the attack tables are the frame's.
    #[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
    pub(crate) struct Ssse3;

    /// AVX2: the conversion, the attack tables and the counts by sets.
    #[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
    pub(crate) struct Avx2;

    /// AVX-512F: as [`Avx2`], but both colours' tables of a block in one register and the
    /// bulk count two directions a register.
    #[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
    pub(crate) struct Avx512;

    impl Kernel for Ssse3 {
        const IMPL: Impl = Impl::Simd;
        const NAME: &'static str = "ssse3";
        const TIER: Option<Tier> = Some(Tier::Ssse3);

        #[inline]
        fn convert(board: &Ccr) -> PieceBoards {
            // SAFETY: `with_kernel` makes this marker only where the CPU has SSSE3.
            unsafe { convert::simd::ssse3(board) }
        }
    }

    /// The methods [`Avx2`] and [`Avx512`] share: the single table, the conversion, the
    /// count of the knights and sliders, and the bulk count from the module `$bulk`.
    macro_rules! avx2_methods {
        ($bulk:ident) => {
            const IMPL: Impl = Impl::Simd;
            const COUNTS_BY_SETS: bool = true;
            const OWN_FEATURES: bool = true;

            #[inline(always)]
            fn attacks(board: &Ccr, _occupied: [u32; 8], by: Colour) -> [u32; 8] {
                // SAFETY: `with_kernel` makes this marker only where the CPU has AVX2.
                unsafe { avx2::attacks_of(board, by) }
            }

            #[inline]
            fn convert(board: &Ccr) -> PieceBoards {
                // SAFETY: as above.
                unsafe { convert::simd::avx2(board) }
            }

            #[inline(always)]
            fn compiled<R>(body: impl FnOnce() -> R) -> R {
                /// `body` compiled with AVX2.
                #[target_feature(enable = "avx2")]
                #[inline]
                unsafe fn with_avx2<R>(body: impl FnOnce() -> R) -> R {
                    body()
                }
                // SAFETY: as above.
                unsafe { with_avx2(body) }
            }

            #[inline(always)]
            fn attacks_and_moves(
                board: &Ccr,
                pinned: &[u32; 8],
                them: Colour,
            ) -> ([u32; 8], Option<u32>) {
                // SAFETY: as above (AVX-512F too for the AVX-512 marker, whose tier needs it).
                let (table, moves) = unsafe { $bulk::attacks_and_moves(board, pinned, them) };
                (table, Some(moves))
            }

            #[inline(always)]
            fn count_piece_moves(
                pieces: &Ccr,
                occupied: &[u32; 8],
                targets: &[u32; 8],
                by: Colour,
            ) -> Option<u32> {
                // SAFETY: as above.
                Some(unsafe { avx2::count_piece_moves(pieces, occupied, targets, by) })
            }
        };
    }

    impl Kernel for Avx2 {
        avx2_methods!(avx2);
        const NAME: &'static str = "avx2";
        const TIER: Option<Tier> = Some(Tier::Avx2);

        #[inline(always)]
        fn attack_tables(board: &Ccr) -> [[u32; 8]; 2] {
            [
                Self::attacks(board, [0; 8], Colour::White),
                Self::attacks(board, [0; 8], Colour::Black),
            ]
        }
    }

    impl Kernel for Avx512 {
        avx2_methods!(avx512);
        const NAME: &'static str = "avx512";
        const TIER: Option<Tier> = Some(Tier::Avx512);

        #[inline(always)]
        fn attack_tables(board: &Ccr) -> [[u32; 8]; 2] {
            let mut tables = [[0; 8]; 2];
            // SAFETY: `with_kernel` makes this marker only where the CPU has AVX-512F.
            unsafe {
                avx512::attacks_of_pair(board, board, (Colour::White, Colour::Black), &mut tables)
            };
            tables
        }
    }
}

impl AttackBlock {
    /// Builds both attack tables on the best kernel this CPU has, chosen at this call (for
    /// callers off the per-node paths; the search builds its blocks on its own kernel,
    /// [`AttackBlock::by_kernel`]).
    pub fn new(board: &Ccr) -> AttackBlock {
        /// The block on the chosen kernel.
        struct Build<'a>(&'a Ccr);
        impl WithKernel for Build<'_> {
            type Output = AttackBlock;
            fn run<K: Kernel>(self) -> AttackBlock {
                AttackBlock::by_kernel::<K>(self.0)
            }
        }
        with_kernel(Impl::Simd, Build(board))
    }

    /// Builds both attack tables on the kernel `K` ([`Kernel::attack_tables`]).
    #[inline(always)]
    pub fn by_kernel<K: Kernel>(board: &Ccr) -> AttackBlock {
        AttackBlock::from_tables(board, K::attack_tables(board))
    }
}

/// Code generic over the kernel, run by [`with_kernel`] (a closure cannot be generic, a
/// trait method can).
pub trait WithKernel {
    /// What the code returns.
    type Output;

    /// Runs the code on the kernel `K`.
    fn run<K: Kernel>(self) -> Self::Output;
}

/// The best SIMD tier this CPU runs (capped by `CCR_SIMD_MAX`), if any.
pub fn best_tier() -> Option<Tier> {
    Tier::ALL.into_iter().rev().find(|t| t.is_available())
}

/// Runs `f` on the kernel `imp` names: `simd` is the marker of [`best_tier`] (the portable
/// code where there is none), chosen here, once per call; an implementation this build lacks
/// (the assembly off x86) is the portable code.
pub fn with_kernel<F: WithKernel>(imp: Impl, f: F) -> F::Output {
    match imp {
        #[cfg(ccr_asm)]
        Impl::Asm => f.run::<Asm>(),
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Impl::Simd => match best_tier() {
            Some(Tier::Avx512) => f.run::<Avx512>(),
            Some(Tier::Avx2) => f.run::<Avx2>(),
            Some(Tier::Ssse3) => f.run::<Ssse3>(),
            None => f.run::<Portable>(),
        },
        _ => f.run::<Portable>(),
    }
}
