//! The cost per key: wall-clock nanoseconds per call of the key operations, timed by the
//! engine over a sample of moves ([`ns_per_call`]) and reported as [`Costs`].

use std::hint::black_box;
use std::time::Instant;

/// Wall-clock cost per call, in nanoseconds (median of three timed runs).
#[derive(Clone, Debug, Default)]
pub struct Costs {
    /// Calls per timed run.
    pub calls: u64,
    /// `Position::make` alone.
    pub make: f64,
    /// `Position::make_keyed` (make plus the engine's incremental rotation update).
    pub make_keyed: f64,
    /// `make` then `RotationKey.update` (the generic before/after update).
    pub make_rotation_update: f64,
    /// `make` then `Zobrist::update`.
    pub make_zobrist_update: f64,
    /// `RotationKey.key` from scratch.
    pub rotation_scratch: f64,
    /// `Zobrist::key` from scratch.
    pub zobrist_scratch: f64,
}

/// Median wall-clock nanoseconds per call of `f` over `rounds` passes of `samples`.
pub fn ns_per_call<S>(samples: &[S], rounds: u64, mut f: impl FnMut(&S)) -> f64 {
    let mut runs = [0.0; 3];
    for run in &mut runs {
        let start = Instant::now();
        for _ in 0..rounds {
            for sample in samples {
                f(black_box(sample));
            }
        }
        *run = start.elapsed().as_nanos() as f64 / (rounds * samples.len() as u64) as f64;
    }
    runs.sort_by(f64::total_cmp);
    runs[1]
}
