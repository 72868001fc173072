//! WHITE_ATTACKS and BLACK_ATTACKS (paper 4.4): two more `[u32; 8]` in the board's own
//! geometry, right after the board in one 96-byte block, so one nibble mask reads a square of
//! the board and of both tables, and the paper's displacements address all three
//! (`+0..+28` the board, `+32..+60` White's attacks, `+64..+92` Black's).
//!
//! Each square's nibble ORs the classes of the pieces attacking it: pawn `1000b`, knight or
//! bishop `0100b`, rook `0010b`, queen or king `0001b`. The descending order makes the most
//! significant set bit the cheapest attacker. Sliders stop at the first occupied square,
//! which they attack whoever stands there.
//!
//! The tables are built by the frame with a second handler table ([`attacks_of`],
//! [`AttackBlock::by_frame`]); [`AttackBlock::by_kernel`] takes them from the kernel
//! (`Kernel::attack_tables`: SIMD on the vector tiers). The paper's tricks, each
//! measured against the plain ray loop (docs/BENCHMARKS.md):
//! - rank attacks of rooks and queens without a loop: the occupancy of the rank word is
//!   one bit per nibble, and a subtraction borrows across the empty squares up to the first
//!   blocker toward file a; toward file h the highest blocker below the piece is found with
//!   a leading-zero count. One OR puts both into the table;
//! - a bishop walks both diagonals of one direction in one loop (a double mask), a queen
//!   both diagonals and the file (a triple mask), each mask dropped when it hits a piece;
//! - the tables start as one 64-byte zero store.

use crate::ccr::board::{Ccr, NIBBLE_LOW_BITS, full_nibbles, occupied_nibbles};
use crate::ccr::frame::{self, Handler, Pieces, sideways, skip};
use crate::types::{Colour, Square};

/// An attack class: one bit of a square's nibble in an attack table.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum AttackClass {
    /// A queen or the king (`0001b`).
    QueenOrKing = 1,
    /// A rook (`0010b`).
    Rook = 2,
    /// A knight or a bishop (`0100b`).
    Minor = 4,
    /// A pawn (`1000b`).
    Pawn = 8,
}

impl AttackClass {
    /// The class bit repeated in every nibble, to AND with target masks.
    const fn broadcast(self) -> u32 {
        self as u32 * NIBBLE_LOW_BITS
    }

    /// The cheapest class in a nibble of classes: its most significant set bit.
    pub const fn cheapest(classes: u8) -> Option<AttackClass> {
        if classes & 8 != 0 {
            Some(AttackClass::Pawn)
        } else if classes & 4 != 0 {
            Some(AttackClass::Minor)
        } else if classes & 2 != 0 {
            Some(AttackClass::Rook)
        } else if classes & 1 != 0 {
            Some(AttackClass::QueenOrKing)
        } else {
            None
        }
    }
}

/// The board and both attack tables in one 96-byte block, addressed by displacement.
///
/// ```
/// # use ccr::{AttackBlock, Position};
/// // Figure 3 of the paper: the white pawn on d3 (rank 3: displacement +20, mask 000F0000h).
/// let p = Position::from_fen("8/1k1r3b/4p3/2n5/8/3P4/1B2N1K1/7R w - - 0 1").unwrap();
/// let block = AttackBlock::new(p.board());
/// // Black attacks it with a light piece and a rook: 0110b.
/// assert_eq!(block.at(20 + 32 + 32) & 0x000F_0000, 0x0006_0000);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[repr(C, align(32))]
pub struct AttackBlock {
    words: [u32; 24],
}

/// WHITE_ATTACKS and BLACK_ATTACKS of `board` in one pass of the frame over every piece.
pub fn frame_tables(board: &Ccr) -> [[u32; 8]; 2] {
    let mut generator = AttackGen {
        occupied: occupancy(board),
        tables: [[0; 8]; 2],
    };
    frame::run(board, Pieces::All, &ATTACK_HANDLERS, &mut generator);
    generator.tables
}

