//! Unit tests of the search pieces: mates found at the right distance, draws by repetition
//! and the fifty-move rule, stalemate, the limits, and determinism.

use super::*;
use crate::positions::KIWIPETE;
use tablebase::TB_WIN;

fn search(fen: &str, limits: Limits) -> (Outcome, Vec<Info>) {
    search_after(fen, &[], limits)
}

/// Searches the position reached by `moves` from `fen`, with the game's history.
fn search_after(fen: &str, moves: &[&str], limits: Limits) -> (Outcome, Vec<Info>) {
    search_with(fen, moves, limits, None)
}

/// [`search_after`] with the Syzygy tables, if any.
fn search_with(
    fen: &str,
    moves: &[&str],
    limits: Limits,
    syzygy: Option<Syzygy>,
) -> (Outcome, Vec<Info>) {
    let tt = TranspositionTable::new(4).unwrap();
    let control = Control::default();
    let mut root = Position::from_fen(fen).unwrap();
    let mut history = History::new();
    history.push(root.key(), root.halfmove_clock());
    for text in moves {
        root = root.make(root.parse_uci_move(text).unwrap());
        history.push(root.key(), root.halfmove_clock());
    }
    let search = Search {
        tt: &tt,
        control: &control,
        root,
        history,
        limits,
        threads: 1,
        profile: None,
        evaluator: Evaluator::Frame,
        syzygy,
    };
    let mut infos = Vec::new();
    let outcome = search.run(&mut |i| infos.push(i.clone()));
    (outcome, infos)
}

fn depth(d: i32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn finds_mate_in_two_and_scores_it() {
    // The back-rank mate in two: 1. Re8+ Rxe8 2. Rxe8#.
    let fen = "r5k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1";
    let (outcome, infos) = search(fen, depth(6));
    assert_eq!(
        Score::from_search(outcome.score),
        Score::Mate(2),
        "{infos:?}"
    );
    let last = infos.last().unwrap();
    assert_eq!(last.score, Score::Mate(2));
    // The line is legal and ends in mate.
    let mut pos = Position::from_fen(fen).unwrap();
    for &mv in &last.pv {
        assert!(pos.legal_moves().as_slice().contains(&mv), "{:?}", last.pv);
        pos = pos.make(mv);
    }
    assert!(pos.in_check() && pos.legal_moves().is_empty());
}

#[test]
fn mated_side_reports_negative_mate() {
    // Black to move is mated next move whatever it does: each of its five moves (Kb8, h6, h5,
    // f4, d3) allows Rg8#. Checked with python-chess: for every legal Black move, some White
    // reply leaves `board.is_checkmate()`.
    let fen = "k7/7p/1K6/5p2/3p4/8/8/6R1 b - - 0 1";
    let (outcome, infos) = search(fen, depth(5));
    // Mated in two plies: Black's move, then White's mate.
    assert_eq!(outcome.score, -MATE + 2, "{infos:?}");
    assert_eq!(Score::from_search(outcome.score), Score::Mate(-1));
    assert_eq!(infos.last().map(|i| i.score), Some(Score::Mate(-1)));
}

#[test]
fn no_legal_move_gives_no_best_move() {
    let (mate, _) = search("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", depth(3));
    assert_eq!(mate.best, None);
    assert_eq!(mate.score, -MATE);
    let (stalemate, _) = search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", depth(3));
    assert_eq!(stalemate.best, None);
    assert_eq!(stalemate.score, 0);
}

#[test]
fn avoids_stalemating_when_winning() {
    // Qf7 would stalemate; any sensible queen move keeps the win.
    let (outcome, _) = search("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", depth(5));
    let pos = Position::from_fen("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1").unwrap();
    let after = pos.make(outcome.best.unwrap());
    assert!(!after.legal_moves().is_empty() || after.in_check());
    assert!(outcome.score > 500);
}

#[test]
fn repetition_is_a_draw() {
    // A queen down, White can only hope to repeat: the kings went b1-a1, h8-g8, a1-b1,
    // g8-h8, so Kb1-a1 brings back a position of the game.
    let fen = "7k/8/8/7q/8/8/8/1K6 w - - 0 1";
    let (outcome, _) = search_after(fen, &["b1a1", "h8g8", "a1b1", "g8h8"], depth(6));
    assert_eq!(outcome.score, 0);
    assert_eq!(outcome.best.unwrap().to_string(), "b1a1");
    // Without that history the same position is lost.
    let (fresh, _) = search(fen, depth(6));
    assert!(fresh.score < -500, "{}", fresh.score);
}

#[test]
fn fifty_move_rule_draws() {
    // Winning material is worthless once the clock runs out on the next move.
    let fen = "7k/8/8/8/8/8/1R6/K7 w - - 99 80";
    let (outcome, _) = search(fen, depth(4));
    assert_eq!(outcome.score, 0);
}

#[test]
fn mate_on_the_hundredth_ply_is_still_mate() {
    // Ra8 mates with the clock reaching 100: mate beats the fifty-move rule.
    let (outcome, _) = search("7k/8/6K1/8/8/8/8/R7 w - - 99 80", depth(3));
    assert_eq!(Score::from_search(outcome.score), Score::Mate(1));
}

#[test]
fn searchmoves_restricts_the_root() {
    let pos = Position::startpos();
    let only = pos.parse_uci_move("a2a3").unwrap();
    let (outcome, _) = search(
        crate::ccr::fen::STARTPOS,
        Limits {
            depth: Some(4),
            searchmoves: vec![only],
            ..Limits::default()
        },
    );
    assert_eq!(outcome.best, Some(only));
}

#[test]
fn node_limit_is_kept_on_one_thread() {
    let (outcome, _) = search(
        crate::ccr::fen::STARTPOS,
        Limits {
            nodes: Some(5_000),
            ..Limits::default()
        },
    );
    // Checked at every node on one thread: the search stops exactly at the limit.
    assert_eq!(outcome.nodes, 5_000);
    assert!(outcome.best.is_some());
}

#[test]
fn same_search_same_nodes() {
    let fen = KIWIPETE;
    let (a, _) = search(fen, depth(6));
    let (b, _) = search(fen, depth(6));
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.best, b.best);
}

