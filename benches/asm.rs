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
//! there. Run: `cargo bench --features benches --bench asm` (about a minute).

mod common;

use std::time::Duration;

use ccr::kernels::asm;
use ccr::kernels::convert;
use ccr::kernels::frame::attacks_of;
use common::asm::{
    attacks_all, board_key, boards, check, convert_all, key_all, king_targets, knight_targets,
    leaper_all, occupancies, portable, slider_all,
};
use criterion::{Criterion, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let boards = boards();
    let occupied = occupancies(&boards);

    // The two sides of every comparison agree before they are timed.
    check(&boards);

    let mut g = c.benchmark_group("asm/convert");
    g.bench_function("portable", |b| {
        b.iter(|| convert_all(&boards, convert::portable))
    });
    g.bench_function("asm", |b| b.iter(|| convert_all(&boards, asm::convert)));
    g.finish();

    let mut g = c.benchmark_group("asm/board_key");
    g.bench_function("portable", |b| {
        b.iter(|| key_all(&boards, portable::board_key))
    });
    g.bench_function("asm", |b| b.iter(|| key_all(&boards, board_key)));
    g.finish();

    let mut g = c.benchmark_group("asm/attacks_of");
    g.bench_function("portable", |b| b.iter(|| attacks_all(&boards, attacks_of)));
    g.bench_function("asm", |b| b.iter(|| attacks_all(&boards, asm::attacks_of)));
    g.finish();

    let mut g = c.benchmark_group("asm/knight_targets");
    g.bench_function("portable", |b| {
        b.iter(|| leaper_all(portable::knight_targets))
    });
    g.bench_function("asm", |b| b.iter(|| leaper_all(knight_targets)));
    g.finish();

    let mut g = c.benchmark_group("asm/king_targets");
    g.bench_function("portable", |b| {
        b.iter(|| leaper_all(portable::king_targets))
    });
    g.bench_function("asm", |b| b.iter(|| leaper_all(king_targets)));
    g.finish();

    let mut g = c.benchmark_group("asm/slider_targets");
    g.bench_function("portable", |b| {
        b.iter(|| slider_all(&occupied, portable::slider_targets))
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
