//! Snaphance's `[[decision]]`s: each option's steps read as a course's
//! ([`CourseSpec`] under the decision's repeat), solved by the engine's
//! one solver ([`crate::engine::decide`]), and the stands' states named as
//! the plan's features.

use super::course::{CourseSpec, CourseState, StepSpec};
use super::repeat::{REPEATS, Stop};
use super::step::{STEP_UNIT_KEYS, build_step};
use super::{Readings, Stand};
use crate::engine::decide::summary::Decided;
use crate::engine::decide::{Features, OptionCourse};
use crate::error::InputError;
use crate::scenario::Fields;
use crate::scenario::course::{self, Repeat};
use crate::scenario::decision::read_decisions;
use crate::systems::registry::read_units;
use crate::systems::rules::RulesTable;

/// The features of a Snaphance decision: each of the own stand's and the
/// enemy's SP lost, disorder and whether it is beaten.
struct StandFeatures {
    /// (unit index, name) of the own stand, then the enemy's.
    units: Vec<(usize, String)>,
}

impl Features for StandFeatures {
    type State = CourseState;
    fn feature_names(&self) -> Vec<String> {
        self.units
            .iter()
            .flat_map(|(_, n)| {
                [
                    format!("{n} SP lost"),
                    format!("{n} disordered"),
                    format!("{n} beaten"),
                ]
            })
            .collect()
    }
    fn features(&self, s: &CourseState) -> Vec<i32> {
        self.units
            .iter()
            .flat_map(|&(i, _)| {
                [
                    i32::from(s.sp_lost[i]),
                    i32::from(s.disordered[i]),
                    i32::from(s.beaten[i]),
                ]
            })
            .collect()
    }
    fn feature_value(&self, feature: usize, value: i32) -> String {
        match (feature % 3, value) {
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
    let readings = Readings::read(f)?;
    let units = read_units(&super::Snaphance, f, Stand::from_fields)?;
    f.has("course");
    let names = course::unit_names(&units);
    let mut out = Vec::new();
    for mut table in read_decisions(f, &REPEATS, &names)? {
        let until: Vec<Stop> = if table.until.is_empty() {
            vec![Stop::Decided]
        } else {
            table.until.iter().map(|&i| Stop::ALL[i]).collect()
        };
        let mut options = Vec::new();
        for option in std::mem::take(&mut table.options) {
            let mut steps = Vec::new();
            for (procedure, sf) in option.steps {
                build_step(&procedure, &mut sf.fresh(), &units, &readings, None)?;
                let named = STEP_UNIT_KEYS
                    .iter()
                    .find(|(p, _)| *p == procedure)
                    .map_or(&[][..], |(_, k)| *k);
                let idx: Vec<usize> = named
                    .iter()
                    .filter_map(|k| course::peek_unit(&sf, k, &names))
                    .collect();
                steps.push(StepSpec {
                    procedure,
                    fields: sf.fresh(),
                    units: idx,
                });
            }
            let repeat = Repeat {
                turns: table.turns,
                from_step: 0,
                until: until.clone(),
            };
            let spec = CourseSpec::new(
                readings,
                units.clone(),
                steps,
                (Some(table.own), table.enemy),
                Some(repeat),
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
        let features = StandFeatures {
            units: table.pair(&units),
        };
        out.push(table.solve_with(options.as_slice(), &features, ask)?);
    }
    Ok(out)
}
