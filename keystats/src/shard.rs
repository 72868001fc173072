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
//! **The partial result** a shard writes is a line-based text file: tab-separated fields, a
//! line's name first; the first line names the format (`ccr-keystats partial 2`), the line
//! before the last is `checksum` with the 64-bit FNV-1a hash (offset basis
//! `0xcbf29ce484222325`, prime `0x100000001b3`) of every byte before it, newlines included,
//! as 16 lowercase hex digits, and the last is `end`. Partial results travel between
//! machines: [`read_partial`] reads one line at a time (a line above [`LONGEST_LINE`] bytes or
//! not UTF-8 ends the reading at once), checks every field and the checksum, which finds a
//! file damaged or edited by hand (it is no signature: whoever edits the file can compute it
//! again).

use std::collections::BTreeSet;
use std::io::BufRead;

use crate::buckets::{Distinct, STREAMS, Truncation};
use crate::cost::Costs;
use crate::estimators::{PairCounter, REPEATS_KEPT};
use crate::report::{Agreeing, Group, Report};
use crate::tsv::{Key, Lines, Row, Writer};
use crate::{LEVELS, TABLE_BITS};

/// The checksum's hash, by the names the tests compute it with.
#[cfg(test)]
pub(crate) use crate::tsv::{FNV_OFFSET, fnv1a};

/// The prefix bits that choose a shard: the narrowest width whose pairs are counted.
pub const PREFIX_BITS: u32 = LEVELS[0];

const _: () = assert!(PREFIX_BITS <= TABLE_BITS[0]);

/// The most shards a run can have (one 20-bit prefix each).
pub const MAX_SHARDS: u32 = 1 << PREFIX_BITS;

/// The first line of a partial result.
const HEADER: &str = "ccr-keystats partial 2";

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
    let mut w = Writer::new(HEADER);
    w.fixed("shard", &[&(shard.index + 1), &shard.count]);
    w.fixed("commit", &[&report.commit]);
    w.fixed("requested", &[&report.requested]);
    w.fixed("seed", &[&report.seed]);
    let d = &report.distinct;
    w.row("distinct", &[&d.n], d.by_source);
    w.row("generated", &[], report.generated);
    w.fixed("tree_ply", &[&report.tree_ply]);
    w.fixed("games", &[&report.games]);
    w.fixed("passes", &[&report.passes]);
    w.fixed("buckets", &[&report.buckets]);
    w.row("seconds", &[], report.seconds);
    let c = &report.costs;
    let costs = [
        c.make,
        c.make_keyed,
        c.make_rotation_update,
        c.make_zobrist_update,
        c.rotation_scratch,
        c.zobrist_scratch,
    ];
    w.row("costs", &[&c.calls], costs);
    for (scheme, avalanche) in report.avalanche.iter().enumerate() {
        w.row("avalanche", &[&scheme], avalanche.histogram);
    }
    for (stream, counter) in report.pairs.iter().enumerate() {
        w.row(
            "stream",
            &[&stream, &counter.count, &counter.distinct],
            counter.pairs,
        );
        for &key in &counter.repeated {
            w.fixed("repeated", &[&stream, &Key(key)]);
        }
    }
    for (scheme, shared) in report.collisions.iter().enumerate() {
        for (key, fens) in shared {
            w.row("collision", &[&scheme, &Key(*key)], fens);
        }
    }
    match &report.agreeing {
        None => w.fixed("agreeing", &[&"-"]),
        Some(agreeing) => {
            w.fixed("agreeing", &[&agreeing.truncation.name(), &agreeing.limit]);
            for scheme in 0..2 {
                w.fixed("dropped", &[&scheme, &agreeing.dropped[scheme]]);
                for (group, keys) in agreeing.groups[scheme].iter().enumerate() {
                    for (key, fens) in keys {
                        w.row("group", &[&scheme, &group, &Key(*key)], fens);
                    }
                }
            }
        }
    }
    w.finish()
}

/// The longest line of a partial result that is read (a few FENs, a 65-bucket histogram);
/// anything longer is not a partial result.
pub const LONGEST_LINE: usize = 1 << 24;

/// A partial result as far as it is read.
struct Partial {
    shard: Option<Shard>,
    report: Report,
    /// The lines given once (by name, or by name and scheme or stream).
    seen: BTreeSet<String>,
    /// The checksum line was read and matched.
    checked: bool,
}

