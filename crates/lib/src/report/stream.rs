//! A large sweep's folder written as its variants finish: every table of
//! a smaller run (the same rows, in the same order), gzip-compressed
//! (`outcomes.csv.gz`, …, `sweep.csv.gz`) and appended to block by block,
//! while only each course's key outcomes are kept, for the sweep charts
//! drawn at the end. A sweep of 10,000 variants would otherwise hold
//! gigabytes of distributions and write hundreds of megabytes of text.
//!
//! Decompressed, each file is byte for byte the table the same run writes
//! uncompressed when its variants are held (gzip's header carries no time
//! or name, so the compressed files are the same on every run too).

use std::path::PathBuf;

use flate2::Compression;
use flate2::write::GzEncoder;

use super::compare::{COMPARISON_HEADER, comparison_rows};
use super::csv::{
    MEASURES_HEADER, OUTCOMES_HEADER, SUMMARY_HEADER, TIMING_HEADER, measure_rows, outcome_rows,
    summary_rows, timing_rows,
};
use super::engagement::csv::{ENGAGEMENTS_HEADER, engagement_rows};
use super::engagement::is_engagement;
use super::folder::ExtraCsv;
use super::sweep::Sweep;
use super::sweep_chart::{SweepFigures, SweepValues, draw_figures};
use super::sweep_csv::{SWEEP_CSV, sweep_header, sweep_rows};
use super::write::StagedFile;
use super::{Plots, ScenarioRun, Staging};
use crate::error::Error;

/// The suffix of a streamed table's name (`sweep.csv.gz`).
pub const GZ: &str = ".gz";

/// How hard the tables are compressed: the fastest level already shrinks
/// these repetitive tables about twenty times, at a small part of the
/// run's time.
const LEVEL: u32 = 1;

/// The rows of one table for some courses of a run.
type Rows = fn(&ScenarioRun) -> Vec<Vec<String>>;

/// One table being written.
struct Table {
    name: String,
    rows: Rows,
    /// Whether a course of the run must have an engagement first.
    engagements_only: bool,
    header: Vec<String>,
    out: Option<::csv::Writer<GzEncoder<StagedFile>>>,
}

/// A large sweep's folder being written (see the module's documentation).
pub struct SweepStream {
    staging: Staging,
    tables: Vec<Table>,
    values: SweepValues,
}

impl SweepStream {
    /// Starts the folder of a run over `sweep` (`None` without one) in
    /// `staging`; its courses are given block by block to
    /// [`SweepStream::add`].
    pub fn new(sweep: Option<&Sweep>, staging: Staging) -> SweepStream {
        let owned = |h: &[&str]| h.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let table = |name: &str, header: Vec<String>, rows: Rows, engagements_only: bool| Table {
            name: format!("{name}{GZ}"),
            rows,
            engagements_only,
            header,
            out: None,
        };
        let mut tables = vec![
            table("outcomes.csv", owned(&OUTCOMES_HEADER), outcome_rows, false),
            table("measures.csv", owned(&MEASURES_HEADER), measure_rows, false),
            table("summary.csv", owned(&SUMMARY_HEADER), summary_rows, false),
            table("timing.csv", owned(&TIMING_HEADER), timing_rows, false),
            table(
                "comparison.csv",
                owned(&COMPARISON_HEADER),
                comparison_rows,
                false,
            ),
            table(
                "engagements.csv",
                owned(&ENGAGEMENTS_HEADER),
                engagement_rows,
                true,
            ),
        ];
        if let Some(sweep) = sweep {
            tables.push(table(SWEEP_CSV, sweep_header(sweep), sweep_rows, false));
        }
        SweepStream {
            staging,
            tables,
            values: SweepValues::default(),
        }
    }

    /// Writes the rows of `part`, a run of some whole variants after those
    /// added before (its `sweep` holding their points only), and keeps
    /// their key outcomes as points of the whole run's `sweep`.
    pub fn add(&mut self, sweep: Option<&Sweep>, part: ScenarioRun) -> Result<(), Error> {
        if let Some(sweep) = sweep {
            self.values.add(sweep, &part.courses);
        }
        let engagement = part.courses.iter().any(is_engagement);
        for t in &mut self.tables {
            if t.engagements_only && !engagement {
                continue;
            }
            if t.out.is_none() {
                let file = self.staging.open(&t.name)?;
                let gz = GzEncoder::new(file, Compression::new(LEVEL));
                let mut w = ::csv::Writer::from_writer(gz);
                w.write_record(&t.header)
                    .map_err(|e| csv_error(&self.staging, &t.name, e))?;
                t.out = Some(w);
            }
            let w = t.out.as_mut().expect("opened above");
            for r in (t.rows)(&part) {
                w.write_record(&r)
                    .map_err(|e| csv_error(&self.staging, &t.name, e))?;
            }
        }
        Ok(())
    }

    /// Ends every table, writes `run.json` (`record`), `extra` (e.g.
    /// `expect.csv`) and the sweep charts unless `drawn` is
    /// [`Plots::None`], and renames every file into place. Returns the
    /// paths written.
    pub fn finish(
        mut self,
        run: &ScenarioRun,
        drawn: Plots,
        record: Option<&super::record::RunRecord>,
        extra: Option<ExtraCsv>,
    ) -> Result<Vec<PathBuf>, Error> {
        for t in std::mem::take(&mut self.tables) {
            let Some(w) = t.out else { continue };
            let gz = w
                .into_inner()
                .map_err(|e| csv_error(&self.staging, &t.name, e.into_error()))?;
            let file = gz
                .finish()
                .map_err(|e| Error::io(self.staging.dir().join(&t.name), e))?;
            file.finish()?;
        }
        if let Some(r) = record {
            self.staging.bytes(super::record::RUN_JSON, &r.to_bytes())?;
        }
        if let Some(x) = extra {
            let header: Vec<String> = x.header.iter().map(|h| h.to_string()).collect();
            super::csv::stage(&mut self.staging, x.name, &header, &x.rows)?;
        }
        if drawn != Plots::None
            && let Some(fig) = SweepFigures::with(run, self.values)
        {
            draw_figures(&fig, &mut self.staging)?;
        }
        self.staging.commit()
    }
}

/// The error of a table that could not be written.
fn csv_error(staging: &Staging, name: &str, e: impl Into<std::io::Error>) -> Error {
    Error::io(staging.dir().join(name), e.into())
}
