//! A learnt evaluation: a network of one hidden layer whose inputs are the C.C.R.'s
//! nibbles, one input per piece code and square, seen from each side in turn, trained to
//! correct the frame's score. The network evaluator ([`super::Evaluator::Network`]) is the
//! frame evaluation on the attack tables plus the network's output: the frame brings what
//! the attack tables know (mobility, king safety, threats) and material that extrapolates
//! to any imbalance, the network learns what the frame's linear terms miss.
//!
//! Each side's view sums the columns of its pieces into an accumulator of [`HIDDEN`] values
//! (its own pieces and the enemy's in separate halves of the inputs, the board turned over
//! for Black, so that one set of weights serves both sides); the side to move's accumulator
//! and the other's, squared after clipping to `[0, 1]` (SCReLU), feed one output. The whole
//! network is integers (weights times [`QA`] and [`QB`]), so every build, i686 and x86_64,
//! scores every position alike and `ccr bench` counts the same nodes on both.
//!
//! The weights are trained by `ccr train` on `ccr datagen --scores` self-play and written
//! to `network.bin` beside this file, which the build includes: no weights come from
//! elsewhere. A make copies the position and the search keeps no per-ply state for the
//! network, so each thread keeps the accumulators of the last position it evaluated and
//! brings them to the next by the squares whose nibbles differ ([`Cache`]).

use std::sync::LazyLock;

use crate::ccr::Position;
use crate::ccr::board::{count_nibbles, occupied_nibbles};
use crate::types::{Colour, PieceCode};

mod format;

pub(crate) use format::{HIDDEN, INPUTS, MAGIC};

/// The hidden layer's quantisation: its weights and biases are stored times this, and the
/// activation clips at it.
pub(crate) const QA: i32 = 255;
/// The output layer's quantisation: its weights are stored times this.
pub(crate) const QB: i32 = 64;
/// Centipawns per unit of the network's output (the trainer's sigmoid reads the output
/// divided by this, as it reads a search score).
pub(crate) const SCALE: i32 = 400;

/// The weights of the evaluation, as `ccr train` wrote them (`build.rs` checked their layout).
static FILE: &[u8] = include_bytes!("network.bin");

/// The network the evaluation runs, read from [`FILE`] once.
static NETWORK: LazyLock<Network> = LazyLock::new(|| {
    Network::from_bytes(FILE).expect("build.rs checked src/eval/network.bin as a ccrnet01 file")
});

/// A network's integer weights.
pub struct Network {
    /// One column of the hidden layer per input, times [`QA`].
    pub(crate) feature_weights: Box<[[i16; HIDDEN]; INPUTS]>,
    /// The hidden layer's bias, times [`QA`].
    pub(crate) feature_bias: [i16; HIDDEN],
    /// The output's weights on the side to move's accumulator, then the other side's,
    /// times [`QB`].
    pub(crate) output_weights: [[i16; HIDDEN]; 2],
    /// The output's bias, times [`QA`] × [`QB`].
    pub(crate) output_bias: i32,
}

impl Network {
    /// Reads a weights file; `None` if it is not one of this layout and width.
    pub fn from_bytes(bytes: &[u8]) -> Option<Network> {
        format::check(bytes).ok()?;
        let mut words = bytes[MAGIC.len()..]
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        let mut feature_weights: Box<[[i16; HIDDEN]; INPUTS]> = vec![[0; HIDDEN]; INPUTS]
            .into_boxed_slice()
            .try_into()
            .ok()?;
        for column in feature_weights.iter_mut() {
            column
                .iter_mut()
                .for_each(|w| *w = words.next().unwrap_or(0));
        }
        let mut feature_bias = [0; HIDDEN];
        feature_bias
            .iter_mut()
            .for_each(|w| *w = words.next().unwrap_or(0));
        let mut output_weights = [[0; HIDDEN]; 2];
        for half in output_weights.iter_mut() {
            half.iter_mut().for_each(|w| *w = words.next().unwrap_or(0));
        }
        let tail = &bytes[bytes.len() - 4..];
        let output_bias = i32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
        Some(Network {
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        })
    }

