//! Legal move generation by nibble shifts (paper 4.3 and 5.1).
//!
//! The frame walks the side to move's pieces but the pawns and jumps through
//! the kernel's `Moves::WHITE` or `Moves::BLACK`. Leapers test their targets with one displacement
//! change and one mask shift (two targets of the same word at once); sliders step the mask
//! until it falls off the word, the word index leaves 0..8 or a piece blocks. The pawns go a
//! rank word at a time (`Gen::pawns`): one shift of the word's pawn mask gives all their
//! pushes, one more each capture direction, so no pawn costs a handler call
//! (docs/BENCHMARKS.md, "Pawns a rank word at a time").
//!
//! Legality, measured cheapest this way (docs/BENCHMARKS.md): king moves are checked against
//! the enemy's attack table (WHITE_ATTACKS or BLACK_ATTACKS, in the board's geometry) and,
//! in check, against the squares behind the king on a checking slider's line. In check the
//! other pieces may only land on the evasion squares (capture the checker or block), a mask
//! in the board's geometry that is all ones otherwise. A pinned piece is left out of both
//! and generated last, through its handler, with that mask narrowed to its pin line
//! (`pinned_pieces`, taken only when the pin scan found a pin). The moves are then legal as
//! generated unless the move is an en-passant capture; only then does a filter pass run over
//! the list, so the common node pays nothing for legality beyond the enemy's table and the
//! pin scan. Filtering pinned pieces' moves out of the list as well would cost a pass over
//! every move of every node with a pin, and a 64-bit pin set, which on i686 takes two
//! registers and a double shift per move.
//!
//! The generator hands its moves to a [`Sink`]: the [`MoveList`], or a [`Count`] when only
//! their number is wanted (perft's last ply). A count adds a whole rank word's leaper, king
//! or pawn targets with one popcount instead of listing them one by one; only an en-passant
//! capture is still kept aside for its legality test. On a vector kernel a count is mostly
//! not the generator's at all (`Position::count_by_kernel`): the pins are found first, along
//! the king's lines, and the very fills that build the enemy's table count every move of the
//! free pieces, pawns and king included; out of check only the pinned pieces, en passant and
//! castling are left, and a node without them builds no generator state. In check the table
//! goes to the generator, whose count takes the free knights and sliders by sets onto the
//! evasion squares and leaves the king to its handler. Each sink has its own monomorphised copy of the one generator, so
//! the list's copy never asks which sink it fills.

use std::marker::PhantomData;

use crate::ccr::attacks::AttackBlock;
use crate::ccr::board::{
    CastlingRights, Ccr, NIBBLE_LOW_BITS, Position, RookFiles, count_nibbles, full_nibbles,
    nibbles_equal, occupied_nibbles,
};
use crate::ccr::checks::{is_attacked, king_lines};
use crate::ccr::frame::{self, Handler, Pieces, on_board, skip, step};
use crate::ccr::kernel::{Kernel, Portable};
use crate::moves::MoveList;
use crate::types::{Colour, Move, MoveKind, PieceCode, PieceType, Square};

/// Where the generator puts the legal moves it finds.
trait Sink {
    /// One move.
    fn push(&mut self, mv: Move);

    /// One move per square of `bits` (one bit per target, its nibble's lowest), made by
    /// `make` from the bit's index.
    fn push_each(&mut self, bits: u32, make: impl Fn(u32) -> Move);

    /// The four promotions to each square of `bits`, made by `make` from the bit's index
    /// and the promotion.
    fn push_promotions(&mut self, bits: u32, make: impl Fn(u32, MoveKind) -> Move);

    /// An en-passant capture, legal only if [`Sink::keep_en_passant`] says so (by default
    /// pushed as any move, for a sink that can drop it later).
    #[inline(always)]
    fn push_en_passant(&mut self, mv: Move) {
        self.push(mv);
    }

    /// Keeps the en-passant captures for which `legal` holds (called only when some were
    /// pushed).
    fn keep_en_passant(&mut self, legal: impl Fn(Move) -> bool);

    /// The number of moves of a sink that only counts them, to which a kernel that counts by
    /// sets adds whole sets; `None` (the default) for a sink that lists every move.
    #[inline(always)]
    fn count(&mut self) -> Option<&mut u32> {
        None
    }
}

impl Sink for MoveList {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        MoveList::push(self, mv);
    }

    #[inline(always)]
    fn push_each(&mut self, mut bits: u32, make: impl Fn(u32) -> Move) {
        while bits != 0 {
            MoveList::push(self, make(bits.trailing_zeros()));
            bits &= bits - 1;
        }
    }

    #[inline(always)]
    fn push_promotions(&mut self, mut bits: u32, make: impl Fn(u32, MoveKind) -> Move) {
        while bits != 0 {
            let bit = bits.trailing_zeros();
            for kind in PROMOTIONS {
                MoveList::push(self, make(bit, kind));
            }
            bits &= bits - 1;
        }
    }

    #[cold]
    fn keep_en_passant(&mut self, legal: impl Fn(Move) -> bool) {
        self.retain(|mv| mv.kind() != MoveKind::EnPassant || legal(mv));
    }
}

/// A sink that counts the moves instead of listing them.
#[derive(Default)]
struct Count {
    moves: u32,
    /// The en-passant captures, counted once their legality is known (at most two).
    en_passant: [Move; 2],
    en_passant_len: usize,
}

impl Sink for Count {
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.moves += 1;
    }

    #[inline(always)]
    fn push_each(&mut self, bits: u32, _: impl Fn(u32) -> Move) {
        self.moves += count_nibbles(bits);
    }

    #[inline(always)]
    fn push_promotions(&mut self, bits: u32, _: impl Fn(u32, MoveKind) -> Move) {
        self.moves += 4 * count_nibbles(bits);
    }

    #[inline(always)]
    fn push_en_passant(&mut self, mv: Move) {
        self.en_passant[self.en_passant_len] = mv;
        self.en_passant_len += 1;
    }

    #[cold]
    fn keep_en_passant(&mut self, legal: impl Fn(Move) -> bool) {
        let captures = &self.en_passant[..self.en_passant_len];
        self.moves += captures.iter().filter(|&&mv| legal(mv)).count() as u32;
    }

    #[inline(always)]
    fn count(&mut self) -> Option<&mut u32> {
        Some(&mut self.moves)
    }
}

