//! Heavy Infantry Musketry Tables (10.0), procedure `musketry`.
//!
//! Roll a d10 and add the DRMs; a modified roll of 0 or less reads the `≤ 0`
//! row and 9 or more the `9+` row (the card prints no clamp on the DRM). Six
//! columns: Front, Flank and Salvo for heavy infantry, and the same three for
//! heavy infantry with regimental artillery. The Salvo columns differ between
//! the cards (docs/rules/mpbs.md, Where the cards differ); everything else here is shared, with the DRM
//! lines of each edition as data.
//!
//! This file also holds what the other fire tables share: [`FireResult`],
//! [`FireMode`] and the TEC fire column lookup [`tec_fire_drm`]; the DRM
//! lines musketry and light fire both print are [`FireLineDrms`] (its terms
//! in `lines.rs`, its chart notes in `charts.rs`).

use super::drm_roll::{DrmRoll, drm_roll_procedure};
use super::input::{
    EXTRA_DRM_KEY, finish_built, firer_and_target, key_err, ngbg_drm, read_extra, relocate,
};
use super::terrain;
use super::{Edition, Formation, Unit, named_enum};
use crate::error::InputError;
use crate::explain::{Source, Term};
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::scenario::Fields;
use crate::systems::named;
use crate::systems::{Chart, Key, KeyDoc, Kind, ProcedureInfo};
use std::borrow::Cow;

mod charts;
mod lines;
mod tables;

pub use charts::charts;
pub use tables::*;

/// Who fires at whom, and what every fire table reads of the target: its
/// formation and its TEC fire lines (whose sum is the TEC fire DRM).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FireWho {
    /// The firer's name (empty: "the firer").
    pub firer: String,
    /// The target's name (empty: "the target").
    pub target: String,
    /// The target's formation (Hedgehog and Column have DRM lines).
    pub target_formation: Formation,
    /// The TEC fire lines: the target's hex and hexside, or the step's
    /// `tec_drm`. Their sum is the TEC fire DRM.
    pub tec: Vec<Term>,
}

impl FireWho {
    /// `firer` at `target`, with the TEC fire lines `tec`.
    pub fn of(firer: &Unit, target: &Unit, tec: Vec<Term>) -> FireWho {
        FireWho {
            firer: firer.name.clone(),
            target: target.name.clone(),
            target_formation: target.formation,
            tec,
        }
    }
    /// `firer` at `target`, with the TEC fire lines of the target's hex and
    /// hexside (its artillery value with `artillery`). Errors (keyed `target`): the target's TEC fire column is NA.
    pub fn from_tec(
        edition: Edition,
        firer: &Unit,
        target: &Unit,
        artillery: bool,
    ) -> Result<FireWho, InputError> {
        let terms = tec_fire_terms(edition, target, artillery).map_err(|why| {
            key_err(
                "target",
                format!(
                    "{} cannot be fired at: its fire column on the TEC is NA ({why})",
                    target.name
                ),
            )
        })?;
        Ok(FireWho::of(firer, target, terms))
    }
    /// Reads a fire step's `firer` and `target`, then what the table needs
    /// of the firer (`firer_keys`, which checks it and reads its own keys;
    /// its errors are located at the step), then the target's TEC fire DRM
    /// (the step's `tec_drm`, else the TEC, its artillery value with
    /// `artillery`). Returns the two units, what `firer_keys` read, and who
    /// fires at whom.
    pub(crate) fn read_step<'u, T>(
        f: &mut Fields,
        units: &'u [Unit],
        edition: Edition,
        artillery: bool,
        firer_keys: impl FnOnce(&mut Fields, &Unit) -> Result<T, InputError>,
    ) -> Result<(&'u Unit, &'u Unit, T, FireWho), InputError> {
        let (firer, target) = firer_and_target(f, units)?;
        let read = firer_keys(f, firer)?;
        let tec = read_tec(f, edition, target, "target", artillery)?;
        Ok((firer, target, read, FireWho::of(firer, target, tec)))
    }
    /// The source "FIRER is `what`" of a modifier the firer's state sets.
    pub fn firer_is(&self, what: &str) -> Source {
        Source::unit(format!("{} is {what}", self.firer()))
    }
    /// The firer's name, or "the firer".
    pub fn firer(&self) -> &str {
        if self.firer.is_empty() {
            "the firer"
        } else {
            &self.firer
        }
    }
    /// The target's name, or "the target".
    pub fn target(&self) -> &str {
        if self.target.is_empty() {
            "the target"
        } else {
            &self.target
        }
    }
}

