//! What both benchmarks share: the six standard positions and the oracle engines' perft
//! written to do exactly the work `ccr::perft::perft` does.
//!
//! This is `mod common;` in each bench target (a folder without `main.rs` is not a target of
//! its own). Each target uses a different part of it, hence the `dead_code` allowances.

#![allow(dead_code)]

use std::hint::black_box;

/// One line of `tests/data/standard-perft.epd`.
pub struct Standard {
    /// The `;id` name.
    pub id: &'static str,
    /// The FEN (everything before the first `;`).
    pub fen: &'static str,
    /// The published perft counts, `counts[d - 1]` for depth `d`.
    pub counts: Vec<u64>,
}

impl Standard {
    /// The published count at `depth`.
    pub fn nodes(&self, depth: u32) -> u64 {
        self.counts[depth as usize - 1]
    }
}

/// The six standard positions, in file order.
pub fn standard() -> Vec<Standard> {
    include_str!("../../tests/data/standard-perft.epd")
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let mut fields = line.split(';');
            let fen = fields.next().expect("a FEN").trim();
            let mut id = "";
            let mut counts = Vec::new();
            for field in fields.map(str::trim) {
                if let Some(name) = field.strip_prefix("id ") {
                    id = name.trim();
                } else if let Some((depth, nodes)) =
                    field.strip_prefix('D').and_then(|f| f.split_once(' '))
                {
                    let depth: usize = depth.parse().expect("a depth");
                    assert_eq!(depth, counts.len() + 1, "depths in order in {line}");
                    counts.push(nodes.trim().parse().expect("a node count"));
                }
            }
            Standard { id, fen, counts }
        })
        .collect()
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

    /// Perft that makes every leaf move (clone + play, the child black-boxed), like
    /// `ccr::perft::perft(.., Leaves::Make)`.
    pub fn perft_make(pos: &Chess, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = pos.legal_moves();
        if depth == 1 {
            for m in &moves {
                let mut child = pos.clone();
                child.play_unchecked(m);
                black_box(child);
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

    /// Perft that makes every leaf move (clone + play, the child black-boxed).
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
                    black_box(child);
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
