//! A playing strength players can choose (`UCI_LimitStrength`, `UCI_Elo`): the search is
//! held to a number of nodes a move, and the calibration games tie node counts to ratings.
//! The calibration games were played with the frame evaluator, so a limited search uses it
//! whatever the `Eval` option says.
//!
//! A node budget weakens the engine the way a slower machine would: it sees fewer plies and
//! fewer tactics, but every move it plays is one its search preferred, always legal, and it
//! still answers within its clock (the time limits hold as well). Strength grows by about the
//! same number of Elo for each doubling of the nodes, so between two calibrated settings the
//! budget is interpolated on a log scale (docs/STRENGTH.md has the games and the fit).

/// Calibrated settings, (Elo, nodes a move), by rising Elo: each Elo is the rating (rounded)
/// that the budget's games against Fairy-Max, Phalanx and Glaurung give it, on the scale that
/// holds Glaurung 2.2 at 2650 (docs/STRENGTH.md, "Strength limit").
const CALIBRATION: [(u32, u64); 5] = [
    (1720, 6_000),
    (2070, 20_000),
    (2270, 50_000),
    (2420, 100_000),
    (2530, 200_000),
];

/// Default, smallest and largest `UCI_Elo`: the calibrated range.
pub(crate) const ELO: (u32, u32, u32) = (
    CALIBRATION[CALIBRATION.len() - 1].0,
    CALIBRATION[0].0,
    CALIBRATION[CALIBRATION.len() - 1].0,
);

/// The nodes a move that play at `elo` is given: the calibrated budgets, interpolated
/// geometrically between two settings, and held at the ends of the range.
pub(crate) fn nodes_for(elo: u32) -> u64 {
    let elo = elo.clamp(ELO.1, ELO.2);
    let pair = CALIBRATION
        .windows(2)
        .find(|pair| elo <= pair[1].0)
        .unwrap_or(&CALIBRATION[CALIBRATION.len() - 2..]);
    let ((e0, n0), (e1, n1)) = (pair[0], pair[1]);
    let share = f64::from(elo - e0) / f64::from(e1 - e0);
    let doublings = (n1 as f64 / n0 as f64).log2() * share;
    (n0 as f64 * doublings.exp2()).round() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_calibrated_settings_get_their_own_budgets() {
        for (elo, nodes) in CALIBRATION {
            assert_eq!(nodes_for(elo), nodes, "{elo}");
        }
    }

    #[test]
    fn budgets_grow_with_elo_and_are_held_at_the_ends() {
        let budgets: Vec<u64> = (ELO.1 - 100..=ELO.2 + 100).map(nodes_for).collect();
        assert!(budgets.windows(2).all(|w| w[0] <= w[1]), "{budgets:?}");
        assert_eq!(nodes_for(0), CALIBRATION[0].1);
        assert_eq!(nodes_for(u32::MAX), CALIBRATION[CALIBRATION.len() - 1].1);
        assert!(
            CALIBRATION
                .windows(2)
                .all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1)
        );
    }

    #[test]
    fn between_two_settings_the_budget_is_geometric() {
        let ((e0, n0), (e1, n1)) = (CALIBRATION[0], CALIBRATION[1]);
        let middle = nodes_for((e0 + e1) / 2) as f64;
        let expected = (n0 as f64 * n1 as f64).sqrt();
        assert!(
            (middle / expected - 1.0).abs() < 0.01,
            "{middle} against {expected}"
        );
    }
}
