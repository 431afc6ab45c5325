//! Reading a Musket & Pike scenario: edition, rules switches, units and
//! courses (with engagements).

use super::course::{
    CourseInput, Readings, Repeat, StepSpec, Stop, compile, explain_course, settle_course,
};
use super::{Edition, Unit};
use crate::engine::{Kernel, KernelMode};
use crate::error::InputError;
use crate::outcome::Side;
use crate::scenario::{Fields, course};
use crate::systems::registry::read_units;

/// Courses built from a scenario.
pub struct Built {
    /// The edition read.
    pub edition: Edition,
    /// (course name, kernel), in file order.
    pub courses: Vec<(String, Box<dyn Kernel>)>,
    /// Each course's own and enemy units.
    pub sides: Vec<Side>,
}

/// The step keys that name the acting and the target unit, per procedure.
const STEP_UNIT_KEYS: &[(&str, Option<&str>, Option<&str>)] = &[
    ("close-combat", Some("attacker"), Some("defender")),
    ("musketry", Some("firer"), Some("target")),
    ("light-fire", Some("firer"), Some("target")),
    ("artillery", Some("firer"), Some("target")),
    ("morale-check", None, Some("unit")),
    ("pursuit", Some("pursuer"), None),
    ("unable-to-retreat", None, Some("unit")),
    ("interception", Some("unit"), None),
];

/// Reads `edition`, `[rules]`, `[units.*]` and `[[course]]` from a scenario's top level.
pub fn build(f: &mut Fields, mode: KernelMode) -> Result<Built, InputError> {
    let (edition, courses, sides) = read(f, |c| compile(c.input, mode))?;
    Ok(Built {
        edition,
        courses,
        sides,
    })
}

/// Reads the same keys as [`build`] and explains every course.
pub fn explain(f: &mut Fields) -> Result<crate::explain::Explained, InputError> {
    let (edition, courses, _) = read(f, |c| {
        let (course, chain, states) = settle_course(c.input, true)?;
        explain_course(c.name, &c.side, &course, chain, states)
    })?;
    let courses = courses.into_iter().map(|(_, c)| c).collect();
    Ok(crate::explain::Explained {
        edition: Some(edition.name().to_string()),
        courses,
    })
}

/// One course as read, before it is compiled.
struct CourseParts<'a, 'n> {
    name: &'n str,
    side: Side,
    input: CourseInput<'a>,
}

/// Reads the scenario and hands each course to `make`: the edition, each
/// course's name and what `make` made of it, and each course's sides.
#[allow(clippy::type_complexity)]
fn read<'a, T>(
    f: &mut Fields<'a>,
    mut make: impl FnMut(CourseParts<'a, '_>) -> Result<T, InputError>,
) -> Result<(Edition, Vec<(String, T)>, Vec<Side>), InputError> {
    let names: Vec<&str> = Edition::ALL.iter().map(|e| e.name()).collect();
    let edition = f
        .named("edition", "edition", Edition::from_name, &names)?
        .ok_or_else(|| f.missing("edition").one_of("", &names))?;
    let rules = match f.table("rules")? {
        Some(mut rf) => Readings::from_fields(&mut rf, edition)?,
        None => Readings::default(),
    };
    let units = read_units(&super::Mpbs, f, |name, uf| {
        Unit::from_fields(name, uf, edition)
    })?;
    let unit_names = course::unit_names(&units);
    let (courses, sides) = course::build_courses(f, |name, mut cf, step_tables| {
        let steps: Vec<StepSpec> = step_tables
            .into_iter()
            .map(|(procedure, sf)| step_spec(procedure, sf, &unit_names))
            .collect();
        let (own, enemy) = course::own_enemy(&mut cf, &unit_names)?;
        let named = own.is_some() && enemy.is_some();
        let own = own.or(steps[0].actor);
        let enemy = enemy.or(steps[0].target);
        let repeat = read_repeat(&mut cf, steps.len())?;
        cf.finish()?;
        let side = Side::of(&unit_names, own, enemy, named);
        let kernel = make(CourseParts {
            name,
            side: side.clone(),
            input: CourseInput {
                edition,
                units: units.clone(),
                steps,
                rules,
                repeat,
                own,
                enemy,
            },
        })
        .map_err(|e| course::locate_course_error(&cf, e, "steps"))?;
        Ok((kernel, side))
    })?;
    Ok((edition, courses, sides))
}

