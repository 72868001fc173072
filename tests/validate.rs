//! The position invariants: perft over the six standard positions with every node checked
//! in full by `validate` (in any build; make's own `debug_assert!` runs in debug builds only
//! and checks only what the move could have broken), and one hand-broken position per
//! invariant, so that the checks are seen to fail.

mod common;

use ccr::bitboard::Bitboards;
use ccr::ccr::{CastlingRights, Invariant, Position};
use ccr::moves::MoveList;
use ccr::positions::{STANDARD, STARTPOS};
use ccr::repr::Representation;
use ccr::types::{Colour, PieceCode, Square};
use ccr::x88::X88;

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

/// The position `fen` with `corrupt` applied, validated.
fn broken(fen: &str, corrupt: impl FnOnce(&mut Position)) -> Result<(), Invariant> {
    let mut pos = position(fen);
    corrupt(&mut pos);
    pos.validate()
}

const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";

#[test]
fn codes_that_are_no_piece() {
    for code in [7, 8, 15] {
        assert_eq!(
            broken(STARTPOS, |p| p.board.set(square("e4"), PieceCode(code))),
            Err(Invariant::BadCode(square("e4"))),
            "code {code}"
        );
    }
}

#[test]
fn king_count_and_cached_king_square() {
    assert_eq!(
        broken(STARTPOS, |p| p.board.set(square("e1"), PieceCode::EMPTY)),
        Err(Invariant::KingCount {
            colour: Colour::White,
            count: 0
        })
    );
    assert_eq!(
        broken(STARTPOS, |p| p.board.set(
            square("e5"),
            PieceCode::new(Colour::Black, PieceCode::KING)
        )),
        Err(Invariant::KingCount {
            colour: Colour::Black,
            count: 2
        })
    );
    assert_eq!(
        broken(STARTPOS, |p| p.kings[Colour::Black as usize] = square("d8")),
        Err(Invariant::KingSquare(Colour::Black))
    );
}

#[test]
fn pawn_on_a_back_rank() {
    assert_eq!(
        broken("4k3/8/8/8/8/8/8/4K3 w - - 0 1", |p| p.board.set(
            square("a1"),
            PieceCode::new(Colour::Black, PieceCode::PAWN)
        )),
        Err(Invariant::PawnOnBackRank(square("a1")))
    );
}

#[test]
fn material_no_game_reaches() {
    assert_eq!(
        broken(STARTPOS, |p| p.board.set(
            square("e4"),
            PieceCode::new(Colour::White, PieceCode::PAWN)
        )),
        Err(Invariant::ImpossibleMaterial(Colour::White))
    );
}

#[test]
fn castling_rights_against_the_pieces() {
    assert_eq!(
        broken(STARTPOS, |p| p.castling = CastlingRights(0x1F)),
        Err(Invariant::CastlingBits(0x1F))
    );
    for (emptied, letter) in [("h1", 'K'), ("a1", 'Q'), ("h8", 'k'), ("a8", 'q')] {
        assert_eq!(
            broken(STARTPOS, |p| p.board.set(square(emptied), PieceCode::EMPTY)),
            Err(Invariant::CastlingWithoutPieces(letter)),
            "{emptied}"
        );
    }
    // The king off its home square breaks both rights of its side; K is checked first.
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(
        broken(fen, |p| {
            p.board.set(square("e1"), PieceCode::EMPTY);
            p.board
                .set(square("f1"), PieceCode::new(Colour::White, PieceCode::KING));
            p.kings[Colour::White as usize] = square("f1");
        }),
        Err(Invariant::CastlingWithoutPieces('K'))
    );
}

#[test]
fn en_passant_square_that_no_push_made() {
    // A file without the pushed pawn, the skipped square for the wrong side, the skipped
    // square occupied, and the square the pawn came from occupied.
    assert_eq!(
        broken(AFTER_E4, |p| p.en_passant = Some(square("d3"))),
        Err(Invariant::EnPassantSquare(square("d3")))
    );
    assert_eq!(
        broken(AFTER_E4, |p| p.side = Colour::White),
        Err(Invariant::EnPassantSquare(square("e3")))
    );
    assert_eq!(
        broken(AFTER_E4, |p| {
            p.board.set(square("g1"), PieceCode::EMPTY);
            p.board.set(
                square("e3"),
                PieceCode::new(Colour::White, PieceCode::KNIGHT),
            );
        }),
        Err(Invariant::EnPassantSquare(square("e3")))
    );
    assert_eq!(
        broken(AFTER_E4, |p| {
            p.board.set(square("d2"), PieceCode::EMPTY);
            p.board
                .set(square("e2"), PieceCode::new(Colour::White, PieceCode::PAWN));
        }),
        Err(Invariant::EnPassantSquare(square("e3")))
    );
}

#[test]
fn clocks_out_of_range() {
    assert_eq!(
        broken(STARTPOS, |p| p.halfmove_clock = 151),
        Err(Invariant::HalfmoveClock(151))
    );
    assert_eq!(broken(STARTPOS, |p| p.halfmove_clock = 150), Ok(()));
    for n in [0, 10_001] {
        assert_eq!(
            broken(STARTPOS, |p| p.fullmove_number = n),
            Err(Invariant::FullmoveNumber(n))
        );
    }
}

#[test]
fn side_not_to_move_in_check() {
    assert_eq!(
        broken("4k3/8/8/8/8/8/8/4RK2 b - - 0 1", |p| p.side = Colour::White),
        Err(Invariant::OpponentInCheck)
    );
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
