//! A Snaphance stand as a scenario describes it (`[units.NAME]`).

use super::terrain::{self, Terrain};
use super::{Class, Era, Kind};
use crate::error::InputError;
use crate::scenario::{Fields, course};
use crate::systems::KeyDoc;

/// The unit keys: what each means and accepts.
pub fn unit_keys() -> Vec<KeyDoc> {
    vec![
        KeyDoc::one_of("kind", Kind::NAMES, "required: the stand's troop type"),
        KeyDoc::int(
            "strength",
            1,
            MAX_STRENGTH as i64,
            "required: its strength points",
        ),
        KeyDoc::int(
            "sp_lost",
            0,
            MAX_STRENGTH as i64 - 1,
            "SP it has lost (fewer than its strength)",
        )
        .or("0"),
        KeyDoc::flag("disordered", "true: disordered"),
        KeyDoc::flag("leader", "true: a leader is attached"),
        KeyDoc::one_of("class", Class::NAMES, "its order class (for order tests)"),
        KeyDoc::int(
            "charge_bonus",
            0,
            4,
            "its Charge Bonus (default: as its kind)",
        ),
        KeyDoc::int("ranks", 0, 2, "extra ranks behind a pike or tercio stand").or("0"),
        KeyDoc::flag("swiss", "true: Swiss pike (pike stands)"),
        KeyDoc::one_of("era", Era::NAMES, "the era of a pike-and-shot stand"),
        KeyDoc::flag(
            "pike_bonus",
            "true: a pike-and-shot stand with the pike bonus",
        ),
        KeyDoc::new(
            "single_stand",
            crate::systems::Kind::Bool,
            "false: a pike-and-shot stand that is not a single stand",
        )
        .or("true"),
        KeyDoc::one_of("terrain", Terrain::NAMES, "the terrain it stands in").or("open"),
        KeyDoc::flag("defences", "true: behind defences"),
        KeyDoc::flag("supported", "true: a supported shot stand"),
    ]
}

/// Most strength points a stand may start with.
pub const MAX_STRENGTH: u8 = 30;

/// A stand: what it is, and the state it is in when the course starts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stand {
    /// The unit's key in `[units]`.
    pub name: String,
    /// Troop type.
    pub kind: Kind,
    /// Commencing strength points (the morale base, 8.0).
    pub strength: u8,
    /// SP already lost.
    pub sp_lost: u8,
    /// Disordered (terrain may also force disorder, [`Stand::is_disordered`]).
    pub disordered: bool,
    /// A commander (leader) attached.
    pub leader: bool,
    /// Order class, for order tests.
    pub class: Option<Class>,
    /// Charge Bonus in dice (army list; default by troop type).
    pub charge_bonus: u8,
    /// Pike and tercio: extra ranks behind (the 2nd and 3rd rank), 0–2.
    pub ranks: u8,
    /// Swiss pike (must pursue, 13.0).
    pub swiss: bool,
    /// P&S era.
    pub era: Era,
    /// P&S: fights with its P&S (pike) bonus.
    pub pike_bonus: bool,
    /// P&S: a single stand (towns 3.2).
    pub single_stand: bool,
    /// The terrain it stands in.
    pub terrain: Terrain,
    /// Behind (prepared) defences.
    pub defences: bool,
    /// Shot: next to a friendly combat stand (so supported).
    pub supported: bool,
}

impl Stand {
    /// A stand of `kind` and `strength` in the open, with every default.
    pub fn new(name: &str, kind: Kind, strength: u8) -> Stand {
        Stand {
            name: name.to_string(),
            kind,
            strength,
            sp_lost: 0,
            disordered: false,
            leader: false,
            class: None,
            charge_bonus: kind.row().charge_bonus,
            ranks: 0,
            swiss: false,
            era: Era::Seventeenth,
            pike_bonus: kind == Kind::PikeAndShot,
            single_stand: true,
            terrain: Terrain::Open,
            defences: false,
            supported: false,
        }
    }

    /// Remaining SP.
    pub fn sp(&self) -> u8 {
        self.strength.saturating_sub(self.sp_lost)
    }

    /// Disordered: marked so, or standing where it cannot recover
    /// ([`terrain::cannot_recover`]).
    pub fn is_disordered(&self) -> bool {
        self.disordered || self.forced_disorder()
    }

    /// The first line of a fire or melee pool: one die per remaining SP.
    pub fn sp_line(&self, label: &str, rule: &str) -> crate::explain::PoolLine {
        crate::explain::PoolLine::new(
            self.sp() as i32,
            label,
            rule,
            crate::explain::Source::unit(format!(
                "{}: {} SP ({} lost of {})",
                self.name,
                self.sp(),
                self.sp_lost,
                self.strength
            )),
        )
    }

