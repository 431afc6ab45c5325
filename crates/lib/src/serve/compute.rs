//! `POST /api/run`, `/api/parse` and `/api/toml`: a scenario's odds and
//! explanation through the CLI's own run path (`run::prepare_file_on`,
//! `run::execute_on`, the `--format json` model of `batch::json` and
//! `explain::explain_file`), and the page's JSON form of a scenario to
//! TOML and back. Nothing is written to disk.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::error_body::{ErrorBody, FormError};
use super::limits::{Cancel, MAX_EXPLAIN_BYTES, SERVE_TRIALS};
use super::sweep::SweepView;
use crate::batch::json;
use crate::error::{Error, InputError};
use crate::explain::{ExplainRequest, Explanation, explain_file};
use crate::report::KEY_OUTCOMES;
use crate::run::{self, Method, RunPlan, RunRequest};
use crate::scenario::limits::MAX_FILE_BYTES;
use crate::scenario::{Overrides, ScenarioFile};
use crate::targets::evaluate;

/// The name errors give the scenario the page sent.
pub const SCENARIO_NAME: &str = "scenario.toml";

/// What the page asks of `POST /api/run`.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct RunBody {
    /// The scenario as TOML text; or
    pub toml: Option<String>,
    /// the scenario as the JSON mirror of its TOML document.
    pub doc: Option<toml::Table>,
    /// `--set KEY=VALUE` overrides.
    #[serde(default)]
    pub sets: Vec<String>,
    /// `auto` (default: exact where every course enumerates within the
    /// budget, else Monte Carlo with the exact column where it fits),
    /// `exact`, `both` or `monte-carlo`.
    pub method: Option<String>,
    /// Trials per course for Monte Carlo (at most [`SERVE_TRIALS`] in all).
    pub trials: Option<u64>,
    /// Master seed.
    pub seed: Option<u64>,
    /// The page's id, so that its newer request supersedes this one.
    pub client: Option<String>,
    /// Whether to include the explanation (default true).
    pub explain: Option<bool>,
}

/// The answer of `POST /api/run`.
#[derive(Clone, Debug, Serialize)]
pub struct RunAnswer {
    /// `exact`, `both` or `monte-carlo`: how the figures were found.
    pub method: &'static str,
    /// Trials per course (0 for exact).
    pub trials: u64,
    /// The scenario's run, as `pikeshot run --format json` gives it.
    pub scenario: json::Scenario,
    /// Why Monte Carlo was used when the page asked for `auto`.
    pub note: Option<String>,
    /// `pikeshot explain --format json` of the same scenario, or `None`
    /// when not asked for or too large.
    pub explain: Option<Explanation>,
    /// Why the explanation is missing, when it is.
    pub explain_note: Option<String>,
    /// Whether more is better for the own side, by key outcome name
    /// (`report::key::KeyDef::more_is_better`; a key outcome that is
    /// neither, such as `expected-turns`, is absent): the page colours a
    /// difference from the first course by it.
    pub more_is_better: BTreeMap<&'static str, bool>,
    /// A swept scenario's summary: its charts and table.
    pub sweep: Option<SweepView>,
    /// The `[[expect]]` entries left out because they no longer fit the
    /// scenario (a course renamed, an outcome the new setup lacks): the
    /// odds are computed without them, and the page shows each as a
    /// failed target. The entries checked are in `scenario.targets`.
    pub stale_targets: Vec<StaleTarget>,
}

/// An `[[expect]]` entry the scenario refuses, left out of the run.
#[derive(Clone, Debug, Serialize)]
pub struct StaleTarget {
    /// Its place in the file's `[[expect]]` list, from 0 (`None` when the
    /// whole `expect` value is refused).
    pub entry: Option<usize>,
    /// Why it was refused, as the form says it ([`FormError`]).
    pub error: FormError,
}

/// The scenario's TOML text from a body's `toml` or `doc`, refused over
/// the scenario file size limit.
pub fn scenario_text(toml_text: Option<String>, doc: Option<toml::Table>) -> Result<String, Error> {
    let text = match (toml_text, doc) {
        (Some(t), _) => t,
        (None, Some(d)) => to_toml(&d)?,
        (None, None) => {
            return Err(InputError::new("no scenario sent")
                .key("toml")
                .accepted("a JSON body with `toml` (the scenario's text) or `doc` (its JSON form)")
                .into());
        }
    };
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(InputError::new(format!(
            "the scenario is {} bytes, over the limit",
            text.len()
        ))
        .accepted(format!(
            "at most {MAX_FILE_BYTES} bytes, as for a scenario file"
        ))
        .into());
    }
    Ok(text)
}

/// The TOML text of a scenario's JSON form.
pub fn to_toml(doc: &toml::Table) -> Result<String, Error> {
    toml::to_string(doc).map_err(|e| {
        InputError::new(format!("the form does not make a TOML document: {e}"))
            .accepted("tables, arrays, strings, whole numbers, numbers and true/false")
            .into()
    })
}

/// The JSON form of a scenario's TOML text (its table, in file order),
/// refused with the CLI's located parse error.
pub fn parse(text: &str) -> Result<toml::Table, Error> {
    Ok(ScenarioFile::from_str(SCENARIO_NAME, text)?.table)
}

