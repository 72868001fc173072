//! The attack tables with the whole board in one vector register (the paper's suggestion of
//! several rank words processed at once): AVX2 holds the eight rank words as the eight
//! 32-bit lanes of one `ymm` register, lane `w` = rank word `w`.
//!
//! The frame's geometry carries over unchanged: one file toward a is a shift of every lane
//! left by 4 (`vpslld`), toward h right by 4, and a nibble shifted off a lane is gone —
//! the edge test, for all eight ranks at once. One rank toward rank 8 moves every lane down
//! by one (`vpermd` with a zeroed last lane), toward rank 1 up by one.
//!
//! The pieces are found for all squares at once (a SWAR compare of every nibble with a code)
//! and attack by sets, with no per-piece dispatch: pawns, knights and kings by shifting their
//! sets; sliders by a Kogge–Stone occluded fill per direction (three doubling steps cover
//! seven squares). The fill carries the class bits themselves instead of `0xF`: the
//! generator holds `0010b` on rooks and `0001b` on queens (rook directions), the propagator
//! `0xF` on empty squares only, so a ray stops on (and marks) the first occupied square and
//! the rook's and queen's classes never mix past a blocker — the result is the class
//! nibbles of WHITE_ATTACKS / BLACK_ATTACKS directly. The twin is
//! [`crate::ccr::attacks::attacks_of`]; tests prove them equal on every square.
//!
//! Several boards at once ([`attacks_of_many`], the ways in [`Batch`]): AVX-512 holds two
//! boards in one `zmm` register (`simd/avx512.rs`, written with `asm!` because the crate's
//! compilers, 1.85, predate the AVX-512 intrinsics; its header says how), AVX2 runs two
//! boards' kernels side by side, the frame one board at a time where the CPU has neither.
//! AVX-512 pairs pay well; AVX2 pairs little, because the out-of-order core already overlaps
//! independent boards (`cargo bench --bench attacks -- attacks_many`; docs/BENCHMARKS.md,
//! "Several boards at once"). Both colours of one board are a pair too ([`attack_tables`]):
//! `AttackBlock::new`, built at every search node, takes them from there, because it is
//! faster than the frame there too (docs/BENCHMARKS.md).

use crate::ccr::Ccr;
use crate::types::Colour;

crate::repr::position_with_attacks!(
    /// The C.C.R. position whose legal generation builds the enemy's attack table with AVX2
    /// (`ccr perft --repr ccr --impl simd`); everything else is the C.C.R.'s own.
    SimdPosition,
    generate_legal_simd,
    generate_captures_simd
);

/// Whether the CPU can run [`attacks_of`]'s vector path.
pub fn is_available() -> bool {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        is_x86_feature_detected!("avx2")
    }
    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
    {
        false
    }
}

/// The attack table of `by`: AVX2 where the CPU has it (the detection is std's cached
/// one, a load and a test), the portable frame otherwise.
#[inline]
pub fn attacks_of(board: &Ccr, by: Colour) -> [u32; 8] {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    if is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked just above).
        return unsafe { avx2::attacks_of(board, by) };
    }
    crate::ccr::attacks::attacks_of(board, by)
}

/// One way to build the attack tables of many boards ([`Batch::attacks_of_many`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Batch {
    /// The portable frame ([`crate::ccr::attacks::attacks_of`]), one board at a time.
    Portable,
    /// AVX2, one board per call of [`attacks_of`] (the one-at-a-time baseline).
    Avx2,
    /// AVX2, two boards per loop step, their kernels inlined side by side.
    Avx2Pairs,
    /// AVX-512F, two boards per `zmm` register (an odd last board by AVX2).
    Avx512Pairs,
}

impl Batch {
    /// Every way, slowest expected first.
    pub const ALL: [Batch; 4] = [
        Batch::Portable,
        Batch::Avx2,
        Batch::Avx2Pairs,
        Batch::Avx512Pairs,
    ];

    /// Whether this CPU can run it.
    pub fn is_available(self) -> bool {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        let (avx2, avx512) = (
            is_x86_feature_detected!("avx2"),
            is_x86_feature_detected!("avx512f"),
        );
        #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
        let (avx2, avx512) = (false, false);
        match self {
            Batch::Portable => true,
            Batch::Avx2 | Batch::Avx2Pairs => avx2,
            Batch::Avx512Pairs => avx2 && avx512,
        }
    }

    /// The fastest way this CPU has.
    pub fn best() -> Batch {
        *Batch::ALL
            .iter()
            .rev()
            .find(|b| b.is_available())
            .expect("portable is always there")
    }

