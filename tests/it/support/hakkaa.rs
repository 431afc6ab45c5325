//! Helpers shared by the Hakkaa Päälle tests: build a scenario from text,
//! read exact distributions, compare Monte Carlo with exact, and check that
//! bad input is located.

#![allow(dead_code, clippy::result_large_err)]

pub use super::assert_close;
use super::monte_carlo::assert_course_sample;
use pikeshot::engine::{Kernel, KernelMode};
use pikeshot::error::InputError;
use pikeshot::scenario::{Fields, Source};
use pikeshot::stats;
use pikeshot::systems::hakkaa::scenario::{self, Built};

/// Musketeers and pike, one volley and then twelve turns of volleys both
/// ways (resolved die by die: a slow course, for runs that must last long
/// enough to be watched and stopped).
pub const VOLLEYS: &str = r#"
name = "volleys"
system = "hakkaa"
seed = 7
trials = 300000

[units.musketeers]
type = "mi"
tq = "trained"
steps = 4
fp_per_step = 1

[units.pike]
type = "hi"
tq = "veteran"
steps = 4
fp_per_step = 1

[[course]]
name = "one volley"
steps = [{ procedure = "fire", firer = "musketeers", target = "pike" }]

[[course]]
name = "volleys for twelve turns"
repeat = { turns = 12 }
steps = [
  { procedure = "fire", firer = "musketeers", target = "pike" },
  { procedure = "fire", firer = "pike", target = "musketeers" },
]
"#;

/// The file name errors are located in.
pub const FILE: &str = "s.toml";

/// Builds the courses of a scenario text with `mode` kernels.
pub fn try_build_mode(text: &str, mode: KernelMode) -> Result<Built, InputError> {
    let (src, table) = Source::parse(FILE, text)?;
    let mut f = Fields::new(&src, "", &table);
    f.string("name")?;
    f.string("system")?;
    f.string("description")?;
    f.int("seed", 0, i64::MAX)?;
    f.int("trials", 1, i64::MAX)?;
    let b = scenario::build(&mut f, mode)?;
    f.finish()?;
    Ok(b)
}

/// Builds the courses of a scenario text (panics on bad input).
pub fn build(text: &str) -> Built {
    try_build_mode(text, KernelMode::Auto).unwrap_or_else(|e| panic!("unexpected error: {e}"))
}

/// The kernel of the course named `course`.
pub fn kernel(text: &str, course: &str) -> Box<dyn Kernel> {
    build(text)
        .courses
        .into_iter()
        .find(|(n, _)| n == course)
        .unwrap_or_else(|| panic!("no course {course}"))
        .1
}

/// The only course of a one-course scenario.
pub fn only(text: &str) -> Box<dyn Kernel> {
    let mut b = build(text);
    assert_eq!(b.courses.len(), 1);
    b.courses.remove(0).1
}

/// Exact leaf probabilities (they must sum to 1).
pub fn exact(k: &dyn Kernel) -> Vec<f64> {
    let p = k.exact(10_000_000).expect("exact within budget");
    let total: f64 = p.iter().sum();
    assert!((total - 1.0).abs() < 1e-12, "exact sums to {total}");
    p
}

/// Asserts two courses give the same exact probability, to rounding, leaf
/// by leaf over the leaf indices both have (a course with fewer steps has a
/// shorter leaf space), naming `case` where they do not.
#[track_caller]
pub fn assert_same_exact(case: &str, a: &dyn Kernel, b: &dyn Kernel) {
    for (leaf, (x, y)) in exact(a).iter().zip(exact(b)).enumerate() {
        assert!(super::close(*x, y), "{case}: leaf {leaf}: {x} vs {y}");
    }
}

/// The exact probability of the outcome labelled `label`.
pub fn outcome(k: &dyn Kernel, label: &str) -> f64 {
    super::scenario::p_outcome(k, &exact(k), label)
}

/// Checks every wanted figure of kernel `k` against its exact answer (as
/// [`exact`] computes and checks it) to rounding, naming `case` and the
/// figure that differs.
#[track_caller]
pub fn assert_figures(case: &str, k: &dyn Kernel, wants: &[super::scenario::Want]) {
    super::scenario::assert_wants(case, k, &exact(k), wants);
}

/// Every outcome's exact probability, by label.
pub fn outcomes(k: &dyn Kernel) -> Vec<(String, f64)> {
    k.space()
        .outcomes()
        .iter()
        .cloned()
        .zip(stats::outcome_probs(k.space(), &exact(k)))
        .collect()
}

/// The exact distribution of measure `name`, indexed by value − min.
pub fn measure(k: &dyn Kernel, name: &str) -> Vec<f64> {
    super::scenario::measure_dist(k, &exact(k), name)
}

/// The exact mean of measure `name`.
pub fn mean(k: &dyn Kernel, name: &str) -> f64 {
    let m = k.space().measure_index(name).unwrap();
    let min = k.space().measures()[m].min;
    measure(k, name)
        .iter()
        .enumerate()
        .map(|(i, p)| (min + i as i32) as f64 * p)
        .sum()
}

