//! What the measurement reads from the engine under test: the identity of a position (what a
//! key is a function of), one visited position with both keys ([`Visit`]), the [`Engine`]
//! that yields them, and the fixed-size record pass 1 writes for each.

use crate::cost::Costs;

/// Bytes of one pass-1 record: board (32), state and sources (2), two keys (16).
pub(crate) const RECORD_BYTES: usize = 50;

/// Source bit of a position visited in a perft-tree walk.
pub const FROM_TREE: u8 = 1;
/// Source bit of a position visited in a random game.
pub const FROM_GAME: u8 = 2;

/// What a key is a function of: the board and the keyed state, in a sortable form.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Identity {
    /// The rank words, two to a u64 (rank word `2i` in the low half of `board[i]`).
    pub board: [u64; 4],
    /// Castling rights (bits 0-3), side to move (bit 4, 1 = Black), keyed en-passant file
    /// plus one (bits 5-8, 0 = none).
    pub state: u16,
}

/// The state bits of an [`Identity`].
pub const STATE_MASK: u16 = 0x1FF;

impl Identity {
    /// The identity of a position described in engine-neutral terms: the eight rank words
    /// (rank 8 first, 4-bit piece codes, file h in the low nibble), the side to move, the
    /// castling rights (four bits, the higher ones ignored) and the file (0 = a) of the
    /// en-passant square when an en-passant capture is legal.
    pub fn new(
        ranks: [u32; 8],
        black_to_move: bool,
        castling: u8,
        en_passant_file: Option<u8>,
    ) -> Identity {
        let ep = en_passant_file.map_or(0, |file| u16::from(file & 7) + 1);
        Identity {
            board: std::array::from_fn(|i| {
                u64::from(ranks[2 * i]) | u64::from(ranks[2 * i + 1]) << 32
            }),
            state: u16::from(castling & 15) | u16::from(black_to_move) << 4 | ep << 5,
        }
    }

    /// The eight rank words, rank 8 first.
    pub fn ranks(&self) -> [u32; 8] {
        std::array::from_fn(|i| (self.board[i / 2] >> (32 * (i % 2))) as u32)
    }

    /// Whether Black is to move.
    pub fn black_to_move(&self) -> bool {
        self.state >> 4 & 1 == 1
    }

    /// The castling rights, four bits.
    pub fn castling(&self) -> u8 {
        (self.state & 15) as u8
    }

    /// The file (0 = a) of the en-passant square, kept only when a capture is legal.
    pub fn en_passant_file(&self) -> Option<u8> {
        let ep = (self.state >> 5 & 15) as u8;
        (ep != 0).then(|| ep - 1)
    }

    /// A 64-bit hash of the identity, independent of both keys under test (murmur3's
    /// finaliser chained over the five words), for the bucket and the distinct-count sketch.
    pub fn hash(&self) -> u64 {
        let mut h = fmix64(0x243F_6A88_85A3_08D3 ^ self.state as u64);
        for &word in &self.board {
            h = fmix64(h ^ word).wrapping_add(0x9E37_79B9_7F4A_7C15);
        }
        fmix64(h)
    }
}

/// Murmur3's 64-bit finaliser.
#[inline]
pub(crate) fn fmix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^= x >> 33;
    x = x.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    x ^ (x >> 33)
}

/// A visited position: its identity, both keys (rotation, Zobrist), its parent's keys when
/// it was reached by a move, and its source ([`FROM_TREE`] or [`FROM_GAME`]).
#[derive(Copy, Clone, Debug)]
pub struct Visit {
    /// What the keys are a function of.
    pub id: Identity,
    /// The rotation key and the Zobrist key.
    pub keys: [u64; 2],
    /// The keys of the position the move was made from.
    pub parent: Option<[u64; 2]>,
    /// [`FROM_TREE`] or [`FROM_GAME`].
    pub source: u8,
}

/// The engine under test, as the measurement sees it: an endless stream of visited positions
/// (perft-tree walks and random games taking turns), a way to show a position, and the timing
/// of its key operations.
pub trait Engine {
    /// The next visited position, or an error if the engine found its own keys wrong (an
    /// incremental key that differs from the key computed from scratch).
    fn next_visit(&mut self) -> Result<Visit, String>;
    /// A position with this identity as FEN (clocks zero and one), for showing a collision.
    fn describe(&self, id: &Identity) -> String;
    /// The deepest tree ply reached so far (complete below it).
    fn tree_ply(&self) -> usize;
    /// Random games started so far.
    fn games(&self) -> u64;
    /// The cost per key, timed over moves of games seeded by `seed`, `calls` calls per run.
    fn measure_costs(&self, seed: u64, calls: u64) -> Result<Costs, String>;
}

/// One visited position as pass 1 writes it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Record {
    pub(crate) id: Identity,
    /// [`FROM_TREE`] and/or [`FROM_GAME`].
    pub(crate) sources: u8,
    /// The rotation key and the Zobrist key.
    pub(crate) keys: [u64; 2],
}

impl Record {
    pub(crate) fn encode(&self) -> [u8; RECORD_BYTES] {
        let mut bytes = [0; RECORD_BYTES];
        for (chunk, word) in bytes[..32].chunks_exact_mut(8).zip(self.id.board) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        let state = self.id.state | (self.sources as u16) << 14;
        bytes[32..34].copy_from_slice(&state.to_le_bytes());
        bytes[34..42].copy_from_slice(&self.keys[0].to_le_bytes());
        bytes[42..50].copy_from_slice(&self.keys[1].to_le_bytes());
        bytes
    }

    pub(crate) fn decode(bytes: &[u8]) -> Record {
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let state = u16::from_le_bytes([bytes[32], bytes[33]]);
        Record {
            id: Identity {
                board: [u64_at(0), u64_at(8), u64_at(16), u64_at(24)],
                state: state & STATE_MASK,
            },
            sources: (state >> 14) as u8,
            keys: [u64_at(34), u64_at(42)],
        }
    }
}
