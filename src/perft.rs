//! Perft: count the leaves of the legal move tree, the standard test of a move generator,
//! for any [`Representation`].

use std::hint::black_box;

use crate::moves::MoveList;
use crate::repr::Representation;
use crate::types::Move;

/// How the last ply is counted.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Leaves {
    /// Every leaf move is made (copy-make), as a search would.
    Make,
    /// The last ply's legal moves are counted without making them (and, where the
    /// representation can, without listing them: [`Representation::count_legal`]).
    Bulk,
}

/// The number of leaf nodes `depth` plies below `pos`.
pub fn perft<R: Representation>(pos: &R, depth: u32, leaves: Leaves) -> u64 {
    let mut lists = vec![MoveList::new(); depth as usize];
    count(pos, depth, leaves, &mut lists)
}

/// Perft of each legal root move, in generation order.
pub fn divide<R: Representation>(pos: &R, depth: u32, leaves: Leaves) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut lists = vec![MoveList::new(); depth as usize];
    let (root, below) = lists.split_first_mut().expect("depth is at least 1");
    pos.generate_legal(root);
    root.as_slice()
        .iter()
        .map(|&mv| (mv, count(&pos.make(mv), depth - 1, leaves, below)))
        .collect()
}

/// Counts with one preallocated move list per remaining ply.
fn count<R: Representation>(pos: &R, depth: u32, leaves: Leaves, lists: &mut [MoveList]) -> u64 {
    let Some((list, below)) = lists.split_first_mut() else {
        return 1;
    };
    if depth == 1 {
        if leaves == Leaves::Bulk {
            return pos.count_legal(list);
        }
        pos.generate_legal(list);
        // Each leaf is a copy played in place and handed to `black_box` by reference: the
        // child must be built in memory, and nothing copies it again (the crates' perft in
        // benches/common does the same).
        for &mv in list.as_slice() {
            let mut child = pos.clone();
            child.play(mv);
            black_box(&child);
        }
        return list.len() as u64;
    }
    pos.generate_legal(list);
    list.as_slice()
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play(mv);
            count(&child, depth - 1, leaves, below)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ccr::Position;

    #[test]
    fn startpos_shallow() {
        let p = Position::startpos();
        for (depth, nodes) in [(0, 1), (1, 20), (2, 400), (3, 8902)] {
            assert_eq!(perft(&p, depth, Leaves::Make), nodes);
            assert_eq!(perft(&p, depth, Leaves::Bulk), nodes);
        }
        let split = divide(&p, 2, Leaves::Make);
        assert_eq!(split.len(), 20);
        assert!(split.iter().all(|&(_, n)| n == 20));
    }
}
