//! Reading the `[[expect]]` entries of a scenario: the keys, the course,
//! the outcome or measure named, the variant filter and the bounds.

use super::{Expect, MEAN_PREFIX, Target};
use crate::error::InputError;
use crate::outcome::{OutcomeSpace, kebab_id};
use crate::report::key::KEY_OUTCOMES;
use crate::scenario::{Fields, ScenarioFile};

/// Removes `expect` from a scenario's table, returning it. Called after
/// `--set` (so `--set expect[0].at_least=0.5` works) and before the sweep is
/// expanded; a sweep over an `expect` key is refused.
pub fn take(file: &mut ScenarioFile) -> Result<Option<toml::Value>, InputError> {
    if let Some(toml::Value::Table(sweep)) = file.table.get("sweep")
        && let Some(k) = sweep
            .keys()
            .find(|k| *k == "expect" || k.starts_with("expect.") || k.starts_with("expect["))
    {
        let path = format!("sweep.{k}");
        return Err(file.source.locate(
            InputError::new(
                "targets cannot be swept; give each variant its own [[expect]] entry with `variant`",
            )
            .key(path.clone()),
            &path,
        ));
    }
    Ok(file.table.remove("expect"))
}

/// The sweep of a scenario as the expectations see it.
pub struct Scope<'a> {
    /// The scenario (its source, for located errors, and its table after
    /// `--set`, for pinned keys).
    pub file: &'a ScenarioFile,
    /// Every variant label, in order.
    pub labels: Vec<String>,
    /// The sweep's keys and their values (as in the labels).
    pub axes: Vec<(String, Vec<String>)>,
    /// Keys set with `--set`.
    pub pinned: Vec<String>,
    /// (variant label, course name, outcome space) of every course.
    pub courses: Vec<(String, String, &'a OutcomeSpace)>,
}

