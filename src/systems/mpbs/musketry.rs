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
//! [`FireMode`] and the TEC fire column lookup [`tec_fire_drm`].

use super::terrain;
use super::unit::find_unit;
use super::{Edition, Formation, Unit, named_enum};
use crate::dice::Dice;
use crate::error::InputError;
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::Fields;
use crate::systems::{Chart, ProcedureInfo};

/// One cell of a fire table: hits, and whether it adds a Formation Hit and a
/// Morale Check (10.6.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FireResult {
    /// Hits (casualty points) inflicted.
    pub hits: u8,
    /// The cell adds a Formation Hit ("FH").
    pub formation_hit: bool,
    /// The cell adds a Morale Check ("MC").
    pub morale_check: bool,
}

impl FireResult {
    /// "Miss".
    pub const MISS: FireResult = FireResult::new(0, false, false);

    /// A cell with `hits` hits, an FH if `formation_hit`, an MC if `morale_check`.
    pub const fn new(hits: u8, formation_hit: bool, morale_check: bool) -> FireResult {
        FireResult {
            hits,
            formation_hit,
            morale_check,
        }
    }

    /// The outcome label: "miss", "1 hit", "2 hits + FH + MC", "FH", "FH + MC".
    pub fn label(self) -> String {
        let mut parts: Vec<String> = Vec::new();
        match self.hits {
            0 => {}
            1 => parts.push("1 hit".into()),
            n => parts.push(format!("{n} hits")),
        }
        if self.formation_hit {
            parts.push("FH".into());
        }
        if self.morale_check {
            parts.push("MC".into());
        }
        if parts.is_empty() {
            "miss".into()
        } else {
            parts.join(" + ")
        }
    }

    /// The cell as printed on the card: "Miss", "1", "2+FH+MC", "FH+MC".
    pub fn cell(self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if self.hits > 0 {
            parts.push(self.hits.to_string());
        }
        if self.formation_hit {
            parts.push("FH".into());
        }
        if self.morale_check {
            parts.push("MC".into());
        }
        if parts.is_empty() {
            "Miss".into()
        } else {
            parts.join("+")
        }
    }

    /// The measure values `[hits, formation-hits, morale-checks]`.
    pub fn measures(self) -> [i32; 3] {
        [
            self.hits as i32,
            self.formation_hit as i32,
            self.morale_check as i32,
        ]
    }
}

