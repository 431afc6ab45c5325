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
//!
//! [`schema`] reads and validates the entries, [`verdict`] checks them
//! against a run, [`render`] writes `expect.csv` and the table of what
//! failed. The run path uses this module; batch reports use it too, so the
//! dependency goes one way: `run` and `batch` → `targets` → `report`.

pub mod render;
pub mod schema;
pub mod verdict;

use crate::report::key::KeyDef;

pub use render::{CheckRow, EXPECT_HEADER, VerdictCounts, expect_csv, expect_rows, table};
pub use schema::{Scope, measures_of, read, short, take};
pub use verdict::{Basis, Checked, Verdict, evaluate, figure, judge};

/// How far an exact value may fall outside a target before it fails: the
/// rounding of summing exact leaf probabilities in floating point.
pub const EXACT_TOLERANCE: f64 = 1e-9;

/// Prefix of a `measure` that asks for the mean of any measure.
pub const MEAN_PREFIX: &str = "mean:";

/// What an entry pins.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// The probability of an outcome category, by its id.
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
    /// Position among the file's `[[expect]]` entries, from 0: the `N`
    /// of `--set expect[N]...`, of the `entry` column of `expect.csv` and
    /// of the table of what failed.
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
