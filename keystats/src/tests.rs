//! The crate's unit tests, on a toy engine whose identities and keys are simple functions of a
//! counter (the `ccr` binary tests the real engine's sampling).

use std::fs;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};

use crate::buckets::{
    BucketFiles, WorkDir, bucket_bits, bucket_of, count_pairs, dedupe, stream_value,
};
use crate::estimators::{HyperLogLog, PairCounter};
use crate::sampling::{Record, STATE_MASK, fmix64};
use crate::shard::{MAX_SHARDS, PREFIX_BITS};
use crate::statistics::{
    binomial_below, chi_square, chi_square_z, expected_pairs, poisson_tail, significance,
};
use crate::{
    Config, Costs, Engine, FROM_GAME, FROM_TREE, Identity, KEPT_KEYS, Report, Shard, Truncation,
    Visit, merge, parse_count, read_partial, run, write_partial,
};

/// Identities drawn at random from `0..pool` (so that they repeat when the pool is small),
/// each with two keys that are bijections of its number; every other visit is a "move" from
/// made-up parent keys, and the sources alternate.
struct Toy {
    state: u64,
    pool: u64,
    visits: u64,
    /// The rotation key of identity `i` is that of `i % modulus` (full collisions when the
    /// modulus is below the pool).
    modulus: u64,
}

impl Toy {
    fn new(seed: u64, pool: u64) -> Toy {
        Toy {
            state: seed,
            pool,
            visits: 0,
            modulus: u64::MAX,
        }
    }

    fn identity(i: u64) -> Identity {
        Identity {
            board: [i, !i, i.rotate_left(17), 0],
            state: i as u16 & STATE_MASK,
        }
    }

    fn keys(i: u64) -> [u64; 2] {
        [fmix64(i ^ 0xAAAA), fmix64(i.wrapping_mul(3) ^ 0x5555)]
    }
}

impl Engine for Toy {
    fn next_visit(&mut self) -> Result<Visit, String> {
        self.visits += 1;
        self.state = fmix64(self.state.wrapping_add(0x9E37_79B9_7F4A_7C15));
        let i = self.state % self.pool;
        let keys = [Toy::keys(i % self.modulus)[0], Toy::keys(i)[1]];
        Ok(Visit {
            id: Toy::identity(i),
            keys,
            parent: (self.visits % 2 == 0).then_some([keys[0] ^ 0xFF, keys[1] ^ 0xF0F0]),
            source: if self.visits % 2 == 1 {
                FROM_TREE
            } else {
                FROM_GAME
            },
        })
    }

    fn describe(&self, id: &Identity) -> String {
        format!("{:016x}", id.board[0])
    }

    fn tree_ply(&self) -> usize {
        0
    }

    fn games(&self) -> u64 {
        0
    }

    fn measure_costs(&self, _seed: u64, calls: u64) -> Result<Costs, String> {
        Ok(Costs {
            calls,
            ..Costs::default()
        })
    }
}

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
fn records_round_trip() {
    let record = Record {
        id: Toy::identity(0x0123_4567_89AB_CDEF),
        sources: FROM_TREE | FROM_GAME,
        keys: Toy::keys(0x0123_4567_89AB_CDEF),
    };
    assert_eq!(Record::decode(&record.encode()), record);
    assert_ne!(Toy::identity(1).hash(), Toy::identity(2).hash());
}

