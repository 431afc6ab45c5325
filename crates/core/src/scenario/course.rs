//! What every rule system's scenario shares: `[units.NAME]` tables,
//! `[[course]]` tables (a unique `name`, a non-empty `steps` list, `own` and
//! `enemy` naming two different units), `repeat = { turns, until, from_step }`, and the
//! refusal of spellings that moved. Each system supplies only its unit type
//! and its step builders.

use super::Fields;
use super::limits::{MAX_COURSES, MAX_STEPS, MAX_UNITS};
use crate::error::InputError;
use crate::outcome::keys::TURNS;
use crate::outcome::{Measure, OutcomeSpace, Side};

/// Reads every `[units.NAME]` table with `read` (which reads one unit's
/// keys); refuses keys `read` did not ask for (`keys`: every key a unit may
/// have, see [`Fields::finish_knowing`]). A collecting reader
/// ([`super::fields::collect`]) reads every unit even when one fails, then
/// stops (courses would otherwise meet units counted as absent).
pub fn read_units<'a, U>(
    f: &mut Fields<'a>,
    keys: &[&'static str],
    mut read: impl FnMut(&str, &mut Fields<'a>) -> Result<U, InputError>,
) -> Result<Vec<U>, InputError> {
    let tables = f.named_tables("units")?.ok_or_else(|| {
        f.err(
            "units",
            "missing `[units.NAME]` tables: a scenario needs units",
        )
    })?;
    within_limit(f, "scenario", "units", MAX_UNITS, tables.len(), || {
        format!("units.{}", tables[MAX_UNITS].0)
    })?;
    let mut units = Vec::new();
    let start = f.recorded();
    let mut ids: Vec<(String, String)> = Vec::new();
    for (name, mut uf) in tables {
        let mark = f.recorded();
        match unit_name_ok(f, &name, &mut ids)
            .and_then(|()| read(&name, &mut uf))
            .and_then(|u| uf.finish_knowing(keys).map(|()| u))
        {
            Ok(u) => units.push(u),
            Err(e) => keep_going(f, mark, e)?,
        }
    }
    if f.recorded() > start {
        f.stop_if_recorded()?;
    }
    Ok(units)
}

/// Refuses a unit name that is too long, has no letter or digit, or gives
/// the same id as an earlier unit's (`ids`: the id and name of each unit
/// read so before): a unit's name makes the ids of the outcomes and
/// measures that name it (`NAME-destroyed`, `NAME-sp-lost`), which must
/// differ. Records the name's id in `ids` when accepted.
fn unit_name_ok(f: &Fields, name: &str, ids: &mut Vec<(String, String)>) -> Result<(), InputError> {
    let key = format!("units.{name}");
    let refuse = |m: String| {
        f.err(&key, m).accepted(format!(
            "a name of 1 to {} characters holding a letter or digit, whose letters and digits \
             (lower-cased, the rest read as `-`) differ from every other unit's, e.g. [units.tercio_2]",
            crate::scenario::limits::MAX_NAME_CHARS
        ))
    };
    crate::scenario::fields::check_name_length(name).map_err(refuse)?;
    let id = crate::outcome::kebab_id(name);
    if id.is_empty() {
        return Err(refuse(format!(
            "the unit name \"{name}\" has no letter or digit: outcomes are named after units"
        )));
    }
    if let Some((_, other)) = ids.iter().find(|(i, _)| *i == id) {
        return Err(refuse(format!(
            "the unit names \"{other}\" and \"{name}\" both give the id `{id}`: \
             outcomes named after them could not be told apart"
        )));
    }
    ids.push((id, name.to_string()));
    Ok(())
}

/// Refuses `count` tables of one kind (`what`: `units`, `courses`,
/// `steps`) in one `holder` (the scenario, a course) when there are more
/// than `max`, at the key `first_over` gives (the first table over the
/// limit; called only then).
fn within_limit(
    f: &Fields,
    holder: &str,
    what: &str,
    max: usize,
    count: usize,
    first_over: impl FnOnce() -> String,
) -> Result<(), InputError> {
    if count <= max {
        return Ok(());
    }
    Err(f.err(
        &first_over(),
        format!("the {holder} has {count} {what}, more than the limit of {max}"),
    ))
}

/// After an error `e` ending the reading of one of several independent
/// tables: returns it when not collecting; records it when no error was
/// recorded while that table was read (since `mark`), as it may otherwise
/// follow from a value counted as absent.
fn keep_going(f: &Fields, mark: usize, e: InputError) -> Result<(), InputError> {
    if !f.collecting() {
        return Err(e);
    }
    if f.recorded() == mark {
        f.record(e);
    }
    Ok(())
}

/// One `[[course]]` table: its name (unique in the file), its keys, and its
/// steps (at least one), each with its `procedure` read.
pub struct CourseTable<'a> {
    /// The course's name.
    pub name: String,
    /// The course table (keys other than `name` and `steps` not yet read).
    pub fields: Fields<'a>,
    /// The steps, in order: the procedure named and the step's table.
    pub steps: Vec<(String, Fields<'a>)>,
}

/// Reads every `[[course]]` table: at least one, names unique, each with a
/// non-empty `steps` list whose entries name a `procedure`.
pub fn read_courses<'a>(f: &mut Fields<'a>) -> Result<Vec<CourseTable<'a>>, InputError> {
    let tables = f.table_list("course")?.ok_or_else(|| {
        f.err(
            "course",
            "missing `[[course]]`: a scenario needs at least one course of action",
        )
    })?;
    if tables.is_empty() {
        return Err(f.err("course", "a scenario needs at least one `[[course]]`"));
    }
    within_limit(f, "scenario", "courses", MAX_COURSES, tables.len(), || {
        format!("course[{MAX_COURSES}]")
    })?;
    let mut out: Vec<CourseTable<'a>> = Vec::new();
    for mut cf in tables {
        let name = cf.req_name("name")?;
        if out.iter().any(|c| c.name == name) {
            return Err(cf.err(
                "name",
                format!("two courses are named \"{name}\"; course names must differ"),
            ));
        }
        refuse_moved(&mut cf, "turns", "`repeat = { turns = N, until = [...] }`")?;
        refuse_moved(
            &mut cf,
            "stop_when",
            "`repeat = { turns = N, until = [...] }`",
        )?;
        let step_tables = cf.table_list("steps")?.ok_or_else(|| {
            cf.missing("steps")
                .accepted("steps = [{ procedure = \"...\", ... }, ...]")
        })?;
        if step_tables.is_empty() {
            return Err(cf.err("steps", "a course needs at least one step"));
        }
        within_limit(&cf, "course", "steps", MAX_STEPS, step_tables.len(), || {
            format!("steps[{MAX_STEPS}]")
        })?;
        let mut steps = Vec::new();
        for mut sf in step_tables {
            let procedure = sf.req_string("procedure")?;
            steps.push((procedure, sf));
        }
        out.push(CourseTable {
            name,
            fields: cf,
            steps,
        });
    }
    Ok(out)
}

