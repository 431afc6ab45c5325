//! The top level of a batch report, rebuilt from the scenario folders on
//! disk: `scenarios.csv` (the manifest), `summary.csv` across every
//! scenario, `expect.csv` with every target checked, and `index.html`.
//!
//! Everything here reads only the per-scenario CSVs (`outcomes.csv`,
//! `comparison.csv`, `summary.csv`, `plots.csv`, `expect.csv`, `sweep.csv`), `run.json`
//! and `explain.json`, and whether optional files exist, never
//! `timing.csv`'s contents, so a report and the merge of its shards write
//! the same bytes.

use std::path::Path;

use crate::error::{Error, InputError};
use crate::report::csv::SUMMARY_HEADER;
use crate::report::folder::{EXPECT_CSV, PLOTS_CSV};
use crate::report::record::{RUN_JSON, RunRecord};
use crate::report::sweep_csv::SWEEP_CSV;
use crate::targets::{CheckRow, EXPECT_HEADER};

/// The manifest: one row per scenario of the report, in report order.
pub const MANIFEST: &str = "scenarios.csv";
/// The cross-scenario summary.
pub const SUMMARY: &str = "summary.csv";
/// Every target checked, across scenarios.
pub const EXPECT: &str = "expect.csv";
/// The page.
pub const INDEX: &str = "index.html";

/// Header of `scenarios.csv`.
pub const MANIFEST_HEADER: [&str; 5] = ["file", "folder", "scenario", "system", "edition"];

/// One scenario of a report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The scenario file, relative to the folder reported, `/`-separated.
    pub file: String,
    /// Its output folder, relative to the report's folder.
    pub folder: String,
    /// The scenario's name.
    pub scenario: String,
    /// Rule system.
    pub system: String,
    /// Every edition the variants use, joined by `, ` (empty without
    /// editions).
    pub edition: String,
}

impl Entry {
    /// The manifest record.
    pub fn record(&self) -> Vec<String> {
        vec![
            self.file.clone(),
            self.folder.clone(),
            self.scenario.clone(),
            self.system.clone(),
            self.edition.clone(),
        ]
    }
    fn from_record(header: &[String], r: &[String]) -> Entry {
        let get = |name: &str| field(header, r, name);
        Entry {
            file: get("file"),
            folder: get("folder"),
            scenario: get("scenario"),
            system: get("system"),
            edition: get("edition"),
        }
    }
}

pub(crate) use crate::report::csv::field;

/// A CSV file: its header and records.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    /// Column names.
    pub header: Vec<String>,
    /// Records.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// The value of column `name` in row `i`.
    pub fn get(&self, i: usize, name: &str) -> String {
        field(&self.header, &self.rows[i], name)
    }
}

/// Reads a CSV file.
pub fn read_csv(path: &Path) -> Result<Table, Error> {
    let bad = |e: ::csv::Error| Error::io(path, std::io::Error::other(e.to_string()));
    let mut r = ::csv::Reader::from_path(path).map_err(bad)?;
    let header = r.headers().map_err(bad)?.iter().map(String::from).collect();
    let rows = r
        .records()
        .map(|rec| rec.map(|rec| rec.iter().map(String::from).collect()))
        .collect::<Result<_, _>>()
        .map_err(bad)?;
    Ok(Table { header, rows })
}

/// The path of `name` in `dir`, which makes `dir` `what`; refused when it
/// is missing, with `how` (`""`, or a clause saying how to make one).
pub(crate) fn required_file(
    dir: &Path,
    name: &str,
    what: &str,
    how: &str,
) -> Result<std::path::PathBuf, Error> {
    let path = dir.join(name);
    if !path.is_file() {
        return Err(InputError::new(format!(
            "{} is not {what}: it has no {name}{how}",
            dir.display()
        ))
        .into());
    }
    Ok(path)
}

/// Reads `scenarios.csv` of a report folder.
pub fn read_manifest(dir: &Path) -> Result<Vec<Entry>, Error> {
    let path = required_file(dir, MANIFEST, "a pikeshot report", "")?;
    let t = read_csv(&path)?;
    Ok(t.rows
        .iter()
        .map(|r| Entry::from_record(&t.header, r))
        .collect())
}

/// What one scenario folder holds, as the top level reads it.
#[derive(Clone, Debug, Default)]
pub struct Folder {
    /// `outcomes.csv`.
    pub outcomes: Table,
    /// `comparison.csv`.
    pub comparison: Table,
    /// `summary.csv`.
    pub summary: Table,
    /// `plots.csv`.
    pub plots: Table,
    /// `expect.csv`, when the scenario has targets.
    pub expect: Option<Table>,
    /// `measures.csv` (empty in a folder written before it was read here).
    pub measures: Table,
    /// `run.json`, when the folder has one: the options the run used.
    pub record: Option<RunRecord>,
    /// `explain.json`, when the folder has one: each course's rolls.
    pub explain: Option<crate::explain::Explanation>,
    /// `decisions.json`, when the scenario has `[[decision]]`s: each best
    /// plan.
    pub decisions: Option<super::decisions_doc::DecisionsDoc>,
    /// `sweep.csv`, when the scenario has a sweep.
    pub sweep: Option<Table>,
    /// The other files present, by name, for links: `measures.csv`,
    /// `engagements.csv`, `timing.csv`.
    pub files: Vec<&'static str>,
}

