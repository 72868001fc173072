//! The board itself: eight u32 rank words of 4-bit piece codes, and the position around it.

use std::hash::{Hash, Hasher};

use crate::types::{Colour, Move, PieceCode, Square};

/// The Compact Chessboard Representation: eight rank words, rank 8 first, file a in the
/// most significant nibble of each word (README, "The representation").
///
/// ```
/// # use ccr::Ccr;
/// // Figure 1 of the paper: the white pieces on rank 2 are Ra2, Bc2 and Ke2.
/// let board = Ccr::from_words([0x0000E000, 0, 0, 0, 0x00000020, 0x00001000, 0x40306000, 0]);
/// assert_eq!(board.words()[6], 0x4030_6000);
/// ```
///
/// Aligned to 8 bytes so that [`Ccr::as_u64s`] can view it as four u64 wherever it lives.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
#[repr(C, align(8))]
pub struct Ccr(pub(in crate::ccr) [u32; 8]);

/// The low bit of every nibble.
pub(crate) const NIBBLE_LOW_BITS: u32 = 0x1111_1111;

impl Ccr {
    /// The board of eight rank words, rank 8 first.
    #[inline]
    pub const fn from_words(words: [u32; 8]) -> Ccr {
        Ccr(words)
    }

    /// The eight rank words, rank 8 first (word `w` is the paper's displacement `4 * w`).
    #[inline(always)]
    pub const fn words(&self) -> &[u32; 8] {
        &self.0
    }

    /// The code on a square.
    #[inline]
    pub fn get(&self, sq: Square) -> PieceCode {
        PieceCode::from_nibble(self.0[sq.word()] >> sq.shift())
    }

    /// Puts a code on a square (the empty code clears it).
    #[inline]
    pub fn set(&mut self, sq: Square, code: PieceCode) {
        let w = &mut self.0[sq.word()];
        *w = (*w & !sq.mask()) | ((code.code() as u32) << sq.shift());
    }

    /// The 32 bytes as four 64-bit words (two rank words each), without copying.
    #[inline]
    pub fn as_u64s(&self) -> &[u64; 4] {
        bytemuck::cast_ref(&self.0)
    }

    /// The squares holding a piece of each colour (indexed by [`Colour`]), as a `0xF`
    /// nibble mask per rank word.
    ///
    /// Both colours in one pass: one colour at a time, chosen at run time, came out as a
    /// misaligned 16-byte store beside scalar ones, and the generator's aligned 16-byte
    /// loads of the masks then waited for those stores to retire (a store-forwarding
    /// stall).
    #[inline(always)]
    pub fn colour_masks(&self) -> [[u32; 8]; 2] {
        let (mut white, mut black) = ([0; 8], [0; 8]);
        for ((w, b), &word) in white.iter_mut().zip(&mut black).zip(&self.0) {
            *w = full_nibbles(colour_nibbles(word, Colour::White));
            *b = full_nibbles(colour_nibbles(word, Colour::Black));
        }
        [white, black]
    }

    /// The first square (in C.C.R. order) holding `code`, if any.
    pub fn find(&self, code: PieceCode) -> Option<Square> {
        (0..64).map(Square::new).find(|&s| self.get(s) == code)
    }
}

/// `0xF` on every nibble whose low bit `low_bits` sets (it sets no other bit).
///
/// A shift and a subtraction, not `* 0xF`: SSE2 has no 32-bit multiplication, so the
/// product kept the compiler from vectorising loops over the rank words.
#[inline(always)]
pub(crate) const fn full_nibbles(low_bits: u32) -> u32 {
    (low_bits << 4).wrapping_sub(low_bits)
}

/// The nibbles of `word` that equal `code`, as `0xF` masks.
#[inline(always)]
pub fn nibbles_equal(word: u32, code: u8) -> u32 {
    let diff = word ^ (code as u32 * NIBBLE_LOW_BITS);
    let nonzero = (diff | diff >> 1 | diff >> 2 | diff >> 3) & NIBBLE_LOW_BITS;
    full_nibbles(nonzero ^ NIBBLE_LOW_BITS)
}

