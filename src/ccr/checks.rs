//! Looking outward from one square: whether it is attacked, and the checks and pins around
//! a king. These walk the eight rays from the square itself, so they need no attack table;
//! FEN validation, the en-passant test, the legal move generator's pin scan and the
//! search's gives-check test use them.

use crate::ccr::board::{Ccr, NIBBLE_LOW_BITS, Position, count_nibbles, nibbles_equal};
use crate::ccr::frame::{on_board, sideways, step};
use crate::types::{Colour, Move, MoveKind, PieceCode, PieceType, Square};

/// The first occupied square along a ray from (word, mask).
///
/// Returns `(word, mask)`; `mask` is 0 when the ray leaves the board first.
#[inline(always)]
fn first_piece<const DW: isize, const DF: i32>(
    board: &Ccr,
    word: usize,
    mask: u32,
) -> (usize, u32) {
    let (mut w, mut m) = step::<DW, DF>(word, mask);
    while on_board(w, m) {
        if board.0[w] & m != 0 {
            return (w, m);
        }
        (w, m) = step::<DW, DF>(w, m);
    }
    (0, 0)
}

/// Marks in `targets` the squares along a ray from (word, mask) up to and including the
/// occupied square (`end_word`, `end_mask`) that ends it.
#[inline(always)]
fn mark_ray<const DW: isize, const DF: i32>(
    targets: &mut [u32; 8],
    (word, mask): (usize, u32),
    (end_word, end_mask): (usize, u32),
) {
    let (mut w, mut m) = step::<DW, DF>(word, mask);
    while (w, m) != (end_word, end_mask) {
        targets[w] |= m;
        (w, m) = step::<DW, DF>(w, m);
    }
    targets[w] |= m;
}

/// The mask one file the other way from a step with file direction `DF`.
#[inline(always)]
const fn back<const DF: i32>(mask: u32) -> u32 {
    if DF < 0 {
        mask >> 4
    } else if DF > 0 {
        mask << 4
    } else {
        mask
    }
}

/// The code on a (word, mask) square.
#[inline(always)]
fn code_at(board: &Ccr, word: usize, mask: u32) -> u8 {
    ((board.0[word] & mask) >> mask.trailing_zeros()) as u8
}

/// Whether the code is a `by` slider that moves along this kind of line (`line_type` is
/// the bishop or the rook; the queen serves both).
#[inline(always)]
fn slides_along(code: u8, by: Colour, line_type: PieceType) -> bool {
    code & 8 == by.code_bit()
        && (code & 7 == line_type.bits() || code & 7 == PieceType::Queen.bits())
}

/// The squares of `by`'s knights, pawns and king that attack (word, mask), OR-ed over the
/// rank words (a yes/no test: which word a hit came from is lost).
#[inline(always)]
fn leaper_hits(board: &Ccr, word: usize, mask: u32, by: Colour) -> u32 {
    let king = PieceCode::new(by, PieceType::King).code();
    let mut hits = 0;
    for dw in [-2isize, -1, 0, 1, 2] {
        if let Some(&rank_word) = board.0.get(word.wrapping_add_signed(dw)) {
            let king_targets = match dw {
                0 => sideways(mask, 1),
                -1 | 1 => sideways(mask, 1) | mask,
                _ => 0,
            };
            hits |= leapers_in_word(rank_word, mask, by, dw)
                | (nibbles_equal(rank_word, king) & king_targets);
        }
    }
    hits
}

/// Whether `by` attacks `sq` on `board`, found by looking outward from `sq`.
pub fn is_attacked(board: &Ccr, sq: Square, by: Colour) -> bool {
    let (word, mask) = (sq.word(), sq.mask());
    if leaper_hits(board, word, mask, by) != 0 {
        return true;
    }
    let (b, r) = (PieceType::Bishop, PieceType::Rook);
    slider_on::<-1, -1>(board, word, mask, by, b)
        || slider_on::<-1, 1>(board, word, mask, by, b)
        || slider_on::<1, -1>(board, word, mask, by, b)
        || slider_on::<1, 1>(board, word, mask, by, b)
        || slider_on::<-1, 0>(board, word, mask, by, r)
        || slider_on::<1, 0>(board, word, mask, by, r)
        || slider_on::<0, -1>(board, word, mask, by, r)
        || slider_on::<0, 1>(board, word, mask, by, r)
}

