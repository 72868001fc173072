//! Differential test against shakmaty, an independent move generator, for every board
//! representation.
//!
//! Seeded random games are played from several start positions, choosing every move with
//! ccr and playing it in ccr and shakmaty in lockstep. At every position the legal move
//! sets, the move kinds, the captures, check detection, the FEN and the FEN round trip must
//! agree, and so must the number of legal moves counted without listing them. The 0x88 board and the native bitboards are played along the same games by their
//! own `make` and must hold the same position and give the same moves, captures and check;
//! the converted bitboard generator (both conversions) is checked at every position too, and the
//! conversion itself square by square, every SIMD tier against the portable loop. A few hundred
//! positions sampled from the games are then compared by perft(3) in every representation.

use crate::common;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::sync::OnceLock;

use ccr::Bitboards;
use ccr::X88;
use ccr::kernels::convert::{self, portable};
use ccr::{
    Leaves, Move, MoveKind, MoveList, Position as CcrPosition, Representation, Square, Tier,
    Variant, WithRepresentation, divide, perft,
};
use common::games::{Plan, line_text, random_game};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _, Role};

/// The games, from the first five standard positions: the initial position, Kiwipete, the
/// pawn ending of "position 3" (rich in en passant and rook checks along the rank), "position
/// 4" (promotions, castling rights of one side only) and "position 5".
const PLAN: Plan = Plan {
    standard: 5,
    more: &[],
    games_per_start: 200,
    max_plies: 200,
    min_positions: 20_000,
    seed: 0x00CC_5EED_0000,
};

/// How many positions of the games are compared by perft.
const PERFT_SAMPLES: usize = 300;

/// The perft depth of the sampled positions.
const PERFT_DEPTH: u32 = 3;

/// What the games leave behind: how many positions were checked, and the sampled
/// positions (ccr and shakmaty in lockstep) for perft.
struct Games {
    positions_checked: usize,
    coverage: Coverage,
    samples: Vec<(CcrPosition, Chess)>,
}

/// How many checked positions show each special situation, so the test can demand that
/// the random games really exercised them.
#[derive(Debug, Default)]
struct Coverage {
    en_passant: usize,
    promotion: usize,
    castling: usize,
    check: usize,
    double_check: usize,
    checkmate: usize,
    stalemate: usize,
}

impl Coverage {
    fn count(&mut self, pos: &CcrPosition, sh: &Chess, moves: &[Move]) {
        let has = |kind: fn(MoveKind) -> bool| usize::from(moves.iter().any(|mv| kind(mv.kind())));
        self.en_passant += has(|k| k == MoveKind::EnPassant);
        self.promotion += has(|k| k == MoveKind::PromoteQueen);
        self.castling += has(|k| k == MoveKind::Castle);
        self.check += usize::from(pos.in_check());
        self.double_check += usize::from(sh.checkers().count() >= 2);
        self.checkmate += usize::from(moves.is_empty() && pos.in_check());
        self.stalemate += usize::from(moves.is_empty() && !pos.in_check());
    }

    fn all_seen(&self) -> bool {
        [
            self.en_passant,
            self.promotion,
            self.castling,
            self.check,
            self.double_check,
            self.checkmate,
            self.stalemate,
        ]
        .iter()
        .all(|&n| n > 0)
    }
}

/// The games are played once and shared by both tests.
fn games() -> &'static Games {
    static GAMES: OnceLock<Games> = OnceLock::new();
    GAMES.get_or_init(play_all_games)
}

fn play_all_games() -> Games {
    let mut all = Vec::new();
    let mut coverage = Coverage::default();
    for (start, seed) in PLAN.games() {
        play_game(start, seed, &mut all, &mut coverage);
    }
    let positions_checked = all.len();
    // Evenly spaced over all games, so every start position and every game phase is sampled.
    let samples = (0..PERFT_SAMPLES)
        .map(|i| all[i * positions_checked / PERFT_SAMPLES].clone())
        .collect();
    Games {
        positions_checked,
        coverage,
        samples,
    }
}

