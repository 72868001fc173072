//! The estimators filled while the positions stream past: a HyperLogLog sketch of the
//! distinct identities (when to stop generating), the bits flipped per move (avalanche) and
//! the pairs of sorted keys that agree in their top bits.

use crate::LEVELS;
use crate::buckets::buffer;

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
    pub(crate) fn try_new() -> Result<HyperLogLog, String> {
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
pub(crate) const REPEATS_KEPT: usize = 8;

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
