//! The Heavy Infantry Musketry Tables (10.0) of both cards, their results
//! and DRM lines, and the TEC fire column shared by every fire table.

use super::*;

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

/// The fire modes `fire_mode` accepts on each card: Advancing Fire is a
/// DRM on the series card only.
pub const FIRE_MODES: &[crate::systems::chart::EditionNames] = &[
    ("sfo", std::borrow::Cow::Borrowed(&["normal", "retreating"])),
    ("series", std::borrow::Cow::Borrowed(FireMode::NAMES)),
];

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

/// The DRM lines the Heavy Infantry Musketry and the Light Infantry and
/// Cavalry Fire tables both print (10.0), with one table's values on one
/// edition's card. `None`: the card has no such line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FireLineDrms {
    /// Firer Formation Shaken.
    pub formation_shaken: i8,
    /// Firer Formation Broken.
    pub formation_broken: i8,
    /// Firer has an Open Order marker.
    pub open_order: i8,
    /// The card prints Formation Shaken and Open Order as one line.
    pub shaken_or_open_order_one_line: bool,
    /// Advancing Fire (10.3.2).
    pub advancing_fire: Option<i8>,
    /// Retreating Fire (10.3.4).
    pub retreating_fire: i8,
    /// NGBG: all firing at Halmstad.
    pub halmstad: Option<i8>,
    /// Target in Hedgehog.
    pub target_hedgehog: i8,
    /// Target in Column.
    pub target_column: i8,
}

/// The musketry DRMs (10.0) as one edition's card prints them. `None`: the
/// card has no such line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MusketryDrms {
    /// The lines the light fire table prints too.
    pub lines: FireLineDrms,
    /// Reaction Fire vs. moving cavalry.
    pub reaction_fire: i8,
    /// Firer has a Salvo marker (10.4).
    pub salvo_marker: i8,
    /// Per casualty point on a one-hex unit.
    pub per_cp_one_hex: i8,
    /// Per two casualty points on a two-hex unit.
    pub per_two_cp_two_hex: i8,
    /// NGBG: Peasant Militia at Landskrona.
    pub peasant_militia: Option<i8>,
}

/// Musketry DRMs (10.0), indexed by edition (Sweden Fights On, series).
pub const MUSKETRY_DRMS: [MusketryDrms; 2] = [
    MusketryDrms {
        lines: FireLineDrms {
            formation_shaken: -2,
            formation_broken: -3,
            open_order: -2,
            shaken_or_open_order_one_line: false,
            advancing_fire: None,
            retreating_fire: -3,
            halmstad: None,
            target_hedgehog: 1,
            target_column: 1,
        },
        reaction_fire: -1,
        salvo_marker: -1,
        per_cp_one_hex: -1,
        per_two_cp_two_hex: -1,
        peasant_militia: None,
    },
    MusketryDrms {
        lines: FireLineDrms {
            formation_shaken: -2,
            formation_broken: -3,
            open_order: -2,
            shaken_or_open_order_one_line: true,
            advancing_fire: Some(-3),
            retreating_fire: -3,
            halmstad: Some(-1),
            target_hedgehog: 1,
            target_column: 1,
        },
        reaction_fire: -1,
        salvo_marker: -1,
        per_cp_one_hex: -1,
        per_two_cp_two_hex: -1,
        peasant_militia: Some(-3),
    },
];

/// The fire DRM of the TEC (hex plus hexside, cumulative) for a target
/// standing in `target.terrain` behind `target.hexside`: the musket value, or
/// the artillery value when `artillery` (series Woods: −1 / +1). `Err` names
/// the TEC row whose fire column is NA.
pub fn tec_fire_drm(edition: Edition, target: &Unit, artillery: bool) -> Result<i8, String> {
    Ok(crate::explain::sum(&tec_fire_terms(edition, target, artillery)?) as i8)
}

/// The TEC fire DRM as terms: the hex line, and the hexside line when the
/// target stands behind one, each with its source (what
/// [`tec_fire_drm`] sums).
pub fn tec_fire_terms(
    edition: Edition,
    target: &Unit,
    artillery: bool,
) -> Result<Vec<Term>, String> {
    let pick = |f: terrain::FireDrm| if artillery { f.artillery } else { f.musket };
    let column = if artillery {
        "fire column, artillery value"
    } else {
        "fire column, musket value"
    };
    let hex = terrain::hex(edition, target.terrain).ok_or_else(|| {
        format!(
            "terrain \"{}\" is not on the {} TEC",
            target.terrain, edition
        )
    })?;
    let drm = pick(hex.fire).ok_or_else(|| format!("the TEC hex row \"{}\"", hex.label))?;
    let mut out = vec![Term::new(
        "TEC hex",
        "TEC",
        drm as i32,
        Source::unit(format!(
            "{} stands in {} ({}'s TEC, {column})",
            target.name,
            hex.label,
            edition.card()
        )),
    )];
    if let Some(side) = target.hexside {
        let row = terrain::hexside(edition, side)
            .ok_or_else(|| format!("hexside \"{side}\" is not on the {edition} TEC"))?;
        let v = pick(row.fire).ok_or_else(|| format!("the TEC hexside row \"{}\"", row.label))?;
        out.push(Term::new(
            "TEC hexside",
            "TEC",
            v as i32,
            Source::unit(format!(
                "{} is behind {} ({}'s TEC, {column}; cumulative with the hex)",
                target.name,
                row.label,
                edition.card()
            )),
        ));
    }
    Ok(out)
}
