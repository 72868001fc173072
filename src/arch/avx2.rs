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
//! nibbles of WHITE_ATTACKS / BLACK_ATTACKS directly. The twin is the frame's
//! `crate::ccr::attacks::attacks_of`; tests prove them equal on every square.
//!
//! No closures in a `#[target_feature]` function here, only `#[inline(always)]` helpers:
//! rustc 1.85, the i686 toolchain, compiles a closure without its caller's features, and
//! every intrinsic in it becomes a call (the count ran 3.6 times slower on i686 so).
//!
//! [`load`], [`table`] and [`store`] are the kernel's pieces, public so that a caller with
//! AVX2 enabled can interleave several boards (the batch benchmark of `benches/attacks.rs`).

#[cfg(target_arch = "x86")]
use std::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use crate::ccr::board::Ccr;
use crate::types::{Colour, PieceType};

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

/// How many moves the knights, bishops, rooks and queens of `by` on `pieces` have onto
/// `targets` (`0xF` on each target square), the rays blocked by `occupied` (`0xF` on every
/// occupied square, which `pieces` may leave out, e.g. the pinned pieces and the pawns).
///
/// Counted by sets, one per direction of travel: in one direction no two pieces reach the
/// same square (a knight's leap is a shift; a slider's ray stops at the first piece on it,
/// the one behind included), so each direction's targets, counted, are its moves. No square
/// is reached from more than eight directions of one kind, so a nibble sums them without
/// carrying into the next.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn count_piece_moves(
    pieces: &Ccr,
    occupied: &[u32; 8],
    targets: &[u32; 8],
    by: Colour,
) -> u32 {
    // SAFETY: AVX2 is enabled here; the loads read 32 bytes of each 32-byte array.
    unsafe {
        let low = _mm256_set1_epi32(0x1111_1111);
        let words = load(pieces);
        let targets = _mm256_and_si256(_mm256_loadu_si256(targets.as_ptr().cast()), low);
        let empty = _mm256_andnot_si256(_mm256_loadu_si256(occupied.as_ptr().cast()), low);
        let base = by.code_bit();
        let knights = _mm256_and_si256(squares_of(words, base | PieceType::Knight.bits()), low);
        let queens = _mm256_and_si256(squares_of(words, base | PieceType::Queen.bits()), low);
        let rooks = _mm256_and_si256(squares_of(words, base | PieceType::Rook.bits()), low);
        let bishops = _mm256_and_si256(squares_of(words, base | PieceType::Bishop.bits()), low);
        let straight = _mm256_or_si256(rooks, queens);
        let diagonal = _mm256_or_si256(bishops, queens);

        let mut leaps = _mm256_setzero_si256();
        for (ranks, files) in [(2, 1), (2, -1), (1, 2), (1, -2)] {
            let (up, down) = (toward_rank_8(knights, ranks), toward_rank_1(knights, ranks));
            for moved in [up, down] {
                leaps =
                    _mm256_add_epi32(leaps, _mm256_and_si256(files_over(moved, files), targets));
            }
        }
        let rays = rays(straight, diagonal, empty);
        let mut slides = _mm256_setzero_si256();
        for r in rays {
            slides = _mm256_add_epi32(slides, _mm256_and_si256(r, targets));
        }
        nibble_total(leaps, slides, _mm256_setzero_si256())
    }
}

