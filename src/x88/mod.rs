//! The 0x88 board, the classic mailbox the C.C.R. is measured against.
//!
//! ```text
//!            file:  a  b  c  d  e  f  g  h | off the board
//! rank 8          70 71 72 73 74 75 76 77 | 78 .. 7F
//!   ...
//! rank 2          10 11 12 13 14 15 16 17 | 18 .. 1F
//! rank 1          00 01 02 03 04 05 06 07 | 08 .. 0F
//! ```
//!
//! A square is `16 * rank + file` in a 128-byte array of the crate's piece codes. A step
//! that leaves the board sets bit 3 (past file h or before file a) or bit 7 (past rank 8
//! or below rank 1, wrapping in `u8`), so `sq & 0x88 != 0` is the whole edge test of the
//! move generator.
//!
//! The difference of two on-board squares plus 0x77 indexes the 240-entry tables of
//! [`tables`]: which piece kinds attack along it and the step that walks it. Checkers, pins
//! and "is this square attacked" are one table lookup per enemy piece, plus a walk over
//! the squares between for the sliders the table lets through.
//!
//! The rest of the position lives in the off-board half of the array (files 8-15 of each
//! row, which no square uses and the generator never reads):
//!
//! ```text
//! 08 side  09 castling  0A en passant  0B half-move clock  0C-0D full-move  0E-0F counts W, B
//! 18-1F  White's list, slots 0-7 (slot 0 the king)     28-2F  slots 8-15
//! 38-3F  Black's list, slots 0-7 (slot 0 the king)     48-4F  slots 8-15
//! ```
//!
//! The whole position is then the 128 bytes, which copy-make copies with eight 16-byte
//! moves. As a struct with the same fields beside the array it would take 170 bytes, past
//! what the compiler copies inline (without AVX), and every make would call `memcpy` twice.
//!
//! A piece list is unordered beyond the king first: a capture moves the last entry into
//! the freed slot, and make finds a piece's slot by comparing all sixteen bytes at once.

pub(crate) mod make;
pub(crate) mod movegen;
pub(crate) mod tables;

use std::fmt;

use crate::ccr::board::MAX_HALFMOVE_CLOCK;
use crate::ccr::validate::{self, State};
use crate::ccr::{CastlingRights, Ccr, Invariant, Position, RookFiles};
use crate::moves::MoveList;
use crate::repr::{Representation, wraps_invariant};
use crate::types::{Colour, Move, PieceCode, PieceType, Square};
use tables::{ATTACKS, CODE_FLAGS, DELTAS, SLIDERS, SQUARE_OF, X88_OF, diff};

/// The en-passant byte when there is no target (off the board, so no pawn capture hits it).
pub(crate) const NO_EP: u8 = 0x88;

/// The side to move (0 White, 1 Black), in the off-board half of the rank-1 row.
const SIDE: usize = 0x08;
/// The castling rights byte ([`CastlingRights`] bits).
const CASTLING: usize = 0x09;
/// The en-passant target, a 0x88 square or [`NO_EP`].
const EP: usize = 0x0A;
/// The half-move clock (at most [`MAX_HALFMOVE_CLOCK`], so one byte).
const HALFMOVE: usize = 0x0B;
/// The full-move number, two bytes little-endian.
const FULLMOVE: usize = 0x0C;
/// How many pieces each side has, one byte per [`Colour`].
const COUNTS: usize = 0x0E;
/// Where each side's piece list starts: slots 0-7 here, 8-15 one row (16 bytes) further.
const LISTS: [usize; 2] = [0x18, 0x38];

/// What [`X88::validate`](Representation::validate) finds broken: the board's own piece
/// lists or side-to-move byte, or an invariant of the position it stands for.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum X88Invariant {
    /// A side's piece list disagrees with the board: an entry off the board, on an empty
    /// square or another side's piece, listed twice, the king not first, more than sixteen,
    /// or a piece of the side on the board but in no entry.
    PieceList(Colour),
    /// The side-to-move byte is neither 0 (White) nor 1 (Black).
    SideByte(u8),
    /// The position the board stands for breaks an invariant.
    Position(Invariant),
}