/// The TEC fire lines and the step's `extra_drm`, the last lines of every
/// fire table.
pub(crate) fn tec_and_extra_terms(mods: &mut Vec<Term>, who: &FireWho, extra_drm: i8) {
    mods.extend(who.tec.iter().cloned());
    mods.extend(crate::explain::key_term(
        "extra_drm",
        "extra_drm",
        extra_drm as i32,
    ));
}

/// Refuses a firer that is not heavy infantry (key `firer`).
fn check_firer(firer: &Unit) -> Result<(), InputError> {
    if firer.kind.is_heavy_infantry() {
        return Ok(());
    }
    Err(key_err(
        "firer",
        format!(
            "{} is {}: the musketry table is for heavy infantry \
             (use `light-fire` for commanded muskets, dragoons and cavalry, \
             `artillery` for artillery)",
            firer.name, firer.kind
        ),
    )
    .accepted("heavy-infantry, heavy-infantry-no-pikes"))
}

/// Everything the musketry DRMs depend on: built from the units by
/// [`MusketryInput::from_units`] or [`Musketry::from_step`], and rebuilt by
/// later procedures as unit states change.
#[derive(Clone, Debug, PartialEq)]
pub struct MusketryInput {
    /// The firer carries regimental artillery (right-hand columns).
    pub regimental_artillery: bool,
    /// Front, Flank or Salvo.
    pub column: FireColumn,
    /// The firer's formation.
    pub firer_formation: Formation,
    /// Reaction fire vs. moving cavalry.
    pub reaction_fire: bool,
    /// The firer has a Salvo marker (10.4).
    pub salvo_marker: bool,
    /// Normal, advancing or retreating fire.
    pub fire_mode: FireMode,
    /// The firer's casualty points.
    pub casualty_points: u8,
    /// 1 or 2: the firer's size in hexes.
    pub hexes: u8,
    /// NGBG: all firing at Halmstad (series card).
    pub halmstad: bool,
    /// NGBG: Peasant Militia at Landskrona (series card).
    pub peasant_militia: bool,
    /// Any further DRM.
    pub extra_drm: i8,
    /// Who fires at whom: the target's formation (Hedgehog, Column give
    /// +1) and its TEC fire DRM, with the TEC lines for `pikeshot explain`.
    pub who: FireWho,
}

impl MusketryInput {
    /// The input for `firer` shooting at `target` on `column`, from the units'
    /// states, with no optional DRM. Errors: the firer is not heavy
    /// infantry, or the target's TEC fire column is NA.
    pub fn from_units(
        edition: Edition,
        firer: &Unit,
        target: &Unit,
        column: FireColumn,
    ) -> Result<MusketryInput, InputError> {
        check_firer(firer)?;
        Ok(MusketryInput {
            who: FireWho::from_tec(edition, firer, target, false)?,
            regimental_artillery: firer.regimental_artillery,
            column,
            firer_formation: firer.formation,
            reaction_fire: false,
            salvo_marker: firer.salvo_marker,
            fire_mode: FireMode::Normal,
            casualty_points: firer.casualty_points,
            hexes: firer.hexes,
            halmstad: false,
            peasant_militia: false,
            extra_drm: 0,
        })
    }
}

