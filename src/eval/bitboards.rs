//! The evaluation on bitboards: the paper's hybrid (section 5.5), the C.C.R. in the tree
//! and "flip to bitboards to evaluate position".
//!
//! The same terms with the same weights as the frame evaluator (the parent module), so the
//! score and every count are equal on every position; only what they are read from differs.
//! The board's rank words are converted once to the sixteen bitboards by piece code
//! ([`crate::arch::convert::best`], chosen once: AVX2 or SSSE3 where the CPU has them, else the paper's
//! loop); after that nothing reads the rank words or WHITE_ATTACKS / BLACK_ATTACKS. Each
//! side's attacks are built as four sets, one per class of the attack tables (pawn, knight
//! or bishop, rook, queen or king): pawns by shifting the whole set, knights and the king
//! from the leaper tables, sliders by magic lookup stopping at the first piece, as the
//! tables do. Every term is then a mask and a popcount, except the piece-square terms and
//! the passed pawns' king distances, which visit the pieces one by one.
//!
//! Bit order is the C.C.R.'s ([`crate::bitboard`]): bit 0 = h8, bit 63 = a1, so one rank
//! toward rank 8 is `>> 8` and one file toward file a is `<< 1`.

use super::relative_rank;
use super::{Front, Material, NoTrace, PHASE, Sum, Trace, distance, param, pst_index};
use crate::arch::convert::{PieceBoards, best};
use crate::bitboard::magic::Sliders;
use crate::bitboard::tables::{FILE_A, FILE_H, KING, KNIGHT};
use crate::ccr::Position;
use crate::types::{Colour, PieceCode, PieceType, Square};

/// The dark squares (a1, h8, …) in the C.C.R. bit order.
const DARK: u64 = 0xAA55_AA55_AA55_AA55;

/// Evaluates `pos` from the side to move's point of view, in centipawns: the board
/// converted to bitboards, then [`evaluate_boards`].
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_boards(&best(pos.board()), pos.side())
}

/// Evaluates the position of the sixteen `boards` (by piece code, board 0 the empty
/// squares) with `side` to move, from `side`'s point of view.
#[inline]
pub fn evaluate_boards(boards: &PieceBoards, side: Colour) -> i32 {
    let (white, NoTrace, _) = on_boards(boards, side, NoTrace);
    match side {
        Colour::White => white,
        Colour::Black => -white,
    }
}

/// The evaluation of `pos` from White's point of view with every count sent to `trace`,
/// and whether the material rule made it a draw.
pub(super) fn run<T: Trace>(pos: &Position, trace: T) -> (i32, T, bool) {
    on_boards(&best(pos.board()), pos.side(), trace)
}

/// One file toward file a (what crosses onto file h of the next rank is dropped).
#[inline(always)]
fn toward_a(set: u64) -> u64 {
    (set << 1) & !FILE_H
}

/// One file toward file h.
#[inline(always)]
fn toward_h(set: u64) -> u64 {
    (set >> 1) & !FILE_A
}

/// Both horizontal neighbours of every square of `set`.
#[inline(always)]
fn sideways(set: u64) -> u64 {
    toward_a(set) | toward_h(set)
}

/// One rank forward for `colour`'s pawns.
#[inline(always)]
fn forward(colour: Colour, set: u64) -> u64 {
    match colour {
        Colour::White => set >> 8,
        Colour::Black => set << 8,
    }
}

/// Every square strictly in front of a square of `set`, from `colour`'s side.
#[inline(always)]
fn ahead(colour: Colour, set: u64) -> u64 {
    let mut fill = forward(colour, set);
    match colour {
        Colour::White => {
            fill |= fill >> 8;
            fill |= fill >> 16;
            fill |= fill >> 32;
        }
        Colour::Black => {
            fill |= fill << 8;
            fill |= fill << 16;
            fill |= fill << 32;
        }
    }
    fill
}

/// The files holding a square of `set`, as one byte (bit `x` = nibble `x`: bit 0 is
/// file h, bit 7 file a).
#[inline(always)]
fn files(set: u64) -> u8 {
    let mut fold = set;
    fold |= fold >> 32;
    fold |= fold >> 16;
    fold |= fold >> 8;
    fold as u8
}

/// Every square of the files in `files` (a byte of [`files`]).
#[inline(always)]
fn whole_files(files: u8) -> u64 {
    files as u64 * FILE_H
}

/// The squares of `set`, one by one (C.C.R. indices).
#[inline(always)]
fn squares(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let sq = set.trailing_zeros() as usize;
            set &= set - 1;
            sq
        })
    })
}

