//! A position read in place as what the Zobrist baseline keys, so that the baseline costs
//! what its table lookups cost, not the building of an identity per call. The binary's key
//! statistics use it, and the tests and benches include this file for the same keys.

use ccr::{Colour, Position};
use ccr_keystats::Keyed;

/// A position, keyed by the Zobrist baseline without a copy.
pub struct OnBoard<'a>(pub &'a Position);

impl Keyed for OnBoard<'_> {
    #[inline(always)]
    fn rank_word(&self, index: usize) -> u32 {
        self.0.board().words()[index]
    }

    #[inline(always)]
    fn black_to_move(&self) -> bool {
        self.0.side() == Colour::Black
    }

    #[inline(always)]
    fn castling(&self) -> u8 {
        self.0.castling().bits()
    }

    #[inline(always)]
    fn en_passant_file(&self) -> Option<u8> {
        self.0.keyed_en_passant().map(|sq| sq.file())
    }
}