/// Index of each measure in [`fire_measures`].
const HITS: usize = 0;
const FORMATION_HITS: usize = 1;
const MORALE_CHECKS: usize = 2;

/// Outcome measures of the fire procedures, at [`HITS`],
/// [`FORMATION_HITS`] and [`MORALE_CHECKS`].
fn fire_measures() -> Vec<Measure> {
    vec![
        Measure::new("hits", 0, 2),
        Measure::new("formation-hits", 0, 1),
        Measure::new("morale-checks", 0, 1),
    ]
}

/// `column`, declared once: its doc and its reader.
pub(crate) const COLUMN: Key<FireColumn> = Key::one_of(
    "column",
    "musketry column",
    "required: the musketry column (salvo refused with a Salvo marker, 10.4)",
);

/// `reaction_fire`, declared once: its doc and its reader.
pub(crate) const REACTION_FIRE: Key<bool> = Key::flag(
    "reaction_fire",
    "true: reaction fire vs. moving cavalry, -1 (default false)",
);

/// `peasant_militia`, declared once: its doc and its reader.
pub(crate) const PEASANT_MILITIA: Key<bool> = Key::flag(
    "peasant_militia",
    "true: NGBG Peasant Militia at Landskrona, -3 (series only)",
);

/// What `pikeshot list` shows of `musketry`.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "musketry",
    rule: "10.0",
    summary: "Heavy Infantry Musketry: d10 + DRM on the Front, Flank or Salvo column (with or without regimental artillery)",
    keys: &[
        KeyDoc::unit(
            "firer",
            "heavy infantry unit (regimental artillery from the unit)",
        ),
        KeyDoc::unit(
            "target",
            "unit fired at (its formation and TEC hex/hexside give DRMs)",
        ),
        COLUMN.doc(),
        REACTION_FIRE.doc(),
        FIRE_MODE_KEY,
        HALMSTAD_FIRE_KEY,
        PEASANT_MILITIA.doc(),
        TEC_DRM_KEY,
        EXTRA_DRM_KEY,
    ],
    outcomes: &[
        "miss",
        "1 hit",
        "1 hit + FH",
        "2 hits",
        "2 hits + FH",
        "2 hits + FH + MC",
    ],
    measures: &["hits", "formation-hits", "morale-checks"],
};

/// Heavy infantry musketry (10.0): one d10 plus the summed DRM, read on one
/// column.
#[derive(Clone, Debug)]
pub struct Musketry {
    edition: Edition,
    regimental_artillery: bool,
    column: FireColumn,
    roll: DrmRoll,
}

