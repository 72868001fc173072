//! Invariants of a position, checked from scratch (as Fruit's `board_is_ok` and Stockfish's
//! `pos_is_ok`): [`Position::validate`] recomputes from the 32-byte board what the position
//! caches or promises and names the first invariant that does not hold. The FEN parser
//! shares the checks a FEN can break ([`king_square`], [`back_rank_pawn`],
//! [`material_is_possible`], [`castling_pieces_present`], [`en_passant_is_possible`]), so a
//! position is valid by one definition whether it was parsed or made.
//!
//! Make calls it under `debug_assert!` after every move; `tests/validate.rs` calls it at
//! every node of perft in any build.

use std::fmt;

use crate::ccr::board::{CastlingRights, Ccr, Position};
use crate::ccr::checks::is_attacked;
use crate::ccr::fen::{MAX_FULLMOVE_NUMBER, MAX_HALFMOVE_CLOCK};
use crate::types::{Colour, PieceCode, Square};

/// An invariant of a position (or of a representation's cached data) that does not hold.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Invariant {
    /// A square holds a code that is no piece (7, 8 or 15).
    BadCode(Square),
    /// A side does not have exactly one king.
    KingCount {
        /// The side in question.
        colour: Colour,
        /// How many kings it has.
        count: u32,
    },
    /// The cached king square of a side does not hold its king.
    KingSquare(Colour),
    /// A pawn stands on the first or last rank.
    PawnOnBackRank(Square),
    /// A side has more pawns or promoted pieces than a game can produce.
    ImpossibleMaterial(Colour),
    /// The castling rights have bits beyond the four rights.
    CastlingBits(u8),
    /// A castling right (its FEN letter) whose king or rook is not on its home square.
    CastlingWithoutPieces(char),
    /// An en-passant square that no pawn of the side that just moved can have skipped.
    EnPassantSquare(Square),
    /// The half-move clock is above the largest value a FEN may carry.
    HalfmoveClock(u16),
    /// The move number is 0 or above the largest value a FEN may carry.
    FullmoveNumber(u16),
    /// The side that is not to move is in check.
    OpponentInCheck,
    /// A representation's piece list of a side disagrees with its board.
    PieceList(Colour),
    /// A representation's occupancy boards disagree with each other.
    Occupancy,
}

impl fmt::Display for Invariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invariant::BadCode(sq) => write!(f, "square {sq} holds a code that is no piece"),
            Invariant::KingCount { colour, count } => {
                write!(f, "{colour:?} has {count} kings instead of 1")
            }
            Invariant::KingSquare(colour) => {
                write!(
                    f,
                    "the cached {colour:?} king square does not hold its king"
                )
            }
            Invariant::PawnOnBackRank(sq) => write!(f, "pawn on {sq}, a first or last rank"),
            Invariant::ImpossibleMaterial(colour) => write!(
                f,
                "{colour:?} has more pawns or promoted pieces than a game can produce"
            ),
            Invariant::CastlingBits(bits) => {
                write!(
                    f,
                    "castling rights {bits:#04x} have bits beyond the four rights"
                )
            }
            Invariant::CastlingWithoutPieces(c) => write!(
                f,
                "castling right '{c}' without king and rook on their home squares"
            ),
            Invariant::EnPassantSquare(sq) => write!(
                f,
                "en-passant square {sq} does not follow a two-square pawn advance"
            ),
            Invariant::HalfmoveClock(n) => {
                write!(f, "half-move clock {n} is above {MAX_HALFMOVE_CLOCK}")
            }
            Invariant::FullmoveNumber(n) => {
                write!(f, "move number {n} is not in 1..={MAX_FULLMOVE_NUMBER}")
            }
            Invariant::OpponentInCheck => write!(f, "the side not to move is in check"),
            Invariant::PieceList(colour) => {
                write!(f, "the {colour:?} piece list disagrees with the board")
            }
            Invariant::Occupancy => write!(f, "the occupancy boards disagree with each other"),
        }
    }
}

impl std::error::Error for Invariant {}

/// A castling right: its bit, its FEN letter, and the king's and the rook's home squares
/// as (file, rank).
pub(crate) type CastlingHome = (u8, char, (u8, u8), (u8, u8));

/// Each castling right's [`CastlingHome`], in the order of the bits.
pub(crate) const CASTLING_HOMES: [CastlingHome; 4] = [
    (CastlingRights::WHITE_KING, 'K', (4, 0), (7, 0)),
    (CastlingRights::WHITE_QUEEN, 'Q', (4, 0), (0, 0)),
    (CastlingRights::BLACK_KING, 'k', (4, 7), (7, 7)),
    (CastlingRights::BLACK_QUEEN, 'q', (4, 7), (0, 7)),
];

/// The square of `colour`'s only king, or how many kings it has when that is not one.
pub(crate) fn king_square(board: &Ccr, colour: Colour) -> Result<Square, u32> {
    let king = PieceCode::new(colour, PieceCode::KING);
    let count = (0..64)
        .filter(|&i| board.get(Square::new(i)) == king)
        .count() as u32;
    match (count, board.find(king)) {
        (1, Some(sq)) => Ok(sq),
        _ => Err(count),
    }
}

