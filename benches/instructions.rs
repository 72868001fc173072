//! Instruction counts (iai-callgrind 0.16.1 under valgrind's callgrind) of ccr against the
//! oracle engines, shakmaty 0.27.3 and cozy-chess 0.3.4: exact and repeatable where the
//! wall clock of a shared machine is not.
//!
//! - group `movegen`: one legal move generation on each of the six standard positions (ccr
//!   `generate_legal` into a `MoveList`, shakmaty `legal_moves()`, cozy-chess `generate_moves`
//!   collected into a `Vec`);
//! - group `perft_make`: perft depth 3 making every leaf move, on startpos (8,902 leaves) and
//!   Kiwipete (97,862 leaves);
//! - group `attacks`: the attack tables on each of the six standard positions, one call of
//!   each workload of `benches/attacks.rs` (`AttackBlock::new`, `attacks_of`, `in_check`,
//!   `is_attacked` and `cheapest_attacker` over all 64 squares, the enemy's table and the
//!   count of our knights' and sliders' moves together and apart, the ray scan
//!   `frame::is_attacked` over all 64; shakmaty's `attacks_to` over all 64, its attack map
//!   and `is_check`). "The enemy" is the side not to move;
//! - group `keys`: the transposition keys on each of the six standard positions, one call of
//!   each workload of `benches/keys.rs` (`common::keys`), each computing one key per legal
//!   move: `make` alone, `make_keyed`, `make` + `RotationKey.update` / `Zobrist::update`,
//!   `make` + the child's key from scratch, and the children's keys from scratch. Divide by
//!   the number of legal moves (20, 48, 14, 6, 44, 46) for the count per key.
//!
//! - groups `repr_movegen`, `repr_captures`, `repr_perft`: every board representation
//!   (`ccr` on the kernel of `--impl simd`, `x88`, the converted `bitboard` with the SIMD
//!   conversion (both chosen in setup through `Variant::dispatch`) and `bitboard_portable`
//!   with the paper's loop, `bitboard_native`, `rotated`): legal and captures-only generation
//!   on the six
//!   positions, perft depth 3 making every leaf and bulk-counting, on startpos and Kiwipete;
//! - group `convert`: the C.C.R. → bitboards conversion, portable, SSSE3, AVX2 (where the CPU
//!   lacks one, its function is the portable one), on the six positions;
//! - group `eval`: one static evaluation of each of the six positions by each evaluator, the
//!   workloads of `benches/eval.rs`: `eval_frame` (`AttackBlock::new` and the frame
//!   evaluator), `eval_frame_given_tables` (the frame evaluator on a built block),
//!   `eval_bitboards` (the conversion and the bitboard evaluator) and
//!   `eval_bitboards_given_boards` (the bitboard evaluator on converted boards).
//!
//! The first two groups set `compare_by_id`, so the runner prints each oracle's counts
//! against ccr's for the same position (the bench id); `attacks` and `keys` do not (their
//! functions are different workloads). Building the positions, the attack blocks and the key
//! inputs is setup and not counted.
//!
//! Needs valgrind and `iai-callgrind-runner` 0.16.1 (`make bench-setup`). Run:
//! `cargo bench --features benches --bench instructions`.

mod common;

use std::hint::black_box;

use ccr::Rotated;
use ccr::RotationKey;
use ccr::X88;
use ccr::kernels::convert::{PieceBoards, WAYS, function as conversion};
use ccr::kernels::eval::{evaluate_bitboards, evaluate_boards, evaluate_with};
use ccr::kernels::frame::attacks_of;
use ccr::{
    AttackBlock, Ccr, Colour, Impl, Kernel, Leaves, MoveList, Portable, Position, Repr,
    Representation, Square, Tier, Variant, WithKernel, WithRepresentation, perft, with_kernel,
};
use ccr::{Bitboards, Converted};
use ccr_keystats::Zobrist;
use common::keys::Input;
use common::{attack, cozy, shak};
use iai_callgrind::{library_benchmark, library_benchmark_group, main};
use shakmaty::Position as _;

/// The FEN of standard position `index` (0 startpos, 1 kiwipete, 2-5 positions 3-6: the
/// bench ids `six_N` and `two_N` are these indices).
fn fen(index: usize) -> &'static str {
    ccr::positions::STANDARD[index]
}

