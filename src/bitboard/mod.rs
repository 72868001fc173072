//! The bitboard path: a legal move generator on bitboards converted from the C.C.R.
//! (paper section 5.5), with magic bitboards for the sliders.
//!
//! # Bit order
//!
//! Bit `i` is the square with C.C.R. index `i = 8 * word + nibble`: word 0 is rank 8 and
//! nibble 0 is file h, so bit 0 = h8, bit 7 = a8, bit 56 = h1 and bit 63 = a1, the bit
//! reversal of the usual a1 = 0 layout. Everything here works in that order, so a bit index
//! is directly a [`Square`] and the boards [`to_bitboards`] produces are used
//! as they come, with no reversal per node. A white pawn advances with `>> 8`; one file
//! toward file a is `<< 1` (masking off what wraps onto file h), toward file h `>> 1`.
//!
//! # Pieces
//!
//! - [`tables`]: leaper attacks, empty-board rays, `between` and `line`, all `const fn`.
//! - [`magic`]: fancy magic bitboards (one shared table, filled on first use) and the
//!   seeded search that found the embedded magics.
//! - [`movegen`]: the legal generator (checkers, check mask, pins, en passant by occupancy),
//!   reading the pieces by reference through [`movegen::PieceSets`]: the sixteen boards
//!   converted from the C.C.R. or the native position's colour and type boards.
//! - [`Bitboards`]: the native bitboard position, made move by move (copy-make).
//! - [`Converted`] (`--repr bitboard`): the C.C.R. [`Position`] in the tree and the bitboard
//!   generator at every node on its conversion, converted for move generation. (The
//!   paper's hybrid converts for the evaluation instead: `--eval bitboards`.)

pub(crate) mod converted;
pub(crate) mod magic;
pub(crate) mod movegen;
pub(crate) mod tables;

pub use converted::Converted;

pub(crate) use crate::arch::convert::PieceBoards;
/// The C.C.R. → bitboards conversion with the fastest implementation this CPU has.
pub use crate::arch::convert::best as to_bitboards;

use std::fmt;

use crate::bitboard::movegen::{MagicLines, PieceSets};
use crate::ccr::board::{MAX_FULLMOVE_NUMBER, MAX_HALFMOVE_CLOCK};
use crate::ccr::make::CASTLING_KEPT;
use crate::ccr::validate::{self, State};
use crate::ccr::{CastlingRights, Ccr, Invariant, Position, RookFiles};
use crate::moves::MoveList;
use crate::repr::{Representation, wraps_invariant};
use crate::types::{Colour, Move, MoveKind, PieceCode, PieceType, Square};

/// The pawns' board in [`Bitboards::types`] (type − 1).
const PAWNS: usize = PieceType::Pawn.index();
/// The rooks' board in [`Bitboards::types`].
const ROOKS: usize = PieceType::Rook.index();

/// What [`Bitboards::validate`](Representation::validate) finds broken: the boards against
/// each other or against their conversion, or an invariant of the position they hold.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum BitboardsInvariant {
    /// The colour boards overlap, the type boards overlap, or the type boards do not cover
    /// exactly the colour boards.
    Occupancy,
    /// The rank words the boards spell convert to other boards.
    Conversion,
    /// The position the boards hold breaks an invariant.
    Position(Invariant),
}

wraps_invariant!(BitboardsInvariant::Position(Invariant));

impl fmt::Display for BitboardsInvariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BitboardsInvariant::Occupancy => {
                write!(f, "the colour and type boards disagree with each other")
            }
            BitboardsInvariant::Conversion => {
                write!(f, "the boards converted to rank words and back differ")
            }
            BitboardsInvariant::Position(broken) => broken.fmt(f),
        }
    }
}

impl std::error::Error for BitboardsInvariant {}

