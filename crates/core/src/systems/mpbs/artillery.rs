//! Artillery Fire Table (10.8) with the Artillery Range Chart (10.8.2),
//! procedure `artillery`.
//!
//! One d10 plus the DRMs (target formation, firer Morale Shaken, the range
//! modifier of the gun's range class, the TEC artillery value); ≤3 reads the
//! `≤ 3` row and 10 or more the `10+` row. Artillery inflicts Formation Hits
//! and Morale Checks only. The Sweden Fights On card has five gun columns;
//! the series card adds Double 3lb, and its "Double" headers are printed one
//! column left of their data (docs/rules/mpbs.md, Printing of the cards): the column order is 3lb,
//! Double 3lb, 4-8lb, Double 4-8lb, 12-24lb, Double 12-24lb.

use super::drm_roll::{DrmRoll, drm_roll_procedure};
use super::input::{EXTRA_DRM_KEY, finish_built, key_err, read_extra, relocate};
use super::musketry::{FireResult, FireWho, TEC_DRM_KEY};
use super::{Band, Edition, Formation, Gun, MoraleState, RangeClass, Unit, UnitKind};
use crate::error::InputError;
use crate::explain::{Source, Term};
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::scenario::Fields;
use crate::systems::chart::labelled;
use crate::systems::{Chart, KeyDoc, ProcedureInfo};

const M: FireResult = FireResult::MISS;
const F: FireResult = FireResult::new(0, true, false);
const FM: FireResult = FireResult::new(0, true, true);
/// The results of the Artillery Fire Table, in outcome order.
const RESULTS: [FireResult; 3] = [M, F, FM];

/// One edition's Artillery Fire Table: the gun of each column, its header,
/// and rows for the modified rolls ≤3, 4, …, 9, 10+.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArtilleryTable {
    /// The gun of each column, in card order.
    pub guns: &'static [Gun],
    /// Column headers as the card means them.
    pub headers: &'static [&'static str],
    /// Eight rows (≤3 … 10+), one cell per column.
    pub rows: &'static [&'static [FireResult]],
}

/// Artillery Fire Table (10.8), Sweden Fights On card.
pub const SFO_ARTILLERY: ArtilleryTable = ArtilleryTable {
    guns: &[
        Gun::Light3,
        Gun::Medium,
        Gun::DoubleMedium,
        Gun::Heavy,
        Gun::DoubleHeavy,
    ],
    headers: &["3lb", "4-8lb", "Double 4-8lb", "12 lb", "Double 12 lb"],
    rows: &[
        &[M, M, M, M, M],      // ≤3
        &[M, M, M, M, F],      // 4
        &[M, M, F, F, F],      // 5
        &[M, F, F, F, FM],     // 6
        &[F, F, FM, F, FM],    // 7
        &[F, F, FM, FM, FM],   // 8
        &[F, FM, FM, FM, FM],  // 9
        &[FM, FM, FM, FM, FM], // 10+
    ],
};

/// Artillery Fire Table (10.8), series card, columns in the order the data
/// prove (docs/rules/mpbs.md, Printing of the cards).
pub const SERIES_ARTILLERY: ArtilleryTable = ArtilleryTable {
    guns: &[
        Gun::Light3,
        Gun::Double3,
        Gun::Medium,
        Gun::DoubleMedium,
        Gun::Heavy,
        Gun::DoubleHeavy,
    ],
    headers: &[
        "3lb",
        "Double 3lb",
        "4-8lb",
        "Double 4-8lb",
        "12-24 lb",
        "Double 12-24 lb",
    ],
    rows: &[
        &[M, M, M, M, M, M],       // ≤3
        &[M, M, M, M, M, F],       // 4
        &[M, M, M, F, F, F],       // 5
        &[M, F, F, F, F, FM],      // 6
        &[F, F, F, FM, F, FM],     // 7
        &[F, FM, F, FM, FM, FM],   // 8
        &[F, FM, FM, FM, FM, FM],  // 9
        &[FM, FM, FM, FM, FM, FM], // 10+
    ],
};

/// Row labels of the Artillery Fire Table.
pub const ROWS: [&str; 8] = ["≤ 3", "4", "5", "6", "7", "8", "9", "10+"];

/// The Artillery Fire Table of an edition.
pub fn table(edition: Edition) -> &'static ArtilleryTable {
    [&SFO_ARTILLERY, &SERIES_ARTILLERY][edition as usize]
}

