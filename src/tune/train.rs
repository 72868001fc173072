//! Training the network evaluation (`crate::eval::network`) on `ccr datagen --scores` data:
//! the frame's score plus the network's output, through a sigmoid, is fitted to a blend of
//! the search's score (through the same sigmoid) and the game's result, by mean squared
//! error, in minibatches with Adam, in `f32`; the weights are then rounded to the network's
//! integers. The output layer starts at zero, so training starts from the frame's score.
//!
//! The gradient of a minibatch is summed by thread over fixed slices and the slices in
//! order, so that a run with the same data, seed and thread count gives the same network.
//! The weights, their moments and the threads' gradients are had fallibly: without them the
//! run is an error, not an abort.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};

use crate::ccr::Position;
use crate::eval::network::{self, HIDDEN, INPUTS, Network, QA, QB, SCALE};
use crate::tune::texel::{buffer, parse_scored_record};
use crate::types::Colour;

/// The most pieces a position has.
const MAX_PIECES: usize = 32;
/// Weights are kept within ± this, so that the rounded ones fit the network's integers
/// (32 columns times 1.98 × [`QA`] stay inside an i16 and 1.98 × [`QB`] is at most 127).
const CLIP: f32 = 1.98;

/// One training position: its inputs in White's view (Black's follow from them), the side
/// to move, and its labels from the side to move's point of view.
#[derive(Clone, Copy)]
pub struct Sample {
    inputs: [u16; MAX_PIECES],
    count: u8,
    white_to_move: bool,
    /// The search's score, centipawns.
    score: i16,
    /// The game's result: 0, 0.5 or 1.
    result: f32,
    /// The frame evaluation the network corrects, in units of [`SCALE`] centipawns.
    base: f32,
}

/// How a training run is made.
#[derive(Clone, Debug)]
pub struct Config {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per gradient step.
    pub batch: usize,
    /// Adam's step size at the start; it falls to a tenth over the last 40 % of the epochs
    /// and to a hundredth over the last 15 %.
    pub rate: f32,
    /// The share of the search's score in the label (the rest is the result).
    pub lambda: f32,
    /// Threads summing a batch's gradient.
    pub threads: usize,
    /// Seed of the first weights and of the order of the positions.
    pub seed: u64,
}

/// Parses `FEN;RESULT;SCORE` lines into samples, in the lines' sorted order (so that the
/// samples do not depend on the order in which `ccr datagen`'s threads finished their
/// games); lines that are not such records (a missing score among them) are counted and
/// skipped, blank lines ignored. Fails only for a lack of memory.
pub fn load(text: &str) -> Result<(Vec<Sample>, usize), String> {
    let mut lines: Vec<&str> = buffer(text.lines().count(), "the lines of the data")?;
    lines.extend(text.lines().filter(|l| !l.trim().is_empty()));
    lines.sort_unstable();
    let mut samples = buffer(lines.len(), "the positions")?;
    let mut skipped = 0;
    for line in lines {
        match parse_scored_record(line) {
            Some((pos, result, Some(score))) => samples.push(sample(&pos, result, score)),
            _ => skipped += 1,
        }
    }
    Ok((samples, skipped))
}

fn sample(pos: &Position, result: f64, score: i32) -> Sample {
    let mut s = Sample {
        inputs: [0; MAX_PIECES],
        count: 0,
        white_to_move: pos.side() == Colour::White,
        score: 0,
        result: 0.0,
        base: crate::eval::evaluate(pos) as f32 / SCALE as f32,
    };
    network::for_each_piece(pos, |code, index| {
        if (s.count as usize) < MAX_PIECES {
            s.inputs[s.count as usize] = network::inputs(code, index)[0] as u16;
            s.count += 1;
        }
    });
    let (score, result) = if s.white_to_move {
        (score, result as f32)
    } else {
        (-score, 1.0 - result as f32)
    };
    s.score = score.clamp(-i16::MAX as i32, i16::MAX as i32) as i16;
    s.result = result;
    s
}

/// The input in Black's view of the one `white` names in White's (see `network::inputs`).
fn black_view(white: u16) -> usize {
    ((white as usize + INPUTS / 2) % INPUTS) ^ 56
}

/// The network's weights while training.
#[derive(Clone)]
struct Weights {
    /// `INPUTS` columns of `HIDDEN`.
    features: Vec<f32>,
    feature_bias: Vec<f32>,
    /// The side to move's half, then the other's.
    output: Vec<f32>,
    output_bias: f32,
}

