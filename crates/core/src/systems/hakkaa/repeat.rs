//! What a Hakkaa Päälle course of turns reads beyond its steps: the stop
//! conditions of `repeat = { turns, until, from_step }`, checked after every
//! step (docs/rules/hakkaa.md).

use super::unit::{ELIMINATED, Status, UnitState};
use crate::systems::Repeats;
use crate::systems::named::stop_enum;

/// What `repeat` accepts: at most 30 turns, the stop conditions below,
/// and by default `target-fled, own-fled` (a course of one unit:
/// `own-rallied, own-eliminated`).
pub const REPEATS: Repeats = Repeats {
    max_turns: 30,
    stops: Until::STOPS,
    default_until: "target-fled, own-fled; a course of one unit: own-rallied, own-eliminated",
};

stop_enum! {
    /// A stop condition `repeat.until` may name: five of the target, then
    /// the same five of the acting unit ([`Stop::of`] reads the index).
    Until {
        TargetDisordered = "target-disordered": "the target is disordered, or worse",
        TargetFellBack = "target-fell-back": "the target fell back, or worse",
        TargetFled = "target-fled": "the target fled, or was eliminated",
        TargetEliminated = "target-eliminated": "the target is eliminated",
        TargetRallied = "target-rallied": "the target is neither fleeing nor eliminated",
        OwnDisordered = "own-disordered": "our unit is disordered, or worse",
        OwnFellBack = "own-fell-back": "our unit fell back, or worse",
        OwnFled = "own-fled": "our unit fled, or was eliminated",
        OwnEliminated = "own-eliminated": "our unit is eliminated",
        OwnRallied = "own-rallied": "our unit is neither fleeing nor eliminated",
    }
}

/// The stop conditions of a course with a target that names none.
const DEFAULT_STOPS: [Until; 2] = [Until::TargetFled, Until::OwnFled];
/// The stop conditions of a course of one unit that names none.
const DEFAULT_UNIT_STOPS: [Until; 2] = [Until::OwnRallied, Until::OwnEliminated];

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
    /// What the stop condition `until` watches: its index in
    /// [`Until::ALL`] picks the unit (the first five the target) and the
    /// level.
    pub fn of(until: Until) -> Stop {
        let i = until as usize;
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
/// (indices into [`Until::ALL`], as [`read_repeat`](crate::scenario::course::read_repeat) gives
/// them); naming none stops when the target or the acting unit fled, or
/// (`has_target` false) when the unit rallied or is eliminated.
pub fn until(named: &[usize], has_target: bool) -> Vec<Stop> {
    match (named.is_empty(), has_target) {
        (false, _) => named.iter().map(|&i| Stop::of(Until::ALL[i])).collect(),
        (true, true) => DEFAULT_STOPS.map(Stop::of).to_vec(),
        (true, false) => DEFAULT_UNIT_STOPS.map(Stop::of).to_vec(),
    }
}