/// The result of a modified roll for `gun`, or `None` when the edition's
/// card has no column for that gun.
pub fn result(edition: Edition, gun: Gun, modified_roll: i32) -> Option<FireResult> {
    let t = table(edition);
    let c = t.guns.iter().position(|&g| g == gun)?;
    Some(t.rows[(modified_roll.clamp(3, 10) - 3) as usize][c])
}

/// Artillery Range Chart (10.8.2), both cards: range bands in hexes and the
/// modifier for 3lb Falcons, 4-8lb Sakers and 12lb (series: 12-24lb)
/// Culverins; `None` = NA. The Sweden Fights On card lost the label of the
/// first row; it is range 1 (docs/rules/mpbs.md, Printing of the cards).
pub const RANGE_CHART: [(Band, [Option<i8>; 3]); 11] = [
    (Band::new(1, 1), [Some(1), Some(1), Some(1)]),
    (Band::new(2, 3), [Some(0), Some(0), Some(0)]),
    (Band::new(4, 4), [Some(-1), Some(0), Some(0)]),
    (Band::new(5, 5), [Some(-1), Some(-1), Some(0)]),
    (Band::new(6, 6), [Some(-2), Some(-1), Some(0)]),
    (Band::new(7, 7), [Some(-2), Some(-1), Some(-1)]),
    (Band::new(8, 9), [Some(-3), Some(-2), Some(-1)]),
    (Band::new(10, 10), [None, Some(-2), Some(-2)]),
    (Band::new(11, 13), [None, Some(-3), Some(-2)]),
    (Band::new(14, 14), [None, Some(-3), Some(-3)]),
    (Band::new(15, 17), [None, None, Some(-3)]),
];

/// Range chart column headers, per edition.
pub const RANGE_HEADERS: [[&str; 3]; 2] = [
    ["3lb Falcons", "4-8lb Sakers", "12lb Culverins"],
    ["3lb Falcons", "4-8lb Sakers", "12-24lb Culverins"],
];

/// A cell of the range chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RangeCell {
    /// The range modifier.
    Drm(i8),
    /// NA: the gun cannot fire at that range.
    NotAllowed,
    /// The range is on no row of the chart (0, or beyond 17).
    OffChart,
}

/// The range chart cell for a range class at `range` hexes.
pub fn range_cell(class: RangeClass, range: u32) -> RangeCell {
    match RANGE_CHART
        .iter()
        .find(|(b, _)| b.contains(range.min(i8::MAX as u32) as i32))
    {
        None => RangeCell::OffChart,
        Some((_, cells)) => match cells[class as usize] {
            Some(v) => RangeCell::Drm(v),
            None => RangeCell::NotAllowed,
        },
    }
}

/// The ranges (in hexes) a range class may fire at: `1..=max`.
pub fn accepted_ranges(class: RangeClass) -> std::ops::RangeInclusive<u32> {
    let max = RANGE_CHART
        .iter()
        .filter(|(_, cells)| cells[class as usize].is_some())
        .map(|(b, _)| b.hi as u32)
        .max()
        .unwrap_or(0);
    1..=max
}

/// The artillery DRMs (10.8), the same on both cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArtilleryDrms {
    /// Target in Hedgehog or Column.
    pub target_hedgehog_or_column: i8,
    /// The firing artillery unit is Morale Shaken.
    pub firer_morale_shaken: i8,
}

/// Artillery Fire Table DRMs (10.8), both cards.
pub const ARTILLERY_DRMS: ArtilleryDrms = ArtilleryDrms {
    target_hedgehog_or_column: 2,
    firer_morale_shaken: -1,
};

/// Everything the artillery DRMs depend on.
#[derive(Clone, Debug, PartialEq)]
pub struct ArtilleryInput {
    /// The firing gun.
    pub gun: Gun,
    /// Range in hexes.
    pub range: u32,
    /// The firing unit's morale level.
    pub firer_morale: MoraleState,
    /// Any further DRM.
    pub extra_drm: i8,
    /// Who fires at whom: the target's formation and its TEC fire DRM
    /// (artillery value), with the TEC lines for `pikeshot explain`.
    pub who: FireWho,
}

