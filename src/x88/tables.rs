//! The 0x88 difference tables and the square conversions.
//!
//! For two on-board squares `from` and `to`, `to - from` lies in −0x77..=0x77 and names
//! the rank and file distance uniquely (the bit gaps keep the rows from overlapping), so
//! `to - from + 0x77` indexes a 240-entry table: [`ATTACKS`] says which piece kinds on
//! `from` could attack `to` on an empty board, [`DELTAS`] the step that walks from `from`
//! to `to` along a queen line (0 if they share none). A slider's attack then needs only the
//! squares between to be empty, found by walking that step.

use crate::types::Square;

/// Attack flag: a white pawn on `from` attacks `to`.
pub(crate) const WHITE_PAWN: u8 = 1;
/// Attack flag: a black pawn on `from` attacks `to`.
pub(crate) const BLACK_PAWN: u8 = 2;
/// Attack flag: a knight attacks along the difference.
pub(crate) const KNIGHT: u8 = 4;
/// Attack flag: a bishop attacks along the difference if the squares between are empty.
pub(crate) const BISHOP: u8 = 8;
/// Attack flag: a rook attacks along the difference if the squares between are empty.
pub(crate) const ROOK: u8 = 16;
/// Attack flag: a king attacks along the difference.
pub(crate) const KING: u8 = 32;
/// The flags whose hits need the squares between checked (the queen carries both).
pub(crate) const SLIDERS: u8 = BISHOP | ROOK;

/// The attack flags of each piece code, so one AND with [`ATTACKS`] answers "can this
/// piece attack along this difference" without a branch on the piece kind.
pub(crate) const CODE_FLAGS: [u8; 16] = [
    0,
    WHITE_PAWN,
    KNIGHT,
    BISHOP,
    ROOK,
    BISHOP | ROOK,
    KING,
    0,
    0,
    BLACK_PAWN,
    KNIGHT,
    BISHOP,
    ROOK,
    BISHOP | ROOK,
    KING,
    0,
];

/// The knight's eight leaps.
pub(crate) const KNIGHT_STEPS: [i8; 8] = [-33, -31, -18, -14, 14, 18, 31, 33];
/// The bishop's four directions.
pub(crate) const BISHOP_DIRS: [i8; 4] = [-17, -15, 15, 17];
/// The rook's four directions.
pub(crate) const ROOK_DIRS: [i8; 4] = [-16, -1, 1, 16];
/// The king's (and queen's) eight directions.
pub(crate) const KING_DIRS: [i8; 8] = [-17, -16, -15, -1, 1, 15, 16, 17];

/// The table index of the difference `to - from`.
#[inline(always)]
pub(crate) const fn diff(from: u8, to: u8) -> usize {
    // The masks change no on-board square and bound the index by 0xEE for the compiler.
    (to & 0x77) as usize + 0x77 - (from & 0x77) as usize
}

/// Which piece kinds on `from` attack `to` on an empty board, indexed by [`diff`].
pub(crate) static ATTACKS: [u8; 240] = build_attacks();

/// The step from `from` toward `to` along a rank, file or diagonal, or 0, indexed by [`diff`].
pub(crate) static DELTAS: [i8; 240] = build_deltas();

const fn build_attacks() -> [u8; 240] {
    let mut t = [0u8; 240];
    let mut i = 0;
    while i < 4 {
        let (b, r) = (BISHOP_DIRS[i] as isize, ROOK_DIRS[i] as isize);
        t[(0x77 + b) as usize] |= KING;
        t[(0x77 + r) as usize] |= KING;
        let mut k = 1;
        while k < 8 {
            t[(0x77 + k * b) as usize] |= BISHOP;
            t[(0x77 + k * r) as usize] |= ROOK;
            k += 1;
        }
        i += 1;
    }
    i = 0;
    while i < 8 {
        t[(0x77 + KNIGHT_STEPS[i] as isize) as usize] |= KNIGHT;
        i += 1;
    }
    t[0x77 + 15] |= WHITE_PAWN;
    t[0x77 + 17] |= WHITE_PAWN;
    t[0x77 - 15] |= BLACK_PAWN;
    t[0x77 - 17] |= BLACK_PAWN;
    t
}

