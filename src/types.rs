//! Primitives shared by every representation: colours, piece codes, squares and moves.
//!
//! Squares are numbered in *C.C.R. order*: `index = 8 * word + nibble`, where `word` is
//! the rank word (0 = rank 8, displacement `4 * word`) and `nibble` counts from the least
//! significant nibble (0 = file h). This is the bit order of the paper's bitboard
//! conversion ([`crate::arch::convert`]) and the bit reversal of the usual a1 = 0 layout.

use std::fmt;

/// The side a piece belongs to, or the side to move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Colour {
    /// White, codes 1..=6.
    White = 0,
    /// Black, codes 9..=14.
    Black = 1,
}

impl Colour {
    /// The other colour.
    #[inline]
    pub const fn flip(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// The colour bit (0b1000) that this colour's piece codes carry.
    #[inline]
    pub const fn code_bit(self) -> u8 {
        (self as u8) << 3
    }
}

/// A piece type; its discriminant is the type's number in the paper's Table 1 (the piece
/// code's low three bits, `code & 7`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    /// Pawn, type number 1.
    Pawn = 1,
    /// Knight, type number 2.
    Knight = 2,
    /// Bishop, type number 3.
    Bishop = 3,
    /// Rook, type number 4.
    Rook = 4,
    /// Queen, type number 5.
    Queen = 5,
    /// King, type number 6.
    King = 6,
}

impl PieceType {
    /// The six types in the order of their numbers.
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];

    /// The type's number in Table 1 (1 = pawn … 6 = king): the low three bits of its codes,
    /// and the index of tables that the code's bits index too.
    #[inline]
    pub const fn bits(self) -> u8 {
        self as u8
    }

    /// The type's index in a table of six, 0 (pawn) ..= 5 (king).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize - 1
    }

    /// The type with a Table 1 number (the low three bits of a code), or `None` for 0 (the
    /// empty square) and 7 (no piece) and above.
    #[inline]
    pub const fn from_bits(bits: u8) -> Option<PieceType> {
        match bits {
            1 => Some(PieceType::Pawn),
            2 => Some(PieceType::Knight),
            3 => Some(PieceType::Bishop),
            4 => Some(PieceType::Rook),
            5 => Some(PieceType::Queen),
            6 => Some(PieceType::King),
            _ => None,
        }
    }

    /// The type's FEN letter in lower case (`p` … `k`), as black pieces and promotions in
    /// UCI move text are written.
    #[inline]
    pub const fn fen_char(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }

    /// The type of a FEN letter of either case.
    pub const fn from_fen_char(c: char) -> Option<PieceType> {
        match c.to_ascii_lowercase() {
            'p' => Some(PieceType::Pawn),
            'n' => Some(PieceType::Knight),
            'b' => Some(PieceType::Bishop),
            'r' => Some(PieceType::Rook),
            'q' => Some(PieceType::Queen),
            'k' => Some(PieceType::King),
            _ => None,
        }
    }
}

impl fmt::Display for PieceType {
    /// The lower-case FEN letter.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

/// A 4-bit piece code of the paper's Table 1: bit 3 is the colour, `code & 7` the type.
///
/// The number is private, so every code is one of the sixteen a nibble can hold:
///
/// ```compile_fail
/// let code = ccr::PieceCode(16);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct PieceCode(u8);

impl PieceCode {
    /// The empty square.
    pub const EMPTY: PieceCode = PieceCode(0);

    /// The code of a piece type of a colour.
    #[inline]
    pub const fn new(colour: Colour, piece_type: PieceType) -> PieceCode {
        PieceCode(colour.code_bit() | piece_type as u8)
    }

    /// The code as its 4-bit number (what the rank words and the jump tables hold).
    #[inline]
    pub const fn code(self) -> u8 {
        self.0
    }

