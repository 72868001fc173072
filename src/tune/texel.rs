//! Texel's method: fit the evaluation's weights so that `sigmoid(K × eval / 400)` predicts
//! the labels of the training positions (mean squared error): game results, or expected
//! scores that blend a result with a deeper engine's evaluation.
//!
//! The evaluation is linear in its weights (a weighted sum of its features' counts), so each position is
//! turned into its sparse feature counts once, and the fit works on those alone: full-batch
//! gradient descent with Adam, after `K` is chosen to fit the starting weights best.

use crate::ccr::Position;
use crate::eval::{self, FULL_SCALE, Features, MAX_PHASE, S, param};

/// One training position: its nonzero counts, the share of each half in the score (the
/// phase, and the end-game scale) and its label for White (a result or an expected score).
pub struct Sample {
    counts: Vec<(u16, i16)>,
    mg_share: f64,
    eg_share: f64,
    result: f64,
}

/// An empty vector with room for `count` items, or the error of a lack of memory: the
/// training data can be as large as the user likes, so its buffers are reserved fallibly.
pub fn buffer<T>(count: usize, what: &str) -> Result<Vec<T>, String> {
    let mut v = Vec::new();
    v.try_reserve_exact(count).map_err(|_| {
        format!(
            "no memory for {what} ({count} of {} bytes)",
            std::mem::size_of::<T>()
        )
    })?;
    Ok(v)
}

/// Parses `FEN;RESULT` lines (RESULT 1.0, 0.5 or 0.0, or 1-0, 1/2-1/2, 0-1) into samples;
/// lines that do not parse, positions drawn by material and positions before move
/// `from_move` (still close to the random opening) are counted and skipped. Fails only for
/// a lack of memory.
pub fn load(text: &str, from_move: u16) -> Result<(Vec<Sample>, usize), String> {
    let mut skipped = 0;
    // In sorted order, so that the held-out tenth does not depend on the order in which
    // `ccr datagen`'s threads finished their games.
    let mut lines: Vec<&str> = buffer(text.lines().count(), "the lines of the data")?;
    lines.extend(text.lines().filter(|l| !l.trim().is_empty()));
    lines.sort_unstable();
    let mut samples = buffer(lines.len(), "the positions")?;
    for line in lines {
        let parsed = parse_record(line).and_then(|(pos, result)| {
            if pos.fullmove_number() < from_move {
                return None;
            }
            Some((eval::features(&pos)?, result))
        });
        match parsed {
            Some((features, result)) => samples.push(sample(&features, result)?),
            None => skipped += 1,
        }
    }
    Ok((samples, skipped))
}

/// One `FEN;RESULT` line as its position and label (RESULT 1.0, 0.5 or 0.0, 1-0, 1/2-1/2,
/// 0-1, or an expected score from 0 to 1), if it is one; a `FEN;RESULT;SCORE` line (`ccr
/// datagen --scores`) is one too, its score left aside.
pub fn parse_record(line: &str) -> Option<(Position, f64)> {
    parse_scored_record(line).map(|(pos, result, _)| (pos, result))
}

/// One `FEN;RESULT` or `FEN;RESULT;SCORE` line as its position, label and score (an
/// integer, centipawns for White), if it is one.
pub fn parse_scored_record(line: &str) -> Option<(Position, f64, Option<i32>)> {
    let mut fields = line.split(';');
    let (fen, result) = (fields.next()?, fields.next()?);
    let score = match fields.next() {
        Some(text) => Some(text.trim().parse::<i32>().ok()?),
        None => None,
    };
    if fields.next().is_some() {
        return None;
    }
    let result = match result.trim() {
        "1-0" => 1.0,
        "1/2-1/2" => 0.5,
        "0-1" => 0.0,
        // A result as a number, or an expected score (a blended label).
        text => text
            .parse::<f64>()
            .ok()
            .filter(|x| (0.0..=1.0).contains(x))?,
    };
    Some((Position::from_fen(fen.trim()).ok()?, result, score))
}