/// Generator state for one node: the occupancy, both colours' occupancy masks, the enemy's
/// attack table, the evasion squares and the en-passant target, all in the board's geometry.
///
/// The arrays come first and the struct is 16-byte aligned, so that each array is too and
/// building the struct is whole 16-byte moves on i686 as well (see [`Position`]).
#[repr(C, align(16))]
struct Gen<'a, S: Sink> {
    /// `0xF` on every occupied square (what the pawn pushes and castling test, and what the
    /// assembly slider routine reads).
    occupied: [u32; 8],
    own: [u32; 8],
    theirs: [u32; 8],
    /// The enemy's attack table (class nibbles).
    enemy_attacks: [u32; 8],
    /// In check, the squares behind the king on a checking slider's line: the table does
    /// not reach them because the slider stops at the king, but the king may not go there.
    xrayed: [u32; 8],
    /// Where pieces other than the king may land (all squares unless in check; only enemy
    /// pieces when generating captures).
    evasions: [u32; 8],
    /// Where the king may land besides the danger test: all squares, or the enemy's pieces
    /// when generating captures.
    king_targets: [u32; 8],
    /// The en-passant target's rank word, or `usize::MAX` when there is none.
    ep_word: usize,
    ep_mask: u32,
    /// Whether an en-passant capture was generated (it needs the legality filter).
    ep_generated: bool,
    sink: &'a mut S,
}

impl<S: Sink> Gen<'_, S> {
    /// Counts the moves of the knights, bishops, rooks and queens of `by` on `pieces` onto
    /// the evasion squares that hold no piece of its own as a number, when the sink only
    /// counts and the kernel `K` counts by sets; whether it did (then the frame must not
    /// visit those pieces).
    #[inline(always)]
    fn count_by_sets<K: Kernel>(&mut self, pieces: &Ccr, by: Colour) -> bool {
        if !K::COUNTS_BY_SETS {
            return false;
        }
        let Some(moves) = self.sink.count() else {
            return false;
        };
        let mut targets = self.evasions;
        for (t, &o) in targets.iter_mut().zip(&self.own) {
            *t &= !o;
        }
        let counted = K::count_piece_moves(pieces, &self.occupied, &targets, by);
        *moves += counted.unwrap_or(0);
        counted.is_some()
    }

    /// The squares of rank word `word` the king may not step on, as `0xF` masks: those
    /// with any attack class, and the x-rayed ones.
    #[inline(always)]
    fn king_danger(&self, word: usize) -> u32 {
        full_nibbles(occupied_nibbles(self.enemy_attacks[word])) | self.xrayed[word]
    }

    /// Adds a move to every square of `targets` (`0xF` nibbles) in rank word `word`.
    #[inline(always)]
    fn push_targets(&mut self, from: Square, word: usize, targets: u32) {
        // The move to the word's nibble 0, retargeted to each target's nibble.
        let first = Move::new(from, Square::new((word * 8) as u8), MoveKind::Normal);
        self.sink.push_each(targets & NIBBLE_LOW_BITS, |bit| {
            first.retargeted((bit >> 2) as i16)
        });
    }

    /// A leap to `targets` in rank word `word` (which may be off the board).
    #[inline(always)]
    fn leap(&mut self, from: Square, word: usize, targets: u32) {
        if word < 8 {
            self.push_targets(from, word, targets & !self.own[word] & self.evasions[word]);
        }
    }

    /// The paper's slider loop: step until the mask falls off the word, the word index
    /// leaves the board, or a piece blocks (an enemy piece is captured first).
    #[inline(always)]
    fn slide<const DW: isize, const DF: i32>(&mut self, from: Square, word: usize, mask: u32) {
        // Each step moves the target by the same number of indices (a word is 8, a file
        // toward a +1), so the move rides along the ray, one addition a step, instead of
        // being rebuilt from (word, mask) at each target.
        let delta = (DW * 8) as i16 - DF as i16;
        let (mut w, mut m) = step::<DW, DF>(word, mask);
        let mut mv = Move::new(from, from, MoveKind::Normal).retargeted(delta);
        while on_board(w, m) && self.own[w] & m == 0 {
            if self.evasions[w] & m != 0 {
                self.sink.push(mv);
            }
            if self.theirs[w] & m != 0 {
                break;
            }
            (w, m) = step::<DW, DF>(w, m);
            mv = mv.retargeted(delta);
        }
    }

    /// One pawn's move to `to`, the four promotions if it `promotes`.
    #[inline(always)]
    fn pawn_move(&mut self, from: Square, to: Square, promotes: bool) {
        if promotes {
            self.sink
                .push_promotions(1, |_, kind| Move::new(from, to, kind));
        } else {
            self.sink.push(Move::new(from, to, MoveKind::Normal));
        }
    }

    /// The moves to the squares of `targets` (one bit per square, its nibble's lowest) in
    /// rank word `to_word` of the pawns `DF` files away in rank word `from_word` (`DF` as in
    /// [`step`]: −1 toward file a, the target is the pawn's mask `<< 4`).
    #[inline(always)]
    fn push_pawns<const DF: i32>(
        &mut self,
        from_word: usize,
        to_word: usize,
        targets: u32,
        kind: MoveKind,
        promotes: bool,
    ) {
        // From and to square differ by the same amount for every move of one call, so each
        // move is one template (the target on nibble 0 of its word, the pawn `DF` files
        // from it) shifted to the target's nibble: one trailing-zero count and one addition
        // per move where two squares cost two, and fewer values live in the loop (i686).
        let from_nibble = match DF {
            -1 => -1,
            1 => 1,
            _ => 0,
        };
        let from = Square::new(((from_word * 8) as u8).wrapping_add_signed(from_nibble));
        let to = Square::new((to_word * 8) as u8);
        if promotes {
            self.sink.push_promotions(targets, |bit, kind| {
                Move::new(from, to, kind).shifted((bit >> 2) as u16)
            });
        } else if kind == MoveKind::EnPassant {
            // At most one target: the en-passant square.
            if targets != 0 {
                let n = (targets.trailing_zeros() >> 2) as u16;
                self.sink
                    .push_en_passant(Move::new(from, to, kind).shifted(n));
            }
        } else {
            let template = Move::new(from, to, kind);
            self.sink
                .push_each(targets, |bit| template.shifted((bit >> 2) as u16));
        }
    }

    /// Every pawn of `pawns` (`0xF` masks; `WHITE` pawns advance toward rank 8, word − 1),
    /// a rank word at a time: one shift moves all pawns of a word to their targets, so the
    /// pawns need no handler call each (only a pinned pawn goes through [`pawn`]).
    #[inline(always)]
    fn pawns<const WHITE: bool>(&mut self, pawns: &[u32; 8]) {
        // Pawns stand on rank words 1 to 6 only (FEN parsing rejects the others). An index
        // loop: the iterator form (`enumerate().take(7).skip(1)`) compiles to more
        // instructions per leaf on both architectures.
        #[allow(clippy::needless_range_loop)]
        for word in 1..7 {
            let here = pawns[word] & NIBBLE_LOW_BITS;
            if here == 0 {
                continue;
            }
            let ahead = if WHITE { word - 1 } else { word + 1 };
            let promotes = ahead == if WHITE { 0 } else { 7 };
            let (evasions, empty) = (self.evasions[ahead], !self.occupied[ahead]);
            let pushed = here & empty;
            self.push_pawns::<0>(word, ahead, pushed & evasions, MoveKind::Normal, promotes);
            if word == if WHITE { 6 } else { 1 } {
                let two_ahead = if WHITE { word - 2 } else { word + 2 };
                let double = pushed & !self.occupied[two_ahead] & self.evasions[two_ahead];
                self.push_pawns::<0>(word, two_ahead, double, MoveKind::DoublePush, false);
            }
            let captures = self.theirs[ahead] & evasions;
            let toward_a = (here << 4) & captures;
            self.push_pawns::<-1>(word, ahead, toward_a, MoveKind::Normal, promotes);
            let toward_h = (here >> 4) & captures;
            self.push_pawns::<1>(word, ahead, toward_h, MoveKind::Normal, promotes);
            if ahead == self.ep_word {
                self.en_passant(word, here);
            }
        }
    }

    /// The en-passant captures of the pawns `here` (one bit per pawn, its nibble's lowest)
    /// in rank word `word`, the word behind the en-passant target's.
    #[inline(always)]
    fn en_passant(&mut self, word: usize, here: u32) {
        // Checked by the filter: it may also answer a check by the captured pawn.
        let target = self.ep_mask & NIBBLE_LOW_BITS;
        let from_h = (here << 4) & target;
        self.push_pawns::<-1>(word, self.ep_word, from_h, MoveKind::EnPassant, false);
        let from_a = (here >> 4) & target;
        self.push_pawns::<1>(word, self.ep_word, from_a, MoveKind::EnPassant, false);
        self.ep_generated |= (from_h | from_a) != 0;
    }
}

