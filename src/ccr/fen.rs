//! FEN in and out. Parsing is strict: every way a FEN can be malformed or describe an
//! impossible position has its own [`FenError`] variant.

use std::fmt;

use crate::ccr::board::{
    CastlingRights, Ccr, MAX_FULLMOVE_NUMBER, MAX_HALFMOVE_CLOCK, Position, RookFiles,
};
use crate::ccr::checks::is_attacked;
use crate::ccr::validate::{
    self, CASTLING_HOMES, back_rank_pawn, castling_pieces_present, en_passant_is_possible,
    material_is_possible,
};
use crate::types::{Colour, PieceCode, PieceType, Square};

/// The standard starting position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN was rejected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FenError {
    /// Not 4, 5 or 6 space-separated fields (missing clocks default to 0 and 1).
    FieldCount(usize),
    /// The placement does not have eight ranks.
    RankCount(usize),
    /// A character that is neither a piece letter, a digit 1-8 nor `/`.
    BadPieceChar(char),
    /// Two digits next to each other in one rank.
    AdjacentDigits {
        /// The rank (1..=8) in question.
        rank: u8,
    },
    /// A rank that does not cover exactly eight squares.
    RankWidth {
        /// The rank (1..=8) in question.
        rank: u8,
        /// The squares it covers.
        squares: u32,
    },
    /// A side without exactly one king.
    KingCount {
        /// The side in question.
        colour: Colour,
        /// How many kings it has.
        count: u32,
    },
    /// A pawn on the first or last rank.
    PawnOnBackRank(Square),
    /// More pawns, pieces or promoted pieces than a side can have (more than 8 pawns,
    /// more than 16 men, or more queens, rooks, bishops and knights beyond the initial
    /// ones than pawns it has lost).
    ImpossibleMaterial(Colour),
    /// The side-to-move field is not `w` or `b`.
    BadSideToMove(String),
    /// The side that is not to move is in check.
    OpponentInCheck,
    /// A castling field that is not `-` or a set of distinct rights, each a letter of
    /// `KQkq` or a rook's file (Shredder-FEN and X-FEN, `A`-`H` for White, `a`-`h` for Black).
    BadCastlingField(String),
    /// A castling right whose king or rook is not on its home square.
    CastlingWithoutPieces(char),
    /// A castling right whose king or rook stands off standard chess's squares, read
    /// without Chess960.
    NeedsChess960(char),
    /// An en-passant field that is not `-` or a square.
    BadEnPassantField(String),
    /// An en-passant square that no pawn can just have skipped.
    ImpossibleEnPassant(Square),
    /// A clock that is not a number in range.
    BadClock {
        /// `halfmove clock` or `fullmove number`.
        which: &'static str,
        /// The text found.
        text: String,
    },
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => {
                write!(
                    f,
                    "expected 4, 5 or 6 fields (missing clocks default to 0 and 1), found {n}"
                )
            }
            FenError::RankCount(n) => write!(f, "expected 8 ranks separated by '/', found {n}"),
            FenError::BadPieceChar(c) => {
                write!(f, "unexpected character {c:?} in the piece placement")
            }
            FenError::AdjacentDigits { rank } => write!(f, "two digits in a row on rank {rank}"),
            FenError::RankWidth { rank, squares } => {
                write!(f, "rank {rank} covers {squares} squares instead of 8")
            }
            FenError::KingCount { colour, count } => {
                write!(f, "{colour:?} has {count} kings instead of 1")
            }
            FenError::PawnOnBackRank(sq) => write!(f, "pawn on {sq}, a first or last rank"),
            FenError::ImpossibleMaterial(colour) => {
                write!(
                    f,
                    "{colour:?} has more pawns or promoted pieces than a game can produce"
                )
            }
            FenError::BadSideToMove(s) => write!(f, "side to move must be 'w' or 'b', found {s:?}"),
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
            FenError::BadCastlingField(s) => {
                write!(
                    f,
                    "castling field must be '-' or distinct rights, each a letter of 'KQkq' \
                     or a rook's file (A-H, a-h), found {s:?}"
                )
            }
            FenError::CastlingWithoutPieces(c) => {
                write!(
                    f,
                    "castling right '{c}' without king and rook on their home squares"
                )
            }
            FenError::NeedsChess960(c) => {
                write!(
                    f,
                    "castling right '{c}' is a Chess960 setup (king or rook off e1/e8, a1/h1, \
                     a8/h8): read it with Chess960 on"
                )
            }
            FenError::BadEnPassantField(s) => {
                write!(f, "en-passant field must be '-' or a square, found {s:?}")
            }
            FenError::ImpossibleEnPassant(sq) => {
                write!(
                    f,
                    "en-passant square {sq} does not follow a two-square pawn advance"
                )
            }
            FenError::BadClock { which, text } => write!(f, "bad {which} {text:?}"),
        }
    }
}