impl Musketry {
    /// Builds the procedure from its input: sums the DRMs and fixes the leaf of
    /// each die face. Errors (keyed by the step key, not yet located): a
    /// Salvo with a Salvo marker, a modifier the edition's card lacks.
    pub fn new(edition: Edition, input: &MusketryInput) -> Result<Musketry, InputError> {
        let d = &MUSKETRY_DRMS[edition as usize];
        let mut mods: Vec<Term> = Vec::new();
        let who = &input.who;
        if input.column == FireColumn::Salvo && input.salvo_marker {
            return Err(key_err(
                "column",
                "the firer has a Salvo marker (10.4): it cannot fire a salvo until the \
                 marker is removed (docs/rules/mpbs.md, Salvo)",
            ));
        }
        mods.extend(
            d.lines
                .firer_formation_term(input.firer_formation, who.firer()),
        );
        if input.reaction_fire {
            mods.push(Term::new(
                "reaction fire vs. moving cavalry",
                "10.0",
                d.reaction_fire as i32,
                Source::key("reaction_fire = true"),
            ));
        }
        if input.salvo_marker {
            mods.push(Term::new(
                "firer has a Salvo marker",
                "10.4",
                d.salvo_marker as i32,
                who.firer_is(
                    "marked with a Salvo marker (salvo_marker, or a salvo earlier in the course)",
                ),
            ));
        }
        mods.extend(
            d.lines
                .fire_mode_term(input.fire_mode, edition, "musketry table")?,
        );
        if input.casualty_points > 0 {
            let (what, v) = if input.hexes >= 2 {
                (
                    format!(
                        "{} casualty points on a two-hex unit",
                        input.casualty_points
                    ),
                    d.per_two_cp_two_hex as i32 * (input.casualty_points / 2) as i32,
                )
            } else {
                (
                    format!(
                        "{} casualty points on a one-hex unit",
                        input.casualty_points
                    ),
                    d.per_cp_one_hex as i32 * input.casualty_points as i32,
                )
            };
            if v != 0 {
                mods.push(Term::new(
                    what,
                    "10.0",
                    v,
                    who.firer_is(&format!(
                        "a {}-hex unit with {} casualty points",
                        input.hexes, input.casualty_points
                    )),
                ));
            }
        }
        if input.halmstad && input.peasant_militia {
            return Err(key_err(
                "peasant_militia",
                "`halmstad` and `peasant_militia` belong to different NGBG battles",
            ));
        }
        mods.extend(d.lines.halmstad_term(input.halmstad, edition)?);
        if input.peasant_militia {
            let v = ngbg_drm("peasant_militia", d.peasant_militia, edition)?;
            mods.push(Term::new(
                "NGBG: Peasant Militia at Landskrona",
                "10.0",
                v as i32,
                Source::key("peasant_militia = true"),
            ));
        }
        d.lines.target_terms(&mut mods, who, input.extra_drm);
        let results = column_results(edition, input.regimental_artillery, input.column);
        let space = OutcomeSpace::new(results.iter().map(|r| r.label()).collect(), fire_measures());
        let roll = DrmRoll::new(mods, space, |space, n| {
            let r = result(edition, input.regimental_artillery, input.column, n);
            let o = results
                .iter()
                .position(|x| *x == r)
                .expect("result is in its column");
            space.leaf(o, &r.measures())
        });
        Ok(Musketry {
            edition,
            regimental_artillery: input.regimental_artillery,
            column: input.column,
            roll,
        })
    }

    /// Reads a scenario step: `firer`, `target`, `column` and the optional
    /// DRM keys (see [`INFO`]).
    pub fn from_step(
        f: &mut Fields,
        units: &[Unit],
        edition: Edition,
    ) -> Result<Musketry, InputError> {
        let (firer, target, column, who) =
            FireWho::read_step(f, units, edition, false, |f, firer| {
                let column: FireColumn = COLUMN.require(f)?;
                check_firer(firer).map_err(|e| relocate(f, e))?;
                Ok(column)
            })?;
        let reaction_fire = REACTION_FIRE.get(f)?;
        if reaction_fire && !target.kind.is_cavalry() {
            return Err(f.err(
                "reaction_fire",
                format!(
                    "the reaction fire DRM is against moving cavalry; {} is {}",
                    target.name, target.kind
                ),
            ));
        }
        let input = MusketryInput {
            regimental_artillery: firer.regimental_artillery,
            column,
            firer_formation: firer.formation,
            reaction_fire,
            salvo_marker: firer.salvo_marker,
            fire_mode: read_fire_mode(f)?,
            casualty_points: firer.casualty_points,
            hexes: firer.hexes,
            halmstad: HALMSTAD_FIRE.get(f)?,
            peasant_militia: PEASANT_MILITIA.get(f)?,
            extra_drm: read_extra(f)?,
            who,
        };
        finish_built(f, Musketry::new(edition, &input))
    }