impl Weights {
    /// All weights zero; an error without the memory for them.
    fn zero() -> Result<Weights, String> {
        let zeros = |len: usize| -> Result<Vec<f32>, String> {
            let mut v = buffer(len, "the network's weights")?;
            v.resize(len, 0.0);
            Ok(v)
        };
        Ok(Weights {
            features: zeros(INPUTS * HIDDEN)?,
            feature_bias: zeros(HIDDEN)?,
            output: zeros(2 * HIDDEN)?,
            output_bias: 0.0,
        })
    }

    /// The hidden layer uniform within ±1/√fan-in, the output layer zero (the frame's
    /// score alone).
    fn random(seed: u64) -> Result<Weights, String> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut uniform = |bound: f32| {
            let unit = (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32;
            (2.0 * unit - 1.0) * bound
        };
        let mut w = Weights::zero()?;
        let feature_bound = 1.0 / (INPUTS as f32).sqrt();
        w.features
            .iter_mut()
            .for_each(|x| *x = uniform(feature_bound));
        Ok(w)
    }

    /// Every weight and its gradient, side by side, for the optimiser.
    fn all_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.features
            .iter_mut()
            .chain(self.feature_bias.iter_mut())
            .chain(self.output.iter_mut())
            .chain(std::iter::once(&mut self.output_bias))
    }

    fn add(&mut self, other: &Weights) {
        for (a, b) in self.all_mut().zip(other.all()) {
            *a += b;
        }
    }

    fn all(&self) -> impl Iterator<Item = f32> + '_ {
        self.features
            .iter()
            .chain(&self.feature_bias)
            .chain(&self.output)
            .chain(std::iter::once(&self.output_bias))
            .copied()
    }

    /// The network's output for `s` (in units of [`SCALE`] centipawns), with the two
    /// accumulators (side to move first) before their activation.
    fn forward(&self, s: &Sample, acc: &mut [[f32; HIDDEN]; 2]) -> f32 {
        let [us, them] = acc;
        us.copy_from_slice(&self.feature_bias);
        them.copy_from_slice(&self.feature_bias);
        let (white, black) = if s.white_to_move {
            (us, them)
        } else {
            (them, us)
        };
        for &input in &s.inputs[..s.count as usize] {
            let w = input as usize * HIDDEN;
            let b = black_view(input) * HIDDEN;
            for i in 0..HIDDEN {
                white[i] += self.features[w + i];
                black[i] += self.features[b + i];
            }
        }
        let mut out = self.output_bias + s.base;
        for (half, a) in acc.iter().enumerate() {
            let weights = &self.output[half * HIDDEN..(half + 1) * HIDDEN];
            for i in 0..HIDDEN {
                let x = a[i].clamp(0.0, 1.0);
                out += x * x * weights[i];
            }
        }
        out
    }
}