/// Plays one random game, checking every position, and appends its positions to `out`.
fn play_game(start: &str, seed: u64, out: &mut Vec<(CcrPosition, Chess)>, coverage: &mut Coverage) {
    let first = CcrPosition::from_fen(start)
        .unwrap_or_else(|e| panic!("ccr rejects start FEN {start}: {e}"));
    let mut sh: Chess = start
        .parse::<Fen>()
        .unwrap_or_else(|e| panic!("shakmaty cannot parse start FEN {start}: {e}"))
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("shakmaty rejects start FEN {start}: {e:?}"));
    // The other representations that keep their own state, played along by their own make.
    let mut x88 = X88::from_position(&first);
    let mut native = Bitboards::from_position(&first);
    let mut before = first;
    random_game(first, seed, PLAN.max_plies, |pos, moves, line| {
        if let Some(&mv) = line.last() {
            // The walker plays each move in place; copy-make must give the same position.
            assert_eq!(
                before.make(mv),
                *pos,
                "make and play of {mv} differ from {}",
                sh_fen(&sh)
            );
            let uci = mv.to_string();
            let sh_move = sh
                .legal_moves()
                .iter()
                .find(|m| m.to_uci(CastlingMode::Standard).to_string() == uci)
                .cloned()
                .unwrap_or_else(|| panic!("shakmaty has no move {uci} in {}", before.to_fen()));
            sh.play_unchecked(&sh_move);
            x88 = x88.make(mv);
            native = native.make(mv);
        }
        before = *pos;
        check_position(pos, &sh, moves, start, line);
        let expected = Expected::of(&sh);
        let context = || format!("{} after {start} {}", pos.to_fen(), line_text(line));
        check_representation(&x88, pos, &expected, context);
        check_representation(&native, pos, &expected, context);
        for variant in Variant::all() {
            variant.dispatch(FromPosition {
                pos,
                expected: &expected,
                context: &context,
            });
        }
        check_conversions(pos);
        coverage.count(pos, &sh, moves);
        out.push((*pos, sh.clone()));
        true
    });
}

/// shakmaty's legal moves as sorted (UCI text, kind), and its captures as sorted UCI text.
struct Expected {
    moves: Vec<(String, MoveKind)>,
    captures: Vec<String>,
    in_check: bool,
}

impl Expected {
    fn of(sh: &Chess) -> Expected {
        let legal = sh.legal_moves();
        let uci = |m: &shakmaty::Move| m.to_uci(CastlingMode::Standard).to_string();
        let mut moves: Vec<(String, MoveKind)> =
            legal.iter().map(|m| (uci(m), expected_kind(m))).collect();
        moves.sort_by(|a, b| a.0.cmp(&b.0));
        let mut captures: Vec<String> = legal.iter().filter(|m| m.is_capture()).map(uci).collect();
        captures.sort();
        Expected {
            moves,
            captures,
            in_check: sh.is_check(),
        }
    }
}

/// Sorted UCI text of the moves `fill` generates into a list.
fn sorted(fill: impl FnOnce(&mut MoveList)) -> Vec<(String, MoveKind)> {
    let mut list = MoveList::new();
    fill(&mut list);
    let mut moves: Vec<(String, MoveKind)> = list
        .as_slice()
        .iter()
        .map(|mv| (mv.to_string(), mv.kind()))
        .collect();
    // UCI text is unique per move, so it alone orders the list.
    moves.sort_by(|a, b| a.0.cmp(&b.0));
    moves
}

/// One representation at one position of a game: the same position as the C.C.R., and
/// shakmaty's moves (with their kinds), captures and check.
/// [`check_representation`] on the position converted into one variant.
struct FromPosition<'a> {
    pos: &'a CcrPosition,
    expected: &'a Expected,
    context: &'a dyn Fn() -> String,
}

