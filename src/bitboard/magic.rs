//! Fancy magic bitboards for rooks and bishops, in the C.C.R. bit order.
//!
//! For a slider on square `s`, only the pieces on `mask[s]` (its empty-board rays without
//! the last square of each ray, which never blocks anything beyond itself) change its
//! attacks. `(occupied & mask[s]) * magic[s] >> shift[s]`, with `shift = 64 - popcount(mask)`,
//! maps each of the `2^popcount` relevant occupancies to an index; a magic is good when no
//! two occupancies with different attacks share an index (sharing with equal attacks is a
//! harmless, constructive collision). Each square owns a slice `offset[s] ..` of one shared
//! table (rooks first, 102 400 entries, then bishops, 5 248), "fancy" because the slices
//! are sized per square rather than by the worst square.
//!
//! The magics are searched once, deterministically, by `find_magics` from `SEED` and
//! embedded below. The bit order is the reversal of the usual a1 = 0 one, and carries in a
//! product run toward the high bits whatever the order, so the published magics do not
//! carry over by reversing them. To regenerate (a fraction of a second):
//!
//! ```text
//! cargo test --release --lib bitboard::magic::tests::regenerate -- --ignored --nocapture
//! ```
//!
//! prints the two arrays to paste over the constants below (and asserts that they equal
//! them); `embedded_magics_are_valid` re-checks every embedded magic against the
//! ray-walking reference in each test run, so a changed seed, mask or magic cannot slip in.
//!
//! The masks, magics, shifts and offsets are compile-time constants; the shared attack table
//! is filled on first use (about half a millisecond) behind a [`OnceLock`].

use std::sync::OnceLock;

#[cfg(test)]
use crate::bitboard::tables::ray_attacks;
use crate::bitboard::tables::{BISHOP_DIRECTIONS, ROOK_DIRECTIONS, square};

/// The seed `find_magics` started from for the embedded magics.
#[cfg(test)]
const SEED: u64 = 0x00CC_2012_C0DE_5EED;

/// The embedded rook magics, by C.C.R. square index (found by `find_magics(SEED)`).
#[rustfmt::skip]
const ROOK_MAGICS: [u64; 64] = [
    0x0180_0040_0020_3181,
    0x1040_2000_4000_1001,
    0x2100_1020_0100_4008,
    0x0880_0480_0800_1000,
    0x0200_0408_2002_0010,
    0x0200_1002_0004_0108,
    0x0400_0801_5012_0094,
    0x0100_0880_2212_C100,
    0x0802_0020_4082_0100,
    0x8001_0021_0040_0080,
    0x6020_8010_0088_2001,
    0x8001_0021_0010_0008,
    0x0682_0012_0004_0820,
    0x0220_8002_0004_0080,
    0x2403_000C_0200_0300,
    0x2001_0000_8D00_0462,
    0x2640_8080_0040_0022,
    0x60C0_4140_0020_1008,
    0x4120_0680_2010_0184,
    0x2800_0A00_4200_2010,
    0x4200_0500_1008_0100,
    0x0612_8080_0200_0401,
    0x0000_0400_0110_0248,
    0x1404_0200_00A1_0044,
    0x0800_8000_8020_4000,
    0xA210_02C2_4000_2000,
    0x0100_1082_0042_0020,
    0x4002_0022_0010_4008,
    0x2031_0005_0010_4800,
    0x1000_0200_8004_0080,
    0x0000_0284_0001_0810,
    0x8050_0082_0001_37C4,
    0x2040_0040_8080_002C,
    0x4801_80A0_0280_4000,
    0x8194_2008_8080_1000,
    0x0408_0010_0080_0880,
    0x4012_0008_1200_2004,
    0x0004_0080_0480_3A00,
    0x0044_0201_0400_9008,
    0x0012_0080_6200_0401,
    0x4001_8020_C001_8000,
    0x5540_5000_2004_4000,
    0x0104_2009_0041_0011,
    0x0084_1000_0B01_0021,
    0xD001_0008_0011_0006,
    0x1002_0400_0200_8080,
    0xA205_1002_0004_0208,
    0x8120_0041_0082_0004,
    0x0001_0480_0024_4500,
    0x0140_0020_0041_8180,
    0x8000_1200_8840_2200,
    0x0100_8010_0088_0280,
    0x0008_0004_0200_4040,
    0x2402_0010_0408_0200,
    0x0000_2208_5001_2400,
    0x0B48_0120_4084_1200,
    0x8280_0020_8113_4101,
    0x0100_1080_2201_0042,
    0x0400_8220_4091_0A02,
    0x0012_1000_0421_0901,
    0x0003_0010_2A18_0005,
    0x0022_0041_0884_1022,
    0x04A0_3018_00A2_0104,
    0x0006_0041_008C_1022,
];

