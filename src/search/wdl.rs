//! Win, draw and loss chances of a score: the model behind `UCI_ShowWDL`, fitted to ccr's
//! own games by `scripts/wdl.py` (its data, fit and plot: `docs/data/wdl.tsv`,
//! docs/STRENGTH.md).
//!
//! Stockfish's win-rate model: with m the move number clamped to 8..=120 and divided by 32,
//! a score of x centipawns wins with chance `1 / (1 + exp((a(m) - x) / b(m)))` and loses with
//! the same for -x, where a and b are cubics in m: a(m) is the score that wins half the games
//! at that move, b(m) how fast the chance rises around it. The rest is the draw.

use super::Score;

/// a(m)'s coefficients, highest power first (as `docs/data/wdl.tsv` gives them).
pub(crate) const A: [f64; 4] = [-16.441198, 134.353443, -195.211754, 174.551964];
/// b(m)'s coefficients, highest power first.
pub(crate) const B: [f64; 4] = [-14.729924, 106.227803, -206.377903, 182.398680];
/// The move numbers the model was fitted over; others are clamped to them.
const MOVES: (u16, u16) = (8, 120);
/// The move number's scale in the polynomials.
const MOVE_SCALE: f64 = 32.0;

/// Win, draw and loss in per mille for the side to move, which has `score` at full move
/// `move_number`; the three add up to 1000. A mate is certain either way.
pub(crate) fn wdl(score: Score, move_number: u16) -> [u32; 3] {
    let cp = match score {
        Score::Mate(n) if n > 0 => return [1000, 0, 0],
        Score::Mate(_) => return [0, 0, 1000],
        Score::Cp(cp) => f64::from(cp),
    };
    let m = f64::from(move_number.clamp(MOVES.0, MOVES.1)) / MOVE_SCALE;
    let cubic = |c: &[f64; 4]| ((c[0] * m + c[1]) * m + c[2]) * m + c[3];
    let (a, b) = (cubic(&A), cubic(&B));
    let chance = |x: f64| 1.0 / (1.0 + ((a - x) / b).exp());
    let win = (1000.0 * chance(cp)).round() as u32;
    let loss = (1000.0 * chance(-cp)).round() as u32;
    // Rounding can make them add up to 1001 where the draw is nearly nil.
    let loss = loss.min(1000 - win);
    [win, 1000 - win - loss, loss]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_add_up_and_follow_the_score() {
        let mut last_win = 0;
        for cp in (-3000..=3000).step_by(7) {
            for move_number in [1, 8, 30, 60, 120, 400] {
                let [w, d, l] = wdl(Score::Cp(cp), move_number);
                assert_eq!(w + d + l, 1000, "{cp} {move_number}");
                let [w2, _, l2] = wdl(Score::Cp(-cp), move_number);
                assert_eq!((w, l), (l2, w2), "symmetric: {cp} {move_number}");
            }
            let [w, _, _] = wdl(Score::Cp(cp), 30);
            assert!(w >= last_win, "{cp}");
            last_win = w;
        }
        assert_eq!(wdl(Score::Mate(3), 40), [1000, 0, 0]);
        assert_eq!(wdl(Score::Mate(-2), 40), [0, 0, 1000]);
        assert_eq!(wdl(Score::Mate(0), 40), [0, 0, 1000]);
    }

    /// The constants are the fit's: `docs/data/wdl.tsv`, which `scripts/wdl.py` writes.
    #[test]
    fn the_constants_are_the_fitted_ones() {
        let data = include_str!("../../docs/data/wdl.tsv");
        let param = |name: &str| -> f64 {
            data.lines()
                .find_map(|line| {
                    let fields: Vec<&str> = line.split('\t').collect();
                    (fields.len() > 2 && fields[0] == "param" && fields[1] == name)
                        .then(|| fields[2].parse().expect("a number"))
                })
                .unwrap_or_else(|| panic!("no {name} in docs/data/wdl.tsv"))
        };
        for (i, name) in ["a0", "a1", "a2", "a3"].iter().enumerate() {
            assert_eq!(A[i], param(name), "{name}");
        }
        for (i, name) in ["b0", "b1", "b2", "b3"].iter().enumerate() {
            assert_eq!(B[i], param(name), "{name}");
        }
    }
}
