//! Intervals (Wilson, mean, Newcombe), cumulative sums and the Monte Carlo-against-exact check (`stats`), the intervals against published worked examples.

use pikeshot::outcome::OutcomeSpace;
use pikeshot::stats::*;

use crate::support::assert_all_close;

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
    assert_all_close(&at_least(&[0.5, 0.3, 0.2]), &[1.0, 0.5, 0.2]);
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
    assert_all_close(&cumulative(&[0.5, 0.3, 0.2]), &[0.5, 0.8, 1.0]);
}

/// Newcombe (1998), "Interval estimation for the difference between
/// independent proportions: comparison of eleven methods", Statistics in
/// Medicine 17, 873-890, Table II, method 10 (the hybrid score interval
/// built on Wilson intervals), to the four decimals printed there.
#[test]
fn newcombe_matches_the_published_worked_examples() {
    for (k1, n1, k2, n2, d, lo, hi) in [
        // (a) 56/70 − 48/80: 0.2000, [0.0524, 0.3339].
        (56, 70, 48, 80, 0.2, 0.0524, 0.3339),
        // (b) 9/10 − 3/10: 0.6000, [0.1705, 0.8090].
        (9, 10, 3, 10, 0.6, 0.1705, 0.8090),
        // (d) 5/56 − 0/29: 0.0893, [−0.0381, 0.1926].
        (5, 56, 0, 29, 5.0 / 56.0, -0.0381, 0.1926),
    ] {
        let (got, (l, h)) = newcombe(k1, n1, k2, n2);
        let what = format!("{k1}/{n1} - {k2}/{n2}");
        assert!((got - d).abs() < 1e-12, "{what}: {got}");
        assert!((l - lo).abs() < 5e-5, "{what}: low {l}, published {lo}");
        assert!((h - hi).abs() < 5e-5, "{what}: high {h}, published {hi}");
    }
    // Nothing to compare without trials.
    assert!(newcombe(1, 0, 1, 2).0.is_nan());
}

#[test]
fn a_difference_of_means_adds_the_standard_errors_in_quadrature() {
    // Half-widths 0.3·Z and 0.4·Z: standard errors 0.3 and 0.4, so the
    // difference's is 0.5 and its half-width 0.5·Z.
    let a = (2.0, (2.0 - 0.3 * Z95, 2.0 + 0.3 * Z95));
    let b = (1.5, (1.5 - 0.4 * Z95, 1.5 + 0.4 * Z95));
    let (d, (lo, hi)) = interval_difference(a, b);
    assert!((d - 0.5).abs() < 1e-12);
    assert!((lo - (0.5 - 0.5 * Z95)).abs() < 1e-12 && (hi - (0.5 + 0.5 * Z95)).abs() < 1e-12);
    // A mean without an interval gives none to its difference.
    assert!(
        interval_difference((1.0, (f64::NAN, f64::NAN)), b)
            .1
            .0
            .is_nan()
    );
}