impl WithRepresentation for FromPosition<'_> {
    type Output = ();

    fn run<R: Representation>(self, variant: Variant) {
        let context = || format!("{} ({})", (self.context)(), variant.name());
        check_representation(
            &R::from_position(self.pos),
            self.pos,
            self.expected,
            context,
        );
    }
}

fn check_representation<R: Representation>(
    board: &R,
    pos: &CcrPosition,
    expected: &Expected,
    context: impl Fn() -> String,
) {
    let name = R::NAME;
    assert_eq!(
        board.to_position(),
        *pos,
        "{name} holds another position: {}",
        context()
    );
    assert_eq!(
        board.in_check(),
        expected.in_check,
        "{name}: in_check differs: {}",
        context()
    );
    let moves = sorted(|list| board.generate_legal(list));
    if moves != expected.moves {
        let ours: Vec<String> = moves.iter().map(|m| m.0.clone()).collect();
        let theirs: Vec<String> = expected.moves.iter().map(|m| m.0.clone()).collect();
        panic!(
            "{name}: legal moves or kinds differ: {}\n{}",
            context(),
            move_set_difference(&ours, &theirs)
        );
    }
    let mut list = MoveList::new();
    assert_eq!(
        board.count_legal(&mut list),
        expected.moves.len() as u64,
        "{name}: count_legal differs from the number of legal moves: {}",
        context()
    );
    let captures: Vec<String> = sorted(|list| board.generate_captures(list))
        .into_iter()
        .map(|m| m.0)
        .collect();
    assert!(
        captures == expected.captures,
        "{name}: captures differ: {}\n{}",
        context(),
        move_set_difference(&captures, &expected.captures)
    );
}

/// The conversion to bitboards, square by square against the board, every implementation
/// the CPU has equal to the portable one.
fn check_conversions(pos: &CcrPosition) {
    let boards = portable(pos.board());
    for i in 0..64u8 {
        let code = pos.board().get(Square::new(i)).code() as usize;
        for (c, board) in boards.iter().enumerate() {
            assert_eq!(
                board >> i & 1 == 1,
                c == code,
                "{}: square {i}, board {c}",
                pos.to_fen()
            );
        }
    }
    for way in convert::available() {
        assert_eq!(
            convert::function(way)(pos.board()),
            boards,
            "{}: {}",
            convert::name(way),
            pos.to_fen()
        );
    }
}

/// shakmaty's FEN, printing the en-passant square after every double push as ccr does.
fn sh_fen(sh: &Chess) -> String {
    Fen::from_position(sh.clone(), EnPassantMode::Always).to_string()
}

/// The `MoveKind` ccr must give the move shakmaty knows as `m`.
fn expected_kind(m: &shakmaty::Move) -> MoveKind {
    match *m {
        shakmaty::Move::Castle { .. } => MoveKind::Castle,
        shakmaty::Move::EnPassant { .. } => MoveKind::EnPassant,
        shakmaty::Move::Normal {
            promotion: Some(role),
            ..
        } => match role {
            Role::Knight => MoveKind::PromoteKnight,
            Role::Bishop => MoveKind::PromoteBishop,
            Role::Rook => MoveKind::PromoteRook,
            Role::Queen => MoveKind::PromoteQueen,
            other => panic!("shakmaty promotes to {other:?}"),
        },
        shakmaty::Move::Normal {
            role: Role::Pawn,
            from,
            to,
            ..
        } if from.distance(to) == 2 => MoveKind::DoublePush,
        shakmaty::Move::Normal { .. } => MoveKind::Normal,
        shakmaty::Move::Put { .. } => panic!("shakmaty generated a drop in standard chess"),
    }
}

