//! A scenario's sweep as the reports see it ([`Sweep`]: each swept key
//! with its values, typed, and each variant's pick of them) and
//! `sweep.csv`, the designer's one table across the sweep: one row per
//! variant × course × figure, each swept key its own column.
//!
//! The charts across the sweep are in [`super::sweep_chart`].

use super::csv::{SUMMARY_KEY, SUMMARY_MEAN, stage, summary_cells};
use super::figure::Figure;
use super::key::key_outcomes;
use super::model::ScenarioRun;
use super::{Output, Staging};
use crate::error::Error;

/// Name of the sweep table in a scenario's folder.
pub const SWEEP_CSV: &str = "sweep.csv";

/// The columns of `sweep.csv` after the swept keys' own columns.
pub const SWEEP_COLUMNS: [&str; 10] = [
    "variant", "course", "own", "enemy", "kind", "id", "value", "ci_low", "ci_high", "exact",
];

/// One value of a swept key, with its type.
#[derive(Clone, Debug, PartialEq)]
pub enum SweepValue {
    /// A whole number.
    Int(i64),
    /// A number with a fraction.
    Float(f64),
    /// `true` or `false`.
    Bool(bool),
    /// A string (or any other value, as its TOML text).
    Text(String),
}

impl SweepValue {
    /// The value as a plain CSV cell and axis label: numbers as numbers
    /// (`.` decimals), strings bare.
    pub fn text(&self) -> String {
        match self {
            SweepValue::Int(i) => i.to_string(),
            SweepValue::Float(x) => {
                let s = format!("{x}");
                if s.contains(['.', 'e', 'i', 'N']) {
                    s
                } else {
                    format!("{s}.0")
                }
            }
            SweepValue::Bool(b) => b.to_string(),
            SweepValue::Text(t) => t.clone(),
        }
    }

    /// The value as a number, for a numeric axis.
    pub fn number(&self) -> Option<f64> {
        match self {
            SweepValue::Int(i) => Some(*i as f64),
            SweepValue::Float(x) if x.is_finite() => Some(*x),
            _ => None,
        }
    }
}

/// One swept key and its values, in the file's order.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepAxis {
    /// The key path, e.g. `units.tercio.terrain`.
    pub key: String,
    /// Its values, in sweep order.
    pub values: Vec<SweepValue>,
}

impl SweepAxis {
    /// Whether every value is a number (a numeric axis on the charts).
    pub fn numeric(&self) -> bool {
        self.values.iter().all(|v| v.number().is_some())
    }
}

/// One variant of a sweep: its label and the index of its value on each
/// axis.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPoint {
    /// The variant's label (`key=value, …`), as in every CSV file.
    pub label: String,
    /// For each axis of [`Sweep::axes`], the index of this variant's value.
    pub picks: Vec<usize>,
}

/// The sweep of a scenario run.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    /// The swept keys (those pinned by `--set` are not among them).
    pub axes: Vec<SweepAxis>,
    /// Every variant, in run order.
    pub points: Vec<SweepPoint>,
}

impl Sweep {
    /// The sweep of `labels` (every variant's label, in run order) over
    /// `axes`: variant `i` takes, on each axis, the digit of `i` written
    /// in the mixed radix of the axes' lengths, the last axis changing
    /// fastest (the order the scenario expands its sweep in). `None`
    /// without an axis, or when the labels do not number the product of
    /// the axes' lengths.
    pub fn new(axes: Vec<SweepAxis>, labels: Vec<String>) -> Option<Sweep> {
        let total = axes
            .iter()
            .try_fold(1usize, |t, a| t.checked_mul(a.values.len()))?;
        if axes.is_empty() || total != labels.len() {
            return None;
        }
        let points = labels
            .into_iter()
            .enumerate()
            .map(|(i, label)| {
                let mut picks = vec![0; axes.len()];
                let mut rest = i;
                for (a, axis) in axes.iter().enumerate().rev() {
                    picks[a] = rest % axis.values.len();
                    rest /= axis.values.len();
                }
                SweepPoint { label, picks }
            })
            .collect();
        Some(Sweep { axes, points })
    }

    /// The point of the variant labelled `label`.
    pub fn point(&self, label: &str) -> Option<&SweepPoint> {
        self.points.iter().find(|p| p.label == label)
    }
}

/// The header of `sweep.csv` for `sweep`: each swept key, then
/// [`SWEEP_COLUMNS`].
pub fn sweep_header(sweep: &Sweep) -> Vec<String> {
    sweep
        .axes
        .iter()
        .map(|a| a.key.clone())
        .chain(SWEEP_COLUMNS.iter().map(|c| c.to_string()))
        .collect()
}

/// The rows of `sweep.csv`: for each variant (in run order) and each of
/// its courses, every key outcome it has (`kind` `key`: the key
/// probabilities and expectations of `comparison.csv`), then the mean of
/// each of its measures (`kind` `mean`), each with the swept keys' values
/// first, its 95% interval (Wilson for a probability, normal for a mean;
/// the exact value at both ends without trials) and the exact value when
/// known. Empty without a sweep.
pub fn sweep_rows(run: &ScenarioRun) -> Vec<Vec<String>> {
    let Some(sweep) = &run.sweep else {
        return Vec::new();
    };
    let mut rows = Vec::new();
    let mut at = 0;
    for c in &run.courses {
        // Courses come variants outermost, so the point is found by
        // moving forward only.
        while at < sweep.points.len() && sweep.points[at].label != c.variant {
            at += 1;
        }
        let Some(point) = sweep.points.get(at).or_else(|| sweep.point(&c.variant)) else {
            continue;
        };
        let keys: Vec<String> = sweep
            .axes
            .iter()
            .zip(&point.picks)
            .map(|(a, &p)| a.values[p].text())
            .collect();
        let s = c.stats();
        let mut row = |kind: &str, id: &str, f: Figure| {
            let mut r = keys.clone();
            r.extend([
                c.variant.clone(),
                c.course.clone(),
                c.side.own.clone(),
                c.side.enemy.clone(),
            ]);
            r.extend(summary_cells(kind, id, f));
            rows.push(r);
        };
        for k in key_outcomes(s) {
            row(SUMMARY_KEY, k.def.name, k.figure);
        }
        for m in &s.measures {
            row(SUMMARY_MEAN, &m.name, m.mean_figure());
        }
    }
    rows
}

/// `sweep.csv`, written for a scenario with a sweep only.
pub struct SweepCsv;

impl Output for SweepCsv {
    fn render(&self, run: &ScenarioRun, out: &mut Staging) -> Result<(), Error> {
        let Some(sweep) = &run.sweep else {
            return Ok(());
        };
        stage(out, SWEEP_CSV, &sweep_header(sweep), &sweep_rows(run))
    }
}
