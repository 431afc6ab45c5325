//! The comparison of one scenario under two editions of its card (what
//! `pikeshot diff` writes): each outcome's probability and each key outcome
//! under both, and the change `to − from`.
//!
//! The change's 95% interval combines the two intervals by Newcombe's method
//! (for proportions, his hybrid score interval from the two Wilson
//! intervals; for expectations it is the usual `√(h₁² + h₂²)` half-width).
//! An outcome one card cannot produce has probability 0 under it.
//!
//! [`chart`] draws the change of every outcome per variant; [`terminal()`]
//! prints the table.

pub mod chart;
pub mod terminal;

use std::path::PathBuf;

use super::csv::{exact as ex, mc};
use super::key::{KEY_OUTCOMES, KeyKind, key_outcome};
use super::naming::variant_slug;
use super::{CourseStats, ScenarioRun};

pub use super::figure::Figure;
pub use terminal::terminal;

/// What a row compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// An outcome's probability.
    Outcome,
    /// A key outcome.
    Key(KeyKind),
}

/// One figure of one course under both editions.
#[derive(Clone, Debug, PartialEq)]
pub struct DiffRow {
    /// Variant (the sweep without `edition`; empty without a sweep).
    pub variant: String,
    /// Course.
    pub course: String,
    /// Outcome or key outcome.
    pub kind: RowKind,
    /// The outcome id or key outcome name (kebab-case, as in diff.csv).
    pub name: String,
    /// A label for tables: the outcome, or the key outcome's label.
    pub label: String,
    /// Under the `from` edition (`None`: the card cannot produce it).
    pub from: Option<Figure>,
    /// Under the `to` edition.
    pub to: Option<Figure>,
}

impl DiffRow {
    /// Both sides, a side the card cannot produce filled in: probability 0
    /// for an outcome, NaN for a key outcome.
    fn sides(&self) -> (Figure, Figure) {
        let missing = match self.kind {
            RowKind::Outcome => Figure::IMPOSSIBLE,
            RowKind::Key(_) => Figure::UNKNOWN,
        };
        (self.from.unwrap_or(missing), self.to.unwrap_or(missing))
    }
    /// `to − from`.
    pub fn change(&self) -> f64 {
        let (a, b) = self.sides();
        b.value - a.value
    }
    /// The 95% interval of the change (Newcombe).
    pub fn change_ci(&self) -> (f64, f64) {
        let (a, b) = self.sides();
        crate::stats::interval_difference((b.value, b.ci), (a.value, a.ci)).1
    }
    /// Whether both sides are exact with no sampling behind them: the
    /// change is then the exact change, with no interval to show.
    pub fn is_exact_only(&self) -> bool {
        let (a, b) = self.sides();
        a.is_exact_only() && b.is_exact_only()
    }
    /// The exact change, when both sides are exact.
    pub fn exact_change(&self) -> Option<f64> {
        let (a, b) = self.sides();
        Some(b.exact? - a.exact?)
    }
}

/// What names a comparison wherever it is shown or written: the
/// scenario, its rule system, the two editions and the seed of both runs.
/// The `--format json` document carries its five fields inline.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct DiffId {
    /// Scenario name.
    pub scenario: String,
    /// Rule system.
    pub system: String,
    /// Edition compared from.
    pub from: String,
    /// Edition compared to.
    pub to: String,
    /// Seed of both runs.
    pub seed: u64,
}

/// Both runs compared.
pub struct Diff {
    /// Which scenario, editions and seed.
    pub id: DiffId,
    /// Trials per course, from and to.
    pub trials: (u64, u64),
    /// Every row: per variant, per course, its outcomes then key outcomes.
    pub rows: Vec<DiffRow>,
    /// The folder written.
    pub dir: PathBuf,
    /// The files written.
    pub written: Vec<PathBuf>,
}

impl Diff {
    /// The variants, in order.
    pub fn variants(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for r in &self.rows {
            if !out.contains(&r.variant.as_str()) {
                out.push(&r.variant);
            }
        }
        out
    }
}

