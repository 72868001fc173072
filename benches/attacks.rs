//! Wall-clock benchmarks of the attack tables (WHITE_ATTACKS / BLACK_ATTACKS) on the six
//! standard positions, with the ray scan and shakmaty for scale.
//!
//! One criterion group `attacks/<id>` per position, one function per workload; every figure
//! is the time of one call. "The enemy" is the side not to move, whose table the legal move
//! generator reads:
//!
//! - `ccr_block_new`: `AttackBlock::new`, the board and both tables (SIMD where the CPU has
//!   it: `arch::attacks::attack_tables`, both colours in one AVX-512 register);
//! - `ccr_block_by_frame`: `AttackBlock::by_frame`, the same block by one pass of the frame;
//! - `ccr_attacks_of`: `attacks_of`, the enemy's table alone;
//! - `ccr_attacks_of_avx2`: the same table with the eight rank words in one AVX2 register
//!   (`ccr::kernels::attacks::attacks_of`; the portable frame where the CPU lacks AVX2);
//! - `ccr_table_and_count_avx2`: the enemy's table and the count of the side to move's
//!   moves but pins, en passant and castling from the same fills
//!   (`ccr::kernels::attacks::attacks_and_moves` held to AVX2, what a bulk-counting perft's
//!   last ply builds), and `ccr_table_and_count_avx512`, the same by AVX-512 where the CPU
//!   has it, against
//! - `ccr_table_then_count_avx2`: the table and the knights' and sliders' count alone by two
//!   passes (`attacks_of` and `count_piece_moves`, each AVX2; both the frame where the CPU
//!   lacks AVX2);
//! - `ccr_in_check`: `AttackBlock::in_check` of the side to move, on a built block;
//! - `ccr_is_attacked_x64`, `ccr_cheapest_x64`: `is_attacked` and `cheapest_attacker` of the
//!   enemy on each of the 64 squares, on a built block;
//! - `ccr_ray_scan_x64`: `frame::is_attacked` on each of the 64 squares (no table: eight
//!   rays and the leapers from each square);
//! - `shakmaty_attacks_to_x64`, `shakmaty_cheapest_x64`: `Board::attacks_to` on each of the
//!   64 squares (magic bitboards), the second also finding the cheapest attacker's class;
//! - `shakmaty_attack_map`: the union of the enemy pieces' attack sets (a bitboard, no
//!   classes), the counterpart of `attacks_of`;
//! - `shakmaty_is_check`: `Position::is_check` of the side to move.
//!
//! One more group, `attacks_many`, times the ways of building many boards' tables ([`Batch`],
//! here beside its only benchmark: no engine path builds several boards' tables) on 256 boards
//! (every 8th position two plies from the six standard positions), per board
//! (`Throughput::Elements`), the table of the side to move on each:
//!
//! - `portable`: the frame, one board at a time;
//! - `avx2`: `arch::attacks::attacks_of` per board (the one-at-a-time AVX2 baseline);
//! - `avx2_pairs`: AVX2 with two boards per loop step, their kernels inlined side by side;
//! - `avx512_pairs`: AVX-512, two boards per `zmm` register (skipped where the CPU lacks it).
//!
//! The workloads are shared with `benches/instructions.rs` (`common::attack`), and their
//! results are checked against each other before anything is timed. In the x64 loops every
//! square passes through `black_box`, so they are 64 separate queries.
//!
//! Run: `cargo bench --features benches --bench attacks` (about 2 minutes), or filter, e.g.
//! `cargo bench --features benches --bench attacks -- attacks/kiwipete` or `-- attacks_many`.

mod common;

use std::hint::black_box;
use std::time::Duration;

use ccr::Tier;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
use ccr::kernels::avx2::{self, load, store, table};
use ccr::kernels::frame::attacks_of;
use ccr::{AttackBlock, Ccr, Colour, Position};
use common::{attack, shak, standard, timed_group};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shakmaty::Position as _;

/// The attack table of `by` by AVX2, the frame where the CPU lacks it.
#[inline]
fn simd_attacks_of(board: &Ccr, by: Colour) -> [u32; 8] {
    ccr::kernels::attacks::attacks_of(board, by, attacks_of)
}

/// One way to build the attack tables of many boards ([`Batch::attacks_of_many`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Batch {
    /// The portable frame, one board at a time.
    Portable,
    /// AVX2, one board per call (the one-at-a-time baseline).
    Avx2,
    /// AVX2, two boards per loop step, their kernels inlined side by side.
    Avx2Pairs,
    /// AVX-512F, two boards per `zmm` register (an odd last board by AVX2).
    Avx512Pairs,
}

