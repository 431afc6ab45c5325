//! `[[decision]]` tables, read alike for every rule system: a name, the
//! own unit (and the enemy), `repeat = { turns, until }` as a course
//! writes it, the objective, the steps every turn runs `before` and
//! `after` the choice, and the options (`[[decision.option]]`, each a
//! `name` and `steps` written as a course's). Each option becomes the
//! steps of one course (`before`, the option's, `after`), which the
//! system builds as it builds a course.

use super::Fields;
use super::course::{self, Repeats};
use super::limits::MAX_STEPS;
use crate::engine::decide::at::{ExplainAt, explain_at};
use crate::engine::decide::summary::{Decided, summarise};
use crate::engine::decide::{Features, Objective, Options, Target, solve};
use crate::error::InputError;

/// Most `[[decision]]` tables in a scenario.
pub const MAX_DECISIONS: usize = 8;

/// Most options a decision has.
pub const MAX_OPTIONS: usize = 6;

/// The keys of a `[[decision]]` table, each with what it accepts.
pub const DECISION_KEYS: &[(&str, &str)] = &[
    (
        "name",
        "required: the decision's name, unique among decisions",
    ),
    ("own", "required: the unit whose side chooses"),
    ("enemy", "the unit opposed (the reported pair's enemy)"),
    (
        "repeat",
        "required: { turns = N, until = [...] }, as a course's repeat: the most turns, and the stop conditions",
    ),
    (
        "objective",
        "required: { most = \"OUTCOME\" } (or a list of outcomes), { least = \"OUTCOME\" }, { most_expected = \"MEASURE\" } or { least_expected = \"MEASURE\" }",
    ),
    (
        "before",
        "steps run every turn before the chosen option's (as a course's steps)",
    ),
    (
        "after",
        "steps run every turn after the chosen option's (as a course's steps)",
    ),
    (
        "option",
        "required, 2 to 6 [[decision.option]] tables: `name` and `steps`, as a course's",
    ),
];

/// What a system's `decide` is asked of a scenario's decisions.
#[derive(Clone, Debug, Default)]
pub struct DecideAsk {
    /// The seed of each best plan's Monte Carlo check.
    pub seed: u64,
    /// The decision to explain at one of its states (`pikeshot explain
    /// --decision`), if any: its [`Decided::at`] is filled.
    pub explain: Option<ExplainAt>,
}

/// One option of a decision: its name and the steps of its course
/// (`before`, the option's own, `after`), each with its `procedure` read.
pub struct OptionTable<'a> {
    /// The option's name.
    pub name: String,
    /// The steps, in order: the procedure named and the step's table.
    pub steps: Vec<(String, Fields<'a>)>,
}

/// One `[[decision]]` table, read.
pub struct DecisionTable<'a> {
    /// The decision's name.
    pub name: String,
    /// The decision table (finished: every key read).
    pub fields: Fields<'a>,
    /// The own unit's index among the scenario's units.
    pub own: usize,
    /// The enemy unit's index, if named.
    pub enemy: Option<usize>,
    /// The most turns.
    pub turns: u8,
    /// The stop conditions named (indices into the system's list; empty:
    /// the system's default).
    pub until: Vec<usize>,
    /// What the best plan maximises or minimises.
    pub objective: Objective,
    /// The options, in file order.
    pub options: Vec<OptionTable<'a>>,
}

impl DecisionTable<'_> {
    /// The decision's units, own first then the enemy, each with its name:
    /// the units whose state the plan in words speaks of.
    pub fn pair<U: course::NamedUnit>(&self, units: &[U]) -> Vec<(usize, String)> {
        std::iter::once(self.own)
            .chain(self.enemy)
            .map(|i| (i, units[i].unit_name().to_string()))
            .collect()
    }

    /// Solves the decision over the options a system built from it and
    /// summarises the best plan (explained at a state when `ask` names
    /// this decision); an error is located at `objective`.
    pub fn solve_with<O, F>(
        &self,
        options: &O,
        features: &F,
        ask: &DecideAsk,
    ) -> Result<Decided, InputError>
    where
        O: Options + ?Sized,
        F: Features<State = O::Carried>,
    {
        let solved = solve(&self.name, options, features, &self.objective)
            .map_err(|e| course::locate_course_error(&self.fields, e, "objective"))?;
        let mut decided = summarise(&self.name, &solved, features, ask.seed);
        if let Some(at) = ask.explain.as_ref().filter(|a| a.decision == self.name) {
            decided.at = Some(explain_at(&solved, features, at)?);
        }
        Ok(decided)
    }
}

