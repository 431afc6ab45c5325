//! `GET /api/systems`: what `pikeshot list` prints, as data. Built by
//! looping over [`SYSTEMS`]; nothing here names a system, so a new system
//! appears on the page with no change to this file.
//!
//! The registry gives each key its help text (and `[rules]` and course keys
//! their accepted values); [`Control`] reads from that text which control
//! suits a key (a checkbox, a number with its range, a choice of names, or
//! text). The server still reads every value with the CLI's own readers, so
//! a control that suggests too little never accepts a wrong value.

use serde::Serialize;

use crate::scenario::limits;
use crate::systems::{KeyInfo, RuleSystem, SYSTEMS};

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
    /// The names unit keys accept, one list per line of `pikeshot list`.
    pub vocabulary: Vec<Vocabulary>,
    /// The keys of a `[units.NAME]` table.
    pub unit_keys: Vec<UnitKey>,
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

/// A key with its help text and the control that suits it.
#[derive(Clone, Debug, Serialize)]
pub struct KeyMeta {
    /// The key.
    pub key: &'static str,
    /// What it accepts and means, as `pikeshot list` prints it.
    pub help: String,
    /// Its default, where the registry states one apart from the help.
    pub default: Option<String>,
    /// The control for it.
    pub control: Control,
}

/// A unit key, with the vocabulary line that names its values (if any).
#[derive(Clone, Debug, Serialize)]
pub struct UnitKey {
    /// The key.
    pub key: &'static str,
    /// The labels of the [`Vocabulary`] lines naming its values (one per
    /// edition where the names differ by card).
    pub vocabulary: Vec<String>,
}

/// One line of a system's vocabulary, e.g. `terrain (series): clear, woods`.
#[derive(Clone, Debug, Serialize)]
pub struct Vocabulary {
    /// The label before the colon, e.g. `terrain (series)`.
    pub label: String,
    /// The edition the line is for, when its label names one.
    pub edition: Option<&'static str>,
    /// The names, without their parenthesised notes.
    pub values: Vec<String>,
}

/// Which control suits a key.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Control {
    /// `bool` (a checkbox), `int` (a number), `enum` (a choice of
    /// `values`) or `text`.
    pub kind: &'static str,
    /// Least whole number, for `int`.
    pub min: Option<i64>,
    /// Largest whole number, for `int`.
    pub max: Option<i64>,
    /// Names it accepts (`enum`), or suggests (`text`).
    pub values: Vec<String>,
}

impl Control {
    /// The control that the help text `text` describes: `true | false` a
    /// checkbox; `a | b | c` a choice; a range `-9..9` a number; a help
    /// starting with `true` a checkbox; anything else text, with the
    /// quoted names in it as suggestions.
    pub fn of(text: &str) -> Control {
        let quoted = quoted(text);
        let choice = choices(text);
        let range = range(text);
        let starts_true = text.trim_start().starts_with("true");
        if choice == ["true", "false"] || (starts_true && range.is_none() && quoted.is_empty()) {
            return Control {
                kind: "bool",
                ..Control::default()
            };
        }
        if choice.len() > 1 && !starts_true {
            return Control {
                kind: "enum",
                values: choice,
                ..Control::default()
            };
        }
        if let Some((min, max)) = range
            && !starts_true
            && quoted.is_empty()
        {
            return Control {
                kind: "int",
                min: Some(min),
                max: Some(max),
                ..Control::default()
            };
        }
        let mut values = choice;
        values.extend(quoted);
        values.dedup();
        Control {
            kind: "text",
            values,
            ..Control::default()
        }
    }
}

/// The names of the first `a | b | c` run in `text` (a name may be
/// quoted; a parenthesised note after a name is dropped).
fn choices(text: &str) -> Vec<String> {
    let first = text
        .split([':', ';', ','])
        .find(|part| part.contains(" | "));
    let Some(part) = first else {
        return Vec::new();
    };
    part.split(" | ")
        .filter_map(|piece| {
            let name = piece.split(" (").next()?.trim().trim_matches('"');
            let word = name.split_whitespace().last()?;
            (!word.is_empty()).then(|| word.trim_matches('"').to_string())
        })
        .collect()
}

/// The `"quoted"` names in `text`.
fn quoted(text: &str) -> Vec<String> {
    text.split('"')
        .skip(1)
        .step_by(2)
        .filter(|s| !s.is_empty() && !s.contains(' '))
        .map(str::to_string)
        .collect()
}

/// The first range `A..B` or `A..=B` of whole numbers in `text`.
fn range(text: &str) -> Option<(i64, i64)> {
    let i = text.find("..")?;
    let before = &text[..i];
    let start = before
        .rfind(|c: char| !(c.is_ascii_digit() || c == '-'))
        .map_or(0, |p| p + 1);
    let after = text[i + 2..].trim_start_matches('=');
    let end = after
        .find(|c: char| !(c.is_ascii_digit() || c == '-'))
        .unwrap_or(after.len());
    let (a, b) = (before[start..].parse().ok()?, after[..end].parse().ok()?);
    Some(if a <= b { (a, b) } else { (b, a) })
}

/// The metadata of every system.
pub fn systems() -> Systems {
    Systems {
        pikeshot: env!("CARGO_PKG_VERSION"),
        systems: SYSTEMS.iter().map(|s| system(*s)).collect(),
        limits: limits::lines()
            .into_iter()
            .map(|(w, v)| (w.to_string(), v))
            .collect(),
    }
}

