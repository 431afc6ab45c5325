//! What a Sword & Spear course of turns reads beyond its steps: the stop
//! conditions of `repeat = { turns, until, from_step }`
//! (docs/rules/sword-and-spear.md section 7).
//!
//! A melee fought until a unit routs is a `melee` step repeated by its
//! course: turn 1 is the round of the step's phase, later turns are later
//! phases of the same melee ([`super::melee::MeleeInput::later_round`]).

use crate::error::InputError;
use crate::scenario::Fields;
use crate::systems::Repeats;
use crate::systems::named::stop_enum;

/// What `repeat` accepts: at most 50 turns (the rounds the `engagement`
/// step allowed), the stop conditions (in [`Stop::ALL`] order),
/// `either-routs` when `until` names none.
pub const REPEATS: Repeats = Repeats {
    max_turns: 50,
    stops: Stop::STOPS,
    default_until: "either-routs",
};

stop_enum! {
    /// What ends a repeated course, checked at the end of every turn.
    Stop {
        EitherRouts = "either-routs":
            "a unit the repeated steps name has routed (a melee until one side routs)",
        OwnRouts = "own-routs": "our unit has routed",
        EnemyRouts = "enemy-routs": "the enemy unit has routed",
        OwnHit = "own-hit": "our unit has taken a hit in this course",
        EnemyHit = "enemy-hit": "the enemy unit has taken a hit in this course",
    }
}

impl Stop {
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
    let read = crate::scenario::course::read_repeat_as(cf, &REPEATS, Stop::EitherRouts, steps)?;
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
            let name = s.name();
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
