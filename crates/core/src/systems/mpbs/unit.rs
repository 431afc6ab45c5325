//! A Musket & Pike unit as a scenario describes it.

use super::input::card_name;
use super::{CardNamed, Edition, Formation, Gun, MoraleState, Order, UnitKind, terrain};
use crate::error::InputError;
use crate::scenario::{Fields, course};

/// Most strength points a unit may have; its casualty points stay below
/// its strength.
pub const MAX_STRENGTH: u8 = 30;

/// The keys of `[units.NAME]`, each declared once: what `pikeshot list`
/// says of it and its reader.
pub mod keys {
    use super::super::{CardNamed, Edition, Formation, Gun, MORALE_STATES_IN_PLAY};
    use super::super::{MoraleState, Order, UnitKind, terrain};
    use super::MAX_STRENGTH;
    use crate::systems::registry::per_edition;
    use crate::systems::{Key, KeyDoc};

    /// `morale`: the printed morale rating.
    pub const MORALE: Key<i64> = Key::int("morale", 2, 9, "required: its printed morale rating");
    /// `strength`: strength points.
    pub const STRENGTH: Key<i64> = Key::int(
        "strength",
        1,
        MAX_STRENGTH as i64,
        "required: its strength points",
    );
    /// `hexes`: one or two.
    pub const HEXES: Key<i64> = Key::int("hexes", 1, 2, "hexes it occupies").or("1");
    /// `casualty_points`: taken before the course.
    pub const CASUALTY_POINTS: Key<i64> = Key::int(
        "casualty_points",
        0,
        MAX_STRENGTH as i64 - 1,
        "casualty points it has taken (fewer than its strength)",
    )
    .or("0");
    /// `formation` (6.3).
    pub const FORMATION: Key<Formation> =
        Key::one_of("formation", "formation", "its formation (6.3)").or("normal");
    /// `morale_state`: all but eliminated are listed.
    pub const MORALE_STATE: Key<MoraleState> = Key::some_of(
        "morale_state",
        "morale state",
        &MORALE_STATES_IN_PLAY,
        "its morale level (an eliminated unit cannot take part)",
    )
    .or("good");
    /// `salvo_marker` (10.4).
    pub const SALVO_MARKER: Key<bool> =
        Key::flag("salvo_marker", "true: it carries a Salvo marker (10.4)");
    /// `regimental_artillery`.
    pub const REGIMENTAL_ARTILLERY: Key<bool> = Key::flag(
        "regimental_artillery",
        "true: heavy infantry with regimental artillery",
    );
    /// `leader`: a stacked leader's rating.
    pub const LEADER: Key<i64> = Key::int(
        "leader",
        -3,
        0,
        "the rating of a leader stacked with it (none by default)",
    );
    /// `order`: its wing's order.
    pub const ORDER: Key<Order> = Key::one_of("order", "order", "its wing's order").or("charge");
    /// `can_retreat`.
    pub const CAN_RETREAT: Key<bool> = Key::flag(
        "can_retreat",
        "false: it cannot retreat when a result calls for it",
    )
    .or("true");

    /// Every unit key, in the order `pikeshot list` prints them (the keys
    /// whose names differ by card are read by `card_name`).
    pub fn all() -> Vec<KeyDoc> {
        let by_card = |f: fn(Edition) -> Vec<&'static str>| {
            per_edition(Edition::ALL.iter().map(|&e| (e.name(), f(e))))
        };
        vec![
            KeyDoc::new(
                "kind",
                by_card(UnitKind::card_names),
                "required: what the unit is, as the card's charts distinguish it",
            ),
            MORALE.doc(),
            STRENGTH.doc(),
            HEXES.doc(),
            CASUALTY_POINTS.doc(),
            FORMATION.doc(),
            MORALE_STATE.doc(),
            KeyDoc::new(
                "terrain",
                by_card(terrain::hex_names),
                "the TEC hex it stands in",
            )
            .or("clear"),
            KeyDoc::new(
                "hexside",
                by_card(terrain::hexside_names),
                "the TEC hexside between it and its attacker or firer",
            ),
            SALVO_MARKER.doc(),
            REGIMENTAL_ARTILLERY.doc(),
            KeyDoc::new(
                "gun",
                by_card(Gun::card_names),
                "required for artillery, refused for others: the Artillery Fire Table column",
            ),
            LEADER.doc(),
            ORDER.doc(),
            CAN_RETREAT.doc(),
        ]
    }
}

