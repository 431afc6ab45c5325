//! The trait every rule system implements, [`RuleSystem`], and what
//! systems share to implement it: `pikeshot list`'s text built from what a
//! system supplies, and the helpers that declare its keys. A
//! [`Registry`](super::Registry) holds systems; this file names none.

use super::chart::{Chart, KeyDoc, Kind, ProcedureInfo};
use crate::engine::{Kernel, KernelMode};
use crate::error::InputError;
use crate::scenario::Fields;
use std::borrow::Cow;

/// One edition (card) of a rule system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EditionInfo {
    /// The name in scenario files (`edition = "sfo"`) and on the command line.
    pub id: &'static str,
    /// The card's title.
    pub card: &'static str,
}

pub use crate::scenario::course::{Repeats, StopInfo};

/// Courses built from a scenario variant.
pub struct BuiltCourses {
    /// The edition, for systems that have editions.
    pub edition: Option<String>,
    /// (course name, kernel), in file order.
    pub courses: Vec<(String, Box<dyn Kernel>)>,
    /// Each course's own and enemy units, in the order of `courses`.
    pub sides: Vec<crate::outcome::Side>,
}

impl From<crate::scenario::course::CoursesMade<Box<dyn Kernel>>> for BuiltCourses {
    /// The courses of a system without editions, as its reader made them.
    fn from((courses, sides): crate::scenario::course::CoursesMade<Box<dyn Kernel>>) -> Self {
        BuiltCourses {
            edition: None,
            courses,
            sides,
        }
    }
}

/// A rule system: its cards, its procedures, and how a scenario of it is
/// read. Everything the command line and the runner need of a system goes
/// through this trait.
pub trait RuleSystem: Send + Sync {
    /// The id in scenario files (`system = "mpbs"`) and on the command line.
    fn id(&self) -> &'static str;
    /// The game's name, as printed by `pikeshot list`.
    fn name(&self) -> &'static str;
    /// The editions (cards) a scenario's `edition` may name; empty when the
    /// system has one card.
    fn editions(&self) -> &'static [EditionInfo] {
        &[]
    }
    /// The edition used when none is given (`pikeshot tables`).
    fn default_edition(&self) -> Option<&'static str> {
        self.editions().last().map(|e| e.id)
    }
    /// Every procedure a scenario step may name.
    fn procedures(&self) -> &'static [ProcedureInfo];
    /// Every chart of one edition's card (`edition` is one of
    /// [`editions`](RuleSystem::editions), or `None` when there are none).
    fn charts(&self, edition: Option<&str>) -> Vec<Chart>;
    /// The lines of `pikeshot list` naming the values unit keys accept
    /// (kinds, formations, terrain…), each ending in a newline.
    fn vocabulary(&self) -> String;
    /// The keys of a `[units.NAME]` table: what each means and accepts.
    fn unit_keys(&self) -> Vec<KeyDoc>;
    /// Course keys beyond `name`, `steps`, `own`, `enemy` and `repeat`.
    fn course_keys(&self) -> Vec<KeyDoc> {
        Vec::new()
    }
    /// What a course's `repeat` accepts: most turns, stop conditions and
    /// the default of `until` (the same value the system's reader reads by).
    fn repeats(&self) -> &'static Repeats;
    /// Most turns `repeat` may ask for; 0 when courses do not repeat.
    fn max_turns(&self) -> u8 {
        self.repeats().max_turns
    }
    /// The stop conditions `repeat.until` may name.
    fn stop_conditions(&self) -> &'static [StopInfo] {
        self.repeats().stops
    }
    /// What `until` defaults to when `repeat` gives none.
    fn default_until(&self) -> &'static str {
        self.repeats().default_until
    }
    /// The keys of the scenario's `[rules]` table: the readings of what the
    /// card leaves open, each with its default.
    fn rules_keys(&self) -> Vec<KeyDoc>;
    /// Reads the system's top-level keys (`edition`, `[rules]`, `[units.*]`,
    /// `[[course]]`) and builds every course.
    fn build_courses(&self, f: &mut Fields, mode: KernelMode) -> Result<BuiltCourses, InputError>;
    /// Reads the same keys as [`build_courses`](RuleSystem::build_courses)
    /// and explains every course (`pikeshot explain`). By default each
    /// course is explained as one roll from what its kernel is: the dice
    /// found by enumerating it, the table of its die paths and their
    /// results (when small), and the exact probability of each outcome
    /// (see [`crate::explain::plain`]). A system enriches it: each step's
    /// modifiers with their sources, limit, faces and the rolls results
    /// trigger, for every state the course reaches.
    fn explain(&self, f: &mut Fields) -> Result<crate::explain::Explained, InputError> {
        let built = self.build_courses(f, KernelMode::Direct)?;
        Ok(crate::explain::plain::explained(
            built.edition,
            &built.courses,
            &built.sides,
        ))
    }
    /// Reads the system's `[rules]`, `[units.*]` and every `[[decision]]`
    /// (the courses left to `run`) and solves each decision exactly; `ask`
    /// seeds the Monte Carlo check of each best plan and may name one
    /// decision to explain at a state.
    fn decide(
        &self,
        f: &mut Fields,
        _ask: &crate::scenario::decision::DecideAsk,
    ) -> Result<Vec<crate::engine::decide::summary::Decided>, InputError> {
        if !f.has("decision") {
            return Ok(Vec::new());
        }
        Err(f.err(
            "decision",
            format!("{} does not read `[[decision]]` tables yet", self.name()),
        ))
    }
    /// Whether [`decide`](RuleSystem::decide) reads `[[decision]]` tables.
    fn reads_decisions(&self) -> bool {
        false
    }
    /// What `pikeshot list SYSTEM` prints.
    fn list(&self) -> String {
        describe(self)
    }
}

