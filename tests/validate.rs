//! The invariants of every representation ([`Variant::all`]): perft over the six standard
//! positions with every node checked in full by [`Representation::validate`] (in any build),
//! and in debug builds perft with the slow checks on, so that every make validates the made
//! position in full and the keyed make compares its key with the key computed from scratch
//! (a debug build's make otherwise checks only what the move could have broken). The
//! hand-broken positions, which show that the checks fail, are each representation's own
//! unit tests.

use crate::common;

use ccr::{Invariant, MoveList, Representation, Variant, WithRepresentation};

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
    assert_eq!(cases.len(), ccr::positions::STANDARD.len());
    cases
}

/// Perft that validates every node (the root and every position made below it).
fn walk<R: Representation>(pos: &R, depth: u32) -> u64 {
    if let Err(broken) = pos.validate() {
        panic!("{}: {broken}", pos.to_position().to_fen());
    }
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    list.as_slice()
        .iter()
        .map(|&mv| walk(&pos.make(mv), depth - 1))
        .sum()
}

/// [`walk`] of every case in one variant.
struct Validated<'a>(&'a [(String, u32, u64)]);

impl WithRepresentation for Validated<'_> {
    type Output = ();

    fn run<R: Representation>(self, variant: Variant) {
        for (fen, depth, count) in self.0 {
            let pos = R::from_fen(fen).expect("a valid FEN");
            assert_eq!(walk(&pos, *depth), *count, "{} {fen}", variant.name());
        }
    }
}

#[test]
fn perft_validated_at_every_node_in_every_variant() {
    let cases = standard_cases();
    for variant in Variant::all() {
        variant.dispatch(Validated(&cases));
    }
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
        ccr::X88Invariant::PieceList(ccr::Colour::Black).to_string(),
        "the Black piece list disagrees with the board"
    );
    assert_eq!(
        ccr::RotatedInvariant::Board(ccr::BitboardsInvariant::Position(
            Invariant::OpponentInCheck
        ))
        .to_string(),
        "the side not to move is in check"
    );
}

/// Perft with the slow checks on: every make of every variant validates the made position in
/// full and the C.C.R.'s keyed make checks its key.
#[cfg(debug_assertions)]
mod slow_checks {
    use super::*;
    use ccr::set_slow_checks;
    use ccr::{Leaves, Position, Repr, perft};

    /// The largest count walked per position (each made position validated in full, in ten
    /// walks: every variant and the keyed make), so that the test takes seconds.
    const LEAF_BUDGET: u64 = 10_000;

    /// The deepest walk.
    const MAX_DEPTH: u32 = 3;

    /// Edge cases of `tricky-perft.epd` by id: en passant pinned and taking the checker,
    /// castling prevented, promotions.
    const EDGE_CASES: [&str; 4] = [
        "ep-pinned-diagonal",
        "ep-captures-checker",
        "castling-prevented",
        "promotions",
    ];

    /// Chess960 setups (which only the C.C.R. castles by their rules) and the depth each is
    /// walked to: a start position played on, an inner rook, the king on its castling target.
    const CHESS960: [(&str, u32); 3] = [
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            2,
        ),
        ("r1k3rr/8/8/8/8/8/8/RR2K2R w KBgq - 0 1", 2),
        ("4k3/8/8/8/8/8/8/R5KR w AH - 0 1", 3),
    ];

    /// A position, the depth it is walked to and its perft count there.
    type Case = (Position, u32, u64);

    /// Perft of each case, leaves made, against its count.
    struct Checked<'a>(&'a [Case]);

    impl WithRepresentation for Checked<'_> {
        type Output = ();

        fn run<R: Representation>(self, variant: Variant) {
            for (pos, depth, count) in self.0 {
                let made = perft(&R::from_position(pos), *depth, Leaves::Make);
                assert_eq!(made, *count, "{} {}", variant.name(), pos.to_fen());
            }
        }
    }

    /// Perft through the keyed make, which checks every key with the slow checks on.
    fn keyed_perft(pos: &Position, key: u64, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        pos.legal_moves()
            .as_slice()
            .iter()
            .map(|&mv| {
                let (child, key) = pos.make_keyed(mv, key);
                keyed_perft(&child, key, depth - 1)
            })
            .sum()
    }

    /// The standard positions and the edge cases, each at its deepest published count
    /// within [`LEAF_BUDGET`].
    fn standard_and_edge_cases() -> Vec<Case> {
        let standard = common::epd::load("standard-perft.epd");
        let tricky = common::epd::load("tricky-perft.epd");
        let edge = EDGE_CASES.iter().map(|id| {
            tricky
                .iter()
                .find(|case| case.id == *id)
                .unwrap_or_else(|| panic!("{id} in tricky-perft.epd"))
        });
        standard
            .iter()
            .chain(edge)
            .map(|case| {
                let pos = Position::from_fen(&case.fen).expect("a valid FEN");
                let (depth, count) = (case.counts.iter().copied())
                    .filter(|&(depth, n)| depth <= MAX_DEPTH && n <= LEAF_BUDGET)
                    .max()
                    .unwrap_or_else(|| panic!("{}: no count within the budget", case.id));
                (pos, depth, count)
            })
            .collect()
    }

    #[test]
    fn perft_with_every_make_checked_in_every_variant() {
        set_slow_checks(true);
        let cases = standard_and_edge_cases();
        for (pos, depth, count) in &cases {
            let keyed = keyed_perft(pos, pos.key(), *depth);
            assert_eq!(keyed, *count, "{}", pos.to_fen());
        }
        // Their counts are the keyed make's (`tests/chess960.rs` checks such counts against
        // shakmaty's).
        let chess960: Vec<Case> = CHESS960
            .iter()
            .map(|&(fen, depth)| {
                let pos = Position::from_fen_chess960(fen).expect("a valid FEN");
                (pos, depth, keyed_perft(&pos, pos.key(), depth))
            })
            .collect();
        for variant in Variant::all() {
            variant.dispatch(Checked(&cases));
            if variant.repr == Repr::Ccr {
                variant.dispatch(Checked(&chess960));
            }
        }
    }
}
