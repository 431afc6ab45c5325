//! `pikeshot explain`: why a probability is what it is.
//!
//! A system-independent model of an explanation — for every step of every
//! course: the roll (dice, table, column), each modifier with its value and
//! its source, the raw total, the limit applied and what it cost, the row
//! each die face lands on, the exact probability of each result, and the
//! rolls a result triggers — serialisable to JSON ([`Explanation`]), with a
//! text layout ([`text::render`]).
//!
//! The modifiers are not worked out again here: a procedure records each
//! term ([`Term`]) with its source when it sums its DRMs, and its
//! [`Explain::roll`] reads that record. The states a course carries into a
//! later step come from the same state machine the run resolves
//! ([`walk`]), each with the exact probability of reaching it.

use serde::{Deserialize, Serialize};

use crate::outcome::OutcomeSpace;
use crate::procedure::Procedure;

pub mod plain;
pub mod text;
pub mod walk;

/// Where a modifier came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SourceKind {
    /// A line of the card's chart (the value is printed there).
    Card,
    /// A unit's state: its kind, morale, formation, strength, terrain…
    Unit,
    /// A key of the scenario step that set it.
    Key,
    /// A `[rules]` switch of the scenario (a reading of the card).
    Rules,
}

/// The source of a modifier: what kind of thing set it, and which.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// Card line, unit state, step key or `[rules]` switch.
    pub kind: SourceKind,
    /// Which one, e.g. `swedes: morale 7, tercio: morale 6` or `fired_salvo = true`.
    pub detail: String,
}

impl Source {
    /// A line of the card.
    pub fn card(detail: impl Into<String>) -> Source {
        Source {
            kind: SourceKind::Card,
            detail: detail.into(),
        }
    }
    /// A unit's state.
    pub fn unit(detail: impl Into<String>) -> Source {
        Source {
            kind: SourceKind::Unit,
            detail: detail.into(),
        }
    }
    /// A step key.
    pub fn key(detail: impl Into<String>) -> Source {
        Source {
            kind: SourceKind::Key,
            detail: detail.into(),
        }
    }
    /// A `[rules]` switch.
    pub fn rules(detail: impl Into<String>) -> Source {
        Source {
            kind: SourceKind::Rules,
            detail: detail.into(),
        }
    }
}

/// One modifier of a roll, as the procedure summed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Term {
    /// The modifier's line, as the card (or the reading) names it.
    pub label: String,
    /// Rule number, e.g. `11.3.3`; empty when the card gives none.
    pub rule: String,
    /// Its value.
    pub value: i32,
    /// What set it.
    pub source: Source,
    /// False when the modifier was considered but could not apply (then
    /// `value` is what it would have been and `note` says why not).
    pub applied: bool,
    /// Why it did not apply, or a remark on how it was read.
    pub note: Option<String>,
}

impl Term {
    /// An applied modifier.
    pub fn new(label: impl Into<String>, rule: &str, value: i32, source: Source) -> Term {
        Term {
            label: label.into(),
            rule: rule.to_string(),
            value,
            source,
            applied: true,
            note: None,
        }
    }
    /// The same term, not applied, with the reason.
    pub fn not_applied(mut self, why: impl Into<String>) -> Term {
        self.applied = false;
        self.note = Some(why.into());
        self
    }
    /// The same term with a remark.
    pub fn noted(mut self, note: impl Into<String>) -> Term {
        self.note = Some(note.into());
        self
    }
}

/// `name`'s, or `name`' for a name ending in s: how an explanation names
/// a unit's roll ("swedes' TQ test", "tercio's fire").
pub fn possessive(name: &str) -> String {
    if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

/// A further modifier set by a step key, with no rule number: `label` with
/// `value`, its source the key as written (`key = value`); `None` when the
/// value is 0, which changes nothing.
pub fn key_term(label: impl Into<String>, key: &str, value: i32) -> Option<Term> {
    (value != 0).then(|| Term::new(label, "", value, Source::key(format!("{key} = {value}"))))
}

/// The sum of the applied terms.
pub fn sum(terms: &[Term]) -> i32 {
    terms.iter().filter(|t| t.applied).map(|t| t.value).sum()
}

/// A limit on the summed modifiers, and what it cost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limit {
    /// Lowest total allowed.
    pub min: i32,
    /// Highest total allowed.
    pub max: i32,
    /// Rule number of the limit.
    pub rule: String,
    /// How much of the raw total the limit took away (0 when it did not bite).
    pub lost: i32,
}