/// The engine's legal generation on one kernel.
type Legal = fn(&Position, &mut MoveList);

/// The legal generation on the kernel `--impl simd` runs (the best tier this CPU has),
/// chosen in setup, as the engine chooses it once per search.
struct BestLegal;

impl WithKernel for BestLegal {
    type Output = Legal;

    fn run<K: Kernel>(self) -> Legal {
        |pos, list| pos.generate_legal(K::default(), list)
    }
}

fn ccr_setup(id: usize) -> (Position, MoveList, Legal) {
    (
        Position::from_fen(fen(id)).expect("ccr parses the standard FEN"),
        MoveList::new(),
        with_kernel(Impl::Simd, BestLegal),
    )
}

fn ccr_position(id: usize) -> Position {
    Position::from_fen(fen(id)).expect("ccr parses the standard FEN")
}

fn shak_position(id: usize) -> shakmaty::Chess {
    shak::position(fen(id))
}

fn cozy_setup(id: usize) -> (cozy_chess::Board, Vec<cozy_chess::Move>) {
    (cozy::position(fen(id)), Vec::with_capacity(256))
}

fn cozy_position(id: usize) -> cozy_chess::Board {
    cozy::position(fen(id))
}

#[library_benchmark]
#[benches::six(args = [0, 1, 2, 3, 4, 5], setup = ccr_setup)]
fn ccr_movegen(mut input: (Position, MoveList, Legal)) -> usize {
    // Borrowed in place: moving the tuple apart would copy the list, and valgrind would
    // count every word of that copy.
    (input.2)(black_box(&input.0), &mut input.1);
    black_box(&input.1).len()
}

#[library_benchmark]
#[benches::six(args = [0, 1, 2, 3, 4, 5], setup = shak_position)]
fn shakmaty_movegen(pos: shakmaty::Chess) -> usize {
    let moves = black_box(&pos).legal_moves();
    black_box(&moves).len()
}

#[library_benchmark]
#[benches::six(args = [0, 1, 2, 3, 4, 5], setup = cozy_setup)]
fn cozy_chess_movegen(mut input: (cozy_chess::Board, Vec<cozy_chess::Move>)) -> usize {
    cozy::legal_moves(black_box(&input.0), &mut input.1);
    black_box(&input.1).len()
}

#[library_benchmark]
#[benches::two(args = [0, 1], setup = ccr_position)]
fn ccr_perft_make_d3(pos: Position) -> u64 {
    perft(black_box(&pos), black_box(3), Leaves::Make)
}

#[library_benchmark]
#[benches::two(args = [0, 1], setup = shak_position)]
fn shakmaty_perft_make_d3(pos: shakmaty::Chess) -> u64 {
    shak::perft_make(black_box(&pos), black_box(3))
}

#[library_benchmark]
#[benches::two(args = [0, 1], setup = cozy_position)]
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

/// The board and the enemy (the side not to move).
fn ccr_board(id: usize) -> (Ccr, Colour) {
    let pos = ccr_position(id);
    (*pos.board(), pos.side().flip())
}

/// The built attack block and the enemy.
fn ccr_block(id: usize) -> (AttackBlock, Colour) {
    let (board, them) = ccr_board(id);
    (AttackBlock::new(&board), them)
}

/// The built attack block, the side to move and its king.
fn ccr_king(id: usize) -> (AttackBlock, Colour, Square) {
    let pos = ccr_position(id);
    (
        AttackBlock::new(pos.board()),
        pos.side(),
        pos.king(pos.side()),
    )
}

/// shakmaty's board and the enemy.
fn shak_board(id: usize) -> (shakmaty::Board, shakmaty::Color) {
    let pos = shak_position(id);
    (pos.board().clone(), !pos.turn())
}

#[library_benchmark]
#[benches::six(args = [0, 1, 2, 3, 4, 5], setup = ccr_board_detected)]
fn ccr_block_new(input: (Ccr, Colour)) -> u32 {
    let block = AttackBlock::new(black_box(&input.0));
    black_box(&block).words()[23]
}

