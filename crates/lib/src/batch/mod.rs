//! Batch reports for CI and designers: a whole folder of scenarios in one
//! report, pinned targets, edition diffs, shards and their merge.
//!
//! `pikeshot report DIR` finds every scenario file (`*.toml`) under `DIR`
//! ([`discover`]: recursive, sorted, hidden entries skipped), resolves each
//! into its own folder under the output folder (mirroring its relative
//! path, see [`crate::report::folder`]), then writes the top level from those folders on
//! disk ([`site`]): `scenarios.csv`, `summary.csv`, `expect.csv` and
//! `index.html` ([`html`]). Nothing at the top level depends on
//! `timing.csv`, so the same inputs give the same bytes, and [`merge`] can
//! rebuild the top level of a sharded report exactly.
//!
//! [`crate::targets`] reads and checks the `[[expect]]` targets of a scenario;
//! [`diff`] compares the two Musket & Pike cards on one scenario; [`json`]
//! is `--format json`.

pub mod decisions_doc;
pub mod diff;
pub mod html;
pub mod html_decision;
pub mod html_explain;
pub mod html_parts;
pub mod html_sweep;
pub mod html_views;
pub mod json;
pub mod merge;
pub mod root;
pub mod scheduler;
pub mod site;
pub mod top;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::engine::{KernelMode, Method};
use crate::error::{Error, InputError};
use crate::report::replace::NewFolder;
use crate::report::{Plots, folder};
use crate::run::{self, RunRequest};
use site::Entry;
use top::Site;

/// A slice of the sorted scenario list: shard `index` of `count`
/// (1-based). Scenario `k` (0-based, in sorted order) belongs to shard
/// `k mod count + 1`, so neighbouring scenarios, often alike in cost, go
/// to different shards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which shard, from 1.
    pub index: u32,
    /// How many shards.
    pub count: u32,
}

impl Shard {
    /// Parses `I/N` with `1 <= I <= N`.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || format!("`{s}` is not a shard; accepted: I/N with 1 <= I <= N, e.g. 2/4");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
    /// Whether scenario `k` (0-based, sorted order) belongs to this shard.
    pub fn takes(&self, k: usize) -> bool {
        k % self.count as usize == (self.index - 1) as usize
    }
}

/// Every scenario file (`*.toml`) under `dir`, recursively, as paths
/// relative to `dir` with `/` separators, sorted component by component.
/// Hidden files and folders (`.name`) are skipped, and symbolic links to
/// folders are not followed. A file or folder whose name is not UTF-8 is
/// skipped with a warning on stderr naming it.
pub fn discover(dir: &Path) -> Result<Vec<String>, Error> {
    let meta = std::fs::metadata(dir).map_err(|e| Error::io(dir, e))?;
    if !meta.is_dir() {
        return Err(InputError::new(format!(
            "{} is not a folder; `pikeshot report` takes a folder of scenarios (`pikeshot run` takes files)",
            dir.display()
        ))
        .into());
    }
    let mut found: Vec<Vec<String>> = Vec::new();
    walk(dir, &mut Vec::new(), &mut found)?;
    found.sort();
    Ok(found.into_iter().map(|p| p.join("/")).collect())
}

fn walk(dir: &Path, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) -> Result<(), Error> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let path = entry.path();
        let Ok(name) = entry.file_name().into_string() else {
            // A report names its folders and rows by file name: one that is
            // not UTF-8 cannot be named there, and does not stop the others.
            eprintln!(
                "warning: skipped {}: its name is not UTF-8 (rename it to report it)",
                path.display()
            );
            continue;
        };
        if name.starts_with('.') {
            continue;
        }
        let ty = entry.file_type().map_err(|e| Error::io(&path, e))?;
        if ty.is_dir() {
            prefix.push(name);
            walk(&path, prefix, out)?;
            prefix.pop();
        } else if name.ends_with(".toml") && (ty.is_file() || path.is_file()) {
            let mut p = prefix.clone();
            p.push(name);
            out.push(p);
        }
    }
    Ok(())
}

/// The output folder of a scenario file: its relative path without `.toml`.
pub fn folder_of(file: &str) -> String {
    file.strip_suffix(".toml").unwrap_or(file).to_string()
}

/// What the user asked of `pikeshot report`.
#[derive(Clone, Debug)]
pub struct ReportRequest {
    /// The folder of scenarios.
    pub dir: PathBuf,
    /// The report's folder.
    pub out: PathBuf,
    /// Run options applied to every scenario (`scenarios` and `out` unused).
    pub run: RunRequest,
    /// Run only this slice of the scenarios.
    pub shard: Option<Shard>,
    /// Also build the JSON document of every run.
    pub json: bool,
}

