//! Key statistics: how good are an engine's transposition keys? Two keys (the engine's
//! rotation key and the [`Zobrist`] baseline of this crate, which keys an [`Identity`]),
//! measured over `N` distinct positions that an [`Engine`] supplies. The crate knows
//! identities and keys only; the engine (the `ccr` binary's `keystats` command) makes the
//! positions and times its key operations. It does not depend on the engine's library, so that
//! the `ccr` binary can depend on it (a crate that used `ccr` could not be a dependency of
//! `ccr`'s own binary: a package cycle).
//!
//! **Positions.** The engine's two sources take turns, one position each: walks of the perft
//! trees of the six standard positions (round `d` visits every node at ply `d` of the six
//! trees, the six walks interleaved, so over the rounds every node is visited once) and
//! seeded random games (uniform legal moves, cycling through the same six start positions).
//! Every visited position is a sample, and every move made to reach one is a parent→child
//! pair for the avalanche figures.
//!
//! **Distinctness** is what a key is a function of ([`Identity`]): the board, the side to
//! move, the castling rights and the en-passant file when a capture is legal (the clocks are
//! not keyed).
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
//! Asked for a truncation ([`Config::keep`], e.g. the low 48 bits), pass 2 also keeps each
//! group of keys that agree in it, and a last scan of the identity buckets finds the positions
//! behind them (and behind any full collision) for the report.
//!
//! **Shards.** [`Config::shard`] runs one of `N` shards: the whole stream is generated, but
//! only the positions one of whose four key-stream values has its top 20 bits in the shard's
//! range are written; each shard's counts add up exactly to the whole run's ([`shard`] says
//! why), so `N` processes, on one machine one after another or on many at once, need about
//! 4/N of the disk, and [`merge`] turns their [`write_partial`] results into the one
//! report.
//!
//! The working files live in `ccr-keystats-<pid>` under the chosen directory and are removed
//! at the end (about 120 bytes of disk per distinct position at the peak: 50 per generated
//! position, about 1.7 generated per distinct one, and 32 of keys).
//! They are removed as well when the run fails (a full disk, a file-size limit, memory that
//! cannot be had: every large buffer is reserved fallibly) or is stopped by SIGINT, SIGTERM or
//! SIGHUP ([`catch_signals`]: the work loops see the signal and unwind).

#![deny(missing_docs)]

pub mod buckets;
pub mod cost;
pub mod estimators;
pub mod progress;
pub mod report;
pub mod sampling;
pub mod shard;
pub mod signals;
pub mod statistics;
mod tsv;
pub mod zobrist;

use std::collections::HashMap;
use std::fs;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

use buckets::{
    BucketFiles, STREAMS, Truncated, WorkDir, bucket_of, count_pairs, dedupe, io_error,
    resolve_collisions, resolve_keys, stream_value,
};
pub use buckets::{Collisions, Distinct, KEPT_KEYS, Truncation};
pub use cost::Costs;
use estimators::{Avalanche, HyperLogLog};
use progress::Progress;
pub use report::Report;
use report::group;
use sampling::Record;
pub use sampling::{Engine, FROM_GAME, FROM_TREE, Identity, Visit};
pub use shard::{Shard, merge, read_partial, write_partial};
use signals::check_signal;
pub use signals::{catch_signals, signal_name, stopped_by};
pub use zobrist::{Keyed, Zobrist};

/// The names of the two schemes, in the order of every `[_; 2]` in this crate.
pub const SCHEMES: [&str; 2] = ["rotation", "zobrist"];

/// The key widths compared, in bits (20 and 24 are also the table sizes of the chi-square).
pub const LEVELS: [u32; 7] = [20, 24, 32, 40, 48, 56, 64];

