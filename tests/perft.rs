//! Perft against published counts: the six standard positions and the edge-case suite in
//! `tests/data/`. Counts up to `QUICK_NODES` run in `make test`; the deep ones are
//! `#[ignore]`d and run by `make test-deep`.

use ccr::ccr::Position;
use ccr::perft::{Leaves, divide, perft};

/// The largest count checked in the quick suite (a few seconds for all positions).
const QUICK_NODES: u64 = 20_000_000;

/// One EPD line: the FEN, its id and the (depth, count) pairs.
struct Case {
    fen: String,
    id: String,
    counts: Vec<(u32, u64)>,
}

fn load(file: &str) -> Vec<Case> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut fields = line.split(';');
            let fen = fields.next().expect("a FEN").trim().to_string();
            let (mut id, mut counts) = (fen.clone(), Vec::new());
            for field in fields {
                let field = field.trim();
                if let Some(name) = field.strip_prefix("id ") {
                    id = name.to_string();
                } else if let Some(rest) = field.strip_prefix('D') {
                    let (d, n) = rest.split_once(' ').expect("`Dn count`");
                    counts.push((
                        d.parse().expect("a depth"),
                        n.trim().parse().expect("a count"),
                    ));
                }
            }
            Case { fen, id, counts }
        })
        .collect()
}

fn check(file: &str, selected: impl Fn(u64) -> bool, leaves: Leaves) {
    let cases = load(file);
    assert!(!cases.is_empty(), "{file} holds positions");
    let mut checked = 0;
    for case in cases {
        let pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        for &(depth, expected) in case.counts.iter().filter(|(_, n)| selected(*n)) {
            assert_eq!(
                perft(&pos, depth, leaves),
                expected,
                "{} ({}) depth {depth} {leaves:?}",
                case.id,
                case.fen
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "{file}: no count selected");
}

#[test]
fn standard_positions() {
    check("standard-perft.epd", |n| n <= QUICK_NODES, Leaves::Make);
}

#[test]
fn standard_positions_bulk() {
    check("standard-perft.epd", |n| n <= QUICK_NODES, Leaves::Bulk);
}

#[test]
fn edge_cases() {
    check("tricky-perft.epd", |n| n <= QUICK_NODES, Leaves::Make);
}

#[test]
fn divide_sums_to_perft() {
    for case in load("standard-perft.epd") {
        let pos = Position::from_fen(&case.fen).unwrap();
        let split = divide(&pos, 3, Leaves::Make);
        assert_eq!(
            split.len() as u64,
            perft(&pos, 1, Leaves::Make),
            "{}",
            case.id
        );
        let (_, expected) = case.counts.iter().find(|(d, _)| *d == 3).unwrap();
        assert_eq!(
            split.iter().map(|(_, n)| n).sum::<u64>(),
            *expected,
            "{}",
            case.id
        );
    }
}

#[test]
#[ignore = "minutes of perft: run with `make test-deep`"]
fn standard_positions_deep() {
    check("standard-perft.epd", |n| n > QUICK_NODES, Leaves::Make);
}

#[test]
#[ignore = "minutes of perft: run with `make test-deep`"]
fn edge_cases_deep() {
    check("tricky-perft.epd", |n| n > QUICK_NODES, Leaves::Make);
}
