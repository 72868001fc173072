//! Shards: one run split into `N` independent processes whose results merge exactly into the
//! report one process prints.
//!
//! **Which positions a shard keeps.** Every shard generates the whole deterministic stream of
//! positions (the same seed, the same stopping point: the distinct-count sketch sees every
//! position in every shard), and keeps, for each of the four key streams (rotation top and
//! low bits, Zobrist top and low bits), the positions whose stream value has its top 20 bits in
//! the shard's range: shard `K` of `N` owns the 20-bit prefixes `p` with `⌊p·N / 2^20⌋ = K − 1`,
//! one contiguous range each, in ascending order. A position is kept (its identity and both
//! keys written to the shard's bucket files) when any of its four values falls in the range.
//!
//! **Why the merge is exact.** Every copy of a position has the same keys, so all copies land in
//! the same shards and each shard deduplicates its positions exactly. For each stream, each
//! distinct position is counted in exactly one shard (the one owning its value's prefix), so
//! the per-stream counts of distinct positions and of distinct keys add up. Every pair the report
//! counts agrees in at least 20 bits of one stream (the narrowest width, [`crate::LEVELS`]`[0]`),
//! so both of its values have the same 20-bit prefix and the pair lies in one shard: the pair
//! counts add up too, and with them the chi-square of the table index (from `Σc² = 2·pairs + n`).
//! Both keys are judged over the same positions: the union of the shards is, for every stream,
//! the whole set of distinct positions. The shards' ranges ascend, so the first repeated keys
//! (and the groups agreeing in a truncation of 20 bits or more) of the merged run are the
//! shards' lists joined in shard order. The count of positions only in the trees, only in the
//! games or in both is taken over the positions whose rotation key (top bits) the shard owns.
//! The stream, its moves (avalanche) and its sources are the same in every shard, and the merge
//! checks that they are.
//!
//! **The cost.** Each shard generates every position, and keeps about `1 − (1 − 1/N)^4` of them
//! (four values, each owned with probability `1/N`): about 4/N for large `N`, so the disk per
//! shard is about 4·120/N bytes per distinct position.
//!
//! **The partial result** a shard writes is a line-based text file (tab-separated fields; the
//! first line names the format, the last is `end`), read back by [`read_partial`].

use crate::buckets::{Distinct, STREAMS, Truncation};
use crate::cost::Costs;
use crate::estimators::{PairCounter, REPEATS_KEPT};
use crate::report::{Agreeing, Group, Report};
use crate::{LEVELS, TABLE_BITS};

/// The prefix bits that choose a shard: the narrowest width whose pairs are counted.
pub const PREFIX_BITS: u32 = LEVELS[0];

const _: () = assert!(PREFIX_BITS <= TABLE_BITS[0]);

/// The most shards a run can have (one 20-bit prefix each).
pub const MAX_SHARDS: u32 = 1 << PREFIX_BITS;

/// The first line of a partial result.
const HEADER: &str = "ccr-keystats partial 1";

/// One shard of a run: `index` (0-based) of `count`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, from 0.
    pub index: u32,
    /// How many shards.
    pub count: u32,
}