/// The distinct results of a column, in row order.
pub fn distinct(cells: impl IntoIterator<Item = FireResult>) -> Vec<FireResult> {
    let mut out: Vec<FireResult> = Vec::new();
    for c in cells {
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

named_enum! {
    /// A musketry column (10.0): which way the firer shoots.
    FireColumn {
        /// Target in the firer's front hexes.
        Front = "front",
        /// Target in the firer's flank hexes (docs/rules/mpbs.md, Front or flank).
        Flank = "flank",
        /// A salvo (10.4): heavy infantry without a Salvo marker only.
        Salvo = "salvo",
    }
}

named_enum! {
    /// How the firer fires: in place, advancing (10.3.2) or retreating (10.3.4).
    FireMode {
        /// Ordinary fire.
        Normal = "normal",
        /// Advancing Fire (10.3.2): a DRM on the series card only.
        Advancing = "advancing",
        /// Retreating Fire (10.3.4).
        Retreating = "retreating",
    }
}

const M: FireResult = FireResult::MISS;
const H1: FireResult = FireResult::new(1, false, false);
const H2: FireResult = FireResult::new(2, false, false);
const H1F: FireResult = FireResult::new(1, true, false);
const H2F: FireResult = FireResult::new(2, true, false);
const H2FM: FireResult = FireResult::new(2, true, true);

/// Heavy Infantry Musketry Tables (10.0), Sweden Fights On card. Rows are the
/// modified rolls ≤0, 1, …, 8, 9+; columns HI Front, Flank, Salvo, then HI
/// with Regimental Artillery Front, Flank, Salvo.
pub const SFO_MUSKETRY: [[FireResult; 6]; 10] = [
    [M, M, M, M, M, M],            // ≤0
    [H1, M, H1, H1, M, H1],        // 1
    [H1, M, H1, H1, M, H1],        // 2
    [H1, H1, H1, H1, H1, H1F],     // 3
    [H1, H1, H2, H1F, H1, H1F],    // 4
    [H1, H1, H2, H1F, H1, H2F],    // 5
    [H1, H1, H2, H2F, H1, H2F],    // 6
    [H2, H1, H2, H2F, H1F, H2FM],  // 7
    [H2, H1, H2, H2FM, H1F, H2FM], // 8
    [H2, H2, H2, H2FM, H2F, H2FM], // 9+
];

/// Heavy Infantry Musketry Tables (10.0), series card. Same layout as
/// [`SFO_MUSKETRY`]; the two Salvo columns differ (docs/rules/mpbs.md, Where the cards differ).
pub const SERIES_MUSKETRY: [[FireResult; 6]; 10] = [
    [M, M, M, M, M, M],            // ≤0
    [H1, M, M, H1, M, M],          // 1
    [H1, M, H1, H1, M, H1],        // 2
    [H1, H1, H1, H1, H1, H1],      // 3
    [H1, H1, H1, H1F, H1, H1F],    // 4
    [H1, H1, H1, H1F, H1, H1F],    // 5
    [H1, H1, H2, H2F, H1, H2F],    // 6
    [H2, H1, H2, H2F, H1F, H2FM],  // 7
    [H2, H1, H2, H2FM, H1F, H2FM], // 8
    [H2, H2, H2, H2FM, H2F, H2FM], // 9+
];

/// Row labels of the musketry table.
pub const ROWS: [&str; 10] = ["≤ 0", "1", "2", "3", "4", "5", "6", "7", "8", "9+"];

/// The musketry table of an edition.
pub fn table(edition: Edition) -> &'static [[FireResult; 6]; 10] {
    [&SFO_MUSKETRY, &SERIES_MUSKETRY][edition as usize]
}

/// The table column (0–5) for a firer with or without regimental artillery.
pub fn column_index(regimental_artillery: bool, column: FireColumn) -> usize {
    3 * regimental_artillery as usize + column as usize
}

/// The result of a modified roll on a column: ≤0 reads the `≤ 0` row, ≥9 the
/// `9+` row.
pub fn result(
    edition: Edition,
    regimental_artillery: bool,
    column: FireColumn,
    modified_roll: i32,
) -> FireResult {
    table(edition)[modified_roll.clamp(0, 9) as usize][column_index(regimental_artillery, column)]
}

/// The distinct printed results of a column, in row order (the outcome labels
/// of the procedure).
pub fn column_results(
    edition: Edition,
    regimental_artillery: bool,
    column: FireColumn,
) -> Vec<FireResult> {
    let c = column_index(regimental_artillery, column);
    distinct(table(edition).iter().map(|row| row[c]))
}

/// The musketry DRMs (10.0) as one edition's card prints them. `None`: the
/// card has no such line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MusketryDrms {
    /// Firer Formation Shaken.
    pub formation_shaken: i8,
    /// Firer Formation Broken.
    pub formation_broken: i8,
    /// Firer has an Open Order marker.
    pub open_order: i8,
    /// The card prints Formation Shaken and Open Order as one line.
    pub shaken_or_open_order_one_line: bool,
    /// Reaction Fire vs. moving cavalry.
    pub reaction_fire: i8,
    /// Firer has a Salvo marker (10.4).
    pub salvo_marker: i8,
    /// Advancing Fire (10.3.2).
    pub advancing_fire: Option<i8>,
    /// Retreating Fire (10.3.4).
    pub retreating_fire: i8,
    /// Per casualty point on a one-hex unit.
    pub per_cp_one_hex: i8,
    /// Per two casualty points on a two-hex unit.
    pub per_two_cp_two_hex: i8,
    /// NGBG: all firing at Halmstad.
    pub halmstad: Option<i8>,
    /// NGBG: Peasant Militia at Landskrona.
    pub peasant_militia: Option<i8>,
    /// Target in Hedgehog.
    pub target_hedgehog: i8,
    /// Target in Column.
    pub target_column: i8,
}

