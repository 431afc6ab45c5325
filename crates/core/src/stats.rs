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

/// The difference `k1/n1 - k2/n2` of two independent proportions with its
/// 95% interval by Newcombe's hybrid score method (method 10 of Newcombe,
/// "Interval estimation for the difference between independent
/// proportions", Statistics in Medicine 17, 1998): [`interval_difference`]
/// of the two Wilson intervals. NaN throughout when either side has no
/// trials.
pub fn newcombe(k1: u64, n1: u64, k2: u64, n2: u64) -> (f64, (f64, f64)) {
    if n1 == 0 || n2 == 0 {
        return (f64::NAN, (f64::NAN, f64::NAN));
    }
    interval_difference(
        (k1 as f64 / n1 as f64, wilson(k1, n1)),
        (k2 as f64 / n2 as f64, wilson(k2, n2)),
    )
}

/// The difference `a - b` of two independent estimates, each given as
/// `(value, (low, high))` with its 95% interval, and the 95% interval of
/// the difference by Newcombe's square-and-add: with `a = (p1, (l1, u1))`
/// and `b = (p2, (l2, u2))`, `[d - √((p1-l1)² + (u2-p2)²), d +
/// √((u1-p1)² + (p2-l2)²)]`. From two Wilson intervals it is Newcombe's
/// hybrid score interval for a difference of proportions; from two
/// symmetric normal intervals of means, the normal interval of their
/// difference (half-widths added in quadrature). NaN bounds when either
/// interval is missing.
pub fn interval_difference(a: (f64, (f64, f64)), b: (f64, (f64, f64))) -> (f64, (f64, f64)) {
    let (p1, (l1, u1)) = a;
    let (p2, (l2, u2)) = b;
    let d = p1 - p2;
    let lo = d - ((p1 - l1).powi(2) + (u2 - p2).powi(2)).sqrt();
    let hi = d + ((u1 - p1).powi(2) + (p2 - l2).powi(2)).sqrt();
    (d, (lo, hi))
}

/// Every marginal of leaf weights (counts or probabilities) in one pass
/// over the leaves that carry any: per category, and per value
/// (`min..=max`) of each measure. Each bin sums its leaves in increasing
/// order, as [`outcome_counts`] and [`measure_counts`] do.
pub fn marginals<T>(space: &OutcomeSpace, weights: &[T]) -> (Vec<T>, Vec<Vec<T>>)
where
    T: Copy + Default + PartialEq + std::ops::AddAssign,
{
    let zero = T::default();
    let mut outcomes = vec![zero; space.outcomes().len()];
    let mut measures: Vec<Vec<T>> = space
        .measures()
        .iter()
        .map(|m| vec![zero; (m.max - m.min + 1) as usize])
        .collect();
    for (leaf, &w) in weights.iter().enumerate().filter(|(_, w)| **w != zero) {
        let leaf = leaf as u32;
        outcomes[space.outcome_of(leaf)] += w;
        for (m, (out, meas)) in measures.iter_mut().zip(space.measures()).enumerate() {
            out[(space.value_of(leaf, m) - meas.min) as usize] += w;
        }
    }
    (outcomes, measures)
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
    // A course's space is mostly leaves no trial reached: skip them.
    for (leaf, &c) in counts.iter().enumerate().filter(|(_, c)| **c != 0) {
        out[(space.value_of(leaf as u32, m) - meas.min) as usize] += c;
    }
    out
}

