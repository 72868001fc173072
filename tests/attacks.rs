//! Differential test of the attack tables (WHITE_ATTACKS / BLACK_ATTACKS) against shakmaty.
//!
//! Seeded random games are played with shakmaty, biased toward captures and pawn moves so
//! that thinned-out endings and promotions appear; ccr reads every position from shakmaty's
//! FEN, so this test depends on ccr's FEN parser but not on its move generator. At every
//! position, for both colours and all 64 squares:
//!
//! - the nibble of `AttackBlock::new` equals the OR of the classes of the attackers that
//!   shakmaty's `Board::attacks_to` finds (pawn `1000b`, knight or bishop `0100b`, rook
//!   `0010b`, queen or king `0001b`);
//! - `cheapest_attacker` is the class of the cheapest of those attackers;
//! - `is_attacked` agrees with shakmaty and with the ray scan `frame::is_attacked`;
//!
//! and per position: `attacks_of` equals the block's table, the block starts with the board,
//! the paper's displacements address the three parts, and `in_check` agrees with shakmaty.
//!
//! A second test rebuilds the tables from shakmaty the other way round (per piece, from its
//! `attacks` set) and plants typical bugs in that model (a slider that does not attack its
//! blocker, a wrong class bit, pawns attacking backwards, a file wrap, …): each must be seen
//! to disagree with ccr somewhere in the games, so the comparison above would catch it.

use crate::common;

use std::fmt::Write as _;
use std::sync::OnceLock;

use ccr::AttackClass;
use ccr::kernels::frame;
use ccr::kernels::frame::attacks_of;
use ccr::{AttackBlock, Colour, Position as CcrPosition, Square};
use common::games::Plan;
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use shakmaty::fen::Fen;
use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, EnPassantMode, Move, Position as _, Role, attacks,
};

/// The games, from the six standard perft positions (opening, middlegame, the rook and pawn
/// ending of position 3, promotions in positions 4 and 5) and a promotion race.
const PLAN: Plan = Plan {
    standard: 6,
    more: &["n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"],
    games_per_start: 60,
    max_plies: 300,
    min_positions: 20_000,
    seed: 0xA77A_C45E_0000,
};

/// A game also ends after this many plies without a capture or pawn move (the random
/// games' endings would otherwise shuffle pieces for a hundred plies).
const MAX_QUIET_PLIES: u32 = 30;

const COLOURS: [(Colour, Color); 2] =
    [(Colour::White, Color::White), (Colour::Black, Color::Black)];

/// One position of the games, in both engines.
struct Sample {
    fen: String,
    ccr: CcrPosition,
    sh: Chess,
}

/// What the games exercised, so the test can demand that they reached the hard cases.
#[derive(Debug, Default)]
struct Coverage {
    /// Positions where the side to move is in check.
    check: usize,
    /// Positions with two checkers.
    double_check: usize,
    /// Positions with at least 24 pieces on the board.
    pieces_24_or_more: usize,
    /// Positions with 12 to 23 pieces.
    pieces_12_to_23: usize,
    /// Positions with at most 11 pieces.
    pieces_11_or_fewer: usize,
    /// Positions after a promotion (to any piece) in the same game.
    after_promotion: usize,
    /// Positions after an underpromotion in the same game.
    after_underpromotion: usize,
    /// Which of the 16 class nibbles (`0000b`..`1111b`) occurred, one bit each.
    nibbles_seen: u16,
}

impl Coverage {
    fn all_seen(&self) -> bool {
        [
            self.check,
            self.double_check,
            self.pieces_24_or_more,
            self.pieces_12_to_23,
            self.pieces_11_or_fewer,
            self.after_promotion,
            self.after_underpromotion,
        ]
        .iter()
        .all(|&n| n > 0)
            && self.nibbles_seen == u16::MAX
    }
}

struct Games {
    samples: Vec<Sample>,
    coverage: Coverage,
}

/// The games are played once and shared by both tests.
fn games() -> &'static Games {
    static GAMES: OnceLock<Games> = OnceLock::new();
    GAMES.get_or_init(play_all_games)
}

fn play_all_games() -> Games {
    let mut games = Games {
        samples: Vec::new(),
        coverage: Coverage::default(),
    };
    for (start, seed) in PLAN.games() {
        play_game(start, seed, &mut games);
    }
    games
}

