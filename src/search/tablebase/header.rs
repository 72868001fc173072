//! The walk the prober makes over a Syzygy table's header when it maps the table (pyrrhic's
//! `init_table` and `setup_pairs`), made beforehand with every read bounds-checked. The
//! header fixes where every part of the table lies (its index, block-size and data parts
//! follow the header at lengths it gives), so it fixes the file's length: a table passes
//! when its header is whole, every structure the prober builds from it at mapping time is
//! sound (piece codes of the table's own material, a symbol tree without loops or
//! dangling references, shifts and sizes within 64 bits), and the file is exactly as long
//! as it says. The compressed data itself is not read.

use std::io::Read;

/// The kind of a table the prober reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Win/draw/loss, `.rtbw`.
    Wdl,
    /// Distance to zeroing, `.rtbz`.
    Dtz,
}

impl Kind {
    /// Both kinds, WDL first.
    pub(super) const ALL: [Kind; 2] = [Kind::Wdl, Kind::Dtz];

    /// The file suffix.
    pub(super) fn suffix(self) -> &'static str {
        match self {
            Kind::Wdl => "rtbw",
            Kind::Dtz => "rtbz",
        }
    }

    /// The magic number a table of this kind starts with (little-endian).
    fn magic(self) -> u32 {
        match self {
            Kind::Wdl => 0x5d23_e871,
            Kind::Dtz => 0xa50c_66d7,
        }
    }
}

/// Bytes after the last data block (padded to 64): the table's checksum, which the prober
/// does not read.
const CHECKSUM: u64 = 16;
/// The most symbols a table's pairs may have (the prober asserts fewer).
const MAX_SYMBOLS: u64 = 4096;
/// A pair's second symbol when the symbol is a literal.
const LITERAL: usize = 0xfff;

/// What the walk needs of a table's material, as the prober derives it from the name.
#[derive(Clone, Debug)]
pub(super) struct Shape {
    /// Pieces, kings included.
    pieces: usize,
    /// The prober's piece codes of the material (1-6 the first side's P N B R Q K, 9-14 the
    /// second side's), sorted.
    codes: Vec<u8>,
    /// Pawns of the leading side (fewer, or the only ones) and of the other, 0 for none.
    pawns: [u8; 2],
    /// A pawnless table with no lone piece beside the kings (the kings' 462-entry encoding).
    kings_only_alone: bool,
}

impl Shape {
    /// The shape of a material: counts of queens, rooks, bishops, knights and pawns of the
    /// side named first, then of the other.
    pub(super) fn of(counts: &[[u8; 5]; 2]) -> Shape {
        // The prober's codes of Q R B N P, the first side's; the second side's are 8 more.
        const CODES: [u8; 5] = [5, 4, 3, 2, 1];
        const KING: u8 = 6;
        let mut codes = vec![KING, KING + 8];
        for (side, own) in counts.iter().enumerate() {
            for (&count, &code) in own.iter().zip(&CODES) {
                codes.extend(std::iter::repeat_n(code + 8 * side as u8, count as usize));
            }
        }
        codes.sort_unstable();
        let (first, second) = (counts[0][4], counts[1][4]);
        let pawns = if second != 0 && (first == 0 || first > second) {
            [second, first]
        } else {
            [first, second]
        };
        let lone = counts.iter().flatten().filter(|&&n| n == 1).count();
        Shape {
            pieces: codes.len(),
            codes,
            pawns,
            kings_only_alone: lone == 0,
        }
    }

    fn has_pawns(&self) -> bool {
        self.pawns[0] > 0
    }

    /// Whether each encoding names the second side's pawns apart (both sides have pawns).
    fn more_pawns(&self) -> bool {
        self.has_pawns() && self.pawns[1] > 0
    }
}