/// Marginal probability of each value (`min..=max`) of measure `m`.
pub fn measure_probs(space: &OutcomeSpace, m: usize, probs: &[f64]) -> Vec<f64> {
    let meas = &space.measures()[m];
    let mut out = vec![0.0f64; (meas.max - meas.min + 1) as usize];
    for (leaf, &p) in probs.iter().enumerate().filter(|(_, p)| **p != 0.0) {
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

/// Mean of a measure from its value counts over `min..` with a 95% normal
/// interval: `mean ± Z95·s/√n`, `s` the sample standard deviation (divisor
/// `n - 1`). The mean is NaN without trials; the bounds are NaN with fewer
/// than two trials.
pub fn mean_ci(min: i32, counts: &[u64]) -> (f64, (f64, f64)) {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return (f64::NAN, (f64::NAN, f64::NAN));
    }
    let weights: Vec<f64> = counts.iter().map(|&c| c as f64).collect();
    let m = mean(min, &weights, n as f64);
    if n < 2 {
        return (m, (f64::NAN, f64::NAN));
    }
    let ss: f64 = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let d = (min + i as i32) as f64 - m;
            c as f64 * d * d
        })
        .sum();
    let half = Z95 * (ss / (n - 1) as f64).sqrt() / (n as f64).sqrt();
    (m, (m - half, m + half))
}

/// Joint counts of category × value of measure `m`: `out[category][value -
/// min]`, every value `min..=max` of the measure.
pub fn joint_counts(space: &OutcomeSpace, m: usize, counts: &[u64]) -> Vec<Vec<u64>> {
    let meas = &space.measures()[m];
    let span = (meas.max - meas.min + 1) as usize;
    let mut out = vec![vec![0u64; span]; space.outcomes().len()];
    for (leaf, &c) in counts.iter().enumerate().filter(|(_, c)| **c != 0) {
        let leaf = leaf as u32;
        out[space.outcome_of(leaf)][(space.value_of(leaf, m) - meas.min) as usize] += c;
    }
    out
}

/// Joint probabilities of category × value of measure `m` from exact leaf
/// probabilities: `out[category][value - min]`.
pub fn joint_probs(space: &OutcomeSpace, m: usize, probs: &[f64]) -> Vec<Vec<f64>> {
    let meas = &space.measures()[m];
    let span = (meas.max - meas.min + 1) as usize;
    let mut out = vec![vec![0.0f64; span]; space.outcomes().len()];
    for (leaf, &p) in probs.iter().enumerate().filter(|(_, p)| **p != 0.0) {
        let leaf = leaf as u32;
        out[space.outcome_of(leaf)][(space.value_of(leaf, m) - meas.min) as usize] += p;
    }
    out
}

/// `P(X <= value)` for each value, from per-value probabilities: the running
/// sum, capped at 1.
pub fn cumulative(probs: &[f64]) -> Vec<f64> {
    let mut acc = 0.0;
    probs
        .iter()
        .map(|p| {
            acc += p;
            acc.min(1.0)
        })
        .collect()
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

/// Where a simulated tally and exact leaf probabilities disagree: every
/// outcome and every value of every measure whose simulated frequency lies
/// more than `sigmas` binomial standard errors (plus 1e-9) from its exact
/// probability, described for an assertion message. The one check every
/// Monte Carlo-against-exact test makes.
pub fn disagreements(
    space: &OutcomeSpace,
    counts: &[u64],
    trials: u64,
    exact: &[f64],
    sigmas: f64,
) -> Vec<String> {
    let n = trials as f64;
    let mut out = Vec::new();
    let mut check = |what: String, p: f64, c: u64| {
        let bound = sigmas * (p * (1.0 - p)).max(0.0).sqrt() / n.sqrt() + 1e-9;
        let got = c as f64 / n;
        if (got - p).abs() > bound {
            out.push(format!(
                "{what}: simulated {got}, exact {p} (bound {bound})"
            ));
        }
    };
    let probs = outcome_probs(space, exact);
    let tallies = outcome_counts(space, counts);
    for ((label, p), c) in space.outcomes().iter().zip(probs).zip(tallies) {
        check(label.clone(), p, c);
    }
    for (m, meas) in space.measures().iter().enumerate() {
        let probs = measure_probs(space, m, exact);
        let tallies = measure_counts(space, m, counts);
        for (i, (p, c)) in probs.into_iter().zip(tallies).enumerate() {
            check(format!("{}={}", meas.name, meas.min + i as i32), p, c);
        }
    }
    out
}
