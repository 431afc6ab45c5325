//! The intervals of `stats` against published worked examples.

use pikeshot::stats::{Z95, interval_difference, newcombe};

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