wraps_invariant!(X88Invariant::Position(Invariant));

impl fmt::Display for X88Invariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            X88Invariant::PieceList(colour) => {
                write!(f, "the {colour:?} piece list disagrees with the board")
            }
            X88Invariant::SideByte(byte) => write!(f, "side-to-move byte {byte} is not 0 or 1"),
            X88Invariant::Position(broken) => broken.fmt(f),
        }
    }
}

impl std::error::Error for X88Invariant {}

/// A position on the 0x88 board: the 128-byte array and nothing else.
///
/// Piece lists rather than a scan of the board per node: the lists make generation faster,
/// and a search makes one move per generation, as perft does when it counts the leaves.
/// Only perft that makes every leaf without generating behind it (about fifty makes per
/// generation) favours the cheaper make of a scan.
#[derive(Copy, Clone)]
#[repr(align(16))]
pub struct X88 {
    /// Piece codes on the squares; the off-board half holds the rest of the position.
    board: [u8; 128],
}

impl fmt::Debug for X88 {
    /// The FEN: the raw bytes would show list slots and stale entries as if they meant
    /// something.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "X88({})", self.to_position().to_fen())
    }
}

/// One side's piece squares, gathered for one node.
#[derive(Copy, Clone)]
pub struct PieceList {
    squares: [u8; 16],
    len: usize,
}

impl PieceList {
    /// The squares, king first.
    #[inline(always)]
    pub fn as_slice(&self) -> &[u8] {
        &self.squares[..self.len.min(16)]
    }
}

impl X88 {
    /// The piece code on an on-board 0x88 square.
    #[inline(always)]
    pub fn code(&self, sq: u8) -> PieceCode {
        PieceCode::from_stored(self.board[sq as usize & 0x77])
    }

    /// The side to move.
    #[inline(always)]
    pub fn side(&self) -> Colour {
        if self.board[SIDE] == 0 {
            Colour::White
        } else {
            Colour::Black
        }
    }

    /// The castling rights, as [`CastlingRights`] bits.
    #[inline(always)]
    pub fn castling(&self) -> u8 {
        self.board[CASTLING]
    }

    /// The en-passant target square, or `NO_EP`.
    #[inline(always)]
    pub fn ep(&self) -> u8 {
        self.board[EP]
    }

