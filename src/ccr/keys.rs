//! Transposition keys without Zobrist (paper 5.4): the rank words themselves, mixed and
//! rotated by prime counts, with no table of random numbers. (The Zobrist baseline it is
//! measured against is in the key-statistics crate, `keystats/`.)
//!
//! The rotation key is an XOR of one term per rank word plus terms for the side to move,
//! each castling right and the en-passant file (only when an en-passant capture is legal, so
//! that transpositions match). A word's term is `rotl(mix(word), PRIME[word index])`: `mix`
//! is splitmix64's output function (a constant added, then the finaliser: a bijection, so two
//! different words never give the same term), and the prime rotation puts each rank's term at
//! its own offset. A move changes one or two rank words (castling and
//! en passant stay inside them), so the key is updated from those words alone.

use std::fmt;

use crate::ccr::board::{CastlingRights, Position, RookFiles};
use crate::ccr::validate::{Invariant, slow_checks};
use crate::types::{Colour, Move, Square};

/// The rotation applied to each rank word's term: distinct primes below 64, no two of them
/// 32 apart (a rotation by 32 swaps the halves of a term, so two ranks rotated 32 apart
/// collide whenever their terms are halves swapped: docs/BENCHMARKS.md, "Keys").
pub(crate) const ROTATIONS: [u32; 8] = [3, 7, 13, 19, 23, 31, 41, 47];

/// The multipliers of [`mix`]: odd, so each multiplication is a bijection on u64.
const MIX_1: u64 = 0xBF58_476D_1CE4_E5B9;
const MIX_2: u64 = 0x94D0_49BB_1331_11EB;

/// The offset [`mix`] adds before mixing: splitmix64's increment (2^64 / golden ratio).
pub(crate) const MIX_OFFSET: u64 = 0x9E37_79B9_7F4A_7C15;