/// Whether the first piece along a ray from (word, mask) is a `by` slider that moves along
/// this kind of line (`line_type`: the bishop or the rook).
#[inline(always)]
fn slider_on<const DW: isize, const DF: i32>(
    board: &Ccr,
    word: usize,
    mask: u32,
    by: Colour,
    line_type: PieceType,
) -> bool {
    let (w, m) = first_piece::<DW, DF>(board, word, mask);
    m != 0 && slides_along(code_at(board, w, m), by, line_type)
}

/// Whether a `by` slider attacks `sq` along the line from `sq` through `through` (false
/// when the two squares share no line): the one ray of [`is_attacked`] that a change on
/// `through` can affect.
#[inline(always)]
fn slider_through(board: &Ccr, sq: Square, through: Square, by: Colour) -> bool {
    let dw = through.word() as i32 - sq.word() as i32;
    let df = through.file() as i32 - sq.file() as i32;
    if dw != 0 && df != 0 && dw.abs() != df.abs() {
        return false;
    }
    let (word, mask) = (sq.word(), sq.mask());
    let (b, r) = (PieceType::Bishop, PieceType::Rook);
    // Toward rank 1 is +1 word, toward file a is -1 file (see `frame::step`).
    match (dw.signum(), df.signum()) {
        (-1, -1) => slider_on::<-1, -1>(board, word, mask, by, b),
        (-1, 1) => slider_on::<-1, 1>(board, word, mask, by, b),
        (1, -1) => slider_on::<1, -1>(board, word, mask, by, b),
        (1, 1) => slider_on::<1, 1>(board, word, mask, by, b),
        (-1, 0) => slider_on::<-1, 0>(board, word, mask, by, r),
        (1, 0) => slider_on::<1, 0>(board, word, mask, by, r),
        (0, -1) => slider_on::<0, -1>(board, word, mask, by, r),
        (0, 1) => slider_on::<0, 1>(board, word, mask, by, r),
        _ => false,
    }
}

impl Position {
    /// Whether `mv`, which must be legal here, gives check: the same answer as
    /// `self.make(mv).in_check()`, without making the move (the search decides its
    /// prunings with it before paying for a copy-make).
    ///
    /// Only what the move changes can start a check: the piece it puts on a square (the
    /// moved or promoted piece, or the castling rook) attacking the king, or a line through
    /// a square it empties (the from square, the pawn taken en passant, the king's square
    /// when castling, and a Chess960 castling rook's) uncovering a slider. Filling a square
    /// can only block a line, and nothing lies beyond a corner, where a standard castling
    /// rook starts. So it rewrites the rank
    /// words the move changes (castling and en passant stay inside them) on a scratch
    /// board and asks the leaper test at the target and the slider test along the lines
    /// from the enemy king through those squares.
    #[inline(always)]
    pub fn gives_check(&self, mv: Move) -> bool {
        let us = self.side();
        let king = self.king(us.flip());
        let (from, to) = (mv.from(), mv.to());
        let mut after = self.board;
        let piece = match mv.promotion() {
            Some(piece_type) => PieceCode::new(us, piece_type).code() as u32,
            None => (after.0[from.word()] >> from.shift()) & 0xF,
        };
        after.0[from.word()] &= !from.mask();
        after.0[to.word()] = (after.0[to.word()] & !to.mask()) | (piece << to.shift());
        // The third square a special move changes, where a line may start: none (the
        // target again) for every other move.
        let mut third = to;
        match mv.kind() {
            MoveKind::EnPassant => {
                third = Square::from_file_rank(to.file(), from.rank());
                after.set(third, PieceCode::EMPTY);
            }
            MoveKind::Castle => {
                let (rook_from, rook_to) = self.rook_files.castling_rook(mv);
                third = rook_to;
                after.set(rook_from, PieceCode::EMPTY);
                after.set(to, PieceCode::new(us, PieceType::King));
                after.set(third, PieceCode::new(us, PieceType::Rook));
                // A Chess960 rook leaves a square inside the back rank, which may open it.
                if !self.rook_files.is_standard() && slider_through(&after, king, rook_from, us) {
                    return true;
                }
            }
            _ => {}
        }
        // The moved piece from its target: a leaper by its pattern, a slider along its line
        // (a piece of ours nearer on that line would have been giving check already, or
        // was uncovered by the from square, which the next test sees), a king never.
        let direct = match PieceCode::from_nibble(piece).piece_type() {
            Some(PieceType::Pawn | PieceType::Knight) => {
                let dw = to.word() as isize - king.word() as isize;
                leapers_in_word(piece << to.shift(), king.mask(), us, dw) != 0
            }
            Some(PieceType::King) => false,
            _ => slider_through(&after, king, to, us),
        };
        direct
            || slider_through(&after, king, from, us)
            || (third != to && slider_through(&after, king, third, us))
    }
}

