//! What a Snaphance course of turns reads beyond its steps: the stop
//! conditions of `repeat = { turns, until, from_step }`
//! (docs/rules/snaphance.md).
//!
//! A melee fought to a finish is a `melee` step repeated by its course:
//! turn `t` is its round `t` (the charge in the first only).

use crate::error::InputError;
use crate::scenario::{Fields, course};
use crate::systems::Repeats;
use crate::systems::named::stop_enum;

stop_enum! {
    /// What ends a repeated course, checked at the end of every turn.
    Stop {
        Decided = "decided":
            "the last melee fought was decided: a stand beaten or destroyed (10.0)",
        OwnBeaten = "own-beaten": "our stand is beaten in a melee, or destroyed",
        EnemyBeaten = "enemy-beaten": "the enemy stand is beaten in a melee, or destroyed",
        OwnDestroyed = "own-destroyed": "our stand is destroyed",
        EnemyDestroyed = "enemy-destroyed": "the enemy stand is destroyed",
    }
}

/// What `repeat` accepts: at most 20 turns (the rounds `melee-to-finish`
/// allowed), the stop conditions (in [`Stop::ALL`] order), `decided` when
/// `until` names none.
pub const REPEATS: Repeats = Repeats {
    max_turns: 20,
    stops: Stop::STOPS,
    default_until: "decided (a course without a melee runs all its turns)",
};

/// A course's repeat: its turns, the first step that repeats, and what
/// ends it (the default `decided`).
pub type Repeat = course::Repeat<Stop>;

/// Reads a course's optional `repeat` (of a course of `steps` steps);
/// `until` is `decided` when it names nothing (docs/rules/snaphance.md).
pub fn read(cf: &mut Fields, steps: usize) -> Result<Option<Repeat>, InputError> {
    course::read_repeat_as(cf, &REPEATS, Stop::Decided, steps)
}