#[test]
fn identities_give_back_their_description() {
    let ranks = [
        0xCABD_EBAC,
        0x9999_9999,
        0,
        0x0000_9100,
        0,
        0,
        0x1111_0111,
        0x4235_6324,
    ];
    for (black, castling, ep) in [(false, 15, None), (true, 5, Some(0)), (false, 0, Some(7))] {
        let id = Identity::new(ranks, black, castling, ep);
        assert_eq!(id.ranks(), ranks);
        assert_eq!(id.black_to_move(), black);
        assert_eq!(id.castling(), castling);
        assert_eq!(id.en_passant_file(), ep);
        assert_eq!(id.state & !STATE_MASK, 0);
    }
    // Rank word 2i is the low half of board[i], so identities sort alike on every platform.
    let id = Identity::new(ranks, false, 0, None);
    assert_eq!(id.board[0], 0x9999_9999_CABD_EBAC);
    // Only the four castling bits are kept.
    assert_eq!(Identity::new(ranks, false, 0xF3, None).castling(), 3);
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
fn dedupe_removes_exact_duplicates() {
    let dir = std::env::temp_dir().join(format!("ccr-keystats-test-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let work = WorkDir(dir);
    let dir = work.0.as_path();
    let bits = 8;
    let mut files = BucketFiles::open(dir, "ids", 1 << bits, false).unwrap();
    let mut engine = Toy::new(3, 15_000);
    let mut seen = std::collections::HashMap::new();
    for _ in 0..20_000 {
        let visit = engine.next_visit().unwrap();
        let entry = seen.entry(visit.id).or_insert((0u8, visit.keys));
        entry.0 |= visit.source;
        let record = Record {
            id: visit.id,
            sources: visit.source,
            keys: visit.keys,
        };
        files
            .write(bucket_of(visit.id.hash(), bits), &record.encode())
            .unwrap();
    }
    files.finish().unwrap();
    let whole = Shard::WHOLE;
    let key_buckets = whole.key_buckets(20_000);
    assert_eq!(key_buckets.bits, bits);
    let distinct = dedupe(dir, bits, key_buckets, whole, false, &|id| {
        engine.describe(id)
    })
    .unwrap();
    assert!(distinct.n < 20_000, "the pool makes repeats");
    assert_eq!(distinct.n, seen.len() as u64);
    let by_source = [1, 2, 3].map(|s| seen.values().filter(|v| v.0 == s).count() as u64);
    assert_eq!(distinct.by_source, by_source);
    let counters = count_pairs(dir, key_buckets, false, &mut [None, None]).unwrap();
    for counter in &counters {
        assert_eq!(counter.count, distinct.n);
    }
    // Against keys collected in memory.
    let mut rotation: Vec<u64> = seen.values().map(|v| v.1[0]).collect();
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
        commit: "abc".to_string(),
        keep: None,
        kept_keys: KEPT_KEYS,
        shard: None,
    };
    fs::create_dir_all(&parent).unwrap();
    let report = run(&config, &mut Toy::new(9, 1 << 40)).unwrap();
    assert!(report.distinct.n >= 5000);
    assert!(report.distinct.n < 5500);
    assert_eq!(report.pairs[2].pairs_at(64), 0);
    let text = report.to_markdown();
    for row in [
        "- commit `abc`, seed 9,",
        "| rotation | top 32 |",
        "| zobrist | low 48 |",
        "| rotation | 2^20 |",
    ] {
        assert!(text.contains(row), "{row}\n{text}");
    }
    assert_eq!(fs::read_dir(&parent).unwrap().count(), 0);
    fs::remove_dir(&parent).unwrap();
}

#[test]
fn truncations_parse() {
    assert_eq!(
        Truncation::parse("low48"),
        Ok(Truncation {
            low: true,
            bits: 48
        })
    );
    assert_eq!(
        Truncation::parse("top1"),
        Ok(Truncation {
            low: false,
            bits: 1
        })
    );
    assert_eq!(
        Truncation::parse("top64").map(|t| t.name()),
        Ok("top64".into())
    );
    for bad in [
        "", "low", "low0", "low65", "mid48", "low+4", "LOW48", "low 48",
    ] {
        assert!(Truncation::parse(bad).is_err(), "{bad:?}");
    }
}

/// The groups kept for a truncation are exactly the keys that agree in it: against the keys
/// collected in memory, for the low and the top 20 bits of both schemes.
#[test]
fn kept_groups_are_the_agreeing_keys() {
    for low in [true, false] {
        let parent =
            std::env::temp_dir().join(format!("ccr-keystats-keep-{low}-{}", std::process::id()));
        fs::create_dir_all(&parent).unwrap();
        let truncation = Truncation { low, bits: 20 };
        let config = Config {
            positions: 6000,
            seed: 4,
            parent_dir: parent.clone(),
            progress: false,
            cost_calls: 10,
            commit: "abc".to_string(),
            keep: Some(truncation),
            kept_keys: KEPT_KEYS,
            shard: None,
        };
        let report = run(&config, &mut Toy::new(4, 1 << 40)).unwrap();
        let agreeing = report.agreeing.as_ref().expect("kept");
        let text = report.to_markdown();
        assert!(text.contains(&format!(
            "### Keys agreeing in the {} bits",
            truncation.name()
        )));
        for scheme in 0..2 {
            let view = |key: u64| if low { key & 0xF_FFFF } else { key >> 44 };
            // Every key shows its position (the toy's description is its number, whose keys
            // are known), a group's keys agree, and the groups hold every agreeing pair.
            let mut pairs = 0;
            for group in &agreeing.groups[scheme] {
                for (key, fens) in group {
                    assert_eq!(fens.len(), 1);
                    let i = u64::from_str_radix(&fens[0], 16).unwrap();
                    assert_eq!(Toy::keys(i)[scheme], *key);
                    assert_eq!(view(*key), view(group[0].0));
                }
                pairs += group.len() * (group.len() - 1) / 2;
            }
            assert!(pairs > 0);
            assert_eq!(
                pairs as u64,
                report.pairs[2 * scheme + usize::from(low)].pairs_at(20)
            );
            assert_eq!(agreeing.dropped[scheme], 0);
        }
        assert_eq!(fs::read_dir(&parent).unwrap().count(), 0);
        fs::remove_dir(&parent).unwrap();
    }
}

#[test]
fn shards_parse() {
    assert_eq!(Shard::parse("1/1"), Ok(Shard::WHOLE));
    assert_eq!(Shard::parse("3/8"), Ok(Shard { index: 2, count: 8 }));
    assert_eq!(Shard::parse("3/8").map(|s| s.name()), Ok("3/8".into()));
    assert!(Shard::parse(&format!("{MAX_SHARDS}/{MAX_SHARDS}")).is_ok());
    for bad in [
        "3/2",
        "0/0",
        "0/3",
        "1/0",
        "",
        "/",
        "1/",
        "/3",
        "a/b",
        "1/2/3",
        " 1/2",
        "1 /2",
        "-1/2",
        "+1/2",
        "1/1048577",
        "4294967296/4294967297",
    ] {
        let error = Shard::parse(bad).expect_err(bad);
        assert!(!error.contains('\n'), "{error}");
    }
}

/// The shards of any count own contiguous, ascending ranges of 20-bit prefixes that cover
/// them all once, `owns` agrees with the ranges at their edges, and the key buckets of a shard
/// hold its values and no bucket before or after.
#[test]
fn shards_own_ascending_prefix_ranges() {
    let total = 1u64 << PREFIX_BITS;
    for count in [1, 2, 3, 5, 7, 64, 1000, 65_537, MAX_SHARDS] {
        for index in [0, 1, count / 2, count.saturating_sub(2), count - 1] {
            if index >= count {
                continue;
            }
            let shard = Shard { index, count };
            let (start, end) = shard.prefixes();
            assert!(start < end, "{count}: shard {index} is empty");
            if index == 0 {
                assert_eq!(start, 0);
            }
            if index == count - 1 {
                assert_eq!(end, total);
            }
            if index > 0 {
                let before = Shard {
                    index: index - 1,
                    count,
                };
                assert_eq!(start, before.prefixes().1, "{count}: ranges are contiguous");
            }
            let at = |prefix: u64, low: u64| prefix << (64 - PREFIX_BITS) | low;
            let low = u64::MAX >> PREFIX_BITS;
            assert!(shard.owns(at(start, 0)) && shard.owns(at(end - 1, low)));
            assert!(start == 0 || !shard.owns(at(start - 1, low)));
            assert!(end == total || !shard.owns(at(end, 0)));
            let other = Shard {
                index: (index + 1) % count,
                count,
            };
            assert!(count == 1 || !other.owns(at(start, 0)));
            for positions in [1000, 1 << 30] {
                let buckets = shard.key_buckets(positions);
                assert!(buckets.bits <= 62);
                assert_eq!(bucket_of(at(start, 0), buckets.bits), buckets.first);
                assert_eq!(bucket_of(at(end - 1, low), buckets.bits), buckets.last);
            }
        }
    }
    // Every shard of three, for every prefix: exactly one owner.
    for prefix in (0..total).step_by(997).chain([total - 1]) {
        let value = prefix << (64 - PREFIX_BITS);
        let owners = (0..3).filter(|&index| Shard { index, count: 3 }.owns(value));
        assert_eq!(owners.count(), 1);
    }
}

/// A run of the toy with full collisions of the rotation key and repeated positions.
fn toy_run(
    name: &str,
    positions: u64,
    keep: Option<(Truncation, usize)>,
    shard: Option<Shard>,
) -> Result<Report, String> {
    let parent = std::env::temp_dir().join(format!("ccr-keystats-{name}-{}", std::process::id()));
    fs::create_dir_all(&parent).unwrap();
    let config = Config {
        positions,
        seed: 11,
        parent_dir: parent.clone(),
        progress: false,
        cost_calls: 100,
        commit: "abc".to_string(),
        keep: keep.map(|k| k.0),
        kept_keys: keep.map_or(KEPT_KEYS, |k| k.1),
        shard,
    };
    let mut toy = Toy::new(11, positions * 2);
    toy.modulus = positions / 2;
    let report = run(&config, &mut toy);
    assert_eq!(fs::read_dir(&parent).unwrap().count(), 0);
    fs::remove_dir(&parent).unwrap();
    report
}

/// The markdown of `report` with the timings of `like` (the time line's figures, passes,
/// bucket files and shards, and the cost section): what shards cannot give as one process.
fn timed_as(report: &Report, like: &Report) -> String {
    let mut report = report.clone();
    report.seconds = like.seconds;
    report.costs = like.costs.clone();
    (report.passes, report.buckets, report.shards) = (like.passes, like.buckets, like.shards);
    report.to_markdown()
}

/// `N` shards (each written as a partial result and read back) merged into one report.
fn merged_toy_run(
    positions: u64,
    keep: Option<(Truncation, usize)>,
    count: u32,
) -> Result<Report, String> {
    let mut parts = Vec::new();
    // In an order other than the shards', as a file list may be.
    for index in (0..count).rev() {
        let shard = Shard { index, count };
        let report = toy_run(&format!("shard-{index}"), positions, keep, Some(shard))?;
        let text = write_partial(shard, &report);
        let (back, report) = read_partial(text.as_bytes())?;
        assert_eq!(back, shard);
        assert_eq!(
            write_partial(shard, &report),
            text,
            "a partial result round-trips"
        );
        parts.push((format!("part{index}"), shard, report));
    }
    merge(parts)
}

/// The shards of a run, merged, give the report of one process: every count (full
/// collisions and the positions behind them, truncated pairs, the table index, the sources,
/// the avalanche) and the groups agreeing in a truncation, also when the groups kept reach
/// their limit, for 1, 3 and 5 shards.
#[test]
fn merged_shards_equal_one_process() {
    for (positions, keep) in [
        (200_000, None),
        (
            200_000,
            Some((
                Truncation {
                    low: true,
                    bits: 24,
                },
                40,
            )),
        ),
        (
            50_000,
            Some((
                Truncation {
                    low: false,
                    bits: 20,
                },
                KEPT_KEYS,
            )),
        ),
    ] {
        let whole = toy_run("whole", positions, keep, None).unwrap();
        assert!(whole.distinct.n >= positions);
        assert!(
            whole.pairs[0].pairs_at(64) > 1000,
            "the toy's full collisions"
        );
        assert_eq!(whole.collisions[0].len(), 8);
        if let Some(agreeing) = &whole.agreeing {
            assert!(agreeing.groups[0].len() > 5);
            if agreeing.limit == 40 {
                assert!(agreeing.dropped[0] > 0, "the limit is reached");
            }
        }
        for count in [1, 3, 5] {
            let merged = merged_toy_run(positions, keep, count).unwrap();
            assert_eq!(merged.shards, count);
            assert_eq!(merged.distinct, whole.distinct);
            for (a, b) in merged.pairs.iter().zip(&whole.pairs) {
                assert_eq!(
                    (a.count, a.distinct, a.pairs, &a.repeated),
                    (b.count, b.distinct, b.pairs, &b.repeated)
                );
            }
            assert_eq!(merged.collisions, whole.collisions);
            assert_eq!(merged.avalanche, whole.avalanche);
            assert_eq!(merged.generated, whole.generated);
            assert_eq!(
                merged.agreeing.as_ref().map(|a| (&a.groups, a.dropped)),
                whole.agreeing.as_ref().map(|a| (&a.groups, a.dropped))
            );
            assert_eq!(
                timed_as(&merged, &whole),
                whole.to_markdown(),
                "{count} shards"
            );
        }
    }
}

#[test]
fn truncations_below_a_prefix_cannot_be_sharded() {
    let keep = Some((
        Truncation {
            low: true,
            bits: 16,
        },
        KEPT_KEYS,
    ));
    let error = toy_run("narrow", 1000, keep, Some(Shard { index: 0, count: 2 })).unwrap_err();
    assert!(error.contains("--pairs low16 with --shard"), "{error}");
    // One shard of one is the whole run: any truncation.
    assert!(toy_run("narrow-whole", 1000, keep, Some(Shard::WHOLE)).is_ok());
}

/// Partial results that are incomplete, damaged or of other runs do not merge.
#[test]
fn bad_partial_results_are_refused() {
    let shard = |index| Shard { index, count: 3 };
    let parts: Vec<(Shard, Report)> = (0..3)
        .map(|index| {
            let report = toy_run(&format!("bad-{index}"), 5000, None, Some(shard(index))).unwrap();
            (shard(index), report)
        })
        .collect();
    let named = |list: &[usize]| -> Vec<(String, Shard, Report)> {
        list.iter()
            .map(|&i| (format!("p{i}"), parts[i].0, parts[i].1.clone()))
            .collect()
    };
    assert!(merge(named(&[0, 1, 2])).is_ok());
    let missing = merge(named(&[0, 2])).unwrap_err();
    assert!(missing.contains("shard 2/3 is missing"), "{missing}");
    let twice = merge(named(&[0, 1, 1, 2])).unwrap_err();
    assert!(twice.contains("shard 2/3 is given twice"), "{twice}");
    assert!(merge(Vec::new()).is_err());
    let mut other = named(&[0, 1, 2]);
    other[1].2.seed += 1;
    let error = merge(other).unwrap_err();
    assert!(error.contains("not shards of one run"), "{error}");
    let mut other = named(&[0, 1, 2]);
    other[2].1 = Shard { index: 2, count: 4 };
    assert!(merge(other).unwrap_err().contains("not shards of one run"));
    let mut short = named(&[0, 1, 2]);
    short[0].2.distinct.n -= 1;
    assert!(merge(short).unwrap_err().contains("do not add up"));

    let text = write_partial(parts[0].0, &parts[0].1);
    let read = |text: &str| read_partial(text.as_bytes());
    assert!(read(&text).is_ok());
    let cut = &text[..text.len() - "end\n".len()];
    assert!(read(cut).unwrap_err().contains("no 'end' line"));
    let half = &text[..text.len() / 2];
    assert!(read(half).is_err());
    assert!(read("").is_err());
    assert!(
        read("hello\n")
            .unwrap_err()
            .contains("not a keystats partial")
    );
    let old = text.replacen("partial 2", "partial 1", 1);
    assert!(read(&old).unwrap_err().contains("another format"));
    // Edited lines, the checksum made again so that the edit itself is what is found.
    let edited = |from: &str, to: &str| {
        assert!(text.contains(from), "{from:?}");
        let body = text.replacen(from, to, 1);
        let body = &body[..body.find("checksum\t").expect("a checksum line")];
        let sum = crate::shard::fnv1a(crate::shard::FNV_OFFSET, body.as_bytes());
        read(&format!("{body}checksum\t{sum:016x}\nend\n")).unwrap_err()
    };
    // The seconds line with its first value replaced.
    let seconds = text.lines().find(|l| l.starts_with("seconds\t")).unwrap();
    let others = seconds.splitn(3, '\t').nth(2).unwrap();
    let seconds_as = |x: &str| {
        (
            format!("\n{seconds}\n"),
            format!("\nseconds\t{x}\t{others}\n"),
        )
    };
    let line = |from: &str, to: &str| (from.to_string(), to.to_string());
    for ((from, to), error) in [
        (
            line("\nseed\t11\n", "\nseed\televen\n"),
            "'eleven' is not a count",
        ),
        (
            line("\nseed\t11\n", "\nseed\t+11\n"),
            "'+11' is not a count",
        ),
        (
            line("\nseed\t11\n", "\nseed\t11\nseed\t11\n"),
            "'seed' given twice",
        ),
        (line("\nseed\t11\n", "\n"), "no 'seed' line"),
        (
            line("\nseed\t11\n", "\nseed\t11\t12\n"),
            "'seed' has 2 values, not 1 value",
        ),
        (
            line("\nseed\t11\n", "\nseed\t11\nspeed\t3\n"),
            "unknown line 'speed'",
        ),
        (seconds_as("NaN"), "'seconds': 'NaN' is not a finite number"),
        (seconds_as("inf"), "'seconds': 'inf' is not a finite number"),
        (seconds_as("-1"), "'seconds': '-1' is not a finite number"),
        (
            line("\nstream\t2\t", "\nstream\t9\t"),
            "'stream': index 9 out of range",
        ),
        (
            line("\nstream\t1\t", "\nstream\t0\t"),
            "'stream 0' given twice",
        ),
        (
            line("\nstream\t1\t", "\nstream\t00\t"),
            "'00' is not an index",
        ),
        (
            line("\navalanche\t1\t", "\navalanche\t0\t"),
            "'avalanche 0' given twice",
        ),
        (line("\ndistinct\t", "\ndistinct\t1"), "positions by source"),
        (
            line("\nagreeing\t-\n", "\nagreeing\t-\tx\n"),
            "'agreeing' has 2 values",
        ),
    ] {
        assert!(error_has(&edited(&from, &to), error), "{from:?} -> {to:?}");
    }
    // An edit without a new checksum.
    let raised = text.replacen("\nseed\t11\n", "\nseed\t12\n", 1);
    assert!(
        read(&raised)
            .unwrap_err()
            .contains("does not match the text")
    );
    let after = format!("{text}more\n");
    assert!(read(&after).unwrap_err().contains("text after 'end'"));
    assert!(
        read(&text.replacen("\nend\n", "\nend", 1))
            .unwrap_err()
            .contains("no newline")
    );
    let long = format!("{}\n", "x".repeat(crate::shard::LONGEST_LINE + 1));
    let error = read(&text.replacen("\nseed", &format!("\n{long}seed"), 1)).unwrap_err();
    assert!(error.contains("longer than"), "{error}");
    let mut bytes = text.clone().into_bytes();
    bytes[text.find("\nseed").unwrap() + 1] = 0xff;
    let error = read_partial(&bytes[..]).unwrap_err();
    assert!(error.contains("not UTF-8"), "{error}");
    for error in [
        read(cut).unwrap_err(),
        edited("\nseed\t11\n", "\nseed\tx\n"),
    ] {
        assert!(!error.contains('\n'), "{error}");
    }
}

/// Whether an error line says `what`, and names the line it is about.
fn error_has(error: &str, what: &str) -> bool {
    let named = error.starts_with("line ") || error.starts_with("no '") || error.starts_with("'");
    let ok = named && error.contains(what);
    if !ok {
        eprintln!("{error:?} does not say {what:?}");
    }
    ok
}
