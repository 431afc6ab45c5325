//! Targets as text: the rows of `expect.csv`, the rows read back from it,
//! the verdict counts and the table of what failed.

use std::fmt::Write as _;

use super::describe;
use super::{Checked, Verdict};
use crate::report::csv::figure_cells;
use crate::report::folder::{EXPECT_CSV, ExtraCsv};

/// Header of `expect.csv` in a scenario's folder.
pub const EXPECT_HEADER: [&str; 14] = [
    "scenario", "entry", "variant", "course", "kind", "target", "at_least", "at_most", "value",
    "ci_low", "ci_high", "exact", "basis", "verdict",
];

/// A bound as written: the shortest text that reads back as the same number.
fn bound(x: Option<f64>) -> String {
    x.map_or_else(String::new, |x| format!("{x}"))
}

/// The rows of `expect.csv` for the checks of a run.
pub fn expect_rows(scenario: &str, checks: &[Checked]) -> Vec<Vec<String>> {
    checks
        .iter()
        .map(|c| {
            let mut row = vec![
                scenario.to_string(),
                c.expect.entry.to_string(),
                c.variant.clone(),
                c.expect.course.clone(),
                c.expect.target.kind().to_string(),
                c.expect.target.name(),
                bound(c.expect.at_least),
                bound(c.expect.at_most),
            ];
            row.extend(figure_cells(c.figure));
            row.extend([c.basis.name().to_string(), c.verdict.name().to_string()]);
            row
        })
        .collect()
}

/// `expect.csv` of a scenario's folder, for [`crate::report::folder::write`].
pub fn expect_csv<'a>(scenario: &str, checks: &[Checked]) -> ExtraCsv<'a> {
    ExtraCsv {
        name: EXPECT_CSV,
        header: &EXPECT_HEADER,
        rows: expect_rows(scenario, checks),
    }
}

/// One row of a check table, as strings (read from `expect.csv` or made
/// from a run): enough to print what failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckRow {
    /// Where: the scenario file (or name).
    pub scenario: String,
    /// The entry's position among the file's `[[expect]]` entries, from 0
    /// (as `--set expect[N]` names it).
    pub entry: String,
    /// Variant.
    pub variant: String,
    /// Course.
    pub course: String,
    /// The target's name.
    pub target: String,
    /// Lower bound as written (empty: none).
    pub at_least: String,
    /// Upper bound as written (empty: none).
    pub at_most: String,
    /// Monte Carlo value.
    pub value: String,
    /// 95% interval low.
    pub ci_low: String,
    /// 95% interval high.
    pub ci_high: String,
    /// Exact value (empty: none).
    pub exact: String,
    /// `exact` or `monte-carlo`.
    pub basis: String,
    /// `pass`, `borderline` or `fail`.
    pub verdict: String,
}

impl CheckRow {
    /// From a record of `expect.csv` (with `header`), naming it `scenario`.
    pub fn from_record(scenario: &str, header: &[String], record: &[String]) -> CheckRow {
        let get = |name: &str| crate::report::csv::field(header, record, name);
        CheckRow {
            scenario: scenario.to_string(),
            entry: get("entry"),
            variant: get("variant"),
            course: get("course"),
            target: get("target"),
            at_least: get("at_least"),
            at_most: get("at_most"),
            value: get("value"),
            ci_low: get("ci_low"),
            ci_high: get("ci_high"),
            exact: get("exact"),
            basis: get("basis"),
            verdict: get("verdict"),
        }
    }
    /// Whether the row failed.
    pub fn failed(&self) -> bool {
        self.verdict == Verdict::Fail.name()
    }
    /// The target with its bounds, e.g. `defender-eliminated in [0.2, 0.3]`.
    pub fn describe(&self) -> String {
        let parse = |s: &str| s.parse::<f64>().ok();
        describe(&self.target, parse(&self.at_least), parse(&self.at_most))
    }
}

/// Counts of verdicts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VerdictCounts {
    /// Inside the target.
    pub pass: usize,
    /// Straddling a bound (passing).
    pub borderline: usize,
    /// Outside the target.
    pub fail: usize,
}

impl VerdictCounts {
    /// Counts the verdicts of `rows`.
    pub fn of(rows: &[CheckRow]) -> VerdictCounts {
        VerdictCounts::of_names(rows.iter().map(|r| r.verdict.as_str()))
    }
    /// Counts verdicts given by name ([`Verdict::name`]; any other name
    /// counts as a fail).
    pub fn of_names<'a>(verdicts: impl IntoIterator<Item = &'a str>) -> VerdictCounts {
        let mut t = VerdictCounts::default();
        for v in verdicts {
            match v {
                v if v == Verdict::Pass.name() => t.pass += 1,
                v if v == Verdict::Borderline.name() => t.borderline += 1,
                _ => t.fail += 1,
            }
        }
        t
    }
    /// Every figure checked.
    pub fn total(&self) -> usize {
        self.pass + self.borderline + self.fail
    }
    /// `targets: 5 checked, 4 passed, 1 borderline (passing), 0 failed`.
    pub fn line(&self) -> String {
        format!(
            "targets: {} checked, {} passed, {} borderline (passing), {} failed",
            self.total(),
            self.pass,
            self.borderline,
            self.fail
        )
    }
}

/// A plain-text table of `rows`: scenario, entry (`expect[N]`, as
/// `--set` names it), variant, course, target, measured value, 95%
/// interval, exact value, verdict (and its basis).
pub fn table(rows: &[CheckRow]) -> String {
    let head = [
        "scenario",
        "entry",
        "variant",
        "course",
        "target",
        "measured",
        "95% interval",
        "exact",
        "verdict",
    ];
    let short = |s: &str| match s.parse::<f64>() {
        Ok(x) => format!("{x:.4}"),
        Err(_) => s.to_string(),
    };
    let cells: Vec<[String; 9]> = rows
        .iter()
        .map(|r| {
            [
                r.scenario.clone(),
                if r.entry.is_empty() {
                    "-".into()
                } else {
                    format!("expect[{}]", r.entry)
                },
                if r.variant.is_empty() {
                    "-".into()
                } else {
                    r.variant.clone()
                },
                r.course.clone(),
                r.describe(),
                short(&r.value),
                format!("[{}, {}]", short(&r.ci_low), short(&r.ci_high)),
                if r.exact.is_empty() {
                    "-".into()
                } else {
                    short(&r.exact)
                },
                format!("{} ({})", r.verdict, r.basis),
            ]
        })
        .collect();
    let mut widths: Vec<usize> = head.iter().map(|h| h.chars().count()).collect();
    for row in &cells {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let line = |out: &mut String, cells: &[String]| {
        let mut s = String::from(" ");
        for (c, w) in cells.iter().zip(&widths) {
            let pad = w - c.chars().count();
            let _ = write!(s, " {c}{}", " ".repeat(pad));
            s.push(' ');
        }
        let _ = writeln!(out, "{}", s.trim_end());
    };
    line(&mut out, &head.map(String::from));
    for row in &cells {
        line(&mut out, row);
    }
    out
}
