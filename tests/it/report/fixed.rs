//! Fixed-decimal numbers in CSV never print `-0` or `NaN` (`report::fixed`).

use pikeshot::report::fixed;

#[test]
fn fixed_never_prints_negative_zero_or_nan() {
    assert_eq!(fixed(-0.0, 3), "0.000");
    assert_eq!(fixed(-1e-12, 6), "0.000000");
    assert_eq!(fixed(-0.5, 1), "-0.5");
    assert_eq!(fixed(f64::NAN, 2), "");
    assert_eq!(fixed(0.123_456_78, 6), "0.123457");
}
