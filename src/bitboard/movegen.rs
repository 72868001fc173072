//! Legal move generation on the piece boards, the standard fast way.
//!
//! One pass per node, no make-and-test: the checkers and the enemy's attacks (computed
//! with our king lifted off the board, so that it cannot hide behind itself on a checking
//! slider's line) give the king's moves; with two checkers that is all. Otherwise the other
//! pieces may only land on the check mask (the checker or a square between it and the king,
//! every square when not in check), and a pinned piece only on the line through the king and
//! itself. Pins are found from the enemy sliders that see the king on an empty board: one
//! piece between them and it, if ours, is pinned. En passant, the one move that empties two
//! squares of a rank at once, is tested by the occupancy after it.
//!
//! The generator reads the pieces through [`PieceSets`] and takes the side, castling rights
//! and en-passant square beside them, so the [`super::Converted`] hands it the sixteen boards
//! of its per-node conversion ([`super::to_bitboards`]) by reference and the native
//! [`super::Bitboards`] its colour and type boards, nothing copied. It is specialised at
//! compile time on the layout, the side to move and captures-only generation, so the hot
//! loops carry no colour branch.
//!
//! The sliders' attacks come from the layout too ([`PieceSets::Lines`]): the magic lookups
//! on the occupancy ([`MagicLines`]) for the boards here, the rotated boards' line lookups
//! for [`crate::rotated::Rotated`]. Where the generator needs the attacks under another
//! occupancy (our king lifted, the squares an en-passant capture empties and fills) it
//! toggles those squares in the [`SliderLines`] it was given, so each layout serves every
//! slider query itself.
//!
//! Shifts in the C.C.R. bit order (bit 0 = h8, bit 63 = a1): a rank toward rank 8 is `>> 8`,
//! a file toward file a is `<< 1`.

use crate::arch::convert::PieceBoards;
use crate::bitboard::magic::Sliders;
use crate::bitboard::tables::{
    BETWEEN, BISHOP_RAYS, FILE_A, FILE_H, KING, KNIGHT, LINE, PAWN, ROOK_RAYS, rank,
};
use crate::ccr::CastlingRights;
use crate::moves::MoveList;
use crate::types::{Colour, Move, MoveKind, PieceType, Square};

// Piece type offsets inside a colour's eight boards (`code & 7`): `pieces.of(base, N)` is
// the knights of the colour whose codes start at `base` (0 for White, 8 for Black).
const P: usize = PieceType::Pawn.bits() as usize;
const N: usize = PieceType::Knight.bits() as usize;
const B: usize = PieceType::Bishop.bits() as usize;
const R: usize = PieceType::Rook.bits() as usize;
const Q: usize = PieceType::Queen.bits() as usize;
const K: usize = PieceType::King.bits() as usize;

/// Read access to the pieces, whatever their layout: the sixteen boards by piece code the
/// conversion gives ([`PieceBoards`], what [`super::Converted`] reads), or the native
/// position's colour and type boards ([`super::Bitboards`]). The generator is compiled for each.
pub(crate) trait PieceSets {
    /// The pieces of type `piece_type` (1 = pawn … 6 = king) of the colour whose codes start
    /// at `base` (0 for White, 8 for Black).
    fn of(&self, base: usize, piece_type: usize) -> u64;

    /// Every piece of the colour whose codes start at `base`.
    fn colour(&self, base: usize) -> u64;

    /// Every piece.
    #[inline(always)]
    fn occupied(&self) -> u64 {
        self.colour(0) | self.colour(8)
    }

    /// Where the sliders' attacks come from.
    type Lines: SliderLines;

    /// The slider lookups under the position's own occupancy, which is `occupied` (what
    /// [`PieceSets::occupied`] gives; passed in so the magic layouts reuse it).
    fn lines(&self, occupied: u64) -> Self::Lines;
}

/// Slider attacks under one occupancy, which the generator may change square by square.
pub(crate) trait SliderLines: Copy {
    /// The squares a rook on `sq` attacks.
    fn rook(&self, sq: usize) -> u64;

    /// The squares a bishop on `sq` attacks.
    fn bishop(&self, sq: usize) -> u64;