/// Musketry DRMs (10.0), indexed by edition (Sweden Fights On, series).
pub const MUSKETRY_DRMS: [MusketryDrms; 2] = [
    MusketryDrms {
        formation_shaken: -2,
        formation_broken: -3,
        open_order: -2,
        shaken_or_open_order_one_line: false,
        reaction_fire: -1,
        salvo_marker: -1,
        advancing_fire: None,
        retreating_fire: -3,
        per_cp_one_hex: -1,
        per_two_cp_two_hex: -1,
        halmstad: None,
        peasant_militia: None,
        target_hedgehog: 1,
        target_column: 1,
    },
    MusketryDrms {
        formation_shaken: -2,
        formation_broken: -3,
        open_order: -2,
        shaken_or_open_order_one_line: true,
        reaction_fire: -1,
        salvo_marker: -1,
        advancing_fire: Some(-3),
        retreating_fire: -3,
        per_cp_one_hex: -1,
        per_two_cp_two_hex: -1,
        halmstad: Some(-1),
        peasant_militia: Some(-3),
        target_hedgehog: 1,
        target_column: 1,
    },
];

/// The fire DRM of the TEC (hex plus hexside, cumulative) for a target
/// standing in `target.terrain` behind `target.hexside`: the musket value, or
/// the artillery value when `artillery` (series Woods: −1 / +1). `Err` names
/// the TEC row whose fire column is NA.
pub fn tec_fire_drm(edition: Edition, target: &Unit, artillery: bool) -> Result<i8, String> {
    let pick = |f: terrain::FireDrm| if artillery { f.artillery } else { f.musket };
    let hex = terrain::hex(edition, target.terrain).ok_or_else(|| {
        format!(
            "terrain \"{}\" is not on the {} TEC",
            target.terrain, edition
        )
    })?;
    let mut drm = pick(hex.fire).ok_or_else(|| format!("the TEC hex row \"{}\"", hex.label))?;
    if let Some(side) = target.hexside {
        let row = terrain::hexside(edition, side)
            .ok_or_else(|| format!("hexside \"{side}\" is not on the {edition} TEC"))?;
        drm += pick(row.fire).ok_or_else(|| format!("the TEC hexside row \"{}\"", row.label))?;
    }
    Ok(drm)
}

/// Reads the TEC fire DRM for the target named by `target_key`: the explicit
/// `tec_drm` key when given, else [`tec_fire_drm`]; an NA row is an error at
/// `target_key`.
pub(crate) fn read_tec(
    f: &mut Fields,
    edition: Edition,
    target: &Unit,
    target_key: &'static str,
    artillery: bool,
) -> Result<i8, InputError> {
    if let Some(v) = f.int("tec_drm", -9, 9)? {
        return Ok(v as i8);
    }
    tec_fire_drm(edition, target, artillery).map_err(|why| {
        f.err(
            target_key,
            format!(
                "{} cannot be fired at: its fire column on the TEC is NA ({why}); \
                 set `tec_drm` to fire anyway",
                target.name
            ),
        )
    })
}

/// Locates an error from a pure constructor (whose `key` is a bare step key)
/// at that key of the step.
pub(crate) fn relocate(f: &Fields, mut e: InputError) -> InputError {
    match e.key.take() {
        Some(k) => f.locate(&k, e),
        None => f.locate("procedure", e),
    }
}

/// An error at a bare step key, for pure constructors.
pub(crate) fn key_err(key: &str, message: impl Into<String>) -> InputError {
    InputError::new(message).key(key)
}

/// Reads `extra_drm` (−9..=9, default 0).
pub(crate) fn read_extra(f: &mut Fields) -> Result<i8, InputError> {
    Ok(f.int("extra_drm", -9, 9)?.unwrap_or(0) as i8)
}

