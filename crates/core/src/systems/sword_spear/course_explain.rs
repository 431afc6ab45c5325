//! A Sword & Spear course explained: the same chain a run resolves, walked
//! with the exact probability of every state; each roll named by its step
//! (and turn, for a repeated course: a repeated melee's later rounds), each
//! state by what the earlier rolls left on the units (hits, routs, dead
//! commanders, a pending activation bonus, "shot this phase"), and each
//! result by what it sets going next (another round of the melee, a bonus
//! carried, a commander's −1 gone).

use super::course::{CourseSpec, CourseState};
use super::explain::poss;
use super::step::{PROCEDURES, Step};
use crate::engine::chain::Machine;
use crate::engine::exact::DEFAULT_BUDGET;
use crate::engine::stages::{Stage, reach_stages};
use crate::error::InputError;
use crate::explain::walk::{self, CourseView, Made, StepKey};
use crate::explain::{CourseExplanation, results};
use crate::outcome::Side;

/// Explains a course as the scenario reader made it.
pub fn explain(
    name: &str,
    side: &Side,
    made: &Made<Step, CourseSpec>,
) -> Result<CourseExplanation, InputError> {
    match made {
        Made::Single(s) => walk::explain_single(name, side, s),
        Made::Course(c) => {
            let r = reach_stages(c, DEFAULT_BUDGET)?;
            Ok(CourseExplanation {
                name: name.to_string(),
                own: side.own.clone(),
                enemy: side.enemy.clone(),
                steps: walk::steps(&View(c), &r),
                outcomes: results(c.space(), &r.ends),
            })
        }
    }
}

struct View<'a, 'b>(&'a CourseSpec<'b>);

impl View<'_, '_> {
    fn name(&self, u: usize) -> &str {
        &self.0.units()[u].name
    }
    /// "knights against spears", "archers at men-at-arms", or "guard".
    fn who(&self, step: usize) -> String {
        let (p, a, t) = self.0.step_units(step);
        let n = |u: Option<usize>| u.map_or("?", |u| self.name(u));
        match (a, t) {
            (Some(_), Some(_)) if p == "shooting" => format!("{} at {}", n(a), n(t)),
            (Some(_), Some(_)) => format!("{} against {}", n(a), n(t)),
            _ => n(a).to_string(),
        }
    }
}

impl CourseView for View<'_, '_> {
    type State = (usize, CourseState);
    type Proc = Step;

    fn step_of(&self, state: &(usize, CourseState), _proc: &Step) -> StepKey {
        let staged = self.0.staged();
        let Stage { step, turn } = staged.stage(state.0);
        let (procedure, _, _) = self.0.step_units(step);
        let repeats = staged.repeats(step);
        let mut title = if repeats {
            format!("turn {turn}, step {}: {procedure}", step + 1)
        } else {
            format!("step {}: {procedure}", step + 1)
        };
        if repeats && procedure == "melee" {
            title.push_str(&if turn == 1 {
                " round 1".to_string()
            } else {
                format!(" round {turn} (a later round)")
            });
        }
        title.push_str(&format!(" ({})", self.who(step)));
        StepKey {
            order: (state.0 as u32, 0, 0),
            title,
            procedure: procedure.to_string(),
            rule: PROCEDURES
                .iter()
                .find(|p| p.name == procedure)
                .map_or("", |p| p.rule)
                .to_string(),
        }
    }

    fn state_lines(&self, state: &(usize, CourseState)) -> Vec<String> {
        let mut out = Vec::new();
        for (u, (s, unit)) in state.1.units().iter().zip(self.0.units()).enumerate() {
            let mut parts = Vec::new();
            if s.hits != unit.hits {
                parts.push(format!("{} hits (was {})", s.hits, unit.hits));
            }
            if s.routed {
                parts.push("routed".into());
            }
            if unit.commander.is_some() && !s.commander {
                parts.push("its commander killed (its −1 Discipline gone)".into());
            }
            if s.bonus > 0 {
                parts.push(format!("bonus {} left by its activation", s.bonus));
            }
            if s.shot {
                parts.push("has shot this phase".into());
            }
            if !parts.is_empty() {
                out.push(format!("{}: {}", self.name(u), parts.join(", ")));
            }
        }
        out
    }

    fn triggered(
        &self,
        before: &(usize, CourseState),
        after: &(usize, CourseState),
    ) -> Vec<String> {
        let mut out = Vec::new();
        let staged = self.0.staged();
        let turn = staged.stage(before.0).turn;
        let Stage {
            step: next_step,
            turn: next_turn,
        } = staged.stage(after.0);
        let (next_proc, _, _) = self.0.step_units(next_step);
        if next_turn > turn {
            let r = staged.repeat().expect("a later turn repeats");
            out.push(if next_proc == "melee" {
                format!(
                    "round {next_turn} of the melee ({}): no stop condition met (repeat.until), a later round with {} ([rules] later_rounds_impetus = {})",
                    self.who(next_step),
                    if self.0.readings().later_rounds_impetus {
                        "impetus by the card's conditions"
                    } else {
                        "no impetus"
                    },
                    self.0.readings().later_rounds_impetus
                )
            } else {
                format!(
                    "turn {next_turn} of the repeat (step {}: {next_proc}): no stop condition met (repeat.until = {} condition{})",
                    next_step + 1,
                    r.until.len(),
                    if r.until.len() == 1 { "" } else { "s" }
                )
            });
        }
        for (u, (b, a)) in before.1.units().iter().zip(after.1.units()).enumerate() {
            if b.commander && !a.commander {
                out.push(format!(
                    "{} commander killed: its −1 Discipline is gone in later rolls",
                    poss(self.name(u))
                ));
            }
            if a.bonus > b.bonus {
                out.push(format!(
                    "{} bonus {} carried to its next shooting or melee",
                    poss(self.name(u)),
                    a.bonus
                ));
            }
            if a.shot && !b.shot {
                out.push(format!(
                    "{} has shot this phase: a missile unit has no impetus in this turn's melee",
                    self.name(u)
                ));
            }
        }
        out
    }
}