/// Every course of a scenario: (course name, what was made of it: a kernel
/// or an explanation) and the course's reported side, in file order.
pub type CoursesMade<T> = (Vec<(String, T)>, Vec<Side>);

/// Reads every `[[course]]` table (see [`read_courses`]) and makes each
/// with `build`, which is given the course's name, its keys and its steps
/// and returns what it made of the course (a kernel, or an explanation) and
/// the course's reported side. A collecting reader makes every course even
/// when one fails; a course's own error is then kept only when nothing was
/// recorded before it (the `[rules]` it reads may have been counted as
/// absent).
pub fn build_courses<'a, T>(
    f: &mut Fields<'a>,
    mut build: impl FnMut(&str, Fields<'a>, Vec<(String, Fields<'a>)>) -> Result<(T, Side), InputError>,
) -> Result<CoursesMade<T>, InputError> {
    let mut courses = Vec::new();
    let mut sides = Vec::new();
    let start = f.recorded();
    // `[[decision]]` tables are read by `pikeshot decide`
    // (`scenario::decision`), not as courses.
    f.has("decision");
    for table in read_courses(f)? {
        // Before the first course, nothing recorded stands for "clean so far".
        let mark = if start == 0 { f.recorded() } else { usize::MAX };
        match build(&table.name, table.fields, table.steps) {
            Ok((kernel, side)) => {
                courses.push((table.name, kernel));
                sides.push(side);
            }
            Err(e) => keep_going(f, mark, e)?,
        }
    }
    f.stop_if_recorded()?;
    Ok((courses, sides))
}