/// The embedded bishop magics, by C.C.R. square index (found by `find_magics(SEED)`).
#[rustfmt::skip]
const BISHOP_MAGICS: [u64; 64] = [
    0x0050_0428_1040_4208,
    0x8012_0822_0482_1000,
    0x0008_0829_1128_1004,
    0x0218_2082_2048_1006,
    0x0014_0308_5000_2004,
    0x0081_0420_4608_0020,
    0x0000_8084_1040_8081,
    0x0400_4602_4420_0401,
    0x1080_8820_8404_0040,
    0x0400_0408_020C_003B,
    0x0400_1010_E081_0100,
    0x0000_0222_8200_0040,
    0x0040_2202_1062_0000,
    0x0001_4082_2020_0000,
    0x0018_0044_0288_4044,
    0x0200_0084_040A_9220,
    0x1420_0006_0404_1802,
    0x1008_7004_0808_0052,
    0x0008_0130_0086_1413,
    0x4098_0044_0410_1104,
    0x4004_2082_0201_0D10,
    0x4925_0082_1002_0100,
    0x0002_0010_8230_420E,
    0x4008_4100_2108_0804,
    0xA010_C80A_2420_0400,
    0x0010_0284_0802_8402,
    0x4004_4408_0808_0110,
    0x0120_0800_0100_4208,
    0x0030_8401_3080_2006,
    0x4010_0041_4208_0208,
    0x00C4_1401_0080_8400,
    0x0244_0100_0084_6120,
    0x0001_10C0_0110_0400,
    0x1002_0160_4804_2800,
    0x0010_4030_0002_0400,
    0x081A_4008_0840_8200,
    0x0810_0200_8088_1004,
    0x8042_204A_0281_0080,
    0x6090_0111_0892_0080,
    0x2001_2701_1000_A400,
    0x0268_1802_D010_8900,
    0x1104_0202_02C8_3012,
    0x0001_0040_3000_0200,
    0x8006_0042_0200_2020,
    0x0040_1020_1040_0200,
    0x3444_2008_0040_6208,
    0x0404_4832_1840_0400,
    0x0011_2400_8205_4090,
    0x000A_0202_0240_8004,
    0x0804_9608_0202_0210,
    0x0082_304A_0090_0001,
    0x8080_1000_4202_0A08,
    0x0000_0022_2041_0840,
    0x0208_2A70_1000_8000,
    0x8045_2810_0400_8000,
    0x0124_900C_0100_2000,
    0x0502_0034_0108_2800,
    0x0200_00A4_0C42_0844,
    0x0000_2002_0201_0408,
    0x0300_3100_0020_8830,
    0x2800_3022_C102_8209,
    0x0117_0004_0408_6200,
    0x0450_0868_9004_8200,
    0x0020_1401_3604_0111,
];

/// One square's magic lookup.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Magic {
    /// The relevant occupancy: the rays without their edge squares.
    pub mask: u64,
    /// The multiplier.
    pub magic: u64,
    /// Where this square's slice starts in the shared table.
    pub offset: u32,
    /// `64 - popcount(mask)`.
    pub shift: u32,
}

