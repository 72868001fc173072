//! The Compact Chessboard Representation and everything built directly on it.

pub(crate) mod attacks;
pub(crate) mod board;
pub(crate) mod checks;
pub(crate) mod fen;
pub(crate) mod frame;
pub(crate) mod kernel;
pub(crate) mod keys;
pub(crate) mod make;
pub(crate) mod movegen;
pub(crate) mod validate;

pub(crate) use crate::moves::MoveList;
pub use board::{CastlingRights, Ccr, Position, RookFiles};
pub use fen::FenError;
#[cfg(ccr_asm)]
pub use kernel::Asm;
pub use kernel::{Kernel, Portable, WithKernel, with_kernel};
pub use movegen::EnemyTable;
pub use movegen::Notation;
pub use validate::{Invariant, set_slow_checks};
