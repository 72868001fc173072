//! The attack tables by the vector kernels, each with the portable twin passed in for a CPU
//! that lacks the instructions (the kernels never call up into the frame themselves).
//!
//! Both colours of one board are a pair for AVX-512 ([`attack_tables`]):
//! `AttackBlock::new`, built at every search node, takes them from there, because it is faster
//! than the frame there too (docs/BENCHMARKS.md).

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

/// The attack table of `them` and how many moves the other side's knights, bishops, rooks
/// and queens not on `pinned` (`0xF` per square) have onto the squares its own pieces leave
/// free, from the same fills (AVX2); where the CPU lacks AVX2, `portable`'s table and no
/// count.
#[inline]
pub fn attacks_and_piece_moves(
    board: &Ccr,
    pinned: &[u32; 8],
    them: Colour,
    portable: impl FnOnce() -> [u32; 8],
) -> ([u32; 8], Option<u32>) {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    if super::cpu().avx2 {
        // SAFETY: the CPU has AVX2 (checked just above).
        let (table, moves) = unsafe { super::avx2::attacks_and_piece_moves(board, pinned, them) };
        return (table, Some(moves));
    }
    let _ = pinned;
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
    use crate::arch::{Tier, runs};
    use crate::ccr::Position;
    use crate::ccr::attacks;

    /// The boards of random walks from several positions (about 24,000 with repeats).
    fn game_boards() -> Vec<Ccr> {
        let starts = [
            crate::positions::STARTPOS,
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
                    boards.push(*pos.board());
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
                    board.0
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

    /// The table and the count made together: the table equal to the frame's, the count
    /// equal to [`count_piece_moves`] of the other side's knights and sliders but the pinned
    /// ones onto the squares its own pieces leave free (nothing pinned, then a fixed scatter
    /// of squares).
    #[test]
    fn table_and_count_together_equal_each_alone() {
        if !runs(
            Tier::Avx2,
            "simd::table_and_count_together_equal_each_alone",
        ) {
            return;
        }
        let scatter: [u32; 8] = std::array::from_fn(|w| 0xF00F_0F00u32.rotate_left(4 * w as u32));
        for board in game_boards().iter().chain(&arbitrary_boards()) {
            let masks = board.colour_masks();
            let occupied: [u32; 8] = std::array::from_fn(|w| masks[0][w] | masks[1][w]);
            for them in [Colour::White, Colour::Black] {
                let targets = masks[them.flip() as usize].map(|own| !own);
                for pinned in [[0; 8], scatter] {
                    let free = Ccr(std::array::from_fn(|w| board.0[w] & !pinned[w]));
                    let (table, moves) =
                        attacks_and_piece_moves(board, &pinned, them, || unreachable!());
                    assert_eq!(table, attacks::attacks_of(board, them), "{:08x?}", board.0);
                    assert_eq!(
                        moves,
                        count_piece_moves(&free, &occupied, &targets, them.flip()),
                        "{:08x?} {them:?} pinned {pinned:08x?}",
                        board.0
                    );
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
                board.0
            );
        }
    }
}