fn sample(features: &Features, result: f64) -> Result<Sample, String> {
    let nonzero = || features.counts.iter().enumerate().filter(|&(_, &c)| c != 0);
    let mut counts = buffer(nonzero().count(), "a position's features")?;
    counts.extend(nonzero().map(|(i, &c)| (i as u16, c as i16)));
    Ok(Sample {
        counts,
        mg_share: features.phase as f64 / MAX_PHASE as f64,
        eg_share: (1.0 - features.phase as f64 / MAX_PHASE as f64) * features.scale as f64
            / FULL_SCALE as f64,
        result,
    })
}

/// The weights as floating-point pairs while fitting.
type Weights = Vec<[f64; 2]>;

fn evaluate(sample: &Sample, weights: &Weights) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &sample.counts {
        mg += weights[i as usize][0] * c as f64;
        eg += weights[i as usize][1] * c as f64;
    }
    mg * sample.mg_share + eg * sample.eg_share
}

fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + (-k * eval / 400.0).exp())
}

/// Mean squared error of the predictions.
fn error(samples: &[Sample], weights: &Weights, k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(k, evaluate(s, weights))).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// Mean squared error of the predictions with integer weights.
pub fn error_of(samples: &[Sample], weights: &[S], k: f64) -> f64 {
    let weights: Weights = weights.iter().map(|w| [w.mg as f64, w.eg as f64]).collect();
    error(samples, &weights, k)
}