/// shakmaty's FEN, with the en-passant square after every double push as ccr writes it.
fn sh_fen(sh: &Chess) -> String {
    Fen::from_position(sh.clone(), EnPassantMode::Always).to_string()
}

/// Plays one random game with shakmaty and records every position in both engines.
fn play_game(start: &str, seed: u64, games: &mut Games) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut sh: Chess = start
        .parse::<Fen>()
        .unwrap_or_else(|e| panic!("shakmaty cannot parse start FEN {start}: {e}"))
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("shakmaty rejects start FEN {start}: {e:?}"));
    let (mut promoted, mut underpromoted) = (false, false);
    // How strongly this game prefers captures: 2 (long middlegames) to 9 (quick endings).
    let capture_weight = 2 + rng.next_u64() % 8;
    for ply in 0..=PLAN.max_plies {
        let fen = sh_fen(&sh);
        let ccr = CcrPosition::from_fen(&fen)
            .unwrap_or_else(|e| panic!("ccr rejects shakmaty's FEN {fen}: {e}"));
        let c = &mut games.coverage;
        c.check += usize::from(sh.is_check());
        c.double_check += usize::from(sh.checkers().count() >= 2);
        match sh.board().occupied().count() {
            24.. => c.pieces_24_or_more += 1,
            12..=23 => c.pieces_12_to_23 += 1,
            _ => c.pieces_11_or_fewer += 1,
        }
        c.after_promotion += usize::from(promoted);
        c.after_underpromotion += usize::from(underpromoted);
        games.samples.push(Sample {
            fen,
            ccr,
            sh: sh.clone(),
        });
        let moves = sh.legal_moves();
        if moves.is_empty()
            || sh.halfmoves() >= MAX_QUIET_PLIES
            || sh.is_insufficient_material()
            || ply == PLAN.max_plies
        {
            return;
        }
        let mv = choose_move(&moves, capture_weight, &mut rng);
        if let Some(role) = mv.promotion() {
            promoted = true;
            underpromoted |= role != Role::Queen;
        }
        sh.play_unchecked(mv);
    }
}

/// Picks a random legal move: a capture `capture_weight` times as likely as a quiet piece
/// move, a pawn move four times (a pawn capture `4 * capture_weight` times), so the games
/// thin out and promote instead of shuffling pieces until the fifty-move rule.
fn choose_move<'a>(
    moves: &'a [Move],
    capture_weight: u64,
    rng: &mut Xoshiro256PlusPlus,
) -> &'a Move {
    let weight = |mv: &Move| -> u64 {
        (if mv.role() == Role::Pawn { 4 } else { 1 })
            * (if mv.is_capture() { capture_weight } else { 1 })
    };
    let total: u64 = moves.iter().map(weight).sum();
    let mut pick = rng.next_u64() % total;
    for mv in moves {
        let w = weight(mv);
        if pick < w {
            return mv;
        }
        pick -= w;
    }
    unreachable!("the pick is below the total weight")
}

/// A role's attack class, as the test models it.
struct Class {
    /// Its bit in a nibble of classes.
    bit: u8,
    /// How cheap an attacker it is: pawn < knight or bishop < rook < queen or king.
    cheapness: u8,
    /// ccr's name for it.
    name: AttackClass,
}

/// The attack class of a role.
fn class_of(role: Role) -> Class {
    let (bit, cheapness, name) = match role {
        Role::Pawn => (8, 0, AttackClass::Pawn),
        Role::Knight | Role::Bishop => (4, 1, AttackClass::Minor),
        Role::Rook => (2, 2, AttackClass::Rook),
        Role::Queen | Role::King => (1, 3, AttackClass::QueenOrKing),
    };
    Class {
        bit,
        cheapness,
        name,
    }
}

/// shakmaty's square for a C.C.R.-order square (`63 - index` is the a1 = 0 index).
fn sh_square(sq: Square) -> shakmaty::Square {
    let s = shakmaty::Square::new(63 - sq.index() as u32);
    assert_eq!(s.to_string(), sq.to_string());
    s
}

/// The attackers as text, e.g. `Nf3 Qd1`.
fn describe(sh: &Chess, attackers: Bitboard) -> String {
    let mut text = String::new();
    for s in attackers {
        let piece = sh.board().piece_at(s).expect("an attacker stands there");
        write!(text, "{}{s} ", piece.char()).expect("writing to a String");
    }
    if text.is_empty() {
        "none".into()
    } else {
        text.trim_end().into()
    }
}

