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
use crate::statistics::{
    binomial_below, chi_square, chi_square_z, expected_pairs, poisson_tail, significance,
};
use crate::{
    Config, Costs, Engine, FROM_GAME, FROM_TREE, Identity, Truncation, Visit, parse_count, run,
};

/// Identities drawn at random from `0..pool` (so that they repeat when the pool is small),
/// each with two keys that are bijections of its number; every other visit is a "move" from
/// made-up parent keys, and the sources alternate.
struct Toy {
    state: u64,
    pool: u64,
    visits: u64,
}

impl Toy {
    fn new(seed: u64, pool: u64) -> Toy {
        Toy {
            state: seed,
            pool,
            visits: 0,
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
        let keys = Toy::keys(i);
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
    let distinct = dedupe(dir, bits, false, &|id| engine.describe(id)).unwrap();
    assert!(distinct.n < 20_000, "the pool makes repeats");
    assert_eq!(distinct.n, seen.len() as u64);
    let by_source = [1, 2, 3].map(|s| seen.values().filter(|v| v.0 == s).count() as u64);
    assert_eq!(distinct.by_source, by_source);
    let counters = count_pairs(dir, bits, false, &mut [None, None]).unwrap();
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