/// The promotions of one pawn move, in the order they are listed.
const PROMOTIONS: [MoveKind; 4] = [
    MoveKind::PromoteQueen,
    MoveKind::PromoteKnight,
    MoveKind::PromoteRook,
    MoveKind::PromoteBishop,
];

/// Pawn moves of one pawn; `WHITE` pawns advance toward rank 8 (word − 1). Only pinned pawns
/// come here (through the handler table); the others are generated together by [`Gen::pawns`].
fn pawn<const WHITE: bool, S: Sink>(g: &mut Gen<S>, word: usize, mask: u32) {
    let from = Square::from_word_mask(word, mask);
    // A pawn never stands on its last rank, so the word ahead is on the board.
    let ahead = if WHITE { word - 1 } else { word + 1 };
    let promotes = ahead == if WHITE { 0 } else { 7 };
    if g.occupied[ahead] & mask == 0 {
        if g.evasions[ahead] & mask != 0 {
            let to = Square::from_word_mask(ahead, mask);
            g.pawn_move(from, to, promotes);
        }
        let start = if WHITE { 6 } else { 1 };
        let two_ahead = if WHITE {
            word.wrapping_sub(2)
        } else {
            word + 2
        };
        if word == start
            && (g.occupied[two_ahead] & mask == 0)
            && (g.evasions[two_ahead] & mask != 0)
        {
            let to = Square::from_word_mask(two_ahead, mask);
            g.sink.push(Move::new(from, to, MoveKind::DoublePush));
        }
    }
    for target in [mask << 4, mask >> 4] {
        if g.theirs[ahead] & g.evasions[ahead] & target != 0 {
            let to = Square::from_word_mask(ahead, target);
            g.pawn_move(from, to, promotes);
        } else if ahead == g.ep_word && target == g.ep_mask {
            // Checked by the filter: it may also answer a check by the captured pawn.
            let to = Square::from_word_mask(ahead, target);
            g.sink
                .push_en_passant(Move::new(from, to, MoveKind::EnPassant));
            g.ep_generated = true;
        }
    }
}

/// Knight moves: two words away the files ±1, one word away the files ±2.
fn knight<S: Sink>(g: &mut Gen<S>, word: usize, mask: u32) {
    let from = Square::from_word_mask(word, mask);
    let near = (mask << 4) | (mask >> 4);
    let far = (mask << 8) | (mask >> 8);
    g.leap(from, word.wrapping_sub(2), near);
    g.leap(from, word.wrapping_sub(1), far);
    g.leap(from, word + 1, far);
    g.leap(from, word + 2, near);
}

fn bishop<S: Sink>(g: &mut Gen<S>, word: usize, mask: u32) {
    let from = Square::from_word_mask(word, mask);
    g.slide::<-1, -1>(from, word, mask);
    g.slide::<-1, 1>(from, word, mask);
    g.slide::<1, -1>(from, word, mask);
    g.slide::<1, 1>(from, word, mask);
}

fn rook<S: Sink>(g: &mut Gen<S>, word: usize, mask: u32) {
    let from = Square::from_word_mask(word, mask);
    g.slide::<-1, 0>(from, word, mask);
    g.slide::<1, 0>(from, word, mask);
    g.slide::<0, -1>(from, word, mask);
    g.slide::<0, 1>(from, word, mask);
}

fn queen<S: Sink>(g: &mut Gen<S>, word: usize, mask: u32) {
    bishop(g, word, mask);
    rook(g, word, mask);
}

