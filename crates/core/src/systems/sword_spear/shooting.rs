//! Shooting by weapon: the Shooting Weapons table and a volley resolved by
//! the combat process.
//!
//! The sheet gives each weapon a range (DU) and notes on armour, cover,
//! moving and bonus dice. How a volley is rolled is not on the sheet: the
//! shooter rolls its combat dice (strength, less hits, plus bonus dice) and
//! the target rolls its strength, with no impetus and no extra dice; the
//! top four of each are paired as in melee, and only the shooter's dice
//! hurt (docs/rules/sword-and-spear.md section 5). The target's protection against the weapon
//! ([`protection`]) decides the armour step.

use super::combat::{
    Clash, ClashProcedure, ClashResult, ClashRules, ClashSide, DiceFrom, MAX_DICE,
};
use super::discipline::{adjusted, discipline_terms};
use super::named_enum;
use super::readings::Readings;
use super::unit::{Armour, Unit, find_unit, finish_step};
use super::volley_dice::{protection_terms, shooter_lines, target_lines};
use crate::systems::Key;
use crate::systems::chart::headers;

use crate::error::InputError;
use crate::explain::{PoolLine, Term};
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::scenario::Fields;
use crate::systems::{Chart, KeyDoc, ProcedureInfo};

named_enum! {
    /// Shooting weapons, in card order.
    Weapon {
        /// Bow.
        Bow = "bow",
        /// Longbow.
        Longbow = "longbow",
        /// Crossbow.
        Crossbow = "crossbow",
        /// Sling.
        Sling = "sling",
        /// Javelin.
        Javelin = "javelin",
        /// Firearm.
        Firearm = "firearm",
        /// Artillery.
        Artillery = "artillery",
        /// Magic attack.
        Magic = "magic",
    }
}

/// What a weapon does to the target's armour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArmourEffect {
    /// Armour counts as it is.
    Normal,
    /// A heavily armoured or armoured target counts one level less.
    OneLevelLess,
    /// All armour is ignored.
    Ignored,
}

/// Which bonus shooting dice a weapon may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BonusDice {
    /// Any.
    Any,
    /// Only magical bonus dice.
    MagicOnly,
    /// None at all.
    None,
}

/// One row of the Shooting Weapons table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WeaponRow {
    /// The weapon.
    pub weapon: Weapon,
    /// As on the sheet.
    pub label: &'static str,
    /// Range in DU.
    pub range: u8,
    /// Effect on armour.
    pub armour: ArmourEffect,
    /// Ignores cover.
    pub ignores_cover: bool,
    /// May move and shoot.
    pub move_and_shoot: bool,
    /// Bonus shooting dice it may use.
    pub bonus: BonusDice,
    /// Causes fear.
    pub causes_fear: bool,
}

/// Most bonus range (DU) the action dice may give a shot.
pub const MAX_BONUS_RANGE: u8 = 8;

/// The longest shot the sheet allows: the longest weapon's range plus the
/// most bonus range. `range` beyond it is refused as it is read.
pub const MAX_RANGE: u8 = {
    let mut longest = 0;
    let mut i = 0;
    while i < WEAPONS.len() {
        if WEAPONS[i].range > longest {
            longest = WEAPONS[i].range;
        }
        i += 1;
    }
    longest + MAX_BONUS_RANGE
};

/// A weapon with no notes on the sheet (Bow, Sling, Javelin): normal effect
/// on armour, cover counts, may move and shoot, any bonus dice, no fear.
/// [`WEAPONS`] writes each other row as what its notes change.
const fn plain(weapon: Weapon, label: &'static str, range: u8) -> WeaponRow {
    WeaponRow {
        weapon,
        label,
        range,
        armour: ArmourEffect::Normal,
        ignores_cover: false,
        move_and_shoot: true,
        bonus: BonusDice::Any,
        causes_fear: false,
    }
}

