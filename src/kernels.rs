//! The engine's hot loops one by one, for benchmarks, differential tests and fuzzing: each
//! kernel's attack tables and bitboard conversion, the portable frame they are checked
//! against, the exchange evaluator and the evaluator on converted bitboards. Playing and
//! counting need none of it: the root's [`Position`](crate::Position),
//! [`Representation`](crate::Representation) and [`with_kernel`](crate::with_kernel) choose
//! a kernel once and run it.

#[cfg(ccr_asm)]
pub use crate::arch::asm;
pub use crate::arch::{Cpu, attacks, convert, cpu, runs};
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub use crate::arch::{avx2, avx512};
pub use crate::ccr::kernel::best_tier;

/// The portable frame's attack tables and checks (what every kernel must equal).
pub mod frame {
    pub use crate::ccr::attacks::{attacks_of, attacks_with_occupancy, frame_tables};
    pub use crate::ccr::checks::is_attacked;
}

/// Helpers on one rank word's nibbles.
pub mod nibbles {
    pub use crate::ccr::board::{colour_nibbles, count_nibbles, nibbles_equal, occupied_nibbles};
}

pub use crate::bitboard::to_bitboards;
pub use crate::ccr::keys::word_term;
pub use crate::search::see;

/// The evaluation, on the attack tables and on converted bitboards (its twin).
pub mod eval {
    pub use crate::eval::bitboards::{evaluate as evaluate_bitboards, evaluate_boards};
    pub use crate::eval::network::{
        evaluate as network_correction, evaluate_fresh as network_correction_fresh,
    };
    pub use crate::eval::{evaluate, evaluate_with};
}
