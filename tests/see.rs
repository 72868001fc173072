//! The static exchange evaluation against an independent one: the same exchange (cheapest
//! recapture first, each side free to stop, the king never recapturing onto a square the
//! other side still reaches) played out recursively on cozy-chess bitboards, its attackers
//! found by cozy-chess's own attack functions. Every legal move of the perft trees of the
//! standard and tricky positions and of seeded random games is compared. The walk counts the
//! X-rays and the refused king recaptures it met and fails unless it met both, so a gap in
//! the positions cannot pass for agreement.
//!
//! The attack table's shortcut is held to the same oracle: where `is_unchallenged` says
//! nothing can take back, the exchange must be worth exactly what the move captures. The
//! walk also counts the moves whose target the table shows free but whose origin it shows
//! attacked, and that lose material after all (a slider behind the mover): the case the
//! origin test is there for.
//!
//! The threshold test the search asks (`see_at_least`) is held to the oracle's value at the
//! value itself, one either side of it, and the search's own thresholds.

use crate::common;

use ccr::kernels::see::{is_unchallenged, see, see_at_least, see_value};
use ccr::{AttackBlock, MoveKind, PieceType, Position};
use common::epd;
use common::games::standard_games;
use cozy_chess::{BitBoard, Board, Color, Piece, Square};

/// The exchange's piece values in the oracle's own terms.
fn value(piece: Piece) -> i32 {
    let piece_type = match piece {
        Piece::Pawn => PieceType::Pawn,
        Piece::Knight => PieceType::Knight,
        Piece::Bishop => PieceType::Bishop,
        Piece::Rook => PieceType::Rook,
        Piece::Queen => PieceType::Queen,
        Piece::King => PieceType::King,
    };
    see_value(piece_type)
}

/// What the oracle met along the way.
#[derive(Default, Debug)]
struct Seen {
    moves: u64,
    losing: u64,
    x_rays: u64,
    king_refused: u64,
    unchallenged: u64,
    uncovered: u64,
}

/// The exchange on one square: the pieces still on the board and what stands on the target.
struct Exchange<'a> {
    board: &'a Board,
    occupied: BitBoard,
    target: Square,
    /// The attackers at the start, to tell an X-ray from a direct attacker.
    first_attackers: BitBoard,
}

impl Exchange<'_> {
    /// Every piece of `side` still on the board that reaches the target.
    fn attackers(&self, side: Color) -> BitBoard {
        let b = self.board;
        let occ = self.occupied;
        let t = self.target;
        let diagonal = b.pieces(Piece::Bishop) | b.pieces(Piece::Queen);
        let orthogonal = b.pieces(Piece::Rook) | b.pieces(Piece::Queen);
        let all = (cozy_chess::get_pawn_attacks(t, !side) & b.pieces(Piece::Pawn))
            | (cozy_chess::get_knight_moves(t) & b.pieces(Piece::Knight))
            | (cozy_chess::get_king_moves(t) & b.pieces(Piece::King))
            | (cozy_chess::get_bishop_moves(t, occ) & diagonal)
            | (cozy_chess::get_rook_moves(t, occ) & orthogonal);
        all & b.colors(side) & occ
    }

    /// The best `side` can gain by capturing on the target, where a piece worth
    /// `on_target` stands (0 if it does better not to).
    fn gain(&mut self, side: Color, on_target: i32, seen: &mut Seen) -> i32 {
        let attackers = self.attackers(side);
        let cheapest = Piece::ALL.into_iter().find_map(|p| {
            (attackers & self.board.pieces(p))
                .next_square()
                .map(|sq| (sq, p))
        });
        let Some((sq, piece)) = cheapest else {
            return 0;
        };
        let before = self.occupied;
        self.occupied ^= sq.bitboard();
        if piece == Piece::King && !self.attackers(!side).is_empty() {
            seen.king_refused += 1;
            self.occupied = before;
            return 0;
        }
        if !self.first_attackers.has(sq) {
            seen.x_rays += 1;
        }
        let gain = on_target - self.gain(!side, value(piece), seen);
        self.occupied = before;
        gain.max(0)
    }
}

