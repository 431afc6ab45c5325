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

use super::figure::Figure;
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
    /// Whether more is better for the own side (`Some(true)` for hits
    /// inflicted), worse (`Some(false)` for hits taken), or neither.
    pub more_is_better: Option<bool>,
}

/// Every key outcome, in report order: probabilities first.
pub const KEY_OUTCOMES: [KeyDef; 7] = [
    KeyDef {
        name: "p-enemy-broken-or-eliminated",
        label: "P(enemy broken or eliminated)",
        measure: ENEMY_MORALE,
        kind: KeyKind::Probability,
        more_is_better: Some(true),
    },
    KeyDef {
        name: "p-own-broken-or-eliminated",
        label: "P(own unit broken or eliminated)",
        measure: OWN_MORALE,
        kind: KeyKind::Probability,
        more_is_better: Some(false),
    },
    KeyDef {
        name: "expected-hits-inflicted",
        label: "expected hits inflicted",
        measure: HITS_INFLICTED,
        kind: KeyKind::Expectation,
        more_is_better: Some(true),
    },
    KeyDef {
        name: "expected-hits-taken",
        label: "expected hits taken",
        measure: HITS_TAKEN,
        kind: KeyKind::Expectation,
        more_is_better: Some(false),
    },
    KeyDef {
        name: "expected-formation-hits-inflicted",
        label: "expected formation hits inflicted",
        measure: FORMATION_HITS_INFLICTED,
        kind: KeyKind::Expectation,
        more_is_better: Some(true),
    },
    KeyDef {
        name: "expected-formation-hits-taken",
        label: "expected formation hits taken",
        measure: FORMATION_HITS_TAKEN,
        kind: KeyKind::Expectation,
        more_is_better: Some(false),
    },
    KeyDef {
        name: "expected-turns",
        label: "expected turns",
        measure: TURNS,
        kind: KeyKind::Expectation,
        more_is_better: None,
    },
];

/// The value of one key outcome for one course.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeyOutcome {
    /// Which key outcome.
    pub def: KeyDef,
    /// The value (NaN without trials unless exact); its 95% interval:
    /// Wilson for a probability, normal for an expectation (NaN bounds
    /// with fewer than two trials); the exact value, when the tally has
    /// exact probabilities.
    pub figure: Figure,
    /// Trials behind the value.
    pub trials: u64,
    /// For a probability, the trials that counted (`value = successes /
    /// trials`); `None` for an expectation.
    pub successes: Option<u64>,
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
        KeyKind::Expectation => KeyOutcome {
            def,
            figure: m.mean_estimate(),
            trials: stats.trials,
            successes: None,
        },
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
        figure: Figure { value, ci, exact },
        trials,
        successes: Some(k),
    }
}

/// Every key outcome present in a course, in [`KEY_OUTCOMES`] order.
pub fn key_outcomes(stats: &CourseStats) -> Vec<KeyOutcome> {
    KEY_OUTCOMES
        .iter()
        .filter_map(|&d| key_outcome(d, stats))
        .collect()
}

/// The difference `a - b` of two courses' values of one key outcome, its
/// 95% interval (Newcombe's hybrid score interval for a probability,
/// [`stats::newcombe`]; the normal interval of a difference of means for an
/// expectation, [`stats::interval_difference`]) and the difference of the
/// exact values when both are known. Without trials (`--method exact`) it is the exact difference (NaN when
/// not known) with no interval (NaN bounds: empty cells, JSON `null`).
pub fn difference(a: &KeyOutcome, b: &KeyOutcome) -> Figure {
    let (fa, fb) = (a.figure, b.figure);
    let exact = fa.exact.zip(fb.exact).map(|(x, y)| x - y);
    if a.trials == 0 || b.trials == 0 {
        return Figure {
            value: exact.unwrap_or(f64::NAN),
            ci: (f64::NAN, f64::NAN),
            exact,
        };
    }
    let (value, ci) = match (a.successes, b.successes) {
        (Some(ka), Some(kb)) => stats::newcombe(ka, a.trials, kb, b.trials),
        _ => stats::interval_difference((fa.value, fa.ci), (fb.value, fb.ci)),
    };
    Figure { value, ci, exact }
}

/// A signed difference for people: percentage points with `decimals`
/// decimals for a probability (`+17.32 pp`), the plain number for an
/// expectation (`+1.199`); `-` when not a number.
pub fn signed(kind: KeyKind, x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    let (v, unit) = match kind {
        KeyKind::Probability => (x * 100.0, " pp"),
        KeyKind::Expectation => (x, ""),
    };
    let text = super::fixed(v, decimals);
    match text.strip_prefix('-') {
        Some(rest) => format!("\u{2212}{rest}{unit}"),
        None => format!("+{text}{unit}"),
    }
}

/// A difference with its interval: `+17.32 pp [+17.18, +17.46]`.
pub fn difference_text(kind: KeyKind, d: &Figure, decimals: usize) -> String {
    let bare = |x: f64| {
        let s = signed(kind, x, decimals);
        s.strip_suffix(" pp").map_or(s.clone(), str::to_string)
    };
    if d.ci.0.is_finite() && d.ci.1.is_finite() {
        format!(
            "{} [{}, {}]",
            signed(kind, d.value, decimals),
            bare(d.ci.0),
            bare(d.ci.1)
        )
    } else {
        signed(kind, d.value, decimals)
    }
}

/// One sentence a player reads, e.g. `P(enemy broken or eliminated): salvo,
/// then charge beats charge now by +17.3 pp [+17.2, +17.5]`: `beats` when
/// the difference favours `course` (by [`KeyDef::more_is_better`]) beyond
/// its interval, or exactly; `trails` when it favours `first`; `cannot be
/// told apart from` when the interval holds zero and no exact value settles
/// it; `ties with` when the exact difference is zero. `None` for a key
/// outcome that is neither better nor worse when larger.
pub fn verdict(def: &KeyDef, course: &str, first: &str, d: &Figure) -> Option<String> {
    let more = def.more_is_better?;
    // Exact only (`--method exact`): the exact figure once.
    let exact_only = d.ci.0.is_nan() && d.exact == Some(d.value);
    let text = if exact_only {
        signed(def.kind, d.value, 2)
    } else {
        difference_text(def.kind, d, 1)
    };
    let sign = match d.exact {
        Some(e) if e.abs() < 1e-12 => 0,
        Some(e) if e > 0.0 => 1,
        Some(_) => -1,
        None if d.ci.0 > 0.0 => 1,
        None if d.ci.1 < 0.0 => -1,
        None => 0,
    };
    let exact = d
        .exact
        .filter(|_| !exact_only)
        .map_or_else(String::new, |e| {
            format!(" (exact {})", signed(def.kind, e, 2))
        });
    let what = def.label;
    // "by +17.3 pp" where more is better; the figure after a colon where
    // less is (so that "beats" never reads "by −9.7").
    let by = if more { " by " } else { ": " };
    Some(match (sign, more) {
        (0, _) if d.exact.is_some() => format!("{what}: {course} ties with {first}{exact}"),
        (0, _) => format!("{what}: {course} cannot be told apart from {first}: {text}"),
        (1, true) | (-1, false) => format!("{what}: {course} beats {first}{by}{text}{exact}"),
        _ => format!("{what}: {course} trails {first}{by}{text}{exact}"),
    })
}
