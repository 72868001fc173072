//! The statistics of the report: the birthday expectation of agreeing pairs, the chi-square
//! of a table's slot counts, Poisson and binomial tails, and what counts as a deviation.

use crate::report::number;

/// The birthday expectation: pairs among `n` uniform keys that agree in `bits` bits.
pub fn expected_pairs(n: u64, bits: u32) -> f64 {
    let n = n as f64;
    n * (n - 1.0) / 2.0 / 2f64.powi(bits as i32)
}

/// The chi-square of the slot counts of `n` keys in `2^bits` slots against uniform, from
/// the pairs of keys sharing a slot (Σc² = 2·pairs + n): `(S/n)·Σc² − n`.
pub fn chi_square(n: u64, bits: u32, pairs: u64) -> f64 {
    let slots = 2f64.powi(bits as i32);
    let n = n as f64;
    slots / n * (2.0 * pairs as f64 + n) - n
}

/// The chi-square's deviation in standard units: `(chi2 − df) / sqrt(2 df)`, df = S − 1.
pub fn chi_square_z(chi2: f64, bits: u32) -> f64 {
    let df = 2f64.powi(bits as i32) - 1.0;
    (chi2 - df) / (2.0 * df).sqrt()
}

/// ln k!.
fn ln_factorial(k: u64) -> f64 {
    (2..=k).map(|i| (i as f64).ln()).sum()
}

/// The Poisson tail probability of seeing `observed` or something further from `mean` on
/// the same side: P(X ≥ observed) when above the mean, else P(X ≤ observed).
pub fn poisson_tail(observed: u64, mean: f64) -> f64 {
    let pmf = |k: u64| (-mean + k as f64 * mean.ln() - ln_factorial(k)).exp();
    if observed as f64 >= mean {
        let mut p = 0.0;
        let mut term = pmf(observed);
        let mut k = observed;
        while term > p * 1e-17 && k < observed + 10_000 {
            p += term;
            k += 1;
            term *= mean / k as f64;
        }
        p.min(1.0)
    } else {
        (0..=observed).map(pmf).sum::<f64>().min(1.0)
    }
}

/// How far an observed pair count is from the birthday expectation, and whether that is a
/// deviation (|z| > 4, or a Poisson tail below 10^-4 when fewer than 10 pairs are expected).
pub fn significance(observed: u64, expected: f64, bits: u32) -> (String, bool) {
    if expected <= 0.0 {
        return ("—".to_string(), false);
    }
    if expected >= 10.0 {
        let p = 2f64.powi(-(bits as i32));
        let z = (observed as f64 - expected) / (expected * (1.0 - p)).sqrt();
        (format!("z = {z:+.2}"), z.abs() > 4.0)
    } else {
        let tail = poisson_tail(observed, expected);
        let side = if observed as f64 >= expected {
            "≥"
        } else {
            "≤"
        };
        (
            format!("P(X {side} {observed}) = {}", number(tail)),
            tail < 1e-4,
        )
    }
}

/// P(X < k) for X ~ Binomial(64, 1/2): the chance that a uniform random change of a 64-bit
/// key flips fewer than `k` bits.
pub fn binomial_below(k: u32) -> f64 {
    let mut coefficient = 1.0; // C(64, 0)
    let mut sum = 0.0;
    for i in 0..k.min(65) {
        sum += coefficient;
        coefficient = coefficient * (64 - i) as f64 / (i + 1) as f64;
    }
    sum / 2f64.powi(64)
}

/// Observed over expected to four decimals, or a dash when nothing is expected.
pub(crate) fn ratio(observed: f64, expected: f64) -> String {
    if expected > 0.0 {
        format!("{:.4}", observed / expected)
    } else {
        "—".to_string()
    }
}