/// The attack classes' indices in [`Side::attacks`], as the tables' nibble bits from the
/// most significant: pawn (`1000b`), knight or bishop, rook, queen or king (`0001b`).
const PAWN: usize = 0;
const MINOR: usize = 1;
const ROOK: usize = 2;
const QUEEN_OR_KING: usize = 3;

/// One side's pieces and the squares it attacks.
struct Side {
    colour: Colour,
    pawns: u64,
    knights: u64,
    bishops: u64,
    rooks: u64,
    queens: u64,
    /// The king's square (C.C.R. index).
    king: usize,
    /// Every piece of the side.
    all: u64,
    /// The squares attacked by each class ([`PAWN`], [`MINOR`], [`ROOK`],
    /// [`QUEEN_OR_KING`]); a slider's ray ends on the first piece, which it attacks.
    attacks: [u64; 4],
    /// The squares attacked by any class.
    any: u64,
}

impl Side {
    /// `colour`'s pieces read off the boards and its attacks built on `occupied`.
    #[inline(always)]
    fn new(boards: &PieceBoards, colour: Colour, occupied: u64, sliders: Sliders) -> Side {
        let board = |piece_type| boards[PieceCode::new(colour, piece_type).code() as usize];
        let (pawns, knights, bishops) = (
            board(PieceType::Pawn),
            board(PieceType::Knight),
            board(PieceType::Bishop),
        );
        let (rooks, queens) = (board(PieceType::Rook), board(PieceType::Queen));
        let king = board(PieceType::King).trailing_zeros() as usize & 63;
        let mut minor = 0;
        for sq in squares(knights) {
            minor |= KNIGHT[sq];
        }
        for sq in squares(bishops) {
            minor |= sliders.bishop(sq, occupied);
        }
        let mut rook = 0;
        for sq in squares(rooks) {
            rook |= sliders.rook(sq, occupied);
        }
        let mut queen_or_king = KING[king];
        for sq in squares(queens) {
            queen_or_king |= sliders.queen(sq, occupied);
        }
        let pawn = sideways(forward(colour, pawns));
        Side {
            colour,
            pawns,
            knights,
            bishops,
            rooks,
            queens,
            king,
            all: pawns | knights | bishops | rooks | queens | 1 << king,
            attacks: [pawn, minor, rook, queen_or_king],
            any: pawn | minor | rook | queen_or_king,
        }
    }

    /// The material facts the end of the evaluation reads: pieces in phase units, bishops
    /// and their square colours, whether there are pawns.
    #[inline(always)]
    fn material(&self) -> (i32, i32, u8, bool) {
        let count = |set: u64| set.count_ones() as i32;
        let pieces = count(self.knights) * PHASE[PieceType::Knight.bits() as usize]
            + count(self.bishops) * PHASE[PieceType::Bishop.bits() as usize]
            + count(self.rooks) * PHASE[PieceType::Rook.bits() as usize]
            + count(self.queens) * PHASE[PieceType::Queen.bits() as usize];
        let squares = (self.bishops & DARK != 0) as u8 | ((self.bishops & !DARK != 0) as u8) << 1;
        (pieces, count(self.bishops), squares, self.pawns != 0)
    }
}

/// The evaluation from White's point of view (see the module docs), with every count sent
/// to `trace`, and whether the material rule made it a draw.
#[inline(always)]
fn on_boards<T: Trace>(boards: &PieceBoards, side: Colour, trace: T) -> (i32, T, bool) {
    let occupied = !boards[0];
    let sliders = Sliders::get();
    let sides = [
        Side::new(boards, Colour::White, occupied, sliders),
        Side::new(boards, Colour::Black, occupied, sliders),
    ];
    let mut sum = Sum::new(trace);
    let mut material = Material::default();
    for (us, them) in [(&sides[0], &sides[1]), (&sides[1], &sides[0])] {
        let c = us.colour as usize;
        let (pieces, bishops, bishop_squares, pawns) = us.material();
        material.pieces[c] = pieces;
        material.bishops[c] = bishops;
        material.bishop_squares[c] = bishop_squares;
        material.pawns[c] = pawns;
        pieces_and_squares(&mut sum, boards, us.colour);
        piece_terms(&mut sum, us, them);
        pawn_terms(&mut sum, us, them, occupied);
        king_terms(&mut sum, us, them);
    }
    sum.closing_terms(&material, side);
    sum.finish(&material)
}

