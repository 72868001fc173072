//! The C.C.R. → bitboards conversion of paper section 5.5.
//!
//! The result is `[u64; 16]` indexed by piece code: for rank word `y` (0 = rank 8) and
//! nibble `x` (0 = file h), square bit `8 * y + x` is set in `boards[code]`, so bit `i` is
//! the square with C.C.R. index `i` and `boards[0]` holds the empty squares. That order is
//! the bit reversal of the usual a1 = 0 layout; the bitboard generator works in it directly.
//!
//! Three implementations, equal by test on every board:
//! - [`portable`]: the paper's loop, the piece code addressing its board, no branch;
//! - `ssse3` (x86): duplicate each byte with `pshufb` so that every square gets a byte,
//!   keep its nibble, then per code one byte compare and one `pmovmskb` per 16 squares;
//! - `avx2` (x86): the same with 32 squares per compare.
//!
//! The engine's kernels (`crate::ccr::kernel`) each call their tier's conversion directly;
//! [`best`] is the fastest one, chosen once, for callers without a kernel.

use std::sync::OnceLock;

use super::{Tier, cpu, runs};
use crate::ccr::board::Ccr;

/// Sixteen bitboards indexed by piece code: square bit `8 * word + nibble` (word 0 = rank 8,
/// nibble 0 = file h), the bit reversal of the usual a1 = 0 layout.
pub type PieceBoards = [u64; 16];

/// The conversions, slowest first: the portable loop (`None`) and each SIMD tier that has one.
pub const WAYS: [Option<Tier>; 3] = [None, Some(Tier::Ssse3), Some(Tier::Avx2)];

/// The name of a conversion of [`WAYS`] (`portable`, `ssse3`, `avx2`).
pub fn name(way: Option<Tier>) -> &'static str {
    way.map_or("portable", Tier::name)
}

/// Whether this CPU runs the conversion.
pub fn is_available(way: Option<Tier>) -> bool {
    way.is_none_or(Tier::is_available)
}

/// The conversions this CPU runs, slowest first.
pub fn available() -> Vec<Option<Tier>> {
    WAYS.into_iter().filter(|&w| is_available(w)).collect()
}

/// The conversions a test of `test` can run here; each other one is reported as skipped by
/// [`runs`] (and fails the test if `CCR_REQUIRE_SIMD` needs it).
pub fn tested(test: &str) -> Vec<Option<Tier>> {
    WAYS.into_iter()
        .filter(|w| w.is_none_or(|t| runs(t, test)))
        .collect()
}

/// The conversion as a function, or the portable one where the CPU lacks its tier (or the
/// tier has no conversion).
pub fn function(way: Option<Tier>) -> fn(&Ccr) -> PieceBoards {
    match way {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Some(Tier::Ssse3) if cpu().ssse3 => simd::ssse3_detected,
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Some(Tier::Avx2) if cpu().avx2 => simd::avx2_detected,
        _ => portable,
    }
}

static BEST: OnceLock<fn(&Ccr) -> PieceBoards> = OnceLock::new();

/// Chooses [`best`]'s conversion now (the binary does, first thing).
pub(super) fn init() {
    let _ = BEST.get_or_init(choose);
}

/// The fastest conversion this CPU has.
fn choose() -> fn(&Ccr) -> PieceBoards {
    function(available().last().copied().flatten())
}

/// The conversion with the fastest implementation this CPU has, chosen once and cached: each
/// call is one load of the chosen function and one indirect call, no test of the CPU. It
/// serves the callers that have no kernel to ask, because their signatures carry none: the
/// `--eval bitboards` evaluator (the search calls it with the position alone),
/// the tablebase setup and `Bitboards::from_position`. Code generic over a kernel calls
/// `Kernel::convert` instead, chosen at compile time.
#[inline]
pub fn best(board: &Ccr) -> PieceBoards {
    BEST.get_or_init(choose)(board)
}

