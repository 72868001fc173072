//! The vector kernels' attack tables and counts behind one check of the CPU per call, each
//! with the portable twin passed in for a CPU that lacks the instructions (the kernels never
//! call up into the frame themselves): the entry points of the benchmarks, the fuzz target and
//! the tests that compare the tiers. The engine's paths do not come here: its kernel markers
//! (`crate::ccr::kernel`) call each tier's code directly, chosen once.
//!
//! Both colours of one board are a pair for AVX-512 ([`attack_tables`]), which the search's
//! attack block takes on that tier, because it is faster than the frame there too
//! (docs/BENCHMARKS.md).

use super::Tier;
use crate::ccr::board::Ccr;
use crate::types::Colour;

/// The attack table of `by`: AVX2 where the CPU has it, `portable` otherwise.
#[inline]
pub fn attacks_of(
    board: &Ccr,
    by: Colour,
    portable: impl FnOnce(&Ccr, Colour) -> [u32; 8],
) -> [u32; 8] {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    if super::cpu().avx2 {
        // SAFETY: the CPU has AVX2 (checked just above).
        return unsafe { super::avx2::attacks_of(board, by) };
    }
    portable(board, by)
}

/// Whether the CPU runs the counts below (AVX2).
#[inline]
pub fn counts() -> bool {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        super::cpu().avx2
    }
    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
    {
        false
    }
}

/// How many moves the knights, bishops, rooks and queens of `by` on `pieces` have onto
/// `targets`, counted by the same fills as the tables (AVX2), or `None` where the CPU lacks
/// AVX2 (the caller then counts them piece by piece).
#[inline]
pub fn count_piece_moves(
    pieces: &Ccr,
    occupied: &[u32; 8],
    targets: &[u32; 8],
    by: Colour,
) -> Option<u32> {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    if super::cpu().avx2 {
        // SAFETY: the CPU has AVX2 (checked just above).
        return Some(unsafe { super::avx2::count_piece_moves(pieces, occupied, targets, by) });
    }
    let _ = (pieces, occupied, targets, by);
    None
}

/// The attack table of `them` and how many moves the other side has but those of its
/// pieces on `pinned` (`0xF` per square), its en-passant captures and castling, its king's
/// as if not in check, from the same fills, by the widest kernel up to `widest` that the CPU
/// runs (AVX-512, two directions a register, else AVX2); where neither runs, `portable`'s
/// table and no count.
#[inline]
pub fn attacks_and_moves(
    widest: Tier,
    board: &Ccr,
    pinned: &[u32; 8],
    them: Colour,
    portable: impl FnOnce() -> [u32; 8],
) -> ([u32; 8], Option<u32>) {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        let cpu = super::cpu();
        let counted = if widest >= Tier::Avx512 && cpu.avx512f {
            // SAFETY: the CPU has AVX-512F (checked just above).
            Some(unsafe { super::avx512::attacks_and_moves(board, pinned, them) })
        } else if widest >= Tier::Avx2 && cpu.avx2 {
            // SAFETY: the CPU has AVX2 (checked just above).
            Some(unsafe { super::avx2::attacks_and_moves(board, pinned, them) })
        } else {
            None
        };
        if let Some((table, moves)) = counted {
            return (table, Some(moves));
        }
    }
    let _ = (widest, pinned);
    (portable(), None)
}

