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
//! jumps through a table indexed by the piece code.
//!
//! Everything a user needs is named here, at the root; the modules behind it are private
//! (docs/ARCHITECTURE.md maps them). Four namespaces hold what only some users reach for:
//! [`positions`] (the standard test positions, the perft file reader, seeded random games),
//! [`bench`](mod@bench) (the fixed search OpenBench reads), [`tune`] (training data and the
//! evaluation's weights) and [`kernels`] (the hot loops one by one, for benchmarks,
//! differential tests and fuzzing).
//!
//! ```
//! let pos = ccr::Position::from_fen(ccr::positions::KIWIPETE).unwrap();
//! let mut moves = ccr::MoveList::new();
//! pos.generate_legal(ccr::Portable, &mut moves);
//! assert_eq!(moves.len(), 48);
//! assert_eq!(ccr::perft(&pos, 3, ccr::Leaves::Bulk), 97_862);
//! ```

#![deny(missing_docs)]
#![warn(unreachable_pub)]

mod arch;
pub mod bench;
mod bitboard;
mod book;
mod ccr;
mod eval;
mod files;
mod history;
pub mod kernels;
mod moves;
mod openings;
mod perft;
pub mod positions;
mod repr;
mod rotated;
mod search;
pub mod tune;
mod types;
mod uci;
mod variants;
mod x88;

// The board: a position, its pieces and squares, its moves and attack tables.
pub use ccr::attacks::{AttackBlock, AttackClass};
pub use ccr::keys::RotationKey;
pub use ccr::{
    CastlingRights, Ccr, FenError, Invariant, Notation, Position, RookFiles, set_slow_checks,
};
pub use moves::MoveList;
pub use types::{Colour, Move, MoveKind, PieceCode, PieceType, Square};

// Counting the legal move tree.
pub use perft::{Leaves, divide, perft};

// The representations compared against the C.C.R., and the registry that names them all.
pub use bitboard::{Bitboards, BitboardsInvariant, Converted};
pub use repr::{CcrWith, Representation};
pub use rotated::{Rotated, RotatedInvariant};
pub use variants::{Repr, Variant, WithRepresentation};
pub use x88::{X88, X88Invariant};

// The kernels: which machine code generates the moves.
pub use arch::{Impl, Tier, init};
#[cfg(ccr_asm)]
pub use ccr::Asm;
pub use ccr::{EnemyTable, Kernel, Portable, WithKernel, with_kernel};

// Playing: the UCI loop, the evaluation, the tablebases and the opening book.
pub use book::polyglot_key;
pub use eval::{Breakdown, Evaluator};
pub use search::tablebase::Tablebases;
pub use uci::{Output as UciOutput, Transcript as UciTranscript, Uci};