fn key_meta(k: KeyInfo) -> KeyMeta {
    let control = Control::of(&k.accepted);
    KeyMeta {
        key: k.key,
        help: format!("{}: {}", k.accepted, k.meaning),
        default: Some(k.default),
        control,
    }
}

fn system(s: &dyn RuleSystem) -> SystemMeta {
    let editions = s.editions();
    let vocabulary = vocabulary_lines(&s.vocabulary(), editions);
    let keys: Vec<&'static str> = s
        .unit_keys()
        .into_iter()
        .flat_map(|k| k.split(" | "))
        .collect();
    let labels: Vec<String> = vocabulary.iter().map(|v| v.label.clone()).collect();
    let unit_keys = keys
        .iter()
        .zip(match_vocabulary(&keys, &labels))
        .map(|(key, vocabulary)| UnitKey { key, vocabulary })
        .collect();
    SystemMeta {
        id: s.id(),
        name: s.name(),
        editions: editions.iter().map(|e| (e.id, e.card)).collect(),
        default_edition: s.default_edition(),
        procedures: s
            .procedures()
            .iter()
            .map(|p| ProcedureMeta {
                name: p.name,
                rule: p.rule,
                summary: p.summary,
                keys: p
                    .keys
                    .iter()
                    .map(|k| KeyMeta {
                        key: k.key,
                        help: k.help.to_string(),
                        default: None,
                        control: Control::of(k.help),
                    })
                    .collect(),
                outcomes: p.outcomes,
                measures: p.measures,
            })
            .collect(),
        vocabulary,
        unit_keys,
        course_keys: s.course_keys().into_iter().map(key_meta).collect(),
        max_turns: s.max_turns(),
        stop_conditions: s
            .stop_conditions()
            .iter()
            .map(|c| (c.name, c.meaning))
            .collect(),
        default_until: s.default_until(),
        rules_keys: s.rules_keys().into_iter().map(key_meta).collect(),
        charts: s.charts(s.default_edition()).iter().map(|c| c.id).collect(),
        list: s.list(),
    }
}

/// The vocabulary of `pikeshot list` as lists: `label: a, b (note), c`
/// on one line, or `label:` followed by indented lines `  name  meaning`.
fn vocabulary_lines(text: &str, editions: &[crate::systems::EditionInfo]) -> Vec<Vocabulary> {
    let mut out: Vec<Vocabulary> = Vec::new();
    let mut open = false;
    for line in text.lines() {
        if line.starts_with(' ') {
            if open && let (Some(v), Some(name)) = (out.last_mut(), line.split_whitespace().next())
            {
                v.values.push(name.to_string());
            }
            continue;
        }
        let (label, names) = match line.split_once(": ") {
            Some(pair) => pair,
            None => match line.strip_suffix(':') {
                Some(label) => (label, ""),
                None => {
                    open = false;
                    continue;
                }
            },
        };
        open = names.is_empty();
        let edition = editions
            .iter()
            .map(|e| e.id)
            .find(|e| label.ends_with(&format!("({e})")));
        let values = names
            .split(", ")
            .map(|n| n.split(" (").next().unwrap_or(n).trim())
            .map(|n| n.trim_matches(|c| c == '(' || c == ')').to_string())
            .filter(|n| !n.is_empty())
            .collect();
        out.push(Vocabulary {
            label: label.to_string(),
            edition,
            values,
        });
    }
    out
}

/// Whether a vocabulary label names a unit key.
type Matcher<'a> = dyn Fn(&str, &str) -> bool + 'a;

/// For each unit key, the labels of the vocabulary lines naming its
/// values, matched in three passes so that a closer match wins: the label
/// names the key in backticks (`` `tq` ``) or its words, made singular,
/// are the key (`morale states` is `morale_state`); then a line no key took
/// whose last word is the key (`unit kinds` is `kind`); then one whose
/// first word is (`troop types` is `troop`).
fn match_vocabulary(keys: &[&str], labels: &[String]) -> Vec<Vec<String>> {
    let words = |label: &str| -> Vec<String> {
        label
            .split(" (")
            .next()
            .unwrap_or(label)
            .split_whitespace()
            .map(singular)
            .collect()
    };
    let exact = |label: &str, key: &str| {
        if label.contains('`') {
            label.split('`').skip(1).step_by(2).any(|k| k == key)
        } else {
            words(label).join("_") == key
        }
    };
    let mut out: Vec<Vec<String>> = vec![Vec::new(); keys.len()];
    let mut taken = vec![false; labels.len()];
    let passes: [&Matcher<'_>; 3] = [
        &exact,
        &|l, k| !l.contains('`') && words(l).last().is_some_and(|w| w == k),
        &|l, k| !l.contains('`') && words(l).first().is_some_and(|w| w == k),
    ];
    for pass in passes {
        let before = taken.clone();
        for (ki, key) in keys.iter().enumerate() {
            if !out[ki].is_empty() {
                continue;
            }
            for (li, label) in labels.iter().enumerate() {
                if !before[li] && pass(label, key) {
                    out[ki].push(label.clone());
                    taken[li] = true;
                }
            }
        }
    }
    out
}

fn singular(word: &str) -> String {
    if let Some(stem) = word.strip_suffix("ses") {
        format!("{stem}s")
    } else if let Some(stem) = word.strip_suffix('s') {
        stem.to_string()
    } else {
        word.to_string()
    }
}
