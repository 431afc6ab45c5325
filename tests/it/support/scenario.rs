//! Scenarios from text through the public run path
//! (`ScenarioFile::from_str` + `run::prepare_file`), and the exact
//! probabilities of their courses.

use pikeshot::engine::{self, Kernel, KernelMode, RunOptions, Task};
use pikeshot::error::InputError;
use pikeshot::run::{Prepared, RunPlan, prepare_file};
use pikeshot::scenario::ScenarioFile;
use pikeshot::stats;

/// Prepares a scenario text (named `file`) as `pikeshot run` would, with
/// kernels of `mode`.
pub fn try_prepare(file: &str, text: &str, mode: KernelMode) -> Result<Prepared, pikeshot::Error> {
    let f = ScenarioFile::from_str(file, text)?;
    let req = RunPlan {
        kernel: mode,
        ..RunPlan::default()
    };
    prepare_file(f, &req)
}

/// Prepares a scenario text, panicking with the error if it is refused.
#[track_caller]
pub fn prepare(file: &str, text: &str) -> Prepared {
    try_prepare(file, text, KernelMode::Auto).unwrap_or_else(|e| panic!("{e}"))
}

/// The input error a scenario text is refused with.
#[track_caller]
pub fn input_error(file: &str, text: &str) -> InputError {
    match try_prepare(file, text, KernelMode::Auto) {
        Err(pikeshot::Error::Input(e)) => *e,
        Err(e) => panic!("not an input error: {e}"),
        Ok(_) => panic!("accepted: {text}"),
    }
}

/// The input error `run::prepare_file` refuses a scenario text (named
/// `file`, well-formed TOML) with under `req`; panics where the text does
/// not parse, is accepted, or fails otherwise.
#[track_caller]
pub fn refused_under(file: &str, text: &str, req: &RunPlan) -> InputError {
    let f = ScenarioFile::from_str(file, text).unwrap_or_else(|e| panic!("{e}"));
    match prepare_file(f, req) {
        Err(pikeshot::Error::Input(e)) => *e,
        Err(e) => panic!("not an input error: {e}"),
        Ok(_) => panic!("accepted:\n{text}"),
    }
}

/// The kernel of the course called `course` (the first variant that has it).
#[track_caller]
pub fn course(p: Prepared, course: &str) -> Box<dyn Kernel> {
    p.courses
        .into_iter()
        .find(|c| c.name == course)
        .unwrap_or_else(|| panic!("no course {course}"))
        .kernel
}

/// The exact leaf probabilities of a kernel, as `pikeshot run --exact`
/// computes them (the engine's default budget).
#[track_caller]
pub fn exact(k: &dyn Kernel) -> Vec<f64> {
    engine::Threads::new(None)
        .unwrap()
        .run(
            &[Task {
                variant: 0,
                course: 0,
                kernel: k,
            }],
            &RunOptions {
                method: engine::Method::Exact,
                ..RunOptions::default()
            },
        )
        .unwrap()
        .remove(0)
        .exact
        .expect("exact")
}

/// The exact leaf probabilities and the kernel of course `course` of a
/// scenario text (file `t.toml`).
#[track_caller]
pub fn exact_course(text: &str, course_name: &str) -> (Vec<f64>, Box<dyn Kernel>) {
    let k = course(prepare("t.toml", text), course_name);
    (exact(k.as_ref()), k)
}

/// The distribution of measure `name` (index = value - min) given leaf
/// probabilities `probs` of `k`.
#[track_caller]
pub fn measure_dist(k: &dyn Kernel, probs: &[f64], name: &str) -> Vec<f64> {
    let s = k.space();
    let m = s
        .measure_index(name)
        .unwrap_or_else(|| panic!("no measure {name}"));
    stats::measure_probs(s, m, probs)
}

/// P(measure = value) given leaf probabilities `probs` of `k`.
#[track_caller]
pub fn p_measure(k: &dyn Kernel, probs: &[f64], name: &str, value: i32) -> f64 {
    let dist = measure_dist(k, probs, name);
    let min = k.space().measures()[k.space().measure_index(name).unwrap()].min;
    dist[(value - min) as usize]
}

/// P(outcome) given leaf probabilities `probs` of `k`; the outcome named
/// by its id (or its label).
#[track_caller]
pub fn p_outcome(k: &dyn Kernel, probs: &[f64], label: &str) -> f64 {
    let s = k.space();
    let i = s
        .outcome_index_by_id(label)
        .or_else(|| s.outcome_index(label))
        .unwrap_or_else(|| panic!("no outcome {label} in {:?}", s.outcome_ids()));
    stats::outcome_probs(s, probs)[i]
}

/// One figure a course's exact answer must show.
#[derive(Clone, Copy, Debug)]
pub enum Want {
    /// P(measure = value) is this probability.
    Measure(&'static str, i32, f64),
    /// P(outcome) is this probability.
    Outcome(&'static str, f64),
}

/// Resolves course `course_name` of `text` exactly and checks every wanted
/// figure to rounding, naming the one that differs.
#[track_caller]
pub fn assert_course(text: &str, course_name: &str, wants: &[Want]) {
    let (p, k) = exact_course(text, course_name);
    assert_wants(course_name, k.as_ref(), &p, wants);
}

/// Resolves kernel `k` exactly and checks every wanted figure to rounding,
/// naming `case` and the figure that differs.
#[track_caller]
pub fn assert_figures(case: &str, k: &dyn Kernel, wants: &[Want]) {
    assert_wants(case, k, &exact(k), wants);
}

/// Checks every wanted figure of kernel `k`, whose exact leaf probabilities
/// are `p`, to rounding, naming `case` and the figure that differs.
#[track_caller]
pub fn assert_wants(case: &str, k: &dyn Kernel, p: &[f64], wants: &[Want]) {
    for w in wants {
        let (got, want) = match *w {
            Want::Measure(name, value, want) => (p_measure(k, p, name, value), want),
            Want::Outcome(label, want) => (p_outcome(k, p, label), want),
        };
        assert!(
            crate::support::close(got, want),
            "{case}: {w:?}: got {got} (diff {})",
            got - want
        );
    }
}
