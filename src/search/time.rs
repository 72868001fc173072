//! Time management: how long to think on a move, from the clock the GUI sends.
//!
//! Two limits: the soft one decides whether another iteration of the deepening starts, the
//! hard one stops a search in the middle. Both keep `Move Overhead` (the GUI's and the
//! pipe's delay) in hand, never less than [`LEAST_OVERHEAD`] (the engine's own), and the hard
//! limit never exceeds what the clock allows, so a game is not lost on time from bullet
//! (1 s + 10 ms) to long games.

use std::time::Duration;

/// The clock of the side to move, as `go wtime/btime winc/binc movestogo` gives it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Clock {
    /// Time left.
    pub time: Duration,
    /// Increment per move.
    pub increment: Duration,
    /// Moves to the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// The soft and hard limits of one search.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Budget {
    /// Do not start another iteration past this.
    pub soft: Duration,
    /// Stop the search at this.
    pub hard: Duration,
}

/// How many moves the rest of the game is planned for without `movestogo`.
const PLANNED_MOVES: u32 = 30;

/// The soft limit's part of a move's share of the clock, per mille. Below a half, games at
/// 10+0.1 ended with a quarter of the clock unused (the median game against Ethereal 12.00:
/// 12.0 s used of 16 s, where Ethereal used 15.4 s).
const SOFT_PER_MILLE: u32 = 700;

/// How many overheads of the clock are never planned as thinking time; see [`budget`].
const RESERVE_OVERHEADS: u32 = 8;

/// The overhead a clocked search keeps in hand whatever `Move Overhead` says: the engine's
/// own latency (reading `go`, waking the search thread, writing `bestmove`), which a loaded
/// machine stretches to milliseconds. With none, `Move Overhead 0` lost every bullet game on
/// time on a loaded two-core machine (1 s + 10 ms: the clock settled where the increment
/// paid for the thinking, with nothing kept for a stalled reply).
pub(crate) const LEAST_OVERHEAD: Duration = Duration::from_millis(10);

/// The soft limit is scaled by `(EFFORT_BASE − share) × EFFORT_FACTOR`, all in per-mille,
/// where `share` is the part of the search's nodes that went below the best root move:
/// ×0.81 when it took 90 % of them, ×1.62 when it took 30 %.
const EFFORT_BASE: u64 = 1500;
/// See [`EFFORT_BASE`].
const EFFORT_FACTOR: u64 = 1350;

impl Budget {
    /// The soft limit for a search whose best root move took `share` per-mille of the
    /// nodes (`None`: not known yet): a move that took nearly all of them is clear, one that
    /// took few was contested and is worth more time. Never past the hard limit; a budget
    /// whose two limits are one ([`fixed`], `go movetime`) is used whole.
    pub(crate) fn soft_for(&self, share: Option<u64>) -> Duration {
        let Some(share) = share.filter(|_| self.soft < self.hard) else {
            return self.soft;
        };
        let scale = (EFFORT_BASE - share.min(1000)) * EFFORT_FACTOR / 1000;
        (self.soft * scale as u32 / 1000).min(self.hard)
    }
}

/// The limits for a move with `clock` left, keeping `overhead` (at least [`LEAST_OVERHEAD`])
/// in hand.
pub(crate) fn budget(clock: Clock, overhead: Duration) -> Budget {
    let overhead = overhead.max(LEAST_OVERHEAD);
    let floor = Duration::from_millis(1);
    // Never plan on the last `overhead` of the clock, nor on more than what is left.
    let available = clock.time.saturating_sub(overhead).max(floor);
    let moves = clock.moves_to_go.unwrap_or(PLANNED_MOVES).clamp(1, 50);
    if moves == 1 {
        // The last move before the control: most of what is left.
        return Budget {
            soft: available * 4 / 10,
            hard: available * 9 / 10,
        };
    }
    // Each move costs the overhead as well as its thinking: only the increment beyond it
    // pays for thought, three quarters of it planned. Counting the whole increment let a
    // bullet clock (1 s + 10 ms) settle a few milliseconds above the overhead, where one
    // slow reply loses on time.
    let increment = clock.increment.saturating_sub(overhead);
    // Where the increment pays for little, the clock settles where thinking costs what the
    // increment gives back: a little above the part of it never planned. With one overhead
    // there, bullet self-play on a loaded two-core machine held the clock near 100-200 ms,
    // and a reply stalled by the machine (steal time, up to a second) lost on time. The
    // clock is shared down to RESERVE_OVERHEADS of them instead.
    let plannable = available.saturating_sub(overhead * (RESERVE_OVERHEADS - 1));
    let share = (plannable / moves + increment * 3 / 4).min(available / 2);
    let soft = (share * SOFT_PER_MILLE / 1000).max(floor);
    let hard = (share * 4).min(available * 3 / 4).max(soft);
    Budget { soft, hard }
}