/// King steps onto squares that hold no own piece and that the enemy does not attack.
fn king<S: Sink>(g: &mut Gen<S>, word: usize, mask: u32) {
    let from = Square::from_word_mask(word, mask);
    let three = (mask << 4) | mask | (mask >> 4);
    for (w, targets) in [
        (word.wrapping_sub(1), three),
        (word, three & !mask),
        (word + 1, three),
    ] {
        if w < 8 {
            g.push_targets(
                from,
                w,
                targets & !g.own[w] & g.king_targets[w] & !g.king_danger(w),
            );
        }
    }
}

/// The move handlers of the kernel `K`, indexed by piece code: built at compile time, one
/// pair per kernel and sink.
struct Moves<K, S>(PhantomData<(K, S)>);

impl<'a, K: Kernel, S: Sink + 'a> Moves<K, Gen<'a, S>> {
    /// White's handlers.
    const WHITE: [Handler<Gen<'a, S>>; 16] = move_table::<K, S>(Colour::White);
    /// Black's handlers.
    const BLACK: [Handler<Gen<'a, S>>; 16] = move_table::<K, S>(Colour::Black);
}

/// The handler table of `colour`; where the kernel has its own sliders' target sets
/// ([`Kernel::SLIDER_TARGETS`]), the sliders take them from there ([`kernel_targets`]).
const fn move_table<'a, K: Kernel, S: Sink>(colour: Colour) -> [Handler<Gen<'a, S>>; 16] {
    let mut table: [Handler<Gen<'a, S>>; 16] = [skip; 16];
    let base = colour.code_bit() as usize;
    let (white_pawn, black_pawn): (Handler<Gen<'a, S>>, Handler<Gen<'a, S>>) =
        (pawn::<true, S>, pawn::<false, S>);
    table[base + 1] = match colour {
        Colour::White => white_pawn,
        Colour::Black => black_pawn,
    };
    table[base + 2] = knight::<S>;
    table[base + 3] = bishop::<S>;
    table[base + 4] = rook::<S>;
    table[base + 5] = queen::<S>;
    table[base + 6] = king::<S>;
    #[cfg(ccr_asm)]
    if K::SLIDER_TARGETS.is_some() {
        use crate::arch::asm::{BISHOP, QUEEN, ROOK};
        table[base + 3] = kernel_targets::slider::<BISHOP, K, S>;
        table[base + 4] = kernel_targets::slider::<ROOK, K, S>;
        table[base + 5] = kernel_targets::slider::<QUEEN, K, S>;
    }
    table
}

/// Move handlers on the target sets of the hand-written assembly (`ccr perft --impl asm`):
/// [`crate::arch::asm::slider_targets`] gives a slider's squares up to and including each ray's
/// first piece; the handler keeps those without an own piece on the evasion squares and
/// lists them word by word.
///
/// This loses to the portable ray walk (docs/BENCHMARKS.md, "A routine that wins alone can
/// lose in place"): the routine itself is cheaper than the walk, but the set it returns costs a
/// call, eight stores and eight loads, tests and masks more than the walk, which pushes each
/// square as it reaches it. The knights' and king's routines lose more when wired the same
/// way: a leap is a shift or two, less than the call. They serve only their benchmarks.
#[cfg(ccr_asm)]
mod kernel_targets {
    use super::{Gen, Kernel, Sink};
    use crate::types::Square;

    /// A bishop, rook or queen (`DIRECTIONS`: [`crate::arch::asm::BISHOP`], `ROOK` or
    /// `QUEEN`), on the kernel's routine (installed only where `K` has one).
    pub(super) fn slider<const DIRECTIONS: u32, K: Kernel, S: Sink>(
        g: &mut Gen<S>,
        word: usize,
        mask: u32,
    ) {
        let Some(slider_targets) = K::SLIDER_TARGETS else {
            return;
        };
        let from = Square::from_word_mask(word, mask);
        let targets = slider_targets(&g.occupied, from, DIRECTIONS);
        for (w, &reached) in targets.iter().enumerate() {
            g.push_targets(from, w, reached & !g.own[w] & g.evasions[w]);
        }
    }
}

/// Castling masks inside the back rank word: the squares that must be empty and the
/// squares the king crosses or reaches (besides its own, covered by "not in check").
const KING_SIDE_EMPTY: u32 = 0x0000_0FF0; // f, g
const QUEEN_SIDE_EMPTY: u32 = 0x0FFF_0000; // b, c, d
const QUEEN_SIDE_SAFE: u32 = 0x00FF_0000; // c, d

/// The rank word the king of `us` castles on.
fn back_rank(us: Colour) -> usize {
    match us {
        Colour::White => 7,
        Colour::Black => 0,
    }
}

/// The castling moves of the side to move (not in check), from its back rank word's
/// `occupied` squares and the squares its king may not step on, `attacked` (`0xF` masks).
fn castling<S: Sink>(sink: &mut S, pos: &Position, occupied: u32, attacked: u32) {
    if !pos.rook_files.is_standard() {
        return chess960_castling(sink, pos);
    }
    let (king_side, queen_side) = match pos.side() {
        Colour::White => (CastlingRights::WHITE_KING, CastlingRights::WHITE_QUEEN),
        Colour::Black => (CastlingRights::BLACK_KING, CastlingRights::BLACK_QUEEN),
    };
    let (word, king) = (back_rank(pos.side()), pos.king(pos.side()));
    if pos.castling.contains(king_side) && (occupied | attacked) & KING_SIDE_EMPTY == 0 {
        let to = Square::from_word_mask(word, 0x0000_00F0);
        sink.push(Move::new(king, to, MoveKind::Castle));
    }
    if pos.castling.contains(queen_side)
        && occupied & QUEEN_SIDE_EMPTY == 0
        && attacked & QUEEN_SIDE_SAFE == 0
    {
        let to = Square::from_word_mask(word, 0x00F0_0000);
        sink.push(Move::new(king, to, MoveKind::Castle));
    }
}

/// How a game writes its moves in UCI text: castling as the king's move to its target
/// (`e1g1`), or in Chess960 as the king taking its own rook (`e1h1`). The rooks' files are
/// the game's, so one notation serves every position of a line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Notation {
    /// Castling written as the king taking its own rook.
    pub chess960: bool,
    /// The files of the castling rooks.
    pub rook_files: RookFiles,
}

