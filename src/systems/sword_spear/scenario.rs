//! Reading a Sword & Spear scenario: `[units.*]` and `[[course]]`.

use super::course::{CourseSpec, STEP_UNIT_KEYS, StepSpec, build_step};
use super::unit::Unit;
use crate::engine::chain::Chain;
use crate::engine::{Kernel, KernelMode, ProcedureKernel};
use crate::error::InputError;
use crate::outcome::Side;
use crate::scenario::{Fields, course};
use crate::systems::BuiltCourses;

/// Reads `[units.*]` and `[[course]]` from a scenario's top level and builds
/// every course: a single step as its procedure, several as a chain.
pub fn build(f: &mut Fields, mode: KernelMode) -> Result<BuiltCourses, InputError> {
    let units = course::read_units(f, Unit::from_fields)?;
    let unit_names: Vec<&str> = units.iter().map(|u| u.name.as_str()).collect();
    let mut courses: Vec<(String, Box<dyn Kernel>)> = Vec::new();
    let mut sides = Vec::new();
    for table in course::read_courses(f)? {
        let course::CourseTable {
            name,
            fields: mut cf,
            steps: step_tables,
        } = table;
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
        let kernel = if steps.len() == 1 && steps[0].target.is_none() {
            let s = &steps[0];
            ProcedureKernel::boxed(
                build_step(&s.procedure, &mut s.fields.fresh(), &units)?,
                mode,
            )
        } else {
            let spec = CourseSpec::new(units.clone(), steps, own, enemy)?;
            ProcedureKernel::boxed(Chain::build(&spec)?, mode)
        };
        sides.push(Side::of(&unit_names, own, enemy, named));
        courses.push((name, kernel));
    }
    Ok(BuiltCourses {
        edition: None,
        courses,
        sides,
    })
}