/// Checks one position; panics with the FEN, square and both values on a disagreement.
fn check_position(s: &Sample, nibbles_seen: &mut u16) {
    let (fen, board, sh) = (&s.fen, s.ccr.board(), &s.sh);
    let block = AttackBlock::new(board);
    let occupied = sh.board().occupied();

    assert_eq!(
        block.words()[..8],
        *board.words(),
        "block board part, FEN {fen}"
    );
    assert_eq!(
        AttackBlock::by_frame(board),
        block,
        "the frame's block differs from the SIMD one, FEN {fen}"
    );
    for (i, &word) in block.words().iter().enumerate() {
        assert_eq!(block.at(4 * i), word, "displacement +{}, FEN {fen}", 4 * i);
    }

    for (colour, color) in COLOURS {
        let table = block.attacks(colour);
        assert_eq!(
            attacks_of(board, colour),
            *table,
            "attacks_of({colour:?}) differs from AttackBlock::new's table, FEN {fen}"
        );
        assert_eq!(
            block.parts()[1 + colour as usize],
            *table,
            "parts, FEN {fen}"
        );

        for index in 0..64u8 {
            let sq = Square::new(index);
            let attackers = sh.board().attacks_to(sh_square(sq), color, occupied);
            let roles = || {
                attackers
                    .into_iter()
                    .map(|a| sh.board().role_at(a).expect("a piece"))
            };
            let expected = roles().fold(0u8, |acc, role| acc | class_of(role).bit);
            let ours = block.classes(colour, sq);
            *nibbles_seen |= 1 << ours;
            let context = || {
                format!(
                    "\n  FEN:       {fen}\n  square:    {sq} (C.C.R. index {index}), attacked by \
                     {colour:?}\n  attackers: {}",
                    describe(sh, attackers)
                )
            };
            assert_eq!(
                table[sq.word()] >> sq.shift() & 0xF,
                u32::from(ours),
                "classes() is not the table's nibble{}",
                context()
            );
            assert!(
                ours == expected,
                "attack classes differ: ccr {ours:04b}, shakmaty {expected:04b}{}",
                context()
            );
            let cheapest = roles()
                .map(class_of)
                .min_by_key(|class| class.cheapness)
                .map(|class| class.name);
            assert_eq!(
                block.cheapest_attacker(colour, sq),
                cheapest,
                "cheapest_attacker differs (ccr, shakmaty){}",
                context()
            );
            let attacked = attackers.any();
            assert_eq!(
                block.is_attacked(colour, sq),
                attacked,
                "AttackBlock::is_attacked differs (ccr, shakmaty){}",
                context()
            );
            assert_eq!(
                frame::is_attacked(board, sq, colour),
                attacked,
                "frame::is_attacked differs (ccr ray scan, shakmaty){}",
                context()
            );
        }

        // The kings: where shakmaty has them, and in check exactly as shakmaty says (the
        // side not to move never is, in a legal position).
        let king = s.ccr.king(colour);
        assert_eq!(
            Some(sh_square(king)),
            sh.board().king_of(color),
            "king square of {colour:?}, FEN {fen}"
        );
        let expected = sh.turn() == color && sh.is_check();
        assert_eq!(
            block.in_check(colour, king),
            expected,
            "in_check({colour:?}, {king}) differs: ccr {}, shakmaty {expected}, FEN {fen}",
            block.in_check(colour, king)
        );
    }
}

#[test]
fn attack_tables_agree_with_shakmaty() {
    let games = games();
    let mut nibbles_seen = 0u16;
    for sample in &games.samples {
        check_position(sample, &mut nibbles_seen);
    }
    let coverage = Coverage {
        nibbles_seen,
        ..games.coverage
    };
    println!(
        "{} positions checked against shakmaty ({} squares x 2 colours); {coverage:?}",
        games.samples.len(),
        games.samples.len() * 64,
    );
    PLAN.assert_reached(games.samples.len());
    assert!(
        coverage.all_seen(),
        "the games missed a case: {coverage:?} (nibbles_seen {nibbles_seen:016b})"
    );
}

