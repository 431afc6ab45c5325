//! Hakkaa Päälle's `[[decision]]`s: each option's steps read and built as
//! a course's ([`CourseSpec`] under the decision's repeat), solved by the
//! engine's one solver ([`crate::engine::decide`]), and the units' states
//! named as the plan's features.

use super::course::{CourseSpec, Plan};
use super::repeat;
use super::tq::Readings;
use super::unit::{ELIMINATED, Unit};
use crate::engine::decide::summary::Decided;
use crate::engine::decide::{Features, OptionCourse};
use crate::error::InputError;
use crate::scenario::Fields;
use crate::scenario::course::{self, Repeat};
use crate::scenario::decision::read_decisions;
use crate::systems::registry::read_units;
use crate::systems::rules::RulesTable;

/// The status names a feature's value is put in words by (the status
/// index: steady to eliminated).
const STATUS_WORDS: [&str; ELIMINATED + 1] =
    ["steady", "disordered", "fell back", "fled", "eliminated"];

/// The features of a Hakkaa Päälle decision: the status and steps of the
/// own unit, then of the enemy.
struct UnitFeatures {
    /// (unit index, name) of the own unit, then the enemy's.
    units: Vec<(usize, String)>,
}

impl Features for UnitFeatures {
    type State = super::course::CourseState;
    fn feature_names(&self) -> Vec<String> {
        self.units
            .iter()
            .flat_map(|(_, n)| [format!("{n} status"), format!("{n} steps")])
            .collect()
    }
    fn features(&self, state: &Self::State) -> Vec<i32> {
        self.units
            .iter()
            .flat_map(|&(i, _)| {
                let u = state.units[i];
                [u.status_index() as i32, i32::from(u.steps)]
            })
            .collect()
    }
    fn feature_value(&self, feature: usize, value: i32) -> String {
        if feature.is_multiple_of(2) {
            STATUS_WORDS
                .get(value as usize)
                .map_or_else(|| value.to_string(), |w| w.to_string())
        } else {
            value.to_string()
        }
    }
}

/// Reads `[rules]`, `[units.*]` and every `[[decision]]` (the courses are
/// `run`'s) and solves each decision; `ask` seeds its Monte Carlo check and may ask for one explained.
pub fn decide(
    f: &mut Fields,
    ask: &crate::scenario::decision::DecideAsk,
) -> Result<Vec<Decided>, InputError> {
    let readings = Readings::read(f)?;
    let units = read_units(&super::Hakkaa, f, Unit::from_fields)?;
    f.has("course");
    let names = course::unit_names(&units);
    let mut out = Vec::new();
    for mut table in read_decisions(f, &repeat::REPEATS, &names)? {
        let mut options = Vec::new();
        for option in std::mem::take(&mut table.options) {
            let mut plans = Vec::new();
            for (procedure, mut sf) in option.steps {
                let plan = Plan::read(&procedure, &mut sf, &units, readings)?;
                if plan.is_single() {
                    return Err(sf.err(
                        "procedure",
                        "`tq-test` and `uncontrolled` change no unit's state: a decision's options are steps that do",
                    ));
                }
                plan.check(&units, readings, false, &sf)?;
                plans.push(plan);
            }
            let has_target = plans.iter().any(|p| p.units().1.is_some());
            let repeat = Repeat {
                turns: table.turns,
                from_step: 0,
                until: repeat::until(&table.until, has_target),
            };
            let spec = CourseSpec::new(
                units.clone(),
                plans,
                Some(repeat),
                readings,
                (Some(table.own), table.enemy),
            )
            .map_err(|e| course::locate_course_error(&table.fields, e, "repeat"))?;
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
