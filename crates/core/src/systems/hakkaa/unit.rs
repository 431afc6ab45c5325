//! A Hakkaa Päälle unit: its class, grade and weapons, and the state it is in
//! (steps, Disordered / fallen back / fleeing, commander).
//!
//! The card names unit classes by abbreviations it does not define (only EH,
//! "Eastern Horse", and CoM, "column of march", can be read off it). They are
//! input classes here (docs/rules/hakkaa.md section 1): a unit names its class, and each
//! table reads the row that class falls in ([`UnitClass`]).

use super::tq::{Grade, read_grade};
use crate::error::InputError;
use crate::scenario::fields::key_err;
use crate::scenario::{Fields, course};
use crate::systems::named::named_enum;

named_enum! {
    /// The unit classes the card's tables name, by their abbreviations.
    UnitClass {
        /// MI (infantry).
        Mi = "mi",
        /// AI (infantry).
        Ai = "ai",
        /// CI (infantry).
        Ci = "ci",
        /// HI (infantry).
        Hi = "hi",
        /// LTI (infantry).
        Lti = "lti",
        /// Levy infantry.
        Levy = "levy",
        /// HL (cavalry).
        Hl = "hl",
        /// HQ (cavalry).
        Hq = "hq",
        /// HBC (cavalry).
        Hbc = "hbc",
        /// EH, Eastern Horse (cavalry).
        Eh = "eh",
        /// LBC (cavalry).
        Lbc = "lbc",
        /// LC (cavalry).
        Lc = "lc",
        /// SC (cavalry; only the Fleeing-enemy and movement charts name it).
        Sc = "sc",
        /// Artillery ("Art").
        Artillery = "artillery",
    }
}

/// Infantry, cavalry or artillery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arm {
    /// Foot.
    Infantry,
    /// Horse.
    Cavalry,
    /// Guns.
    Artillery,
}

impl UnitClass {
    /// The abbreviation as the card prints it.
    pub fn abbreviation(self) -> &'static str {
        match self {
            UnitClass::Mi => "MI",
            UnitClass::Ai => "AI",
            UnitClass::Ci => "CI",
            UnitClass::Hi => "HI",
            UnitClass::Lti => "LTI",
            UnitClass::Levy => "Levy",
            UnitClass::Hl => "HL",
            UnitClass::Hq => "HQ",
            UnitClass::Hbc => "HBC",
            UnitClass::Eh => "EH",
            UnitClass::Lbc => "LBC",
            UnitClass::Lc => "LC",
            UnitClass::Sc => "SC",
            UnitClass::Artillery => "Art",
        }
    }
    /// Infantry, cavalry or artillery, as the movement chart groups them
    /// ("HI and Levy Infantry", "Other Infantry"; HBC/HQ, HL/LBC, EH/LC/SC).
    pub fn arm(self) -> Arm {
        match self {
            UnitClass::Mi
            | UnitClass::Ai
            | UnitClass::Ci
            | UnitClass::Hi
            | UnitClass::Lti
            | UnitClass::Levy => Arm::Infantry,
            UnitClass::Artillery => Arm::Artillery,
            _ => Arm::Cavalry,
        }
    }
    /// True for cavalry classes.
    pub fn is_cavalry(self) -> bool {
        self.arm() == Arm::Cavalry
    }
    /// What `pikeshot list hakkaa` says of the class.
    pub fn describe(self) -> &'static str {
        match self {
            UnitClass::Eh => "EH: cavalry, Eastern Horse (the charge reaction table spells it out)",
            UnitClass::Artillery => {
                "Art: artillery; `limbered` picks its charge reaction row (the card's * and ** notes)"
            }
            UnitClass::Sc => {
                "SC: cavalry, named only by the Fleeing-enemy and movement charts (abbreviation not defined on the card)"
            }
            UnitClass::Levy => "Levy: infantry (\"Levy Infantry\" on the movement chart)",
            c if c.is_cavalry() => match c {
                UnitClass::Hl => "HL: cavalry (abbreviation not defined on the card)",
                UnitClass::Hq => "HQ: cavalry (abbreviation not defined on the card)",
                UnitClass::Hbc => "HBC: cavalry (abbreviation not defined on the card)",
                UnitClass::Lbc => "LBC: cavalry (abbreviation not defined on the card)",
                _ => "LC: cavalry (abbreviation not defined on the card)",
            },
            UnitClass::Mi => "MI: infantry (abbreviation not defined on the card)",
            UnitClass::Ai => "AI: infantry (abbreviation not defined on the card)",
            UnitClass::Ci => "CI: infantry (abbreviation not defined on the card)",
            UnitClass::Hi => "HI: infantry (abbreviation not defined on the card)",
            _ => "LTI: infantry (abbreviation not defined on the card)",
        }
    }
}