/// A position held natively as bitboards: each colour's pieces and each piece type's
/// (both colours), so that a piece set is one AND (`types[t] & colours[c]`), and the state
/// the C.C.R. [`Position`] keeps beside its board.
///
/// Built from [`to_bitboards`]' sixteen boards by code and turned back into them by
/// [`Bitboards::pieces`]. This layout rather than the sixteen boards themselves because
/// copy-make copies it at every node: 72 bytes instead of 136 (at 136 every copy was a
/// `memcpy` call, which made perft with made leaves about twice as slow).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Bitboards {
    /// Each colour's pieces, indexed by [`Colour`], in the C.C.R. bit order.
    pub colours: [u64; 2],
    /// Each piece type's squares, both colours, indexed by type − 1 (0 = pawns … 5 = kings).
    pub types: [u64; 6],
    /// Whose turn it is.
    pub side: Colour,
    /// Remaining castling rights.
    pub castling: CastlingRights,
    /// The square a pawn skipped on the last move, if any (set after every double push).
    pub en_passant: Option<Square>,
    /// Plies since the last capture or pawn move.
    pub halfmove_clock: u16,
    /// The move number, starting at 1 and incremented after Black moves.
    pub fullmove_number: u16,
}

impl PieceSets for Bitboards {
    #[inline(always)]
    fn of(&self, base: usize, piece_type: usize) -> u64 {
        self.types[piece_type - 1] & self.colours[base >> 3]
    }

    #[inline(always)]
    fn colour(&self, base: usize) -> u64 {
        self.colours[base >> 3]
    }

    type Lines = MagicLines;

    #[inline(always)]
    fn lines(&self, occupied: u64) -> MagicLines {
        MagicLines::on(occupied)
    }
}

impl Bitboards {
    /// The same position, converted from the C.C.R.
    pub fn from_position(pos: &Position) -> Bitboards {
        let boards = to_bitboards(pos.board());
        Bitboards {
            colours: [boards.colour(0), boards.colour(8)],
            types: std::array::from_fn(|t| boards[1 + t] | boards[9 + t]),
            side: pos.side(),
            castling: pos.castling(),
            en_passant: pos.en_passant(),
            halfmove_clock: pos.halfmove_clock(),
            fullmove_number: pos.fullmove_number(),
        }
    }

    /// The sixteen boards by piece code, as [`to_bitboards`] gives them (board 0 = the
    /// empty squares).
    pub fn pieces(&self) -> PieceBoards {
        let mut boards = [0; 16];
        boards[0] = !self.occupied();
        for t in 1..=6 {
            boards[t] = self.of(0, t);
            boards[8 + t] = self.of(8, t);
        }
        boards
    }

    /// The same position as a C.C.R. [`Position`].
    pub fn to_position(&self) -> Position {
        Position::from_parts(
            self.ccr(),
            self.side,
            self.castling,
            self.en_passant,
            self.halfmove_clock,
            self.fullmove_number,
        )
        .expect("Bitboards are made from a valid position by legal moves")
    }

