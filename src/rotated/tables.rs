//! The four layouts of the occupancy and the tables that read them, all `const`.
//!
//! A layout puts the squares of each line (rank, file or diagonal) on consecutive bits, so
//! the occupied state of the line a square stands on is one shift and one mask of the
//! board kept in that layout:
//!
//! - [`RANKS`], the normal board: C.C.R. order, each rank a byte (bit `i` = square `i`).
//! - [`FILES`], rotated 90°: each file a byte, file a in bits 0-7 (rank 8 first), file h in
//!   bits 56-63, so bit `8 * file + (7 - rank)` is (file, rank).
//! - [`A1H8`], rotated 45°: the fifteen a1-h8 diagonals packed one after the other, from
//!   the one-square diagonal a8 (bits 0) over the long a1-h8 (bits 28-35) to h1 (bit 63),
//!   each from its lowest rank up.
//! - [`A8H1`], rotated 315°: the fifteen a8-h1 diagonals packed the same way, from a1
//!   (bit 0) over the long a8-h1 (bits 28-35) to h8 (bit 63), each from file a on.
//!
//! A diagonal's length and first bit vary, so each square has its own shift
//! ([`DIAGONAL_SHIFT`]). The shift brings the line's inner squares (all but its two ends,
//! whose occupancy never changes what a slider reaches) to bits 0-5, and the attacks are
//! looked up by those six bits: `ATTACKS[layout][square][state]`, 64 × 64 entries per
//! direction. On a line shorter than eight squares the top bits of the six belong to the
//! next line; the table entries do not depend on them, so no per-square mask is needed.
//!
//! The tables are `const` (evaluated by the compiler, 128 KiB of attack sets in the binary)
//! rather than filled at start: a lookup then reads a static with no first-use test per
//! node, and there is nothing to initialise before the first generation.

use crate::bitboard::tables::square;

/// The normal layout: ranks contiguous.
pub(crate) const RANKS: usize = 0;
/// Rotated 90°: files contiguous.
pub(crate) const FILES: usize = 1;
/// Rotated 45°: a1-h8 diagonals contiguous.
pub(crate) const A1H8: usize = 2;
/// Rotated 315°: a8-h1 diagonals contiguous.
pub(crate) const A8H1: usize = 3;

/// The file (0 = a) of a C.C.R. index.
const fn file_of(sq: usize) -> i32 {
    7 - (sq & 7) as i32
}

/// The rank (0 = rank 1) of a C.C.R. index.
const fn rank_of(sq: usize) -> i32 {
    7 - (sq >> 3) as i32
}

/// The number of squares of diagonal `d` (0 … 14) of either direction.
const fn diagonal_length(d: i32) -> i32 {
    8 - if d > 7 { d - 7 } else { 7 - d }
}

/// The first bit of diagonal `d` in a packed layout: the squares of the diagonals before it.
const fn diagonal_start(d: i32) -> i32 {
    let (mut start, mut i) = (0, 0);
    while i < d {
        start += diagonal_length(i);
        i += 1;
    }
    start
}

/// Where a square sits in a layout.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Place {
    /// The bit of the first square of its line.
    pub start: u32,
    /// The number of squares of its line.
    pub length: u32,
    /// Its position along the line (0 = the line's first square).
    pub position: u32,
}

impl Place {
    /// The square's bit in the layout.
    pub(crate) const fn bit(self) -> u32 {
        self.start + self.position
    }
}

/// Where `sq` (C.C.R. index) sits in `layout`.
pub(crate) const fn place(layout: usize, sq: usize) -> Place {
    let (file, rank) = (file_of(sq), rank_of(sq));
    let (start, length, position) = match layout {
        RANKS => ((sq & !7) as i32, 8, (sq & 7) as i32),
        FILES => (8 * file, 8, 7 - rank),
        A1H8 => {
            // Numbered from a8 (file − rank = −7) to h1 (+7); positions count ranks upward.
            let d = file - rank + 7;
            let position = if file < rank { file } else { rank };
            (diagonal_start(d), diagonal_length(d), position)
        }
        _ => {
            // Numbered from a1 (file + rank = 0) to h8 (14); positions count files from a.
            let d = file + rank;
            let first_file = if d > 7 { d - 7 } else { 0 };
            (diagonal_start(d), diagonal_length(d), file - first_file)
        }
    };
    Place {
        start: start as u32,
        length: length as u32,
        position: position as u32,
    }
}

/// The square (C.C.R. index) at `position` along the line `sq` stands on in `layout`.
pub(crate) const fn square_on_line(layout: usize, sq: usize, position: i32) -> usize {
    let (file, rank) = (file_of(sq), rank_of(sq));
    let (f, r) = match layout {
        RANKS => (7 - position, rank),
        FILES => (file, 7 - position),
        A1H8 => {
            let d = file - rank;
            if d >= 0 {
                (position + d, position)
            } else {
                (position, position - d)
            }
        }
        _ => {
            let d = file + rank;
            let f = position + if d > 7 { d - 7 } else { 0 };
            (f, d - f)
        }
    };
    match square(f, r) {
        Some(to) => to,
        None => panic!("a position off its line"),
    }
}

