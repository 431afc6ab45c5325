//! The tidy CSV files: outcomes, measures, summary, timing.
//!
//! Floats have fixed formats — probabilities, intervals and means `{:.6}`,
//! exact values `{:.10}` — so equal counts give byte-identical files. Only
//! `timing.csv` carries anything that changes between identical runs.

use std::io;

use super::key::{KEY_OUTCOMES, KeyDef, KeyKind, KeyOutcome, key_outcome};
use super::model::{CourseStats, ScenarioRun};
use super::{Output, Staging, fixed};
use crate::error::Error;

/// Decimals of Monte Carlo probabilities, intervals and means.
pub const DECIMALS: usize = 6;
/// Decimals of exact probabilities and means.
pub const EXACT_DECIMALS: usize = 10;

/// Header of `outcomes.csv`.
pub const OUTCOMES_HEADER: [&str; 10] = [
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
pub const TIMING_HEADER: [&str; 7] = [
    "scenario",
    "variant",
    "course",
    "trials",
    "threads",
    "seconds",
    "resolutions_per_second",
];

fn mc(x: f64) -> String {
    fixed(x, DECIMALS)
}

fn exact(x: Option<f64>) -> String {
    x.map_or_else(String::new, |x| fixed(x, EXACT_DECIMALS))
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
                run.scenario.clone(),
                c.variant.clone(),
                c.course.clone(),
                o.label.clone(),
                o.count.to_string(),
                s.trials.to_string(),
                mc(o.probability),
                mc(o.ci.0),
                mc(o.ci.1),
                exact(o.exact),
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
                    run.scenario.clone(),
                    c.variant.clone(),
                    c.course.clone(),
                    m.name.clone(),
                    value.to_string(),
                    m.counts[i].to_string(),
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
/// has their measure: `p_<key outcome>` and `exact_p_<key outcome>` columns
/// (dashes as underscores), e.g. `p_enemy_broken_or_eliminated`.
fn summary_keys(run: &ScenarioRun) -> Vec<KeyDef> {
    let names = run.measure_names();
    KEY_OUTCOMES
        .iter()
        .filter(|d| d.kind == KeyKind::Probability && names.iter().any(|n| n == d.measure))
        .copied()
        .collect()
}

/// The column of a key probability: `p-enemy-broken-or-eliminated` →
/// `p_enemy_broken_or_eliminated`.
fn key_column(def: &KeyDef) -> String {
    def.name.replace('-', "_")
}

/// The header of `summary.csv` for `run`: fixed columns, then
/// `mean_<measure>` and `exact_mean_<measure>` for every measure of the run,
/// then, when some course has `enemy-morale` or `own-morale`,
/// `p_enemy_broken_or_eliminated`, `p_own_broken_or_eliminated` and their
/// `exact_` twins.
pub fn summary_header(run: &ScenarioRun) -> Vec<String> {
    let names = run.measure_names();
    let keys = summary_keys(run);
    let mut h = owned(&["scenario", "variant", "course", "trials", "seed"]);
    h.extend(names.iter().map(|n| format!("mean_{n}")));
    h.extend(names.iter().map(|n| format!("exact_mean_{n}")));
    h.extend(keys.iter().map(key_column));
    h.extend(keys.iter().map(|d| format!("exact_{}", key_column(d))));
    h
}

/// The rows of `summary.csv`: one per variant × course.
pub fn summary_rows(run: &ScenarioRun) -> Vec<Vec<String>> {
    let names = run.measure_names();
    let keys = summary_keys(run);
    run.courses
        .iter()
        .map(|c| {
            let s: CourseStats = c.stats();
            let mut row = vec![
                run.scenario.clone(),
                c.variant.clone(),
                c.course.clone(),
                s.trials.to_string(),
                run.seed.to_string(),
            ];
            row.extend(
                names
                    .iter()
                    .map(|n| s.measure(n).map_or_else(String::new, |m| mc(m.mean))),
            );
            row.extend(
                names
                    .iter()
                    .map(|n| exact(s.measure(n).and_then(|m| m.exact_mean))),
            );
            let values: Vec<Option<KeyOutcome>> =
                keys.iter().map(|&d| key_outcome(d, &s)).collect();
            row.extend(
                values
                    .iter()
                    .map(|k| k.map_or_else(String::new, |k| mc(k.value))),
            );
            row.extend(values.iter().map(|k| exact(k.and_then(|k| k.exact))));
            row
        })
        .collect()
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
                run.scenario.clone(),
                c.variant.clone(),
                c.course.clone(),
                t.trials.to_string(),
                t.threads.to_string(),
                fixed(t.seconds, 6),
                rate,
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
        stage(out, "summary.csv", &summary_header(run), &summary_rows(run))
    }
}

impl Output for TimingCsv {
    fn render(&self, run: &ScenarioRun, out: &mut Staging) -> Result<(), Error> {
        stage(out, "timing.csv", &owned(&TIMING_HEADER), &timing_rows(run))
    }
}