impl Notation {
    /// The UCI text of `mv`.
    pub fn text(&self, mv: Move) -> String {
        if self.chess960 && mv.kind() == MoveKind::Castle {
            let (rook, _) = self.rook_files.castling_rook(mv);
            return format!("{}{}", mv.from(), rook);
        }
        mv.to_string()
    }

    /// The UCI texts of `moves`, separated by spaces.
    pub fn line(&self, moves: &[Move]) -> String {
        let texts: Vec<String> = moves.iter().map(|&mv| self.text(mv)).collect();
        texts.join(" ")
    }
}

/// The castling moves of the side to move (not in check) in a Chess960 setup, by the
/// general rule: every square between the king and its target and between the rook and its
/// target, both included, is empty but for that king and rook, and no square the king
/// crosses or reaches is attacked with both of them lifted off the board (a rook that
/// shielded the king's target from a rook or queen on the back rank shields it no more).
#[cold]
#[inline(never)]
fn chess960_castling<S: Sink>(sink: &mut S, pos: &Position) {
    let us = pos.side();
    let king = pos.king(us);
    let first = 2 * us as usize;
    for index in [first, first + 1] {
        if !pos.castling.contains(CastlingRights::EACH[index]) {
            continue;
        }
        let rook = pos.rook_files.rook_square(index);
        let king_side = index & 1 == 0;
        let (king_to, rook_to) = if king_side { (6, 5) } else { (2, 3) };
        let rank = king.rank();
        let span = |a: u8, b: u8| a.min(b)..=a.max(b);
        let mut lifted = pos.board;
        lifted.set(king, PieceCode::EMPTY);
        lifted.set(rook, PieceCode::EMPTY);
        let blocked = span(king.file(), king_to)
            .chain(span(rook.file(), rook_to))
            .any(|file| lifted.get(Square::from_file_rank(file, rank)) != PieceCode::EMPTY);
        if blocked {
            continue;
        }
        let attacked = span(king.file(), king_to)
            .any(|file| is_attacked(&lifted, Square::from_file_rank(file, rank), us.flip()));
        if !attacked {
            let to = Square::from_file_rank(king_to, rank);
            sink.push(Move::new(king, to, MoveKind::Castle));
        }
    }
}

/// The squares beyond `king` on the line from it through the piece on (`word`, `mask`), up
/// to the edge of the board: where a piece pinned there may go (it cannot pass the pinner).
fn pin_line(king: Square, word: usize, mask: u32) -> [u32; 8] {
    let (king_word, king_mask) = (king.word(), king.mask());
    let dw = (word as isize - king_word as isize).signum();
    let mut line = [0; 8];
    let (mut w, mut m) = (king_word, king_mask);
    loop {
        w = w.wrapping_add_signed(dw);
        m = match mask.cmp(&king_mask) {
            std::cmp::Ordering::Greater => m << 4,
            std::cmp::Ordering::Less => m >> 4,
            std::cmp::Ordering::Equal => m,
        };
        if !on_board(w, m) {
            return line;
        }
        line[w] |= m;
    }
}

/// The pinned pieces, after the others: each with its targets narrowed to its pin line (a
/// pinned knight finds none).
#[cold]
#[inline(never)]
fn pinned_pieces<'a, S: Sink>(
    g: &mut Gen<'a, S>,
    board: &Ccr,
    table: &[Handler<Gen<'a, S>>; 16],
    king: Square,
    pinned: &[u32; 8],
) {
    let evasions = g.evasions;
    for (word, &pins) in pinned.iter().enumerate() {
        let mut pieces = pins & NIBBLE_LOW_BITS;
        while pieces != 0 {
            let shift = pieces.trailing_zeros();
            let mask = 0xF << shift;
            let line = pin_line(king, word, mask);
            for ((e, &all), &l) in g.evasions.iter_mut().zip(&evasions).zip(&line) {
                *e = all & l;
            }
            let code = (board.0[word] >> shift) & 0xF;
            table[code as usize](g, word, mask);
            pieces &= pieces - 1;
        }
    }
    g.evasions = evasions;
}

/// Where the generator takes the enemy's attack table from: a kernel marker
/// ([`crate::Portable`], the SIMD tiers, [`crate::Asm`]), which builds it, or the position's
/// [`AttackBlock`] the caller has built already (the search builds one per node for its check
/// test and evaluation), so that the table is not built twice.
pub trait EnemyTable: Copy {
    /// The kernel the generator runs on (the sliders' handlers, the counts by sets).
    type Kernel: Kernel;

    /// The attack table of `them` on `board`, whose occupancy is `occupied`.
    fn table(self, board: &Ccr, occupied: [u32; 8], them: Colour) -> [u32; 8];
}

impl<K: Kernel> EnemyTable for K {
    type Kernel = K;

    #[inline(always)]
    fn table(self, board: &Ccr, occupied: [u32; 8], them: Colour) -> [u32; 8] {
        K::attacks(board, occupied, them)
    }
}

impl EnemyTable for &AttackBlock {
    type Kernel = Portable;

    #[inline(always)]
    fn table(self, board: &Ccr, _: [u32; 8], them: Colour) -> [u32; 8] {
        debug_assert_eq!(self.parts()[0], board.0, "the block of another position");
        *self.attacks(them)
    }
}

impl Position {
    /// Fills `list` with the legal moves of the position, the enemy's attack table from
    /// `enemy` (a kernel, or this position's attack block).
    #[inline]
    pub fn generate_legal(&self, enemy: impl EnemyTable, list: &mut MoveList) {
        list.clear();
        self.generate_from::<false, _, _>(enemy, list);
    }

    /// Fills `list` with the legal captures of the position: every move that takes a piece,
    /// en passant and capturing promotions included (quiet promotions are not captures).
    #[inline]
    pub fn generate_captures(&self, enemy: impl EnemyTable, list: &mut MoveList) {
        list.clear();
        self.generate_from::<true, _, _>(enemy, list);
    }

