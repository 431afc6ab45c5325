//! Running one version of a scenario (the scenario with some `--set`s) and
//! reading its figures: exact where every course enumerates, Monte Carlo
//! with 95% intervals otherwise.

use std::num::NonZeroUsize;
use std::path::Path;

use crate::engine::Threads;
use crate::error::{Error, InputError, Result};
use crate::report::{Figure, ScenarioRun};
use crate::run::{self, Method, RunPlan, RunRequest};
use crate::scenario::doc::get_path;
use crate::scenario::{Overrides, ScenarioFile};
use crate::targets::Scope;

/// How the figures of a study are found.
#[derive(Clone, Debug, PartialEq)]
pub enum Basis {
    /// Every course enumerated: exact values.
    Exact,
    /// A course does not enumerate within the budget (`why`): Monte Carlo
    /// with this many trials per course, figures with 95% intervals.
    MonteCarlo {
        /// Trials per course.
        trials: u64,
        /// The course that does not enumerate, and why.
        why: String,
    },
}

impl Basis {
    /// `exact`, or `monte-carlo` with its trials.
    pub fn describe(&self) -> String {
        match self {
            Basis::Exact => "exact".into(),
            Basis::MonteCarlo { trials, why } => format!(
                "Monte Carlo, {trials} trials per course, 95% intervals (no exact answer: {why})"
            ),
        }
    }
}

/// A scenario pinned to one fight (its sweep, if any, to one variant), run
/// again with changes.
pub struct Study {
    /// The scenario with the user's `--set`s and the variant's keys pinned.
    pub file: ScenarioFile,
    /// The variant pinned (empty without a sweep).
    pub variant: String,
    /// How the figures are found.
    pub basis: Basis,
    /// The figures of the scenario as it is.
    pub base: ScenarioRun,
    /// The scenario's `[[expect]]` targets.
    pub expects: Vec<crate::targets::Expect>,
    req: RunRequest,
    threads: Threads,
}

/// What a [`Study`] is opened with.
#[derive(Clone, Debug, Default)]
pub struct StudyRequest {
    /// `--set` overrides, applied first.
    pub overrides: Overrides,
    /// The sweep variant to pin, by its label (default: the first).
    pub variant: Option<String>,
    /// Worker threads (`None`: one per core), when the study starts its
    /// own ([`Study::open`]).
    pub threads: Option<NonZeroUsize>,
    /// Trials per course when Monte Carlo is needed (default: the file's).
    pub trials: Option<u64>,
    /// Path budget of exact enumeration.
    pub exact_budget: Option<u64>,
    /// Master seed (default: the file's).
    pub seed: Option<u64>,
}

impl Study {
    /// Loads `path` and opens a study of it, on threads of its own
    /// (`sr.threads`): the command's pool.
    pub fn open(path: &Path, sr: &StudyRequest) -> Result<Study> {
        let file = ScenarioFile::load(path)?;
        let threads = Threads::new(sr.threads)?;
        Study::of(file, sr, threads)
    }

    /// Opens a study of `file` on the command's `threads`: applies the
    /// `--set`s, pins the sweep to one variant and runs it (exactly, or by
    /// Monte Carlo when a course does not enumerate).
    pub fn of(mut file: ScenarioFile, sr: &StudyRequest, threads: Threads) -> Result<Study> {
        use crate::scenario::limits::MAX_TRIALS;
        if let Some(t) = sr.trials
            && !(1..=MAX_TRIALS).contains(&t)
        {
            return Err(
                InputError::new(format!("{t} trials is outside the accepted range"))
                    .key("--trials")
                    .accepted(format!("a whole number from 1 to {MAX_TRIALS}"))
                    .into(),
            );
        }
        file.apply(&sr.overrides)?;
        let variant = pin_variant(&mut file, sr.variant.as_deref())?;
        let req = RunRequest {
            plan: RunPlan {
                method: Method::Exact,
                exact_budget: sr.exact_budget,
                seed: sr.seed,
                ..RunPlan::default()
            },
            ..RunRequest::default()
        };
        req.plan.check()?;
        let mut study = Study {
            file,
            variant,
            basis: Basis::Exact,
            base: placeholder_run(),
            expects: Vec::new(),
            req,
            threads,
        };
        match study.run_base() {
            Ok(()) => {}
            Err(Error::Input(e)) if e.key.as_deref() == Some("--method exact") => {
                study.req.plan.method = Method::MonteCarlo;
                study.req.plan.trials = sr.trials;
                study.run_base()?;
                let trials = study.base.courses.first().map_or(0, |c| c.stats().trials);
                study.basis = Basis::MonteCarlo {
                    trials,
                    why: e.message.clone(),
                };
            }
            Err(e) => return Err(e),
        }
        Ok(study)
    }

    /// Runs the scenario as it is, keeping its figures and targets.
    fn run_base(&mut self) -> Result<()> {
        let p = run::prepare_file_on(self.file.clone(), &self.req.plan, &self.threads)?;
        self.base = run::execute_on(&p, &self.req, &self.threads)?;
        self.expects = p.expects;
        Ok(())
    }