/// The index of the unit named `name` among `names`, or a located error at
/// `key` of `f` naming the units there are.
pub fn unit_index(f: &Fields, key: &str, name: &str, names: &[&str]) -> Result<usize, InputError> {
    names.iter().position(|n| *n == name).ok_or_else(|| {
        f.locate(
            key,
            InputError::new(format!("no unit named \"{name}\" in [units]")).one_of(name, names),
        )
    })
}

/// The index among `names` of the unit step key `key` of `f` names, if it
/// names one, without marking the key read: the step's own builder reads
/// and checks it (a course learns from this which units its steps touch).
pub fn peek_unit(f: &Fields, key: &str, names: &[&str]) -> Option<usize> {
    let name = f.peek_string(key)?;
    names.iter().position(|n| *n == name)
}

/// A unit of a scenario's `[units.NAME]` tables, known by its name.
pub trait NamedUnit {
    /// The unit's name (its `[units.NAME]` table).
    fn unit_name(&self) -> &str;
}

/// The names of `units`, in order.
pub fn unit_names<U: NamedUnit>(units: &[U]) -> Vec<&str> {
    units.iter().map(U::unit_name).collect()
}

/// The index in `units` of the unit named by string key `key` of `f`; an
/// unknown name is a located error listing the units the scenario defines.
pub fn find_unit_index<U: NamedUnit>(
    f: &mut Fields,
    key: &'static str,
    units: &[U],
) -> Result<usize, InputError> {
    let name = f.req_string(key)?;
    unit_index(f, key, &name, &unit_names(units))
}

/// The unit named by string key `key` of `f` (see [`find_unit_index`]).
pub fn find_unit<'u, U: NamedUnit>(
    f: &mut Fields,
    key: &'static str,
    units: &'u [U],
) -> Result<&'u U, InputError> {
    find_unit_index(f, key, units).map(|i| &units[i])
}

/// Reads an optional course key naming a unit (`own`, `enemy`).
pub fn unit_key(
    f: &mut Fields,
    key: &'static str,
    names: &[&str],
) -> Result<Option<usize>, InputError> {
    match f.string(key)? {
        None => Ok(None),
        Some(n) => unit_index(f, key, &n, names).map(Some),
    }
}

/// Reads a course's `own` and `enemy` (the pair its key measures are
/// about); refuses both naming the same unit.
pub fn own_enemy(
    f: &mut Fields,
    names: &[&str],
) -> Result<(Option<usize>, Option<usize>), InputError> {
    let own = unit_key(f, "own", names)?;
    let enemy = unit_key(f, "enemy", names)?;
    check_pair(f, own, enemy)?;
    Ok((own, enemy))
}

/// Refuses `own` and `enemy` (given or defaulted) that are the same unit.
pub fn check_pair(f: &Fields, own: Option<usize>, enemy: Option<usize>) -> Result<(), InputError> {
    if own.is_some() && own == enemy {
        return Err(f.err(
            "enemy",
            "`own` and `enemy` name the same unit; the key measures need two different units",
        ));
    }
    Ok(())
}

/// A stop condition of `repeat = { turns = N, until = [...] }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StopInfo {
    /// The name in `until`.
    pub name: &'static str,
    /// What ends the course.
    pub meaning: &'static str,
}

