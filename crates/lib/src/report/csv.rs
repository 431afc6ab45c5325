//! The tidy CSV files: outcomes, measures, summary, timing.
//!
//! Floats have fixed formats — probabilities, intervals and means `{:.6}`,
//! exact values `{:.10}` — so equal counts give byte-identical files. Only
//! `timing.csv` carries anything that changes between identical runs.

use std::io;

use super::figure::Figure;
use super::key::{KEY_OUTCOMES, KeyDef, KeyKind, key_outcome};
use super::model::{CourseStats, ScenarioRun};
use super::{Output, Staging, fixed};
use crate::error::Error;

/// Decimals of Monte Carlo probabilities, intervals and means.
pub const DECIMALS: usize = 6;
/// Decimals of exact probabilities and means.
pub const EXACT_DECIMALS: usize = 10;

/// Header of `outcomes.csv`: `outcome` is the id, `label` (last, so the
/// figures keep their columns) the card's wording the HTML page shows.
pub const OUTCOMES_HEADER: [&str; 11] = [
    "scenario",
    "variant",
    "course",
    "outcome",
    "count",
    "trials",
    "probability",
    "ci_low",
    "ci_high",
    "exact",
    "label",
];

/// Header of `measures.csv`.
pub const MEASURES_HEADER: [&str; 10] = [
    "scenario",
    "variant",
    "course",
    "measure",
    "value",
    "count",
    "probability",
    "at_least",
    "exact",
    "exact_at_least",
];

/// Header of `timing.csv`.
pub const TIMING_HEADER: [&str; 8] = [
    "scenario",
    "variant",
    "course",
    "trials",
    "threads",
    "seconds",
    "resolutions_per_second",
    "kernel",
];

/// A Monte Carlo figure with the CSV files' decimals; empty when not finite.
pub(crate) fn mc(x: f64) -> String {
    fixed(x, DECIMALS)
}

/// A Monte Carlo count; empty without trials (`--method exact`).
fn count(k: u64, trials: u64) -> String {
    if trials == 0 {
        String::new()
    } else {
        k.to_string()
    }
}

/// An exact figure with the CSV files' exact decimals; empty when unknown.
pub(crate) fn exact(x: Option<f64>) -> String {
    x.map_or_else(String::new, |x| fixed(x, EXACT_DECIMALS))
}

/// The four cells a figure takes in every CSV file: the value and its
/// interval's ends with [`DECIMALS`], the exact value with
/// [`EXACT_DECIMALS`] (each empty when unknown).
pub(crate) fn figure_cells(f: Figure) -> [String; 4] {
    [mc(f.value), mc(f.ci.0), mc(f.ci.1), exact(f.exact)]
}

/// The cells a figure takes in `summary.csv` and `sweep.csv`: its kind
/// (`mean`, `key`, `outcome`), its id, then its [`figure_cells`].
pub(crate) fn summary_cells(kind: &str, id: &str, f: Figure) -> Vec<String> {
    let mut cells = vec![kind.to_string(), id.to_string()];
    cells.extend(figure_cells(f));
    cells
}

/// Serialises rows to CSV bytes.
fn to_csv(header: &[String], rows: &[Vec<String>]) -> io::Result<Vec<u8>> {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record(header)?;
    for r in rows {
        w.write_record(r)?;
    }
    w.into_inner().map_err(|e| io::Error::other(e.to_string()))
}

/// Stages rows as the CSV file `name`.
pub(crate) fn stage(
    out: &mut Staging,
    name: &str,
    header: &[String],
    rows: &[Vec<String>],
) -> Result<(), Error> {
    let bytes = to_csv(header, rows).map_err(|e| Error::io(out.dir().join(name), e))?;
    out.bytes(name, &bytes)
}

fn owned(header: &[&str]) -> Vec<String> {
    header.iter().map(|s| s.to_string()).collect()
}

/// The rows of `outcomes.csv`: every category of every course, zero counts
/// included.
pub fn outcome_rows(run: &ScenarioRun) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for c in &run.courses {
        let s = c.stats();
        for o in &s.outcomes {
            rows.push(vec![
                run.id.name.clone(),
                c.variant.clone(),
                c.course.clone(),
                o.id.clone(),
                count(o.count, s.trials),
                s.trials.to_string(),
                mc(o.figure.value),
                mc(o.figure.ci.0),
                mc(o.figure.ci.1),
                exact(o.figure.exact),
                o.label.clone(),
            ]);
        }
    }
    rows
}

/// The rows of `measures.csv`: every value `min..=max` of every measure.
pub fn measure_rows(run: &ScenarioRun) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for c in &run.courses {
        let s = c.stats();
        for m in &s.measures {
            for (i, value) in m.values().enumerate() {
                rows.push(vec![
                    run.id.name.clone(),
                    c.variant.clone(),
                    c.course.clone(),
                    m.name.clone(),
                    value.to_string(),
                    count(m.counts[i], s.trials),
                    mc(m.probs[i]),
                    mc(m.at_least[i]),
                    exact(m.exact.as_ref().map(|e| e[i])),
                    exact(m.exact_at_least.as_ref().map(|e| e[i])),
                ]);
            }
        }
    }
    rows
}

