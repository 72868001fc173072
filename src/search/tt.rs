//! The transposition table, keyed by the rotation key (`Position::make_keyed`).
//!
//! Buckets of four 16-byte entries fill one 64-byte cache line. A bucket is chosen by the
//! key's high bits (`key × buckets >> 64`, a range reduction without a division, for any
//! number of buckets). An entry is two atomic words, the data and `key ^ data`, so threads share the
//! table without locks: a torn write fails the XOR check and reads as a miss.
//!
//! Replacement: the same position is overwritten unless the new result is much shallower
//! and not exact; otherwise the entry with the lowest depth, older searches' first, goes.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::SEARCH_ROOM;
use super::room::Reservation;
use crate::types::Move;

/// What a stored score says about the true score.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true score is at most this (every move failed low).
    Upper = 1,
    /// The true score is at least this (a move failed high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

impl Bound {
    /// What a node's `best` score bounds, searched with the window (`alpha`, `beta`) it
    /// was entered with.
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a stored `score` with this bound settles a node searched with the window
    /// (`alpha`, `beta`).
    #[inline]
    pub fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// One stored search result.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Entry {
    /// The best or refuting move (its bits; check it is legal before use), if any.
    pub mv: Option<Move>,
    /// The score, mate scores relative to the stored node (see [`score_to_tt`]).
    pub score: i32,
    /// The static evaluation of the position.
    pub eval: i32,
    /// The depth searched.
    pub depth: i32,
    /// What the score bounds.
    pub bound: Bound,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    slots: [Slot; 4],
}

/// The shared transposition table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    /// The search generation (6 bits), advanced by [`TranspositionTable::new_search`].
    age: AtomicU64,
}

/// Entries of this depth or less are free to overwrite (depth is stored + 1, 0 = empty).
const AGE_BITS: u64 = 63;

fn pack(e: &Entry, age: u64) -> u64 {
    let mv = e.mv.map_or(0, Move::bits) as u64;
    let score = e.score as i16 as u16 as u64;
    let eval = e.eval as i16 as u16 as u64;
    let depth = (e.depth + 1).clamp(1, 255) as u64;
    let flags = (e.bound as u64) | (age & AGE_BITS) << 2;
    mv | score << 16 | eval << 32 | depth << 48 | flags << 56
}

fn unpack(data: u64) -> Entry {
    let bits = data as u16;
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    Entry {
        mv: (bits != 0).then(|| Move::from_bits(bits)),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xFF) as i32 - 1,
        bound,
    }
}

/// A hint to load the cache line at `line`: the SSE prefetch where the target has SSE (both
/// x86 targets ccr builds for), elsewhere nothing (the probe then loads it).
#[inline(always)]
fn prefetch_line<T>(line: &T) {
    #[cfg(all(target_arch = "x86", target_feature = "sse"))]
    use std::arch::x86::{_MM_HINT_T0, _mm_prefetch};
    #[cfg(all(target_arch = "x86_64", target_feature = "sse"))]
    use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
    #[cfg(all(
        any(target_arch = "x86", target_arch = "x86_64"),
        target_feature = "sse"
    ))]
    // SAFETY: the target has SSE, a prefetch never faults and changes no memory, and the
    // address is a live reference's.
    unsafe {
        _mm_prefetch::<_MM_HINT_T0>((line as *const T).cast());
    }
    #[cfg(not(all(
        any(target_arch = "x86", target_arch = "x86_64"),
        target_feature = "sse"
    )))]
    let _ = line;
}

fn depth_of(data: u64) -> i32 {
    ((data >> 48) & 0xFF) as i32
}

fn age_of(data: u64) -> u64 {
    (data >> 58) & AGE_BITS
}

impl TranspositionTable {
    /// A table of `megabytes` MiB (at least one bucket); `None` if the memory is not there.
    pub fn new(megabytes: usize) -> Option<TranspositionTable> {
        buckets(megabytes).map(TranspositionTable::of)
    }

