//! Chess960 against shakmaty's Chess960 mode, an independent move generator.
//!
//! Two sets of positions: all 960 start positions (and seeded random games from them), and
//! seeded random castling setups built to stress the rules — king on any file from b to
//! g, rooks on either side, pieces between them, kings and rooks on each other's targets,
//! enemy rooks and queens on the back rank behind the castling rook. At every position
//! the legal moves (castling as the king taking its own rook), their kinds, check, the
//! check each move gives, the incremental keys and the FEN in both directions must agree;
//! sampled positions are then compared by perft(3) in every C.C.R. kernel, leaves made and
//! counted.

use crate::common;

use ccr::{
    Leaves, Move, MoveKind, Position, Repr, Representation, RookFiles, Variant, WithRepresentation,
    perft,
};
use common::games::{line_text, random_game};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};

/// A debug build (make's own invariant checks on) checks a tenth as much.
const SHARE: usize = if cfg!(debug_assertions) { 10 } else { 1 };

/// Plies of each random game from a start position at the most.
const MAX_PLIES: usize = 80 / SHARE;

/// Plies of each random game from a castling setup at the most.
const SETUP_PLIES: usize = 6;

/// The back rank of Chess960 start position `n` (0..960, Scharnagl's numbering), white's
/// pieces from file a to h.
fn start_rank(n: usize) -> [char; 8] {
    let mut rank = [' '; 8];
    let mut n = n;
    // Light-squared bishop on b, d, f or h; dark-squared on a, c, e or g.
    rank[2 * (n % 4) + 1] = 'B';
    n /= 4;
    rank[2 * (n % 4)] = 'B';
    n /= 4;
    let mut place = |piece: char, mut skip: usize| {
        for square in rank.iter_mut() {
            if *square == ' ' {
                if skip == 0 {
                    *square = piece;
                    return;
                }
                skip -= 1;
            }
        }
    };
    place('Q', n % 6);
    n /= 6;
    let (first, second) = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ][n];
    place('N', second - 1);
    place('N', first);
    for piece in ['R', 'K', 'R'] {
        place(piece, 0);
    }
    rank
}

/// The FEN of Chess960 start position `n`, castling in X-FEN (`KQkq`).
fn start_fen(n: usize) -> String {
    let white: String = start_rank(n).iter().collect();
    let black = white.to_ascii_lowercase();
    format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1")
}