    /// The same lookups with square `sq` emptied if occupied, filled if empty.
    fn toggle(self, sq: usize) -> Self;
}

/// The magic lookups ([`Sliders`]) on an occupancy: what the converted and the native
/// bitboards' generation uses.
#[derive(Copy, Clone)]
pub(crate) struct MagicLines {
    /// The shared magic table.
    pub sliders: Sliders,
    /// The occupied squares.
    pub occupied: u64,
}

impl MagicLines {
    /// The magic lookups on `occupied`.
    #[inline(always)]
    pub(crate) fn on(occupied: u64) -> MagicLines {
        MagicLines {
            sliders: Sliders::get(),
            occupied,
        }
    }
}

impl SliderLines for MagicLines {
    #[inline(always)]
    fn rook(&self, sq: usize) -> u64 {
        self.sliders.rook(sq, self.occupied)
    }

    #[inline(always)]
    fn bishop(&self, sq: usize) -> u64 {
        self.sliders.bishop(sq, self.occupied)
    }

    #[inline(always)]
    fn toggle(self, sq: usize) -> Self {
        MagicLines {
            sliders: self.sliders,
            occupied: self.occupied ^ 1 << sq,
        }
    }
}

impl PieceSets for PieceBoards {
    #[inline(always)]
    fn of(&self, base: usize, piece_type: usize) -> u64 {
        self[base + piece_type]
    }

    #[inline(always)]
    fn colour(&self, base: usize) -> u64 {
        self[base + P]
            | self[base + N]
            | self[base + B]
            | self[base + R]
            | self[base + Q]
            | self[base + K]
    }

    /// Board 0 holds the empty squares.
    #[inline(always)]
    fn occupied(&self) -> u64 {
        !self[0]
    }

    type Lines = MagicLines;

    #[inline(always)]
    fn lines(&self, occupied: u64) -> MagicLines {
        MagicLines::on(occupied)
    }
}

/// One rank forward for `white` pawns (toward rank 8: lower indices).
#[inline(always)]
const fn forward(white: bool, b: u64) -> u64 {
    if white { b >> 8 } else { b << 8 }
}

/// Forward and one file toward file a; what wrapped around onto file h is dropped.
#[inline(always)]
const fn forward_a(white: bool, b: u64) -> u64 {
    (if white { b >> 7 } else { b << 9 }) & !FILE_H
}

/// Forward and one file toward file h; what wrapped around onto file a is dropped.
#[inline(always)]
const fn forward_h(white: bool, b: u64) -> u64 {
    (if white { b >> 9 } else { b << 7 }) & !FILE_A
}

/// The squares `white`'s (or Black's) pawns attack, set-wise.
#[inline(always)]
const fn pawn_attacks(white: bool, pawns: u64) -> u64 {
    forward_a(white, pawns) | forward_h(white, pawns)
}

/// Appends a move from `from` to every square of `targets`.
#[inline(always)]
fn push_targets(list: &mut MoveList, from: usize, mut targets: u64) {
    let from = Square::new(from as u8);
    while targets != 0 {
        let to = Square::new(targets.trailing_zeros() as u8);
        list.push(Move::new(from, to, MoveKind::Normal));
        targets &= targets - 1;
    }
}

/// Appends the moves of each piece of `pieces` onto the squares `targets_of` gives it.
#[inline(always)]
fn push_moves(list: &mut MoveList, mut pieces: u64, targets_of: impl Fn(usize) -> u64) {
    while pieces != 0 {
        let from = pieces.trailing_zeros() as usize;
        push_targets(list, from, targets_of(from));
        pieces &= pieces - 1;
    }
}

/// Appends a pawn move of `kind` to every square of `targets`, from `to + back`.
#[inline(always)]
fn push_pawn_moves(list: &mut MoveList, mut targets: u64, back: i32, kind: MoveKind) {
    while targets != 0 {
        let to = targets.trailing_zeros() as i32;
        list.push(Move::new(
            Square::new((to + back) as u8),
            Square::new(to as u8),
            kind,
        ));
        targets &= targets - 1;
    }
}