impl ArtilleryInput {
    /// The input for `firer` shooting at `target` at `range` hexes, from the
    /// units' states. Errors: a firer without a gun, a target whose TEC fire
    /// column is NA.
    pub fn from_units(
        edition: Edition,
        firer: &Unit,
        target: &Unit,
        range: u32,
    ) -> Result<ArtilleryInput, InputError> {
        let gun = gun_of(firer)?;
        Ok(ArtilleryInput {
            who: FireWho::from_tec(edition, firer, target, true)?,
            gun,
            range,
            firer_morale: firer.morale_state,
            extra_drm: 0,
        })
    }
}

fn gun_of(firer: &Unit) -> Result<Gun, InputError> {
    match (firer.kind, firer.gun) {
        (UnitKind::Artillery, Some(g)) => Ok(g),
        _ => Err(key_err(
            "firer",
            format!(
                "{} is {} without a gun: the Artillery Fire Table is for artillery units \
                 (use `musketry` or `light-fire`)",
                firer.name, firer.kind
            ),
        )),
    }
}

/// What `pikeshot list` shows of `artillery`.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "artillery",
    rule: "10.8, 10.8.2",
    summary: "Artillery Fire: d10 + DRM (range, target formation, Morale Shaken, TEC) on the gun's column: FH and MC",
    keys: &[
        KeyDoc::unit(
            "firer",
            "artillery unit (its `gun` picks the column and range class)",
        ),
        KeyDoc::unit(
            "target",
            "unit fired at (Hedgehog or Column +2; TEC artillery value)",
        ),
        KeyDoc::int(
            "range",
            1,
            17,
            "range in hexes; the chart's longest for the firer's gun: 9 (3lb), 14 (4-8lb), 17 (12-24lb)",
        ),
        TEC_DRM_KEY,
        EXTRA_DRM_KEY,
    ],
    outcomes: &["miss", "FH", "FH + MC"],
    measures: &["formation-hits", "morale-checks"],
};

/// Artillery fire: one d10 plus the summed DRM on the gun's column.
#[derive(Clone, Debug)]
pub struct Artillery {
    edition: Edition,
    gun: Gun,
    roll: DrmRoll,
}

impl Artillery {
    /// Builds the procedure from its input. Errors (keyed by the bare step
    /// key): a gun the edition's card lacks, an NA range or one off the chart.
    pub fn new(edition: Edition, input: &ArtilleryInput) -> Result<Artillery, InputError> {
        let d = &ARTILLERY_DRMS;
        if result(edition, input.gun, 0).is_none() {
            return Err(key_err(
                "firer",
                format!(
                    "the {} has no {} column on the Artillery Fire Table",
                    edition.card(),
                    input.gun
                ),
            )
            .one_of(
                input.gun.name(),
                &table(edition)
                    .guns
                    .iter()
                    .map(|g| g.name())
                    .collect::<Vec<_>>(),
            ));
        }
        let class = input.gun.range_class();
        let accepted = accepted_ranges(class);
        let accepted_text = format!(
            "a range from {} to {} hexes for a {} gun",
            accepted.start(),
            accepted.end(),
            input.gun
        );
        let range_drm = match range_cell(class, input.range) {
            RangeCell::Drm(v) => v,
            RangeCell::NotAllowed => {
                return Err(key_err(
                    "range",
                    format!(
                        "range {} is NA for a {} gun on the Artillery Range Chart (10.8.2)",
                        input.range, input.gun
                    ),
                )
                .accepted(accepted_text));
            }
            RangeCell::OffChart => {
                return Err(key_err(
                    "range",
                    format!(
                        "range {} is not on the Artillery Range Chart (10.8.2)",
                        input.range
                    ),
                )
                .accepted(accepted_text));
            }
        };
        let mut mods: Vec<Term> = Vec::new();
        let target_formation = input.who.target_formation;
        if matches!(target_formation, Formation::Hedgehog | Formation::Column) {
            mods.push(Term::new(
                format!("target in {target_formation}"),
                "10.8",
                d.target_hedgehog_or_column as i32,
                Source::unit(format!("{} is in {target_formation}", input.who.target())),
            ));
        }
        if input.firer_morale == MoraleState::Shaken {
            mods.push(Term::new(
                "firing artillery Morale Shaken",
                "10.8",
                d.firer_morale_shaken as i32,
                Source::unit(format!("{} is Morale Shaken", input.who.firer())),
            ));
        }
        if range_drm != 0 {
            mods.push(Term::new(
                format!("range {}", input.range),
                "10.8.2",
                range_drm as i32,
                Source::card(format!(
                    "Artillery Range Chart, {} hexes for a {} gun (step key range)",
                    input.range, input.gun
                )),
            ));
        }
        super::musketry::tec_and_extra_terms(&mut mods, &input.who, input.extra_drm);
        let results = RESULTS;
        let space = OutcomeSpace::new(
            results.iter().map(|r| r.label()).collect(),
            vec![
                Measure::new("formation-hits", 0, 1),
                Measure::new("morale-checks", 0, 1),
            ],
        );
        let roll = DrmRoll::new(mods, space, |space, n| {
            let r = result(edition, input.gun, n).expect("gun checked above");
            let o = results
                .iter()
                .position(|x| *x == r)
                .expect("an artillery result");
            space.leaf(o, &[r.formation_hit as i32, r.morale_check as i32])
        });
        Ok(Artillery {
            edition,
            gun: input.gun,
            roll,
        })
    }

