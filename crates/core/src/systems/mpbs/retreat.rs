//! Unable to Retreat (11.4.5) of both cards: a Morale Broken unit that
//! cannot retreat rolls one d10 plus its DRMs; it is eliminated or stands
//! (and returns to Morale Shaken). The table is the same on both cards
//! (docs/rules/mpbs.md, Where the cards differ). Readings are in `docs/rules/mpbs.md`.

use super::close_combat::{Fail, Modifiers, TableRoll, finish_step, table_roll_procedure};
use super::input::{EXTRA_DRM_KEY, read_extra};
use super::unit::find_unit;
use super::{Band, Edition, Unit, chart_morale};
use crate::error::InputError;
use crate::explain::Source;
use crate::scenario::Fields;
use crate::systems::chart::headers;
use crate::systems::{Chart, KeyDoc, ProcedureInfo};

/// The results of the Unable to Retreat Table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RetreatResult {
    /// Eliminated.
    Eliminated,
    /// Stands; return it to Morale Shaken.
    Stands,
}

impl RetreatResult {
    /// Both results, in table order.
    pub const ALL: [RetreatResult; 2] = [RetreatResult::Eliminated, RetreatResult::Stands];
    /// The outcome label.
    pub fn label(self) -> &'static str {
        OUTCOMES[self as usize]
    }
}

/// The outcome labels, in table order.
pub const OUTCOMES: [&str; 2] = ["eliminated", "stands"];

/// Unable to Retreat Table (Morale Broken, 11.4.5), both cards: the
/// modified rolls of each result.
pub const UNABLE_TO_RETREAT: [(RetreatResult, Band); 2] = [
    (RetreatResult::Eliminated, Band::new(i8::MIN, 4)),
    (RetreatResult::Stands, Band::new(5, i8::MAX)),
];

/// A DRM by the unit's base (printed) morale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaseMoraleDrm {
    /// Breakdown label, as the card puts it.
    pub label: &'static str,
    /// The base morale ratings it applies to.
    pub morale: Band,
    /// The DRM.
    pub drm: i8,
}

/// Unable to Retreat DRMs (11.4.5), both cards: −2 base morale ≤ 6, +1 base
/// morale 8. A 9 reads as 8, as on every table (docs/rules/mpbs.md,
/// "Morale 9").
pub const BASE_MORALE_DRMS: [BaseMoraleDrm; 2] = [
    BaseMoraleDrm {
        label: "base morale ≤ 6",
        morale: Band::new(i8::MIN, 6),
        drm: -2,
    },
    BaseMoraleDrm {
        label: "base morale = 8",
        morale: Band::new(8, 8),
        drm: 1,
    },
];

/// The result of a modified roll.
pub fn unable_to_retreat_result(modified_roll: i32) -> RetreatResult {
    let r = modified_roll.clamp(i8::MIN as i32, i8::MAX as i32);
    UNABLE_TO_RETREAT
        .iter()
        .find(|(_, b)| b.contains(r))
        .map(|&(res, _)| res)
        .expect("the table covers every roll")
}

/// What `pikeshot list` says of Unable to Retreat.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "unable-to-retreat",
    rule: "11.4.5",
    summary: "Unable to Retreat Table: a Morale Broken unit that cannot retreat rolls one d10 + DRMs; ≤4 eliminated, 5+ stands (Morale Shaken)",
    keys: &[
        KeyDoc::unit(
            "unit",
            "required: the unit that cannot retreat (its base morale sets the DRM: ≤6 -2, 8 +1)",
        ),
        EXTRA_DRM_KEY,
    ],
    outcomes: &OUTCOMES,
    measures: &[],
};

/// An Unable to Retreat roll built once.
#[derive(Clone, Debug)]
pub struct UnableToRetreat {
    roll: TableRoll,
}

impl UnableToRetreat {
    /// Builds the roll for `unit` with a further DRM.
    pub fn new(
        edition: Edition,
        unit: &Unit,
        extra_drm: i32,
    ) -> Result<UnableToRetreat, InputError> {
        UnableToRetreat::build(edition, unit, extra_drm).map_err(|(k, e)| e.key(k))
    }

    fn build(edition: Edition, unit: &Unit, extra_drm: i32) -> Result<UnableToRetreat, Fail> {
        // Same table and DRMs on both cards.
        let _ = edition;
        let mut m = Modifiers::default();
        for d in &BASE_MORALE_DRMS {
            if d.morale.contains(chart_morale(unit.morale) as i32) {
                m.push(
                    d.label,
                    "11.4.5",
                    d.drm as i32,
                    Source::unit(format!("{} has base morale {}", unit.name, unit.morale)),
                );
            }
        }
        let roll = TableRoll::new(m, extra_drm, &OUTCOMES, |n| {
            unable_to_retreat_result(n) as usize
        })?;
        Ok(UnableToRetreat { roll })
    }

    /// Builds the roll from a scenario step (keys in [`INFO`]).
    pub fn from_step(
        f: &mut Fields,
        units: &[Unit],
        edition: Edition,
    ) -> Result<UnableToRetreat, InputError> {
        f.has("procedure");
        let unit = find_unit(f, "unit", units)?.clone();
        let extra = read_extra(f)? as i32;
        finish_step(f, &INFO)?;
        UnableToRetreat::build(edition, &unit, extra).map_err(|(k, e)| f.locate(k, e))
    }
}

table_roll_procedure!(UnableToRetreat, RetreatResult);

/// The Unable to Retreat Table, laid out like the card.
pub fn charts(edition: Edition) -> Vec<Chart> {
    let _ = edition; // the same on both cards
    let mut row = vec![String::new()];
    row.extend(UNABLE_TO_RETREAT.iter().map(|(_, b)| b.to_string()));
    let mut notes: Vec<String> = BASE_MORALE_DRMS
        .iter()
        .map(|d| format!("{:+} {}", d.drm, d.label.replace("base", "Base")))
        .collect();
    notes.push("A unit that Stands returns to Morale Shaken".into());
    vec![Chart {
        id: "unable-to-retreat",
        title: "Unable to Retreat Table (Morale Broken)".into(),
        rule: "11.4.5",
        headers: headers(&["Die Roll", "Eliminated", "Stands"]),
        rows: vec![row],
        notes,
    }]
}
