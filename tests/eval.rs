//! The two evaluators (the frame over the C.C.R. and its attack tables, and the bitboards
//! converted from it) give the same score and the same counts, term by term and colour by
//! colour, on every position: every node of the standard positions' perft trees, every
//! position of the data files, the positions of seeded random games and hand-made edge
//! cases. And `ccr eval` prints that score, last, from the side to move's view.

use crate::common;

use std::fmt::Debug;

use ccr::Evaluator;
use ccr::kernels::convert;
use ccr::kernels::eval;
use ccr::positions::mirror;
use ccr::{AttackBlock, Position};
use common::cli::{assert_no_panic, assert_one_error_line, ccr, text};
use common::epd;
use common::games::{line_text, random_games};

/// Checks that both evaluators agree on `pos`: the score from the side to move's view (also
/// with the bitboards converted by the portable loop), the tuner's features, and the
/// breakdown by colour (which also holds the phase, the scale and the material draw).
fn assert_same(pos: &Position, context: &dyn Fn() -> String) {
    let frame = eval::evaluate_with(pos, &AttackBlock::new(pos.board()));
    assert_eq!(
        Evaluator::Frame.evaluate(pos, &AttackBlock::new(pos.board())),
        frame
    );
    assert_eq!(
        eval::evaluate_bitboards(pos),
        frame,
        "score of {} ({})",
        pos.to_fen(),
        context()
    );
    let portable = convert::portable(pos.board());
    assert_eq!(
        eval::evaluate_boards(&portable, pos.side()),
        frame,
        "{}",
        pos.to_fen()
    );
    assert_agree("features", |e| e.features(pos), pos, context);
    assert_agree("breakdown", |e| e.breakdown(pos), pos, context);
}

/// Checks that both evaluators give the same `what` of `pos`, as `of` reads it.
fn assert_agree<T: PartialEq + Debug>(
    what: &str,
    of: impl Fn(Evaluator) -> T,
    pos: &Position,
    context: &dyn Fn() -> String,
) {
    assert_eq!(
        of(Evaluator::Frame),
        of(Evaluator::Bitboards),
        "{what} of {} ({})",
        pos.to_fen(),
        context()
    );
}

/// Walks the legal tree of `pos` to `depth`, checking every node; returns the nodes seen.
fn walk(pos: &Position, depth: u32, line: &mut Vec<String>) -> u64 {
    assert_same(pos, &|| line.join(" "));
    if depth == 0 {
        return 1;
    }
    let mut nodes = 1;
    for &mv in pos.legal_moves().as_slice() {
        line.push(mv.to_string());
        nodes += walk(&pos.make(mv), depth - 1, line);
        line.pop();
    }
    nodes
}

#[test]
fn equal_on_the_standard_perft_trees() {
    let cases = epd::load("standard-perft.epd");
    assert_eq!(cases.len(), 6);
    // Release builds go one ply deeper.
    let depth = if cfg!(debug_assertions) { 2 } else { 3 };
    for case in cases {
        let pos = Position::from_fen(&case.fen).unwrap();
        let nodes = walk(&pos, depth, &mut Vec::new());
        // Every node: the interior ones and the published leaves.
        assert!(nodes > case.count(depth).unwrap(), "{}", case.id);
    }
}

#[test]
fn equal_on_every_position_of_the_data_files() {
    let mut seen = 0;
    for file in ["standard-perft.epd", "tricky-perft.epd", "openings.epd"] {
        for line in epd::fens(file) {
            // The openings are EPD: four position fields, then operations.
            let fields: Vec<&str> = line.split_whitespace().collect();
            let fen = if file == "openings.epd" {
                fields[..4].join(" ")
            } else {
                line.clone()
            };
            let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{file}: {fen}: {e}"));
            assert_same(&pos, &|| file.to_string());
            seen += 1;
        }
    }
    assert!(seen > 60, "{seen}");
}