    /// The code for a 4-bit number, or `None` above 15 (codes 7, 8 and 15 are no piece but
    /// are codes a nibble can hold).
    #[inline]
    pub const fn from_code(code: u8) -> Option<PieceCode> {
        if code < 16 {
            Some(PieceCode(code))
        } else {
            None
        }
    }

    /// A code a representation stored itself, so known to be 0..=15 (checked only in debug
    /// builds): reading it back costs nothing.
    #[inline(always)]
    pub(crate) const fn from_stored(code: u8) -> PieceCode {
        debug_assert!(code < 16);
        PieceCode(code)
    }

    /// The code held in the low nibble of `bits` (the higher bits are ignored), as read out
    /// of a rank word.
    #[inline]
    pub const fn from_nibble(bits: u32) -> PieceCode {
        PieceCode((bits & 0xF) as u8)
    }

    /// The piece type, or `None` for the empty square and the codes that are no piece (7,
    /// 8 and 15).
    #[inline]
    pub const fn piece_type(self) -> Option<PieceType> {
        PieceType::from_bits(self.0 & 7)
    }

    /// The code's type bits, `code & 7`: a piece's [`PieceType::bits`], 0 for the empty
    /// square. Tables of eight indexed by them answer for every code without a branch.
    #[inline]
    pub const fn type_bits(self) -> u8 {
        self.0 & 7
    }

    /// The colour of a non-empty code.
    #[inline]
    pub const fn colour(self) -> Colour {
        if self.0 & 8 == 0 {
            Colour::White
        } else {
            Colour::Black
        }
    }

    /// The FEN letter of the code (`P` … `k`), or `None` for codes that are no piece.
    pub const fn fen_char(self) -> Option<char> {
        let Some(piece_type) = self.piece_type() else {
            return None;
        };
        let c = piece_type.fen_char();
        if self.0 & 8 == 0 {
            Some(c.to_ascii_uppercase())
        } else {
            Some(c)
        }
    }

