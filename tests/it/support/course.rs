//! A course built from scenario text, as the between-rolls tests of every
//! system use it: its kernel under either mode, its exact probabilities,
//! P(outcome), a measure's distribution, and Monte Carlo against exact under
//! both kernels.

use pikeshot::engine::{Kernel, KernelMode};

use crate::support::monte_carlo::assert_course_sample;
use crate::support::scenario::{self, try_prepare};

/// The course named `name` of a scenario text, built with `mode` kernels
/// through the public run path.
pub fn course_mode(text: &str, name: &str, mode: KernelMode) -> Box<dyn Kernel> {
    scenario::course(
        try_prepare("s.toml", text, mode).unwrap_or_else(|e| panic!("{e}")),
        name,
    )
}

/// The course named `name` (automatic kernel).
pub fn course(text: &str, name: &str) -> Box<dyn Kernel> {
    course_mode(text, name, KernelMode::Auto)
}

/// Exact leaf probabilities, as `pikeshot run --exact` computes them.
pub fn exact_of(k: &dyn Kernel) -> Vec<f64> {
    scenario::exact(k)
}

/// Exact probability of the outcome `label`.
pub fn outcome(k: &dyn Kernel, label: &str) -> f64 {
    scenario::p_outcome(k, &exact_of(k), label)
}

/// Exact distribution of a measure (index = value - min).
pub fn measure(k: &dyn Kernel, name: &str) -> Vec<f64> {
    scenario::measure_dist(k, &exact_of(k), name)
}

/// Asserts no outcome label of the course `k` is one that `is_stop` picks
/// (a course that ends early reports what happened, not that it stopped),
/// naming the labels when one is.
#[track_caller]
pub fn assert_no_stop_outcome(k: &dyn Kernel, is_stop: impl Fn(&str) -> bool) {
    let labels = k.space().outcomes();
    assert!(!labels.iter().any(|o| is_stop(o)), "{labels:?}");
}

/// Monte Carlo within 4.5 standard errors of exact, for the course under
/// both kernels (`stats::disagreements`).
pub fn agrees_under_both_kernels(text: &str, name: &str, seed: u64) {
    let probs = exact_of(course(text, name).as_ref());
    for mode in [KernelMode::Auto, KernelMode::Direct] {
        let k = course_mode(text, name, mode);
        assert_course_sample(k.as_ref(), &probs, seed, name, mode);
    }
}