    /// The generator on `enemy`'s kernel and table.
    #[inline(always)]
    fn generate_from<const CAPTURES: bool, E: EnemyTable, S: Sink>(&self, enemy: E, sink: &mut S) {
        let them = self.side().flip();
        let table = |occupied| enemy.table(&self.board, occupied, them);
        if E::Kernel::OWN_FEATURES {
            E::Kernel::compiled(|| self.generate::<E::Kernel, CAPTURES, _>(sink, table));
        } else {
            self.generate::<E::Kernel, CAPTURES, _>(sink, table);
        }
    }

    /// The number of legal moves of the position on the kernel `K`, counted without
    /// listing them (by sets where the kernel counts so).
    #[inline]
    pub fn count_legal<K: Kernel>(&self, kernel: K) -> u64 {
        let mut count = Count::default();
        if K::COUNTS_BY_SETS {
            match self.count_by_kernel::<K>(&mut count) {
                Ok(()) => return count.moves.into(),
                Err(table) => self.generate::<K, false, _>(&mut count, |_| table),
            }
        } else {
            self.generate_from::<false, _, _>(kernel, &mut count);
        }
        count.moves.into()
    }

    /// The legal moves counted by the kernel `K` with the enemy's table
    /// ([`Kernel::attacks_and_moves`]), then the pinned pieces, en passant and castling:
    /// the frame's pieces and the colour masks only where a pin or an en-passant target asks
    /// for them. In check, the table, for [`Position::generate`] to count with.
    #[inline(always)]
    fn count_by_kernel<K: Kernel>(&self, count: &mut Count) -> Result<(), [u32; 8]> {
        let us = self.side();
        let king_sq = self.king(us);
        // The pins first: the kernel leaves the pinned pieces out of its count.
        let danger = king_lines(&self.board, king_sq, us);
        let (enemy_attacks, counted) = K::attacks_and_moves(&self.board, &danger.pinned, us.flip());
        let Some(moves) = counted else {
            return Err(enemy_attacks);
        };
        if enemy_attacks[king_sq.word()] & king_sq.mask() != 0 {
            return Err(enemy_attacks);
        }
        count.moves = moves;
        let pinned = danger.pinned.iter().fold(0, |any, &w| any | w) != 0;
        // An en-passant target with none of our pawns beside it costs nothing (make sets one
        // after every double push).
        let capturers = self.en_passant.is_some_and(|sq| {
            let behind = if us == Colour::White {
                sq.word() + 1
            } else {
                sq.word() - 1
            };
            let pawn_code = PieceCode::new(us, PieceType::Pawn).code();
            let beside = (sq.mask() << 4) | (sq.mask() >> 4);
            nibbles_equal(self.board.0[behind], pawn_code) & beside != 0
        });
        if pinned || capturers {
            self.pinned_and_en_passant(count, enemy_attacks, &danger.pinned, pinned);
        }
        if self.castling.any_of(us) {
            let word = back_rank(us);
            let occupied = full_nibbles(occupied_nibbles(self.board.0[word]));
            let attacked = full_nibbles(occupied_nibbles(enemy_attacks[word]));
            castling(count, self, occupied, attacked);
        }
        Ok(())
    }

    /// The moves [`Position::count_by_kernel`]'s kernel leaves out but castling, counted
    /// into `count`: the pieces on `pinned` (if `any_pinned`), each along its pin line, and
    /// the en-passant captures, each tested; the king not in check.
    #[cold]
    #[inline(never)]
    fn pinned_and_en_passant(
        &self,
        count: &mut Count,
        enemy_attacks: [u32; 8],
        pinned: &[u32; 8],
        any_pinned: bool,
    ) {
        let us = self.side();
        let king_sq = self.king(us);
        let masks = self.board.colour_masks();
        let (own, theirs) = (masks[us as usize], masks[us.flip() as usize]);
        let mut occupied = own;
        for (o, t) in occupied.iter_mut().zip(theirs) {
            *o |= t;
        }
        let (ep_word, ep_mask) = match self.en_passant {
            Some(sq) => (sq.word(), sq.mask()),
            None => (usize::MAX, 0),
        };
        let mut g = Gen {
            occupied,
            own,
            theirs,
            enemy_attacks,
            xrayed: [0; 8],
            evasions: [!0; 8],
            king_targets: [!0; 8],
            ep_word,
            ep_mask,
            ep_generated: false,
            sink: count,
        };
        if any_pinned {
            let table = match us {
                Colour::White => &Moves::<Portable, Gen<Count>>::WHITE,
                Colour::Black => &Moves::<Portable, Gen<Count>>::BLACK,
            };
            pinned_pieces(&mut g, &self.board, table, king_sq, pinned);
        }
        if ep_word < 8 {
            // The free pawns' captures; the pinned ones' came with their handler.
            let behind = if us == Colour::White {
                ep_word + 1
            } else {
                ep_word - 1
            };
            let pawn_code = PieceCode::new(us, PieceType::Pawn).code();
            let here = nibbles_equal(self.board.0[behind], pawn_code) & !pinned[behind];
            g.en_passant(behind, here & NIBBLE_LOW_BITS);
        }
        if g.ep_generated {
            g.sink
                .keep_en_passant(|mv| self.en_passant_is_legal(mv, king_sq));
        }
    }

