//! The one frame of the paper (sections 5.1-5.2): an outer loop over the rank words, an
//! inner loop over the nibbles, and a jump table indexed by the 4-bit piece code.
//!
//! Move generation and attack generation are two tables plugged into this one loop (the
//! evaluation adds a third). The inner loop visits only the selected nibbles (one colour's
//! or every occupied one): finding them with a few shifts and a trailing-zero count plays
//! the part of the paper's BSF scan, so empty squares cost nothing.

use crate::ccr::board::{Ccr, colour_nibbles, occupied_nibbles};
use crate::types::Colour;

/// A piece handler: the context, the rank word index (displacement / 4) and the piece's
/// nibble mask (the paper's `MASK`, `0xF` at the piece's file).
pub(crate) type Handler<C> = fn(&mut C, usize, u32);

/// A handler that does nothing, for the codes a table does not serve.
pub(crate) fn skip<C>(_: &mut C, _: usize, _: u32) {}

/// Which pieces the frame visits.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Pieces {
    /// The pieces of one colour.
    Of(Colour),
    /// Every piece on the board.
    All,
}

/// Calls `table[code]` for every selected piece on `board`, rank 8 first, file h first.
#[inline(always)]
pub(crate) fn run<C>(board: &Ccr, pieces: Pieces, table: &[Handler<C>; 16], ctx: &mut C) {
    for word in 0..8 {
        let rank_word = board.0[word];
        // One bit (the low bit of the nibble) per selected piece.
        let mut pieces = match pieces {
            Pieces::Of(colour) => colour_nibbles(rank_word, colour),
            Pieces::All => occupied_nibbles(rank_word),
        };
        while pieces != 0 {
            let shift = pieces.trailing_zeros();
            let code = (rank_word >> shift) & 0xF;
            table[code as usize](ctx, word, 0xF << shift);
            pieces &= pieces - 1;
        }
    }
}

/// One step of a ray in the board's geometry.
///
/// `DW` moves between rank words (−1 toward rank 8, +1 toward rank 1); `DF` moves the mask
/// along the word (−1 toward file a: `<< 4`, +1 toward file h: `>> 4`). A step off the
/// board shows as `word > 7` (the index wraps) or a zero mask (the nibble was shifted out):
/// that is the C.C.R.'s sentinel, no bounds table needed.
#[inline(always)]
pub(crate) const fn step<const DW: isize, const DF: i32>(word: usize, mask: u32) -> (usize, u32) {
    let mask = if DF < 0 {
        mask << 4
    } else if DF > 0 {
        mask >> 4
    } else {
        mask
    };
    (word.wrapping_add_signed(DW), mask)
}

/// The masks of both horizontal neighbours `files` files away (off-board ones are 0).
#[inline(always)]
pub(crate) const fn sideways(mask: u32, files: u32) -> u32 {
    (mask << (4 * files)) | (mask >> (4 * files))
}

/// Whether a stepped (word, mask) is still on the board.
#[inline(always)]
pub(crate) const fn on_board(word: usize, mask: u32) -> bool {
    word < 8 && mask != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ccr::Position;

    #[test]
    fn the_frame_visits_each_piece_of_one_colour_once() {
        struct Seen(Vec<(usize, u32)>);
        fn record(seen: &mut Seen, word: usize, mask: u32) {
            seen.0.push((word, mask));
        }
        let mut table: [Handler<Seen>; 16] = [skip; 16];
        table[2] = record; // white knight only
        let p = Position::from_fen("4k3/8/8/8/6N1/4P3/R1B1K3/8 w - - 0 1").unwrap();
        let mut seen = Seen(Vec::new());
        run(&p.board, Pieces::Of(Colour::White), &table, &mut seen);
        // The knight on g4: displacement +16 (word 4), mask 000000F0h.
        assert_eq!(seen.0, vec![(4, 0x0000_00F0)]);
    }

    #[test]
    fn steps_fall_off_the_edges() {
        assert!(!on_board(
            step::<0, -1>(3, 0xF000_0000).0,
            step::<0, -1>(3, 0xF000_0000).1
        ));
        assert!(!on_board(step::<0, 1>(3, 0xF).0, step::<0, 1>(3, 0xF).1));
        let (w, m) = step::<-1, 0>(0, 0xF0);
        assert!(!on_board(w, m));
        let (w, m) = step::<1, 1>(7, 0xF0);
        assert!(!on_board(w, m));
        assert_eq!(step::<1, 1>(2, 0xF0), (3, 0xF));
    }
}
