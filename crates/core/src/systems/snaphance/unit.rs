//! A Snaphance stand as a scenario describes it (`[units.NAME]`).

use super::terrain::{self, Terrain};
use super::{Class, Era, Kind};
use crate::error::InputError;
use crate::scenario::{Fields, course};
use crate::systems::KeyDoc;

/// The unit keys: what each means and accepts.
pub fn unit_keys() -> Vec<KeyDoc> {
    use keys::*;
    vec![
        KIND.doc(),
        STRENGTH.doc(),
        SP_LOST.doc(),
        DISORDERED.doc(),
        LEADER.doc(),
        CLASS.doc(),
        CHARGE_BONUS.doc(),
        RANKS.doc(),
        SWISS.doc(),
        ERA.doc(),
        PIKE_BONUS.doc(),
        SINGLE_STAND.doc(),
        TERRAIN.doc(),
        DEFENCES.doc(),
        SUPPORTED.doc(),
    ]
}

/// The keys of `[units.NAME]`, each declared once: what `pikeshot list`
/// says of it and its reader.
pub mod keys {
    use super::super::{Class, Era, Kind};
    use super::{MAX_STRENGTH, Terrain};
    use crate::systems::Key;

    /// `kind`: the troop type.
    pub const KIND: Key<Kind> =
        Key::one_of("kind", "troop type", "required: the stand's troop type");
    /// `strength`.
    pub const STRENGTH: Key<i64> = Key::int(
        "strength",
        1,
        MAX_STRENGTH as i64,
        "required: its strength points",
    );
    /// `sp_lost`.
    pub const SP_LOST: Key<i64> = Key::int(
        "sp_lost",
        0,
        MAX_STRENGTH as i64 - 1,
        "SP it has lost (fewer than its strength)",
    )
    .or("0");
    /// `disordered`.
    pub const DISORDERED: Key<bool> = Key::flag("disordered", "true: disordered");
    /// `leader`.
    pub const LEADER: Key<bool> = Key::flag("leader", "true: a leader is attached");
    /// `class`.
    pub const CLASS: Key<Class> =
        Key::one_of("class", "order class", "its order class (for order tests)");
    /// `charge_bonus`.
    pub const CHARGE_BONUS: Key<i64> = Key::int(
        "charge_bonus",
        0,
        4,
        "its Charge Bonus (default: as its kind)",
    );
    /// `ranks`.
    pub const RANKS: Key<i64> =
        Key::int("ranks", 0, 2, "extra ranks behind a pike or tercio stand").or("0");
    /// `swiss`.
    pub const SWISS: Key<bool> = Key::flag("swiss", "true: Swiss pike (pike stands)");
    /// `era`.
    pub const ERA: Key<Era> = Key::one_of("era", "era", "the era of a pike-and-shot stand");
    /// `pike_bonus`.
    pub const PIKE_BONUS: Key<bool> = Key::flag(
        "pike_bonus",
        "true: a pike-and-shot stand with the pike bonus",
    );
    /// `single_stand`.
    pub const SINGLE_STAND: Key<bool> = Key::flag(
        "single_stand",
        "false: a pike-and-shot stand that is not a single stand",
    )
    .or("true");
    /// `terrain`.
    pub const TERRAIN: Key<Terrain> =
        Key::one_of("terrain", "terrain", "the terrain it stands in").or("open");
    /// `defences`.
    pub const DEFENCES: Key<bool> = Key::flag("defences", "true: behind defences");
    /// `supported`.
    pub const SUPPORTED: Key<bool> = Key::flag("supported", "true: a supported shot stand");
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
        let kind = keys::KIND.require(f)?;
        let strength = keys::STRENGTH.require(f)? as u8;
        let mut s = Stand::new(name, kind, strength);
        s.sp_lost = keys::SP_LOST.get(f)? as u8;
        if s.sp_lost >= strength {
            return Err(f.err(
                "sp_lost",
                format!(
                    "{} SP lost would leave none (strength is {strength}): a destroyed stand cannot take part",
                    s.sp_lost
                ),
            ));
        }
        s.disordered = keys::DISORDERED.get(f)?;
        s.leader = keys::LEADER.get(f)?;
        s.class = keys::CLASS.read(f)?;
        if let Some(cb) = keys::CHARGE_BONUS.read(f)? {
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
            s.ranks = keys::RANKS.get(f)? as u8;
        }
        if given_for(f, "swiss", kind == Kind::Pike, "pike stands")? {
            s.swiss = keys::SWISS.get(f)?;
            if s.swiss && !f.has("charge_bonus") {
                s.charge_bonus = SWISS_CHARGE_BONUS;
            }
        }
        let pike_and_shot = (kind == Kind::PikeAndShot, "pike-and-shot stands");
        if given_for(f, "era", pike_and_shot.0, pike_and_shot.1)? {
            s.era = keys::ERA.read(f)?.unwrap_or(Era::Seventeenth);
        }
        if given_for(f, "pike_bonus", pike_and_shot.0, pike_and_shot.1)? {
            s.pike_bonus = keys::PIKE_BONUS.get(f)?;
        }
        if given_for(f, "single_stand", pike_and_shot.0, pike_and_shot.1)? {
            s.single_stand = keys::SINGLE_STAND.get(f)?;
        }
        s.terrain = keys::TERRAIN.get(f)?;
        s.defences = keys::DEFENCES.get(f)?;
        if given_for(f, "supported", kind == Kind::Shot, "shot stands")? {
            s.supported = keys::SUPPORTED.get(f)?;
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