/// Where each part of the block starts, in words (the paper's displacement / 4).
const WHITE_ATTACKS: usize = 8;
const BLACK_ATTACKS: usize = 16;

impl AttackBlock {
    /// The block of `board` and its tables `[white, black]` (built by a kernel,
    /// [`AttackBlock::by_kernel`], or by the frame).
    #[inline(always)]
    pub fn from_tables(board: &Ccr, [white, black]: [[u32; 8]; 2]) -> AttackBlock {
        let mut block = AttackBlock { words: [0; 24] };
        block.words[..8].copy_from_slice(&board.0);
        block.words[WHITE_ATTACKS..BLACK_ATTACKS].copy_from_slice(&white);
        block.words[BLACK_ATTACKS..].copy_from_slice(&black);
        block
    }

    /// Builds both attack tables in one pass of the frame over every piece (the portable
    /// twin of the SIMD tables).
    pub fn by_frame(board: &Ccr) -> AttackBlock {
        AttackBlock::from_tables(board, frame_tables(board))
    }

    /// The word at a byte displacement of the paper (0, 4, … 92).
    #[inline]
    pub fn at(&self, displacement: usize) -> u32 {
        self.words[displacement / 4]
    }

    /// The 24 words: board, WHITE_ATTACKS, BLACK_ATTACKS.
    #[inline]
    pub fn words(&self) -> &[u32; 24] {
        &self.words
    }

    /// The three parts as `[u32; 8]` each, without copying.
    #[inline]
    pub fn parts(&self) -> &[[u32; 8]; 3] {
        bytemuck::cast_ref(&self.words)
    }

    /// The attack table of `colour`.
    #[inline]
    pub fn attacks(&self, colour: Colour) -> &[u32; 8] {
        &self.parts()[1 + colour as usize]
    }

    /// The attack classes (`0000b`..`1111b`) of `by` on `sq`.
    #[inline]
    pub fn classes(&self, by: Colour, sq: Square) -> u8 {
        ((self.attacks(by)[sq.word()] >> sq.shift()) & 0xF) as u8
    }

    /// Whether `by` attacks `sq`.
    #[inline]
    pub fn is_attacked(&self, by: Colour, sq: Square) -> bool {
        self.attacks(by)[sq.word()] & sq.mask() != 0
    }

    /// The cheapest class of `by`'s pieces attacking `sq`: the paper's reading of a nibble.
    #[inline]
    pub fn cheapest_attacker(&self, by: Colour, sq: Square) -> Option<AttackClass> {
        AttackClass::cheapest(self.classes(by, sq))
    }

    /// Whether the king of `colour` stands on a square the other side attacks.
    #[inline]
    pub fn in_check(&self, colour: Colour, king: Square) -> bool {
        self.is_attacked(colour.flip(), king)
    }
}

/// The attack table of one colour alone (what the legal move generator needs of the enemy).
pub fn attacks_of(board: &Ccr, by: Colour) -> [u32; 8] {
    attacks_with_occupancy(board, occupancy(board), by)
}

/// [`attacks_of`] for a caller that already has the occupancy (`0xF` per occupied square).
pub fn attacks_with_occupancy(board: &Ccr, occupied: [u32; 8], by: Colour) -> [u32; 8] {
    let mut generator = AttackGen {
        occupied,
        tables: [[0; 8]; 2],
    };
    frame::run(board, Pieces::Of(by), &ATTACK_HANDLERS, &mut generator);
    generator.tables[by as usize]
}

/// `0xF` on every occupied square of the board.
fn occupancy(board: &Ccr) -> [u32; 8] {
    board.0.map(|w| full_nibbles(occupied_nibbles(w)))
}

/// Attack generation state: the occupancy (`0xF` per occupied square) read, one table per
/// colour written.
struct AttackGen {
    occupied: [u32; 8],
    tables: [[u32; 8]; 2],
}