    /// Runs the scenario with `sets` applied on top (each `KEY=VALUE`),
    /// only the courses named in `only` when given (a course's figures do
    /// not depend on the others: each is its own kernel, its random
    /// streams seeded from its own name). The `[[expect]]` targets are
    /// left out: they were validated on the base run.
    pub fn run(&self, sets: &[String], only: Option<&[String]>) -> Result<ScenarioRun> {
        let mut file = self.file.clone();
        for s in sets {
            file.set(s)?;
        }
        file.table.remove("expect");
        if let Some(names) = only
            && let Some(toml::Value::Array(courses)) = file.table.get_mut("course")
        {
            courses.retain(|c| {
                c.get("name")
                    .and_then(toml::Value::as_str)
                    .is_some_and(|n| names.iter().any(|x| x == n))
            });
        }
        let p = run::prepare_file_on(file, &self.req.plan, &self.threads)?;
        run::execute_on(&p, &self.req, &self.threads)
    }

    /// Runs every version of `versions` (its `--set`s, and the courses to
    /// run, `None` for all) on the study's threads, in parallel; results
    /// in the order given.
    pub fn run_all(
        &self,
        versions: &[(Vec<String>, Option<Vec<String>>)],
    ) -> Vec<Result<ScenarioRun>> {
        use rayon::prelude::*;
        self.threads.install(|| {
            versions
                .par_iter()
                .map(|(s, only)| self.run(s, only.as_deref()))
                .collect()
        })
    }

    /// The courses a change of `key` can move: a step or course key only
    /// its own course; a unit's key only the courses that name the unit;
    /// any other key (`edition`, `[rules]`) every course (`None`).
    pub fn reached_by(&self, key: &str) -> Option<Vec<String>> {
        let courses = self.file.table.get("course")?.as_array()?;
        let name = |c: &toml::Value| {
            c.get("name")
                .and_then(toml::Value::as_str)
                .map(str::to_string)
        };
        if let Some(rest) = key.strip_prefix("course[") {
            let i: usize = rest.split(']').next()?.parse().ok()?;
            return Some(courses.get(i).and_then(name).into_iter().collect());
        }
        let unit = key.strip_prefix("units.")?.rsplit_once('.')?.0;
        let unit = unit.trim_matches('"');
        Some(
            courses
                .iter()
                .filter(|c| names_unit(c, unit))
                .filter_map(name)
                .collect(),
        )
    }

    /// Whether figures are exact.
    pub fn exact(&self) -> bool {
        self.basis == Basis::Exact
    }
}

/// Whether `unit` is named anywhere in a course's table (a step's unit
/// keys, `own`, `enemy`).
fn names_unit(v: &toml::Value, unit: &str) -> bool {
    match v {
        toml::Value::String(s) => s == unit,
        toml::Value::Array(a) => a.iter().any(|x| names_unit(x, unit)),
        toml::Value::Table(t) => t.values().any(|x| names_unit(x, unit)),
        _ => false,
    }
}

/// The value a study reads from a figure: the exact value when known, else
/// the Monte Carlo value.
pub fn value(f: &Figure) -> f64 {
    f.exact.unwrap_or(f.value)
}

/// An empty run, replaced by the base run as soon as it is found.
fn placeholder_run() -> ScenarioRun {
    ScenarioRun {
        id: crate::report::RunId {
            name: String::new(),
            system: String::new(),
            editions: Vec::new(),
            seed: 0,
        },
        file_stem: String::new(),
        sets: Vec::new(),
        courses: Vec::new(),
        sweep: None,
    }
}

/// Pins every swept key of `file` to its value in the variant labelled
/// `label` (default: the first variant); returns the label (empty
/// without a sweep).
fn pin_variant(file: &mut ScenarioFile, label: Option<&str>) -> Result<String> {
    let axes = Scope::axes_of(file);
    if axes.is_empty() {
        if let Some(l) = label {
            return Err(
                InputError::new(format!("`--variant {l}`: this scenario has no [sweep]"))
                    .key("--variant")
                    .accepted("no --variant")
                    .at(Some(&file.source.file), None)
                    .into(),
            );
        }
        return Ok(String::new());
    }
    let variants = file.variants()?;
    let chosen = match label {
        None => &variants[0],
        Some(l) => {
            let labels: Vec<&str> = variants.iter().map(|v| v.label.as_str()).collect();
            match variants.iter().find(|v| v.label == l) {
                Some(v) => v,
                None => {
                    return Err(InputError::new(format!("the sweep has no variant `{l}`"))
                        .key("--variant")
                        .one_of(l, &labels)
                        .accepted(labels.join("; "))
                        .at(Some(&file.source.file), None)
                        .into());
                }
            }
        }
    };
    let label = chosen.label.clone();
    let pins: Vec<String> = axes
        .iter()
        .filter_map(|(k, _)| get_path(&chosen.table, k).map(|v| format!("{k}={v}")))
        .collect();
    for p in pins {
        file.set(&p)?;
    }
    Ok(label)
}
