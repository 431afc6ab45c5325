//! A Sword & Spear unit as a scenario describes it (`[units.NAME]`).

use super::discipline::command_range;
use super::named_enum;
use super::shooting::Weapon;
use super::troops::{Terrain, Troop};
use crate::error::InputError;
use crate::scenario::{Fields, course};
use crate::systems::KeyDoc;

named_enum! {
    /// A unit's protection, best first (Effect of Armour).
    Armour {
        /// Heavily Armoured: reduces one of the opponent's winning dice by up to 2.
        HeavilyArmoured = "heavily-armoured",
        /// Armoured: reduces one of the opponent's winning dice by 1.
        Armoured = "armoured",
        /// Neither armoured nor lacking protection.
        Unarmoured = "unarmoured",
        /// Lacking Protection: the opponent raises one of its winning or drawing dice by 1.
        LackingProtection = "lacking-protection",
    }
}

impl Armour {
    /// Level of protection: 3 heavily armoured, 2 armoured, 1 unarmoured,
    /// 0 lacking protection.
    pub fn level(self) -> u8 {
        match self {
            Armour::HeavilyArmoured => 3,
            Armour::Armoured => 2,
            Armour::Unarmoured => 1,
            Armour::LackingProtection => 0,
        }
    }
    /// The armour of a level, clamped to 0..=3.
    pub fn from_level(level: i32) -> Armour {
        match level {
            ..=0 => Armour::LackingProtection,
            1 => Armour::Unarmoured,
            2 => Armour::Armoured,
            _ => Armour::HeavilyArmoured,
        }
    }
    /// How far it lowers one of the opponent's winning dice (2, 1 or 0).
    pub fn reduction(self) -> u8 {
        match self {
            Armour::HeavilyArmoured => 2,
            Armour::Armoured => 1,
            _ => 0,
        }
    }
}

named_enum! {
    /// A commander with a unit (Command distance).
    Commander {
        /// A captain: command distance 4 DU.
        Captain = "captain",
        /// A general: command distance 8 DU.
        General = "general",
    }
}

named_enum! {
    /// Melee weapons the impetus conditions name.
    MeleeWeapon {
        /// Armed with spears.
        Spears = "spears",
        /// Armed with pikes.
        Pikes = "pikes",
    }
}

/// Most strength points a unit may have.
pub const MAX_STRENGTH: u8 = 10;

/// The keys of `[units.NAME]`: what each means and accepts.
pub fn unit_keys() -> Vec<KeyDoc> {
    use keys::*;
    vec![
        TROOP.doc(),
        DISCIPLINE.doc(),
        STRENGTH.doc(),
        HITS.doc(),
        LARGE.doc(),
        ARMOUR.doc(),
        WEAPON.doc(),
        MELEE_WEAPON.doc(),
        MELEE_CAPABLE.doc(),
        SKIRMISHER.doc(),
        CAUSES_FEAR.doc(),
        HEROIC.doc(),
        TRAIN.doc(),
        TERRAIN.doc(),
        COVER.doc(),
        COMMANDER.doc(),
        COMMAND_BY.doc(),
        COMMAND_DISTANCE.doc(),
        OUT_OF_COMMAND.doc(),
    ]
}

/// The keys of `[units.NAME]`, each declared once: what `pikeshot list`
/// says of it and its reader.
pub mod keys {
    use super::{Armour, Commander, MAX_STRENGTH, MeleeWeapon, Terrain, Troop, Weapon};
    use crate::systems::Key;

