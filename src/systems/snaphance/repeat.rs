//! What a Snaphance course of turns reads beyond its steps: the stop
//! conditions of `repeat = { turns, until, from_step }`
//! (docs/rules/snaphance.md).
//!
//! A melee fought to a finish is a `melee` step repeated by its course:
//! turn `t` is its round `t` (the charge in the first only).

use crate::error::InputError;
use crate::scenario::{Fields, course};
use crate::systems::{Repeats, StopInfo};

/// What ends a repeated course, checked at the end of every turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The last melee fought was decided: a stand beaten or destroyed.
    Decided,
    /// The own stand is beaten in a melee, or destroyed.
    OwnBeaten,
    /// The enemy stand is beaten in a melee, or destroyed.
    EnemyBeaten,
    /// The own stand is destroyed.
    OwnDestroyed,
    /// The enemy stand is destroyed.
    EnemyDestroyed,
}

impl Stop {
    /// Every stop condition, in [`REPEATS`] order.
    pub const ALL: [Stop; 5] = [
        Stop::Decided,
        Stop::OwnBeaten,
        Stop::EnemyBeaten,
        Stop::OwnDestroyed,
        Stop::EnemyDestroyed,
    ];
}

/// What `repeat` accepts: at most 20 turns (the rounds `melee-to-finish`
/// allowed), the stop conditions (in [`Stop::ALL`] order), `decided` when
/// `until` names none.
pub const REPEATS: Repeats = Repeats {
    max_turns: 20,
    stops: &STOPS,
    default_until: "decided (a course without a melee runs all its turns)",
};

/// What each stop condition of `repeat.until` means, in [`Stop::ALL`] order.
const STOPS: [StopInfo; 5] = [
    StopInfo::new(
        "decided",
        "the last melee fought was decided: a stand beaten or destroyed (10.0)",
    ),
    StopInfo::new("own-beaten", "our stand is beaten in a melee, or destroyed"),
    StopInfo::new(
        "enemy-beaten",
        "the enemy stand is beaten in a melee, or destroyed",
    ),
    StopInfo::new("own-destroyed", "our stand is destroyed"),
    StopInfo::new("enemy-destroyed", "the enemy stand is destroyed"),
];

/// A course's repeat: its turns, the first step that repeats, and what
/// ends it (the default `decided`).
pub type Repeat = course::Repeat<Stop>;

/// Reads a course's optional `repeat` (of a course of `steps` steps);
/// `until` is `decided` when it names nothing (docs/rules/snaphance.md).
pub fn read(cf: &mut Fields, steps: usize) -> Result<Option<Repeat>, InputError> {
    course::read_repeat_as(cf, &REPEATS, &Stop::ALL, Stop::Decided, steps)
}