/// What a system's courses accept in `repeat`: the most turns, the stop
/// conditions `until` may name and what it defaults to. `pikeshot list`
/// prints it, the page builds its controls from it, and [`read_repeat`]
/// reads a course's `repeat` by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repeats {
    /// Most turns `repeat.turns` may ask for; 0 when courses do not repeat.
    pub max_turns: u8,
    /// The stop conditions `until` may name, in the system's order.
    pub stops: &'static [StopInfo],
    /// What `until` is when it names none, in words.
    pub default_until: &'static str,
}

/// A system's stop conditions as its own type (declared by the system's
/// `stop_enum!`, which also gives the [`Repeats::stops`] in the same order).
pub trait StopSet: Copy + 'static {
    /// Every stop condition, in the order of its [`StopInfo`]s.
    const ALL: &'static [Self];
}

impl StopInfo {
    /// The stop condition `name`, which ends a course when `meaning` holds.
    pub const fn new(name: &'static str, meaning: &'static str) -> StopInfo {
        StopInfo { name, meaning }
    }
}

impl Repeats {
    /// The names `until` accepts, in [`stops`](Repeats::stops) order.
    pub fn names(&self) -> Vec<&'static str> {
        self.stops.iter().map(|s| s.name).collect()
    }
}

/// A course's `repeat = { turns = N, until = [...], from_step = K }`: its
/// steps again and again, at most `turns` times, until a stop condition
/// holds. Steps before `from_step` (0-based) run once, in the first turn;
/// steps from `from_step` on run every turn ("fire, then melee until
/// decided" is `from_step = 1`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepeatSpec {
    /// At most this many turns.
    pub turns: u8,
    /// The first step (0-based) that repeats; the steps before it run once.
    pub from_step: usize,
    /// The stop conditions named, as indices into the system's list, in the
    /// order given, without repeats.
    pub until: Vec<usize>,
}

/// Reads an optional `repeat` of a course of `steps` steps: `turns` from 1
/// to `repeats.max_turns` (required), `until` a list of names of
/// `repeats.stops` (optional), `from_step` from 0 to `steps - 1` (optional,
/// default 0).
pub fn read_repeat(
    cf: &mut Fields,
    repeats: &Repeats,
    steps: usize,
) -> Result<Option<RepeatSpec>, InputError> {
    let Some(mut rf) = cf.table("repeat")? else {
        return Ok(None);
    };
    let stops = repeats.names();
    let turns = rf.req_int("turns", 1, repeats.max_turns as i64)? as u8;
    let from_step = rf
        .int("from_step", 0, steps.saturating_sub(1) as i64)?
        .unwrap_or(0) as usize;
    let mut until = Vec::new();
    for n in rf.strings("until")?.unwrap_or_default() {
        let i = stops.iter().position(|s| *s == n).ok_or_else(|| {
            rf.locate(
                "until",
                InputError::new(format!("unknown stop condition \"{n}\"")).one_of(&n, &stops),
            )
        })?;
        if !until.contains(&i) {
            until.push(i);
        }
    }
    rf.finish()?;
    Ok(Some(RepeatSpec {
        turns,
        from_step,
        until,
    }))
}

/// A course's `repeat` as a system holds it: the [`RepeatSpec`] read, with
/// its stop conditions as the system's own type `S`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repeat<S> {
    /// At most this many turns.
    pub turns: u8,
    /// Steps before this one run once, in the first turn.
    pub from_step: usize,
    /// What ends the course at the end of a turn.
    pub until: Vec<S>,
}

impl<S> Repeat<S> {
    /// Whether step `step` (0-based) runs turn after turn.
    pub fn repeats(&self, step: usize) -> bool {
        step >= self.from_step
    }
    /// The `turns` measure of a course of at most `n` turns under this
    /// repeat: the turns begun, at least one when every step repeats, none
    /// when a step before the repeated ones ended the course first.
    pub fn turns_measure(&self, n: usize) -> Measure {
        Measure::new(TURNS, i32::from(self.from_step == 0), n as i32)
    }
}