/// Reads `fire_mode` (default normal).
pub(crate) fn read_fire_mode(f: &mut Fields) -> Result<FireMode, InputError> {
    Ok(f.named(
        "fire_mode",
        "fire mode",
        FireMode::from_name,
        &FireMode::names(),
    )?
    .unwrap_or(FireMode::Normal))
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
    /// The target's formation (Hedgehog, Column give +1).
    pub target_formation: Formation,
    /// The TEC fire DRM for the target's hex and hexside.
    pub tec: i8,
    /// Any further DRM.
    pub extra_drm: i8,
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
        let tec = tec_fire_drm(edition, target, false).map_err(|why| {
            key_err(
                "target",
                format!(
                    "{} cannot be fired at: its fire column on the TEC is NA ({why})",
                    target.name
                ),
            )
        })?;
        Ok(MusketryInput {
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
            target_formation: target.formation,
            tec,
            extra_drm: 0,
        })
    }
}

/// Outcome measures of the fire procedures.
fn fire_measures() -> Vec<Measure> {
    vec![
        Measure::new("hits", 0, 2),
        Measure::new("formation-hits", 0, 1),
        Measure::new("morale-checks", 0, 1),
    ]
}

/// What `pikeshot list` shows of `musketry`.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "musketry",
    rule: "10.0",
    summary: "Heavy Infantry Musketry: d10 + DRM on the Front, Flank or Salvo column (with or without regimental artillery)",
    keys: &[
        (
            "firer",
            "heavy infantry unit (regimental artillery from the unit)",
        ),
        (
            "target",
            "unit fired at (its formation and TEC hex/hexside give DRMs)",
        ),
        (
            "column",
            "front | flank | salvo (salvo refused with a Salvo marker, 10.4)",
        ),
        (
            "reaction_fire",
            "true: reaction fire vs. moving cavalry, -1 (default false)",
        ),
        (
            "fire_mode",
            "normal | advancing (series only) | retreating: -3 (default normal)",
        ),
        (
            "halmstad",
            "true: NGBG all firing at Halmstad, -1 (series only)",
        ),
        (
            "peasant_militia",
            "true: NGBG Peasant Militia at Landskrona, -3 (series only)",
        ),
        (
            "tec_drm",
            "-9..=9: replaces the TEC fire DRM of the target's hex and hexside",
        ),
        ("extra_drm", "-9..=9: any further DRM (default 0)"),
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
    drm: i32,
    modifiers: Vec<(String, i32)>,
    space: OutcomeSpace,
    /// The leaf for each die face 0..=9.
    leaves: [Leaf; 10],
}