/// Shooting Weapons table (weapon type, range in DU, notes), card order.
pub const WEAPONS: [WeaponRow; 8] = [
    plain(Weapon::Bow, "Bow", 4),
    WeaponRow {
        armour: ArmourEffect::OneLevelLess,
        ..plain(Weapon::Longbow, "Longbow", 5)
    },
    WeaponRow {
        armour: ArmourEffect::Ignored,
        move_and_shoot: false,
        bonus: BonusDice::MagicOnly,
        ..plain(Weapon::Crossbow, "Crossbow", 5)
    },
    plain(Weapon::Sling, "Sling", 3),
    plain(Weapon::Javelin, "Javelin", 2),
    WeaponRow {
        armour: ArmourEffect::Ignored,
        move_and_shoot: false,
        bonus: BonusDice::None,
        causes_fear: true,
        ..plain(Weapon::Firearm, "Firearm", 3)
    },
    WeaponRow {
        armour: ArmourEffect::Ignored,
        ignores_cover: true,
        move_and_shoot: false,
        ..plain(Weapon::Artillery, "Artillery", 10)
    },
    WeaponRow {
        armour: ArmourEffect::Ignored,
        ignores_cover: true,
        causes_fear: true,
        ..plain(Weapon::Magic, "Magic Attack", 2)
    },
];

impl Weapon {
    /// The weapon's row of the table.
    pub fn row(self) -> &'static WeaponRow {
        &WEAPONS[self as usize]
    }
}

impl WeaponRow {
    /// The notes column, as the sheet words them.
    pub fn notes(&self) -> String {
        let mut n: Vec<&str> = Vec::new();
        match (self.armour, self.ignores_cover) {
            (ArmourEffect::OneLevelLess, _) => {
                n.push("Heavily armoured or armoured target reduced by one level of protection")
            }
            (ArmourEffect::Ignored, true) => n.push("Ignores all armour and cover"),
            (ArmourEffect::Ignored, false) => n.push("Ignores all armour"),
            _ => {}
        }
        if !self.move_and_shoot {
            n.push("Cannot move and shoot");
        }
        match self.bonus {
            BonusDice::MagicOnly => n.push("No non-magical bonus shooting dice may be used"),
            BonusDice::None => n.push("No bonus shooting dice may be used"),
            BonusDice::Any => {}
        }
        if self.causes_fear {
            n.push("Causes fear");
        }
        n.join(". ")
    }
}

/// The protection a target counts against `weapon`: its armour, less one
/// level against a longbow (heavily armoured or armoured only), no better
/// than unarmoured against a weapon that ignores armour; then, in cover,
/// `cover_levels` better (at most heavily armoured) unless the weapon
/// ignores cover. A target lacking protection stays so against every
/// weapon unless cover lifts it.
pub fn protection(armour: Armour, weapon: Weapon, cover: bool, cover_levels: u8) -> Armour {
    let row = weapon.row();
    let mut level = armour.level() as i32;
    match row.armour {
        ArmourEffect::Normal => {}
        ArmourEffect::OneLevelLess if level >= 2 => level -= 1,
        ArmourEffect::OneLevelLess => {}
        ArmourEffect::Ignored => level = level.min(1),
    }
    if cover && !row.ignores_cover {
        level += cover_levels as i32;
    }
    Armour::from_level(level)
}

/// Everything a volley is built from.
#[derive(Clone, Debug, PartialEq)]
pub struct ShootingInput {
    /// The shooting unit (it must have a weapon).
    pub firer: Unit,
    /// The target.
    pub target: Unit,
    /// Range in DU, checked against the weapon's range and bonus range.
    pub range: Option<u8>,
    /// The shooter moved this activation.
    pub moved: bool,
    /// Non-magical bonus dice (from the action dice). `None`: spend the
    /// shooter's pending bonus from an activation (range first).
    pub bonus_dice: Option<u8>,
    /// Bonus range (DU) from the action dice.
    pub bonus_range: Option<u8>,
    /// Magical bonus dice.
    pub magic_dice: u8,
    /// The target is in cover (default: the target unit's `cover`).
    pub cover: Option<bool>,
    /// Levels of protection cover adds.
    pub cover_levels: u8,
    /// Dice from strength once a unit has hits.
    pub dice_from: DiceFrom,
    /// The combat switches.
    pub rules: ClashRules,
    /// Dice added to the shooter's.
    pub extra_dice: i32,
    /// Dice added to the target's.
    pub target_extra_dice: i32,
    /// Added to the target's adjusted Discipline for its tests.
    pub extra_discipline: i32,
}