/// Reads an optional `repeat` by [`read_repeat`], its stop conditions as
/// the system's own stop type `S` (`repeats.stops` are its `STOPS`);
/// `until` is `[default]` when it names none.
pub fn read_repeat_as<S: StopSet>(
    cf: &mut Fields,
    repeats: &Repeats,
    default: S,
    steps: usize,
) -> Result<Option<Repeat<S>>, InputError> {
    let Some(r) = read_repeat(cf, repeats, steps)? else {
        return Ok(None);
    };
    let until = if r.until.is_empty() {
        vec![default]
    } else {
        r.until.into_iter().map(|i| S::ALL[i]).collect()
    };
    Ok(Some(Repeat {
        turns: r.turns,
        from_step: r.from_step,
        until,
    }))
}

/// Refuses `key` in `f` when present: it moved, and `new` says where.
pub fn refuse_moved(f: &mut Fields, key: &'static str, new: &str) -> Result<(), InputError> {
    if f.has(key) {
        return Err(f.err(
            key,
            format!("`{key}` is no longer read here; write {new} instead"),
        ));
    }
    Ok(())
}

/// A course's outcome space whose measures grow with `n`, the value of the
/// course key `key` (`repeat.turns`, or `steps` counted): `make(n)` gives the
/// outcomes and measures for `n`, here `given`. A space of more
/// combinations than [`crate::outcome::MAX_LEAVES`] is sparse ([`OutcomeSpace::try_new`]):
/// the course's limit is the states it reaches. Outcome ids that collide
/// are an error at `steps`; measures too many to number even sparsely, at
/// `key` (bare course keys, located by [`locate_course_error`]).
pub fn fitted_space(
    key: &str,
    given: usize,
    make: impl Fn(usize) -> (Vec<String>, Vec<Measure>),
) -> Result<OutcomeSpace, InputError> {
    let (outcomes, measures) = make(given);
    let countless = OutcomeSpace::leaf_count(outcomes.len(), &measures) == u128::MAX;
    OutcomeSpace::try_new(outcomes, measures).map_err(|e| match countless {
        true => e.key(key),
        false => e.key("steps"),
    })
}

/// Locates an error from building a course (table `cf`): at its bare key
/// when it has one (`repeat.turns`, `steps`), else at `default`. An error
/// located already (a step's key) is kept as it is.
pub fn locate_course_error(cf: &Fields, mut e: InputError, default: &str) -> InputError {
    if e.file.is_some() {
        return e;
    }
    match e.key.take() {
        Some(k) => cf.locate(&k, e),
        None => cf.locate(default, e),
    }
}

/// The outcomes a course adds for units that a later step needs and that
/// are lost (destroyed, routed) before it, which ends the course: each of
/// `needed` (unit indices; repeats count once) not in `covered` (the units
/// whose loss the last step's own outcomes report) gets `label(u)` added
/// to `outcomes`. Returns, for each of the scenario's `unit_count` units,
/// the index of its outcome (`None` for a unit given none).
pub fn lost_unit_outcomes(
    outcomes: &mut Vec<String>,
    unit_count: usize,
    needed: impl IntoIterator<Item = usize>,
    covered: &[usize],
    label: impl Fn(usize) -> String,
) -> Vec<Option<usize>> {
    let mut of = vec![None; unit_count];
    for u in needed {
        if of[u].is_none() && !covered.contains(&u) {
            of[u] = Some(outcomes.len());
            outcomes.push(label(u));
        }
    }
    of
}

/// The outcome space of a course with `repeat.turns` = `turns` (or no
/// `repeat`), by [`fitted_space`]: `make(n)` gives its outcomes and
/// measures for `n` turns (called with 1 when the course does not repeat).
pub fn course_space(
    turns: Option<usize>,
    make: impl Fn(usize) -> (Vec<String>, Vec<Measure>),
) -> Result<OutcomeSpace, InputError> {
    match turns {
        Some(t) => fitted_space("repeat.turns", t, make),
        None => fitted_space("steps", 1, make),
    }
}
