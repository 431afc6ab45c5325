//! Reading a Hakkaa Päälle scenario: `tq_modifier_mode`, `double_results`, `[units.*]` and
//! `[[course]]` (with `turns` and `stop_when` for engagements).

use super::course::{CourseSpec, Plan, STOP_NAMES, Stop};
use super::tq::{DoubleResults, Readings, TqMode};
use super::unit::Unit;
use crate::engine::chain::Chain;
use crate::engine::{Kernel, KernelMode, prepare};
use crate::error::InputError;
use crate::scenario::Fields;

/// Courses built from a scenario.
pub struct Built {
    /// How TQ modifiers apply.
    pub readings: Readings,
    /// (course name, kernel), in file order.
    pub courses: Vec<(String, Box<dyn Kernel>)>,
}

/// Most turns of an engagement.
pub const MAX_TURNS: i64 = 30;

/// Default stop conditions of an engagement with a target.
pub const DEFAULT_STOPS: [&str; 2] = ["target-fled", "own-fled"];
/// Default stop conditions of an engagement of one unit.
pub const DEFAULT_UNIT_STOPS: [&str; 2] = ["own-rallied", "own-eliminated"];

/// [`build`] for the system registry (Hakkaa Päälle has no editions).
pub fn build_courses(
    f: &mut Fields,
    kernel: KernelMode,
) -> Result<crate::systems::BuiltCourses, InputError> {
    build(f, kernel).map(|b| crate::systems::BuiltCourses {
        edition: None,
        courses: b.courses,
    })
}

/// Reads `tq_modifier_mode`, `double_results`, `[units.*]` and `[[course]]` from a scenario's
/// top level.
pub fn build(f: &mut Fields, kernel: KernelMode) -> Result<Built, InputError> {
    let d = Readings::default();
    let readings = Readings {
        tq_mode: f
            .named(
                "tq_modifier_mode",
                "TQ modifier mode",
                TqMode::from_name,
                &TqMode::names(),
            )?
            .unwrap_or(d.tq_mode),
        double_results: f
            .named(
                "double_results",
                "reading of 2 LC and 2 C",
                DoubleResults::from_name,
                &DoubleResults::names(),
            )?
            .unwrap_or(d.double_results),
    };
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
        let turns = cf.int("turns", 1, MAX_TURNS)?.map(|t| t as u8);
        let own = unit_key(&mut cf, "own", &units)?;
        let enemy = unit_key(&mut cf, "enemy", &units)?;
        let stop_names = cf.strings("stop_when")?;
        if stop_names.is_some() && turns.is_none() {
            return Err(cf.err(
                "stop_when",
                "`stop_when` belongs to an engagement: give `turns` too",
            ));
        }
        let mut stops = Vec::new();
        for s in stop_names.iter().flatten() {
            stops.push(Stop::from_name(s).ok_or_else(|| {
                cf.locate(
                    "stop_when",
                    InputError::new(format!("unknown stop condition \"{s}\""))
                        .one_of(s, &STOP_NAMES),
                )
            })?);
        }
        let step_tables = cf
            .table_list("steps")?
            .ok_or_else(|| cf.err("steps", "missing `steps = [{ procedure = ... }, ...]`"))?;
        if step_tables.is_empty() {
            return Err(cf.err("steps", "a course needs at least one step"));
        }
        let mut plans = Vec::new();
        let mut fields = Vec::new();
        for mut sf in step_tables {
            let procedure = sf.req_string("procedure")?;
            plans.push(Plan::read(&procedure, &mut sf, &units, readings)?);
            fields.push(sf);
        }
        let alone = plans.len() == 1 && turns.is_none();
        if !alone && let Some(i) = plans.iter().position(Plan::is_single) {
            return Err(fields[i].err(
                "procedure",
                "`tq-test` and `uncontrolled` report a result and change no unit's state: give each a course of its own (one step, no `turns`)",
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
        let k: Box<dyn Kernel> = if as_procedure {
            let step = plans[0]
                .single(&units, readings)
                .map_err(|e| super::tq::relocate(&fields[0], e))?;
            prepare(step, kernel)
        } else {
            for (p, sf) in plans.iter().zip(&fields) {
                p.check(&units, readings, alone, sf)?;
            }
            if turns.is_some() && stops.is_empty() {
                let has_target = plans.iter().any(|p| p.units().1.is_some());
                let names: &[&str] = if has_target {
                    &DEFAULT_STOPS
                } else {
                    &DEFAULT_UNIT_STOPS
                };
                stops = names.iter().filter_map(|s| Stop::from_name(s)).collect();
            }
            let spec = CourseSpec::new(units.clone(), plans, turns, stops, readings, (own, enemy));
            let chain = Chain::build(&spec).map_err(|e| {
                cf.err(
                    "steps",
                    format!("course \"{name}\" cannot be built: {}", e.message),
                )
            })?;
            prepare(chain, kernel)
        };
        cf.finish()?;
        courses.push((name, k));
    }
    Ok(Built { readings, courses })
}

/// Reads an optional course key naming a unit (`own`, `enemy`).
fn unit_key(
    f: &mut Fields,
    key: &'static str,
    units: &[Unit],
) -> Result<Option<usize>, InputError> {
    let Some(name) = f.string(key)? else {
        return Ok(None);
    };
    match units.iter().position(|u| u.name == name) {
        Some(i) => Ok(Some(i)),
        None => {
            let names: Vec<&str> = units.iter().map(|u| u.name.as_str()).collect();
            Err(f.locate(
                key,
                InputError::new(format!("no unit named \"{name}\" in [units]"))
                    .one_of(&name, &names),
            ))
        }
    }
}
