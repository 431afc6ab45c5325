//! Reading a Sword & Spear scenario: `[units.*]` and `[[course]]`.

use super::course::{CourseSpec, STEP_UNIT_KEYS, Step, StepSpec, build_step};
use super::unit::Unit;
use crate::engine::chain::Chain;
use crate::engine::{Kernel, KernelMode, ProcedureKernel};
use crate::error::InputError;
use crate::explain::walk::{self, Made};
use crate::outcome::Side;
use crate::scenario::{Fields, course};
use crate::systems::BuiltCourses;

/// Reads `[units.*]` and `[[course]]` from a scenario's top level and builds
/// every course: a single step as its procedure, several as a chain.
pub fn build(f: &mut Fields, mode: KernelMode) -> Result<BuiltCourses, InputError> {
    let (courses, sides) = read(f, |_, _, made| -> Result<Box<dyn Kernel>, InputError> {
        Ok(match made {
            Made::Single(s) => ProcedureKernel::boxed(s, mode),
            Made::Course(spec) => ProcedureKernel::boxed(Chain::build(&spec)?, mode),
        })
    })?;
    Ok(BuiltCourses {
        edition: None,
        courses,
        sides,
    })
}

/// Reads the same keys as [`build`] and explains every course.
pub fn explain(f: &mut Fields) -> Result<crate::explain::Explained, InputError> {
    let (courses, _) = read(f, |name, side, made| made.explain(name, side))?;
    Ok(walk::explained(courses))
}

/// Course name, sides, and what `make` made of each course.
type Read<T> = (Vec<(String, T)>, Vec<Side>);

fn read<'a, T>(
    f: &mut Fields<'a>,
    mut make: impl FnMut(&str, &Side, Made<Step, CourseSpec<'a>>) -> Result<T, InputError>,
) -> Result<Read<T>, InputError> {
    let units = course::read_units(f, Unit::from_fields)?;
    let unit_names: Vec<&str> = units.iter().map(|u| u.name.as_str()).collect();
    let (courses, sides) = course::build_courses(f, |name, mut cf, step_tables| {
        let (own, enemy) = course::own_enemy(&mut cf, &unit_names)?;
        cf.finish()?;
        let mut steps = Vec::new();
        for (procedure, sf) in step_tables {
            let (mut actor, mut target) = (None, None);
            if let Some((_, a, t)) = STEP_UNIT_KEYS.iter().find(|(p, _, _)| *p == procedure) {
                let names: Vec<&str> = units.iter().map(|u| u.name.as_str()).collect();
                let index = |k: &str| {
                    let n = sf.peek_string(k)?;
                    names.iter().position(|u| *u == n)
                };
                actor = index(a);
                target = match t {
                    Some(t) => index(t),
                    None => None,
                };
            }
            steps.push(StepSpec {
                procedure,
                fields: sf,
                actor,
                target,
            });
        }
        // Key outcomes (docs/rules/sword-and-spear.md): the first step's unit
        // and the first other unit a step acts upon, unless named.
        let named = own.is_some() && enemy.is_some();
        let own = own.or(steps[0].actor);
        let enemy = enemy.or_else(|| {
            steps
                .iter()
                .flat_map(|s| [s.target, s.actor])
                .flatten()
                .find(|&u| Some(u) != own)
        });
        let side = Side::of(&unit_names, own, enemy, named);
        let kernel = if steps.len() == 1 && steps[0].target.is_none() {
            let s = &steps[0];
            let step = build_step(&s.procedure, &mut s.fields.fresh(), &units)?;
            make(name, &side, Made::Single(step))?
        } else {
            let spec = CourseSpec::new(units.clone(), steps, own, enemy)
                .map_err(|e| course::locate_course_error(&cf, e, "steps"))?;
            make(name, &side, Made::Course(spec))
                .map_err(|e| course::locate_course_error(&cf, e, "steps"))?
        };
        Ok((kernel, side))
    })?;
    Ok((courses, sides))
}