impl std::error::Error for FenError {}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(STARTPOS).expect("the start position is valid")
    }

    /// Parses and validates a FEN of 4, 5 or 6 fields: placement, side, castling and
    /// en passant, then the optional half-move clock and move number (missing clocks default
    /// to 0 and 1).
    ///
    /// ```
    /// # use ccr::Position;
    /// let p = Position::from_fen("4k3/8/8/8/6N1/4P3/R1B1K3/8 w - - 0 1").unwrap();
    /// assert_eq!(*p.board().words(), [0x0000E000, 0, 0, 0, 0x20, 0x1000, 0x40306000, 0]);
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::parse_fen(fen, false)
    }

    /// Parses a FEN as [`Position::from_fen`] does, with the castling field read for
    /// Chess960 too: a right is `K`/`Q` (`k`/`q`) for the outermost rook on that side of
    /// the king (X-FEN) or the rook's file letter (Shredder-FEN, `A`-`H`, `a`-`h`).
    ///
    /// ```
    /// # use ccr::Position;
    /// let p = Position::from_fen_chess960("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9").unwrap();
    /// assert!(p.is_chess960());
    /// assert!(Position::from_fen(&p.to_fen()).is_err());
    /// ```
    pub fn from_fen_chess960(fen: &str) -> Result<Position, FenError> {
        Position::parse_fen(fen, true)
    }

    /// Parses a FEN, reading its castling field for Chess960 when `chess960`.
    pub fn parse_fen(fen: &str, chess960: bool) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let board = parse_placement(fields[0])?;
        let side = match fields[1] {
            "w" => Colour::White,
            "b" => Colour::Black,
            other => return Err(FenError::BadSideToMove(other.to_string())),
        };
        let kings = check_men(&board)?;
        let castling = parse_castling(fields[2], &board, kings, chess960)?;
        let en_passant = parse_en_passant(fields[3], &board, side)?;
        let halfmove_clock = parse_clock(fields.get(4), HALFMOVE, 0..=MAX_HALFMOVE_CLOCK)?;
        let fullmove_number = parse_clock(fields.get(5), FULLMOVE, 1..=MAX_FULLMOVE_NUMBER)?;
        Position::assemble(
            board,
            side,
            castling,
            en_passant,
            (halfmove_clock, fullmove_number),
            kings,
        )
        .checked_for_check()
    }

    /// Builds a position from its parts, with the checks and errors of [`Position::from_fen`]
    /// (a FEN of these parts is accepted exactly when this is), finding the kings itself.
    ///
    /// ```
    /// # use ccr::Position;
    /// let start = Position::startpos();
    /// let same = Position::from_parts(*start.board(), start.side(), start.castling(), None, 0, 1);
    /// assert_eq!(same, Ok(start));
    /// ```
    pub fn from_parts(
        board: Ccr,
        side: Colour,
        castling: CastlingRights,
        en_passant: Option<Square>,
        halfmove_clock: u16,
        fullmove_number: u16,
    ) -> Result<Position, FenError> {
        let kings = check_men(&board)?;
        for right in CastlingRights::EACH {
            if castling.contains(right) {
                check_castling_right(right, &board)?;
            }
        }
        if let Some(sq) = en_passant {
            check_en_passant(sq, &board, side)?;
        }
        check_clocks(halfmove_clock, fullmove_number)?;
        Position::assemble(
            board,
            side,
            (castling, RookFiles::STANDARD),
            en_passant,
            (halfmove_clock, fullmove_number),
            kings,
        )
        .checked_for_check()
    }

    /// The same position with other clocks, checked as a FEN's clocks are.
    pub fn with_clocks(
        &self,
        halfmove_clock: u16,
        fullmove_number: u16,
    ) -> Result<Position, FenError> {
        check_clocks(halfmove_clock, fullmove_number)?;
        Ok(Position::assemble(
            self.board,
            self.side(),
            (self.castling, self.rook_files),
            self.en_passant,
            (halfmove_clock, fullmove_number),
            self.kings,
        ))
    }

    /// The position, unless the side not to move is in check.
    fn checked_for_check(self) -> Result<Position, FenError> {
        if is_attacked(&self.board, self.king(self.side().flip()), self.side()) {
            return Err(FenError::OpponentInCheck);
        }
        Ok(self)
    }

    /// Writes the position as a six-field FEN.
    pub fn to_fen(&self) -> String {
        let mut out = String::with_capacity(90);
        for word in 0..8 {
            let mut empty = 0;
            for nibble in (0..8).rev() {
                match PieceCode::from_nibble(self.board.0[word] >> (4 * nibble)).fen_char() {
                    Some(c) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if word < 7 {
                out.push('/');
            }
        }
        out.push_str(if self.side() == Colour::White {
            " w "
        } else {
            " b "
        });
        if self.castling.is_empty() {
            out.push('-');
        }
        for (index, right) in CastlingRights::EACH.into_iter().enumerate() {
            if self.castling.contains(right) {
                out.push(self.castling_letter(index));
            }
        }
        match self.en_passant {
            Some(sq) => out.push_str(&format!(" {sq}")),
            None => out.push_str(" -"),
        }
        out.push_str(&format!(
            " {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        ));
        out
    }
}

impl Position {
    /// The FEN letter of held right `index`: `K`/`Q` (`k`/`q`) for standard chess and for
    /// the outermost rook on its side of the king, else the rook's file (X-FEN).
    fn castling_letter(&self, index: usize) -> char {
        let rook = self.rook_files.rook_square(index);
        let colour = if index < 2 {
            Colour::White
        } else {
            Colour::Black
        };
        let outermost = outermost_rook(&self.board, self.king(colour), index & 1 == 0);
        let letter = if self.rook_files.is_standard() || outermost == Some(rook) {
            [b'k', b'q'][index & 1]
        } else {
            b'a' + rook.file()
        };
        match colour {
            Colour::White => letter.to_ascii_uppercase() as char,
            Colour::Black => letter as char,
        }
    }
}

/// The rook of the king's colour on the king's rank farthest from it toward file h
/// (`king_side`) or file a.
fn outermost_rook(board: &Ccr, king: Square, king_side: bool) -> Option<Square> {
    let colour = board.get(king).colour();
    let rook = PieceCode::new(colour, PieceType::Rook);
    let files: Vec<u8> = if king_side {
        (king.file() + 1..8).rev().collect()
    } else {
        (0..king.file()).collect()
    };
    files
        .into_iter()
        .map(|file| Square::from_file_rank(file, king.rank()))
        .find(|&sq| board.get(sq) == rook)
}

fn parse_placement(text: &str) -> Result<Ccr, FenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    let mut board = Ccr::default();
    for (word, rank_text) in ranks.iter().enumerate() {
        let rank = 8 - word as u8;
        let mut file = 0u32;
        let mut previous_digit = false;
        for c in rank_text.chars() {
            if let Some(d @ 1..=8) = c.to_digit(10) {
                if previous_digit {
                    return Err(FenError::AdjacentDigits { rank });
                }
                previous_digit = true;
                file += d;
            } else {
                previous_digit = false;
                let code = PieceCode::from_fen_char(c).ok_or(FenError::BadPieceChar(c))?;
                if file < 8 {
                    board.set(Square::from_file_rank(file as u8, rank - 1), code);
                }
                file += 1;
            }
        }
        if file != 8 {
            return Err(FenError::RankWidth {
                rank,
                squares: file,
            });
        }
    }
    Ok(board)
}

/// Checks the men on the board: one king a side, no pawn on a back rank, material a game
/// can reach. Returns the king squares.
fn check_men(board: &Ccr) -> Result<[Square; 2], FenError> {
    let kings = [
        king_square(board, Colour::White)?,
        king_square(board, Colour::Black)?,
    ];
    if let Some(sq) = back_rank_pawn(board) {
        return Err(FenError::PawnOnBackRank(sq));
    }
    for colour in [Colour::White, Colour::Black] {
        if !material_is_possible(|sq| board.get(sq), colour) {
            return Err(FenError::ImpossibleMaterial(colour));
        }
    }
    Ok(kings)
}

/// The square of `colour`'s only king, as the shared check finds it.
fn king_square(board: &Ccr, colour: Colour) -> Result<Square, FenError> {
    validate::king_square(board, colour).map_err(|count| FenError::KingCount { colour, count })
}

/// Reads the castling field: standard chess's `KQkq` (and the corner files' letters), or
/// with `chess960` X-FEN and Shredder-FEN rights on any setup a Chess960 game can have.
fn parse_castling(
    text: &str,
    board: &Ccr,
    kings: [Square; 2],
    chess960: bool,
) -> Result<(CastlingRights, RookFiles), FenError> {
    if text == "-" {
        return Ok((CastlingRights::NONE, RookFiles::STANDARD));
    }
    let bad = || FenError::BadCastlingField(text.to_string());
    if text.is_empty() {
        return Err(bad());
    }
    let mut rights = CastlingRights::NONE;
    let mut files = [7, 0, 7, 0];
    let mut letters = ['-'; 4];
    for c in text.chars() {
        if !c.is_ascii_alphabetic() {
            return Err(bad());
        }
        let colour = if c.is_ascii_uppercase() {
            Colour::White
        } else {
            Colour::Black
        };
        let king = kings[colour as usize];
        let back_rank = if colour == Colour::White { 0 } else { 7 };
        let rook = PieceCode::new(colour, PieceType::Rook);
        let (king_side, file) = match c.to_ascii_lowercase() {
            side @ ('k' | 'q') if !chess960 => {
                let index = 2 * colour as usize + usize::from(side == 'q');
                if !castling_pieces_present(|sq| board.get(sq), index) {
                    return Err(FenError::CastlingWithoutPieces(c));
                }
                (side == 'k', CASTLING_HOMES[index].3.0)
            }
            side @ ('k' | 'q') => {
                let found = (king.rank() == back_rank)
                    .then(|| outermost_rook(board, king, side == 'k'))
                    .flatten();
                let sq = found.ok_or(FenError::CastlingWithoutPieces(c))?;
                (side == 'k', sq.file())
            }
            letter @ 'a'..='h' => {
                let file = letter as u8 - b'a';
                if king.rank() != back_rank
                    || board.get(Square::from_file_rank(file, back_rank)) != rook
                {
                    return Err(FenError::CastlingWithoutPieces(c));
                }
                (file > king.file(), file)
            }
            _ => return Err(bad()),
        };
        let index = 2 * colour as usize + usize::from(!king_side);
        let right = CastlingRights::EACH[index];
        if rights.contains(right) {
            return Err(bad());
        }
        rights = rights.with(right);
        files[index] = file;
        letters[index] = c;
    }
    let king_on_e = [Colour::White, Colour::Black]
        .into_iter()
        .all(|colour| !rights.any_of(colour) || kings[colour as usize].file() == 4);
    let rook_files = RookFiles::new(files, king_on_e);
    if !chess960 && !rook_files.is_standard() {
        // Some right's king is off the e-file or its rook off the corner.
        let off = (0..4).find(|&i| {
            let king = kings[i / 2];
            letters[i] != '-' && (king.file() != 4 || files[i] != [7, 0][i & 1])
        });
        return Err(FenError::NeedsChess960(letters[off.unwrap_or(0)]));
    }
    Ok((rights, rook_files))
}

/// Checks that the king and rook of one castling right (one of [`CastlingRights::EACH`])
/// stand on their home squares.
fn check_castling_right(right: CastlingRights, board: &Ccr) -> Result<(), FenError> {
    // A single right's one bit is its place in the table.
    let index = right.bits().trailing_zeros() as usize & 3;
    if !castling_pieces_present(|sq| board.get(sq), index) {
        return Err(FenError::CastlingWithoutPieces(CASTLING_HOMES[index].1));
    }
    Ok(())
}

fn parse_en_passant(text: &str, board: &Ccr, side: Colour) -> Result<Option<Square>, FenError> {
    if text == "-" {
        return Ok(None);
    }
    let sq = Square::parse(text).ok_or_else(|| FenError::BadEnPassantField(text.to_string()))?;
    check_en_passant(sq, board, side)?;
    Ok(Some(sq))
}

/// Checks that a pawn of the side not to move can just have skipped `sq`.
fn check_en_passant(sq: Square, board: &Ccr, side: Colour) -> Result<(), FenError> {
    let ok = en_passant_is_possible(|sq| board.get(sq), side, sq);
    if ok {
        Ok(())
    } else {
        Err(FenError::ImpossibleEnPassant(sq))
    }
}

const HALFMOVE: &str = "halfmove clock";
const FULLMOVE: &str = "fullmove number";

/// Checks both clocks against the ranges a FEN may give them.
pub(crate) fn check_clocks(halfmove_clock: u16, fullmove_number: u16) -> Result<(), FenError> {
    for (which, value, range) in [
        (HALFMOVE, halfmove_clock, 0..=MAX_HALFMOVE_CLOCK),
        (FULLMOVE, fullmove_number, 1..=MAX_FULLMOVE_NUMBER),
    ] {
        if !range.contains(&value) {
            return Err(FenError::BadClock {
                which,
                text: value.to_string(),
            });
        }
    }
    Ok(())
}

/// Parses an optional clock field; `range.start()` doubles as the value when it is missing.
fn parse_clock(
    text: Option<&&str>,
    which: &'static str,
    range: std::ops::RangeInclusive<u16>,
) -> Result<u16, FenError> {
    let Some(text) = text else {
        return Ok(*range.start());
    };
    let bad = || FenError::BadClock {
        which,
        text: text.to_string(),
    };
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    text.parse::<u16>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(bad)
}

/// The lines of a FEN or EPD file's text that hold something, trimmed, each with its number
/// (from 1): blank lines and `#` comments are skipped.
pub(crate) fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_figure_1_vector() {
        let p = Position::from_fen("4k3/8/8/8/6N1/4P3/R1B1K3/8 w - - 0 1").unwrap();
        assert_eq!(p.board.0, [57344, 0, 0, 0, 32, 4096, 1076912128, 0]);
        assert_eq!(p.to_fen(), "4k3/8/8/8/6N1/4P3/R1B1K3/8 w - - 0 1");
    }

    #[test]
    fn clocks_default_when_missing() {
        let p = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - -").unwrap();
        assert_eq!((p.halfmove_clock(), p.fullmove_number()), (0, 1));
        assert_eq!(p.to_fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    }

    #[test]
    fn material_no_game_can_reach_is_rejected() {
        // Nine pawns; eight pawns and a second queen; three knights and eight pawns.
        for fen in [
            "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1",
            "4k3/8/8/8/8/Q7/PPPPPPPP/3QK3 w - - 0 1",
            "4k3/nnn5/pppppppp/8/8/8/8/4K3 w - - 0 1",
        ] {
            assert!(
                matches!(
                    Position::from_fen(fen),
                    Err(FenError::ImpossibleMaterial(_))
                ),
                "{fen}"
            );
        }
        // The 218-move position: nine queens and no pawns is reachable.
        assert!(Position::from_fen("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1").is_ok());
    }
}
