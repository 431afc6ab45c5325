//! A solved decision as the reports show it, whatever the system: the best
//! plan's value beside "always X" for each option, the plan in words and
//! what it loses, every choice state with its features in words, and the
//! Monte Carlo check of the best plan played as a table of state → option.

use serde::Serialize;

use super::rule::{self, Rule};
use super::{Features, Solved};
use crate::dice::Sampler;
use crate::procedure::Procedure;

/// Trials of the Monte Carlo check of a decision's best plan.
pub const CHECK_TRIALS: u64 = 40_000;

/// A solved decision, as every output shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Decided {
    /// The decision's name.
    pub name: String,
    /// The objective in words ("most likely target-fled").
    pub objective: String,
    /// Whether the value is a probability (an outcome) rather than an
    /// expectation (a measure).
    pub probability: bool,
    /// The options' names.
    pub options: Vec<String>,
    /// The best plan's exact value.
    pub value: f64,
    /// The exact value of "always option k", for each option.
    pub always: Vec<f64>,
    /// The plan in words.
    pub rule: String,
    /// The plan in words' exact value.
    pub rule_value: f64,
    /// What it loses against the best plan (never negative).
    pub rule_loss: f64,
    /// The features' names (each choice's `features` in this order), then
    /// `turn`.
    pub features: Vec<String>,
    /// States reached (choices and rolls).
    pub states: usize,
    /// Every choice state.
    pub choices: Vec<ChoiceRow>,
    /// The best plan played by the options' own procedures on seeded dice.
    pub check: Check,
    /// The scenario's own courses that share the objective (the same own
    /// and enemy units, an outcome space with the objective's outcomes or
    /// measure), each with its exact figure under the objective; filled by
    /// `run::decide`.
    pub courses: Vec<CourseFigure>,
    /// The decision explained at one state, when asked
    /// ([`super::at::ExplainAt`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<super::at::DecisionAt>,
    /// The objective itself, to read the scenario's courses with.
    #[serde(skip)]
    pub target: super::Objective,
}

/// A course of the scenario beside a decision's best plan.
#[derive(Clone, Debug, Serialize)]
pub struct CourseFigure {
    /// The course's name.
    pub name: String,
    /// Its exact value under the decision's objective.
    pub value: f64,
}

/// One choice state of a decision, as `policy.csv` writes it.
#[derive(Clone, Debug, Serialize)]
pub struct ChoiceRow {
    /// The turn (1-based).
    pub turn: usize,
    /// The features' values in words, in [`Decided::features`] order.
    pub features: Vec<String>,
    /// The exact probability the best plan reaches this state.
    pub reach: f64,
    /// The best option's name.
    pub best: String,
    /// Each option's value here.
    pub values: Vec<f64>,
}

/// The Monte Carlo check of a decision's best plan.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Check {
    /// Trials played.
    pub trials: u64,
    /// The seed of the dice.
    pub seed: u64,
    /// The mean of the objective over the trials.
    pub mean: f64,
    /// The standard error of that mean.
    pub std_error: f64,
}

impl Check {
    /// How many standard errors the mean lies from `exact`.
    pub fn deviations(&self, exact: f64) -> f64 {
        if self.std_error == 0.0 {
            if (self.mean - exact).abs() < 1e-12 {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            (self.mean - exact).abs() / self.std_error
        }
    }
}

/// The plan of `solved` played `trials` times on dice seeded by `seed`.
pub fn check<P: Procedure>(solved: &Solved<P>, trials: u64, seed: u64) -> Check {
    let plan = solved.best();
    let mut dice = Sampler::new(seed);
    let (mut sum, mut squares) = (0.0f64, 0.0f64);
    for _ in 0..trials {
        let v = solved.play(&plan, &mut dice);
        sum += v;
        squares += v * v;
    }
    let n = trials.max(1) as f64;
    let mean = sum / n;
    let var = (squares / n - mean * mean).max(0.0) * n / (n - 1.0).max(1.0);
    Check {
        trials,
        seed,
        mean,
        std_error: (var / n).sqrt(),
    }
}

/// What the reports show of `solved` (named `name`), whose features
/// `features` names and puts in words; the plan in words searched by
/// [`rule::search`]; the check played with `seed`.
pub fn summarise<P: Procedure, F: Features>(
    name: &str,
    solved: &Solved<P>,
    features: &F,
    seed: u64,
) -> Decided {
    let r: Rule = rule::search(solved);
    let mut names = solved.feature_names.clone();
    let words = r.words(&solved.options, &names, |f, v| features.feature_value(f, v));
    names.push("turn".to_string());
    Decided {
        name: name.to_string(),
        objective: solved.objective.words(),
        probability: matches!(solved.objective.target, super::Target::Outcome(_)),
        options: solved.options.clone(),
        value: solved.value,
        always: solved.always.clone(),
        rule: words,
        rule_value: r.value,
        rule_loss: (solved.value - r.value).abs(),
        features: names,
        states: solved.states(),
        choices: solved
            .choices
            .iter()
            .map(|c| ChoiceRow {
                turn: c.turn,
                features: c
                    .features
                    .iter()
                    .enumerate()
                    .map(|(f, &v)| features.feature_value(f, v))
                    .chain(std::iter::once(c.turn.to_string()))
                    .collect(),
                reach: c.reach,
                best: solved.options[c.best].clone(),
                values: c.values.clone(),
            })
            .collect(),
        check: check(solved, CHECK_TRIALS, seed),
        courses: Vec::new(),
        at: None,
        target: solved.objective.clone(),
    }
}