    /// Plies since the last capture or pawn move.
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.board[HALFMOVE] as u16
    }

    /// The move number, incremented after Black moves.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        u16::from_le_bytes([self.board[FULLMOVE], self.board[FULLMOVE + 1]])
    }

    /// The 0x88 square of `colour`'s king.
    #[inline(always)]
    pub fn king(&self, colour: Colour) -> u8 {
        self.board[LISTS[colour as usize]]
    }

    /// The squares of `colour`'s pieces, king first.
    #[inline(always)]
    pub fn pieces(&self, colour: Colour) -> PieceList {
        let base = LISTS[colour as usize];
        let mut squares = [0; 16];
        squares[..8].copy_from_slice(&self.board[base..base + 8]);
        squares[8..].copy_from_slice(&self.board[base + 16..base + 24]);
        PieceList {
            squares,
            len: self.board[COUNTS + colour as usize] as usize,
        }
    }

    /// Checks `colour`'s piece list against the squares it names: at most sixteen entries,
    /// each an on-board square holding a piece of that side, each once, the king first.
    fn check_list(&self, colour: Colour) -> Result<(), X88Invariant> {
        let ours = |sq: u8| {
            sq & 0x88 == 0
                && self.board[sq as usize] != 0
                && PieceCode::from_stored(self.board[sq as usize]).colour() == colour
        };
        let list = self.pieces(colour);
        let listed = list.as_slice();
        let mut seen = 0u128;
        let each_once = listed.iter().all(|&sq| {
            let fresh = ours(sq) && seen & 1 << sq == 0;
            seen |= 1 << (sq & 0x7F);
            fresh
        });
        let king_first = listed
            .first()
            .is_some_and(|&sq| self.code(sq) == PieceCode::new(colour, PieceType::King));
        if list.len > 16 || !each_once || !king_first {
            return Err(X88Invariant::PieceList(colour));
        }
        Ok(())
    }

    /// The state beside the board, for [`validate::check_move`].
    fn state(&self) -> State {
        let square = |sq: u8| SQUARE_OF[sq as usize & 0x7F];
        State {
            side: self.side(),
            castling: self.castling(),
            rook_files: RookFiles::STANDARD,
            en_passant: (self.ep() != NO_EP).then(|| square(self.ep())),
            halfmove_clock: self.halfmove_clock(),
            fullmove_number: self.fullmove_number(),
            kings: [
                square(self.king(Colour::White)),
                square(self.king(Colour::Black)),
            ],
        }
    }

    /// The side-to-move byte, checked.
    fn check_side(&self) -> Result<(), X88Invariant> {
        match self.board[SIDE] {
            0 | 1 => Ok(()),
            byte => Err(X88Invariant::SideByte(byte)),
        }
    }

    /// The board as rank words.
    fn ccr(&self) -> Ccr {
        let mut board = Ccr::default();
        for sq in (0..128u8).filter(|s| s & 0x88 == 0) {
            board.set(SQUARE_OF[sq as usize], self.code(sq));
        }
        board
    }

    /// Checks what `mv`, just played, could have broken: each square the move touched is
    /// listed by the side whose piece stands there and by no other (the rest of the board
    /// and of the lists did not change), the side-to-move byte, then
    /// [`validate::check_move`].
    fn check_move(&self, mv: Move) -> Result<(), X88Invariant> {
        let lists = [self.pieces(Colour::White), self.pieces(Colour::Black)];
        let (squares, count) = validate::touched(mv, RookFiles::STANDARD);
        for &sq in &squares[..count] {
            let x = X88_OF[sq.index()];
            let code = self.code(x);
            for colour in [Colour::White, Colour::Black] {
                let ours = code != PieceCode::EMPTY && code.colour() == colour;
                if lists[colour as usize].as_slice().contains(&x) != ours {
                    return Err(X88Invariant::PieceList(colour));
                }
            }
        }
        self.check_side()?;
        Ok(validate::check_move(mv, &self.state(), |sq| {
            self.code(X88_OF[sq.index()])
        })?)
    }

    /// Whether a piece of `by` attacks the on-board square `sq`.
    #[inline]
    pub fn is_attacked(&self, sq: u8, by: Colour) -> bool {
        self.attacked_by(sq, self.pieces(by).as_slice())
    }

    /// Whether one of the pieces on `attackers` attacks `sq`.
    #[inline(always)]
    fn attacked_by(&self, sq: u8, attackers: &[u8]) -> bool {
        for &from in attackers {
            if self.attacks(from, sq) {
                return true;
            }
        }
        false
    }

    /// Whether the piece on `from` attacks `to`: the table says it could along this
    /// difference, and for a slider the squares between are empty.
    #[inline(always)]
    fn attacks(&self, from: u8, to: u8) -> bool {
        let d = diff(from, to);
        let hit = ATTACKS[d] & CODE_FLAGS[self.board[from as usize & 0x7F] as usize & 15];
        if hit & SLIDERS == 0 {
            return hit != 0;
        }
        let step = DELTAS[d] as u8;
        let mut s = from.wrapping_add(step);
        while s != to {
            if self.board[s as usize & 0x7F] != 0 {
                return false;
            }
            s = s.wrapping_add(step);
        }
        true
    }

    /// The byte of slot `slot` (0..16) of `colour`'s piece list.
    #[inline(always)]
    fn slot_index(colour: Colour, slot: usize) -> usize {
        LISTS[colour as usize] + (slot & 7) + ((slot & 8) << 1)
    }

    /// Adds a piece of `colour` on `sq` at the end of its list.
    fn put(&mut self, colour: Colour, sq: u8, code: u8) {
        self.board[sq as usize] = code;
        let count = self.board[COUNTS + colour as usize];
        self.board[Self::slot_index(colour, count as usize)] = sq;
        self.board[COUNTS + colour as usize] = count + 1;
    }
}

