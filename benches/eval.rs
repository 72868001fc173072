//! Wall-clock benchmarks of the two evaluators on the six standard positions, one group per
//! position (`eval/<id>`):
//!
//! - `frame`: `AttackBlock::new` (the attack tables, by AVX2 where the CPU has it) and the
//!   frame evaluator on them: the whole cost of a frame evaluation from the board;
//! - `frame-given-tables`: the frame evaluator alone on a built block: what a search node
//!   pays for it on top of the block it builds anyway for check and move ordering;
//! - `bitboards`: the conversion (`arch::convert::best`) and the bitboard evaluator: the
//!   whole cost of the paper's hybrid evaluation from the board;
//! - `bitboards-given-boards`: the bitboard evaluator alone on the converted boards;
//! - `network-fresh` and `network-updated`: the network's correction of the position and of
//!   a child, built afresh each time, or kept in the thread's accumulators and updated by
//!   the squares that changed (what the search runs; the frame's score is on top of it).
//!
//! Both evaluators' scores are checked equal on each position before its timing starts, and
//! the network's updated correction equal to its fresh one.
//! Run: `cargo bench --features benches --bench eval` (about a minute);
//! `benches/instructions.rs` (group `eval`) counts the instructions of the same four workloads.

mod common;

use std::hint::black_box;
use std::time::Duration;

use ccr::kernels::convert;
use ccr::kernels::eval::{
    evaluate_bitboards, evaluate_boards, evaluate_with, network_correction,
    network_correction_fresh,
};
use ccr::{AttackBlock, Position};
use common::{standard, timed_group};
use criterion::{Criterion, criterion_group, criterion_main};

fn evaluators(c: &mut Criterion) {
    ccr::init();
    for s in standard() {
        let pos = Position::from_fen(&s.fen).expect("a standard FEN");
        let block = AttackBlock::new(pos.board());
        let boards = convert::best(pos.board());
        let frame = evaluate_with(&pos, &block);
        assert_eq!(evaluate_bitboards(&pos), frame, "{}", s.id);
        assert_eq!(evaluate_boards(&boards, pos.side()), frame, "{}", s.id);
        let (warm_up, measurement) = (Duration::from_millis(500), Duration::from_secs(2));
        let mut group = timed_group(c, format!("eval/{}", s.id), 20, warm_up, measurement);
        group.bench_function("frame", |b| {
            b.iter(|| {
                let pos = black_box(&pos);
                evaluate_with(pos, &AttackBlock::new(pos.board()))
            })
        });
        group.bench_function("frame-given-tables", |b| {
            b.iter(|| evaluate_with(black_box(&pos), black_box(&block)))
        });
        group.bench_function("bitboards", |b| {
            b.iter(|| evaluate_bitboards(black_box(&pos)))
        });
        group.bench_function("bitboards-given-boards", |b| {
            b.iter(|| evaluate_boards(black_box(&boards), black_box(pos.side())))
        });
        // The network's correction of the position and of its first legal move's child, as
        // a search evaluates them one after the other: built afresh each time, then by the
        // thread's accumulators updated square by square.
        let child = pos.make(pos.legal_moves().as_slice()[0]);
        assert_eq!(
            network_correction(&pos),
            network_correction_fresh(&pos),
            "{}",
            s.id
        );
        assert_eq!(
            network_correction(&child),
            network_correction_fresh(&child),
            "{}",
            s.id
        );
        group.bench_function("network-fresh", |b| {
            b.iter(|| {
                network_correction_fresh(black_box(&pos))
                    + network_correction_fresh(black_box(&child))
            })
        });
        group.bench_function("network-updated", |b| {
            b.iter(|| network_correction(black_box(&pos)) + network_correction(black_box(&child)))
        });
        group.finish();
    }
}

criterion_group!(benches, evaluators);
criterion_main!(benches);