impl ShootingInput {
    /// `firer` shoots `target` with the defaults.
    pub fn new(firer: Unit, target: Unit) -> ShootingInput {
        ShootingInput {
            firer,
            target,
            range: None,
            moved: false,
            bonus_dice: None,
            bonus_range: None,
            magic_dice: 0,
            cover: None,
            cover_levels: 1,
            dice_from: DiceFrom::StrengthLessHits,
            rules: ClashRules::default(),
            extra_dice: 0,
            target_extra_dice: 0,
            extra_discipline: 0,
        }
    }
}

/// Outcome labels of a volley.
pub const OUTCOMES: [&str; 2] = ["target stands", "target routs"];

/// A volley: the shooter's dice against the target's.
#[derive(Clone, Debug)]
pub struct Shooting {
    space: OutcomeSpace,
    clash: Clash,
    protection: Armour,
    firer_dice: Vec<PoolLine>,
    commander_measure: bool,
    explain: Box<VolleyRecord>,
}

/// What a volley was built from and how, for `pikeshot explain`.
#[derive(Clone, Debug)]
pub struct VolleyRecord {
    /// The step's input.
    pub input: ShootingInput,
    /// The target's dice, line by line.
    pub target_dice: Vec<PoolLine>,
    /// The target's level of protection against the weapon, term by term
    /// (3 heavily armoured … 0 lacking protection).
    pub protection_terms: Vec<Term>,
    /// The target's Discipline for its tests, term by term.
    pub tests: Vec<Term>,
}

/// `range`, declared once: its doc and its reader.
pub(crate) const RANGE: Key<i64> = Key::int(
    "range",
    0,
    MAX_RANGE as i64,
    "range in DU; refused beyond the weapon's range plus bonus_range",
);

/// `moved`, declared once: its doc and its reader.
pub(crate) const MOVED: Key<bool> = Key::flag(
    "moved",
    "true: the shooter moved this activation (refused for crossbow, firearm, artillery)",
);

/// `bonus_dice`, declared once: its doc and its reader.
pub(crate) const BONUS_DICE: Key<i64> = Key::int(
    "bonus_dice",
    0,
    8,
    "bonus dice from the action dice (crossbow and firearm may not); default: a pending activation bonus, spent on range first",
);

/// `bonus_range`, declared once: its doc and its reader.
pub(crate) const BONUS_RANGE: Key<i64> = Key::int(
    "bonus_range",
    0,
    MAX_BONUS_RANGE as i64,
    "DU of bonus range from the action dice",
)
.or("0");

/// `magic_dice`, declared once: its doc and its reader.
pub(crate) const MAGIC_DICE: Key<i64> =
    Key::int("magic_dice", 0, 4, "magical bonus dice (not with firearms)").or("0");

/// `cover`, declared once: its doc and its reader.
pub(crate) const COVER: Key<bool> = Key::flag(
    "cover",
    "true/false: the target is in cover (default: its `cover`)",
);

/// `cover_levels`, declared once: its doc and its reader.
pub(crate) const COVER_LEVELS: Key<i64> =
    Key::int("cover_levels", 0, 2, "levels of protection cover adds").or("1");

/// `extra_dice`, declared once: its doc and its reader.
pub(crate) const EXTRA_DICE: Key<i64> =
    Key::int("extra_dice", -8, 8, "dice added to the shooter's").or("0");

/// `target_extra_dice`, declared once: its doc and its reader.
pub(crate) const TARGET_EXTRA_DICE: Key<i64> =
    Key::int("target_extra_dice", -8, 8, "dice added to the target's").or("0");

/// `extra_discipline`, declared once: its doc and its reader.
pub(crate) const EXTRA_DISCIPLINE: Key<i64> = Key::int(
    "extra_discipline",
    -3,
    3,
    "added to the target's adjusted Discipline for its tests",
)
.or("0");

/// What `pikeshot list` says of shooting.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "shooting",
    rule: "Shooting Weapons; Combat Process",
    summary: "A volley: the shooter's combat dice against the target's strength dice, top four paired; only the shooter's dice hurt",
    keys: &[
        KeyDoc::unit("firer", "required: the shooting unit (it needs a `weapon`)"),
        KeyDoc::unit("target", "required: the target"),
        RANGE.doc(),
        MOVED.doc(),
        BONUS_DICE.doc(),
        BONUS_RANGE.doc(),
        MAGIC_DICE.doc(),
        COVER.doc(),
        COVER_LEVELS.doc(),
        EXTRA_DICE.doc(),
        TARGET_EXTRA_DICE.doc(),
        EXTRA_DISCIPLINE.doc(),
    ],
    outcomes: &OUTCOMES,
    // What a `shooting` step's course writes (docs/rules/sword-and-spear.md 9).
    measures: &[
        "own-morale",
        "hits-taken",
        "enemy-morale",
        "hits-inflicted",
        "tests-inflicted",
        "NAME-commander-lost",
    ],
};