/// The text of `pikeshot list SYSTEM`, built from what the system supplies.
pub fn describe<S: RuleSystem + ?Sized>(s: &S) -> String {
    let eds = s.editions();
    let mut out = format!("{} — {}", s.id(), s.name());
    if eds.is_empty() {
        out.push_str(" (no editions)\n");
    } else {
        let ids: Vec<&str> = eds.iter().map(|e| e.id).collect();
        out.push_str(&format!(" (editions: {})\n", ids.join(", ")));
        for e in eds {
            out.push_str(&format!("  {:<10} {}\n", e.id, e.card));
        }
    }
    out.push_str("procedures (scenario steps):\n");
    out.push_str(&describe_procedures(s.procedures()));
    out.push_str(&s.vocabulary());
    out.push_str("unit keys ([units.NAME]):\n");
    for k in s.unit_keys() {
        out.push_str(&format!("  {:<24} {}\n", k.key, k.describe()));
    }
    out.push_str("course keys: name, steps, own, enemy (unit names: the reported pair)");
    if s.max_turns() > 0 {
        out.push_str(&format!(
            ", repeat = {{ turns = 1..{}, until = [...] }} (repeat the steps turn after turn until a stop condition; with `from_step = K` in it, 0-based, default 0, the steps before K run once)",
            s.max_turns()
        ));
    }
    out.push('\n');
    for k in s.course_keys() {
        out.push_str(&table_key_line(&k));
    }
    if s.max_turns() > 0 {
        out.push_str(&format!(
            "stop conditions (repeat.until; default {}):\n",
            s.default_until()
        ));
        for c in s.stop_conditions() {
            out.push_str(&format!("  {:<24} {}\n", c.name, c.meaning));
        }
    }
    if s.reads_decisions() {
        out.push_str("decision keys ([[decision]], solved by `pikeshot decide`):\n");
        for (key, help) in crate::scenario::decision::DECISION_KEYS {
            out.push_str(&format!("  {key:<24} {help}\n"));
        }
    }
    let rules = s.rules_keys();
    if rules.is_empty() {
        out.push_str("[rules] keys: none (the card leaves nothing open that a switch decides)\n");
    } else {
        out.push_str("[rules] keys (readings of what the card leaves open):\n");
        for k in rules {
            out.push_str(&table_key_line(&k));
        }
    }
    let ids: Vec<&str> = s.charts(s.default_edition()).iter().map(|c| c.id).collect();
    out.push_str(&format!(
        "charts (pikeshot tables {}): {}\n",
        s.id(),
        ids.join(", ")
    ));
    out.push_str(&crate::scenario::limits::describe());
    if s.max_turns() > 0 {
        out.push_str(&format!(
            "  {:<24} 1 to {} (repeat.turns)\n",
            "turns per course",
            s.max_turns()
        ));
    }
    out
}