impl Shard {
    /// The whole run as one shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Parses `K/N` (1 ≤ K ≤ N ≤ 2^20).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || {
            format!("'{text}' is not a shard K/N with 1 <= K <= N <= {MAX_SHARDS} (example: 3/8)")
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let number = |s: &str| {
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            s.parse::<u32>().map_err(|_| bad())
        };
        let (k, n) = (number(k)?, number(n)?);
        if k == 0 || k > n || n > MAX_SHARDS {
            return Err(bad());
        }
        Ok(Shard {
            index: k - 1,
            count: n,
        })
    }

    /// `K/N`, K from 1.
    pub fn name(&self) -> String {
        format!("{}/{}", self.index + 1, self.count)
    }

    /// Whether a stream value's 20-bit prefix belongs to this shard.
    #[inline]
    pub fn owns(&self, value: u64) -> bool {
        ((value >> (64 - PREFIX_BITS)) * u64::from(self.count)) >> PREFIX_BITS
            == u64::from(self.index)
    }

    /// The prefixes this shard owns: `start..end`, `⌈K·2^20/N⌉` to `⌈(K+1)·2^20/N⌉`.
    pub fn prefixes(&self) -> (u64, u64) {
        let n = u64::from(self.count);
        let at = |k: u64| (k << PREFIX_BITS).div_ceil(n);
        (at(u64::from(self.index)), at(u64::from(self.index) + 1))
    }

    /// Bucket bits and the first and last bucket (of the values' top `bits` bits) that hold
    /// values of this shard, for about `positions` distinct positions in the whole run.
    pub(crate) fn key_buckets(&self, positions: u64) -> KeyBuckets {
        let own = positions.div_ceil(u64::from(self.count));
        let bits =
            crate::buckets::bucket_bits(own) + self.count.next_power_of_two().trailing_zeros();
        let (start, end) = self.prefixes();
        let shift = 64 - bits;
        let first = ((u128::from(start) << (64 - PREFIX_BITS)) >> shift) as usize;
        let last = (((u128::from(end) << (64 - PREFIX_BITS)) - 1) >> shift) as usize;
        KeyBuckets { bits, first, last }
    }

    /// The identity-bucket bits of this shard for about `positions` distinct positions in the
    /// whole run (a shard keeps about `min(1, 4/N)` of them).
    pub(crate) fn id_bits(&self, positions: u64) -> u32 {
        let kept = if self.count <= STREAMS as u32 {
            positions
        } else {
            positions.saturating_mul(STREAMS as u64) / u64::from(self.count)
        };
        crate::buckets::bucket_bits(kept)
    }
}

/// The key buckets of a shard: the values' top `bits` bits, buckets `first..=last`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct KeyBuckets {
    pub(crate) bits: u32,
    pub(crate) first: usize,
    pub(crate) last: usize,
}

impl KeyBuckets {
    /// Bucket files.
    pub(crate) fn count(&self) -> usize {
        self.last - self.first + 1
    }
}

/// Writes a shard's report as a partial result (see the module's documentation).
pub fn write_partial(shard: Shard, report: &Report) -> String {
    let mut out = String::new();
    let mut line = |fields: &[String]| {
        out.push_str(&fields.join("\t"));
        out.push('\n');
    };
    let s = |x: &dyn ToString| x.to_string();
    line(&[HEADER.to_string()]);
    line(&[s(&"shard"), s(&(shard.index + 1)), s(&shard.count)]);
    line(&[s(&"commit"), report.commit.clone()]);
    line(&[s(&"requested"), s(&report.requested)]);
    line(&[s(&"seed"), s(&report.seed)]);
    let d = &report.distinct;
    line(&[
        s(&"distinct"),
        s(&d.n),
        s(&d.by_source[0]),
        s(&d.by_source[1]),
        s(&d.by_source[2]),
    ]);
    line(&[
        s(&"generated"),
        s(&report.generated[0]),
        s(&report.generated[1]),
    ]);
    line(&[s(&"tree_ply"), s(&report.tree_ply)]);
    line(&[s(&"games"), s(&report.games)]);
    line(&[s(&"passes"), s(&report.passes)]);
    line(&[s(&"buckets"), s(&report.buckets)]);
    let mut seconds = vec![s(&"seconds")];
    seconds.extend(report.seconds.iter().map(|x| x.to_string()));
    line(&seconds);
    let c = &report.costs;
    line(&[
        s(&"costs"),
        s(&c.calls),
        s(&c.make),
        s(&c.make_keyed),
        s(&c.make_rotation_update),
        s(&c.make_zobrist_update),
        s(&c.rotation_scratch),
        s(&c.zobrist_scratch),
    ]);
    for (scheme, avalanche) in report.avalanche.iter().enumerate() {
        let mut fields = vec![s(&"avalanche"), s(&scheme)];
        fields.extend(avalanche.histogram.iter().map(u64::to_string));
        line(&fields);
    }
    for (stream, counter) in report.pairs.iter().enumerate() {
        let mut fields = vec![
            s(&"stream"),
            s(&stream),
            s(&counter.count),
            s(&counter.distinct),
        ];
        fields.extend(counter.pairs.iter().map(u64::to_string));
        line(&fields);
        for key in &counter.repeated {
            line(&[s(&"repeated"), s(&stream), format!("{key:016x}")]);
        }
    }
    for (scheme, shared) in report.collisions.iter().enumerate() {
        for (key, fens) in shared {
            let mut fields = vec![s(&"collision"), s(&scheme), format!("{key:016x}")];
            fields.extend(fens.iter().cloned());
            line(&fields);
        }
    }
    match &report.agreeing {
        None => line(&[s(&"agreeing"), s(&"-")]),
        Some(agreeing) => {
            line(&[
                s(&"agreeing"),
                agreeing.truncation.name(),
                s(&agreeing.limit),
            ]);
            for scheme in 0..2 {
                line(&[s(&"dropped"), s(&scheme), s(&agreeing.dropped[scheme])]);
                for (group, keys) in agreeing.groups[scheme].iter().enumerate() {
                    for (key, fens) in keys {
                        let mut fields =
                            vec![s(&"group"), s(&scheme), s(&group), format!("{key:016x}")];
                        fields.extend(fens.iter().cloned());
                        line(&fields);
                    }
                }
            }
        }
    }
    line(&[s(&"end")]);
    out
}