/// The first pawn (in C.C.R. order) on rank 8 or rank 1, if any.
pub(crate) fn back_rank_pawn(board: &Ccr) -> Option<Square> {
    (0..8)
        .chain(56..64)
        .map(Square::new)
        .find(|&sq| board.get(sq).piece_type() == PieceCode::PAWN)
}

/// Whether `colour` has at most 8 pawns plus queens, rooks, bishops and knights beyond the
/// initial ones (each promotion costs a pawn).
pub(crate) fn material_is_possible(board: &Ccr, colour: Colour) -> bool {
    let count = |piece_type| {
        let code = PieceCode::new(colour, piece_type);
        (0..64)
            .filter(|&i| board.get(Square::new(i)) == code)
            .count() as i32
    };
    let pawns = count(PieceCode::PAWN);
    let promoted = (count(PieceCode::QUEEN) - 1).max(0)
        + (count(PieceCode::ROOK) - 2).max(0)
        + (count(PieceCode::BISHOP) - 2).max(0)
        + (count(PieceCode::KNIGHT) - 2).max(0);
    pawns + promoted <= 8
}

/// Whether the king and the rook of castling right `right` (one of [`CASTLING_HOMES`]) stand
/// on their home squares.
pub(crate) fn castling_pieces_present(board: &Ccr, right: usize) -> bool {
    let (_, letter, (king_file, king_rank), (rook_file, rook_rank)) = CASTLING_HOMES[right & 3];
    let colour = if letter.is_ascii_uppercase() {
        Colour::White
    } else {
        Colour::Black
    };
    board.get(Square::from_file_rank(king_file, king_rank))
        == PieceCode::new(colour, PieceCode::KING)
        && board.get(Square::from_file_rank(rook_file, rook_rank))
            == PieceCode::new(colour, PieceCode::ROOK)
}

/// Whether `sq` can be the square a pawn of the side not to move just skipped: on rank 6
/// (White to move) or 3, empty, that pawn one rank past it and the square it came from empty.
pub(crate) fn en_passant_is_possible(board: &Ccr, side: Colour, sq: Square) -> bool {
    let (skipped_rank, pawn_rank, origin_rank) = match side {
        Colour::White => (5, 4, 6),
        Colour::Black => (2, 3, 1),
    };
    let mover = side.flip();
    sq.rank() == skipped_rank
        && board.get(Square::from_file_rank(sq.file(), pawn_rank))
            == PieceCode::new(mover, PieceCode::PAWN)
        && board.get(sq) == PieceCode::EMPTY
        && board.get(Square::from_file_rank(sq.file(), origin_rank)) == PieceCode::EMPTY
}

impl Position {
    /// Checks every invariant of the position against its board and returns the first
    /// that does not hold.
    ///
    /// ```
    /// # use ccr::ccr::{Position, validate::Invariant};
    /// let mut p = Position::startpos();
    /// assert_eq!(p.validate(), Ok(()));
    /// p.halfmove_clock = 151;
    /// assert_eq!(p.validate(), Err(Invariant::HalfmoveClock(151)));
    /// ```
    pub fn validate(&self) -> Result<(), Invariant> {
        let board = &self.board;
        if let Some(sq) = (0..64)
            .map(Square::new)
            .find(|&sq| matches!(board.get(sq).0, 7 | 8 | 15))
        {
            return Err(Invariant::BadCode(sq));
        }
        for colour in [Colour::White, Colour::Black] {
            let king = king_square(board, colour)
                .map_err(|count| Invariant::KingCount { colour, count })?;
            if self.king(colour) != king {
                return Err(Invariant::KingSquare(colour));
            }
        }
        if let Some(sq) = back_rank_pawn(board) {
            return Err(Invariant::PawnOnBackRank(sq));
        }
        for colour in [Colour::White, Colour::Black] {
            if !material_is_possible(board, colour) {
                return Err(Invariant::ImpossibleMaterial(colour));
            }
        }
        if self.castling.0 > 0xF {
            return Err(Invariant::CastlingBits(self.castling.0));
        }
        for (right, &(bit, letter, _, _)) in CASTLING_HOMES.iter().enumerate() {
            if self.castling.has(bit) && !castling_pieces_present(board, right) {
                return Err(Invariant::CastlingWithoutPieces(letter));
            }
        }
        if let Some(sq) = self.en_passant
            && !en_passant_is_possible(board, self.side, sq)
        {
            return Err(Invariant::EnPassantSquare(sq));
        }
        if self.halfmove_clock > MAX_HALFMOVE_CLOCK {
            return Err(Invariant::HalfmoveClock(self.halfmove_clock));
        }
        if !(1..=MAX_FULLMOVE_NUMBER).contains(&self.fullmove_number) {
            return Err(Invariant::FullmoveNumber(self.fullmove_number));
        }
        if is_attacked(board, self.king(self.side.flip()), self.side) {
            return Err(Invariant::OpponentInCheck);
        }
        Ok(())
    }
}