#[library_benchmark]
#[benches::six(args = [0, 1, 2, 3, 4, 5], setup = ccr_board)]
fn ccr_attacks_of(input: (Ccr, Colour)) -> u32 {
    let table = attacks_of(black_box(&input.0), black_box(input.1));
    black_box(&table)[7]
}

/// [`ccr_board`] after the CPU-feature detection has run (its first use is not counted: the
/// binary runs it at start-up).
fn ccr_board_detected(id: usize) -> (Ccr, Colour) {
    ccr::init();
    ccr_board(id)
}

#[library_benchmark]
#[benches::six(args = [0, 1, 2, 3, 4, 5], setup = ccr_board_detected)]
fn ccr_attacks_of_avx2(input: (Ccr, Colour)) -> u32 {
    let table =
        ccr::kernels::attacks::attacks_of(black_box(&input.0), black_box(input.1), attacks_of);
    black_box(&table)[7]
}

/// The board, the enemy, the occupancy and the squares the side to move's pieces leave free,
/// after the CPU-feature detection.
fn ccr_count_input(id: usize) -> (Ccr, Colour, [u32; 8], [u32; 8]) {
    let (board, them) = ccr_board_detected(id);
    let masks = board.colour_masks();
    let occupied = std::array::from_fn(|w| masks[0][w] | masks[1][w]);
    (
        board,
        them,
        occupied,
        masks[them.flip() as usize].map(|own| !own),
    )
}

#[library_benchmark]
#[benches::six(args = [0, 1, 2, 3, 4, 5], setup = ccr_count_input)]
fn ccr_table_and_count_avx2(input: (Ccr, Colour, [u32; 8], [u32; 8])) -> u32 {
    let (board, them) = (black_box(&input.0), black_box(input.1));
    let (table, moves) =
        ccr::kernels::attacks::attacks_and_moves(Tier::Avx2, board, &[0; 8], them, || {
            attacks_of(board, them)
        });
    black_box(&table)[7] ^ moves.unwrap_or(0)
}

#[library_benchmark]
#[benches::six(args = [0, 1, 2, 3, 4, 5], setup = ccr_count_input)]
fn ccr_table_then_count_avx2(input: (Ccr, Colour, [u32; 8], [u32; 8])) -> u32 {
    let (board, them) = (black_box(&input.0), black_box(input.1));
    let table = ccr::kernels::attacks::attacks_of(board, them, attacks_of);
    let moves = ccr::kernels::attacks::count_piece_moves(board, &input.2, &input.3, them.flip());
    black_box(&table)[7] ^ moves.unwrap_or(0)
}

#[library_benchmark]
#[benches::six(args = [0, 1, 2, 3, 4, 5], setup = ccr_king)]
fn ccr_in_check(input: (AttackBlock, Colour, Square)) -> bool {
    black_box(&input.0).in_check(black_box(input.1), black_box(input.2))
}

/// One benchmark `name: workload(setup: Type)` a line: the `common::attack` workload over all
/// 64 squares, on the pair (attack block or board, the enemy) `setup` makes of each of the six
/// positions.
macro_rules! x64_benches {
    ($($name:ident: $workload:ident($setup:ident: $ty:ty);)*) => {$(
        #[library_benchmark]
        #[benches::six(args = [0, 1, 2, 3, 4, 5], setup = $setup)]
        fn $name(input: $ty) -> u32 {
            attack::$workload(black_box(&input.0), black_box(input.1))
        }
    )*};
}

x64_benches! {
    ccr_is_attacked_x64: ccr_is_attacked_64(ccr_block: (AttackBlock, Colour));
    ccr_cheapest_x64: ccr_cheapest_64(ccr_block: (AttackBlock, Colour));
    ccr_ray_scan_x64: ccr_ray_scan_64(ccr_board: (Ccr, Colour));
    shakmaty_attacks_to_x64: shakmaty_attacks_to_64(shak_board: (shakmaty::Board, shakmaty::Color));
    shakmaty_cheapest_x64: shakmaty_cheapest_64(shak_board: (shakmaty::Board, shakmaty::Color));
}

#[library_benchmark]
#[benches::six(args = [0, 1, 2, 3, 4, 5], setup = shak_board)]
fn shakmaty_attack_map(input: (shakmaty::Board, shakmaty::Color)) -> u64 {
    attack::shakmaty_attack_map(black_box(&input.0), black_box(input.1)).0
}

