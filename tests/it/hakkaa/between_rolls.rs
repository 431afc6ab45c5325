//! Hakkaa Päälle between rolls: units in contact after a close combat fight
//! the next close combat without Closing or Charge Reaction tests.

#![allow(dead_code)]

use pikeshot::engine::{Kernel, KernelMode};
use pikeshot::stats;

use crate::support::close;
use crate::support::monte_carlo::{Leaves, assert_sample_matches};
use crate::support::scenario::{self, try_prepare};

/// The course named `name` of a scenario text, built with `mode` kernels
/// through the public run path.
fn course_mode(text: &str, name: &str, mode: KernelMode) -> Box<dyn Kernel> {
    scenario::course(
        try_prepare("s.toml", text, mode).unwrap_or_else(|e| panic!("{e}")),
        name,
    )
}

/// The course named `name` (automatic kernel).
fn course(text: &str, name: &str) -> Box<dyn Kernel> {
    course_mode(text, name, KernelMode::Auto)
}

/// Exact leaf probabilities, as `pikeshot run --exact` computes them.
fn exact_of(k: &dyn Kernel) -> Vec<f64> {
    scenario::exact(k)
}

/// Exact probability of the outcome `label`.
fn outcome(k: &dyn Kernel, label: &str) -> f64 {
    let i = k
        .space()
        .outcome_index(label)
        .unwrap_or_else(|| panic!("no outcome {label} in {:?}", k.space().outcomes()));
    stats::outcome_probs(k.space(), &exact_of(k))[i]
}

/// Exact distribution of a measure (index = value - min).
fn measure(k: &dyn Kernel, name: &str) -> Vec<f64> {
    let m = k
        .space()
        .measure_index(name)
        .unwrap_or_else(|| panic!("no measure {name}"));
    stats::measure_probs(k.space(), m, &exact_of(k))
}

/// Monte Carlo within 4.5 standard errors of exact, for the course under
/// both kernels (`stats::disagreements`).
fn agrees_under_both_kernels(text: &str, name: &str, seed: u64) {
    let probs = exact_of(course(text, name).as_ref());
    for mode in [KernelMode::Auto, KernelMode::Direct] {
        let k = course_mode(text, name, mode);
        assert_sample_matches(
            k.as_ref(),
            &probs,
            seed,
            Leaves::Marginals,
            &format!("{name} ({mode:?})"),
        );
    }
}

const IN_CONTACT: &str = "name = \"t\"\nsystem = \"hakkaa\"\n\n\
    [units.a]\ntype = \"hbc\"\ntq = \"trained\"\nsteps = 4\n\n\
    [units.b]\ntype = \"hbc\"\ntq = \"trained\"\nsteps = 4\n\n\
    [[course]]\nname = \"c\"\nsteps = [\n\
      { procedure = \"close-combat\", attacker = \"a\", defender = \"b\" },\n\
      { procedure = \"charge\", charger = \"a\", target = \"b\", closing_row = \"Skirmishing\" },\n]\n";

#[test]
fn units_in_contact_do_not_close_again() {
    // Close combat: a side that rolls DS or S (2d6 <= 8 for Trained, 26/36)
    // at most disorders and stays; F or DF falls back. Both stay with
    // (26/36)^2: then the charge is already in contact and fights a second
    // close combat. Otherwise the Skirmishing Closing row (F_B in every column)
    // never reaches contact.
    let k = course(IN_CONTACT, "c");
    let cc = measure(k.as_ref(), "close-combats");
    let both = (26.0f64 / 36.0).powi(2);
    assert!(close(cc[2], both), "{cc:?}");
    assert!(close(cc[1], 1.0 - both));
    agrees_under_both_kernels(IN_CONTACT, "c", 0xe9_1401);
}