    /// `troop`.
    pub const TROOP: Key<Troop> = Key::one_of("troop", "troop type", "required: the troop type");
    /// `discipline`.
    pub const DISCIPLINE: Key<i64> = Key::int("discipline", 1, 6, "required: its Discipline");
    /// `strength`.
    pub const STRENGTH: Key<i64> =
        Key::int("strength", 1, MAX_STRENGTH as i64, "required: its strength");
    /// `hits`.
    pub const HITS: Key<i64> = Key::int(
        "hits",
        0,
        MAX_STRENGTH as i64 - 1,
        "hits it has taken (fewer than its strength)",
    )
    .or("0");
    /// `large`.
    pub const LARGE: Key<bool> = Key::flag("large", "true: a large unit");
    /// `armour`.
    pub const ARMOUR: Key<Armour> = Key::one_of("armour", "armour", "its armour").or("unarmoured");
    /// `weapon`.
    pub const WEAPON: Key<Weapon> = Key::one_of(
        "weapon",
        "missile weapon",
        "its missile weapon (none by default)",
    );
    /// `melee_weapon`.
    pub const MELEE_WEAPON: Key<MeleeWeapon> =
        Key::one_of("melee_weapon", "melee weapon", "its melee weapon, if any");
    /// `melee_capable`.
    pub const MELEE_CAPABLE: Key<bool> = Key::flag(
        "melee_capable",
        "true: medium foot with missiles that may claim impetus",
    );
    /// `skirmisher`: the default is the troop type's.
    pub const SKIRMISHER: Key<bool> = Key::flag(
        "skirmisher",
        "true: a skirmisher (default: as its troop type)",
    );
    /// `causes_fear`: the default is the weapon's row.
    pub const CAUSES_FEAR: Key<bool> = Key::flag(
        "causes_fear",
        "true: causes fear (default: as its weapon's row)",
    );
    /// `heroic`.
    pub const HEROIC: Key<bool> = Key::flag("heroic", "true: heroic");
    /// `train`.
    pub const TRAIN: Key<bool> = Key::flag("train", "true: a baggage train");
    /// `terrain`.
    pub const TERRAIN: Key<Terrain> =
        Key::one_of("terrain", "terrain", "the terrain it stands in").or("open");
    /// `cover`.
    pub const COVER: Key<bool> = Key::flag("cover", "true: it is in cover");
    /// `commander`.
    pub const COMMANDER: Key<Commander> = Key::one_of(
        "commander",
        "commander",
        "the commander with the unit, if any",
    );
    /// `command_by`.
    pub const COMMAND_BY: Key<Commander> = Key::one_of(
        "command_by",
        "commander",
        "the commander whose range `command_distance` is measured from",
    );
    /// `command_distance`.
    pub const COMMAND_DISTANCE: Key<i64> = Key::int(
        "command_distance",
        0,
        200,
        "DU to its commander (with `command_by`)",
    );
    /// `out_of_command`.
    pub const OUT_OF_COMMAND: Key<bool> = Key::flag(
        "out_of_command",
        "true: out of command (instead of `command_distance`)",
    );
}

/// A unit: what it is and the state it starts a course in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The unit's key in `[units]`.
    pub name: String,
    /// Troop type.
    pub troop: Troop,
    /// Printed Discipline, 1–6 (lower is better).
    pub discipline: u8,
    /// Strength: dice in combat, and the hits that rout it.
    pub strength: u8,
    /// Hits already taken (below strength).
    pub hits: u8,
    /// A large unit (two impetus dice when fresh).
    pub large: bool,
    /// Protection.
    pub armour: Armour,
    /// Shooting weapon, if any.
    pub weapon: Option<Weapon>,
    /// Spears or pikes, if any.
    pub melee_weapon: Option<MeleeWeapon>,
    /// Medium foot with missiles that is also melee capable.
    pub melee_capable: bool,
    /// Skirmishers (default: light foot and light horse).
    pub skirmisher: bool,
    /// Causes fear (default: armed with firearms or a magic attack).
    pub causes_fear: bool,
    /// Has the heroic characteristic.
    pub heroic: bool,
    /// A train (baggage) unit.
    pub train: bool,
    /// Terrain the unit stands in (the worst it is partly in).
    pub terrain: Terrain,
    /// In cover against shooting.
    pub cover: bool,
    /// The commander with the unit, if any.
    pub commander: Option<Commander>,
    /// Out of command range (+1 Discipline).
    pub out_of_command: bool,
    /// Bonus from an activation earlier in the course, not yet spent
    /// (courses only; not a scenario key).
    pub action_bonus: u8,
    /// Shot earlier in the course's phase (courses only; not a scenario key).
    pub shot_this_phase: bool,
}