#[library_benchmark]
#[benches::six(args = [0, 1, 2, 3, 4, 5], setup = shak_position)]
fn shakmaty_is_check(pos: shakmaty::Chess) -> bool {
    black_box(&pos).is_check()
}

library_benchmark_group!(
    name = attacks;
    benchmarks =
        ccr_block_new,
        ccr_attacks_of,
        ccr_attacks_of_avx2,
        ccr_table_and_count_avx2,
        ccr_table_then_count_avx2,
        ccr_in_check,
        ccr_is_attacked_x64,
        ccr_cheapest_x64,
        ccr_ray_scan_x64,
        shakmaty_attacks_to_x64,
        shakmaty_cheapest_x64,
        shakmaty_attack_map,
        shakmaty_is_check
);

/// The key workloads' input: the position, its legal moves, its children and its keys. Leaked,
/// so that the benchmark neither copies it nor counts freeing its vectors.
fn key_input(id: usize) -> &'static Input {
    Box::leak(Box::new(Input::new(fen(id))))
}

/// One benchmark `name(input) => work` a line, on the six positions' [`key_input`].
macro_rules! key_benches {
    ($($name:ident($input:ident) => $work:expr;)*) => {$(
        #[library_benchmark]
        #[benches::six(args = [0, 1, 2, 3, 4, 5], setup = key_input)]
        fn $name($input: &'static Input) {
            $work;
        }
    )*};
}

key_benches! {
    make(input) => common::keys::make(black_box(input));
    make_keyed(input) => common::keys::make_keyed(black_box(input));
    make_rotation_update(input) =>
        common::keys::make_update(&RotationKey, black_box(input), input.rotation);
    make_zobrist_update(input) =>
        common::keys::make_update(Zobrist::get(), black_box(input), input.zobrist);
    make_rotation_key(input) => common::keys::make_key(&RotationKey, black_box(input));
    make_zobrist_key(input) => common::keys::make_key(Zobrist::get(), black_box(input));
    rotation_key(input) => common::keys::key(&RotationKey, black_box(input));
    zobrist_key(input) => common::keys::key(Zobrist::get(), black_box(input));
}

library_benchmark_group!(
    name = keys;
    benchmarks =
        make,
        make_keyed,
        make_rotation_update,
        make_zobrist_update,
        make_rotation_key,
        make_zobrist_key,
        rotation_key,
        zobrist_key
);

/// The position `id` in representation `R`, and an empty list.
fn repr_setup<R: Representation>(id: usize) -> (R, MoveList) {
    (repr_position(id), MoveList::new())
}

/// The position `id` in representation `R`, after one move generation so that tables
/// filled on first use (the magic attack table, the CPU-feature choice of the conversion)
/// are filled in setup, not counted.
fn repr_position<R: Representation>(id: usize) -> R {
    let pos = R::from_fen(fen(id)).expect("a standard FEN");
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    pos.generate_captures(&mut list);
    pos
}

/// What the representation benchmarks measure, on a representation type or on one chosen at
/// run time (the kernel of `--impl simd`, which no type outside the library names).
trait Subject {
    fn legal(&self, list: &mut MoveList);
    fn captures(&self, list: &mut MoveList);
    fn perft(&self, depth: u32, leaves: Leaves) -> u64;
}

impl<R: Representation> Subject for R {
    #[inline(always)]
    fn legal(&self, list: &mut MoveList) {
        self.generate_legal(list);
    }

    #[inline(always)]
    fn captures(&self, list: &mut MoveList) {
        self.generate_captures(list);
    }

    #[inline(always)]
    fn perft(&self, depth: u32, leaves: Leaves) -> u64 {
        perft(self, depth, leaves)
    }
}

/// A variant's representation, chosen in setup through `Variant::dispatch`, behind one
/// virtual call per measured call.
type Chosen = Box<dyn Subject>;

impl Subject for Chosen {
    fn legal(&self, list: &mut MoveList) {
        (**self).legal(list);
    }

    fn captures(&self, list: &mut MoveList) {
        (**self).captures(list);
    }