/// The key probabilities `summary.csv` carries when some course of the run
/// has their measure (`p-enemy-broken-or-eliminated`, …).
fn summary_keys(run: &ScenarioRun) -> Vec<KeyDef> {
    let names = run.measure_names();
    KEY_OUTCOMES
        .iter()
        .filter(|d| d.kind == KeyKind::Probability && names.iter().any(|n| n == d.measure))
        .copied()
        .collect()
}

/// Header of `summary.csv`: tidy, one row per variant × course × figure.
pub const SUMMARY_HEADER: [&str; 13] = [
    "scenario", "variant", "course", "trials", "seed", "kind", "id", "value", "ci_low", "ci_high",
    "exact", "own", "enemy",
];

/// `kind` of a measure's mean in `summary.csv`.
pub const SUMMARY_MEAN: &str = "mean";
/// `kind` of a key probability in `summary.csv`.
pub const SUMMARY_KEY: &str = "key";
/// `kind` of an outcome's probability in `summary.csv` (a course without
/// measures).
pub const SUMMARY_OUTCOME: &str = "outcome";

/// The rows of `summary.csv`: for each variant × course, the mean of each
/// of its measures (`kind` `mean`, `id` the measure, in the order of the
/// run's measures), then each key probability it has (`kind` `key`, `id`
/// e.g. `p-enemy-broken-or-eliminated`), with its 95% interval (normal for
/// a mean, Wilson for a probability) and the exact value when known. A
/// figure a course lacks has no row; a course without measures (one
/// procedure's result: a morale test, an order) has a row per outcome
/// instead (`kind` `outcome`, `id` the outcome), so that its answer is
/// never an empty file.
pub fn summary_rows(run: &ScenarioRun) -> Vec<Vec<String>> {
    let names = run.measure_names();
    let keys = summary_keys(run);
    let mut rows = Vec::new();
    for c in &run.courses {
        let s: &CourseStats = c.stats();
        let row = |kind: &str, id: &str, f: Figure| {
            let mut r = vec![
                run.id.name.clone(),
                c.variant.clone(),
                c.course.clone(),
                s.trials.to_string(),
                run.id.seed.to_string(),
            ];
            r.extend(summary_cells(kind, id, f));
            r.extend([c.side.own.clone(), c.side.enemy.clone()]);
            r
        };
        for n in &names {
            if let Some(m) = s.measure(n) {
                rows.push(row(SUMMARY_MEAN, n, m.mean_figure()));
            }
        }
        for &d in &keys {
            if let Some(k) = key_outcome(d, s) {
                rows.push(row(SUMMARY_KEY, d.name, k.figure));
            }
        }
        if s.measures.is_empty() {
            for o in &s.outcomes {
                rows.push(row(SUMMARY_OUTCOME, &o.id, o.figure));
            }
        }
    }
    rows
}

/// The rows of `timing.csv`.
pub fn timing_rows(run: &ScenarioRun) -> Vec<Vec<String>> {
    run.courses
        .iter()
        .map(|c| {
            let t = &c.tally;
            let rate = if t.seconds > 0.0 {
                fixed(t.trials as f64 / t.seconds, 0)
            } else {
                String::new()
            };
            vec![
                run.id.name.clone(),
                c.variant.clone(),
                c.course.clone(),
                t.trials.to_string(),
                t.threads.to_string(),
                fixed(t.seconds, 6),
                rate,
                t.kernel.map_or("", |k| k.name()).to_string(),
            ]
        })
        .collect()
}

/// `outcomes.csv`.
pub struct OutcomesCsv;
/// `measures.csv`.
pub struct MeasuresCsv;
/// `summary.csv`.
pub struct SummaryCsv;
/// `timing.csv`.
pub struct TimingCsv;

impl Output for OutcomesCsv {
    fn render(&self, run: &ScenarioRun, out: &mut Staging) -> Result<(), Error> {
        stage(
            out,
            "outcomes.csv",
            &owned(&OUTCOMES_HEADER),
            &outcome_rows(run),
        )
    }
}

impl Output for MeasuresCsv {
    fn render(&self, run: &ScenarioRun, out: &mut Staging) -> Result<(), Error> {
        stage(
            out,
            "measures.csv",
            &owned(&MEASURES_HEADER),
            &measure_rows(run),
        )
    }
}

impl Output for SummaryCsv {
    fn render(&self, run: &ScenarioRun, out: &mut Staging) -> Result<(), Error> {
        stage(
            out,
            "summary.csv",
            &owned(&SUMMARY_HEADER),
            &summary_rows(run),
        )
    }
}

impl Output for TimingCsv {
    fn render(&self, run: &ScenarioRun, out: &mut Staging) -> Result<(), Error> {
        stage(out, "timing.csv", &owned(&TIMING_HEADER), &timing_rows(run))
    }
}

/// The value of column `name` in a record of a CSV file with `header`
/// (empty when absent).
pub fn field(header: &[String], record: &[String], name: &str) -> String {
    header
        .iter()
        .position(|h| h == name)
        .and_then(|i| record.get(i))
        .cloned()
        .unwrap_or_default()
}