/// The limits of `go movetime`: the time asked for, less the overhead, all of it used.
pub(crate) fn fixed(movetime: Duration, overhead: Duration) -> Budget {
    let time = movetime
        .saturating_sub(overhead.min(movetime / 2))
        .max(Duration::from_millis(1));
    Budget {
        soft: time,
        hard: time,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(time: u64, inc: u64, mtg: Option<u32>) -> Clock {
        Clock {
            time: ms(time),
            increment: ms(inc),
            moves_to_go: mtg,
        }
    }

    #[test]
    fn the_hard_limit_always_leaves_time_on_the_clock() {
        for time in [1, 5, 10, 20, 25, 50, 100, 300, 1_000, 10_000, 600_000] {
            for inc in [0, 10, 100, 5_000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    for overhead in [0, 10, 30, 100] {
                        let b = budget(clock(time, inc, mtg), ms(overhead));
                        assert!(b.soft <= b.hard, "{time} {inc} {mtg:?} {overhead}");
                        let left = ms(time).saturating_sub(ms(overhead));
                        if left > ms(1) {
                            assert!(b.hard < left, "{time} {inc} {mtg:?} {overhead}: {b:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_hard_limit_keeps_to_six_fair_shares() {
        // A fair share is the clock over the moves to go (30 without movestogo); the UCI
        // tests allow six of them plus the increment. Holds while the increment is at most a
        // share (past that the increment pays for the move).
        let mut checked = 0;
        for time in [100, 300, 1_000, 3_000, 10_000, 60_000, 600_000] {
            for inc in [0, 10, 100, 1_000] {
                for mtg in [None, Some(2), Some(10), Some(40)] {
                    let moves = u64::from(mtg.unwrap_or(30));
                    if inc * moves > time {
                        continue;
                    }
                    let b = budget(clock(time, inc, mtg), ms(30));
                    assert!(
                        b.hard <= ms(6 * time / moves + inc),
                        "{time} {inc} {mtg:?}: {b:?}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 50, "{checked}");
    }

    #[test]
    fn bullet_keeps_its_share_of_the_clock() {
        // 1 s + 40 ms with 20 ms kept: a thirtieth of the clock above the reserve of eight
        // overheads, plus three quarters of the increment beyond the overhead; seven tenths
        // of that share before the soft limit, four of them at the hard one.
        let b = budget(clock(1_000, 40, None), ms(20));
        let share = ms(1_000 - 8 * 20) / 30 + ms(15);
        assert_eq!((b.soft, b.hard), (share * 7 / 10, share * 4), "{b:?}");
        // Nearly flagged: think for almost nothing.
        let b = budget(clock(15, 10, None), ms(20));
        assert!(b.hard <= ms(1), "{b:?}");
    }

    #[test]
    fn the_reserve_is_not_planned() {
        // 1 s + 10 ms with 30 ms kept: the increment pays for no thought, and the clock is
        // shared down to 240 ms.
        let b = budget(clock(1_000, 10, None), ms(30));
        assert_eq!(b.soft, ms(760) / 30 * 7 / 10, "{b:?}");
        // At the reserve and below it: the least thinking, while the increments refill it.
        for time in [240, 100, 40] {
            let b = budget(clock(time, 10, None), ms(30));
            assert_eq!((b.soft, b.hard), (ms(1), ms(1)), "{time}: {b:?}");
        }
        // A large increment still pays for thought there (held to half of what is left).
        let b = budget(clock(200, 1_000, None), ms(30));
        assert_eq!(b.soft, ms(170) / 2 * 7 / 10, "{b:?}");
    }

    #[test]
    fn no_overhead_still_keeps_the_engines_own() {
        // Move Overhead 0 (or anything below the least) plans as LEAST_OVERHEAD does: the
        // increment beyond it pays for thought, eight of it are the reserve.
        for overhead in [0, 1, 9, 10] {
            let b = budget(clock(1_000, 10, None), ms(overhead));
            assert_eq!(
                b,
                budget(clock(1_000, 10, None), LEAST_OVERHEAD),
                "{overhead}"
            );
            assert_eq!(b.soft, ms(1_000 - 8 * 10) / 30 * 7 / 10, "{b:?}");
        }
        for time in [2, 5, 11, 15, 20, 50, 80, 100, 300, 1_000, 60_000] {
            for inc in [0, 10, 100, 5_000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let b = budget(clock(time, inc, mtg), ms(0));
                    let left = ms(time).saturating_sub(LEAST_OVERHEAD);
                    if left > ms(1) {
                        assert!(b.hard < left, "{time} {inc} {mtg:?}: {b:?}");
                    } else {
                        assert!(b.hard <= ms(1), "{time} {inc} {mtg:?}: {b:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_contested_best_move_gets_more_time_and_a_clear_one_less() {
        let b = Budget {
            soft: ms(1_000),
            hard: ms(1_500),
        };
        assert_eq!(b.soft_for(None), ms(1_000));
        assert_eq!(b.soft_for(Some(900)), ms(810));
        assert_eq!(b.soft_for(Some(1_000)), ms(675));
        // 30 %: ×1.62, held to the hard limit.
        assert_eq!(b.soft_for(Some(300)), ms(1_500));
        assert_eq!(b.soft_for(Some(700)), ms(1_080));
        let movetime = fixed(ms(1_000), ms(20));
        assert_eq!(movetime.soft_for(Some(1_000)), movetime.soft);
    }

    #[test]
    fn movetime_is_kept() {
        assert_eq!(fixed(ms(100), ms(20)).hard, ms(80));
        assert_eq!(fixed(ms(10), ms(20)).hard, ms(5));
    }
}
