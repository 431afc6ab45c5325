//! Pinned targets: the `[[expect]]` entries of a scenario, checked against
//! a run.
//!
//! ```toml
//! [[expect]]
//! course = "charge now"
//! measure = "p-enemy-broken-or-eliminated"   # or outcome = "defender-eliminated"
//! variant = "edition=sfo"                    # optional: default every variant
//! at_least = 0.35
//! at_most = 0.45
//! ```
//!
//! An entry names a course, and either an `outcome` (a category label of
//! that course) or a `measure`: a key outcome of [`report::key`](crate::report::key)
//! (`p-enemy-broken-or-eliminated`, `expected-hits-inflicted`, …) or the mean
//! of any measure of the course, `mean:<measure>`. `variant` narrows it to
//! the variants of the sweep whose label contains every `key=value` given;
//! a key pinned with `--set` matches when its value agrees and otherwise
//! leaves the entry with nothing to check.
//!
//! The verdict: a Monte Carlo figure **fails** only when its whole 95%
//! interval lies outside the target, so a check is never red by chance; a
//! target inside the interval is **borderline** and passes. An exact figure
//! (when `--exact` computed one) is judged on its own value, allowing
//! [`EXACT_TOLERANCE`] for the rounding of the enumeration's sums.

use std::fmt::Write as _;

use crate::error::InputError;
use crate::outcome::OutcomeSpace;
use crate::report::key::{KEY_OUTCOMES, KeyDef, key_outcome};
use crate::report::{ScenarioRun, fixed};
use crate::scenario::{Fields, ScenarioFile};
use crate::stats;

/// How far an exact value may fall outside a target before it fails: the
/// rounding of summing exact leaf probabilities in floating point.
pub const EXACT_TOLERANCE: f64 = 1e-9;

/// Prefix of a `measure` that asks for the mean of any measure.
pub const MEAN_PREFIX: &str = "mean:";

/// What an entry pins.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// The probability of an outcome category.
    Outcome(String),
    /// A key outcome.
    Key(KeyDef),
    /// The mean of a measure.
    Mean(String),
}

impl Target {
    /// `outcome` or `measure`: the key the entry used.
    pub fn kind(&self) -> &'static str {
        match self {
            Target::Outcome(_) => "outcome",
            Target::Key(_) | Target::Mean(_) => "measure",
        }
    }
    /// The name as written: a category label, a key outcome name, or
    /// `mean:<measure>`.
    pub fn name(&self) -> String {
        match self {
            Target::Outcome(o) => o.clone(),
            Target::Key(d) => d.name.to_string(),
            Target::Mean(m) => format!("{MEAN_PREFIX}{m}"),
        }
    }
    /// Whether the figure is a probability (targets must lie in 0..=1).
    pub fn is_probability(&self) -> bool {
        match self {
            Target::Outcome(_) => true,
            Target::Key(d) => d.kind == crate::report::KeyKind::Probability,
            Target::Mean(_) => false,
        }
    }
}

/// One validated `[[expect]]` entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Expect {
    /// 1-based position among the file's `[[expect]]` entries.
    pub entry: usize,
    /// The course name.
    pub course: String,
    /// What is pinned.
    pub target: Target,
    /// The `variant` filter as written.
    pub variant: Option<String>,
    /// The variant labels the entry applies to (`None`: every variant).
    pub variants: Option<Vec<String>>,
    /// Lower bound, inclusive.
    pub at_least: Option<f64>,
    /// Upper bound, inclusive.
    pub at_most: Option<f64>,
}

impl Expect {
    /// The target as text: `NAME >= a`, `NAME <= b` or `NAME in [a, b]`.
    pub fn describe(&self) -> String {
        describe(&self.target.name(), self.at_least, self.at_most)
    }
}

/// `NAME >= a`, `NAME <= b` or `NAME in [a, b]`.
pub fn describe(name: &str, at_least: Option<f64>, at_most: Option<f64>) -> String {
    match (at_least, at_most) {
        (Some(a), Some(b)) => format!("{name} in [{a}, {b}]"),
        (Some(a), None) => format!("{name} >= {a}"),
        (None, Some(b)) => format!("{name} <= {b}"),
        (None, None) => name.to_string(),
    }
}