impl Batch {
    /// Every way, slowest expected first, with its name in the reports.
    const ALL: [(Batch, &'static str); 4] = [
        (Batch::Portable, "portable"),
        (Batch::Avx2, "avx2"),
        (Batch::Avx2Pairs, "avx2_pairs"),
        (Batch::Avx512Pairs, "avx512_pairs"),
    ];

    /// The SIMD tier the way needs, if any.
    fn tier(self) -> Option<Tier> {
        match self {
            Batch::Portable => None,
            Batch::Avx2 | Batch::Avx2Pairs => Some(Tier::Avx2),
            Batch::Avx512Pairs => Some(Tier::Avx512),
        }
    }

    /// The attack table of `by` on each of `boards` into the same place of `out`, this way,
    /// or the portable way where the CPU lacks it.
    fn attacks_of_many(self, boards: &[Ccr], by: Colour, out: &mut [[u32; 8]]) {
        assert_eq!(boards.len(), out.len(), "one table per board");
        let available = self.tier().is_none_or(Tier::is_available);
        match self {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Batch::Avx2 if available => {
                for (board, table) in boards.iter().zip(out) {
                    *table = simd_attacks_of(board, by);
                }
            }
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the CPU has AVX2 (checked by the guard).
            Batch::Avx2Pairs if available => unsafe { pairs(boards, by, out) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Batch::Avx512Pairs if available => {
                let mut pairs = boards.chunks_exact(2);
                let mut tables = out.chunks_exact_mut(2);
                for (pair, two) in (&mut pairs).zip(&mut tables) {
                    let two: &mut [[u32; 8]; 2] = two.try_into().expect("chunks of two");
                    // SAFETY: the CPU has AVX-512F (checked by the guard).
                    unsafe {
                        ccr::kernels::avx512::attacks_of_pair(&pair[0], &pair[1], (by, by), two)
                    };
                }
                for (board, table) in pairs.remainder().iter().zip(tables.into_remainder()) {
                    // SAFETY: the CPU has AVX2 (checked by the guard).
                    *table = unsafe { avx2::attacks_of(board, by) };
                }
            }
            _ => {
                for (board, table) in boards.iter().zip(out) {
                    *table = attacks_of(board, by);
                }
            }
        }
    }
}

/// The tables of `by` on `boards` into `out` (as long), two boards per loop step: the
/// two kernels inlined side by side share their constants and give the out-of-order
/// core two independent chains.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[target_feature(enable = "avx2")]
unsafe fn pairs(boards: &[Ccr], by: Colour, out: &mut [[u32; 8]]) {
    let mut pairs = boards.chunks_exact(2);
    let mut tables = out.chunks_exact_mut(2);
    for (pair, two) in (&mut pairs).zip(&mut tables) {
        // SAFETY: AVX2 is enabled here.
        unsafe {
            let (a, b) = (table(load(&pair[0]), by), table(load(&pair[1]), by));
            two[0] = store(a);
            two[1] = store(b);
        }
    }
    for (board, table) in pairs.remainder().iter().zip(tables.into_remainder()) {
        // SAFETY: AVX2 is enabled here.
        *table = unsafe { avx2::attacks_of(board, by) };
    }
}

/// Times each `name => work` in `group`, the work repeated by criterion's `iter`.
macro_rules! time_each {
    ($group:ident, $($name:literal => $work:expr),* $(,)?) => {
        $($group.bench_function($name, |b| b.iter(|| $work));)*
    };
}

fn attacks(c: &mut Criterion) {
    for s in standard() {
        let pos = Position::from_fen(&s.fen).expect("ccr parses the standard FEN");
        let sh = shak::position(&s.fen);
        let (us, them) = (pos.side(), pos.side().flip());
        let (board, sh_board, sh_them) = (*pos.board(), sh.board().clone(), attack::color(them));
        let block = AttackBlock::new(&board);
        let king = pos.king(us);

        // The workloads agree before they are timed.
        let attacked = attack::ccr_is_attacked_64(&block, them);
        assert_eq!(attack::ccr_ray_scan_64(&board, them), attacked, "{}", s.id);
        assert_eq!(
            attack::shakmaty_attacks_to_64(&sh_board, sh_them),
            attacked,
            "{}",
            s.id
        );
        assert_eq!(
            attack::shakmaty_attack_map(&sh_board, sh_them).count() as u32,
            attacked,
            "{}",
            s.id
        );
        assert_eq!(
            attack::ccr_cheapest_64(&block, them),
            attack::shakmaty_cheapest_64(&sh_board, sh_them),
            "{}",
            s.id
        );
        assert_eq!(attacks_of(&board, them), *block.attacks(them), "{}", s.id);
        assert_eq!(block.in_check(us, king), sh.is_check(), "{}", s.id);

        let (warm_up, measurement) = (Duration::from_millis(300), Duration::from_secs(1));
        let mut group = timed_group(c, format!("attacks/{}", s.id), 50, warm_up, measurement);
        group.bench_function("ccr_block_new", |b| {
            b.iter(|| AttackBlock::new(black_box(&board)))
        });
        assert_eq!(AttackBlock::by_frame(&board), block, "{}", s.id);
        group.bench_function("ccr_block_by_frame", |b| {
            b.iter(|| AttackBlock::by_frame(black_box(&board)))
        });
        group.bench_function("ccr_attacks_of", |b| {
            b.iter(|| attacks_of(black_box(&board), black_box(them)))
        });
        assert_eq!(simd_attacks_of(&board, them), *block.attacks(them));
        group.bench_function("ccr_attacks_of_avx2", |b| {
            b.iter(|| simd_attacks_of(black_box(&board), black_box(them)))
        });
        let occupied: [u32; 8] = {
            let masks = board.colour_masks();
            std::array::from_fn(|w| masks[0][w] | masks[1][w])
        };
        let free = board.colour_masks()[us as usize].map(|own| !own);
        let unpinned = [0u32; 8];
        let table_then_count = |board: &Ccr| {
            let table = simd_attacks_of(board, them);
            let count = ccr::kernels::attacks::count_piece_moves(board, &occupied, &free, us);
            (table, count)
        };
        let table_and_count = |board: &Ccr| {
            ccr::kernels::attacks::attacks_and_moves(Tier::Avx2, board, &unpinned, them, || {
                attacks_of(board, them)
            })
        };
        let table_and_count_wide = |board: &Ccr| {
            ccr::kernels::attacks::attacks_and_moves(Tier::Avx512, board, &unpinned, them, || {
                attacks_of(board, them)
            })
        };
        assert_eq!(
            table_and_count(&board).0,
            table_then_count(&board).0,
            "{}",
            s.id
        );
        assert_eq!(
            table_and_count_wide(&board),
            table_and_count(&board),
            "{}",
            s.id
        );
        time_each!(group,
            "ccr_table_and_count_avx2" => table_and_count(black_box(&board)),
            "ccr_table_and_count_avx512" => table_and_count_wide(black_box(&board)),
            "ccr_table_then_count_avx2" => table_then_count(black_box(&board)),
            "ccr_in_check" => black_box(&block).in_check(black_box(us), black_box(king)),
            "ccr_is_attacked_x64" =>
                attack::ccr_is_attacked_64(black_box(&block), black_box(them)),
            "ccr_cheapest_x64" => attack::ccr_cheapest_64(black_box(&block), black_box(them)),
            "ccr_ray_scan_x64" => attack::ccr_ray_scan_64(black_box(&board), black_box(them)),
            "shakmaty_attacks_to_x64" =>
                attack::shakmaty_attacks_to_64(black_box(&sh_board), black_box(sh_them)),
            "shakmaty_cheapest_x64" =>
                attack::shakmaty_cheapest_64(black_box(&sh_board), black_box(sh_them)),
            "shakmaty_attack_map" =>
                attack::shakmaty_attack_map(black_box(&sh_board), black_box(sh_them)),
            "shakmaty_is_check" => black_box(&sh).is_check(),
        );
        group.finish();
    }
}

/// The batch ways against each other on the same 256 boards, time per board.
fn many(c: &mut Criterion) {
    let mut boards = Vec::new();
    for s in standard() {
        let root = Position::from_fen(&s.fen).expect("ccr parses the standard FEN");
        for child in root.legal_moves().as_slice().iter().map(|&m| root.make(m)) {
            for &m in child.legal_moves().as_slice() {
                let grandchild = child.make(m);
                boards.push((*grandchild.board(), grandchild.side()));
            }
        }
    }
    let boards: Vec<(Ccr, Colour)> = boards.into_iter().step_by(8).take(256).collect();
    assert_eq!(boards.len(), 256);
    // One colour per batch: the side to move of the first board (the API builds one colour's
    // tables); its twin, the frame, gives the expected tables.
    let by = boards[0].1;
    let boards: Vec<Ccr> = boards.into_iter().map(|(b, _)| b).collect();
    let expected: Vec<[u32; 8]> = boards.iter().map(|b| attacks_of(b, by)).collect();

    let (warm_up, measurement) = (Duration::from_millis(500), Duration::from_secs(2));
    let mut group = timed_group(c, "attacks_many", 50, warm_up, measurement);
    group.throughput(Throughput::Elements(boards.len() as u64));
    let mut out = vec![[0u32; 8]; boards.len()];
    for (batch, name) in Batch::ALL {
        if !batch.tier().is_none_or(Tier::is_available) {
            continue;
        }
        batch.attacks_of_many(&boards, by, &mut out);
        assert!(out == expected, "{name}");
        // Every batch length from 0 to 9 (odd remainders included) at offsets into the boards.
        for len in 0..=9 {
            for start in (0..boards.len() - len).step_by(31) {
                let mut part = vec![[0xDEAD_BEEF; 8]; len];
                batch.attacks_of_many(&boards[start..start + len], by, &mut part);
                assert_eq!(part, expected[start..start + len], "{name} {len}");
            }
        }
        group.bench_function(name, |b| {
            b.iter(|| batch.attacks_of_many(black_box(&boards), black_box(by), &mut out))
        });
    }
    group.finish();
}

criterion_group!(benches, attacks, many);
criterion_main!(benches);
