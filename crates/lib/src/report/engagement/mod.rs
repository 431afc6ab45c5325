//! Engagements: a course repeated turn after turn until a stop condition.
//!
//! A course is an engagement when its outcome space has the
//! [`super::key::TURNS`] measure; its categories are then its stop
//! reasons. From the joint distribution of (stop reason, turn), computed from
//! the leaf counts, this module writes `engagements.csv` and two plots per
//! engagement: `<stem>-turns.png/svg`, the probability of stopping on each
//! turn stacked by stop reason, and `<stem>-cumulative.png/svg`, the
//! cumulative P(stopped by turn t) overall and per stop reason, with the
//! exact curves dashed when known.
//!
//! This file holds the joint distribution; [`csv`] writes
//! `engagements.csv`, [`chart`] the two plots.

pub mod chart;
pub mod csv;

use super::key::TURNS;
use super::model::CourseRun;
use crate::stats;

pub use chart::{EngagementPlots, Which};

/// A stop reason as a phrase read once: `ends: <reason>`, with a reason
/// that already says how it ended (`ended early: stand destroyed`) reduced
/// to what happened (`ends: stand destroyed`).
pub fn stop_phrase(reason: &str) -> String {
    let what = reason.rsplit_once(": ").map_or(reason, |(_, what)| what);
    format!("ends: {what}")
}
pub use csv::{ANY_REASON, ENGAGEMENTS_HEADER, EngagementsCsv, engagement_rows};

/// The joint distribution of stop reason × turn of one engagement.
#[derive(Clone, Debug, PartialEq)]
pub struct Engagement {
    /// The stop reasons (the course's category labels, for display), in the
    /// space's order.
    pub reasons: Vec<String>,
    /// Their ids (kebab-case, for engagements.csv), in the same order.
    pub reason_ids: Vec<String>,
    /// The first turn (the `turns` measure's minimum); index `i` of every
    /// per-turn vector is turn `first_turn + i`.
    pub first_turn: i32,
    /// Trials resolved.
    pub trials: u64,
    /// Count of each (reason, turn): `counts[reason][turn - first_turn]`.
    pub counts: Vec<Vec<u64>>,
    /// `counts / trials` (NaN without trials).
    pub probs: Vec<Vec<f64>>,
    /// Exact probability of each (reason, turn), when the tally has one.
    pub exact: Option<Vec<Vec<f64>>>,
}

/// A cumulative curve `P(stopped by turn t)`, overall and per stop reason.
#[derive(Clone, Debug, PartialEq)]
pub struct Cumulative {
    /// `P(T <= t)` for each turn.
    pub overall: Vec<f64>,
    /// `P(R = r, T <= t)` for each reason and turn; they sum to `overall`.
    pub by_reason: Vec<Vec<f64>>,
}

/// Whether a course is an engagement (its space has the `turns` measure).
pub fn is_engagement(course: &CourseRun) -> bool {
    course.space.measure_index(TURNS).is_some()
}

fn cumulative_of(joint: &[Vec<f64>]) -> Cumulative {
    let turns = joint.first().map_or(0, Vec::len);
    let per_turn: Vec<f64> = (0..turns)
        .map(|t| joint.iter().map(|r| r[t]).sum())
        .collect();
    Cumulative {
        overall: stats::cumulative(&per_turn),
        by_reason: joint.iter().map(|r| stats::cumulative(r)).collect(),
    }
}

impl Engagement {
    /// The joint distribution of a course with a `turns` measure; `None`
    /// for any other course.
    ///
    /// Panics, like [`CourseRun::stats`], when the tally was not counted
    /// over the course's space.
    pub fn of(course: &CourseRun) -> Option<Engagement> {
        let space = &course.space;
        let m = space.measure_index(TURNS)?;
        course.assert_tally_fits();
        let tally = &course.tally;
        let counts = stats::joint_counts(space, m, &tally.counts);
        let n = tally.trials;
        let probs = counts
            .iter()
            .map(|r| {
                r.iter()
                    .map(|&c| {
                        if n == 0 {
                            f64::NAN
                        } else {
                            c as f64 / n as f64
                        }
                    })
                    .collect()
            })
            .collect();
        Some(Engagement {
            reasons: space.outcomes().to_vec(),
            reason_ids: space.outcome_ids().to_vec(),
            first_turn: space.measures()[m].min,
            trials: n,
            counts,
            probs,
            exact: tally
                .exact
                .as_ref()
                .map(|e| stats::joint_probs(space, m, e)),
        })
    }

    /// Whether stop reason `r` can happen: some trial stopped for it, or its
    /// exact probability is above zero. A legend leaves the others out.
    pub fn possible(&self, r: usize) -> bool {
        self.counts[r].iter().any(|&c| c > 0)
            || self
                .exact
                .as_ref()
                .is_some_and(|e| e[r].iter().any(|&p| p > 0.0))
    }

    /// Number of turns `first_turn..=last`.
    pub fn turn_count(&self) -> usize {
        self.counts.first().map_or(0, Vec::len)
    }

    /// The turns, in order.
    pub fn turns(&self) -> impl Iterator<Item = i32> + '_ {
        (0..self.turn_count()).map(move |i| self.first_turn + i as i32)
    }

    /// `P(T = t)` for each turn, every reason together (Monte Carlo).
    pub fn per_turn(&self) -> Vec<f64> {
        (0..self.turn_count())
            .map(|t| self.probs.iter().map(|r| r[t]).sum())
            .collect()
    }

    /// Exact `P(T = t)` for each turn.
    pub fn exact_per_turn(&self) -> Option<Vec<f64>> {
        self.exact.as_ref().map(|e| {
            (0..self.turn_count())
                .map(|t| e.iter().map(|r| r[t]).sum())
                .collect()
        })
    }

    /// The Monte Carlo cumulative curves.
    pub fn cumulative(&self) -> Cumulative {
        cumulative_of(&self.probs)
    }

    /// The exact cumulative curves.
    pub fn exact_cumulative(&self) -> Option<Cumulative> {
        self.exact.as_deref().map(cumulative_of)
    }
}