/// Why a table fails its walk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Damage {
    /// Not 16 bytes more than a multiple of 64 long, as every table is (`len` bytes).
    Size(u64),
    /// Not a Syzygy table of its kind.
    Magic,
    /// The header runs past the file's end.
    Cut,
    /// The header is inconsistent: the prober would misread it.
    Header(&'static str),
    /// The header is sound but the file (`len` bytes) is not the length it gives.
    Length {
        /// The length the header gives.
        need: u64,
        /// The file's.
        len: u64,
    },
    /// Reading failed.
    Read(String),
}

impl std::fmt::Display for Damage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Damage::Size(len) => write!(f, "is not a whole table ({len} bytes)"),
            Damage::Magic => write!(f, "is not a Syzygy table (wrong magic number)"),
            Damage::Cut => write!(f, "is cut short (its header runs past the end)"),
            Damage::Header(why) => write!(f, "is not a sound Syzygy table ({why})"),
            Damage::Length { need, len } => write!(
                f,
                "is not a whole table ({len} bytes, its header gives {need})"
            ),
            Damage::Read(e) => write!(f, "cannot be read: {e}"),
        }
    }
}

/// The first bytes of a file, read as far as the walk has needed them.
struct Prefix<R> {
    source: R,
    len: u64,
    bytes: Vec<u8>,
}

impl<R: Read> Prefix<R> {
    /// Bytes `at..at + n`, read from the source if not yet read.
    fn slice(&mut self, at: u64, n: u64) -> Result<&[u8], Damage> {
        let end = at
            .checked_add(n)
            .filter(|&e| e <= self.len)
            .ok_or(Damage::Cut)?;
        let had = self.bytes.len() as u64;
        if end > had {
            // Read ahead (doubling) so that a header costs a few reads.
            let want = end.max(2 * had).max(4096).min(self.len);
            // Reserved fallibly: a table is checked while the engine runs (`SyzygyPath`), where
            // a lack of memory must refuse the tables, not end the process.
            let more = usize::try_from(want - had)
                .ok()
                .filter(|&more| self.bytes.try_reserve_exact(more).is_ok())
                .ok_or_else(|| Damage::Read("no memory to read its header".to_string()))?;
            let start = self.bytes.len();
            self.bytes.resize(start + more, 0);
            if let Err(e) = self.source.read_exact(&mut self.bytes[start..]) {
                // Nothing unread is left to look like the file's bytes.
                self.bytes.truncate(start);
                return Err(Damage::Read(match e.kind() {
                    std::io::ErrorKind::UnexpectedEof => "the file ended early".to_string(),
                    _ => e.to_string(),
                }));
            }
        }
        Ok(&self.bytes[at as usize..end as usize])
    }

    fn byte(&mut self, at: u64) -> Result<u8, Damage> {
        Ok(self.slice(at, 1)?[0])
    }

    fn u16(&mut self, at: u64) -> Result<u64, Damage> {
        let b = self.slice(at, 2)?;
        Ok(u64::from(u16::from_le_bytes([b[0], b[1]])))
    }

    fn u32(&mut self, at: u64) -> Result<u64, Damage> {
        let b = self.slice(at, 4)?;
        Ok(u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])))
    }
}

/// The lengths of one pairs structure's three parts: index, block sizes, data blocks.
type Parts = [u64; 3];

/// Walks the header of a table of `kind` and `shape` whose `len` bytes `source` reads from
/// the start, and checks that the file is the length the header gives.
pub(super) fn check(source: impl Read, len: u64, kind: Kind, shape: &Shape) -> Result<(), Damage> {
    if len % 64 != CHECKSUM {
        return Err(Damage::Size(len));
    }
    let mut file = Prefix {
        source,
        len,
        bytes: Vec::new(),
    };
    if file.u32(0).map_err(|_| Damage::Magic)? != u64::from(kind.magic()) {
        return Err(Damage::Magic);
    }
    let need = walk(&mut file, kind, shape)?;
    if need != len {
        return Err(Damage::Length { need, len });
    }
    Ok(())
}