type Fail = (&'static str, InputError);

fn fail(key: &'static str, m: impl Into<String>) -> Fail {
    (key, InputError::new(m))
}

impl Shooting {
    /// Builds a volley.
    pub fn new(input: &ShootingInput) -> Result<Shooting, InputError> {
        Shooting::build(input).map_err(|(k, e)| e.key(k))
    }

    fn build(input: &ShootingInput) -> Result<Shooting, Fail> {
        let (fu, tu) = (&input.firer, &input.target);
        if fu.name == tu.name {
            return Err(fail("target", format!("{} cannot shoot itself", fu.name)));
        }
        let weapon = fu.weapon.ok_or_else(|| {
            fail(
                "firer",
                format!(
                    "{} has no `weapon`: only units with a shooting weapon shoot",
                    fu.name
                ),
            )
        })?;
        let row = weapon.row();
        if input.moved && !row.move_and_shoot {
            return Err(fail(
                "moved",
                format!("{}: cannot move and shoot (Shooting Weapons)", row.label),
            ));
        }
        // Bonus: explicit, or the shooter's pending activation bonus spent
        // on range first, then on dice where the weapon allows them.
        let (bonus_dice, bonus_range) = match (input.bonus_dice, input.bonus_range) {
            (None, None) => {
                let pending = fu.action_bonus;
                let short = input.range.map_or(0, |r| r.saturating_sub(row.range));
                let on_range = short.min(pending);
                let left = pending - on_range;
                let dice = if row.bonus == BonusDice::Any { left } else { 0 };
                (dice, on_range)
            }
            (d, r) => (d.unwrap_or(0), r.unwrap_or(0)),
        };
        if let Some(r) = input.range
            && r > row.range + bonus_range
        {
            return Err(fail(
                "range",
                format!(
                    "{r} DU is out of range: {} reaches {} DU{}",
                    row.label,
                    row.range,
                    if bonus_range > 0 {
                        format!(" (+{bonus_range} bonus range)")
                    } else {
                        String::new()
                    }
                ),
            ));
        }
        if bonus_dice > 0 && row.bonus != BonusDice::Any {
            return Err(fail(
                "bonus_dice",
                format!(
                    "{}: {} (Shooting Weapons)",
                    row.label,
                    match row.bonus {
                        BonusDice::MagicOnly => "no non-magical bonus shooting dice may be used",
                        _ => "no bonus shooting dice may be used",
                    }
                ),
            ));
        }
        if input.magic_dice > 0 && row.bonus == BonusDice::None {
            return Err(fail(
                "magic_dice",
                format!(
                    "{}: no bonus shooting dice may be used (Shooting Weapons)",
                    row.label
                ),
            ));
        }
        let (firer_dice, total) = shooter_lines(input, row, bonus_dice, bonus_range);
        let (target_dice, target_total) = target_lines(input);
        for (key, t) in [("extra_dice", total), ("target_extra_dice", target_total)] {
            if t > MAX_DICE as i32 {
                return Err(fail(
                    key,
                    format!("{t} combat dice: at most {MAX_DICE} a side"),
                ));
            }
        }
        let cover = input.cover.unwrap_or(tu.cover);
        let prot = protection(tu.armour, weapon, cover, input.cover_levels);
        let protection_terms = protection_terms(input, weapon, cover);
        // The target's Discipline for its tests, term by term (the record
        // the clash and `pikeshot explain` both read).
        let tests = discipline_terms(tu, input.extra_discipline, "extra_discipline");
        // The shooter is not hurt by the target's dice, and its commander
        // is not at risk.
        let firer = ClashSide {
            raise: prot == Armour::LackingProtection,
            vulnerable: false,
            commander: false,
            ..ClashSide::of(fu, total.max(0) as u8, adjusted(fu))
        };
        let target = ClashSide {
            reduce: prot.reduction(),
            ..ClashSide::of(tu, target_total.max(0) as u8, crate::explain::sum(&tests))
        };
        let commander_measure = target.commander;
        let mut measures = vec![
            Measure::new("target-hits", 0, 4),
            Measure::new("target-tests", 0, 4),
        ];
        if commander_measure {
            measures.push(Measure::new("target-commander-killed", 0, 1));
        }
        Ok(Shooting {
            space: OutcomeSpace::from_labels(&OUTCOMES, measures),
            clash: Clash::new([firer, target], input.rules),
            protection: prot,
            firer_dice,
            commander_measure,
            explain: Box::new(VolleyRecord {
                input: input.clone(),
                target_dice,
                protection_terms,
                tests,
            }),
        })
    }

    /// Builds the step from its keys (in [`INFO`]) under the default
    /// readings.
    pub fn from_step(f: &mut Fields, units: &[Unit]) -> Result<Shooting, InputError> {
        Shooting::from_step_with(f, units, &Readings::default())
    }

    /// Builds the step from its keys under the scenario's `[rules]`
    /// `readings`.
    pub fn from_step_with(
        f: &mut Fields,
        units: &[Unit],
        readings: &Readings,
    ) -> Result<Shooting, InputError> {
        let firer = find_unit(f, "firer", units)?.clone();
        let target = find_unit(f, "target", units)?.clone();
        let mut input = ShootingInput::new(firer, target);
        input.range = RANGE.read(f)?.map(|r| r as u8);
        input.moved = MOVED.get(f)?;
        input.bonus_dice = BONUS_DICE.read(f)?.map(|b| b as u8);
        input.bonus_range = BONUS_RANGE.read(f)?.map(|b| b as u8);
        input.magic_dice = MAGIC_DICE.read(f)?.unwrap_or(0) as u8;
        input.cover = COVER.read(f)?;
        input.cover_levels = COVER_LEVELS.read(f)?.unwrap_or(1) as u8;
        input.dice_from = readings.dice_from;
        input.rules = readings.clash_rules();
        input.extra_dice = EXTRA_DICE.read(f)?.unwrap_or(0) as i32;
        input.target_extra_dice = TARGET_EXTRA_DICE.read(f)?.unwrap_or(0) as i32;
        input.extra_discipline = EXTRA_DISCIPLINE.read(f)?.unwrap_or(0) as i32;
        finish_step(f, INFO.keys)?;
        Shooting::build(&input).map_err(|(k, e)| f.locate(k, e))
    }

    /// The target's protection against this weapon.
    pub fn protection(&self) -> Armour {
        self.protection
    }
    /// The shooter's dice, line by line.
    pub fn firer_dice(&self) -> &[PoolLine] {
        &self.firer_dice
    }
    /// What the volley was built from and how.
    pub fn record(&self) -> &VolleyRecord {
        &self.explain
    }
}

impl ClashProcedure for Shooting {
    fn clash(&self) -> &Clash {
        &self.clash
    }
    fn outcomes(&self) -> &OutcomeSpace {
        &self.space
    }
    #[inline]
    fn leaf_of(&self, r: &ClashResult) -> Leaf {
        let v = [r.hits[1] as i32, r.tests[1] as i32, r.killed[1] as i32];
        let k = if self.commander_measure { 3 } else { 2 };
        self.space.leaf(r.routed[1] as usize, &v[..k])
    }
}

/// The Shooting Weapons table, for `pikeshot tables`.
pub fn charts() -> Vec<Chart> {
    vec![Chart {
        id: "shooting-weapons",
        title: "Shooting Weapons".into(),
        rule: "Combat",
        headers: headers(&["Weapon type", "Range in DU", "Notes"]),
        rows: WEAPONS
            .iter()
            .map(|w| vec![w.label.to_string(), w.range.to_string(), w.notes()])
            .collect(),
        notes: vec![
            "A volley (docs/rules/sword-and-spear.md section 5): the shooter's strength (less hits) plus bonus dice against the target's strength dice, no impetus or extras; top four paired; only the shooter's dice hurt".into(),
            "Cover (reading): one level of protection better (`cover_levels`), after the longbow's reduction; artillery and magic ignore it".into(),
            "Javelin's \"3590\" on the sheet is an artefact".into(),
        ],
    }]
}
