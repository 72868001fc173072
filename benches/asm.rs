//! Wall-clock benchmarks of the hand-written assembly (`asm/x86_64.s`, `asm/x86.s`) against
//! the compiler's output of each routine's portable twin, on the boards of the six standard
//! positions.
//!
//! One criterion group `asm/<routine>`, two functions, `portable` and `asm`; every figure is
//! the time of one whole workload:
//!
//! - `convert`: the C.C.R. → bitboards conversion of each of the six boards;
//! - `board_key`: the board part of the rotation key of each of the six boards;
//! - `attacks_of`: both colours' attack tables of each of the six boards (12 tables);
//! - `knight_targets`, `king_targets`: the targets from each of the 64 squares;
//! - `slider_targets`: queen rays from each of the 64 squares over each board's occupancy
//!   (384 calls).
//!
//! The twins are called generically, so the compiler inlines them as it would in the engine;
//! the assembly is one call per routine. Every result passes through `black_box`. The results
//! are checked equal before anything is timed.
//!
//! The assembly exists on x86-64 and 32-bit x86 (the cfg `ccr_asm`), so this target builds
//! there. Run: `cargo bench --bench asm` (about a minute).

mod common;

use std::hint::black_box;
use std::time::Duration;

use ccr::asm;
use ccr::ccr::attacks::attacks_of;
use ccr::ccr::board::occupied_nibbles;
use ccr::ccr::{Ccr, Position};
use ccr::convert::{self, PieceBoards};
use ccr::types::{Colour, Square};
use common::standard;
use criterion::{Criterion, criterion_group, criterion_main};

/// The six standard positions' boards.
fn boards() -> Vec<Ccr> {
    standard()
        .iter()
        .map(|s| {
            Position::from_fen(s.fen)
                .expect("ccr parses the standard FEN")
                .board
        })
        .collect()
}

fn occupancies(boards: &[Ccr]) -> Vec<[u32; 8]> {
    boards
        .iter()
        .map(|b| b.0.map(|w| occupied_nibbles(w) * 0xF))
        .collect()
}

fn convert_all(boards: &[Ccr], f: impl Fn(&Ccr) -> PieceBoards) {
    for board in boards {
        black_box(f(black_box(board)));
    }
}

fn key_all(boards: &[Ccr], f: impl Fn(&Ccr) -> u64) {
    for board in boards {
        black_box(f(black_box(board)));
    }
}

fn attacks_all(boards: &[Ccr], f: impl Fn(&Ccr, Colour) -> [u32; 8]) {
    for board in boards {
        for by in [Colour::White, Colour::Black] {
            black_box(f(black_box(board), black_box(by)));
        }
    }
}

fn leaper_all(f: impl Fn(Square) -> [u32; 8]) {
    for index in 0..64 {
        black_box(f(black_box(Square::new(index))));
    }
}

fn slider_all(occupied: &[[u32; 8]], f: impl Fn(&[u32; 8], Square, u32) -> [u32; 8]) {
    for occ in occupied {
        for index in 0..64 {
            black_box(f(black_box(occ), black_box(Square::new(index)), asm::QUEEN));
        }
    }
}

fn bench(c: &mut Criterion) {
    let boards = boards();
    let occupied = occupancies(&boards);

    // The two sides of every comparison agree before they are timed.
    for (board, occ) in boards.iter().zip(&occupied) {
        assert_eq!(asm::convert(board), convert::portable(board));
        assert_eq!(asm::board_key(board), asm::portable::board_key(board));
        for by in [Colour::White, Colour::Black] {
            assert_eq!(asm::attacks_of(board, by), attacks_of(board, by));
        }
        for index in 0..64 {
            let sq = Square::new(index);
            assert_eq!(
                asm::slider_targets(occ, sq, asm::QUEEN),
                asm::portable::slider_targets(occ, sq, asm::QUEEN)
            );
            assert_eq!(asm::knight_targets(sq), asm::portable::knight_targets(sq));
            assert_eq!(asm::king_targets(sq), asm::portable::king_targets(sq));
        }
    }

    let mut g = c.benchmark_group("asm/convert");
    g.bench_function("portable", |b| {
        b.iter(|| convert_all(&boards, convert::portable))
    });
    g.bench_function("asm", |b| b.iter(|| convert_all(&boards, asm::convert)));
    g.finish();

    let mut g = c.benchmark_group("asm/board_key");
    g.bench_function("portable", |b| {
        b.iter(|| key_all(&boards, asm::portable::board_key))
    });
    g.bench_function("asm", |b| b.iter(|| key_all(&boards, asm::board_key)));
    g.finish();

    let mut g = c.benchmark_group("asm/attacks_of");
    g.bench_function("portable", |b| b.iter(|| attacks_all(&boards, attacks_of)));
    g.bench_function("asm", |b| b.iter(|| attacks_all(&boards, asm::attacks_of)));
    g.finish();

    let mut g = c.benchmark_group("asm/knight_targets");
    g.bench_function("portable", |b| {
        b.iter(|| leaper_all(asm::portable::knight_targets))
    });
    g.bench_function("asm", |b| b.iter(|| leaper_all(asm::knight_targets)));
    g.finish();

    let mut g = c.benchmark_group("asm/king_targets");
    g.bench_function("portable", |b| {
        b.iter(|| leaper_all(asm::portable::king_targets))
    });
    g.bench_function("asm", |b| b.iter(|| leaper_all(asm::king_targets)));
    g.finish();

    let mut g = c.benchmark_group("asm/slider_targets");
    g.bench_function("portable", |b| {
        b.iter(|| slider_all(&occupied, asm::portable::slider_targets))
    });
    g.bench_function("asm", |b| {
        b.iter(|| slider_all(&occupied, asm::slider_targets))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50);
    targets = bench
}
criterion_main!(benches);
