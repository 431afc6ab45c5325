//! Reports: the distributions of a run as CSV, plots and a terminal table.
//!
//! One file per output, each behind the small [`Output`] trait (the shape of
//! hyperfine's exporters): [`csv`] writes `outcomes.csv`, `measures.csv`,
//! `summary.csv` and `timing.csv`; [`compare`] `comparison.csv` and the
//! grouped bar charts of the key outcomes ([`key`]) per variant;
//! [`engagement`] `engagements.csv` and the turn plots of every engagement;
//! [`plot`] a PNG and an SVG histogram per course, [`at_least`] its
//! `P(X >= k)` chart ([`draw`] the drawing
//! helpers every chart shares, [`raster`] their PNG encoding, [`glyphs`] their text, [`naming`]
//! their file names); [`terminal`] the table
//! printed after a run; [`diff`] the comparison of two editions (`pikeshot
//! diff`). [`write`](mod@write) stages every
//! file in the output folder and renames it into place, so each file is
//! written whole or not at all.
//!
//! Everything but `timing.csv` is a pure function of the counts: two
//! identical runs give byte-identical files (fixed float formats, no
//! timestamps).

pub mod at_least;
pub(crate) mod chart;
pub mod compare;
pub mod csv;
pub mod decision;
pub mod diff;
pub mod draw;
pub mod engagement;
pub mod figure;
pub mod folder;
pub mod glyphs;
pub mod key;
pub mod legend;
pub mod model;
pub mod naming;
pub mod plot;
pub mod raster;
pub mod record;
pub mod replace;
pub mod stream;
pub mod sweep;
pub mod sweep_chart;
pub mod sweep_csv;
pub mod terminal;
pub mod write;

use std::path::{Path, PathBuf};

use crate::error::Error;
pub use compare::{VariantKeys, variant_keys};
pub use engagement::{Cumulative, Engagement};
pub use figure::Figure;
pub use key::{KEY_OUTCOMES, KeyDef, KeyKind, KeyOutcome, key_outcomes};
pub use model::{CourseRun, CourseStats, MeasureStat, OutcomeStat, RunId, ScenarioRun};
pub use terminal::terminal_table;
pub use write::{StagedFile, Staging, check_writable};

/// One output format: renders a run into files staged in the output folder.
pub trait Output {
    /// Renders `run`, staging every file it makes through `out`.
    fn render(&self, run: &ScenarioRun, out: &mut Staging) -> Result<(), Error>;
}

/// Every file output, in the order they are written.
pub fn outputs() -> Vec<Box<dyn Output>> {
    outputs_for(Plots::All, 1)
}

/// The file outputs that `plots` asks for, for a run of `variants`
/// variants, in the order they are written: every CSV always (`sweep.csv`
/// under a sweep); the per-course plots (histograms, at-least charts, an
/// engagement's turn plots) only with [`Plots::All`]; the sweep charts
/// unless [`Plots::None`]; each variant's comparison charts with
/// [`Plots::All`], and with [`Plots::Summary`] for at most
/// [`SUMMARY_ABOVE`] variants.
pub fn outputs_for(plots: Plots, variants: usize) -> Vec<Box<dyn Output>> {
    let mut out: Vec<Box<dyn Output>> = vec![
        Box::new(csv::OutcomesCsv),
        Box::new(csv::MeasuresCsv),
        Box::new(csv::SummaryCsv),
        Box::new(csv::TimingCsv),
        Box::new(compare::ComparisonCsv),
        Box::new(engagement::EngagementsCsv),
        Box::new(sweep_csv::SweepCsv),
    ];
    if plots == Plots::All {
        out.push(Box::new(plot::Histograms));
        out.push(Box::new(at_least::AtLeastCharts));
        out.push(Box::new(engagement::EngagementPlots));
    }
    if plots.draws_comparisons(variants) {
        out.push(Box::new(compare::ComparisonCharts));
    }
    if plots != Plots::None {
        out.push(Box::new(sweep_chart::SweepCharts));
    }
    out
}

/// A sweep of more variants than this draws each variant's comparison
/// charts only under `--plots all`; `--plots summary` (its default) then
/// draws the sweep charts alone.
pub const SUMMARY_ABOVE: usize = 20;

/// Which plots a scenario's folder gets (`--plots`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Plots {
    /// Every plot: each course's histogram and at-least chart, each
    /// engagement's turn plots,
    /// each variant's comparison charts.
    #[default]
    All,
    /// The sweep charts, and each variant's comparison charts when the run
    /// has at most [`SUMMARY_ABOVE`] variants (no per-course plot).
    Summary,
    /// No plot: the CSV files (and `run.json`) only.
    None,
}

impl Plots {
    /// The name on the command line and in `run.json`.
    pub fn name(self) -> &'static str {
        match self {
            Plots::All => "all",
            Plots::Summary => "summary",
            Plots::None => "none",
        }
    }

    /// Whether each variant's comparison charts are drawn in a run of
    /// `variants` variants: always under `all`, under `summary` for at most
    /// [`SUMMARY_ABOVE`] variants (past that they are thousands of files;
    /// the sweep charts show the same figures across the variants).
    pub fn draws_comparisons(self, variants: usize) -> bool {
        match self {
            Plots::All => true,
            Plots::Summary => variants <= SUMMARY_ABOVE,
            Plots::None => false,
        }
    }
}

/// Writes every report of `run` into `dir` (created if missing) and returns
/// the paths written, in this order: `outcomes.csv`, `measures.csv`,
/// `summary.csv`, `timing.csv`, `comparison.csv`, `engagements.csv` (when
/// the run has an engagement); a PNG and an SVG histogram per course; the
/// `<stem>-at-least` chart of each course with a measure that varies; for
/// each engagement `<stem>-turns` and `<stem>-cumulative` (PNG, SVG); for
/// each variant with key measures its comparison charts (names planned by
/// [`naming::plan`]).
///
/// Nothing is renamed into place until every file has been rendered; on a
/// failure the temporaries are removed and the error names the file.
pub fn write_reports(run: &ScenarioRun, dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut staging = Staging::new(dir)?;
    for output in outputs() {
        output.render(run, &mut staging)?;
    }
    staging.commit()
}

/// A float with `decimals` fixed decimals; empty when not finite, and never
/// `-0.000…`, so equal inputs always print the same bytes.
#[doc(hidden)]
pub fn fixed(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return String::new();
    }
    let s = format!("{x:.decimals$}");
    match s.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.to_string(),
        _ => s,
    }
}

/// `text` cut after each of the characters `breaks` (each piece keeps its
/// break at its end): the pieces a label or a table cell may be wrapped at.
pub(crate) fn pieces_after(text: &str, breaks: &[char]) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for ch in text.chars() {
        cur.push(ch);
        if breaks.contains(&ch) {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}
