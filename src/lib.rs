//! # ccr — a chess engine on the Compact Chessboard Representation
//!
//! The C.C.R. of V. Vučković (Yugoslav Journal of Operations Research 22, 2012) keeps the
//! whole board in eight 32-bit rank words, one 4-bit piece code per square:
//!
//! ```text
//!            file:  a    b    c    d    e    f    g    h      displacement
//! rank 8   word 0  [31..28][27..24] ...              [3..0]     +0
//! rank 7   word 1                                               +4
//!   ...
//! rank 1   word 7                                               +28
//!
//! codes: 0 empty, 1-6 white P N B R Q K, 9-14 black p n b r q k (bit 3 = colour)
//! ```
//!
//! A move one file toward a is `mask << 4`, toward h `mask >> 4`; a rank is ±1 word. A
//! mask shifted off the word becomes zero and a word index off the board is caught by one
//! compare: those are the edge tests. Move generation is one frame (words × nibbles) that
//! jumps through a table indexed by the piece code (`ccr::frame`).
//!
//! The types a user of the library needs are re-exported here, at the root
//! (`ccr::Position`, `ccr::MoveList`, `ccr::perft`, …); docs/ARCHITECTURE.md maps the modules.

#![deny(missing_docs)]

pub mod arch;
pub mod bench;
pub mod bitboard;
pub mod book;
pub mod ccr;
pub mod eval;
pub mod history;
pub mod moves;
pub mod openings;
pub mod perft;
pub mod positions;
pub mod repr;
pub mod rotated;
pub mod search;
pub mod tune;
pub mod types;
pub mod uci;
pub mod variants;
pub mod x88;

pub use arch::{Impl, Tier};
#[cfg(ccr_asm)]
pub use ccr::Asm;
pub use ccr::attacks::AttackBlock;
pub use ccr::{
    CastlingRights, Ccr, EnemyTable, FenError, Invariant, Kernel, Notation, Portable, Position,
    RookFiles, WithKernel, with_kernel,
};
pub use moves::MoveList;
pub use perft::{Leaves, divide, perft};
pub use repr::{CcrWith, Representation};
pub use types::{Colour, Move, MoveKind, PieceCode, PieceType, Square};
pub use variants::{Repr, Variant, WithRepresentation};
