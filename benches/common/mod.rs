//! What the benchmarks share: the six standard positions, the oracle engines' perft
//! (shakmaty, cozy-chess and the `chess` crate) written to do exactly the work
//! `ccr::perft` does, the attack-table workloads
//! (`attack`) timed by `benches/attacks.rs` and the key workloads (`keys`) timed by
//! `benches/keys.rs`, both also counted by `benches/instructions.rs`, and the assembly
//! routines only the benchmarks use with their twins and workloads (`asm`).
//!
//! This is `mod common;` in each bench target and in examples/crate_perft.rs (a folder
//! without `main.rs` is not a target of its own). Each target uses a different part of it,
//! hence the `dead_code` allowances.

#![allow(dead_code)]

#[cfg(ccr_asm)]
pub mod asm;

/// The Zobrist baseline's view of a position, shared with the binary.
#[path = "../../src/cli/on_board.rs"]
pub mod on_board;

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion};

/// One line of `tests/data/standard-perft.epd`.
pub use ccr::positions::PerftCase as Standard;

/// The six standard positions, in file order.
pub fn standard() -> Vec<Standard> {
    ccr::positions::parse_perft(include_str!("../../tests/data/standard-perft.epd"))
        .expect("the standard perft file reads")
}

/// A criterion group `name` of `samples` samples, each benchmark warmed up for `warm_up` and
/// measured for `measurement`.
pub fn timed_group(
    c: &mut Criterion,
    name: impl Into<String>,
    samples: usize,
    warm_up: Duration,
    measurement: Duration,
) -> BenchmarkGroup<'_, WallTime> {
    let mut group = c.benchmark_group(name);
    group
        .sample_size(samples)
        .warm_up_time(warm_up)
        .measurement_time(measurement);
    group
}

/// The perft depth of a standard position for `leaves`, chosen so one iteration takes roughly
/// 10-100 ms on the benchmark machine.
pub fn perft_depth(id: &str, leaves: ccr::Leaves) -> u32 {
    let (make, bulk) = match id {
        "startpos" => (5, 5),
        "kiwipete" => (4, 4),
        "position3" => (5, 6),
        "position4" => (4, 5),
        "position5" => (4, 4),
        "position6" => (4, 4),
        other => panic!("no depths for position {other}"),
    };
    match leaves {
        ccr::Leaves::Make => make,
        ccr::Leaves::Bulk => bulk,
    }
}

/// shakmaty 0.27.3.
pub mod shak {
    use super::black_box;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    /// The position of a FEN.
    pub fn position(fen: &str) -> Chess {
        let fen: Fen = fen.parse().expect("a valid FEN");
        fen.into_position(CastlingMode::Standard)
            .expect("a legal position")
    }

    /// Perft that makes every leaf move (clone + play, the child black-boxed by reference), like
    /// `ccr::perft(.., Leaves::Make)`.
    pub fn perft_make(pos: &Chess, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = pos.legal_moves();
        if depth == 1 {
            for m in &moves {
                let mut child = pos.clone();
                child.play_unchecked(m);
                black_box(&child);
            }
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                perft_make(&child, depth - 1)
            })
            .sum()
    }

    /// Bulk-counted perft: the library's own `shakmaty::perft`.
    pub fn perft_bulk(pos: &Chess, depth: u32) -> u64 {
        shakmaty::perft(pos, depth)
    }
}

/// cozy-chess 0.3.4.
pub mod cozy {
    use super::black_box;
    use cozy_chess::{Board, Move};

    /// The position of a FEN.
    pub fn position(fen: &str) -> Board {
        Board::from_fen(fen, false).expect("a valid FEN")
    }

    /// Every legal move, written into `buf` (cleared first), as ccr and shakmaty produce a
    /// list of moves.
    pub fn legal_moves(board: &Board, buf: &mut Vec<Move>) {
        buf.clear();
        board.generate_moves(|moves| {
            buf.extend(moves);
            false
        });
    }

    /// Perft that makes every leaf move (clone + play, the child black-boxed by reference).
    pub fn perft_make(board: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                if depth == 1 {
                    black_box(&child);
                    nodes += 1;
                } else {
                    nodes += perft_make(&child, depth - 1);
                }
            }
            false
        });
        nodes
    }

    /// Bulk-counted perft: the last ply is the popcount of each piece's move set
    /// (`PieceMoves::len`, which counts a promotion four times).
    pub fn perft_bulk(board: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        board.generate_moves(|moves| {
            if depth == 1 {
                nodes += moves.len() as u64;
            } else {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += perft_bulk(&child, depth - 1);
                }
            }
            false
        });
        nodes
    }
}

/// The `chess` crate 3.2.0 (a third oracle; its magic tables come from its build script).
pub mod chess3 {
    use super::black_box;
    use chess::{Board, ChessMove, MoveGen};
    use std::str::FromStr;

