//! The Zobrist baseline the engine's key is measured against: one random number per (square,
//! piece code), per castling right and per en-passant file, and one for the side to move,
//! drawn from xoshiro256++ with a fixed seed. It keys anything [`Keyed`]: the crate's
//! [`Identity`] (the engine-neutral description of a position), or an engine's own position
//! type read in place, so the baseline's cost is that of its table lookups and not of
//! building a description per call. Any engine on rank words of 4-bit piece codes gets the
//! same keys for the same positions.
//!
//! The tables are drawn in this order, and the keys depend on it: for each square in rank-word
//! order (index `8 * word + nibble`: word 0 is rank 8, nibble 0 is file h), one number for each
//! piece code 1 to 15 (code 0, the empty square, keys to 0); then the side to move; then the
//! four castling rights, bit 0 first; then the eight en-passant files, a first.

use std::sync::OnceLock;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};

use crate::sampling::Identity;

/// What a Zobrist key is a function of: the rank words and the keyed state.
pub trait Keyed {
    /// Rank word `index` (0 is rank 8).
    fn rank_word(&self, index: usize) -> u32;
    /// Whether Black is to move.
    fn black_to_move(&self) -> bool;
    /// The castling rights, four bits.
    fn castling(&self) -> u8;
    /// The file (0 = a) of the en-passant square, where a legal capture makes it part of the
    /// key.
    fn en_passant_file(&self) -> Option<u8>;
}

impl Identity {
    /// The identity of anything keyed: its rank words and keyed state.
    pub fn of<P: Keyed>(pos: &P) -> Identity {
        Identity::new(
            std::array::from_fn(|index| pos.rank_word(index)),
            pos.black_to_move(),
            pos.castling(),
            pos.en_passant_file(),
        )
    }
}

impl Keyed for Identity {
    fn rank_word(&self, index: usize) -> u32 {
        Identity::ranks(self)[index]
    }

    fn black_to_move(&self) -> bool {
        Identity::black_to_move(self)
    }

    fn castling(&self) -> u8 {
        Identity::castling(self)
    }

    fn en_passant_file(&self) -> Option<u8> {
        Identity::en_passant_file(self)
    }
}

/// The seed of the Zobrist tables.
pub const ZOBRIST_SEED: u64 = 0x00CC_2012_0265_0284;

/// The Zobrist tables: the numbers of the squares by piece code, of the side to move, of the
/// castling rights (one XOR of the rights' numbers for each set of rights) and of the
/// en-passant files.
pub struct Zobrist {
    squares: [[u64; 16]; 64],
    side: u64,
    castling: [u64; 16],
    en_passant: [u64; 8],
}

impl Zobrist {
    /// The tables, drawn once.
    pub fn get() -> &'static Zobrist {
        static TABLES: OnceLock<Zobrist> = OnceLock::new();
        TABLES.get_or_init(|| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(ZOBRIST_SEED);
            let mut squares = [[0; 16]; 64];
            for codes in squares.iter_mut() {
                // Code 0 (empty) keys to 0, so only occupied squares count.
                for number in codes.iter_mut().skip(1) {
                    *number = rng.next_u64();
                }
            }
            let side = rng.next_u64();
            let rights: [u64; 4] = std::array::from_fn(|_| rng.next_u64());
            let castling = std::array::from_fn(|r| {
                (0..4)
                    .filter(|bit| r & (1 << bit) != 0)
                    .fold(0, |k, bit| k ^ rights[bit])
            });
            let en_passant = std::array::from_fn(|_| rng.next_u64());
            Zobrist {
                squares,
                side,
                castling,
                en_passant,
            }
        })
    }

    /// The key of a position, computed from all of it.
    pub fn key<P: Keyed>(&self, id: &P) -> u64 {
        let mut key = self.state(id);
        for index in 0..8 {
            key ^= self.word_numbers(index, id.rank_word(index), u32::MAX);
        }
        key
    }

    /// The key of `after`, the position `before` (whose key is `key`) led to by one move,
    /// computed from what changed: the state numbers and the squares of the rank words that
    /// differ.
    pub fn update<P: Keyed>(&self, key: u64, before: &P, after: &P) -> u64 {
        let mut key = key ^ self.state(before) ^ self.state(after);
        for index in 0..8 {
            let (old, new) = (before.rank_word(index), after.rank_word(index));
            let changed = old ^ new;
            if changed != 0 {
                key ^=
                    self.word_numbers(index, old, changed) ^ self.word_numbers(index, new, changed);
            }
        }
        key
    }

    /// The state part of a key: side to move, castling rights, en-passant file.
    #[inline(always)]
    fn state<P: Keyed>(&self, id: &P) -> u64 {
        let mut key = self.castling[usize::from(id.castling() & 15)];
        if id.black_to_move() {
            key ^= self.side;
        }
        if let Some(file) = id.en_passant_file() {
            key ^= self.en_passant[usize::from(file & 7)];
        }
        key
    }

    /// The numbers of the nibbles of rank word `index` set in `changed`, for `word`.
    #[inline(always)]
    fn word_numbers(&self, index: usize, word: u32, mut changed: u32) -> u64 {
        let mut key = 0;
        while changed != 0 {
            let shift = changed.trailing_zeros() & !3;
            let square = (index * 8 + (shift / 4) as usize) & 63;
            key ^= self.squares[square][((word >> shift) & 0xF) as usize];
            changed &= !(0xF << shift);
        }
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The initial position's rank words, rank 8 first (file a in the high nibble).
    const STARTPOS: [u32; 8] = [
        0xCABD_EBAC,
        0x9999_9999,
        0,
        0,
        0,
        0,
        0x1111_1111,
        0x4235_6324,
    ];

    #[test]
    fn the_key_is_the_xor_of_the_numbers_of_what_is_there() {
        let z = Zobrist::get();
        let start = Identity::new(STARTPOS, false, 15, None);
        let mut expected = z.castling[15];
        for (index, word) in STARTPOS.into_iter().enumerate() {
            for nibble in 0..8 {
                expected ^= z.squares[index * 8 + nibble][(word >> (4 * nibble) & 15) as usize];
            }
        }
        assert_eq!(z.key(&start), expected);
        assert_eq!(z.squares.iter().filter(|codes| codes[0] != 0).count(), 0);
        // The side, each right and each en-passant file change the key.
        let black = Identity::new(STARTPOS, true, 15, None);
        assert_eq!(z.key(&black), expected ^ z.side);
        let ep = Identity::new(STARTPOS, true, 7, Some(4));
        assert_eq!(
            z.key(&ep),
            expected ^ z.side ^ z.castling[15] ^ z.castling[7] ^ z.en_passant[4]
        );
    }

    #[test]
    fn the_update_equals_the_key_from_scratch() {
        let z = Zobrist::get();
        let before = Identity::new(STARTPOS, false, 15, None);
        // 1. e4 (the pawn leaves e2 for e4; no capture possible, so no en-passant file),
        // then a made-up change of rights and side with an en-passant file.
        let mut ranks = STARTPOS;
        ranks[6] &= !0x0000_F000;
        ranks[4] |= 0x0000_1000;
        for after in [
            Identity::new(ranks, true, 15, None),
            Identity::new(ranks, false, 3, Some(2)),
        ] {
            assert_eq!(z.update(z.key(&before), &before, &after), z.key(&after));
        }
    }
}
