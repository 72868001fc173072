//! Wall-clock benchmarks of the board representations side by side: the C.C.R. (`ccr`), the
//! 0x88 board (`x88`), the converted generator (`bitboard`: the C.C.R. in the tree,
//! converted to bitboards for move generation, with the SIMD conversion, and
//! `bitboard-portable` with the paper's loop), native bitboards made move by move
//! (`bitboard-native`) and rotated bitboards (`rotated`), on the six standard positions; and
//! the other implementations:
//! the C.C.R. with the enemy's attack table by AVX2 (`ccr-simd`) or assembly (`ccr-asm`),
//! the converted generator with the assembly conversion (`bitboard-asm`).
//!
//! Every criterion group holds all representations on one position, so each report carries
//! the ratios:
//!
//! - `repr_movegen/<id>`: one legal move generation into a reused `MoveList`;
//! - `repr_captures/<id>`: one captures-only generation;
//! - `repr_perft_make/<id>`: perft making every leaf move, `repr_perft_bulk/<id>` counting
//!   the last ply without making it, at the depths of `benches/movegen.rs`
//!   (`common::perft_depth`);
//! - `convert/<id>`: the C.C.R. → bitboards conversion, portable, SSSE3 and AVX2 (those the
//!   CPU has).
//!
//! The position sizes (what copy-make copies per node) are printed to stderr first.
//! Every count is checked against the published one before its timing starts.
//!
//! Run: `cargo bench --features benches --bench representations` (about 8 minutes), or filter, e.g.
//! `cargo bench --features benches --bench representations -- repr_movegen`.

mod common;

use std::hint::black_box;
use std::time::Duration;

use ccr::kernels::convert;
use ccr::{Leaves, MoveList, Position, Representation, Variant, WithRepresentation, perft};
use common::{Standard, perft_depth, standard};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};

/// One workload, benchmarked in one group for the representation it is dispatched to (named
/// in the reports by [`Variant::name`]: `bitboard` is the converted generator with the SIMD
/// conversion).
struct Bench<'g, 'c, 's> {
    group: &'g mut BenchmarkGroup<'c, WallTime>,
    s: &'s Standard,
    workload: Workload,
}

/// What a [`Bench`] times.
#[derive(Copy, Clone)]
enum Workload {
    Movegen,
    Captures,
    Perft(Leaves),
}

impl WithRepresentation for Bench<'_, '_, '_> {
    type Output = ();

    fn run<R: Representation>(self, variant: Variant) {
        let label = variant.name();
        match self.workload {
            Workload::Movegen => movegen_of::<R>(self.group, self.s, &label),
            Workload::Captures => captures_of::<R>(self.group, self.s, &label),
            Workload::Perft(leaves) => perft_of::<R>(self.group, self.s, leaves, &label),
        }
    }
}

/// Runs `workload` for every representation in one group.
fn for_each_representation(group: &mut BenchmarkGroup<WallTime>, s: &Standard, workload: Workload) {
    for variant in Variant::all() {
        variant.dispatch(Bench { group, s, workload });
    }
}

fn group<'a>(c: &'a mut Criterion, name: &str, s: &Standard) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(format!("{name}/{}", s.id));
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    group
}

fn movegen_of<R: Representation>(group: &mut BenchmarkGroup<WallTime>, s: &Standard, label: &str) {
    let pos = R::from_fen(&s.fen).expect("a standard FEN");
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    assert_eq!(
        list.len() as u64,
        s.count(1).expect("a published count"),
        "{} movegen {}",
        label,
        s.id
    );
    group.bench_function(label, |b| {
        b.iter(|| {
            black_box(&pos).generate_legal(&mut list);
            black_box(&list);
        })
    });
}