/// A unit: what it is, and the state it is in when the course starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Unit {
    /// The unit's key in `[units]`.
    pub name: String,
    /// Kind (for the CC matrix and the fire tables).
    pub kind: UnitKind,
    /// Printed (original) morale rating, 2–9 (the cards read ≤6, 7, 8).
    pub morale: u8,
    /// Original strength points.
    pub strength: u8,
    /// 1 for a one-hex unit, 2 for a two-hex unit (musketry CP DRM, 10.0).
    pub hexes: u8,
    /// Casualty points already taken.
    pub casualty_points: u8,
    /// Formation.
    pub formation: Formation,
    /// Morale level.
    pub morale_state: MoraleState,
    /// Hex terrain the unit stands in (TEC hex row name).
    pub terrain: &'static str,
    /// Hexside an attacker or firer crosses to reach the unit (TEC hexside row), if any.
    pub hexside: Option<&'static str>,
    /// Has a Salvo marker (10.4).
    pub salvo_marker: bool,
    /// Heavy infantry with regimental artillery (10.0 right-hand columns).
    pub regimental_artillery: bool,
    /// Gun weight, for artillery.
    pub gun: Option<Gun>,
    /// Leadership rating of the leader stacked with the unit, if any. The
    /// cards' ratings run 0 to −2 (some games −3), the most negative the best.
    pub leader: Option<i8>,
    /// The wing's current order.
    pub order: Order,
    /// Whether the unit can retreat when a result tells it to; a Morale
    /// Broken unit that cannot rolls on the Unable to Retreat Table (11.4.5)
    /// in a course.
    pub can_retreat: bool,
}

impl Unit {
    /// Reads `[units.NAME]`. `edition` decides which kinds and terrain exist.
    pub fn from_fields(name: &str, f: &mut Fields, edition: Edition) -> Result<Unit, InputError> {
        let kind = card_name(
            f,
            "kind",
            "unit kind",
            edition,
            UnitKind::parse,
            UnitKind::card_names,
        )?
        .ok_or_else(|| f.missing("kind").one_of("", &UnitKind::card_names(edition)))?;
        let morale = keys::MORALE.require(f)? as u8;
        let strength = keys::STRENGTH.require(f)? as u8;
        let hexes = keys::HEXES.get(f)? as u8;
        let casualty_points = keys::CASUALTY_POINTS.get(f)? as u8;
        if casualty_points >= strength {
            return Err(f.err(
                "casualty_points",
                format!("{casualty_points} casualty points would leave no strength (strength is {strength})"),
            ));
        }
        let formation = keys::FORMATION.get(f)?;
        let morale_state = keys::MORALE_STATE.get(f)?;
        if morale_state == MoraleState::Eliminated {
            return Err(f.err("morale_state", "an eliminated unit cannot take part"));
        }
        let terrain = card_name(
            f,
            "terrain",
            "terrain",
            edition,
            |e, s| terrain::hex(e, s).map(|r| r.name),
            terrain::hex_names,
        )?
        .unwrap_or("clear");
        let hexside = card_name(
            f,
            "hexside",
            "hexside terrain",
            edition,
            |e, s| terrain::hexside(e, s).map(|r| r.name),
            terrain::hexside_names,
        )?;
        let salvo_marker = keys::SALVO_MARKER.get(f)?;
        let regimental_artillery = keys::REGIMENTAL_ARTILLERY.get(f)?;
        if regimental_artillery && !kind.is_heavy_infantry() {
            return Err(f.err(
                "regimental_artillery",
                "only heavy infantry carries regimental artillery",
            ));
        }
        let gun = card_name(f, "gun", "gun", edition, Gun::parse, Gun::card_names)?;
        match (kind, gun) {
            (UnitKind::Artillery, None) => {
                return Err(f.missing("gun").one_of("", &Gun::card_names(edition)));
            }
            (k, Some(_)) if k != UnitKind::Artillery => {
                return Err(f.err("gun", "only artillery units have a gun"));
            }
            _ => {}
        }
        let leader = keys::LEADER.read(f)?.map(|v| v as i8);
        let order = keys::ORDER.get(f)?;
        let can_retreat = keys::CAN_RETREAT.get(f)?;
        Ok(Unit {
            name: name.to_string(),
            kind,
            morale,
            strength,
            hexes,
            casualty_points,
            formation,
            morale_state,
            terrain,
            hexside,
            salvo_marker,
            regimental_artillery,
            gun,
            leader,
            order,
            can_retreat,
        })
    }

    /// Current strength points: original strength less casualty points
    /// (docs/rules/mpbs.md, Casualty points).
    pub fn current_strength(&self) -> u8 {
        self.strength.saturating_sub(self.casualty_points)
    }
}

impl course::NamedUnit for Unit {
    fn unit_name(&self) -> &str {
        &self.name
    }
}

/// The unit named by a step key (the shared reader).
pub use crate::scenario::course::find_unit;