named_enum! {
    /// A unit's formation, as far as the tables tell formations apart.
    Formation {
        /// Any ordinary formed order.
        Formed = "formed",
        /// Skirmish order: the "Skirmishing" rows.
        Skirmishing = "skirmishing",
        /// Column of March (CoM): the charge reaction table's second row.
        ColumnOfMarch = "column-of-march",
    }
}

named_enum! {
    /// A unit's status, worst last. Disordered, fallen back and fleeing units
    /// all count as Disordered for the TQ modifier (see docs/rules/hakkaa.md).
    Status {
        /// In good order.
        Steady = "steady",
        /// Disordered.
        Disordered = "disordered",
        /// Fell back 50 paces and is Disordered.
        FellBack = "fell-back",
        /// Fleeing.
        Fled = "fled",
    }
}

/// The card's status results: D and F of the Receiving Casualties and Close
/// Combat tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// "-": status unchanged.
    None,
    /// D: Fall Back if Disordered, Disorder if not.
    Disorder,
    /// F: Flee if Disordered, Fall Back if not.
    FallBackOrFlee,
}

impl Status {
    /// True when the unit counts as Disordered.
    pub fn is_disordered(self) -> bool {
        self != Status::Steady
    }
    /// The status after an effect. A fleeing unit stays fleeing.
    pub fn after(self, e: Effect) -> Status {
        match (e, self) {
            (Effect::None, s) | (_, s @ Status::Fled) => s,
            (Effect::Disorder, Status::Steady) => Status::Disordered,
            (Effect::Disorder, _) => Status::FellBack,
            (Effect::FallBackOrFlee, Status::Steady) => Status::FellBack,
            (Effect::FallBackOrFlee, _) => Status::Fled,
        }
    }
    /// The status after a Fall Back move (closing result F_B): fallen back
    /// and Disordered; a fleeing unit stays fleeing.
    pub fn fall_back(self) -> Status {
        match self {
            Status::Fled => Status::Fled,
            _ => Status::FellBack,
        }
    }
}

named_enum! {
    /// Who is attached to the unit.
    CommanderKind {
        /// No commander.
        None = "none",
        /// A commander.
        Commander = "commander",
        /// A general (a commander; "General attached" is a favourable
        /// closing condition).
        General = "general",
    }
}

/// A unit's Fire Points (docs/rules/hakkaa.md section 1: a scenario input).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FirePoints {
    /// A fixed FP, whatever the unit's steps.
    Total(u8),
    /// FP per step: the unit's FP is this times its current steps.
    PerStep(u8),
}

impl FirePoints {
    /// The FP with `steps` steps left.
    pub fn at(self, steps: u8) -> u8 {
        match self {
            FirePoints::Total(fp) => fp,
            FirePoints::PerStep(fp) => fp.saturating_mul(steps),
        }
    }
}

/// What changes about a unit during a course.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnitState {
    /// Steps left; 0 = eliminated.
    pub steps: u8,
    /// Status.
    pub status: Status,
    /// A commander (or general) is attached and uninjured.
    pub commander: bool,
}

/// Status index of an eliminated unit in outcome spaces (after the four
/// [`Status`] values).
pub const ELIMINATED: usize = 4;

impl UnitState {
    /// True when no steps are left.
    pub fn eliminated(&self) -> bool {
        self.steps == 0
    }
    /// 0 steady, 1 disordered, 2 fell back, 3 fled, 4 eliminated: the
    /// ordinal the outcome spaces report.
    pub fn status_index(&self) -> usize {
        if self.eliminated() {
            ELIMINATED
        } else {
            self.status as usize
        }
    }
    /// Loses one step.
    pub fn lose_step(&mut self) {
        self.steps = self.steps.saturating_sub(1);
    }
    /// True when the unit can act (fire, charge): not eliminated, not fleeing.
    pub fn can_act(&self) -> bool {
        !self.eliminated() && self.status != Status::Fled
    }
}

