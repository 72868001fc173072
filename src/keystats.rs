//! `ccr keystats`: how good are the transposition keys? The rotation key of
//! [`crate::ccr::keys`] and the Zobrist baseline, measured over `N` distinct positions.
//!
//! **Positions.** Two sources take turns, one position each: walks of the perft trees of the
//! six standard positions (`tests/data/standard-perft.epd`; round `d` visits every node at
//! ply `d` of the six trees, the six walks interleaved, so over the rounds every node is
//! visited once) and seeded random games (xoshiro256++, uniform legal moves, cycling through
//! the same six start positions; a game ends at mate or stalemate, at the fifty-move rule,
//! with bare kings or after 400 plies). Every visited position is a sample, and every move
//! made to reach one is a parent→child pair for the avalanche figures.
//!
//! **Distinctness** is what a key is a function of: the board, the side to move, the castling
//! rights and the en-passant file when a capture is legal (the clocks are not keyed).
//!
//! **Bounded memory.** Nothing holds all positions. Pass 1 streams each visited position's
//! identity (34 bytes) and both keys, 50 bytes in all, into one of `2^b` bucket files chosen by
//! a hash of the identity (`b` = 8 up to ~2·10^8 positions, more above, so that a bucket is
//! about 10^6 records or less). A HyperLogLog sketch of the identities (2^16 registers,
//! standard error 0.4 %) tells when about `N` distinct positions have been written:
//! generation stops at an estimate of `N` + 2 %. Then each identity bucket in turn is read,
//! sorted and deduplicated exactly (duplicates, which transpositions make in the perft trees,
//! land in the same bucket), and each distinct position's two keys go to `2^b` key-bucket
//! files chosen by their top bits, four streams of them: each key as it is (its top bits)
//! and bit-reversed (its low bits, in reverse order, which changes no equality). Should the
//! exact count `n` fall short of `N`, generation resumes and the buckets are deduplicated
//! again; so the statistics are over `n ≥ N` distinct positions, and the report gives `n`.
//! Pass 2 sorts each key bucket (one in memory at a time) and counts, per stream and per
//! width `k`, the pairs of distinct positions whose keys agree in `k` bits — full 64-bit
//! collisions, truncated keys against the birthday expectation `n(n-1)/2 / 2^k`, and, from the
//! same counts, the chi-square of a transposition table's slot counts (`Σc² = 2·pairs + n`).
//!
//! The working files live in `ccr-keystats-<pid>` under the chosen directory and are removed
//! at the end (about 120 bytes of disk per distinct position at the peak: 50 per generated position, about 1.7 generated per distinct one, and 32 of keys).
//! They are removed as well when the run fails (a full disk, a file-size limit, memory that
//! cannot be had: every large buffer is reserved fallibly) or is stopped by SIGINT, SIGTERM or
//! SIGHUP ([`catch_signals`]: the work loops see the signal and unwind).

use std::fs::{self, File, OpenOptions};
use std::hint::black_box;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Instant;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};

use crate::ccr::board::{CastlingRights, Ccr, occupied_nibbles};
use crate::ccr::keys::{KeyScheme, RotationKey, Zobrist};
use crate::ccr::{MoveList, Position};
use crate::types::{Colour, Move, PieceCode, Square};

/// The six standard perft positions, the roots of the trees and the starts of the games.
const EPD: &str = include_str!("../tests/data/standard-perft.epd");

/// The names of the two schemes, in the order of every `[_; 2]` in this module.
pub const SCHEMES: [&str; 2] = ["rotation", "zobrist"];

/// The key widths compared, in bits (20 and 24 are also the table sizes of the chi-square).
pub const LEVELS: [u32; 7] = [20, 24, 32, 40, 48, 56, 64];

/// The bits of a transposition-table index whose spread is tested (2^20 and 2^24 slots).
pub const TABLE_BITS: [u32; 2] = [20, 24];

/// A game ends after this many plies at the latest.
const MAX_GAME_PLIES: u32 = 400;

/// Bytes of one pass-1 record: board (32), state and sources (2), two keys (16).
const RECORD_BYTES: usize = 50;

/// Buffer of each bucket file's writer.
const WRITE_BUFFER: usize = 1 << 16;

/// Source bits of a record.
const FROM_TREE: u8 = 1;
const FROM_GAME: u8 = 2;

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Distinct positions to collect (at least).
    pub positions: u64,
    /// Seed of the random games.
    pub seed: u64,
    /// The directory in which the working directory `ccr-keystats-<pid>` is made.
    pub parent_dir: PathBuf,
    /// Draw a progress bar on stderr.
    pub progress: bool,
    /// Calls per cost measurement (the sample of moves is replayed to reach it).
    pub cost_calls: u64,
}

impl Config {
    /// The command's configuration: progress on stderr, 2^20 calls per cost measurement.
    pub fn new(positions: u64, seed: u64, parent_dir: PathBuf) -> Config {
        Config {
            positions,
            seed,
            parent_dir,
            progress: true,
            cost_calls: 1 << 20,
        }
    }
}

/// Parses a count: digits with optional `_` or `,`, a decimal with an exponent (`1e8`,
/// `2.5e6`) or a suffix `k`, `M`, `G`, `T` (powers of 1000: `100M`, `1.5G`).
pub fn parse_count(text: &str) -> Result<u64, String> {
    let bad = || format!("'{text}' is not a count (examples: 1000000, 1e8, 100M)");
    let cleaned: String = text
        .trim()
        .chars()
        .filter(|&c| c != '_' && c != ',')
        .collect();
    if cleaned.is_empty() {
        return Err(bad());
    }
    let value = if cleaned.bytes().all(|b| b.is_ascii_digit()) {
        cleaned.parse::<u64>().map_err(|_| bad())?
    } else {
        let (number, scale) = match cleaned.as_bytes()[cleaned.len() - 1] {
            b'k' | b'K' => (&cleaned[..cleaned.len() - 1], 1e3),
            b'm' | b'M' => (&cleaned[..cleaned.len() - 1], 1e6),
            b'g' | b'G' => (&cleaned[..cleaned.len() - 1], 1e9),
            b't' | b'T' => (&cleaned[..cleaned.len() - 1], 1e12),
            _ => (cleaned.as_str(), 1.0),
        };
        if !number
            .bytes()
            .all(|b| b.is_ascii_digit() || b"eE.+".contains(&b))
        {
            return Err(bad());
        }
        let value = number.parse::<f64>().map_err(|_| bad())? * scale;
        if !value.is_finite() || value < 0.0 || value.fract() != 0.0 || value > 1e15 {
            return Err(bad());
        }
        value as u64
    };
    if value == 0 {
        return Err("the count must be at least 1".to_string());
    }
    Ok(value)
}

// ---------------------------------------------------------------------------------------
// Identities and records
// ---------------------------------------------------------------------------------------

/// What a key is a function of: the board and the keyed state, in a sortable form.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Identity {
    /// The rank words, two to a u64.
    pub board: [u64; 4],
    /// Castling rights (bits 0-3), side to move (bit 4, 1 = Black), keyed en-passant file
    /// plus one (bits 5-8, 0 = none).
    pub state: u16,
}

/// The state bits of an [`Identity`].
const STATE_MASK: u16 = 0x1FF;

impl Identity {
    /// The identity of a position.
    pub fn of(pos: &Position) -> Identity {
        let ep = pos.keyed_en_passant().map_or(0, |sq| sq.file() as u16 + 1);
        Identity {
            board: *pos.board.as_u64s(),
            state: (pos.castling.0 & 15) as u16 | (pos.side as u16) << 4 | ep << 5,
        }
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

    /// A position with this identity (clocks zero and one), for showing a collision.
    pub fn position(&self) -> Position {
        let words: [u32; 8] = bytemuck::cast(self.board);
        let board = Ccr(words);
        let side = if self.state >> 4 & 1 == 1 {
            Colour::Black
        } else {
            Colour::White
        };
        let ep = (self.state >> 5 & 15) as u8;
        let en_passant = (ep != 0).then(|| {
            let rank = if side == Colour::White { 5 } else { 2 };
            Square::from_file_rank(ep - 1, rank)
        });
        let king = |colour| {
            board
                .find(PieceCode::new(colour, PieceCode::KING))
                .unwrap_or(Square::new(0))
        };
        Position {
            board,
            side,
            castling: CastlingRights((self.state & 15) as u8),
            en_passant,
            halfmove_clock: 0,
            fullmove_number: 1,
            kings: [king(Colour::White), king(Colour::Black)],
        }
    }
}

/// Murmur3's 64-bit finaliser.
#[inline]
fn fmix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^= x >> 33;
    x = x.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    x ^ (x >> 33)
}