    /// The edition.
    pub fn edition(&self) -> Edition {
        self.edition
    }
    /// The column fired on (with [`Musketry::regimental_artillery`]).
    pub fn column(&self) -> FireColumn {
        self.column
    }
    /// Whether the regimental artillery columns are used.
    pub fn regimental_artillery(&self) -> bool {
        self.regimental_artillery
    }
    /// True for a Salvo (the firer then takes a Salvo marker, 10.4).
    pub fn is_salvo(&self) -> bool {
        self.column == FireColumn::Salvo
    }
    /// The result for a natural die face 0..=9.
    pub fn result_for(&self, face: u8) -> FireResult {
        result(
            self.edition,
            self.regimental_artillery,
            self.column,
            face as i32 + self.drm(),
        )
    }
    /// The table result a leaf of this procedure stands for.
    pub fn result_of(&self, leaf: Leaf) -> FireResult {
        let space = crate::procedure::Procedure::space(self);
        FireResult::new(
            space.value_of(leaf, HITS) as u8,
            space.value_of(leaf, FORMATION_HITS) > 0,
            space.value_of(leaf, MORALE_CHECKS) > 0,
        )
    }
    /// The most hits one roll can score.
    pub fn most_hits(&self) -> i32 {
        crate::procedure::Procedure::space(self).measures()[HITS].max
    }
}

drm_roll_procedure!(Musketry);

/// What `pikeshot list` shows of `tec_drm`, the step key [`read_tec`] reads
/// before the TEC.
pub(crate) const TEC_DRM_KEY: KeyDoc = TEC_DRM.doc();

/// `tec_drm`, declared once.
const TEC_DRM: Key<i64> = Key::int(
    "tec_drm",
    -9,
    9,
    "replaces the TEC fire DRM of the target's hex and hexside",
);

/// Reads the TEC fire DRM for the target named by `target_key`: the explicit
/// `tec_drm` key when given, else the TEC's hex and hexside lines
/// ([`tec_fire_terms`]), as the terms that sum to it; an NA row is an error
/// at `target_key`.
pub(crate) fn read_tec(
    f: &mut Fields,
    edition: Edition,
    target: &Unit,
    target_key: &'static str,
    artillery: bool,
) -> Result<Vec<crate::explain::Term>, InputError> {
    use crate::explain::{Source, Term};
    if let Some(v) = TEC_DRM.read(f)? {
        let t = Term::new(
            "TEC fire DRM",
            "TEC",
            v as i32,
            Source::key(format!("tec_drm = {v}")),
        )
        .noted(format!(
            "replaces the TEC hex and hexside of {}",
            target.name
        ));
        return Ok(vec![t]);
    }
    let terms = tec_fire_terms(edition, target, artillery).map_err(|why| {
        f.err(
            target_key,
            format!(
                "{} cannot be fired at: its fire column on the TEC is NA ({why}); \
                 set `tec_drm` to fire anyway",
                target.name
            ),
        )
    })?;
    Ok(terms)
}

/// What `pikeshot list` shows of `fire_mode`, the step key
/// [`read_fire_mode`] reads.
pub(crate) const FIRE_MODE_KEY: KeyDoc = KeyDoc::new(
    "fire_mode",
    Kind::PerEdition(Cow::Borrowed(FIRE_MODES)),
    "advancing: +DRM on the series card; retreating: -3",
)
.or("normal");

/// What `pikeshot list` shows of `halmstad` on a fire table (its DRM line
/// is [`FireLineDrms::halmstad_term`](FireLineDrms)).
pub(crate) const HALMSTAD_FIRE_KEY: KeyDoc = HALMSTAD_FIRE.doc();

/// `halmstad` on a fire table, declared once.
pub(crate) const HALMSTAD_FIRE: Key<bool> = Key::flag(
    "halmstad",
    "true: NGBG all firing at Halmstad, -1 (series only)",
);

/// Reads `fire_mode` (default normal).
pub(crate) fn read_fire_mode(f: &mut Fields) -> Result<FireMode, InputError> {
    Ok(named::read(f, "fire_mode", "fire mode")?.unwrap_or(FireMode::Normal))
}