    /// The one generator behind them all: with `CAPTURES` every target mask is narrowed to
    /// the enemy's pieces (en passant has its own test) and castling is skipped;
    /// `enemy_table` gives the enemy's attack table from the occupancy (`K`'s, or one the
    /// caller has; a count on a vector kernel builds its own, with the count); `K` gives
    /// the sliders' handlers for the assembly; the moves go to `sink`.
    #[inline(always)]
    fn generate<K: Kernel, const CAPTURES: bool, S: Sink>(
        &self,
        sink: &mut S,
        enemy_table: impl FnOnce([u32; 8]) -> [u32; 8],
    ) {
        let us = self.side();
        let them = us.flip();
        let king_sq = self.king(us);
        let masks = self.board.colour_masks();
        let (own, theirs) = (masks[us as usize], masks[them as usize]);
        let mut occupied = own;
        for (o, t) in occupied.iter_mut().zip(theirs) {
            *o |= t;
        }
        let enemy_attacks = enemy_table(occupied);
        let mut danger = king_lines(&self.board, king_sq, us);
        let in_check = enemy_attacks[king_sq.word()] & king_sq.mask() != 0;
        danger.complete(&self.board, king_sq, us, in_check);
        let (ep_word, ep_mask) = match self.en_passant {
            Some(sq) => (sq.word(), sq.mask()),
            None => (usize::MAX, 0),
        };
        let (mut evasions, mut king_targets) = (danger.evasions, [!0; 8]);
        if CAPTURES {
            for ((e, k), t) in evasions.iter_mut().zip(&mut king_targets).zip(theirs) {
                *e &= t;
                *k = t;
            }
        }
        let mut g = Gen {
            occupied,
            own,
            theirs,
            enemy_attacks,
            xrayed: danger.xrayed,
            evasions,
            king_targets,
            ep_word,
            ep_mask,
            ep_generated: false,
            sink,
        };
        let (white, black) = (&Moves::<K, Gen<S>>::WHITE, &Moves::<K, Gen<S>>::BLACK);
        if danger.checkers >= 2 {
            let king = PieceCode::new(us, PieceType::King).code() as usize;
            let table = if us == Colour::White { white } else { black };
            table[king](&mut g, king_sq.word(), king_sq.mask());
            return;
        }
        // The frame visits the pieces but the pawns and the pinned pieces; the free pawns go
        // together, the pinned pieces last.
        let pawn_code = PieceCode::new(us, PieceType::Pawn).code();
        let (mut pawns, mut others) = ([0; 8], self.board);
        for ((p, o), &pins) in pawns.iter_mut().zip(&mut others.0).zip(&danger.pinned) {
            *p = nibbles_equal(*o, pawn_code) & !pins;
            *o &= !(*p | pins);
        }
        // A count may take the free knights and sliders by sets, leaving the king alone to
        // its handler.
        let counted = g.count_by_sets::<K>(&others, us);
        let king = PieceCode::new(us, PieceType::King).code() as usize;
        match us {
            Colour::White => {
                if counted {
                    white[king](&mut g, king_sq.word(), king_sq.mask());
                } else {
                    frame::run(&others, Pieces::Of(us), white, &mut g);
                }
                g.pawns::<true>(&pawns);
            }
            Colour::Black => {
                if counted {
                    black[king](&mut g, king_sq.word(), king_sq.mask());
                } else {
                    frame::run(&others, Pieces::Of(us), black, &mut g);
                }
                g.pawns::<false>(&pawns);
            }
        }
        if danger.pinned.iter().fold(0, |any, &w| any | w) != 0 {
            let table = if us == Colour::White { white } else { black };
            pinned_pieces(&mut g, &self.board, table, king_sq, &danger.pinned);
        }
        if !CAPTURES && !in_check && self.castling.any_of(us) {
            let word = back_rank(us);
            castling(g.sink, self, g.occupied[word], g.king_danger(word));
        }
        if g.ep_generated {
            g.sink
                .keep_en_passant(|mv| self.en_passant_is_legal(mv, king_sq));
        }
    }

    /// Whether the en-passant capture `mv` leaves `king` safe.
    #[cold]
    fn en_passant_is_legal(&self, mv: Move, king: Square) -> bool {
        // Two pawns leave one rank at once: test the result directly.
        let after = self.make(mv);
        !is_attacked(&after.board, king, after.side())
    }