/// Appends the four promotions (queen, knight, rook, bishop) onto every square of
/// `targets`, from `to + back`.
#[inline(always)]
fn push_promotions(list: &mut MoveList, mut targets: u64, back: i32) {
    while targets != 0 {
        let to = targets.trailing_zeros() as i32;
        let (from, to) = (Square::new((to + back) as u8), Square::new(to as u8));
        for kind in [
            MoveKind::PromoteQueen,
            MoveKind::PromoteKnight,
            MoveKind::PromoteRook,
            MoveKind::PromoteBishop,
        ] {
            list.push(Move::new(from, to, kind));
        }
        targets &= targets - 1;
    }
}

/// Everything the enemy attacks, given the slider lookups `lines` (whose occupancy lacks
/// our king).
#[inline(always)]
fn enemy_attacks<S: PieceSets, const WHITE: bool>(pieces: &S, lines: S::Lines) -> u64 {
    let them = if WHITE { 8 } else { 0 };
    let mut attacks = pawn_attacks(!WHITE, pieces.of(them, P));
    attacks |= KING[pieces.of(them, K).trailing_zeros() as usize & 63];
    let mut knights = pieces.of(them, N);
    while knights != 0 {
        attacks |= KNIGHT[knights.trailing_zeros() as usize];
        knights &= knights - 1;
    }
    let mut diagonal = pieces.of(them, B) | pieces.of(them, Q);
    while diagonal != 0 {
        attacks |= lines.bishop(diagonal.trailing_zeros() as usize);
        diagonal &= diagonal - 1;
    }
    let mut straight = pieces.of(them, R) | pieces.of(them, Q);
    while straight != 0 {
        attacks |= lines.rook(straight.trailing_zeros() as usize);
        straight &= straight - 1;
    }
    attacks
}

/// The pieces of the side on `base` that attack `sq` under the occupancy of `lines`;
/// `by_white` says whose pawns they are (they attack `sq` from where a pawn of the other
/// colour on `sq` would attack).
#[inline(always)]
fn attackers<S: PieceSets>(
    pieces: &S,
    lines: S::Lines,
    sq: usize,
    base: usize,
    by_white: bool,
) -> u64 {
    let victim = if by_white {
        Colour::Black
    } else {
        Colour::White
    };
    (KNIGHT[sq] & pieces.of(base, N))
        | (PAWN[victim as usize][sq] & pieces.of(base, P))
        | (KING[sq] & pieces.of(base, K))
        | (lines.rook(sq) & (pieces.of(base, R) | pieces.of(base, Q)))
        | (lines.bishop(sq) & (pieces.of(base, B) | pieces.of(base, Q)))
}

/// Whether `side`'s king is attacked.
#[inline]
pub(crate) fn in_check<S: PieceSets>(pieces: &S, side: Colour) -> bool {
    let (us, them) = (side.code_bit() as usize, side.flip().code_bit() as usize);
    let king = pieces.of(us, K).trailing_zeros() as usize & 63;
    let lines = pieces.lines(pieces.occupied());
    let by_white = side == Colour::Black;
    attackers(pieces, lines, king, them, by_white) != 0
}

/// Fills `list` with the legal moves.
#[inline]
pub(crate) fn generate_legal<S: PieceSets>(
    pieces: &S,
    side: Colour,
    castling: CastlingRights,
    en_passant: Option<Square>,
    list: &mut MoveList,
) {
    list.clear();
    match side {
        Colour::White => generate::<S, true, false>(pieces, castling, en_passant, list),
        Colour::Black => generate::<S, false, false>(pieces, castling, en_passant, list),
    }
}

/// Fills `list` with the legal captures: every move that takes a piece, en passant and
/// capturing promotions included, quiet promotions and castling not. Every target mask is
/// narrowed to the enemy's pieces before any move is produced.
#[inline]
pub(crate) fn generate_captures<S: PieceSets>(
    pieces: &S,
    side: Colour,
    en_passant: Option<Square>,
    list: &mut MoveList,
) {
    list.clear();
    let none = CastlingRights::NONE;
    match side {
        Colour::White => generate::<S, true, true>(pieces, none, en_passant, list),
        Colour::Black => generate::<S, false, true>(pieces, none, en_passant, list),
    }
}

