//! Hand-built runs for the report tests: a course's tally from rows of
//! (outcome, measure values, count, exact probability).

use pikeshot::engine::Tally;
use pikeshot::outcome::{Measure, OutcomeSpace};
use pikeshot::report::{CourseRun, RunId, ScenarioRun, write_reports};

use super::read_csv;

/// One leaf of a hand-built tally: outcome index, measure values, count and
/// exact probability.
pub type Row<'a> = (usize, &'a [i32], u64, f64);

/// The leaf counts and exact leaf probabilities of `space` given `rows`;
/// every other leaf is 0.
fn leaves(space: &OutcomeSpace, rows: &[Row]) -> (Vec<u64>, Vec<f64>) {
    let mut counts = vec![0u64; space.len()];
    let mut exact = vec![0.0f64; space.len()];
    for &(outcome, values, count, p) in rows {
        let leaf = space.leaf(outcome, values) as usize;
        counts[leaf] = count;
        exact[leaf] = p;
    }
    (counts, exact)
}

/// A tally of `trials` trials that took 0.5 s on `threads` threads.
fn tally(trials: u64, counts: Vec<u64>, exact: Option<Vec<f64>>, threads: usize) -> Tally {
    Tally {
        trials,
        counts,
        exact,
        exact_error: None,
        seconds: 0.5,
        threads,
        kernel: None,
    }
}

/// Course `course` of variant `variant` (empty: no sweep) over `space`.
fn course_run(variant: &str, course: &str, space: OutcomeSpace, tally: Tally) -> CourseRun {
    CourseRun::new(
        variant.into(),
        course.into(),
        Default::default(),
        space,
        tally,
    )
}

/// Course `course` of variant `variant` (empty: no sweep) over `space`,
/// counted by `rows` in `trials` trials on one thread; the tally carries
/// the rows' exact probabilities where `exact` (otherwise none).
pub fn counted_course(
    variant: &str,
    course: &str,
    space: OutcomeSpace,
    trials: u64,
    rows: &[Row],
    exact: bool,
) -> CourseRun {
    let (counts, probs) = leaves(&space, rows);
    let tally = tally(trials, counts, exact.then_some(probs), 1);
    course_run(variant, course, space, tally)
}

/// `course` under the name `name`: the same space and tally.
pub fn renamed(mut course: CourseRun, name: impl Into<String>) -> CourseRun {
    course.course = name.into();
    course
}

/// A Musket & Pike run without a sweep or `--set`: scenario `scenario`
/// from file stem `stem`, card `edition`, master seed `seed`.
pub fn mpbs_run(
    scenario: &str,
    stem: &str,
    edition: &str,
    seed: u64,
    courses: Vec<CourseRun>,
) -> ScenarioRun {
    ScenarioRun {
        id: RunId {
            name: scenario.into(),
            system: "mpbs".into(),
            editions: vec![edition.into()],
            seed,
        },
        file_stem: stem.into(),
        sets: Vec::new(),
        courses,
        sweep: None,
    }
}

/// An outcome space of `outcomes` and measures of (id, min, max).
pub fn space(outcomes: &[&str], measures: &[(&str, i32, i32)]) -> OutcomeSpace {
    let measures = measures
        .iter()
        .map(|&(id, min, max)| Measure::new(id, min, max))
        .collect();
    OutcomeSpace::from_labels(outcomes, measures)
}

/// Writes the reports of `run` to a fresh folder and reads `file` there:
/// its header and rows.
pub fn written_csv(run: &ScenarioRun, file: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let tmp = tempfile::tempdir().unwrap();
    write_reports(run, tmp.path()).unwrap();
    read_csv(&tmp.path().join(file))
}

/// Writes the reports of `run` to a fresh folder, asserts `file` there has
/// the header `header` (its first line, as a reader sees it) and returns
/// its rows.
#[track_caller]
pub fn written_rows(run: &ScenarioRun, file: &str, header: &str) -> Vec<Vec<String>> {
    let (got, rows) = written_csv(run, file);
    assert_eq!(got.join(","), header, "the header of {file}");
    rows
}
