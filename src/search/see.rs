//! Static exchange evaluation: what a capture wins or loses on its square if both sides go on
//! recapturing there with their cheapest piece, each free to stop when going on would cost.
//!
//! The exchange runs on a copy of the rank words. Each step finds the side's cheapest piece
//! that reaches the square, looking out from it along the eight lines (the first piece on
//! each) and to the knight, pawn and king squares, then lifts that piece off the board, so a
//! slider behind it (an X-ray) is seen on the next step. The king recaptures only onto a
//! square the other side no longer reaches. Pins are not looked at, and a pawn that
//! recaptures on the last rank stays a pawn: the usual simplifications, which keep the
//! evaluation a few dozen table reads.

use crate::ccr::Position;
use crate::ccr::board::Ccr;
use crate::types::{Colour, Move, MoveKind, PieceCode, Square};

/// Piece values of the exchange, by piece type (1 = pawn … 6 = king): knight and bishop
/// alike, so that trading one for the other is even.
pub const SEE_VALUES: [i32; 8] = [0, 100, 325, 325, 500, 900, 20_000, 0];

/// The value of a piece type in the exchange.
#[inline]
pub fn see_value(piece_type: u8) -> i32 {
    SEE_VALUES[piece_type as usize & 7]
}

/// The eight lines out of a square as (file step, rank step): the four orthogonal ones
/// first, then the four diagonals.
const LINES: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// The square `(df, dr)` away from `sq`, if it is on the board.
#[inline]
fn offset(sq: Square, df: i8, dr: i8) -> Option<Square> {
    let file = sq.file() as i8 + df;
    let rank = sq.rank() as i8 + dr;
    ((0..8).contains(&file) && (0..8).contains(&rank))
        .then(|| Square::from_file_rank(file as u8, rank as u8))
}

/// The cheapest piece of `side` on `board` that reaches `target`, with its square and type
/// (the king last).
fn cheapest_attacker(board: &Ccr, target: Square, side: Colour) -> Option<(Square, u8)> {
    let own = |sq: Square, piece_type: u8| board.get(sq) == PieceCode::new(side, piece_type);
    // A white pawn takes toward rank 8, so it stands one rank below the target.
    let pawn_rank = match side {
        Colour::White => -1,
        Colour::Black => 1,
    };
    for df in [-1, 1] {
        if let Some(sq) = offset(target, df, pawn_rank).filter(|&sq| own(sq, PieceCode::PAWN)) {
            return Some((sq, PieceCode::PAWN));
        }
    }
    for (df, dr) in KNIGHT_STEPS {
        if let Some(sq) = offset(target, df, dr).filter(|&sq| own(sq, PieceCode::KNIGHT)) {
            return Some((sq, PieceCode::KNIGHT));
        }
    }
    // The first piece on each line, if it is a slider of `side` that moves along that line.
    let mut best: Option<(Square, u8)> = None;
    for (line, &(df, dr)) in LINES.iter().enumerate() {
        let mut sq = target;
        while let Some(next) = offset(sq, df, dr) {
            sq = next;
            let piece = board.get(sq);
            if piece.code() == 0 {
                continue;
            }
            let slider = if line < 4 {
                PieceCode::ROOK
            } else {
                PieceCode::BISHOP
            };
            let piece_type = piece.piece_type();
            if piece.colour() == side
                && (piece_type == slider || piece_type == PieceCode::QUEEN)
                && best.is_none_or(|(_, b)| see_value(piece_type) < see_value(b))
            {
                best = Some((sq, piece_type));
            }
            break;
        }
    }
    if best.is_some() {
        return best;
    }
    LINES
        .iter()
        .filter_map(|&(df, dr)| offset(target, df, dr))
        .find(|&sq| own(sq, PieceCode::KING))
        .map(|sq| (sq, PieceCode::KING))
}