    /// The position after `mv`, which must be legal here.
    ///
    /// Each board is computed whole from the old one with fixed indices, so the new position
    /// is built in registers and stored once: `from` and `to` leave every type board (only
    /// the mover's holds `from`, only a captured piece's `to`), and `to` joins the boards
    /// that held `from`, or the promotion's. (Updated in place at the mover's index instead,
    /// a copy of the result, such as perft's leaf copy, would re-read 16-byte chunks right
    /// after 8-byte stores into them and stall on store forwarding.)
    #[inline(always)]
    pub fn make(&self, mv: Move) -> Bitboards {
        let (from, to, kind) = (mv.from().index(), mv.to().index(), mv.kind());
        let (from_bit, to_bit) = (1u64 << from, 1u64 << to);
        let us = self.side;
        let all_if = |condition: bool| 0u64.wrapping_sub(condition as u64);
        let mut types: [u64; 6] = match mv.promotion() {
            None => std::array::from_fn(|t| {
                let moved = 0u64.wrapping_sub(self.types[t] >> from & 1);
                (self.types[t] & !(from_bit | to_bit)) | (to_bit & moved)
            }),
            Some(promoted) => std::array::from_fn(|t| {
                let placed = all_if(t + 1 == promoted.bits() as usize);
                (self.types[t] & !(from_bit | to_bit)) | (to_bit & placed)
            }),
        };
        // Castling: the rook jumps from the corner beside the king's target to its other
        // side (king side is toward file h, the lower indices).
        let rook = match kind {
            MoveKind::Castle if to < from => 1u64 << (to - 1) | 1 << (to + 1),
            MoveKind::Castle => 1u64 << (to + 2) | 1 << (to - 1),
            _ => 0,
        };
        // En passant: the captured pawn stands beside the capturer, behind the target.
        let behind = match (kind, us) {
            (MoveKind::EnPassant, Colour::White) => 1u64 << (to + 8),
            (MoveKind::EnPassant, Colour::Black) => 1u64 << (to - 8),
            _ => 0,
        };
        types[ROOKS] ^= rook;
        types[PAWNS] ^= behind;
        let (ours, theirs) = (from_bit | to_bit | rook, to_bit | behind);
        let colours = match us {
            Colour::White => [self.colours[0] ^ ours, self.colours[1] & !theirs],
            Colour::Black => [self.colours[0] & !theirs, self.colours[1] ^ ours],
        };
        let pawn_moved = self.types[PAWNS] & from_bit != 0;
        let captured = self.colours[us.flip() as usize] & to_bit != 0;
        let next = Bitboards {
            colours,
            types,
            side: us.flip(),
            castling: self
                .castling
                .retain_bits(CASTLING_KEPT[from] & CASTLING_KEPT[to]),
            en_passant: match kind {
                MoveKind::DoublePush => Some(Square::new(((from + to) / 2) as u8)),
                _ => None,
            },
            // The clocks stop where the C.C.R.'s do, at the largest values a FEN may carry.
            halfmove_clock: if pawn_moved || captured {
                0
            } else {
                (self.halfmove_clock + 1).min(MAX_HALFMOVE_CLOCK)
            },
            fullmove_number: (self.fullmove_number + us as u16).min(MAX_FULLMOVE_NUMBER),
        };
        if cfg!(debug_assertions) {
            validate::check_made(
                mv,
                || format!("{next:?}"),
                || next.check_move(mv),
                || next.validate(),
            );
        }
        next
    }

    /// Checks the boards against each other: the colour boards are disjoint and the type
    /// boards are disjoint and together cover exactly the colour boards.
    fn check_occupancy(&self) -> Result<(), BitboardsInvariant> {
        // Straight-line, as make checks it after every move in debug builds.
        let [pawns, knights, bishops, rooks, queens, kings] = self.types;
        let covered = pawns | knights | bishops | rooks | queens | kings;
        let overlap = pawns & (knights | bishops | rooks | queens | kings)
            | knights & (bishops | rooks | queens | kings)
            | bishops & (rooks | queens | kings)
            | rooks & (queens | kings)
            | queens & kings;
        let [white, black] = self.colours;
        if overlap != 0 || white & black != 0 || covered != white | black {
            return Err(BitboardsInvariant::Occupancy);
        }
        Ok(())
    }

    /// The piece code on `sq`, read from the type boards (disjoint, as
    /// [`Bitboards::check_occupancy`] checks, so their bits add up to one type) and the
    /// black board.
    fn piece(&self, sq: Square) -> PieceCode {
        let i = sq.index();
        let [pawns, knights, bishops, rooks, queens, kings] = self.types;
        let piece_type = (pawns >> i & 1)
            + (knights >> i & 1) * 2
            + (bishops >> i & 1) * 3
            + (rooks >> i & 1) * 4
            + (queens >> i & 1) * 5
            + (kings >> i & 1) * 6;
        let black = (self.colours[Colour::Black as usize] >> i & 1) << 3;
        PieceCode::from_stored(if piece_type == 0 {
            0
        } else {
            (piece_type | black) as u8
        })
    }