impl Musketry {
    /// Builds the procedure from its input: sums the DRMs and fixes the leaf of
    /// each die face. Errors (keyed by the step key, not yet located): a
    /// Salvo with a Salvo marker, a modifier the edition's card lacks.
    pub fn new(edition: Edition, input: &MusketryInput) -> Result<Musketry, InputError> {
        let d = &MUSKETRY_DRMS[edition as usize];
        let mut mods: Vec<(String, i32)> = Vec::new();
        if input.column == FireColumn::Salvo && input.salvo_marker {
            return Err(key_err(
                "column",
                "the firer has a Salvo marker (10.4): it cannot fire a salvo until the \
                 marker is removed (docs/rules/mpbs.md, Salvo)",
            ));
        }
        match input.firer_formation {
            Formation::Shaken => {
                mods.push(("firer Formation Shaken".into(), d.formation_shaken as i32))
            }
            Formation::Broken => {
                mods.push(("firer Formation Broken".into(), d.formation_broken as i32))
            }
            Formation::OpenOrder => mods.push(("firer Open Order".into(), d.open_order as i32)),
            _ => {}
        }
        if input.reaction_fire {
            mods.push((
                "reaction fire vs. moving cavalry".into(),
                d.reaction_fire as i32,
            ));
        }
        if input.salvo_marker {
            mods.push(("firer has a Salvo marker".into(), d.salvo_marker as i32));
        }
        match input.fire_mode {
            FireMode::Normal => {}
            FireMode::Advancing => {
                let v = d.advancing_fire.ok_or_else(|| {
                    key_err(
                        "fire_mode",
                        format!(
                            "the {} has no Advancing Fire DRM on the musketry table \
                             (only the series card lists it)",
                            edition.card()
                        ),
                    )
                    .accepted("normal, retreating")
                })?;
                mods.push(("Advancing Fire".into(), v as i32));
            }
            FireMode::Retreating => mods.push(("Retreating Fire".into(), d.retreating_fire as i32)),
        }
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
                mods.push((what, v));
            }
        }
        if input.halmstad && input.peasant_militia {
            return Err(key_err(
                "peasant_militia",
                "`halmstad` and `peasant_militia` belong to different NGBG battles",
            ));
        }
        for (on, key, line, what) in [
            (
                input.halmstad,
                "halmstad",
                d.halmstad,
                "NGBG: firing at Halmstad",
            ),
            (
                input.peasant_militia,
                "peasant_militia",
                d.peasant_militia,
                "NGBG: Peasant Militia at Landskrona",
            ),
        ] {
            if on {
                let v = line.ok_or_else(|| {
                    key_err(
                        key,
                        format!(
                            "the {} has no `{key}` DRM (NGBG lines are on the series card only)",
                            edition.card()
                        ),
                    )
                })?;
                mods.push((what.into(), v as i32));
            }
        }
        match input.target_formation {
            Formation::Hedgehog => {
                mods.push(("target in Hedgehog".into(), d.target_hedgehog as i32))
            }
            Formation::Column => mods.push(("target in Column".into(), d.target_column as i32)),
            _ => {}
        }
        if input.tec != 0 {
            mods.push(("TEC".into(), input.tec as i32));
        }
        if input.extra_drm != 0 {
            mods.push(("extra_drm".into(), input.extra_drm as i32));
        }
        let drm: i32 = mods.iter().map(|(_, v)| v).sum();
        let results = column_results(edition, input.regimental_artillery, input.column);
        let space = OutcomeSpace::new(results.iter().map(|r| r.label()).collect(), fire_measures());
        let mut leaves = [0; 10];
        for (face, leaf) in leaves.iter_mut().enumerate() {
            let r = result(
                edition,
                input.regimental_artillery,
                input.column,
                face as i32 + drm,
            );
            let o = results
                .iter()
                .position(|x| *x == r)
                .expect("result is in its column");
            *leaf = space.leaf(o, &r.measures());
        }
        Ok(Musketry {
            edition,
            regimental_artillery: input.regimental_artillery,
            column: input.column,
            drm,
            modifiers: mods,
            space,
            leaves,
        })
    }

    /// Reads a scenario step: `firer`, `target`, `column` and the optional
    /// DRM keys (see [`INFO`]).
    pub fn from_step(
        f: &mut Fields,
        units: &[Unit],
        edition: Edition,
    ) -> Result<Musketry, InputError> {
        f.has("procedure");
        let firer = find_unit(f, "firer", units)?;
        let target = find_unit(f, "target", units)?;
        if firer.name == target.name {
            return Err(f.err("target", "a unit cannot fire at itself"));
        }
        let column = f
            .named(
                "column",
                "musketry column",
                FireColumn::from_name,
                &FireColumn::names(),
            )?
            .ok_or_else(|| f.missing("column").one_of("", &FireColumn::names()))?;
        check_firer(firer).map_err(|e| relocate(f, e))?;
        let tec = read_tec(f, edition, target, "target", false)?;
        let reaction_fire = f.flag("reaction_fire")?;
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
            halmstad: f.flag("halmstad")?,
            peasant_militia: f.flag("peasant_militia")?,
            target_formation: target.formation,
            tec,
            extra_drm: read_extra(f)?,
        };
        let p = Musketry::new(edition, &input).map_err(|e| relocate(f, e))?;
        f.finish()?;
        Ok(p)
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
    /// The summed DRM.
    pub fn drm(&self) -> i32 {
        self.drm
    }
    /// Each DRM applied, with what it is for.
    pub fn modifiers(&self) -> &[(String, i32)] {
        &self.modifiers
    }
    /// The result for a natural die face 0..=9.
    pub fn result_for(&self, face: u8) -> FireResult {
        result(
            self.edition,
            self.regimental_artillery,
            self.column,
            face as i32 + self.drm,
        )
    }
}