fn captures_of<R: Representation>(group: &mut BenchmarkGroup<WallTime>, s: &Standard, label: &str) {
    let pos = R::from_fen(&s.fen).expect("a standard FEN");
    let mut list = MoveList::new();
    let mut reference = MoveList::new();
    Position::from_fen(&s.fen)
        .expect("a standard FEN")
        .generate_captures(ccr::Portable, &mut reference);
    pos.generate_captures(&mut list);
    assert_eq!(list.len(), reference.len(), "{} captures {}", label, s.id);
    group.bench_function(label, |b| {
        b.iter(|| {
            black_box(&pos).generate_captures(&mut list);
            black_box(&list);
        })
    });
}

fn perft_of<R: Representation>(
    group: &mut BenchmarkGroup<WallTime>,
    s: &Standard,
    leaves: Leaves,
    label: &str,
) {
    let pos = R::from_fen(&s.fen).expect("a standard FEN");
    let depth = perft_depth(&s.id, leaves);
    assert_eq!(
        perft(&pos, depth, leaves),
        s.count(depth).expect("a published count"),
        "{} perft {}",
        label,
        s.id
    );
    group.bench_function(label, |b| {
        b.iter(|| perft(black_box(&pos), black_box(depth), leaves))
    });
}

/// Prints the position sizes and writes them where `scripts/bench-report.py` reads them.
fn sizes() {
    struct Size;
    impl WithRepresentation for Size {
        type Output = usize;
        fn run<R: Representation>(self, _: Variant) -> usize {
            R::size_in_bytes()
        }
    }
    let sizes: Vec<(String, usize)> = Variant::all()
        .into_iter()
        .map(|v| (v.name(), v.dispatch(Size)))
        .collect();
    eprintln!("position sizes in bytes (what copy-make copies per node): {sizes:?}");
    let json: Vec<String> = sizes.iter().map(|(n, s)| format!("\"{n}\": {s}")).collect();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/target/criterion");
    let written = std::fs::create_dir_all(dir).and_then(|()| {
        std::fs::write(
            format!("{dir}/representation-sizes.json"),
            format!("{{{}}}\n", json.join(", ")),
        )
    });
    if let Err(e) = written {
        eprintln!("cannot write the sizes for the report: {e}");
    }
}

fn movegen(c: &mut Criterion) {
    sizes();
    for s in standard() {
        let mut g = group(c, "repr_movegen", &s);
        g.throughput(Throughput::Elements(s.count(1).expect("a published count")));
        for_each_representation(&mut g, &s, Workload::Movegen);
        g.finish();
    }
}

fn captures(c: &mut Criterion) {
    for s in standard() {
        let mut g = group(c, "repr_captures", &s);
        for_each_representation(&mut g, &s, Workload::Captures);
        g.finish();
    }
}

fn perft_make(c: &mut Criterion) {
    perft_groups(c, "repr_perft_make", Leaves::Make);
}

fn perft_bulk(c: &mut Criterion) {
    perft_groups(c, "repr_perft_bulk", Leaves::Bulk);
}

/// One perft group per standard position, named `<name>/<id>`, counting the leaves as `leaves`.
fn perft_groups(c: &mut Criterion, name: &str, leaves: Leaves) {
    for s in standard() {
        let mut g = group(c, name, &s);
        g.throughput(Throughput::Elements(
            s.count(perft_depth(&s.id, leaves))
                .expect("a published count"),
        ));
        for_each_representation(&mut g, &s, Workload::Perft(leaves));
        g.finish();
    }
}

fn convert(c: &mut Criterion) {
    for s in standard() {
        let board = *Position::from_fen(&s.fen).expect("a standard FEN").board();
        let mut g = group(c, "convert", &s);
        let reference = convert::portable(&board);
        for way in convert::available() {
            let function = convert::function(way);
            assert_eq!(function(&board), reference, "{}", convert::name(way));
            g.bench_function(convert::name(way), |b| {
                b.iter(|| function(black_box(&board)))
            });
        }
        g.finish();
    }
}

criterion_group!(benches, movegen, captures, perft_make, perft_bulk, convert);
criterion_main!(benches);