    /// The code for a FEN letter.
    pub const fn from_fen_char(c: char) -> Option<PieceCode> {
        let colour = if c.is_ascii_uppercase() {
            Colour::White
        } else {
            Colour::Black
        };
        match PieceType::from_fen_char(c) {
            Some(piece_type) => Some(PieceCode::new(colour, piece_type)),
            None => None,
        }
    }
}

/// A square in C.C.R. order (`8 * word + nibble`, see the module docs).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with a C.C.R.-order index (0..64).
    #[inline]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index)
    }

    /// The square on `file` (0 = a) and `rank` (0 = rank 1).
    #[inline]
    pub const fn from_file_rank(file: u8, rank: u8) -> Square {
        Square((7 - rank) * 8 + (7 - file))
    }

    /// The square of a rank word and a nibble mask with exactly one nibble set.
    #[inline]
    pub const fn from_word_mask(word: usize, mask: u32) -> Square {
        Square((word as u8) * 8 + (mask.trailing_zeros() as u8 >> 2))
    }

    /// The C.C.R.-order index, 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        // The mask is free and tells the compiler that table lookups need no bounds check.
        (self.0 & 63) as usize
    }

    /// The rank word holding the square (0 = rank 8); the paper's displacement is `4 * word`.
    #[inline]
    pub const fn word(self) -> usize {
        ((self.0 >> 3) & 7) as usize
    }

    /// The paper's byte displacement of the square's rank word (0, 4, … 28).
    #[inline]
    pub const fn displacement(self) -> usize {
        self.word() * 4
    }

    /// How far the square's nibble is shifted inside its word (0 = file h … 28 = file a).
    #[inline]
    pub const fn shift(self) -> u32 {
        4 * (self.0 & 7) as u32
    }

    /// The square's nibble mask inside its rank word (`0xF << shift`).
    #[inline]
    pub const fn mask(self) -> u32 {
        0xF << self.shift()
    }

    /// The file, 0 = a … 7 = h.
    #[inline]
    pub const fn file(self) -> u8 {
        7 - (self.0 & 7)
    }

    /// The rank, 0 = rank 1 … 7 = rank 8.
    #[inline]
    pub const fn rank(self) -> u8 {
        7 - (self.0 >> 3)
    }

    /// Parses algebraic text such as `e4`.
    pub fn parse(text: &str) -> Option<Square> {
        match text.as_bytes() {
            &[f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Square::from_file_rank(f - b'a', r - b'1')),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

/// What kind of move a [`Move`] is, beyond its two squares.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// A move or capture with nothing special.
    Normal = 0,
    /// A pawn's two-square advance (sets the en-passant square).
    DoublePush = 1,
    /// Castling, encoded as the king's move (`e1g1`, `e1c1`, …).
    Castle = 2,
    /// An en-passant capture.
    EnPassant = 3,
    /// Promotion to a knight.
    PromoteKnight = 4,
    /// Promotion to a bishop.
    PromoteBishop = 5,
    /// Promotion to a rook.
    PromoteRook = 6,
    /// Promotion to a queen.
    PromoteQueen = 7,
}

/// A move in 16 bits: from (6), to (6), kind (4).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// Packs a move.
    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 6 | (kind as u16) << 12)
    }

    /// The same move with both squares `n` C.C.R. indices further (`n` files toward file
    /// a); the shifted squares must be the move's (the template's own may lie one index off
    /// their word). Pawn moves of one direction keep the distance between their squares, so
    /// a generator builds each from one template with one addition.
    #[inline]
    pub const fn shifted(self, n: u16) -> Move {
        Move(self.0 + 65 * n)
    }

    /// The same move with its target `delta` C.C.R. indices further (the next square of a
    /// ray); the result is a move only while the target stays on the board.
    #[inline]
    pub const fn retargeted(self, delta: i16) -> Move {
        Move(self.0.wrapping_add((delta as u16).wrapping_mul(64)))
    }

    /// The square the piece leaves.
    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 & 63) as u8)
    }

    /// The square the piece reaches (the king's target for castling).
    #[inline]
    pub const fn to(self) -> Square {
        Square(((self.0 >> 6) & 63) as u8)
    }

    /// The move's kind.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        // All eight values are listed, so this compiles to no more than the shift.
        match (self.0 >> 12) & 7 {
            0 => MoveKind::Normal,
            1 => MoveKind::DoublePush,
            2 => MoveKind::Castle,
            3 => MoveKind::EnPassant,
            4 => MoveKind::PromoteKnight,
            5 => MoveKind::PromoteBishop,
            6 => MoveKind::PromoteRook,
            _ => MoveKind::PromoteQueen,
        }
    }

    /// The 16 bits of the move, for storing it (the transposition table).
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// A move from [`Move::bits`]; only meaningful if those bits came from a move, so a
    /// stored move is checked against the legal moves before it is played.
    #[inline]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    /// The piece type a promotion creates (knight … queen), or `None`.
    #[inline]
    pub const fn promotion(self) -> Option<PieceType> {
        // Read from a table: computed from the kind, the callers that match on the result
        // (`Bitboards::make`) were compiled into one branch per promoted type.
        const PROMOTIONS: [Option<PieceType>; 8] = [
            None,
            None,
            None,
            None,
            Some(PieceType::Knight),
            Some(PieceType::Bishop),
            Some(PieceType::Rook),
            Some(PieceType::Queen),
        ];
        PROMOTIONS[((self.0 >> 12) & 7) as usize]
    }
}

impl fmt::Display for Move {
    /// UCI move text: `e2e4`, `e7e8q`, `e1g1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(piece_type) = self.promotion() {
            write!(f, "{piece_type}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_geometry_follows_the_paper() {
        // The knight on g4 of Figure 1: displacement +16, mask 000000F0h.
        let g4 = Square::parse("g4").unwrap();
        assert_eq!(g4.displacement(), 16);
        assert_eq!(g4.mask(), 0x0000_00F0);
        // The bishop on c2: displacement +24, mask 00F00000h.
        let c2 = Square::parse("c2").unwrap();
        assert_eq!(c2.displacement(), 24);
        assert_eq!(c2.mask(), 0x00F0_0000);
        assert_eq!(Square::parse("a8").unwrap().index(), 7);
        assert_eq!(Square::parse("h1").unwrap().index(), 56);
        for i in 0..64 {
            let s = Square::new(i);
            assert_eq!(Square::parse(&s.to_string()), Some(s));
            assert_eq!(Square::from_word_mask(s.word(), s.mask()), s);
        }
    }

