//! Perft against published counts: the six standard positions and the edge-case suite in
//! `tests/data/`, for every board representation (the C.C.R., 0x88, the converted
//! bitboard generator with each conversion, native bitboards). Counts up to `QUICK_NODES`
//! run by a plain `cargo test`; the deep ones are `#[ignore]`d and run by `make test-deep`
//! (which `make test` runs).

use crate::common;

use ccr::{Leaves, Position, Representation, Tier, Variant, WithRepresentation, divide, perft};
use common::epd::load;

/// The largest count checked in the quick suite (a few seconds for all positions).
const QUICK_NODES: u64 = 20_000_000;

/// The counts of `file` that `selected` picks, in one representation.
struct Check<'a> {
    file: &'a str,
    selected: &'a dyn Fn(u64) -> bool,
    leaves: Leaves,
}

impl WithRepresentation for Check<'_> {
    type Output = ();

    fn run<R: Representation>(self, variant: Variant) {
        let Check {
            file,
            selected,
            leaves,
        } = self;
        let cases = load(file);
        assert!(!cases.is_empty(), "{file} holds positions");
        let mut checked = 0;
        for case in cases {
            let pos = R::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
            for &(depth, expected) in case.counts.iter().filter(|(_, n)| selected(*n)) {
                assert_eq!(
                    perft(&pos, depth, leaves),
                    expected,
                    "{} {} ({}) depth {depth} {leaves:?}",
                    variant.name(),
                    case.id,
                    case.fen
                );
                checked += 1;
            }
        }
        assert!(checked > 0, "{file}: no count selected");
    }
}

/// The counts of `file` that `selected` picks, in every representation and implementation
/// the build has ([`Variant::all`]). The SIMD ones fall back to portable code on a CPU
/// without AVX2, which [`ccr::kernels::runs`] reports.
fn check_every(file: &str, selected: impl Fn(u64) -> bool, leaves: Leaves) {
    ccr::kernels::runs(Tier::Avx2, &format!("perft {file} (simd)"));
    for variant in Variant::all() {
        variant.dispatch(Check {
            file,
            selected: &selected,
            leaves,
        });
    }
}

/// The quick suite of `file` in every representation, with each leaf move made and bulk-counted.
fn check_all(file: &str) {
    for leaves in [Leaves::Make, Leaves::Bulk] {
        check_every(file, |n| n <= QUICK_NODES, leaves);
    }
}

/// The deep suite of `file` in every representation.
fn check_all_deep(file: &str) {
    check_every(file, |n| n > QUICK_NODES, Leaves::Make);
}

#[test]
fn standard_positions() {
    check_all("standard-perft.epd");
}

#[test]
fn edge_cases() {
    check_all("tricky-perft.epd");
}

/// Divide of a representation sums to the published count, root move by root move equal to
/// the C.C.R.'s.
struct DivideSums;

impl WithRepresentation for DivideSums {
    type Output = ();

    fn run<R: Representation>(self, variant: Variant) {
        let name = variant.name();
        let cases = load("standard-perft.epd");
        assert_eq!(cases.len(), 6, "the six standard positions");
        for case in cases {
            let pos = R::from_fen(&case.fen).unwrap();
            let mut split = divide(&pos, 3, Leaves::Make);
            assert_eq!(
                split.len() as u64,
                perft(&pos, 1, Leaves::Make),
                "{name} {}",
                case.id
            );
            let (_, expected) = case.counts.iter().find(|(d, _)| *d == 3).unwrap();
            assert_eq!(
                split.iter().map(|(_, n)| n).sum::<u64>(),
                *expected,
                "{name} {}",
                case.id
            );
            let mut reference = divide(&Position::from_fen(&case.fen).unwrap(), 3, Leaves::Make);
            split.sort_by_key(|(mv, _)| mv.to_string());
            reference.sort_by_key(|(mv, _)| mv.to_string());
            assert_eq!(split, reference, "{name} {}", case.id);
        }
    }
}

#[test]
fn divide_sums_to_perft() {
    for variant in Variant::all() {
        variant.dispatch(DivideSums);
    }
}

#[test]
#[ignore = "minutes of perft: run with `make test-deep`"]
fn standard_positions_deep() {
    check_all_deep("standard-perft.epd");
}

#[test]
#[ignore = "minutes of perft: run with `make test-deep`"]
fn edge_cases_deep() {
    check_all_deep("tricky-perft.epd");
}
