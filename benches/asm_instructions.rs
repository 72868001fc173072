//! Instruction counts (iai-callgrind 0.16.1 under valgrind's callgrind) of the hand-written
//! assembly against the compiler's output of each routine's portable twin: the workloads of
//! `benches/asm.rs`, on the boards of the six standard positions.
//!
//! One group `asm`, one pair of functions per routine (`<routine>_portable`, `<routine>_asm`),
//! each one whole workload:
//!
//! - `convert`: the conversion of each of the six boards;
//! - `board_key`: the board part of the rotation key of each of the six boards;
//! - `attacks_of`: both colours' attack tables of each of the six boards (12 tables);
//! - `knight_targets`, `king_targets`: the targets from each of the 64 squares;
//! - `slider_targets`: queen rays from each of the 64 squares over each board's occupancy
//!   (384 calls).
//!
//! Building the boards and occupancies is setup and not counted. Divide by the number of
//! calls for the count per call.
//!
//! Needs valgrind and `iai-callgrind-runner` 0.16.1 (`make bench-setup`). Run:
//! `cargo bench --bench asm_instructions`.

mod common;

use ccr::Ccr;
use ccr::kernels::frame::attacks_of;
use ccr::kernels::{asm, convert};
use common::asm::{
    attacks_all, board_key, boards, convert_all, key_all, king_targets, knight_targets, leaper_all,
    occupancies, portable, slider_all,
};
use iai_callgrind::{library_benchmark, library_benchmark_group, main};

/// The six boards' occupancies.
fn six_occupancies() -> Vec<[u32; 8]> {
    occupancies(&boards())
}

#[library_benchmark]
#[bench::six(boards())]
fn convert_portable(boards: Vec<Ccr>) {
    convert_all(&boards, convert::portable);
}

#[library_benchmark]
#[bench::six(boards())]
fn convert_asm(boards: Vec<Ccr>) {
    convert_all(&boards, asm::convert);
}

#[library_benchmark]
#[bench::six(boards())]
fn board_key_portable(boards: Vec<Ccr>) {
    key_all(&boards, portable::board_key);
}

#[library_benchmark]
#[bench::six(boards())]
fn board_key_asm(boards: Vec<Ccr>) {
    key_all(&boards, board_key);
}

#[library_benchmark]
#[bench::six(boards())]
fn attacks_of_portable(boards: Vec<Ccr>) {
    attacks_all(&boards, attacks_of);
}

#[library_benchmark]
#[bench::six(boards())]
fn attacks_of_asm(boards: Vec<Ccr>) {
    attacks_all(&boards, asm::attacks_of);
}

#[library_benchmark]
fn knight_targets_portable() {
    leaper_all(portable::knight_targets);
}

#[library_benchmark]
fn knight_targets_asm() {
    leaper_all(knight_targets);
}

#[library_benchmark]
fn king_targets_portable() {
    leaper_all(portable::king_targets);
}

#[library_benchmark]
fn king_targets_asm() {
    leaper_all(king_targets);
}

#[library_benchmark]
#[bench::six(six_occupancies())]
fn slider_targets_portable(occupied: Vec<[u32; 8]>) {
    slider_all(&occupied, portable::slider_targets);
}

#[library_benchmark]
#[bench::six(six_occupancies())]
fn slider_targets_asm(occupied: Vec<[u32; 8]>) {
    slider_all(&occupied, asm::slider_targets);
}

library_benchmark_group!(
    name = asm_group;
    benchmarks = convert_portable, convert_asm, board_key_portable, board_key_asm,
        attacks_of_portable, attacks_of_asm, knight_targets_portable, knight_targets_asm,
        king_targets_portable, king_targets_asm, slider_targets_portable, slider_targets_asm
);

main!(library_benchmark_groups = asm_group);
