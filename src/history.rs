//! Repetition and the fifty-move rule on keys: the position history a game or a search path
//! keeps, ready for the search.
//!
//! Each entry is a position's key and its half-move clock. A position can only repeat one
//! reached since the last capture or pawn move (the clock says how far back that was), and
//! only with the same side to move (every second entry), so the scan back is short.

/// The keys of the positions from the start of a game (or search root) to now.
#[derive(Clone, Debug, Default)]
pub(crate) struct History {
    entries: Vec<(u64, u16)>,
}

impl History {
    /// An empty history.
    pub(crate) fn new() -> History {
        History::default()
    }

    /// Records the position reached: its key and half-move clock.
    pub(crate) fn push(&mut self, key: u64, halfmove_clock: u16) {
        self.entries.push((key, halfmove_clock));
    }

    /// Forgets the last position (when a search takes its move back).
    pub(crate) fn pop(&mut self) {
        self.entries.pop();
    }

    /// How many positions are recorded.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// How many earlier positions equal the last one (same key, same side to move, no
    /// capture or pawn move in between).
    pub(crate) fn repetitions(&self) -> usize {
        let Some((&(key, clock), earlier)) = self.entries.split_last() else {
            return 0;
        };
        earlier
            .iter()
            .rev()
            .take(clock as usize)
            .skip(1)
            .step_by(2)
            .filter(|&&(k, _)| k == key)
            .count()
    }

    /// Whether the last position occurred before: the draw a search scores at once.
    pub(crate) fn is_repetition(&self) -> bool {
        self.repetitions() >= 1
    }

    /// Whether the last position is its third occurrence: a draw the rules let either side claim.
    pub(crate) fn is_threefold(&self) -> bool {
        self.repetitions() >= 2
    }

    /// Whether some position since the last capture or pawn move occurred before (the game
    /// has already repeated itself there).
    pub(crate) fn has_repeated(&self) -> bool {
        let Some(&(_, clock)) = self.entries.last() else {
            return false;
        };
        let first = self.entries.len().saturating_sub(clock as usize + 1);
        (first..self.entries.len()).any(|i| {
            let (key, clock) = self.entries[i];
            self.entries[..i]
                .iter()
                .rev()
                .take(clock as usize)
                .skip(1)
                .step_by(2)
                .any(|&(k, _)| k == key)
        })
    }

    /// Whether the fifty-move rule applies: a hundred plies without a capture or a pawn move
    /// (unless the last move mated, which the caller checks: mate takes precedence).
    pub(crate) fn is_fifty_move_draw(&self) -> bool {
        self.entries.last().is_some_and(|&(_, clock)| clock >= 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ccr::Position;

    /// Plays UCI moves from a FEN, recording every position.
    fn play(fen: &str, moves: &str) -> History {
        let mut pos = Position::from_fen(fen).unwrap();
        let mut history = History::new();
        history.push(pos.key(), pos.halfmove_clock());
        for text in moves.split_whitespace() {
            let mv = pos
                .parse_uci_move(text)
                .unwrap_or_else(|| panic!("{text} is legal"));
            pos.play(mv);
            history.push(pos.key(), pos.halfmove_clock());
        }
        history
    }

    const START: &str = crate::ccr::fen::STARTPOS;

    #[test]
    fn knights_out_and_back_repeat() {
        let h = play(START, "g1f3 g8f6 f3g1");
        assert_eq!(h.repetitions(), 0);
        let h = play(START, "g1f3 g8f6 f3g1 f6g8");
        assert_eq!(h.repetitions(), 1);
        assert!(h.is_repetition() && !h.is_threefold());
        let h = play(START, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
        assert_eq!(h.repetitions(), 2);
        assert!(h.is_threefold());
    }

    #[test]
    fn a_repetition_since_the_last_pawn_move_is_remembered() {
        assert!(!play(START, "g1f3 g8f6 f3g1").has_repeated());
        assert!(play(START, "g1f3 g8f6 f3g1 f6g8").has_repeated());
        // The repetition stays in the history after further moves…
        assert!(play(START, "g1f3 g8f6 f3g1 f6g8 b1c3").has_repeated());
        // …until a pawn move starts a new stretch.
        assert!(!play(START, "g1f3 g8f6 f3g1 f6g8 e2e4").has_repeated());
        assert!(!History::new().has_repeated());
    }

    #[test]
    fn a_pawn_move_or_lost_castling_right_breaks_repetition() {
        // After e4/e5 the knight dance repeats only positions after the pawn moves.
        let h = play(START, "e2e4 e7e5 g1f3 g8f6 f3g1 f6g8");
        assert_eq!(h.repetitions(), 1);
        // A king walk loses castling rights: back on e1 the position is a different one.
        let h = play(
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "e1f1 e8f8 f1e1 f8e8",
        );
        assert_eq!(h.repetitions(), 0);
        let h = play(
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "e1f1 e8f8 f1e1 f8e8 e1f1 e8f8 f1e1 f8e8",
        );
        assert_eq!(h.repetitions(), 1);
    }

    #[test]
    fn fifty_moves() {
        let h = play("8/8/4k3/8/8/3K4/8/8 w - - 98 80", "d3e3");
        assert!(!h.is_fifty_move_draw());
        let h = play("8/8/4k3/8/8/3K4/8/8 w - - 98 80", "d3e3 e6d6");
        assert!(h.is_fifty_move_draw());
        let mut h = h;
        h.pop();
        assert!(!h.is_fifty_move_draw());
        assert_eq!(h.len(), 2);
        assert!(!History::new().is_repetition() && History::new().len() == 0);
    }
}