    /// The attack table of `by` on each of `boards` into the same place of `out`, this way,
    /// or the portable way where the CPU lacks it.
    ///
    /// # Panics
    /// If `out` is not as long as `boards`.
    pub fn attacks_of_many(self, boards: &[Ccr], by: Colour, out: &mut [[u32; 8]]) {
        assert_eq!(boards.len(), out.len(), "one table per board");
        match self {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Batch::Avx2 if self.is_available() => {
                for (board, table) in boards.iter().zip(out) {
                    *table = attacks_of(board, by);
                }
            }
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the CPU has AVX2 (checked by the guard).
            Batch::Avx2Pairs if self.is_available() => unsafe { avx2::pairs(boards, by, out) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Batch::Avx512Pairs if self.is_available() => {
                let mut pairs = boards.chunks_exact(2);
                let mut tables = out.chunks_exact_mut(2);
                for (pair, two) in (&mut pairs).zip(&mut tables) {
                    let two: &mut [[u32; 8]; 2] = two.try_into().expect("chunks of two");
                    // SAFETY: the CPU has AVX-512F (checked by the guard).
                    unsafe { avx512::attacks_of_pair(&pair[0], &pair[1], (by, by), two) };
                }
                for (board, table) in pairs.remainder().iter().zip(tables.into_remainder()) {
                    // SAFETY: the CPU has AVX2 (checked by the guard).
                    *table = unsafe { avx2::attacks_of(board, by) };
                }
            }
            _ => {
                for (board, table) in boards.iter().zip(out) {
                    *table = crate::ccr::attacks::attacks_of(board, by);
                }
            }
        }
    }
}

/// The attack table of `by` on each of `boards` into the same place of `out`, the fastest
/// way the CPU has ([`Batch::best`]).
///
/// # Panics
/// If `out` is not as long as `boards`.
pub fn attacks_of_many(boards: &[Ccr], by: Colour, out: &mut [[u32; 8]]) {
    Batch::best().attacks_of_many(boards, by, out)
}

/// WHITE_ATTACKS and BLACK_ATTACKS of one board: AVX-512 with both colours in one `zmm`
/// register, else AVX2 once per colour, else the frame's one pass.
#[inline]
pub fn attack_tables(board: &Ccr) -> [[u32; 8]; 2] {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    if is_x86_feature_detected!("avx512f") {
        let mut tables = [[0; 8]; 2];
        // SAFETY: the CPU has AVX-512F (checked just above).
        unsafe {
            avx512::attacks_of_pair(board, board, (Colour::White, Colour::Black), &mut tables)
        };
        return tables;
    } else if is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked just above).
        return unsafe {
            [
                avx2::attacks_of(board, Colour::White),
                avx2::attacks_of(board, Colour::Black),
            ]
        };
    }
    let block = crate::ccr::attacks::AttackBlock::by_frame(board);
    [*block.attacks(Colour::White), *block.attacks(Colour::Black)]
}

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx512;

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx2 {
    #[cfg(target_arch = "x86")]
    use std::arch::x86::*;
    #[cfg(target_arch = "x86_64")]
    use std::arch::x86_64::*;

    use crate::ccr::Ccr;
    use crate::types::{Colour, PieceCode};

    /// Every lane moved `k` ranks toward rank 8 (lane `i` takes lane `i + k`, the last `k`
    /// lanes become empty).
    #[inline(always)]
    unsafe fn toward_rank_8(x: __m256i, k: i32) -> __m256i {
        // SAFETY (whole module): only called from functions compiled with AVX2 enabled.
        unsafe {
            let index = _mm256_add_epi32(
                _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                _mm256_set1_epi32(k),
            );
            let keep = _mm256_cmpgt_epi32(_mm256_set1_epi32(8), index);
            _mm256_and_si256(_mm256_permutevar8x32_epi32(x, index), keep)
        }
    }

    /// Every lane moved `k` ranks toward rank 1 (lane `i` takes lane `i − k`).
    #[inline(always)]
    unsafe fn toward_rank_1(x: __m256i, k: i32) -> __m256i {
        unsafe {
            let index = _mm256_sub_epi32(
                _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                _mm256_set1_epi32(k),
            );
            let keep = _mm256_cmpgt_epi32(index, _mm256_set1_epi32(-1));
            _mm256_and_si256(_mm256_permutevar8x32_epi32(x, index), keep)
        }
    }

    /// One direction of travel: `RANKS` −1 toward rank 8, +1 toward rank 1, 0 along the rank;
    /// `FILES` +1 toward file a (left shift), −1 toward file h, 0 along the file.
    #[inline(always)]
    unsafe fn step<const RANKS: i32, const FILES: i32>(x: __m256i, k: i32) -> __m256i {
        unsafe {
            let x = match FILES {
                1 => _mm256_sll_epi32(x, _mm_cvtsi32_si128(4 * k)),
                -1 => _mm256_srl_epi32(x, _mm_cvtsi32_si128(4 * k)),
                _ => x,
            };
            match RANKS {
                -1 => toward_rank_8(x, k),
                1 => toward_rank_1(x, k),
                _ => x,
            }
        }
    }

    /// The squares the pieces of `sliders` (class bits on their squares) attack in one
    /// direction, through the `empty` squares: a Kogge–Stone occluded fill.
    #[inline(always)]
    unsafe fn ray<const RANKS: i32, const FILES: i32>(sliders: __m256i, empty: __m256i) -> __m256i {
        unsafe {
            let mut g = sliders;
            let mut p = empty;
            g = _mm256_or_si256(g, _mm256_and_si256(p, step::<RANKS, FILES>(g, 1)));
            p = _mm256_and_si256(p, step::<RANKS, FILES>(p, 1));
            g = _mm256_or_si256(g, _mm256_and_si256(p, step::<RANKS, FILES>(g, 2)));
            p = _mm256_and_si256(p, step::<RANKS, FILES>(p, 2));
            g = _mm256_or_si256(g, _mm256_and_si256(p, step::<RANKS, FILES>(g, 4)));
            step::<RANKS, FILES>(g, 1)
        }
    }

    /// `0xF` on every nibble of `board` equal to `code`.
    #[inline(always)]
    unsafe fn squares_of(board: __m256i, code: u8) -> __m256i {
        unsafe {
            let x = _mm256_xor_si256(board, _mm256_set1_epi32((code as u32 * 0x1111_1111) as i32));
            let low = _mm256_set1_epi32(0x7777_7777);
            let high = _mm256_set1_epi32(0x8888_8888_u32 as i32);
            // The high bit of each nibble: set iff the nibble of `x` is non-zero.
            let nonzero = _mm256_and_si256(
                _mm256_or_si256(x, _mm256_add_epi32(_mm256_and_si256(x, low), low)),
                high,
            );
            full_nibbles(_mm256_andnot_si256(nonzero, high))
        }
    }

    /// `1000b` per nibble → `1111b` (no borrow crosses a nibble: each has its 8).
    #[inline(always)]
    unsafe fn full_nibbles(eights: __m256i) -> __m256i {
        unsafe {
            _mm256_or_si256(
                _mm256_sub_epi32(eights, _mm256_srli_epi32(eights, 3)),
                eights,
            )
        }
    }

    /// The attack table of `by`.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn attacks_of(board: &Ccr, by: Colour) -> [u32; 8] {
        // SAFETY: AVX2 is enabled here.
        unsafe { store(table(load(board), by)) }
    }

    /// The tables of `by` on `boards` into `out` (as long), two boards per loop step: the
    /// two kernels inlined side by side share their constants and give the out-of-order
    /// core two independent chains.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn pairs(boards: &[Ccr], by: Colour, out: &mut [[u32; 8]]) {
        let mut pairs = boards.chunks_exact(2);
        let mut tables = out.chunks_exact_mut(2);
        for (pair, two) in (&mut pairs).zip(&mut tables) {
            // SAFETY: AVX2 is enabled here.
            unsafe {
                let (a, b) = (table(load(&pair[0]), by), table(load(&pair[1]), by));
                two[0] = store(a);
                two[1] = store(b);
            }
        }
        for (board, table) in pairs.remainder().iter().zip(tables.into_remainder()) {
            // SAFETY: AVX2 is enabled here.
            *table = unsafe { attacks_of(board, by) };
        }
    }

    /// The board's eight rank words, one per lane (an unaligned 32-byte load).
    #[inline(always)]
    pub(super) unsafe fn load(board: &Ccr) -> __m256i {
        // SAFETY: the board is 32 readable bytes; callers run with AVX2 enabled.
        unsafe { _mm256_loadu_si256(board.0.as_ptr().cast()) }
    }

    /// The eight lanes as a table.
    #[inline(always)]
    pub(super) unsafe fn store(table: __m256i) -> [u32; 8] {
        let mut out = [0u32; 8];
        // SAFETY: `out` is 32 writable bytes; callers run with AVX2 enabled.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), table) };
        out
    }

    /// The attack table of `by` on the board in `words`, inlined into its caller so that a
    /// batch can interleave several boards and share the constants.
    #[inline(always)]
    pub(super) unsafe fn table(words: __m256i, by: Colour) -> __m256i {
        // SAFETY: callers run with AVX2 enabled.
        unsafe {
            let base = by.code_bit();
            let class = |c: u32| _mm256_set1_epi32((c * 0x1111_1111) as i32);
            let (pawn, minor, rook, queen) = (class(8), class(4), class(2), class(1));

            let low = _mm256_set1_epi32(0x7777_7777);
            let high = _mm256_set1_epi32(0x8888_8888_u32 as i32);
            let occupied = full_nibbles(_mm256_and_si256(
                _mm256_or_si256(words, _mm256_add_epi32(_mm256_and_si256(words, low), low)),
                high,
            ));
            let empty = _mm256_xor_si256(occupied, _mm256_set1_epi32(-1));

            let pawns = squares_of(words, base | PieceCode::PAWN);
            let knights = squares_of(words, base | PieceCode::KNIGHT);
            let bishops = squares_of(words, base | PieceCode::BISHOP);
            let rooks = squares_of(words, base | PieceCode::ROOK);
            let queens = squares_of(words, base | PieceCode::QUEEN);
            let king = squares_of(words, base | PieceCode::KING);

            let sideways = |x: __m256i, files: i32| {
                _mm256_or_si256(
                    _mm256_sll_epi32(x, _mm_cvtsi32_si128(4 * files)),
                    _mm256_srl_epi32(x, _mm_cvtsi32_si128(4 * files)),
                )
            };

            // Pawns take one rank ahead, one file either side.
            let pawn_targets = sideways(pawns, 1);
            let pawn_targets = match by {
                Colour::White => toward_rank_8(pawn_targets, 1),
                Colour::Black => toward_rank_1(pawn_targets, 1),
            };
            let mut table = _mm256_and_si256(pawn_targets, pawn);

            // Knights: two ranks and one file, or one rank and two files.
            let (near, far) = (sideways(knights, 1), sideways(knights, 2));
            let leaps = _mm256_or_si256(
                _mm256_or_si256(toward_rank_8(near, 2), toward_rank_8(far, 1)),
                _mm256_or_si256(toward_rank_1(far, 1), toward_rank_1(near, 2)),
            );
            table = _mm256_or_si256(table, _mm256_and_si256(leaps, minor));

            // The king: the three squares above and below, the two beside.
            let beside = sideways(king, 1);
            let three = _mm256_or_si256(beside, king);
            let steps = _mm256_or_si256(
                _mm256_or_si256(toward_rank_8(three, 1), toward_rank_1(three, 1)),
                beside,
            );
            table = _mm256_or_si256(table, _mm256_and_si256(steps, queen));

            // Sliders, each carrying its class bits along the fill.
            let straight = _mm256_or_si256(
                _mm256_and_si256(rooks, rook),
                _mm256_and_si256(queens, queen),
            );
            let diagonal = _mm256_or_si256(
                _mm256_and_si256(bishops, minor),
                _mm256_and_si256(queens, queen),
            );
            let rays = [
                ray::<-1, 0>(straight, empty),
                ray::<1, 0>(straight, empty),
                ray::<0, 1>(straight, empty),
                ray::<0, -1>(straight, empty),
                ray::<-1, 1>(diagonal, empty),
                ray::<-1, -1>(diagonal, empty),
                ray::<1, 1>(diagonal, empty),
                ray::<1, -1>(diagonal, empty),
            ];
            for r in rays {
                table = _mm256_or_si256(table, r);
            }
            table
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ccr::Position;
    use crate::ccr::attacks;
    use crate::tiers::{self, Tier};

    /// The boards of random walks from several positions (about 24,000 with repeats).
    fn game_boards() -> Vec<Ccr> {
        let starts = [
            crate::ccr::fen::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "4k3/8/8/8/6N1/4P3/R1B1K3/8 w - - 0 1",
        ];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut boards = Vec::new();
        for start in starts {
            for _game in 0..40 {
                let mut pos = Position::from_fen(start).unwrap();
                for _ply in 0..120 {
                    boards.push(pos.board);
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    pos = pos.make(moves.as_slice()[(state % moves.len() as u64) as usize]);
                }
            }
        }
        boards
    }

    /// Arbitrary boards, pieces anywhere (pawns on the back ranks too, many queens), to
    /// reach what games do not.
    fn arbitrary_boards() -> Vec<Ccr> {
        let codes = [0u8, 0, 0, 0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        (0..5000)
            .map(|_| {
                let mut words = [0u32; 8];
                for w in &mut words {
                    for nibble in 0..8 {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        *w |= (codes[(state % 16) as usize] as u32) << (4 * nibble);
                    }
                }
                Ccr(words)
            })
            .collect()
    }

    /// Game positions: every table equal to the frame's.
    #[test]
    fn equal_to_the_frame_on_game_positions() {
        if !tiers::runs(Tier::Avx2, "simd::equal_to_the_frame_on_game_positions") {
            return;
        }
        let boards = game_boards();
        assert!(boards.len() > 5_000, "{}", boards.len());
        assert_equal_to_the_frame(&boards);
    }

    /// Both colours' tables of every board, by AVX2 and by the frame.
    fn assert_equal_to_the_frame(boards: &[Ccr]) {
        for board in boards {
            for by in [Colour::White, Colour::Black] {
                assert_eq!(
                    attacks_of(board, by),
                    attacks::attacks_of(board, by),
                    "{:08x?} {by:?}",
                    board.0
                );
            }
        }
    }

    /// Arbitrary boards: the fills and the frame agree beyond what games reach.
    #[test]
    fn equal_to_the_frame_on_arbitrary_boards() {
        if !tiers::runs(Tier::Avx2, "simd::equal_to_the_frame_on_arbitrary_boards") {
            return;
        }
        assert_equal_to_the_frame(&arbitrary_boards());
    }

    /// The tier a batch way needs, if any.
    fn tier(batch: Batch) -> Option<Tier> {
        match batch {
            Batch::Portable => None,
            Batch::Avx2 | Batch::Avx2Pairs => Some(Tier::Avx2),
            Batch::Avx512Pairs => Some(Tier::Avx512),
        }
    }

    /// Every batch way this CPU has (the others reported as skipped), on every board of both sources, both colours, every
    /// batch length from 0 to 9 (odd remainders included) at every offset into the boards,
    /// and the whole set at once: each table equal to the frame's for the same board.
    #[test]
    fn batches_equal_to_the_frame() {
        let mut boards = game_boards();
        boards.extend(arbitrary_boards());
        let available: Vec<Batch> = Batch::ALL
            .into_iter()
            .filter(|&b| tier(b).is_none_or(|t| tiers::runs(t, &format!("simd::batches {b:?}"))))
            .collect();
        assert!(available.iter().all(|b| b.is_available()));
        assert!(available.contains(&Batch::best()));
        for by in [Colour::White, Colour::Black] {
            let expected: Vec<[u32; 8]> =
                boards.iter().map(|b| attacks::attacks_of(b, by)).collect();
            for &batch in &available {
                let mut out = vec![[0xDEAD_BEEF; 8]; boards.len()];
                batch.attacks_of_many(&boards, by, &mut out);
                assert!(out == expected, "{batch:?} {by:?}: the whole set");
                for len in 0..=9 {
                    for start in (0..boards.len() - len).step_by(97) {
                        let mut out = vec![[0xDEAD_BEEF; 8]; len];
                        batch.attacks_of_many(&boards[start..start + len], by, &mut out);
                        assert_eq!(out, expected[start..start + len], "{batch:?} {by:?} {len}");
                    }
                }
            }
            let mut out = vec![[0; 8]; 3];
            attacks_of_many(&boards[..3], by, &mut out);
            assert_eq!(out, expected[..3]);
        }
    }

    /// Both colours of one board at once, on both sources, against the frame's block: by
    /// AVX-512 where the CPU has it, else by AVX2 (each missing tier reported).
    #[test]
    fn both_tables_equal_to_the_frame() {
        if !tiers::runs(Tier::Avx512, "simd::both_tables_equal_to_the_frame") {
            tiers::runs(Tier::Avx2, "simd::both_tables_equal_to_the_frame");
        }
        for board in game_boards().iter().chain(&arbitrary_boards()) {
            let block = attacks::AttackBlock::by_frame(board);
            assert_eq!(
                attack_tables(board),
                [*block.attacks(Colour::White), *block.attacks(Colour::Black)],
                "{:08x?}",
                board.0
            );
        }
    }

    /// A batch needs one table per board.
    #[test]
    #[should_panic(expected = "one table per board")]
    fn batch_lengths_must_agree() {
        attacks_of_many(&[Ccr::default(); 2], Colour::White, &mut [[0; 8]; 3]);
    }
}