/// Reads a partial result back, line by line: the shard and its report, or what is wrong
/// with the text (`line N: …`). Every field is checked (counts are decimal digits, seconds
/// and costs finite and not negative, no unknown, repeated, extra or missing value or line)
/// and so is the checksum, before the counts are checked for agreement with each other.
pub fn read_partial(reader: impl BufRead) -> Result<(Shard, Report), String> {
    let mut lines = Lines::new(reader);
    read_header(&mut lines)?;
    let mut partial = Partial {
        shard: None,
        report: Report {
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
        },
        seen: BTreeSet::new(),
        checked: false,
    };
    loop {
        let Some(line) = lines.next(LONGEST_LINE)? else {
            return Err("incomplete: no 'end' line (was the shard stopped?)".to_string());
        };
        let row = Row::parse(&line);
        partial
            .read(&row, lines.before)
            .map_err(|e| format!("line {}: {e}", lines.number))?;
        if row.name == "end" {
            break;
        }
    }
    if lines.next(LONGEST_LINE)?.is_some() {
        return Err(format!("line {}: text after 'end'", lines.number));
    }
    partial.complete()
}

/// Reads the first line: the format's name.
fn read_header(lines: &mut Lines<impl BufRead>) -> Result<(), String> {
    match lines
        .next(HEADER.len() + 16)
        .as_ref()
        .map(|line| line.as_deref())
    {
        Ok(Some(HEADER)) => Ok(()),
        Ok(Some(other)) if other.starts_with("ccr-keystats partial ") => Err(format!(
            "'{other}' is a partial result of another format; this ccr reads \
             '{HEADER}' (run the shard again with this build)"
        )),
        _ => Err(format!(
            "not a keystats partial result (no '{HEADER}' line)"
        )),
    }
}

impl Partial {
    /// Reads one row into the partial result; `before` is the checksum of the text before it.
    fn read(&mut self, row: &Row, before: u64) -> Result<(), String> {
        let name = row.name;
        if self.checked && name != "end" {
            return Err(format!("'{name}' after the checksum"));
        }
        let once = match name {
            "avalanche" | "stream" | "dropped" => {
                format!("{name} {}", row.values.first().unwrap_or(&""))
            }
            "repeated" | "collision" | "group" => String::new(),
            _ => name.to_string(),
        };
        if !once.is_empty() && !self.seen.insert(once.clone()) {
            return Err(format!("'{once}' given twice"));
        }
        let report = &mut self.report;
        match name {
            "shard" => {
                let v = row.exactly(2)?;
                self.shard = Some(Shard::parse(&format!("{}/{}", v[0], v[1]))?);
            }
            "commit" => report.commit = row.exactly(1)?[0].to_string(),
            "requested" => report.requested = row.count(row.exactly(1)?[0])?,
            "seed" => report.seed = row.count(row.exactly(1)?[0])?,
            "distinct" => {
                let v = row.exactly(4)?;
                report.distinct.n = row.count(v[0])?;
                row.each(&mut report.distinct.by_source, &v[1..], Row::count)?;
            }
            "generated" => row.each(&mut report.generated, row.exactly(2)?, Row::count)?,
            "tree_ply" => report.tree_ply = row.count(row.exactly(1)?[0])?,
            "games" => report.games = row.count(row.exactly(1)?[0])?,
            "passes" => report.passes = row.count(row.exactly(1)?[0])?,
            "buckets" => report.buckets = row.count(row.exactly(1)?[0])?,
            "seconds" => {
                let v = row.exactly(report.seconds.len())?;
                row.each(&mut report.seconds, v, Row::duration)?;
            }
            "costs" => {
                let v = row.exactly(7)?;
                let mut ns = [0.0; 6];
                row.each(&mut ns, &v[1..], Row::duration)?;
                let [a, b, c, d, e, f] = ns;
                report.costs = Costs {
                    calls: row.count(v[0])?,
                    make: a,
                    make_keyed: b,
                    make_rotation_update: c,
                    make_zobrist_update: d,
                    rotation_scratch: e,
                    zobrist_scratch: f,
                }
            }
            "avalanche" => {
                let v = row.exactly(1 + report.avalanche[0].histogram.len())?;
                let scheme = row.index(v[0], 2)?;
                row.each(&mut report.avalanche[scheme].histogram, &v[1..], Row::count)?;
            }
            "stream" => {
                let v = row.exactly(3 + LEVELS.len())?;
                let counter = &mut report.pairs[row.index(v[0], STREAMS)?];
                counter.count = row.count(v[1])?;
                counter.distinct = row.count(v[2])?;
                row.each(&mut counter.pairs, &v[3..], Row::count)?;
            }
            "repeated" => {
                let v = row.exactly(2)?;
                let stream = row.index(v[0], STREAMS)?;
                report.pairs[stream].repeated.push(row.key(v[1])?);
            }
            "collision" => {
                let v = row.keyed(2)?;
                let scheme = row.index(v[0], 2)?;
                let shared = (row.key(v[1])?, row.fens(&v[2..])?);
                report.collisions[scheme].push(shared);
            }
            "agreeing" => {
                if row.values.first() == Some(&"-") {
                    row.exactly(1)?;
                } else {
                    let v = row.exactly(2)?;
                    report.agreeing = Some(Agreeing {
                        truncation: Truncation::parse(v[0])?,
                        groups: Default::default(),
                        dropped: [0; 2],
                        limit: row.count(v[1])?,
                    });
                }
            }
            "dropped" | "group" => read_agreeing(report, row)?,
            "checksum" => {
                let given = row.key(row.exactly(1)?[0])?;
                if given != before {
                    return Err(format!(
                        "checksum {given:016x} does not match the text's \
                         {before:016x}: the file was changed after the shard wrote it"
                    ));
                }
                self.checked = true;
            }
            "end" => {
                row.exactly(0)?;
            }
            _ => return Err(format!("unknown line '{name}'")),
        }
        Ok(())
    }

