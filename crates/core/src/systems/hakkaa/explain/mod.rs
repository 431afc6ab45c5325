//! How each Hakkaa Päälle roll is made, for `pikeshot explain`. Every roll
//! of the game is a TQ test: 2d6 on the tester's grade row, its modifiers
//! (each with its source: the card's TQ modifier line and the unit state or
//! step key that makes it apply), the row clamp (Rabble 6 to Fanatic 11)
//! or, with `tq_modifier_mode = "roll"`, the roll's table end; each result
//! (DS, S, F, DF) picks the column of the procedure's table. The rolls a
//! result leads to within the same procedure (step-loss die, commander die,
//! Receiving Casualties tests, the defender's test, reaction fire) follow
//! as [`FollowUp`](crate::explain::FollowUp)s, each saying when it is made.

mod procs;
mod roll;
pub mod why;

pub use why::{TQ_MODIFIERS_RULE, Tested, Why, fp_lines, terms};

use super::course::{CourseSpec, CourseState, Step};
use super::unit::Status;
use crate::explain::{Explain, Roll};

impl Explain for Step {
    fn roll(&self) -> Roll {
        match self {
            Step::Tq(p) => procs::tq_test(p),
            Step::Fire(p) => procs::fire(p),
            Step::Closing(p) => procs::closing(p),
            Step::Reaction(p) => procs::reaction(p),
            Step::CloseCombat(p) => procs::close_combat(p),
            Step::Fleeing(p) => procs::fleeing(p),
            Step::Uncontrolled(p) => procs::uncontrolled(p),
            Step::Skip(s) => Roll::new("no dice", &format!("no roll: {}", s.why()), "", Vec::new()),
        }
    }
}

impl CourseSpec {
    /// What the earlier steps left on the units in `s`, one line per unit
    /// that differs from the scenario: status, steps, commander.
    pub fn state_lines(&self, s: &CourseState) -> Vec<String> {
        let mut out = Vec::new();
        for (u, now) in self.units.iter().zip(&s.units) {
            let was = &u.state;
            if now == was {
                continue;
            }
            let mut parts = Vec::new();
            if now.eliminated() {
                parts.push("eliminated".to_string());
            } else if now.status != was.status {
                parts.push(match now.status {
                    Status::Steady => "steady (rallied)".into(),
                    st => format!("{st} (was {})", was.status),
                });
            }
            if now.steps != was.steps && !now.eliminated() {
                parts.push(format!("{} steps (was {})", now.steps, was.steps));
            }
            if now.commander != was.commander {
                parts.push(if now.commander {
                    "commander attached".into()
                } else {
                    "commander injured".into()
                });
            }
            out.push(format!("{}: {}", u.name, parts.join(", ")));
        }
        out
    }
}