/// The oracle's exchange value of `mv` (given in UCI) in the position `fen`.
fn oracle(fen: &str, from: Square, to: Square, promotion: Option<Piece>, seen: &mut Seen) -> i32 {
    let board: Board = fen.parse().unwrap();
    let mover = board.piece_on(from).unwrap();
    let side = board.side_to_move();
    let mut occupied = board.occupied() ^ from.bitboard();
    let mut captured = board.piece_on(to).map_or(0, value);
    if mover == Piece::Pawn && from.file() != to.file() && board.piece_on(to).is_none() {
        // En passant: the taken pawn stands beside the mover.
        captured = value(Piece::Pawn);
        occupied ^= Square::new(to.file(), from.rank()).bitboard();
    }
    let mut on_target = value(mover);
    if let Some(p) = promotion {
        captured += value(p) - value(Piece::Pawn);
        on_target = value(p);
    }
    occupied |= to.bitboard();
    let mut exchange = Exchange {
        board: &board,
        occupied,
        target: to,
        first_attackers: BitBoard::EMPTY,
    };
    exchange.first_attackers = exchange.attackers(!side) | exchange.attackers(side);
    captured - exchange.gain(!side, on_target, seen)
}

fn cozy_square(sq: ccr::Square) -> Square {
    Square::index(8 * sq.rank() as usize + sq.file() as usize)
}

fn promotion_piece(kind: MoveKind) -> Option<Piece> {
    match kind {
        MoveKind::PromoteKnight => Some(Piece::Knight),
        MoveKind::PromoteBishop => Some(Piece::Bishop),
        MoveKind::PromoteRook => Some(Piece::Rook),
        MoveKind::PromoteQueen => Some(Piece::Queen),
        _ => None,
    }
}

/// Compares the two evaluations for every legal move of `pos`.
fn check_moves(pos: &Position, seen: &mut Seen) {
    let fen = pos.to_fen();
    let block = AttackBlock::new(pos.board());
    let them = pos.side().flip();
    for &mv in pos.legal_moves().as_slice() {
        if mv.kind() == MoveKind::Castle {
            continue;
        }
        let expected = oracle(
            &fen,
            cozy_square(mv.from()),
            cozy_square(mv.to()),
            promotion_piece(mv.kind()),
            seen,
        );
        assert_eq!(see(pos, mv), expected, "see({mv}) in {fen}");
        for threshold in [
            expected - 1,
            expected,
            expected + 1,
            0,
            -60,
            -120,
            -180,
            -320,
        ] {
            assert_eq!(
                see_at_least(pos, mv, threshold),
                expected >= threshold,
                "see_at_least({mv}, {threshold}) in {fen}"
            );
        }
        seen.moves += 1;
        seen.losing += (expected < 0) as u64;
        if mv.kind() != MoveKind::EnPassant && mv.promotion().is_none() {
            let captured = pos.board().get(mv.to()).piece_type().map_or(0, see_value);
            if is_unchallenged(&block, them, mv) {
                assert_eq!(expected, captured, "is_unchallenged({mv}) in {fen}");
                seen.unchallenged += 1;
            } else if !block.is_attacked(them, mv.to()) && expected < captured {
                seen.uncovered += 1;
            }
        }
    }
}

fn walk(pos: &Position, depth: u32, seen: &mut Seen) {
    check_moves(pos, seen);
    if depth > 1 {
        for &mv in pos.legal_moves().as_slice() {
            walk(&pos.make(mv), depth - 1, seen);
        }
    }
}

fn assert_met_everything(seen: &Seen) {
    assert!(seen.losing > 0, "{seen:?}");
    assert!(seen.x_rays > 0, "{seen:?}");
    assert!(seen.king_refused > 0, "{seen:?}");
    assert!(seen.unchallenged > 0, "{seen:?}");
    assert!(seen.uncovered > 0, "{seen:?}");
}

#[test]
fn see_equals_the_bitboard_exchange_in_the_perft_trees() {
    let mut seen = Seen::default();
    for (_, pos) in epd::perft_positions() {
        walk(&pos, 3, &mut seen);
    }
    eprintln!("perft trees: {seen:?}");
    assert_met_everything(&seen);
}

#[test]
fn see_equals_the_bitboard_exchange_in_random_games() {
    let mut seen = Seen::default();
    let positions = standard_games(0x5EE0_0000, |pos| check_moves(pos, &mut seen));
    eprintln!("{positions} random-game positions: {seen:?}");
    assert_met_everything(&seen);
}
