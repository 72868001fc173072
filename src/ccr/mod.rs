//! The Compact Chessboard Representation and everything built directly on it.

pub mod attacks;
pub mod board;
pub mod checks;
pub mod fen;
pub(crate) mod frame;
pub mod kernel;
pub mod keys;
pub(crate) mod make;
pub(crate) mod movegen;
pub mod validate;

pub use crate::moves::MoveList;
pub use board::{CastlingRights, Ccr, Position, RookFiles};
pub use fen::FenError;
#[cfg(ccr_asm)]
pub use kernel::Asm;
pub use kernel::{Kernel, Portable, WithKernel, with_kernel};
pub use movegen::EnemyTable;
pub use movegen::Notation;
pub use validate::{Invariant, set_slow_checks};