    /// The weights file of this network ([`Network::from_bytes`] reads it back); an error
    /// without the memory for it.
    pub fn to_bytes(&self) -> Result<Vec<u8>, String> {
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(format::FILE_LEN).map_err(|_| {
            format!(
                "no memory for the network's file ({} bytes)",
                format::FILE_LEN
            )
        })?;
        bytes.extend_from_slice(MAGIC);
        let words = self
            .feature_weights
            .iter()
            .flatten()
            .chain(&self.feature_bias)
            .chain(self.output_weights.iter().flatten());
        for w in words {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        bytes.extend_from_slice(&self.output_bias.to_le_bytes());
        Ok(bytes)
    }

    /// The network's output for `pos` (its correction), in centipawns from the side to
    /// move's point of view, with both accumulators built afresh.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let mut cache = Cache::empty(self);
        cache.update(self, pos.board().words());
        self.output(&cache, pos)
    }

    /// The score of the position whose accumulators `cache` holds, from the side to move's
    /// point of view.
    #[inline(always)]
    fn output(&self, cache: &Cache, pos: &Position) -> i32 {
        if is_material_draw(&cache.words) {
            return 0;
        }
        let [white, black] = &cache.accumulators;
        let (us, them) = match pos.side() {
            Colour::White => (white, black),
            Colour::Black => (black, white),
        };
        let sum = activate(us, &self.output_weights[0]) + activate(them, &self.output_weights[1]);
        // The sum is in QA² × QB; one QA off leaves the output bias's unit.
        (sum / QA + self.output_bias) * SCALE / (QA * QB)
    }
}

/// The rank words last evaluated on this thread and their accumulators (White's view,
/// Black's). A position is evaluated by updating them square by square where its words
/// differ: a search's consecutive evaluations are a few moves apart, so a handful of
/// columns change instead of the thirty-two a fresh build adds. The integer sums do not
/// depend on the order of their terms, so the score is the fresh build's exactly.
struct Cache {
    words: [u32; 8],
    accumulators: [[i16; HIDDEN]; 2],
}

/// Squares changed past which a fresh build (from the empty board) is cheaper than the
/// update, which removes a piece as well as adding one.
const MOST_CHANGES: u32 = 20;

thread_local! {
    static CACHE: std::cell::RefCell<Cache> = std::cell::RefCell::new(Cache::empty(&NETWORK));
}

impl Cache {
    /// The empty board, whose accumulators are the bias.
    fn empty(network: &Network) -> Cache {
        Cache {
            words: [0; 8],
            accumulators: [network.feature_bias; 2],
        }
    }

    /// Makes the cache hold `words`.
    #[inline(always)]
    fn update(&mut self, network: &Network, words: &[u32; 8]) {
        let changes: u32 = (0..8)
            .map(|i| count_nibbles(occupied_nibbles(self.words[i] ^ words[i])))
            .sum();
        if changes > MOST_CHANGES {
            *self = Cache::empty(network);
        }
        for (word_index, (old, &new)) in self.words.iter_mut().zip(words).enumerate() {
            let mut changed = occupied_nibbles(*old ^ new);
            while changed != 0 {
                let shift = changed.trailing_zeros();
                changed &= changed - 1;
                let index = word_index * 8 + (shift / 4) as usize;
                let (was, is) = (*old >> shift & 0xF, new >> shift & 0xF);
                let [white, black] = &mut self.accumulators;
                if was != 0 {
                    let [w, b] = inputs(PieceCode::from_nibble(was), index);
                    sub(white, &network.feature_weights[w]);
                    sub(black, &network.feature_weights[b]);
                }
                if is != 0 {
                    let [w, b] = inputs(PieceCode::from_nibble(is), index);
                    add(white, &network.feature_weights[w]);
                    add(black, &network.feature_weights[b]);
                }
            }
            *old = new;
        }
    }
}

/// The correction of the network built into ccr for `pos`, in centipawns from the side to
/// move's point of view (through this thread's accumulators, `Cache`).
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    let network = &*NETWORK;
    CACHE.with_borrow_mut(|cache| {
        cache.update(network, pos.board().words());
        network.output(cache, pos)
    })
}

