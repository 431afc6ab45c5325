//! The ordered keys of a scenario ("knobs"): every unit, step, course and
//! `[rules]` key its system declares with an order (a whole-number range,
//! a switch, names in the card's order), with the values it accepts in
//! that order and the value the scenario gives it (or its declared
//! default).

use std::borrow::Cow;

use crate::error::InputError;
use crate::scenario::ScenarioFile;
use crate::scenario::doc::get_path;
use crate::systems::{self, KeyDoc, Kind};

/// Unit keys that name what a unit is rather than modify it: moving one a
/// step makes another unit, not the same unit a little better.
const IDENTITY_KEYS: &[&str] = &["kind", "type", "troop"];

/// Most values one key may take in a `balance` curve: a range wider than
/// this is cut to it (around the current value) unless `--vary` names one.
pub const MAX_CURVE: usize = 200;

/// One ordered key of a scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Knob {
    /// The key as `--set` names it: `units.pike.morale`,
    /// `course[0].steps[1].extra_drm`, `rules.strict`, `edition`.
    pub path: String,
    /// What the card calls it: the key's help, as `pikeshot list` prints it.
    pub label: &'static str,
    /// Every accepted value, in order (least first).
    pub values: Vec<toml::Value>,
    /// The position of the scenario's value in `values`; `None` when the
    /// scenario leaves the key to a default its reader computes.
    pub current: Option<usize>,
}

impl Knob {
    /// Value `i` as text (names bare, as in a variant label).
    pub fn text(&self, i: usize) -> String {
        crate::targets::short(&self.values[i])
    }

    /// The `--set` assignment giving the key value `i`.
    pub fn assignment(&self, i: usize) -> String {
        format!("{}={}", self.path, self.values[i])
    }

    /// `KEY=VALUE` as a person writes it on the command line (names bare),
    /// which `--set` reads back to the same value.
    pub fn shown(&self, i: usize) -> String {
        format!("{}={}", self.path, self.text(i))
    }

    /// The position of `text` (a value as written on the command line)
    /// among the accepted values.
    pub fn position(&self, text: &str) -> Option<usize> {
        (0..self.values.len()).find(|&i| self.text(i) == text)
    }
}

/// The ordered values of a kind on `edition`, or `None` for a kind that has
/// no order (a unit, free text, a decimal), given the scenario's value.
fn ordered(
    kind: &Kind,
    edition: Option<&str>,
    now: Option<&toml::Value>,
) -> Option<Vec<toml::Value>> {
    let ints = |min: i64, max: i64| (min..=max).map(toml::Value::Integer).collect::<Vec<_>>();
    let names = |n: &[&str]| {
        n.iter()
            .map(|s| toml::Value::String(s.to_string()))
            .collect()
    };
    let bools = || vec![toml::Value::Boolean(false), toml::Value::Boolean(true)];
    Some(match kind {
        Kind::Bool => bools(),
        Kind::Int { min, max } => ints(*min, *max),
        Kind::OneOf(n) => names(n),
        Kind::PerEdition(by) => {
            let found = by.iter().find(|(e, _)| Some(*e) == edition).or(by.last())?;
            names(&found.1)
        }
        // A mixed kind moves within the part the scenario's value is in.
        Kind::BoolOrInt { min, max } => match now {
            Some(toml::Value::Integer(_)) => ints(*min, *max),
            Some(toml::Value::Boolean(_)) => bools(),
            _ => return None,
        },
        Kind::BoolOrOneOf(n) => match now {
            Some(toml::Value::String(_)) => names(n),
            Some(toml::Value::Boolean(_)) => bools(),
            _ => return None,
        },
        Kind::OneOfOrInt { names: n, min, max } => match now {
            Some(toml::Value::Integer(_)) => ints(*min, *max),
            Some(toml::Value::String(_)) => names(n),
            _ => return None,
        },
        Kind::Decimal { .. } | Kind::Unit | Kind::Units | Kind::Text => return None,
    })
}

/// The knob of `doc` at `path`, given the table's value there.
fn knob(doc: &KeyDoc, path: String, table: &toml::Table, edition: Option<&str>) -> Option<Knob> {
    let set = get_path(table, &path).cloned();
    let default = match (&set, doc.default) {
        (Some(_), _) | (None, None) => None,
        (None, Some(d)) => Some(
            toml::from_str::<toml::Table>(&format!("v = {d}"))
                .ok()
                .and_then(|mut t| t.remove("v"))
                .unwrap_or_else(|| toml::Value::String(d.to_string())),
        ),
    };
    let now = set.or(default);
    let values = ordered(&doc.kind, edition, now.as_ref())?;
    let current = now.and_then(|v| values.iter().position(|x| *x == v));
    Some(Knob {
        path,
        label: doc.help.trim_start_matches("required: "),
        values,
        current,
    })
}

/// Every ordered key of `file` (after `--set`, its sweep pinned): the
/// edition, the `[rules]` switches, each unit's keys, each course's keys
/// and each step's keys, in that order.
pub fn knobs(file: &ScenarioFile) -> Result<Vec<Knob>, InputError> {
    let t = &file.table;
    let system_id = t.get("system").and_then(toml::Value::as_str).unwrap_or("");
    let system = systems::Registry::shipped()
        .find(system_id)
        .map_err(|e| file.source.locate(e, "system"))?;
    let edition = t
        .get("edition")
        .and_then(toml::Value::as_str)
        .or(system.default_edition());
    let mut out = Vec::new();
    if !system.editions().is_empty() {
        let ids: Vec<&'static str> = system.editions().iter().map(|e| e.id).collect();
        let doc = KeyDoc::new("edition", Kind::OneOf(Cow::Owned(ids)), "the card");
        let mut k = knob(&doc, "edition".into(), t, edition);
        if let Some(k) = &mut k
            && k.current.is_none()
        {
            k.current = edition.and_then(|e| k.position(e));
        }
        out.extend(k);
    }
    for doc in system.rules_keys() {
        out.extend(knob(&doc, format!("rules.{}", doc.key), t, edition));
    }
    let unit_keys = system.unit_keys();
    if let Some(units) = t.get("units").and_then(toml::Value::as_table) {
        for name in units.keys() {
            for doc in unit_keys.iter().filter(|d| !IDENTITY_KEYS.contains(&d.key)) {
                let path = format!("units.{}.{}", path_name(name), doc.key);
                out.extend(knob(doc, path, t, edition));
            }
        }
    }
    let course_keys = system.course_keys();
    let courses = t.get("course").and_then(toml::Value::as_array);
    for (c, course) in courses.into_iter().flatten().enumerate() {
        for doc in &course_keys {
            out.extend(knob(doc, format!("course[{c}].{}", doc.key), t, edition));
        }
        let steps = course.get("steps").and_then(toml::Value::as_array);
        for (s, step) in steps.into_iter().flatten().enumerate() {
            let Some(proc_name) = step.get("procedure").and_then(toml::Value::as_str) else {
                continue;
            };
            let Some(info) = system.procedures().iter().find(|p| p.name == proc_name) else {
                continue;
            };
            for doc in info.keys {
                let path = format!("course[{c}].steps[{s}].{}", doc.key);
                out.extend(knob(doc, path, t, edition));
            }
        }
    }
    Ok(out)
}

/// A unit's name as a key path segment: bare when it can be, else quoted.
fn path_name(name: &str) -> String {
    if !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        name.to_string()
    } else {
        format!("{:?}", name)
    }
}
