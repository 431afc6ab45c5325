//! A Musket & Pike unit as a scenario describes it.

use super::input::card_name;
use super::{CardNamed, Edition, Formation, Gun, MoraleState, Order, UnitKind, terrain};
use crate::error::InputError;
use crate::scenario::{Fields, course};
use crate::systems::named;

/// Most strength points a unit may have; its casualty points stay below
/// its strength.
pub const MAX_STRENGTH: u8 = 30;

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
        let morale = f.req_int("morale", 2, 9)? as u8;
        let strength = f.req_int("strength", 1, MAX_STRENGTH as i64)? as u8;
        let hexes = f.int("hexes", 1, 2)?.unwrap_or(1) as u8;
        let casualty_points = f
            .int("casualty_points", 0, MAX_STRENGTH as i64 - 1)?
            .unwrap_or(0) as u8;
        if casualty_points >= strength {
            return Err(f.err(
                "casualty_points",
                format!("{casualty_points} casualty points would leave no strength (strength is {strength})"),
            ));
        }
        let formation = named::read(f, "formation", "formation")?.unwrap_or(Formation::Normal);
        let morale_state = f
            .named(
                "morale_state",
                "morale state",
                MoraleState::from_name,
                &super::MORALE_STATES_IN_PLAY,
            )?
            .unwrap_or(MoraleState::Good);
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
        let salvo_marker = f.flag("salvo_marker")?;
        let regimental_artillery = f.flag("regimental_artillery")?;
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
        let leader = f.int("leader", -3, 0)?.map(|v| v as i8);
        let order = f
            .named("order", "order", Order::from_name, &Order::names())?
            .unwrap_or(Order::Charge);
        let can_retreat = f.bool("can_retreat")?.unwrap_or(true);
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
