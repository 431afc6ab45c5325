//! Reading a Sword & Spear scenario: `[rules]`, `[units.*]` and
//! `[[course]]`.

use super::cost::{self, StepShape};
use super::course::{CourseSpec, StepSpec};
use super::melee::Round;
use super::readings::Readings;
use super::repeat::{self, Repeat};
use super::step::{PROCEDURES, STEP_UNIT_KEYS, Step, build_step};
use super::unit::Unit;
use crate::engine::KernelMode;
use crate::engine::chain::MAX_NODES;
use crate::error::InputError;
use crate::explain::walk::{self, Boxer, Made};
use crate::outcome::Side;
use crate::scenario::Fields;
use crate::scenario::course::{self, CoursesMade};
use crate::systems::BuiltCourses;
use crate::systems::registry::read_units;
use crate::systems::rules::RulesTable;

/// Reads `[rules]`, `[units.*]` and `[[course]]` from a scenario's top
/// level and builds every course: a single step naming one unit as its
/// procedure, anything else as a chain over unit states. Either way trials
/// are drawn from an alias table of the exact distribution
/// ([`KernelMode::Auto`]) or rolled die by die ([`KernelMode::Direct`]).
pub fn build(f: &mut Fields, mode: KernelMode) -> Result<BuiltCourses, InputError> {
    read(f, |_, _, made| made.kernel(mode, Boxer::Tabulated)).map(BuiltCourses::from)
}

/// Reads the same keys as [`build`] and explains every course.
pub fn explain(f: &mut Fields) -> Result<crate::explain::Explained, InputError> {
    read(f, |name, side, made| {
        super::course_explain::explain(name, side, &made)
    })
    .map(|(courses, _)| walk::explained(courses))
}

/// Reads `[rules]`, `[units.*]` and `[[course]]` and hands each course,
/// its cost bounded first, to `make`: the kernel builder or the explainer.
fn read<'a, T>(
    f: &mut Fields<'a>,
    mut make: impl FnMut(&str, &Side, Made<Step, CourseSpec<'a>>) -> Result<T, InputError>,
) -> Result<CoursesMade<T>, InputError> {
    let rules = Readings::read(f)?;
    let units = read_units(&super::SwordSpear, f, Unit::from_fields)?;
    let unit_names = course::unit_names(&units);
    course::build_courses(f, |name, mut cf, step_tables| {
        let (own, enemy) = course::own_enemy(&mut cf, &unit_names)?;
        let mut steps = Vec::new();
        for (procedure, sf) in step_tables {
            let (mut actor, mut target) = (None, None);
            if let Some((_, a, t)) = STEP_UNIT_KEYS.iter().find(|(p, _, _)| *p == procedure) {
                actor = course::peek_unit(&sf, a, &unit_names);
                target = t.and_then(|t| course::peek_unit(&sf, t, &unit_names));
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
        let repeat = repeat::read(&mut cf, steps.len(), own, enemy)?;
        cf.finish()?;
        let kernel = if steps.len() == 1 && steps[0].target.is_none() && repeat.is_none() {
            let s = &steps[0];
            let step = build_step(
                &s.procedure,
                &mut s.fields.fresh(),
                &units,
                Round::single(),
                &rules,
            )?;
            make(name, &side, Made::Single(step))?
        } else {
            check_cost(&cf, name, &steps, &units, repeat.as_ref())?;
            let spec = CourseSpec::new(units.clone(), steps, (own, enemy), repeat, rules)
                .map_err(|e| course::locate_course_error(&cf, e, "steps"))?;
            make(name, &side, Made::Course(spec))
                .map_err(|e| course::locate_course_error(&cf, e, "steps"))?
        };
        Ok((kernel, side))
    })
}

/// Refuses a course whose chain could pass the state limit, before it is
/// built (docs/rules/sword-and-spear.md section 7): located at its
/// `repeat.turns` with the most turns that fit, or at its `steps` with the
/// most steps that fit.
fn check_cost(
    cf: &Fields,
    name: &str,
    steps: &[StepSpec],
    units: &[Unit],
    repeat: Option<&Repeat>,
) -> Result<(), InputError> {
    let shapes: Vec<StepShape> = steps
        .iter()
        .map(|s| StepShape {
            procedure: PROCEDURES
                .iter()
                .map(|p| p.name)
                .find(|p| *p == s.procedure)
                .unwrap_or(""),
            actor: s.actor,
            target: s.target,
        })
        .collect();
    let over = match cost::check(
        &shapes,
        units,
        repeat.map(|r| (r.from_step, r.turns as u32)),
    ) {
        Ok(_) => return Ok(()),
        Err(over) => over,
    };
    let what = format!(
        "course \"{name}\" could reach up to {} unit states (its stages times the hits, commanders, shots and bonuses its units can carry), more than the limit of {MAX_NODES}",
        over.bound
    );
    Err(match (over.turns_that_fit, over.steps_that_fit) {
        (Some(0), _) => cf
            .err("repeat", format!("{what}; not even one turn fits"))
            .accepted("fewer steps or fewer units named in the repeated steps"),
        (Some(t), _) => cf
            .err(
                "repeat.turns",
                format!(
                    "{what}; at most {t} turn{} fit",
                    if t == 1 { "" } else { "s" }
                ),
            )
            .accepted(format!("1 to {t}")),
        (None, Some(k)) => cf
            .err("steps", format!("{what}; its first {k} steps fit"))
            .accepted(format!("at most {k} steps, or fewer units named")),
        (None, None) => cf.err("steps", what),
    })
}