    /// The legal moves of the position, on the portable kernel (for callers off the
    /// per-node paths; those generate on their own kernel or attack block).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(Portable, &mut list);
        list
    }

    /// The legal move with this UCI text (`e2e4`, `e7e8q`, `e1g1`), if there is one.
    /// Castling is also read as the king taking its own rook (`e1h1`).
    pub fn parse_uci_move(&self, text: &str) -> Option<Move> {
        self.parse_move(text, false)
    }

    /// The legal move with this UCI text in the notation [`Notation`] writes. With
    /// `chess960`, castling is only the king taking its own rook (`e1h1`; a king's step onto
    /// g1 is a king's step); without, it is the king's move to its target (`e1g1`) or the
    /// king taking its rook, a king's step of the same text coming first.
    pub fn parse_move(&self, text: &str, chess960: bool) -> Option<Move> {
        let legal = self.legal_moves();
        let moves = legal.as_slice().iter().copied();
        let notation = self.notation(chess960);
        let found = moves.clone().find(|&mv| notation.text(mv) == text);
        if found.is_some() || chess960 {
            return found;
        }
        let castling = Notation {
            chess960: true,
            rook_files: self.rook_files,
        };
        moves
            .filter(|mv| mv.kind() == MoveKind::Castle)
            .find(|&mv| castling.text(mv) == text)
    }

    /// The notation of moves in this position's game: UCI text, castling written as the
    /// king's move to its target, or with `chess960` as the king taking its own rook.
    pub fn notation(&self, chess960: bool) -> Notation {
        Notation {
            chess960,
            rook_files: self.rook_files,
        }
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        is_attacked(&self.board, self.king(self.side()), self.side().flip())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::Impl;
    use crate::ccr::kernel::{WithKernel, with_kernel};

    fn moves(fen: &str) -> Vec<String> {
        Position::from_fen(fen)
            .unwrap()
            .legal_moves()
            .sorted_names()
    }

    #[test]
    fn paper_figure_2_knight_and_bishop() {
        // The knight on g4 and the bishop on c2 of Figure 1.
        let all = moves("4k3/8/8/8/6N1/4P3/R1B1K3/8 w - - 0 1");
        let knight: Vec<_> = all.iter().filter(|m| m.starts_with("g4")).collect();
        assert_eq!(knight, ["g4e5", "g4f2", "g4f6", "g4h2", "g4h6"]);
        let bishop: Vec<_> = all.iter().filter(|m| m.starts_with("c2")).collect();
        assert_eq!(
            bishop,
            [
                "c2a4", "c2b1", "c2b3", "c2d1", "c2d3", "c2e4", "c2f5", "c2g6", "c2h7"
            ]
        );
    }

    #[test]
    fn en_passant_horizontal_pin_is_illegal() {
        // After ...c7c5 the b5 pawn may not take: both pawns would leave the fifth rank.
        let all = moves("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2");
        assert!(!all.contains(&"b5c6".to_string()));
        let open = moves("8/8/8/1Pp4r/8/K7/8/4k3 w - c6 0 2");
        assert!(open.contains(&"b5c6".to_string()));
    }

    #[test]
    fn castling_rules() {
        // Through an attacked square (f1 by the bishop on c4): only queen side.
        let all = moves("r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1");
        assert!(all.contains(&"e1c1".to_string()) && !all.contains(&"e1g1".to_string()));
        // Out of check: none.
        let all = moves("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1");
        assert!(!all.iter().any(|m| m == "e1c1" || m == "e1g1"));
        // b1 attacked does not stop queen side castling.
        let all = moves("1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1");
        assert!(all.contains(&"e1c1".to_string()));
    }

    #[test]
    fn counting_agrees_with_the_list() {
        for fen in [
            // En passant exposing the king along the rank, and an open one.
            "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2",
            "8/8/8/1Pp4r/8/K7/8/4k3 w - c6 0 2",
            // Two pawns may take en passant; a capture that answers the check, both sides.
            "4k3/8/8/3PpP2/8/8/8/4K3 w - e6 0 2",
            "8/8/8/1Pp5/3K4/8/8/4k3 w - c6 0 2",
            "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
            // Promotions by push and capture, and a pinned pawn that promotes by taking the
            // pinner.
            "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1",
            "3b3k/2P5/1K6/8/8/8/8/8 w - - 0 1",
            // Double check, castling through attacks, and checkmate.
            "4k3/8/8/8/8/5n2/8/r3K2R w K - 0 1",
            "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1",
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            crate::positions::KIWIPETE,
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(
                pos.count_legal(Portable),
                pos.legal_moves().len() as u64,
                "{fen}"
            );
        }
    }

    /// Calls `check` at every node `depth` plies below each of `fens`; the number of nodes.
    fn walk_trees(fens: &[&str], depth: u32, check: &impl Fn(&Position)) -> u32 {
        fn walk(pos: &Position, depth: u32, check: &impl Fn(&Position)) -> u32 {
            check(pos);
            if depth == 0 {
                return 1;
            }
            let below: u32 = (pos.legal_moves().as_slice().iter())
                .map(|&mv| walk(&pos.make(mv), depth - 1, check))
                .sum();
            1 + below
        }
        fens.iter()
            .map(|fen| walk(&Position::from_fen(fen).unwrap(), depth, check))
            .sum()
    }

    #[test]
    fn a_block_built_by_the_caller_gives_the_same_moves() {
        // Every node of a shallow tree, in check or not, with en passant and promotions: the
        // lists from the caller's block are the kernel's lists, move for move.
        let nodes = walk_trees(
            &[
                crate::positions::KIWIPETE,
                crate::positions::POSITION_3,
                crate::positions::POSITION_4,
                "8/8/8/1Pp5/3K4/8/8/4k3 w - c6 0 2",
            ],
            2,
            &|pos| {
                let block = AttackBlock::new(pos.board());
                let (mut given, mut built) = (MoveList::new(), MoveList::new());
                pos.generate_captures(&block, &mut given);
                pos.generate_captures(Portable, &mut built);
                assert_eq!(given.as_slice(), built.as_slice(), "{}", pos.to_fen());
                pos.generate_legal(&block, &mut given);
                pos.generate_legal(Portable, &mut built);
                assert_eq!(given.as_slice(), built.as_slice(), "{}", pos.to_fen());
            },
        );
        assert!(nodes > 2_500, "{nodes}");
    }

    /// Every kernel's count, list and captures at every node of `fens`' trees `depth` plies
    /// deep, against the portable twin's.
    struct EqualToPortable<'a>(&'a [&'a str], u32);

    impl WithKernel for EqualToPortable<'_> {
        type Output = u32;

        fn run<K: Kernel>(self) -> u32 {
            walk_trees(self.0, self.1, &|pos| {
                let (mut by_kernel, mut portable) = (MoveList::new(), MoveList::new());
                let fen = pos.to_fen();
                assert_eq!(
                    pos.count_legal(K::default()),
                    pos.count_legal(Portable),
                    "{fen}"
                );
                // The same list, in the same order but where the kernel's sliders take their
                // targets from its own routine, which visits them in another order.
                let same = |by_kernel: &MoveList, portable: &MoveList| {
                    let (mut a, mut b) =
                        (by_kernel.as_slice().to_vec(), portable.as_slice().to_vec());
                    if K::SLIDER_TARGETS.is_some() {
                        a.sort_by_key(|m| format!("{m}{:?}", m.kind()));
                        b.sort_by_key(|m| format!("{m}{:?}", m.kind()));
                    }
                    assert_eq!(a, b, "{fen}");
                };
                pos.generate_legal(K::default(), &mut by_kernel);
                pos.generate_legal(Portable, &mut portable);
                same(&by_kernel, &portable);
                assert_eq!(pos.count_legal(Portable), portable.len() as u64, "{fen}");
                pos.generate_captures(K::default(), &mut by_kernel);
                pos.generate_captures(Portable, &mut portable);
                same(&by_kernel, &portable);
            })
        }
    }

    #[test]
    fn every_kernel_agrees_with_the_portable_twin() {
        // The vector count of the knights and sliders against the frame's handlers, the
        // kernels' tables and the assembly's sliders against the frame's, at every node of
        // shallow trees (pins, checks, double checks, promotions, en passant).
        // Reported where the CPU lacks it; the other kernels are checked either way.
        crate::arch::runs(crate::arch::Tier::Avx2, "movegen::counting_by_sets");
        let fens = [
            &crate::positions::STANDARD[1..5],
            // Many sliders and knights aimed at the same squares from every direction.
            &[
                "3qk3/8/1N3N2/2QRQ3/2RqR3/2QRQ3/1N3N2/4K3 b - - 0 1",
                "4k3/8/2n1n3/1n3n2/3Q4/1n3n2/2n1n3/7K b - - 0 1",
            ],
        ]
        .concat();
        for imp in Impl::built() {
            let nodes = with_kernel(imp, EqualToPortable(&fens, 2));
            assert!(nodes > 5_000, "{nodes}");
        }
    }

    #[test]
    fn promotions_come_in_fours() {
        let all = moves("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        for m in ["a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7b8q", "a7b8n"] {
            assert!(all.contains(&m.to_string()), "{m}");
        }
    }
}