impl Representation for X88 {
    const NAME: &'static str = "x88";

    fn from_position(pos: &Position) -> Self {
        let mut x = X88 { board: [0; 128] };
        x.board[SIDE] = pos.side() as u8;
        x.board[CASTLING] = pos.castling().bits();
        x.board[EP] = pos.en_passant().map_or(NO_EP, |s| X88_OF[s.index()]);
        x.board[HALFMOVE] = pos.halfmove_clock().min(MAX_HALFMOVE_CLOCK) as u8;
        x.board[FULLMOVE..FULLMOVE + 2].copy_from_slice(&pos.fullmove_number().to_le_bytes());
        for colour in [Colour::White, Colour::Black] {
            let king = pos.king(colour);
            x.put(colour, X88_OF[king.index()], pos.board().get(king).code());
        }
        for i in 0..64 {
            let s = Square::new(i);
            let code = pos.board().get(s);
            if code != PieceCode::EMPTY && code.piece_type() != Some(PieceType::King) {
                x.put(code.colour(), X88_OF[s.index()], code.code());
            }
        }
        x
    }

    fn to_position(&self) -> Position {
        Position::from_parts(
            self.ccr(),
            self.side(),
            CastlingRights::from_bits_truncate(self.castling()),
            (self.ep() != NO_EP).then(|| SQUARE_OF[self.ep() as usize & 0x7F]),
            self.halfmove_clock(),
            self.fullmove_number(),
        )
        .expect("an X88 is made from a valid position by legal moves")
    }

    #[inline]
    fn generate_legal(&self, list: &mut MoveList) {
        X88::generate_legal(self, list);
    }

    #[inline]
    fn generate_captures(&self, list: &mut MoveList) {
        X88::generate_captures(self, list);
    }

    #[inline(always)]
    fn make(&self, mv: Move) -> Self {
        X88::make(self, mv)
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        X88::play(self, mv);
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.is_attacked(self.king(self.side()), self.side().flip())
    }

    type Invalid = X88Invariant;

