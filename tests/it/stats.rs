//! Intervals (Wilson, mean), cumulative sums and the Monte Carlo-against-exact check (`stats`).

use pikeshot::outcome::OutcomeSpace;
use pikeshot::stats::*;

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
fn disagreements_name_what_is_off() {
    use pikeshot::outcome::Measure;
    let space = OutcomeSpace::from_labels(&["a", "b"], vec![Measure::new("m", 0, 1)]);
    // Leaves: (a, m=0), (b, m=0), (a, m=1), (b, m=1).
    let exact = [0.25, 0.25, 0.25, 0.25];
    let fair = [2500, 2500, 2500, 2500];
    assert!(disagreements(&space, &fair, 10_000, &exact, 4.5).is_empty());
    // Outcome a at 0.6 against 0.5 is 20 standard errors off; m is fair.
    let biased = [3000, 2000, 3000, 2000];
    let off = disagreements(&space, &biased, 10_000, &exact, 4.5);
    assert_eq!(off.len(), 2, "{off:?}");
    assert!(
        off[0].starts_with("a:") && off[1].starts_with("b:"),
        "{off:?}"
    );
}

#[test]
fn at_least_is_a_reverse_cumulative_sum() {
    let a = at_least(&[0.5, 0.3, 0.2]);
    assert!((a[0] - 1.0).abs() < 1e-12 && (a[1] - 0.5).abs() < 1e-12 && (a[2] - 0.2).abs() < 1e-12);
}

#[test]
fn mean_ci_uses_the_sample_standard_deviation() {
    // Values 0, 0, 1, 3 (counts 2, 1, 0, 1 over 0..=3): mean 1,
    // squares of deviations 1 + 1 + 0 + 4 = 6, s² = 6/3 = 2,
    // half = Z95·√2/√4 = Z95·0.70711.
    let (m, (lo, hi)) = mean_ci(0, &[2, 1, 0, 1]);
    assert!((m - 1.0).abs() < 1e-12);
    let half = Z95 * 2f64.sqrt() / 2.0;
    assert!((lo - (1.0 - half)).abs() < 1e-12 && (hi - (1.0 + half)).abs() < 1e-12);
    assert!(mean_ci(0, &[0, 0]).0.is_nan());
    let (m, (lo, _)) = mean_ci(5, &[1]);
    assert!(m == 5.0 && lo.is_nan());
}

#[test]
fn cumulative_is_a_running_sum() {
    let c = cumulative(&[0.5, 0.3, 0.2]);
    assert!((c[0] - 0.5).abs() < 1e-12 && (c[1] - 0.8).abs() < 1e-12 && (c[2] - 1.0).abs() < 1e-12);
}