/// Refuses a step of unit `a` on unit `b` that cannot happen, each error at
/// its bare step key: the same unit twice ("a unit cannot {verb} itself", at
/// `b_key`), then each unit of `must_act` (its key, the unit, and what
/// follows "is fleeing or eliminated") that is fleeing or eliminated.
pub(crate) fn check_pair(
    a: &Unit,
    b: &Unit,
    b_key: &str,
    verb: &str,
    must_act: &[(&str, &Unit, &str)],
) -> Result<(), InputError> {
    if a.name == b.name {
        return Err(key_err(b_key, format!("a unit cannot {verb} itself")));
    }
    for &(key, u, why) in must_act {
        if !u.state.can_act() {
            return Err(key_err(
                key,
                format!("{} is fleeing or eliminated{why}", u.name),
            ));
        }
    }
    Ok(())
}

/// A unit as a scenario describes it, with its current state.
#[derive(Clone, Debug, PartialEq)]
pub struct Unit {
    /// The unit's key in `[units]`.
    pub name: String,
    /// Class (`type`).
    pub class: UnitClass,
    /// Troop quality grade (`tq`).
    pub grade: Grade,
    /// Formation.
    pub formation: Formation,
    /// Limbered (artillery only).
    pub limbered: bool,
    /// Fatigued (TQ −1).
    pub fatigued: bool,
    /// Commander attached at the start.
    pub commander: CommanderKind,
    /// The attached commander is a charismatic leader (TQ +1 while attached).
    pub charismatic: bool,
    /// Mans field works (TQ +1 on charge reaction and close combat tests;
    /// "behind field works" for the chargers' unfavourable condition).
    pub field_works: bool,
    /// Close combat value (docs/rules/hakkaa.md section 1: a per-unit input, summed per
    /// side, used only for the "lower total CC value" TQ modifier).
    pub cc_value: Option<u16>,
    /// Fire Points; `None` for a unit without firearms.
    pub fire_points: Option<FirePoints>,
    /// A further TQ modifier on every test of the unit.
    pub extra_tq: i8,
    /// The current state.
    pub state: UnitState,
}

/// Most steps a unit may have.
pub const MAX_STEPS: u8 = 20;
/// Largest Fire Points value accepted (the Fire Table reads 8+ alike).
pub const MAX_FP: u8 = 99;

/// The keys of `[units.NAME]`, each declared once: what `pikeshot list`
/// says of it and its reader.
pub mod keys {
    use super::{CommanderKind, Formation, MAX_FP, MAX_STEPS, Status, UnitClass};
    use crate::systems::hakkaa::tq::{Grade, MAX_TQ, MIN_TQ};
    use crate::systems::{Key, KeyDoc, Kind};
    use std::borrow::Cow;

    /// `type`: the unit's class.
    pub const TYPE: Key<UnitClass> =
        Key::one_of("type", "unit class", "required: the unit's class");
    /// `steps`.
    pub const STEPS: Key<i64> = Key::int("steps", 1, MAX_STEPS as i64, "required: its steps");
    /// `formation`.
    pub const FORMATION: Key<Formation> = Key::one_of(
        "formation",
        "formation",
        "its formation (artillery does not skirmish)",
    )
    .or("formed");
    /// `limbered`.
    pub const LIMBERED: Key<bool> = Key::flag("limbered", "true: limbered artillery");
    /// `status`.
    pub const STATUS: Key<Status> = Key::one_of("status", "status", "its status").or("steady");
    /// `fatigued`.
    pub const FATIGUED: Key<bool> = Key::flag("fatigued", "true: fatigued");
    /// `commander`.
    pub const COMMANDER: Key<CommanderKind> =
        Key::one_of("commander", "commander", "an attached commander").or("none");
    /// `charismatic`.
    pub const CHARISMATIC: Key<bool> =
        Key::flag("charismatic", "true: its attached commander is charismatic");
    /// `field_works`.
    pub const FIELD_WORKS: Key<bool> = Key::flag("field_works", "true: behind field works");
    /// `cc_value`.
    pub const CC_VALUE: Key<i64> = Key::int(
        "cc_value",
        0,
        999,
        "its close combat value, compared with the opponent's for the lower-CC-value modifier",
    );
    /// `fp`.
    pub const FP: Key<i64> = Key::int(
        "fp",
        0,
        MAX_FP as i64,
        "its Fire Points (or give fp_per_step, not both)",
    );
    /// `fp_per_step`.
    pub const FP_PER_STEP: Key<i64> = Key::int(
        "fp_per_step",
        0,
        MAX_FP as i64,
        "Fire Points per step, times its steps (or give fp, not both)",
    );
    /// `extra_tq`.
    pub const EXTRA_TQ: Key<i64> =
        Key::int("extra_tq", -5, 5, "a further TQ modifier on all its tests").or("0");

