//! Reading a Musket & Pike scenario: edition, rules switches, units and
//! courses (with engagements).

use super::course::{CourseRules, Repeat, StepSpec, Stop, compile};
use super::{Edition, Unit};
use crate::engine::{Kernel, KernelMode};
use crate::error::InputError;
use crate::scenario::Fields;

/// Courses built from a scenario.
pub struct Built {
    /// The edition read.
    pub edition: Edition,
    /// (course name, kernel), in file order.
    pub courses: Vec<(String, Box<dyn Kernel>)>,
}

/// The step keys that name the acting and the target unit, per procedure.
const UNIT_KEYS: &[(&str, Option<&str>, Option<&str>)] = &[
    ("close-combat", Some("attacker"), Some("defender")),
    ("musketry", Some("firer"), Some("target")),
    ("light-fire", Some("firer"), Some("target")),
    ("artillery", Some("firer"), Some("target")),
    ("morale-check", None, Some("unit")),
    ("pursuit", Some("pursuer"), None),
    ("unable-to-retreat", None, Some("unit")),
    ("interception", Some("unit"), None),
];

/// Most turns an engagement may run.
pub const MAX_TURNS: i64 = 50;

/// Reads `edition`, `[rules]`, `[units.*]` and `[[course]]` from a scenario's top level.
pub fn build(f: &mut Fields, mode: KernelMode) -> Result<Built, InputError> {
    let names: Vec<&str> = Edition::ALL.iter().map(|e| e.name()).collect();
    let edition = f
        .named("edition", "edition", Edition::from_name, &names)?
        .ok_or_else(|| f.missing("edition").one_of("", &names))?;
    let rules = match f.table("rules")? {
        Some(mut rf) => CourseRules::from_fields(&mut rf, edition)?,
        None => CourseRules::default(),
    };
    let unit_tables = f.named_tables("units")?.ok_or_else(|| {
        f.err(
            "units",
            "missing `[units.NAME]` tables: a scenario needs units",
        )
    })?;
    let mut units = Vec::new();
    for (name, mut uf) in unit_tables {
        units.push(Unit::from_fields(&name, &mut uf, edition)?);
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
        let step_tables = cf.table_list("steps")?.ok_or_else(|| {
            cf.missing("steps")
                .accepted("steps = [{ procedure = \"...\", ... }, ...]")
        })?;
        if step_tables.is_empty() {
            return Err(cf.err("steps", "a course needs at least one step"));
        }
        let mut steps = Vec::new();
        for mut sf in step_tables {
            let procedure = sf.req_string("procedure")?;
            let (mut actor, mut target) = (None, None);
            if let Some((_, a, t)) = UNIT_KEYS.iter().find(|(p, _, _)| *p == procedure) {
                let idx = |k: &Option<&str>| {
                    k.and_then(|k| sf.peek_string(k))
                        .and_then(|n| units.iter().position(|u| u.name == n))
                };
                actor = idx(a);
                target = idx(t);
            }
            steps.push(StepSpec {
                procedure,
                fields: sf,
                actor,
                target,
            });
        }
        let unit_key = |cf: &mut Fields, key: &'static str| -> Result<Option<usize>, InputError> {
            match cf.string(key)? {
                None => Ok(None),
                Some(n) => match units.iter().position(|u| u.name == n) {
                    Some(i) => Ok(Some(i)),
                    None => {
                        let names: Vec<&str> = units.iter().map(|u| u.name.as_str()).collect();
                        Err(cf.locate(
                            key,
                            InputError::new(format!("no unit named \"{n}\" in [units]"))
                                .one_of(&n, &names),
                        ))
                    }
                },
            }
        };
        let own = unit_key(&mut cf, "own")?.or(steps[0].actor);
        let enemy = unit_key(&mut cf, "enemy")?.or(steps[0].target);
        let repeat = read_repeat(&mut cf)?;
        cf.finish()?;
        let kernel = compile(
            edition,
            units.clone(),
            steps,
            rules,
            repeat,
            own,
            enemy,
            mode,
        )
        .map_err(|e| cf.locate("steps", e))?;
        courses.push((name, kernel));
    }
    Ok(Built { edition, courses })
}

/// Reads `repeat = { turns = N, until = [...] }`.
fn read_repeat(cf: &mut Fields) -> Result<Option<Repeat>, InputError> {
    let Some(mut rf) = cf.table("repeat")? else {
        return Ok(None);
    };
    let turns = rf.req_int("turns", 1, MAX_TURNS)? as u8;
    let names: Vec<&str> = Stop::ALL.iter().map(|s| s.names().0).collect();
    let mut until = Vec::new();
    for n in rf.strings("until")?.unwrap_or_default() {
        let stop = Stop::ALL
            .iter()
            .copied()
            .find(|s| s.names().0 == n)
            .ok_or_else(|| {
                rf.locate(
                    "until",
                    InputError::new(format!("unknown stop condition \"{n}\"")).one_of(&n, &names),
                )
            })?;
        if !until.contains(&stop) {
            until.push(stop);
        }
    }
    rf.finish()?;
    Ok(Some(Repeat { turns, until }))
}