impl Magic {
    /// The index in the shared table of the attacks under `occupied`.
    #[inline(always)]
    pub(crate) fn index(&self, occupied: u64) -> usize {
        self.offset as usize
            + ((occupied & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

/// The relevant occupancy mask of a slider on `sq`: each ray without its last square.
const fn relevant_mask(sq: usize, directions: &[(i32, i32); 4]) -> u64 {
    let (file, rank) = (7 - (sq & 7) as i32, 7 - (sq >> 3) as i32);
    let mut mask = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        let (mut f, mut r) = (file + df, rank + dr);
        // Keep a square only when the ray goes on past it.
        while let (Some(here), Some(_)) = (square(f, r), square(f + df, r + dr)) {
            mask |= 1 << here;
            f += df;
            r += dr;
        }
        d += 1;
    }
    mask
}

/// The 64 lookups of one slider, their slices laid out from `start`.
const fn lookups(directions: &[(i32, i32); 4], magics: &[u64; 64], start: usize) -> [Magic; 64] {
    let mut table = [Magic {
        mask: 0,
        magic: 0,
        offset: 0,
        shift: 0,
    }; 64];
    let mut offset = start;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(sq, directions);
        table[sq] = Magic {
            mask,
            magic: magics[sq],
            offset: offset as u32,
            shift: 64 - mask.count_ones(),
        };
        offset += 1 << mask.count_ones();
        sq += 1;
    }
    table
}

/// The number of table entries a slider's 64 slices take.
const fn slices_size(directions: &[(i32, i32); 4]) -> usize {
    let mut size = 0;
    let mut sq = 0;
    while sq < 64 {
        size += 1 << relevant_mask(sq, directions).count_ones();
        sq += 1;
    }
    size
}

/// Entries the rook slices take (102 400).
const ROOK_SIZE: usize = slices_size(&ROOK_DIRECTIONS);
/// Entries in the shared table: rooks, then bishops (5 248).
pub(crate) const TABLE_SIZE: usize = ROOK_SIZE + slices_size(&BISHOP_DIRECTIONS);

/// The rook lookups by C.C.R. square index.
pub(crate) static ROOK: [Magic; 64] = lookups(&ROOK_DIRECTIONS, &ROOK_MAGICS, 0);
/// The bishop lookups by C.C.R. square index.
pub(crate) static BISHOP: [Magic; 64] = lookups(&BISHOP_DIRECTIONS, &BISHOP_MAGICS, ROOK_SIZE);

/// Calls `f` with every subset of `mask` (the carry-rippler enumeration), the empty one first.
fn for_each_subset(mask: u64, mut f: impl FnMut(u64)) {
    let mut subset = 0u64;
    loop {
        f(subset);
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            break;
        }
    }
}

/// A slider's empty-board ray from each square in one direction.
const fn direction_rays((df, dr): (i32, i32)) -> [u64; 64] {
    let mut rays = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let (mut f, mut r) = (7 - (sq & 7) as i32 + df, 7 - (sq >> 3) as i32 + dr);
        while let Some(to) = square(f, r) {
            rays[sq] |= 1 << to;
            f += df;
            r += dr;
        }
        sq += 1;
    }
    rays
}

/// The rays of one direction, and whether they run toward higher square indices (then
/// the first blocker is the lowest bit of `ray & occupied`, else the highest).
struct Direction {
    rays: [u64; 64],
    ascending: bool,
}

impl Direction {
    const fn new((df, dr): (i32, i32)) -> Direction {
        // One step changes the index by -8 per rank and -1 per file.
        Direction {
            rays: direction_rays((df, dr)),
            ascending: -8 * dr - df > 0,
        }
    }

    /// The ray from `sq` up to and including its first blocker.
    #[inline(always)]
    fn attacks(&self, sq: usize, occupied: u64) -> u64 {
        let ray = self.rays[sq];
        let blockers = ray & occupied;
        if blockers == 0 {
            return ray;
        }
        let first = if self.ascending {
            blockers.trailing_zeros()
        } else {
            63 - blockers.leading_zeros()
        };
        ray ^ self.rays[first as usize]
    }
}

/// Fills the shared table. Each entry is the classic ray lookup (a ray minus the ray behind
/// its first blocker), cheaper than walking the rays; the tests compare it with the walking
/// reference.
fn fill() -> Box<[u64]> {
    let directions = |steps: &[(i32, i32); 4]| steps.map(Direction::new);
    let mut table = vec![0u64; TABLE_SIZE].into_boxed_slice();
    for (lookups, steps) in [(&ROOK, &ROOK_DIRECTIONS), (&BISHOP, &BISHOP_DIRECTIONS)] {
        let directions = directions(steps);
        for (sq, lookup) in lookups.iter().enumerate() {
            for_each_subset(lookup.mask, |occupied| {
                table[lookup.index(occupied)] = directions
                    .iter()
                    .map(|d| d.attacks(sq, occupied))
                    .fold(0, |a, b| a | b);
            });
        }
    }
    table
}