/// How many nibbles of `bits` have their low bit set, where `bits` holds nothing else (one
/// bit per square, as [`occupied_nibbles`] gives them).
///
/// One multiplication adds the eight 0-or-1 nibbles into the top nibble (no partial sum
/// reaches 16, so nothing carries between nibbles): two instructions, where `count_ones`
/// without the POPCNT instruction, which the baseline x86 targets lack, is a dozen shifts,
/// masks and a multiplication.
#[inline(always)]
pub fn count_nibbles(bits: u32) -> u32 {
    debug_assert_eq!(
        bits & !NIBBLE_LOW_BITS,
        0,
        "bits outside the nibbles' low bits"
    );
    bits.wrapping_mul(NIBBLE_LOW_BITS) >> 28
}

/// For one rank word, the low bit of every occupied nibble.
#[inline(always)]
pub fn occupied_nibbles(word: u32) -> u32 {
    (word | word >> 1 | word >> 2 | word >> 3) & NIBBLE_LOW_BITS
}

/// For one rank word, the low bit of every nibble that holds a piece of `colour`.
#[inline]
pub fn colour_nibbles(word: u32, colour: Colour) -> u32 {
    let black = (word >> 3) & NIBBLE_LOW_BITS;
    match colour {
        Colour::Black => black,
        Colour::White => {
            let occupied = (word | word >> 1 | word >> 2) & NIBBLE_LOW_BITS;
            occupied & !black
        }
    }
}

/// Castling rights as four bits, made only from the named rights (or four bits read back),
/// so that no other value exists.
///
/// ```compile_fail
/// // The bits are private: no set of rights above the four bits.
/// let rights = ccr::CastlingRights(16);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No right at all.
    pub const NONE: CastlingRights = CastlingRights(0);
    /// White may castle king side.
    pub const WHITE_KING: CastlingRights = CastlingRights(1);
    /// White may castle queen side.
    pub const WHITE_QUEEN: CastlingRights = CastlingRights(2);
    /// Black may castle king side.
    pub const BLACK_KING: CastlingRights = CastlingRights(4);
    /// Black may castle queen side.
    pub const BLACK_QUEEN: CastlingRights = CastlingRights(8);
    /// Each right on its own, in FEN order (`K`, `Q`, `k`, `q`).
    pub const EACH: [CastlingRights; 4] = [
        Self::WHITE_KING,
        Self::WHITE_QUEEN,
        Self::BLACK_KING,
        Self::BLACK_QUEEN,
    ];

    /// The rights as four bits (`1` `K`, `2` `Q`, `4` `k`, `8` `q`), as tables index them.
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The rights of the low four bits of `bits` (the higher bits are ignored).
    #[inline]
    pub const fn from_bits_truncate(bits: u8) -> CastlingRights {
        CastlingRights(bits & 15)
    }

    /// Whether all of `rights` are held.
    #[inline]
    pub const fn contains(self, rights: CastlingRights) -> bool {
        self.0 & rights.0 == rights.0
    }

    /// Whether `colour` holds either of its rights (White's are bits 0-1, Black's 2-3).
    #[inline]
    pub const fn any_of(self, colour: Colour) -> bool {
        self.0 & (0b11 << (2 * colour as u8)) != 0
    }

    /// Whether no right is held.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// These rights and `rights`.
    #[inline]
    pub const fn with(self, rights: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 | rights.0)
    }

    /// These rights less `rights`.
    #[inline]
    pub const fn without(self, rights: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 & !rights.0)
    }

    /// The rights whose bits are set in `mask` (a move's table of rights kept).
    #[inline]
    pub const fn retain_bits(self, mask: u8) -> CastlingRights {
        CastlingRights(self.0 & mask)
    }

    /// The FEN letter of a single right (`K`, `Q`, `k` or `q`), or `None` for any other set.
    pub const fn fen_char(self) -> Option<char> {
        match self.0 {
            1 => Some('K'),
            2 => Some('Q'),
            4 => Some('k'),
            8 => Some('q'),
            _ => None,
        }
    }
}

/// The files of the rooks the castling rights castle with, one per right, for Chess960.
///
/// [`RookFiles::STANDARD`] is standard chess: the king on the e-file and the rooks of the
/// rights held in the corners, where the generator and make take their fixed-square paths.
/// Any other setup keeps the files of all four rights (those of rights not held mean
/// nothing) and is castled by the general Chess960 rules.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct RookFiles(u16);