/// One visited position as pass 1 writes it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
struct Record {
    id: Identity,
    /// [`FROM_TREE`] and/or [`FROM_GAME`].
    sources: u8,
    /// The rotation key and the Zobrist key.
    keys: [u64; 2],
}

impl Record {
    fn encode(&self) -> [u8; RECORD_BYTES] {
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

    fn decode(bytes: &[u8]) -> Record {
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

// ---------------------------------------------------------------------------------------
// Bucket files
// ---------------------------------------------------------------------------------------

/// The bucket bits for `positions` distinct positions: 8, or more so that a bucket holds
/// about 2^20 pass-1 records or fewer (roughly two are generated per distinct position).
pub fn bucket_bits(positions: u64) -> u32 {
    let records = positions.saturating_mul(2);
    let bits = 64 - (records >> 20).leading_zeros();
    bits.clamp(8, 12)
}

/// The bucket of a 64-bit value: its top `bits` bits.
#[inline]
pub fn bucket_of(value: u64, bits: u32) -> usize {
    (value >> (64 - bits)) as usize
}

fn bucket_path(dir: &Path, prefix: &str, bucket: usize) -> PathBuf {
    dir.join(format!("{prefix}-{bucket:04}.bin"))
}

fn io_error(what: &str, path: &Path) -> impl Fn(io::Error) -> String {
    let context = format!("{what} {}", path.display());
    move |e| format!("{context}: {e}")
}

/// The error of a large buffer that cannot be had.
fn no_memory(what: &str, bytes: usize) -> String {
    format!(
        "keystats: no memory for {what} ({:.1} MiB)",
        bytes as f64 / (1 << 20) as f64
    )
}

/// An empty vector with room for `count` items, or the error naming `what` it was for
/// (a large buffer must fail as an error, not abort the process).
fn buffer<T>(count: usize, what: &str) -> Result<Vec<T>, String> {
    let mut v = Vec::new();
    v.try_reserve_exact(count)
        .map_err(|_| no_memory(what, count.saturating_mul(std::mem::size_of::<T>())))?;
    Ok(v)
}

/// A whole file's bytes, read into a buffer reserved fallibly.
fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    let mut file = File::open(path).map_err(io_error("cannot read", path))?;
    let len = file
        .metadata()
        .map_err(io_error("cannot read", path))?
        .len();
    let mut bytes = buffer(usize::try_from(len).unwrap_or(usize::MAX), "a bucket file")?;
    file.read_to_end(&mut bytes)
        .map_err(io_error("cannot read", path))?;
    Ok(bytes)
}

/// One bucket file and its write buffer.
struct Bucket {
    file: File,
    buffer: Vec<u8>,
}

/// One buffered writer per bucket, the buffers reserved fallibly.
struct BucketFiles {
    dir: PathBuf,
    buckets: Vec<Bucket>,
}

impl BucketFiles {
    /// Opens the `count` files `prefix-NNNN.bin` in `dir`, truncated or for appending.
    fn open(dir: &Path, prefix: &str, count: usize, append: bool) -> Result<BucketFiles, String> {
        let mut buckets = buffer(count, "the bucket files")?;
        for bucket in 0..count {
            let path = bucket_path(dir, prefix, bucket);
            let file = OpenOptions::new()
                .create(true)
                .write(true)
                .append(append)
                .truncate(!append)
                .open(&path)
                .map_err(io_error("cannot create", &path))?;
            let buffer = buffer(WRITE_BUFFER, "the bucket files' buffers")
                .map_err(|_| no_memory("the bucket files' buffers", count * WRITE_BUFFER))?;
            buckets.push(Bucket { file, buffer });
        }
        Ok(BucketFiles {
            dir: dir.to_path_buf(),
            buckets,
        })
    }

    #[inline]
    fn write(&mut self, bucket: usize, bytes: &[u8]) -> Result<(), String> {
        let bucket = &mut self.buckets[bucket];
        if bucket.buffer.len() + bytes.len() > WRITE_BUFFER {
            bucket
                .file
                .write_all(&bucket.buffer)
                .map_err(io_error("cannot write to", &self.dir))?;
            bucket.buffer.clear();
        }
        // Within the reserved capacity: no allocation.
        bucket.buffer.extend_from_slice(bytes);
        Ok(())
    }

    fn finish(self) -> Result<(), String> {
        for mut bucket in self.buckets {
            bucket
                .file
                .write_all(&bucket.buffer)
                .map_err(io_error("cannot write to", &self.dir))?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------
// Signals
// ---------------------------------------------------------------------------------------

/// The signal that asked the run to stop (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    // Only an atomic store: the one thing a handler may safely do here.
    SIGNAL.store(signal, Ordering::Relaxed);
}

/// Makes SIGINT, SIGTERM and SIGHUP stop a run cleanly: the signal is noted, the work loops
/// return an error, and the working directory is removed on the way out. A second signal
/// of the same kind has its default effect (the handler is reset once it has run).
pub fn catch_signals() {
    #[cfg(unix)]
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: a zeroed sigaction is a valid "no flags, empty mask" value, and the handler
        // only stores to an atomic, which is async-signal-safe.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART | libc::SA_RESETHAND;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// The signal that stopped the run, if one did.
pub fn stopped_by() -> Option<i32> {
    match SIGNAL.load(Ordering::Relaxed) {
        0 => None,
        signal => Some(signal),
    }
}

/// The conventional name of a signal [`catch_signals`] handles.
pub fn signal_name(signal: i32) -> &'static str {
    #[cfg(unix)]
    match signal {
        libc::SIGINT => return "SIGINT",
        libc::SIGTERM => return "SIGTERM",
        libc::SIGHUP => return "SIGHUP",
        _ => {}
    }
    let _ = signal;
    "a signal"
}

/// An error if a signal asked the run to stop.
fn check_signal() -> Result<(), String> {
    match stopped_by() {
        None => Ok(()),
        Some(signal) => Err(format!(
            "keystats: stopped by {}; working files removed",
            signal_name(signal)
        )),
    }
}

// ---------------------------------------------------------------------------------------
// Counting distinct positions approximately while generating
// ---------------------------------------------------------------------------------------

/// A HyperLogLog sketch with 2^16 registers (standard error 1.04/256 ≈ 0.4 %), its
/// harmonic sum kept exactly in fixed point so that an estimate costs O(1).
pub struct HyperLogLog {
    registers: Vec<u8>,
    /// Σ 2^(64 - register).
    sum: u128,
    zeros: usize,
}

const HLL_BITS: u32 = 16;

impl Default for HyperLogLog {
    fn default() -> Self {
        HyperLogLog::new()
    }
}

impl HyperLogLog {
    /// An empty sketch.
    pub fn new() -> HyperLogLog {
        let m = 1usize << HLL_BITS;
        HyperLogLog {
            registers: vec![0; m],
            sum: (m as u128) << 64,
            zeros: m,
        }
    }

    /// An empty sketch, or an error if its registers cannot be had.
    fn try_new() -> Result<HyperLogLog, String> {
        let m = 1usize << HLL_BITS;
        let mut registers = buffer(m, "the distinct-count sketch")?;
        registers.resize(m, 0);
        Ok(HyperLogLog {
            registers,
            sum: (m as u128) << 64,
            zeros: m,
        })
    }

    /// Adds one hash (low 16 bits choose the register, the rest give the rank).
    #[inline]
    pub fn insert(&mut self, hash: u64) {
        let index = (hash & ((1 << HLL_BITS) - 1)) as usize;
        let rank = ((hash >> HLL_BITS).leading_zeros() - HLL_BITS + 1) as u8;
        let old = self.registers[index];
        if rank > old {
            self.sum -= 1u128 << (64 - old as u32);
            self.sum += 1u128 << (64 - rank as u32);
            if old == 0 {
                self.zeros -= 1;
            }
            self.registers[index] = rank;
        }
    }

    /// The estimated number of distinct hashes inserted.
    pub fn estimate(&self) -> f64 {
        let m = (1u64 << HLL_BITS) as f64;
        let alpha = 0.7213 / (1.0 + 1.079 / m);
        let raw = alpha * m * m / (self.sum as f64 / 2f64.powi(64));
        if raw <= 2.5 * m && self.zeros > 0 {
            m * (m / self.zeros as f64).ln()
        } else {
            raw
        }
    }
}

// ---------------------------------------------------------------------------------------
// Sources of positions
// ---------------------------------------------------------------------------------------

/// A position with both keys, its parent's keys and its source.
#[derive(Copy, Clone)]
struct Visit {
    pos: Position,
    keys: [u64; 2],
    parent: Option<[u64; 2]>,
    source: u8,
}

fn keys_of(pos: &Position) -> [u64; 2] {
    [RotationKey.key(pos), Zobrist::get().key(pos)]
}

/// The child of `pos` by `mv` with both keys updated incrementally: the rotation key by the
/// engine's `make_keyed`, the Zobrist key by `Zobrist::update`.
#[inline]
fn child(pos: &Position, keys: [u64; 2], mv: Move) -> (Position, [u64; 2]) {
    let (next, rotation) = pos.make_keyed(mv, keys[0]);
    let zobrist = Zobrist::get().update(keys[1], pos, &next);
    (next, [rotation, zobrist])
}

/// The six standard positions.
fn standard_positions() -> Vec<Position> {
    EPD.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fen = line.split(';').next().unwrap_or("").trim();
            Position::from_fen(fen).expect("the standard perft positions parse")
        })
        .collect()
}

struct Frame {
    pos: Position,
    keys: [u64; 2],
    moves: MoveList,
    next: usize,
}

/// A depth-first walk of one tree yielding the nodes at exactly one ply.
struct Walk {
    stack: Vec<Frame>,
    ply: usize,
}

impl Walk {
    fn new(root: &Position, ply: usize) -> Walk {
        let mut frame = Frame {
            pos: *root,
            keys: keys_of(root),
            moves: MoveList::new(),
            next: 0,
        };
        if ply > 0 {
            root.generate_legal(&mut frame.moves);
        }
        let mut stack = Vec::with_capacity(ply + 1);
        stack.push(frame);
        Walk { stack, ply }
    }

    fn next(&mut self) -> Option<Visit> {
        if self.ply == 0 {
            let root = self.stack.pop()?;
            return Some(Visit {
                pos: root.pos,
                keys: root.keys,
                parent: None,
                source: FROM_TREE,
            });
        }
        loop {
            let depth = self.stack.len();
            let top = self.stack.last_mut()?;
            if top.next == top.moves.len() {
                self.stack.pop();
                continue;
            }
            let mv = top.moves.as_slice()[top.next];
            top.next += 1;
            let parent = top.keys;
            let (pos, keys) = child(&top.pos, parent, mv);
            if depth == self.ply {
                return Some(Visit {
                    pos,
                    keys,
                    parent: Some(parent),
                    source: FROM_TREE,
                });
            }
            let mut frame = Frame {
                pos,
                keys,
                moves: MoveList::new(),
                next: 0,
            };
            pos.generate_legal(&mut frame.moves);
            self.stack.push(frame);
        }
    }
}

/// The perft trees of the six positions, ply by ply, the six walks of a ply interleaved.
struct Trees {
    roots: Vec<Position>,
    /// The ply being walked (the next one once `walks` is empty).
    ply: usize,
    walks: Vec<Walk>,
    turn: usize,
}

impl Trees {
    fn new(roots: Vec<Position>) -> Trees {
        let walks = roots.iter().map(|root| Walk::new(root, 0)).collect();
        Trees {
            roots,
            ply: 0,
            walks,
            turn: 0,
        }
    }

    fn next(&mut self) -> Visit {
        loop {
            if self.walks.is_empty() {
                self.ply += 1;
                self.walks = self
                    .roots
                    .iter()
                    .map(|root| Walk::new(root, self.ply))
                    .collect();
                self.turn = 0;
            }
            let i = self.turn % self.walks.len();
            match self.walks[i].next() {
                Some(visit) => {
                    self.turn = i + 1;
                    return visit;
                }
                None => {
                    self.walks.remove(i);
                    self.turn = i;
                }
            }
        }
    }
}

struct Game {
    pos: Position,
    keys: [u64; 2],
    plies: u32,
}

/// Seeded random games, one after another, from the six positions in turn.
struct Games {
    rng: Xoshiro256PlusPlus,
    starts: Vec<(Position, [u64; 2])>,
    started: u64,
    current: Option<Game>,
    moves: MoveList,
}

/// Whether only the two kings are left.
fn bare_kings(pos: &Position) -> bool {
    pos.board
        .0
        .iter()
        .map(|&w| occupied_nibbles(w).count_ones())
        .sum::<u32>()
        <= 2
}

/// A uniform index below `len` from 64 random bits.
#[inline]
fn pick(random: u64, len: usize) -> usize {
    ((random as u128 * len as u128) >> 64) as usize
}

impl Games {
    fn new(starts: &[Position], seed: u64) -> Games {
        Games {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            starts: starts.iter().map(|pos| (*pos, keys_of(pos))).collect(),
            started: 0,
            current: None,
            moves: MoveList::new(),
        }
    }

    fn next(&mut self) -> Visit {
        if let Some(game) = &mut self.current {
            let pos = &game.pos;
            if game.plies < MAX_GAME_PLIES && pos.halfmove_clock < 100 && !bare_kings(pos) {
                pos.generate_legal(&mut self.moves);
                if !self.moves.is_empty() {
                    let mv = self.moves.as_slice()[pick(self.rng.next_u64(), self.moves.len())];
                    let parent = game.keys;
                    let (pos, keys) = child(&game.pos, parent, mv);
                    *game = Game {
                        pos,
                        keys,
                        plies: game.plies + 1,
                    };
                    return Visit {
                        pos,
                        keys,
                        parent: Some(parent),
                        source: FROM_GAME,
                    };
                }
            }
        }
        let (pos, keys) = self.starts[(self.started % self.starts.len() as u64) as usize];
        self.started += 1;
        self.current = Some(Game {
            pos,
            keys,
            plies: 0,
        });
        Visit {
            pos,
            keys,
            parent: None,
            source: FROM_GAME,
        }
    }
}

/// Both sources, taking turns.
struct Generator {
    trees: Trees,
    games: Games,
    turn: bool,
}

impl Generator {
    fn new(seed: u64) -> Generator {
        let positions = standard_positions();
        Generator {
            games: Games::new(&positions, seed),
            trees: Trees::new(positions),
            turn: false,
        }
    }

    #[inline]
    fn next(&mut self) -> Visit {
        self.turn = !self.turn;
        if self.turn {
            self.trees.next()
        } else {
            self.games.next()
        }
    }
}

// ---------------------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------------------

/// Bits flipped per move: a histogram of popcount(parent key ^ child key).
#[derive(Clone, Debug, PartialEq)]
pub struct Avalanche {
    /// Moves by number of bits flipped (0..=64).
    pub histogram: [u64; 65],
}

impl Default for Avalanche {
    fn default() -> Self {
        Avalanche { histogram: [0; 65] }
    }
}

impl Avalanche {
    /// Records one move.
    #[inline]
    pub fn add(&mut self, parent: u64, child: u64) {
        self.histogram[(parent ^ child).count_ones() as usize] += 1;
    }

    /// Moves recorded.
    pub fn count(&self) -> u64 {
        self.histogram.iter().sum()
    }

    /// Mean bits flipped.
    pub fn mean(&self) -> f64 {
        let sum: f64 = (0..65).map(|b| b as f64 * self.histogram[b] as f64).sum();
        sum / self.count().max(1) as f64
    }

    /// Standard deviation of the bits flipped.
    pub fn sd(&self) -> f64 {
        let mean = self.mean();
        let sum: f64 = (0..65)
            .map(|b| (b as f64 - mean).powi(2) * self.histogram[b] as f64)
            .sum();
        (sum / self.count().max(1) as f64).sqrt()
    }

    /// The fewest bits any move flipped.
    pub fn min(&self) -> u32 {
        (0..65).find(|&b| self.histogram[b] != 0).unwrap_or(0) as u32
    }

    /// The most bits any move flipped.
    pub fn max(&self) -> u32 {
        (0..65).rev().find(|&b| self.histogram[b] != 0).unwrap_or(0) as u32
    }
}

/// Counts, over keys pushed in ascending order, the pairs that agree in their top `k`
/// bits for each `k` of [`LEVELS`].
#[derive(Clone, Debug, Default)]
pub struct PairCounter {
    prev: Option<u64>,
    /// Per level, how many keys before the current one share its top bits.
    runs: [u64; LEVELS.len()],
    /// Per level, the pairs counted.
    pub pairs: [u64; LEVELS.len()],
    /// Keys pushed.
    pub count: u64,
    /// Distinct keys pushed.
    pub distinct: u64,
    /// The first few keys that occur more than once.
    pub repeated: Vec<u64>,
}

/// How many repeated keys are kept for showing.
const REPEATS_KEPT: usize = 8;

impl PairCounter {
    /// Adds the next key, which must not be below the previous one.
    #[inline]
    pub fn push(&mut self, key: u64) {
        if let Some(prev) = self.prev {
            debug_assert!(prev <= key, "keys pushed out of order");
            let common = (prev ^ key).leading_zeros();
            for (i, &bits) in LEVELS.iter().enumerate() {
                if common >= bits {
                    self.runs[i] += 1;
                    self.pairs[i] += self.runs[i];
                } else {
                    self.runs[i] = 0;
                }
            }
            if common == 64
                && self.runs[LEVELS.len() - 1] == 1
                && self.repeated.len() < REPEATS_KEPT
            {
                self.repeated.push(key);
            }
        }
        if self.prev != Some(key) {
            self.distinct += 1;
        }
        self.prev = Some(key);
        self.count += 1;
    }

    /// The pairs agreeing in `bits` bits (one of [`LEVELS`]).
    pub fn pairs_at(&self, bits: u32) -> u64 {
        let i = LEVELS
            .iter()
            .position(|&b| b == bits)
            .expect("a level that is counted");
        self.pairs[i]
    }
}

/// The birthday expectation: pairs among `n` uniform keys that agree in `bits` bits.
pub fn expected_pairs(n: u64, bits: u32) -> f64 {
    let n = n as f64;
    n * (n - 1.0) / 2.0 / 2f64.powi(bits as i32)
}

/// The chi-square of the slot counts of `n` keys in `2^bits` slots against uniform, from
/// the pairs of keys sharing a slot (Σc² = 2·pairs + n): `(S/n)·Σc² − n`.
pub fn chi_square(n: u64, bits: u32, pairs: u64) -> f64 {
    let slots = 2f64.powi(bits as i32);
    let n = n as f64;
    slots / n * (2.0 * pairs as f64 + n) - n
}

/// The chi-square's deviation in standard units: `(chi2 − df) / sqrt(2 df)`, df = S − 1.
pub fn chi_square_z(chi2: f64, bits: u32) -> f64 {
    let df = 2f64.powi(bits as i32) - 1.0;
    (chi2 - df) / (2.0 * df).sqrt()
}

/// ln k!.
fn ln_factorial(k: u64) -> f64 {
    (2..=k).map(|i| (i as f64).ln()).sum()
}

/// The Poisson tail probability of seeing `observed` or something further from `mean` on
/// the same side: P(X ≥ observed) when above the mean, else P(X ≤ observed).
pub fn poisson_tail(observed: u64, mean: f64) -> f64 {
    let pmf = |k: u64| (-mean + k as f64 * mean.ln() - ln_factorial(k)).exp();
    if observed as f64 >= mean {
        let mut p = 0.0;
        let mut term = pmf(observed);
        let mut k = observed;
        while term > p * 1e-17 && k < observed + 10_000 {
            p += term;
            k += 1;
            term *= mean / k as f64;
        }
        p.min(1.0)
    } else {
        (0..=observed).map(pmf).sum::<f64>().min(1.0)
    }
}

/// How far an observed pair count is from the birthday expectation, and whether that is a
/// deviation (|z| > 4, or a Poisson tail below 10^-4 when fewer than 10 pairs are expected).
pub fn significance(observed: u64, expected: f64, bits: u32) -> (String, bool) {
    if expected <= 0.0 {
        return ("—".to_string(), false);
    }
    if expected >= 10.0 {
        let p = 2f64.powi(-(bits as i32));
        let z = (observed as f64 - expected) / (expected * (1.0 - p)).sqrt();
        (format!("z = {z:+.2}"), z.abs() > 4.0)
    } else {
        let tail = poisson_tail(observed, expected);
        let side = if observed as f64 >= expected {
            "≥"
        } else {
            "≤"
        };
        (
            format!("P(X {side} {observed}) = {}", number(tail)),
            tail < 1e-4,
        )
    }
}

// ---------------------------------------------------------------------------------------
// Progress
// ---------------------------------------------------------------------------------------

/// A one-line progress bar on stderr (redrawn with `\r` on a terminal; otherwise a line
/// every 30 s and one at the end).
struct Progress {
    enabled: bool,
    tty: bool,
    label: &'static str,
    total: u64,
    start: Instant,
    last: Instant,
}

impl Progress {
    fn new(enabled: bool, label: &'static str, total: u64) -> Progress {
        let now = Instant::now();
        Progress {
            enabled,
            tty: io::stderr().is_terminal(),
            label,
            total: total.max(1),
            start: now,
            last: now,
        }
    }

    fn update(&mut self, done: u64, note: impl FnOnce() -> String) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        let every = if self.tty { 0.2 } else { 30.0 };
        if now.duration_since(self.last).as_secs_f64() < every {
            return;
        }
        self.last = now;
        let line = self.line(done.min(self.total), &note());
        let mut err = io::stderr().lock();
        if self.tty {
            let _ = write!(err, "\r{line}   ");
        } else {
            let _ = writeln!(err, "{line}");
        }
        let _ = err.flush();
    }

    fn line(&self, done: u64, note: &str) -> String {
        let fraction = done as f64 / self.total as f64;
        let filled = (fraction * 30.0).round() as usize;
        let elapsed = self.start.elapsed().as_secs_f64();
        let eta = if fraction > 0.0 {
            format!("{:.0} s", elapsed * (1.0 - fraction) / fraction)
        } else {
            "?".to_string()
        };
        format!(
            "{:<12} [{}{}] {:5.1}% {}/{} {note} ({elapsed:.0} s, eta {eta})",
            self.label,
            "#".repeat(filled),
            "-".repeat(30 - filled.min(30)),
            fraction * 100.0,
            group(done),
            group(self.total),
        )
    }

    fn finish(&mut self, note: &str) -> f64 {
        let seconds = self.start.elapsed().as_secs_f64();
        if self.enabled {
            let mut err = io::stderr().lock();
            if self.tty {
                let _ = write!(err, "\r{}", " ".repeat(110));
            }
            let _ = writeln!(err, "\r{}: {note} in {seconds:.1} s", self.label);
        }
        seconds
    }
}

// ---------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------

/// The working directory, removed when dropped.
struct WorkDir(PathBuf);

impl Drop for WorkDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Pass 1's running state.
struct Collector {
    files: Option<BucketFiles>,
    bits: u32,
    sketch: HyperLogLog,
    generated: [u64; 2],
    avalanche: [Avalanche; 2],
}

impl Collector {
    #[inline]
    fn add(&mut self, visit: &Visit) -> Result<(), String> {
        let id = Identity::of(&visit.pos);
        let hash = id.hash();
        self.sketch.insert(hash);
        let record = Record {
            id,
            sources: visit.source,
            keys: visit.keys,
        };
        let files = self.files.as_mut().expect("the bucket files are open");
        files.write(bucket_of(hash, self.bits), &record.encode())?;
        if let Some(parent) = visit.parent {
            for ((avalanche, parent), child) in
                self.avalanche.iter_mut().zip(parent).zip(visit.keys)
            {
                avalanche.add(parent, child);
            }
        }
        let index = usize::from(visit.source == FROM_GAME);
        self.generated[index] += 1;
        if self.generated[index] % 4096 == 1 && keys_of(&visit.pos) != visit.keys {
            return Err(format!(
                "internal error: an incremental key differs from the key computed from scratch at {}",
                visit.pos.to_fen()
            ));
        }
        Ok(())
    }
}

/// The distinct positions found by deduplication.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Distinct {
    /// Distinct positions.
    pub n: u64,
    /// Of them, seen only in the trees, only in the games, in both.
    pub by_source: [u64; 3],
}

