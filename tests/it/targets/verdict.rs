//! Verdicts: Monte Carlo fails only outside the whole interval; exact values are judged exactly (`targets::verdict`).

use pikeshot::targets::verdict::*;

#[test]
fn monte_carlo_fails_only_when_the_whole_interval_is_outside() {
    // Interval [0.38, 0.42] against targets around it.
    let ci = (0.38, 0.42);
    let j = |lo, hi| judge(ci, None, lo, hi).1;
    assert_eq!(j(Some(0.30), Some(0.50)), Verdict::Pass);
    assert_eq!(j(Some(0.40), None), Verdict::Borderline);
    assert_eq!(j(None, Some(0.39)), Verdict::Borderline);
    assert_eq!(j(Some(0.43), None), Verdict::Fail);
    assert_eq!(j(None, Some(0.37)), Verdict::Fail);
    // The bound equal to the interval's end is inside it.
    assert_eq!(j(Some(0.42), None), Verdict::Borderline);
    assert_eq!(judge(ci, None, Some(0.42), None).0, Basis::MonteCarlo);
}

#[test]
fn exact_values_are_judged_exactly() {
    let ci = (0.38, 0.42);
    // 0.40 exact: a bound at 0.41 fails although inside the interval.
    assert_eq!(
        judge(ci, Some(0.40), Some(0.41), None),
        (Basis::Exact, Verdict::Fail)
    );
    assert_eq!(
        judge(ci, Some(0.40), Some(0.40), Some(0.40)),
        (Basis::Exact, Verdict::Pass)
    );
    // Rounding of the sums is allowed for, no more.
    assert_eq!(
        judge(ci, Some(0.4 - 1e-12), Some(0.4), None).1,
        Verdict::Pass
    );
    assert_eq!(
        judge(ci, Some(0.4 - 1e-6), Some(0.4), None).1,
        Verdict::Fail
    );
}