/// The mixing function, splitmix64's output function: the input plus [`MIX_OFFSET`], then
/// the finaliser (xor-shifts and multiplications by odd constants). Each step is a bijection
/// on u64, so different words always give different terms, and every output bit depends on
/// every input bit.
///
/// The offset keeps a shifted word from giving a rotated term. Multiplying a word by 16 moves
/// its pieces one file toward file a; the finaliser's multiplications commute with that and
/// its xor-shifts nearly do, so the finaliser alone gives `fin(16 * w)` equal to
/// `rotl(fin(w), 4)` except in bits 0-3 and 33-36; bits 0-3 agree too for about one word in
/// 2^14, and all 64 bits for about one in 2^18. Ranks whose rotations differ by 4 (rank words
/// 0 and 1, 3 and 4) then give nearly equal terms for a rank's pieces and the same pieces one
/// rank down and one file toward h, and two positions that differ only so have keys that
/// differ in a few bits (bits 52-55 for ranks 5 and 4: their low 48 bits agree;
/// docs/BENCHMARKS.md, "Keys"). With the offset,
/// `16 * w + OFFSET` and `16 * (w + OFFSET)` differ by `15 * OFFSET`, far outside the range
/// of a word, so no chain of the finaliser lines up with another word's.
#[inline(always)]
pub(crate) const fn mix(x: u64) -> u64 {
    let x = x.wrapping_add(MIX_OFFSET);
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
pub(crate) const SIDE_TERM: u64 = state_term(1);

/// The castling terms by rights (the XOR of one term per right held).
pub(crate) const CASTLING_TERMS: [u64; 16] = {
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

/// The term of castling right `index` (0 `K`, 1 `Q`, 2 `k`, 3 `q`) with its rook on
/// `file`: the standard one ([`CASTLING_TERMS`]) on the right's corner, another for each other
/// file, so that Chess960 setups with the same rights but other rooks key apart.
const fn castling_term(index: usize, file: u8) -> u64 {
    let corner = if index & 1 == 0 { 7 } else { 0 };
    if file == corner {
        state_term(0x10 + index as u64)
    } else {
        state_term(0x40 + 8 * index as u64 + file as u64)
    }
}

/// The castling part of a position's key: one term per right held, told apart by its rook's
/// file.
#[inline(always)]
fn castling_key(rights: CastlingRights, files: RookFiles) -> u64 {
    if files.is_standard() {
        return CASTLING_TERMS[rights.bits() as usize & 15];
    }
    (0..4)
        .filter(|&i| rights.contains(CastlingRights::EACH[i]))
        .fold(0, |key, i| key ^ castling_term(i, files.file(i)))
}

/// The en-passant terms by file (a = 0).
pub(crate) const EN_PASSANT_TERMS: [u64; 8] = {
    let mut terms = [0; 8];
    let mut file = 0;
    while file < 8 {
        terms[file] = state_term(0x20 + file as u64);
        file += 1;
    }
    terms
};

/// The rotation key of this module (the engine's own; `Position::key` carries it).
#[derive(Copy, Clone, Debug, Default)]
pub struct RotationKey;

/// The state part of a key: side, castling rights, en passant.
#[inline(always)]
fn state(pos: &Position) -> u64 {
    let mut key = castling_key(pos.castling, pos.rook_files);
    if pos.side() == Colour::Black {
        key ^= SIDE_TERM;
    }
    if let Some(sq) = pos.keyed_en_passant() {
        key ^= EN_PASSANT_TERMS[sq.file() as usize];
    }
    key
}

impl RotationKey {
    /// The key of a position, computed from all of it.
    pub fn key(&self, pos: &Position) -> u64 {
        let mut key = state(pos);
        for (index, &word) in pos.board.0.iter().enumerate() {
            key ^= word_term(index, word);
        }
        key
    }

    /// The key of `after`, the position `before` (whose key is `key`) led to by one move,
    /// computed from what changed: the state terms and the rank words that differ, all eight
    /// compared (`Position::make_keyed` knows from the move which one or two changed).
    pub fn update(&self, key: u64, before: &Position, after: &Position) -> u64 {
        let mut key = key ^ state(before) ^ state(after);
        for index in 0..8 {
            let (old, new) = (before.board.0[index], after.board.0[index]);
            if old != new {
                key ^= word_term(index, old) ^ word_term(index, new);
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
        after.ply = self.ply.wrapping_add(1);
        after.en_passant = None;
        let mut key = key ^ SIDE_TERM;
        if let Some(sq) = self.keyed_en_passant() {
            key ^= EN_PASSANT_TERMS[sq.file() as usize];
        }
        if cfg!(debug_assertions) {
            after.check_keyed("the null move", key);
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
            key ^= castling_key(self.castling, self.rook_files)
                ^ castling_key(after.castling, after.rook_files);
        }
        if let Some(sq) = self.keyed_en_passant() {
            key ^= EN_PASSANT_TERMS[sq.file() as usize];
        }
        if let Some(sq) = after.keyed_en_passant() {
            key ^= EN_PASSANT_TERMS[sq.file() as usize];
        }
        if cfg!(debug_assertions) {
            after.check_keyed(mv, key);
        }
        (after, key)
    }

    /// Checks `key`, made move by move, against the key computed from the whole position.
    pub fn check_key(&self, key: u64) -> Result<(), Invariant> {
        let computed = self.key();
        if key != computed {
            return Err(Invariant::Key {
                incremental: key,
                computed,
            });
        }
        Ok(())
    }

    /// With the slow checks on, checks `key`, made for this position by `mv`, against the
    /// key computed from scratch, and panics with the position, the move and the two keys
    /// when they differ.
    #[track_caller]
    fn check_keyed(&self, mv: impl fmt::Display, key: u64) {
        if !slow_checks() {
            return;
        }
        if let Err(broken) = self.check_key(key) {
            panic!("{} after {mv}: {broken}", self.to_fen());
        }
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
            assert_eq!(after.side(), pos.side().flip());
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
        assert_ne!(word_term(3, 0), word_term(4, 0));
        assert_ne!(word_term(3, 1), word_term(4, 1));
    }

    /// Every rank word of one to three pieces (any of the twelve codes, on any files).
    fn sparse_words() -> Vec<u32> {
        const CODES: [u32; 12] = [1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14];
        let mut words = Vec::new();
        for a in 0..8 {
            for &ca in &CODES {
                words.push(ca << (4 * a));
                for b in a + 1..8 {
                    for &cb in &CODES {
                        words.push(ca << (4 * a) | cb << (4 * b));
                        for c in b + 1..8 {
                            for &cc in &CODES {
                                words.push(ca << (4 * a) | cb << (4 * b) | cc << (4 * c));
                            }
                        }
                    }
                }
            }
        }
        words
    }

    /// A rank's pieces shifted `s` files toward file a (the word times 16^s) on rank word
    /// `i`, against the unshifted word on rank word `j`: for every pair of rank words (the
    /// same one too), every shift that keeps the pieces on the board and every word of one
    /// to three pieces, the two terms differ in more than 8 of their 64 bits. Two positions
    /// that differ only so (a rank of pieces moved to another rank and across) differ in
    /// their keys by exactly this XOR; for a uniform random key it has 8 bits or fewer with
    /// probability 2.8e-10, about once in 400 runs of these 8.3 million comparisons.
    #[test]
    fn shifted_rank_words_give_unrelated_terms() {
        let words = sparse_words();
        assert_eq!(words.len(), 12 * 8 + 144 * 28 + 1728 * 56);
        let (mut close, mut count, mut compared) = (Vec::new(), 0u64, 0u64);
        for shift in 1..8 {
            let fits: Vec<u32> = words
                .iter()
                .copied()
                .filter(|&w| w >> (32 - 4 * shift) == 0)
                .collect();
            for &word in &fits {
                let (moved, home) = (mix((word << (4 * shift)) as u64), mix(word as u64));
                for (i, &to) in ROTATIONS.iter().enumerate() {
                    for (j, &from) in ROTATIONS.iter().enumerate() {
                        let xor = moved.rotate_left(to) ^ home.rotate_left(from);
                        compared += 1;
                        if xor.count_ones() <= 8 {
                            count += 1;
                            if close.len() < 4 {
                                close.push((i, j, shift, word, xor));
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(compared, 8_279_040);
        assert_eq!(
            count, 0,
            "terms of shifted words that differ in 8 bits or fewer, the first (rank word of \
             the shifted word, rank word of the word, files, word, xor): {close:x?}"
        );
    }

    /// Two positions of the sample that agreed in the low 48 bits of their keys: the rook and
    /// king of rank 5 moved to rank 4 and one file toward h (word 0x0c000060 on rank word 3
    /// against 0x00c00006 on rank word 4).
    #[test]
    fn a_rank_moved_down_and_across_changes_the_low_bits() {
        let key = |fen: &str| Position::from_fen(fen).unwrap().key();
        let (a, b) = (
            key("8/2k5/1N6/1r4K1/8/8/8/8 w - - 0 1"),
            key("8/2k5/1N6/8/2r4K/8/8/8 w - - 0 1"),
        );
        assert_ne!(a & 0xFFFF_FFFF, b & 0xFFFF_FFFF, "{a:016x} {b:016x}");
        assert_ne!(a >> 32, b >> 32, "{a:016x} {b:016x}");
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
        for fen in [
            crate::ccr::fen::STARTPOS,
            crate::positions::KIWIPETE,
            crate::positions::POSITION_3,
            crate::positions::POSITION_4,
        ] {
            let root = Position::from_fen(fen).unwrap();
            for &mv in root.legal_moves().as_slice() {
                let (child, key) = root.make_keyed(mv, root.key());
                assert_eq!(child, root.make(mv));
                assert_eq!(key, child.key(), "{fen} {mv}");
                assert_eq!(RotationKey.update(root.key(), &root, &child), key);
                for &reply in child.legal_moves().as_slice() {
                    let (grandchild, key) = child.make_keyed(reply, key);
                    assert_eq!(key, grandchild.key(), "{fen} {mv} {reply}");
                }
            }
        }
    }
}