/// The correction of the network built into ccr for `pos`, with both accumulators built
/// afresh (what [`evaluate`] saves).
pub fn evaluate_fresh(pos: &Position) -> i32 {
    NETWORK.evaluate(pos)
}

/// The inputs a piece `code` on the square of C.C.R. index `index` sets: in White's view
/// and in Black's (the board turned over: rank words in reverse order).
#[inline(always)]
pub(crate) fn inputs(code: PieceCode, index: usize) -> [usize; 2] {
    let piece = (code.type_bits() as usize - 1) * 64;
    let (white_half, black_half) = match code.colour() {
        Colour::White => (0, INPUTS / 2),
        Colour::Black => (INPUTS / 2, 0),
    };
    [
        white_half + piece + index,
        black_half + piece + (index ^ 56),
    ]
}

/// Calls `f` with each piece's code and the C.C.R. index of its square, rank word by rank
/// word.
#[inline(always)]
pub(crate) fn for_each_piece(pos: &Position, mut f: impl FnMut(PieceCode, usize)) {
    for (word_index, &word) in pos.board().words().iter().enumerate() {
        let mut occupied = occupied_nibbles(word);
        while occupied != 0 {
            let shift = occupied.trailing_zeros();
            occupied &= occupied - 1;
            let code = PieceCode::from_nibble(word >> shift);
            f(code, word_index * 8 + (shift / 4) as usize);
        }
    }
}

/// Adds a column of the hidden layer to an accumulator (wrapping, as the sums of a trained
/// network never reach the bounds of an i16).
#[inline(always)]
fn add(accumulator: &mut [i16; HIDDEN], column: &[i16; HIDDEN]) {
    for (a, w) in accumulator.iter_mut().zip(column) {
        *a = a.wrapping_add(*w);
    }
}

/// Takes a column of the hidden layer off an accumulator.
#[inline(always)]
fn sub(accumulator: &mut [i16; HIDDEN], column: &[i16; HIDDEN]) {
    for (a, w) in accumulator.iter_mut().zip(column) {
        *a = a.wrapping_sub(*w);
    }
}

/// One accumulator's share of the output: Σ clip(a, 0, QA)² × w, in QA² × QB. The product
/// clip(a) × w fits an i16 (|w| ≤ 127, as the trainer clips the output weights), so that
/// the compiler can pair the multiplications as x86's `pmaddwd` does.
#[inline(always)]
fn activate(accumulator: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    accumulator
        .iter()
        .zip(weights)
        .map(|(&a, &w)| {
            let x = a.clamp(0, QA as i16);
            i32::from(x.wrapping_mul(w)) * i32::from(x)
        })
        .sum()
}

