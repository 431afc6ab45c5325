//! The key outcomes of a course of action, derived from its key measures.
//!
//! A course's outcome space may carry any of the key measures named here
//! (the contract with the simulation side): the morale state of each side at
//! the end of the course (`own-morale`, `enemy-morale`: 0 good, 1 shaken,
//! 2 broken, 3 eliminated), hit and formation-hit counts inflicted and
//! taken, and for an engagement the turn it stopped on (`turns`). Each
//! present measure gives one key outcome; an absent one gives none.
//!
//! Probabilities carry the 95% Wilson interval of their count; expectations
//! `mean ± Z95·s/√n` with `s` the sample standard deviation of the marginal
//! ([`stats::mean_ci`]). Exact values come from the tally's exact leaf
//! probabilities: a probability is their sum (unnormalised, like
//! `outcomes.csv`), an expectation the exact mean of `summary.csv`.

use super::model::{CourseStats, MeasureStat};
use crate::outcome::OutcomeSpace;
use crate::stats;

pub use crate::outcome::keys::*;

/// Whether a key outcome is a probability or an expected count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyKind {
    /// `P(measure >= BROKEN)`, in 0..=1.
    Probability,
    /// The mean of the measure.
    Expectation,
}

/// One key outcome: its name in `comparison.csv`, its label in tables and
/// plots, the measure it is derived from and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyDef {
    /// The name in the `measure` column of `comparison.csv`.
    pub name: &'static str,
    /// A short human label, e.g. `P(enemy broken or eliminated)`.
    pub label: &'static str,
    /// The key measure it is derived from.
    pub measure: &'static str,
    /// Probability or expectation.
    pub kind: KeyKind,
}

/// Every key outcome, in report order: probabilities first.
pub const KEY_OUTCOMES: [KeyDef; 7] = [
    KeyDef {
        name: "p-enemy-broken-or-eliminated",
        label: "P(enemy broken or eliminated)",
        measure: ENEMY_MORALE,
        kind: KeyKind::Probability,
    },
    KeyDef {
        name: "p-own-broken-or-eliminated",
        label: "P(own unit broken or eliminated)",
        measure: OWN_MORALE,
        kind: KeyKind::Probability,
    },
    KeyDef {
        name: "expected-hits-inflicted",
        label: "expected hits inflicted",
        measure: HITS_INFLICTED,
        kind: KeyKind::Expectation,
    },
    KeyDef {
        name: "expected-hits-taken",
        label: "expected hits taken",
        measure: HITS_TAKEN,
        kind: KeyKind::Expectation,
    },
    KeyDef {
        name: "expected-formation-hits-inflicted",
        label: "expected formation hits inflicted",
        measure: FORMATION_HITS_INFLICTED,
        kind: KeyKind::Expectation,
    },
    KeyDef {
        name: "expected-formation-hits-taken",
        label: "expected formation hits taken",
        measure: FORMATION_HITS_TAKEN,
        kind: KeyKind::Expectation,
    },
    KeyDef {
        name: "expected-turns",
        label: "expected turns",
        measure: TURNS,
        kind: KeyKind::Expectation,
    },
];

/// The value of one key outcome for one course.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeyOutcome {
    /// Which key outcome.
    pub def: KeyDef,
    /// Monte Carlo value (NaN without trials).
    pub value: f64,
    /// 95% interval: Wilson for a probability, normal for an expectation
    /// (NaN bounds with fewer than two trials).
    pub ci: (f64, f64),
    /// The exact value, when the tally has exact probabilities.
    pub exact: Option<f64>,
}

/// Whether `space` carries any key measure.
pub fn has_key_measures(space: &OutcomeSpace) -> bool {
    KEY_OUTCOMES
        .iter()
        .any(|d| space.measure_index(d.measure).is_some())
}

/// The key outcome `def` from the marginals of a course, when its measure is
/// present.
pub fn key_outcome(def: KeyDef, stats: &CourseStats) -> Option<KeyOutcome> {
    let m = stats.measure(def.measure)?;
    Some(match def.kind {
        KeyKind::Probability => probability_at_least(def, m, stats.trials),
        KeyKind::Expectation => {
            let (value, ci) = m.mean_ci();
            KeyOutcome {
                def,
                value,
                ci,
                exact: m.exact_mean,
            }
        }
    })
}

/// `P(measure >= BROKEN)` with its Wilson interval and exact value.
fn probability_at_least(def: KeyDef, m: &MeasureStat, trials: u64) -> KeyOutcome {
    let from = (BROKEN - m.min).clamp(0, m.counts.len() as i32) as usize;
    let k: u64 = m.counts[from..].iter().sum();
    let exact: Option<f64> = m.exact.as_ref().map(|e| e[from..].iter().sum());
    let (value, ci) = match exact {
        // Exact only (`--method exact`): the exact value, no sampling error.
        Some(e) if trials == 0 => (e, (e, e)),
        _ if trials == 0 => (f64::NAN, stats::wilson(k, trials)),
        _ => (k as f64 / trials as f64, stats::wilson(k, trials)),
    };
    KeyOutcome {
        def,
        value,
        ci,
        exact,
    }
}

/// Every key outcome present in a course, in [`KEY_OUTCOMES`] order.
pub fn key_outcomes(stats: &CourseStats) -> Vec<KeyOutcome> {
    KEY_OUTCOMES
        .iter()
        .filter_map(|&d| key_outcome(d, stats))
        .collect()
}