/// Number of the 36 rolls of 2d6 whose sum is in `lo..=hi`.
pub fn ways(lo: u8, hi: u8) -> f64 {
    (lo..=hi).map(|s| 6 - (7 - s as i32).abs()).sum::<i32>() as f64
}

/// Monte Carlo (200 000 trials, fixed seed, both kernel modes) against
/// exact for every course of a scenario: every outcome and every value of
/// every measure within 4.5 standard errors.
pub fn monte_carlo_matches_exact(text: &str, seed: u64) {
    for mode in [KernelMode::Auto, KernelMode::Direct] {
        let b = try_build_mode(text, mode).unwrap();
        for (name, k) in &b.courses {
            let probs = exact(k.as_ref());
            assert_course_sample(k.as_ref(), &probs, seed, name, mode);
        }
    }
}

/// A scenario text from unit tables and course tables.
pub fn doc(units: &str, courses: &str) -> String {
    format!("name = \"t\"\nsystem = \"hakkaa\"\n\n{units}\n{courses}")
}

/// A scenario with one course "c" of one step given as `key = value` lines
/// (so each key has its own line), after optional top-level lines.
pub fn one(top: &str, units: &str, step: &str) -> String {
    format!(
        "name = \"t\"\nsystem = \"hakkaa\"\n{top}\n{units}\n[[course]]\nname = \"c\"\n\n[[course.steps]]\n{step}\n"
    )
}

/// The bad-input error of a scenario text.
pub fn error(text: &str) -> InputError {
    match try_build_mode(text, KernelMode::Auto) {
        Ok(_) => panic!("expected an input error"),
        Err(e) => e,
    }
}

/// Asserts a located error: key path, the line of `needle` (searched from
/// `after`), the file, and a message containing `says`.
#[track_caller]
pub fn assert_error(text: &str, key: &str, after: &str, needle: &str, says: &str) -> InputError {
    let e = error(text);
    let line = super::located::line_after(text, after, needle);
    super::located::assert_located(&e, Some(FILE), key, line, says);
    e
}

/// Asserts a located error at key `key` of the first step of the first
/// course, on the line that sets it inside the step, saying `says`.
#[track_caller]
pub fn assert_step_error(text: &str, key: &str, says: &str) -> InputError {
    let path = format!("course[0].steps[0].{key}");
    assert_error(text, &path, "[[course.steps]]", key, says)
}

/// One step the reader refuses: the step's keys, the key the error names,
/// what it says and, where the case pins it, the "did you mean" it offers.
pub type Refusal<'a> = (&'a str, &'a str, &'a str, Option<&'a str>);

/// Asserts each refusal of `cases` on the scenario `step` makes of its keys
/// (as [`assert_step_error`], and its suggestion where one is given); the
/// errors in case order, for what a test checks further.
#[track_caller]
pub fn assert_step_refusals(step: impl Fn(&str) -> String, cases: &[Refusal]) -> Vec<InputError> {
    cases
        .iter()
        .map(|&(keys, key, says, suggestion)| {
            let e = assert_step_error(&step(keys), key, says);
            if suggestion.is_some() {
                assert_eq!(e.suggestion.as_deref(), suggestion, "{keys}");
            }
            e
        })
        .collect()
}

/// Asserts each refusal of `cases` on a one-step scenario (as [`one`], no
/// top-level keys) of `procedure` with the case's keys over `units`; the
/// errors in case order, for what a test checks further.
#[track_caller]
pub fn assert_procedure_refusals(
    units: &str,
    procedure: &str,
    cases: &[Refusal],
) -> Vec<InputError> {
    assert_step_refusals(
        |keys| one("", units, &format!("procedure = \"{procedure}\"\n{keys}")),
        cases,
    )
}

/// The units of `[units.NAME]` tables, in file order.
pub fn units(text: &str) -> Vec<pikeshot::systems::hakkaa::Unit> {
    let (src, t) = Source::parse("u.toml", text).unwrap();
    t["units"]
        .as_table()
        .unwrap()
        .iter()
        .map(|(name, v)| {
            let mut f = Fields::new(&src, format!("units.{name}"), v.as_table().unwrap());
            pikeshot::systems::hakkaa::Unit::from_fields(name, &mut f).unwrap()
        })
        .collect()
}

/// Asserts a procedure's own exact method agrees with enumerating every
/// path of its dice.
#[track_caller]
pub fn exact_matches_dice<P: pikeshot::procedure::Procedure>(p: &P, budget: u64) {
    use pikeshot::dice::Enumerator;
    let ours = pikeshot::engine::exact::exact(p, budget).unwrap();
    let mut by_dice = vec![0.0; p.space().len()];
    Enumerator::new()
        .for_each(budget, |d| p.resolve(d), |_, l, w| by_dice[l as usize] += w)
        .unwrap();
    for (leaf, (a, b)) in ours.iter().zip(&by_dice).enumerate() {
        assert!((a - b).abs() < 1e-12, "leaf {leaf}: {a} vs {b}");
    }
}
