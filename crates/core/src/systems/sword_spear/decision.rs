//! Sword & Spear's `[[decision]]`s: each option's steps read as a course's
//! ([`CourseSpec`] under the decision's repeat), solved by the engine's
//! one solver ([`crate::engine::decide`]), and the units' states named as
//! the plan's features.

use super::course::{CourseSpec, CourseState, StepSpec};
use super::readings::Readings;
use super::repeat::{self, REPEATS, Repeat, Stop};
use super::step::STEP_UNIT_KEYS;
use super::unit::Unit;
use crate::engine::decide::summary::Decided;
use crate::engine::decide::{Features, OptionCourse};
use crate::error::InputError;
use crate::scenario::Fields;
use crate::scenario::course;
use crate::scenario::decision::read_decisions;
use crate::systems::registry::read_units;
use crate::systems::rules::RulesTable;

/// The features of a Sword & Spear decision: the own unit's and the
/// enemy's hits, and whether each has routed.
struct UnitFeatures {
    /// (unit index, name) of the own unit, then the enemy's.
    units: Vec<(usize, String)>,
}

impl Features for UnitFeatures {
    type State = CourseState;
    fn feature_names(&self) -> Vec<String> {
        self.units
            .iter()
            .flat_map(|(_, n)| [format!("{n} hits"), format!("{n} routed")])
            .collect()
    }
    fn features(&self, s: &CourseState) -> Vec<i32> {
        self.units
            .iter()
            .flat_map(|&(i, _)| {
                let u = &s.units()[i];
                [i32::from(u.hits), i32::from(u.routed)]
            })
            .collect()
    }
    fn feature_value(&self, feature: usize, value: i32) -> String {
        match (feature % 2, value) {
            (0, v) => v.to_string(),
            (_, 0) => "no".into(),
            _ => "yes".into(),
        }
    }
}

/// Reads `[rules]`, `[units.*]` and every `[[decision]]` (the courses are
/// `run`'s) and solves each decision; `ask` seeds its Monte Carlo check and may ask for one explained.
pub fn decide(
    f: &mut Fields,
    ask: &crate::scenario::decision::DecideAsk,
) -> Result<Vec<Decided>, InputError> {
    let rules = Readings::read(f)?;
    let units = read_units(&super::SwordSpear, f, Unit::from_fields)?;
    f.has("course");
    let names = course::unit_names(&units);
    let mut out = Vec::new();
    for mut table in read_decisions(f, &REPEATS, &names)? {
        let until: Vec<Stop> = if table.until.is_empty() {
            vec![Stop::EitherRouts]
        } else {
            table.until.iter().map(|&i| Stop::ALL[i]).collect()
        };
        if until.iter().any(|s| s.needs() == Some(false)) && table.enemy.is_none() {
            return Err(table.fields.err(
                "repeat",
                "`until` names an enemy's stop condition but the decision names no `enemy`",
            ));
        }
        let mut options = Vec::new();
        for option in std::mem::take(&mut table.options) {
            let mut steps = Vec::new();
            for (procedure, sf) in option.steps {
                let (mut actor, mut target) = (None, None);
                if let Some((_, a, t)) = STEP_UNIT_KEYS.iter().find(|(p, _, _)| *p == procedure) {
                    actor = course::peek_unit(&sf, a, &names);
                    target = t.and_then(|t| course::peek_unit(&sf, t, &names));
                }
                steps.push(StepSpec {
                    procedure,
                    fields: sf,
                    actor,
                    target,
                });
            }
            let repeat: Repeat = repeat::Repeat {
                turns: table.turns,
                from_step: 0,
                until: until.clone(),
            };
            let spec = CourseSpec::new(
                units.clone(),
                steps,
                (Some(table.own), table.enemy),
                Some(repeat),
                rules,
            )
            .map_err(|e| course::locate_course_error(&table.fields, e, "option"))?;
            let stages = spec.staged().len();
            let per_turn = stages / usize::from(table.turns);
            options.push(OptionCourse {
                name: option.name,
                spec,
                per_turn,
                stages,
            });
        }
        let features = UnitFeatures {
            units: table.pair(&units),
        };
        out.push(table.solve_with(options.as_slice(), &features, ask)?);
    }
    Ok(out)
}
