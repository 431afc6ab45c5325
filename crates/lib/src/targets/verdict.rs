//! Verdicts: each entry checked against the courses of a run it applies
//! to. A Monte Carlo figure fails only when its whole 95% interval lies
//! outside the target; an exact figure is judged on its value.

use super::{EXACT_TOLERANCE, Expect, Target};
use crate::report::key::key_outcome;
use crate::report::{CourseStats, Figure, ScenarioRun};

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

/// The figure `target` pins in a course's marginals, when the course has it.
pub fn figure(target: &Target, s: &CourseStats) -> Option<Figure> {
    match target {
        Target::Outcome(id) => s.outcomes.iter().find(|o| o.id == *id).map(|o| o.figure),
        Target::Key(def) => key_outcome(*def, s).map(|k| k.figure),
        Target::Mean(name) => s.measure(name).map(|m| m.mean_estimate()),
    }
}

/// One entry checked against one course of one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// The entry.
    pub expect: Expect,
    /// The variant checked (empty without a sweep).
    pub variant: String,
    /// The figure checked: Monte Carlo value, its 95% interval and the
    /// exact value, when computed.
    pub figure: Figure,
    /// What the verdict rests on.
    pub basis: Basis,
    /// The verdict.
    pub verdict: Verdict,
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
            let Some(figure) = figure(&e.target, s) else {
                continue;
            };
            let (basis, verdict) = judge(figure.ci, figure.exact, e.at_least, e.at_most);
            out.push(Checked {
                expect: e.clone(),
                variant: c.variant.clone(),
                figure,
                basis,
                verdict,
            });
        }
    }
    out
}
