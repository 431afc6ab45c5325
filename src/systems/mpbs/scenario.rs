//! Reading a Musket & Pike scenario: edition, units and courses.

use super::course::{CourseSpec, StepSpec, build_step};
use super::{Edition, Unit};
use crate::engine::chain::{Chain, ChainSpec};
use crate::engine::{Kernel, KernelMode, prepare};
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
    ("pursuit", Some("pursuer"), None),
    ("unable-to-retreat", None, Some("unit")),
    ("interception", Some("unit"), None),
];

/// Reads `edition`, `[units.*]` and `[[course]]` from a scenario's top level.
pub fn build(f: &mut Fields, mode: KernelMode) -> Result<Built, InputError> {
    let names: Vec<&str> = Edition::ALL.iter().map(|e| e.name()).collect();
    let edition = f
        .named("edition", "edition", Edition::from_name, &names)?
        .ok_or_else(|| f.missing("edition").one_of("", &names))?;
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
        let step_tables = cf
            .table_list("steps")?
            .ok_or_else(|| cf.err("steps", "missing `steps = [{ procedure = ... }, ...]`"))?;
        if step_tables.is_empty() {
            return Err(cf.err("steps", "a course needs at least one step"));
        }
        cf.finish()?;
        let mut steps = Vec::new();
        for mut sf in step_tables {
            let procedure = sf.req_string("procedure")?;
            let (mut actor, mut target) = (None, None);
            if let Some((_, a, t)) = UNIT_KEYS.iter().find(|(p, _, _)| *p == procedure) {
                let idx = |k: &Option<&str>| {
                    k.and_then(|k| {
                        sf.peek_string(k)
                            .or_else(|| sf.peek_string(&format!("{k}s")))
                    })
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
        let kernel = if steps.len() == 1 {
            let s = &steps[0];
            prepare(
                build_step(&s.procedure, &mut s.fields.fresh(), &units, edition)?,
                mode,
            )
        } else {
            // Build with the early-end outcome; drop it again when no path
            // reaches it, so the course reports the last step's outcomes only.
            let spec = CourseSpec::new(edition, units.clone(), steps, true)?;
            let chain = Chain::build(&spec)?;
            let early = spec.space().outcomes().len() - 1;
            if chain.can_end_in(early) {
                prepare(chain, mode)
            } else {
                let spec = CourseSpec::new(edition, units.clone(), spec.steps, false)?;
                prepare(Chain::build(&spec)?, mode)
            }
        };
        courses.push((name, kernel));
    }
    Ok(Built { edition, courses })
}
