//! The standard test positions by name (the six of `tests/data/standard-perft.epd`), written
//! out once for the unit tests, integration tests and benches, the reader of the perft
//! files (`parse_perft`) and the seeded random games (`random_game`) they all use.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};

use crate::ccr::board::Position;
use crate::ccr::fen::{FenError, data_lines};
use crate::types::{Move, MoveKind, PieceCode, PieceType};

/// The initial position.
pub use crate::ccr::fen::STARTPOS;

/// "Kiwipete" (position 2): castling both ways, pins, en passant and promotions near.
pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// Position 3: a rook and pawn ending rich in en passant and checks along the rank.
pub const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
/// Position 4: promotions, and castling rights of one side only.
pub const POSITION_4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
/// Position 5: a promotion with capture and a knight check next to the king.
pub const POSITION_5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
/// Position 6: a symmetrical middlegame.
pub const POSITION_6: &str =
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

/// The six standard positions in file order.
pub const STANDARD: [&str; 6] = [
    STARTPOS, KIWIPETE, POSITION_3, POSITION_4, POSITION_5, POSITION_6,
];

/// One line of a perft file (`tests/data/*.epd`): `FEN ;D1 20 ;D2 400 … ;id name`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// The FEN (everything before the first `;`).
    pub fen: String,
    /// The `;id` name, or the FEN when the line has none.
    pub id: String,
    /// The published perft counts as (depth, count), in file order.
    pub counts: Vec<(u32, u64)>,
}

impl PerftCase {
    /// The published count at `depth`, if the line has one.
    pub fn count(&self, depth: u32) -> Option<u64> {
        self.counts
            .iter()
            .find(|&&(d, _)| d == depth)
            .map(|&(_, n)| n)
    }
}

/// The positions of a perft file's text, in order; blank lines and `#` comments are skipped.
/// Fails on a count that is not `Dn count`, naming its line.
pub fn parse_perft(text: &str) -> Result<Vec<PerftCase>, String> {
    let mut cases = Vec::new();
    for (number, line) in data_lines(text) {
        let mut fields = line.split(';').map(str::trim);
        let fen = fields.next().unwrap_or_default().to_string();
        let (mut id, mut counts) = (fen.clone(), Vec::new());
        for field in fields {
            if let Some(name) = field.strip_prefix("id ") {
                id = name.trim().to_string();
            } else if let Some(rest) = field.strip_prefix('D') {
                let count = rest
                    .split_once(' ')
                    .and_then(|(d, n)| Some((d.parse().ok()?, n.trim().parse().ok()?)));
                counts.push(
                    count.ok_or_else(|| format!("line {number}: '{field}' is not `Dn count`"))?,
                );
            }
        }
        cases.push(PerftCase { fen, id, counts });
    }
    Ok(cases)
}

/// The FEN of `fen`'s position with the colours swapped and the board mirrored rank for rank,
/// its clocks reset: the position an evaluation must score the same from the other side.
/// Fails as [`Position::from_fen`] does on a FEN that is not a position.
pub fn mirror(fen: &str) -> Result<String, FenError> {
    Position::from_fen(fen)?;
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let ranks: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|r| r.chars().map(swap).collect())
        .collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let castling: String = fields[2].chars().map(swap).collect();
    let ep = match fields[3] {
        "-" => "-".to_string(),
        sq => format!("{}{}", &sq[..1], if &sq[1..] == "3" { 6 } else { 3 }),
    };
    Ok(format!("{} {side} {castling} {ep} 0 1", ranks.join("/")))
}

/// Plays a seeded random game from `start`, its moves picked by `choose_move`: `visit`
/// sees every position (the start's too) with its legal moves and the moves that led to
/// it, and the game ends at a position without a legal move, at a halfmove clock of 100,
/// after `max_plies` moves or where `visit` returns `false`. Returns the moves played.
pub fn random_game(
    start: Position,
    seed: u64,
    max_plies: usize,
    mut visit: impl FnMut(&Position, &[Move], &[Move]) -> bool,
) -> Vec<Move> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut pos, mut line) = (start, Vec::new());
    loop {
        let legal = pos.legal_moves();
        let legal = legal.as_slice();
        if !visit(&pos, legal, &line)
            || legal.is_empty()
            || pos.halfmove_clock() >= 100
            || line.len() == max_plies
        {
            return line;
        }
        let mv = choose_move(&pos, legal, &mut rng);
        pos.play(mv);
        line.push(mv);
    }
}

/// [`random_game`] `games` times from each of `fens`, game `g` of the `s`th position seeded
/// with `seed + 1000 s + g`: `start` makes a game's state from its first position, and
/// `visit` sees it with each position of the game, as [`random_game`]'s does.
#[cfg(test)]
pub(crate) fn random_games<T>(
    fens: impl IntoIterator<Item = impl AsRef<str>>,
    games: u64,
    seed: u64,
    max_plies: usize,
    mut start: impl FnMut(&Position) -> T,
    mut visit: impl FnMut(&mut T, &Position, &[Move], &[Move]) -> bool,
) {
    for (s, fen) in fens.into_iter().enumerate() {
        let fen = fen.as_ref();
        let first = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for game in 0..games {
            let mut state = start(&first);
            random_game(
                first,
                seed + 1000 * s as u64 + game,
                max_plies,
                |pos, legal, line| visit(&mut state, pos, legal, line),
            );
        }
    }
}

/// Picks a random move of `moves`, biased toward pawn moves and captures (each weighs
/// four times a quiet piece move, a pawn capture sixteen times, castling twice), so the
/// games reach promotions, en passant and thinned-out endings instead of shuffling pieces
/// until the fifty-move rule.
fn choose_move(pos: &Position, moves: &[Move], rng: &mut Xoshiro256PlusPlus) -> Move {
    let weight = |mv: Move| -> u64 {
        let pawn = pos.board().get(mv.from()).piece_type() == Some(PieceType::Pawn);
        let capture =
            pos.board().get(mv.to()) != PieceCode::EMPTY || mv.kind() == MoveKind::EnPassant;
        (if pawn { 4 } else { 1 }) * (if capture { 4 } else { 1 })
            + u64::from(mv.kind() == MoveKind::Castle)
    };
    let total: u64 = moves.iter().map(|&mv| weight(mv)).sum();
    let mut pick = rng.next_u64() % total;
    for &mv in moves {
        let w = weight(mv);
        if pick < w {
            return mv;
        }
        pick -= w;
    }
    unreachable!("the pick is below the total weight")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The six standard positions are those of the perft file, in its order.
    #[test]
    fn standard_is_the_perft_file() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/standard-perft.epd");
        let cases = parse_perft(&std::fs::read_to_string(path).unwrap()).unwrap();
        let fens: Vec<&str> = cases.iter().map(|case| case.fen.as_str()).collect();
        assert_eq!(fens, STANDARD);
        assert_eq!(cases[1].id, "kiwipete");
        assert_eq!(cases[0].count(1), Some(20));
    }

    #[test]
    fn a_malformed_count_names_its_line() {
        let error = parse_perft("# comment\nfen ;D1 20 ;D2 x").unwrap_err();
        assert_eq!(error, "line 2: 'D2 x' is not `Dn count`");
    }
}