    /// The board as rank words.
    fn ccr(&self) -> Ccr {
        let mut board = Ccr::default();
        for (code, &pieces) in self.pieces().iter().enumerate().skip(1) {
            let mut squares = pieces;
            while squares != 0 {
                board.set(
                    Square::new(squares.trailing_zeros() as u8),
                    PieceCode::from_stored(code as u8),
                );
                squares &= squares - 1;
            }
        }
        board
    }

    /// The state beside the boards, the kings found on them.
    fn state(&self) -> State {
        let king = |colour: Colour| {
            let kings = self.types[PieceType::King.index()] & self.colours[colour as usize];
            Square::new(kings.trailing_zeros() as u8 & 63)
        };
        State {
            side: self.side,
            castling: self.castling.bits(),
            rook_files: RookFiles::STANDARD,
            en_passant: self.en_passant,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
            kings: [king(Colour::White), king(Colour::Black)],
        }
    }

    /// Checks what `mv`, just played, could have broken: the boards against each other,
    /// then [`validate::check_move`] on the squares they give.
    fn check_move(&self, mv: Move) -> Result<(), BitboardsInvariant> {
        self.check_occupancy()?;
        Ok(validate::check_move(mv, &self.state(), |sq| {
            self.piece(sq)
        })?)
    }
}

impl Representation for Bitboards {
    const NAME: &'static str = "bitboard-native";

    fn from_position(pos: &Position) -> Self {
        Bitboards::from_position(pos)
    }

    fn to_position(&self) -> Position {
        Bitboards::to_position(self)
    }

    #[inline]
    fn generate_legal(&self, list: &mut MoveList) {
        movegen::generate_legal(self, self.side, self.castling, self.en_passant, list);
    }

    #[inline]
    fn generate_captures(&self, list: &mut MoveList) {
        movegen::generate_captures(self, self.side, self.en_passant, list);
    }

    #[inline(always)]
    fn make(&self, mv: Move) -> Self {
        Bitboards::make(self, mv)
    }

    #[inline]
    fn in_check(&self) -> bool {
        movegen::in_check(self, self.side)
    }

    type Invalid = BitboardsInvariant;