impl Unit {
    /// A fresh unit of `troop` with the given Discipline and strength, in
    /// the open, unarmoured, with nothing else (for tests and tools).
    pub fn new(name: &str, troop: Troop, discipline: u8, strength: u8) -> Unit {
        Unit {
            name: name.into(),
            troop,
            discipline,
            strength,
            hits: 0,
            large: false,
            armour: Armour::Unarmoured,
            weapon: None,
            melee_weapon: None,
            melee_capable: false,
            skirmisher: troop.default_skirmisher(),
            causes_fear: false,
            heroic: false,
            train: false,
            terrain: Terrain::Open,
            cover: false,
            commander: None,
            out_of_command: false,
            action_bonus: 0,
            shot_this_phase: false,
        }
    }

    /// Reads `[units.NAME]` (keys in [`unit_keys`]).
    pub fn from_fields(name: &str, f: &mut Fields) -> Result<Unit, InputError> {
        let troop = keys::TROOP.require(f)?;
        let discipline = keys::DISCIPLINE.require(f)? as u8;
        let strength = keys::STRENGTH.require(f)? as u8;
        let hits = keys::HITS.get(f)? as u8;
        if hits >= strength {
            return Err(f.err(
                "hits",
                format!(
                    "{hits} hits would rout the unit (strength {strength}): a unit routs when its hits reach its strength"
                ),
            ));
        }
        let mut u = Unit::new(name, troop, discipline, strength);
        u.hits = hits;
        u.large = keys::LARGE.get(f)?;
        u.armour = keys::ARMOUR.get(f)?;
        u.weapon = keys::WEAPON.read(f)?;
        u.melee_weapon = keys::MELEE_WEAPON.read(f)?;
        u.melee_capable = keys::MELEE_CAPABLE.get(f)?;
        if u.melee_capable && !(troop == Troop::MediumFoot && u.weapon.is_some()) {
            return Err(f.err(
                "melee_capable",
                "`melee_capable` describes medium foot armed with missiles (the impetus condition); this unit is not",
            ));
        }
        u.skirmisher = keys::SKIRMISHER
            .read(f)?
            .unwrap_or(troop.default_skirmisher());
        u.causes_fear = keys::CAUSES_FEAR
            .read(f)?
            .unwrap_or(u.weapon.is_some_and(|w| w.row().causes_fear));
        u.heroic = keys::HEROIC.get(f)?;
        u.train = keys::TRAIN.get(f)?;
        u.terrain = keys::TERRAIN.get(f)?;
        u.cover = keys::COVER.get(f)?;
        u.commander = keys::COMMANDER.read(f)?;
        let by = keys::COMMAND_BY.read(f)?;
        let distance = keys::COMMAND_DISTANCE.read(f)?;
        let explicit = keys::OUT_OF_COMMAND.read(f)?;
        if u.commander.is_some() && (distance.is_some() || explicit == Some(true)) {
            let key = if distance.is_some() {
                "command_distance"
            } else {
                "out_of_command"
            };
            return Err(f.err(
                key,
                "a unit with its commander is within command range; drop this key or the `commander`",
            ));
        }
        u.out_of_command = match (distance, by, explicit) {
            (Some(_), _, Some(_)) => {
                return Err(f.err(
                    "out_of_command",
                    "give either `command_distance` (with `command_by`) or `out_of_command`, not both",
                ));
            }
            (Some(d), Some(c), None) => d > command_range(c) as i64,
            (Some(_), None, None) => {
                return Err(f
                    .missing("command_by")
                    .one_of("", &Commander::names())
                    .accepted("captain (4 DU) or general (8 DU): whose command range `command_distance` is measured against"));
            }
            (None, Some(_), _) => {
                return Err(f.err(
                    "command_by",
                    "`command_by` needs `command_distance` (DU to that commander)",
                ));
            }
            (None, None, e) => e.unwrap_or(false),
        };
        Ok(u)
    }

    /// Current strength: strength less hits.
    pub fn remaining(&self) -> u8 {
        self.strength.saturating_sub(self.hits)
    }
}

impl course::NamedUnit for Unit {
    fn unit_name(&self) -> &str {
        &self.name
    }
}

/// The unit named by a step key (the shared reader).
pub use crate::scenario::course::find_unit;

/// Refuses keys of a step that `keys` does not list (besides `procedure`),
/// without consuming the caller's reader.
pub(crate) fn finish_step(f: &Fields, keys: &[crate::systems::KeyDoc]) -> Result<(), InputError> {
    let mut g = f.fresh();
    g.has("procedure");
    for k in keys {
        g.has(k.key);
    }
    g.finish()
}