/// A range of die faces and the row of the table they land on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Face {
    /// The natural die faces, e.g. `0-2`.
    pub faces: String,
    /// The modified rolls, e.g. `4-6`.
    pub modified: String,
    /// The row of the table read, e.g. `7,8` or `≤0`.
    pub row: String,
    /// The result printed there.
    pub result: String,
    /// E.g. "off the table's end: reads the 9+ row".
    pub note: Option<String>,
}

/// One line of a dice pool's count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolLine {
    /// Dice added (or taken away) by this line.
    pub dice: i32,
    /// What the line is.
    pub label: String,
    /// Rule number.
    pub rule: String,
    /// What set it.
    pub source: Source,
    /// Whether it counted.
    pub applied: bool,
    /// Why not, or a remark.
    pub note: Option<String>,
}

impl PoolLine {
    /// A line adding (or taking away) `dice` dice.
    pub fn new(dice: i32, label: impl Into<String>, rule: &str, source: Source) -> PoolLine {
        PoolLine {
            dice,
            label: label.into(),
            rule: rule.to_string(),
            source,
            applied: true,
            note: None,
        }
    }
    /// The same line, not counted, with the reason (`dice` is what it
    /// would have given).
    pub fn not_applied(mut self, why: impl Into<String>) -> PoolLine {
        self.applied = false;
        self.note = Some(why.into());
        self
    }
}

/// The dice of a pool: the sum of its counted lines.
pub fn pool_sum(lines: &[PoolLine]) -> i32 {
    lines.iter().filter(|l| l.applied).map(|l| l.dice).sum()
}

/// The roll of one procedure as built for one state of its units.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// The dice, e.g. `1d10 read 0-9`.
    pub dice: String,
    /// The table read.
    pub table: String,
    /// The table's rule number.
    pub rule: String,
    /// The column read, if the table has several.
    pub column: Option<String>,
    /// How the row or column read was chosen, line by line, each with its
    /// source (e.g. the Fire Points that pick a Fire Table row).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub column_from: Vec<Term>,
    /// The modifiers, in card order, each with its source.
    pub modifiers: Vec<Term>,
    /// Sum of the applied modifiers.
    pub raw_total: i32,
    /// The limit on the total, if the table has one.
    pub limit: Option<Limit>,
    /// The modifier added to the die.
    pub final_total: i32,
    /// For a dice pool: the dice count built line by line.
    pub pool: Vec<PoolLine>,
    /// The row each die face lands on.
    pub faces: Vec<Face>,
    /// Anything else a player needs to read the roll.
    pub notes: Vec<String>,
    /// The rolls the same procedure makes after this one, each with when
    /// it is made (a Hakkaa Päälle step-loss die, commander die or
    /// Receiving Casualties test; a second side's test).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub follow_ups: Vec<FollowUp>,
    /// For an opposed roll where each side rolls its own pool (a Sword &
    /// Spear melee or volley): each side's pool, counted line by line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<SidePool>,
}

/// A roll a procedure makes after its first one, within the same step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FollowUp {
    /// When it is made, e.g. `on DS (C * S5+): imperialists' step-loss roll`.
    pub when: String,
    /// The roll.
    pub roll: Roll,
}

/// One side's dice pool in an opposed roll: its dice counted line by line,
/// the modifiers to its placed dice, and the number its tests need.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SidePool {
    /// Whose dice, e.g. `knights (attacker)`.
    pub side: String,
    /// The dice count, line by line.
    pub lines: Vec<PoolLine>,
    /// The dice rolled (the applied lines' sum, at least 0).
    pub total: i32,
    /// Modifiers to its placed dice or the opponent's (armour), each with
    /// its source; they are not summed.
    pub dice_modifiers: Vec<Term>,
    /// What the number its tests need is called, e.g. `Discipline for its
    /// tests`; empty when it takes none.
    pub test: String,
    /// That number built term by term (summed into `test_total`).
    pub test_terms: Vec<Term>,
    /// The applied test terms' sum.
    pub test_total: i32,
    /// Anything else about this side.
    pub notes: Vec<String>,
}