/// The length the header of the table gives, as pyrrhic's `init_table` lays it out.
fn walk<R: Read>(file: &mut Prefix<R>, kind: Kind, shape: &Shape) -> Result<u64, Damage> {
    let split = kind == Kind::Wdl && file.byte(4)? & 1 != 0;
    let sides = 1 + usize::from(split);
    let tables = if shape.has_pawns() { 4 } else { 1 };
    let step = shape.pieces as u64 + 1 + u64::from(shape.more_pawns());
    let mut at = 5;
    let mut entries = [[0u64; 2]; 4];
    for (table, each) in entries.iter_mut().enumerate().take(tables) {
        let bytes = file.slice(at, step)?;
        for (side, count) in each.iter_mut().enumerate().take(sides) {
            *count = entry_count(bytes, 4 * side as u32, table, shape)?;
        }
        at += step;
    }
    at += at & 1;
    let mut parts = [[[0u64; 3]; 2]; 4];
    let mut flags = [0u8; 4];
    for table in 0..tables {
        for side in 0..sides {
            let (pair_flags, pair_parts, next) = pairs(file, at, entries[table][side])?;
            parts[table][side] = pair_parts;
            if side == 0 {
                flags[table] = pair_flags;
            }
            at = next;
        }
    }
    if kind == Kind::Dtz {
        for &table_flags in &flags[..tables] {
            if table_flags & 2 == 0 {
                continue;
            }
            if table_flags & 16 == 0 {
                for _ in 0..4 {
                    at += 1 + u64::from(file.byte(at)?);
                }
            } else {
                at += at & 1;
                for _ in 0..4 {
                    at += 2 + 2 * file.u16(at)?;
                }
            }
        }
        at += at & 1;
    }
    let total = |at: u64, part: usize, align: u64| -> Option<u64> {
        let mut at = at;
        for table in &parts[..tables] {
            for side in &table[..sides] {
                at = at.checked_add(align - 1)? & !(align - 1);
                at = at.checked_add(side[part])?;
            }
        }
        Some(at)
    };
    // The index and block-size parts, then the data blocks each on a 64-byte boundary
    // (the generator pads the last one to the next, and a checksum follows).
    total(at, 0, 1)
        .and_then(|at| total(at, 1, 1))
        .and_then(|at| total(at, 2, 64))
        .and_then(|at| at.checked_next_multiple_of(64))
        .and_then(|at| at.checked_add(CHECKSUM))
        .ok_or(Damage::Header("its parts overflow 64 bits"))
}

/// How many positions one encoding of the table indexes (pyrrhic's `init_enc_info`):
/// `bytes` is the encoding's order byte(s) and piece codes, `shift` 0 or 4 for the side.
fn entry_count(bytes: &[u8], shift: u32, table: usize, shape: &Shape) -> Result<u64, Damage> {
    let num = shape.pieces;
    let more = shape.more_pawns();
    let first = 1 + usize::from(more);
    let pieces: Vec<u8> = bytes[first..first + num]
        .iter()
        .map(|b| b >> shift & 0xf)
        .collect();
    let mut sorted = pieces.clone();
    sorted.sort_unstable();
    if sorted != shape.codes {
        return Err(Damage::Header("its pieces are not its material's"));
    }
    let order = usize::from(bytes[0] >> shift & 0xf);
    let order2 = if more {
        usize::from(bytes[1] >> shift & 0xf)
    } else {
        0xf
    };
    let mut norm = [0usize; 7];
    norm[0] = if shape.has_pawns() {
        usize::from(shape.pawns[0])
    } else if shape.kings_only_alone {
        2
    } else {
        3
    };
    let mut k = norm[0];
    if more {
        norm[k] = usize::from(shape.pawns[1]);
        k += norm[k];
    }
    let mut i = k;
    while i < num {
        norm[i] = pieces[i..].iter().take_while(|&&p| p == pieces[i]).count();
        i += norm[i];
    }
    let mut free = 64 - k;
    let mut count: u64 = 1;
    let mut step = 0;
    while k < num || step == order || step == order2 {
        let factor = if step == order {
            if shape.has_pawns() {
                leading_pawn_factor(norm[0] - 1, table)
            } else if shape.kings_only_alone {
                462
            } else {
                31332
            }
        } else if step == order2 {
            binomial(48 - norm[0], norm[norm[0]])
        } else {
            let factor = binomial(free, norm[k]);
            free -= norm[k];
            k += norm[k];
            factor
        };
        count = count
            .checked_mul(factor)
            .ok_or(Damage::Header("its index overflows 64 bits"))?;
        step += 1;
    }
    Ok(count)
}