/// The four key streams: rotation (top bits, low bits), Zobrist (top bits, low bits).
const STREAMS: usize = 4;

/// The value of stream `stream` for a position's two keys: the key, or its bit reversal
/// (whose top bits are the key's low bits).
#[inline]
fn stream_value(stream: usize, keys: [u64; 2]) -> u64 {
    let key = keys[stream / 2];
    if stream % 2 == 1 {
        key.reverse_bits()
    } else {
        key
    }
}

/// Deduplicates the identity buckets and writes the distinct positions' keys to the key
/// buckets (each an 8-byte word: stream in the top two bits, the value's bits below the
/// bucket's).
fn dedupe(dir: &Path, bits: u32, progress: bool) -> Result<Distinct, String> {
    let buckets = 1usize << bits;
    let low = u64::MAX >> bits;
    let mut keys = BucketFiles::open(dir, "keys", buckets, false)?;
    let mut distinct = Distinct::default();
    let mut bar = Progress::new(progress, "deduplicate", buckets as u64);
    for bucket in 0..buckets {
        check_signal()?;
        let path = bucket_path(dir, "ids", bucket);
        let bytes = read_file(&path)?;
        let mut records: Vec<Record> = buffer(bytes.len() / RECORD_BYTES, "a bucket's records")?;
        records.extend(bytes.chunks_exact(RECORD_BYTES).map(Record::decode));
        drop(bytes);
        records.sort_unstable_by_key(|r| r.id);
        for group in records.chunk_by(|a, b| a.id == b.id) {
            let first = group[0];
            if let Some(other) = group.iter().find(|r| r.keys != first.keys) {
                return Err(format!(
                    "internal error: one position with two keys ({:016x?} and {:016x?}): {}",
                    first.keys,
                    other.keys,
                    first.id.position().to_fen()
                ));
            }
            let sources = group.iter().fold(0, |s, r| s | r.sources);
            distinct.n += 1;
            distinct.by_source[sources as usize - 1] += 1;
            for stream in 0..STREAMS {
                let value = stream_value(stream, first.keys);
                let word = (stream as u64) << 62 | (value & low);
                keys.write(bucket_of(value, bits), &word.to_le_bytes())?;
            }
        }
        bar.update(bucket as u64 + 1, || {
            format!("buckets, {} distinct", group(distinct.n))
        });
    }
    keys.finish()?;
    bar.finish(&format!("{} distinct positions", group(distinct.n)));
    Ok(distinct)
}