/// The attack table of `them` on `board`, and how many moves the other side has but those
/// of its pieces on `pinned` (`0xF` per square) and its en-passant captures, its king's
/// counted as if not in check (steps onto squares neither its own nor in the table): the
/// legal move count of a position without check, pins or en passant, in one pass.
///
/// Both colours ride in the same registers, so each knight leap and each slider fill is
/// made once for the two: the enemy's pieces carry their class bits as in [`table`], ours
/// bit 3, which no fill of the table carries (it is the pawns' class). The fills stop at
/// the same blockers for both, since they run through the same empty squares. The table is
/// then the low three bits of every fill, our knights' and sliders' count the bit 3s summed
/// per direction ([`count_piece_moves`]). Our pawns' pushes, double pushes and captures
/// are four shifted sets (a move to the last rank counts four times, one per promotion);
/// the king's steps are its eight neighbours less our pieces and the finished table.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn attacks_and_moves(board: &Ccr, pinned: &[u32; 8], them: Colour) -> ([u32; 8], u32) {
    // SAFETY: AVX2 is enabled here; the loads read the 32 bytes of each array.
    unsafe {
        let words = load(board);
        let (pawn, minor, rook, queen) = (
            class_nibbles(8),
            class_nibbles(4),
            class_nibbles(2),
            class_nibbles(1),
        );
        let low = _mm256_set1_epi32(0x1111_1111);
        let empty = _mm256_xor_si256(occupancy(words), _mm256_set1_epi32(-1));
        // `0xF` on Black's pieces (colour bit 3), and the targets `0xF` off our own pieces:
        // a full mask, since it masks the sums, whose nibbles run up to 8.
        let black = full_nibbles(_mm256_and_si256(words, pawn));
        let targets = match them {
            Colour::Black => _mm256_or_si256(empty, black),
            Colour::White => _mm256_xor_si256(black, _mm256_set1_epi32(-1)),
        };
        // Bit 3 on our free pieces' squares.
        let ours = _mm256_andnot_si256(_mm256_loadu_si256(pinned.as_ptr().cast()), pawn);
        let (base, our_base) = (them.code_bit(), them.flip().code_bit());

        let knights = _mm256_or_si256(
            _mm256_and_si256(squares_of(words, base | PieceType::Knight.bits()), minor),
            _mm256_and_si256(squares_of(words, our_base | PieceType::Knight.bits()), ours),
        );
        let their_queens =
            _mm256_and_si256(squares_of(words, base | PieceType::Queen.bits()), queen);
        let our_queens = squares_of(words, our_base | PieceType::Queen.bits());
        let straight = _mm256_or_si256(
            _mm256_or_si256(
                _mm256_and_si256(squares_of(words, base | PieceType::Rook.bits()), rook),
                their_queens,
            ),
            _mm256_and_si256(
                _mm256_or_si256(
                    squares_of(words, our_base | PieceType::Rook.bits()),
                    our_queens,
                ),
                ours,
            ),
        );
        let diagonal = _mm256_or_si256(
            _mm256_or_si256(
                _mm256_and_si256(squares_of(words, base | PieceType::Bishop.bits()), minor),
                their_queens,
            ),
            _mm256_and_si256(
                _mm256_or_si256(
                    squares_of(words, our_base | PieceType::Bishop.bits()),
                    our_queens,
                ),
                ours,
            ),
        );

        // Every fill ORs into the table and adds its bit 3s, as low bits, to our count. A
        // kind of piece neither side has is skipped (endings have few kinds, and the same
        // ones all through a search, so the branches predict well).
        let mut table = king_attacks(squares_of(words, base | PieceType::King.bits()));
        let mut leaps = _mm256_setzero_si256();
        if _mm256_testz_si256(knights, knights) == 0 {
            for (ranks, files) in [(2, 1), (2, -1), (1, 2), (1, -2)] {
                for moved in [toward_rank_8(knights, ranks), toward_rank_1(knights, ranks)] {
                    let fill = files_over(moved, files);
                    table = _mm256_or_si256(table, fill);
                    leaps =
                        _mm256_add_epi32(leaps, _mm256_and_si256(_mm256_srli_epi32(fill, 3), low));
                }
            }
        }
        let mut slides = _mm256_setzero_si256();
        if _mm256_testz_si256(straight, straight) == 0 {
            take_fills(&mut table, &mut slides, straight_rays(straight, empty));
        }
        if _mm256_testz_si256(diagonal, diagonal) == 0 {
            take_fills(&mut table, &mut slides, diagonal_rays(diagonal, empty));
        }
        // Our bit 3s leave the table; the enemy pawns' class takes their place.
        let table = _mm256_or_si256(
            _mm256_andnot_si256(pawn, table),
            pawn_attacks(squares_of(words, base | PieceType::Pawn.bits()), them),
        );
        let pawns = pawn_moves(
            _mm256_and_si256(squares_of(words, our_base | PieceType::Pawn.bits()), ours),
            empty,
            _mm256_andnot_si256(empty, targets),
            them.flip(),
        );
        let king = _mm256_andnot_si256(
            occupancy(table),
            _mm256_and_si256(
                king_attacks(squares_of(words, our_base | PieceType::King.bits())),
                targets,
            ),
        );
        (
            store(table),
            nibble_total(
                _mm256_and_si256(leaps, targets),
                _mm256_and_si256(slides, targets),
                _mm256_add_epi32(pawns, king),
            ),
        )
    }
}