/// The `K` that fits the current weights best (golden-section search on 0.1..4).
pub fn fit_k(samples: &[Sample], weights: &Weights) -> f64 {
    let (mut lo, mut hi) = (0.1f64, 4.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(samples, weights, a) < error(samples, weights, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// How the fit runs.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Gradient steps over the whole training set.
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub rate: f64,
    /// Weight of the L2 pull toward the starting weights, per centipawn² (Adam moves weakly
    /// determined weights as fast as well determined ones; the pull keeps the former home).
    pub l2: f64,
    /// Weights left as they start (ranges of indices).
    pub frozen: Vec<std::ops::Range<usize>>,
}

/// The largest weight a fit may give, in centipawns (a hundred pawns): beyond it the fit has
/// run away rather than found something.
pub const MAX_WEIGHT: f64 = 10_000.0;

/// Fits the weights to `train`, starting from `start`; `progress` hears the training and
/// validation errors every 100 epochs. Returns the weights and `K`, or an error if the
/// settings are not finite and in range (`rate` > 0, `l2` ≥ 0) or the fit diverges (a
/// weight or an error no longer finite, or a weight beyond [`MAX_WEIGHT`]).
pub fn tune(
    train: &[Sample],
    validation: &[Sample],
    start: &[S],
    settings: &Settings,
    progress: &mut dyn FnMut(usize, f64, f64),
) -> Result<(Vec<S>, f64), String> {
    if !(settings.rate.is_finite() && settings.rate > 0.0) {
        return Err(format!(
            "the rate must be finite and above 0, not {}",
            settings.rate
        ));
    }
    if !(settings.l2.is_finite() && settings.l2 >= 0.0) {
        return Err(format!(
            "the L2 weight must be finite and at least 0, not {}",
            settings.l2
        ));
    }
    let diverged = |epoch: usize, what: &str| {
        format!(
            "the fit diverged at epoch {epoch} ({what}); no weights written (try a smaller --rate or --l2)"
        )
    };
    let origin: Weights = start.iter().map(|w| [w.mg as f64, w.eg as f64]).collect();
    let mut weights = origin.clone();
    let k = fit_k(train, &weights);
    if !k.is_finite() {
        return Err(diverged(0, "K is not finite"));
    }
    let (beta1, beta2, epsilon) = (0.9, 0.999, 1e-8);
    let mut m = vec![[0.0; 2]; weights.len()];
    let mut v = vec![[0.0; 2]; weights.len()];
    let n = train.len().max(1) as f64;
    for epoch in 1..=settings.epochs {
        let mut gradient = vec![[0.0f64; 2]; weights.len()];
        for s in train {
            let p = sigmoid(k, evaluate(s, &weights));
            // d(error)/d(eval) up to the constant factor 2 / 400.
            let g = (p - s.result) * p * (1.0 - p);
            for &(i, c) in &s.counts {
                gradient[i as usize][0] += g * c as f64 * s.mg_share;
                gradient[i as usize][1] += g * c as f64 * s.eg_share;
            }
        }
        for i in 0..weights.len() {
            if settings.frozen.iter().any(|r| r.contains(&i)) {
                continue;
            }
            for half in 0..2 {
                let pull = 2.0 * settings.l2 * (weights[i][half] - origin[i][half]);
                let g = gradient[i][half] * 2.0 * k / 400.0 / n + pull;
                m[i][half] = beta1 * m[i][half] + (1.0 - beta1) * g;
                v[i][half] = beta2 * v[i][half] + (1.0 - beta2) * g * g;
                let m_hat = m[i][half] / (1.0 - beta1.powi(epoch as i32));
                let v_hat = v[i][half] / (1.0 - beta2.powi(epoch as i32));
                weights[i][half] -= settings.rate * m_hat / (v_hat.sqrt() + epsilon);
            }
        }
        if let Some(w) = weights
            .iter()
            .flatten()
            .find(|w| !(w.is_finite() && w.abs() <= MAX_WEIGHT))
        {
            return Err(diverged(epoch, &format!("a weight reached {w}")));
        }
        if epoch % 100 == 0 || epoch == settings.epochs {
            let (train_error, validation_error) =
                (error(train, &weights, k), error(validation, &weights, k));
            if !(train_error.is_finite() && validation_error.is_finite()) {
                return Err(diverged(epoch, "the error is not finite"));
            }
            progress(epoch, train_error, validation_error);
        }
    }
    let fitted = weights
        .iter()
        .map(|w| eval::s(w[0].round() as i32, w[1].round() as i32))
        .collect();
    Ok((fitted, k))
}

/// Groups that `ccr tune --freeze` can hold fixed, by name.
pub const FREEZABLE: [(&str, std::ops::Range<usize>); 2] = [
    ("material", param::MATERIAL..param::PST),
    ("pst", param::PST..param::MOBILITY),
];

/// The groups of weights as `src/eval/weights.rs` lists them: name, first index, length,
/// weights per line.
const GROUPS: [(&str, usize, usize, usize); 20] = [
    (
        "MATERIAL: pawn, knight, bishop, rook, queen",
        param::MATERIAL,
        5,
        5,
    ),
    ("PST pawn", param::PST, 32, 4),
    ("PST knight", param::PST + 32, 32, 4),
    ("PST bishop", param::PST + 64, 32, 4),
    ("PST rook", param::PST + 96, 32, 4),
    ("PST queen", param::PST + 128, 32, 4),
    ("PST king", param::PST + 160, 32, 4),
    (
        "MOBILITY: minor, rook, queen or king",
        param::MOBILITY,
        3,
        3,
    ),
    (
        "KING_ATTACK: pawn, minor, rook, queen or king",
        param::KING_ATTACK,
        4,
        4,
    ),
    ("KING_DANGER: attack units 0-31", param::KING_DANGER, 32, 4),
    ("PAWN_SHIELD", param::PAWN_SHIELD, 1, 1),
    ("KING_OPEN_FILE", param::KING_OPEN_FILE, 1, 1),
    ("HANGING", param::HANGING, 1, 1),
    (
        "THREAT_BY_PAWN, THREAT_BY_MINOR, THREAT_BY_ROOK",
        param::THREAT_BY_PAWN,
        3,
        3,
    ),
    ("PASSED: ranks 1-8 from its own side", param::PASSED, 8, 4),
    (
        "PASSED_FREE, PASSED_BLOCKED, PASSED_OWN_KING, PASSED_ENEMY_KING",
        param::PASSED_FREE,
        4,
        4,
    ),
    ("ISOLATED, DOUBLED", param::ISOLATED, 2, 2),
    ("BISHOP_PAIR", param::BISHOP_PAIR, 1, 1),
    ("ROOK_OPEN, ROOK_SEMI_OPEN", param::ROOK_OPEN, 2, 2),
    ("TEMPO", param::TEMPO, 1, 1),
];

/// The text of `src/eval/weights.rs` for `weights`, with how they were made.
pub fn weights_file(weights: &[S], provenance: &str) -> String {
    let mut body = String::new();
    for &(name, first, len, per_line) in &GROUPS {
        let name = match name.strip_prefix("PST ") {
            Some(piece) => {
                format!("PST {piece}: ranks 1-8 from its own side, files a-d (h-e mirrored)")
            }
            None => name.to_string(),
        };
        body.push_str(&format!("    // {name}\n"));
        for line in weights[first..first + len].chunks(per_line) {
            let items: Vec<String> = line
                .iter()
                .map(|w| format!("s({}, {}),", w.mg, w.eg))
                .collect();
            body.push_str(&format!("    {}\n", items.join(" ")));
        }
    }
    format!(
        "//! The evaluation's weights, indexed by [`super::param`].\n//!\n{provenance}\n\n\
         use super::{{S, param, s}};\n\n\
         /// Every weight of the evaluation (middle game, end game), in centipawns.\n\
         #[rustfmt::skip]\n\
         pub const WEIGHTS: [S; param::COUNT] = [\n{body}];\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights::WEIGHTS;

    #[test]
    fn the_weights_file_reproduces_itself() {
        let text = weights_file(&WEIGHTS, "//! (test)");
        let groups: usize = GROUPS.iter().map(|g| g.2).sum();
        assert_eq!(groups, param::COUNT);
        let source = include_str!("../eval/weights.rs");
        let body = |t: &str| t[t.find("#[rustfmt::skip]").unwrap()..].to_string();
        assert_eq!(body(&text), body(source));
    }

    #[test]
    fn labels_are_results_or_expected_scores() {
        let fen = "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1";
        let lines: String = [
            "1-0", "0.73", "0", "1/2-1/2", "1.5", "-0.1", "nan", "inf", "x",
        ]
        .iter()
        .map(|label| format!("{fen};{label}\n"))
        .collect();
        let (samples, skipped) = load(&lines, 1).unwrap();
        // Sorted lines: 0, 0.73, 1-0, 1/2-1/2 are kept.
        let labels: Vec<f64> = samples.iter().map(|s| s.result).collect();
        assert_eq!(labels, [0.0, 0.73, 1.0, 0.5]);
        assert_eq!(skipped, 5);
    }

    #[test]
    fn tuning_moves_toward_the_results() {
        // White wins every game in which it has an extra pawn: the pawn's worth must grow
        // from a start that makes it nearly worthless.
        let mut lines = String::new();
        for fen in [
            "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1",
            "4k3/8/8/8/8/4P3/3P4/4K3 b - - 0 1",
            "4k3/8/8/3P4/8/4P3/8/4K3 w - - 0 1",
        ] {
            lines.push_str(&format!("{fen};1-0\n"));
        }
        lines.push_str("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1;1/2-1/2\nnot a fen;1-0\n");
        let (samples, skipped) = load(&lines, 1).unwrap();
        assert_eq!((samples.len(), skipped), (4, 1));
        let mut start = WEIGHTS.to_vec();
        start[param::MATERIAL] = eval::s(1, 1);
        let before = error(
            &samples,
            &start.iter().map(|w| [w.mg as f64, w.eg as f64]).collect(),
            1.0,
        );
        let settings = Settings {
            epochs: 200,
            rate: 1.0,
            l2: 0.0,
            frozen: Vec::new(),
        };
        let (fitted, _) = tune(&samples, &samples, &start, &settings, &mut |_, _, _| {}).unwrap();
        let after = error(
            &samples,
            &fitted.iter().map(|w| [w.mg as f64, w.eg as f64]).collect(),
            1.0,
        );
        assert!(after < before, "{before} -> {after}");
        assert!(fitted[param::MATERIAL].eg > 1);
    }
}
