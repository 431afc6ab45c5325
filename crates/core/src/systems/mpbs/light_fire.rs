//! Light Infantry and Cavalry Fire Table, procedure `light-fire`.
//!
//! Commanded muskets and dragoons fire on the "Commanded Muskets and
//! Dragoons" column, cuirassiers and arquebusiers on "Cavalry Pistol Fire".
//! One d10 plus the DRMs; ≤6 reads the `≤ 6` row and 9 or more the `9+` row.
//! The table and its strength modifiers are the same on both cards; the firer
//! DRM lines differ (docs/rules/mpbs.md, Where the cards differ).

use super::drm_roll::{DrmRoll, drm_roll_procedure};
use super::input::{EXTRA_DRM_KEY, finish_built, key_err, read_extra, relocate};
use super::musketry::{
    FIRE_MODE_KEY, FireLineDrms, FireMode, FireResult, FireWho, HALMSTAD_FIRE_KEY, TEC_DRM_KEY,
    read_fire_mode,
};
use super::{Edition, Formation, Unit, UnitKind};
use crate::error::InputError;
use crate::explain::Term;
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::scenario::Fields;
use crate::systems::Key;
use crate::systems::{Chart, KeyDoc, ProcedureInfo};

/// The two columns of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LightFireColumn {
    /// Commanded Muskets and Dragoons.
    MusketsAndDragoons = 0,
    /// Cavalry Pistol Fire.
    CavalryPistol = 1,
}

impl LightFireColumn {
    /// The column a unit kind fires on; `None` for heavy infantry and artillery.
    pub fn of(kind: UnitKind) -> Option<LightFireColumn> {
        match kind {
            UnitKind::CommandedMuskets | UnitKind::Dragoons => {
                Some(LightFireColumn::MusketsAndDragoons)
            }
            UnitKind::Cuirassier | UnitKind::Arquebusier => Some(LightFireColumn::CavalryPistol),
            _ => None,
        }
    }
    /// The column's title on the card.
    pub fn title(self) -> &'static str {
        ["Commanded Muskets and Dragoons", "Cavalry Pistol Fire"][self as usize]
    }
}

/// Light Infantry and Cavalry Fire Table, both cards: hits for the modified
/// rolls ≤6, 7, 8, 9+; columns Commanded Muskets and Dragoons, Cavalry
/// Pistol Fire.
pub const LIGHT_FIRE: [[u8; 2]; 4] = [
    [0, 0], // ≤6
    [0, 1], // 7
    [1, 1], // 8
    [1, 1], // 9+
];

/// Row labels of the table.
pub const ROWS: [&str; 4] = ["≤ 6", "7", "8", "9+"];

/// Hits for a modified roll on a column (≤6 reads the first row, ≥9 the last).
pub fn result(column: LightFireColumn, modified_roll: i32) -> u8 {
    LIGHT_FIRE[(modified_roll.clamp(6, 9) - 6) as usize][column as usize]
}

/// The DRMs of the table as one edition's card prints them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LightFireDrms {
    /// The lines the musketry table prints too.
    pub lines: FireLineDrms,
    /// Firer is an arquebusier.
    pub arquebusier: i8,
    /// Commanded muskets and dragoons: +1 for each SP above this.
    pub muskets_sp_base: u8,
    /// Cavalry: +1 for each SP above this, −1 for each SP below it.
    pub cavalry_sp_base: u8,
}

/// Light infantry and cavalry fire DRMs, indexed by edition (Sweden Fights
/// On, series).
pub const LIGHT_FIRE_DRMS: [LightFireDrms; 2] = [
    LightFireDrms {
        lines: FireLineDrms {
            formation_shaken: -1,
            formation_broken: -2,
            open_order: -1,
            shaken_or_open_order_one_line: false,
            advancing_fire: None,
            retreating_fire: -3,
            halmstad: None,
            target_hedgehog: 1,
            target_column: 1,
        },
        arquebusier: 1,
        muskets_sp_base: 1,
        cavalry_sp_base: 3,
    },
    LightFireDrms {
        lines: FireLineDrms {
            formation_shaken: -1,
            formation_broken: -2,
            open_order: -1,
            shaken_or_open_order_one_line: true,
            advancing_fire: Some(-3),
            retreating_fire: -3,
            halmstad: Some(-1),
            target_hedgehog: 1,
            target_column: 1,
        },
        arquebusier: 1,
        muskets_sp_base: 1,
        cavalry_sp_base: 3,
    },
];

/// The column `firer` fires on; an error at key `firer` when it has none.
fn column_of(firer: &Unit) -> Result<LightFireColumn, InputError> {
    LightFireColumn::of(firer.kind).ok_or_else(|| {
        key_err(
            "firer",
            format!(
                "{} is {}: the Light Infantry and Cavalry Fire Table is for commanded \
                 muskets, dragoons, cuirassiers and arquebusiers (use `musketry` for \
                 heavy infantry, `artillery` for artillery)",
                firer.name, firer.kind
            ),
        )
        .accepted("commanded-muskets, dragoons, cuirassier, arquebusier")
    })
}