    #[test]
    fn moves_pack_and_print_as_uci() {
        let e7 = Square::parse("e7").unwrap();
        let e8 = Square::parse("e8").unwrap();
        let m = Move::new(e7, e8, MoveKind::PromoteQueen);
        assert_eq!(
            (m.from(), m.to(), m.kind()),
            (e7, e8, MoveKind::PromoteQueen)
        );
        assert_eq!(m.to_string(), "e7e8q");
        assert_eq!(
            Move::new(e7, e8, MoveKind::PromoteKnight).to_string(),
            "e7e8n"
        );
        assert_eq!(Move::new(e7, e8, MoveKind::Normal).promotion(), None);
        for (kind, piece_type) in [
            (MoveKind::PromoteKnight, PieceType::Knight),
            (MoveKind::PromoteBishop, PieceType::Bishop),
            (MoveKind::PromoteRook, PieceType::Rook),
            (MoveKind::PromoteQueen, PieceType::Queen),
        ] {
            assert_eq!(Move::new(e7, e8, kind).promotion(), Some(piece_type));
        }
        for kind in [MoveKind::DoublePush, MoveKind::Castle, MoveKind::EnPassant] {
            assert_eq!(Move::new(e7, e8, kind).promotion(), None);
        }
    }

    #[test]
    fn piece_codes_match_table_1() {
        for (c, code) in [('P', 1), ('N', 2), ('B', 3), ('R', 4), ('Q', 5), ('K', 6)] {
            assert_eq!(PieceCode::from_fen_char(c), Some(PieceCode(code)));
            let black = c.to_ascii_lowercase();
            assert_eq!(PieceCode::from_fen_char(black), Some(PieceCode(code | 8)));
            assert_eq!(PieceCode(code).fen_char(), Some(c));
            assert_eq!(PieceCode(code | 8).fen_char(), Some(black));
        }
        for bad in [0u8, 7, 8, 15] {
            assert_eq!(PieceCode(bad).fen_char(), None);
            assert_eq!(PieceCode(bad).piece_type(), None);
        }
        assert_eq!(PieceCode::from_fen_char('x'), None);
    }

    #[test]
    fn piece_types_are_the_codes_low_bits() {
        for (index, piece_type) in PieceType::ALL.into_iter().enumerate() {
            assert_eq!(piece_type.index(), index);
            assert_eq!(piece_type.bits() as usize, index + 1);
            assert_eq!(PieceType::from_bits(piece_type.bits()), Some(piece_type));
            let letter = piece_type.fen_char();
            assert_eq!(piece_type.to_string(), letter.to_string());
            assert_eq!(PieceType::from_fen_char(letter), Some(piece_type));
            assert_eq!(
                PieceType::from_fen_char(letter.to_ascii_uppercase()),
                Some(piece_type)
            );
            for colour in [Colour::White, Colour::Black] {
                let code = PieceCode::new(colour, piece_type);
                assert_eq!(code.code(), colour.code_bit() | piece_type.bits());
                assert_eq!(code.piece_type(), Some(piece_type));
                assert_eq!(code.type_bits(), piece_type.bits());
                assert_eq!(code.colour(), colour);
            }
        }
        for bad in [0u8, 7, 8] {
            assert_eq!(PieceType::from_bits(bad), None);
        }
        assert_eq!(PieceCode::EMPTY.type_bits(), 0);
        assert_eq!(PieceType::from_fen_char('x'), None);
    }
}
