//! Wall-clock benchmarks of the transposition keys (`ccr::RotationKey`) on the six standard
//! positions: the rotation key and the Zobrist baseline, from scratch and updated after a
//! move.
//!
//! One criterion group `keys/<id>` per position. Every workload computes one key per legal
//! move of the position, and the group sets `Throughput::Elements` to the number of moves, so
//! the time per key is the median over the moves (criterion prints keys/s):
//!
//! - `make`: `Position::make` alone, the baseline;
//! - `make_keyed`: `Position::make_keyed`, the engine's incremental rotation key;
//! - `make_rotation_update`, `make_zobrist_update`: `make`, then `RotationKey.update` or
//!   `Zobrist::update` from the position's key;
//! - `make_rotation_key`, `make_zobrist_key`: `make`, then the child's key from scratch;
//! - `rotation_key`, `zobrist_key`: the children's keys from scratch (`RotationKey.key`,
//!   `Zobrist::key`), without `make`.
//!
//! An incremental key costs its workload minus `make`. The workloads are shared with
//! `benches/instructions.rs` (`common::keys`), and every incremental key is checked against
//! the key from scratch before anything is timed.
//!
//! Run: `cargo bench --features benches --bench keys` (about a minute), or filter, e.g.
//! `cargo bench --features benches --bench keys -- keys/kiwipete`.

mod common;

use std::time::Duration;

use ccr::RotationKey;
use ccr_keystats::Zobrist;
use common::keys::{self, Input};
use common::{standard, timed_group};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn key_benches(c: &mut Criterion) {
    let zobrist = Zobrist::get();
    for s in standard() {
        let input = Input::new(&s.fen);
        let (warm_up, measurement) = (Duration::from_millis(300), Duration::from_secs(1));
        let mut group = timed_group(c, format!("keys/{}", s.id), 50, warm_up, measurement);
        group.throughput(Throughput::Elements(input.moves.len() as u64));
        group.bench_function("make", |b| b.iter(|| keys::make(&input)));
        group.bench_function("make_keyed", |b| b.iter(|| keys::make_keyed(&input)));
        group.bench_function("make_rotation_update", |b| {
            b.iter(|| keys::make_update(&RotationKey, &input, input.rotation))
        });
        group.bench_function("make_zobrist_update", |b| {
            b.iter(|| keys::make_update(zobrist, &input, input.zobrist))
        });
        group.bench_function("make_rotation_key", |b| {
            b.iter(|| keys::make_key(&RotationKey, &input))
        });
        group.bench_function("make_zobrist_key", |b| {
            b.iter(|| keys::make_key(zobrist, &input))
        });
        group.bench_function("rotation_key", |b| {
            b.iter(|| keys::key(&RotationKey, &input))
        });
        group.bench_function("zobrist_key", |b| b.iter(|| keys::key(zobrist, &input)));
        group.finish();
    }
}

criterion_group!(benches, key_benches);
criterion_main!(benches);
