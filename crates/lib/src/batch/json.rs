//! `--format json`: the scenario runs as one JSON document on stdout, for
//! other tools.
//!
//! ```json
//! { "pikeshot": "0.1.0",
//!   "scenarios": [ { "file": "...", "folder": "...", "name": "...",
//!       "system": "mpbs", "edition": "series", "seed": 1,
//!       "courses": [ { "variant": "", "course": "charge now", "trials": 20000,
//!           "engagement": false, "exact_error": null,
//!           "outcomes": [ { "outcome": "<id>", "label": "...", "count": 0, "probability": 0.1,
//!                           "ci_low": 0.09, "ci_high": 0.11, "exact": 0.1 } ],
//!           "measures": [ { "measure": "hits-inflicted", "mean": 1.2, "exact_mean": 1.2,
//!                           "distribution": [ { "value": 0, "count": 1, "probability": 0.5, "exact": 0.5,
//!                                             "at_least": 1.0, "exact_at_least": 1.0 } ] } ],
//!           "key_outcomes": [ { "name": "p-enemy-broken-or-eliminated", "label": "...",
//!                               "kind": "probability", "value": 0.4, "ci_low": 0.39,
//!                               "ci_high": 0.41, "exact": 0.4,
//!                               "difference": { "from": "charge now", "value": 0.17,
//!                                   "ci_low": 0.16, "ci_high": 0.18, "exact": null } } ] } ],
//!       "targets": [ { "entry": 0, "variant": "", "course": "...", "kind": "measure",
//!                      "target": "...", "at_least": 0.3, "at_most": null, "value": 0.4,
//!                      "ci_low": 0.39, "ci_high": 0.41, "exact": null,
//!                      "basis": "monte-carlo", "verdict": "pass" } ] } ],
//!   "targets": { "checked": 1, "passed": 1, "borderline": 0, "failed": 0 } }
//! ```
//!
//! Probabilities are fractions; `exact` is `null` unless `--exact` computed
//! it; a figure that is not a number (a mean without trials) is `null`.

use serde::Serialize;

use crate::report::diff::DiffId;
use crate::report::engagement::is_engagement;
use crate::report::key::{KeyKind, key_outcomes};
use crate::report::{Figure, MeasureStat, OutcomeStat, RunId, ScenarioRun, variant_keys};
use crate::targets::{Checked, VerdictCounts};

/// The whole document.
#[derive(Clone, Debug, Serialize)]
pub struct Document {
    /// The pikeshot version that wrote it.
    pub pikeshot: &'static str,
    /// Every scenario run, in order.
    pub scenarios: Vec<Scenario>,
    /// Verdict counts over every target checked.
    pub targets: Counts,
}

/// Verdict counts, as the document names them.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Counts {
    /// Figures checked.
    pub checked: usize,
    /// Inside their target.
    pub passed: usize,
    /// Straddling a bound (passing).
    pub borderline: usize,
    /// Outside their target.
    pub failed: usize,
}

/// One scenario.
#[derive(Clone, Debug, Serialize)]
pub struct Scenario {
    /// The scenario file.
    pub file: String,
    /// The folder its reports were written to.
    pub folder: String,
    /// Its name, rule system, editions (`series, sfo` for a sweep of both
    /// cards) and master seed, inline.
    #[serde(flatten)]
    pub id: RunId,
    /// Every variant × course.
    pub courses: Vec<Course>,
    /// Every target checked.
    pub targets: Vec<Target>,
}

/// One course of one variant.
#[derive(Clone, Debug, Serialize)]
pub struct Course {
    /// Variant label (empty without a sweep).
    pub variant: String,
    /// Course name.
    pub course: String,
    /// The unit whose results the key outcomes count (empty when none).
    pub own: String,
    /// The unit it acts on (empty when none).
    pub enemy: String,
    /// Trials resolved.
    pub trials: u64,
    /// Whether the course is an engagement (its outcomes are stop reasons).
    pub engagement: bool,
    /// Why exact values are missing although asked for.
    pub exact_error: Option<String>,
    /// Every outcome category.
    pub outcomes: Vec<Outcome>,
    /// Every measure.
    pub measures: Vec<MeasureJson>,
    /// The key outcomes present.
    pub key_outcomes: Vec<Key>,
}

/// One outcome category.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// Id (kebab-case), as `[[expect]]` names it.
    pub outcome: String,
    /// The card's label, for display.
    pub label: String,
    /// Monte Carlo count.
    pub count: u64,
    /// Monte Carlo probability.
    pub probability: f64,
    /// 95% Wilson interval, low end.
    pub ci_low: f64,
    /// 95% Wilson interval, high end.
    pub ci_high: f64,
    /// Exact probability.
    pub exact: Option<f64>,
}

impl From<&OutcomeStat> for Outcome {
    fn from(o: &OutcomeStat) -> Self {
        Outcome {
            outcome: o.id.clone(),
            label: o.label.clone(),
            count: o.count,
            probability: o.figure.value,
            ci_low: o.figure.ci.0,
            ci_high: o.figure.ci.1,
            exact: o.figure.exact,
        }
    }
}