    /// Reads a scenario step: `firer`, `target`, `range` and the optional
    /// DRM keys (see [`INFO`]).
    pub fn from_step(
        f: &mut Fields,
        units: &[Unit],
        edition: Edition,
    ) -> Result<Artillery, InputError> {
        let (firer, _, (gun, range), who) =
            FireWho::read_step(f, units, edition, true, |f, firer| {
                let gun = gun_of(firer).map_err(|e| relocate(f, e))?;
                Ok((gun, f.req_int("range", 0, 1000)? as u32))
            })?;
        let input = ArtilleryInput {
            who,
            gun,
            range,
            firer_morale: firer.morale_state,
            extra_drm: read_extra(f)?,
        };
        finish_built(f, Artillery::new(edition, &input))
    }

    /// The edition.
    pub fn edition(&self) -> Edition {
        self.edition
    }
    /// The firing gun.
    pub fn gun(&self) -> Gun {
        self.gun
    }
    /// The result for a natural die face 0..=9.
    pub fn result_for(&self, face: u8) -> FireResult {
        result(self.edition, self.gun, face as i32 + self.drm()).expect("gun checked in new")
    }
    /// The table result a leaf of this procedure stands for (its outcomes
    /// are the table's three results: miss, FH, FH + MC).
    pub fn result_of(&self, leaf: Leaf) -> FireResult {
        RESULTS[crate::procedure::Procedure::space(self).outcome_of(leaf)]
    }
}

drm_roll_procedure!(Artillery);

/// The Artillery Fire Table and the Artillery Range Chart of an edition.
pub fn charts(edition: Edition) -> Vec<Chart> {
    let t = table(edition);
    let d = &ARTILLERY_DRMS;
    let fire = Chart {
        id: "artillery",
        title: "Artillery Fire Table".into(),
        rule: "10.8",
        headers: labelled("Die Roll", t.headers.iter().map(|h| h.to_string())),
        rows: t
            .rows
            .iter()
            .zip(ROWS)
            .map(|(r, label)| labelled(label, r.iter().map(|c| c.cell())))
            .collect(),
        notes: vec![
            "FH = Formation Hit, MC = Morale Check".into(),
            format!(
                "{:+} Target is in Hedgehog or Column",
                d.target_hedgehog_or_column
            ),
            format!(
                "{:+} Firing Artillery unit is Morale Shaken",
                d.firer_morale_shaken
            ),
            "+/- Range Modifier (Artillery Range Chart, 10.8.2) [range]".into(),
            "plus the TEC fire column (artillery value) for the target's hex and hexside".into(),
        ],
    };
    let na = |c: Option<i8>| match c {
        Some(0) => "0".to_string(),
        Some(v) => format!("{v:+}"),
        None => "NA".to_string(),
    };
    let range = Chart {
        id: "artillery-range",
        title: "Artillery Range Chart".into(),
        rule: "10.8.2",
        headers: labelled(
            "Range in Hexes",
            RANGE_HEADERS[edition as usize]
                .iter()
                .map(|h| h.to_string()),
        ),
        rows: RANGE_CHART
            .iter()
            .map(|(b, cells)| labelled(b, cells.iter().map(|&c| na(c))))
            .collect(),
        notes: vec![
            "Numbers = range modifier; NA = not allowed; beyond 17 hexes: off the chart".into(),
        ],
    };
    vec![fire, range]
}
