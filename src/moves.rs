//! A fixed-capacity list of moves, shared by every board representation.

use crate::types::Move;

/// Room for every legal move of any position (the known maximum is 218) and for the
/// pseudo-legal moves a generator may list before a filter removes them (FEN parsing rejects
/// material no game can reach, which bounds both).
pub(crate) const MAX_MOVES: usize = 320;

/// A fixed-capacity list of moves, filled by the generator without allocation.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::default(); MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move (the list has room for every position FEN parsing accepts).
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// How many moves the list holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Keeps only the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let mv = self.moves[i];
            if keep(mv) {
                self.moves[kept] = mv;
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// The moves in UCI notation, sorted: what tests compare with a list of names.
    #[cfg(test)]
    pub(crate) fn sorted_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.as_slice().iter().map(|m| m.to_string()).collect();
        names.sort();
        names
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}
