//! `pikeshot sensitivity`: what decides a fight. Every ordered key of the
//! scenario moved one step down and one step up within what it accepts,
//! and the exact change of each course's key outcomes.

use super::eval::{Basis, Study, value};
use super::knobs::{Knob, knobs};
use crate::error::{Error, Result};
use crate::report::key::KEY_OUTCOMES;
use crate::report::{CourseRun, Figure, ScenarioRun};
use crate::targets::{self, Target};

/// One figure of a course the study follows: a key outcome, or (for a
/// course without key measures) an outcome's probability.
#[derive(Clone, Debug, PartialEq)]
pub struct Tracked {
    /// What figure.
    pub target: Target,
    /// Its label for people.
    pub label: String,
}

/// The figures followed for a course: its key outcomes, else the
/// probability of each of its outcomes.
pub fn tracked(c: &CourseRun) -> Vec<Tracked> {
    let keys: Vec<Tracked> = KEY_OUTCOMES
        .iter()
        .filter(|d| c.space.measure_index(d.measure).is_some())
        .map(|d| Tracked {
            target: Target::Key(*d),
            label: d.label.to_string(),
        })
        .collect();
    if !keys.is_empty() {
        return keys;
    }
    c.space
        .outcome_ids()
        .iter()
        .map(|id| Tracked {
            target: Target::Outcome(id.clone()),
            label: format!("P({id})"),
        })
        .collect()
}

/// One move of a key: the value it moves to and, per course and tracked
/// figure, the change; or why the scenario's reader refused the value.
#[derive(Clone, Debug, PartialEq)]
pub struct Move {
    /// The value moved to, as `--set` writes it.
    pub to: String,
    /// Per course, per tracked figure: the change (new minus base); `Err`
    /// with the reader's message when the value is refused here.
    pub change: std::result::Result<Vec<Vec<Option<Figure>>>, String>,
}

impl Move {
    /// The change of course `c`'s tracked figure `t`, when known.
    pub fn delta(&self, c: usize, t: usize) -> Option<f64> {
        self.change
            .as_ref()
            .ok()
            .and_then(|v| v.get(c)?.get(t).copied().flatten())
            .map(|f| value(&f))
    }
}

/// One key: where it stands, and its moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The key as `--set` names it.
    pub key: String,
    /// What the card calls it.
    pub label: &'static str,
    /// Its value in the scenario.
    pub now: String,
    /// One step down (none at the bottom of its range).
    pub down: Option<Move>,
    /// One step up (none at the top of its range).
    pub up: Option<Move>,
}

impl Row {
    /// The size of the key's effect on course `c`'s figure `t`: the
    /// largest change either way (0 when neither is known).
    pub fn size(&self, c: usize, t: usize) -> f64 {
        [&self.down, &self.up]
            .into_iter()
            .flatten()
            .filter_map(|m| m.delta(c, t))
            .map(f64::abs)
            .fold(0.0, f64::max)
    }
}

/// The sensitivity of a scenario.
#[derive(Clone, Debug)]
pub struct Sensitivity {
    /// The scenario's name.
    pub name: String,
    /// The sweep variant studied (empty without a sweep).
    pub variant: String,
    /// How the figures were found.
    pub basis: Basis,
    /// Every course, in order.
    pub courses: Vec<String>,
    /// Per course, the figures followed.
    pub tracked: Vec<Vec<Tracked>>,
    /// Per course, per tracked figure, the scenario's own value.
    pub base: Vec<Vec<Option<Figure>>>,
    /// Every key, in the scenario's order.
    pub rows: Vec<Row>,
    /// Ordered keys left out: the scenario sets none and the card's reader
    /// computes their value, so there is no step from it.
    pub computed: Vec<String>,
    /// Versions of the scenario run (the base included; a version runs
    /// only the courses its key can reach, see [`Study::reached_by`]).
    pub runs: usize,
}

impl Sensitivity {
    /// The rows of course `c` sorted by the size of their effect on its
    /// first tracked figure (largest first; ties in the scenario's order).
    pub fn tornado(&self, c: usize) -> Vec<&Row> {
        let mut rows: Vec<&Row> = self.rows.iter().collect();
        rows.sort_by(|a, b| b.size(c, 0).total_cmp(&a.size(c, 0)));
        rows
    }
}

