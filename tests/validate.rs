//! The position invariants: perft over the six standard positions with every node checked
//! in full by `validate` (in any build; make's own `debug_assert!` runs in debug builds only
//! and checks only what the move could have broken), and hand-broken bitboards, so that
//! the checks are seen to fail (the hand-broken positions are the core's own unit tests).

mod common;

use ccr::bitboard::Bitboards;
use ccr::moves::MoveList;
use ccr::positions::{STANDARD, STARTPOS};
use ccr::repr::Representation;
use ccr::rotated::Rotated;
use ccr::types::{Colour, Square};
use ccr::x88::X88;
use ccr::{Invariant, Position};

/// The largest count walked per position. Every node is validated in full (the attack
/// tables of both colours on every square among it), so a debug build walks less.
const NODE_BUDGET: u64 = if cfg!(debug_assertions) {
    3_000
} else {
    200_000
};

/// Each standard position's FEN and its deepest (depth, count) within [`NODE_BUDGET`].
fn standard_cases() -> Vec<(String, u32, u64)> {
    let cases: Vec<_> = common::epd::load("standard-perft.epd")
        .into_iter()
        .map(|case| {
            let (depth, count) = case
                .counts
                .iter()
                .copied()
                .filter(|&(_, n)| n <= NODE_BUDGET)
                .max()
                .unwrap_or_else(|| panic!("{}: no count within the budget", case.id));
            (case.fen, depth, count)
        })
        .collect();
    assert_eq!(cases.len(), STANDARD.len());
    cases
}

/// Perft that checks `check` on every node (the root and every position made below it).
fn walk<R: Representation>(
    pos: &R,
    depth: u32,
    check: &impl Fn(&R) -> Result<(), Invariant>,
) -> u64 {
    if let Err(broken) = check(pos) {
        panic!("{}: {broken}", pos.to_position().to_fen());
    }
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    list.as_slice()
        .iter()
        .map(|&mv| walk(&pos.make(mv), depth - 1, check))
        .sum()
}

#[test]
fn perft_validated_at_every_node() {
    for (fen, depth, count) in standard_cases() {
        let pos = Position::from_fen(&fen).expect("a valid FEN");
        assert_eq!(walk(&pos, depth, &Position::validate), count, "ccr {fen}");
        let x88 = X88::from_position(&pos);
        assert_eq!(walk(&x88, depth, &X88::validate), count, "x88 {fen}");
        let bitboards = Bitboards::from_position(&pos);
        assert_eq!(
            walk(&bitboards, depth, &Bitboards::validate),
            count,
            "bitboard-native {fen}"
        );
        let rotated = Rotated::from_position(&pos);
        assert_eq!(
            walk(&rotated, depth, &Rotated::validate),
            count,
            "rotated {fen}"
        );
    }
}

fn square(name: &str) -> Square {
    Square::parse(name).expect("a square name")
}

fn position(fen: &str) -> Position {
    let pos = Position::from_fen(fen).expect("a valid FEN");
    assert_eq!(pos.validate(), Ok(()), "{fen}");
    pos
}

#[test]
fn bitboards_that_disagree() {
    let good = Bitboards::from_position(&position(STARTPOS));
    assert_eq!(good.validate(), Ok(()));
    let e2 = 1u64 << square("e2").index();
    let e4 = 1u64 << square("e4").index();
    // e2 a pawn and a knight at once; e4 in the type boards but in no colour's; e4 in both
    // colours' boards; a king missing from the types and the colours.
    let mut b = good;
    b.types[1] |= e2;
    assert_eq!(b.validate(), Err(Invariant::Occupancy));
    let mut b = good;
    b.types[0] |= e4;
    assert_eq!(b.validate(), Err(Invariant::Occupancy));
    let mut b = good;
    b.colours[0] |= e4;
    b.colours[1] |= e4;
    b.types[0] |= e4;
    assert_eq!(b.validate(), Err(Invariant::Occupancy));
    let mut b = good;
    let e1 = 1u64 << square("e1").index();
    b.types[5] &= !e1;
    b.colours[0] &= !e1;
    assert_eq!(
        b.validate(),
        Err(Invariant::KingCount {
            colour: Colour::White,
            count: 0
        })
    );
    let mut b = good;
    b.halfmove_clock = 200;
    assert_eq!(b.validate(), Err(Invariant::HalfmoveClock(200)));
}

#[test]
fn every_invariant_has_a_message() {
    assert_eq!(
        Invariant::OpponentInCheck.to_string(),
        "the side not to move is in check"
    );
    assert_eq!(
        Invariant::CastlingWithoutPieces('Q').to_string(),
        "castling right 'Q' without king and rook on their home squares"
    );
    assert_eq!(
        Invariant::PieceList(Colour::Black).to_string(),
        "the Black piece list disagrees with the board"
    );
}
