//! The assembly routines that lose to the compiler's code (`ccr_asm_board_key`,
//! `ccr_asm_knight_targets`, `ccr_asm_king_targets`: a leap is a shift or two, less than the
//! call), their portable twins and the workloads of `benches/asm.rs` and
//! `benches/asm_instructions.rs`. The routines stay assembled into the library (one
//! `global_asm!` file per architecture); the engine never calls them, so their wrappers live
//! here, beside their only users, with the cross-checks that prove each equal to its twin.

use std::hint::black_box;
use std::mem::MaybeUninit;

use ccr::kernels::asm::{self, QUEEN};
use ccr::kernels::convert::PieceBoards;
use ccr::kernels::nibbles::occupied_nibbles;
use ccr::{Ccr, Colour, Position, Square};

unsafe extern "C" {
    fn ccr_asm_board_key(board: *const u32) -> u64;
    fn ccr_asm_knight_targets(word: u32, mask: u32, out: *mut u32);
    fn ccr_asm_king_targets(word: u32, mask: u32, out: *mut u32);
}

/// The board part of the rotation key in assembly (twin: [`portable::board_key`]).
#[inline]
pub fn board_key(board: &Ccr) -> u64 {
    // SAFETY: the routine reads the 8 words of `board` and nothing else.
    unsafe { ccr_asm_board_key(board.words().as_ptr()) }
}

/// The targets of a leaper on `sq` by the assembly routine `routine`.
#[inline(always)]
fn leaper(routine: unsafe extern "C" fn(u32, u32, *mut u32), sq: Square) -> [u32; 8] {
    let mut out = MaybeUninit::<[u32; 8]>::uninit();
    // SAFETY: `sq.word()` < 8; the routine writes all 8 words of `out` (so it is
    // initialised after the call) and nothing else.
    unsafe {
        routine(sq.word() as u32, sq.mask(), out.as_mut_ptr().cast());
        out.assume_init()
    }
}

/// The squares a knight on `sq` attacks, as `0xF` masks per rank word, in assembly (twin:
/// [`portable::knight_targets`]).
#[inline]
pub fn knight_targets(sq: Square) -> [u32; 8] {
    leaper(ccr_asm_knight_targets, sq)
}

/// The squares a king on `sq` attacks, in assembly (twin: [`portable::king_targets`]).
#[inline]
pub fn king_targets(sq: Square) -> [u32; 8] {
    leaper(ccr_asm_king_targets, sq)
}

pub mod portable {
    //! The portable twins of the routines.

    use ccr::kernels::word_term;
    use ccr::{Ccr, Square};

    /// The board part of the rotation key: the XOR of the eight word terms.
    #[inline]
    pub fn board_key(board: &Ccr) -> u64 {
        board
            .words()
            .iter()
            .enumerate()
            .fold(0, |key, (index, &word)| key ^ word_term(index, word))
    }

    /// The masks of both horizontal neighbours `files` files away (off-board ones are 0).
    #[inline(always)]
    fn sideways(mask: u32, files: u32) -> u32 {
        (mask << (4 * files)) | (mask >> (4 * files))
    }

    /// ORs `targets` into word `word` of `out` if that word is on the board.
    #[inline(always)]
    fn mark(out: &mut [u32; 8], word: usize, targets: u32) {
        if let Some(w) = out.get_mut(word) {
            *w |= targets;
        }
    }

    /// The squares a knight on `sq` attacks, as `0xF` masks per rank word.
    #[inline]
    pub fn knight_targets(sq: Square) -> [u32; 8] {
        let (word, mask) = (sq.word(), sq.mask());
        let (near, far) = (sideways(mask, 1), sideways(mask, 2));
        let mut out = [0; 8];
        mark(&mut out, word.wrapping_sub(2), near);
        mark(&mut out, word.wrapping_sub(1), far);
        mark(&mut out, word + 1, far);
        mark(&mut out, word + 2, near);
        out
    }

    /// The squares a king on `sq` attacks.
    #[inline]
    pub fn king_targets(sq: Square) -> [u32; 8] {
        let (word, mask) = (sq.word(), sq.mask());
        let beside = sideways(mask, 1);
        let mut out = [0; 8];
        mark(&mut out, word.wrapping_sub(1), beside | mask);
        mark(&mut out, word, beside);
        mark(&mut out, word + 1, beside | mask);
        out
    }

