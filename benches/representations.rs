//! Wall-clock benchmarks of the board representations side by side: the C.C.R. (`ccr`), the 0x88 board (`x88`), the paper's hybrid (`bitboard`: the
//! C.C.R. in the tree, converted to bitboards for move generation, with the SIMD conversion,
//! and `bitboard-portable` with the paper's loop) and native bitboards made move by move
//! (`bitboard-native`), on the six standard positions; and the other implementations:
//! the C.C.R. with the enemy's attack table by AVX2 (`ccr-simd`) or assembly (`ccr-asm`),
//! the hybrid with the assembly conversion (`bitboard-asm`).
//!
//! Every criterion group holds all representations on one position, so each report carries
//! the ratios:
//!
//! - `repr_movegen/<id>`: one legal move generation into a reused `MoveList`;
//! - `repr_captures/<id>`: one captures-only generation;
//! - `repr_perft_make/<id>`: perft making every leaf move, `repr_perft_bulk/<id>` counting
//!   the last ply without making it, at the depths of `benches/movegen.rs`;
//! - `convert/<id>`: the C.C.R. → bitboards conversion, portable, SSSE3 and AVX2 (those the
//!   CPU has).
//!
//! The position sizes (what copy-make copies per node) are printed to stderr first.
//! Every count is checked against the published one before its timing starts.
//!
//! Run: `cargo bench --bench representations` (about 8 minutes), or filter, e.g.
//! `cargo bench --bench representations -- repr_movegen`.

mod common;

use std::hint::black_box;
use std::time::Duration;

#[cfg(ccr_asm)]
use ccr::asm::AsmPosition;
use ccr::bitboard::{Bitboards, Hybrid};
use ccr::ccr::Position;
use ccr::ccr::simd::SimdPosition;
#[cfg(ccr_asm)]
use ccr::convert::Asm;
use ccr::convert::{Conversion, Portable, Simd};
use ccr::moves::MoveList;
use ccr::perft::{Leaves, perft};
use ccr::repr::Representation;
use ccr::x88::X88;
use common::{Standard, standard};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};

/// Perft depths per position, `(make every leaf, bulk)`, as in `benches/movegen.rs`.
fn depths(id: &str) -> (u32, u32) {
    match id {
        "startpos" => (5, 5),
        "kiwipete" => (4, 4),
        "position3" => (5, 6),
        "position4" => (4, 5),
        "position5" => (4, 4),
        "position6" => (4, 4),
        other => panic!("no depths for position {other}"),
    }
}

/// The name a representation goes by in the reports (the hybrid's conversion spelled out).
trait Named: Representation {
    const LABEL: &'static str;
}

impl Named for Position {
    const LABEL: &'static str = "ccr";
}
impl Named for X88 {
    const LABEL: &'static str = "x88";
}
impl Named for Hybrid<Simd> {
    const LABEL: &'static str = "bitboard";
}
impl Named for Hybrid<Portable> {
    const LABEL: &'static str = "bitboard-portable";
}
impl Named for Bitboards {
    const LABEL: &'static str = "bitboard-native";
}
impl Named for SimdPosition {
    const LABEL: &'static str = "ccr-simd";
}
#[cfg(ccr_asm)]
impl Named for AsmPosition {
    const LABEL: &'static str = "ccr-asm";
}
#[cfg(ccr_asm)]
impl Named for Hybrid<Asm> {
    const LABEL: &'static str = "bitboard-asm";
}

/// Runs `bench` for every representation in one group.
macro_rules! for_each_representation {
    ($bench:ident, $group:expr, $s:expr) => {
        $bench::<Position>($group, $s);
        $bench::<X88>($group, $s);
        $bench::<Hybrid<Simd>>($group, $s);
        $bench::<Hybrid<Portable>>($group, $s);
        $bench::<Bitboards>($group, $s);
        $bench::<SimdPosition>($group, $s);
        #[cfg(ccr_asm)]
        $bench::<AsmPosition>($group, $s);
        #[cfg(ccr_asm)]
        $bench::<Hybrid<Asm>>($group, $s);
    };
}

fn group<'a>(c: &'a mut Criterion, name: &str, s: &Standard) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(format!("{name}/{}", s.id));
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    group
}