impl Roll {
    /// A roll on `table` (rule `rule`) with these modifiers and no limit.
    pub fn new(dice: &str, table: &str, rule: &str, modifiers: Vec<Term>) -> Roll {
        let raw = sum(&modifiers);
        Roll {
            dice: dice.to_string(),
            table: table.to_string(),
            rule: rule.to_string(),
            column: None,
            column_from: Vec::new(),
            modifiers,
            raw_total: raw,
            limit: None,
            final_total: raw,
            pool: Vec::new(),
            faces: Vec::new(),
            notes: Vec::new(),
            follow_ups: Vec::new(),
            sides: Vec::new(),
        }
    }
    /// The same roll with its total limited to `min..=max` by rule `rule`.
    pub fn limited(mut self, min: i32, max: i32, rule: &str) -> Roll {
        let fin = self.raw_total.clamp(min, max);
        self.limit = Some(Limit {
            min,
            max,
            rule: rule.to_string(),
            lost: (self.raw_total - fin).abs(),
        });
        self.final_total = fin;
        self
    }
    /// The same roll reading column `c`.
    pub fn column(mut self, c: impl Into<String>) -> Roll {
        self.column = Some(c.into());
        self
    }
    /// Fills `faces` for a d10 read 0–9: each face plus the final total,
    /// read by `row` (the row's name, whether the table's end was reached,
    /// and the result printed there). Consecutive faces on one row merge.
    pub fn d10_faces(mut self, row: impl Fn(i32) -> (String, bool, String)) -> Roll {
        self.faces = faces_of(0..=9, self.final_total, row);
        self
    }
    /// Adds a note.
    pub fn note(mut self, n: impl Into<String>) -> Roll {
        self.notes.push(n.into());
        self
    }
    /// Adds a roll made after this one, `when` saying when.
    pub fn then(mut self, when: impl Into<String>, roll: Roll) -> Roll {
        self.follow_ups.push(FollowUp {
            when: when.into(),
            roll,
        });
        self
    }
}

/// Faces `range` plus `drm`, read by `row`, consecutive faces on one row merged.
pub fn faces_of(
    range: std::ops::RangeInclusive<i32>,
    drm: i32,
    row: impl Fn(i32) -> (String, bool, String),
) -> Vec<Face> {
    let mut out: Vec<(i32, i32, String, bool, String)> = Vec::new();
    for face in range {
        let (r, end, result) = row(face + drm);
        match out.last_mut() {
            Some(last) if last.2 == r && last.4 == result => {
                last.1 = face;
                last.3 |= end;
            }
            _ => out.push((face, face, r, end, result)),
        }
    }
    let span = |a: i32, b: i32| {
        if a == b {
            a.to_string()
        } else {
            format!("{a}-{b}")
        }
    };
    out.into_iter()
        .map(|(a, b, row, end, result)| Face {
            faces: span(a, b),
            modified: span(a + drm, b + drm),
            note: end.then(|| format!("off the table's end: reads the {row} row")),
            row,
            result,
        })
        .collect()
}

/// The probability of one result (outcome) of a roll or a step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultP {
    /// The outcome's id (kebab-case), as in the CSV and JSON of a run.
    pub id: String,
    /// The card's label.
    pub label: String,
    /// Exact probability.
    pub p: f64,
}

/// Exact outcome probabilities of `space` from its leaf probabilities.
pub fn results(space: &OutcomeSpace, leaf_probs: &[f64]) -> Vec<ResultP> {
    crate::stats::outcome_probs(space, leaf_probs)
        .into_iter()
        .enumerate()
        .map(|(i, p)| ResultP {
            id: space.outcome_ids()[i].clone(),
            label: space.outcomes()[i].clone(),
            p,
        })
        .collect()
}

/// A roll a result triggers.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Trigger {
    /// The result (outcome label) that triggers it.
    pub on: String,
    /// The roll triggered, e.g. `morale check (10.6) of tercio`.
    pub roll: String,
    /// True when every way of reaching the result triggers it; false when
    /// only some (e.g. only the results with hits).
    pub always: bool,
}

