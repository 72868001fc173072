//! Bounded memory: the bucket files. Pass 1 streams records into `2^b` files chosen by the
//! identity's hash; deduplication reads one identity bucket at a time and writes the distinct
//! positions' keys into `2^b` key buckets chosen by their top bits; pass 2 sorts one key
//! bucket at a time and counts the agreeing pairs. Every large buffer is reserved fallibly.

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use crate::estimators::PairCounter;
use crate::progress::Progress;
use crate::report::group;
use crate::sampling::{Identity, RECORD_BYTES, Record};
use crate::shard::{KeyBuckets, Shard};
use crate::signals::check_signal;

/// Buffer of each bucket file's writer.
const WRITE_BUFFER: usize = 1 << 16;

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

pub(crate) fn io_error(what: &str, path: &Path) -> impl Fn(io::Error) -> String {
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
pub fn buffer<T>(count: usize, what: &str) -> Result<Vec<T>, String> {
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
pub(crate) struct BucketFiles {
    dir: PathBuf,
    buckets: Vec<Bucket>,
}

impl BucketFiles {
    /// Opens the `count` files `prefix-NNNN.bin` in `dir`, truncated or for appending. A
    /// stop signal is seen between two files: thousands of them on a slow disk take seconds.
    pub(crate) fn open(
        dir: &Path,
        prefix: &str,
        count: usize,
        append: bool,
    ) -> Result<BucketFiles, String> {
        let mut buckets = buffer(count, "the bucket files")?;
        for bucket in 0..count {
            check_signal()?;
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
    pub(crate) fn write(&mut self, bucket: usize, bytes: &[u8]) -> Result<(), String> {
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

    pub(crate) fn finish(self) -> Result<(), String> {
        for mut bucket in self.buckets {
            check_signal()?;
            bucket
                .file
                .write_all(&bucket.buffer)
                .map_err(io_error("cannot write to", &self.dir))?;
        }
        Ok(())
    }
}

/// The working directory, removed when dropped.
pub(crate) struct WorkDir(pub(crate) PathBuf);

impl Drop for WorkDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
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
pub const STREAMS: usize = 4;

/// The value of stream `stream` for a position's two keys: the key, or its bit reversal
/// (whose top bits are the key's low bits).
#[inline]
pub(crate) fn stream_value(stream: usize, keys: [u64; 2]) -> u64 {
    let key = keys[stream / 2];
    if stream % 2 == 1 {
        key.reverse_bits()
    } else {
        key
    }
}

/// Deduplicates the identity buckets and writes the distinct positions' stream values that
/// the shard owns to the key buckets (each an 8-byte word: stream in the top two bits, the
/// value's bits below the bucket's). The positions counted are those whose first stream value
/// (the rotation key) the shard owns, so that each position is counted in one shard.
pub(crate) fn dedupe(
    dir: &Path,
    bits: u32,
    key_buckets: KeyBuckets,
    shard: Shard,
    progress: bool,
    describe: &dyn Fn(&Identity) -> String,
) -> Result<Distinct, String> {
    let buckets = 1usize << bits;
    let low = u64::MAX >> key_buckets.bits;
    let mut keys = BucketFiles::open(dir, "keys", key_buckets.count(), false)?;
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
                    describe(&first.id)
                ));
            }
            if shard.owns(stream_value(0, first.keys)) {
                let sources = group.iter().fold(0, |s, r| s | r.sources);
                distinct.n += 1;
                distinct.by_source[sources as usize - 1] += 1;
            }
            for stream in 0..STREAMS {
                let value = stream_value(stream, first.keys);
                if shard.owns(value) {
                    let word = (stream as u64) << 62 | (value & low);
                    let bucket = bucket_of(value, key_buckets.bits) - key_buckets.first;
                    keys.write(bucket, &word.to_le_bytes())?;
                }
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
pub(crate) fn count_pairs(
    dir: &Path,
    key_buckets: KeyBuckets,
    progress: bool,
    keep: &mut [Option<Truncated>; 2],
) -> Result<[PairCounter; STREAMS], String> {
    let bits = key_buckets.bits;
    let low = u64::MAX >> bits;
    let mut counters: [PairCounter; STREAMS] = Default::default();
    let mut bar = Progress::new(progress, "count", key_buckets.count() as u64);
    for file in 0..key_buckets.count() {
        check_signal()?;
        let bucket = key_buckets.first + file;
        let path = bucket_path(dir, "keys", file);
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
            let stream = (word >> 62) as usize;
            let value = top | (word & low);
            counters[stream].push(value);
            if let Some(kept) = &mut keep[stream / 2] {
                if kept.stream == stream {
                    kept.push(value);
                }
            }
        }
        fs::remove_file(&path).map_err(io_error("cannot remove", &path))?;
        bar.update(file as u64 + 1, || "buckets".to_string());
    }
    bar.finish("keys counted");
    for kept in keep.iter_mut().flatten() {
        kept.close_run();
    }
    Ok(counters)
}

/// The truncation whose agreeing pairs are kept: the top or low `bits` bits of a key.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Truncation {
    /// The low bits (else the top bits).
    pub low: bool,
    /// Bits compared, 1 to 64.
    pub bits: u32,
}

impl Truncation {
    /// Parses `low48`, `top40`, … (`top` or `low` and 1 to 64 bits).
    pub fn parse(text: &str) -> Result<Truncation, String> {
        let bad = || format!("'{text}' is not a truncation (examples: low48, top40)");
        let (low, digits) = if let Some(rest) = text.strip_prefix("low") {
            (true, rest)
        } else if let Some(rest) = text.strip_prefix("top") {
            (false, rest)
        } else {
            return Err(bad());
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        match digits.parse::<u32>() {
            Ok(bits @ 1..=64) => Ok(Truncation { low, bits }),
            _ => Err(bad()),
        }
    }

    /// `low48` or `top40`.
    pub fn name(&self) -> String {
        format!("{}{}", if self.low { "low" } else { "top" }, self.bits)
    }
}

/// How many keys of agreeing groups are kept per scheme by default (the rest are counted
/// only).
pub const KEPT_KEYS: usize = 100_000;

/// The groups of keys of one scheme that agree in a truncation, gathered while pass 2 pushes
/// the scheme's stream values in ascending order.
#[derive(Clone, Debug)]
pub(crate) struct Truncated {
    /// The stream (2 · scheme + 1 for the low bits).
    stream: usize,
    bits: u32,
    /// The keys (not stream values) of the run being read.
    run: Vec<u64>,
    run_prefix: u64,
    /// The groups of two or more keys that agree, kept in key order up to the first that
    /// does not fit in `limit` keys (a rule the merge of shards can repeat exactly).
    pub(crate) groups: Vec<Vec<u64>>,
    kept: usize,
    limit: usize,
    full: bool,
    /// Groups found but not kept.
    pub(crate) dropped: u64,
}

impl Truncated {
    pub(crate) fn new(scheme: usize, truncation: Truncation, limit: usize) -> Truncated {
        Truncated {
            stream: 2 * scheme + usize::from(truncation.low),
            bits: truncation.bits,
            run: Vec::new(),
            run_prefix: 0,
            groups: Vec::new(),
            kept: 0,
            limit,
            full: false,
            dropped: 0,
        }
    }

    /// Adds the next stream value (ascending).
    fn push(&mut self, value: u64) {
        let prefix = value >> (64 - self.bits);
        if !self.run.is_empty() && prefix != self.run_prefix {
            self.close_run();
        }
        self.run_prefix = prefix;
        let key = if self.stream % 2 == 1 {
            value.reverse_bits()
        } else {
            value
        };
        self.run.push(key);
    }

    fn close_run(&mut self) {
        if self.run.len() >= 2 {
            if !self.full && self.kept + self.run.len() <= self.limit {
                self.kept += self.run.len();
                self.groups.push(std::mem::take(&mut self.run));
            } else {
                self.full = true;
                self.dropped += 1;
            }
        }
        self.run.clear();
    }
}

/// The identities behind the given keys of each scheme, found by one more scan of the
/// identity buckets.
pub(crate) fn resolve_keys(
    dir: &Path,
    bits: u32,
    wanted: &[Vec<u64>; 2],
) -> Result<[HashMap<u64, Vec<Identity>>; 2], String> {
    let mut found: [HashMap<u64, Vec<Identity>>; 2] = [
        wanted[0].iter().map(|&k| (k, Vec::new())).collect(),
        wanted[1].iter().map(|&k| (k, Vec::new())).collect(),
    ];
    if wanted.iter().all(Vec::is_empty) {
        return Ok(found);
    }
    for bucket in 0..1usize << bits {
        check_signal()?;
        let path = bucket_path(dir, "ids", bucket);
        let bytes = read_file(&path)?;
        for record in bytes.chunks_exact(RECORD_BYTES).map(Record::decode) {
            for (map, key) in found.iter_mut().zip(record.keys) {
                if let Some(ids) = map.get_mut(&key) {
                    if !ids.contains(&record.id) {
                        ids.push(record.id);
                    }
                }
            }
        }
    }
    // In identity order, whatever the bucket files' layout (which differs between shards).
    for map in &mut found {
        for ids in map.values_mut() {
            ids.sort_unstable();
        }
    }
    Ok(found)
}

/// The positions behind the repeated keys of each scheme: for each repeated key, the FENs of
/// the distinct positions that have it.
pub(crate) fn resolve_collisions(
    repeated: &[Vec<u64>; 2],
    found: &[HashMap<u64, Vec<Identity>>; 2],
    describe: &dyn Fn(&Identity) -> String,
) -> Collisions {
    std::array::from_fn(|scheme| {
        repeated[scheme]
            .iter()
            .map(|key| {
                let ids = found[scheme].get(key).map_or(&[][..], Vec::as_slice);
                (*key, ids.iter().map(describe).collect())
            })
            .collect()
    })
}

/// Per scheme, a few repeated keys, each with the FENs of the positions that share it.
pub type Collisions = [Vec<(u64, Vec<String>)>; 2];