    /// A table holding `buckets`, its age 0.
    fn of(buckets: Vec<Bucket>) -> TranspositionTable {
        TranspositionTable {
            buckets,
            age: AtomicU64::new(0),
        }
    }

    /// The largest table of `megabytes` MiB or a power-of-two fraction of it that the memory
    /// allows, down to one bucket (0 MiB), with the MiB it has; `None` if not even that.
    pub fn fitting(megabytes: usize) -> Option<(TranspositionTable, usize)> {
        let (buckets, had) = fitting_buckets(megabytes)?;
        Some((TranspositionTable::of(buckets), had))
    }

    /// A table without entries (no memory taken): it finds nothing and keeps nothing.
    pub fn empty() -> TranspositionTable {
        TranspositionTable::of(Vec::new())
    }

    /// Its size in MiB as asked for (0 for the one-bucket table).
    pub fn megabytes(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Makes it a table of `megabytes` MiB, empty, and returns the MiB it has. An unchanged
    /// size keeps the table and its entries. Otherwise the old entries are freed before the
    /// new ones are taken, so that the two never need memory at once; if `megabytes` is not
    /// there, the largest power-of-two fraction of it that is (down to one bucket, 0 MiB).
    /// `None` (and an empty table that finds nothing and stores nothing) if not even one
    /// bucket can be had.
    pub fn resize(&mut self, megabytes: usize) -> Option<usize> {
        if !self.buckets.is_empty() && self.megabytes() == megabytes {
            return Some(megabytes);
        }
        self.buckets = Vec::new();
        self.age.store(0, Relaxed);
        let (buckets, had) = fitting_buckets(megabytes)?;
        self.buckets = buckets;
        Some(had)
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for slot in self.buckets.iter().flat_map(|b| &b.slots) {
            slot.check.store(0, Relaxed);
            slot.data.store(0, Relaxed);
        }
        self.age.store(0, Relaxed);
    }

    /// Starts a new search: entries of earlier ones become the first to be replaced.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Relaxed);
    }

    /// The bucket of `key`; `None` only in the empty table a failed [`Self::resize`] leaves.
    #[inline]
    fn bucket(&self, key: u64) -> Option<&Bucket> {
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        self.buckets.get(index)
    }

