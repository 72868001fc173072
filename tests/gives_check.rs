//! `Position::gives_check` against making the move and looking: for every legal move of
//! the perft trees of the standard and tricky positions and of seeded random games, the
//! answer must equal `make(mv).in_check()`. The walk also counts the kinds of check it
//! met, and fails unless it met each one (discovered, en passant, castling, promotion to
//! a knight), so that a gap in the test cannot pass for agreement.

use crate::common;

use ccr::kernels::frame::is_attacked;
use ccr::{MoveKind, PieceCode, Position};
use common::epd;
use common::games::standard_games;

/// The checks the walk met, by kind (a move may count under several).
#[derive(Default, Debug)]
struct Seen {
    moves: u64,
    checks: u64,
    discovered: u64,
    en_passant: u64,
    castling: u64,
    knight_promotion: u64,
}

impl Seen {
    /// Fails the test unless the walk met every kind of check.
    fn assert_met_every_kind(&self) {
        let Seen {
            discovered,
            en_passant,
            castling,
            knight_promotion,
            ..
        } = *self;
        let kinds = [discovered, en_passant, castling, knight_promotion];
        assert!(kinds.iter().all(|&n| n > 0), "{self:?}");
    }
}

/// Compares the two answers for every legal move of `pos` and counts the checks.
fn check_moves(pos: &Position, seen: &mut Seen) {
    let us = pos.side();
    for &mv in pos.legal_moves().as_slice() {
        let child = pos.make(mv);
        let made = child.in_check();
        assert_eq!(
            pos.gives_check(mv),
            made,
            "gives_check({mv}) in {}",
            pos.to_fen()
        );
        seen.moves += 1;
        if !made {
            continue;
        }
        seen.checks += 1;
        // Discovered: the king is still attacked with the moved piece taken off its target.
        let mut board = *child.board();
        board.set(mv.to(), PieceCode::EMPTY);
        if is_attacked(&board, child.king(us.flip()), us) {
            seen.discovered += 1;
        }
        match mv.kind() {
            MoveKind::EnPassant => seen.en_passant += 1,
            MoveKind::Castle => seen.castling += 1,
            MoveKind::PromoteKnight => seen.knight_promotion += 1,
            _ => {}
        }
    }
}

/// Checks every position of the perft tree of `pos` down to `depth` plies.
fn walk(pos: &Position, depth: u32, seen: &mut Seen) {
    check_moves(pos, seen);
    if depth > 1 {
        for &mv in pos.legal_moves().as_slice() {
            walk(&pos.make(mv), depth - 1, seen);
        }
    }
}

#[test]
fn gives_check_equals_make_and_look_in_the_perft_trees() {
    let mut seen = Seen::default();
    // Depth 3, one more for the smaller trees (under 500 000 leaves at depth 4).
    for (case, pos) in epd::perft_positions() {
        let depth = if case.count(4).is_some_and(|n| n < 500_000) {
            4
        } else {
            3
        };
        walk(&pos, depth, &mut seen);
    }
    seen.assert_met_every_kind();
    eprintln!("perft trees: {seen:?}");
}

#[test]
fn gives_check_equals_make_and_look_in_random_games() {
    let mut seen = Seen::default();
    let positions = standard_games(0x6C4E_C000, |pos| check_moves(pos, &mut seen));
    eprintln!("{positions} random-game positions: {seen:?}");
    seen.assert_met_every_kind();
}