    /// The squares a slider on `sq` reaches along `directions` over `occupied`, one ray
    /// at a time, each including its first occupied square (the library's test twin).
    pub use super::twin::ray_walk as slider_targets;
}

#[path = "../../src/arch/asm/twin.rs"]
mod twin;

/// The six standard positions' boards.
pub fn boards() -> Vec<Ccr> {
    super::standard()
        .iter()
        .map(|s| {
            Position::from_fen(&s.fen)
                .expect("ccr parses the standard FEN")
                .board()
                .to_owned()
        })
        .collect()
}

/// Each board's occupancy, `0xF` per occupied square.
pub fn occupancies(boards: &[Ccr]) -> Vec<[u32; 8]> {
    boards
        .iter()
        .map(|b| b.words().map(|w| occupied_nibbles(w) * 0xF))
        .collect()
}

/// The conversion of each board.
#[inline(always)]
pub fn convert_all(boards: &[Ccr], f: impl Fn(&Ccr) -> PieceBoards) {
    for board in boards {
        black_box(f(black_box(board)));
    }
}

/// The board key of each board.
#[inline(always)]
pub fn key_all(boards: &[Ccr], f: impl Fn(&Ccr) -> u64) {
    for board in boards {
        black_box(f(black_box(board)));
    }
}

/// Both colours' attack tables of each board.
#[inline(always)]
pub fn attacks_all(boards: &[Ccr], f: impl Fn(&Ccr, Colour) -> [u32; 8]) {
    for board in boards {
        for by in [Colour::White, Colour::Black] {
            black_box(f(black_box(board), black_box(by)));
        }
    }
}

/// A leaper's targets from each of the 64 squares.
#[inline(always)]
pub fn leaper_all(f: impl Fn(Square) -> [u32; 8]) {
    for index in 0..64 {
        black_box(f(black_box(Square::new(index))));
    }
}

/// Queen rays from each of the 64 squares over each occupancy.
#[inline(always)]
pub fn slider_all(occupied: &[[u32; 8]], f: impl Fn(&[u32; 8], Square, u32) -> [u32; 8]) {
    for occ in occupied {
        for index in 0..64 {
            black_box(f(black_box(occ), black_box(Square::new(index)), QUEEN));
        }
    }
}

/// Every routine equal to its twin: on the boards, on arbitrary words (codes 7, 8 and 15
/// too: the conversion and the key are defined on every word) and on every square; the key
/// equal to the position's rotation key without the state.
///
/// # Panics
/// On the first difference.
pub fn check(boards: &[Ccr]) {
    for (board, occ) in boards.iter().zip(occupancies(boards)) {
        assert_eq!(asm::convert(board), ccr::kernels::convert::portable(board));
        assert_eq!(board_key(board), portable::board_key(board));
        for by in [Colour::White, Colour::Black] {
            assert_eq!(
                asm::attacks_of(board, by),
                ccr::kernels::frame::attacks_of(board, by)
            );
        }
        for index in 0..64 {
            let sq = Square::new(index);
            assert_eq!(
                asm::slider_targets(&occ, sq, QUEEN),
                portable::slider_targets(&occ, sq, QUEEN)
            );
        }
    }
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..2000 {
        let board = Ccr::from_words(std::array::from_fn(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u32
        }));
        assert_eq!(board_key(&board), portable::board_key(&board), "{board:?}");
    }
    for index in 0..64 {
        let sq = Square::new(index);
        assert_eq!(knight_targets(sq), portable::knight_targets(sq), "{sq}");
        assert_eq!(king_targets(sq), portable::king_targets(sq), "{sq}");
    }
    let a8 = Square::parse("a8").expect("a square");
    assert_eq!(
        portable::knight_targets(a8)[..3],
        [0, 0x00F0_0000, 0x0F00_0000]
    );
    assert_eq!(portable::king_targets(a8)[..2], [0x0F00_0000, 0xFF00_0000]);
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
    ] {
        let pos = Position::from_fen(fen).expect("a valid FEN");
        assert_eq!(board_key(pos.board()), pos.key());
        assert_eq!(portable::board_key(pos.board()), pos.key());
    }
}