#[test]
fn a_stopped_search_still_has_a_legal_move() {
    let tt = TranspositionTable::new(1).unwrap();
    let control = Control::default();
    control.stop.store(true, Relaxed);
    let root = Position::startpos();
    let search = Search {
        tt: &tt,
        control: &control,
        root,
        history: History::new(),
        limits: Limits::default(),
        threads: 2,
        profile: None,
        evaluator: Evaluator::Frame,
        syzygy: None,
    };
    let outcome = search.run(&mut |_| {});
    let best = outcome.best.unwrap();
    assert!(root.legal_moves().as_slice().contains(&best));
}

#[test]
fn wins_a_hanging_queen() {
    let fen = "rnb1kbnr/pppp1ppp/8/4p1q1/3P4/2N5/PPP1PPPP/R1BQKBNR w KQkq - 0 3";
    let (outcome, _) = search(fen, depth(5));
    assert_eq!(outcome.best.unwrap().to_string(), "c1g5");
}

#[test]
fn counts_the_quiescence_nodes_and_the_copies() {
    // One ply from the start: the root, then each of the 20 replies is made once and, at
    // depth 0, is a quiescence node with no capture to follow (a reply searched again after
    // its null window failed high is a node again but no new copy).
    let (outcome, _) = search(crate::positions::STARTPOS, depth(1));
    let counts = outcome.counts;
    assert_eq!(outcome.nodes, 1 + counts.quiescence_nodes, "{counts:?}");
    assert!(counts.quiescence_nodes >= 20, "{counts:?}");
    assert_eq!(counts.copies, 20);
    // Deeper, the quiescence search follows captures: more of its nodes than the main
    // search's, and a copy for (almost) every node, never more: every position copied is
    // searched (a pruned move is not made) and the re-searches are nodes without copies.
    let (outcome, _) = search(KIWIPETE, depth(3));
    let main = outcome.nodes - outcome.counts.quiescence_nodes;
    assert!(
        outcome.counts.quiescence_nodes > main,
        "{:?}",
        outcome.counts
    );
    let copies = outcome.counts.copies;
    assert!(
        copies < outcome.nodes && copies >= outcome.nodes * 9 / 10,
        "{} nodes, {:?}",
        outcome.nodes,
        outcome.counts
    );
}

#[test]
fn multipv_reports_the_best_root_moves_each_with_its_line() {
    // Two rooks, two mates in one on the back rank: they are the first two lines, and the
    // third is another move that mates no sooner.
    let fen = "7k/6pp/8/8/8/8/8/RR4K1 w - - 0 1";
    let limits = Limits {
        depth: Some(5),
        multipv: 3,
        ..Limits::default()
    };
    let (outcome, infos) = search(fen, limits);
    let last: Vec<&Info> = infos.iter().filter(|i| i.depth == outcome.depth).collect();
    assert_eq!(
        last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    let firsts: Vec<String> = last.iter().map(|i| i.pv[0].to_string()).collect();
    let mut mates = firsts[..2].to_vec();
    mates.sort();
    assert_eq!(mates, ["a1a8", "b1b8"], "{firsts:?}");
    assert!(last[..2].iter().all(|i| i.score == Score::Mate(1)));
    assert!(!matches!(last[2].score, Score::Mate(1)), "{:?}", last[2]);
    assert_eq!(outcome.best, Some(last[0].pv[0]));
    // Every iteration reports its lines best first, each from a different root move.
    for depth in 1..=outcome.depth {
        let lines: Vec<&Info> = infos.iter().filter(|i| i.depth == depth).collect();
        assert_eq!(lines.len(), 3, "depth {depth}");
        let scores: Vec<i32> = lines.iter().map(|i| search_score(i.score)).collect();
        assert!(
            scores.windows(2).all(|w| w[0] >= w[1]),
            "depth {depth}: {scores:?}"
        );
        let mut moves: Vec<Move> = lines.iter().map(|i| i.pv[0]).collect();
        moves.sort_by_key(|m| m.to_string());
        moves.dedup();
        assert_eq!(moves.len(), 3, "depth {depth}");
    }
}

/// A reported score on the search's scale, for ordering.
fn search_score(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE - 2 * n + 1,
        Score::Mate(n) => -MATE - 2 * n,
    }
}

