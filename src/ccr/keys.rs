//! Transposition keys without Zobrist (paper 5.4): the rank words themselves, mixed and
//! rotated by prime counts, with no table of random numbers — and, to measure it against,
//! the classic Zobrist key behind the same interface.
//!
//! The rotation key is an XOR of one term per rank word plus terms for the side to move,
//! each castling right and the en-passant file (only when an en-passant capture is legal, so
//! that transpositions match). A word's term is `rotl(mix(word), PRIME[word index])`: `mix`
//! is the splitmix64 finaliser (a bijection, so two different words never give the same
//! term), and the prime rotation puts each rank's term at its own offset. A move changes one or two rank words (castling and
//! en passant stay inside them), so the key is updated from those words alone.

use std::sync::OnceLock;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};

use crate::ccr::board::Position;
use crate::types::{Colour, Move, Square};

/// The rotation applied to each rank word's term: distinct primes below 64, no two of them
/// 32 apart (a rotation by 32 swaps the halves of a term, so two ranks rotated 32 apart
/// collide whenever their terms are halves swapped: docs/BENCHMARKS.md, "Keys").
pub const ROTATIONS: [u32; 8] = [3, 7, 13, 19, 23, 31, 41, 47];

/// The multipliers of [`mix`]: odd, so each multiplication is a bijection on u64.
const MIX_1: u64 = 0xBF58_476D_1CE4_E5B9;
const MIX_2: u64 = 0x94D0_49BB_1331_11EB;

/// The mixing function, the finaliser of splitmix64: xor-shifts and multiplications by odd
/// constants, each a bijection on u64, so different words always give different terms, and
/// every output bit depends on every input bit. (One multiplication and one fold leave
/// structure that shows as collisions: docs/BENCHMARKS.md, "Keys".)
#[inline(always)]
pub const fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 30)).wrapping_mul(MIX_1);
    let x = (x ^ (x >> 27)).wrapping_mul(MIX_2);
    x ^ (x >> 31)
}

/// The term of rank word `index` holding `word`.
#[inline(always)]
pub const fn word_term(index: usize, word: u32) -> u64 {
    mix(word as u64).rotate_left(ROTATIONS[index & 7])
}

/// A state term: `mix` of a number above every 32-bit word, rotated by the prime 59.
const fn state_term(n: u64) -> u64 {
    mix((1 << 32) | n).rotate_left(59)
}

/// XORed in when Black is to move.
pub const SIDE_TERM: u64 = state_term(1);

/// The castling terms by rights (the XOR of one term per right held).
pub const CASTLING_TERMS: [u64; 16] = {
    let mut terms = [0; 16];
    let mut rights = 0;
    while rights < 16 {
        let mut bit = 0;
        while bit < 4 {
            if rights & (1 << bit) != 0 {
                terms[rights] ^= state_term(0x10 + bit as u64);
            }
            bit += 1;
        }
        rights += 1;
    }
    terms
};

/// The en-passant terms by file (a = 0).
pub const EN_PASSANT_TERMS: [u64; 8] = {
    let mut terms = [0; 8];
    let mut file = 0;
    while file < 8 {
        terms[file] = state_term(0x20 + file as u64);
        file += 1;
    }
    terms
};

/// A way to key positions: from scratch, and after a move from the key before it.
pub trait KeyScheme {
    /// The key of a position, computed from all of it.
    fn key(&self, pos: &Position) -> u64;

    /// The key of `after`, the position `before` (whose key is `key`) led to by one move,
    /// computed from what changed.
    fn update(&self, key: u64, before: &Position, after: &Position) -> u64;
}

/// The rotation key of this module (the engine's own; `Position::key` carries it).
#[derive(Copy, Clone, Debug, Default)]
pub struct RotationKey;

