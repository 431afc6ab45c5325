//! Hakkaa Päälle between rolls: units in contact after a close combat fight
//! the next close combat without Closing or Charge Reaction tests.

#![allow(dead_code)]

use pikeshot::engine::{self, Kernel, KernelMode, RunOptions, Task};
use pikeshot::scenario::ScenarioFile;
use pikeshot::stats;
use pikeshot::systems;

/// Builds the courses of a scenario text through the public run path.
fn courses(text: &str, mode: KernelMode) -> Vec<(String, Box<dyn Kernel>)> {
    let file = ScenarioFile::from_str("s.toml", text).unwrap_or_else(|e| panic!("{e}"));
    let v = file.variants().unwrap_or_else(|e| panic!("{e}"));
    let mut f = file.fields(&v[0]);
    f.string("name").unwrap();
    let system = f.string("system").unwrap().unwrap();
    f.int("seed", 0, i64::MAX).unwrap();
    f.int("trials", 1, i64::MAX).unwrap();
    let b = systems::build_courses(&system, &mut f, mode).unwrap_or_else(|e| panic!("{e}"));
    f.finish().unwrap_or_else(|e| panic!("{e}"));
    b.courses
}

/// The course named `name`, built with `mode` kernels.
fn course_mode(text: &str, name: &str, mode: KernelMode) -> Box<dyn Kernel> {
    courses(text, mode)
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no course {name}"))
        .1
}

/// The course named `name` (automatic kernel).
fn course(text: &str, name: &str) -> Box<dyn Kernel> {
    course_mode(text, name, KernelMode::Auto)
}

fn exact_of(k: &dyn Kernel) -> Vec<f64> {
    let p = k.exact(10_000_000).expect("exact within budget");
    let total: f64 = p.iter().sum();
    assert!((total - 1.0).abs() < 1e-9, "exact sums to {total}");
    p
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

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// Monte Carlo within 4.5 standard errors of exact, for the course under
/// both kernels.
fn agrees_under_both_kernels(text: &str, name: &str, seed: u64) {
    let n = 200_000u64;
    for mode in [KernelMode::Auto, KernelMode::Direct] {
        let k = course_mode(text, name, mode);
        let task = Task {
            variant: 0,
            course: 0,
            kernel: k.as_ref(),
        };
        let opts = RunOptions {
            trials: n,
            seed,
            exact: true,
            ..RunOptions::default()
        };
        let t = engine::run(&[task], &opts).unwrap().remove(0);
        let exact = t.exact.as_ref().expect("exact");
        let off = stats::disagreements(k.space(), &t.counts, n, exact, 4.5);
        assert!(off.is_empty(), "{name} ({mode:?}): {off:?}");
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