    /// The position of a FEN.
    pub fn position(fen: &str) -> Board {
        Board::from_str(fen).expect("a valid FEN")
    }

    /// Every legal move, written into `buf` (cleared first).
    pub fn legal_moves(board: &Board, buf: &mut Vec<ChessMove>) {
        buf.clear();
        buf.extend(MoveGen::new_legal(board));
    }

    /// Perft that makes every leaf move (`make_move_new`, the child black-boxed by reference).
    pub fn perft_make(board: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = MoveGen::new_legal(board);
        if depth == 1 {
            let mut nodes = 0;
            for mv in moves {
                black_box(&board.make_move_new(mv));
                nodes += 1;
            }
            return nodes;
        }
        moves
            .map(|mv| perft_make(&board.make_move_new(mv), depth - 1))
            .sum()
    }

    /// Bulk-counted perft: the library's own `MoveGen::movegen_perft_test` (the last ply is
    /// the generator's `len`).
    pub fn perft_bulk(board: &Board, depth: u32) -> u64 {
        MoveGen::movegen_perft_test(board, depth as usize) as u64
    }
}

/// The attack-table workloads: ccr's `AttackBlock` queries over all 64 squares, the ray scan
/// `frame::is_attacked` over all 64, and shakmaty's equivalents for scale. Each returns a
/// value that depends on every square, so nothing can be skipped.
///
/// Every square goes through `black_box`, so each loop makes 64 separate queries, as a
/// caller asking about a few squares would; without it the compiler turns the
/// `is_attacked` loop into a count over the table's eight words.
pub mod attack {
    use std::hint::black_box;

    use ccr::kernels::frame;
    use ccr::{AttackBlock, Ccr, Colour, Square};
    use shakmaty::{Bitboard, Board, Color, attacks};

    /// shakmaty's colour for a ccr colour.
    pub fn color(colour: Colour) -> Color {
        match colour {
            Colour::White => Color::White,
            Colour::Black => Color::Black,
        }
    }

    /// How many of the 64 squares `by` attacks: one `AttackBlock::is_attacked` per square.
    pub fn ccr_is_attacked_64(block: &AttackBlock, by: Colour) -> u32 {
        (0..64)
            .map(|i| u32::from(block.is_attacked(by, black_box(Square::new(i)))))
            .sum()
    }

    /// The sum of `AttackBlock::cheapest_attacker` (as its class bit, 0 for none) over the
    /// 64 squares.
    pub fn ccr_cheapest_64(block: &AttackBlock, by: Colour) -> u32 {
        (0..64)
            .map(|i| {
                block
                    .cheapest_attacker(by, Square::new(i))
                    .map_or(0, |c| c as u32)
            })
            .sum()
    }

    /// How many of the 64 squares `by` attacks: one ray scan `frame::is_attacked` per
    /// square, without an attack table.
    pub fn ccr_ray_scan_64(board: &Ccr, by: Colour) -> u32 {
        (0..64)
            .map(|i| u32::from(frame::is_attacked(board, black_box(Square::new(i)), by)))
            .sum()
    }

    /// How many of the 64 squares `by` attacks: one `Board::attacks_to` per square (the
    /// equivalent of the ray scan, with magic bitboards).
    pub fn shakmaty_attacks_to_64(board: &Board, by: Color) -> u32 {
        let occupied = board.occupied();
        shakmaty::Square::ALL
            .into_iter()
            .map(|sq| u32::from(board.attacks_to(black_box(sq), by, occupied).any()))
            .sum()
    }

    /// The cheapest attacker's class bit (pawn 8, knight or bishop 4, rook 2, queen or king
    /// 1, none 0) summed over the 64 squares: `Board::attacks_to` per square, then the
    /// attackers intersected with the role bitboards, cheapest first.
    pub fn shakmaty_cheapest_64(board: &Board, by: Color) -> u32 {
        let occupied = board.occupied();
        let minors = board.knights() | board.bishops();
        shakmaty::Square::ALL
            .into_iter()
            .map(|sq| {
                let attackers = board.attacks_to(black_box(sq), by, occupied);
                if (attackers & board.pawns()).any() {
                    8
                } else if (attackers & minors).any() {
                    4
                } else if (attackers & board.rooks()).any() {
                    2
                } else if attackers.any() {
                    1
                } else {
                    0
                }
            })
            .sum()
    }

    /// Everything `by` attacks, as one bitboard: the union of each piece's attack set (the
    /// bitboard counterpart of `attacks_of`, without the classes).
    pub fn shakmaty_attack_map(board: &Board, by: Color) -> Bitboard {
        let occupied = board.occupied();
        let mut map = Bitboard(0);
        for sq in board.by_color(by) {
            if let Some(role) = board.role_at(sq) {
                map |= attacks::attacks(sq, role.of(by), occupied);
            }
        }
        map
    }
}