/// Everything the light fire DRMs depend on.
#[derive(Clone, Debug, PartialEq)]
pub struct LightFireInput {
    /// Which column.
    pub column: LightFireColumn,
    /// The firer's current strength points (original strength less casualty
    /// points, docs/rules/mpbs.md, Casualty points).
    pub strength_points: u8,
    /// The firer is an arquebusier (+1).
    pub arquebusier: bool,
    /// The firer's formation.
    pub firer_formation: Formation,
    /// Normal, advancing or retreating fire.
    pub fire_mode: FireMode,
    /// NGBG: all firing at Halmstad (series card).
    pub halmstad: bool,
    /// Any further DRM.
    pub extra_drm: i8,
    /// Who fires at whom: the target's formation and its TEC fire DRM
    /// (musket value), with the TEC lines for `pikeshot explain`.
    pub who: FireWho,
}

impl LightFireInput {
    /// The input for `firer` shooting at `target`, from the units' states,
    /// with no optional DRM. Errors: a firer without a column on this table,
    /// or a target whose TEC fire column is NA.
    pub fn from_units(
        edition: Edition,
        firer: &Unit,
        target: &Unit,
    ) -> Result<LightFireInput, InputError> {
        let column = column_of(firer)?;
        Ok(LightFireInput {
            who: FireWho::from_tec(edition, firer, target, false)?,
            column,
            strength_points: firer.current_strength(),
            arquebusier: firer.kind == UnitKind::Arquebusier,
            firer_formation: firer.formation,
            fire_mode: FireMode::Normal,
            halmstad: false,
            extra_drm: 0,
        })
    }
}

/// `strength_points`, declared once: its doc and its reader.
pub(crate) const STRENGTH_POINTS: Key<i64> = Key::int(
    "strength_points",
    1,
    30,
    "the firer's SP for the SP modifiers (default strength - casualty points)",
);

/// What `pikeshot list` shows of `light-fire`.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "light-fire",
    rule: "10 (the card gives the table no number)",
    summary: "Commanded muskets, dragoons and cavalry pistols: d10 + DRM, one hit or a miss",
    keys: &[
        KeyDoc::unit(
            "firer",
            "commanded-muskets or dragoons (Commanded Muskets and Dragoons column), cuirassier or arquebusier (Cavalry Pistol Fire column)",
        ),
        KeyDoc::unit(
            "target",
            "unit fired at (its formation and TEC hex/hexside give DRMs)",
        ),
        STRENGTH_POINTS.doc(),
        FIRE_MODE_KEY,
        HALMSTAD_FIRE_KEY,
        TEC_DRM_KEY,
        EXTRA_DRM_KEY,
    ],
    outcomes: &["miss", "1 hit"],
    measures: &["hits"],
};

/// Light infantry or cavalry fire: one d10 plus the summed DRM.
#[derive(Clone, Debug)]
pub struct LightFire {
    column: LightFireColumn,
    roll: DrmRoll,
}

impl LightFire {
    /// Builds the procedure from its input. Errors (keyed by the bare step
    /// key): a modifier the edition's card lacks, no strength points.
    pub fn new(edition: Edition, input: &LightFireInput) -> Result<LightFire, InputError> {
        let d = &LIGHT_FIRE_DRMS[edition as usize];
        let mut mods: Vec<Term> = Vec::new();
        let who = &input.who;
        if input.strength_points == 0 {
            return Err(key_err(
                "strength_points",
                "a unit with no strength points cannot fire",
            ));
        }
        let sp = input.strength_points as i32;
        match input.column {
            LightFireColumn::MusketsAndDragoons => {
                let v = (sp - d.muskets_sp_base as i32).max(0);
                if v != 0 {
                    mods.push(Term::new(
                        format!("{sp} SP (+1 per SP above {})", d.muskets_sp_base),
                        "10.0",
                        v,
                        who.firer_is(&format!(
                            "{sp} strength points (current SP, or strength_points)"
                        )),
                    ));
                }
            }
            LightFireColumn::CavalryPistol => {
                let v = sp - d.cavalry_sp_base as i32;
                if v != 0 {
                    mods.push(Term::new(
                        format!(
                            "{sp} SP (+1 per SP above {b}, -1 per SP below {b})",
                            b = d.cavalry_sp_base
                        ),
                        "10.0",
                        v,
                        who.firer_is(&format!(
                            "{sp} strength points (current SP, or strength_points)"
                        )),
                    ));
                }
            }
        }
        mods.extend(
            d.lines
                .firer_formation_term(input.firer_formation, who.firer()),
        );
        mods.extend(d.lines.fire_mode_term(
            input.fire_mode,
            edition,
            "Light Infantry and Cavalry Fire Table",
        )?);
        if input.arquebusier {
            mods.push(Term::new(
                "Arquebusier",
                "10.0",
                d.arquebusier as i32,
                who.firer_is("an arquebusier unit"),
            ));
        }
        mods.extend(d.lines.halmstad_term(input.halmstad, edition)?);
        d.lines.target_terms(&mut mods, who, input.extra_drm);
        let space = OutcomeSpace::from_labels(INFO.outcomes, vec![Measure::new("hits", 0, 1)]);
        let roll = DrmRoll::new(mods, space, |space, n| {
            let hits = result(input.column, n);
            space.leaf(hits as usize, &[hits as i32])
        });
        Ok(LightFire {
            column: input.column,
            roll,
        })
    }