/// WHITE_ATTACKS and BLACK_ATTACKS of one board: AVX-512 with both colours in one `zmm`
/// register, else AVX2 once per colour, else `portable` (the frame's one pass).
#[inline]
pub fn attack_tables(board: &Ccr, portable: impl FnOnce(&Ccr) -> [[u32; 8]; 2]) -> [[u32; 8]; 2] {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        let cpu = super::cpu();
        if cpu.avx512f {
            let mut tables = [[0; 8]; 2];
            // SAFETY: the CPU has AVX-512F (checked just above).
            unsafe {
                super::avx512::attacks_of_pair(
                    board,
                    board,
                    (Colour::White, Colour::Black),
                    &mut tables,
                )
            };
            return tables;
        } else if cpu.avx2 {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe {
                [
                    super::avx2::attacks_of(board, Colour::White),
                    super::avx2::attacks_of(board, Colour::Black),
                ]
            };
        }
    }
    portable(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::runs;
    use crate::ccr::attacks;
    use crate::positions::random_games;
    use crate::types::PieceType;

    /// The boards of random games from several positions, forty games each, at most 120
    /// boards a game.
    fn game_boards() -> Vec<Ccr> {
        let starts = [
            &crate::positions::STANDARD[..4],
            &["4k3/8/8/8/6N1/4P3/R1B1K3/8 w - - 0 1"],
        ]
        .concat();
        let mut boards = Vec::new();
        random_games(
            starts,
            40,
            0,
            119,
            |_| (),
            |_, pos, _, _| {
                boards.push(*pos.board());
                true
            },
        );
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
                Ccr::from_words(words)
            })
            .collect()
    }

    /// Game positions: every table equal to the frame's.
    #[test]
    fn equal_to_the_frame_on_game_positions() {
        if !runs(Tier::Avx2, "simd::equal_to_the_frame_on_game_positions") {
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
                    attacks_of(board, by, attacks::attacks_of),
                    attacks::attacks_of(board, by),
                    "{:08x?} {by:?}",
                    board.words()
                );
            }
        }
    }

    /// Arbitrary boards: the fills and the frame agree beyond what games reach.
    #[test]
    fn equal_to_the_frame_on_arbitrary_boards() {
        if !runs(Tier::Avx2, "simd::equal_to_the_frame_on_arbitrary_boards") {
            return;
        }
        assert_equal_to_the_frame(&arbitrary_boards());
    }

    /// How many moves the pawns and kings of `us` on `board` have, pawns on `pinned` left
    /// out, en passant and castling left out, and how many squares next to its kings hold
    /// none of its pieces and no attack of `table` (each once, as the kernels count steps by
    /// sets; a legal board has one king): square by square, the reference for the kernels.
    fn pawn_and_king_moves(board: &Ccr, pinned: &[u32; 8], us: Colour, table: &[u32; 8]) -> u32 {
        let code = |w: isize, n: isize| -> Option<u32> {
            ((0..8).contains(&w) && (0..8).contains(&n))
                .then(|| (board.words()[w as usize] >> (4 * n)) & 0xF)
        };
        let base = us.code_bit() as u32;
        let (ahead, start, last) = match us {
            Colour::White => (-1, 6, 0),
            Colour::Black => (1, 1, 7),
        };
        let (mut moves, mut steps) = (0, [0u32; 8]);
        for w in 0..8isize {
            for n in 0..8isize {
                let piece = code(w, n).unwrap();
                if piece == base | PieceType::Pawn.bits() as u32
                    && pinned[w as usize] >> (4 * n) & 0xF == 0
                {
                    let weight = if w + ahead == last { 4 } else { 1 };
                    if code(w + ahead, n) == Some(0) {
                        moves += weight;
                        if w == start && code(w + 2 * ahead, n) == Some(0) {
                            moves += 1;
                        }
                    }
                    for side in [-1, 1] {
                        if code(w + ahead, n + side).is_some_and(|c| c != 0 && c & 8 != base) {
                            moves += weight;
                        }
                    }
                }
                if piece == base | PieceType::King.bits() as u32 {
                    for (dw, dn) in (-1..=1).flat_map(|dw| (-1..=1).map(move |dn| (dw, dn))) {
                        let free = code(w + dw, n + dn).is_some_and(|c| c == 0 || c & 8 != base);
                        let attacked =
                            free && table[(w + dw) as usize] >> (4 * (n + dn)) & 0xF != 0;
                        if (dw, dn) != (0, 0) && free && !attacked {
                            steps[(w + dw) as usize] |= 1 << (4 * (n + dn));
                        }
                    }
                }
            }
        }
        moves + steps.iter().map(|s| s.count_ones()).sum::<u32>()
    }

    /// The table and the count made together, by the AVX-512 kernel where the CPU has it and
    /// by the AVX2 one: the table equal to the frame's, the count equal to
    /// [`count_piece_moves`] of the other side's knights and sliders but the pinned ones
    /// onto the squares its own pieces leave free plus its pawns' and king's moves counted
    /// square by square (nothing pinned, then a fixed scatter of squares).
    #[test]
    fn table_and_count_together_equal_each_alone() {
        if !runs(
            Tier::Avx2,
            "simd::table_and_count_together_equal_each_alone",
        ) {
            return;
        }
        // Reported where the CPU lacks it; the AVX2 kernel is checked either way.
        runs(
            Tier::Avx512,
            "simd::table_and_count_together_equal_each_alone",
        );
        let scatter: [u32; 8] = std::array::from_fn(|w| 0xF00F_0F00u32.rotate_left(4 * w as u32));
        for board in game_boards().iter().chain(&arbitrary_boards()) {
            let masks = board.colour_masks();
            let occupied: [u32; 8] = std::array::from_fn(|w| masks[0][w] | masks[1][w]);
            for them in [Colour::White, Colour::Black] {
                let targets = masks[them.flip() as usize].map(|own| !own);
                let frame_table = attacks::attacks_of(board, them);
                for pinned in [[0; 8], scatter] {
                    let free =
                        Ccr::from_words(std::array::from_fn(|w| board.words()[w] & !pinned[w]));
                    let expected =
                        count_piece_moves(&free, &occupied, &targets, them.flip()).map(|pieces| {
                            pieces + pawn_and_king_moves(board, &pinned, them.flip(), &frame_table)
                        });
                    let by_avx2 =
                        attacks_and_moves(Tier::Avx2, board, &pinned, them, || unreachable!());
                    let by_best =
                        attacks_and_moves(Tier::Avx512, board, &pinned, them, || unreachable!());
                    for (table, moves) in [by_avx2, by_best] {
                        assert_eq!(table, frame_table, "{:08x?}", board.words());
                        assert_eq!(
                            moves,
                            expected,
                            "{:08x?} {them:?} pinned {pinned:08x?}",
                            board.words()
                        );
                    }
                }
            }
        }
    }

    /// Both colours of one board at once, on both sources, against the frame's block: by
    /// AVX-512 where the CPU has it, else by AVX2 (each missing tier reported).
    #[test]
    fn both_tables_equal_to_the_frame() {
        if !runs(Tier::Avx512, "simd::both_tables_equal_to_the_frame") {
            runs(Tier::Avx2, "simd::both_tables_equal_to_the_frame");
        }
        for board in game_boards().iter().chain(&arbitrary_boards()) {
            let block = attacks::AttackBlock::by_frame(board);
            assert_eq!(
                attack_tables(board, |b| {
                    let block = attacks::AttackBlock::by_frame(b);
                    [*block.attacks(Colour::White), *block.attacks(Colour::Black)]
                }),
                [*block.attacks(Colour::White), *block.attacks(Colour::Black)],
                "{:08x?}",
                board.words()
            );
        }
    }
}