impl AttackGen {
    /// ORs `targets` (already carrying their class bits) into word `word` of `BLACK`'s
    /// table, if that word is on the board.
    #[inline(always)]
    fn mark<const BLACK: bool>(&mut self, word: usize, targets: u32) {
        if let Some(w) = self.tables[BLACK as usize].get_mut(word) {
            *w |= targets;
        }
    }

    /// The slider walk of one vertical direction (`DW` = −1 toward rank 8, +1 toward rank 1)
    /// with up to three masks at once: the diagonal toward file a, the file itself and the
    /// diagonal toward file h. Each mask stops (after marking) on the first occupied square.
    #[inline(always)]
    fn walk<const BLACK: bool, const DW: isize, const A: bool, const FILE: bool, const H: bool>(
        &mut self,
        word: usize,
        mask: u32,
        class: u32,
    ) {
        let (mut toward_a, mut file, mut toward_h) = (
            if A { mask } else { 0 },
            if FILE { mask } else { 0 },
            if H { mask } else { 0 },
        );
        let mut w = word.wrapping_add_signed(DW);
        while w < 8 {
            toward_a <<= 4;
            toward_h >>= 4;
            let reach = toward_a | file | toward_h;
            if reach == 0 {
                break;
            }
            self.tables[BLACK as usize][w] |= reach & class;
            let blocked = self.occupied[w] & reach;
            toward_a &= !blocked;
            file &= !blocked;
            toward_h &= !blocked;
            w = w.wrapping_add_signed(DW);
        }
    }

    /// Rank attacks without a loop (see the module docs), marked with one OR.
    #[inline(always)]
    fn rank<const BLACK: bool>(&mut self, word: usize, mask: u32, class: u32) {
        let occupied = self.occupied[word] & NIBBLE_LOW_BITS;
        self.tables[BLACK as usize][word] |= rank_attacks_from(occupied, mask) & class;
    }
}

/// The squares a rook on `mask` attacks along its rank word, as `0xF` masks, from the rank's
/// occupancy (one low bit per occupied nibble).
#[inline(always)]
fn rank_attacks_from(occupied: u32, mask: u32) -> u32 {
    let piece = mask & NIBBLE_LOW_BITS;
    // Toward file a: subtracting the next square's bit borrows through the empty squares
    // and stops at the first occupied one; the XOR keeps exactly the bits that changed.
    let toward_a = occupied ^ occupied.wrapping_sub(piece << 4);
    // Toward file h: the nearest occupied square below the piece is the highest set bit
    // below it (bit 0 stands in when there is none: the ray then runs to file h).
    let below = occupied & piece.wrapping_sub(1);
    let blocker = 1u32 << (31 - (below | 1).leading_zeros());
    let toward_h = piece.wrapping_sub(blocker);
    full_nibbles((toward_a | toward_h) & NIBBLE_LOW_BITS)
}

const PAWN: u32 = AttackClass::Pawn.broadcast();
const MINOR: u32 = AttackClass::Minor.broadcast();
const ROOK: u32 = AttackClass::Rook.broadcast();
const QUEEN_OR_KING: u32 = AttackClass::QueenOrKing.broadcast();

fn pawn<const BLACK: bool>(g: &mut AttackGen, word: usize, mask: u32) {
    let ahead = if BLACK {
        word + 1
    } else {
        word.wrapping_sub(1)
    };
    g.mark::<BLACK>(ahead, sideways(mask, 1) & PAWN);
}

fn knight<const BLACK: bool>(g: &mut AttackGen, word: usize, mask: u32) {
    let (near, far) = (sideways(mask, 1) & MINOR, sideways(mask, 2) & MINOR);
    g.mark::<BLACK>(word.wrapping_sub(2), near);
    g.mark::<BLACK>(word.wrapping_sub(1), far);
    g.mark::<BLACK>(word + 1, far);
    g.mark::<BLACK>(word + 2, near);
}

fn bishop<const BLACK: bool>(g: &mut AttackGen, word: usize, mask: u32) {
    g.walk::<BLACK, -1, true, false, true>(word, mask, MINOR);
    g.walk::<BLACK, 1, true, false, true>(word, mask, MINOR);
}

