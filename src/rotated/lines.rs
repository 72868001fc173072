//! The occupancy kept four ways ([`Occupancy`]) and the slider lookups on it.

use crate::bitboard::movegen::SliderLines;
use crate::rotated::tables::{
    A1H8, A1H8_ATTACKS, A8H1, A8H1_ATTACKS, DIAGONAL_SHIFT, FILE_ATTACKS, FILES, RANK_ATTACKS,
    RANKS, SQUARE_BITS, place,
};

/// The occupied squares in the four layouts of [`crate::rotated::tables`]: ranks, files,
/// a1-h8 and a8-h1 diagonals contiguous. Each board holds the same squares; only the bit
/// each square has differs.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Occupancy {
    /// The normal board (C.C.R. order): rank attacks read it.
    pub ranks: u64,
    /// Rotated 90°: file attacks read it.
    pub files: u64,
    /// Rotated 45°: a1-h8 diagonal attacks read it.
    pub a1h8: u64,
    /// Rotated 315°: a8-h1 diagonal attacks read it.
    pub a8h1: u64,
}

impl Occupancy {
    /// The four boards of `occupied` (C.C.R. order), rotated square by square: for building a
    /// position and checking one, never in make.
    pub fn of(occupied: u64) -> Occupancy {
        let mut rotated = [0u64; 4];
        for sq in (0..64).filter(|sq| occupied >> sq & 1 != 0) {
            for (layout, board) in rotated.iter_mut().enumerate() {
                *board |= 1 << place(layout, sq).bit();
            }
        }
        Occupancy {
            ranks: rotated[RANKS],
            files: rotated[FILES],
            a1h8: rotated[A1H8],
            a8h1: rotated[A8H1],
        }
    }

    /// The squares a rook on `sq` reaches along its rank, from the normal board.
    #[inline(always)]
    pub fn rank_attacks(&self, sq: usize) -> u64 {
        let sq = sq & 63;
        RANK_ATTACKS[sq][(self.ranks >> ((sq & !7) + 1)) as usize & 63]
    }

    /// The squares a rook on `sq` reaches along its file, from the 90° board.
    #[inline(always)]
    pub fn file_attacks(&self, sq: usize) -> u64 {
        let sq = sq & 63;
        FILE_ATTACKS[sq][(self.files >> (57 - 8 * (sq & 7))) as usize & 63]
    }

    /// The squares a bishop on `sq` reaches along its a1-h8 diagonal, from the 45° board.
    #[inline(always)]
    pub fn a1h8_attacks(&self, sq: usize) -> u64 {
        let sq = sq & 63;
        A1H8_ATTACKS[sq][(self.a1h8 >> DIAGONAL_SHIFT[0][sq]) as usize & 63]
    }

    /// The squares a bishop on `sq` reaches along its a8-h1 diagonal, from the 315° board.
    #[inline(always)]
    pub fn a8h1_attacks(&self, sq: usize) -> u64 {
        let sq = sq & 63;
        A8H1_ATTACKS[sq][(self.a8h1 >> DIAGONAL_SHIFT[1][sq]) as usize & 63]
    }
}

impl SliderLines for Occupancy {
    #[inline(always)]
    fn rook(&self, sq: usize) -> u64 {
        self.rank_attacks(sq) | self.file_attacks(sq)
    }

    #[inline(always)]
    fn bishop(&self, sq: usize) -> u64 {
        self.a1h8_attacks(sq) | self.a8h1_attacks(sq)
    }

    #[inline(always)]
    fn toggle(self, sq: usize) -> Occupancy {
        let bits = &SQUARE_BITS[sq & 63];
        Occupancy {
            ranks: self.ranks ^ bits[RANKS],
            files: self.files ^ bits[FILES],
            a1h8: self.a1h8 ^ bits[A1H8],
            a8h1: self.a8h1 ^ bits[A8H1],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::tables::{BISHOP_DIRECTIONS, ROOK_DIRECTIONS, ray_attacks};

    /// A splitmix64 stream.
    fn random(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let z = (*state ^ *state >> 30).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        let z = (z ^ z >> 27).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ z >> 31
    }

    #[test]
    fn lookups_equal_a_ray_walk() {
        let mut state = 0x0123_4567_89AB_CDEF;
        for round in 0..4000 {
            // Sparse, dense and even occupancies.
            let occupied = match round % 3 {
                0 => random(&mut state) & random(&mut state),
                1 => random(&mut state) | random(&mut state),
                _ => random(&mut state),
            };
            let lines = Occupancy::of(occupied);
            for sq in 0..64 {
                assert_eq!(
                    lines.rook(sq),
                    ray_attacks(sq, occupied, &ROOK_DIRECTIONS),
                    "rook {sq} {occupied:#x}"
                );
                assert_eq!(
                    lines.bishop(sq),
                    ray_attacks(sq, occupied, &BISHOP_DIRECTIONS),
                    "bishop {sq} {occupied:#x}"
                );
            }
        }
        for sq in 0..64 {
            let empty = Occupancy::of(0);
            assert_eq!(empty.rook(sq), ray_attacks(sq, 0, &ROOK_DIRECTIONS));
            assert_eq!(empty.bishop(sq), ray_attacks(sq, 0, &BISHOP_DIRECTIONS));
        }
    }

    #[test]
    fn toggling_equals_rotating_the_toggled_board() {
        let mut state = 0x5EED;
        for _ in 0..500 {
            let occupied = random(&mut state);
            let mut lines = Occupancy::of(occupied);
            let mut expected = occupied;
            for _ in 0..8 {
                let sq = (random(&mut state) % 64) as usize;
                lines = lines.toggle(sq);
                expected ^= 1 << sq;
                assert_eq!(lines, Occupancy::of(expected));
            }
        }
    }
}
