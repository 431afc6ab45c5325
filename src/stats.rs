//! Probabilities, Wilson intervals, means and at-least curves from leaf counts.

use crate::outcome::OutcomeSpace;

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The 95% Wilson score interval for `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n_f = n as f64;
    let p = k as f64 / n_f;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n_f;
    let centre = (p + z2 / (2.0 * n_f)) / denom;
    let half = Z95 * (p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Marginal count per category of a space.
pub fn outcome_counts(space: &OutcomeSpace, counts: &[u64]) -> Vec<u64> {
    let mut out = vec![0u64; space.outcomes().len()];
    for (leaf, &c) in counts.iter().enumerate() {
        out[space.outcome_of(leaf as u32)] += c;
    }
    out
}

/// Marginal probability per category from exact leaf probabilities.
pub fn outcome_probs(space: &OutcomeSpace, probs: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0f64; space.outcomes().len()];
    for (leaf, &p) in probs.iter().enumerate() {
        out[space.outcome_of(leaf as u32)] += p;
    }
    out
}

/// Marginal count of each value (`min..=max`) of measure `m`.
pub fn measure_counts(space: &OutcomeSpace, m: usize, counts: &[u64]) -> Vec<u64> {
    let meas = &space.measures()[m];
    let mut out = vec![0u64; (meas.max - meas.min + 1) as usize];
    for (leaf, &c) in counts.iter().enumerate() {
        out[(space.value_of(leaf as u32, m) - meas.min) as usize] += c;
    }
    out
}

/// Marginal probability of each value (`min..=max`) of measure `m`.
pub fn measure_probs(space: &OutcomeSpace, m: usize, probs: &[f64]) -> Vec<f64> {
    let meas = &space.measures()[m];
    let mut out = vec![0.0f64; (meas.max - meas.min + 1) as usize];
    for (leaf, &p) in probs.iter().enumerate() {
        out[(space.value_of(leaf as u32, m) - meas.min) as usize] += p;
    }
    out
}

/// Mean of a distribution over `min..=max` given as weights summing to `total`.
pub fn mean(min: i32, weights: &[f64], total: f64) -> f64 {
    if total == 0.0 {
        return f64::NAN;
    }
    weights
        .iter()
        .enumerate()
        .map(|(i, w)| (min + i as i32) as f64 * w)
        .sum::<f64>()
        / total
}

/// `P(X >= value)` for each value, from per-value probabilities.
pub fn at_least(probs: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; probs.len()];
    let mut acc = 0.0;
    for i in (0..probs.len()).rev() {
        acc += probs[i];
        out[i] = acc.min(1.0);
    }
    out
}

/// The widest 95% Wilson half-width among every category and measure-value
/// probability of a tally.
pub fn worst_half_width(space: &OutcomeSpace, counts: &[u64], trials: u64) -> f64 {
    let mut worst = 0.0f64;
    let mut consider = |k: u64| {
        let (lo, hi) = wilson(k, trials);
        worst = worst.max((hi - lo) / 2.0);
    };
    outcome_counts(space, counts)
        .into_iter()
        .for_each(&mut consider);
    for m in 0..space.measures().len() {
        measure_counts(space, m, counts)
            .into_iter()
            .for_each(&mut consider);
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_reference_values() {
        // Reference: k = 50, n = 100 -> (0.4038, 0.5962).
        let (lo, hi) = wilson(50, 100);
        assert!((lo - 0.403_831).abs() < 1e-5 && (hi - 0.596_169).abs() < 1e-5);
        let (lo, hi) = wilson(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.277_539).abs() < 1e-5);
    }

    #[test]
    fn at_least_is_a_reverse_cumulative_sum() {
        let a = at_least(&[0.5, 0.3, 0.2]);
        assert!(
            (a[0] - 1.0).abs() < 1e-12 && (a[1] - 0.5).abs() < 1e-12 && (a[2] - 0.2).abs() < 1e-12
        );
    }
}