/// `n` choose `k`.
fn binomial(n: usize, k: usize) -> u64 {
    (0..k).fold(1u64, |c, i| c * (n - i) as u64 / (i + 1) as u64)
}

/// The placements of the leading pawns (`others` beside the first, which stands on `file`
/// a-d) in pyrrhic's file encoding: the first pawn on each of the file's six ranks, the
/// others on the squares its twist table orders after it.
fn leading_pawn_factor(others: usize, file: usize) -> u64 {
    (0..6)
        .map(|rank| binomial(47 - 12 * file - 2 * rank, others))
        .sum()
}

/// One pairs structure at `at` (pyrrhic's `setup_pairs`) for an encoding of `entries`
/// positions: its flags, its parts' lengths, and where the next structure starts.
fn pairs<R: Read>(file: &mut Prefix<R>, at: u64, entries: u64) -> Result<(u8, Parts, u64), Damage> {
    let flags = file.byte(at)?;
    if flags & 0x80 != 0 {
        // One value for the whole encoding.
        file.byte(at + 1)?;
        return Ok((flags, [0; 3], at + 2));
    }
    let head = file.slice(at, 10)?;
    let (block_bits, index_bits, extra_blocks) = (head[1], head[2], u64::from(head[3]));
    let (max_len, min_len) = (head[8], head[9]);
    let blocks = file.u32(at + 4)?;
    if min_len == 0 || max_len < min_len || max_len > 64 {
        return Err(Damage::Header("its code lengths are out of range"));
    }
    if index_bits == 0 || index_bits >= 64 || block_bits >= 64 {
        return Err(Damage::Header("its block or index size is out of range"));
    }
    let lengths = u64::from(max_len - min_len) + 1;
    let symbols = file.u16(at + 10 + 2 * lengths)?;
    if symbols >= MAX_SYMBOLS {
        return Err(Damage::Header("it has too many symbols"));
    }
    let patterns = file.slice(at + 12 + 2 * lengths, 3 * symbols)?;
    if !symbols_form_a_tree(patterns) {
        return Err(Damage::Header(
            "its symbols refer in a loop or out of range",
        ));
    }
    let next = at + 12 + 2 * lengths + 3 * symbols + (symbols & 1);
    let indices = entries.div_ceil(1 << index_bits);
    let data = blocks
        .checked_shl(u32::from(block_bits))
        .filter(|d| d >> block_bits == blocks)
        .ok_or(Damage::Header("its data overflows 64 bits"))?;
    Ok((
        flags,
        [6 * indices, 2 * (blocks + extra_blocks), data],
        next,
    ))
}

