//! One scenario's folder: every report of [`super::outputs`], plus
//! `expect.csv` (the scenario's targets checked, rows made by the caller) and, in a batch report,
//! `plots.csv` (which plot shows what), all staged together so the folder
//! is written whole or not at all.

use std::io;
use std::path::{Path, PathBuf};

use super::compare::{ComparisonCharts, variant_keys};
use super::csv::stage as stage_csv;
use super::engagement::{Which, is_engagement};
use super::naming::plan;
use super::sweep_chart::{SweepFigures, chart_stems};
use super::{KeyKind, Plots, ScenarioRun, Staging};
use crate::error::Error;

/// Name of the targets file in a scenario's folder.
pub const EXPECT_CSV: &str = "expect.csv";
/// Name of the plot index in a scenario's folder.
pub const PLOTS_CSV: &str = "plots.csv";

/// Header of `plots.csv`.
pub const PLOTS_HEADER: [&str; 5] = ["variant", "course", "kind", "png", "svg"];

/// What a plot shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlotKind {
    /// The key probabilities of a variant's courses side by side.
    Comparison,
    /// The key expectations of a variant's courses side by side.
    ComparisonExpected,
    /// A course's outcome histogram.
    Histogram,
    /// An engagement's turn distribution.
    Turns,
    /// An engagement's cumulative P(stopped by turn t).
    Cumulative,
    /// A course's `P(X >= k)` for each measure that varies.
    AtLeast,
    /// The key outcomes against one swept key's values, a line per course.
    Sweep,
    /// A course's first key outcome over two swept keys, a cell per pair.
    Heatmap,
}

impl PlotKind {
    /// Every kind, in the order the index shows them.
    pub const ALL: [PlotKind; 8] = [
        PlotKind::Sweep,
        PlotKind::Heatmap,
        PlotKind::Comparison,
        PlotKind::ComparisonExpected,
        PlotKind::Histogram,
        PlotKind::AtLeast,
        PlotKind::Turns,
        PlotKind::Cumulative,
    ];
    /// The name in `plots.csv`.
    pub fn name(self) -> &'static str {
        match self {
            PlotKind::Comparison => "comparison",
            PlotKind::ComparisonExpected => "comparison-expected",
            PlotKind::Histogram => "histogram",
            PlotKind::Turns => "turns",
            PlotKind::Cumulative => "cumulative",
            PlotKind::AtLeast => "at-least",
            PlotKind::Sweep => "sweep",
            PlotKind::Heatmap => "heatmap",
        }
    }
    /// The kind named `name`.
    pub fn from_name(name: &str) -> Option<PlotKind> {
        PlotKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// The rows of `plots.csv`: under a sweep first its charts (each swept
/// key's, variant and course empty; each course's heatmap), then for each
/// variant (in run order) its comparison charts, then for each of its
/// courses the histogram, its "at least" chart when a measure varies and,
/// for an engagement, the turn plots. The names are those the report
/// outputs write ([`plan`], [`chart_stems`]). Only the plots `drawn` asks
/// for are listed.
pub fn plot_rows(run: &ScenarioRun, drawn: Plots) -> Vec<Vec<String>> {
    if drawn == Plots::None {
        return Vec::new();
    }
    let mut rows = Vec::new();
    let row = |variant: &str, course: &str, kind: PlotKind, stem: &str| {
        vec![
            variant.to_string(),
            course.to_string(),
            kind.name().to_string(),
            format!("{stem}.png"),
            format!("{stem}.svg"),
        ]
    };
    if let Some(fig) = SweepFigures::of(run) {
        let (keys, maps) = chart_stems(&fig);
        for (_, stem) in keys {
            rows.push(row("", "", PlotKind::Sweep, &stem));
        }
        for (c, stem) in maps {
            rows.push(row("", &fig.courses[c], PlotKind::Heatmap, &stem));
        }
    }
    let variants = run.variants();
    let comparisons = drawn.draws_comparisons(variants.len());
    if !comparisons && drawn != Plots::All {
        return rows;
    }
    let names = plan(run);
    let keys = if comparisons {
        variant_keys(run)
    } else {
        Vec::new()
    };
    let stems: std::collections::HashMap<&str, &str> = names
        .comparisons
        .iter()
        .map(|(v, s)| (v.as_str(), s.as_str()))
        .collect();
    let keyed: std::collections::HashMap<&str, &super::VariantKeys> =
        keys.iter().map(|k| (k.variant.as_str(), k)).collect();
    // Courses come variants outermost: each variant's courses are one run.
    let mut next = 0;
    for variant in variants {
        if let (Some(stem), Some(v)) = (stems.get(variant), keyed.get(variant)) {
            for (kind, pk) in [
                (KeyKind::Probability, PlotKind::Comparison),
                (KeyKind::Expectation, PlotKind::ComparisonExpected),
            ] {
                if !v.charted(kind).is_empty() {
                    let stem = format!("{stem}{}", ComparisonCharts::suffix(kind));
                    rows.push(row(variant, "", pk, &stem));
                }
            }
        }
        while next < run.courses.len() && run.courses[next].variant == variant {
            let (c, stem) = (&run.courses[next], &names.courses[next]);
            next += 1;
            if drawn != Plots::All {
                continue;
            }
            rows.push(row(variant, &c.course, PlotKind::Histogram, stem));
            if !super::at_least::charted(c.stats()).is_empty() {
                let s = format!("{stem}-{}", super::naming::AT_LEAST_SUFFIX);
                rows.push(row(variant, &c.course, PlotKind::AtLeast, &s));
            }
            if is_engagement(c) {
                for (which, pk) in [
                    (Which::Turns, PlotKind::Turns),
                    (Which::Cumulative, PlotKind::Cumulative),
                ] {
                    let s = format!("{stem}-{}", which.suffix());
                    rows.push(row(variant, &c.course, pk, &s));
                }
            }
        }
    }
    rows
}

/// A CSV file written beside the reports: `expect.csv`, say, whose header
/// and rows the caller makes (the report does not judge targets).
pub struct ExtraCsv<'a> {
    /// File name in the folder.
    pub name: &'a str,
    /// Header row.
    pub header: &'a [&'a str],
    /// Data rows.
    pub rows: Vec<Vec<String>>,
}