/// Whether position `k` of a line of `length` squares stops a slider under `state`: only
/// the inner squares are read from the state, the ends stop it anyway.
const fn blocks(state: usize, length: i32, k: i32) -> bool {
    k >= 1 && k <= length - 2 && state >> (k - 1) & 1 != 0
}

/// The squares a slider on `sq` reaches along its line in `layout` when the line's inner
/// squares are occupied as `state` says (bit `j` = position `j + 1`; bits past the line's
/// inner squares are ignored).
pub(crate) const fn line_attacks(layout: usize, sq: usize, state: usize) -> u64 {
    let p = place(layout, sq);
    let (length, from) = (p.length as i32, p.position as i32);
    let mut attacks = 0;
    let mut k = from + 1;
    while k < length {
        attacks |= 1 << square_on_line(layout, sq, k);
        if blocks(state, length, k) {
            break;
        }
        k += 1;
    }
    k = from - 1;
    while k >= 0 {
        attacks |= 1 << square_on_line(layout, sq, k);
        if blocks(state, length, k) {
            break;
        }
        k -= 1;
    }
    attacks
}

/// The attack table of one layout: `[square][six-bit state]`.
const fn attack_table(layout: usize) -> [[u64; 64]; 64] {
    let mut table = [[0; 64]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut state = 0;
        while state < 64 {
            table[sq][state] = line_attacks(layout, sq, state);
            state += 1;
        }
        sq += 1;
    }
    table
}

/// Rank attacks by the state of the rank in the normal board.
pub(crate) static RANK_ATTACKS: [[u64; 64]; 64] = attack_table(RANKS);
/// File attacks by the state of the file in the 90° board.
pub(crate) static FILE_ATTACKS: [[u64; 64]; 64] = attack_table(FILES);
/// a1-h8 diagonal attacks by the state of the diagonal in the 45° board.
pub(crate) static A1H8_ATTACKS: [[u64; 64]; 64] = attack_table(A1H8);
/// a8-h1 diagonal attacks by the state of the diagonal in the 315° board.
pub(crate) static A8H1_ATTACKS: [[u64; 64]; 64] = attack_table(A8H1);

/// Each square's bit in each layout, `SQUARE_BITS[sq][layout]`: what make XORs into the
/// four boards when a square fills or empties.
pub(crate) static SQUARE_BITS: [[u64; 4]; 64] = {
    let mut bits = [[0; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut layout = 0;
        while layout < 4 {
            bits[sq][layout] = 1 << place(layout, sq).bit();
            layout += 1;
        }
        sq += 1;
    }
    bits
};

/// The shift that brings the inner squares of a square's diagonal to bits 0-5 in the 45°
/// (`[0]`) and 315° (`[1]`) boards. A diagonal of one or two squares has no inner square;
/// its shift is 0 (its attacks do not depend on the state, and the last diagonal's start
/// plus one would be a shift by 64).
pub(crate) static DIAGONAL_SHIFT: [[u8; 64]; 2] = {
    let mut shifts = [[0; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < 2 {
            let p = place(A1H8 + i, sq);
            if p.length >= 3 {
                shifts[i][sq] = (p.start + 1) as u8;
            }
            i += 1;
        }
        sq += 1;
    }
    shifts
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layout_is_a_bijection_with_contiguous_lines() {
        for layout in [RANKS, FILES, A1H8, A8H1] {
            let mut seen = 0u64;
            for (sq, bits) in SQUARE_BITS.iter().enumerate() {
                let p = place(layout, sq);
                assert!(p.position < p.length && p.bit() < 64, "{layout} {sq} {p:?}");
                assert_eq!(
                    seen >> p.bit() & 1,
                    0,
                    "layout {layout}: bit {} twice",
                    p.bit()
                );
                seen |= 1 << p.bit();
                assert_eq!(bits[layout], 1 << p.bit());
                // Every square of the line has the line's start and length, and the square
                // at its position is itself.
                assert_eq!(square_on_line(layout, sq, p.position as i32), sq);
                for k in 0..p.length as i32 {
                    let other = place(layout, square_on_line(layout, sq, k));
                    assert_eq!((other.start, other.length), (p.start, p.length));
                    assert_eq!(other.position, k as u32);
                }
            }
            assert_eq!(seen, !0, "layout {layout}");
        }
        // The normal layout is the C.C.R. order itself; the long diagonals sit in the middle.
        assert!((0..64).all(|sq| place(RANKS, sq).bit() == sq as u32));
        let a1 = square(0, 0).unwrap_or(64);
        assert_eq!(
            place(A1H8, a1),
            Place {
                start: 28,
                length: 8,
                position: 0
            }
        );
        let a8 = square(0, 7).unwrap_or(64);
        assert_eq!(
            place(A8H1, a8),
            Place {
                start: 28,
                length: 8,
                position: 0
            }
        );
    }
}
