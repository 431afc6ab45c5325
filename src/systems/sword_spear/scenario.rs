//! Reading a Sword & Spear scenario: `[units.*]` and `[[course]]`.

use super::course::{CourseSpec, StepSpec, UNIT_KEYS, build_step};
use super::unit::Unit;
use crate::engine::chain::Chain;
use crate::engine::{Kernel, KernelMode, prepare};
use crate::error::InputError;
use crate::scenario::Fields;
use crate::systems::BuiltCourses;

/// Reads `[units.*]` and `[[course]]` from a scenario's top level and builds
/// every course: a single step as its procedure, several as a chain.
pub fn build(f: &mut Fields, mode: KernelMode) -> Result<BuiltCourses, InputError> {
    let unit_tables = f.named_tables("units")?.ok_or_else(|| {
        f.err(
            "units",
            "missing `[units.NAME]` tables: a scenario needs units",
        )
    })?;
    let mut units = Vec::new();
    for (name, mut uf) in unit_tables {
        units.push(Unit::from_fields(&name, &mut uf)?);
        uf.finish()?;
    }
    let course_tables = f.table_list("course")?.ok_or_else(|| {
        f.err(
            "course",
            "missing `[[course]]`: a scenario needs at least one course of action",
        )
    })?;
    if course_tables.is_empty() {
        return Err(f.err("course", "a scenario needs at least one `[[course]]`"));
    }
    let mut courses: Vec<(String, Box<dyn Kernel>)> = Vec::new();
    for mut cf in course_tables {
        let name = cf.req_string("name")?;
        if courses.iter().any(|(n, _)| *n == name) {
            return Err(cf.err(
                "name",
                format!("two courses are named \"{name}\"; course names must differ"),
            ));
        }
        let step_tables = cf
            .table_list("steps")?
            .ok_or_else(|| cf.err("steps", "missing `steps = [{ procedure = ... }, ...]`"))?;
        if step_tables.is_empty() {
            return Err(cf.err("steps", "a course needs at least one step"));
        }
        let own = unit_key(&mut cf, &units, "own")?;
        let enemy = unit_key(&mut cf, &units, "enemy")?;
        if own.is_some() && own == enemy {
            return Err(cf.err("enemy", "`own` and `enemy` must be different units"));
        }
        cf.finish()?;
        let mut steps = Vec::new();
        for mut sf in step_tables {
            let procedure = sf.req_string("procedure")?;
            let (mut actor, mut target) = (None, None);
            if let Some((_, a, t)) = UNIT_KEYS.iter().find(|(p, _, _)| *p == procedure) {
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
            prepare(
                build_step(&s.procedure, &mut s.fields.fresh(), &units)?,
                mode,
            )
        } else {
            let spec = CourseSpec::new(units.clone(), steps, own, enemy)?;
            prepare(Chain::build(&spec)?, mode)
        };
        courses.push((name, kernel));
    }
    Ok(BuiltCourses {
        edition: None,
        courses,
    })
}

/// Reads a course key naming a unit (`own`, `enemy`).
fn unit_key(
    cf: &mut Fields,
    units: &[Unit],
    key: &'static str,
) -> Result<Option<usize>, InputError> {
    let Some(n) = cf.string(key)? else {
        return Ok(None);
    };
    match units.iter().position(|u| u.name == n) {
        Some(i) => Ok(Some(i)),
        None => {
            let names: Vec<&str> = units.iter().map(|u| u.name.as_str()).collect();
            Err(cf.locate(
                key,
                InputError::new(format!("no unit named \"{n}\" in [units]")).one_of(&n, &names),
            ))
        }
    }
}