/// Writes every report of `run` into `into` (with the plots `drawn` asks
/// for), with `run.json` from `record`, `extra` (e.g. `expect.csv` when the
/// scenario has targets) and `plots.csv` when `plots` is set. `into` is a
/// folder being replaced (at its temporary place, or inside it: see
/// [`super::replace::NewFolder`]), which will be at `fin` once committed.
/// Returns the paths the files will have then.
pub fn write(
    run: &ScenarioRun,
    extra: Option<ExtraCsv>,
    plots: bool,
    drawn: Plots,
    record: Option<&super::record::RunRecord>,
    into: &Path,
    fin: &Path,
) -> Result<Vec<PathBuf>, Error> {
    let dir = into;
    let mut staging = Staging::new(dir)?;
    if let Some(r) = record {
        staging.bytes(super::record::RUN_JSON, &r.to_bytes())?;
    }
    for output in super::outputs_for(drawn, run.variants().len()) {
        output.render(run, &mut staging)?;
    }
    if let Some(x) = extra {
        let header: Vec<String> = x.header.iter().map(|h| h.to_string()).collect();
        stage_csv(&mut staging, x.name, &header, &x.rows)?;
    }
    let rows = if plots {
        plot_rows(run, drawn)
    } else {
        Vec::new()
    };
    if plots {
        stage_csv(
            &mut staging,
            PLOTS_CSV,
            &PLOTS_HEADER.map(String::from),
            &rows,
        )?;
    }
    let written = staging.commit()?;
    let fin = |p: &Path| {
        p.strip_prefix(into)
            .map_or_else(|_| p.to_path_buf(), |r| fin.join(r))
    };
    // plots.csv must name only files the outputs wrote.
    for r in &rows {
        for name in &r[3..5] {
            let p = dir.join(name);
            if !written.contains(&p) {
                return Err(Error::io(
                    fin(&p),
                    io::Error::other("plots.csv names a plot the report did not write"),
                ));
            }
        }
    }
    Ok(written.iter().map(|p| fin(p)).collect())
}