/// Checks one position and its legal moves `moves`, reached by `line` from `start`, against
/// shakmaty.
fn check_position(pos: &CcrPosition, sh: &Chess, moves: &[Move], start: &str, line: &[Move]) {
    let fen = pos.to_fen();
    let expected_fen = sh_fen(sh);
    let context = || {
        let moves = line_text(line);
        format!(
            "\n  ccr FEN:      {fen}\n  shakmaty FEN: {expected_fen}\n  \
             start FEN:    {start}\n  moves:        {moves}"
        )
    };

    // The FEN: board, side, castling, en passant (after every double push) and clocks.
    assert_eq!(fen, expected_fen, "FENs differ{}", context());

    // ccr's FEN is valid for shakmaty and describes the same position.
    let reparsed: Chess = fen
        .parse::<Fen>()
        .unwrap_or_else(|e| panic!("shakmaty cannot parse ccr's FEN ({e}){}", context()))
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("shakmaty rejects ccr's FEN ({e:?}){}", context()));
    assert_eq!(
        sh_fen(&reparsed),
        fen,
        "shakmaty reads ccr's FEN differently{}",
        context()
    );
    assert!(
        reparsed == *sh,
        "ccr's FEN is another position for shakmaty{}",
        context()
    );

    // ccr's own round trip, including the cached king squares.
    let round_trip = CcrPosition::from_fen(&fen)
        .unwrap_or_else(|e| panic!("ccr rejects its own FEN ({e}){}", context()));
    assert_eq!(round_trip, *pos, "from_fen(to_fen()) differs{}", context());

    // Check detection.
    assert_eq!(
        pos.in_check(),
        sh.is_check(),
        "in_check differs (ccr, shakmaty){}",
        context()
    );

    // The legal move sets, as sorted UCI text.
    let mut ours: Vec<(String, Move)> = moves.iter().map(|&mv| (mv.to_string(), mv)).collect();
    ours.sort_by(|a, b| a.0.cmp(&b.0));
    let sh_moves = sh.legal_moves();
    let mut theirs: Vec<(String, &shakmaty::Move)> = sh_moves
        .iter()
        .map(|m| (m.to_uci(CastlingMode::Standard).to_string(), m))
        .collect();
    theirs.sort_by(|a, b| a.0.cmp(&b.0));
    if !ours.iter().map(|o| &o.0).eq(theirs.iter().map(|t| &t.0)) {
        let ours: Vec<String> = ours.into_iter().map(|o| o.0).collect();
        let theirs: Vec<String> = theirs.into_iter().map(|t| t.0).collect();
        panic!(
            "legal moves differ{}\n{}",
            context(),
            move_set_difference(&ours, &theirs)
        );
    }

    // Every move carries the kind that `make` relies on (the lists are now pairwise equal).
    for ((uci, mv), (_, m)) in ours.iter().zip(&theirs) {
        assert_eq!(
            mv.kind(),
            expected_kind(m),
            "move {uci} has the wrong kind{}",
            context()
        );
    }

    // The captures-only generator gives exactly the legal moves that take a piece.
    let captures: Vec<String> = sorted(|list| pos.generate_captures(ccr::Portable, list))
        .into_iter()
        .map(|m| m.0)
        .collect();
    let expected_captures = Expected::of(sh).captures;
    assert!(
        captures == expected_captures,
        "captures differ{}\n{}",
        context(),
        move_set_difference(&captures, &expected_captures)
    );

    // An en-passant capture is legal exactly when shakmaty's strict FEN keeps the square.
    assert_eq!(
        moves.iter().any(|mv| mv.kind() == MoveKind::EnPassant),
        sh.legal_ep_square().is_some(),
        "en-passant legality differs{}",
        context()
    );
}

/// The symmetric difference of two sorted move lists, and any duplicates, as text.
fn move_set_difference(ours: &[String], theirs: &[String]) -> String {
    let a: BTreeSet<&String> = ours.iter().collect();
    let b: BTreeSet<&String> = theirs.iter().collect();
    let only_ccr: Vec<&&String> = a.difference(&b).collect();
    let only_shakmaty: Vec<&&String> = b.difference(&a).collect();
    let mut text = format!("  only ccr:      {only_ccr:?}\n  only shakmaty: {only_shakmaty:?}");
    let duplicates: Vec<&String> = ours
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| &w[0])
        .collect();
    if !duplicates.is_empty() {
        write!(text, "\n  ccr duplicates: {duplicates:?}").expect("writing to a String");
    }
    write!(
        text,
        "\n  counts: ccr {}, shakmaty {}",
        ours.len(),
        theirs.len()
    )
    .expect("writing to a String");
    text
}