/// Pass 2: sorts each key bucket and counts the agreeing pairs of every stream.
fn count_pairs(dir: &Path, bits: u32, progress: bool) -> Result<[PairCounter; STREAMS], String> {
    let buckets = 1usize << bits;
    let low = u64::MAX >> bits;
    let mut counters: [PairCounter; STREAMS] = Default::default();
    let mut bar = Progress::new(progress, "count", buckets as u64);
    for bucket in 0..buckets {
        check_signal()?;
        let path = bucket_path(dir, "keys", bucket);
        let bytes = read_file(&path)?;
        let mut words: Vec<u64> = buffer(bytes.len() / 8, "a bucket's keys")?;
        words.extend(
            bytes
                .chunks_exact(8)
                .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes"))),
        );
        drop(bytes);
        // The stream bits sort first, so each stream's values come out in ascending order.
        words.sort_unstable();
        let top = (bucket as u64) << (64 - bits);
        for word in words {
            counters[(word >> 62) as usize].push(top | (word & low));
        }
        fs::remove_file(&path).map_err(io_error("cannot remove", &path))?;
        bar.update(bucket as u64 + 1, || "buckets".to_string());
    }
    bar.finish("keys counted");
    Ok(counters)
}

/// The positions behind the repeated keys of each scheme, found by one more scan of the
/// identity buckets: for each repeated key, the FENs of the distinct positions that have it.
fn resolve_collisions(
    dir: &Path,
    bits: u32,
    repeated: &[Vec<u64>; 2],
) -> Result<Collisions, String> {
    let mut found: [Vec<(u64, Vec<Identity>)>; 2] = [
        repeated[0].iter().map(|&k| (k, Vec::new())).collect(),
        repeated[1].iter().map(|&k| (k, Vec::new())).collect(),
    ];
    if repeated.iter().all(Vec::is_empty) {
        return Ok([Vec::new(), Vec::new()]);
    }
    for bucket in 0..1usize << bits {
        check_signal()?;
        let path = bucket_path(dir, "ids", bucket);
        let bytes = read_file(&path)?;
        for record in bytes.chunks_exact(RECORD_BYTES).map(Record::decode) {
            for (list, key) in found.iter_mut().zip(record.keys) {
                for (repeated, ids) in list.iter_mut() {
                    if key == *repeated && !ids.contains(&record.id) {
                        ids.push(record.id);
                    }
                }
            }
        }
    }
    Ok(found.map(|list| {
        list.into_iter()
            .map(|(key, ids)| (key, ids.iter().map(|id| id.position().to_fen()).collect()))
            .collect()
    }))
}

