//! Reading a Snaphance scenario: `[readings]`, `[units.*]` and `[[course]]`.

use super::course::{CourseSpec, DEFAULT_MAX_ROUNDS, StepSpec, UNIT_KEYS, build_step};
use super::{Readings, Stand};
use crate::engine::KernelMode;
use crate::engine::alias::tabulate;
use crate::engine::chain::Chain;
use crate::error::InputError;
use crate::scenario::Fields;
use crate::systems::BuiltCourses;

/// Reads the readings, the stands and the courses from a scenario's top
/// level. A single step is its own kernel; several steps, or a melee to a
/// finish, are a chain over stand states. Either way trials are drawn from
/// an alias table of the exact distribution ([`KernelMode::Auto`]) or
/// rolled die by die ([`KernelMode::Direct`]).
pub fn build(f: &mut Fields, mode: KernelMode) -> Result<BuiltCourses, InputError> {
    let readings = Readings::from_fields(f)?;
    let unit_tables = f.named_tables("units")?.ok_or_else(|| {
        f.err(
            "units",
            "missing `[units.NAME]` tables: a scenario needs stands",
        )
    })?;
    let mut units = Vec::new();
    for (name, mut uf) in unit_tables {
        units.push(Stand::from_fields(&name, &mut uf)?);
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
    let mut courses = Vec::new();
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
        let mut own = unit_key(&mut cf, &units, "own")?;
        let mut enemy = unit_key(&mut cf, &units, "enemy")?;
        cf.finish()?;
        let mut steps = Vec::new();
        for mut sf in step_tables {
            let procedure = sf.req_string("procedure")?;
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
            if own.is_some() && own == enemy {
                return Err(cf.err(
                    "enemy",
                    "`own` and `enemy` name the same stand; the key measures need two",
                ));
            }
            let spec = CourseSpec::new(readings, units.clone(), steps, own, enemy)?;
            tabulate(Chain::build(&spec)?, mode)
        };
        courses.push((name, kernel));
    }
    Ok(BuiltCourses {
        edition: None,
        courses,
    })
}

/// Reads an optional course key naming a stand (`own`, `enemy`).
fn unit_key(
    cf: &mut Fields,
    units: &[Stand],
    key: &'static str,
) -> Result<Option<usize>, InputError> {
    match cf.string(key)? {
        None => Ok(None),
        Some(n) => match units.iter().position(|u| u.name == n) {
            Some(i) => Ok(Some(i)),
            None => {
                let names: Vec<&str> = units.iter().map(|u| u.name.as_str()).collect();
                Err(cf.locate(
                    key,
                    InputError::new(format!("no stand named \"{n}\" in [units]"))
                        .one_of(&n, &names),
                ))
            }
        },
    }
}
