//! `pikeshot diff`: one scenario under two editions of its card, and how
//! each outcome's probability and each key outcome moves between them.
//!
//! The scenario is prepared twice with `--set edition=<from>` and
//! `--set edition=<to>` (which pins `edition` if the file sweeps it; any
//! other sweep stays, and variants are matched by label), resolved with the
//! same seed and options, and compared course by course. An outcome one
//! card cannot produce has probability 0 under it.
//!
//! The change is `to − from`, with its 95% interval and, with `--exact`,
//! the exact change beside it: the comparison itself, its chart and its
//! table are in [`crate::report::diff`].
//!
//! Outputs: a terminal table, `diff.csv`, and per variant a chart
//! (`diff.png`/`.svg`, or `<variant>--diff` under a sweep) of the change of
//! every outcome of every course.

use std::path::{Path, PathBuf};

use crate::error::{Error, InputError};
use crate::report::Staging;
use crate::report::chart::Chart;
use crate::report::csv::stage as stage_csv;
use crate::report::diff::chart::DiffChart;
use crate::report::diff::{DIFF_HEADER, DiffId, DiffRow, RowKind, chart_stem, compare, diff_rows};
pub use crate::report::diff::{Diff, terminal};
use crate::report::draw;
use crate::report::replace::NewFolder;
use crate::run::{self, RunRequest};
use crate::scenario::Override;
use crate::scenario::ScenarioFile;
use crate::systems::Registry;
use crate::targets::Checked;

/// The systems whose scenarios have an `edition` key, with their editions:
/// every system of the registry that has editions.
pub fn edition_systems() -> Vec<(&'static str, Vec<&'static str>)> {
    Registry::shipped()
        .iter()
        .filter(|s| !s.editions().is_empty())
        .map(|s| (s.id(), s.editions().iter().map(|e| e.id).collect()))
        .collect()
}

/// What the user asked of `pikeshot diff`.
#[derive(Clone, Debug)]
pub struct DiffRequest {
    /// The scenario file.
    pub scenario: PathBuf,
    /// The edition compared from (default: the system's oldest).
    pub from: Option<String>,
    /// The edition compared to (default: the system's newest).
    pub to: Option<String>,
    /// Run options for both runs (`scenarios` and `out` unused).
    pub run: RunRequest,
    /// Output folder (default `reports/<stem>-diff/`).
    pub out: Option<PathBuf>,
}

fn check_edition(system: &str, editions: &[&str], e: &str, flag: &str) -> Result<(), Error> {
    if editions.contains(&e) {
        Ok(())
    } else {
        Err(InputError::new(format!("{system} has no edition \"{e}\""))
            .key(flag)
            .one_of(e, editions)
            .into())
    }
}

/// Runs `pikeshot diff`: the comparison, and the scenario's `[[expect]]`
/// targets checked under both editions (each check's variant names its
/// edition first, e.g. `edition=sfo`).
pub fn diff(req: &DiffRequest) -> Result<(Diff, Vec<Checked>), Error> {
    let file = ScenarioFile::load(&req.scenario)?;
    let systems = edition_systems();
    let system = file.table.get("system").and_then(|v| v.as_str());
    if let Some(s) = system
        && !systems.iter().any(|(x, _)| *x == s)
    {
        let names: Vec<&str> = systems.iter().map(|(x, _)| *x).collect();
        return Err(file
            .source
            .locate(
                InputError::new(format!(
                    "`pikeshot diff` compares the editions of a card; system \"{s}\" has none"
                ))
                .key("system")
                .accepted(format!("a scenario of {}", names.join(", "))),
                "system",
            )
            .into());
    }
    // Without `system`, preparing the file below names what is missing.
    let system = system.or(systems.first().map(|(x, _)| *x)).unwrap_or("");
    let editions = systems
        .iter()
        .find(|(x, _)| *x == system)
        .map(|(_, e)| e.clone())
        .unwrap_or_default();
    let from = req
        .from
        .clone()
        .or_else(|| editions.first().map(|e| e.to_string()))
        .unwrap_or_default();
    let to = req
        .to
        .clone()
        .or_else(|| editions.last().map(|e| e.to_string()))
        .unwrap_or_default();
    check_edition(system, &editions, &from, "--from")?;
    check_edition(system, &editions, &to, "--to")?;
    if from == to {
        return Err(InputError::new(format!(
            "--from and --to are both \"{}\"; compare two different editions",
            from
        ))
        .key("--to")
        .accepted(editions.join(", "))
        .into());
    }
    // The command's one pool, for both editions' builds and runs.
    let threads = req.run.plan.threads()?;
    let side = |edition: &str| -> Result<run::Prepared, Error> {
        let mut plan = req.run.plan.clone();
        plan.overrides
            .push(Override::parse(&format!("edition={edition}"))?);
        run::prepare_file_on(file.clone(), &plan, &threads)
    };
    let (pa, pb) = (side(&from)?, side(&to)?);
    let stem = file.stem();
    let dir = req
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("reports").join(format!("{stem}-diff")));
    let new = NewFolder::begin(&dir, "--out", "diff")?;
    run::estimate::announce(&[(&pa, &from), (&pb, &to)], &req.run, "edition", &threads);
    let ra = run::execute_on(&pa, &req.run, &threads)?;
    let rb = run::execute_on(&pb, &req.run, &threads)?;
    let mut checks = Vec::new();
    for (p, r, edition) in [(&pa, &ra, &from), (&pb, &rb, &to)] {
        for mut c in crate::targets::evaluate(&p.expects, r) {
            c.variant = if c.variant.is_empty() {
                format!("edition={edition}")
            } else {
                format!("edition={edition}, {}", c.variant)
            };
            checks.push(c);
        }
    }
    let rows = compare(&ra, &rb);
    let mut d = Diff {
        id: DiffId {
            scenario: ra.id.name.clone(),
            system: ra.id.system.clone(),
            from,
            to,
            seed: ra.id.seed,
        },
        trials: (pa.trials, pb.trials),
        rows,
        dir: dir.clone(),
        written: Vec::new(),
    };
    d.written = write(&d, new.path())?
        .into_iter()
        .map(|p| {
            p.strip_prefix(new.path())
                .map_or(p.clone(), |r| dir.join(r))
        })
        .collect();
    new.commit()?;
    Ok((d, checks))
}

/// Writes `diff.csv` and the charts into `dir`.
fn write(d: &Diff, dir: &Path) -> Result<Vec<PathBuf>, Error> {
    draw::register_font();
    let mut staging = Staging::new(dir)?;
    stage_csv(
        &mut staging,
        "diff.csv",
        &DIFF_HEADER.map(String::from),
        &diff_rows(d),
    )?;
    let mut stems: Vec<String> = Vec::new();
    for variant in d.variants() {
        let rows: Vec<&DiffRow> = d
            .rows
            .iter()
            .filter(|r| r.variant == variant && r.kind == RowKind::Outcome)
            .collect();
        if rows.is_empty() {
            continue;
        }
        let mut stem = chart_stem(variant);
        let base = stem.clone();
        let mut k = 2;
        while stems.contains(&stem) {
            stem = format!("{base}-{k}");
            k += 1;
        }
        stems.push(stem.clone());
        let chart = DiffChart {
            d,
            variant,
            rows: &rows,
        };
        chart.stage(&mut staging, &stem)?;
    }
    staging.commit()
}