/// The paper's conversion: each nibble's code addresses the board its bit goes into.
#[inline]
pub fn portable(board: &Ccr) -> PieceBoards {
    let mut boards = [0u64; 16];
    for (y, &word) in board.words().iter().enumerate() {
        let mut rank = word;
        for x in 0..8 {
            boards[(rank & 0xF) as usize] |= 1 << (8 * y + x);
            rank >>= 4;
        }
    }
    boards
}

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub mod simd {
    //! Compare-and-movemask conversions. Each byte of the board holds two squares (low
    //! nibble first); `pshufb` copies every byte into two neighbouring bytes, and an AND
    //! with `0F F0 0F F0 …` keeps the low nibble in the first copy and the high nibble (in
    //! place) in the second. A byte compare against `c, c << 4, c, c << 4, …` then marks
    //! the squares holding code `c`, in square order, and `pmovmskb` packs the marks into
    //! bits.

    #[cfg(target_arch = "x86")]
    use std::arch::x86::*;
    #[cfg(target_arch = "x86_64")]
    use std::arch::x86_64::*;

    use super::PieceBoards;
    use crate::ccr::board::Ccr;

    /// Byte `i` goes to bytes `2i` and `2i + 1`.
    const DUPLICATE: [i8; 16] = [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7];
    /// Byte `8 + i` goes to bytes `2i` and `2i + 1`.
    const DUPLICATE_HIGH: [i8; 16] = [8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15];

    /// The pattern the nibbles are compared against for `code` (little-endian `c, c << 4`).
    #[inline(always)]
    fn code_pattern(code: usize) -> i16 {
        (code | code << 12) as i16
    }

    /// [`ssse3`] for callers that have detected SSSE3 ([`super::function`] hands it out
    /// only then).
    pub(super) fn ssse3_detected(board: &Ccr) -> PieceBoards {
        // SAFETY: only reachable through `function` after detecting SSSE3.
        unsafe { ssse3(board) }
    }

    /// [`avx2`] for callers that have detected AVX2.
    pub(super) fn avx2_detected(board: &Ccr) -> PieceBoards {
        // SAFETY: only reachable through `function` after detecting AVX2.
        unsafe { avx2(board) }
    }

    /// # Safety
    /// The CPU must support SSSE3.
    #[target_feature(enable = "ssse3")]
    pub unsafe fn ssse3(board: &Ccr) -> PieceBoards {
        // SAFETY: SSSE3 is enabled for this function; the loads read the 32 bytes of the
        // board through unaligned loads, which need no alignment.
        unsafe {
            let bytes = board.words().as_ptr().cast::<__m128i>();
            let (front, back) = (_mm_loadu_si128(bytes), _mm_loadu_si128(bytes.add(1)));
            let keep = _mm_set1_epi16(0xF00F_u16 as i16);
            let low = _mm_loadu_si128(DUPLICATE.as_ptr().cast());
            let high = _mm_loadu_si128(DUPLICATE_HIGH.as_ptr().cast());
            // Four vectors of 16 squares each, in square order.
            let squares = [
                _mm_and_si128(_mm_shuffle_epi8(front, low), keep),
                _mm_and_si128(_mm_shuffle_epi8(front, high), keep),
                _mm_and_si128(_mm_shuffle_epi8(back, low), keep),
                _mm_and_si128(_mm_shuffle_epi8(back, high), keep),
            ];
            let mut boards = [0u64; 16];
            for (code, board) in boards.iter_mut().enumerate() {
                let pattern = _mm_set1_epi16(code_pattern(code));
                let mut bits = 0u64;
                for (i, &sixteen) in squares.iter().enumerate() {
                    let marks = _mm_movemask_epi8(_mm_cmpeq_epi8(sixteen, pattern)) as u32;
                    bits |= u64::from(marks & 0xFFFF) << (16 * i);
                }
                *board = bits;
            }
            boards
        }
    }

    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn avx2(board: &Ccr) -> PieceBoards {
        // SAFETY: AVX2 is enabled for this function; the loads read the 32 bytes of the
        // board through unaligned loads, which need no alignment.
        unsafe {
            let bytes = board.words().as_ptr().cast::<__m128i>();
            // Each 16-byte half in both lanes; `vpshufb` shuffles within a lane, so the low
            // lane expands bytes 0-7 and the high lane bytes 8-15: 32 squares in order.
            let front = _mm256_broadcastsi128_si256(_mm_loadu_si128(bytes));
            let back = _mm256_broadcastsi128_si256(_mm_loadu_si128(bytes.add(1)));
            let spread =
                _mm256_loadu2_m128i(DUPLICATE_HIGH.as_ptr().cast(), DUPLICATE.as_ptr().cast());
            let keep = _mm256_set1_epi16(0xF00F_u16 as i16);
            let squares = [
                _mm256_and_si256(_mm256_shuffle_epi8(front, spread), keep),
                _mm256_and_si256(_mm256_shuffle_epi8(back, spread), keep),
            ];
            let mut boards = [0u64; 16];
            for (code, board) in boards.iter_mut().enumerate() {
                let pattern = _mm256_set1_epi16(code_pattern(code));
                let low = _mm256_movemask_epi8(_mm256_cmpeq_epi8(squares[0], pattern)) as u32;
                let high = _mm256_movemask_epi8(_mm256_cmpeq_epi8(squares[1], pattern)) as u32;
                *board = u64::from(low) | u64::from(high) << 32;
            }
            boards
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ccr::Position;
    use crate::types::Square;

    /// Every square's bit is in exactly the board of its code.
    fn check(board: &Ccr, boards: &PieceBoards) {
        for i in 0..64 {
            let code = board.get(Square::new(i as u8)).code() as usize;
            for (c, b) in boards.iter().enumerate() {
                assert_eq!(
                    b >> i & 1 == 1,
                    c == code,
                    "square {i} code {code} board {c}"
                );
            }
        }
    }

    #[test]
    fn figure_1_and_every_implementation() {
        let pos = Position::from_fen("4k3/8/8/8/6N1/4P3/R1B1K3/8 w - - 0 1").unwrap();
        let boards = portable(pos.board());
        check(pos.board(), &boards);
        // The knight on g4 is word 4, nibble 1: bit 33.
        assert_eq!(boards[2], 1 << 33);
        for way in tested("convert::figure_1_and_every_implementation") {
            assert_eq!(function(way)(pos.board()), boards, "{way:?}");
        }
    }

    #[test]
    fn arbitrary_nibbles_all_implementations() {
        // Every code in every square, including the codes no piece has (7, 8, 15).
        let ways = tested("convert::arbitrary_nibbles_all_implementations");
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..2000 {
            let mut words = [0u32; 8];
            for w in &mut words {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                *w = state as u32;
            }
            let board = Ccr::from_words(words);
            let boards = portable(&board);
            check(&board, &boards);
            for &way in &ways {
                assert_eq!(function(way)(&board), boards, "{way:?}");
            }
        }
    }
}