/// ORs each of `fills` into `table` and adds its bit 3s, as low bits, to `count`.
///
/// A function, not a closure in its caller: rustc 1.85, the i686 toolchain, compiles a
/// closure inside a `#[target_feature(enable = "avx2")]` function without the feature, and
/// every intrinsic in it becomes a call.
#[inline(always)]
unsafe fn take_fills(table: &mut __m256i, count: &mut __m256i, fills: [__m256i; 4]) {
    unsafe {
        let low = _mm256_set1_epi32(0x1111_1111);
        for fill in fills {
            *table = _mm256_or_si256(*table, fill);
            *count = _mm256_add_epi32(*count, _mm256_and_si256(_mm256_srli_epi32(fill, 3), low));
        }
    }
}

/// Every lane's nibbles one rank ahead of `by`'s pawns.
#[inline(always)]
unsafe fn pawn_step(x: __m256i, by: Colour) -> __m256i {
    unsafe {
        match by {
            Colour::White => toward_rank_8(x, 1),
            Colour::Black => toward_rank_1(x, 1),
        }
    }
}

/// All ones in lane `word` (a rank word), zero in the others.
#[inline(always)]
unsafe fn lane(word: i32) -> __m256i {
    unsafe {
        _mm256_cmpeq_epi32(
            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
            _mm256_set1_epi32(word),
        )
    }
}

/// Per square, how many moves the pawns of `by` on `pawns` (bit 3 each) have onto it: a
/// push onto an `empty` square (`0xF` each), a double push from the start rank, a capture
/// of a piece on `theirs` (`0xF` each) from either side; four on the last rank, one per
/// promotion. At most eight a square.
#[inline(always)]
unsafe fn pawn_moves(pawns: __m256i, empty: __m256i, theirs: __m256i, by: Colour) -> __m256i {
    unsafe {
        // The rank a double push crosses (the third of `by`), and its last rank.
        let (third, last) = match by {
            Colour::White => (5, 0),
            Colour::Black => (2, 7),
        };
        let pushed = _mm256_and_si256(pawn_step(pawns, by), empty);
        let double = _mm256_and_si256(pawn_step(_mm256_and_si256(pushed, lane(third)), by), empty);
        let captures = _mm256_and_si256(pawn_step(sideways(pawns, 1), by), theirs);
        let captures_twice = _mm256_and_si256(
            _mm256_and_si256(
                pawn_step(_mm256_slli_epi32(pawns, 4), by),
                pawn_step(_mm256_srli_epi32(pawns, 4), by),
            ),
            theirs,
        );
        // Bit 3 per move: one for a push, a double push or a capture, two for a square
        // taken from both sides.
        let moves = _mm256_add_epi32(
            _mm256_srli_epi32(
                _mm256_or_si256(_mm256_or_si256(pushed, double), captures),
                3,
            ),
            _mm256_srli_epi32(captures_twice, 3),
        );
        let moves = _mm256_and_si256(moves, _mm256_set1_epi32(0x3333_3333));
        // Four on the last rank: the count shifted up two bits there.
        let last = lane(last);
        _mm256_or_si256(
            _mm256_andnot_si256(last, moves),
            _mm256_slli_epi32(_mm256_and_si256(last, moves), 2),
        )
    }
}