/// One state a step is rolled in, and the roll there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Case {
    /// Probability that the course reaches this state (and rolls this roll).
    pub p_reached: f64,
    /// What the earlier steps left behind, one line per unit that changed
    /// (empty for the scenario's own state).
    pub state: Vec<String>,
    /// The roll in this state.
    pub roll: Roll,
    /// Exact probability of each result of the roll, in this state.
    pub results: Vec<ResultP>,
    /// The rolls each result triggers next.
    pub triggers: Vec<Trigger>,
}

/// One step of a course (or a roll some result triggers).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepExplanation {
    /// E.g. `step 2: close-combat` or `after step 1: morale check of tercio`.
    pub title: String,
    /// The procedure's name.
    pub procedure: String,
    /// Its rule number.
    pub rule: String,
    /// Probability that the course rolls this step at all.
    pub p_reached: f64,
    /// Exact probability of each result, given the step is rolled (over
    /// every state it is rolled in).
    pub results: Vec<ResultP>,
    /// One case per distinct roll (states whose rolls are the same merge).
    pub cases: Vec<Case>,
}

/// One course explained.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CourseExplanation {
    /// The course's name.
    pub name: String,
    /// Its own unit.
    pub own: String,
    /// Its enemy unit.
    pub enemy: String,
    /// Its steps, in the order they are rolled.
    pub steps: Vec<StepExplanation>,
    /// Exact probability of each of the course's outcomes (as `run --exact`).
    pub outcomes: Vec<ResultP>,
}

/// One variant of a scenario (one point of its sweep) explained.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VariantExplanation {
    /// The variant's label (`edition=series`), empty without a sweep.
    pub variant: String,
    /// The edition read, for a system that has editions.
    pub edition: Option<String>,
    /// Its courses.
    pub courses: Vec<CourseExplanation>,
}

/// `pikeshot explain` of one scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Explanation {
    /// The scenario file.
    pub file: String,
    /// The scenario's name.
    pub name: String,
    /// The rule system's id.
    pub system: String,
    /// The `--set` overrides applied.
    pub sets: Vec<String>,
    /// Each variant explained.
    pub variants: Vec<VariantExplanation>,
}

/// The explanation as one JSON document (pretty-printed, newline-ended).
pub fn to_json(e: &Explanation) -> String {
    let mut s = serde_json::to_string_pretty(e).expect("an explanation serialises");
    s.push('\n');
    s
}

/// Writes [`to_json`]'s bytes to `out` as they are made, without holding
/// the document (a few megabytes for a long course) in memory; `out`
/// should be buffered (serde writes it a token at a time).
pub fn write_json_to(e: &Explanation, mut out: impl std::io::Write) -> std::io::Result<()> {
    // `From` keeps an I/O error's kind (a closed pipe stays `BrokenPipe`).
    serde_json::to_writer_pretty(&mut out, e).map_err(std::io::Error::from)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// Courses explained by a rule system (what
/// [`RuleSystem::explain`](crate::systems::RuleSystem::explain) returns).
pub struct Explained {
    /// The edition read.
    pub edition: Option<String>,
    /// Each course, in file order.
    pub courses: Vec<CourseExplanation>,
}

/// A procedure that can say how its roll is made. Every procedure of every
/// system implements it; a system's step type forwards it.
pub trait Explain: Procedure {
    /// The roll as built: dice, table, modifiers with their sources, limit,
    /// and the row each face lands on.
    fn roll(&self) -> Roll;
}

/// A procedure shared between the states of a course explains as itself.
impl<P: Explain> Explain for crate::engine::shared::Shared<P> {
    fn roll(&self) -> Roll {
        (**self).roll()
    }
}

/// The dice a procedure rolls, found by enumerating its paths (at most
/// `budget`): `1d10`, `2d6`, `1d6 then up to 2 more d6`, or a pool.
pub fn dice_of<P: Procedure>(p: &P, budget: u64) -> String {
    match crate::engine::exact::die_paths(p, budget) {
        Ok(paths) => dice_named(paths.iter().map(|(path, _)| path.sides.as_slice())),
        Err(_) => format!("several dice (more than {budget} paths of die results)"),
    }
}

/// The dice of a roll whose paths rolled dice of these sides (one entry a
/// path; 0 a pool or a pick): `2d6`, `1d6 (up to 1d6 + 1d6 on some
/// paths)`, `a dice pool` or `no dice`.
pub fn dice_named<'a>(paths: impl Iterator<Item = &'a [u8]>) -> String {
    let mut shapes: Vec<&[u8]> = Vec::new();
    for sides in paths {
        if !shapes.contains(&sides) {
            shapes.push(sides);
        }
    }
    let name = |sides: &[u8]| -> String {
        if sides.is_empty() {
            return "no dice".into();
        }
        if sides.contains(&0) {
            return "a dice pool".into();
        }
        let mut parts: Vec<String> = Vec::new();
        let mut i = 0;
        while i < sides.len() {
            let s = sides[i];
            let n = sides[i..].iter().take_while(|&&x| x == s).count();
            parts.push(format!("{n}d{s}"));
            i += n;
        }
        parts.join(" + ")
    };
    shapes.sort_by_key(|s| s.len());
    match shapes.as_slice() {
        [] => "no dice".into(),
        [one] => name(one),
        [first, .., last] => format!("{} (up to {} on some paths)", name(first), name(last)),
    }
}