/// The label of a sample: the blend of its score's expected result and its game's result.
fn label(s: &Sample, lambda: f32) -> f32 {
    lambda * sigmoid(s.score as f32 / SCALE as f32) + (1.0 - lambda) * s.result
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Adds the gradient of the squared error over `samples` to `grad`; returns the summed
/// error.
fn gradient(w: &Weights, samples: &[Sample], lambda: f32, grad: &mut Weights) -> f64 {
    let mut acc = [[0.0f32; HIDDEN]; 2];
    let mut error = 0.0f64;
    for s in samples {
        let out = w.forward(s, &mut acc);
        let predicted = sigmoid(out);
        let diff = predicted - label(s, lambda);
        error += (diff * diff) as f64;
        let d_out = 2.0 * diff * predicted * (1.0 - predicted);
        grad.output_bias += d_out;
        let mut d_acc = [[0.0f32; HIDDEN]; 2];
        for half in 0..2 {
            let weights = &w.output[half * HIDDEN..(half + 1) * HIDDEN];
            let g_out = &mut grad.output[half * HIDDEN..(half + 1) * HIDDEN];
            for i in 0..HIDDEN {
                let a = acc[half][i];
                let x = a.clamp(0.0, 1.0);
                g_out[i] += d_out * x * x;
                if a > 0.0 && a < 1.0 {
                    d_acc[half][i] = d_out * weights[i] * 2.0 * x;
                }
            }
        }
        for ((g, us), them) in grad.feature_bias.iter_mut().zip(&d_acc[0]).zip(&d_acc[1]) {
            *g += us + them;
        }
        let (white, black) = if s.white_to_move {
            (&d_acc[0], &d_acc[1])
        } else {
            (&d_acc[1], &d_acc[0])
        };
        for &input in &s.inputs[..s.count as usize] {
            let wi = input as usize * HIDDEN;
            let bi = black_view(input) * HIDDEN;
            for i in 0..HIDDEN {
                grad.features[wi + i] += white[i];
                grad.features[bi + i] += black[i];
            }
        }
    }
    error
}

/// The mean squared error of the network `n` on `samples`; an error without the memory
/// to measure it.
pub fn error(n: &Network, samples: &[Sample], lambda: f32) -> Result<f64, String> {
    Ok(mean_error(&dequantise(n)?, samples, lambda))
}

/// The mean squared error of the weights `w` on `samples` (0 for none).
fn mean_error(w: &Weights, samples: &[Sample], lambda: f32) -> f64 {
    let mut acc = [[0.0f32; HIDDEN]; 2];
    let total = samples.iter().fold(0.0, |total, s| {
        let diff = sigmoid(w.forward(s, &mut acc)) - label(s, lambda);
        total + (diff * diff) as f64
    });
    total / samples.len().max(1) as f64
}

/// Adam's moments, one per weight.
struct Adam {
    m: Weights,
    v: Weights,
    steps: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;

    fn step(&mut self, w: &mut Weights, grad: &Weights, rate: f32, positions: usize) {
        self.steps += 1;
        let (c1, c2) = (
            1.0 - Self::BETA1.powi(self.steps),
            1.0 - Self::BETA2.powi(self.steps),
        );
        let scale = 1.0 / positions as f32;
        let moments = self.m.all_mut().zip(self.v.all_mut());
        for ((x, g), (m, v)) in w.all_mut().zip(grad.all()).zip(moments) {
            let g = g * scale;
            *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
            *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
            *x -= rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
        // The output bias is not clipped: it is stored as an i32.
        let bias = w.output_bias;
        w.all_mut().for_each(|x| *x = x.clamp(-CLIP, CLIP));
        w.output_bias = bias;
    }
}

/// The step size for `epoch` of `epochs`.
fn rate_at(config: &Config, epoch: usize) -> f32 {
    let done = epoch as f32 / config.epochs as f32;
    if done >= 0.85 {
        config.rate * 0.01
    } else if done >= 0.6 {
        config.rate * 0.1
    } else {
        config.rate
    }
}

/// Trains a network on `samples`; `report` hears, after each epoch, its number, the mean
/// error of the training positions during it and that of the `held` ones after it (`None`
/// when none is held out). `config.threads` slices of each batch are summed at once, the
/// first on the calling thread. Fails, with why, without the memory or the threads, and
/// when the fit diverges (an error or a weight no longer finite, or an output bias beyond
/// the network's integer).
pub fn train(
    config: &Config,
    samples: &mut [Sample],
    held: &[Sample],
    report: &mut dyn FnMut(usize, f64, Option<f64>),
) -> Result<Network, String> {
    let mut w = Weights::random(config.seed)?;
    let mut adam = Adam {
        m: Weights::zero()?,
        v: Weights::zero()?,
        steps: 0,
    };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed ^ 0x5eed);
    let threads = config.threads.max(1);
    let mut grads = buffer(threads, "the threads' gradients")?;
    for _ in 0..threads {
        grads.push(Weights::zero()?);
    }
    for epoch in 0..config.epochs {
        // Fisher-Yates with the run's own generator.
        for i in (1..samples.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            samples.swap(i, j);
        }
        let rate = rate_at(config, epoch);
        let mut total = 0.0;
        for batch in samples.chunks(config.batch.max(1)) {
            let (error, used) = batch_gradient(&w, batch, config.lambda, &mut grads)?;
            total += error;
            let (first, rest) = grads.split_at_mut(1);
            for other in &rest[..used - 1] {
                first[0].add(other);
            }
            adam.step(&mut w, &first[0], rate, batch.len());
        }
        let error = total / samples.len().max(1) as f64;
        let held_error = (!held.is_empty()).then(|| mean_error(&w, held, config.lambda));
        if let Some(why) = divergence(&w, error, held_error) {
            return Err(format!(
                "the fit diverged at epoch {} ({why}); no network written (try a smaller --rate)",
                epoch + 1
            ));
        }
        report(epoch + 1, error, held_error);
    }
    quantise(&w)
}

/// Sums the gradient of `batch` into `grads`, one slice per gradient, the first on this
/// thread and the others on threads of their own; returns the summed error and the slices
/// used. An error if a thread cannot be started.
fn batch_gradient(
    w: &Weights,
    batch: &[Sample],
    lambda: f32,
    grads: &mut [Weights],
) -> Result<(f64, usize), String> {
    let threads = grads.len();
    let part = batch.len().div_ceil(threads).max(1);
    let sum = |grad: &mut Weights, slice: &[Sample]| {
        grad.all_mut().for_each(|g| *g = 0.0);
        gradient(w, slice, lambda, grad)
    };
    std::thread::scope(|scope| {
        let mut slices = grads.iter_mut().zip(batch.chunks(part));
        let Some((first_grad, first_slice)) = slices.next() else {
            return Ok((0.0, 0));
        };
        let mut handles = Vec::new();
        for (grad, slice) in slices {
            let handle = std::thread::Builder::new()
                .spawn_scoped(scope, move || sum(grad, slice))
                .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
            handles.push(handle);
        }
        let mut error = sum(first_grad, first_slice);
        let used = 1 + handles.len();
        for handle in handles {
            error += handle.join().unwrap_or(0.0);
        }
        Ok((error, used))
    })
}

/// Why the weights after an epoch are no fit, if they are not: the epoch's training error,
/// the held-out error or a weight not finite, or an output bias the network's i32 cannot
/// hold.
fn divergence(w: &Weights, error: f64, held_error: Option<f64>) -> Option<&'static str> {
    if !error.is_finite() {
        Some("the training error is not finite")
    } else if held_error.is_some_and(|e| !e.is_finite()) {
        Some("the held-out error is not finite")
    } else if !w.all().all(f32::is_finite) {
        Some("a weight is not finite")
    } else if (w.output_bias * (QA * QB) as f32).abs() >= i32::MAX as f32 {
        Some("the output bias is beyond what the network stores")
    } else {
        None
    }
}