impl RookFiles {
    /// Standard chess: the king on the e-file, the king side rook on h, the queen side on a.
    pub const STANDARD: RookFiles = RookFiles(0);
    /// The mark of a Chess960 setup, beside the four 4-bit files.
    const CHESS960: u16 = 0x8888;

    /// The files (a = 0) of the rooks of the rights in [`CastlingRights::EACH`] order; a
    /// setup that is standard (every file a corner's, `king_on_e`) is [`RookFiles::STANDARD`].
    pub const fn new(files: [u8; 4], king_on_e: bool) -> RookFiles {
        if king_on_e && files[0] == 7 && files[1] == 0 && files[2] == 7 && files[3] == 0 {
            return RookFiles::STANDARD;
        }
        let packed = (files[0] & 7) as u16
            | ((files[1] & 7) as u16) << 4
            | ((files[2] & 7) as u16) << 8
            | ((files[3] & 7) as u16) << 12;
        RookFiles(packed | Self::CHESS960)
    }

    /// Whether this is standard chess's setup.
    #[inline]
    pub const fn is_standard(self) -> bool {
        self.0 == 0
    }

    /// The rook file (a = 0) of right `index` (0 `K`, 1 `Q`, 2 `k`, 3 `q`).
    #[inline]
    pub const fn file(self, index: usize) -> u8 {
        if self.is_standard() {
            if index & 1 == 0 { 7 } else { 0 }
        } else {
            (self.0 >> (4 * (index & 3))) as u8 & 7
        }
    }

    /// The square of the rook of right `index`, on its colour's back rank.
    #[inline]
    pub const fn rook_square(self, index: usize) -> Square {
        let rank = if index < 2 { 0 } else { 7 };
        Square::from_file_rank(self.file(index), rank)
    }

    /// A castling move's rook squares, from and to: the king side rook (the king's target
    /// on the g-file) ends on f, the queen side one on d.
    #[inline]
    pub fn castling_rook(self, mv: Move) -> (Square, Square) {
        let (from, to) = (mv.from(), mv.to());
        let rank = from.rank();
        let king_side = to.file() == 6;
        let index = 2 * (rank != 0) as usize + !king_side as usize;
        let rook_to = Square::from_file_rank(if king_side { 5 } else { 3 }, rank);
        (self.rook_square(index), rook_to)
    }

    /// The files of the rights `rights` holds, by right (`None` for a right not held): what
    /// tells two positions' castling apart.
    pub fn held(self, rights: CastlingRights) -> [Option<u8>; 4] {
        std::array::from_fn(|i| {
            rights
                .contains(CastlingRights::EACH[i])
                .then(|| self.file(i))
        })
    }
}

/// The largest half-move clock a position holds: the 75-move rule ends every game by 150
/// plies.
pub(crate) const MAX_HALFMOVE_CLOCK: u16 = 150;

/// The largest move number a position holds (far above any game that can be played).
pub(crate) const MAX_FULLMOVE_NUMBER: u16 = 10_000;

/// A full position: the 32-byte board plus what the paper keeps beside it.
///
/// 45 bytes of fields, 48 with the padding of the 16-byte alignment, so that copy-make is
/// three aligned 16-byte copies: without it, i686 (target CPU `pentium4`, where LLVM treats
/// unaligned 16-byte accesses as slow) copies the position in 8-byte pieces (docs/BENCHMARKS.md, "`Position` aligned to 16 bytes").
/// The transposition key is not kept here:
/// a search carries it beside the position and updates it with `make_keyed`, so that code
/// that does not need a key (perft, the benchmarks) does not pay for one.
///
/// The side to move and both clocks are counted in plies: `ply` (its parity is the side to
/// move, its half the move number) and the ply of the last capture or pawn move, whose
/// distance is the half-move clock. A move then adds one to `ply` and, if it is a capture
/// or a pawn move, copies it: make flips no side and stops no clock at its largest value
/// (the accessors stop them).
///
/// The fields belong to the C.C.R. core (`make`, the FEN parser, the keys): elsewhere a
/// position is read through its accessors and comes from [`Position::from_fen`] or
/// [`Position::from_parts`], which check it, or from one of those by legal moves and the
/// small builders (`with_clocks`, `without_en_passant`, `without_castling`), so the cached
/// king squares cannot go stale.
///
/// ```compile_fail
/// let mut pos = ccr::Position::startpos();
/// pos.ply = 1; // the fields are private
/// ```
#[derive(Copy, Clone, Debug)]
#[repr(align(16))]
pub struct Position {
    /// The rank words.
    pub(in crate::ccr) board: Ccr,
    /// Plies from White's first move of move 1: even when White is to move, and
    /// `2 * (move number - 1)` plus that (wrapping: no game reaches 2³² plies).
    pub(in crate::ccr) ply: u32,
    /// The `ply` of the last capture or pawn move (the one the half-move clock counts from;
    /// wrapping, so that a clock larger than `ply` is held too).
    pub(in crate::ccr) irreversible: u32,
    /// Remaining castling rights.
    pub(in crate::ccr) castling: CastlingRights,
    /// The files of the castling rooks (standard, or a Chess960 setup).
    pub(in crate::ccr) rook_files: RookFiles,
    /// The square a pawn skipped on the last move (as FEN records it), if any.
    pub(in crate::ccr) en_passant: Option<Square>,
    /// Each side's king square, indexed by [`Colour`]; kept so legality tests need no scan.
    pub(in crate::ccr) kings: [Square; 2],
}

