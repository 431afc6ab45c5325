//! A failing `[[expect]]` target's smallest fix: of the keys whose one
//! step (the sensitivity data) moves the figure toward the target, the one
//! that meets it in the fewest steps, each step confirmed by a run of its
//! own (exact where the courses enumerate).

use std::path::Path;

use super::eval::{Study, StudyRequest, value};
use super::knobs::knobs;
use super::target::Goal;
use crate::engine::Threads;
use crate::error::{Error, Result};
use crate::report::Figure;
use crate::scenario::{Overrides, ScenarioFile};
use crate::targets::Checked;

/// The smallest single change found for a failing target.
#[derive(Clone, Debug, PartialEq)]
pub struct Fix {
    /// The `--set` assignment.
    pub assignment: String,
    /// Steps from the scenario's value.
    pub steps: usize,
    /// The figure with the change.
    pub figure: Figure,
}

/// What was found for one failing target.
#[derive(Clone, Debug, PartialEq)]
pub struct Suggestion {
    /// The target's entry, as `expect[N]`.
    pub entry: usize,
    /// The variant it failed in (empty without a sweep).
    pub variant: String,
    /// The goal.
    pub goal: Goal,
    /// The fix, or `None`: no single key's change meets it.
    pub fix: Option<Fix>,
    /// Whether figures are exact.
    pub exact: bool,
}

impl Suggestion {
    /// The suggestion as one line.
    pub fn line(&self) -> String {
        let within = if self.variant.is_empty() {
            String::new()
        } else {
            format!(" (variant {})", self.variant)
        };
        let head = format!("expect[{}]{within} {}", self.entry, self.goal.describe());
        match &self.fix {
            Some(f) => format!(
                "{head}: fix with --set {} ({} step{} from the scenario's value) → {:.4} {}",
                f.assignment,
                f.steps,
                if f.steps == 1 { "" } else { "s" },
                value(&f.figure),
                if self.exact { "exact" } else { "Monte Carlo" }
            ),
            None => format!("{head}: no change of one key within its accepted range meets it"),
        }
    }
}

/// The smallest single change that brings the failed target `checked` of
/// the scenario at `path` (run with `overrides`) back into range, on the
/// command's `threads`.
pub fn suggest(
    path: &Path,
    overrides: &Overrides,
    checked: &Checked,
    threads: &Threads,
) -> Result<Suggestion> {
    let sr = StudyRequest {
        overrides: overrides.clone(),
        variant: (!checked.variant.is_empty()).then(|| checked.variant.clone()),
        ..StudyRequest::default()
    };
    let study = Study::of(ScenarioFile::load(path)?, &sr, threads.clone())?;
    let goal = Goal::of_expect(&checked.expect);
    let base_value = goal.figure(&study.base).map_or(f64::NAN, |f| value(&f));
    let base = goal.distance(base_value);
    let all: Vec<_> = knobs(&study.file)?
        .into_iter()
        .filter(|k| k.current.is_some())
        .collect();
    // Every move outward from each key's value, walked one step at a
    // time: the first steps are the sensitivity data.
    let walk = |k: usize, up: bool| -> Vec<usize> {
        let (n, c) = (all[k].values.len(), all[k].current.unwrap_or(0));
        if up {
            (c + 1..n).collect()
        } else {
            (0..c).rev().collect()
        }
    };
    let firsts: Vec<(usize, bool, usize)> = (0..all.len())
        .flat_map(|k| [false, true].map(|up| (k, up)))
        .filter_map(|(k, up)| walk(k, up).first().map(|&i| (k, up, i)))
        .collect();
    let figure_of = |r: Result<crate::report::ScenarioRun>| -> Result<Option<Figure>> {
        match r {
            Ok(run) => Ok(goal.figure(&run)),
            Err(Error::Input(_)) => Ok(None),
            Err(e) => Err(e),
        }
    };
    let only = Some(vec![goal.course.clone()]);
    let first_sets: Vec<(Vec<String>, Option<Vec<String>>)> = firsts
        .iter()
        .map(|&(k, _, i)| (vec![all[k].assignment(i)], only.clone()))
        .collect();
    // The best fix so far, and how far it moves the figure: of the fixes
    // in as few steps, the one that moves it least.
    let mut best: Option<(Fix, f64)> = None;
    let consider = |best: &mut Option<(Fix, f64)>, k: usize, j: usize, steps: usize, f: Figure| {
        let size = (value(&f) - base_value).abs();
        if goal.met(value(&f))
            && best
                .as_ref()
                .is_none_or(|(b, s)| b.steps > steps || (b.steps == steps && *s > size))
        {
            *best = Some((
                Fix {
                    assignment: all[k].shown(j),
                    steps,
                    figure: f,
                },
                size,
            ));
        }
    };
    let mut rest: Vec<(usize, usize, usize)> = Vec::new();
    for (&(k, up, i), r) in firsts.iter().zip(study.run_all(&first_sets)) {
        let Some(f) = figure_of(r)? else { continue };
        let d = goal.distance(value(&f));
        if goal.met(value(&f)) {
            consider(&mut best, k, i, 1, f);
        } else if d < base {
            for (s, &j) in walk(k, up).iter().enumerate().skip(1) {
                rest.push((k, j, s + 1));
            }
        }
    }
    if best.is_none() && !rest.is_empty() {
        let sets: Vec<(Vec<String>, Option<Vec<String>>)> = rest
            .iter()
            .map(|&(k, j, _)| (vec![all[k].assignment(j)], only.clone()))
            .collect();
        for (&(k, j, steps), r) in rest.iter().zip(study.run_all(&sets)) {
            if let Some(f) = figure_of(r)? {
                consider(&mut best, k, j, steps, f);
            }
        }
    }
    Ok(Suggestion {
        entry: checked.expect.entry,
        variant: checked.variant.clone(),
        goal,
        fix: best.map(|(f, _)| f),
        exact: study.exact(),
    })
}