/// The network's integers for trained weights; an error without the memory for them.
fn quantise(w: &Weights) -> Result<Network, String> {
    let round = |x: f32, q: i32| (x * q as f32).round() as i16;
    let mut columns = buffer(INPUTS, "the network's integer weights")?;
    columns.resize(INPUTS, [0; HIDDEN]);
    let mut feature_weights: Box<[[i16; HIDDEN]; INPUTS]> = columns
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("INPUTS columns"));
    for (column, weights) in feature_weights.iter_mut().zip(w.features.chunks(HIDDEN)) {
        for (q, &x) in column.iter_mut().zip(weights) {
            *q = round(x, QA);
        }
    }
    let mut feature_bias = [0; HIDDEN];
    for (q, &x) in feature_bias.iter_mut().zip(&w.feature_bias) {
        *q = round(x, QA);
    }
    let mut output_weights = [[0; HIDDEN]; 2];
    for (half, weights) in output_weights.iter_mut().zip(w.output.chunks(HIDDEN)) {
        for (q, &x) in half.iter_mut().zip(weights) {
            *q = round(x, QB);
        }
    }
    Ok(Network {
        feature_weights,
        feature_bias,
        output_weights,
        output_bias: (w.output_bias * (QA * QB) as f32).round() as i32,
    })
}

