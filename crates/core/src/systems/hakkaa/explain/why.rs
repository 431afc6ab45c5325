//! What a Hakkaa Päälle procedure keeps, when it is built, for `pikeshot
//! explain`: each unit that tests (in the state it tests in, the situation
//! of its test and the step key of its further modifier), and how the row
//! or column was chosen. The TQ modifiers themselves are read by
//! [`terms`], from the same predicate ([`tq::applies`]) the test sums.

use super::super::tq::{self, Situation, TQ_MODIFIERS, TestKind, TqModifier};
use super::super::unit::{Status, Unit};
use crate::explain::{Source, Term};

/// The rule the TQ modifiers are printed under (docs/rules/hakkaa.md section 2).
pub const TQ_MODIFIERS_RULE: &str = "TQ modifiers";

/// One unit's test as the procedure built it.
#[derive(Clone, Debug)]
pub struct Tested {
    /// The unit, in the state it tests in.
    pub unit: Unit,
    /// The test's situation (its kind and the situational modifiers).
    pub situation: Situation,
    /// The step key of the further modifier (`extra_tq`, `firer_extra_tq`…).
    pub extra_key: &'static str,
}

impl Tested {
    /// `unit` testing in `kind` with the further modifier `extra` of step
    /// key `extra_key`.
    pub fn new(unit: &Unit, kind: TestKind, extra: i8, extra_key: &'static str) -> Tested {
        Tested {
            unit: unit.clone(),
            situation: Situation::of(kind).with_extra(extra),
            extra_key,
        }
    }
    /// The same with the situation `s`.
    pub fn in_situation(mut self, s: Situation) -> Tested {
        self.situation = s;
        self
    }
    /// The unit's name.
    pub fn name(&self) -> &str {
        &self.unit.name
    }
    /// The terms of the test: [`terms`].
    pub fn terms(&self) -> Vec<Term> {
        terms(&self.unit, &self.situation, self.extra_key)
    }
}

/// What a procedure recorded of how it was built.
#[derive(Clone, Debug, Default)]
pub struct Why {
    /// The units that test, in the order they roll (a closing names its
    /// target second, though only the charger tests).
    pub tests: Vec<Tested>,
    /// How the table's row or column was chosen (e.g. Fire Points built up
    /// line by line), each with its source.
    pub lines: Vec<Term>,
    /// Anything else: which conditions hold, which reading applies.
    pub notes: Vec<String>,
}

/// The TQ modifiers of a test by `unit` (in its state) in situation `s`,
/// each with its source; the card's modifiers the unit has but that cannot
/// apply to this kind of test are listed as not applied, with why.
pub fn terms(unit: &Unit, s: &Situation, extra_key: &str) -> Vec<Term> {
    let name = &unit.name;
    let (disordered, charisma) = (unit.state.status.is_disordered(), unit.state.commander);
    let mut out = Vec::new();
    for &(k, v, label) in &TQ_MODIFIERS {
        let on = tq::applies(k, unit, disordered, charisma, s);
        let source = match k {
            TqModifier::Disordered => Source::unit(match unit.state.status {
                Status::FellBack => format!("{name} fell back (and is Disordered)"),
                Status::Fled => format!("{name} is fleeing (counts as Disordered)"),
                _ => format!("{name} is Disordered"),
            }),
            TqModifier::LowerCcValue => Source::unit(format!(
                "{} side has the lower total CC value",
                crate::explain::possessive(name)
            )),
            TqModifier::SingleUncontrolled => Source::key("single_unit = true"),
            TqModifier::Fatigued => Source::unit(format!("{name}: fatigued = true")),
            TqModifier::Charismatic => {
                Source::unit(format!("{name}: charismatic = true, commander attached"))
            }
            TqModifier::FieldWorks => Source::unit(format!("{name}: field_works = true")),
        };
        let t = Term::new(label, TQ_MODIFIERS_RULE, v as i32, source);
        let why_not = match k {
            _ if on => {
                out.push(t);
                continue;
            }
            TqModifier::FieldWorks if unit.field_works => {
                "only charge reaction and close combat tests"
            }
            TqModifier::Charismatic if unit.charismatic => {
                "no commander attached (or it was injured)"
            }
            TqModifier::LowerCcValue if s.kind == TestKind::CloseCombat => {
                "its side does not have the lower total CC value"
            }
            TqModifier::SingleUncontrolled if s.kind == TestKind::Uncontrolled => {
                "not a single unit (single_unit is not set)"
            }
            _ => continue,
        };
        out.push(t.not_applied(why_not));
    }
    if unit.extra_tq != 0 {
        out.push(Term::new(
            "the unit's further TQ modifier",
            "",
            unit.extra_tq as i32,
            Source::unit(format!("{name}: extra_tq = {}", unit.extra_tq)),
        ));
    }
    out.extend(crate::explain::key_term(
        "the step's further TQ modifier",
        extra_key,
        s.extra as i32,
    ));
    out
}

/// The Fire Points a unit fires with, line by line: its own (or the step's
/// `base_key`), the step's modifier (`mod_key`), the floor at 0, and ½Fi
/// when `half` (set by `half_source`). The applied values sum to
/// [`super::super::fire::effective_fp`].
pub fn fp_lines(
    firer: &Unit,
    base: Option<(u8, &str)>,
    modifier: (i8, &str),
    half: Option<Source>,
) -> Vec<Term> {
    use super::super::unit::FirePoints;
    const RULE: &str = "Fire combat";
    let name = &firer.name;
    let mut out = Vec::new();
    let (fp, source) = match (base, firer.fire_points) {
        (Some((fp, key)), _) => (fp, Source::key(format!("{key} = {fp}"))),
        (None, Some(FirePoints::Total(fp))) => (fp, Source::unit(format!("{name}: fp = {fp}"))),
        (None, Some(FirePoints::PerStep(per))) => (
            firer.fp().unwrap_or(0),
            Source::unit(format!(
                "{name}: fp_per_step = {per} x {} steps",
                firer.state.steps
            )),
        ),
        (None, None) => (0, Source::unit(format!("{name} has no Fire Points"))),
    };
    let fp = fp as i32;
    if base.is_some() || firer.fire_points.is_some() {
        out.push(Term::new("Fire Points", RULE, fp, source));
    }
    let (m, key) = modifier;
    let mut v = fp;
    out.extend(crate::explain::key_term(
        "Fire Points modifier (range and the like)",
        key,
        m as i32,
    ));
    v += m as i32;
    if v < 0 {
        out.push(Term::new(
            "Fire Points never below 0",
            "",
            -v,
            Source::card("Fire table: the FP <1 row is the lowest"),
        ));
        v = 0;
    }
    if let Some(src) = half {
        out.push(Term::new(
            "½Fi: half Fire Points, rounded down",
            "Charge reaction results",
            -(v - v / 2),
            src,
        ));
    }
    out
}
