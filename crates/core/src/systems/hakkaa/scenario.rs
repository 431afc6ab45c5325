//! Reading a Hakkaa Päälle scenario: `[rules]`, `[units.*]` and `[[course]]`
//! (with `repeat = { turns, until }` for engagements).

use super::course::{CourseSpec, Plan, Step, default_pair};
use super::repeat::{self, REPEATS};
use super::tq::Readings;
use super::unit::Unit;
use crate::engine::{Kernel, KernelMode};
use crate::error::InputError;
use crate::explain::walk::{self, Boxer, Made};
use crate::outcome::Side;
use crate::scenario::{Fields, course};
use crate::systems::registry::read_units;
use crate::systems::rules::RulesTable;

/// Courses built from a scenario.
pub struct Built {
    /// How TQ modifiers apply.
    pub readings: Readings,
    /// (course name, kernel), in file order.
    pub courses: Vec<(String, Box<dyn Kernel>)>,
    /// Each course's own and enemy units.
    pub sides: Vec<Side>,
}

/// [`build`] for the system registry (Hakkaa Päälle has no editions).
pub fn build_courses(
    f: &mut Fields,
    kernel: KernelMode,
) -> Result<crate::systems::BuiltCourses, InputError> {
    build(f, kernel).map(|b| (b.courses, b.sides).into())
}

/// Reads `[rules]` (`tq_modifier_mode`, `double_results`), `[units.*]` and
/// `[[course]]` from a scenario's top level.
pub fn build(f: &mut Fields, kernel: KernelMode) -> Result<Built, InputError> {
    let (readings, courses, sides) =
        read_scenario(f, |_, _, made| made.kernel(kernel, Boxer::Procedure))?;
    Ok(Built {
        readings,
        courses,
        sides,
    })
}

/// Reads the same keys as [`build`] and explains every course.
pub fn explain(f: &mut Fields) -> Result<crate::explain::Explained, InputError> {
    let (_, courses, _) = read_scenario(f, |name, side, made| match &made {
        Made::Course(c) => made.explain_with(name, side, |s| c.state_lines(s)),
        Made::Single(_) => made.explain(name, side),
    })?;
    Ok(walk::explained(courses))
}

/// The readings, each course's name and what `make` made of it, and sides.
type Read<T> = (Readings, Vec<(String, T)>, Vec<Side>);

fn read_scenario<T>(
    f: &mut Fields,
    mut make: impl FnMut(&str, &Side, Made<Step, CourseSpec>) -> Result<T, InputError>,
) -> Result<Read<T>, InputError> {
    for key in ["tq_modifier_mode", "double_results"] {
        course::refuse_moved(f, key, &format!("`{key} = ...` in the `[rules]` table"))?;
    }
    let readings = Readings::read(f)?;
    let units = read_units(&super::Hakkaa, f, Unit::from_fields)?;
    let unit_names = course::unit_names(&units);
    let (courses, sides) = course::build_courses(f, |name, mut cf, step_tables| {
        let (own, enemy) = course::own_enemy(&mut cf, &unit_names)?;
        let repeat = course::read_repeat(&mut cf, &REPEATS, step_tables.len())?;
        let mut plans = Vec::new();
        let mut fields = Vec::new();
        for (procedure, mut sf) in step_tables {
            plans.push(Plan::read(&procedure, &mut sf, &units, readings)?);
            fields.push(sf);
        }
        // The reported pair, as CourseSpec::new defaults it.
        let (first_own, first_target) = default_pair(&plans);
        let side = Side::of(
            &unit_names,
            Some(own.unwrap_or(first_own)),
            enemy.or(first_target),
            own.is_some() && enemy.is_some(),
        );
        let alone = plans.len() == 1 && repeat.is_none();
        if !alone && let Some(i) = plans.iter().position(Plan::is_single) {
            return Err(fields[i].err(
                "procedure",
                "`tq-test` and `uncontrolled` report a result and change no unit's state: give each a course of its own (one step, no `repeat`)",
            ));
        }
        // A course of one step is its procedure, except a charge (a course
        // of three parts) and fire (a course, so that its key outcomes line
        // up with the other courses'); so are `own`/`enemy` overrides.
        let as_procedure = alone
            && !plans[0].is_charge()
            && !plans[0].is_fire()
            && own.is_none()
            && enemy.is_none();
        let k = if as_procedure {
            let step = plans[0]
                .single(&units, readings)
                .map_err(|e| super::tq::relocate(&fields[0], e))?;
            make(name, &side, Made::Single(step))?
        } else {
            for (p, sf) in plans.iter().zip(&fields) {
                p.check(&units, readings, alone, sf)?;
            }
            let has_target = plans.iter().any(|p| p.units().1.is_some());
            let repeat = repeat.map(|r| course::Repeat {
                turns: r.turns,
                from_step: r.from_step,
                until: repeat::until(&r.until, has_target),
            });
            let spec = CourseSpec::new(units.clone(), plans, repeat, readings, (own, enemy))
                .map_err(|e| course::locate_course_error(&cf, e, "repeat"))?;
            make(name, &side, Made::Course(spec))
                .map_err(|e| course::locate_course_error(&cf, e, "steps"))?
        };
        cf.finish()?;
        Ok((k, side))
    })?;
    Ok((readings, courses, sides))
}