    /// Disordered by the terrain it stands in.
    pub fn forced_disorder(&self) -> bool {
        terrain::cannot_recover(self.kind, self.era, self.terrain)
    }

    /// In cover for melee ("Shot [unsupported = not in cover …]"): woods,
    /// a town, or behind defences.
    pub fn in_cover(&self) -> bool {
        self.terrain.cover() || self.defences
    }

    /// In the open for fire: not in cover terrain and not behind defences.
    pub fn in_open(&self) -> bool {
        !self.in_cover()
    }

    /// Reads `[units.NAME]`.
    pub fn from_fields(name: &str, f: &mut Fields) -> Result<Stand, InputError> {
        let kind = f
            .named("kind", "troop type", Kind::from_name, &Kind::names())?
            .ok_or_else(|| f.missing("kind").one_of("", &Kind::names()))?;
        let strength = f.req_int("strength", 1, MAX_STRENGTH as i64)? as u8;
        let mut s = Stand::new(name, kind, strength);
        s.sp_lost = f.int("sp_lost", 0, MAX_STRENGTH as i64 - 1)?.unwrap_or(0) as u8;
        if s.sp_lost >= strength {
            return Err(f.err(
                "sp_lost",
                format!(
                    "{} SP lost would leave none (strength is {strength}): a destroyed stand cannot take part",
                    s.sp_lost
                ),
            ));
        }
        s.disordered = f.flag("disordered")?;
        s.leader = f.flag("leader")?;
        s.class = f.named("class", "order class", Class::from_name, &Class::names())?;
        if let Some(cb) = f.int("charge_bonus", 0, 4)? {
            s.charge_bonus = cb as u8;
        }
        // A key only some troop types have: whether it is given, refused on
        // any other type, naming the types it is for.
        let given_for = |f: &mut Fields, key: &'static str, ok: bool, what: &str| {
            if !f.has(key) {
                Ok(false)
            } else if ok {
                Ok(true)
            } else {
                Err(f.err(key, format!("`{key}` is for {what}; {name} is {kind}")))
            }
        };
        if given_for(f, "ranks", kind.has_depth(), "pike and tercio stands")? {
            s.ranks = f.int("ranks", 0, 2)?.unwrap_or(0) as u8;
        }
        if given_for(f, "swiss", kind == Kind::Pike, "pike stands")? {
            s.swiss = f.flag("swiss")?;
            if s.swiss && !f.has("charge_bonus") {
                s.charge_bonus = SWISS_CHARGE_BONUS;
            }
        }
        let pike_and_shot = (kind == Kind::PikeAndShot, "pike-and-shot stands");
        if given_for(f, "era", pike_and_shot.0, pike_and_shot.1)? {
            s.era = f
                .named("era", "era", Era::from_name, &Era::names())?
                .unwrap_or(Era::Seventeenth);
        }
        if given_for(f, "pike_bonus", pike_and_shot.0, pike_and_shot.1)? {
            s.pike_bonus = f.flag("pike_bonus")?;
        }
        if given_for(f, "single_stand", pike_and_shot.0, pike_and_shot.1)? {
            s.single_stand = f.bool("single_stand")?.unwrap_or(true);
        }
        s.terrain = f
            .named("terrain", "terrain", Terrain::from_name, &Terrain::names())?
            .unwrap_or(Terrain::Open);
        s.defences = f.flag("defences")?;
        if given_for(f, "supported", kind == Kind::Shot, "shot stands")? {
            s.supported = f.flag("supported")?;
        }
        Ok(s)
    }
}

/// Swiss pike's Charge Bonus when the army list does not say
/// (ASSUMPTION, docs/rules/snaphance.md section 1): +1D6, so that they may pursue as the
/// sheet has them.
pub const SWISS_CHARGE_BONUS: u8 = 1;

impl course::NamedUnit for Stand {
    fn unit_name(&self) -> &str {
        &self.name
    }
}

/// The stand named by a step key (the shared reader).
pub use crate::scenario::course::find_unit as find;

pub(crate) use crate::scenario::fields::{key_err, relocate};

/// Ends a step: refuses any key no one asked for, leaving the reader fresh.
pub(crate) fn finish(f: &mut Fields) -> Result<(), InputError> {
    let fresh = f.fresh();
    std::mem::replace(f, fresh).finish()
}
