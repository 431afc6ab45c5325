//! A swept scenario's summary on the page, as `report` writes it for
//! `index.html`: the sweep charts' SVG text (`report::sweep_chart`, the
//! same drawings as `sweep--<key>.svg` and the heatmaps) and the key
//! outcome rows of `sweep.csv` (`report::sweep`), which the page lays out
//! as the sweep table (the first key outcome per variant and course).

use serde::Serialize;

use crate::batch::html_sweep::MAX_ROWS;
use crate::error::Error;
use crate::report::ScenarioRun;
use crate::report::csv::SUMMARY_KEY;
use crate::report::sweep_chart::{SweepSvg, svg_charts};
use crate::report::sweep_csv::{SWEEP_COLUMNS, sweep_header, sweep_rows};

/// Most bytes of SVG sent for one answer; the charts past it are named in
/// [`SweepView::note`] (`pikeshot report` draws them all).
pub const MAX_CHART_BYTES: usize = 4 * 1024 * 1024;

/// A swept run's summary for the page.
#[derive(Clone, Debug, Serialize)]
pub struct SweepView {
    /// The swept keys: the first columns of `header`.
    pub keys: Vec<String>,
    /// `sweep.csv`'s header: the swept keys, then its fixed columns.
    pub header: Vec<String>,
    /// `sweep.csv`'s key outcome rows (kind `key`), of the first
    /// [`MAX_ROWS`] variants.
    pub rows: Vec<Vec<String>>,
    /// The variants in all.
    pub variants: usize,
    /// The sweep charts, in the order `report` writes them.
    pub charts: Vec<SweepSvg>,
    /// What was left out, when something was.
    pub note: Option<String>,
}

impl SweepView {
    /// The summary of `run`; `None` without a sweep.
    pub fn of(run: &ScenarioRun) -> Result<Option<SweepView>, Error> {
        let Some(sweep) = &run.sweep else {
            return Ok(None);
        };
        let header = sweep_header(sweep);
        let keys: Vec<String> = sweep.axes.iter().map(|a| a.key.clone()).collect();
        let at = |name: &str| {
            let i = SWEEP_COLUMNS.iter().position(|c| *c == name).unwrap_or(0);
            keys.len() + i
        };
        let (kind, variant) = (at("kind"), at("variant"));
        let mut seen: Vec<String> = Vec::new();
        let mut rows = Vec::new();
        for r in sweep_rows(run) {
            if r[kind] != SUMMARY_KEY {
                continue;
            }
            if seen.last() != Some(&r[variant]) {
                if seen.len() == MAX_ROWS {
                    break;
                }
                seen.push(r[variant].clone());
            }
            rows.push(r);
        }
        let mut charts = Vec::new();
        let mut bytes = 0;
        let mut left_out = Vec::new();
        for c in svg_charts(run)? {
            if bytes + c.svg.len() > MAX_CHART_BYTES {
                left_out.push(c.stem);
                continue;
            }
            bytes += c.svg.len();
            charts.push(c);
        }
        let mut notes = Vec::new();
        if sweep.points.len() > MAX_ROWS {
            notes.push(format!(
                "the table lists the first {MAX_ROWS} of {} variants",
                sweep.points.len()
            ));
        }
        if !left_out.is_empty() {
            notes.push(format!(
                "{} charts over the page's {MAX_CHART_BYTES} bytes of SVG left out ({}): \
                 `pikeshot report` draws them all",
                left_out.len(),
                left_out.join(", ")
            ));
        }
        Ok(Some(SweepView {
            keys,
            header,
            rows,
            variants: sweep.points.len(),
            charts,
            note: (!notes.is_empty()).then(|| notes.join("; ")),
        }))
    }
}