/// The key workloads: for one position, one key per legal move, computed from scratch or
/// updated from the position's key, with `make` alone as the baseline. Every workload runs
/// over all the legal moves of the position; its cost per key is its time (or instruction
/// count) over the number of moves.
///
/// The position passes through `black_box` once per move, so nothing that depends on it (its
/// en-passant legality, its state terms, its rank words) can be hoisted out of the loop: each
/// move pays for its whole key, as a search making one move at a time does. Each child and its
/// key leave through `black_box`.
pub mod keys {
    use std::hint::black_box;

    use ccr::RotationKey;
    use ccr::{Move, Position};
    use ccr_keystats::Zobrist;

    /// A way to key positions, from scratch and after a move from the key before it: what the
    /// workloads are generic over, so that the two keys run the same loops. The engine's
    /// rotation key and the key statistics' Zobrist baseline (on the positions' identities).
    pub trait KeyScheme {
        /// The key of a position, computed from all of it.
        fn key(&self, pos: &Position) -> u64;

        /// The key of `after`, the position `before` (whose key is `key`) led to by one move.
        fn update(&self, key: u64, before: &Position, after: &Position) -> u64;
    }

    impl KeyScheme for RotationKey {
        #[inline(always)]
        fn key(&self, pos: &Position) -> u64 {
            RotationKey::key(self, pos)
        }

        #[inline(always)]
        fn update(&self, key: u64, before: &Position, after: &Position) -> u64 {
            RotationKey::update(self, key, before, after)
        }
    }

    use super::on_board::OnBoard;

    impl KeyScheme for Zobrist {
        #[inline(always)]
        fn key(&self, pos: &Position) -> u64 {
            Zobrist::key(self, &OnBoard(pos))
        }

        #[inline(always)]
        fn update(&self, key: u64, before: &Position, after: &Position) -> u64 {
            Zobrist::update(self, key, &OnBoard(before), &OnBoard(after))
        }
    }

    /// A position, its legal moves, its children (for the keys from scratch without `make`)
    /// and its two keys.
    pub struct Input {
        /// The position.
        pub pos: Position,
        /// Its legal moves.
        pub moves: Vec<Move>,
        /// The position after each move.
        pub children: Vec<Position>,
        /// Its rotation key.
        pub rotation: u64,
        /// Its Zobrist key.
        pub zobrist: u64,
    }

    impl Input {
        /// The input of a FEN; checks that every incremental key equals the key from scratch.
        pub fn new(fen: &str) -> Input {
            let pos = Position::from_fen(fen).expect("ccr parses the standard FEN");
            let moves = pos.legal_moves().as_slice().to_vec();
            let children: Vec<Position> = moves.iter().map(|&mv| pos.make(mv)).collect();
            let (rotation, zobrist) = (RotationKey.key(&pos), KeyScheme::key(Zobrist::get(), &pos));
            for (&mv, child) in moves.iter().zip(&children) {
                let key = RotationKey.key(child);
                assert_eq!(pos.make_keyed(mv, rotation), (*child, key), "{fen} {mv}");
                assert_eq!(RotationKey.update(rotation, &pos, child), key, "{fen} {mv}");
                assert_eq!(
                    KeyScheme::update(Zobrist::get(), zobrist, &pos, child),
                    KeyScheme::key(Zobrist::get(), child),
                    "{fen} {mv}"
                );
            }
            Input {
                pos,
                moves,
                children,
                rotation,
                zobrist,
            }
        }
    }

    /// `make` alone, every legal move: the baseline the keyed workloads are measured against.
    pub fn make(input: &Input) {
        for &mv in black_box(&input.moves) {
            black_box(black_box(&input.pos).make(mv));
        }
    }

    /// `make_keyed`, every legal move: the engine's incremental rotation key.
    pub fn make_keyed(input: &Input) {
        let key = black_box(input.rotation);
        for &mv in black_box(&input.moves) {
            black_box(black_box(&input.pos).make_keyed(mv, key));
        }
    }

    /// `make`, then `scheme.update` from the position's key, every legal move.
    pub fn make_update<K: KeyScheme>(scheme: &K, input: &Input, key: u64) {
        let key = black_box(key);
        for &mv in black_box(&input.moves) {
            let pos = black_box(&input.pos);
            let after = pos.make(mv);
            let key = scheme.update(key, pos, &after);
            black_box((after, key));
        }
    }

    /// `make`, then `scheme.key` of the child from scratch, every legal move.
    pub fn make_key<K: KeyScheme>(scheme: &K, input: &Input) {
        for &mv in black_box(&input.moves) {
            let after = black_box(&input.pos).make(mv);
            let key = scheme.key(&after);
            black_box((after, key));
        }
    }

    /// `scheme.key` from scratch of every child (no `make`).
    pub fn key<K: KeyScheme>(scheme: &K, input: &Input) {
        for child in black_box(&input.children) {
            black_box(scheme.key(black_box(child)));
        }
    }
}