/// Whether every symbol of `patterns` (three bytes each: a literal, or a pair of two
/// other symbols) expands to literals in a finite walk: each pair names symbols that
/// exist, and none contains itself (the prober expands them recursively).
fn symbols_form_a_tree(patterns: &[u8]) -> bool {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let count = patterns.len() / 3;
    let halves = |s: usize| -> Option<[usize; 2]> {
        let w = &patterns[3 * s..3 * s + 3];
        let right = usize::from(w[2]) << 4 | usize::from(w[1]) >> 4;
        let left = usize::from(w[1] & 0xf) << 8 | usize::from(w[0]);
        (right != LITERAL).then_some([left, right])
    };
    let mut state = vec![NEW; count];
    for root in 0..count {
        if state[root] != NEW {
            continue;
        }
        state[root] = OPEN;
        let mut stack = vec![(root, 0)];
        while let Some(top) = stack.last_mut() {
            let (s, next) = *top;
            let Some(child) = halves(s).and_then(|h| h.get(next).copied()) else {
                state[s] = DONE;
                stack.pop();
                continue;
            };
            top.1 += 1;
            match state.get(child).copied() {
                Some(NEW) => {
                    state[child] = OPEN;
                    stack.push((child, 0));
                }
                Some(DONE) => {}
                _ => return false,
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn test_data() -> Option<PathBuf> {
        let dir = PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/target/test-data/syzygy"
        ));
        dir.join("KQvK.rtbw").is_file().then_some(dir)
    }

    /// The walk of `bytes` as the table `name` (`KQvK.rtbw`).
    fn walked(name: &str, bytes: &[u8]) -> Result<(), Damage> {
        let (stem, suffix) = name.rsplit_once('.').unwrap();
        let kind = Kind::ALL
            .into_iter()
            .find(|k| k.suffix() == suffix)
            .unwrap();
        let counts = super::super::parse_table_name(stem).unwrap();
        check(bytes, bytes.len() as u64, kind, &Shape::of(&counts))
    }

    #[test]
    fn every_table_is_as_long_as_its_header_says_and_no_cut_passes() {
        let Some(dir) = test_data() else { return };
        let mut tables = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            let bytes = std::fs::read(&path).unwrap();
            assert_eq!(walked(&name, &bytes), Ok(()), "{name}");
            let len = bytes.len();
            let mut longer = bytes.clone();
            longer.extend([0; 64]);
            assert!(walked(&name, &longer).is_err(), "{name} + 64 bytes");
            for cut in [16, 16 + 65536, len - 64, len - 16, len - 1, 4, 0] {
                if cut < len {
                    assert!(walked(&name, &bytes[..cut]).is_err(), "{name} cut to {cut}");
                }
            }
            tables += 1;
        }
        assert_eq!(tables, 70);
    }

    #[test]
    fn an_inconsistent_header_is_refused() {
        let Some(dir) = test_data() else { return };
        let table = std::fs::read(dir.join("KQvK.rtbw")).unwrap();
        let damaged = |at: usize, with: &[u8]| {
            let mut bytes = table.clone();
            bytes[at..at + with.len()].copy_from_slice(with);
            walked("KQvK.rtbw", &bytes)
        };
        // KQvK.rtbw: split (byte 4), one order byte and three piece bytes (5-8), the first
        // side's pairs a single value (10-11), the second's from 12: code lengths 8 and 1
        // (20, 21), 24 symbols (38), the first symbol's pattern at 40 (a pair).
        assert_eq!(walked("KQvK.rtbw", &table), Ok(()));
        assert_eq!(
            damaged(6, &[0xe1]),
            Err(Damage::Header("its pieces are not its material's"))
        );
        let loops = Damage::Header("its symbols refer in a loop or out of range");
        assert_eq!(damaged(40, &[0, 0, 0]), Err(loops.clone()));
        assert_eq!(damaged(40, &[0xfe, 0, 0]), Err(loops));
        assert_eq!(
            damaged(38, &[0, 0x10]),
            Err(Damage::Header("it has too many symbols"))
        );
        assert_eq!(
            damaged(21, &[9]),
            Err(Damage::Header("its code lengths are out of range"))
        );
        assert_eq!(damaged(0, &[0]), Err(Damage::Magic));
        assert_eq!(
            walked("KQvK.rtbz", &table),
            Err(Damage::Magic),
            "a WDL table named as DTZ"
        );
        assert_eq!(
            walked("KRvK.rtbw", &table),
            Err(Damage::Header("its pieces are not its material's")),
            "another material's table"
        );
    }
}