/// Reads every `[[decision]]` table (none is no error): names unique, `own`
/// required, `repeat` read by the system's `repeats`, the objective, and
/// each option's steps.
pub fn read_decisions<'a>(
    f: &mut Fields<'a>,
    repeats: &Repeats,
    unit_names: &[&str],
) -> Result<Vec<DecisionTable<'a>>, InputError> {
    let Some(tables) = f.table_list("decision")? else {
        return Ok(Vec::new());
    };
    if tables.len() > MAX_DECISIONS {
        return Err(f.err(
            &format!("decision[{MAX_DECISIONS}]"),
            format!(
                "the scenario has {} decisions, more than the limit of {MAX_DECISIONS}",
                tables.len()
            ),
        ));
    }
    let mut out: Vec<DecisionTable<'a>> = Vec::new();
    for mut df in tables {
        let name = df.req_string("name")?;
        if out.iter().any(|d| d.name == name) {
            return Err(df.err(
                "name",
                format!("two decisions are named \"{name}\"; decision names must differ"),
            ));
        }
        let (own, enemy) = course::own_enemy(&mut df, unit_names)?;
        let own = own.ok_or_else(|| df.missing("own").one_of("", unit_names))?;
        let repeat = course::read_repeat(&mut df, repeats, 1)?.ok_or_else(|| {
            df.missing("repeat")
                .accepted("repeat = { turns = N, until = [...] }")
        })?;
        let objective = read_objective(&mut df)?;
        let before = steps(&mut df, "before")?;
        let after = steps(&mut df, "after")?;
        let option_tables = df.table_list("option")?.ok_or_else(|| {
            df.missing("option")
                .accepted("[[decision.option]] tables, each with `name` and `steps`")
        })?;
        if !(2..=MAX_OPTIONS).contains(&option_tables.len()) {
            return Err(df.err(
                "option",
                format!(
                    "a decision needs 2 to {MAX_OPTIONS} options; this one has {}",
                    option_tables.len()
                ),
            ));
        }
        let mut options: Vec<OptionTable<'a>> = Vec::new();
        for mut of in option_tables {
            let oname = of.req_string("name")?;
            if options.iter().any(|o| o.name == oname) {
                return Err(of.err(
                    "name",
                    format!("two options are named \"{oname}\"; option names must differ"),
                ));
            }
            let own_steps = steps(&mut of, "steps")?
                .filter(|s| !s.is_empty())
                .ok_or_else(|| {
                    of.missing("steps")
                        .accepted("steps = [{ procedure = \"...\", ... }, ...]")
                })?;
            of.finish()?;
            let fresh = |list: &Option<Vec<(String, Fields<'a>)>>| -> Vec<(String, Fields<'a>)> {
                list.iter()
                    .flatten()
                    .map(|(p, sf)| (p.clone(), sf.fresh()))
                    .collect()
            };
            let mut all = fresh(&before);
            all.extend(own_steps);
            all.extend(fresh(&after));
            if all.len() > MAX_STEPS {
                return Err(of.err(
                    "steps",
                    format!(
                        "this option's turn has {} steps with `before` and `after`, more than the limit of {MAX_STEPS}",
                        all.len()
                    ),
                ));
            }
            options.push(OptionTable {
                name: oname,
                steps: all,
            });
        }
        df.finish()?;
        out.push(DecisionTable {
            name,
            fields: df,
            own,
            enemy,
            turns: repeat.turns,
            until: repeat.until,
            objective,
            options,
        });
    }
    Ok(out)
}

/// A list of step tables at `key`, each with its `procedure` read.
fn steps<'a>(
    f: &mut Fields<'a>,
    key: &'static str,
) -> Result<Option<Vec<(String, Fields<'a>)>>, InputError> {
    let Some(tables) = f.table_list(key)? else {
        return Ok(None);
    };
    let mut out = Vec::new();
    for mut sf in tables {
        let procedure = sf.req_string("procedure")?;
        out.push((procedure, sf));
    }
    Ok(Some(out))
}

/// `objective = { most = "OUTCOME" }` (or `least`, `most_expected`,
/// `least_expected`): exactly one of the four.
fn read_objective(df: &mut Fields) -> Result<Objective, InputError> {
    const ACCEPTED: &str = "{ most = \"OUTCOME\" }, { least = \"OUTCOME\" }, { most_expected = \"MEASURE\" } or { least_expected = \"MEASURE\" }";
    let mut of = df
        .table("objective")?
        .ok_or_else(|| df.missing("objective").accepted(ACCEPTED))?;
    let mut found = Vec::new();
    for (key, maximise, outcome) in [
        ("most", true, true),
        ("least", false, true),
        ("most_expected", true, false),
        ("least_expected", false, false),
    ] {
        let target = if outcome {
            of.strings(key)?.map(Target::Outcome)
        } else {
            of.string(key)?.map(Target::Measure)
        };
        if let Some(target) = target {
            found.push((key, Objective { target, maximise }));
        }
    }
    of.finish()?;
    match found.len() {
        1 => Ok(found.remove(0).1),
        0 => Err(df
            .err("objective", "the objective names nothing to aim at")
            .accepted(ACCEPTED)),
        _ => Err(df
            .err(
                "objective",
                format!(
                    "the objective names {} aims ({}); it takes exactly one",
                    found.len(),
                    found.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", ")
                ),
            )
            .accepted(ACCEPTED)),
    }
}