/// The sum of every nibble of `leaps`, `slides` and `more` (each nibble at most 9).
#[inline(always)]
unsafe fn nibble_total(leaps: __m256i, slides: __m256i, more: __m256i) -> u32 {
    unsafe {
        // Nibble sums (at most 9 each) to byte sums (at most 54), then the bytes added up.
        let bytes = _mm256_add_epi8(byte_sums(leaps), byte_sums(slides));
        let sums = _mm256_sad_epu8(
            _mm256_add_epi8(bytes, byte_sums(more)),
            _mm256_setzero_si256(),
        );
        let halves = _mm_add_epi64(
            _mm256_castsi256_si128(sums),
            _mm256_extracti128_si256(sums, 1),
        );
        let total = _mm_add_epi64(halves, _mm_unpackhi_epi64(halves, halves));
        _mm_cvtsi128_si32(total) as u32
    }
}

/// Every lane's nibbles moved `files` files (±1 or ±2; + toward file a).
#[inline(always)]
unsafe fn files_over(x: __m256i, files: i32) -> __m256i {
    unsafe {
        match files {
            1 => _mm256_slli_epi32(x, 4),
            2 => _mm256_slli_epi32(x, 8),
            -1 => _mm256_srli_epi32(x, 4),
            _ => _mm256_srli_epi32(x, 8),
        }
    }
}

/// Each byte the sum of its two nibbles.
#[inline(always)]
unsafe fn byte_sums(x: __m256i) -> __m256i {
    unsafe {
        let nibbles = _mm256_set1_epi8(0x0F);
        _mm256_add_epi8(
            _mm256_and_si256(x, nibbles),
            _mm256_and_si256(_mm256_srli_epi32(x, 4), nibbles),
        )
    }
}

/// Every lane's nibbles moved `files` files toward a and toward h, OR-ed.
#[inline(always)]
unsafe fn sideways(x: __m256i, files: i32) -> __m256i {
    unsafe {
        _mm256_or_si256(
            _mm256_sll_epi32(x, _mm_cvtsi32_si128(4 * files)),
            _mm256_srl_epi32(x, _mm_cvtsi32_si128(4 * files)),
        )
    }
}

/// `class` in every nibble of every lane.
#[inline(always)]
unsafe fn class_nibbles(class: u32) -> __m256i {
    unsafe { _mm256_set1_epi32((class * 0x1111_1111) as i32) }
}

/// The eight directions' attacks of the `straight` sliders (rook directions) and the
/// `diagonal` ones through the `empty` squares, one direction each.
#[inline(always)]
unsafe fn rays(straight: __m256i, diagonal: __m256i, empty: __m256i) -> [__m256i; 8] {
    unsafe {
        let ([a, b, c, d], [e, f, g, h]) = (
            straight_rays(straight, empty),
            diagonal_rays(diagonal, empty),
        );
        [a, b, c, d, e, f, g, h]
    }
}

/// The four rook directions' attacks of `straight` through the `empty` squares.
#[inline(always)]
unsafe fn straight_rays(straight: __m256i, empty: __m256i) -> [__m256i; 4] {
    unsafe {
        [
            ray::<-1, 0>(straight, empty),
            ray::<1, 0>(straight, empty),
            ray::<0, 1>(straight, empty),
            ray::<0, -1>(straight, empty),
        ]
    }
}