    /// Checks what the 0x88 board caches against its squares, then the position it stands
    /// for: each side's piece list (its king first, every listed square on the board and
    /// holding a piece of that side, each once, and every such piece listed) and the
    /// side-to-move byte, then [`Position::validate`]'s invariants.
    fn validate(&self) -> Result<(), X88Invariant> {
        for colour in [Colour::White, Colour::Black] {
            self.check_list(colour)?;
            let on_board = (0..128u8)
                .filter(|&sq| sq & 0x88 == 0 && self.board[sq as usize] != 0)
                .filter(|&sq| self.code(sq).colour() == colour)
                .count();
            if self.pieces(colour).len != on_board {
                return Err(X88Invariant::PieceList(colour));
            }
        }
        self.check_side()?;
        Ok(validate::validate_board(&self.ccr(), &self.state())?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ccr::fen::STARTPOS;

    #[test]
    fn conversion_round_trips() {
        for fen in [
            STARTPOS,
            crate::positions::KIWIPETE,
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 150 10000",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let x = X88::from_position(&pos);
            assert_eq!(x.to_position(), pos, "{fen}");
            assert_eq!(x.code(x.king(Colour::White)).code(), 6);
            assert_eq!(x.code(x.king(Colour::Black)).code(), 14);
        }
        assert_eq!(X88::size_in_bytes(), 128);
    }

    #[test]
    fn piece_lists_that_disagree_with_the_board() {
        let good = X88::from_fen(STARTPOS).unwrap();
        assert_eq!(good.validate(), Ok(()));
        // A white knight on e4 that no list holds; Black's count one short; a list slot
        // repeating another; the king not first.
        let mut x = good;
        x.board[0x34] = PieceCode::new(Colour::White, PieceType::Knight).code();
        assert_eq!(x.validate(), Err(X88Invariant::PieceList(Colour::White)));
        let mut x = good;
        x.board[COUNTS + 1] -= 1;
        assert_eq!(x.validate(), Err(X88Invariant::PieceList(Colour::Black)));
        let mut x = good;
        x.board[X88::slot_index(Colour::White, 3)] = x.board[X88::slot_index(Colour::White, 2)];
        assert_eq!(x.validate(), Err(X88Invariant::PieceList(Colour::White)));
        let mut x = good;
        x.board.swap(
            X88::slot_index(Colour::Black, 0),
            X88::slot_index(Colour::Black, 1),
        );
        assert_eq!(x.validate(), Err(X88Invariant::PieceList(Colour::Black)));
        // Consistent lists, then the position's own invariants.
        let mut x = good;
        x.board[HALFMOVE] = 151;
        assert_eq!(
            x.validate(),
            Err(X88Invariant::Position(Invariant::HalfmoveClock(151)))
        );
        // A side byte that is neither side.
        let mut x = good;
        x.board[SIDE] = 2;
        assert_eq!(x.validate(), Err(X88Invariant::SideByte(2)));
    }

    #[test]
    fn check_move_sees_stale_lists() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").expect("a valid FEN");
        let mv = pos.parse_uci_move("a1a8").expect("a legal move");
        let good = X88::from_position(&pos).make(mv);
        assert_eq!(good.check_move(mv), Ok(()));
        // The rook's slot still on a1; the rook on a8 in no list.
        let mut x = good;
        x.board[X88::slot_index(Colour::White, 1)] = 0x00;
        assert_eq!(
            x.check_move(mv),
            Err(X88Invariant::PieceList(Colour::White))
        );
        let mut x = good;
        x.board[COUNTS] = 1;
        assert_eq!(
            x.check_move(mv),
            Err(X88Invariant::PieceList(Colour::White))
        );
        // The squares' own invariants come after the lists.
        let mut x = good;
        x.board[CASTLING] = CastlingRights::WHITE_QUEEN.bits();
        assert_eq!(
            x.check_move(mv),
            Err(X88Invariant::Position(Invariant::CastlingWithoutPieces(
                'Q'
            )))
        );
        // A byte holds more than the four rights' bits.
        let mut x = good;
        x.board[CASTLING] = 0x1F;
        assert_eq!(
            x.check_move(mv),
            Err(X88Invariant::Position(Invariant::CastlingBits(0x1F)))
        );
    }

    #[test]
    fn attacks_follow_the_tables() {
        let x = X88::from_fen("4k3/8/8/8/1b6/8/3P4/R3K2R w KQ - 0 1").unwrap();
        // b4 bishop: d2 blocks its way to e1, but it hits c3 and a3.
        assert!(x.is_attacked(0x22, Colour::Black)); // c3
        assert!(!x.is_attacked(0x04, Colour::Black)); // e1
        assert!(x.is_attacked(0x13, Colour::Black)); // d2
        // The white rooks and king cover the first rank and the d2 pawn c3 and e3.
        assert!(x.is_attacked(0x03, Colour::White)); // d1
        assert!(x.is_attacked(0x24, Colour::White)); // e3
        assert!(!x.is_attacked(0x34, Colour::White)); // e4
        assert!(!x.in_check());
    }
}