#[test]
fn multipv_lines_are_as_many_as_the_root_moves_allowed() {
    let pos = Position::startpos();
    let allowed: Vec<Move> = ["e2e4", "g1f3"]
        .iter()
        .map(|m| pos.parse_uci_move(m).unwrap())
        .collect();
    let (outcome, infos) = search(
        crate::ccr::fen::STARTPOS,
        Limits {
            depth: Some(4),
            searchmoves: allowed.clone(),
            multipv: 5,
            ..Limits::default()
        },
    );
    let last: Vec<&Info> = infos.iter().filter(|i| i.depth == 4).collect();
    assert_eq!(last.len(), 2);
    assert!(last.iter().all(|i| allowed.contains(&i.pv[0])));
    assert_ne!(last[0].pv[0], last[1].pv[0]);
    assert_eq!(outcome.best, Some(last[0].pv[0]));
}

#[test]
fn one_line_is_the_search_without_multipv() {
    let with = |multipv| {
        search(
            KIWIPETE,
            Limits {
                depth: Some(7),
                multipv,
                ..Limits::default()
            },
        )
    };
    let ((a, infos_a), (b, _)) = (with(0), with(1));
    assert_eq!((a.best, a.score, a.nodes), (b.best, b.score, b.nodes));
    assert!(infos_a.iter().all(|i| i.multipv == 1));
}

/// The tables with the default options, or `None` where the test data is missing.
fn syzygy() -> Option<Syzygy<'static>> {
    Some(Syzygy {
        tables: tablebase::test_tables()?,
        probe_depth: 1,
        rule50: true,
        probe_limit: 7,
    })
}

#[test]
fn a_tablebase_root_keeps_the_win_and_shows_it() {
    let Some(tb) = syzygy() else { return };
    // KRvK: every move that keeps the rook wins; the search plays one and says so.
    let fen = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1";
    let (outcome, infos) = search_with(fen, &[], depth(6), Some(tb));
    let root = Position::from_fen(fen).unwrap();
    let best = outcome.best.unwrap();
    let child = root.make(best);
    assert_eq!(
        tb.tables.probe_wdl(&child),
        Ok(tablebase::Wdl::Loss),
        "{best}"
    );
    let last = infos.last().unwrap();
    assert_eq!(last.score, Score::Cp(TB_WIN));
    assert_eq!(last.tbhits, Some(root.legal_moves().len() as u64));
    // Without tables: no tbhits field, a score from the evaluation.
    let (_, infos) = search(fen, depth(6));
    assert_eq!(infos.last().unwrap().tbhits, None);
}

#[test]
fn probes_below_the_root_score_between_evaluations_and_mates() {
    let Some(tb) = syzygy() else { return };
    // Five pieces (KQRvKR): any capture of the rook reaches the 4-piece tables.
    let fen = "8/8/8/4k3/8/2r5/8/R2QK3 w - - 0 1";
    let (outcome, infos) = search_with(fen, &[], depth(5), Some(tb));
    let last = infos.last().unwrap();
    assert!(last.tbhits.unwrap() > 0, "{last:?}");
    match last.score {
        Score::Cp(cp) => assert!(cp > DECISIVE && cp < MATE_BOUND, "{last:?}"),
        Score::Mate(n) => assert!(n > 0, "{last:?}"),
    }
    assert!(outcome.best.is_some());
    // With the probe limit at 0 the search probes nothing.
    let none = Syzygy {
        probe_limit: 0,
        ..tb
    };
    let (_, infos) = search_with(fen, &[], depth(5), Some(none));
    assert_eq!(infos.last().unwrap().tbhits, Some(0));
}

#[test]
fn tablebase_lines_come_by_rank() {
    let Some(tb) = syzygy() else { return };
    // KQvKR, White to move: the queen moves that keep the win come before the one that
    // hangs it, and every line's score is the tables'.
    let fen = "8/8/8/4k3/8/2r5/8/3QK3 w - - 0 1";
    let limits = Limits {
        multipv: 40,
        ..depth(3)
    };
    let (_, infos) = search_with(fen, &[], limits, Some(tb));
    let root = Position::from_fen(fen).unwrap();
    let last: Vec<&Info> = infos.iter().filter(|i| i.depth == 3).collect();
    assert_eq!(last.len(), root.legal_moves().len());
    let values: Vec<i32> = last
        .iter()
        .map(|i| {
            let child = root.make(i.pv[0]);
            -tb.tables.probe_wdl(&child).unwrap().value()
        })
        .collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
    assert_eq!(values[0], 2);
}