/// A seeded random castling setup (it may be illegal; both sides then reject it or the
/// test skips it): each king on its back rank, a rook on either side of it or both, a few
/// pieces anywhere (back ranks included), rights in Shredder-FEN or X-FEN letters.
fn random_setup(rng: &mut Xoshiro256PlusPlus) -> String {
    let mut board = [[' '; 8]; 8];
    let mut rights = String::new();
    for (rank, upper) in [(0, true), (7, false)] {
        let king = 1 + (rng.next_u64() % 6) as usize;
        let case = |c: char| if upper { c } else { c.to_ascii_lowercase() };
        board[rank][king] = case('K');
        let sides = 1 + rng.next_u64() % 3;
        for (side, files) in [(1, (king + 1)..8), (2, 0..king)] {
            if sides & side == 0 {
                continue;
            }
            let files: Vec<usize> = files.collect();
            let file = files[(rng.next_u64() % files.len() as u64) as usize];
            board[rank][file] = case('R');
            if rng.next_u64() % 4 != 0 {
                let letter = if rng.next_u64() % 2 == 0 {
                    (b'a' + file as u8) as char
                } else if side == 1 {
                    'k'
                } else {
                    'q'
                };
                rights.push(case(letter.to_ascii_uppercase()));
            }
        }
    }
    // Extra men: more of them on the back ranks, where they block or attack castling.
    let extra = "QqRrBbNnPpPp";
    for _ in 0..(rng.next_u64() % 7) {
        let piece = extra.as_bytes()[(rng.next_u64() % extra.len() as u64) as usize] as char;
        let rank = match rng.next_u64() % 4 {
            0 => 0,
            1 => 7,
            _ => (rng.next_u64() % 8) as usize,
        };
        let file = (rng.next_u64() % 8) as usize;
        if board[rank][file] == ' '
            && !(piece.eq_ignore_ascii_case(&'p') && (rank == 0 || rank == 7))
        {
            board[rank][file] = piece;
        }
    }
    let placement: Vec<String> = (0..8)
        .rev()
        .map(|rank| {
            let mut text = String::new();
            let mut empty = 0;
            for &c in &board[rank] {
                if c == ' ' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(c);
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    let side = if rng.next_u64() % 2 == 0 { 'w' } else { 'b' };
    let rights = if rights.is_empty() {
        "-".to_string()
    } else {
        rights
    };
    format!("{} {side} {rights} - 0 1", placement.join("/"))
}

/// shakmaty's position of `fen` in Chess960 mode, if it takes it.
fn shakmaty_position(fen: &str) -> Option<Chess> {
    fen.parse::<Fen>()
        .ok()?
        .into_position(CastlingMode::Chess960)
        .ok()
}

/// shakmaty's FEN of a position (the en-passant square after every double push, as ccr).
fn sh_fen(sh: &Chess) -> String {
    Fen::from_position(sh.clone(), EnPassantMode::Always).to_string()
}

/// What one position's checks counted.
#[derive(Default, Debug)]
struct Tally {
    positions: usize,
    castles: usize,
    castles_onto_rook: usize,
    castles_from_rook_target: usize,
}

/// Compares ccr and shakmaty on one position (whose legal moves are `moves`).
fn check_position(pos: &Position, moves: &[Move], sh: &Chess, context: &str, tally: &mut Tally) {
    let notation = pos.notation(true);
    let mut ours: Vec<(String, bool)> = moves
        .iter()
        .map(|&mv| (notation.text(mv), mv.kind() == MoveKind::Castle))
        .collect();
    let mut theirs: Vec<(String, bool)> = sh
        .legal_moves()
        .iter()
        .map(|m| {
            let castle = matches!(m, shakmaty::Move::Castle { .. });
            (m.to_uci(CastlingMode::Chess960).to_string(), castle)
        })
        .collect();
    ours.sort();
    theirs.sort();
    assert_eq!(ours, theirs, "legal moves of {context}");
    assert_eq!(pos.in_check(), sh.is_check(), "check in {context}");
    // Every text reads back as its move, in Chess960 notation.
    for &mv in moves {
        assert_eq!(
            pos.parse_move(&notation.text(mv), true),
            Some(mv),
            "{context}"
        );
    }
    // The FEN both ways: ours read by shakmaty, shakmaty's read by ccr.
    let ours_fen = pos.to_fen();
    let back = Position::from_fen_chess960(&ours_fen)
        .unwrap_or_else(|e| panic!("ccr rejects its own FEN {ours_fen}: {e}"));
    assert_eq!(back, *pos, "FEN round trip of {context}");
    let theirs_of_ours = shakmaty_position(&ours_fen)
        .unwrap_or_else(|| panic!("shakmaty rejects ccr's FEN {ours_fen}"));
    assert_eq!(
        sh_fen(&theirs_of_ours),
        sh_fen(sh),
        "ccr's FEN {ours_fen} of {context}"
    );
    let from_theirs = Position::from_fen_chess960(&sh_fen(sh))
        .unwrap_or_else(|e| panic!("ccr rejects shakmaty's FEN {}: {e}", sh_fen(sh)));
    assert_eq!(
        from_theirs,
        *pos,
        "shakmaty's FEN {} of {context}",
        sh_fen(sh)
    );
    assert_eq!(from_theirs.key(), pos.key(), "key of {context}");
    // Each move: the check it gives, the incremental key, the position's invariants.
    for &mv in moves {
        let (after, key) = pos.make_keyed(mv, pos.key());
        assert_eq!(
            key,
            after.key(),
            "key after {} in {context}",
            notation.text(mv)
        );
        assert_eq!(
            pos.gives_check(mv),
            after.in_check(),
            "check by {} in {context}",
            notation.text(mv)
        );
        assert_eq!(
            after.validate(),
            Ok(()),
            "after {} in {context}",
            notation.text(mv)
        );
        if mv.kind() == MoveKind::Castle {
            tally.castles += 1;
            let (rook_from, rook_to) = pos.rook_files().castling_rook(mv);
            tally.castles_onto_rook += usize::from(rook_from == mv.to());
            tally.castles_from_rook_target +=
                usize::from(mv.from() == rook_to || mv.from() == mv.to());
        }
    }
    tally.positions += 1;
}

/// Plays a seeded random game from `fen` in ccr and shakmaty in lockstep, checking every
/// position; returns the positions for perft.
fn play(fen: &str, seed: u64, plies: usize, tally: &mut Tally) -> Vec<(Position, Chess)> {
    let start = Position::from_fen_chess960(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut sh = shakmaty_position(fen).unwrap_or_else(|| panic!("shakmaty rejects {fen}"));
    let mut seen: Vec<(Position, Chess)> = Vec::new();
    random_game(start, seed, plies, |pos, moves, line| {
        if let (Some(mv), Some((before, _))) = (line.last(), seen.last()) {
            let text = before.notation(true).text(*mv);
            let sh_move = sh
                .legal_moves()
                .iter()
                .find(|m| m.to_uci(CastlingMode::Chess960).to_string() == text)
                .cloned()
                .unwrap_or_else(|| {
                    panic!("shakmaty has no {text} after {fen} {}", line_text(line))
                });
            sh.play_unchecked(&sh_move);
        }
        let context = format!("{} after {fen} {}", pos.to_fen(), line_text(line));
        check_position(pos, moves, &sh, &context, tally);
        seen.push((*pos, sh.clone()));
        true
    });
    seen
}

#[test]
fn all_960_start_positions_and_games_agree_with_shakmaty() {
    let mut tally = Tally::default();
    let mut samples = Vec::new();
    for n in 0..960 {
        let fen = start_fen(n);
        let pos = Position::from_fen_chess960(&fen).unwrap();
        // Standard castling where the king stands on e and the rooks in the corners.
        let standard =
            start_rank(n)[4] == 'K' && start_rank(n)[0] == 'R' && start_rank(n)[7] == 'R';
        assert_eq!(pos.is_chess960(), !standard, "{fen}");
        let seen = play(&fen, n as u64, MAX_PLIES, &mut tally);
        if n % (8 * SHARE) == 0 {
            samples.extend(seen.into_iter().step_by(17 / SHARE));
        }
    }
    assert!(tally.castles > 2_000 / SHARE, "{tally:?}");
    eprintln!("{tally:?}, {} perft samples", samples.len());
    perft_agrees(&samples);
}

#[test]
fn random_castling_setups_agree_with_shakmaty() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(960);
    let mut tally = Tally::default();
    let mut samples = Vec::new();
    let mut tried = 0;
    while tally.positions < 30_000 / SHARE {
        tried += 1;
        let fen = random_setup(&mut rng);
        let (ours, theirs) = (Position::from_fen_chess960(&fen), shakmaty_position(&fen));
        if ours.is_err() || theirs.is_none() {
            continue;
        }
        // A few plies: castling rights do not last.
        let seen = play(&fen, tried, SETUP_PLIES, &mut tally);
        if tried % 32 == 0 {
            samples.extend(seen.into_iter().take(2));
        }
    }
    assert!(tally.castles > 5_000 / SHARE, "{tally:?}");
    assert!(tally.castles_onto_rook > 1_000 / SHARE, "{tally:?}");
    assert!(tally.castles_from_rook_target > 1_000 / SHARE, "{tally:?}");
    eprintln!(
        "{tally:?} from {tried} setups, {} perft samples",
        samples.len()
    );
    perft_agrees(&samples);
}

/// Perft of `pos` in representation `R`, leaves made and counted.
struct Perft<'a> {
    pos: &'a Position,
    depth: u32,
}

impl WithRepresentation for Perft<'_> {
    type Output = (u64, u64);

    fn run<R: Representation>(self, _: Variant) -> (u64, u64) {
        let board = R::from_position(self.pos);
        (
            perft(&board, self.depth, Leaves::Make),
            perft(&board, self.depth, Leaves::Bulk),
        )
    }
}

/// perft(3) of every sample equals shakmaty's in every C.C.R. kernel.
fn perft_agrees(samples: &[(Position, Chess)]) {
    assert!(samples.len() > 200 / SHARE, "{} samples", samples.len());
    let kernels: Vec<Variant> = Variant::all()
        .into_iter()
        .filter(|v| v.repr == Repr::Ccr)
        .collect();
    for (pos, sh) in samples {
        let expected = shakmaty::perft(sh, 3);
        for &variant in &kernels {
            let (made, counted) = variant.dispatch(Perft { pos, depth: 3 });
            assert_eq!(
                (made, counted),
                (expected, expected),
                "perft 3 of {} in {}",
                pos.to_fen(),
                variant.name()
            );
        }
    }
}

#[test]
fn standard_reading_refuses_chess960_setups_and_keeps_standard_ones() {
    let chess960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let err = Position::from_fen(chess960).unwrap_err().to_string();
    assert!(err.contains("Chess960"), "{err}");
    let pos = Position::from_fen_chess960(chess960).unwrap();
    assert_eq!(pos.rook_files().file(0), 7);
    assert_eq!(pos.rook_files().file(1), 5);
    // The standard start in Shredder-FEN, X-FEN and plain FEN is one standard position.
    let start = Position::startpos();
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ] {
        for parsed in [Position::from_fen(fen), Position::from_fen_chess960(fen)] {
            let parsed = parsed.unwrap();
            assert_eq!(parsed, start, "{fen}");
            assert_eq!(parsed.rook_files(), RookFiles::STANDARD);
            assert_eq!(parsed.key(), start.key());
        }
    }
    // X-FEN: `K` is the outermost rook, an inner one is named by its file.
    let two_rooks = "4k3/8/8/8/8/8/8/RR2K2R w BK - 0 1";
    let pos = Position::from_fen_chess960(two_rooks).unwrap();
    assert!(pos.to_fen().contains(" w KB - "), "{}", pos.to_fen());
    assert_eq!(pos.rook_files().file(1), 1);
    let shredder = Position::from_fen_chess960("4k3/8/8/8/8/8/8/RR2K2R w HB - 0 1").unwrap();
    assert_eq!(shredder, pos);
    // Two rights on one side are refused.
    assert!(Position::from_fen_chess960("4k3/8/8/8/8/8/8/RR2K2R w QB - 0 1").is_err());
    // Missing pieces are still refused in both readings.
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w H - 0 1",
    ] {
        assert!(Position::from_fen(fen).is_err(), "{fen}");
        assert!(Position::from_fen_chess960(fen).is_err(), "{fen}");
    }
}

