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
//! `cargo bench --features benches --bench asm_instructions`.

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

/// One benchmark `name: routine` a line, each one whole `workload(&input, routine)` on the
/// input `setup` builds (not counted), or `workload(routine)` where there is none.
macro_rules! workload {
    (
        $workload:ident($input:ident: $ty:ty = $setup:ident) { $($name:ident: $routine:expr,)* }
    ) => {$(
        #[library_benchmark]
        #[bench::six($setup())]
        fn $name($input: $ty) {
            $workload(&$input, $routine);
        }
    )*};
    ($workload:ident() { $($name:ident: $routine:expr,)* }) => {$(
        #[library_benchmark]
        fn $name() {
            $workload($routine);
        }
    )*};
}

workload!(convert_all(boards: Vec<Ccr> = boards) {
    convert_portable: convert::portable,
    convert_asm: asm::convert,
});

workload!(key_all(boards: Vec<Ccr> = boards) {
    board_key_portable: portable::board_key,
    board_key_asm: board_key,
});

workload!(attacks_all(boards: Vec<Ccr> = boards) {
    attacks_of_portable: attacks_of,
    attacks_of_asm: asm::attacks_of,
});

workload!(leaper_all() {
    knight_targets_portable: portable::knight_targets,
    knight_targets_asm: knight_targets,
    king_targets_portable: portable::king_targets,
    king_targets_asm: king_targets,
});

workload!(slider_all(occupied: Vec<[u32; 8]> = six_occupancies) {
    slider_targets_portable: portable::slider_targets,
    slider_targets_asm: asm::slider_targets,
});

library_benchmark_group!(
    name = asm_group;
    benchmarks = convert_portable, convert_asm, board_key_portable, board_key_asm,
        attacks_of_portable, attacks_of_asm, knight_targets_portable, knight_targets_asm,
        king_targets_portable, king_targets_asm, slider_targets_portable, slider_targets_asm
);

main!(library_benchmark_groups = asm_group);
