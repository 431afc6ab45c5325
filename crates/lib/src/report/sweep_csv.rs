//! `sweep.csv`, the designer's one table across a sweep: one row per
//! variant × course × figure, each swept key its own column.

use super::csv::{SUMMARY_KEY, SUMMARY_MEAN, stage, summary_cells};
use super::figure::Figure;
use super::key::key_outcomes;
use super::model::ScenarioRun;
use super::sweep::Sweep;
use super::{Output, Staging};
use crate::error::Error;

/// Name of the sweep table in a scenario's folder.
pub const SWEEP_CSV: &str = "sweep.csv";

/// The columns of `sweep.csv` after the swept keys' own columns.
pub const SWEEP_COLUMNS: [&str; 10] = [
    "variant", "course", "own", "enemy", "kind", "id", "value", "ci_low", "ci_high", "exact",
];

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