/// The four diagonal directions' attacks of `diagonal` through the `empty` squares.
#[inline(always)]
unsafe fn diagonal_rays(diagonal: __m256i, empty: __m256i) -> [__m256i; 4] {
    unsafe {
        [
            ray::<-1, 1>(diagonal, empty),
            ray::<-1, -1>(diagonal, empty),
            ray::<1, 1>(diagonal, empty),
            ray::<1, -1>(diagonal, empty),
        ]
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

/// The board's eight rank words, one per lane, loaded as two 16-byte halves: make writes a
/// board in 16-byte stores, and a 32-byte load of a board just made would wait for both to
/// retire (a store-forwarding stall), where each half forwards from its own store.
///
/// # Safety
/// The caller must run with AVX2 enabled.
#[inline(always)]
pub unsafe fn load(board: &Ccr) -> __m256i {
    // SAFETY: the board is 32 readable bytes; callers run with AVX2 enabled.
    unsafe {
        let words = board.words().as_ptr();
        let low = _mm_loadu_si128(words.cast());
        let high = _mm_loadu_si128(words.add(4).cast());
        _mm256_inserti128_si256(_mm256_castsi128_si256(low), high, 1)
    }
}

/// The eight lanes as a table.
///
/// # Safety
/// The caller must run with AVX2 enabled.
#[inline(always)]
pub unsafe fn store(table: __m256i) -> [u32; 8] {
    let mut out = [0u32; 8];
    // SAFETY: `out` is 32 writable bytes; callers run with AVX2 enabled.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), table) };
    out
}

/// The attack table of `by` on the board in `words`, inlined into its caller so that a
/// batch can interleave several boards and share the constants.
///
/// # Safety
/// The caller must run with AVX2 enabled.
#[inline(always)]
pub unsafe fn table(words: __m256i, by: Colour) -> __m256i {
    // SAFETY: callers run with AVX2 enabled.
    unsafe {
        let base = by.code_bit();
        let (minor, rook, queen) = (class_nibbles(4), class_nibbles(2), class_nibbles(1));
        let empty = _mm256_xor_si256(occupancy(words), _mm256_set1_epi32(-1));

        let knights = squares_of(words, base | PieceType::Knight.bits());
        let bishops = squares_of(words, base | PieceType::Bishop.bits());
        let rooks = squares_of(words, base | PieceType::Rook.bits());
        let queens = squares_of(words, base | PieceType::Queen.bits());

        let mut table = pawn_attacks(squares_of(words, base | PieceType::Pawn.bits()), by);

        // Knights: two ranks and one file, or one rank and two files.
        let (near, far) = (sideways(knights, 1), sideways(knights, 2));
        let leaps = _mm256_or_si256(
            _mm256_or_si256(toward_rank_8(near, 2), toward_rank_8(far, 1)),
            _mm256_or_si256(toward_rank_1(far, 1), toward_rank_1(near, 2)),
        );
        table = _mm256_or_si256(table, _mm256_and_si256(leaps, minor));
        table = _mm256_or_si256(
            table,
            king_attacks(squares_of(words, base | PieceType::King.bits())),
        );

        // Sliders, each carrying its class bits along the fill.
        let straight = _mm256_or_si256(
            _mm256_and_si256(rooks, rook),
            _mm256_and_si256(queens, queen),
        );
        let diagonal = _mm256_or_si256(
            _mm256_and_si256(bishops, minor),
            _mm256_and_si256(queens, queen),
        );
        let rays = rays(straight, diagonal, empty);
        for r in rays {
            table = _mm256_or_si256(table, r);
        }
        table
    }
}

/// `0xF` on every occupied square of the board in `words`.
#[inline(always)]
unsafe fn occupancy(words: __m256i) -> __m256i {
    unsafe {
        let low = _mm256_set1_epi32(0x7777_7777);
        let high = _mm256_set1_epi32(0x8888_8888_u32 as i32);
        full_nibbles(_mm256_and_si256(
            _mm256_or_si256(words, _mm256_add_epi32(_mm256_and_si256(words, low), low)),
            high,
        ))
    }
}

/// The pawn class (`1000b`) on every square the pawns of `by` on `pawns` (`0xF` each)
/// attack: one rank ahead, one file either side.
#[inline(always)]
unsafe fn pawn_attacks(pawns: __m256i, by: Colour) -> __m256i {
    unsafe {
        let targets = sideways(pawns, 1);
        let targets = match by {
            Colour::White => toward_rank_8(targets, 1),
            Colour::Black => toward_rank_1(targets, 1),
        };
        _mm256_and_si256(targets, class_nibbles(8))
    }
}

/// The king's class (`0001b`, the queen's) on every square next to the king on `king`
/// (`0xF`): the three squares above and below, the two beside.
#[inline(always)]
unsafe fn king_attacks(king: __m256i) -> __m256i {
    unsafe {
        let beside = sideways(king, 1);
        let three = _mm256_or_si256(beside, king);
        let steps = _mm256_or_si256(
            _mm256_or_si256(toward_rank_8(three, 1), toward_rank_1(three, 1)),
            beside,
        );
        _mm256_and_si256(steps, class_nibbles(1))
    }
}
