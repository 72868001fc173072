//! Wall-clock benchmarks of ccr against the oracle engines, shakmaty 0.27.3, cozy-chess 0.3.4
//! and chess 3.2.0, on the six standard positions (`tests/data/standard-perft.epd`).
//!
//! Every criterion group holds the four engines side by side on one position, so each report
//! carries the ratio, and every group sets `Throughput::Elements` so criterion prints
//! elements per second:
//!
//! - `movegen/<id>`: one legal move generation into a list (ccr `generate_legal` on the
//!   engine's kernel, `--impl simd`'s, into a reused `MoveList`, shakmaty `legal_moves()`,
//!   cozy-chess `generate_moves` and chess `MoveGen::new_legal` collected into a reused
//!   `Vec`); the elements are the generated moves; ccr's perft runs on the same kernel.
//! - `perft_make/<id>`: perft that makes every leaf move (copy-make, the child black-boxed), at
//!   a depth of roughly 10-100 ms; the elements are the leaf nodes.
//! - `perft_bulk/<id>`: perft whose last ply is counted without making the moves (ccr
//!   `Leaves::Bulk`, `shakmaty::perft`, cozy-chess popcounts of the piece move sets, chess
//!   `MoveGen::movegen_perft_test`).
//!
//! Each engine's counts are checked against the published ones before its timing starts.
//! Those checks run for every engine of a group even when a filter selects one, so a run
//! filtered to nothing in the group is the baseline an instruction count subtracts.
//!
//! Run: `cargo bench --features benches --bench movegen` (all, about 5 minutes), or filter, e.g.
//! `cargo bench --features benches --bench movegen -- perft_make`. `scripts/bench-arch.sh` runs it
//! on x86_64 and i686 alike (`make bench-arch`).

mod common;

use std::hint::black_box;
use std::time::Duration;

use ccr::{
    CcrWith, Impl, Kernel, Leaves, MoveList, Position, Representation, WithKernel, perft,
    with_kernel,
};
use common::{Standard, chess3, cozy, perft_depth, shak, standard, timed_group};
use criterion::measurement::WallTime;
use criterion::{
    BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group,
    criterion_main,
};
use shakmaty::Position as _;

