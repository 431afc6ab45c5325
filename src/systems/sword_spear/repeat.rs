//! What a Sword & Spear course of turns reads beyond its steps: the stop
//! conditions of `repeat = { turns, until, from_step }`
//! (docs/rules/sword-and-spear.md section 7).
//!
//! A melee fought until a unit routs is a `melee` step repeated by its
//! course: turn 1 is the round of the step's phase, later turns are later
//! phases of the same melee ([`super::melee::MeleeInput::later_round`]).

use crate::error::InputError;
use crate::scenario::Fields;
use crate::systems::{Repeats, StopInfo};

/// What `repeat` accepts: at most 50 turns (the rounds the `engagement`
/// step allowed), the stop conditions (in [`Stop::ALL`] order),
/// `either-routs` when `until` names none.
pub const REPEATS: Repeats = Repeats {
    max_turns: 50,
    stops: STOPS,
    default_until: "either-routs",
};

/// What ends a repeated course, checked at the end of every turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A unit the repeated steps name has routed.
    EitherRouts,
    /// The own unit has routed.
    OwnRouts,
    /// The enemy unit has routed.
    EnemyRouts,
    /// The own unit has taken a hit in the course.
    OwnHit,
    /// The enemy unit has taken a hit in the course.
    EnemyHit,
}

impl Stop {
    /// Every stop condition, in [`REPEATS`] order.
    pub const ALL: [Stop; 5] = [
        Stop::EitherRouts,
        Stop::OwnRouts,
        Stop::EnemyRouts,
        Stop::OwnHit,
        Stop::EnemyHit,
    ];

    /// Whether the condition needs the course's own (`Some(true)`) or
    /// enemy (`Some(false)`) unit.
    pub fn needs(self) -> Option<bool> {
        match self {
            Stop::EitherRouts => None,
            Stop::OwnRouts | Stop::OwnHit => Some(true),
            Stop::EnemyRouts | Stop::EnemyHit => Some(false),
        }
    }
}

/// What each stop condition of `repeat.until` means, in [`Stop::ALL`] order.
const STOPS: &[StopInfo] = &[
    StopInfo::new(
        "either-routs",
        "a unit the repeated steps name has routed (a melee until one side routs)",
    ),
    StopInfo::new("own-routs", "our unit has routed"),
    StopInfo::new("enemy-routs", "the enemy unit has routed"),
    StopInfo::new("own-hit", "our unit has taken a hit in this course"),
    StopInfo::new("enemy-hit", "the enemy unit has taken a hit in this course"),
];

/// A course's repeat: its turns, the first step that repeats, and what
/// ends it (`either-routs` when `until` names nothing).
pub type Repeat = crate::scenario::course::Repeat<Stop>;

/// Reads a course's optional `repeat` (of a course of `steps` steps), with
/// `own` and `enemy` the units its key measures are about: a stop condition
/// naming a unit the course does not have is refused.
pub fn read(
    cf: &mut Fields,
    steps: usize,
    own: Option<usize>,
    enemy: Option<usize>,
) -> Result<Option<Repeat>, InputError> {
    let read = crate::scenario::course::read_repeat_as(
        cf,
        &REPEATS,
        &Stop::ALL,
        Stop::EitherRouts,
        steps,
    )?;
    let Some(r) = read else {
        return Ok(None);
    };
    for s in &r.until {
        let missing = match s.needs() {
            Some(true) => own.is_none(),
            Some(false) => enemy.is_none(),
            None => false,
        };
        if missing {
            let name = STOPS[Stop::ALL.iter().position(|x| x == s).unwrap_or(0)].name;
            return Err(cf.err(
                "repeat",
                format!(
                    "`until` names \"{name}\" but the course has no {} unit; name it with `{}` on the course",
                    if s.needs() == Some(true) { "own" } else { "enemy" },
                    if s.needs() == Some(true) { "own" } else { "enemy" },
                ),
            ));
        }
    }
    Ok(Some(r))
}
