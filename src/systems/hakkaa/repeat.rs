//! What a Hakkaa Päälle course of turns reads beyond its steps: the stop
//! conditions of `repeat = { turns, until, from_step }`, checked after every
//! step (docs/rules/hakkaa.md).

use super::unit::{ELIMINATED, Status, UnitState};
use crate::systems::{Repeats, StopInfo};

/// What `repeat` accepts: at most 30 turns, the stop conditions below,
/// and by default `target-fled, own-fled` (a course of one unit:
/// `own-rallied, own-eliminated`).
pub const REPEATS: Repeats = Repeats {
    max_turns: 30,
    stops: &STOPS,
    default_until: "target-fled, own-fled; a course of one unit: own-rallied, own-eliminated",
};

/// What each stop condition of `repeat.until` means: five of the target,
/// then the same five of the acting unit ([`Stop::of`] reads the index).
const STOPS: [StopInfo; 10] = [
    StopInfo::new("target-disordered", "the target is disordered, or worse"),
    StopInfo::new("target-fell-back", "the target fell back, or worse"),
    StopInfo::new("target-fled", "the target fled, or was eliminated"),
    StopInfo::new("target-eliminated", "the target is eliminated"),
    StopInfo::new(
        "target-rallied",
        "the target is neither fleeing nor eliminated",
    ),
    StopInfo::new("own-disordered", "our unit is disordered, or worse"),
    StopInfo::new("own-fell-back", "our unit fell back, or worse"),
    StopInfo::new("own-fled", "our unit fled, or was eliminated"),
    StopInfo::new("own-eliminated", "our unit is eliminated"),
    StopInfo::new("own-rallied", "our unit is neither fleeing nor eliminated"),
];

/// The stop conditions of a course with a target that names none
/// (indices into [`REPEATS`]' stops: `target-fled`, `own-fled`).
const DEFAULT_STOPS: [usize; 2] = [2, 7];
/// The stop conditions of a course of one unit that names none
/// (`own-rallied`, `own-eliminated`).
const DEFAULT_UNIT_STOPS: [usize; 2] = [9, 8];

/// A stop condition of an engagement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stop {
    /// The target (else the acting unit).
    pub target: bool,
    /// Stop when the unit's status index is at least this (0..=4); or, with
    /// `rallied`, when it is neither fleeing nor eliminated.
    pub at_least: usize,
    /// "rallied": not fleeing and not eliminated.
    pub rallied: bool,
}

impl Stop {
    /// Stop condition `i` of [`REPEATS`]' stops.
    pub fn of(i: usize) -> Stop {
        let (target, k) = (i < 5, i % 5);
        Stop {
            target,
            at_least: [1, 2, 3, ELIMINATED, 0][k],
            rallied: k == 4,
        }
    }
    /// Whether the condition holds for the unit it watches, in state `s`.
    pub fn holds(&self, s: &UnitState) -> bool {
        let i = s.status_index();
        if self.rallied {
            i < Status::Fled as usize
        } else {
            i >= self.at_least
        }
    }
}

/// The stop conditions of a course whose `repeat.until` names `named`
/// (indices into [`REPEATS`]' stops, as [`course::read_repeat`] gives
/// them); naming none stops when the target or the acting unit fled, or
/// (`has_target` false) when the unit rallied or is eliminated.
pub fn until(named: &[usize], has_target: bool) -> Vec<Stop> {
    let chosen: &[usize] = match (named.is_empty(), has_target) {
        (false, _) => named,
        (true, true) => &DEFAULT_STOPS,
        (true, false) => &DEFAULT_UNIT_STOPS,
    };
    chosen.iter().map(|&i| Stop::of(i)).collect()
}