    /// Every unit key, in the order `pikeshot list` prints them.
    pub fn all() -> Vec<KeyDoc> {
        vec![
            TYPE.doc(),
            KeyDoc::new(
                "tq",
                Kind::OneOfOrInt {
                    names: Cow::Borrowed(Grade::NAMES),
                    min: MIN_TQ as i64,
                    max: MAX_TQ as i64,
                },
                "required: its grade, by name or TQ number",
            ),
            STEPS.doc(),
            FORMATION.doc(),
            LIMBERED.doc(),
            STATUS.doc(),
            FATIGUED.doc(),
            COMMANDER.doc(),
            CHARISMATIC.doc(),
            FIELD_WORKS.doc(),
            CC_VALUE.doc(),
            FP.doc(),
            FP_PER_STEP.doc(),
            EXTRA_TQ.doc(),
        ]
    }
}

impl Unit {
    /// Reads `[units.NAME]` (keys in `pikeshot list hakkaa`).
    pub fn from_fields(name: &str, f: &mut Fields) -> Result<Unit, InputError> {
        let class: UnitClass = keys::TYPE.require(f)?;
        let grade =
            read_grade(f, "tq")?.ok_or_else(|| f.missing("tq").one_of("", &Grade::names()))?;
        let steps = keys::STEPS.require(f)? as u8;
        let formation = keys::FORMATION.get(f)?;
        if formation == Formation::Skirmishing && class == UnitClass::Artillery {
            return Err(f.err("formation", "artillery does not skirmish"));
        }
        let limbered = keys::LIMBERED.get(f)?;
        if limbered && class != UnitClass::Artillery {
            return Err(f.err("limbered", "only artillery limbers"));
        }
        let status = keys::STATUS.get(f)?;
        let fatigued = keys::FATIGUED.get(f)?;
        let commander = keys::COMMANDER.get(f)?;
        let charismatic = keys::CHARISMATIC.get(f)?;
        if charismatic && commander == CommanderKind::None {
            return Err(f.err(
                "charismatic",
                "a charismatic leader is an attached commander: set `commander = \"commander\"` or \"general\"",
            ));
        }
        let field_works = keys::FIELD_WORKS.get(f)?;
        let cc_value = keys::CC_VALUE.read(f)?.map(|v| v as u16);
        let total = keys::FP.read(f)?;
        let per_step = keys::FP_PER_STEP.read(f)?;
        let fire_points = match (total, per_step) {
            (Some(_), Some(_)) => {
                return Err(f.err(
                    "fp_per_step",
                    "give `fp` (the unit's Fire Points) or `fp_per_step` (Fire Points per step), not both",
                ));
            }
            (Some(t), None) => Some(FirePoints::Total(t as u8)),
            (None, Some(p)) => Some(FirePoints::PerStep(p as u8)),
            (None, None) => None,
        };
        let extra_tq = keys::EXTRA_TQ.get(f)? as i8;
        Ok(Unit {
            name: name.to_string(),
            class,
            grade,
            formation,
            limbered,
            fatigued,
            commander,
            charismatic,
            field_works,
            cc_value,
            fire_points,
            extra_tq,
            state: UnitState {
                steps,
                status,
                commander: commander != CommanderKind::None,
            },
        })
    }

    /// The unit in another state.
    pub fn in_state(&self, state: UnitState) -> Unit {
        Unit {
            state,
            ..self.clone()
        }
    }

    /// Current Fire Points, or `None` without firearms.
    pub fn fp(&self) -> Option<u8> {
        self.fire_points.map(|f| f.at(self.state.steps))
    }

    /// A general is attached and uninjured.
    pub fn general_attached(&self) -> bool {
        self.commander == CommanderKind::General && self.state.commander
    }
}

impl course::NamedUnit for Unit {
    fn unit_name(&self) -> &str {
        &self.name
    }
}

/// The index of the unit named by a step key (the shared reader).
pub use crate::scenario::course::find_unit_index as find_unit;