/// The rows comparing two runs of one scenario: for each course of `a` (in
/// run order) matched by variant and name in `b`, every outcome of either
/// (those of `a` first), then every key outcome of either.
pub fn compare(a: &ScenarioRun, b: &ScenarioRun) -> Vec<DiffRow> {
    let mut rows = Vec::new();
    let mut pairs: Vec<(Option<usize>, Option<usize>)> = Vec::new();
    for (i, c) in a.courses.iter().enumerate() {
        let j = b
            .courses
            .iter()
            .position(|d| d.variant == c.variant && d.course == c.course);
        pairs.push((Some(i), j));
    }
    for j in 0..b.courses.len() {
        if !pairs.iter().any(|(_, x)| *x == Some(j)) {
            pairs.push((None, Some(j)));
        }
    }
    for (i, j) in pairs {
        let ca = i.map(|i| &a.courses[i]);
        let cb = j.map(|j| &b.courses[j]);
        let any = ca.or(cb).expect("one side");
        let sa = ca.map(|c| c.stats());
        let sb = cb.map(|c| c.stats());
        // Outcomes matched by id; each shown with its label.
        let mut ids: Vec<(String, String)> = Vec::new();
        for s in [&sa, &sb].into_iter().flatten() {
            for o in &s.outcomes {
                if !ids.iter().any(|(id, _)| *id == o.id) {
                    ids.push((o.id.clone(), o.label.clone()));
                }
            }
        }
        let outcome = |s: &Option<&CourseStats>, id: &str| {
            s.as_ref()?
                .outcomes
                .iter()
                .find(|o| o.id == id)
                .map(|o| o.figure)
        };
        for (id, label) in &ids {
            rows.push(DiffRow {
                variant: any.variant.clone(),
                course: any.course.clone(),
                kind: RowKind::Outcome,
                name: id.clone(),
                label: label.clone(),
                from: outcome(&sa, id),
                to: outcome(&sb, id),
            });
        }
        for def in KEY_OUTCOMES {
            let key = |s: &Option<&CourseStats>| key_outcome(def, s.as_ref()?).map(|k| k.figure);
            let (fa, fb) = (key(&sa), key(&sb));
            if fa.is_none() && fb.is_none() {
                continue;
            }
            rows.push(DiffRow {
                variant: any.variant.clone(),
                course: any.course.clone(),
                kind: RowKind::Key(def.kind),
                name: def.name.to_string(),
                label: def.label.to_string(),
                from: fa,
                to: fb,
            });
        }
    }
    rows
}

/// Header of `diff.csv`.
pub const DIFF_HEADER: [&str; 19] = [
    "scenario",
    "variant",
    "course",
    "kind",
    "name",
    "from_edition",
    "to_edition",
    "from",
    "from_ci_low",
    "from_ci_high",
    "to",
    "to_ci_low",
    "to_ci_high",
    "change",
    "change_ci_low",
    "change_ci_high",
    "from_exact",
    "to_exact",
    "exact_change",
];

/// The rows of `diff.csv`: `kind` is `outcome` or `key`; a side whose card
/// cannot produce an outcome has empty value columns (and 0 in the change).
pub fn diff_rows(d: &Diff) -> Vec<Vec<String>> {
    let side = |f: &Option<Figure>| match f {
        Some(f) => [mc(f.value), mc(f.ci.0), mc(f.ci.1)],
        None => Default::default(),
    };
    d.rows
        .iter()
        .map(|r| {
            let (lo, hi) = r.change_ci();
            let mut row = vec![
                d.id.scenario.clone(),
                r.variant.clone(),
                r.course.clone(),
                match r.kind {
                    RowKind::Outcome => "outcome".into(),
                    RowKind::Key(_) => "key".into(),
                },
                r.name.clone(),
                d.id.from.clone(),
                d.id.to.clone(),
            ];
            row.extend(side(&r.from));
            row.extend(side(&r.to));
            row.extend([mc(r.change()), mc(lo), mc(hi)]);
            row.extend([
                ex(r.from.and_then(|f| f.exact)),
                ex(r.to.and_then(|f| f.exact)),
                ex(r.exact_change()),
            ]);
            row
        })
        .collect()
}

/// The chart stem of a variant: `diff`, or `<variant>--diff`.
pub fn chart_stem(variant: &str) -> String {
    let v = variant_slug(variant);
    if v.is_empty() {
        "diff".into()
    } else {
        format!("{v}--diff")
    }
}

/// `x` with a sign and `d` decimals, never `-0.00`.
#[doc(hidden)]
pub fn signed(x: f64, d: usize) -> String {
    let s = format!("{x:+.d$}");
    match s.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => format!("+{rest}"),
        _ => s,
    }
}

/// Below this, an exact change is zero: the two sides are sums of the same
/// exact probabilities and differ only in floating-point rounding.
const EXACT_ZERO: f64 = 1e-12;

/// An exact change with a sign and `d` decimals, or `0` when it is zero.
pub(crate) fn exact_signed(x: f64, d: usize) -> String {
    if x.abs() < EXACT_ZERO {
        "0".into()
    } else {
        signed(x, d)
    }
}

/// `+1.23 pp`.
pub(crate) fn pp(x: f64) -> String {
    format!("{} pp", signed(x, 2))
}

/// A probability as a percentage, or `-`.
pub(crate) fn pct(x: f64, d: usize) -> String {
    if x.is_finite() {
        format!("{:.d$}%", x * 100.0)
    } else {
        "-".into()
    }
}