/// The state part of a key: side, castling rights, en passant.
#[inline(always)]
fn state(pos: &Position, side: u64, castling: &[u64; 16], en_passant: &[u64; 8]) -> u64 {
    let mut key = castling[pos.castling.bits() as usize & 15];
    if pos.side == Colour::Black {
        key ^= side;
    }
    if let Some(sq) = pos.keyed_en_passant() {
        key ^= en_passant[sq.file() as usize];
    }
    key
}

impl KeyScheme for RotationKey {
    fn key(&self, pos: &Position) -> u64 {
        let mut key = state(pos, SIDE_TERM, &CASTLING_TERMS, &EN_PASSANT_TERMS);
        for (index, &word) in pos.board.0.iter().enumerate() {
            key ^= word_term(index, word);
        }
        key
    }

    fn update(&self, key: u64, before: &Position, after: &Position) -> u64 {
        let mut key = key
            ^ state(before, SIDE_TERM, &CASTLING_TERMS, &EN_PASSANT_TERMS)
            ^ state(after, SIDE_TERM, &CASTLING_TERMS, &EN_PASSANT_TERMS);
        for index in 0..8 {
            let (old, new) = (before.board.0[index], after.board.0[index]);
            if old != new {
                key ^= word_term(index, old) ^ word_term(index, new);
            }
        }
        key
    }
}

/// The Zobrist baseline: one random number per (square, piece code), per castling right
/// and per en-passant file, and one for the side, drawn from xoshiro256++ with a fixed seed.
pub struct Zobrist {
    squares: [[u64; 16]; 64],
    side: u64,
    castling: [u64; 16],
    en_passant: [u64; 8],
}

/// The seed of the Zobrist tables.
pub const ZOBRIST_SEED: u64 = 0x00CC_2012_0265_0284;

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

    /// The numbers of the nibbles of rank word `index` set in `changed`, for `word`.
    #[inline(always)]
    fn word_numbers(&self, index: usize, word: u32, mut changed: u32) -> u64 {
        let mut key = 0;
        while changed != 0 {
            let shift = changed.trailing_zeros() & !3;
            let sq = Square::new((index * 8) as u8 + (shift / 4) as u8);
            key ^= self.squares[sq.index()][((word >> shift) & 0xF) as usize];
            changed &= !(0xF << shift);
        }
        key
    }
}

impl KeyScheme for Zobrist {
    fn key(&self, pos: &Position) -> u64 {
        let mut key = state(pos, self.side, &self.castling, &self.en_passant);
        for (index, &word) in pos.board.0.iter().enumerate() {
            key ^= self.word_numbers(index, word, u32::MAX);
        }
        key
    }

    fn update(&self, key: u64, before: &Position, after: &Position) -> u64 {
        let mut key = key
            ^ state(before, self.side, &self.castling, &self.en_passant)
            ^ state(after, self.side, &self.castling, &self.en_passant);
        for index in 0..8 {
            let (old, new) = (before.board.0[index], after.board.0[index]);
            let changed = old ^ new;
            if changed != 0 {
                key ^=
                    self.word_numbers(index, old, changed) ^ self.word_numbers(index, new, changed);
            }
        }
        key
    }
}

impl Position {
    /// The en-passant square if an en-passant capture is legal here (the only case in which
    /// it belongs in a key), else `None`.
    pub fn keyed_en_passant(&self) -> Option<Square> {
        self.en_passant.filter(|_| self.ep_capture_is_legal())
    }

    /// The rotation key, computed from the whole position.
    pub fn key(&self) -> u64 {
        RotationKey.key(self)
    }

    /// The position after passing the move to the other side (the search's null move) and
    /// its key, updated from `key` (this position's): the side flips and any en-passant
    /// right lapses.
    #[inline]
    pub fn make_null_keyed(&self, key: u64) -> (Position, u64) {
        let mut after = *self;
        after.side = self.side.flip();
        after.en_passant = None;
        after.halfmove_clock = (self.halfmove_clock + 1).min(crate::ccr::board::MAX_HALFMOVE_CLOCK);
        let mut key = key ^ SIDE_TERM;
        if let Some(sq) = self.keyed_en_passant() {
            key ^= EN_PASSANT_TERMS[sq.file() as usize];
        }
        (after, key)
    }