/// Positions where the terms meet the board's edges and their special cases.
const EDGE_CASES: [&str; 16] = [
    // Kings in the corners and on the edge files, with and without shelter.
    "7k/6pp/8/8/8/8/PP6/K7 w - - 0 1",
    "k7/pp6/8/8/8/8/6PP/7K b - - 0 1",
    "K7/8/8/8/8/8/8/7k w - - 0 1",
    // A white king on the eighth rank, a black one on the first (no shield ahead).
    "3K4/8/8/2p5/8/8/2P5/3k4 w - - 0 1",
    // Passed pawns on the seventh, blocked, free and attacked in front.
    "4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 1",
    "1n2k3/1P6/8/8/8/8/6p1/4K1N1 b - - 0 1",
    // Doubled and isolated pawns on the edge files.
    "4k3/p6p/p6p/8/8/P6P/P6P/4K3 w - - 0 1",
    // Rooks on open and semi-open files, queens attacked by rooks and minors.
    "r3k2r/1p4p1/8/3q4/3Q4/8/1P4P1/R3K2R w KQkq - 0 1",
    "4k3/8/8/1n1q4/8/2R5/8/4K3 b - - 0 1",
    // Bishops on opposite colours, then on the same colour.
    "4k3/5p2/8/2b5/8/8/5PP1/3BK3 w - - 0 1",
    "4k3/5p2/8/3b4/8/8/5PP1/3BK3 w - - 0 1",
    // Bare minors (a draw by material), a rook against a bishop (scaled).
    "8/8/4k3/3b4/8/2N5/4K3/8 b - - 0 1",
    "4k3/8/8/8/8/8/8/3RK2b w - - 0 1",
    // Both bishops, many pieces hanging, a king in the enemy's zone.
    "rnb1kbnr/pppp1ppp/8/4p3/4P2q/3B1N2/PPPP1PPP/RNBQK2R w KQkq - 0 1",
    "6k1/5ppp/8/4N2Q/8/8/PPP5/1R2K3 w - - 0 1",
    // An en-passant square on the board (not part of the evaluation).
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
];

#[test]
fn equal_on_the_edge_cases() {
    for fen in EDGE_CASES {
        assert_same(&Position::from_fen(fen).unwrap(), &|| fen.to_string());
    }
}

#[test]
fn equal_on_random_games() {
    let starts = &ccr::positions::STANDARD[..4];
    let games = if cfg!(debug_assertions) { 10 } else { 100 };
    let positions = random_games(starts, games, 0x00E7_A100, 299, |pos, start, line| {
        assert_same(pos, &|| format!("{start} {}", line_text(line)));
    });
    assert!(positions > 1000, "{positions}");
    // The count `make reproduce` records (tests.tsv) and docs/PAPER.md quotes.
    println!(
        "{positions} positions of {} random games agree",
        starts.len() as u64 * games
    );
}

/// Runs `ccr eval`, which must succeed; returns its stdout lines.
fn eval_lines(args: &[&str]) -> Vec<String> {
    let out = ccr(&[&["eval"][..], args].concat());
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "ccr eval {args:?}: {stderr}");
    assert_no_panic(&stderr);
    stdout.lines().map(String::from).collect()
}

/// The score `ccr eval` prints on its last line.
fn score(args: &[&str]) -> i32 {
    let lines = eval_lines(args);
    let last = lines.last().expect("some output");
    last.parse()
        .unwrap_or_else(|_| panic!("ccr eval {args:?}: last line {last:?}"))
}

#[test]
fn the_command_prints_the_score_last_from_the_side_to_moves_view() {
    let fens = [
        ccr::positions::KIWIPETE,
        "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
        "3r1rk1/p4ppp/1qp1b3/2b1P3/8/1BN1Q3/PPP3PP/3R1R1K b - - 0 20",
    ];
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        let expected = eval::evaluate(&pos);
        for via in ["frame", "bitboards"] {
            assert_eq!(
                score(&["--fen", fen, "--via", via]),
                expected,
                "{fen} {via}"
            );
            // The mirrored position is the same position for the other side to move.
            assert_eq!(
                score(&["--fen", &mirror(fen).unwrap(), "--via", via]),
                expected
            );
        }
        assert_eq!(score(&["--fen", fen]), expected);
    }
    // A lone extra queen: positive for its side to move, negative for the other.
    assert!(score(&["--fen", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"]) > 800);
    assert!(score(&["--fen", "4k3/8/8/8/8/8/8/3QK3 b - - 0 1"]) < -800);
    // Without --fen: the initial position, with its breakdown above the score.
    let lines = eval_lines(&[]);
    assert_eq!(
        lines.last().map(String::as_str),
        Some(eval::evaluate(&Position::startpos()).to_string().as_str())
    );
    assert!(
        lines.iter().any(|l| l.starts_with("material ")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("phase 24 of 24")),
        "{lines:?}"
    );
    // A draw by material says so and scores 0.
    let drawn = eval_lines(&["--fen", "8/8/4k3/3b4/8/2N5/4K3/8 b - - 0 1"]);
    assert_eq!(drawn.last().map(String::as_str), Some("0"));
    assert!(drawn.iter().any(|l| l.starts_with("drawn by material")));
}

#[test]
fn the_command_rejects_bad_input_in_one_line() {
    for args in [
        &["eval", "--fen", "not a fen"][..],
        &["eval", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
        &["eval", "--via", "nnue"],
        &["eval", "--via"],
        &["eval", "extra"],
    ] {
        assert_one_error_line(&ccr(args), args);
    }
    let out = ccr(&["eval", "--via", "nnue"]);
    assert!(text(&out.stderr).contains("available: network, frame, bitboards"));
    let out = ccr(&["bench", "1", "--eval", "nnue"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("available: network, frame, bitboards"));
}