/// Parses a number field of a partial result.
fn field<T: std::str::FromStr>(fields: &[&str], at: usize) -> Result<T, String> {
    let text = fields
        .get(at)
        .ok_or_else(|| format!("'{}' has too few fields", fields[0]))?;
    text.parse()
        .map_err(|_| format!("'{}': '{text}' is not a number", fields[0]))
}

/// Parses a hex key field of a partial result.
fn key_field(fields: &[&str], at: usize) -> Result<u64, String> {
    let text = fields
        .get(at)
        .ok_or_else(|| format!("'{}' has too few fields", fields[0]))?;
    u64::from_str_radix(text, 16).map_err(|_| format!("'{}': '{text}' is not a key", fields[0]))
}

/// Parses a scheme (0 or 1) or stream (0 to 3) field, below `limit`.
fn index_field(fields: &[&str], at: usize, limit: usize) -> Result<usize, String> {
    let index: usize = field(fields, at)?;
    if index >= limit {
        return Err(format!("'{}': index {index} out of range", fields[0]));
    }
    Ok(index)
}

/// Reads a partial result back: the shard and its report, or what is wrong with the text
/// (`line N: …`).
pub fn read_partial(text: &str) -> Result<(Shard, Report), String> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, HEADER)) => {}
        _ => {
            return Err(format!(
                "not a keystats partial result (no '{HEADER}' line)"
            ));
        }
    }
    let mut report = Report {
        commit: String::new(),
        requested: 0,
        seed: 0,
        distinct: Distinct::default(),
        generated: [0; 2],
        tree_ply: 0,
        games: 0,
        passes: 0,
        pairs: Default::default(),
        collisions: Default::default(),
        agreeing: None,
        avalanche: Default::default(),
        costs: Costs::default(),
        seconds: [0.0; 4],
        buckets: 0,
        shards: 1,
    };
    let mut shard = None;
    let mut seen = std::collections::BTreeSet::new();
    let mut ended = false;
    for (number, line) in lines {
        let at = |e: String| format!("line {}: {e}", number + 1);
        if ended {
            return Err(at("text after 'end'".to_string()));
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let name = fields[0];
        let once = !matches!(
            name,
            "avalanche" | "stream" | "repeated" | "collision" | "dropped" | "group"
        );
        if once && !seen.insert(name.to_string()) {
            return Err(at(format!("'{name}' given twice")));
        }
        let parsed: Result<(), String> = (|| {
            match name {
                "shard" => {
                    let text = format!(
                        "{}/{}",
                        fields.get(1).unwrap_or(&""),
                        fields.get(2).unwrap_or(&"")
                    );
                    shard = Some(Shard::parse(&text)?);
                }
                "commit" => report.commit = fields.get(1).unwrap_or(&"").to_string(),
                "requested" => report.requested = field(&fields, 1)?,
                "seed" => report.seed = field(&fields, 1)?,
                "distinct" => {
                    report.distinct = Distinct {
                        n: field(&fields, 1)?,
                        by_source: [field(&fields, 2)?, field(&fields, 3)?, field(&fields, 4)?],
                    }
                }
                "generated" => report.generated = [field(&fields, 1)?, field(&fields, 2)?],
                "tree_ply" => report.tree_ply = field(&fields, 1)?,
                "games" => report.games = field(&fields, 1)?,
                "passes" => report.passes = field(&fields, 1)?,
                "buckets" => report.buckets = field(&fields, 1)?,
                "seconds" => {
                    for (i, x) in report.seconds.iter_mut().enumerate() {
                        *x = field(&fields, 1 + i)?;
                    }
                }
                "costs" => {
                    report.costs = Costs {
                        calls: field(&fields, 1)?,
                        make: field(&fields, 2)?,
                        make_keyed: field(&fields, 3)?,
                        make_rotation_update: field(&fields, 4)?,
                        make_zobrist_update: field(&fields, 5)?,
                        rotation_scratch: field(&fields, 6)?,
                        zobrist_scratch: field(&fields, 7)?,
                    }
                }
                "avalanche" => {
                    let scheme = index_field(&fields, 1, 2)?;
                    for (bits, count) in report.avalanche[scheme].histogram.iter_mut().enumerate() {
                        *count = field(&fields, 2 + bits)?;
                    }
                }
                "stream" => {
                    let counter = &mut report.pairs[index_field(&fields, 1, STREAMS)?];
                    counter.count = field(&fields, 2)?;
                    counter.distinct = field(&fields, 3)?;
                    for (i, pairs) in counter.pairs.iter_mut().enumerate() {
                        *pairs = field(&fields, 4 + i)?;
                    }
                }
                "repeated" => {
                    let stream = index_field(&fields, 1, STREAMS)?;
                    report.pairs[stream].repeated.push(key_field(&fields, 2)?);
                }
                "collision" => {
                    let scheme = index_field(&fields, 1, 2)?;
                    let fens = fields[3.min(fields.len())..].iter().map(|f| f.to_string());
                    report.collisions[scheme].push((key_field(&fields, 2)?, fens.collect()));
                }
                "agreeing" => {
                    if fields.get(1) != Some(&"-") {
                        let truncation = Truncation::parse(fields.get(1).unwrap_or(&""))?;
                        report.agreeing = Some(Agreeing {
                            truncation,
                            groups: Default::default(),
                            dropped: [0; 2],
                            limit: field(&fields, 2)?,
                        });
                    }
                }
                "dropped" | "group" => {
                    let agreeing = report
                        .agreeing
                        .as_mut()
                        .ok_or_else(|| format!("'{name}' without an 'agreeing' truncation"))?;
                    let scheme = index_field(&fields, 1, 2)?;
                    if name == "dropped" {
                        agreeing.dropped[scheme] = field(&fields, 2)?;
                    } else {
                        let groups = &mut agreeing.groups[scheme];
                        let group: usize = field(&fields, 2)?;
                        if group == groups.len() {
                            groups.push(Group::new());
                        } else if group + 1 != groups.len() {
                            return Err(format!("group {group} out of order"));
                        }
                        let fens = fields[4.min(fields.len())..].iter().map(|f| f.to_string());
                        let key = key_field(&fields, 3)?;
                        groups[group].push((key, fens.collect()));
                    }
                }
                "end" => ended = true,
                _ => return Err(format!("unknown field '{name}'")),
            }
            Ok(())
        })();
        parsed.map_err(at)?;
    }
    if !ended {
        return Err("incomplete: no 'end' line (was the shard stopped?)".to_string());
    }
    for name in [
        "shard",
        "commit",
        "requested",
        "seed",
        "distinct",
        "generated",
        "tree_ply",
        "games",
        "passes",
        "buckets",
        "seconds",
        "costs",
        "agreeing",
    ] {
        if !seen.contains(name) {
            return Err(format!("no '{name}' line"));
        }
    }
    let shard = shard.ok_or("no 'shard' line")?;
    Ok((shard, report))
}

