//! What `balance --target` asks for: a figure of one course (an outcome's
//! probability, a key outcome or a measure's mean, named as in `[[expect]]`)
//! equal to, at least or at most a number, or an `[[expect]]` entry of the
//! scenario by its index.

use crate::error::InputError;
use crate::report::key::KEY_OUTCOMES;
use crate::report::{CourseStats, Figure, ScenarioRun};
use crate::targets::{Expect, MEAN_PREFIX, Target, measures_of};

/// A target solved for: a figure of one course and the range it should lie in.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    /// The course.
    pub course: String,
    /// What figure of it.
    pub target: Target,
    /// Least wanted value (`-inf` when unbounded below).
    pub lo: f64,
    /// Largest wanted value (`+inf` when unbounded above).
    pub hi: f64,
}

impl Goal {
    /// The goal of an `[[expect]]` entry.
    pub fn of_expect(e: &Expect) -> Goal {
        Goal {
            course: e.course.clone(),
            target: e.target.clone(),
            lo: e.at_least.unwrap_or(f64::NEG_INFINITY),
            hi: e.at_most.unwrap_or(f64::INFINITY),
        }
    }

    /// How far `x` lies from the wanted range (0 inside it).
    pub fn distance(&self, x: f64) -> f64 {
        if x.is_nan() {
            return f64::INFINITY;
        }
        (self.lo - x).max(x - self.hi).max(0.0)
    }

    /// Whether a figure's value (exact, or Monte Carlo) is within the range,
    /// allowing the rounding of exact sums.
    pub fn met(&self, x: f64) -> bool {
        self.distance(x) <= crate::targets::EXACT_TOLERANCE
    }

    /// The goal as text: `course: NAME = P`, `>= P`, `<= P` or `in [a, b]`.
    pub fn describe(&self) -> String {
        let name = self.target.name();
        let rel = if self.lo == self.hi {
            format!("{name} = {}", self.lo)
        } else {
            crate::targets::describe(
                &name,
                self.lo.is_finite().then_some(self.lo),
                self.hi.is_finite().then_some(self.hi),
            )
        };
        format!("{}: {rel}", self.course)
    }

    /// The point a chart draws the target at, and whether the goal is a
    /// probability.
    pub fn is_probability(&self) -> bool {
        self.target.is_probability()
    }

    /// The figure of the goal's course in `run`, if the run has the course.
    pub fn figure(&self, run: &ScenarioRun) -> Option<Figure> {
        let c = run.courses.iter().find(|c| c.course == self.course)?;
        figure(&self.target, c.stats())
    }
}

fn figure(t: &Target, s: &CourseStats) -> Option<Figure> {
    crate::targets::figure(t, s)
}

/// Reads `--target TEXT` against the courses of `base`: `COURSE: NAME = P`
/// (also `>=`, `<=`), NAME an outcome id, a key outcome or `mean:<measure>`;
/// or `expect[N]`, the scenario's entry N of `expects`. `file` names the
/// scenario in errors.
pub fn parse(
    text: &str,
    base: &ScenarioRun,
    expects: &[Expect],
    file: &str,
) -> Result<Goal, InputError> {
    let at = |e: InputError| {
        e.key("--target").at(
            Some(&format!(
                "{file} (--target {})",
                crate::scenario::fields::shown(text)
            )),
            None,
        )
    };
    let t = text.trim();
    if let Some(n) = t.strip_prefix("expect[").and_then(|r| r.strip_suffix(']')) {
        let count = expects.len();
        return match n.trim().parse::<usize>().ok().and_then(|i| expects.get(i)) {
            Some(e) => Ok(Goal::of_expect(e)),
            None => Err(at(InputError::new(format!(
                "the scenario has no [[expect]] entry {n}"
            ))
            .accepted(if count == 0 {
                "COURSE: NAME = P (the scenario has no [[expect]] entries)".to_string()
            } else {
                format!("expect[0] to expect[{}], or COURSE: NAME = P", count - 1)
            }))),
        };
    }
    let syntax = "COURSE: NAME = P, COURSE: NAME >= P or COURSE: NAME <= P (NAME an outcome id, a key outcome or mean:<measure>), or expect[N]";
    let eq = t.rfind('=').ok_or_else(|| {
        at(InputError::new(format!("`{t}` has no `=`, `>=` or `<=`")).accepted(syntax))
    })?;
    // `>=` and `<=` end in the `=` found.
    let start = if eq > 0 && matches!(&t[eq - 1..eq], "<" | ">") {
        eq - 1
    } else {
        eq
    };
    let (lhs, op, rhs) = (&t[..start], &t[start..eq + 1], &t[eq + 1..]);
    let rhs = rhs.trim();
    let p: f64 = rhs
        .parse()
        .ok()
        .filter(|x: &f64| x.is_finite())
        .ok_or_else(|| at(InputError::new(format!("`{rhs}` is not a number")).accepted(syntax)))?;
    let (course, name) = lhs
        .trim()
        .rsplit_once(": ")
        .map(|(c, n)| (c.trim(), n.trim()))
        .ok_or_else(|| {
            at(InputError::new(format!(
                "`{}` names no course: write `COURSE: NAME`",
                lhs.trim()
            ))
            .accepted(syntax))
        })?;
    let mut names: Vec<&str> = Vec::new();
    for c in &base.courses {
        if !names.contains(&c.course.as_str()) {
            names.push(&c.course);
        }
    }
    let Some(run) = base.courses.iter().find(|c| c.course == course) else {
        return Err(at(InputError::new(format!(
            "no course named \"{course}\" in this scenario"
        ))
        .one_of(course, &names)));
    };
    let space = &run.space;
    let target = if let Some(m) = name.strip_prefix(MEAN_PREFIX) {
        if space.measure_index(m).is_none() {
            return Err(at(InputError::new(format!(
                "course \"{course}\" has no measure \"{m}\""
            ))
            .one_of(name, &measures_of(space))));
        }
        Target::Mean(m.to_string())
    } else if let Some(def) = KEY_OUTCOMES.iter().find(|d| d.name == name) {
        if space.measure_index(def.measure).is_none() {
            return Err(at(InputError::new(format!(
                "course \"{course}\" has no key outcome \"{name}\""
            ))
            .one_of(name, &measures_of(space))));
        }
        Target::Key(*def)
    } else if space.outcome_index_by_id(name).is_some() {
        Target::Outcome(name.to_string())
    } else {
        let mut accepted: Vec<String> = space.outcome_ids().iter().map(|s| s.to_string()).collect();
        accepted.extend(measures_of(space));
        return Err(at(InputError::new(format!(
            "course \"{course}\" has no outcome or measure \"{name}\""
        ))
        .one_of(name, &accepted)));
    };
    if target.is_probability() && !(0.0..=1.0).contains(&p) {
        return Err(at(InputError::new(format!(
            "{p} is not a probability: `{name}` is a fraction"
        ))
        .accepted("a number from 0 to 1, e.g. 0.5 for an even fight")));
    }
    let (lo, hi) = match op {
        "=" => (p, p),
        ">=" => (p, f64::INFINITY),
        _ => (f64::NEG_INFINITY, p),
    };
    Ok(Goal {
        course: course.to_string(),
        target,
        lo,
        hi,
    })
}