/// The material `mv` wins (negative: loses) on its target square when both sides recapture
/// there, cheapest piece first, as long as it pays them.
pub fn see(pos: &Position, mv: Move) -> i32 {
    let mut board = *pos.board();
    let (from, target) = (mv.from(), mv.to());
    let mover = board.get(from);
    let mut captured = see_value(board.get(target).piece_type());
    if mv.kind() == MoveKind::EnPassant {
        captured = see_value(PieceCode::PAWN);
        board.set(
            Square::from_file_rank(target.file(), from.rank()),
            PieceCode::EMPTY,
        );
    }
    // `gains[i]`: what the side making capture i has won so far if the exchange stopped
    // right after it.
    let mut gains = [0i32; 32];
    let mut on_target = see_value(mover.piece_type());
    gains[0] = captured;
    if let Some(promoted) = mv.promotion() {
        gains[0] += see_value(promoted) - see_value(PieceCode::PAWN);
        on_target = see_value(promoted);
    }
    board.set(from, PieceCode::EMPTY);
    board.set(target, mover);
    let mut side = mover.colour().flip();
    let mut captures = 1;
    while captures < gains.len() {
        let Some((sq, piece_type)) = cheapest_attacker(&board, target, side) else {
            break;
        };
        board.set(sq, PieceCode::EMPTY);
        board.set(target, PieceCode::new(side, piece_type));
        if piece_type == PieceCode::KING && cheapest_attacker(&board, target, side.flip()).is_some()
        {
            break;
        }
        gains[captures] = on_target - gains[captures - 1];
        on_target = see_value(piece_type);
        side = side.flip();
        captures += 1;
    }
    // Back from the last capture: each side takes only if it ends better than stopping.
    for i in (1..captures).rev() {
        gains[i - 1] = -(-gains[i - 1]).max(gains[i]);
    }
    gains[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        see(&pos, pos.parse_uci_move(uci).unwrap())
    }

    #[test]
    fn an_undefended_pawn_is_won() {
        assert_eq!(
            see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            100
        );
    }

    #[test]
    fn a_knight_for_a_pawn_is_lost_when_the_defenders_outnumber() {
        // Nxe5: the knight on d7 and the bishop on f6 defend e5; behind White's rook and
        // queen stand Black's queen on h8 X-raying through f6.
        let fen = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
        assert_eq!(see_of(fen, "d3e5"), 100 - 325);
    }

    #[test]
    fn an_x_ray_behind_the_capturer_counts() {
        // Rxd5 with the second rook behind it on d1; the knight on c7 and the rook on d8
        // defend d5. After Nxd5 White must not go on (Rxd5 Rxd5 would lose the second rook
        // for a knight), so the rook is lost for a pawn.
        let fen = "3r2k1/2n5/8/3p4/8/8/3R4/3R2K1 w - - 0 1";
        assert_eq!(see_of(fen, "d2d5"), 100 - 500);
        // Without the knight the second rook makes it an even trade of rooks for a pawn up.
        let fen = "3r2k1/8/8/3p4/8/8/3R4/3R2K1 w - - 0 1";
        assert_eq!(see_of(fen, "d2d5"), 100);
    }

    #[test]
    fn the_king_does_not_recapture_into_an_attack() {
        // Qxf7+: the king on g8 alone defends f7, but the bishop on c4 guards it, so the
        // king cannot take back and the pawn is won.
        let fen = "6k1/5p2/8/8/2B5/8/8/5QK1 w - - 0 1";
        assert_eq!(see_of(fen, "f1f7"), 100);
        // Without the bishop, the king takes the queen.
        let fen = "6k1/5p2/8/8/8/8/8/5QK1 w - - 0 1";
        assert_eq!(see_of(fen, "f1f7"), 100 - 900);
    }

    #[test]
    fn en_passant_and_promotion() {
        // exd6 e.p., the pawn on d6 defended by the pawn on c7: a pawn for a pawn.
        assert_eq!(
            see_of("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"),
            100 - 100
        );
        // A promotion to a queen on an undefended square wins a queen for a pawn.
        assert_eq!(see_of("7k/1P6/8/8/8/8/8/K7 w - - 0 1", "b7b8q"), 800);
    }
}