/// One measure.
#[derive(Clone, Debug, Serialize)]
pub struct MeasureJson {
    /// Name.
    pub measure: String,
    /// Monte Carlo mean.
    pub mean: f64,
    /// Exact mean.
    pub exact_mean: Option<f64>,
    /// Every value `min..=max`.
    pub distribution: Vec<Value>,
}

impl From<&MeasureStat> for MeasureJson {
    fn from(m: &MeasureStat) -> Self {
        MeasureJson {
            measure: m.name.clone(),
            mean: m.mean,
            exact_mean: m.exact_mean,
            distribution: m
                .values()
                .enumerate()
                .map(|(i, value)| Value {
                    value,
                    count: m.counts[i],
                    probability: m.probs[i],
                    exact: m.exact.as_ref().map(|e| e[i]),
                    at_least: m.at_least[i],
                    exact_at_least: m.exact_at_least.as_ref().map(|e| e[i]),
                })
                .collect(),
        }
    }
}

/// One value of a measure.
#[derive(Clone, Debug, Serialize)]
pub struct Value {
    /// The value.
    pub value: i32,
    /// Monte Carlo count.
    pub count: u64,
    /// Monte Carlo probability.
    pub probability: f64,
    /// Exact probability.
    pub exact: Option<f64>,
    /// Monte Carlo `P(X >= value)`.
    pub at_least: f64,
    /// Exact `P(X >= value)`.
    pub exact_at_least: Option<f64>,
}

/// A figure as the document gives it: the Monte Carlo value, its 95%
/// interval and the exact value. A key outcome, a difference, a target and
/// an edition's figure each carry one, its four fields inline.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Estimate {
    /// Monte Carlo value.
    pub value: f64,
    /// 95% interval, low end.
    pub ci_low: f64,
    /// 95% interval, high end.
    pub ci_high: f64,
    /// Exact value.
    pub exact: Option<f64>,
}

impl From<Figure> for Estimate {
    fn from(f: Figure) -> Self {
        Estimate {
            value: f.value,
            ci_low: f.ci.0,
            ci_high: f.ci.1,
            exact: f.exact,
        }
    }
}

/// One key outcome.
#[derive(Clone, Debug, Serialize)]
pub struct Key {
    /// Name, as in `comparison.csv`.
    pub name: &'static str,
    /// Label, as in the tables.
    pub label: &'static str,
    /// `probability` or `expectation`.
    pub kind: &'static str,
    /// Its value.
    #[serde(flatten)]
    pub figure: Estimate,
    /// The difference from the first course of the variant with this key
    /// outcome; `null` on that course itself.
    pub difference: Option<Difference>,
}

/// A course's difference from the first course of its variant.
#[derive(Clone, Debug, Serialize)]
pub struct Difference {
    /// The course compared with.
    pub from: String,
    /// This course minus `from`: its 95% interval is Newcombe's for a
    /// probability, normal for a mean; `exact` the difference of the exact
    /// values.
    #[serde(flatten)]
    pub figure: Estimate,
}

/// One target checked against one course.
#[derive(Clone, Debug, Serialize)]
pub struct Target {
    /// The entry in the file's `[[expect]]` list, from 0 (as `--set expect[N]`).
    pub entry: usize,
    /// Variant.
    pub variant: String,
    /// Course.
    pub course: String,
    /// `outcome` or `measure`.
    pub kind: &'static str,
    /// The outcome label, key outcome or `mean:<measure>`.
    pub target: String,
    /// Lower bound.
    pub at_least: Option<f64>,
    /// Upper bound.
    pub at_most: Option<f64>,
    /// The figure judged.
    #[serde(flatten)]
    pub figure: Estimate,
    /// `exact` or `monte-carlo`.
    pub basis: &'static str,
    /// `pass`, `borderline` or `fail`.
    pub verdict: &'static str,
}

impl From<VerdictCounts> for Counts {
    fn from(t: VerdictCounts) -> Self {
        Counts {
            checked: t.total(),
            passed: t.pass,
            borderline: t.borderline,
            failed: t.fail,
        }
    }
}