/// Runs a scenario as `pikeshot run --format json` would, without writing
/// anything: exact first under `auto`, Monte Carlo otherwise. `cancel` is
/// polled between the stages (exact, Monte Carlo, explanation), and the
/// runs watch its control: a cancelled request's Monte Carlo stops at its
/// next chunk (answered `cancelled`, never with partial figures), and its
/// trials done are what `GET /api/progress` reports. The request's
/// `--set`s are read once, for the run and the explanation, and every
/// stage runs on one pool started for the request.
pub fn run(body: RunBody, cancel: &Cancel) -> Result<RunAnswer, ErrorBody> {
    let text = scenario_text(body.toml, body.doc)?;
    let mut file = ScenarioFile::from_str(SCENARIO_NAME, &text)?;
    let overrides = Overrides::parse(&body.sets)?;
    let mut req = RunRequest {
        plan: RunPlan {
            seed: body.seed,
            overrides: overrides.clone(),
            control: Some(cancel.control()),
            ..RunPlan::default()
        },
        ..RunRequest::default()
    };
    let method = match body.method.as_deref().unwrap_or("auto") {
        "auto" => None,
        "exact" => Some(Method::Exact),
        "both" => Some(Method::Both),
        "monte-carlo" => Some(Method::MonteCarlo),
        other => {
            return Err(InputError::new(format!("unknown method \"{other}\""))
                .key("method")
                .one_of(other, &["auto", "exact", "both", "monte-carlo"])
                .into());
        }
    };
    req.plan.method = method.unwrap_or(Method::Exact);
    let threads = req.plan.threads()?;
    // Each `[[expect]]` entry the scenario refuses is left out, one at a
    // time (each try drops one, so this ends), and reported instead.
    let mut entries: Vec<usize> = match file.table.get("expect") {
        Some(toml::Value::Array(a)) => (0..a.len()).collect(),
        _ => Vec::new(),
    };
    let mut stale_targets = Vec::new();
    let mut prepared = loop {
        match run::prepare_file_on(file.clone(), &req.plan, &threads) {
            Ok(p) => break p,
            Err(Error::Input(e)) if overrides.is_empty() => match refused_entry(&e) {
                Some(Some(n)) if n < entries.len() => {
                    if let Some(toml::Value::Array(a)) = file.table.get_mut("expect") {
                        a.remove(n);
                        if a.is_empty() {
                            file.table.remove("expect");
                        }
                    }
                    stale_targets.push(StaleTarget {
                        entry: Some(entries.remove(n)),
                        error: FormError::of(&e),
                    });
                }
                Some(None) if file.table.remove("expect").is_some() => {
                    entries.clear();
                    stale_targets.push(StaleTarget {
                        entry: None,
                        error: FormError::of(&e),
                    });
                }
                _ => return Err(Error::Input(e).into()),
            },
            Err(e) => return Err(e.into()),
        }
    };
    cancel.check()?;
    let mut note = None;
    let exact_first = method.is_none() || method == Some(Method::Exact);
    let done = if exact_first {
        match run::execute_on(&prepared, &req, &threads) {
            Ok(r) => Some(r),
            Err(e) if method.is_none() => {
                note = Some(format!(
                    "Monte Carlo: not every course has an exact answer ({e})"
                ));
                None
            }
            Err(e) => return Err(e.into()),
        }
    } else {
        None
    };
    let done = match done {
        Some(r) => r,
        None => {
            cancel.check()?;
            req.plan.method = method.unwrap_or(Method::Both);
            // A bounded number of trials in all, shared by the courses.
            let courses = prepared.courses.len().max(1) as u64;
            let cap = (SERVE_TRIALS / courses).max(1);
            let asked = body.trials.unwrap_or(prepared.trials);
            prepared.trials = asked.clamp(1, cap);
            run::execute_on(&prepared, &req, &threads).map_err(ErrorBody::from)?
        }
    };
    cancel.check()?;
    let (explain, explain_note) = if body.explain.unwrap_or(true) {
        explained(file, overrides)
    } else {
        (None, None)
    };
    let sweep = SweepView::of(&done).map_err(ErrorBody::from)?;
    cancel.check()?;
    let checks = evaluate(&prepared.expects, &done);
    let mut scenario = json::scenario(SCENARIO_NAME, "", &done, &checks);
    // Each target by its place in the page's `[[expect]]` list.
    for t in &mut scenario.targets {
        t.entry = entries.get(t.entry).copied().unwrap_or(t.entry);
    }
    Ok(RunAnswer {
        method: req.plan.method.name(),
        trials: if req.plan.method == Method::Exact {
            0
        } else {
            prepared.trials
        },
        scenario,
        note,
        explain,
        explain_note,
        more_is_better: KEY_OUTCOMES
            .iter()
            .filter_map(|d| Some((d.name, d.more_is_better?)))
            .collect(),
        sweep,
        stale_targets,
    })
}

/// Whether `e` is about an `[[expect]]` entry: `Some(Some(n))` for entry
/// `n` (key `expect[n]...`), `Some(None)` for the `expect` value itself.
fn refused_entry(e: &InputError) -> Option<Option<usize>> {
    let key = e.key.as_deref()?;
    if key == "expect" {
        return Some(None);
    }
    let rest = key.strip_prefix("expect[")?;
    let n = rest.split(']').next()?.parse().ok()?;
    Some(Some(n))
}

/// The explanation of `file` under `overrides`, unless it is larger than
/// [`MAX_EXPLAIN_BYTES`] as JSON.
fn explained(file: ScenarioFile, overrides: Overrides) -> (Option<Explanation>, Option<String>) {
    let req = ExplainRequest {
        overrides,
        ..ExplainRequest::default()
    };
    match explain_file(file, &req) {
        Ok(e) => {
            let size = serde_json::to_vec(&e).map_or(usize::MAX, |v| v.len());
            if size > MAX_EXPLAIN_BYTES {
                (
                    None,
                    Some(format!(
                        "the breakdown is {size} bytes of JSON, over the page's {MAX_EXPLAIN_BYTES}; \
                         `pikeshot explain` prints it whole"
                    )),
                )
            } else {
                (Some(e), None)
            }
        }
        Err(e) => (None, Some(format!("no breakdown: {e}"))),
    }
}