/// A bug planted in the per-piece model of the attack tables.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Bug {
    /// No bug: the model must agree with ccr everywhere.
    None,
    /// Sliders stop before the first occupied square instead of attacking it.
    SlidersSkipTheBlocker,
    /// Sliders stop before their own pieces (move generation, not attacks).
    SlidersSkipOwnPieces,
    /// Sliders see through everything.
    SlidersIgnoreBlockers,
    /// A rook is marked `0001b` (as a queen).
    RookAsQueen,
    /// A bishop is marked `0010b` (as a rook).
    BishopAsRook,
    /// A king is marked `1000b` (as a pawn).
    KingAsPawn,
    /// The king attacks nothing.
    NoKing,
    /// Pawns attack the squares behind them.
    PawnsBackward,
    /// Pawn attacks are shifted without file masks and wrap from file a to file h.
    PawnsWrap,
    /// The queen attacks only along lines (as a rook).
    QueenWithoutDiagonals,
}

const BUGS: [Bug; 11] = [
    Bug::None,
    Bug::SlidersSkipTheBlocker,
    Bug::SlidersSkipOwnPieces,
    Bug::SlidersIgnoreBlockers,
    Bug::RookAsQueen,
    Bug::BishopAsRook,
    Bug::KingAsPawn,
    Bug::NoKing,
    Bug::PawnsBackward,
    Bug::PawnsWrap,
    Bug::QueenWithoutDiagonals,
];

/// The attack table of `color` as ccr lays it out, built per piece from shakmaty's attack
/// sets, with `bug` planted.
fn model_table(sh: &Chess, color: Color, bug: Bug) -> [u32; 8] {
    let board = sh.board();
    let occupied = board.occupied();
    let mut table = [0u32; 8];
    for from in board.by_color(color) {
        let role = board.role_at(from).expect("a piece");
        let slider = matches!(role, Role::Bishop | Role::Rook | Role::Queen);
        let mut targets = match (role, bug) {
            (Role::Pawn, Bug::PawnsBackward) => attacks::pawn_attacks(color.other(), from),
            (Role::Pawn, Bug::PawnsWrap) => {
                let bit = 1u64 << u32::from(from);
                Bitboard(match color {
                    Color::White => bit << 7 | bit << 9,
                    Color::Black => bit >> 7 | bit >> 9,
                })
            }
            (Role::King, Bug::NoKing) => Bitboard(0),
            (Role::Queen, Bug::QueenWithoutDiagonals) => attacks::rook_attacks(from, occupied),
            (_, Bug::SlidersIgnoreBlockers) if slider => {
                attacks::attacks(from, role.of(color), Bitboard(0))
            }
            _ => attacks::attacks(from, role.of(color), occupied),
        };
        if slider {
            match bug {
                Bug::SlidersSkipTheBlocker => targets &= !occupied,
                Bug::SlidersSkipOwnPieces => targets &= !board.by_color(color),
                _ => {}
            }
        }
        let class = match (role, bug) {
            (Role::Rook, Bug::RookAsQueen) => 1,
            (Role::Bishop, Bug::BishopAsRook) => 2,
            (Role::King, Bug::KingAsPawn) => 8,
            _ => class_of(role).bit,
        };
        for to in targets {
            let sq = Square::new(63 - u32::from(to) as u8);
            table[sq.word()] |= u32::from(class) << sq.shift();
        }
    }
    table
}

#[test]
fn planted_bugs_are_caught() {
    let games = games();
    let mut caught = [0usize; BUGS.len()];
    let mut first = vec![String::new(); BUGS.len()];
    for s in &games.samples {
        let block = AttackBlock::new(s.ccr.board());
        for (colour, color) in COLOURS {
            let ours = block.attacks(colour);
            for (i, &bug) in BUGS.iter().enumerate() {
                let model = model_table(&s.sh, color, bug);
                if model != *ours {
                    caught[i] += 1;
                    if first[i].is_empty() {
                        first[i] = format!("{colour:?} in {}", s.fen);
                    }
                }
            }
        }
    }
    let report: Vec<String> = BUGS
        .iter()
        .zip(&caught)
        .zip(&first)
        .map(|((bug, n), f)| format!("{bug:?}: {n} tables differ, first {f}"))
        .collect();
    println!("{}", report.join("\n"));
    assert_eq!(
        caught[0], 0,
        "the unmodified per-piece model disagrees with ccr:\n{}",
        report[0]
    );
    for (i, bug) in BUGS.iter().enumerate().skip(1) {
        assert!(
            caught[i] > 0,
            "planting {bug:?} went unnoticed by every position"
        );
    }
}
