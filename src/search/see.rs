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
//!
//! The search never needs an exchange's value, only whether it reaches a threshold (a
//! capture that does not lose; a move that loses no more than a pruning margin):
//! [`see_at_least`] answers that and stops as soon as the answer is sure.

use crate::bitboard::tables::KNIGHT_STEPS;
use crate::ccr::Position;
use crate::ccr::attacks::AttackBlock;
use crate::ccr::board::{Ccr, occupied_nibbles};
use crate::types::{Colour, Move, MoveKind, PieceCode, PieceType, Square};

/// Piece values of the exchange, by type bits ([`PieceType::bits`], 1 = pawn … 6 = king; 0
/// for the empty square): knight and bishop alike, so that trading one for the other is even.
pub const SEE_VALUES: [i32; 8] = [0, 100, 325, 325, 500, 900, 20_000, 0];

/// The value of a piece type in the exchange.
#[inline]
pub fn see_value(piece_type: PieceType) -> i32 {
    SEE_VALUES[piece_type.bits() as usize & 7]
}

/// The value in the exchange of the piece a code holds, 0 for the empty square.
#[inline]
pub fn see_value_of(code: PieceCode) -> i32 {
    SEE_VALUES[code.type_bits() as usize]
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

/// Whether rank word `word` and nibble column `col` (0 = file h) lie on the board.
#[inline(always)]
fn on_board(word: i8, col: i8) -> bool {
    // A negative coordinate turns the union negative, so its byte reads 128 or more.
    ((word | col) as u8) < 8
}

/// The code on nibble column `col` of rank word `word` (both on the board).
#[inline(always)]
fn nibble(board: &Ccr, word: i8, col: i8) -> PieceCode {
    PieceCode::from_nibble(board.words()[word as usize] >> (4 * col as u32))
}

/// The code at rank word `word` and nibble column `col`, empty off the board.
#[inline(always)]
fn code_at(board: &Ccr, word: i8, col: i8) -> PieceCode {
    if on_board(word, col) {
        nibble(board, word, col)
    } else {
        PieceCode::EMPTY
    }
}

/// The square of rank word `word` and nibble column `col`.
#[inline(always)]
fn square(word: i8, col: i8) -> Square {
    Square::new((word * 8 + col) as u8)
}

/// The first piece from `(word, col)` along the step `(dw, dc)`: its word, column and code.
///
/// Along the rank it is one bit scan of the rank word's occupied nibbles, as the move
/// generator finds a rook's targets; along the other lines the walk reads one nibble per
/// rank word.
#[inline(always)]
fn first_piece(board: &Ccr, word: i8, col: i8, dw: i8, dc: i8) -> Option<(i8, i8, PieceCode)> {
    if dw == 0 {
        let occupied = occupied_nibbles(board.words()[word as usize]);
        let shift = 4 * col as u32;
        let beyond = if dc > 0 {
            occupied & ((u32::MAX << shift) << 4)
        } else {
            occupied & ((1 << shift) - 1)
        };
        if beyond == 0 {
            return None;
        }
        let bit = if dc > 0 {
            beyond.trailing_zeros()
        } else {
            31 - beyond.leading_zeros()
        };
        let col = (bit / 4) as i8;
        return Some((word, col, nibble(board, word, col)));
    }
    let (mut w, mut c) = (word + dw, col + dc);
    while on_board(w, c) {
        let code = nibble(board, w, c);
        if code.code() != 0 {
            return Some((w, c, code));
        }
        w += dw;
        c += dc;
    }
    None
}

/// The cheapest piece of `side` on `board` that reaches `target`, with its square and type
/// (the king last).
///
/// Steps are given as (file, rank); on the board a file step of +1 is a column step of −1
/// (file a is the high nibble) and a rank step of +1 a word step of −1 (rank 8 is word 0).
fn cheapest_attacker(board: &Ccr, target: Square, side: Colour) -> Option<(Square, PieceType)> {
    let (word, col) = (target.word() as i8, (target.shift() / 4) as i8);
    let own = |piece_type: PieceType| PieceCode::new(side, piece_type);
    // A white pawn takes toward rank 8, so it stands one rank below the target.
    let pawn_word = match side {
        Colour::White => word + 1,
        Colour::Black => word - 1,
    };
    for df in [-1, 1] {
        if code_at(board, pawn_word, col - df) == own(PieceType::Pawn) {
            return Some((square(pawn_word, col - df), PieceType::Pawn));
        }
    }
    for (df, dr) in KNIGHT_STEPS {
        if code_at(board, word - dr, col - df) == own(PieceType::Knight) {
            return Some((square(word - dr, col - df), PieceType::Knight));
        }
    }
    // The first piece on each line, if it is a slider of `side` that moves along that line.
    let mut best: Option<(Square, PieceType)> = None;
    for (line, &(df, dr)) in LINES.iter().enumerate() {
        let Some((w, c, piece)) = first_piece(board, word, col, -dr, -df) else {
            continue;
        };
        let slider = if line < 4 {
            PieceType::Rook
        } else {
            PieceType::Bishop
        };
        let piece_type = if piece == own(slider) {
            slider
        } else if piece == own(PieceType::Queen) {
            PieceType::Queen
        } else {
            continue;
        };
        if best.is_none_or(|(_, b)| see_value(piece_type) < see_value(b)) {
            best = Some((square(w, c), piece_type));
        }
    }
    if best.is_some() {
        return best;
    }
    LINES
        .iter()
        .find(|&&(df, dr)| code_at(board, word - dr, col - df) == own(PieceType::King))
        .map(|&(df, dr)| (square(word - dr, col - df), PieceType::King))
}

/// Whether the node's attack table shows that no piece of `them` can take on the target of
/// `mv`, a quiet move or a capture other than en passant: `them` attacks neither its target
/// nor its origin. Then [`see`] of it is what it captures (0 for a quiet move) without
/// running the exchange.
///
/// The table was built with the mover on its origin. Moving it can open only the line
/// through the origin, and a slider on that line attacks the origin already (sliders attack
/// the first occupied square, whoever stands there, so the table also holds every defender
/// of a piece on the target). En passant is left out: it also empties the captured pawn's
/// square.
#[inline]
pub fn is_unchallenged(block: &AttackBlock, them: Colour, mv: Move) -> bool {
    !block.is_attacked(them, mv.to()) && !block.is_attacked(them, mv.from())
}

/// An exchange after its first capture, made on a copy of the rank words.
struct FirstCapture {
    /// The rank words with the move made (an en passant pawn lifted off).
    board: Ccr,
    /// What the move took, a promotion counting what the pawn became less the pawn.
    captured: i32,
    /// The value of the piece now on the target.
    on_target: i32,
    /// The side to recapture.
    side: Colour,
}

/// Makes `mv`, the exchange's first capture, on a copy of the rank words.
#[inline(always)]
fn first_capture(pos: &Position, mv: Move) -> FirstCapture {
    let mut board = *pos.board();
    let (from, target) = (mv.from(), mv.to());
    let mover = board.get(from);
    let mut captured = see_value_of(board.get(target));
    if mv.kind() == MoveKind::Castle {
        // The only piece a castling king lands on is its own Chess960 rook.
        captured = 0;
    }
    if mv.kind() == MoveKind::EnPassant {
        captured = see_value(PieceType::Pawn);
        board.set(
            Square::from_file_rank(target.file(), from.rank()),
            PieceCode::EMPTY,
        );
    }
    let mut on_target = see_value_of(mover);
    if let Some(promoted) = mv.promotion() {
        captured += see_value(promoted) - see_value(PieceType::Pawn);
        on_target = see_value(promoted);
    }
    board.set(from, PieceCode::EMPTY);
    board.set(target, mover);
    FirstCapture {
        board,
        captured,
        on_target,
        side: mover.colour().flip(),
    }
}

/// `side` recaptures on `target` with its cheapest piece, lifting it off its square (so an
/// X-ray behind it counts next); returns its type, or `None` if `side` has none there or
/// only the king while the other side still reaches the square.
#[inline(always)]
fn recapture(board: &mut Ccr, target: Square, side: Colour) -> Option<PieceType> {
    let (sq, piece_type) = cheapest_attacker(board, target, side)?;
    board.set(sq, PieceCode::EMPTY);
    board.set(target, PieceCode::new(side, piece_type));
    if piece_type == PieceType::King && cheapest_attacker(board, target, side.flip()).is_some() {
        return None;
    }
    Some(piece_type)
}

/// The material `mv` wins (negative: loses) on its target square when both sides recapture
/// there, cheapest piece first, as long as it pays them.
pub fn see(pos: &Position, mv: Move) -> i32 {
    let FirstCapture {
        mut board,
        captured,
        mut on_target,
        mut side,
    } = first_capture(pos, mv);
    let target = mv.to();
    // `gains[i]`: what the side making capture i has won so far if the exchange stopped
    // right after it.
    let mut gains = [0i32; 32];
    gains[0] = captured;
    let mut captures = 1;
    while captures < gains.len() {
        let Some(piece_type) = recapture(&mut board, target, side) else {
            break;
        };
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

/// Whether the exchange of `mv` ends at `threshold` or better for the side that moves
/// (`see(pos, mv) >= threshold`), stopping as soon as that is sure.
///
/// `swap` is how far past the threshold, in its own favour, the result would end if the side
/// to capture took the piece on the target and the exchange stopped there. Each capture
/// turns the answer; once the side to capture cannot get past the threshold that way (a tie
/// counts for the side that moved), the answer stands as the last capture left it. Before
/// any recapture it is often known from the move alone: the exchange cannot end above what
/// the move captures, nor below that less the piece it puts on the square.
pub fn see_at_least(pos: &Position, mv: Move, threshold: i32) -> bool {
    let FirstCapture {
        mut board,
        captured,
        on_target,
        mut side,
    } = first_capture(pos, mv);
    let target = mv.to();
    let mut swap = captured - threshold;
    if swap < 0 {
        return false;
    }
    swap = on_target - swap;
    if swap <= 0 {
        return true;
    }
    // The answer if the exchange stopped before `side` captured.
    let mut at_least = true;
    while let Some(piece_type) = recapture(&mut board, target, side) {
        at_least = !at_least;
        swap = see_value(piece_type) - swap;
        if swap < i32::from(at_least) {
            break;
        }
        side = side.flip();
    }
    at_least
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        see(&pos, pos.parse_uci_move(uci).unwrap())
    }

    #[test]
    fn a_move_the_table_shows_unchallenged_wins_what_it_captures() {
        // Kiwipete, positions 3 and 4 (both colours), and rooks facing on a file.
        let fens = [
            &crate::positions::STANDARD[1..4],
            &[
                "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
                "3r2k1/8/8/8/8/8/3R4/3K4 w - - 0 1",
            ],
        ]
        .concat();
        let mut unchallenged = 0;
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let block = AttackBlock::new(pos.board());
            for &mv in pos.legal_moves().as_slice() {
                let plain = mv.kind() != MoveKind::EnPassant && mv.promotion().is_none();
                if plain && is_unchallenged(&block, pos.side().flip(), mv) {
                    unchallenged += 1;
                    let captured = see_value_of(pos.board().get(mv.to()));
                    assert_eq!(see(&pos, mv), captured, "{fen} {mv}");
                }
            }
        }
        assert!(unchallenged > 20, "only {unchallenged} moves were tested");
        // Rd7-d5 walks away from the black rook on d8 along its file: d5 is not attacked
        // before the move, but the rook takes there after it. The table shows the rook
        // attacking d7, the origin, so the move is not taken as unchallenged.
        let pos = Position::from_fen("3r2k1/3R4/8/8/8/8/8/3K4 w - - 0 1").unwrap();
        let block = AttackBlock::new(pos.board());
        let mv = pos.parse_uci_move("d7d5").unwrap();
        assert!(!block.is_attacked(Colour::Black, mv.to()));
        assert!(!is_unchallenged(&block, Colour::Black, mv));
        assert_eq!(see(&pos, mv), -500);
    }

    #[test]
    fn the_threshold_test_agrees_with_the_exchange() {
        let fens = [
            crate::positions::KIWIPETE,
            crate::positions::POSITION_4,
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
            "3r2k1/2n5/8/3p4/8/8/3R4/3R2K1 w - - 0 1",
            "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq e6 0 4",
        ];
        let (mut at, mut below) = (0, 0);
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            for &mv in pos.legal_moves().as_slice() {
                let exchange = see(&pos, mv);
                for threshold in (-1000..=1000).step_by(25) {
                    let expected = exchange >= threshold;
                    (at, below) = if expected {
                        (at + 1, below)
                    } else {
                        (at, below + 1)
                    };
                    assert_eq!(
                        see_at_least(&pos, mv, threshold),
                        expected,
                        "{fen} {mv} {threshold}"
                    );
                }
                for threshold in [exchange - 1, exchange, exchange + 1] {
                    assert_eq!(
                        see_at_least(&pos, mv, threshold),
                        exchange >= threshold,
                        "{fen} {mv} {threshold}"
                    );
                }
            }
        }
        assert!(at > 1000 && below > 1000, "{at} at or above, {below} below");
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