    /// Starts loading `key`'s bucket into the cache, so that a probe of it a little later
    /// does not wait on memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        if let Some(bucket) = self.bucket(key) {
            prefetch_line(bucket);
        }
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for slot in &self.bucket(key)?.slots {
            let data = slot.data.load(Relaxed);
            if data != 0 && slot.check.load(Relaxed) ^ data == key {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores a result for `key`.
    pub fn store(&self, key: u64, entry: Entry) {
        let age = self.age.load(Relaxed) & AGE_BITS;
        let Some(bucket) = self.bucket(key) else {
            return;
        };
        let mut victim = &bucket.slots[0];
        let mut victim_worth = i32::MAX;
        for slot in &bucket.slots {
            let data = slot.data.load(Relaxed);
            if data == 0 || slot.check.load(Relaxed) ^ data == key {
                // The same position: keep a deeper result unless the new one is exact or
                // the old one is from an earlier search. Keep the old move if none is new.
                if data != 0 {
                    let old = unpack(data);
                    if entry.bound != Bound::Exact
                        && age_of(data) == age
                        && entry.depth + 3 < old.depth
                    {
                        return;
                    }
                    if entry.mv.is_none() {
                        let entry = Entry {
                            mv: old.mv,
                            ..entry
                        };
                        return write(slot, key, pack(&entry, age));
                    }
                }
                return write(slot, key, pack(&entry, age));
            }
            // Older searches' entries count as eight plies shallower per search.
            let staleness = (age.wrapping_sub(age_of(data)) & AGE_BITS) as i32;
            let worth = depth_of(data) - 8 * staleness;
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        write(victim, key, pack(&entry, age));
    }

    /// How full the table is, in permille: entries of this search among the first thousand.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed) & AGE_BITS;
        let slots = self.buckets.iter().take(250).flat_map(|b| &b.slots);
        let sampled = self.buckets.len().min(250) * 4;
        let used = slots
            .filter(|s| {
                let data = s.data.load(Relaxed);
                data != 0 && age_of(data) == age
            })
            .count();
        (used * 1000 / sampled.max(1)) as u32
    }
}

/// `megabytes` MiB of empty buckets (at least one); `None` if the memory is not there.
fn buckets(megabytes: usize) -> Option<Vec<Bucket>> {
    let bytes = megabytes.checked_mul(1 << 20)?;
    let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
    let mut buckets = Vec::new();
    buckets.try_reserve_exact(count).ok()?;
    advise_huge_pages(buckets.as_mut_ptr(), count * std::mem::size_of::<Bucket>());
    buckets.resize_with(count, Bucket::default);
    Some(buckets)
}

/// Asks Linux to back the `bytes` at `start`, not yet touched, with 2 MiB pages where they
/// cover whole ones: a probe anywhere in a large table then rarely misses the TLB as well
/// as the cache.
#[cfg(target_os = "linux")]
fn advise_huge_pages<T>(start: *mut T, bytes: usize) {
    const HUGE_PAGE: usize = 2 << 20;
    let first = (start as usize).next_multiple_of(HUGE_PAGE);
    let end = (start as usize + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        // SAFETY: the range lies within the allocation at `start`; the advice changes how
        // its pages are backed, never their contents, and a refusal leaves 4 KiB pages.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_start: *mut T, _bytes: usize) {}

/// The buckets of `megabytes` MiB, or of the largest power-of-two fraction of it that the
/// memory allows with the search's own room kept free, down to one bucket (0 MiB), with
/// the MiB had.
fn fitting_buckets(megabytes: usize) -> Option<(Vec<Bucket>, usize)> {
    // The smallest search thread's room is held while the table takes its memory, so that
    // under an address-space limit the table shrinks and the search still starts.
    let _room = Reservation::hold(SEARCH_ROOM);
    let mut size = megabytes;
    loop {
        if let Some(buckets) = buckets(size) {
            return Some((buckets, size));
        }
        if size == 0 {
            return None;
        }
        size /= 2;
    }
}

#[inline]
fn write(slot: &Slot, key: u64, data: u64) {
    slot.data.store(data, Relaxed);
    slot.check.store(key ^ data, Relaxed);
}

/// A score made relative to the node for storing: mate and tablebase scores count from here,
/// not the root.
pub(crate) fn score_to_tt(score: i32, ply: usize) -> i32 {
    use super::tablebase::DECISIVE;
    if score >= DECISIVE {
        score + ply as i32
    } else if score <= -DECISIVE {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score made relative to the root again.
pub(crate) fn score_from_tt(score: i32, ply: usize) -> i32 {
    use super::tablebase::DECISIVE;
    if score >= DECISIVE {
        score - ply as i32
    } else if score <= -DECISIVE {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{MoveKind, Square};

    fn entry(depth: i32, score: i32) -> Entry {
        let (e2, e4) = (Square::parse("e2").unwrap(), Square::parse("e4").unwrap());
        Entry {
            mv: Some(Move::new(e2, e4, MoveKind::DoublePush)),
            score,
            eval: -17,
            depth,
            bound: Bound::Lower,
        }
    }

    #[test]
    fn stores_and_finds_every_field() {
        let tt = TranspositionTable::new(1).unwrap();
        let e = entry(7, -31_950);
        tt.store(0x1234_5678_9ABC_DEF0, e);
        assert_eq!(tt.probe(0x1234_5678_9ABC_DEF0), Some(e));
        assert_eq!(tt.probe(0x1234_5678_9ABC_DEF1), None);
        tt.clear();
        assert_eq!(tt.probe(0x1234_5678_9ABC_DEF0), None);
    }

    #[test]
    fn replaces_the_shallowest_and_keeps_deep_results() {
        let tt = TranspositionTable::new(1).unwrap();
        // Five keys in one bucket (same high bits): the shallowest of the first four goes.
        let keys: Vec<u64> = (0..5).map(|i| 0xABCD_0000_0000_0000 | i).collect();
        for (i, &k) in keys.iter().enumerate().take(4) {
            tt.store(k, entry(10 + i as i32, 0));
        }
        tt.store(keys[4], entry(20, 0));
        assert_eq!(tt.probe(keys[0]), None);
        assert!(keys[1..].iter().all(|&k| tt.probe(k).is_some()));
        // A much shallower bound of the same position does not overwrite a deep one.
        tt.store(keys[4], entry(2, 5));
        assert_eq!(tt.probe(keys[4]).unwrap().depth, 20);
        // From a new search, it does.
        tt.new_search();
        tt.store(keys[4], entry(2, 5));
        assert_eq!(tt.probe(keys[4]).unwrap().depth, 2);
    }

    #[test]
    fn hashfull_counts_this_search() {
        let tt = TranspositionTable::new(1).unwrap();
        assert_eq!(tt.hashfull(), 0);
        for i in 0..100_000u64 {
            tt.store(i.wrapping_mul(0x9E37_79B9_7F4A_7C15), entry(1, 0));
        }
        assert!(tt.hashfull() > 900, "{}", tt.hashfull());
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn resize_keeps_an_unchanged_table_and_empties_a_new_one() {
        let mut tt = TranspositionTable::new(2).unwrap();
        let e = entry(7, 12);
        tt.store(0x0123_4567_89AB_CDEF, e);
        let before = tt.buckets.as_ptr();
        assert_eq!(tt.resize(2), Some(2));
        assert_eq!(tt.buckets.as_ptr(), before);
        assert_eq!(tt.probe(0x0123_4567_89AB_CDEF), Some(e));
        assert_eq!(tt.resize(1), Some(1));
        assert_eq!(tt.megabytes(), 1);
        assert_eq!(tt.probe(0x0123_4567_89AB_CDEF), None);
    }

    #[test]
    fn an_empty_table_finds_and_keeps_nothing() {
        let tt = TranspositionTable::empty();
        tt.prefetch(42);
        tt.store(42, entry(3, 0));
        assert_eq!(tt.probe(42), None);
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn a_table_on_huge_pages_starts_empty_and_prefetching_changes_nothing() {
        // 8 MiB: whole 2 MiB pages inside, and edges on 4 KiB ones unless the allocation
        // happens to be aligned.
        let tt = TranspositionTable::new(8).unwrap();
        assert!(
            tt.buckets
                .iter()
                .flat_map(|b| &b.slots)
                .all(|slot| { slot.data.load(Relaxed) == 0 && slot.check.load(Relaxed) == 0 })
        );
        // Keys at the first, a middle and the last bucket.
        let keys = [1, 0x8000_0000_0000_0000, u64::MAX];
        for (n, &key) in keys.iter().enumerate() {
            tt.prefetch(key);
            assert_eq!(tt.probe(key), None);
            tt.store(key, entry(n as i32, 10 * n as i32));
        }
        for (n, &key) in keys.iter().enumerate() {
            tt.prefetch(key);
            assert_eq!(tt.probe(key), Some(entry(n as i32, 10 * n as i32)));
        }
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let mate_in_3_from_root = super::super::MATE - 5;
        let stored = score_to_tt(mate_in_3_from_root, 2);
        assert_eq!(score_from_tt(stored, 2), mate_in_3_from_root);
        assert_eq!(score_from_tt(stored, 4), mate_in_3_from_root - 2);
        assert_eq!(score_to_tt(35, 9), 35);
    }
}