/// The generator for one side to move (`WHITE`) and mode (`CAPTURES`).
#[inline(always)]
fn generate<S: PieceSets, const WHITE: bool, const CAPTURES: bool>(
    pieces: &S,
    castling: CastlingRights,
    en_passant: Option<Square>,
    list: &mut MoveList,
) {
    let (us, them) = if WHITE { (0, 8) } else { (8, 0) };
    let own = pieces.colour(us);
    let theirs = pieces.colour(them);
    let occupied = own | theirs;
    let king = pieces.of(us, K).trailing_zeros() as usize & 63;
    let lines = pieces.lines(occupied);
    let their_straight = pieces.of(them, R) | pieces.of(them, Q);
    let their_diagonal = pieces.of(them, B) | pieces.of(them, Q);

    let checkers = attackers(pieces, lines, king, them, !WHITE);
    // Without our king on the board, so a slider's attack runs on through its square.
    let danger = enemy_attacks::<S, WHITE>(pieces, lines.toggle(king));
    let king_targets = KING[king] & !own & !danger;
    push_targets(
        list,
        king,
        if CAPTURES {
            king_targets & theirs
        } else {
            king_targets
        },
    );
    if checkers & checkers.wrapping_sub(1) != 0 {
        // Double check: only the king moves.
        return;
    }
    let check_mask = match checkers {
        0 => !0,
        _ => BETWEEN[king][checkers.trailing_zeros() as usize] | checkers,
    };
    let targets = check_mask & if CAPTURES { theirs } else { !own };

    // An enemy slider that would see our king on an empty board pins the one piece between.
    let mut pinned = 0;
    let mut snipers = (ROOK_RAYS[king] & their_straight) | (BISHOP_RAYS[king] & their_diagonal);
    while snipers != 0 {
        let blockers = BETWEEN[king][snipers.trailing_zeros() as usize] & occupied;
        if blockers & blockers.wrapping_sub(1) == 0 {
            pinned |= blockers & own;
        }
        snipers &= snipers - 1;
    }

    // A pinned knight never stays on its line; a pinned slider moves along it only.
    let knights = pieces.of(us, N) & !pinned;
    push_moves(list, knights, |from| KNIGHT[from] & targets);
    let allowed = |from: usize| match pinned >> from & 1 {
        0 => targets,
        _ => targets & LINE[king][from],
    };
    let diagonal = pieces.of(us, B) | pieces.of(us, Q);
    push_moves(list, diagonal, |from| lines.bishop(from) & allowed(from));
    let straight = pieces.of(us, R) | pieces.of(us, Q);
    push_moves(list, straight, |from| lines.rook(from) & allowed(from));

    let pawns = pieces.of(us, P);
    pawn_moves::<WHITE, CAPTURES>(list, pawns & !pinned, occupied, theirs, check_mask);
    let mut pinned_pawns = pawns & pinned;
    while pinned_pawns != 0 {
        let from = pinned_pawns.trailing_zeros() as usize;
        let allowed = check_mask & LINE[king][from];
        pawn_moves::<WHITE, CAPTURES>(list, 1 << from, occupied, theirs, allowed);
        pinned_pawns &= pinned_pawns - 1;
    }
    if let Some(target) = en_passant {
        // Our pawns that attack the target: where an enemy pawn on the target would attack.
        let victim = if WHITE { Colour::Black } else { Colour::White };
        let capturers = PAWN[victim as usize][target.index()] & pawns;
        if capturers != 0 {
            en_passant_captures::<S, WHITE>(
                list,
                pieces,
                lines,
                (king, target.index()),
                capturers,
                checkers,
            );
        }
    }
    if !CAPTURES && checkers == 0 {
        castle::<WHITE>(list, castling, king, occupied, danger);
    }
}