/// The run options a shard records, so that [`merge`] refuses shards run
/// differently.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunOptionsRecord {
    /// `--trials`.
    pub trials: Option<u64>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--precision`.
    pub precision: Option<f64>,
    /// `--max-trials`.
    pub max_trials: Option<u64>,
    /// `--exact`.
    pub exact: bool,
    /// `--method exact` (no Monte Carlo).
    #[serde(default)]
    pub exact_only: bool,
    /// `--method auto`.
    #[serde(default)]
    pub auto: bool,
    /// `--plots`.
    #[serde(default = "all_plots")]
    pub plots: String,
    /// `--exact-budget`.
    pub exact_budget: Option<u64>,
    /// `--set`, in order.
    pub sets: Vec<String>,
    /// `--kernel`.
    pub kernel: String,
}

/// `plots` of a shard record written before `--plots` existed.
fn all_plots() -> String {
    crate::report::Plots::All.name().to_string()
}

impl RunOptionsRecord {
    /// The options of `req` that change what a report contains.
    pub fn of(req: &RunRequest) -> RunOptionsRecord {
        let plan = &req.plan;
        RunOptionsRecord {
            trials: plan.trials,
            seed: plan.seed,
            precision: plan.precision,
            max_trials: plan.max_trials,
            exact: plan.method.exact(),
            exact_only: plan.method == Method::Exact,
            auto: plan.method == Method::Auto,
            plots: req.show.plots.map_or("default", Plots::name).to_string(),
            exact_budget: plan.exact_budget,
            sets: plan.overrides.texts(),
            kernel: match plan.kernel {
                KernelMode::Auto => "auto".into(),
                KernelMode::Direct => "direct".into(),
            },
        }
    }
}

/// `shard.json`: what a shard's output holds, for [`merge`]: one shard's,
/// or a merge of several (`pikeshot merge --partial`), which merges again
/// like a shard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardRecord {
    /// The pikeshot version that wrote it (empty: one from before the
    /// version was recorded).
    #[serde(default)]
    pub pikeshot: String,
    /// The shards it holds, from 1, as inclusive ranges `[first, last]`,
    /// ascending and apart.
    pub shards: Vec<[u32; 2]>,
    /// How many shards.
    pub of: u32,
    /// Every scenario of the unsharded report, in order.
    pub scenarios: Vec<String>,
    /// SHA-256 (hex) of each scenario file's bytes, in the order of
    /// `scenarios`.
    #[serde(default)]
    pub sha256: Vec<String>,
    /// The run options.
    pub options: RunOptionsRecord,
}

impl ShardRecord {
    /// Every shard it holds, ascending.
    pub fn shard_list(&self) -> Vec<u32> {
        self.shards.iter().flat_map(|&[a, b]| a..=b).collect()
    }
    /// `list` (ascending, no repeats) as ranges `[first, last]`.
    pub fn ranges(list: &[u32]) -> Vec<[u32; 2]> {
        let mut out: Vec<[u32; 2]> = Vec::new();
        for &i in list {
            match out.last_mut() {
                Some(r) if r[1] + 1 == i => r[1] = i,
                _ => out.push([i, i]),
            }
        }
        out
    }
    /// The shards held, for messages: `3/8` or `1-4/8, 6/8`.
    pub fn describe(&self) -> String {
        self.shards
            .iter()
            .map(|&[a, b]| {
                if a == b {
                    format!("{a}/{}", self.of)
                } else {
                    format!("{a}-{b}/{}", self.of)
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Name of the shard record in a shard's output.
pub const SHARD_JSON: &str = "shard.json";

/// What a report did.
pub struct Report {
    /// The scenarios reported, in order.
    pub entries: Vec<Entry>,
    /// The top level written, and every target checked.
    pub site: Site,
    /// The JSON document, when asked for.
    pub json: Option<json::Document>,
}

/// Runs `pikeshot report`: every scenario under `req.dir` (or the shard's
/// slice of them) into its own folder under `req.out`, then the top level.
///
/// Every scenario is read and validated, and the output folders checked,
/// before any is resolved: bad input writes nothing.
pub fn report(req: &ReportRequest) -> Result<Report, Error> {
    if !req.dir.is_dir() {
        let what = if req.dir.exists() {
            "is not a folder"
        } else {
            "does not exist"
        };
        return Err(InputError::new(format!(
            "{what}: `report` reads every scenario file (*.toml) under a folder"
        ))
        .key("DIR")
        .accepted("a folder of scenario files, e.g. scenarios")
        .at(Some(&req.dir.display().to_string()), None)
        .into());
    }
    let all = discover(&req.dir)?;
    if all.is_empty() {
        return Err(InputError::new(format!(
            "no scenario files (*.toml) under {}",
            req.dir.display()
        ))
        .into());
    }
    let all_folders = root::folders(&all);
    let (chosen, folders): (Vec<&String>, Vec<String>) = all
        .iter()
        .zip(&all_folders)
        .enumerate()
        .filter(|(k, _)| req.shard.is_none_or(|s| s.takes(*k)))
        .map(|(_, (f, d))| (f, d.clone()))
        .unzip();
    let mut rreq = req.run.clone();
    rreq.show.progress = false;
    // The command's one pool, for every scenario's builds and runs.
    let threads = rreq.plan.threads()?;
    let prepared: Vec<run::Prepared> = chosen
        .iter()
        .map(|f| run::prepare_released(&req.dir.join(f), &rreq.plan, &threads))
        .collect::<Result<_, _>>()?;
    // Every folder is claimed (locked, checked, its temporary made) before
    // any work, and the whole report swapped in only once every scenario is
    // done (`root::NewRoot`).
    let _lock = root::claim(&req.out)?;
    let claimed: Vec<NewFolder> = folders
        .iter()
        .map(|f| NewFolder::begin(&req.out.join(f), "--out", "report"))
        .collect::<Result<_, _>>()?;

    let named: Vec<(&run::Prepared, &str)> = prepared
        .iter()
        .zip(&chosen)
        .map(|(p, f)| (p, f.as_str()))
        .collect();
    run::estimate::announce(&named, &req.run, "scenario", &threads);
    let bar = req
        .run
        .show
        .progress
        .then(|| run::progress::scenarios(prepared.len() as u64))
        .flatten();
    if req.run.show.progress && prepared.iter().any(|p| rreq.show.plots_for(p).1) {
        eprintln!("{}", run::Presentation::summary_note());
    }
    let mut entries = Vec::with_capacity(prepared.len());
    let mut docs = Vec::new();
    for (((p, file), folder), into) in prepared.iter().zip(&chosen).zip(&folders).zip(&claimed) {
        if let Some(b) = &bar {
            b.set_message(file.to_string());
        }
        let run = run::execute_on(p, &rreq, &threads)?;
        let checks = crate::targets::evaluate(&p.expects, &run);
        let plots = rreq.show.plots_for(p).0;
        folder::write(
            &run,
            p.has_expects
                .then(|| crate::targets::expect_csv(&run.id.name, &checks)),
            true,
            plots,
            Some(&run::record(p, &rreq)?),
            into.path(),
            &req.out.join(folder),
        )?;
        // The page shows each course's rolls from it.
        crate::explain::run::write_json(
            &p.file,
            &rreq.plan.overrides,
            rreq.plan.systems,
            plots,
            into.path(),
        )?;
        // The page's "best plan" section reads the decisions solved.
        if p.file.table.contains_key("decision") {
            let mut ds =
                run::decide::decide_file(p.file.clone(), &crate::scenario::Overrides::default())?;
            ds.sets = rreq.plan.overrides.texts();
            crate::report::decision::write_folder(&ds, into.path())?;
        }
        if req.json {
            docs.push(json::scenario(file, folder, &run, &checks));
        }
        entries.push(Entry {
            file: (*file).clone(),
            folder: folder.clone(),
            scenario: run.id.name.clone(),
            system: run.id.system.clone(),
            edition: run.id.edition().unwrap_or_default(),
        });
        if let Some(b) = &bar {
            b.inc(1);
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let extra = match req.shard {
        None => Vec::new(),
        Some(s) => {
            let sha256 = all
                .iter()
                .map(|f| {
                    let p = req.dir.join(f);
                    std::fs::read(&p)
                        .map(|b| crate::report::record::sha256_hex(&b))
                        .map_err(|e| Error::io(&p, e))
                })
                .collect::<Result<_, _>>()?;
            let record = ShardRecord {
                pikeshot: env!("CARGO_PKG_VERSION").to_string(),
                shards: vec![[s.index, s.index]],
                of: s.count,
                scenarios: all.clone(),
                sha256,
                options: RunOptionsRecord::of(&req.run),
            };
            let mut bytes = serde_json::to_vec_pretty(&record).expect("plain data serialises");
            bytes.push(b'\n');
            vec![(SHARD_JSON, bytes)]
        }
    };
    let dirs: Vec<PathBuf> = claimed.iter().map(|c| c.path().to_path_buf()).collect();
    let new_root = root::NewRoot::begin(&req.out)?;
    let mut site = top::stage(new_root.path(), &entries, &dirs, &extra)?.commit()?;
    site.written = new_root.final_paths(site.written);
    new_root.commit(claimed.into_iter().zip(folders).collect())?;
    Ok(Report {
        entries,
        site,
        json: req.json.then(|| json::document(docs)),
    })
}