impl<'a> Scope<'a> {
    /// The sweep axes of `file` (after `--set`, before expansion).
    pub fn axes_of(file: &ScenarioFile) -> Vec<(String, Vec<String>)> {
        match file.table.get("sweep") {
            Some(toml::Value::Table(t)) => t
                .iter()
                .map(|(k, v)| {
                    let vals = v
                        .as_array()
                        .map(|a| a.iter().map(short).collect())
                        .unwrap_or_default();
                    (k.clone(), vals)
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// A value as a variant label shows it: strings bare, the rest as TOML.
pub fn short(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The value at a key path (`units.tercio.terrain`,
/// `course[1].steps[0].column`, `course."charge now".steps[0].column`), if
/// present: the same reading of a path as `--set` and `[sweep]`.
#[doc(hidden)]
pub fn lookup<'t>(table: &'t toml::Table, path: &str) -> Option<&'t toml::Value> {
    crate::scenario::doc::get_path(table, path)
}

/// Splits a `variant` filter on its commas, but not on those inside a
/// quoted course name (`course."salvo, then charge".steps[0].column=salvo`).
fn filter_parts(spec: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut from, mut quoted, mut escaped) = (0, false, false);
    for (i, c) in spec.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ',' if !quoted => {
                parts.push(&spec[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&spec[from..]);
    parts
}

/// Reads a number (integer or float) at `key`, marking it as read.
fn number(f: &mut Fields, raw: &toml::Table, key: &'static str) -> Result<Option<f64>, InputError> {
    if !f.has(key) {
        return Ok(None);
    }
    match raw.get(key) {
        Some(toml::Value::Integer(i)) => Ok(Some(*i as f64)),
        Some(toml::Value::Float(x)) if x.is_finite() => Ok(Some(*x)),
        Some(v) => Err(f.locate(
            key,
            InputError::new(format!(
                "expected a number, found {}",
                crate::scenario::fields::describe(v)
            ))
            .accepted("a number, e.g. 0.4 (a probability as a fraction) or 1.5 (a mean)"),
        )),
        None => Ok(None),
    }
}

/// Reads and validates the `[[expect]]` entries removed by [`take`] against
/// the courses of every variant. Errors name the file, line and key, with a
/// did-you-mean for an unknown course, outcome, measure or variant.
pub fn read(value: Option<&toml::Value>, scope: &Scope) -> Result<Vec<Expect>, InputError> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let mut root = toml::Table::new();
    root.insert("expect".into(), value.clone());
    let mut top = Fields::new(&scope.file.source, "", &root);
    let entries = top.table_list("expect")?.unwrap_or_default();
    let raws: Vec<&toml::Table> = value
        .as_array()
        .map(|a| a.iter().filter_map(toml::Value::as_table).collect())
        .unwrap_or_default();
    let mut out = Vec::with_capacity(entries.len());
    for (i, (mut f, raw)) in entries.into_iter().zip(raws).enumerate() {
        out.push(read_entry(i, &mut f, raw, scope)?);
    }
    Ok(out)
}

fn read_entry(
    entry: usize,
    f: &mut Fields,
    raw: &toml::Table,
    scope: &Scope,
) -> Result<Expect, InputError> {
    let course = f.req_string("course")?;
    let outcome = f.string("outcome")?;
    let measure = f.string("measure")?;
    let variant = f.string("variant")?;
    let at_least = number(f, raw, "at_least")?;
    let at_most = number(f, raw, "at_most")?;
    f.finish()?;

    // The variants the entry applies to.
    let variants = match &variant {
        None => None,
        Some(spec) => Some(resolve_variant(spec, f, scope)?),
    };
    let applies = |label: &str| {
        variants
            .as_ref()
            .is_none_or(|v| v.iter().any(|x| x == label))
    };
    let in_scope: Vec<&(String, String, &OutcomeSpace)> = scope
        .courses
        .iter()
        .filter(|(v, _, _)| applies(v))
        .collect();

    // The course.
    let mut names: Vec<&str> = Vec::new();
    for (_, c, _) in &scope.courses {
        if !names.contains(&c.as_str()) {
            names.push(c);
        }
    }
    if !names.contains(&course.as_str()) {
        return Err(f.locate(
            "course",
            InputError::new(format!("no course named \"{course}\" in this scenario"))
                .one_of(&course, &names),
        ));
    }
    let spaces: Vec<(&str, &OutcomeSpace)> = in_scope
        .iter()
        .filter(|(_, c, _)| *c == course)
        .map(|(v, _, s)| (v.as_str(), *s))
        .collect();
    let in_variant = |v: &str| {
        if v.is_empty() {
            String::new()
        } else {
            format!(" in variant `{v}`")
        }
    };

    // What is pinned.
    let target = match (&outcome, &measure) {
        (Some(_), Some(_)) => {
            return Err(f.err(
                "measure",
                "an entry pins either an `outcome` or a `measure`, not both",
            ));
        }
        (None, None) => {
            return Err(f
                .err("course", "the entry pins nothing: give `outcome` or `measure`")
                .accepted(
                    "outcome = \"<outcome id>\", or measure = \"<key outcome>\" or \"mean:<measure>\"",
                ));
        }
        (Some(o), None) => {
            for (v, space) in &spaces {
                if let Some(id) = space.id_for_old_name(o) {
                    return Err(f.locate(
                        "outcome",
                        InputError::new(format!(
                            "`outcome = \"{o}\"` is the card's label: `[[expect]]` names an outcome by its id, \"{id}\""
                        ))
                        .accepted(format!("outcome = \"{id}\"")),
                    ));
                }
                if space.outcome_index_by_id(o).is_none() {
                    return Err(f.locate(
                        "outcome",
                        InputError::new(format!(
                            "course \"{course}\"{} has no outcome \"{o}\"",
                            in_variant(v)
                        ))
                        .one_of(o, space.outcome_ids()),
                    ));
                }
            }
            Target::Outcome(o.clone())
        }
        (None, Some(m)) => {
            let target = if let Some(name) = m.strip_prefix(MEAN_PREFIX) {
                Target::Mean(name.to_string())
            } else if let Some(def) = KEY_OUTCOMES.iter().find(|d| d.name == m) {
                Target::Key(*def)
            } else if let Some(def) = KEY_OUTCOMES
                .iter()
                .find(|d| d.label == m || d.name == kebab_id(m))
            {
                // A key outcome's label, as the terminal shows it.
                return Err(f.locate(
                    "measure",
                    InputError::new(format!(
                        "`measure = \"{m}\"` is the label the terminal shows: `[[expect]]` names a key outcome by its id, \"{}\"",
                        def.name
                    ))
                    .accepted(format!("measure = \"{}\"", def.name)),
                ));
            } else if let Some(id) = spaces.iter().find_map(|(_, s)| {
                s.measures()
                    .iter()
                    .find(|x| x.display() == m || x.id() == m || x.id() == kebab_id(m))
                    .map(|x| x.id().to_string())
            }) {
                // A measure named without `mean:`.
                return Err(f.locate(
                    "measure",
                    InputError::new(format!(
                        "`measure = \"{m}\"` names a measure: `[[expect]]` pins its mean as \"{MEAN_PREFIX}{id}\""
                    ))
                    .accepted(format!("measure = \"{MEAN_PREFIX}{id}\"")),
                ));
            } else {
                // Unknown everywhere: list what the course offers.
                let accepted = spaces
                    .first()
                    .map(|(_, s)| measures_of(s))
                    .unwrap_or_default();
                return Err(f.locate(
                    "measure",
                    InputError::new(format!("unknown measure \"{m}\"")).one_of(m, &accepted),
                ));
            };
            for (v, space) in &spaces {
                let present = match &target {
                    Target::Key(d) => space.measure_index(d.measure).is_some(),
                    Target::Mean(name) => space.measure_index(name).is_some(),
                    Target::Outcome(_) => true,
                };
                if !present {
                    if let Target::Mean(name) = &target
                        && let Some(m) = space
                            .measures()
                            .iter()
                            .find(|m| m.display() == name.as_str() || m.id() == kebab_id(name))
                    {
                        let id = m.id();
                        return Err(f.locate(
                            "measure",
                            InputError::new(format!(
                                "`measure = \"{MEAN_PREFIX}{name}\"` is the card's label: `[[expect]]` names a measure by its id, \"{MEAN_PREFIX}{id}\""
                            ))
                            .accepted(format!("measure = \"{MEAN_PREFIX}{id}\"")),
                        ));
                    }
                    return Err(f.locate(
                        "measure",
                        InputError::new(format!(
                            "course \"{course}\"{} has no measure \"{m}\"",
                            in_variant(v)
                        ))
                        .one_of(m, &measures_of(space)),
                    ));
                }
            }
            target
        }
    };

    // The bounds.
    if at_least.is_none() && at_most.is_none() {
        return Err(f
            .err(
                "course",
                "the entry has no bound: give `at_least`, `at_most` or both",
            )
            .accepted("at_least = 0.35, at_most = 0.45"));
    }
    if target.is_probability() {
        for (key, b) in [("at_least", at_least), ("at_most", at_most)] {
            if let Some(x) = b
                && !(0.0..=1.0).contains(&x)
            {
                return Err(f.locate(
                    key,
                    InputError::new(format!(
                        "{x} is not a probability: `{}` is a fraction",
                        target.name()
                    ))
                    .accepted("a number from 0 to 1, e.g. 0.4 for 40%"),
                ));
            }
        }
    }
    if let (Some(a), Some(b)) = (at_least, at_most)
        && a > b
    {
        return Err(f.locate(
            "at_most",
            InputError::new(format!("at_most {b} is below at_least {a}"))
                .accepted(format!("a number of at least {a}")),
        ));
    }
    Ok(Expect {
        entry,
        course,
        target,
        variant,
        variants,
        at_least,
        at_most,
    })
}

/// The measures an entry may name for a course: its key outcomes, then
/// `mean:<measure>` for each of its measures.
pub fn measures_of(space: &OutcomeSpace) -> Vec<String> {
    let mut out: Vec<String> = KEY_OUTCOMES
        .iter()
        .filter(|d| space.measure_index(d.measure).is_some())
        .map(|d| d.name.to_string())
        .collect();
    out.extend(
        space
            .measures()
            .iter()
            .map(|m| format!("{MEAN_PREFIX}{}", m.name)),
    );
    out
}

/// The variant labels a `variant = "k=v, …"` filter selects.
fn resolve_variant(spec: &str, f: &Fields, scope: &Scope) -> Result<Vec<String>, InputError> {
    let swept: Vec<String> = scope.axes.iter().map(|(k, _)| format!("{k}=…")).collect();
    let mut selected: Vec<String> = scope.labels.clone();
    for part in filter_parts(spec)
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let Some((k, v)) = part.split_once('=') else {
            return Err(f.locate(
                "variant",
                InputError::new(format!("`{part}` is not KEY=VALUE"))
                    .accepted("a sweep key and value as in the variant labels, e.g. edition=sfo"),
            ));
        };
        let (k, v) = (k.trim(), v.trim());
        if let Some((_, values)) = scope.axes.iter().find(|(key, _)| key == k) {
            if !values.iter().any(|x| x == v) {
                return Err(f.locate(
                    "variant",
                    InputError::new(format!("the sweep gives `{k}` no value \"{v}\""))
                        .one_of(v, values),
                ));
            }
            let want = format!("{k}={v}");
            selected.retain(|label| filter_parts(label).iter().any(|p| p.trim() == want));
        } else if scope.pinned.iter().any(|p| p == k) {
            // Pinned on the command line: the entry applies when it agrees.
            let now = lookup(&scope.file.table, k).map(short);
            if now.as_deref() != Some(v) {
                selected.clear();
            }
        } else {
            let msg = if scope.axes.is_empty() {
                format!("`{k}` is not swept: this scenario has no [sweep]; leave out `variant`")
            } else {
                format!("`{k}` is not a key of this scenario's [sweep]")
            };
            let keys: Vec<&str> = scope.axes.iter().map(|(k, _)| k.as_str()).collect();
            let mut e = InputError::new(msg).accepted(if swept.is_empty() {
                "no variant filter".to_string()
            } else {
                swept.join(", ")
            });
            e.suggestion = crate::error::did_you_mean(k, &keys);
            return Err(f.locate("variant", e));
        }
    }
    Ok(selected)
}