/// Checks and pins around one king.
///
/// 16-byte aligned so that i686 copies it (into the generator) in 16-byte moves, not 8-byte
/// ones (see [`crate::ccr::Position`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[repr(align(16))]
pub(crate) struct KingDanger {
    /// How many enemy pieces give check.
    pub checkers: u32,
    /// Where a move of a piece other than the king may land, in the board's geometry: every
    /// square when not in check; with checkers, their squares and the squares between a
    /// checking slider and the king (so with one checker: capture it or block).
    pub evasions: [u32; 8],
    /// The king's own pieces that are pinned to it, as `0xF` masks in the board's geometry
    /// (32-bit words, like everything else the generator reads: no 64-bit shifts on i686).
    pub pinned: [u32; 8],
    /// The squares behind the king on the line of a checking slider: the attack table
    /// stops at the king, but the king may not step back along the slider's line.
    pub xrayed: [u32; 8],
}

/// For each square (C.C.R. index), the boards of its two diagonals, `0xF` on each of their
/// squares: `[0]` the line of the rays toward a8 and h1, `[1]` toward h8 and a1.
static DIAGONALS: [[[u32; 8]; 2]; 64] = {
    let mut lines = [[[0; 8]; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (word, file) = ((sq / 8) as isize, (sq % 8) as isize);
        // Nibble `file` of word `word`; one file toward a is one nibble up.
        let mut i = 0;
        while i < 8 {
            let up = file + (word - i);
            if 0 <= up && up < 8 {
                lines[sq][0][i as usize] = 0xF << (4 * up);
            }
            let down = file - (word - i);
            if 0 <= down && down < 8 {
                lines[sq][1][i as usize] = 0xF << (4 * down);
            }
            i += 1;
        }
        sq += 1;
    }
    lines
};

/// The low bit of each nibble of `by`'s rooks and queens (which move along ranks and
/// files) and of its bishops and queens (along diagonals), in the board's geometry.
///
/// Worked two rank words at a time (the board as four `u64`s): the compiler does not
/// vectorise this loop, and on x86_64 the wide words halve it.
#[inline(always)]
fn line_sliders(board: &Ccr, by: Colour) -> ([u32; 8], [u32; 8]) {
    const LOW: u64 = NIBBLE_LOW_BITS as u64 * 0x1_0000_0001;
    let (mut straight, mut diagonal) = ([0u64; 4], [0u64; 4]);
    let colour = match by {
        Colour::White => 0,
        Colour::Black => u64::MAX,
    };
    for ((s, d), &w) in straight.iter_mut().zip(&mut diagonal).zip(board.as_u64s()) {
        // Type bits 210: bishop 011, rook 100, queen 101; bit 3 is the colour.
        let ours = !((w >> 3) ^ colour) & LOW;
        *s = (w >> 2) & !(w >> 1) & ours;
        *d = w & ((w >> 1) ^ (w >> 2)) & ours;
    }
    (bytemuck::cast(straight), bytemuck::cast(diagonal))
}

/// Whether any square of `sliders` lies on `line` (both in the board's geometry).
#[inline(always)]
fn meets(sliders: &[u32; 8], line: &[u32; 8]) -> bool {
    // By value: the arrays need not be 8-byte aligned.
    let (sliders, line): ([u64; 4], [u64; 4]) = (bytemuck::cast(*sliders), bytemuck::cast(*line));
    sliders
        .iter()
        .zip(&line)
        .fold(0, |any, (&s, &l)| any | (s & l))
        != 0
}

/// The pieces pinned to the king of `us` at `king` and the checks along its lines: all of
/// [`KingDanger`] that needs no attack table, so that a count can leave the pinned pieces
/// out of the fills that build the table. [`KingDanger::complete`] adds the rest once the
/// table says whether the king is in check.
///
/// A checker or a pinner is an enemy slider on one of the king's four lines: a line with
/// none (found for all eight rays in one pass over the rank words) is not walked.
pub(crate) fn king_lines(board: &Ccr, king: Square, us: Colour) -> KingDanger {
    let them = us.flip();
    let (word, mask) = (king.word(), king.mask());
    let mut danger = KingDanger {
        checkers: 0,
        evasions: [0; 8],
        pinned: [0; 8],
        xrayed: [0; 8],
    };
    let (straight, diagonal) = line_sliders(board, them);
    let file = [mask; 8];
    let [toward_a8, toward_h8] = &DIAGONALS[king.index()];
    macro_rules! ray {
        ($dw:literal, $df:literal, $line:expr) => {{
            let (w, m) = first_piece::<$dw, $df>(board, word, mask);
            if m != 0 {
                let code = code_at(board, w, m);
                if code & 8 == us.code_bit() {
                    // Our piece: pinned if the next piece behind it is an enemy slider.
                    let (w2, m2) = first_piece::<$dw, $df>(board, w, m);
                    if m2 != 0 && slides_along(code_at(board, w2, m2), them, $line) {
                        danger.pinned[w] |= m;
                    }
                } else if slides_along(code, them, $line) {
                    danger.checkers += 1;
                    mark_ray::<$dw, $df>(&mut danger.evasions, (word, mask), (w, m));
                    // One step from the king away from the checker.
                    let (bw, bm) = (word.wrapping_add_signed(-$dw), back::<$df>(mask));
                    if let Some(xrayed) = danger.xrayed.get_mut(bw) {
                        *xrayed |= bm;
                    }
                }
            }
        }};
    }
    let (b, r) = (PieceType::Bishop, PieceType::Rook);
    if meets(&diagonal, toward_a8) {
        ray!(-1, -1, b);
        ray!(1, 1, b);
    }
    if meets(&diagonal, toward_h8) {
        ray!(-1, 1, b);
        ray!(1, -1, b);
    }
    if meets(&straight, &file) {
        ray!(-1, 0, r);
        ray!(1, 0, r);
    }
    if straight[word] != 0 {
        ray!(0, -1, r);
        ray!(0, 1, r);
    }
    danger
}

impl KingDanger {
    /// Completes [`king_lines`]' danger of the king of `us` at `king`: in check, with the
    /// knights and pawns that give it; out of check, with every square open to the pieces.
    #[inline(always)]
    pub(crate) fn complete(&mut self, board: &Ccr, king: Square, us: Colour, in_check: bool) {
        if !in_check {
            self.evasions = [u32::MAX; 8];
            return;
        }
        // Every hit is a checker (the enemy king never gives check).
        let (word, mask) = (king.word(), king.mask());
        for dw in [-2isize, -1, 1, 2] {
            let w = word.wrapping_add_signed(dw);
            if let Some(&rank_word) = board.0.get(w) {
                let hits = leapers_in_word(rank_word, mask, us.flip(), dw);
                self.checkers += count_nibbles(hits & NIBBLE_LOW_BITS);
                self.evasions[w] |= hits;
            }
        }
    }
}

/// The knights and pawns of `by` in `rank_word`, `dw` words away from `mask`'s square,
/// that attack that square.
#[inline(always)]
fn leapers_in_word(rank_word: u32, mask: u32, by: Colour, dw: isize) -> u32 {
    let knight = nibbles_equal(rank_word, PieceCode::new(by, PieceType::Knight).code());
    let pawn = nibbles_equal(rank_word, PieceCode::new(by, PieceType::Pawn).code());
    let pawn_word = if by == Colour::White { 1 } else { -1 };
    let knight_targets = match dw {
        -2 | 2 => sideways(mask, 1),
        -1 | 1 => sideways(mask, 2),
        _ => 0,
    };
    let pawn_targets = if dw == pawn_word {
        sideways(mask, 1)
    } else {
        0
    };
    (knight & knight_targets) | (pawn & pawn_targets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ccr::Position;
    use crate::ccr::attacks::attacks_of;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    /// The squares a ray walk reaches from `sq`, both ways along one line.
    fn walked<const DW: isize, const DF: i32>(sq: Square) -> [u32; 8] {
        let mut line = [0; 8];
        line[sq.word()] |= sq.mask();
        let (mut w, mut m) = step::<DW, DF>(sq.word(), sq.mask());
        while on_board(w, m) {
            line[w] |= m;
            (w, m) = step::<DW, DF>(w, m);
        }
        line
    }

    #[test]
    fn the_diagonal_boards_are_the_ray_walks() {
        for i in 0..64 {
            let s = Square::new(i);
            let or = |a: [u32; 8], b: [u32; 8]| std::array::from_fn::<u32, 8, _>(|w| a[w] | b[w]);
            let a8_h1 = or(walked::<-1, -1>(s), walked::<1, 1>(s));
            let h8_a1 = or(walked::<-1, 1>(s), walked::<1, -1>(s));
            assert_eq!(DIAGONALS[s.index()], [a8_h1, h8_a1], "{s}");
        }
    }

    #[test]
    fn line_sliders_are_the_rooks_bishops_and_queens_of_one_colour() {
        let p = Position::from_fen("r1bqk2r/8/8/8/8/8/8/RN1QKB1R w KQkq - 0 1").unwrap();
        let low = |names: &[&str]| {
            let mut board = [0; 8];
            for name in names {
                let s = sq(name);
                board[s.word()] |= s.mask() & NIBBLE_LOW_BITS;
            }
            board
        };
        assert_eq!(
            line_sliders(&p.board, Colour::White),
            (low(&["a1", "d1", "h1"]), low(&["d1", "f1"]))
        );
        assert_eq!(
            line_sliders(&p.board, Colour::Black),
            (low(&["a8", "d8", "h8"]), low(&["c8", "d8"]))
        );
    }

    #[test]
    fn the_single_square_test_agrees_with_the_attack_table() {
        let p = Position::from_fen(crate::positions::KIWIPETE).unwrap();
        for by in [Colour::White, Colour::Black] {
            let table = attacks_of(&p.board, by);
            for i in 0..64 {
                let s = Square::new(i);
                assert_eq!(
                    table[s.word()] & s.mask() != 0,
                    is_attacked(&p.board, s, by),
                    "{s} by {by:?}"
                );
            }
        }
    }

    /// `gives_check` for the move `uci` in `fen`, asserted equal to making it and looking.
    fn gives(fen: &str, uci: &str) -> bool {
        let p = Position::from_fen(fen).unwrap();
        let mv = p.parse_uci_move(uci).unwrap();
        let answer = p.gives_check(mv);
        assert_eq!(answer, p.make(mv).in_check(), "{fen} {uci}");
        answer
    }

    #[test]
    fn gives_check_sees_the_special_cases() {
        // A pawn push uncovers the bishop on b1 toward h7; the king's step does not.
        let fen = "8/7k/8/8/8/3P4/8/KB6 w - - 0 1";
        assert!(gives(fen, "d3d4"));
        assert!(!gives(fen, "a1a2"));
        // En passant empties d5 and e5 on the rook's rank.
        assert!(gives("8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 1", "e5d6"));
        // En passant empties d5, the taken pawn's square, on the bishop's diagonal b3-g8.
        let fen = "6k1/8/8/3pP3/8/1B6/8/4K3 w - d6 0 1";
        assert!(gives(fen, "e5d6"));
        assert!(!gives(fen, "e5e6"));
        // Castling: the rook checks from f1; the rook on d1 checks through the king's
        // emptied e1.
        assert!(gives("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"));
        assert!(gives("8/8/8/8/8/8/8/R3K2k w Q - 0 1", "e1c1"));
        assert!(!gives("8/8/8/8/8/8/8/R3K1Nk w Q - 0 1", "e1c1"));
        // Promotion: the knight checks g7 where the queen would not.
        let fen = "8/4P1k1/8/8/8/8/8/K7 w - - 0 1";
        assert!(gives(fen, "e7e8n"));
        assert!(!gives(fen, "e7e8q"));
        // Underpromotion: the queen and the bishop check a4, the rook and the knight do not.
        let fen = "8/4P3/8/8/k7/8/8/7K w - - 0 1";
        assert!(gives(fen, "e7e8q"));
        assert!(gives(fen, "e7e8b"));
        assert!(!gives(fen, "e7e8r"));
        assert!(!gives(fen, "e7e8n"));
        // The promoted rook checks down the file the pawn has just left.
        let fen = "8/4P3/8/8/8/8/8/K3k3 w - - 0 1";
        assert!(gives(fen, "e7e8r"));
        assert!(!gives(fen, "e7e8b"));
        // Black's pawns attack toward rank 1: d4-d3 checks the king on e2, d4-d3 with the
        // king on e4 behind it does not.
        assert!(gives("3r4/8/8/8/3p4/8/4K3/k7 b - - 0 1", "d4d3"));
        assert!(!gives("3r4/8/8/8/3pK3/8/8/k7 b - - 0 1", "d4d3"));
    }

    #[test]
    fn finds_checkers_and_pins() {
        // Black king e8: checked by the knight on d6 and the rook on e1 through e2..e7;
        // the pawn on f7 is pinned by the bishop on h5.
        let p = Position::from_fen("4k3/5p2/3N4/7B/8/8/8/K3R3 b - - 0 1").unwrap();
        let mut d = king_lines(&p.board, sq("e8"), Colour::Black);
        d.complete(&p.board, sq("e8"), Colour::Black, true);
        assert_eq!(d.checkers, 2);
        let mut expected = [0u32; 8];
        for s in ["d6", "e1", "e2", "e3", "e4", "e5", "e6", "e7"].map(sq) {
            expected[s.word()] |= s.mask();
        }
        assert_eq!(d.evasions, expected);
        let f7 = sq("f7");
        let mut pinned = [0; 8];
        pinned[f7.word()] = f7.mask();
        assert_eq!(d.pinned, pinned);
        // Not in check: every square is open, the pin is still found.
        let p = Position::from_fen("4k3/5p2/8/7B/8/8/8/K7 b - - 0 1").unwrap();
        let mut d = king_lines(&p.board, sq("e8"), Colour::Black);
        d.complete(&p.board, sq("e8"), Colour::Black, false);
        assert_eq!(
            (d.checkers, d.evasions, d.pinned),
            (0, [u32::MAX; 8], pinned)
        );
    }
}