/// Per scheme, a few repeated keys, each with the FENs of the positions that share it.
pub type Collisions = [Vec<(u64, Vec<String>)>; 2];

/// Wall-clock cost per call, in nanoseconds (median of three timed runs).
#[derive(Clone, Debug, Default)]
pub struct Costs {
    /// Calls per timed run.
    pub calls: u64,
    /// `Position::make` alone.
    pub make: f64,
    /// `Position::make_keyed` (make plus the engine's incremental rotation update).
    pub make_keyed: f64,
    /// `make` then `RotationKey.update` (the generic before/after update).
    pub make_rotation_update: f64,
    /// `make` then `Zobrist::update`.
    pub make_zobrist_update: f64,
    /// `RotationKey.key` from scratch.
    pub rotation_scratch: f64,
    /// `Zobrist::key` from scratch.
    pub zobrist_scratch: f64,
}

struct Sample {
    pos: Position,
    mv: Move,
    keys: [u64; 2],
}

/// Median wall-clock nanoseconds per call of `f` over `rounds` passes of `samples`.
fn ns_per_call(samples: &[Sample], rounds: u64, mut f: impl FnMut(&Sample)) -> f64 {
    let mut runs = [0.0; 3];
    for run in &mut runs {
        let start = Instant::now();
        for _ in 0..rounds {
            for sample in samples {
                f(black_box(sample));
            }
        }
        *run = start.elapsed().as_nanos() as f64 / (rounds * samples.len() as u64) as f64;
    }
    runs.sort_by(f64::total_cmp);
    runs[1]
}

/// Times the key operations over moves of seeded random games (at most 2^18 of them,
/// replayed to make `calls` calls); an error if the sample cannot be had.
pub fn measure_costs(seed: u64, calls: u64) -> Result<Costs, String> {
    let size = calls.clamp(1, 1 << 18) as usize;
    let mut games = Games::new(&standard_positions(), seed ^ 0xC057_C057_C057_C057);
    let mut samples = buffer(size, "the sample of moves timed")?;
    let mut moves = MoveList::new();
    while samples.len() < size {
        let visit = games.next();
        visit.pos.generate_legal(&mut moves);
        if let Some(&mv) = moves
            .as_slice()
            .get(pick(games.rng.next_u64(), moves.len()))
        {
            samples.push(Sample {
                pos: visit.pos,
                mv,
                keys: visit.keys,
            });
        }
    }
    let rounds = calls.div_ceil(size as u64).max(1);
    let zobrist = Zobrist::get();
    Ok(Costs {
        calls: rounds * size as u64,
        make: ns_per_call(&samples, rounds, |s| {
            black_box(s.pos.make(s.mv));
        }),
        make_keyed: ns_per_call(&samples, rounds, |s| {
            black_box(s.pos.make_keyed(s.mv, s.keys[0]));
        }),
        make_rotation_update: ns_per_call(&samples, rounds, |s| {
            let next = s.pos.make(s.mv);
            let key = RotationKey.update(s.keys[0], &s.pos, &next);
            black_box((next, key));
        }),
        make_zobrist_update: ns_per_call(&samples, rounds, |s| {
            let next = s.pos.make(s.mv);
            let key = zobrist.update(s.keys[1], &s.pos, &next);
            black_box((next, key));
        }),
        rotation_scratch: ns_per_call(&samples, rounds, |s| {
            black_box(RotationKey.key(&s.pos));
        }),
        zobrist_scratch: ns_per_call(&samples, rounds, |s| {
            black_box(zobrist.key(&s.pos));
        }),
    })
}