    /// The position after `mv` and its rotation key, updated from `key` (this position's)
    /// through the one or two rank words the move changed — castling and en passant stay
    /// inside them — and the state terms.
    #[inline]
    pub fn make_keyed(&self, mv: Move, key: u64) -> (Position, u64) {
        let after = self.make(mv);
        let (from_word, to_word) = (mv.from().word(), mv.to().word());
        let mut key = key ^ SIDE_TERM;
        key ^= word_term(from_word, self.board.0[from_word])
            ^ word_term(from_word, after.board.0[from_word]);
        if to_word != from_word {
            key ^= word_term(to_word, self.board.0[to_word])
                ^ word_term(to_word, after.board.0[to_word]);
        }
        if self.castling != after.castling {
            key ^= CASTLING_TERMS[self.castling.bits() as usize & 15]
                ^ CASTLING_TERMS[after.castling.bits() as usize & 15];
        }
        if let Some(sq) = self.keyed_en_passant() {
            key ^= EN_PASSANT_TERMS[sq.file() as usize];
        }
        if let Some(sq) = after.keyed_en_passant() {
            key ^= EN_PASSANT_TERMS[sq.file() as usize];
        }
        (after, key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_move_key_equals_the_key_from_scratch() {
        for fen in [
            crate::ccr::fen::STARTPOS,
            // A legal en-passant capture (its term must leave the key) and one that is not.
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let (after, key) = pos.make_null_keyed(pos.key());
            assert_eq!(key, after.key(), "{fen}");
            assert_eq!(after.side, pos.side.flip());
            assert_eq!(after.en_passant, None);
        }
    }

    #[test]
    fn terms_are_distinct_and_nonzero() {
        let mut all = vec![SIDE_TERM];
        all.extend(&CASTLING_TERMS[1..]);
        all.extend(EN_PASSANT_TERMS);
        let mut sorted = all.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), all.len());
        assert!(all.iter().all(|&t| t != 0));
        assert_eq!(word_term(3, 0), 0);
        assert_ne!(word_term(3, 1), word_term(4, 1));
    }

    #[test]
    fn keys_depend_on_everything_but_the_clocks() {
        let key = |fen: &str| Position::from_fen(fen).unwrap().key();
        let base = key("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(base, key("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 17 40"));
        assert_ne!(base, key("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"));
        assert_ne!(base, key("r3k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1"));
        assert_ne!(base, key("r3k2r/8/8/8/8/8/8/R2K3R w kq - 0 1"));
        // En passant counts only when a capture is legal.
        let quiet = key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        assert_eq!(
            quiet,
            key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        );
        let live = key("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        assert_ne!(
            live,
            key("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        );
        // A capture that would expose the king is no capture: 8/8/8/KPp4r: b5c6 is illegal.
        assert_eq!(
            key("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2"),
            key("8/8/8/KPp4r/8/8/8/4k3 w - - 0 2")
        );
    }

    #[test]
    fn the_incremental_keys_follow_every_move() {
        let zobrist = Zobrist::get();
        for fen in [
            crate::ccr::fen::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ] {
            let root = Position::from_fen(fen).unwrap();
            for &mv in root.legal_moves().as_slice() {
                let (child, key) = root.make_keyed(mv, root.key());
                assert_eq!(child, root.make(mv));
                assert_eq!(key, child.key(), "{fen} {mv}");
                assert_eq!(RotationKey.update(root.key(), &root, &child), key);
                let z = zobrist.key(&root);
                assert_eq!(
                    zobrist.update(z, &root, &child),
                    zobrist.key(&child),
                    "{fen} {mv}"
                );
                for &reply in child.legal_moves().as_slice() {
                    let (grandchild, key) = child.make_keyed(reply, key);
                    assert_eq!(key, grandchild.key(), "{fen} {mv} {reply}");
                }
            }
        }
    }
}
