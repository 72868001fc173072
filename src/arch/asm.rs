//! The hand-written assembly of `asm/` (`asm/x86_64.s` on x86-64, `asm/x86.s` on 32-bit x86;
//! `build.rs` picks the file and sets the cfg `ccr_asm`, so other architectures build without
//! this module): the C.C.R. routines in the paper's machine-code style, each behind a safe
//! wrapper that the tests prove equal to its portable twin.
//!
//! The symbols are `extern "C"` (System V on x86-64, cdecl on i686), one per routine:
//!
//! | routine                  | portable twin                            |
//! |--------------------------|------------------------------------------|
//! | `ccr_asm_convert`        | [`crate::arch::convert::portable`]       |
//! | `ccr_asm_attacks_of`     | the frame's `ccr::attacks::attacks_of`   |
//! | `ccr_asm_slider_targets` | the ray walk of the tests                |
//! | `ccr_asm_board_key`      | `benches/common/asm.rs` (benchmark only) |
//! | `ccr_asm_knight_targets` | `benches/common/asm.rs` (benchmark only) |
//! | `ccr_asm_king_targets`   | `benches/common/asm.rs` (benchmark only) |
//!
//! The last three lose to the compiler's code and serve only their benchmarks: they stay in
//! the assembly files (one `global_asm!` per architecture), and the benchmarks declare and
//! wrap them themselves.
//!
//! Every routine writes its whole out array and reads or writes nothing outside the arrays
//! it is given, for a rank word index below 8 (which the wrappers guarantee by taking a
//! [`Square`]). Since it writes all of it, the wrappers hand it uninitialised memory: no
//! zeroing twice.

#![cfg(ccr_asm)]

use std::mem::MaybeUninit;

use super::convert::PieceBoards;
use crate::ccr::board::Ccr;
use crate::types::{Colour, Square};

core::arch::global_asm!(include_str!(env!("CCR_ASM_FILE")));

unsafe extern "C" {
    fn ccr_asm_convert(board: *const u32, out: *mut u64);
    fn ccr_asm_attacks_of(board: *const u32, black: u32, out: *mut u32);
    fn ccr_asm_slider_targets(
        occupied: *const u32,
        word: u32,
        mask: u32,
        directions: u32,
        out: *mut u32,
    );
}

/// Ray direction bits of [`slider_targets`]: toward rank 8 (word − 1).
pub const NORTH: u32 = 1 << 0;
/// Toward rank 1 (word + 1).
pub const SOUTH: u32 = 1 << 1;
/// Toward file a (`mask << 4`).
pub const WEST: u32 = 1 << 2;
/// Toward file h (`mask >> 4`).
pub const EAST: u32 = 1 << 3;
/// Toward rank 8 and file a.
pub const NORTH_WEST: u32 = 1 << 4;
/// Toward rank 8 and file h.
pub const NORTH_EAST: u32 = 1 << 5;
/// Toward rank 1 and file a.
pub const SOUTH_WEST: u32 = 1 << 6;
/// Toward rank 1 and file h.
pub const SOUTH_EAST: u32 = 1 << 7;
/// A rook's four directions.
pub const ROOK: u32 = 0x0F;
/// A bishop's four directions.
pub const BISHOP: u32 = 0xF0;
/// A queen's eight directions.
pub const QUEEN: u32 = 0xFF;

/// The C.C.R. → bitboards conversion in assembly (twin: [`super::convert::portable`]).
#[inline]
pub fn convert(board: &Ccr) -> PieceBoards {
    let mut out = MaybeUninit::<PieceBoards>::uninit();
    // SAFETY: the routine reads the 8 words of `board` and writes all 16 words of `out`
    // (so it is initialised after the call) and nothing else.
    unsafe {
        ccr_asm_convert(board.words().as_ptr(), out.as_mut_ptr().cast());
        out.assume_init()
    }
}

/// The attack table of `by` in assembly (twin: the frame's `attacks_of`).
#[inline]
pub fn attacks_of(board: &Ccr, by: Colour) -> [u32; 8] {
    let mut out = MaybeUninit::<[u32; 8]>::uninit();
    // SAFETY: the routine reads the 8 words of `board` and writes all 8 words of `out` (so
    // it is initialised after the call) and nothing else.
    unsafe {
        ccr_asm_attacks_of(board.words().as_ptr(), by as u32, out.as_mut_ptr().cast());
        out.assume_init()
    }
}

/// The squares a slider on `sq` reaches along `directions` (bits as [`NORTH`] … [`SOUTH_EAST`];
/// higher bits are ignored) over `occupied` (`0xF` per occupied square), each ray including
/// its first occupied square, in assembly.
#[inline]
pub fn slider_targets(occupied: &[u32; 8], sq: Square, directions: u32) -> [u32; 8] {
    let mut out = MaybeUninit::<[u32; 8]>::uninit();
    // SAFETY: `sq.word()` < 8; the routine reads the 8 words of `occupied`, writes all 8
    // words of `out` (so it is initialised after the call) and nothing else.
    unsafe {
        ccr_asm_slider_targets(
            occupied.as_ptr(),
            sq.word() as u32,
            sq.mask(),
            directions & QUEEN,
            out.as_mut_ptr().cast(),
        );
        out.assume_init()
    }
}