/// Everything a run found.
#[derive(Clone, Debug)]
pub struct Report {
    /// Distinct positions asked for.
    pub requested: u64,
    /// The games' seed.
    pub seed: u64,
    /// The distinct positions found.
    pub distinct: Distinct,
    /// Positions generated by the trees and by the games (with repetitions).
    pub generated: [u64; 2],
    /// The deepest tree ply reached (complete below it).
    pub tree_ply: usize,
    /// Random games started.
    pub games: u64,
    /// Generation passes (more than one when the sketch's estimate fell short).
    pub passes: u32,
    /// Pair counts per stream (rotation top, rotation low, Zobrist top, Zobrist low).
    pub pairs: [PairCounter; STREAMS],
    /// Per scheme, the repeated 64-bit keys found (a few) and the positions sharing them.
    pub collisions: Collisions,
    /// Per scheme, bits flipped per move.
    pub avalanche: [Avalanche; 2],
    /// Cost per key.
    pub costs: Costs,
    /// Seconds spent generating, deduplicating, counting and timing.
    pub seconds: [f64; 4],
    /// Bucket files per pass.
    pub buckets: usize,
}

/// Runs the whole measurement. The parent directory must exist; the working directory made
/// in it is removed whatever the outcome (see [`catch_signals`] for signals).
pub fn run(config: &Config) -> Result<Report, String> {
    let wanted = config.positions.max(1);
    let dir = config
        .parent_dir
        .join(format!("ccr-keystats-{}", std::process::id()));
    fs::create_dir(&dir).map_err(io_error("cannot create", &dir))?;
    let work = WorkDir(dir);
    let dir = work.0.as_path();
    let bits = bucket_bits(wanted);

    let mut generator = Generator::new(config.seed);
    let mut collector = Collector {
        files: None,
        bits,
        sketch: HyperLogLog::try_new()?,
        generated: [0; 2],
        avalanche: Default::default(),
    };
    let mut target = wanted as f64 * 1.02 + 64.0;
    let mut seconds = [0.0; 4];
    let mut passes = 0;
    let distinct = loop {
        passes += 1;
        collector.files = Some(BucketFiles::open(dir, "ids", 1 << bits, passes > 1)?);
        let mut bar = Progress::new(config.progress, "generate", wanted);
        let mut since_check = 0u32;
        loop {
            let visit = generator.next();
            collector.add(&visit)?;
            since_check += 1;
            if since_check == 64 {
                since_check = 0;
                check_signal()?;
                let estimate = collector.sketch.estimate();
                if estimate >= target {
                    break;
                }
                bar.update(estimate as u64, || {
                    format!(
                        "distinct (estimated), {} generated",
                        group(collector.generated.iter().sum())
                    )
                });
            }
        }
        collector
            .files
            .take()
            .expect("the bucket files are open")
            .finish()?;
        seconds[0] += bar.finish(&format!(
            "{} positions generated",
            group(collector.generated.iter().sum())
        ));
        let start = Instant::now();
        let distinct = dedupe(dir, bits, config.progress)?;
        seconds[1] += start.elapsed().as_secs_f64();
        if distinct.n >= wanted {
            break distinct;
        }
        target = collector.sketch.estimate() + (wanted - distinct.n) as f64 * 1.1 + 64.0;
    };

    let start = Instant::now();
    let pairs = count_pairs(dir, bits, config.progress)?;
    let repeated = [pairs[0].repeated.clone(), pairs[2].repeated.clone()];
    let collisions = resolve_collisions(dir, bits, &repeated)?;
    seconds[2] = start.elapsed().as_secs_f64();
    drop(work);

    let start = Instant::now();
    if config.progress {
        let _ = writeln!(io::stderr(), "cost: timing the key operations…");
    }
    let costs = measure_costs(config.seed, config.cost_calls)?;
    check_signal()?;
    seconds[3] = start.elapsed().as_secs_f64();

    Ok(Report {
        requested: wanted,
        seed: config.seed,
        distinct,
        generated: collector.generated,
        tree_ply: generator.trees.ply,
        games: generator.games.started,
        passes,
        pairs,
        collisions,
        avalanche: collector.avalanche,
        costs,
        seconds,
        buckets: 1 << bits,
    })
}

// ---------------------------------------------------------------------------------------
// The report
// ---------------------------------------------------------------------------------------

/// An integer with thin thousands separators (`1,234,567`).
fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A real number in a readable form: grouped when large, fixed or scientific when small.
fn number(x: f64) -> String {
    if !x.is_finite() {
        "—".to_string()
    } else if x == 0.0 {
        "0".to_string()
    } else if x.abs() >= 1000.0 {
        let rounded = x.abs().round() as u64;
        format!("{}{}", if x < 0.0 { "-" } else { "" }, group(rounded))
    } else if x.abs() >= 0.01 {
        format!("{x:.3}")
    } else {
        format!("{x:.2e}")
    }
}