/// Positions are equal when everything a FEN records is: the raw clocks past their stops
/// do not count.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.fields() == other.fields()
    }
}

impl Eq for Position {}

impl Hash for Position {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.fields().hash(state);
    }
}

/// What a FEN of a position records (the king squares follow from the board).
type Fields = (
    Ccr,
    Colour,
    CastlingRights,
    [Option<u8>; 4],
    Option<Square>,
    u16,
    u16,
);

impl Position {
    /// The position of these parts (unchecked: the FEN parser and [`Position::from_parts`]
    /// check them first).
    pub(in crate::ccr) fn assemble(
        board: Ccr,
        side: Colour,
        castling: (CastlingRights, RookFiles),
        en_passant: Option<Square>,
        clocks: (u16, u16),
        kings: [Square; 2],
    ) -> Position {
        let (castling, rook_files) = castling;
        let (halfmove_clock, fullmove_number) = clocks;
        let ply = 2 * (u32::from(fullmove_number).max(1) - 1) + side as u32;
        Position {
            board,
            ply,
            irreversible: ply.wrapping_sub(halfmove_clock.into()),
            castling,
            rook_files,
            en_passant,
            kings,
        }
    }

    /// Everything [`PartialEq`] compares.
    fn fields(&self) -> Fields {
        (
            self.board,
            self.side(),
            self.castling,
            self.rook_files.held(self.castling),
            self.en_passant,
            self.halfmove_clock(),
            self.fullmove_number(),
        )
    }

    /// The rank words.
    #[inline]
    pub fn board(&self) -> &Ccr {
        &self.board
    }

    /// Whose turn it is.
    #[inline]
    pub fn side(&self) -> Colour {
        if self.ply & 1 == 0 {
            Colour::White
        } else {
            Colour::Black
        }
    }

    /// The castling rights left.
    #[inline]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    /// The files of the castling rooks.
    #[inline]
    pub fn rook_files(&self) -> RookFiles {
        self.rook_files
    }

    /// Whether castling here needs Chess960's rules: a right held whose king or rook does
    /// not start on its standard square.
    #[inline]
    pub fn is_chess960(&self) -> bool {
        !self.rook_files.is_standard()
            && CastlingRights::EACH.iter().enumerate().any(|(i, &right)| {
                self.castling.contains(right) && {
                    let king = self.king(if i < 2 { Colour::White } else { Colour::Black });
                    king.file() != 4 || self.rook_files.file(i) != if i & 1 == 0 { 7 } else { 0 }
                }
            })
    }