fn rook<const BLACK: bool>(g: &mut AttackGen, word: usize, mask: u32) {
    g.walk::<BLACK, -1, false, true, false>(word, mask, ROOK);
    g.walk::<BLACK, 1, false, true, false>(word, mask, ROOK);
    g.rank::<BLACK>(word, mask, ROOK);
}

fn queen<const BLACK: bool>(g: &mut AttackGen, word: usize, mask: u32) {
    g.walk::<BLACK, -1, true, true, true>(word, mask, QUEEN_OR_KING);
    g.walk::<BLACK, 1, true, true, true>(word, mask, QUEEN_OR_KING);
    g.rank::<BLACK>(word, mask, QUEEN_OR_KING);
}

fn king<const BLACK: bool>(g: &mut AttackGen, word: usize, mask: u32) {
    let three = (sideways(mask, 1) | mask) & QUEEN_OR_KING;
    g.mark::<BLACK>(word.wrapping_sub(1), three);
    g.mark::<BLACK>(word, sideways(mask, 1) & QUEEN_OR_KING);
    g.mark::<BLACK>(word + 1, three);
}

/// The attack handlers, indexed by piece code: the frame's second table.
const ATTACK_HANDLERS: [Handler<AttackGen>; 16] = [
    skip,
    pawn::<false>,
    knight::<false>,
    bishop::<false>,
    rook::<false>,
    queen::<false>,
    king::<false>,
    skip,
    skip,
    pawn::<true>,
    knight::<true>,
    bishop::<true>,
    rook::<true>,
    queen::<true>,
    king::<true>,
    skip,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ccr::Position;

    fn block(fen: &str) -> AttackBlock {
        AttackBlock::new(&Position::from_fen(fen).unwrap().board)
    }

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn rank_attacks_stop_at_the_first_piece_each_way() {
        let rank_attacks = |word, mask| rank_attacks_from(occupied_nibbles(word), mask);
        // a..h: rook on d, pieces on b and g: attacks b, c, e, f, g.
        assert_eq!(rank_attacks(0x0204_0020, 0x000F_0000), 0x0FF0_FFF0);
        // Alone on the rank: every other square.
        assert_eq!(rank_attacks(0x0000_0004, 0x0000_000F), 0xFFFF_FFF0);
        assert_eq!(rank_attacks(0x4000_0000, 0xF000_0000), 0x0FFF_FFFF);
        // Neighbours on both sides: just those two.
        assert_eq!(rank_attacks(0x0001_4100, 0x0000_F000), 0x000F_0F00);
    }

    #[test]
    fn the_paper_worked_example() {
        let b = block("8/1k1r3b/4p3/2n5/8/3P4/1B2N1K1/7R w - - 0 1");
        assert_eq!(b.at(84) & 0x000F_0000, 0x0006_0000);
        assert_eq!(b.classes(Colour::Black, sq("d3")), 0b0110);
        assert_eq!(
            b.cheapest_attacker(Colour::Black, sq("d3")),
            Some(AttackClass::Minor)
        );
    }

    #[test]
    fn queries() {
        let b = block("4k3/8/8/8/8/8/3p4/R3K3 w Q - 0 1");
        // The pawn on d2 attacks e1 (check) and c1; the rook on a1 attacks b1, c1, d1 and
        // e1, where its own king stands.
        assert!(b.in_check(Colour::White, sq("e1")));
        assert_eq!(b.classes(Colour::Black, sq("e1")), 0b1000);
        assert_eq!(b.classes(Colour::White, sq("d1")), 0b0011);
        assert_eq!(b.classes(Colour::White, sq("e1")), 0b0010);
        assert_eq!(
            b.cheapest_attacker(Colour::White, sq("d1")),
            Some(AttackClass::Rook)
        );
        assert_eq!(b.cheapest_attacker(Colour::White, sq("h8")), None);
        assert!(!b.is_attacked(Colour::White, sq("f3")));
    }
}
