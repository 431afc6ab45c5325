//! The edition comparison: the change and its Newcombe interval (`report::diff`).

use pikeshot::report::diff::*;

#[test]
fn change_interval_is_newcombe_from_the_two_intervals() {
    // from 0.40 [0.38, 0.43], to 0.50 [0.47, 0.52]:
    // change 0.10; low 0.10 - sqrt(0.03² + 0.03²), high 0.10 + sqrt(0.02² + 0.02²).
    let r = DiffRow {
        variant: String::new(),
        course: "c".into(),
        kind: RowKind::Outcome,
        name: "x".into(),
        label: "x".into(),
        from: Some(Figure {
            value: 0.40,
            ci: (0.38, 0.43),
            exact: Some(0.4),
        }),
        to: Some(Figure {
            value: 0.50,
            ci: (0.47, 0.52),
            exact: Some(0.5),
        }),
    };
    assert!((r.change() - 0.10).abs() < 1e-12);
    let (lo, hi) = r.change_ci();
    assert!((lo - (0.10 - (0.0018f64).sqrt())).abs() < 1e-12);
    assert!((hi - (0.10 + (0.0008f64).sqrt())).abs() < 1e-12);
    assert!((r.exact_change().unwrap() - 0.1).abs() < 1e-12);
    assert_eq!(signed(-1e-9, 2), "+0.00");
    assert_eq!(signed(-0.5, 1), "-0.5");
    // An outcome the `to` card cannot produce falls to 0, exactly.
    let gone = DiffRow { to: None, ..r };
    assert!((gone.change() + 0.40).abs() < 1e-12);
    assert!((gone.exact_change().unwrap() + 0.4).abs() < 1e-12);
}