/// What a roll's heading says of its procedure: what `pikeshot list` says
/// of it (a rule system's `ProcedureInfo`). A trait so that this model
/// names no rule system: the systems import it, never the other way.
pub trait Heading {
    /// The name in scenario steps (`procedure = "close-combat"`).
    fn name(&self) -> &str;
    /// The rule number(s) on the card.
    fn rule(&self) -> &str;
    /// One line on what it resolves.
    fn summary(&self) -> &str;
}

/// A roll described from what `pikeshot list` says of the procedure
/// (`info`: its name, rule and summary), the dice found by enumeration, the
/// modifiers it recorded, and, for a single die, each face's result.
pub fn described_roll<P: Procedure>(p: &P, info: &impl Heading, modifiers: Vec<Term>) -> Roll {
    let mut r =
        Roll::new(&dice_of(p, 4_096), info.name(), info.rule(), modifiers).note(info.summary());
    r.faces = single_die_faces(p);
    r
}

/// For a procedure that rolls one die: each face (as the die reads it,
/// 1..=sides) and the result it gives; empty otherwise.
pub fn single_die_faces<P: Procedure>(p: &P) -> Vec<Face> {
    let mut by_face: Vec<(u32, String)> = Vec::new();
    let mut single = true;
    let done = crate::dice::Enumerator::new().for_each(
        64,
        |d| {
            let leaf = p.resolve(d);
            (leaf, d.current_path())
        },
        |_, (leaf, path), _| {
            if path.rolls.len() != 1 || path.sides[0] == 0 {
                single = false;
                return;
            }
            let label = p.space().outcomes()[p.space().outcome_of(leaf)].clone();
            by_face.push((path.rolls[0] + 1, label));
        },
    );
    if done.is_err() || !single || by_face.is_empty() {
        return Vec::new();
    }
    let lo = by_face[0].0 as i32;
    let hi = by_face[by_face.len() - 1].0 as i32;
    faces_of(lo..=hi, 0, |face| {
        let label = by_face
            .iter()
            .find(|(f, _)| *f as i32 == face)
            .map_or_else(String::new, |(_, l)| l.clone());
        ("-".into(), false, label)
    })
}

/// Modifiers a procedure keeps as (label, value) pairs, as terms: their
/// source is the card line they are labelled with (not itemised further).
pub fn labelled_terms<S: AsRef<str>>(pairs: &[(S, i32)]) -> Vec<Term> {
    pairs
        .iter()
        .map(|(l, v)| {
            Term::new(
                l.as_ref(),
                "",
                *v,
                Source::card("the procedure's modifier line (its source is not itemised)"),
            )
        })
        .collect()
}

/// A dice pool's count as a procedure keeps it, (label, dice) line by line,
/// as pool lines (`prefix` names the side, e.g. `attacker: `).
pub fn pool_lines<S: AsRef<str>>(prefix: &str, entries: &[(S, i32)]) -> Vec<PoolLine> {
    entries
        .iter()
        .map(|(l, d)| PoolLine {
            dice: *d,
            label: format!("{prefix}{}", l.as_ref()),
            rule: String::new(),
            source: Source::card("the procedure's dice line (its source is not itemised)"),
            applied: *d != 0,
            note: (*d == 0).then(|| "gives no die here".to_string()),
        })
        .collect()
}