fn movegen_of<R: Named>(group: &mut BenchmarkGroup<WallTime>, s: &Standard) {
    let pos = R::from_fen(s.fen).expect("a standard FEN");
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    assert_eq!(
        list.len() as u64,
        s.nodes(1),
        "{} movegen {}",
        R::LABEL,
        s.id
    );
    group.bench_function(R::LABEL, |b| {
        b.iter(|| {
            black_box(&pos).generate_legal(&mut list);
            black_box(&list);
        })
    });
}

fn captures_of<R: Named>(group: &mut BenchmarkGroup<WallTime>, s: &Standard) {
    let pos = R::from_fen(s.fen).expect("a standard FEN");
    let mut list = MoveList::new();
    let mut reference = MoveList::new();
    Position::from_fen(s.fen)
        .expect("a standard FEN")
        .generate_captures(&mut reference);
    pos.generate_captures(&mut list);
    assert_eq!(
        list.len(),
        reference.len(),
        "{} captures {}",
        R::LABEL,
        s.id
    );
    group.bench_function(R::LABEL, |b| {
        b.iter(|| {
            black_box(&pos).generate_captures(&mut list);
            black_box(&list);
        })
    });
}

fn perft_of<R: Named>(group: &mut BenchmarkGroup<WallTime>, s: &Standard, leaves: Leaves) {
    let pos = R::from_fen(s.fen).expect("a standard FEN");
    let depth = match leaves {
        Leaves::Make => depths(s.id).0,
        Leaves::Bulk => depths(s.id).1,
    };
    assert_eq!(
        perft(&pos, depth, leaves),
        s.nodes(depth),
        "{} perft {}",
        R::LABEL,
        s.id
    );
    group.bench_function(R::LABEL, |b| {
        b.iter(|| perft(black_box(&pos), black_box(depth), leaves))
    });
}

fn perft_make_of<R: Named>(group: &mut BenchmarkGroup<WallTime>, s: &Standard) {
    perft_of::<R>(group, s, Leaves::Make);
}

fn perft_bulk_of<R: Named>(group: &mut BenchmarkGroup<WallTime>, s: &Standard) {
    perft_of::<R>(group, s, Leaves::Bulk);
}

/// Prints the position sizes and writes them where `scripts/bench-report.py` reads them.
fn sizes() {
    let sizes = [
        ("ccr", Position::size_in_bytes()),
        ("x88", X88::size_in_bytes()),
        ("bitboard", Hybrid::<Simd>::size_in_bytes()),
        ("bitboard-portable", Hybrid::<Portable>::size_in_bytes()),
        ("bitboard-native", Bitboards::size_in_bytes()),
        ("ccr-simd", SimdPosition::size_in_bytes()),
        ("ccr-asm", Position::size_in_bytes()),
        ("bitboard-asm", Position::size_in_bytes()),
    ];
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
        g.throughput(Throughput::Elements(s.nodes(1)));
        for_each_representation!(movegen_of, &mut g, &s);
        g.finish();
    }
}

fn captures(c: &mut Criterion) {
    for s in standard() {
        let mut g = group(c, "repr_captures", &s);
        for_each_representation!(captures_of, &mut g, &s);
        g.finish();
    }
}

fn perft_make(c: &mut Criterion) {
    for s in standard() {
        let mut g = group(c, "repr_perft_make", &s);
        g.throughput(Throughput::Elements(s.nodes(depths(s.id).0)));
        for_each_representation!(perft_make_of, &mut g, &s);
        g.finish();
    }
}

fn perft_bulk(c: &mut Criterion) {
    for s in standard() {
        let mut g = group(c, "repr_perft_bulk", &s);
        g.throughput(Throughput::Elements(s.nodes(depths(s.id).1)));
        for_each_representation!(perft_bulk_of, &mut g, &s);
        g.finish();
    }
}

fn convert(c: &mut Criterion) {
    for s in standard() {
        let board = Position::from_fen(s.fen).expect("a standard FEN").board;
        let mut g = group(c, "convert", &s);
        let reference = ccr::convert::portable(&board);
        for conversion in Conversion::available() {
            assert_eq!(conversion.convert(&board), reference, "{conversion:?}");
            let (name, convert) = (
                format!("{conversion:?}").to_lowercase(),
                conversion.function(),
            );
            g.bench_function(name, |b| b.iter(|| convert(black_box(&board))));
        }
        g.finish();
    }
}

criterion_group!(benches, movegen, captures, perft_make, perft_bulk, convert);
criterion_main!(benches);
