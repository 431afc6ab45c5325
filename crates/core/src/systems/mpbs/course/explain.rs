//! A Musket & Pike course explained: the same state machine a run
//! resolves, walked with the exact probability of every state, each roll
//! named by the step (or the triggered roll) it is, each state by what the
//! earlier rolls left on its units.

use super::*;
use crate::engine::chain::reach_chain;
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
        if self.input.repeat.is_some() {
            format!("turn {}, ", s.turn + 1)
        } else {
            String::new()
        }
    }

    /// Why the fire that led from `before` to `after` queued `n` morale
    /// checks (10.6) of unit `u`: the sub-rules that hold, read off the
    /// states (hits taken, a Salvo marker placed, the Casualty Threshold
    /// reached); checks beyond those come from an MC result or a formation
    /// hit on a Formation Broken unit.
    fn morale_reasons(
        &self,
        before: &CourseState,
        after: &CourseState,
        u: usize,
        n: usize,
    ) -> String {
        let r = &self.input.rules;
        let (b, a) = (&before.units[u], &after.units[u]);
        let salvo = before
            .units
            .iter()
            .zip(&after.units)
            .any(|(x, y)| !x.salvo_marker && y.salvo_marker);
        let mut why: Vec<&str> = Vec::new();
        if r.morale_check_on_hits && a.casualty_points > b.casualty_points {
            why.push("10.6.2 at least one hit");
        }
        if r.morale_check_on_salvo && salvo {
            why.push("10.6.3 the target of Salvo fire");
        }
        if r.morale_check_on_threshold && a.threshold_reached && !b.threshold_reached {
            why.push("10.6.4 casualty points reach the Casualty Threshold (12.5)");
        }
        let ordinary = if r.morale_checks_combined {
            why.len().min(1)
        } else {
            why.len()
        };
        let mut text = why.join(", ");
        if r.morale_checks_combined && why.len() > 1 {
            text.push_str(": one check for them all ([rules] morale_checks_combined)");
        }
        let mut more: Vec<&str> = Vec::new();
        if r.morale_check_on_table {
            more.push("10.6.5 an MC result");
        }
        if r.morale_check_on_broken_formation_hit && b.formation == Formation::Broken {
            more.push("10.6.6 a formation hit on a unit already Formation Broken");
        }
        let extra = n.saturating_sub(ordinary);
        if extra > 0 && !more.is_empty() {
            let m = if extra >= more.len() {
                more.join(", ")
            } else {
                more.join(" or ")
            };
            text = if text.is_empty() {
                m
            } else {
                format!("{text}; and {m}")
            };
        }
        text
    }

    /// The morale-check readings switched off in `[rules]`, if any: the
    /// fire results they would have checked do not trigger.
    fn morale_checks_off(&self) -> Option<String> {
        let r = &self.input.rules;
        let off: Vec<&str> = [
            (r.morale_check_on_hits, "10.6.2 (morale_check_on_hits)"),
            (r.morale_check_on_salvo, "10.6.3 (morale_check_on_salvo)"),
            (
                r.morale_check_on_threshold,
                "10.6.4 (morale_check_on_threshold)",
            ),
            (r.morale_check_on_table, "10.6.5 (morale_check_on_table)"),
            (
                r.morale_check_on_broken_formation_hit,
                "10.6.6 (morale_check_on_broken_formation_hit)",
            ),
        ]
        .into_iter()
        .filter(|(on, _)| !on)
        .map(|(_, w)| w)
        .collect();
        (!off.is_empty()).then(|| {
            format!(
                "no morale check from {}: switched off in [rules]",
                off.join(", ")
            )
        })
    }
}

impl CourseView for Course<'_> {
    type State = CourseState;
    type Proc = Shared<Step>;

    fn step_of(&self, s: &CourseState, proc: &Shared<Step>) -> StepKey {
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
                    title: format!(
                        "{t}after step {pc}: {}{queued}",
                        describe(&self.input.units, sub)
                    ),
                    procedure: procedure.into(),
                    rule: rule.into(),
                }
            }
            None => {
                let spec = &self.input.steps[s.pc as usize];
                let info = PROCEDURES
                    .iter()
                    .find(|i| i.name == spec.procedure)
                    .expect("a built step names a known procedure");
                let units = &self.input.units;
                let acting: Vec<&str> = spec.acting().map(|i| units[i].name.as_str()).collect();
                let acting = (!acting.is_empty()).then(|| acting.join(" and "));
                let who = match (
                    acting.as_deref(),
                    spec.target.map(|i| units[i].name.as_str()),
                ) {
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

    fn roll_id(&self, proc: &Shared<Step>) -> Option<usize> {
        Some(proc.id())
    }

    fn state_lines(&self, s: &CourseState) -> Vec<String> {
        let mut out = Vec::new();
        for (u, st) in self.input.units.iter().zip(&s.units) {
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
        let mut new: Vec<Sub> = Vec::new();
        for sub in &after.pending {
            match rest.iter().position(|x| x == sub) {
                Some(i) => {
                    rest.remove(i);
                }
                None => new.push(*sub),
            }
        }
        new.iter()
            .map(|sub| match *sub {
                Sub::Morale(u) => {
                    let n = new.iter().filter(|x| **x == *sub).count();
                    let why = self.morale_reasons(before, after, usize::from(u), n);
                    if why.is_empty() {
                        describe(&self.input.units, sub)
                    } else {
                        format!("{}: {why}", describe(&self.input.units, sub))
                    }
                }
                _ => describe(&self.input.units, sub),
            })
            .collect()
    }
}

/// Explains one course: every state it reaches, each step's rolls, and
/// the course's exact outcomes, from the chain [`settle_course`] built
/// and the states of its nodes.
pub fn explain_course(
    name: &str,
    side: &crate::outcome::Side,
    course: &Course,
    chain: Chain<Shared<Step>>,
    states: Vec<CourseState>,
) -> Result<CourseExplanation, InputError> {
    let r = reach_chain(chain, states, crate::engine::exact::DEFAULT_BUDGET)?;
    let mut steps = walk::steps(course, &r);
    if let Some(off) = course.morale_checks_off() {
        for s in &mut steps {
            if matches!(
                s.procedure.as_str(),
                "musketry" | "light-fire" | "artillery"
            ) {
                for c in &mut s.cases {
                    c.roll.notes.push(off.clone());
                }
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