/// Pushes, double pushes and captures of `pawns`, landing only on `allowed`.
#[inline(always)]
fn pawn_moves<const WHITE: bool, const CAPTURES: bool>(
    list: &mut MoveList,
    pawns: u64,
    occupied: u64,
    theirs: u64,
    allowed: u64,
) {
    let last = if WHITE { rank(7) } else { rank(0) };
    // `to + back` is the square the pawn came from.
    let (push, toward_a, toward_h) = if WHITE { (8, 7, 9) } else { (-8, -9, -7) };
    if !CAPTURES {
        let one = forward(WHITE, pawns) & !occupied;
        // A double push goes on from the third rank, if that square is free too.
        let third = if WHITE { rank(2) } else { rank(5) };
        let two = forward(WHITE, one & third) & !occupied & allowed;
        let one = one & allowed;
        push_pawn_moves(list, one & !last, push, MoveKind::Normal);
        push_promotions(list, one & last, push);
        push_pawn_moves(list, two, 2 * push, MoveKind::DoublePush);
    }
    for (to, back) in [
        (forward_a(WHITE, pawns) & theirs & allowed, toward_a),
        (forward_h(WHITE, pawns) & theirs & allowed, toward_h),
    ] {
        push_pawn_moves(list, to & !last, back, MoveKind::Normal);
        push_promotions(list, to & last, back);
    }
}

/// En-passant captures onto `target` by `capturers`. Two pawns leave the rank at once and
/// the capture may remove the checker, so each is tested by the occupancy after it: no
/// enemy slider may then see the king, and no knight or pawn other than the captured one
/// may be checking. Rare (a double push beside an enemy pawn), so kept out of line.
#[cold]
#[inline(never)]
fn en_passant_captures<S: PieceSets, const WHITE: bool>(
    list: &mut MoveList,
    pieces: &S,
    lines: S::Lines,
    (king, target): (usize, usize),
    mut capturers: u64,
    checkers: u64,
) {
    let them = if WHITE { 8 } else { 0 };
    // The pawn that just advanced two squares stands one rank beyond the target.
    let captured = if WHITE { target + 8 } else { target - 8 };
    let their_straight = pieces.of(them, R) | pieces.of(them, Q);
    let their_diagonal = pieces.of(them, B) | pieces.of(them, Q);
    if checkers & !(1 << captured) & !(their_straight | their_diagonal) != 0 {
        return;
    }
    while capturers != 0 {
        let from = capturers.trailing_zeros() as usize;
        // The target is empty (a pawn just skipped it), so toggling fills it.
        let after = lines.toggle(from).toggle(captured).toggle(target);
        if after.rook(king) & their_straight == 0 && after.bishop(king) & their_diagonal == 0 {
            list.push(Move::new(
                Square::new(from as u8),
                Square::new(target as u8),
                MoveKind::EnPassant,
            ));
        }
        capturers &= capturers - 1;
    }
}

/// Castling, when not in check: the right, empty squares between king and rook, and no
/// attacked square on the king's way (b1/b8 may be attacked: only the rook crosses it).
#[inline(always)]
fn castle<const WHITE: bool>(
    list: &mut MoveList,
    castling: CastlingRights,
    king: usize,
    occupied: u64,
    danger: u64,
) {
    // Inside the back rank's byte, bit = 7 - file: g = 1, f = 2, d = 4, c = 5, b = 6.
    const KING_SIDE_EMPTY: u64 = 0b0000_0110; // f, g
    const QUEEN_SIDE_EMPTY: u64 = 0b0111_0000; // b, c, d
    const QUEEN_SIDE_SAFE: u64 = 0b0011_0000; // c, d
    let (king_side, queen_side, base) = if WHITE {
        (CastlingRights::WHITE_KING, CastlingRights::WHITE_QUEEN, 56)
    } else {
        (CastlingRights::BLACK_KING, CastlingRights::BLACK_QUEEN, 0)
    };
    let from = Square::new(king as u8);
    if castling.contains(king_side) && (occupied | danger) & KING_SIDE_EMPTY << base == 0 {
        list.push(Move::new(from, Square::new(base + 1), MoveKind::Castle));
    }
    if castling.contains(queen_side)
        && occupied & QUEEN_SIDE_EMPTY << base == 0
        && danger & QUEEN_SIDE_SAFE << base == 0
    {
        list.push(Move::new(from, Square::new(base + 5), MoveKind::Castle));
    }
}