/// What a figure was judged on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    /// The exact value.
    Exact,
    /// The Monte Carlo 95% interval.
    MonteCarlo,
}

impl Basis {
    /// `exact` or `monte-carlo`.
    pub fn name(self) -> &'static str {
        match self {
            Basis::Exact => "exact",
            Basis::MonteCarlo => "monte-carlo",
        }
    }
}

/// The verdict on one figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Inside the target: the exact value, or the whole interval.
    Pass,
    /// The interval straddles a bound: passes (more trials would settle it).
    Borderline,
    /// Outside the target: the exact value, or the whole interval.
    Fail,
}

impl Verdict {
    /// `pass`, `borderline` or `fail`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Borderline => "borderline",
            Verdict::Fail => "fail",
        }
    }
    /// Whether the verdict lets a check pass.
    pub fn passes(self) -> bool {
        self != Verdict::Fail
    }
}

/// Judges a figure against `[at_least, at_most]`: on `exact` when given,
/// else on the interval `ci`.
pub fn judge(
    ci: (f64, f64),
    exact: Option<f64>,
    at_least: Option<f64>,
    at_most: Option<f64>,
) -> (Basis, Verdict) {
    let lo = at_least.unwrap_or(f64::NEG_INFINITY);
    let hi = at_most.unwrap_or(f64::INFINITY);
    if let Some(e) = exact.filter(|e| e.is_finite()) {
        let ok = e >= lo - EXACT_TOLERANCE && e <= hi + EXACT_TOLERANCE;
        return (Basis::Exact, if ok { Verdict::Pass } else { Verdict::Fail });
    }
    let (l, h) = ci;
    if !(l.is_finite() && h.is_finite()) {
        // No interval (fewer than two trials): nothing can be concluded.
        return (Basis::MonteCarlo, Verdict::Borderline);
    }
    let verdict = if h < lo || l > hi {
        Verdict::Fail
    } else if l >= lo && h <= hi {
        Verdict::Pass
    } else {
        Verdict::Borderline
    };
    (Basis::MonteCarlo, verdict)
}

/// One entry checked against one course of one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// The entry.
    pub expect: Expect,
    /// The variant checked (empty without a sweep).
    pub variant: String,
    /// Monte Carlo value.
    pub value: f64,
    /// Its 95% interval.
    pub ci: (f64, f64),
    /// The exact value, when computed.
    pub exact: Option<f64>,
    /// What the verdict rests on.
    pub basis: Basis,
    /// The verdict.
    pub verdict: Verdict,
}

/// Removes `expect` from a scenario's table, returning it. Called after
/// `--set` (so `--set expect[0].at_least=0.5` works) and before the sweep is
/// expanded; a sweep over an `expect` key is refused.
pub fn take(file: &mut ScenarioFile) -> Result<Option<toml::Value>, InputError> {
    if let Some(toml::Value::Table(sweep)) = file.table.get("sweep")
        && let Some(k) = sweep
            .keys()
            .find(|k| *k == "expect" || k.starts_with("expect.") || k.starts_with("expect["))
    {
        let path = format!("sweep.{k}");
        return Err(file.source.locate(
            InputError::new(
                "targets cannot be swept; give each variant its own [[expect]] entry with `variant`",
            )
            .key(path.clone()),
            &path,
        ));
    }
    Ok(file.table.remove("expect"))
}

/// The sweep of a scenario as the expectations see it.
pub struct Scope<'a> {
    /// The scenario (its source, for located errors, and its table after
    /// `--set`, for pinned keys).
    pub file: &'a ScenarioFile,
    /// Every variant label, in order.
    pub labels: Vec<String>,
    /// The sweep's keys and their values (as in the labels).
    pub axes: Vec<(String, Vec<String>)>,
    /// Keys set with `--set`.
    pub pinned: Vec<String>,
    /// (variant label, course name, outcome space) of every course.
    pub courses: Vec<(String, String, &'a OutcomeSpace)>,
}

