//! The Compact Chessboard Representation and everything built directly on it.

pub mod attacks;
pub mod board;
pub mod checks;
pub mod fen;
pub mod frame;
pub mod keys;
pub mod make;
pub mod movegen;
pub mod simd;
pub mod validate;

pub use crate::moves::MoveList;
pub use board::{CastlingRights, Ccr, Position};
pub use fen::FenError;
pub use validate::Invariant;