#[test]
fn castling_rights_key_apart_by_rook_file() {
    // The same men and rights, the rook the right castles with on g1 or h1.
    let inner = Position::from_fen_chess960("4k3/8/8/8/8/8/8/4K1RR w G - 0 1").unwrap();
    let outer = Position::from_fen_chess960("4k3/8/8/8/8/8/8/4K1RR w H - 0 1").unwrap();
    assert_ne!(inner, outer);
    assert_ne!(inner.key(), outer.key());
    // Without the right, the two are one position.
    let none = Position::from_fen_chess960("4k3/8/8/8/8/8/8/4K1RR w - - 0 1").unwrap();
    assert_eq!(inner.without_castling(inner.castling()), none);
    assert_eq!(outer.without_castling(outer.castling()).key(), none.key());
}

#[test]
fn castling_text_follows_the_notation() {
    let pos = Position::from_fen_chess960("4k3/8/8/8/8/8/8/R4KR1 w AG - 0 1").unwrap();
    let castles: Vec<Move> = pos
        .legal_moves()
        .as_slice()
        .iter()
        .copied()
        .filter(|mv| mv.kind() == MoveKind::Castle)
        .collect();
    let mut chess960: Vec<String> = castles
        .iter()
        .map(|&mv| pos.notation(true).text(mv))
        .collect();
    let mut standard: Vec<String> = castles
        .iter()
        .map(|&mv| pos.notation(false).text(mv))
        .collect();
    chess960.sort();
    standard.sort();
    assert_eq!(chess960, ["f1a1", "f1g1"]);
    assert_eq!(standard, ["f1c1", "f1g1"]);
    // In Chess960 `f1g1` is the king taking its rook; without, the king's step onto g1 is
    // not legal (the rook stands there) and castling is read from either text.
    let king_side = pos.parse_move("f1g1", true).unwrap();
    assert_eq!(king_side.kind(), MoveKind::Castle);
    assert_eq!(pos.parse_move("f1g1", false), Some(king_side));
    assert_eq!(
        pos.parse_move("f1a1", false).map(Move::kind),
        Some(MoveKind::Castle)
    );
    assert_eq!(pos.parse_move("f1c1", true), None);
}
