//! Instruction counts (iai-callgrind 0.16.1 under valgrind's callgrind) of ccr against the
//! oracle engines, shakmaty 0.27.3 and cozy-chess 0.3.4: exact and repeatable where the
//! wall clock of a shared machine is not.
//!
//! - group `movegen`: one legal move generation on each of the six standard positions (ccr
//!   `generate_legal` into a `MoveList`, shakmaty `legal_moves()`, cozy-chess `generate_moves`
//!   collected into a `Vec`);
//! - group `perft_make`: perft depth 3 making every leaf move, on startpos (8,902 leaves) and
//!   Kiwipete (97,862 leaves).
//!
//! Both groups set `compare_by_id`, so the runner prints each oracle's counts against ccr's
//! for the same position (the bench id). Building the positions is setup and not counted.
//!
//! Needs valgrind and `iai-callgrind-runner` 0.16.1 (`make bench-setup`). Run:
//! `cargo bench --bench instructions`.

mod common;

use std::hint::black_box;

use ccr::ccr::{MoveList, Position};
use ccr::perft::{Leaves, perft};
use common::{cozy, shak, standard};
use iai_callgrind::{library_benchmark, library_benchmark_group, main};
use shakmaty::Position as _;

/// The FEN of the standard position `id`.
fn fen(id: &str) -> &'static str {
    standard()
        .into_iter()
        .find(|s| s.id == id)
        .unwrap_or_else(|| panic!("no standard position {id}"))
        .fen
}

fn ccr_setup(id: &str) -> (Position, MoveList) {
    (
        Position::from_fen(fen(id)).expect("ccr parses the standard FEN"),
        MoveList::new(),
    )
}

fn ccr_position(id: &str) -> Position {
    Position::from_fen(fen(id)).expect("ccr parses the standard FEN")
}

fn shak_position(id: &str) -> shakmaty::Chess {
    shak::position(fen(id))
}

fn cozy_setup(id: &str) -> (cozy_chess::Board, Vec<cozy_chess::Move>) {
    (cozy::position(fen(id)), Vec::with_capacity(256))
}

fn cozy_position(id: &str) -> cozy_chess::Board {
    cozy::position(fen(id))
}

#[library_benchmark]
#[bench::startpos(ccr_setup("startpos"))]
#[bench::kiwipete(ccr_setup("kiwipete"))]
#[bench::position3(ccr_setup("position3"))]
#[bench::position4(ccr_setup("position4"))]
#[bench::position5(ccr_setup("position5"))]
#[bench::position6(ccr_setup("position6"))]
fn ccr_movegen(mut input: (Position, MoveList)) -> usize {
    // Borrowed in place: moving the tuple apart would copy the list, and valgrind would
    // count every word of that copy.
    black_box(&input.0).generate_legal(&mut input.1);
    black_box(&input.1).len()
}

#[library_benchmark]
#[bench::startpos(shak_position("startpos"))]
#[bench::kiwipete(shak_position("kiwipete"))]
#[bench::position3(shak_position("position3"))]
#[bench::position4(shak_position("position4"))]
#[bench::position5(shak_position("position5"))]
#[bench::position6(shak_position("position6"))]
fn shakmaty_movegen(pos: shakmaty::Chess) -> usize {
    let moves = black_box(&pos).legal_moves();
    black_box(&moves).len()
}

#[library_benchmark]
#[bench::startpos(cozy_setup("startpos"))]
#[bench::kiwipete(cozy_setup("kiwipete"))]
#[bench::position3(cozy_setup("position3"))]
#[bench::position4(cozy_setup("position4"))]
#[bench::position5(cozy_setup("position5"))]
#[bench::position6(cozy_setup("position6"))]
fn cozy_chess_movegen(mut input: (cozy_chess::Board, Vec<cozy_chess::Move>)) -> usize {
    cozy::legal_moves(black_box(&input.0), &mut input.1);
    black_box(&input.1).len()
}

#[library_benchmark]
#[bench::startpos(ccr_position("startpos"))]
#[bench::kiwipete(ccr_position("kiwipete"))]
fn ccr_perft_make_d3(pos: Position) -> u64 {
    perft(black_box(&pos), black_box(3), Leaves::Make)
}

#[library_benchmark]
#[bench::startpos(shak_position("startpos"))]
#[bench::kiwipete(shak_position("kiwipete"))]
fn shakmaty_perft_make_d3(pos: shakmaty::Chess) -> u64 {
    shak::perft_make(black_box(&pos), black_box(3))
}

#[library_benchmark]
#[bench::startpos(cozy_position("startpos"))]
#[bench::kiwipete(cozy_position("kiwipete"))]
fn cozy_chess_perft_make_d3(board: cozy_chess::Board) -> u64 {
    cozy::perft_make(black_box(&board), black_box(3))
}

library_benchmark_group!(
    name = movegen;
    compare_by_id = true;
    benchmarks = ccr_movegen, shakmaty_movegen, cozy_chess_movegen
);

library_benchmark_group!(
    name = perft_make;
    compare_by_id = true;
    benchmarks = ccr_perft_make_d3, shakmaty_perft_make_d3, cozy_chess_perft_make_d3
);

main!(library_benchmark_groups = movegen, perft_make);
