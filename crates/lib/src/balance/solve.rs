//! `pikeshot balance`: the value of one or more keys that brings a figure
//! to a target. Every value of every key varied is run (exactly where the
//! courses enumerate) and ranked by its distance from the target.

use super::eval::{Basis, Study, value};
use super::knobs::{Knob, MAX_CURVE, knobs};
use super::target::Goal;
use crate::error::{Error, InputError, Result};
use crate::report::Figure;

/// Most combinations `balance` runs over several keys.
pub const MAX_COMBINATIONS: usize = 20_000;

/// One key varied and the positions of its values tried.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// The key.
    pub knob: Knob,
    /// The positions (in `knob.values`) tried, in order.
    pub tried: Vec<usize>,
}

/// One combination of values tried.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// Per axis, the position of its value (in `knob.values`).
    pub picks: Vec<usize>,
    /// The goal's figure there; `Err` with the reader's message when the
    /// scenario refuses the combination.
    pub figure: std::result::Result<Figure, String>,
    /// Distance from the wanted range (infinite when refused).
    pub distance: f64,
    /// Steps from the scenario's own values, summed over the axes.
    pub steps: usize,
}

impl Point {
    /// The figure's value (exact when known), NaN when refused.
    pub fn value(&self) -> f64 {
        self.figure.as_ref().map_or(f64::NAN, value)
    }
}

/// A solved balance question.
#[derive(Clone, Debug)]
pub struct Balance {
    /// The scenario's name.
    pub name: String,
    /// The sweep variant studied (empty without a sweep).
    pub variant: String,
    /// How the figures were found.
    pub basis: Basis,
    /// The target.
    pub goal: Goal,
    /// The scenario's own figure.
    pub base: Option<Figure>,
    /// The keys varied.
    pub axes: Vec<Axis>,
    /// Every combination tried, in order (the first key varies slowest).
    pub points: Vec<Point>,
    /// How close a combination of several keys must come (the tolerance).
    pub tolerance: f64,
}

/// The answer of one key: the value(s) closest to the target.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// A value meets the target (the nearest the scenario's own, when
    /// several do), or comes closest to it.
    Value {
        /// Index into `points`.
        point: usize,
        /// Whether it meets the target.
        met: bool,
    },
    /// The target value lies between two neighbouring values.
    Between(usize, usize),
    /// No value could be run.
    None,
}

impl Balance {
    /// The answer over one key (the first axis).
    pub fn answer(&self) -> Answer {
        let ok: Vec<usize> = (0..self.points.len())
            .filter(|&i| self.points[i].figure.is_ok())
            .collect();
        if ok.is_empty() {
            return Answer::None;
        }
        let best = |set: &[usize]| {
            set.iter()
                .copied()
                .min_by(|&a, &b| {
                    let (pa, pb) = (&self.points[a], &self.points[b]);
                    pa.distance
                        .total_cmp(&pb.distance)
                        .then(pa.steps.cmp(&pb.steps))
                })
                .unwrap_or(0)
        };
        let met: Vec<usize> = ok
            .iter()
            .copied()
            .filter(|&i| self.goal.met(self.points[i].value()))
            .collect();
        if !met.is_empty() {
            let nearest = met
                .iter()
                .copied()
                .min_by_key(|&i| self.points[i].steps)
                .unwrap_or(met[0]);
            return Answer::Value {
                point: nearest,
                met: true,
            };
        }
        // A point target crossed between two neighbouring values.
        if self.goal.lo == self.goal.hi {
            let p = self.goal.lo;
            for w in ok.windows(2) {
                let (a, b) = (self.points[w[0]].value(), self.points[w[1]].value());
                if (a - p) * (b - p) < 0.0 && w[1] == w[0] + 1 {
                    return Answer::Between(w[0], w[1]);
                }
            }
        }
        Answer::Value {
            point: best(&ok),
            met: false,
        }
    }

    /// The combinations within the tolerance, closest first (then fewest
    /// steps from the scenario's own values).
    pub fn ranked(&self) -> Vec<usize> {
        let mut within: Vec<usize> = (0..self.points.len())
            .filter(|&i| {
                self.points[i].distance <= self.tolerance + crate::targets::EXACT_TOLERANCE
            })
            .collect();
        within.sort_by(|&a, &b| {
            let (pa, pb) = (&self.points[a], &self.points[b]);
            pa.distance
                .total_cmp(&pb.distance)
                .then(pa.steps.cmp(&pb.steps))
        });
        within
    }

    /// The `--set` assignments of point `i`, as a person writes them.
    pub fn assignments(&self, i: usize) -> Vec<String> {
        self.axes
            .iter()
            .zip(&self.points[i].picks)
            .map(|(a, &p)| a.knob.shown(p))
            .collect()
    }
}

