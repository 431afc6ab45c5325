//! `decisions.json` of a report's scenario folder, as the report's page
//! reads it back (what `pikeshot decide --format json` prints, the fields
//! the "best plan" section shows).

use serde::Deserialize;

/// `decisions.json` as the page reads it.
#[derive(Clone, Debug, Deserialize)]
pub struct DecisionsDoc {
    /// Each variant's decisions.
    pub variants: Vec<VariantDoc>,
}

/// One variant's decisions.
#[derive(Clone, Debug, Deserialize)]
pub struct VariantDoc {
    /// The variant's label (empty without a sweep).
    pub variant: String,
    /// Its decisions, in file order.
    pub decisions: Vec<DecidedDoc>,
}

/// One decision solved, as the page shows it.
#[derive(Clone, Debug, Deserialize)]
pub struct DecidedDoc {
    /// The decision's name.
    pub name: String,
    /// The objective in words.
    pub objective: String,
    /// Whether values are probabilities (else expectations).
    pub probability: bool,
    /// The options' names.
    pub options: Vec<String>,
    /// The best plan's exact value.
    pub value: f64,
    /// "Always option k", for each option.
    pub always: Vec<f64>,
    /// The plan in words.
    pub rule: String,
    /// Its exact value.
    pub rule_value: f64,
    /// What it loses against the best plan.
    pub rule_loss: f64,
    /// States reached.
    pub states: usize,
    /// Every choice state (counted here; the policy file lists them).
    pub choices: Vec<serde::de::IgnoredAny>,
    /// The scenario's courses beside the best plan.
    pub courses: Vec<CourseDoc>,
    /// The Monte Carlo check.
    pub check: CheckDoc,
}

/// A course of the scenario beside a best plan.
#[derive(Clone, Debug, Deserialize)]
pub struct CourseDoc {
    /// The course's name.
    pub name: String,
    /// Its exact value under the decision's objective.
    pub value: f64,
}

/// The Monte Carlo check of a best plan.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct CheckDoc {
    /// Trials played.
    pub trials: u64,
    /// Their mean.
    pub mean: f64,
    /// The standard error of the mean.
    pub std_error: f64,
}