    /// Reads a scenario step: `firer`, `target` and the optional DRM keys
    /// (see [`INFO`]).
    pub fn from_step(
        f: &mut Fields,
        units: &[Unit],
        edition: Edition,
    ) -> Result<LightFire, InputError> {
        let (firer, _, column, who) = FireWho::read_step(f, units, edition, false, |f, firer| {
            column_of(firer).map_err(|e| relocate(f, e))
        })?;
        let mut input = LightFireInput {
            who,
            column,
            strength_points: firer.current_strength(),
            arquebusier: firer.kind == UnitKind::Arquebusier,
            firer_formation: firer.formation,
            fire_mode: read_fire_mode(f)?,
            halmstad: super::musketry::HALMSTAD_FIRE.get(f)?,
            extra_drm: read_extra(f)?,
        };
        if let Some(sp) = STRENGTH_POINTS.read(f)? {
            input.strength_points = sp as u8;
        }
        finish_built(f, LightFire::new(edition, &input))
    }

    /// The column fired on.
    pub fn column(&self) -> LightFireColumn {
        self.column
    }
    /// Hits for a natural die face 0..=9.
    pub fn hits_for(&self, face: u8) -> u8 {
        result(self.column, face as i32 + self.drm())
    }
    /// The table result a leaf of this procedure stands for: its outcome is
    /// the hits scored (no formation hit or morale check on this table).
    pub fn result_of(&self, leaf: Leaf) -> FireResult {
        FireResult::new(
            crate::procedure::Procedure::space(self).outcome_of(leaf) as u8,
            false,
            false,
        )
    }
    /// The most hits one roll can score.
    pub fn most_hits(&self) -> i32 {
        crate::procedure::Procedure::space(self).measures()[0].max
    }
}

drm_roll_procedure!(LightFire);

/// The DRM lines of an edition, as notes.
fn drm_notes(edition: Edition) -> Vec<String> {
    let d = &LIGHT_FIRE_DRMS[edition as usize];
    let lines = &d.lines;
    let mut n = lines.firer_formation_notes();
    match lines.advancing_fire {
        Some(a) if a == lines.retreating_fire => {
            n.push(format!("{a:+} Advancing or Retreating Fire [fire_mode]"))
        }
        Some(a) => n.push(format!(
            "{a:+} Advancing Fire, {:+} Retreating Fire [fire_mode]",
            lines.retreating_fire
        )),
        None => n.push(format!(
            "{:+} Retreating Fire [fire_mode]",
            lines.retreating_fire
        )),
    }
    if !lines.shaken_or_open_order_one_line {
        n.push(format!("{:+} Open Order marker", lines.open_order));
    }
    n.push(format!("{:+} Arquebusier", d.arquebusier));
    n.extend(lines.halmstad_note());
    lines.target_notes(&mut n);
    n.push(format!(
        "Commanded muskets & dragoons: +1 for each SP > {}",
        d.muskets_sp_base
    ));
    n.push(format!(
        "Cavalry: +1 for each SP > {b}, -1 for each SP < {b}",
        b = d.cavalry_sp_base
    ));
    n
}

/// The Light Infantry and Cavalry Fire Table of an edition.
pub fn charts(edition: Edition) -> Vec<Chart> {
    let mut notes = vec!["Numbers = hits".to_string()];
    notes.extend(drm_notes(edition));
    vec![Chart {
        id: "light-fire",
        title: "Light Infantry and Cavalry Fire Table".into(),
        rule: "10, unnumbered on the card",
        headers: crate::systems::chart::headers(&[
            "Die Roll",
            LightFireColumn::MusketsAndDragoons.title(),
            LightFireColumn::CavalryPistol.title(),
        ]),
        rows: LIGHT_FIRE
            .iter()
            .zip(ROWS)
            .map(|(r, label)| {
                std::iter::once(label.to_string())
                    .chain(r.iter().map(|&h| {
                        if h == 0 {
                            "Miss".to_string()
                        } else {
                            h.to_string()
                        }
                    }))
                    .collect()
            })
            .collect(),
        notes,
    }]
}