impl Report {
    /// The results as markdown tables.
    pub fn to_markdown(&self) -> String {
        let n = self.distinct.n;
        let mut out = String::new();
        let mut deviations = Vec::new();
        let line = |out: &mut String, text: String| {
            out.push_str(&text);
            out.push('\n');
        };
        line(
            &mut out,
            "## Key statistics: the rotation key against Zobrist".to_string(),
        );
        line(&mut out, String::new());
        line(
            &mut out,
            format!(
                "- commit `{}`, seed {}, {} distinct positions requested",
                env!("CCR_COMMIT"),
                self.seed,
                group(self.requested)
            ),
        );
        line(
            &mut out,
            format!(
                "- **n = {} distinct positions** (equal board, side to move, castling rights and \
                 keyed en-passant file count once; clocks ignored), from {} generated: {} in \
                 perft-tree walks (every node to ply {}, ply {} in part) and {} in {} seeded \
                 random games",
                group(n),
                group(self.generated.iter().sum()),
                group(self.generated[0]),
                self.tree_ply.saturating_sub(1),
                self.tree_ply,
                group(self.generated[1]),
                group(self.games)
            ),
        );
        line(
            &mut out,
            format!(
                "- distinct positions seen only in the trees: {}, only in the games: {}, in both: {}",
                group(self.distinct.by_source[0]),
                group(self.distinct.by_source[1]),
                group(self.distinct.by_source[2])
            ),
        );
        line(
            &mut out,
            format!(
                "- time: generate {:.1} s, deduplicate {:.1} s, count {:.1} s, cost {:.1} s; \
                 {} generation pass(es), {} bucket files per pass",
                self.seconds[0],
                self.seconds[1],
                self.seconds[2],
                self.seconds[3],
                self.passes,
                self.buckets
            ),
        );
        line(&mut out, String::new());

        // Full collisions.
        line(&mut out, "### Full 64-bit collisions".to_string());
        line(&mut out, String::new());
        line(
            &mut out,
            "| key | distinct positions | distinct keys | colliding pairs | expected (birthday) | significance |"
                .to_string(),
        );
        line(&mut out, "|---|---:|---:|---:|---:|---|".to_string());
        for (scheme, scheme_name) in SCHEMES.iter().enumerate() {
            let pairs = self.pairs[2 * scheme].pairs_at(64);
            let expected = expected_pairs(n, 64);
            let (sig, deviates) = significance(pairs, expected, 64);
            if deviates || pairs > 0 {
                deviations.push(format!(
                    "{}: {} full 64-bit collision pair(s)",
                    scheme_name, pairs
                ));
            }
            let distinct_keys = self.pairs[2 * scheme].distinct;
            line(
                &mut out,
                format!(
                    "| {} | {} | {} | {} | {} | {} |",
                    scheme_name,
                    group(n),
                    group(distinct_keys),
                    group(pairs),
                    number(expected),
                    sig
                ),
            );
        }
        for (scheme, scheme_name) in SCHEMES.iter().enumerate() {
            for (key, fens) in &self.collisions[scheme] {
                line(
                    &mut out,
                    format!(
                        "\n{} key {key:016x} is shared by: {}",
                        scheme_name,
                        fens.iter()
                            .map(|f| format!("`{f}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
            }
        }
        line(&mut out, String::new());

        // Truncated keys.
        line(
            &mut out,
            "### Truncated keys against the birthday expectation".to_string(),
        );
        line(&mut out, String::new());
        line(
            &mut out,
            format!(
                "Pairs of distinct positions whose keys agree in the top (or low) k bits, against \
                 n(n-1)/2 / 2^k for n = {}. z for 10 or more expected pairs, else the Poisson tail.",
                group(n)
            ),
        );
        line(&mut out, String::new());
        line(
            &mut out,
            "| key | bits compared | observed pairs | expected pairs | observed/expected | significance |"
                .to_string(),
        );
        line(&mut out, "|---|---|---:|---:|---:|---|".to_string());
        for bits in [32, 40, 48, 56] {
            for (scheme, scheme_name) in SCHEMES.iter().enumerate() {
                for (view, name) in ["top", "low"].iter().enumerate() {
                    let observed = self.pairs[2 * scheme + view].pairs_at(bits);
                    let expected = expected_pairs(n, bits);
                    let (sig, deviates) = significance(observed, expected, bits);
                    if deviates {
                        deviations.push(format!(
                            "{}: {name} {bits} bits, {} pairs against {} expected ({sig})",
                            scheme_name,
                            group(observed),
                            number(expected)
                        ));
                    }
                    line(
                        &mut out,
                        format!(
                            "| {} | {name} {bits} | {} | {} | {} | {} |",
                            scheme_name,
                            group(observed),
                            number(expected),
                            ratio(observed as f64, expected),
                            sig
                        ),
                    );
                }
            }
        }
        line(&mut out, String::new());

        // Index spread.
        line(
            &mut out,
            "### Transposition-table index spread (chi-square against uniform)".to_string(),
        );
        line(&mut out, String::new());
        line(
            &mut out,
            "Slot counts of the n distinct positions in a table of 2^b slots indexed by the key's \
             low or top b bits; z = (chi² − df) / sqrt(2 df), about N(0, 1) for a uniform key \
             when there are 5 or more positions per slot."
                .to_string(),
        );
        line(&mut out, String::new());
        line(
            &mut out,
            "| key | slots | index | positions per slot | chi² | df | z |".to_string(),
        );
        line(&mut out, "|---|---:|---|---:|---:|---:|---:|".to_string());
        for bits in TABLE_BITS {
            for (scheme, scheme_name) in SCHEMES.iter().enumerate() {
                for (view, name) in ["low", "top"].iter().enumerate() {
                    let stream = 2 * scheme + 1 - view;
                    let pairs = self.pairs[stream].pairs_at(bits);
                    let chi2 = chi_square(n, bits, pairs);
                    let z = chi_square_z(chi2, bits);
                    let per_slot = n as f64 / 2f64.powi(bits as i32);
                    if z.abs() > 4.0 && per_slot >= 5.0 {
                        deviations.push(format!(
                            "{}: 2^{bits} slots by the {name} bits, chi-square z = {z:+.2}",
                            scheme_name
                        ));
                    }
                    line(
                        &mut out,
                        format!(
                            "| {} | 2^{bits} | {name} {bits} bits | {per_slot:.2} | {} | {} | {z:+.2} |",
                            scheme_name,
                            number(chi2),
                            group((1u64 << bits) - 1)
                        ),
                    );
                }
            }
        }
        line(&mut out, String::new());

        // Avalanche.
        line(
            &mut out,
            "### Bits flipped per move (avalanche)".to_string(),
        );
        line(&mut out, String::new());
        line(
            &mut out,
            format!(
                "popcount(key before ^ key after) over the {} moves made while generating; an \
                 ideal key flips 32 ± 4 bits.",
                group(self.avalanche[0].count())
            ),
        );
        line(&mut out, String::new());
        line(
            &mut out,
            "| key | moves | mean | sd | min | max | moves flipping < 16 bits |".to_string(),
        );
        line(&mut out, "|---|---:|---:|---:|---:|---:|---:|".to_string());
        for (scheme, avalanche) in self.avalanche.iter().enumerate() {
            let few: u64 = avalanche.histogram[..16].iter().sum();
            line(
                &mut out,
                format!(
                    "| {} | {} | {:.3} | {:.3} | {} | {} | {} |",
                    SCHEMES[scheme],
                    group(avalanche.count()),
                    avalanche.mean(),
                    avalanche.sd(),
                    avalanche.min(),
                    avalanche.max(),
                    group(few)
                ),
            );
        }
        line(
            &mut out,
            format!(
                "| uniform random key (expected) | | 32 | 4 | | | {:.1} |",
                self.avalanche[0].count() as f64 * binomial_below(16)
            ),
        );
        line(&mut out, String::new());

        // Costs.
        let c = &self.costs;
        line(
            &mut out,
            "### Cost per key (ns per call, wall clock)".to_string(),
        );
        line(&mut out, String::new());
        line(
            &mut out,
            format!(
                "Median of three timed runs of {} calls each over {} moves of seeded random \
                 games; wall clock on a busy or frequency-scaling machine is noisy (a few ns).",
                group(c.calls),
                group(c.calls.min(1 << 18))
            ),
        );
        line(&mut out, String::new());
        line(&mut out, "| ns per call | rotation | zobrist |".to_string());
        line(&mut out, "|---|---:|---:|".to_string());
        line(
            &mut out,
            format!(
                "| make + incremental update (`make_keyed` / `make` + `Zobrist::update`) | {:.2} | {:.2} |",
                c.make_keyed, c.make_zobrist_update
            ),
        );
        line(
            &mut out,
            format!(
                "| make + generic `KeyScheme::update` | {:.2} | {:.2} |",
                c.make_rotation_update, c.make_zobrist_update
            ),
        );
        line(
            &mut out,
            format!("| `make` alone | {:.2} | {:.2} |", c.make, c.make),
        );
        line(
            &mut out,
            format!(
                "| **incremental update** (the first row minus `make`) | {:.2} | {:.2} |",
                c.make_keyed - c.make,
                c.make_zobrist_update - c.make
            ),
        );
        line(
            &mut out,
            format!(
                "| **from scratch** (`KeyScheme::key`) | {:.2} | {:.2} |",
                c.rotation_scratch, c.zobrist_scratch
            ),
        );
        line(&mut out, String::new());

        line(&mut out, "### Deviations".to_string());
        line(&mut out, String::new());
        if deviations.is_empty() {
            line(
                &mut out,
                "None: no full collision, and every truncated-key and index-spread figure of both \
                 keys is within |z| ≤ 4 (or a Poisson tail ≥ 10^-4) of a uniform random key."
                    .to_string(),
            );
        } else {
            line(
                &mut out,
                "Figures beyond |z| > 4 (or a Poisson tail < 10^-4) of a uniform random key, \
                 or full collisions:"
                    .to_string(),
            );
            line(&mut out, String::new());
            for d in deviations {
                line(&mut out, format!("- {d}"));
            }
        }
        out
    }
}

/// P(X < k) for X ~ Binomial(64, 1/2): the chance that a uniform random change of a 64-bit
/// key flips fewer than `k` bits.
pub fn binomial_below(k: u32) -> f64 {
    let mut coefficient = 1.0; // C(64, 0)
    let mut sum = 0.0;
    for i in 0..k.min(65) {
        sum += coefficient;
        coefficient = coefficient * (64 - i) as f64 / (i + 1) as f64;
    }
    sum / 2f64.powi(64)
}

fn ratio(observed: f64, expected: f64) -> String {
    if expected > 0.0 {
        format!("{:.4}", observed / expected)
    } else {
        "—".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_parse_with_suffixes() {
        assert_eq!(parse_count("1000000"), Ok(1_000_000));
        assert_eq!(parse_count("1_000_000"), Ok(1_000_000));
        assert_eq!(parse_count("1e8"), Ok(100_000_000));
        assert_eq!(parse_count("2.5e6"), Ok(2_500_000));
        assert_eq!(parse_count("100M"), Ok(100_000_000));
        assert_eq!(parse_count("1.5G"), Ok(1_500_000_000));
        assert_eq!(parse_count("20k"), Ok(20_000));
        for bad in [
            "", "0", "-5", "1.5", "abc", "1e", "10X", "1e30", "nan", "inf",
        ] {
            assert!(parse_count(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn records_round_trip_and_identities_ignore_the_clocks() {
        let a = Position::from_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
            .unwrap();
        let b = Position::from_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 7 30")
            .unwrap();
        assert_eq!(Identity::of(&a), Identity::of(&b));
        assert_eq!(Identity::of(&a).position().to_fen(), a.to_fen());
        // An en-passant square with no legal capture is not part of the identity.
        let quiet =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
                .unwrap();
        let none = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
            .unwrap();
        assert_eq!(Identity::of(&quiet), Identity::of(&none));
        assert_ne!(Identity::of(&a).hash(), Identity::of(&none).hash());
        let record = Record {
            id: Identity::of(&a),
            sources: FROM_TREE | FROM_GAME,
            keys: keys_of(&a),
        };
        assert_eq!(Record::decode(&record.encode()), record);
    }

    #[test]
    fn buckets_take_the_top_bits() {
        assert_eq!(bucket_bits(1), 8);
        assert_eq!(bucket_bits(100_000_000), 8);
        assert_eq!(bucket_bits(1_000_000_000), 11);
        assert_eq!(bucket_bits(u64::MAX), 12);
        assert_eq!(bucket_of(u64::MAX, 8), 255);
        assert_eq!(bucket_of(0x0123_4567_89AB_CDEF, 8), 0x01);
        assert_eq!(bucket_of(0x0123_4567_89AB_CDEF, 12), 0x012);
        // A stream word keeps exactly the bits below the bucket's.
        let value = 0xABCD_EF01_2345_6789u64;
        let word = 3u64 << 62 | (value & (u64::MAX >> 8));
        assert_eq!(
            (bucket_of(value, 8) as u64) << 56 | (word & (u64::MAX >> 8)),
            value
        );
        assert_eq!(stream_value(1, [value, 0]), value.reverse_bits());
        assert_eq!(stream_value(2, [0, value]), value);
    }

    #[test]
    fn pair_counter_counts_agreeing_prefixes() {
        let mut counter = PairCounter::default();
        let base = 0x1234_5678_9ABC_DEF0u64;
        // Three equal keys (3 full pairs), one differing in bit 0 (agrees in 63 bits), one
        // differing in bit 20 from the top (agrees in 43 top bits with all four).
        let mut keys = vec![base, base, base, base | 1, base ^ (1 << 20)];
        keys.sort_unstable();
        for key in keys {
            counter.push(key);
        }
        assert_eq!(counter.count, 5);
        assert_eq!(counter.pairs_at(64), 3);
        assert_eq!(counter.pairs_at(56), 6);
        assert_eq!(counter.pairs_at(40), 10);
        assert_eq!(counter.repeated, vec![base]);
        assert_eq!(counter.distinct, 3);
    }

    #[test]
    fn binomial_tail() {
        assert_eq!(binomial_below(0), 0.0);
        assert_eq!(binomial_below(1), 2f64.powi(-64));
        assert!((binomial_below(65) - 1.0).abs() < 1e-12);
        assert!((binomial_below(16) - 1.2182286e-5).abs() < 1e-11);
    }

    #[test]
    fn birthday_expectation() {
        assert_eq!(expected_pairs(0, 32), 0.0);
        assert_eq!(expected_pairs(1, 32), 0.0);
        assert_eq!(
            expected_pairs(1 << 16, 32),
            (65536.0 * 65535.0 / 2.0) / 2f64.powi(32)
        );
        assert!((expected_pairs(100_000_000, 64) - 2.71e-4).abs() < 1e-6);
        assert!((expected_pairs(100_000_000, 32) - 1_164_153.2).abs() < 1.0);
    }

    #[test]
    fn chi_square_of_uniform_and_skewed_keys() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let n = 1 << 20;
        let mut keys: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
        keys.sort_unstable();
        let mut counter = PairCounter::default();
        for &key in &keys {
            counter.push(key);
        }
        for bits in [20, 24] {
            // Against a direct count of the slots.
            let mut slots = vec![0u64; 1 << bits];
            for &key in &keys {
                slots[(key >> (64 - bits)) as usize] += 1;
            }
            let e = n as f64 / (1u64 << bits) as f64;
            let direct: f64 = slots.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
            let chi2 = chi_square(n, bits, counter.pairs_at(bits));
            assert!((chi2 - direct).abs() < 1e-6 * direct, "{chi2} {direct}");
            assert!(chi_square_z(chi2, bits).abs() < 5.0, "{bits}");
        }
        // Keys with the low bit of the index stuck: half the slots empty (sorted again, as
        // the counter needs: clearing the bit reorders them).
        let mut stuck: Vec<u64> = keys.iter().map(|&key| key & !(1 << 44)).collect();
        stuck.sort_unstable();
        let mut skewed = PairCounter::default();
        for &key in &stuck {
            skewed.push(key);
        }
        let chi2 = chi_square(n, 20, skewed.pairs_at(20));
        assert!(chi_square_z(chi2, 20) > 100.0);
    }

    #[test]
    fn significance_and_poisson_tails() {
        assert!((poisson_tail(0, 2.0) - (-2f64).exp()).abs() < 1e-12);
        assert!((poisson_tail(1, 2.7e-4) - 2.7e-4).abs() < 1e-7);
        assert!(poisson_tail(3, 0.01) < 1e-6);
        assert!(!significance(0, 2.7e-4, 64).1);
        assert!(significance(1, 2.7e-4, 64).0.contains("P(X ≥ 1)"));
        assert!(!significance(1_000_100, 1_000_000.0, 32).1);
        assert!(significance(1_010_000, 1_000_000.0, 32).1);
    }

    #[test]
    fn sketch_counts_distinct_hashes() {
        let mut sketch = HyperLogLog::new();
        for i in 0..300_000u64 {
            sketch.insert(fmix64(i % 200_000));
        }
        let estimate = sketch.estimate();
        assert!((estimate / 200_000.0 - 1.0).abs() < 0.03, "{estimate}");
        let mut small = HyperLogLog::new();
        for i in 0..1000u64 {
            small.insert(fmix64(i));
        }
        assert!((small.estimate() - 1000.0).abs() < 20.0);
    }

    #[test]
    fn sources_walk_the_trees_and_play_games() {
        let roots = standard_positions();
        assert_eq!(roots.len(), 6);
        let mut trees = Trees::new(vec![roots[0]]);
        let mut per_ply = [0u64; 3];
        while trees.ply < 3 {
            let visit = trees.next();
            if trees.ply < 3 {
                per_ply[trees.ply] += 1;
                assert_eq!(keys_of(&visit.pos), visit.keys);
            }
        }
        assert_eq!(per_ply, [1, 20, 400]);
        let mut games = Games::new(&roots, 1);
        let mut moves = 0;
        for _ in 0..2000 {
            let visit = games.next();
            assert_eq!(keys_of(&visit.pos), visit.keys);
            moves += u64::from(visit.parent.is_some());
        }
        assert!(moves > 1900);
    }

    #[test]
    fn dedupe_removes_exact_duplicates() {
        let dir = std::env::temp_dir().join(format!("ccr-keystats-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let work = WorkDir(dir);
        let dir = work.0.as_path();
        let bits = 8;
        let mut files = BucketFiles::open(dir, "ids", 1 << bits, false).unwrap();
        let mut generator = Generator::new(3);
        let mut seen = std::collections::HashMap::new();
        for _ in 0..20_000 {
            let visit = generator.next();
            let id = Identity::of(&visit.pos);
            *seen.entry(id).or_insert(0u8) |= visit.source;
            let record = Record {
                id,
                sources: visit.source,
                keys: visit.keys,
            };
            files
                .write(bucket_of(id.hash(), bits), &record.encode())
                .unwrap();
        }
        files.finish().unwrap();
        let distinct = dedupe(dir, bits, false).unwrap();
        assert_eq!(distinct.n, seen.len() as u64);
        let by_source = [1, 2, 3].map(|s| seen.values().filter(|&&v| v == s).count() as u64);
        assert_eq!(distinct.by_source, by_source);
        let counters = count_pairs(dir, bits, false).unwrap();
        for counter in &counters {
            assert_eq!(counter.count, distinct.n);
        }
        // Against keys collected in memory.
        let mut rotation: Vec<u64> = seen.keys().map(|id| id.position().key()).collect();
        rotation.sort_unstable();
        let mut direct = PairCounter::default();
        for key in rotation {
            direct.push(key);
        }
        assert_eq!(direct.pairs, counters[0].pairs);
    }

    #[test]
    fn a_small_run_reports_and_cleans_up() {
        let parent = std::env::temp_dir().join(format!("ccr-keystats-run-{}", std::process::id()));
        let config = Config {
            positions: 5000,
            seed: 9,
            parent_dir: parent.clone(),
            progress: false,
            cost_calls: 1000,
        };
        fs::create_dir_all(&parent).unwrap();
        let report = run(&config).unwrap();
        assert!(report.distinct.n >= 5000);
        assert!(report.distinct.n < 5500);
        assert_eq!(report.pairs[2].pairs_at(64), 0);
        let text = report.to_markdown();
        for row in [
            "| rotation | top 32 |",
            "| zobrist | low 48 |",
            "| rotation | 2^20 |",
        ] {
            assert!(text.contains(row), "{row}\n{text}");
        }
        assert_eq!(fs::read_dir(&parent).unwrap().count(), 0);
        fs::remove_dir(&parent).unwrap();
    }
}