/// The figure `t` of every course of `run`, in the order of `courses`.
fn figures(
    run: &ScenarioRun,
    courses: &[String],
    tracked: &[Vec<Tracked>],
) -> Vec<Vec<Option<Figure>>> {
    courses
        .iter()
        .zip(tracked)
        .map(|(name, ts)| {
            let c = run.courses.iter().find(|c| &c.course == name);
            ts.iter()
                .map(|t| c.and_then(|c| targets::figure(&t.target, c.stats())))
                .collect()
        })
        .collect()
}

/// `a - b`: the exact difference when both are exact; otherwise the Monte
/// Carlo difference with a conservative interval (the ends of the two
/// intervals).
pub fn minus(a: &Figure, b: &Figure) -> Figure {
    Figure {
        value: a.value - b.value,
        ci: (a.ci.0 - b.ci.1, a.ci.1 - b.ci.0),
        exact: a.exact.zip(b.exact).map(|(x, y)| x - y),
    }
}

/// Runs a study's scenario with every ordered key one step down and one
/// step up.
pub fn sensitivity(study: &Study) -> Result<Sensitivity> {
    let all = knobs(&study.file)?;
    let (with_now, computed): (Vec<Knob>, Vec<Knob>) =
        all.into_iter().partition(|k| k.current.is_some());
    let base_run = &study.base;
    let mut courses: Vec<String> = Vec::new();
    let mut tracked_all = Vec::new();
    for c in &base_run.courses {
        if !courses.contains(&c.course) {
            courses.push(c.course.clone());
            tracked_all.push(tracked(c));
        }
    }
    let base = figures(base_run, &courses, &tracked_all);
    // (knob, position) of every move, down then up.
    let mut moves: Vec<(usize, usize)> = Vec::new();
    for (k, knob) in with_now.iter().enumerate() {
        let now = knob.current.unwrap_or(0);
        if now > 0 {
            moves.push((k, now - 1));
        }
        if now + 1 < knob.values.len() {
            moves.push((k, now + 1));
        }
    }
    let reached: Vec<Option<Vec<String>>> =
        with_now.iter().map(|k| study.reached_by(&k.path)).collect();
    let versions: Vec<(Vec<String>, Option<Vec<String>>)> = moves
        .iter()
        .filter(|&&(k, _)| reached[k].as_ref().is_none_or(|r| !r.is_empty()))
        .map(|&(k, i)| (vec![with_now[k].assignment(i)], reached[k].clone()))
        .collect();
    let mut results = study.run_all(&versions).into_iter();
    let mut rows: Vec<Row> = with_now
        .iter()
        .map(|k| Row {
            key: k.path.clone(),
            label: k.label,
            now: k.text(k.current.unwrap_or(0)),
            down: None,
            up: None,
        })
        .collect();
    // A course the key cannot reach is not run again: its change is 0.
    let unchanged = |c: usize, k: usize| {
        reached[k]
            .as_ref()
            .is_some_and(|r| !r.contains(&courses[c]))
    };
    for &(k, i) in &moves {
        let result = if reached[k].as_ref().is_some_and(|r| r.is_empty()) {
            Ok(None)
        } else {
            results.next().map(|r| r.map(Some)).unwrap_or(Ok(None))
        };
        let change = match result {
            Ok(run) => {
                let new = run.map(|r| figures(&r, &courses, &tracked_all));
                Ok((0..courses.len())
                    .map(|c| {
                        (0..tracked_all[c].len())
                            .map(|t| {
                                let o = base[c][t]?;
                                if unchanged(c, k) {
                                    return Some(minus(&o, &o));
                                }
                                new.as_ref()?[c][t].map(|n| minus(&n, &o))
                            })
                            .collect()
                    })
                    .collect())
            }
            Err(Error::Input(e)) => Err(e.message.clone()),
            Err(e) => return Err(e),
        };
        let m = Move {
            to: with_now[k].text(i),
            change,
        };
        if Some(i) < with_now[k].current {
            rows[k].down = Some(m);
        } else {
            rows[k].up = Some(m);
        }
    }
    Ok(Sensitivity {
        name: base_run.id.name.clone(),
        variant: study.variant.clone(),
        basis: study.basis.clone(),
        courses,
        tracked: tracked_all,
        base,
        rows,
        computed: computed.into_iter().map(|k| k.path).collect(),
        runs: versions.len() + 1,
    })
}