/// No pawns, no rook or queen, and at most a minor piece a side: nobody can mate, whatever
/// the network would say. Read off the rank words: more than four pieces cannot be such a
/// draw, so most positions are settled by the count alone.
fn is_material_draw(words: &[u32; 8]) -> bool {
    let pieces: u32 = words
        .iter()
        .map(|&w| count_nibbles(occupied_nibbles(w)))
        .sum();
    if pieces > 4 {
        return false;
    }
    let mut minors = [0; 2];
    for &word in words {
        let mut occupied = occupied_nibbles(word);
        while occupied != 0 {
            let shift = occupied.trailing_zeros();
            occupied &= occupied - 1;
            let code = PieceCode::from_nibble(word >> shift);
            match code.type_bits() {
                2 | 3 => minors[code.colour() as usize] += 1,
                6 => {}
                _ => return false,
            }
        }
    }
    minors[0] <= 1 && minors[1] <= 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{PieceType, Square};

    #[test]
    fn the_built_in_file_reads_and_writes_back_alike() {
        let network = Network::from_bytes(FILE).unwrap();
        assert_eq!(network.to_bytes().unwrap(), FILE);
        assert!(Network::from_bytes(&FILE[..FILE.len() - 1]).is_none());
        let mut wrong = FILE.to_vec();
        wrong[0] ^= 1;
        assert!(Network::from_bytes(&wrong).is_none());
    }

    /// The check `build.rs` makes of `network.bin`: a cut file (as a failed write leaves
    /// one) or another layout stops the build with why, the built-in file passes.
    #[test]
    fn the_build_refuses_a_cut_or_foreign_weights_file() {
        assert_eq!(format::check(FILE), Ok(()));
        for len in [0, 4, 8, 65_536, FILE.len() - 1] {
            assert!(format::check(&FILE[..len]).is_err(), "{len} bytes");
        }
        assert_eq!(
            format::check(&FILE[..65_536]),
            Err("is 65536 bytes long, a ccrnet01 file 197388".to_string())
        );
        let mut longer = FILE.to_vec();
        longer.push(0);
        assert!(format::check(&longer).is_err());
        let mut foreign = FILE.to_vec();
        foreign[..8].copy_from_slice(b"ccrnet02");
        assert_eq!(
            format::check(&foreign),
            Err("does not start with the magic ccrnet01".to_string())
        );
    }

    #[test]
    fn inputs_see_each_side_from_its_own_side_of_the_board() {
        let e2 = Square::from_file_rank(4, 1).index();
        let e7 = Square::from_file_rank(4, 6).index();
        let white_pawn = PieceCode::new(Colour::White, PieceType::Pawn);
        let black_pawn = PieceCode::new(Colour::Black, PieceType::Pawn);
        // A white pawn on e2 is, to Black, what a black pawn on e7 is to White.
        assert_eq!(inputs(white_pawn, e2)[1], inputs(black_pawn, e7)[0]);
        assert_eq!(inputs(white_pawn, e2)[0], inputs(black_pawn, e7)[1]);
        assert!(inputs(white_pawn, e2)[0] < INPUTS / 2);
        assert!(inputs(black_pawn, e7)[0] >= INPUTS / 2);
    }

    #[test]
    fn the_score_is_the_same_for_the_mirrored_position_and_bare_minors_are_draws() {
        let pairs = [
            (
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
            ),
            (
                "8/8/4k3/8/2P5/8/5K2/8 b - - 0 1",
                "8/5k2/8/2p5/8/4K3/8/8 w - - 0 1",
            ),
        ];
        for (fen, mirrored) in pairs {
            let a = evaluate(&Position::from_fen(fen).unwrap());
            let b = evaluate(&Position::from_fen(mirrored).unwrap());
            assert_eq!(a, b, "{fen}");
        }
        let bare = Position::from_fen("8/8/4k3/8/2N5/8/5K2/6b1 w - - 0 1").unwrap();
        assert_eq!(evaluate(&bare), 0);
    }

    #[test]
    fn the_cached_score_is_the_fresh_one_along_games() {
        use rand_xoshiro::Xoshiro256PlusPlus;
        use rand_xoshiro::rand_core::{RngCore, SeedableRng};
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        for _ in 0..20 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                assert_eq!(evaluate(&pos), NETWORK.evaluate(&pos), "{}", pos.to_fen());
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos = pos.make(moves.as_slice()[rng.next_u32() as usize % moves.len()]);
            }
        }
        // A position far from the last one evaluated: the fresh build.
        let far = Position::from_fen("8/8/4k3/8/2P5/8/5K2/8 b - - 0 1").unwrap();
        assert_eq!(evaluate(&far), NETWORK.evaluate(&far));
    }

    #[test]
    fn the_network_evaluator_is_the_frame_plus_the_correction() {
        use crate::ccr::attacks::AttackBlock;
        use crate::eval::Evaluator;
        let score = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            let block = AttackBlock::new(pos.board());
            let frame = Evaluator::Frame.evaluate(&pos, &block);
            let network = Evaluator::Network.evaluate(&pos, &block);
            assert_eq!(network, frame + evaluate(&pos), "{fen}");
            network
        };
        let even = score("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1");
        let queen_up = score("4k3/pppppppp/8/8/8/8/PPPPPPPP/3QK3 w - - 0 1");
        assert!(queen_up > even + 500, "{queen_up} against {even}");
        assert_eq!(score("8/8/4k3/8/2N5/8/5K2/6b1 w - - 0 1"), 0);
    }
}
