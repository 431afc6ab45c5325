//! A Musket & Pike course explained: the same state machine a run
//! resolves, walked with the exact probability of every state, each roll
//! named by the step (or the triggered roll) it is, each state by what the
//! earlier rolls left on its units.

use super::*;
use crate::engine::chain::reach;
use crate::explain::walk::{self, CourseView, StepKey};
use crate::explain::{CourseExplanation, results};

fn describe(units: &[Unit], sub: &Sub) -> String {
    let name = |u: UnitIx| units[usize::from(u)].name.as_str();
    match *sub {
        Sub::Morale(u) => format!("morale check (10.6) of {}", name(u)),
        Sub::Pursuit(p, b, _, _) => {
            format!("cavalry pursuit (11.7.2) by {} of {}", name(p), name(b))
        }
        Sub::UnableToRetreat(u) => format!("unable to retreat (11.4.5) of {}", name(u)),
        Sub::LeaderCasualty(u) => {
            format!("leader casualty (5.3) of the leader with {}", name(u))
        }
    }
}

impl Course<'_> {
    fn turn_prefix(&self, s: &CourseState) -> String {
        if self.repeat.is_some() {
            format!("turn {}, ", s.turn + 1)
        } else {
            String::new()
        }
    }

    /// The notes of step `pc`'s roll that come from the course, not the
    /// procedure: which morale checks its fire results trigger.
    fn fire_triggers(&self) -> String {
        let r = &self.rules;
        let mut on = Vec::new();
        for (flag, what) in [
            (r.morale_check_on_hits, "10.6.2 at least one hit"),
            (r.morale_check_on_salvo, "10.6.3 the target of Salvo fire"),
            (
                r.morale_check_on_threshold,
                "10.6.4 casualty points reaching the Casualty Threshold (12.5)",
            ),
            (r.morale_check_on_table, "10.6.5 an MC result"),
            (
                r.morale_check_on_broken_formation_hit,
                "10.6.6 a formation hit on a unit already Formation Broken",
            ),
        ] {
            if flag {
                on.push(what);
            }
        }
        format!(
            "morale checks of the target ([rules] morale_check_on_*): {}; 10.6.2-10.6.4 together give {} ([rules] morale_checks_combined)",
            if on.is_empty() {
                "none".to_string()
            } else {
                on.join(", ")
            },
            if r.morale_checks_combined {
                "one check"
            } else {
                "one check each"
            }
        )
    }
}

impl CourseView for Course<'_> {
    type State = CourseState;
    type Proc = Step;

    fn step_of(&self, s: &CourseState, proc: &Step) -> StepKey {
        let turn = s.turn as u32;
        let pc = s.pc as u32;
        let t = self.turn_prefix(s);
        match s.pending.first() {
            Some(sub) => {
                let same = s.pending.iter().filter(|x| *x == sub).count();
                let queued = if same > 1 {
                    format!(" ({same} queued)")
                } else {
                    String::new()
                };
                let (procedure, rule) = match sub {
                    Sub::Morale(_) => ("morale-check", "10.6"),
                    Sub::Pursuit(..) => ("pursuit", "11.7.2"),
                    Sub::UnableToRetreat(_) => ("unable-to-retreat", "11.4.5"),
                    Sub::LeaderCasualty(_) => ("leader-casualty", "5.3"),
                };
                StepKey {
                    order: (turn, 2 * pc, 1000 - s.pending.len() as u32),
                    title: format!("{t}after step {pc}: {}{queued}", describe(&self.units, sub)),
                    procedure: procedure.into(),
                    rule: rule.into(),
                }
            }
            None => {
                let spec = &self.steps[s.pc as usize];
                let info = PROCEDURES
                    .iter()
                    .find(|i| i.name == spec.procedure)
                    .expect("a built step names a known procedure");
                let name = |i: Option<usize>| i.map(|i| self.units[i].name.as_str());
                let who = match (name(spec.actor), name(spec.target)) {
                    (Some(a), Some(t)) => format!(" ({a} against {t})"),
                    (Some(a), None) | (None, Some(a)) => format!(" ({a})"),
                    (None, None) => String::new(),
                };
                let _ = proc;
                StepKey {
                    order: (turn, 2 * pc + 1, 0),
                    title: format!("{t}step {}: {}{who}", pc + 1, spec.procedure),
                    procedure: spec.procedure.clone(),
                    rule: info.rule.into(),
                }
            }
        }
    }

    fn state_lines(&self, s: &CourseState) -> Vec<String> {
        let mut out = Vec::new();
        for (u, st) in self.units.iter().zip(&s.units) {
            let start = UnitState::of(u);
            if *st == start {
                continue;
            }
            let mut parts = Vec::new();
            if st.casualty_points != start.casualty_points {
                parts.push(format!(
                    "{} casualty points (was {})",
                    st.casualty_points, start.casualty_points
                ));
            }
            if st.formation != start.formation {
                parts.push(format!("formation {}", st.formation));
            }
            if st.no_formation() && st.morale != start.morale {
                parts.push(format!(
                    "no formation while Morale Broken (6.3): its formation ({}) gives no modifier and takes no hit",
                    st.formation
                ));
            }
            if st.morale != start.morale {
                parts.push(format!("morale {}", st.morale));
            }
            if st.salvo_marker != start.salvo_marker {
                parts.push("Salvo marker".into());
            }
            if st.leader != start.leader {
                parts.push(match st.leader {
                    LeaderState::With => "leader back".into(),
                    LeaderState::BackAfterTurn(t) => {
                        format!("leader replaced until the end of turn {}", t + 1)
                    }
                    LeaderState::Lost => "leader lost".into(),
                });
            }
            if st.off_map {
                parts.push("pursued off the map".into());
            }
            if st.threshold_reached != start.threshold_reached {
                parts.push("Casualty Threshold reached".into());
            }
            out.push(format!("{}: {}", u.name, parts.join(", ")));
        }
        out
    }

    fn triggered(&self, before: &CourseState, after: &CourseState) -> Vec<String> {
        let mut rest: Vec<Sub> = before.pending.iter().skip(1).copied().collect();
        let mut out = Vec::new();
        for sub in &after.pending {
            match rest.iter().position(|x| x == sub) {
                Some(i) => {
                    rest.remove(i);
                }
                None => out.push(describe(&self.units, sub)),
            }
        }
        out
    }
}

/// Explains one course: every state it reaches, each step's rolls, and
/// the course's exact outcomes.
pub fn explain_course(
    name: &str,
    side: &crate::outcome::Side,
    course: &Course,
) -> Result<CourseExplanation, InputError> {
    let r = reach(course, crate::engine::exact::DEFAULT_BUDGET)?;
    let mut steps = walk::steps(course, &r);
    let fire = course.fire_triggers();
    for s in &mut steps {
        if matches!(
            s.procedure.as_str(),
            "musketry" | "light-fire" | "artillery"
        ) {
            for c in &mut s.cases {
                c.roll.notes.push(fire.clone());
            }
        }
    }
    Ok(CourseExplanation {
        name: name.to_string(),
        own: side.own.clone(),
        enemy: side.enemy.clone(),
        steps,
        outcomes: results(Machine::space(course), &r.ends),
    })
}
