//! Reading a Snaphance scenario: `[rules]`, `[units.*]` and `[[course]]`.

use super::course::{CourseSpec, DEFAULT_MAX_ROUNDS, StepSpec, UNIT_KEYS, build_step};
use super::{Readings, Stand};
use crate::engine::KernelMode;
use crate::engine::alias::tabulate;
use crate::engine::chain::Chain;
use crate::error::InputError;
use crate::outcome::Side;
use crate::scenario::{Fields, course};
use crate::systems::BuiltCourses;

/// Reads the readings, the stands and the courses from a scenario's top
/// level. A single step is its own kernel; several steps, or a melee to a
/// finish, are a chain over stand states. Either way trials are drawn from
/// an alias table of the exact distribution ([`KernelMode::Auto`]) or
/// rolled die by die ([`KernelMode::Direct`]).
pub fn build(f: &mut Fields, mode: KernelMode) -> Result<BuiltCourses, InputError> {
    course::refuse_moved(f, "readings", "the `[rules]` table (same keys)")?;
    let readings = Readings::from_fields(f)?;
    let units = course::read_units(f, Stand::from_fields)?;
    let unit_names: Vec<&str> = units.iter().map(|u| u.name.as_str()).collect();
    let mut courses = Vec::new();
    let mut sides = Vec::new();
    for table in course::read_courses(f)? {
        let course::CourseTable {
            name,
            fields: mut cf,
            steps: step_tables,
        } = table;
        let (mut own, mut enemy) = course::own_enemy(&mut cf, &unit_names)?;
        cf.finish()?;
        let mut steps = Vec::new();
        for (procedure, mut sf) in step_tables {
            // Validate the step (and its unit names) once, from the start.
            build_step(&procedure, &mut sf.fresh(), &units, &readings, 1)?;
            let named = UNIT_KEYS
                .iter()
                .find(|(p, _)| *p == procedure)
                .map_or(&[][..], |(_, k)| *k);
            let idx: Vec<usize> = named
                .iter()
                .filter_map(|k| sf.peek_string(k))
                .filter_map(|n| units.iter().position(|u| u.name == n))
                .collect();
            let rounds = if procedure == "melee-to-finish" {
                sf.int("max_rounds", 1, 20)?
                    .unwrap_or(DEFAULT_MAX_ROUNDS as i64) as u8
            } else {
                1
            };
            steps.push(StepSpec {
                procedure,
                fields: sf.fresh(),
                units: idx,
                rounds,
            });
        }
        let named = own.is_some() && enemy.is_some();
        sides.push(Side::of(
            &unit_names,
            own.or(steps[0].units.first().copied()),
            enemy.or(steps[0].units.get(1).copied()),
            named,
        ));
        let single =
            steps.len() == 1 && steps[0].rounds == 1 && steps[0].procedure != "melee-to-finish";
        let kernel = if single {
            let s = &steps[0];
            tabulate(
                build_step(&s.procedure, &mut s.fields.fresh(), &units, &readings, 1)?,
                mode,
            )
        } else {
            // Key measures: by default the first step's acting stand and
            // the stand it acts on.
            own = own.or(steps[0].units.first().copied());
            enemy = enemy.or(steps[0].units.get(1).copied());
            course::check_pair(&cf, own, enemy)?;
            let spec = CourseSpec::new(readings, units.clone(), steps, own, enemy)?;
            tabulate(Chain::build(&spec)?, mode)
        };
        courses.push((name, kernel));
    }
    Ok(BuiltCourses {
        edition: None,
        courses,
        sides,
    })
}