/// Each course's rolls explained, in a scenario's folder of a report.
pub const EXPLAIN_JSON: &str = crate::explain::run::EXPLAIN_JSON;

/// Files of a scenario folder the page links to when present.
pub const LINKED: [&str; 10] = [
    SWEEP_CSV,
    "outcomes.csv",
    "measures.csv",
    "summary.csv",
    "comparison.csv",
    "engagements.csv",
    EXPECT_CSV,
    "timing.csv",
    EXPLAIN_JSON,
    crate::report::decision::DECISIONS_JSON,
];

/// Reads a scenario folder.
pub fn read_folder(dir: &Path) -> Result<Folder, Error> {
    let need = |name: &str| {
        let p = dir.join(name);
        if p.is_file() {
            read_csv(&p)
        } else {
            Err(Error::io(
                p,
                std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "missing from the scenario's folder",
                ),
            ))
        }
    };
    let expect_path = dir.join(EXPECT_CSV);
    let measures_path = dir.join("measures.csv");
    let record = read_json(&dir.join(RUN_JSON), RUN_JSON)?;
    let explain = read_json(&dir.join(EXPLAIN_JSON), EXPLAIN_JSON)?;
    let sweep_path = dir.join(SWEEP_CSV);
    let decisions = read_json(
        &dir.join(crate::report::decision::DECISIONS_JSON),
        crate::report::decision::DECISIONS_JSON,
    )?;
    Ok(Folder {
        explain,
        decisions,
        sweep: if sweep_path.is_file() {
            Some(read_csv(&sweep_path)?)
        } else {
            None
        },
        measures: if measures_path.is_file() {
            read_csv(&measures_path)?
        } else {
            Table::default()
        },
        record,
        outcomes: need("outcomes.csv")?,
        comparison: need("comparison.csv")?,
        summary: need("summary.csv")?,
        plots: need(PLOTS_CSV)?,
        expect: if expect_path.is_file() {
            Some(read_csv(&expect_path)?)
        } else {
            None
        },
        files: LINKED
            .into_iter()
            .filter(|f| dir.join(f).is_file())
            .collect(),
    })
}

/// A pikeshot JSON file of a scenario's folder (`name` for the error), or
/// `None` when the folder has none.
fn read_json<T: serde::de::DeserializeOwned>(path: &Path, name: &str) -> Result<Option<T>, Error> {
    if !path.is_file() {
        return Ok(None);
    }
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    serde_json::from_slice(&bytes).map(Some).map_err(|e| {
        Error::io(
            path,
            std::io::Error::other(format!("not a pikeshot {name}: {e}")),
        )
    })
}

/// The cross-scenario `summary.csv`: `file`, then the tidy columns of a
/// scenario's ([`SUMMARY_HEADER`]): every scenario's rows, in manifest
/// order, one per scenario × variant × course × figure.
pub fn summary(entries: &[Entry], folders: &[Folder]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut header = vec!["file".to_string()];
    header.extend(SUMMARY_HEADER.map(String::from));
    let mut rows = Vec::new();
    for (e, f) in entries.iter().zip(folders) {
        for r in &f.summary.rows {
            rows.push(
                header
                    .iter()
                    .map(|h| {
                        if h == "file" {
                            e.file.clone()
                        } else {
                            field(&f.summary.header, r, h)
                        }
                    })
                    .collect(),
            );
        }
    }
    (header, rows)
}

/// Header of the cross-scenario `expect.csv`: `file`, then the columns of a
/// scenario's.
pub fn expect_header() -> Vec<String> {
    let mut h = vec!["file".to_string()];
    h.extend(EXPECT_HEADER.map(String::from));
    h
}

/// Every target checked, across scenarios, as rows of the cross-scenario
/// `expect.csv` and as [`CheckRow`]s (named by scenario file).
pub fn checks(entries: &[Entry], folders: &[Folder]) -> (Vec<Vec<String>>, Vec<CheckRow>) {
    let mut rows = Vec::new();
    let mut checks = Vec::new();
    for (e, f) in entries.iter().zip(folders) {
        let Some(t) = &f.expect else { continue };
        for r in &t.rows {
            let mut row = vec![e.file.clone()];
            row.extend(EXPECT_HEADER.iter().map(|h| field(&t.header, r, h)));
            rows.push(row);
            checks.push(CheckRow::from_record(&e.file, &t.header, r));
        }
    }
    (rows, checks)
}