/// A network's integers as the trainer's weights (for measuring the rounded network); an
/// error without the memory for them.
fn dequantise(n: &Network) -> Result<Weights, String> {
    let mut w = Weights::zero()?;
    for (x, &q) in w
        .features
        .iter_mut()
        .zip(n.feature_weights.iter().flatten())
    {
        *x = q as f32 / QA as f32;
    }
    for (x, &q) in w.feature_bias.iter_mut().zip(&n.feature_bias) {
        *x = q as f32 / QA as f32;
    }
    for (x, &q) in w.output.iter_mut().zip(n.output_weights.iter().flatten()) {
        *x = q as f32 / QB as f32;
    }
    w.output_bias = n.output_bias as f32 / (QA * QB) as f32;
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples() -> Vec<Sample> {
        let records = [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1;0.5;-30",
            "4k3/8/8/8/8/8/4P3/3QK3 w - - 0 1;1.0;900",
            "3qk3/4p3/8/8/8/8/8/4K3 w - - 0 1;0.0;-950",
            "4k3/8/8/8/8/8/PPPPPPPP/4K3 b - - 0 1;1.0;700",
        ];
        let text = records.join("\n");
        let (samples, skipped) = load(&text).unwrap();
        assert_eq!((samples.len(), skipped), (4, 0));
        samples
    }

    #[test]
    fn records_without_a_score_are_skipped() {
        let (samples, skipped) = load("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1;1.0\nnonsense\n").unwrap();
        assert_eq!((samples.len(), skipped), (0, 2));
    }

    #[test]
    fn the_float_forward_pass_matches_the_integer_network() {
        let mut random = Weights::random(3).unwrap();
        random
            .output
            .iter_mut()
            .enumerate()
            .for_each(|(i, x)| *x = (i % 7) as f32 / 8.0 - 0.4);
        let n = quantise(&random).unwrap();
        let w = dequantise(&n).unwrap();
        let mut acc = [[0.0; HIDDEN]; 2];
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let s = sample(&pos, 0.5, 0);
            let float = (w.forward(&s, &mut acc) - s.base) * SCALE as f32;
            let integer = n.evaluate(&pos) as f32;
            assert!(
                (float - integer).abs() <= 2.0,
                "{fen}: {float} against {integer}"
            );
        }
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_error() {
        let samples = samples();
        let w = Weights::random(5).unwrap();
        let mut grad = Weights::zero().unwrap();
        gradient(&w, &samples, 0.5, &mut grad);
        let error_of = |w: &Weights| gradient(w, &samples, 0.5, &mut Weights::zero().unwrap());
        // The output bias and a hidden unit's output weight, by central differences.
        let h = 1e-3;
        let mut up = w.clone();
        up.output_bias += h;
        let mut down = w.clone();
        down.output_bias -= h;
        let slope = (error_of(&up) - error_of(&down)) / (2.0 * h as f64);
        assert!(
            (slope - grad.output_bias as f64).abs() < 1e-3,
            "{slope} {}",
            grad.output_bias
        );
        let active = (0..HIDDEN).find(|&i| grad.output[i].abs() > 1e-4).unwrap();
        let mut up = w.clone();
        up.output[active] += h;
        let mut down = w.clone();
        down.output[active] -= h;
        let slope = (error_of(&up) - error_of(&down)) / (2.0 * h as f64);
        assert!((slope - grad.output[active] as f64).abs() < 1e-3);
    }

    #[test]
    fn training_lowers_the_error_and_repeats_exactly() {
        let config = Config {
            epochs: 30,
            batch: 2,
            rate: 0.01,
            lambda: 0.75,
            threads: 2,
            seed: 1,
        };
        let mut data = samples();
        let start = quantise(&Weights::random(config.seed).unwrap()).unwrap();
        let before = error(&start, &data, config.lambda).unwrap();
        let trained = train(&config, &mut data, &[], &mut |_, _, _| {}).unwrap();
        let after = error(&trained, &data, config.lambda).unwrap();
        assert!(after < before * 0.5, "{before} → {after}");
        let again = train(&config, &mut samples(), &[], &mut |_, _, _| {}).unwrap();
        assert_eq!(again.to_bytes(), trained.to_bytes());
    }

    /// A step size so large that the weights run away: the fit is an error naming the
    /// epoch and why, and no network comes back; the epochs before are reported.
    #[test]
    fn a_diverged_fit_is_an_error() {
        for (rate, why) in [
            (f32::INFINITY, "the training error is not finite"),
            (1e30, "the output bias is beyond what the network stores"),
        ] {
            let config = Config {
                epochs: 5,
                batch: 2,
                rate,
                lambda: 0.75,
                threads: 2,
                seed: 1,
            };
            let mut reported = 0;
            let failed = train(&config, &mut samples(), &[], &mut |_, _, _| reported += 1);
            let error = failed.err().expect("a diverged fit");
            assert!(error.contains(why), "{rate}: {error}");
            assert!(error.starts_with("the fit diverged at epoch 1"), "{error}");
            assert_eq!(reported, 0);
        }
    }

    /// With no position held out, every epoch reports none, not an error of 0.
    #[test]
    fn no_held_out_error_without_held_out_positions() {
        let config = Config {
            epochs: 2,
            batch: 4,
            rate: 0.01,
            lambda: 1.0,
            threads: 1,
            seed: 1,
        };
        let held_errors = |held: &[Sample]| {
            let mut errors = Vec::new();
            train(&config, &mut samples(), held, &mut |_, _, e| errors.push(e)).unwrap();
            errors
        };
        assert_eq!(held_errors(&[]), [None, None]);
        let one = held_errors(&samples()[..1]);
        assert_eq!(one.len(), 2);
        assert!(one.iter().all(|e| e.is_some_and(|e| e > 0.0)), "{one:?}");
    }
}