/// Per root move, ccr's and shakmaty's subtree counts where they differ, and the
/// symmetric difference of the root moves.
fn divide_difference(pos: &CcrPosition, sh: &Chess, depth: u32, leaves: Leaves) -> String {
    let ours: Vec<(String, u64)> = divide(pos, depth, leaves)
        .into_iter()
        .map(|(mv, n)| (mv.to_string(), n))
        .collect();
    let theirs: Vec<(String, u64)> = sh
        .legal_moves()
        .iter()
        .map(|m| {
            let mut child = sh.clone();
            child.play_unchecked(m);
            (
                m.to_uci(CastlingMode::Standard).to_string(),
                shakmaty::perft(&child, depth - 1),
            )
        })
        .collect();
    let mut our_moves: Vec<String> = ours.iter().map(|(m, _)| m.clone()).collect();
    let mut their_moves: Vec<String> = theirs.iter().map(|(m, _)| m.clone()).collect();
    our_moves.sort();
    their_moves.sort();
    let mut text = move_set_difference(&our_moves, &their_moves);
    for (uci, n) in &ours {
        if let Some((_, m)) = theirs.iter().find(|(u, _)| u == uci) {
            if n != m {
                write!(
                    text,
                    "\n  after {uci}: ccr {n}, shakmaty {m} (FEN after: {})",
                    pos.make(pos.parse_uci_move(uci).expect("a legal move"))
                        .to_fen()
                )
                .expect("writing to a String");
            }
        }
    }
    text
}

#[test]
fn random_games_agree_with_shakmaty() {
    // The games check the SIMD conversions and the SIMD kernel only where the CPU has them.
    for tier in [Tier::Ssse3, Tier::Avx2] {
        ccr::kernels::runs(tier, "differential::random_games_agree_with_shakmaty");
    }
    let games = games();
    println!(
        "{} positions checked against shakmaty; {:?}",
        games.positions_checked, games.coverage
    );
    PLAN.assert_reached(games.positions_checked);
    assert!(
        games.coverage.all_seen(),
        "the games missed a special situation: {:?}",
        games.coverage
    );
}

#[test]
fn sampled_perft_agrees_with_shakmaty() {
    ccr::kernels::runs(
        Tier::Avx2,
        "differential::sampled_perft_agrees_with_shakmaty",
    );
    let games = games();
    assert_eq!(games.samples.len(), PERFT_SAMPLES);
    for (pos, sh) in &games.samples {
        let expected = shakmaty::perft(sh, PERFT_DEPTH);
        for leaves in [Leaves::Make, Leaves::Bulk] {
            for variant in Variant::all() {
                assert_eq!(
                    variant.dispatch(Perft { pos, leaves }),
                    expected,
                    "{}: perft({PERFT_DEPTH}, {leaves:?}) differs from shakmaty for {}",
                    variant.name(),
                    pos.to_fen()
                );
            }
            let got = perft(pos, PERFT_DEPTH, leaves);
            assert_eq!(
                got,
                expected,
                "perft({PERFT_DEPTH}, {leaves:?}) differs (ccr, shakmaty) for {}\n{}",
                pos.to_fen(),
                divide_difference(pos, sh, PERFT_DEPTH, leaves)
            );
        }
    }
}

/// Perft to [`PERFT_DEPTH`] of the position in one variant.
struct Perft<'a> {
    pos: &'a CcrPosition,
    leaves: Leaves,
}

impl WithRepresentation for Perft<'_> {
    type Output = u64;

    fn run<R: Representation>(self, _: Variant) -> u64 {
        perft(&R::from_position(self.pos), PERFT_DEPTH, self.leaves)
    }
}