/// The slider attack lookups, holding the shared table: get it once per node with
/// [`Sliders::get`] so the hot path does not test the [`OnceLock`] per lookup.
#[derive(Copy, Clone)]
pub(crate) struct Sliders(&'static [u64]);

impl Sliders {
    /// The lookups, filling the table on first use.
    #[inline]
    pub(crate) fn get() -> Sliders {
        static TABLE: OnceLock<Box<[u64]>> = OnceLock::new();
        Sliders(TABLE.get_or_init(fill))
    }

    /// The squares a rook on `sq` (C.C.R. index) attacks given the occupancy.
    #[inline(always)]
    pub(crate) fn rook(self, sq: usize, occupied: u64) -> u64 {
        self.0[ROOK[sq & 63].index(occupied)]
    }

    /// The squares a bishop on `sq` (C.C.R. index) attacks given the occupancy.
    #[inline(always)]
    pub(crate) fn bishop(self, sq: usize, occupied: u64) -> u64 {
        self.0[BISHOP[sq & 63].index(occupied)]
    }

    /// The squares a queen on `sq` (C.C.R. index) attacks given the occupancy.
    #[inline(always)]
    pub(crate) fn queen(self, sq: usize, occupied: u64) -> u64 {
        self.rook(sq, occupied) | self.bishop(sq, occupied)
    }
}

/// A splitmix64 step: the finder's deterministic random numbers.
#[cfg(test)]
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Searches a magic for a slider on `sq` with the standard shift `64 - popcount(mask)`:
/// sparse random candidates (the AND of three draws) until one maps every relevant
/// occupancy without a destructive collision.
#[cfg(test)]
fn find_magic(sq: usize, directions: &[(i32, i32); 4], state: &mut u64) -> u64 {
    let mask = relevant_mask(sq, directions);
    let shift = 64 - mask.count_ones();
    let mut cases = Vec::new();
    for_each_subset(mask, |occupied| {
        cases.push((occupied, ray_attacks(sq, occupied, directions)))
    });
    // `stamp[i] == attempt` marks slot `i` as written in this attempt: no clearing needed.
    let (mut slot, mut stamp) = (vec![0u64; cases.len()], vec![0u32; cases.len()]);
    let mut attempt = 0;
    loop {
        let magic = splitmix(state) & splitmix(state) & splitmix(state);
        // Too few bits in the top byte spread the occupancies badly: skip cheaply.
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let fits = cases.iter().all(|&(occupied, attacks)| {
            let i = (occupied.wrapping_mul(magic) >> shift) as usize;
            if stamp[i] != attempt {
                (stamp[i], slot[i]) = (attempt, attacks);
                true
            } else {
                slot[i] == attacks
            }
        });
        if fits {
            return magic;
        }
    }
}

/// Searches all rook and bishop magics from `seed`, squares in index order, rooks first
/// (test-only: the `regenerate` test below runs it).
#[cfg(test)]
fn find_magics(seed: u64) -> ([u64; 64], [u64; 64]) {
    let mut state = seed;
    let rooks = std::array::from_fn(|sq| find_magic(sq, &ROOK_DIRECTIONS, &mut state));
    let bishops = std::array::from_fn(|sq| find_magic(sq, &BISHOP_DIRECTIONS, &mut state));
    (rooks, bishops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn table_sizes() {
        assert_eq!(ROOK_SIZE, 102_400);
        assert_eq!(TABLE_SIZE, 102_400 + 5_248);
        assert_eq!(ROOK[0].mask.count_ones(), 12);
        assert_eq!(BISHOP[27].mask.count_ones(), 9);
    }

    #[test]
    fn embedded_magics_are_valid() {
        for (lookups, directions) in [(&ROOK, &ROOK_DIRECTIONS), (&BISHOP, &BISHOP_DIRECTIONS)] {
            for (sq, lookup) in lookups.iter().enumerate() {
                let mut seen = HashMap::new();
                for_each_subset(lookup.mask, |occupied| {
                    let attacks = ray_attacks(sq, occupied, directions);
                    let i = lookup.index(occupied);
                    assert!(
                        (lookup.offset as usize
                            ..lookup.offset as usize + (1 << (64 - lookup.shift)))
                            .contains(&i)
                    );
                    let previous = *seen.entry(i).or_insert(attacks);
                    assert_eq!(previous, attacks, "square {sq}: destructive collision");
                });
            }
        }
    }

    #[test]
    fn lookups_match_the_reference_on_random_boards() {
        let sliders = Sliders::get();
        let mut state = 1;
        for _ in 0..20_000 {
            // About a quarter of the squares occupied.
            let occupied = splitmix(&mut state) & splitmix(&mut state);
            let sq = (splitmix(&mut state) & 63) as usize;
            assert_eq!(
                sliders.rook(sq, occupied),
                ray_attacks(sq, occupied, &ROOK_DIRECTIONS)
            );
            assert_eq!(
                sliders.bishop(sq, occupied),
                ray_attacks(sq, occupied, &BISHOP_DIRECTIONS)
            );
        }
    }

    /// Regenerates the magics from [`SEED`], prints them as Rust and checks them against
    /// the embedded ones (ignored: a second or so in release, much longer in debug).
    #[test]
    #[ignore]
    fn regenerate() {
        let (rooks, bishops) = find_magics(SEED);
        for (name, magics) in [("ROOK_MAGICS", &rooks), ("BISHOP_MAGICS", &bishops)] {
            println!("const {name}: [u64; 64] = [");
            for m in magics {
                println!(
                    "    0x{:04X}_{:04X}_{:04X}_{:04X},",
                    m >> 48,
                    m >> 32 & 0xFFFF,
                    m >> 16 & 0xFFFF,
                    m & 0xFFFF
                );
            }
            println!("];");
        }
        assert_eq!(rooks, ROOK_MAGICS);
        assert_eq!(bishops, BISHOP_MAGICS);
    }
}