impl Procedure for Musketry {
    fn space(&self) -> &OutcomeSpace {
        &self.space
    }
    #[inline]
    fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
        self.leaves[dice.d10() as usize]
    }
}

/// One musketry DRM line as the edition prints it.
fn drm_notes(edition: Edition) -> Vec<String> {
    let d = &MUSKETRY_DRMS[edition as usize];
    let mut n = vec!["Firer is or has:".to_string()];
    if d.shaken_or_open_order_one_line {
        n.push(format!(
            "{:+} Formation Shaken or Open Order marker",
            d.formation_shaken
        ));
        n.push(format!("{:+} Formation Broken", d.formation_broken));
    } else {
        n.push(format!("{:+} Formation Shaken", d.formation_shaken));
        n.push(format!("{:+} Formation Broken", d.formation_broken));
        n.push(format!("{:+} Open Order marker", d.open_order));
    }
    n.push(format!(
        "{:+} Reaction Fire vs. moving cavalry [reaction_fire]",
        d.reaction_fire
    ));
    n.push(format!(
        "{:+} unit with Salvo marker (10.4)",
        d.salvo_marker
    ));
    match d.advancing_fire {
        Some(a) => n.push(format!(
            "{a:+} Advancing Fire (10.3.2) or {:+} Retreating Fire (10.3.4) [fire_mode]",
            d.retreating_fire
        )),
        None => n.push(format!(
            "{:+} Retreating Fire (10.3.4) [fire_mode]",
            d.retreating_fire
        )),
    }
    n.push(format!(
        "{:+} for each casualty point on a one-hex unit",
        d.per_cp_one_hex
    ));
    n.push(format!(
        "{:+} for every two casualty points on a two-hex unit",
        d.per_two_cp_two_hex
    ));
    if let Some(v) = d.halmstad {
        n.push(format!("{v:+} NGBG: all firing at Halmstad [halmstad]"));
    }
    if let Some(v) = d.peasant_militia {
        n.push(format!(
            "{v:+} NGBG: Peasant Militia at Landskrona [peasant_militia]"
        ));
    }
    n.push("Defender is:".into());
    n.push(format!("{:+} in Hedgehog", d.target_hedgehog));
    n.push(format!("{:+} in Column", d.target_column));
    n.push("plus the TEC fire column for the target's hex and hexside".into());
    n
}

/// The musketry chart of an edition, laid out like the card.
pub fn charts(edition: Edition) -> Vec<Chart> {
    let mut notes = vec![
        "Numbers = hits; MC = Morale Check, in addition to 10.6.2-10.6.4 (10.6.5); \
         FH = Formation Hit, all from artillery (10.6.6 if already Formation Broken)"
            .to_string(),
    ];
    notes.extend(drm_notes(edition));
    vec![Chart {
        id: "musketry",
        title: "Heavy Infantry Musketry Tables".into(),
        rule: "10.0",
        headers: [
            "Die Roll",
            "HI Front",
            "HI Flank",
            "HI Salvo",
            "HI+RA Front",
            "HI+RA Flank",
            "HI+RA Salvo",
        ]
        .map(String::from)
        .to_vec(),
        rows: table(edition)
            .iter()
            .zip(ROWS)
            .map(|(row, label)| {
                std::iter::once(label.to_string())
                    .chain(row.iter().map(|c| c.cell()))
                    .collect()
            })
            .collect(),
        notes,
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_cells() {
        assert_eq!(M.label(), "miss");
        assert_eq!(H1.label(), "1 hit");
        assert_eq!(H2FM.label(), "2 hits + FH + MC");
        assert_eq!(H1F.cell(), "1+FH");
        assert_eq!(FireResult::new(0, true, true).label(), "FH + MC");
        assert_eq!(FireResult::new(0, true, false).cell(), "FH");
    }
}