/// The bits of a transposition-table index whose spread is tested (2^20 and 2^24 slots).
pub const TABLE_BITS: [u32; 2] = [20, 24];

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
    /// The commit the engine was built from, for the report's first line.
    pub commit: String,
    /// The truncation whose agreeing pairs the report lists with their positions, if any.
    pub keep: Option<Truncation>,
    /// Keys kept per scheme for [`Config::keep`], at most.
    pub kept_keys: usize,
    /// Run one shard of the positions (see [`shard`]): one generation pass, and the cost per
    /// key timed by shard 1 only. `None`: the whole run in this process.
    pub shard: Option<Shard>,
}

impl Config {
    /// The command's configuration: progress on stderr, 2^20 calls per cost measurement.
    pub fn new(positions: u64, seed: u64, parent_dir: PathBuf, commit: &str) -> Config {
        Config {
            positions,
            seed,
            parent_dir,
            progress: true,
            cost_calls: 1 << 20,
            commit: commit.to_string(),
            keep: None,
            kept_keys: KEPT_KEYS,
            shard: None,
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

/// Pass 1's running state.
struct Collector {
    files: Option<BucketFiles>,
    bits: u32,
    shard: Shard,
    /// Positions written to the bucket files (those of the shard).
    kept: u64,
    sketch: HyperLogLog,
    generated: [u64; 2],
    avalanche: [Avalanche; 2],
}

impl Collector {
    #[inline]
    fn add(&mut self, visit: &Visit) -> Result<(), String> {
        let id = visit.id;
        let hash = id.hash();
        self.sketch.insert(hash);
        let record = Record {
            id,
            sources: visit.source,
            keys: visit.keys,
        };
        if self.shard.count == 1
            || (0..STREAMS).any(|stream| self.shard.owns(stream_value(stream, visit.keys)))
        {
            let files = self.files.as_mut().expect("the bucket files are open");
            files.write(bucket_of(hash, self.bits), &record.encode())?;
            self.kept += 1;
        }
        if let Some(parent) = visit.parent {
            for ((avalanche, parent), child) in
                self.avalanche.iter_mut().zip(parent).zip(visit.keys)
            {
                avalanche.add(parent, child);
            }
        }
        self.generated[usize::from(visit.source == FROM_GAME)] += 1;
        Ok(())
    }

    /// One generation pass into fresh bucket files, until the sketch's estimate reaches
    /// `target`; its seconds.
    fn pass(
        &mut self,
        engine: &mut impl Engine,
        target: f64,
        progress: bool,
        wanted: u64,
    ) -> Result<f64, String> {
        let mut bar = Progress::new(progress, "generate", wanted);
        let mut since_check = 0u32;
        loop {
            let visit = engine.next_visit()?;
            self.add(&visit)?;
            since_check += 1;
            if since_check == 64 {
                since_check = 0;
                check_signal()?;
                let estimate = self.sketch.estimate();
                if estimate >= target {
                    break;
                }
                bar.update(estimate as u64, || {
                    format!(
                        "distinct (estimated), {} generated{}",
                        self.generated(),
                        self.kept()
                    )
                });
            }
        }
        self.files
            .take()
            .expect("the bucket files are open")
            .finish()?;
        Ok(bar.finish(&format!(
            "{} positions generated{}",
            self.generated(),
            self.kept()
        )))
    }

    /// The positions generated, grouped.
    fn generated(&self) -> String {
        group(self.generated.iter().sum())
    }

    /// What the shard kept, for the progress line (nothing for the whole run).
    fn kept(&self) -> String {
        if self.shard.count > 1 {
            format!(", {} kept by shard {}", group(self.kept), self.shard.name())
        } else {
            String::new()
        }
    }
}

/// The groups of keys agreeing in `truncation` that `keep` kept, each key with the positions
/// `found` for it.
fn agreeing(
    truncation: Truncation,
    keep: &[Option<Truncated>; 2],
    found: &[HashMap<u64, Vec<Identity>>; 2],
    limit: usize,
    describe: &impl Fn(&Identity) -> String,
) -> report::Agreeing {
    report::Agreeing {
        truncation,
        groups: std::array::from_fn(|scheme| {
            let kept = keep[scheme].as_ref().expect("kept when asked for");
            kept.groups
                .iter()
                .map(|group| {
                    group
                        .iter()
                        .map(|key| {
                            let ids = found[scheme].get(key).map_or(&[][..], Vec::as_slice);
                            (*key, ids.iter().map(describe).collect())
                        })
                        .collect()
                })
                .collect()
        }),
        dropped: std::array::from_fn(|scheme| keep[scheme].as_ref().map_or(0, |k| k.dropped)),
        limit,
    }
}

/// Runs the whole measurement (or one shard of it) on the positions of `engine`. The parent
/// directory must exist; the working directory made in it is removed whatever the outcome
/// (see [`catch_signals`] for signals).
pub fn run(config: &Config, engine: &mut impl Engine) -> Result<Report, String> {
    let wanted = config.positions.max(1);
    let shard = config.shard.unwrap_or(Shard::WHOLE);
    if let Some(truncation) = config.keep {
        if shard.count > 1 && truncation.bits < shard::PREFIX_BITS {
            return Err(format!(
                "--pairs {} with --shard: a truncation of fewer than {} bits is not within \
                 one shard",
                truncation.name(),
                shard::PREFIX_BITS
            ));
        }
    }
    let dir = config
        .parent_dir
        .join(format!("ccr-keystats-{}", std::process::id()));
    fs::create_dir(&dir).map_err(io_error("cannot create", &dir))?;
    let work = WorkDir(dir);
    let dir = work.0.as_path();
    let bits = shard.id_bits(wanted);
    let key_buckets = shard.key_buckets(wanted);

    let mut collector = Collector {
        files: None,
        bits,
        shard,
        kept: 0,
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
        seconds[0] += collector.pass(engine, target, config.progress, wanted)?;
        let start = Instant::now();
        let distinct = dedupe(dir, bits, key_buckets, shard, config.progress, &|id| {
            engine.describe(id)
        })?;
        seconds[1] += start.elapsed().as_secs_f64();
        // A shard cannot know the whole run's count: the merge checks it.
        if distinct.n >= wanted || config.shard.is_some() {
            break distinct;
        }
        target = collector.sketch.estimate() + (wanted - distinct.n) as f64 * 1.1 + 64.0;
    };

    let start = Instant::now();
    let mut keep = [0, 1].map(|scheme| {
        config
            .keep
            .map(|t| Truncated::new(scheme, t, config.kept_keys))
    });
    let pairs = count_pairs(dir, key_buckets, config.progress, &mut keep)?;
    let repeated = [pairs[0].repeated.clone(), pairs[2].repeated.clone()];
    let sought: [Vec<u64>; 2] = std::array::from_fn(|scheme| {
        let mut keys = repeated[scheme].clone();
        if let Some(kept) = &keep[scheme] {
            keys.extend(kept.groups.iter().flatten());
        }
        keys
    });
    let found = resolve_keys(dir, bits, &sought)?;
    let describe = |id: &Identity| engine.describe(id);
    let collisions = resolve_collisions(&repeated, &found, &describe);
    let agreeing = config
        .keep
        .map(|truncation| agreeing(truncation, &keep, &found, config.kept_keys, &describe));
    seconds[2] = start.elapsed().as_secs_f64();
    drop(work);

    let start = Instant::now();
    let costs = if shard.index == 0 {
        if config.progress {
            let _ = writeln!(io::stderr(), "cost: timing the key operations…");
        }
        engine.measure_costs(config.seed, config.cost_calls)?
    } else {
        Costs::default()
    };
    check_signal()?;
    seconds[3] = start.elapsed().as_secs_f64();

    Ok(Report {
        commit: config.commit.clone(),
        requested: wanted,
        seed: config.seed,
        distinct,
        generated: collector.generated,
        tree_ply: engine.tree_ply(),
        games: engine.games(),
        passes,
        pairs,
        collisions,
        agreeing,
        avalanche: collector.avalanche,
        costs,
        seconds,
        buckets: 1 << bits,
        shards: 1,
    })
}

#[cfg(test)]
mod tests;