/// One step's spec: its procedure, its reader, and the units it names
/// (found by the step's unit keys; a unit that is not there is left for
/// the step's own reader to refuse).
fn step_spec<'a>(procedure: String, sf: Fields<'a>, unit_names: &[&str]) -> StepSpec<'a> {
    let (mut actor, mut target) = (None, None);
    if let Some((_, a, t)) = STEP_UNIT_KEYS.iter().find(|(p, _, _)| *p == procedure) {
        let idx = |k: &Option<&str>| k.and_then(|k| course::peek_unit(&sf, k, unit_names));
        actor = idx(a);
        target = idx(t);
    }
    // Every attacking unit after the lead one: a close combat's attacker
    // results apply to each (docs/rules/mpbs.md, section 2).
    let others = if procedure == "close-combat" {
        let names = sf.fresh().strings("attacker").ok().flatten();
        names
            .into_iter()
            .flatten()
            .skip(1)
            .filter_map(|n| unit_names.iter().position(|u| *u == n))
            .collect()
    } else {
        Vec::new()
    };
    StepSpec {
        procedure,
        fields: sf,
        actor,
        others,
        target,
    }
}

/// Reads `repeat = { turns = N, until = [...] }` (the shared reader).
fn read_repeat(cf: &mut Fields, steps: usize) -> Result<Option<Repeat>, InputError> {
    Ok(
        course::read_repeat(cf, &super::REPEATS, steps)?.map(|r| Repeat {
            turns: r.turns,
            from_step: r.from_step as u8,
            until: r.until.into_iter().map(|i| Stop::ALL[i]).collect(),
        }),
    )
}

/// Reads `edition`, `[rules]`, `[units.*]` and every `[[decision]]` (the
/// courses are `run`'s) and solves each decision by the engine's one
/// solver; `ask` seeds its Monte Carlo check and may ask for one explained.
pub fn decide(
    f: &mut Fields,
    ask: &crate::scenario::decision::DecideAsk,
) -> Result<Vec<crate::engine::decide::summary::Decided>, InputError> {
    use super::course::decision::{UnitFeatures, options};
    let names: Vec<&str> = Edition::ALL.iter().map(|e| e.name()).collect();
    let edition = f
        .named("edition", "edition", Edition::from_name, &names)?
        .ok_or_else(|| f.missing("edition").one_of("", &names))?;
    let rules = match f.table("rules")? {
        Some(mut rf) => Readings::from_fields(&mut rf, edition)?,
        None => Readings::default(),
    };
    let units = read_units(&super::Mpbs, f, |name, uf| {
        Unit::from_fields(name, uf, edition)
    })?;
    f.has("course");
    let unit_names = course::unit_names(&units);
    let mut out = Vec::new();
    for mut table in crate::scenario::decision::read_decisions(f, &super::REPEATS, &unit_names)? {
        let repeat = Repeat {
            turns: table.turns,
            from_step: 0,
            until: table.until.iter().map(|&i| Stop::ALL[i]).collect(),
        };
        let mut inputs = Vec::new();
        for option in std::mem::take(&mut table.options) {
            let steps: Vec<StepSpec> = option
                .steps
                .into_iter()
                .map(|(procedure, sf)| step_spec(procedure, sf, &unit_names))
                .collect();
            inputs.push((
                option.name,
                CourseInput {
                    edition,
                    units: units.clone(),
                    steps,
                    rules,
                    repeat: Some(repeat.clone()),
                    own: Some(table.own),
                    enemy: table.enemy,
                },
            ));
        }
        let options =
            options(inputs).map_err(|e| course::locate_course_error(&table.fields, e, "option"))?;
        let features = UnitFeatures {
            units: table.pair(&units),
        };
        out.push(table.solve_with(&options, &features, ask)?);
    }
    Ok(out)
}
