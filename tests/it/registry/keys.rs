//! What the registry says a key accepts is what the reader accepts: for
//! every system, every step, unit and `[rules]` key with a numeric range is
//! accepted at both ends and refused one past each (a located input error
//! naming the key), and every key with a closed set of names accepts each
//! name and refuses another with the list; every declared default is a
//! value its key accepts. Scenarios are built from text through the public
//! run path.

use pikeshot::engine::KernelMode;
use pikeshot::systems::{Kind, Registry, RuleSystem};

use crate::support::located::key_line;
use crate::support::scenario::try_prepare;

/// A scenario of one system in which a step of each of its procedures
/// builds: the top of the file (system, edition, units) and, per procedure,
/// the step keys of a step that builds.
pub(super) struct Base {
    system: &'static str,
    head: &'static str,
    steps: &'static [(&'static str, &'static [(&'static str, &'static str)])],
}

const MPBS: Base = Base {
    system: "mpbs",
    head: r#"system = "mpbs"
edition = "EDITION"

[units.foot]
kind = "heavy-infantry"
morale = 7
strength = 8

[units.horse]
kind = "cuirassier"
morale = 7
strength = 6
leader = -1

[units.gun]
kind = "artillery"
morale = 6
strength = 2
gun = "12-24lb"

[units.dragoons]
kind = "dragoons"
morale = 6
strength = 4

[units.h2]
kind = "arquebusier"
morale = 6
strength = 2

[units.h3]
kind = "arquebusier"
morale = 6
strength = 2

[units.h4]
kind = "arquebusier"
morale = 6
strength = 2

[units.h5]
kind = "arquebusier"
morale = 6
strength = 2

[units.h6]
kind = "arquebusier"
morale = 6
strength = 2

[units.h7]
kind = "arquebusier"
morale = 6
strength = 2

[units.h8]
kind = "arquebusier"
morale = 6
strength = 2

[units.h9]
kind = "arquebusier"
morale = 6
strength = 2
"#,
    steps: &[
        (
            "close-combat",
            &[("attacker", r#""horse""#), ("defender", r#""foot""#)],
        ),
        (
            "musketry",
            &[
                ("firer", r#""foot""#),
                ("target", r#""horse""#),
                ("column", r#""front""#),
            ],
        ),
        (
            "light-fire",
            &[("firer", r#""dragoons""#), ("target", r#""foot""#)],
        ),
        (
            "artillery",
            &[
                ("firer", r#""gun""#),
                ("target", r#""foot""#),
                ("range", "3"),
            ],
        ),
        ("morale-check", &[("unit", r#""foot""#)]),
        ("pursuit", &[("pursuer", r#""horse""#)]),
        ("unable-to-retreat", &[("unit", r#""foot""#)]),
        ("leader-casualty", &[]),
        ("preemption", &[("order", r#""charge""#)]),
        ("continuation", &[("order", r#""charge""#)]),
        (
            "orders-change",
            &[("order", r#""charge""#), ("to", r#""rally""#)],
        ),
        ("interception", &[("unit", r#""horse""#)]),
    ],
};

const HAKKAA: Base = Base {
    system: "hakkaa",
    head: r#"system = "hakkaa"

[units.swedes]
type = "ai"
tq = "trained"
steps = 4
fp_per_step = 1
commander = "general"
cc_value = 3

[units.imperialists]
type = "mi"
tq = "green"
steps = 4
fp_per_step = 1
cc_value = 2

[units.routed]
type = "mi"
tq = "green"
steps = 3
status = "fled"

[units.riders]
type = "lc"
tq = "trained"
steps = 2
"#,
    steps: &[
        ("tq-test", &[("unit", r#""swedes""#)]),
        (
            "fire",
            &[("firer", r#""swedes""#), ("target", r#""imperialists""#)],
        ),
        (
            "charge",
            &[("charger", r#""swedes""#), ("target", r#""imperialists""#)],
        ),
        (
            "closing",
            &[("charger", r#""swedes""#), ("target", r#""imperialists""#)],
        ),
        (
            "charge-reaction",
            &[("charger", r#""swedes""#), ("target", r#""imperialists""#)],
        ),
        (
            "close-combat",
            &[
                ("attacker", r#""swedes""#),
                ("defender", r#""imperialists""#),
            ],
        ),
        ("fleeing", &[("unit", r#""routed""#)]),
        (
            "uncontrolled",
            &[("unit", r#""swedes""#), ("situation", r#""defending""#)],
        ),
    ],
};

const SNAPHANCE: Base = Base {
    system: "snaphance",
    head: r#"system = "snaphance"

[units.horse]
kind = "horse"
strength = 4
class = "A"
leader = true

[units.shot]
kind = "shot"
strength = 3
class = "C"

[units.pike]
kind = "pike"
strength = 5

[units.lc]
kind = "light-cavalry"
strength = 2

[units.pas]
kind = "pike-and-shot"
strength = 4
"#,
    steps: &[
        ("fire", &[("firer", r#""shot""#), ("target", r#""pike""#)]),
        (
            "melee",
            &[("attacker", r#""horse""#), ("defender", r#""shot""#)],
        ),
        ("morale-test", &[("unit", r#""pike""#), ("hits", "1")]),
        ("order-test", &[("unit", r#""horse""#)]),
        ("pursuit", &[("pursuer", r#""horse""#)]),
    ],
};

const SWORD_SPEAR: Base = Base {
    system: "sword-and-spear",
    head: r#"system = "sword-and-spear"

[units.archers]
troop = "cavalry"
discipline = 3
strength = 3
weapon = "bow"
commander = "captain"

[units.spearmen]
troop = "medium-foot"
discipline = 4
strength = 4
melee_weapon = "spears"

[units.guns]
troop = "artillery"
discipline = 4
strength = 2
weapon = "artillery"
"#,
    steps: &[
        ("activation", &[("unit", r#""archers""#)]),
        ("discipline-test", &[("unit", r#""spearmen""#)]),
        (
            "shooting",
            &[
                ("firer", r#""archers""#),
                ("target", r#""spearmen""#),
                ("range", "2"),
            ],
        ),
        (
            "melee",
            &[("attacker", r#""archers""#), ("defender", r#""spearmen""#)],
        ),
        ("commander-risk", &[("unit", r#""archers""#)]),
    ],
};

/// Step keys a value needs beside it to be about the key alone (the
/// procedure, the key, the value or every value (`None`), then the keys it
/// needs): a value that the scenario itself would refuse for another
/// reason, as the card says.
type Beside = (
    &'static str,
    &'static str,
    Option<&'static str>,
    &'static [(&'static str, &'static str)],
);
const BESIDE: &[Beside] = &[
    // One pistol shot per attacking cavalry unit: nine cavalry attackers.
    (
        "close-combat",
        "attacker_pistols",
        None,
        &[(
            "attacker",
            r#"["horse", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "h9"]"#,
        )],
    ),
    // The longest shot: the artillery's range plus all its bonus range.
    (
        "shooting",
        "range",
        None,
        &[("firer", r#""guns""#), ("bonus_range", "8")],
    ),
    // Heavy infantry momentum needs a heavy infantry attacker (11.3.6).
    (
        "close-combat",
        "momentum",
        Some(r#""heavy-infantry""#),
        &[("attacker", r#""foot""#), ("defender", r#""horse""#)],
    ),
    // The desired order is not the current one (5.7).
    (
        "orders-change",
        "order",
        Some(r#""rally""#),
        &[("to", r#""charge""#)],
    ),
    (
        "orders-change",
        "to",
        Some(r#""charge""#),
        &[("order", r#""rally""#)],
    ),
    // The "Fleeing enemy" table is for cavalry only.
    (
        "uncontrolled",
        "situation",
        Some(r#""fleeing-enemy""#),
        &[("unit", r#""riders""#)],
    ),
    // Hexes moved are counted by light cavalry (up to 4H) and dragoons.
    ("fire", "hexes_moved", None, &[("firer", r#""lc""#)]),
    // A group move needs a group.
    (
        "activation",
        "need",
        Some(r#""group-move""#),
        &[("group", r#""spearmen""#)],
    ),
];

/// The scenario text with one step of `procedure` (its base keys, then
/// `extra`, each replacing a base key of the same name).
pub(super) fn scenario(
    base: &Base,
    edition: &str,
    procedure: &str,
    extra: &[(&str, String)],
) -> String {
    let (_, keys) = base
        .steps
        .iter()
        .find(|(p, _)| *p == procedure)
        .unwrap_or_else(|| panic!("{}: no base step for {procedure}", base.system));
    let mut text = base.head.replace("EDITION", edition);
    text.push_str(&format!(
        "\n[[course]]\nname = \"t\"\n\n[[course.steps]]\nprocedure = \"{procedure}\"\n"
    ));
    for (k, v) in keys.iter() {
        if !extra.iter().any(|(e, _)| e == k) {
            text.push_str(&format!("{k} = {v}\n"));
        }
    }
    for (k, v) in extra {
        text.push_str(&format!("{k} = {v}\n"));
    }
    text
}

/// The keys a value of `key` needs beside it, then `key = value`.
fn with(procedure: &str, key: &str, value: String) -> Vec<(&'static str, String)> {
    let mut out: Vec<(&'static str, String)> = BESIDE
        .iter()
        .filter(|(p, k, v, _)| *p == procedure && *k == key && v.is_none_or(|v| v == value))
        .flat_map(|(_, _, _, kv)| kv.iter().map(|(k, v)| (*k, v.to_string())))
        .collect();
    out.retain(|(k, _)| *k != key);
    out.push((leak(key), value));
    out
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

/// A sweep over the registry: how many values it tried and every check
/// that failed, all listed together at the end rather than the first
/// alone.
#[derive(Default)]
struct Checks {
    tried: usize,
    failures: Vec<String>,
}

impl Checks {
    /// Records a failure unless `text` builds.
    fn accepted(&mut self, text: &str, what: &str) {
        if let Err(e) = try_prepare("keys.toml", text, KernelMode::Auto) {
            self.failures.push(format!("{what}: refused: {e}"));
        }
    }

    /// Records a failure unless `text` is refused with an input error
    /// (exit 2) located at `key` of the step (its line in the file), whose
    /// text contains each of `says`.
    fn refused(&mut self, text: &str, key: &str, says: &[String], what: &str) {
        let line = key_line(text, key);
        self.refused_at(text, &format!("course[0].steps[0].{key}"), line, says, what);
    }

    /// Records a failure unless `text` is refused with an input error
    /// (exit 2) at key path `at`, line `line`, whose text contains each of
    /// `says`.
    fn refused_at(&mut self, text: &str, at: &str, line: usize, says: &[String], what: &str) {
        let e = match try_prepare("keys.toml", text, KernelMode::Auto) {
            Err(pikeshot::Error::Input(e)) => e,
            Err(e) => {
                return self
                    .failures
                    .push(format!("{what}: not an input error: {e}"));
            }
            Ok(_) => return self.failures.push(format!("{what}: accepted")),
        };
        let located = e.key.as_deref() == Some(at)
            && e.line == Some(line)
            && e.file.as_deref() == Some("keys.toml");
        let shown = e.to_string();
        let missing: Vec<&String> = says
            .iter()
            .filter(|s| !shown.contains(s.as_str()))
            .collect();
        if !located || !missing.is_empty() {
            self.failures.push(format!(
                "{what}: refused as {e} (want {at}, line {line}; missing {missing:?})"
            ));
        }
    }

    /// Asserts no check failed (listing every failure) and that more than
    /// `least` values were tried (not vacuous).
    #[track_caller]
    fn assert_all_held(&self, least: usize) {
        assert!(
            self.failures.is_empty(),
            "{} failures:\n{}",
            self.failures.len(),
            self.failures.join("\n")
        );
        assert!(self.tried > least, "{}", self.tried);
    }
}

/// The names `kind` accepts on edition `ed` (none for a kind without
/// names).
fn names_on(kind: &Kind, ed: &str) -> Vec<&'static str> {
    match kind {
        Kind::OneOf(n) | Kind::BoolOrOneOf(n) | Kind::OneOfOrInt { names: n, .. } => n.to_vec(),
        Kind::PerEdition(by) => by
            .iter()
            .find(|(e, _)| *e == ed)
            .map(|(_, n)| n.to_vec())
            .unwrap_or_else(|| panic!("no names on {ed}: {kind:?}")),
        _ => Vec::new(),
    }
}

/// The whole numbers `kind` accepts, `(min, max)`, if any.
fn range_of(kind: &Kind) -> Option<(i64, i64)> {
    match *kind {
        Kind::Int { min, max }
        | Kind::BoolOrInt { min, max }
        | Kind::OneOfOrInt { min, max, .. } => Some((min, max)),
        _ => None,
    }
}

/// A value to set a key to, and what the registry says of it: accepted
/// (`None`) or refused with a message naming each of the strings.
type Trial = (String, Option<Vec<String>>);

/// The values a key of `kind` is tried with under edition `ed`: each name
/// it accepts, then an unknown one (refused, naming them all); the ends of
/// its range, then one past each (refused).
fn trials(kind: &Kind, ed: &str) -> Vec<Trial> {
    let names = names_on(kind, ed);
    let mut t: Vec<Trial> = names.iter().map(|n| (format!("{n:?}"), None)).collect();
    if !names.is_empty() {
        let says = names.iter().map(|n| n.to_string()).collect();
        t.push(("\"no-such-name\"".to_string(), Some(says)));
    }
    if let Some((min, max)) = range_of(kind) {
        t.extend([min, max].map(|v| (v.to_string(), None)));
        t.extend([min - 1, max + 1].map(|v| (v.to_string(), Some(vec![]))));
    }
    t
}

/// The base scenario of `system`.
fn base_of(system: &str) -> &'static Base {
    [&MPBS, &HAKKAA, &SNAPHANCE, &SWORD_SPEAR]
        .into_iter()
        .find(|b| b.system == system)
        .unwrap_or_else(|| panic!("no base scenario for {system}"))
}

/// Every system of the registry with its base scenario, under each
/// edition it has (every card), or under none (`""`).
pub(super) fn system_editions() -> Vec<(&'static dyn RuleSystem, &'static Base, &'static str)> {
    let mut grid = Vec::new();
    for &sys in Registry::shipped().systems() {
        let base = base_of(sys.id());
        let eds: Vec<&'static str> = sys.editions().iter().map(|e| e.id).collect();
        if eds.is_empty() {
            grid.push((sys, base, ""));
        }
        grid.extend(eds.into_iter().map(|ed| (sys, base, ed)));
    }
    grid
}

#[test]
fn every_step_key_accepts_what_the_registry_says_and_refuses_the_rest() {
    let mut checks = Checks::default();
    for (sys, base, ed) in system_editions() {
        for p in sys.procedures() {
            let at = |key: &str, v: String| scenario(base, ed, p.name, &with(p.name, key, v));
            let what = |k: &str, v: &str| format!("{} {ed} {}.{k} = {v}", sys.id(), p.name);
            checks.accepted(&scenario(base, ed, p.name, &[]), &what("(base)", ""));
            for k in p.keys {
                for (v, refusal) in trials(&k.kind, ed) {
                    let text = at(k.key, v.clone());
                    let what = what(k.key, &v);
                    match refusal {
                        None => checks.accepted(&text, &what),
                        Some(says) => checks.refused(&text, k.key, &says, &what),
                    }
                    checks.tried += 1;
                }
            }
        }
    }
    checks.assert_all_held(300);
}

/// Unit keys a value needs another unit for, or other keys beside (the
/// system, the key, the value or every value, the unit whose table it is
/// set in, then the unit's other keys), as the card says: a gun is for
/// artillery, ranks for pikes, losses short of the strength...
type UnitFor = (
    &'static str,
    &'static str,
    Option<&'static str>,
    &'static str,
    &'static [(&'static str, &'static str)],
);
const UNIT_FOR: &[UnitFor] = &[
    ("mpbs", "gun", None, "gun", &[]),
    ("mpbs", "kind", Some(r#""artillery""#), "gun", &[]),
    (
        "mpbs",
        "casualty_points",
        None,
        "foot",
        &[("strength", "30")],
    ),
    ("hakkaa", "fp", None, "riders", &[]),
    ("snaphance", "ranks", None, "pike", &[]),
    ("snaphance", "sp_lost", None, "horse", &[("strength", "30")]),
    ("snaphance", "era", None, "pas", &[]),
    (
        "sword-and-spear",
        "hits",
        None,
        "spearmen",
        &[("strength", "10")],
    ),
    (
        "sword-and-spear",
        "command_by",
        None,
        "spearmen",
        &[("command_distance", "1")],
    ),
    (
        "sword-and-spear",
        "command_distance",
        None,
        "spearmen",
        &[("command_by", r#""captain""#)],
    ),
];

/// The step a unit key is tried under: one whose roll the unit's state
/// does not forbid (a close combat is NA into some terrain).
const UNIT_STEP: &[(&str, &str)] = &[
    ("mpbs", "morale-check"),
    ("hakkaa", "tq-test"),
    ("snaphance", "morale-test"),
    ("sword-and-spear", "discipline-test"),
];

/// `text` with `key = value` in `[units.UNIT]` (replacing the key's line
/// there, if any), and that line's number.
fn with_unit_key(text: &str, unit: &str, key: &str, value: &str) -> (String, usize) {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let head = lines
        .iter()
        .position(|l| l.trim() == format!("[units.{unit}]"))
        .unwrap_or_else(|| panic!("no unit {unit}"));
    let end = (head + 1..lines.len())
        .find(|&i| lines[i].starts_with('['))
        .unwrap_or(lines.len());
    let set = format!("{key} = {value}");
    let at = match (head + 1..end).find(|&i| lines[i].starts_with(&format!("{key} ="))) {
        Some(i) => {
            lines[i] = set;
            i
        }
        None => {
            lines.insert(head + 1, set);
            head + 1
        }
    };
    (lines.join("\n") + "\n", at + 1)
}

#[test]
fn every_unit_key_accepts_what_the_registry_says_and_refuses_the_rest() {
    let mut checks = Checks::default();
    for (sys, base, ed) in system_editions() {
        let first = base
            .head
            .lines()
            .find_map(|l| l.strip_prefix("[units.")?.strip_suffix(']'))
            .unwrap();
        let procedure = UNIT_STEP.iter().find(|(s, _)| *s == sys.id()).unwrap().1;
        let text = scenario(base, ed, procedure, &[]);
        for k in sys.unit_keys() {
            let context = |v: &str| {
                UNIT_FOR.iter().find(|(s, key, val, _, _)| {
                    *s == sys.id() && *key == k.key && val.is_none_or(|x| x == v)
                })
            };
            let unit = |v: &str| context(v).map_or(first, |f| f.3);
            // The scenario with the key's context, then `key = v`.
            let set = |v: &str| {
                let mut t = text.clone();
                for (key, val) in context(v).map_or(&[][..], |f| f.4) {
                    t = with_unit_key(&t, unit(v), key, val).0;
                }
                with_unit_key(&t, unit(v), k.key, v)
            };
            let what = |v: &str| format!("{} {ed} units.{}.{} = {v}", sys.id(), unit(v), k.key);
            for (v, refusal) in trials(&k.kind, ed) {
                let (t, line) = set(&v);
                match refusal {
                    None => checks.accepted(&t, &what(&v)),
                    Some(says) => {
                        let at = format!("units.{}.{}", unit(&v), k.key);
                        checks.refused_at(&t, &at, line, &says, &what(&v));
                    }
                }
                checks.tried += 1;
            }
        }
    }
    checks.assert_all_held(100);
}

/// `text` with `key = value` in a `[rules]` table at its end, and that
/// line's number.
fn with_rules_key(text: &str, key: &str, value: &str) -> (String, usize) {
    let t = format!("{text}\n[rules]\n{key} = {value}\n");
    let line = t.lines().count();
    (t, line)
}

#[test]
fn every_rules_key_accepts_what_the_registry_says_and_refuses_the_rest() {
    let mut checks = Checks::default();
    for (sys, base, ed) in system_editions() {
        let procedure = UNIT_STEP.iter().find(|(s, _)| *s == sys.id()).unwrap().1;
        let text = scenario(base, ed, procedure, &[]);
        for k in sys.rules_keys() {
            let what = |v: &str| format!("{} {ed} rules.{} = {v}", sys.id(), k.key);
            for (v, refusal) in trials(&k.kind, ed) {
                let (t, line) = with_rules_key(&text, k.key, &v);
                match refusal {
                    None => checks.accepted(&t, &what(&v)),
                    Some(says) => {
                        let at = format!("rules.{}", k.key);
                        checks.refused_at(&t, &at, line, &says, &what(&v));
                    }
                }
                checks.tried += 1;
            }
        }
    }
    checks.assert_all_held(20);
}

/// Whether `kind` accepts `value` as written in a key's declared default.
fn accepts(kind: &Kind, ed: &str, value: &str) -> bool {
    let names = names_on(kind, ed);
    let bool_ok = matches!(
        kind,
        Kind::Bool | Kind::BoolOrInt { .. } | Kind::BoolOrOneOf(_)
    ) && (value == "true" || value == "false");
    let int_ok = range_of(kind)
        .zip(value.parse::<i64>().ok())
        .is_some_and(|((min, max), v)| (min..=max).contains(&v));
    bool_ok || int_ok || names.contains(&value)
}

#[test]
fn every_declared_default_is_a_value_its_key_accepts() {
    let mut tried = 0;
    for (sys, _, ed) in system_editions() {
        let steps = sys.procedures().iter().flat_map(|p| p.keys.iter().cloned());
        let keys: Vec<_> = sys
            .unit_keys()
            .into_iter()
            .chain(sys.rules_keys())
            .chain(sys.course_keys())
            .chain(steps)
            .collect();
        for k in keys {
            let Some(d) = k.default else { continue };
            if matches!(k.kind, Kind::Text | Kind::Unit | Kind::Units) {
                continue;
            }
            assert!(
                accepts(&k.kind, ed, d),
                "{} {ed} {}: default {d} is not among {}",
                sys.id(),
                k.key,
                k.kind.accepts()
            );
            tried += 1;
        }
    }
    assert!(tried > 50, "{tried}");
}