/// The perft depth of a position for `leaves`: [`perft_depth`]. `CCR_BENCH_DEPTH=n` sets every
/// depth to `n`: `scripts/bench-arch.sh` counts instructions under callgrind in criterion's test
/// mode (one iteration each), where the timing depths would take minutes.
fn depth(id: &str, leaves: Leaves) -> u32 {
    if let Some(depth) = std::env::var("CCR_BENCH_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
    {
        return depth;
    }
    perft_depth(id, leaves)
}

/// The four engines' positions for one standard position.
struct Engines {
    ccr: Position,
    shak: shakmaty::Chess,
    cozy: cozy_chess::Board,
    chess: chess::Board,
}

impl Engines {
    fn new(s: &Standard) -> Engines {
        Engines {
            ccr: Position::from_fen(&s.fen).expect("ccr parses the standard FEN"),
            shak: shak::position(&s.fen),
            cozy: cozy::position(&s.fen),
            chess: chess3::position(&s.fen),
        }
    }
}

/// ccr's legal generation and perft (making or counting the leaves) on the engine's kernel,
/// that of `--impl simd` (the best tier this CPU has), chosen once through [`with_kernel`].
struct OnEngineKernel;

/// [`OnEngineKernel`]'s functions: generation, perft making the leaves, perft counting them.
type CcrFunctions = (
    fn(&Position, &mut MoveList),
    fn(&Position, u32) -> u64,
    fn(&Position, u32) -> u64,
);

impl WithKernel for OnEngineKernel {
    type Output = CcrFunctions;

    fn run<K: Kernel>(self) -> CcrFunctions {
        (
            |pos, list| pos.generate_legal(K::default(), list),
            |pos, depth| perft(&CcrWith::<K>::from_position(pos), depth, Leaves::Make),
            |pos, depth| perft(&CcrWith::<K>::from_position(pos), depth, Leaves::Bulk),
        )
    }
}

fn movegen(c: &mut Criterion) {
    let (ccr_legal, _, _) = with_kernel(Impl::Simd, OnEngineKernel);
    for s in standard() {
        let e = Engines::new(&s);
        let moves = s.count(1).expect("a published count");
        let (warm_up, measurement) = (Duration::from_millis(500), Duration::from_secs(2));
        let mut group = timed_group(c, format!("movegen/{}", s.id), 20, warm_up, measurement);
        group.throughput(Throughput::Elements(moves));

        let mut list = MoveList::new();
        ccr_legal(&e.ccr, &mut list);
        assert_eq!(list.len() as u64, moves, "ccr movegen {}", s.id);
        group.bench_function("ccr", |b| {
            b.iter(|| {
                ccr_legal(black_box(&e.ccr), &mut list);
                black_box(&list);
            })
        });

        assert_eq!(
            e.shak.legal_moves().len() as u64,
            moves,
            "shakmaty movegen {}",
            s.id
        );
        group.bench_function("shakmaty", |b| {
            b.iter(|| {
                // Black-boxed by reference: by value could copy the whole ArrayVec.
                let moves = black_box(&e.shak).legal_moves();
                black_box(&moves);
            })
        });

        bench_into_vec(
            &mut group,
            "cozy-chess",
            &e.cozy,
            cozy::legal_moves,
            moves,
            &s.id,
        );
        bench_into_vec(
            &mut group,
            "chess",
            &e.chess,
            chess3::legal_moves,
            moves,
            &s.id,
        );
        group.finish();
    }
}

/// One engine of a movegen group whose generator collects into a `Vec`: checks the count
/// against `moves`, then times the generation into a reused buffer (`legal_moves` a function
/// item, so the call is direct as when written out).
fn bench_into_vec<B, M, F: Fn(&B, &mut Vec<M>)>(
    group: &mut BenchmarkGroup<WallTime>,
    engine: &str,
    board: &B,
    legal_moves: F,
    moves: u64,
    id: &str,
) {
    let mut buf = Vec::with_capacity(256);
    legal_moves(board, &mut buf);
    assert_eq!(buf.len() as u64, moves, "{engine} movegen {id}");
    group.bench_function(engine, |b| {
        b.iter(|| {
            legal_moves(black_box(board), &mut buf);
            black_box(&buf);
        })
    });
}

/// One perft function per engine, in `Engines` order.
struct Perfts {
    ccr: fn(&Position, u32) -> u64,
    shak: fn(&shakmaty::Chess, u32) -> u64,
    cozy: fn(&cozy_chess::Board, u32) -> u64,
    chess: fn(&chess::Board, u32) -> u64,
}

/// One perft group: the four engines at `depth` on one position.
fn perft_group(c: &mut Criterion, name: &str, s: &Standard, depth: u32, f: &Perfts) {
    let (ccr_perft, shak_perft, cozy_perft, chess_perft) = (f.ccr, f.shak, f.cozy, f.chess);
    let e = Engines::new(s);
    let nodes = s.count(depth).expect("a published count");
    let mut group = c.benchmark_group(format!("{name}/{}", s.id));
    // Iterations of 10-100 ms: flat sampling, few samples.
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(nodes));
    let label = format!("{name} {} d{depth}", s.id);
    bench_perft(&mut group, "ccr", &e.ccr, ccr_perft, depth, nodes, &label);
    bench_perft(
        &mut group, "shakmaty", &e.shak, shak_perft, depth, nodes, &label,
    );
    bench_perft(
        &mut group,
        "cozy-chess",
        &e.cozy,
        cozy_perft,
        depth,
        nodes,
        &label,
    );
    bench_perft(
        &mut group,
        "chess",
        &e.chess,
        chess_perft,
        depth,
        nodes,
        &label,
    );
    group.finish();
}

/// One engine of a perft group: checks its count at `depth` against `nodes` (`label` names
/// the group in the failure), then times it as `<engine>/d<depth>`.
fn bench_perft<P>(
    group: &mut BenchmarkGroup<WallTime>,
    engine: &str,
    pos: &P,
    perft: fn(&P, u32) -> u64,
    depth: u32,
    nodes: u64,
    label: &str,
) {
    assert_eq!(perft(pos, depth), nodes, "{engine} {label}");
    group.bench_function(BenchmarkId::new(engine, format!("d{depth}")), |b| {
        b.iter(|| perft(black_box(pos), black_box(depth)))
    });
}

fn perft_make(c: &mut Criterion) {
    perft_groups(c, Leaves::Make);
}

fn perft_bulk(c: &mut Criterion) {
    perft_groups(c, Leaves::Bulk);
}

/// One perft group per standard position: `perft_make/<id>` or `perft_bulk/<id>`.
fn perft_groups(c: &mut Criterion, leaves: Leaves) {
    let (_, ccr_make, ccr_bulk) = with_kernel(Impl::Simd, OnEngineKernel);
    let (name, perfts) = match leaves {
        Leaves::Make => (
            "perft_make",
            Perfts {
                ccr: ccr_make,
                shak: shak::perft_make,
                cozy: cozy::perft_make,
                chess: chess3::perft_make,
            },
        ),
        Leaves::Bulk => (
            "perft_bulk",
            Perfts {
                ccr: ccr_bulk,
                shak: shak::perft_bulk,
                cozy: cozy::perft_bulk,
                chess: chess3::perft_bulk,
            },
        ),
    };
    for s in standard() {
        perft_group(c, name, &s, depth(&s.id, leaves), &perfts);
    }
}

criterion_group!(benches, movegen, perft_make, perft_bulk);
criterion_main!(benches);