/// Material and the piece-square tables of every piece of `us`.
#[inline(always)]
fn pieces_and_squares<T: Trace>(sum: &mut Sum<T>, boards: &PieceBoards, us: Colour) {
    for piece_type in PieceType::ALL {
        let set = boards[PieceCode::new(us, piece_type).code() as usize];
        let first = param::PST + piece_type.index() * 32;
        if piece_type != PieceType::King {
            let material = param::MATERIAL + piece_type.index();
            sum.add(us, material, set.count_ones() as i32);
        }
        for sq in squares(set) {
            sum.add(us, first + pst_index(us, Square::new(sq as u8)), 1);
        }
    }
}

/// The pieces' terms: hanging, threatened by a cheaper class, rooks on open files.
#[inline(always)]
fn piece_terms<T: Trace>(sum: &mut Sum<T>, us: &Side, them: &Side) {
    let colour = us.colour;
    let heavy = us.rooks | us.queens;
    let pieces = us.knights | us.bishops | heavy;
    let count = |set: u64| set.count_ones() as i32;
    sum.add(colour, param::HANGING, count(pieces & them.any & !us.any));
    sum.add(
        colour,
        param::THREAT_BY_PAWN,
        count(pieces & them.attacks[PAWN]),
    );
    sum.add(
        colour,
        param::THREAT_BY_MINOR,
        count(heavy & them.attacks[MINOR]),
    );
    sum.add(
        colour,
        param::THREAT_BY_ROOK,
        count(us.queens & them.attacks[ROOK]),
    );
    let without_own_pawns = us.rooks & !whole_files(files(us.pawns));
    let their_pawn_files = whole_files(files(them.pawns));
    sum.add(
        colour,
        param::ROOK_OPEN,
        count(without_own_pawns & !their_pawn_files),
    );
    sum.add(
        colour,
        param::ROOK_SEMI_OPEN,
        count(without_own_pawns & their_pawn_files),
    );
}

/// The pawns' terms: passed (with what stands in front and the kings' distances),
/// isolated, doubled.
#[inline(always)]
fn pawn_terms<T: Trace>(sum: &mut Sum<T>, us: &Side, them: &Side, occupied: u64) {
    let colour = us.colour;
    // The squares in front of each enemy pawn, on its file and the adjacent ones: where
    // a pawn of ours is not passed.
    let stopped = ahead(them.colour, them.pawns);
    let passed = us.pawns & !(stopped | sideways(stopped));
    for sq in squares(passed) {
        let front = || {
            let front = forward(colour, 1 << sq);
            let front_sq = Square::new(front.trailing_zeros() as u8);
            Front {
                occupied: occupied & front != 0,
                attacked: them.any & front != 0,
                own_king: distance(Square::new(us.king as u8), front_sq),
                enemy_king: distance(Square::new(them.king as u8), front_sq),
            }
        };
        sum.passed(colour, relative_rank(colour, Square::new(sq as u8)), front);
    }
    let own_files = files(us.pawns);
    let neighbour_files = (own_files << 1) | (own_files >> 1);
    let isolated = us.pawns & !whole_files(neighbour_files);
    sum.add(colour, param::ISOLATED, isolated.count_ones() as i32);
    // A pawn behind an own pawn on its file.
    let doubled = us.pawns & ahead(them.colour, us.pawns);
    sum.add(colour, param::DOUBLED, doubled.count_ones() as i32);
}

/// The kings' terms: the own king's shelter, and the own attacks (mobility, the enemy
/// king's zone).
#[inline(always)]
fn king_terms<T: Trace>(sum: &mut Sum<T>, us: &Side, them: &Side) {
    let colour = us.colour;
    // The shield: own pawns one and two ranks ahead on the king's file and its neighbours.
    let one = forward(colour, 1 << us.king);
    let one = one | sideways(one);
    let shield = us.pawns & (one | forward(colour, one));
    sum.add(colour, param::PAWN_SHIELD, shield.count_ones() as i32);
    // And the files among them without an own pawn.
    let king_file = 1u8 << (us.king & 7);
    let king_files = king_file | (king_file << 1) | (king_file >> 1);
    let open = king_files & !files(us.pawns);
    sum.add(colour, param::KING_OPEN_FILE, open.count_ones() as i32);

    // Mobility: the squares each class attacks that hold no own piece and no enemy pawn
    // attacks.
    let safe = !us.all & !them.attacks[PAWN];
    for (i, class) in [MINOR, ROOK, QUEEN_OR_KING].into_iter().enumerate() {
        let count = (us.attacks[class] & safe).count_ones() as i32;
        sum.add(colour, param::MOBILITY + i, count);
    }
    // The enemy king's square and its neighbours, class by class.
    let zone = KING[them.king] | 1 << them.king;
    let classes = us.attacks.map(|set| (set & zone).count_ones());
    sum.king_zone(colour, classes, us.queens != 0);
}