    /// The square a pawn skipped on the last move (as FEN records it), if any.
    #[inline]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// Plies since the last capture or pawn move, stopped at `MAX_HALFMOVE_CLOCK`.
    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        let plies = self.ply.wrapping_sub(self.irreversible);
        plies.min(MAX_HALFMOVE_CLOCK.into()) as u16
    }

    /// The move number, starting at 1 and incremented after Black moves, stopped at
    /// `MAX_FULLMOVE_NUMBER`.
    #[inline]
    pub fn fullmove_number(&self) -> u16 {
        (self.ply / 2 + 1).min(MAX_FULLMOVE_NUMBER.into()) as u16
    }

    /// The king square of `colour`.
    #[inline]
    pub fn king(&self, colour: Colour) -> Square {
        self.kings[colour as usize]
    }

    /// The same position without its en-passant square (always still a valid position).
    #[inline]
    pub fn without_en_passant(&self) -> Position {
        Position {
            en_passant: None,
            ..*self
        }
    }

    /// The same position less the castling `rights` (always still a valid position).
    #[inline]
    pub fn without_castling(&self, rights: CastlingRights) -> Position {
        Position {
            castling: self.castling.without(rights),
            ..*self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::PieceType;

    #[test]
    fn count_nibbles_is_the_popcount_of_every_low_bit_set() {
        for pattern in 0u32..256 {
            // Spread the pattern's eight bits to the eight nibbles' low bits.
            let bits = (0..8).fold(0, |bits, i| bits | ((pattern >> i) & 1) << (4 * i));
            assert_eq!(count_nibbles(bits), bits.count_ones(), "{bits:08x}");
        }
    }

    #[test]
    fn each_colour_holds_its_own_two_rights() {
        use CastlingRights as R;
        for (rights, white, black) in [
            (R::default(), false, false),
            (R::WHITE_KING, true, false),
            (R::WHITE_QUEEN, true, false),
            (R::BLACK_KING, false, true),
            (R::BLACK_QUEEN.with(R::WHITE_QUEEN), true, true),
        ] {
            assert_eq!(rights.any_of(Colour::White), white, "{rights:?}");
            assert_eq!(rights.any_of(Colour::Black), black, "{rights:?}");
        }
    }

    #[test]
    fn colour_nibbles_split_the_codes() {
        // a..h: white pawn, empty, black king, white king, black pawn, white queen, empty, black rook
        let w = 0x1_0_E_6_9_5_0_C;
        assert_eq!(colour_nibbles(w, Colour::White), 0x1_0_0_1_0_1_0_0);
        assert_eq!(colour_nibbles(w, Colour::Black), 0x0_0_1_0_1_0_0_1);
    }

    #[test]
    fn nibble_equality_and_occupancy() {
        assert_eq!(nibbles_equal(0x1020_3021, 2), 0x00F0_00F0);
        assert_eq!(nibbles_equal(0, 0), 0xFFFF_FFFF);
        assert_eq!(occupied_nibbles(0x1020_3021), 0x1010_1011);
    }

    #[test]
    fn the_board_is_eight_rank_words_of_32_bytes() {
        assert_eq!(size_of::<Ccr>(), 32);
    }

    #[test]
    fn a_position_is_three_aligned_16_byte_blocks() {
        assert_eq!((size_of::<Position>(), align_of::<Position>()), (48, 16));
    }

    #[test]
    fn get_and_set_address_one_nibble() {
        let mut b = Ccr::default();
        let e2 = Square::parse("e2").unwrap();
        b.set(e2, PieceCode::new(Colour::White, PieceType::King));
        assert_eq!(b.0[6], 0x0000_6000);
        assert_eq!(b.get(e2), PieceCode::new(Colour::White, PieceType::King));
        b.set(e2, PieceCode::EMPTY);
        assert_eq!(b, Ccr::default());
        b.0[0] = 0x0123_4567;
        assert_eq!(b.as_u64s()[0] as u32, 0x0123_4567);
    }

    /// The u64 view needs no luck with the board's address: here it follows a u32 in an
    /// 8-aligned struct, at an address 4 past a multiple of 8 were the board 4-aligned.
    #[test]
    fn u64_view_of_a_board_after_a_u32() {
        #[repr(C)]
        struct AfterU32 {
            anchor: u64,
            pad: u32,
            board: Ccr,
        }
        let mut words = [0; 8];
        words[0] = 0x0123_4567;
        words[1] = 0x89AB_CDEF;
        let s = AfterU32 {
            anchor: 2,
            pad: 1,
            board: Ccr(words),
        };
        assert_eq!((s.anchor, s.pad), (2, 1));
        let expected = if cfg!(target_endian = "little") {
            0x89AB_CDEF_0123_4567
        } else {
            0x0123_4567_89AB_CDEF
        };
        assert_eq!(s.board.as_u64s()[0], expected);
    }
}
