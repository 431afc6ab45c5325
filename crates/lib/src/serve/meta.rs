//! `GET /api/systems`: what `pikeshot list` prints, as data. Built by
//! looping over a [`Registry`]; nothing here names a system, so a new
//! system appears on the page with no change to this file.
//!
//! Every key (step, unit, course and `[rules]` keys) comes with the
//! registry's own description of what it accepts ([`KeyDoc`]), turned here
//! into the [`Control`] the page builds: a checkbox, a number with its
//! bounds, a choice of names (per card where the names differ), a unit
//! picker, or text. The server still reads every value with the CLI's own
//! readers.

use serde::Serialize;
use serde_json::Number;

use crate::scenario::limits;
use crate::systems::{KeyDoc, Kind, Registry, RuleSystem};

/// Every system.
#[derive(Clone, Debug, Serialize)]
pub struct Systems {
    /// The pikeshot version serving the page.
    pub pikeshot: &'static str,
    /// Each system, in `pikeshot list` order.
    pub systems: Vec<SystemMeta>,
    /// Every input limit, as `pikeshot list` states them.
    pub limits: Vec<(String, String)>,
}

/// One rule system.
#[derive(Clone, Debug, Serialize)]
pub struct SystemMeta {
    /// Its id (`system = "..."`).
    pub id: &'static str,
    /// The game's name.
    pub name: &'static str,
    /// Its editions (cards): `(id, card title)`; empty for one card.
    pub editions: Vec<(&'static str, &'static str)>,
    /// The edition used when none is given.
    pub default_edition: Option<&'static str>,
    /// Every procedure a step may name.
    pub procedures: Vec<ProcedureMeta>,
    /// The keys of a `[units.NAME]` table.
    pub unit_keys: Vec<KeyMeta>,
    /// Course keys beyond `name`, `steps`, `own`, `enemy` and `repeat`.
    pub course_keys: Vec<KeyMeta>,
    /// Most `repeat.turns`; 0 when courses do not repeat.
    pub max_turns: u8,
    /// The names `repeat.until` accepts: `(name, meaning)`.
    pub stop_conditions: Vec<(&'static str, &'static str)>,
    /// What `until` defaults to.
    pub default_until: &'static str,
    /// The `[rules]` keys.
    pub rules_keys: Vec<KeyMeta>,
    /// The chart ids (`pikeshot tables SYSTEM`).
    pub charts: Vec<&'static str>,
    /// The whole `pikeshot list SYSTEM` text.
    pub list: String,
}

/// One procedure.
#[derive(Clone, Debug, Serialize)]
pub struct ProcedureMeta {
    /// Its name in a step (`procedure = "..."`).
    pub name: &'static str,
    /// Rule number(s).
    pub rule: &'static str,
    /// What it resolves.
    pub summary: &'static str,
    /// Every step key, with its help and control.
    pub keys: Vec<KeyMeta>,
    /// Its outcome labels.
    pub outcomes: &'static [&'static str],
    /// Its measures.
    pub measures: &'static [&'static str],
}

/// A key with its help text and its control.
#[derive(Clone, Debug, Serialize)]
pub struct KeyMeta {
    /// The key.
    pub key: &'static str,
    /// What it means, as `pikeshot list` prints it after the key.
    pub help: String,
    /// Its default, where one value is the default.
    pub default: Option<&'static str>,
    /// The control for it.
    pub control: Control,
}

/// The control of a key, from what the registry says it accepts.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Control {
    /// `bool` (a checkbox), `int` (a whole number), `decimal` (a number
    /// with a decimal point), `enum` (a choice of `values`), `unit` (one
    /// of the scenario's units), `units` (one or a list of them) or `text`.
    pub kind: &'static str,
    /// Least number accepted (`int`, `decimal`, or an `enum` that also
    /// takes a number).
    pub min: Option<Number>,
    /// Largest number accepted.
    pub max: Option<Number>,
    /// The names accepted (`enum`), on every card.
    pub values: Vec<&'static str>,
    /// The names accepted on each card, where they differ by card:
    /// `(edition, names)`; `values` is then empty.
    pub by_edition: Vec<(&'static str, Vec<&'static str>)>,
    /// `true` and `false` are accepted too (an `int` or `enum` that is
    /// also a switch).
    pub or_bool: bool,
}

impl Control {
    /// The control of a key that accepts `kind`.
    pub fn of(kind: &Kind) -> Control {
        let c = |kind| Control {
            kind,
            ..Control::default()
        };
        let range = |kind, min: i64, max: i64| Control {
            min: Some(min.into()),
            max: Some(max.into()),
            ..c(kind)
        };
        let names = |names: &[&'static str]| Control {
            values: names.to_vec(),
            ..c("enum")
        };
        match kind {
            Kind::Bool => c("bool"),
            Kind::Int { min, max } => range("int", *min, *max),
            Kind::Decimal { min, max } => Control {
                min: Number::from_f64(*min),
                max: Number::from_f64(*max),
                ..c("decimal")
            },
            Kind::OneOf(n) => names(n),
            Kind::PerEdition(by) => Control {
                by_edition: by.iter().map(|(e, n)| (*e, n.to_vec())).collect(),
                ..c("enum")
            },
            Kind::BoolOrInt { min, max } => Control {
                or_bool: true,
                ..range("int", *min, *max)
            },
            Kind::BoolOrOneOf(n) => Control {
                or_bool: true,
                ..names(n)
            },
            Kind::OneOfOrInt { names: n, min, max } => Control {
                min: Some((*min).into()),
                max: Some((*max).into()),
                ..names(n)
            },
            Kind::Unit => c("unit"),
            Kind::Units => c("units"),
            Kind::Text => c("text"),
        }
    }
}

/// A key's metadata: `help` as `pikeshot list` prints it.
fn key_meta(k: &KeyDoc) -> KeyMeta {
    KeyMeta {
        key: k.key,
        help: k.describe(),
        default: k.default,
        control: Control::of(&k.kind),
    }
}

/// The metadata of every shipped system.
pub fn systems() -> Systems {
    systems_with(Registry::shipped())
}

/// The metadata of every system of `registry`.
pub fn systems_with(registry: Registry) -> Systems {
    Systems {
        pikeshot: env!("CARGO_PKG_VERSION"),
        systems: registry.iter().map(system).collect(),
        limits: limits::lines()
            .into_iter()
            .map(|(w, v)| (w.to_string(), v))
            .collect(),
    }
}

fn system(s: &dyn RuleSystem) -> SystemMeta {
    let keys = |docs: &[KeyDoc]| docs.iter().map(key_meta).collect::<Vec<_>>();
    SystemMeta {
        id: s.id(),
        name: s.name(),
        editions: s.editions().iter().map(|e| (e.id, e.card)).collect(),
        default_edition: s.default_edition(),
        procedures: s
            .procedures()
            .iter()
            .map(|p| ProcedureMeta {
                name: p.name,
                rule: p.rule,
                summary: p.summary,
                keys: keys(p.keys),
                outcomes: p.outcomes,
                measures: p.measures,
            })
            .collect(),
        unit_keys: keys(&s.unit_keys()),
        course_keys: keys(&s.course_keys()),
        max_turns: s.max_turns(),
        stop_conditions: s
            .stop_conditions()
            .iter()
            .map(|c| (c.name, c.meaning))
            .collect(),
        default_until: s.default_until(),
        rules_keys: keys(&s.rules_keys()),
        charts: s.charts(s.default_edition()).iter().map(|c| c.id).collect(),
        list: s.list(),
    }
}