#[cfg(test)]
mod twin;

#[cfg(test)]
mod tests {
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};

    use super::twin::ray_walk;
    use super::*;
    use crate::arch::convert::portable;
    use crate::ccr::Position;
    use crate::ccr::board::occupied_nibbles;

    /// The six standard positions, every position two plies below each, and the positions
    /// of random games from the start position.
    fn positions() -> Vec<Position> {
        let mut all = Vec::new();
        for fen in crate::positions::STANDARD {
            let root = Position::from_fen(fen).unwrap();
            all.push(root);
            for &mv in root.legal_moves().as_slice() {
                let child = root.make(mv);
                all.push(child);
                for &reply in child.legal_moves().as_slice() {
                    all.push(child.make(reply));
                }
            }
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xA5A5_0006);
        for _ in 0..100 {
            let mut pos = Position::startpos();
            for _ in 0..200 {
                let moves = pos.legal_moves();
                if moves.as_slice().is_empty() {
                    break;
                }
                let mv = moves.as_slice()[rng.next_u64() as usize % moves.as_slice().len()];
                pos = pos.make(mv);
                all.push(pos);
            }
        }
        all
    }

    /// Boards of random valid piece codes, about half the squares occupied, so that every
    /// piece stands on every square with every neighbourhood.
    fn random_boards(count: usize) -> Vec<Ccr> {
        const CODES: [u32; 12] = [1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xA5A5_0007);
        (0..count)
            .map(|_| {
                Ccr::from_words(std::array::from_fn(|_| {
                    (0..8).fold(0, |word, nibble| {
                        let r = rng.next_u64();
                        let code = if r & 1 == 0 {
                            0
                        } else {
                            CODES[(r >> 8) as usize % CODES.len()]
                        };
                        word | code << (4 * nibble)
                    })
                }))
            })
            .collect()
    }

    fn occupancy(board: &Ccr) -> [u32; 8] {
        board.words().map(|w| occupied_nibbles(w) * 0xF)
    }

    fn check_board(board: &Ccr) {
        assert_eq!(convert(board), portable(board), "{board:?}");
        for by in [Colour::White, Colour::Black] {
            assert_eq!(
                attacks_of(board, by),
                crate::ccr::attacks::attacks_of(board, by),
                "{board:?} {by:?}"
            );
        }
        let occupied = occupancy(board);
        for index in 0..64 {
            let sq = Square::new(index);
            for directions in [ROOK, BISHOP, QUEEN] {
                assert_eq!(
                    slider_targets(&occupied, sq, directions),
                    ray_walk(&occupied, sq, directions),
                    "{board:?} {sq} {directions:#x}"
                );
            }
        }
    }

    #[test]
    fn positions_agree() {
        let positions = positions();
        assert!(positions.len() > 20_000, "{}", positions.len());
        for pos in &positions {
            check_board(pos.board());
        }
    }

    #[test]
    fn random_boards_agree() {
        for board in &random_boards(4_000) {
            check_board(board);
        }
    }

    #[test]
    fn random_words_agree() {
        // Any nibbles at all, codes 7, 8 and 15 included: the conversion is defined on every
        // word.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xA5A5_0008);
        for _ in 0..20_000 {
            let board = Ccr::from_words(std::array::from_fn(|_| rng.next_u64() as u32));
            assert_eq!(convert(&board), portable(&board));
        }
        for board in [Ccr::from_words([0; 8]), Ccr::from_words([u32::MAX; 8])] {
            assert_eq!(convert(&board), portable(&board));
        }
    }

    #[test]
    fn sliders_agree_on_every_square_and_direction_set() {
        let boards = random_boards(60);
        for (i, board) in boards.iter().enumerate() {
            // Sparser boards too, so that rays run to the edges.
            let occupied = occupancy(board).map(|w| if i % 2 == 0 { w } else { w & 0x0F00_F000 });
            for index in 0..64 {
                let sq = Square::new(index);
                for directions in 0..=255 {
                    assert_eq!(
                        slider_targets(&occupied, sq, directions),
                        ray_walk(&occupied, sq, directions),
                        "{occupied:x?} {sq} {directions:#x}"
                    );
                }
            }
        }
        // On the empty board a rook sees its rank and file: 14 squares.
        let empty = [0; 8];
        let e4 = Square::parse("e4").unwrap();
        let seen: u32 = ray_walk(&empty, e4, ROOK)
            .iter()
            .map(|w| w.count_ones() / 4)
            .sum();
        assert_eq!(seen, 14);
    }
}