    /// The shard and its report, once every line needed was read and the counts agree.
    fn complete(self) -> Result<(Shard, Report), String> {
        let mut needed: Vec<String> = [
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
            "checksum",
        ]
        .map(String::from)
        .into();
        needed.extend((0..2).map(|scheme| format!("avalanche {scheme}")));
        needed.extend((0..STREAMS).map(|stream| format!("stream {stream}")));
        if self.report.agreeing.is_some() {
            needed.extend((0..2).map(|scheme| format!("dropped {scheme}")));
        }
        if let Some(missing) = needed.iter().find(|name| !self.seen.contains(*name)) {
            return Err(format!("no '{missing}' line"));
        }
        let shard = self.shard.ok_or("no 'shard' line")?;
        agree(&self.report)?;
        Ok((shard, self.report))
    }
}

/// Reads a `dropped` or `group` row of the agreeing truncation.
fn read_agreeing(report: &mut Report, row: &Row) -> Result<(), String> {
    let name = row.name;
    let agreeing = report
        .agreeing
        .as_mut()
        .ok_or_else(|| format!("'{name}' without an 'agreeing' truncation"))?;
    if name == "dropped" {
        let v = row.exactly(2)?;
        agreeing.dropped[row.index(v[0], 2)?] = row.count(v[1])?;
        return Ok(());
    }
    let v = row.keyed(3)?;
    let groups = &mut agreeing.groups[row.index(v[0], 2)?];
    let group: usize = row.count(v[1])?;
    if group == groups.len() {
        groups.push(Group::new());
    } else if group + 1 != groups.len() {
        return Err(format!("group {group} out of order"));
    }
    let keyed = (row.key(v[2])?, row.fens(&v[3..])?);
    groups[group].push(keyed);
    Ok(())
}

/// Checks that the counts of a partial result agree with each other: the positions by
/// source add up to the distinct positions, each stream has no more distinct keys than keys
/// and no more pairs agreeing in more bits, and both schemes' avalanche counts the same
/// moves.
fn agree(report: &Report) -> Result<(), String> {
    let d = &report.distinct;
    if d.by_source.iter().sum::<u64>() != d.n {
        return Err(format!(
            "'distinct': {} positions by source, {} in all",
            d.by_source.iter().sum::<u64>(),
            d.n
        ));
    }
    for (stream, counter) in report.pairs.iter().enumerate() {
        if counter.distinct > counter.count {
            return Err(format!(
                "'stream {stream}': {} distinct keys of {}",
                counter.distinct, counter.count
            ));
        }
        if counter.pairs.windows(2).any(|w| w[1] > w[0]) {
            return Err(format!(
                "'stream {stream}': more pairs agree in more bits ({:?})",
                counter.pairs
            ));
        }
    }
    let moves = |scheme: usize| report.avalanche[scheme].histogram.iter().sum::<u64>();
    if moves(0) != moves(1) {
        return Err(format!(
            "'avalanche': {} moves of the rotation key, {} of Zobrist",
            moves(0),
            moves(1)
        ));
    }
    Ok(())
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