    fn perft(&self, depth: u32, leaves: Leaves) -> u64 {
        (**self).perft(depth, leaves)
    }
}

/// Standard position `id` in a variant's representation, for [`Variant::dispatch`].
struct Build(usize);

impl WithRepresentation for Build {
    type Output = Chosen;

    fn run<R: Representation>(self, _: Variant) -> Chosen {
        Box::new(repr_position::<R>(self.0))
    }
}

/// The position `id` in the representation of `--repr repr --impl simd`.
fn simd_position(repr: Repr, id: usize) -> Chosen {
    Variant::new(repr, Impl::Simd)
        .expect("a representation with kernels")
        .dispatch(Build(id))
}

fn ccr_simd_position(id: usize) -> Chosen {
    simd_position(Repr::Ccr, id)
}

fn ccr_simd_setup(id: usize) -> (Chosen, MoveList) {
    (ccr_simd_position(id), MoveList::new())
}

fn bitboard_simd_position(id: usize) -> Chosen {
    simd_position(Repr::Bitboard, id)
}

fn bitboard_simd_setup(id: usize) -> (Chosen, MoveList) {
    (bitboard_simd_position(id), MoveList::new())
}

/// Movegen, captures and perft depth 3 (make and bulk) of one representation, as four
/// benchmarks named `<prefix>_movegen` … on the six (movegen) or two (perft) positions.
macro_rules! representation_benches {
    ($r:ty, $movegen:ident, $captures:ident, $make:ident, $bulk:ident) => {
        representation_benches!(
            $r,
            [repr_setup::<$r>],
            [repr_position::<$r>],
            $movegen,
            $captures,
            $make,
            $bulk
        );
    };
    ($r:ty, [$($setup:tt)+], [$($position:tt)+], $movegen:ident, $captures:ident, $make:ident, $bulk:ident) => {
        #[library_benchmark]
        #[benches::six(args = [0, 1, 2, 3, 4, 5], setup = $($setup)+)]
        fn $movegen(mut input: ($r, MoveList)) -> usize {
            black_box(&input.0).legal(&mut input.1);
            black_box(&input.1).len()
        }

        #[library_benchmark]
        #[benches::six(args = [0, 1, 2, 3, 4, 5], setup = $($setup)+)]
        fn $captures(mut input: ($r, MoveList)) -> usize {
            black_box(&input.0).captures(&mut input.1);
            black_box(&input.1).len()
        }

        #[library_benchmark]
        #[benches::two(args = [0, 1], setup = $($position)+)]
        fn $make(pos: $r) -> u64 {
            black_box(&pos).perft(black_box(3), Leaves::Make)
        }

        #[library_benchmark]
        #[benches::two(args = [0, 1], setup = $($position)+)]
        fn $bulk(pos: $r) -> u64 {
            black_box(&pos).perft(black_box(3), Leaves::Bulk)
        }
    };
}

representation_benches!(
    Chosen,
    [ccr_simd_setup],
    [ccr_simd_position],
    ccr_repr_movegen,
    ccr_repr_captures,
    ccr_repr_perft_make,
    ccr_repr_perft_bulk
);
representation_benches!(
    X88,
    x88_movegen,
    x88_captures,
    x88_perft_make,
    x88_perft_bulk
);
representation_benches!(
    Chosen,
    [bitboard_simd_setup],
    [bitboard_simd_position],
    bitboard_movegen,
    bitboard_captures,
    bitboard_perft_make,
    bitboard_perft_bulk
);
representation_benches!(
    Converted<Portable>,
    bitboard_portable_movegen,
    bitboard_portable_captures,
    bitboard_portable_perft_make,
    bitboard_portable_perft_bulk
);
representation_benches!(
    Bitboards,
    bitboard_native_movegen,
    bitboard_native_captures,
    bitboard_native_perft_make,
    bitboard_native_perft_bulk
);
representation_benches!(
    Rotated,
    rotated_movegen,
    rotated_captures,
    rotated_perft_make,
    rotated_perft_bulk
);

library_benchmark_group!(
    name = repr_movegen;
    compare_by_id = true;
    benchmarks = ccr_repr_movegen, x88_movegen, bitboard_movegen, bitboard_portable_movegen,
        bitboard_native_movegen, rotated_movegen
);