/// Merges the partial results of all `N` shards of one run (each named, for the errors) into
/// the report one process would have printed: the counts added, the lists joined in shard
/// order, the seconds added (work over all shards), the cost per key of shard 1.
pub fn merge(parts: Vec<(String, Shard, Report)>) -> Result<Report, String> {
    let mut parts = parts;
    let Some(first) = parts.first() else {
        return Err("--merge: no partial results".to_string());
    };
    let count = first.1.count;
    for (name, shard, _) in &parts {
        if shard.count != count {
            return Err(format!(
                "{name} is shard {} but {} is shard {}: not shards of one run",
                shard.name(),
                first.0,
                first.1.name()
            ));
        }
    }
    parts.sort_by_key(|part| part.1.index);
    for pair in parts.windows(2) {
        if pair[0].1 == pair[1].1 {
            return Err(format!(
                "shard {} is given twice ({} and {})",
                pair[0].1.name(),
                pair[0].0,
                pair[1].0
            ));
        }
    }
    if let Some(missing) = (0..count).find(|&k| parts.get(k as usize).map(|p| p.1.index) != Some(k))
    {
        return Err(format!(
            "shard {} is missing (every shard 1/{count} to {count}/{count} is needed)",
            Shard {
                index: missing,
                count
            }
            .name()
        ));
    }
    let (name0, _, base) = &parts[0];
    for (name, _, report) in &parts[1..] {
        let differ = |what: &str| {
            Err(format!(
                "{name0} and {name} are not shards of one run (different {what})"
            ))
        };
        if report.commit != base.commit {
            return differ("commits");
        }
        if report.requested != base.requested || report.seed != base.seed {
            return differ("--positions or --seed");
        }
        if report.agreeing.as_ref().map(|a| (a.truncation, a.limit))
            != base.agreeing.as_ref().map(|a| (a.truncation, a.limit))
        {
            return differ("--pairs");
        }
        if report.generated != base.generated
            || report.tree_ply != base.tree_ply
            || report.games != base.games
            || report.avalanche != base.avalanche
        {
            return differ("streams of positions");
        }
    }
    let mut merged = base.clone();
    merged.shards = count;
    merged.distinct = Distinct::default();
    merged.pairs = Default::default();
    merged.collisions = Default::default();
    merged.seconds = [0.0; 4];
    merged.passes = parts.iter().map(|p| p.2.passes).max().unwrap_or(1);
    if let Some(agreeing) = &mut merged.agreeing {
        agreeing.groups = Default::default();
        agreeing.dropped = [0; 2];
    }
    let mut kept = [0usize; 2];
    let mut full = [false; 2];
    for (_, _, report) in &parts {
        merged.distinct.n += report.distinct.n;
        for (sum, part) in merged
            .distinct
            .by_source
            .iter_mut()
            .zip(report.distinct.by_source)
        {
            *sum += part;
        }
        for (sum, part) in merged.seconds.iter_mut().zip(report.seconds) {
            *sum += part;
        }
        for (sum, part) in merged.pairs.iter_mut().zip(&report.pairs) {
            add_counter(sum, part);
        }
        for (sum, part) in merged.collisions.iter_mut().zip(&report.collisions) {
            for shared in part {
                if sum.len() < REPEATS_KEPT {
                    sum.push(shared.clone());
                }
            }
        }
        if let (Some(sum), Some(part)) = (&mut merged.agreeing, &report.agreeing) {
            for scheme in 0..2 {
                // The rule of one process: groups are kept in key order until the first that
                // does not fit; it and every later group are counted only.
                for group in &part.groups[scheme] {
                    if !full[scheme] && kept[scheme] + group.len() <= sum.limit {
                        kept[scheme] += group.len();
                        sum.groups[scheme].push(group.clone());
                    } else {
                        full[scheme] = true;
                        sum.dropped[scheme] += 1;
                    }
                }
                sum.dropped[scheme] += part.dropped[scheme];
                full[scheme] |= part.dropped[scheme] > 0;
            }
        }
    }
    for (stream, counter) in merged.pairs.iter().enumerate() {
        if counter.count != merged.distinct.n {
            return Err(format!(
                "the shards do not add up: {} positions in key stream {stream}, {} distinct \
                 positions",
                counter.count, merged.distinct.n
            ));
        }
    }
    if merged.distinct.n < merged.requested {
        return Err(format!(
            "the shards hold {} distinct positions, fewer than the {} requested (the \
             distinct-count sketch fell short; run the shards again with a larger --positions)",
            crate::report::group(merged.distinct.n),
            crate::report::group(merged.requested)
        ));
    }
    Ok(merged)
}

/// Adds one shard's pair counts to the sum (the shards' values ascend, so its repeated keys
/// follow the sum's).
fn add_counter(sum: &mut PairCounter, part: &PairCounter) {
    sum.count += part.count;
    sum.distinct += part.distinct;
    for (s, p) in sum.pairs.iter_mut().zip(part.pairs) {
        *s += p;
    }
    for &key in &part.repeated {
        if sum.repeated.len() < REPEATS_KEPT {
            sum.repeated.push(key);
        }
    }
}