    /// Checks what the bitboards cache against each other (`Bitboards::check_occupancy`),
    /// the conversion of the rank words they spell, which must give them back, and every
    /// invariant of the position they hold.
    fn validate(&self) -> Result<(), BitboardsInvariant> {
        self.check_occupancy()?;
        let board = self.ccr();
        if to_bitboards(&board) != self.pieces() {
            return Err(BitboardsInvariant::Conversion);
        }
        Ok(validate::validate_board(&board, &self.state())?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::Impl;
    use crate::ccr::Portable;
    use crate::ccr::kernel::{Kernel, WithKernel, with_kernel};
    use crate::perft::{Leaves, perft};
    use crate::positions::{PerftCase, parse_perft, random_games};

    /// The positions of a perft file in `tests/data/`.
    fn load(file: &str) -> Vec<PerftCase> {
        let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        parse_perft(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// Perft of the six standard positions up to `limit` nodes per count, both leaf modes.
    fn standard_perft<R: Representation>(limit: u64) {
        for PerftCase { fen, counts, .. } in load("standard-perft.epd") {
            let pos = R::from_fen(&fen).unwrap();
            for &(depth, expected) in counts.iter().filter(|&&(_, n)| n <= limit) {
                for leaves in [Leaves::Make, Leaves::Bulk] {
                    assert_eq!(
                        perft(&pos, depth, leaves),
                        expected,
                        "{} {fen} depth {depth} {leaves:?}",
                        R::NAME
                    );
                }
            }
        }
    }

    #[test]
    fn perft_standard_native() {
        standard_perft::<Bitboards>(5_000_000);
    }

    /// Perft of the standard positions ([`standard_perft`], up to the count) in the converted
    /// generator on the kernel it runs on.
    struct ConvertedPerft(u64);

    impl WithKernel for ConvertedPerft {
        type Output = ();

        fn run<K: Kernel>(self) {
            standard_perft::<Converted<K>>(self.0);
        }
    }

    #[test]
    fn perft_standard_converted_simd() {
        with_kernel(Impl::Simd, ConvertedPerft(5_000_000));
    }

    #[test]
    fn perft_standard_converted_portable() {
        with_kernel(Impl::Portable, ConvertedPerft(1_000_000));
    }

    #[test]
    fn perft_tricky_native() {
        for PerftCase { fen, counts, .. } in load("tricky-perft.epd") {
            let pos = Bitboards::from_fen(&fen).unwrap();
            for &(depth, expected) in counts.iter().filter(|&&(_, n)| n <= 1_500_000) {
                assert_eq!(perft(&pos, depth, Leaves::Bulk), expected, "{fen} {depth}");
            }
        }
    }

    /// Sorted moves, for comparing generators that produce them in different orders.
    fn sorted(list: &MoveList) -> Vec<Move> {
        let mut moves = list.as_slice().to_vec();
        moves.sort_by_key(|m| (m.from(), m.to(), m.kind() as u8));
        moves
    }

    /// The converted generator of a position on the kernel it runs on [`agrees`] with the
    /// C.C.R.'s legal moves and captures.
    struct ConvertedAgrees<'a>(&'a Position, &'a [Move], &'a [Move]);

    impl WithKernel for ConvertedAgrees<'_> {
        type Output = ();

        fn run<K: Kernel>(self) {
            let ConvertedAgrees(pos, legal, captures) = self;
            agrees(&Converted::<K>::from_position(pos), pos, legal, captures);
        }
    }

    /// Checks a representation's legal moves, captures and check test against the C.C.R.'s.
    fn agrees<R: Representation>(r: &R, pos: &Position, legal: &[Move], captures: &[Move]) {
        let fen = pos.to_fen();
        let mut list = MoveList::new();
        r.generate_legal(&mut list);
        assert_eq!(sorted(&list), legal, "{} legal moves of {fen}", R::NAME);
        r.generate_captures(&mut list);
        assert_eq!(sorted(&list), captures, "{} captures of {fen}", R::NAME);
        assert_eq!(
            r.in_check(),
            pos.in_check(),
            "{} in_check of {fen}",
            R::NAME
        );
        assert_eq!(r.to_position(), *pos, "{} to_position of {fen}", R::NAME);
    }

    /// Random games from many starting positions: at every position the native bitboards
    /// (played along by their own make), the converted generator (with each conversion the
    /// build has: portable, SIMD, assembly) and the C.C.R. agree on the legal moves, the
    /// captures and the check, and every legal move makes the same position.
    #[test]
    fn random_games_agree_with_the_ccr() {
        let mut fens: Vec<String> = load("standard-perft.epd")
            .into_iter()
            .map(|c| c.fen)
            .collect();
        fens.extend(load("tricky-perft.epd").into_iter().map(|c| c.fen));
        fens.push("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3".into());
        fens.push("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 148 9999".into());
        let (mut positions, mut captures_seen, mut ep_seen) = (0, 0, 0);
        random_games(
            &fens,
            6,
            0x5EED,
            160,
            Bitboards::from_position,
            |native, pos, _, line| {
                if let Some(&mv) = line.last() {
                    *native = native.make(mv);
                }
                let legal = sorted(&pos.legal_moves());
                let mut list = MoveList::new();
                pos.generate_captures(Portable, &mut list);
                let captures = sorted(&list);
                agrees(native, pos, &legal, &captures);
                for imp in Impl::built() {
                    with_kernel(imp, ConvertedAgrees(pos, &legal, &captures));
                }
                assert_eq!(native.pieces(), to_bitboards(pos.board()));
                for &mv in &legal {
                    let (after, expected) = (native.make(mv), pos.make(mv));
                    assert_eq!(after.to_position(), expected, "{mv} in {}", pos.to_fen());
                    assert_eq!(after.pieces(), to_bitboards(expected.board()));
                }
                positions += 1;
                captures_seen += captures.len();
                ep_seen += legal
                    .iter()
                    .filter(|m| m.kind() == MoveKind::EnPassant)
                    .count();
                true
            },
        );
        assert!(positions > 10_000 && captures_seen > 10_000 && ep_seen > 20);
    }

    #[test]
    fn a_copy_is_72_bytes() {
        assert_eq!(size_of::<Bitboards>(), 72);
    }

    #[test]
    fn check_move_sees_boards_that_disagree() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").expect("a valid FEN");
        let mv = pos.parse_uci_move("e1d1").expect("a legal move");
        let good = Bitboards::from_position(&pos).make(mv);
        assert_eq!(good.check_move(mv), Ok(()));
        // The king left in White's board on e1; the king turned into a pawn on d1.
        let square = |name| 1u64 << Square::parse(name).expect("a square").index();
        let mut b = good;
        b.colours[0] |= square("e1");
        assert_eq!(b.check_move(mv), Err(BitboardsInvariant::Occupancy));
        let mut b = good;
        b.types[PieceType::King.index()] &= !square("d1");
        b.types[PAWNS] |= square("d1");
        assert_eq!(
            b.check_move(mv),
            Err(BitboardsInvariant::Position(Invariant::PawnOnBackRank(
                Square::parse("d1").expect("a square")
            )))
        );
    }

    #[test]
    fn validate_sees_boards_that_disagree() {
        let good = Bitboards::from_fen(crate::ccr::fen::STARTPOS).expect("a valid FEN");
        assert_eq!(good.validate(), Ok(()));
        let square = |name| 1u64 << Square::parse(name).expect("a square").index();
        let (e1, e2, e4) = (square("e1"), square("e2"), square("e4"));
        // e2 a pawn and a knight at once; e4 in the type boards but in no colour's; e4 in both
        // colours' boards; a king missing from the types and the colours.
        let mut b = good;
        b.types[1] |= e2;
        assert_eq!(b.validate(), Err(BitboardsInvariant::Occupancy));
        let mut b = good;
        b.types[0] |= e4;
        assert_eq!(b.validate(), Err(BitboardsInvariant::Occupancy));
        let mut b = good;
        b.colours[0] |= e4;
        b.colours[1] |= e4;
        b.types[0] |= e4;
        assert_eq!(b.validate(), Err(BitboardsInvariant::Occupancy));
        let mut b = good;
        b.types[5] &= !e1;
        b.colours[0] &= !e1;
        assert_eq!(
            b.validate(),
            Err(BitboardsInvariant::Position(Invariant::KingCount {
                colour: Colour::White,
                count: 0
            }))
        );
        let mut b = good;
        b.halfmove_clock = 200;
        assert_eq!(
            b.validate(),
            Err(BitboardsInvariant::Position(Invariant::HalfmoveClock(200)))
        );
    }

    #[test]
    fn special_cases() {
        let moves = |fen: &str| -> Vec<String> {
            let mut list = MoveList::new();
            Bitboards::from_fen(fen).unwrap().generate_legal(&mut list);
            list.as_slice().iter().map(|m| m.to_string()).collect()
        };
        // The horizontal en-passant pin.
        assert!(!moves("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2").contains(&"b5c6".into()));
        assert!(moves("8/8/8/1Pp4r/8/K7/8/4k3 w - c6 0 2").contains(&"b5c6".into()));
        // En passant takes the checking pawn.
        assert!(moves("8/8/8/3k4/4Pp2/8/8/4K3 b - e3 0 1").contains(&"f4e3".into()));
        // Castling through an attacked square, out of check, with b1 attacked.
        let all = moves("r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1");
        assert!(all.contains(&"e1c1".into()) && !all.contains(&"e1g1".into()));
        let all = moves("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1");
        assert!(!all.iter().any(|m| m == "e1c1" || m == "e1g1"));
        assert!(moves("1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1").contains(&"e1c1".into()));
        // Promotions in the order queen, knight, rook, bishop.
        let all = moves("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        let promotions: Vec<_> = all.iter().filter(|m| m.starts_with("a7")).collect();
        assert_eq!(promotions, ["a7a8q", "a7a8n", "a7a8r", "a7a8b"]);
    }
}