const fn build_deltas() -> [i8; 240] {
    let mut t = [0i8; 240];
    let mut i = 0;
    while i < 8 {
        let d = KING_DIRS[i];
        let mut k = 1;
        while k < 8 {
            t[(0x77 + k * d as isize) as usize] = d;
            k += 1;
        }
        i += 1;
    }
    t
}

/// The C.C.R.-order [`Square`] of each 0x88 square (off-board entries are never read), so
/// a move is packed with one load per square.
pub(crate) static SQUARE_OF: [Square; 128] = {
    let mut t = [Square::new(0); 128];
    let mut sq = 0;
    while sq < 128 {
        if sq & 0x88 == 0 {
            t[sq] = Square::from_file_rank((sq & 7) as u8, (sq >> 4) as u8);
        }
        sq += 1;
    }
    t
};

/// The 0x88 square of each C.C.R.-order square index.
pub(crate) static X88_OF: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        let s = Square::new(i as u8);
        t[i] = 16 * s.rank() + s.file();
        i += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The 0x88 square of algebraic text.
    fn sq(text: &str) -> u8 {
        X88_OF[Square::parse(text).unwrap().index()]
    }

    #[test]
    fn knight_differences() {
        // g1 to f3 and e2 are knight leaps; g1 to g3 is not.
        assert_eq!(ATTACKS[diff(sq("g1"), sq("f3"))], KNIGHT);
        assert_eq!(ATTACKS[diff(sq("g1"), sq("e2"))], KNIGHT);
        assert_eq!(ATTACKS[diff(sq("g1"), sq("g3"))] & KNIGHT, 0);
        assert_eq!(DELTAS[diff(sq("g1"), sq("f3"))], 0);
        let leaps = (0..240).filter(|&i| ATTACKS[i] & KNIGHT != 0).count();
        assert_eq!(leaps, 8);
    }

    #[test]
    fn rook_and_bishop_rays() {
        let (a1, a8, h1, h8) = (sq("a1"), sq("a8"), sq("h1"), sq("h8"));
        assert_eq!(ATTACKS[diff(a1, a8)], ROOK);
        assert_eq!(DELTAS[diff(a1, a8)], 16);
        assert_eq!(DELTAS[diff(a8, a1)], -16);
        assert_eq!(ATTACKS[diff(h1, a1)], ROOK);
        assert_eq!(DELTAS[diff(h1, a1)], -1);
        assert_eq!(ATTACKS[diff(a1, h8)], BISHOP);
        assert_eq!(DELTAS[diff(a1, h8)], 17);
        assert_eq!(DELTAS[diff(h1, a8)], 15);
        // One step away the king shares the line.
        assert_eq!(ATTACKS[diff(sq("e4"), sq("e5"))], ROOK | KING);
        // Not a line: no flags, no step.
        assert_eq!(ATTACKS[diff(a1, sq("b3"))], KNIGHT);
        assert_eq!(ATTACKS[diff(a1, sq("c4"))], 0);
        assert_eq!(DELTAS[diff(a1, sq("c4"))], 0);
    }

    #[test]
    fn pawn_captures_by_colour() {
        let e4 = sq("e4");
        assert_eq!(ATTACKS[diff(e4, sq("d5"))], BISHOP | KING | WHITE_PAWN);
        assert_eq!(ATTACKS[diff(e4, sq("f5"))], BISHOP | KING | WHITE_PAWN);
        assert_eq!(ATTACKS[diff(e4, sq("d3"))], BISHOP | KING | BLACK_PAWN);
        assert_eq!(ATTACKS[diff(e4, sq("f3"))], BISHOP | KING | BLACK_PAWN);
        // A pawn does not attack straight ahead.
        assert_eq!(ATTACKS[diff(e4, sq("e5"))] & (WHITE_PAWN | BLACK_PAWN), 0);
        assert_eq!(CODE_FLAGS[1], WHITE_PAWN);
        assert_eq!(CODE_FLAGS[9], BLACK_PAWN);
    }

    #[test]
    fn square_conversions_round_trip() {
        for i in 0..64u8 {
            let s = Square::new(i);
            let x = X88_OF[s.index()];
            assert_eq!(x & 0x88, 0);
            assert_eq!((x & 7, x >> 4), (s.file(), s.rank()));
            assert_eq!(SQUARE_OF[x as usize], s);
        }
        assert_eq!(sq("a1"), 0x00);
        assert_eq!(sq("h8"), 0x77);
    }
}
