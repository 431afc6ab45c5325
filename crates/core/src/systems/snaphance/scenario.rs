//! Reading a Snaphance scenario: `[rules]`, `[units.*]` and `[[course]]`.

use super::course::{CourseSpec, StepSpec};
use super::repeat;
use super::step::{STEP_UNIT_KEYS, Step, build_step};
use super::{Readings, Stand};
use crate::engine::KernelMode;
use crate::error::InputError;
use crate::explain::walk::{self, Boxer, Made};
use crate::outcome::Side;
use crate::scenario::Fields;
use crate::scenario::course::{self, CoursesMade};
use crate::systems::BuiltCourses;
use crate::systems::registry::read_units;
use crate::systems::rules::RulesTable;

/// Reads the readings, the stands and the courses from a scenario's top
/// level. A single step is its own kernel; several steps, or a course with
/// `repeat`, are a chain over stand states. Either way trials are drawn from
/// an alias table of the exact distribution ([`KernelMode::Auto`]) or
/// rolled die by die ([`KernelMode::Direct`]).
pub fn build(f: &mut Fields, mode: KernelMode) -> Result<BuiltCourses, InputError> {
    read(f, |_, _, made| made.kernel(mode, Boxer::Tabulated)).map(BuiltCourses::from)
}

/// Reads the same keys as [`build`] and explains every course.
pub fn explain(f: &mut Fields) -> Result<crate::explain::Explained, InputError> {
    read(f, |name, side, made| match &made {
        Made::Course(c) => made.explain_with(name, side, |s| c.state_lines(s)),
        Made::Single(_) => made.explain(name, side),
    })
    .map(|(courses, _)| walk::explained(courses))
}

fn read<'a, T>(
    f: &mut Fields<'a>,
    mut make: impl FnMut(&str, &Side, Made<Step, CourseSpec<'a>>) -> Result<T, InputError>,
) -> Result<CoursesMade<T>, InputError> {
    course::refuse_moved(f, "readings", "the `[rules]` table (same keys)")?;
    let readings = Readings::read(f)?;
    let units = read_units(&super::Snaphance, f, Stand::from_fields)?;
    let unit_names = course::unit_names(&units);
    course::build_courses(f, |name, mut cf, step_tables| {
        let (mut own, mut enemy) = course::own_enemy(&mut cf, &unit_names)?;
        let repeat = repeat::read(&mut cf, step_tables.len())?;
        cf.finish()?;
        let mut steps = Vec::new();
        for (procedure, mut sf) in step_tables {
            if procedure != "melee-to-finish" && sf.has("max_rounds") {
                return Err(sf.err(
                    "max_rounds",
                    "unknown key `max_rounds`: a melee repeats through the course's `repeat = { turns = N, until = [\"decided\"] }`",
                ));
            }
            // Validate the step (and its unit names) once, from the start.
            build_step(&procedure, &mut sf.fresh(), &units, &readings, None)?;
            let named = STEP_UNIT_KEYS
                .iter()
                .find(|(p, _)| *p == procedure)
                .map_or(&[][..], |(_, k)| *k);
            let idx: Vec<usize> = named
                .iter()
                .filter_map(|k| course::peek_unit(&sf, k, &unit_names))
                .collect();
            steps.push(StepSpec {
                procedure,
                fields: sf.fresh(),
                units: idx,
            });
        }
        let named = own.is_some() && enemy.is_some();
        let side = Side::of(
            &unit_names,
            own.or(steps[0].units.first().copied()),
            enemy.or(steps[0].units.get(1).copied()),
            named,
        );
        let single = steps.len() == 1 && repeat.is_none();
        let kernel = if single {
            let s = &steps[0];
            make(
                name,
                &side,
                Made::Single(build_step(
                    &s.procedure,
                    &mut s.fields.fresh(),
                    &units,
                    &readings,
                    None,
                )?),
            )?
        } else {
            // Key measures: by default the first step's acting stand and
            // the stand it acts on.
            own = own.or(steps[0].units.first().copied());
            enemy = enemy.or(steps[0].units.get(1).copied());
            course::check_pair(&cf, own, enemy)?;
            let spec = CourseSpec::new(readings, units.clone(), steps, (own, enemy), repeat)
                .map_err(|e| course::locate_course_error(&cf, e, "steps"))?;
            make(name, &side, Made::Course(spec))
                .map_err(|e| course::locate_course_error(&cf, e, "steps"))?
        };
        Ok((kernel, side))
    })
}
