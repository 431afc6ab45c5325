//! `summary.csv` of a course without measures: its outcomes, not an empty
//! file.

use crate::support::cli::run_to;
use crate::support::{col, read_csv};

/// What one uncontrolled Hakkaa Päälle unit does: outcomes, no measures.
const UNCONTROLLED: &str = r#"name = "uncontrolled"
system = "hakkaa"

[units.a]
type = "mi"
tq = "trained"
steps = 4

[[course]]
name = "test"
steps = [{ procedure = "uncontrolled", unit = "a", situation = "visible-enemy" }]
"#;

#[test]
fn a_course_without_measures_has_one_summary_row_per_outcome() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("uncontrolled.toml");
    std::fs::write(&path, UNCONTROLLED).unwrap();
    let out = tmp.path().join("out");
    run_to(
        path.to_str().unwrap(),
        &[
            "--method", "both", "--trials", "4000", "--plots", "none", "-q",
        ],
        &out,
    );
    let (oh, outcomes) = read_csv(&out.join("outcomes.csv"));
    let (sh, summary) = read_csv(&out.join("summary.csv"));
    assert!(
        read_csv(&out.join("measures.csv")).1.is_empty(),
        "no measures"
    );
    assert_eq!(summary.len(), outcomes.len(), "one row per outcome");
    assert!(outcomes.len() >= 2);
    let mut total = 0.0;
    for (s, o) in summary.iter().zip(&outcomes) {
        assert_eq!(s[col(&sh, "kind")], "outcome");
        assert_eq!(s[col(&sh, "id")], o[col(&oh, "outcome")]);
        for (a, b) in [
            ("value", "probability"),
            ("ci_low", "ci_low"),
            ("ci_high", "ci_high"),
            ("exact", "exact"),
        ] {
            assert_eq!(s[col(&sh, a)], o[col(&oh, b)], "{a}");
        }
        assert_eq!(s[col(&sh, "trials")], "4000");
        total += s[col(&sh, "exact")].parse::<f64>().unwrap();
    }
    assert!(
        (total - 1.0).abs() < 1e-9,
        "the outcomes' exact sum is {total}"
    );
}