/// A scenario's run and checks as JSON.
pub fn scenario(file: &str, folder: &str, run: &ScenarioRun, checks: &[Checked]) -> Scenario {
    let keys = variant_keys(run);
    // The difference of course `i`'s key outcome `name` from its variant's first.
    let difference = |i: usize, name: &str| -> Option<Difference> {
        let v = keys.iter().find(|v| v.courses.contains(&i))?;
        let j = v.courses.iter().position(|&x| x == i)?;
        let row = v.rows.iter().position(|(d, _)| d.name == name)?;
        let d = v.difference(row, j)?;
        Some(Difference {
            from: run.courses[v.courses[v.reference(row)?]].course.clone(),
            figure: d.into(),
        })
    };
    let courses = run
        .courses
        .iter()
        .enumerate()
        .map(|(ci, c)| {
            let s = c.stats();
            Course {
                variant: c.variant.clone(),
                course: c.course.clone(),
                own: c.side.own.clone(),
                enemy: c.side.enemy.clone(),
                trials: s.trials,
                engagement: is_engagement(c),
                exact_error: c.tally.exact_error.clone(),
                outcomes: s.outcomes.iter().map(Outcome::from).collect(),
                measures: s.measures.iter().map(MeasureJson::from).collect(),
                key_outcomes: key_outcomes(s)
                    .into_iter()
                    .map(|k| Key {
                        name: k.def.name,
                        label: k.def.label,
                        kind: match k.def.kind {
                            KeyKind::Probability => "probability",
                            KeyKind::Expectation => "expectation",
                        },
                        figure: k.figure.into(),
                        difference: difference(ci, k.def.name),
                    })
                    .collect(),
            }
        })
        .collect();
    Scenario {
        file: file.to_string(),
        folder: folder.to_string(),
        id: run.id.clone(),
        courses,
        targets: checks.iter().map(target).collect(),
    }
}

fn target(c: &Checked) -> Target {
    Target {
        entry: c.expect.entry,
        variant: c.variant.clone(),
        course: c.expect.course.clone(),
        kind: c.expect.target.kind(),
        target: c.expect.target.name(),
        at_least: c.expect.at_least,
        at_most: c.expect.at_most,
        figure: c.figure.into(),
        basis: c.basis.name(),
        verdict: c.verdict.name(),
    }
}

/// The document for `scenarios`, with the verdict counts over them.
pub fn document(scenarios: Vec<Scenario>) -> Document {
    let counts =
        VerdictCounts::of_names(scenarios.iter().flat_map(|s| &s.targets).map(|t| t.verdict));
    Document {
        pikeshot: env!("CARGO_PKG_VERSION"),
        scenarios,
        targets: counts.into(),
    }
}

/// A document as pretty-printed JSON, ending with a newline.
pub fn to_string<T: Serialize>(doc: &T) -> String {
    let mut s = serde_json::to_string_pretty(doc).expect("plain data serialises");
    s.push('\n');
    s
}

/// `pikeshot diff --format json`: the rows of `diff.csv`, typed, and the
/// targets checked under both editions.
#[derive(Clone, Debug, Serialize)]
pub struct DiffDocument {
    /// pikeshot's version.
    pub pikeshot: &'static str,
    /// Scenario name, rule system, the editions compared from and to, and
    /// the seed of both runs, inline.
    #[serde(flatten)]
    pub id: DiffId,
    /// Every figure under both editions.
    pub rows: Vec<DiffJsonRow>,
    /// The targets checked, under both editions (variant `edition=...`).
    pub targets: Vec<Target>,
}

/// One figure of one course under both editions.
#[derive(Clone, Debug, Serialize)]
pub struct DiffJsonRow {
    /// Variant (the sweep without `edition`).
    pub variant: String,
    /// Course.
    pub course: String,
    /// `outcome` or `key`.
    pub kind: &'static str,
    /// The outcome id or key outcome name.
    pub name: String,
    /// Under the `from` edition (`null`: the card cannot produce it).
    pub from: Option<Estimate>,
    /// Under the `to` edition.
    pub to: Option<Estimate>,
    /// `to − from` (Monte Carlo; `null` when a side is missing).
    pub change: Option<f64>,
    /// Its 95% interval, low end.
    pub change_ci_low: Option<f64>,
    /// Its 95% interval, high end.
    pub change_ci_high: Option<f64>,
    /// The exact change, when both sides are exact.
    pub exact_change: Option<f64>,
}

/// The JSON document of a diff and its checks.
pub fn diff(d: &crate::report::diff::Diff, checks: &[Checked]) -> DiffDocument {
    use crate::report::diff::RowKind;
    let fig = |f: Option<Figure>| f.map(Estimate::from);
    // A key outcome one card has not has no change: `null`, not NaN.
    let finite = |x: f64| x.is_finite().then_some(x);
    DiffDocument {
        pikeshot: env!("CARGO_PKG_VERSION"),
        id: d.id.clone(),
        rows: d
            .rows
            .iter()
            .map(|r| {
                let (lo, hi) = r.change_ci();
                DiffJsonRow {
                    variant: r.variant.clone(),
                    course: r.course.clone(),
                    kind: match r.kind {
                        RowKind::Outcome => "outcome",
                        RowKind::Key(_) => "key",
                    },
                    name: r.name.clone(),
                    from: fig(r.from),
                    to: fig(r.to),
                    change: finite(r.change()),
                    change_ci_low: finite(lo),
                    change_ci_high: finite(hi),
                    exact_change: r.exact_change().filter(|x| x.is_finite()),
                }
            })
            .collect(),
        targets: checks.iter().map(target).collect(),
    }
}