impl<'a> Scope<'a> {
    /// The sweep axes of `file` (after `--set`, before expansion).
    pub fn axes_of(file: &ScenarioFile) -> Vec<(String, Vec<String>)> {
        match file.table.get("sweep") {
            Some(toml::Value::Table(t)) => t
                .iter()
                .map(|(k, v)| {
                    let vals = v
                        .as_array()
                        .map(|a| a.iter().map(short).collect())
                        .unwrap_or_default();
                    (k.clone(), vals)
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// A value as a variant label shows it: strings bare, the rest as TOML.
pub fn short(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The value at a dotted key path (`units.tercio.terrain`,
/// `course[1].steps[0].column`), if present.
fn lookup<'t>(table: &'t toml::Table, path: &str) -> Option<&'t toml::Value> {
    let mut cur: Option<&toml::Value> = None;
    for part in path.split('.') {
        let (name, rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        let t = match cur {
            None => table,
            Some(v) => v.as_table()?,
        };
        let mut v = t.get(name)?;
        let mut rest = rest;
        while let Some(close) = rest.find(']') {
            let idx: usize = rest.get(1..close)?.parse().ok()?;
            v = v.as_array()?.get(idx)?;
            rest = &rest[close + 1..];
        }
        cur = Some(v);
    }
    cur
}

/// Reads a number (integer or float) at `key`, marking it as read.
fn number(f: &mut Fields, raw: &toml::Table, key: &'static str) -> Result<Option<f64>, InputError> {
    if !f.has(key) {
        return Ok(None);
    }
    match raw.get(key) {
        Some(toml::Value::Integer(i)) => Ok(Some(*i as f64)),
        Some(toml::Value::Float(x)) if x.is_finite() => Ok(Some(*x)),
        Some(v) => Err(f.locate(
            key,
            InputError::new(format!(
                "expected a number, found {}",
                crate::scenario::fields::describe(v)
            ))
            .accepted("a number, e.g. 0.4 (a probability as a fraction) or 1.5 (a mean)"),
        )),
        None => Ok(None),
    }
}

/// Reads and validates the `[[expect]]` entries removed by [`take`] against
/// the courses of every variant. Errors name the file, line and key, with a
/// did-you-mean for an unknown course, outcome, measure or variant.
pub fn read(value: Option<&toml::Value>, scope: &Scope) -> Result<Vec<Expect>, InputError> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let mut root = toml::Table::new();
    root.insert("expect".into(), value.clone());
    let mut top = Fields::new(&scope.file.source, "", &root);
    let entries = top.table_list("expect")?.unwrap_or_default();
    let raws: Vec<&toml::Table> = value
        .as_array()
        .map(|a| a.iter().filter_map(toml::Value::as_table).collect())
        .unwrap_or_default();
    let mut out = Vec::with_capacity(entries.len());
    for (i, (mut f, raw)) in entries.into_iter().zip(raws).enumerate() {
        out.push(read_entry(i + 1, &mut f, raw, scope)?);
    }
    Ok(out)
}

fn read_entry(
    entry: usize,
    f: &mut Fields,
    raw: &toml::Table,
    scope: &Scope,
) -> Result<Expect, InputError> {
    let course = f.req_string("course")?;
    let outcome = f.string("outcome")?;
    let measure = f.string("measure")?;
    let variant = f.string("variant")?;
    let at_least = number(f, raw, "at_least")?;
    let at_most = number(f, raw, "at_most")?;
    f.finish()?;

    // The variants the entry applies to.
    let variants = match &variant {
        None => None,
        Some(spec) => Some(resolve_variant(spec, f, scope)?),
    };
    let applies = |label: &str| {
        variants
            .as_ref()
            .is_none_or(|v| v.iter().any(|x| x == label))
    };
    let in_scope: Vec<&(String, String, &OutcomeSpace)> = scope
        .courses
        .iter()
        .filter(|(v, _, _)| applies(v))
        .collect();

    // The course.
    let mut names: Vec<&str> = Vec::new();
    for (_, c, _) in &scope.courses {
        if !names.contains(&c.as_str()) {
            names.push(c);
        }
    }
    if !names.contains(&course.as_str()) {
        return Err(f.locate(
            "course",
            InputError::new(format!("no course named \"{course}\" in this scenario"))
                .one_of(&course, &names),
        ));
    }
    let spaces: Vec<(&str, &OutcomeSpace)> = in_scope
        .iter()
        .filter(|(_, c, _)| *c == course)
        .map(|(v, _, s)| (v.as_str(), *s))
        .collect();
    let in_variant = |v: &str| {
        if v.is_empty() {
            String::new()
        } else {
            format!(" in variant `{v}`")
        }
    };

    // What is pinned.
    let target = match (&outcome, &measure) {
        (Some(_), Some(_)) => {
            return Err(f.err(
                "measure",
                "an entry pins either an `outcome` or a `measure`, not both",
            ));
        }
        (None, None) => {
            return Err(f
                .err("course", "the entry pins nothing: give `outcome` or `measure`")
                .accepted(
                    "outcome = \"<category label>\", or measure = \"<key outcome>\" or \"mean:<measure>\"",
                ));
        }
        (Some(o), None) => {
            for (v, space) in &spaces {
                if space.outcome_index(o).is_none() {
                    return Err(f.locate(
                        "outcome",
                        InputError::new(format!(
                            "course \"{course}\"{} has no outcome \"{o}\"",
                            in_variant(v)
                        ))
                        .one_of(o, space.outcomes()),
                    ));
                }
            }
            Target::Outcome(o.clone())
        }
        (None, Some(m)) => {
            let target = if let Some(name) = m.strip_prefix(MEAN_PREFIX) {
                Target::Mean(name.to_string())
            } else if let Some(def) = KEY_OUTCOMES.iter().find(|d| d.name == m) {
                Target::Key(*def)
            } else {
                // Unknown everywhere: list what the course offers.
                let accepted = spaces
                    .first()
                    .map(|(_, s)| measures_of(s))
                    .unwrap_or_default();
                return Err(f.locate(
                    "measure",
                    InputError::new(format!("unknown measure \"{m}\"")).one_of(m, &accepted),
                ));
            };
            for (v, space) in &spaces {
                let present = match &target {
                    Target::Key(d) => space.measure_index(d.measure).is_some(),
                    Target::Mean(name) => space.measure_index(name).is_some(),
                    Target::Outcome(_) => true,
                };
                if !present {
                    return Err(f.locate(
                        "measure",
                        InputError::new(format!(
                            "course \"{course}\"{} has no measure \"{m}\"",
                            in_variant(v)
                        ))
                        .one_of(m, &measures_of(space)),
                    ));
                }
            }
            target
        }
    };

    // The bounds.
    if at_least.is_none() && at_most.is_none() {
        return Err(f
            .err(
                "course",
                "the entry has no bound: give `at_least`, `at_most` or both",
            )
            .accepted("at_least = 0.35, at_most = 0.45"));
    }
    if target.is_probability() {
        for (key, b) in [("at_least", at_least), ("at_most", at_most)] {
            if let Some(x) = b
                && !(0.0..=1.0).contains(&x)
            {
                return Err(f.locate(
                    key,
                    InputError::new(format!(
                        "{x} is not a probability: `{}` is a fraction",
                        target.name()
                    ))
                    .accepted("a number from 0 to 1, e.g. 0.4 for 40%"),
                ));
            }
        }
    }
    if let (Some(a), Some(b)) = (at_least, at_most)
        && a > b
    {
        return Err(f.locate(
            "at_most",
            InputError::new(format!("at_most {b} is below at_least {a}"))
                .accepted(format!("a number of at least {a}")),
        ));
    }
    Ok(Expect {
        entry,
        course,
        target,
        variant,
        variants,
        at_least,
        at_most,
    })
}

/// The measures an entry may name for a course: its key outcomes, then
/// `mean:<measure>` for each of its measures.
pub fn measures_of(space: &OutcomeSpace) -> Vec<String> {
    let mut out: Vec<String> = KEY_OUTCOMES
        .iter()
        .filter(|d| space.measure_index(d.measure).is_some())
        .map(|d| d.name.to_string())
        .collect();
    out.extend(
        space
            .measures()
            .iter()
            .map(|m| format!("{MEAN_PREFIX}{}", m.name)),
    );
    out
}

/// The variant labels a `variant = "k=v, …"` filter selects.
fn resolve_variant(spec: &str, f: &Fields, scope: &Scope) -> Result<Vec<String>, InputError> {
    let swept: Vec<String> = scope.axes.iter().map(|(k, _)| format!("{k}=…")).collect();
    let mut selected: Vec<String> = scope.labels.clone();
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((k, v)) = part.split_once('=') else {
            return Err(f.locate(
                "variant",
                InputError::new(format!("`{part}` is not KEY=VALUE"))
                    .accepted("a sweep key and value as in the variant labels, e.g. edition=sfo"),
            ));
        };
        let (k, v) = (k.trim(), v.trim());
        if let Some((_, values)) = scope.axes.iter().find(|(key, _)| key == k) {
            if !values.iter().any(|x| x == v) {
                return Err(f.locate(
                    "variant",
                    InputError::new(format!("the sweep gives `{k}` no value \"{v}\""))
                        .one_of(v, values),
                ));
            }
            let want = format!("{k}={v}");
            selected.retain(|label| label.split(", ").any(|p| p == want));
        } else if scope.pinned.iter().any(|p| p == k) {
            // Pinned on the command line: the entry applies when it agrees.
            let now = lookup(&scope.file.table, k).map(short);
            if now.as_deref() != Some(v) {
                selected.clear();
            }
        } else {
            let msg = if scope.axes.is_empty() {
                format!("`{k}` is not swept: this scenario has no [sweep]; leave out `variant`")
            } else {
                format!("`{k}` is not a key of this scenario's [sweep]")
            };
            let keys: Vec<&str> = scope.axes.iter().map(|(k, _)| k.as_str()).collect();
            let mut e = InputError::new(msg).accepted(if swept.is_empty() {
                "no variant filter".to_string()
            } else {
                swept.join(", ")
            });
            e.suggestion = crate::error::did_you_mean(k, &keys);
            return Err(f.locate("variant", e));
        }
    }
    Ok(selected)
}

/// Checks every entry against the courses of a run it applies to, in entry
/// order, then run order.
pub fn evaluate(expects: &[Expect], run: &ScenarioRun) -> Vec<Checked> {
    let mut out = Vec::new();
    let stats: Vec<_> = run.courses.iter().map(|c| c.stats()).collect();
    for e in expects {
        for (c, s) in run.courses.iter().zip(&stats) {
            if c.course != e.course || !e.variants.as_ref().is_none_or(|v| v.contains(&c.variant)) {
                continue;
            }
            let figure = match &e.target {
                Target::Outcome(label) => s
                    .outcomes
                    .iter()
                    .find(|o| o.label == *label)
                    .map(|o| (o.probability, o.ci, o.exact)),
                Target::Key(def) => key_outcome(*def, s).map(|k| (k.value, k.ci, k.exact)),
                Target::Mean(name) => s.measure(name).map(|m| {
                    let (mean, ci) = stats::mean_ci(m.min, &m.counts);
                    (mean, ci, m.exact_mean)
                }),
            };
            let Some((value, ci, exact)) = figure else {
                continue;
            };
            let (basis, verdict) = judge(ci, exact, e.at_least, e.at_most);
            out.push(Checked {
                expect: e.clone(),
                variant: c.variant.clone(),
                value,
                ci,
                exact,
                basis,
                verdict,
            });
        }
    }
    out
}

/// Header of `expect.csv` in a scenario's folder.
pub const EXPECT_HEADER: [&str; 14] = [
    "scenario", "entry", "variant", "course", "kind", "target", "at_least", "at_most", "value",
    "ci_low", "ci_high", "exact", "basis", "verdict",
];

/// A bound as written: the shortest text that reads back as the same number.
fn bound(x: Option<f64>) -> String {
    x.map_or_else(String::new, |x| format!("{x}"))
}

/// The rows of `expect.csv` for the checks of a run.
pub fn expect_rows(scenario: &str, checks: &[Checked]) -> Vec<Vec<String>> {
    use crate::report::csv::{DECIMALS, EXACT_DECIMALS};
    checks
        .iter()
        .map(|c| {
            vec![
                scenario.to_string(),
                c.expect.entry.to_string(),
                c.variant.clone(),
                c.expect.course.clone(),
                c.expect.target.kind().to_string(),
                c.expect.target.name(),
                bound(c.expect.at_least),
                bound(c.expect.at_most),
                fixed(c.value, DECIMALS),
                fixed(c.ci.0, DECIMALS),
                fixed(c.ci.1, DECIMALS),
                c.exact
                    .map_or_else(String::new, |x| fixed(x, EXACT_DECIMALS)),
                c.basis.name().to_string(),
                c.verdict.name().to_string(),
            ]
        })
        .collect()
}

/// One row of a check table, as strings (read from `expect.csv` or made
/// from a run): enough to print what failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckRow {
    /// Where: the scenario file (or name).
    pub scenario: String,
    /// Variant.
    pub variant: String,
    /// Course.
    pub course: String,
    /// The target's name.
    pub target: String,
    /// Lower bound as written (empty: none).
    pub at_least: String,
    /// Upper bound as written (empty: none).
    pub at_most: String,
    /// Monte Carlo value.
    pub value: String,
    /// 95% interval low.
    pub ci_low: String,
    /// 95% interval high.
    pub ci_high: String,
    /// Exact value (empty: none).
    pub exact: String,
    /// `exact` or `monte-carlo`.
    pub basis: String,
    /// `pass`, `borderline` or `fail`.
    pub verdict: String,
}

impl CheckRow {
    /// From a record of `expect.csv` (with `header`), naming it `scenario`.
    pub fn from_record(scenario: &str, header: &[String], record: &[String]) -> CheckRow {
        let get = |name: &str| {
            header
                .iter()
                .position(|h| h == name)
                .and_then(|i| record.get(i))
                .cloned()
                .unwrap_or_default()
        };
        CheckRow {
            scenario: scenario.to_string(),
            variant: get("variant"),
            course: get("course"),
            target: get("target"),
            at_least: get("at_least"),
            at_most: get("at_most"),
            value: get("value"),
            ci_low: get("ci_low"),
            ci_high: get("ci_high"),
            exact: get("exact"),
            basis: get("basis"),
            verdict: get("verdict"),
        }
    }
    /// Whether the row failed.
    pub fn failed(&self) -> bool {
        self.verdict == Verdict::Fail.name()
    }
    /// The target with its bounds, e.g. `defender-eliminated in [0.2, 0.3]`.
    pub fn describe(&self) -> String {
        let parse = |s: &str| s.parse::<f64>().ok();
        describe(&self.target, parse(&self.at_least), parse(&self.at_most))
    }
}

/// Counts of verdicts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Inside the target.
    pub pass: usize,
    /// Straddling a bound (passing).
    pub borderline: usize,
    /// Outside the target.
    pub fail: usize,
}

impl Tally {
    /// Counts the verdicts of `rows`.
    pub fn of(rows: &[CheckRow]) -> Tally {
        let mut t = Tally::default();
        for r in rows {
            match r.verdict.as_str() {
                "pass" => t.pass += 1,
                "borderline" => t.borderline += 1,
                _ => t.fail += 1,
            }
        }
        t
    }
    /// Every figure checked.
    pub fn total(&self) -> usize {
        self.pass + self.borderline + self.fail
    }
    /// `targets: 5 checked, 4 passed, 1 borderline (passing), 0 failed`.
    pub fn line(&self) -> String {
        format!(
            "targets: {} checked, {} passed, {} borderline (passing), {} failed",
            self.total(),
            self.pass,
            self.borderline,
            self.fail
        )
    }
}

/// A plain-text table of `rows`: scenario, variant, course, target,
/// measured value, 95% interval, exact value, verdict (and its basis).
pub fn table(rows: &[CheckRow]) -> String {
    let head = [
        "scenario",
        "variant",
        "course",
        "target",
        "measured",
        "95% interval",
        "exact",
        "verdict",
    ];
    let short = |s: &str| match s.parse::<f64>() {
        Ok(x) => format!("{x:.4}"),
        Err(_) => s.to_string(),
    };
    let cells: Vec<[String; 8]> = rows
        .iter()
        .map(|r| {
            [
                r.scenario.clone(),
                if r.variant.is_empty() {
                    "-".into()
                } else {
                    r.variant.clone()
                },
                r.course.clone(),
                r.describe(),
                short(&r.value),
                format!("[{}, {}]", short(&r.ci_low), short(&r.ci_high)),
                if r.exact.is_empty() {
                    "-".into()
                } else {
                    short(&r.exact)
                },
                format!("{} ({})", r.verdict, r.basis),
            ]
        })
        .collect();
    let mut widths: Vec<usize> = head.iter().map(|h| h.chars().count()).collect();
    for row in &cells {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let line = |out: &mut String, cells: &[String]| {
        let mut s = String::from(" ");
        for (c, w) in cells.iter().zip(&widths) {
            let pad = w - c.chars().count();
            let _ = write!(s, " {c}{}", " ".repeat(pad));
            s.push(' ');
        }
        let _ = writeln!(out, "{}", s.trim_end());
    };
    line(&mut out, &head.map(String::from));
    for row in &cells {
        line(&mut out, row);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monte_carlo_fails_only_when_the_whole_interval_is_outside() {
        // Interval [0.38, 0.42] against targets around it.
        let ci = (0.38, 0.42);
        let j = |lo, hi| judge(ci, None, lo, hi).1;
        assert_eq!(j(Some(0.30), Some(0.50)), Verdict::Pass);
        assert_eq!(j(Some(0.40), None), Verdict::Borderline);
        assert_eq!(j(None, Some(0.39)), Verdict::Borderline);
        assert_eq!(j(Some(0.43), None), Verdict::Fail);
        assert_eq!(j(None, Some(0.37)), Verdict::Fail);
        // The bound equal to the interval's end is inside it.
        assert_eq!(j(Some(0.42), None), Verdict::Borderline);
        assert_eq!(judge(ci, None, Some(0.42), None).0, Basis::MonteCarlo);
    }

    #[test]
    fn exact_values_are_judged_exactly() {
        let ci = (0.38, 0.42);
        // 0.40 exact: a bound at 0.41 fails although inside the interval.
        assert_eq!(
            judge(ci, Some(0.40), Some(0.41), None),
            (Basis::Exact, Verdict::Fail)
        );
        assert_eq!(
            judge(ci, Some(0.40), Some(0.40), Some(0.40)),
            (Basis::Exact, Verdict::Pass)
        );
        // Rounding of the sums is allowed for, no more.
        assert_eq!(
            judge(ci, Some(0.4 - 1e-12), Some(0.4), None).1,
            Verdict::Pass
        );
        assert_eq!(
            judge(ci, Some(0.4 - 1e-6), Some(0.4), None).1,
            Verdict::Fail
        );
    }

    #[test]
    fn lookup_reads_nested_keys_and_list_items() {
        let t: toml::Table = toml::from_str(
            "edition = \"sfo\"\n[units.a]\nterrain = \"woods\"\n[[course]]\nname = \"x\"\n",
        )
        .unwrap();
        assert_eq!(lookup(&t, "edition").map(short).as_deref(), Some("sfo"));
        assert_eq!(
            lookup(&t, "units.a.terrain").map(short).as_deref(),
            Some("woods")
        );
        assert_eq!(
            lookup(&t, "course[0].name").map(short).as_deref(),
            Some("x")
        );
        assert!(lookup(&t, "course[1].name").is_none());
    }

    #[test]
    fn describe_shows_the_bounds() {
        assert_eq!(describe("x", Some(0.3), None), "x >= 0.3");
        assert_eq!(describe("x", None, Some(0.5)), "x <= 0.5");
        assert_eq!(describe("x", Some(0.3), Some(0.5)), "x in [0.3, 0.5]");
    }
}