/// Reads one `--vary KEY[=LO..HI | =A,B,…]` against the scenario's keys.
pub fn axis(spec: &str, all: &[Knob], file: &str) -> std::result::Result<Axis, InputError> {
    let at = |e: InputError, key: &str| {
        e.key(key.to_string()).at(
            Some(&format!(
                "{file} (--vary {})",
                crate::scenario::fields::shown(spec)
            )),
            None,
        )
    };
    let (key, range) = match spec.split_once('=') {
        Some((k, r)) => (k.trim(), Some(r.trim())),
        None => (spec.trim(), None),
    };
    let Some(knob) = all.iter().find(|k| k.path == key) else {
        let paths: Vec<&str> = all.iter().map(|k| k.path.as_str()).collect();
        return Err(at(
            InputError::new(format!(
                "`{key}` is not a key of this scenario that has an order to vary"
            ))
            .one_of(key, &paths)
            .accepted(
                "a unit, step, course or [rules] key with a range, a switch or named values, as --set names it (pikeshot sensitivity lists them)",
            ),
            key,
        ));
    };
    let accepted = || {
        let vals: Vec<String> = (0..knob.values.len()).map(|i| knob.text(i)).collect();
        format!("values of {key}: {}", vals.join(" | "))
    };
    let find = |text: &str| {
        knob.position(text.trim()).ok_or_else(|| {
            at(
                InputError::new(format!("`{}` is outside what {key} accepts", text.trim()))
                    .accepted(accepted()),
                key,
            )
        })
    };
    let tried: Vec<usize> = match range {
        None => {
            let n = knob.values.len();
            if n <= MAX_CURVE {
                (0..n).collect()
            } else {
                let c = knob.current.unwrap_or(0);
                let from = c.saturating_sub(MAX_CURVE / 2).min(n - MAX_CURVE);
                (from..from + MAX_CURVE).collect()
            }
        }
        Some(r) => {
            if let Some((lo, hi)) = r.split_once("..") {
                let (lo, hi) = (find(lo)?, find(hi.trim_start_matches('='))?);
                if lo > hi {
                    return Err(at(
                        InputError::new(format!("`{r}` runs backwards"))
                            .accepted(format!("LO..HI with LO before HI; {}", accepted())),
                        key,
                    ));
                }
                (lo..=hi).collect()
            } else {
                let mut v: Vec<usize> = r
                    .split(',')
                    .map(find)
                    .collect::<std::result::Result<_, _>>()?;
                v.sort_unstable();
                v.dedup();
                v
            }
        }
    };
    Ok(Axis {
        knob: knob.clone(),
        tried,
    })
}

/// Solves for `goal` over the keys `specs` (each a `--vary`).
pub fn balance(study: &Study, specs: &[String], goal: Goal, tolerance: f64) -> Result<Balance> {
    let file = study.file.source.file.clone();
    let all = knobs(&study.file)?;
    let mut axes = Vec::new();
    for s in specs {
        let a = axis(s, &all, &file)?;
        if axes.iter().any(|b: &Axis| b.knob.path == a.knob.path) {
            return Err(
                InputError::new(format!("`{}` is varied twice", a.knob.path))
                    .key("--vary")
                    .accepted("each key once")
                    .at(Some(&file), None)
                    .into(),
            );
        }
        axes.push(a);
    }
    if axes.is_empty() {
        return Err(InputError::new("nothing to vary")
            .key("--vary")
            .accepted("--vary KEY, e.g. --vary units.pike.morale")
            .at(Some(&file), None)
            .into());
    }
    let total = axes
        .iter()
        .try_fold(1usize, |n, a| n.checked_mul(a.tried.len()))
        .filter(|&n| n <= MAX_COMBINATIONS);
    let Some(total) = total else {
        return Err(InputError::new(format!(
            "the keys varied make more than {MAX_COMBINATIONS} combinations"
        ))
        .key("--vary")
        .accepted("fewer keys, or narrower ranges: --vary KEY=LO..HI")
        .at(Some(&file), None)
        .into());
    };
    let picks: Vec<Vec<usize>> = (0..total)
        .map(|mut n| {
            let mut p = vec![0; axes.len()];
            for (k, a) in axes.iter().enumerate().rev() {
                p[k] = a.tried[n % a.tried.len()];
                n /= a.tried.len();
            }
            p
        })
        .collect();
    let only = Some(vec![goal.course.clone()]);
    let versions: Vec<(Vec<String>, Option<Vec<String>>)> = picks
        .iter()
        .map(|p| {
            let sets = axes
                .iter()
                .zip(p)
                .map(|(a, &i)| a.knob.assignment(i))
                .collect();
            (sets, only.clone())
        })
        .collect();
    let results = study.run_all(&versions);
    let mut points = Vec::with_capacity(total);
    for (p, r) in picks.into_iter().zip(results) {
        let figure = match r {
            Ok(run) => goal
                .figure(&run)
                .ok_or_else(|| format!("course \"{}\" has no such figure here", goal.course)),
            Err(Error::Input(e)) => Err(e.message.clone()),
            Err(e) => return Err(e),
        };
        let distance = figure
            .as_ref()
            .map_or(f64::INFINITY, |f| goal.distance(value(f)));
        let steps = axes
            .iter()
            .zip(&p)
            .map(|(a, &i)| a.knob.current.map_or(0, |c| c.abs_diff(i)))
            .sum();
        points.push(Point {
            picks: p,
            figure,
            distance,
            steps,
        });
    }
    Ok(Balance {
        name: study.base.id.name.clone(),
        variant: study.variant.clone(),
        basis: study.basis.clone(),
        base: goal.figure(&study.base),
        goal,
        axes,
        points,
        tolerance,
    })
}