library_benchmark_group!(
    name = repr_captures;
    compare_by_id = true;
    benchmarks = ccr_repr_captures, x88_captures, bitboard_captures, bitboard_portable_captures,
        bitboard_native_captures, rotated_captures
);

library_benchmark_group!(
    name = repr_perft;
    compare_by_id = true;
    benchmarks = ccr_repr_perft_make, x88_perft_make, bitboard_perft_make,
        bitboard_portable_perft_make, bitboard_native_perft_make, rotated_perft_make,
        ccr_repr_perft_bulk, x88_perft_bulk, bitboard_perft_bulk, bitboard_portable_perft_bulk,
        bitboard_native_perft_bulk, rotated_perft_bulk
);

/// The board of position `id` and the conversion `WAYS[WAY]` as a function (chosen
/// in setup: the CPU feature detection is not counted).
fn conversion_setup<const WAY: usize>(id: usize) -> (Ccr, fn(&Ccr) -> PieceBoards) {
    (*ccr_position(id).board(), conversion(WAYS[WAY]))
}

/// One conversion of the standard position's board with each implementation.
macro_rules! conversion_bench {
    ($name:ident, $way:expr) => {
        #[library_benchmark]
        #[benches::six(args = [0, 1, 2, 3, 4, 5], setup = conversion_setup::<$way>)]
        fn $name(input: (Ccr, fn(&Ccr) -> PieceBoards)) -> u64 {
            let (board, convert) = input;
            black_box(black_box(convert)(black_box(&board)))[0]
        }
    };
}

conversion_bench!(convert_portable, 0);
conversion_bench!(convert_ssse3, 1);
conversion_bench!(convert_avx2, 2);

library_benchmark_group!(
    name = convert;
    compare_by_id = true;
    benchmarks = convert_portable, convert_ssse3, convert_avx2
);

/// The position `id` after one evaluation by each evaluator, so that what is filled on first
/// use (the magic attack table, the CPU-feature choices) is filled in setup, not counted.
fn eval_position(id: usize) -> Position {
    ccr::init();
    let pos = ccr_position(id);
    let frame = evaluate_with(&pos, &AttackBlock::new(pos.board()));
    assert_eq!(evaluate_bitboards(&pos), frame, "position {id}");
    pos
}

/// [`eval_position`]'s attack block.
fn eval_block(id: usize) -> (Position, AttackBlock) {
    let pos = eval_position(id);
    (pos, AttackBlock::new(pos.board()))
}

/// [`eval_position`]'s converted boards and side to move.
fn eval_boards(id: usize) -> (PieceBoards, Colour) {
    let pos = eval_position(id);
    (ccr::kernels::convert::best(pos.board()), pos.side())
}

#[library_benchmark]
#[benches::six(args = [0, 1, 2, 3, 4, 5], setup = eval_position)]
fn eval_frame(pos: Position) -> i32 {
    let pos = black_box(&pos);
    evaluate_with(pos, &AttackBlock::new(pos.board()))
}

#[library_benchmark]
#[benches::six(args = [0, 1, 2, 3, 4, 5], setup = eval_block)]
fn eval_frame_given_tables(input: (Position, AttackBlock)) -> i32 {
    evaluate_with(black_box(&input.0), black_box(&input.1))
}

#[library_benchmark]
#[benches::six(args = [0, 1, 2, 3, 4, 5], setup = eval_position)]
fn eval_bitboards(pos: Position) -> i32 {
    evaluate_bitboards(black_box(&pos))
}

#[library_benchmark]
#[benches::six(args = [0, 1, 2, 3, 4, 5], setup = eval_boards)]
fn eval_bitboards_given_boards(input: (PieceBoards, Colour)) -> i32 {
    evaluate_boards(black_box(&input.0), black_box(input.1))
}

library_benchmark_group!(
    name = eval;
    compare_by_id = true;
    benchmarks = eval_frame, eval_frame_given_tables, eval_bitboards, eval_bitboards_given_boards
);

main!(
    library_benchmark_groups = movegen,
    perft_make,
    attacks,
    keys,
    repr_movegen,
    repr_captures,
    repr_perft,
    convert,
    eval
);