/// The line of `pikeshot list` for a course or `[rules]` key: what it
/// accepts, its default, what it means.
fn table_key_line(k: &KeyDoc) -> String {
    let default = k
        .default
        .map_or(String::new(), |d| format!(" (default {d})"));
    format!(
        "  {:<24} {}{default}: {}\n",
        k.key,
        k.kind.accepts(),
        k.help
    )
}

/// A `[rules]` key that is `true | false`.
pub fn flag(key: &'static str, default: bool, meaning: &'static str) -> KeyDoc {
    KeyDoc::flag(key, meaning).or(if default { "true" } else { "false" })
}

/// A `[rules]` key from a closed set of names.
pub fn named(
    key: &'static str,
    names: &'static [&'static str],
    default: &'static str,
    meaning: &'static str,
) -> KeyDoc {
    KeyDoc::new(key, Kind::OneOf(Cow::Borrowed(names)), meaning).or(default)
}

/// Reads a scenario's `[units.NAME]` tables for `system`: each unit by
/// `read`, any key that is not one of the system's
/// [`unit_keys`](RuleSystem::unit_keys) refused (see
/// [`crate::scenario::course::read_units`]).
pub fn read_units<'a, U>(
    system: &dyn RuleSystem,
    f: &mut Fields<'a>,
    read: impl FnMut(&str, &mut Fields<'a>) -> Result<U, InputError>,
) -> Result<Vec<U>, InputError> {
    crate::scenario::course::read_units(f, &key_names(&system.unit_keys()), read)
}

/// The names of `keys`, as a reader's list of the keys it knows.
pub fn key_names(keys: &[KeyDoc]) -> Vec<&'static str> {
    keys.iter().map(|k| k.key).collect()
}

/// A [`Kind::PerEdition`] from `(edition, names)` pairs.
pub fn per_edition(by: impl Iterator<Item = (&'static str, Vec<&'static str>)>) -> Kind {
    Kind::PerEdition(Cow::Owned(
        by.map(|(e, names)| (e, Cow::Owned(names))).collect(),
    ))
}

/// Lines of [`RuleSystem::vocabulary`]: `label: name, name, ...` for each
/// (label, names), each ending in a newline.
pub fn vocabulary(lines: &[(&str, Vec<&str>)]) -> String {
    lines
        .iter()
        .map(|(label, names)| format!("{label}: {}\n", names.join(", ")))
        .collect()
}

/// Lists procedures for `list`, one block each.
pub fn describe_procedures(procs: &[ProcedureInfo]) -> String {
    let mut out = String::new();
    for p in procs {
        out.push_str(&format!("  {} ({}): {}\n", p.name, p.rule, p.summary));
        for k in p.keys {
            out.push_str(&format!("      {:<24} {}\n", k.key, k.describe()));
        }
        // Ids for `[[expect]]`, each with the card's label where it differs.
        let outcomes: Vec<String> = p
            .outcomes
            .iter()
            .map(|label| {
                let id = crate::outcome::kebab_id(label);
                if id == *label {
                    id
                } else {
                    format!("{id} (\"{label}\")")
                }
            })
            .collect();
        out.push_str(&format!("      outcomes: {}\n", outcomes.join(", ")));
        if !p.measures.is_empty() {
            out.push_str(&format!("      measures: {}\n", p.measures.join(", ")));
        }
    }
    out
}
