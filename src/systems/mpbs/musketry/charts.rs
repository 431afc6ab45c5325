//! The musketry charts for `pikeshot tables`.

use super::*;
use crate::systems::chart::{headers, labelled};

/// The firer's formation DRM lines of a fire table (musketry, light fire):
/// Shaken (with Open Order on one line when `one_line`) and Broken.
pub(crate) fn firer_formation_notes(one_line: bool, shaken: i8, broken: i8) -> Vec<String> {
    let mut n = vec!["Firer is or has:".to_string()];
    if one_line {
        n.push(format!("{shaken:+} Formation Shaken or Open Order marker"));
    } else {
        n.push(format!("{shaken:+} Formation Shaken"));
    }
    n.push(format!("{broken:+} Formation Broken"));
    n
}

/// The target's DRM lines of a fire table (musketry, light fire): Hedgehog,
/// Column and the TEC.
pub(crate) fn target_notes(n: &mut Vec<String>, hedgehog: i8, column: i8) {
    n.push("Defender is:".into());
    n.push(format!("{hedgehog:+} in Hedgehog"));
    n.push(format!("{column:+} in Column"));
    n.push("plus the TEC fire column for the target's hex and hexside".into());
}

/// One musketry DRM line as the edition prints it.
fn drm_notes(edition: Edition) -> Vec<String> {
    let d = &MUSKETRY_DRMS[edition as usize];
    let one_line = d.shaken_or_open_order_one_line;
    let mut n = firer_formation_notes(one_line, d.formation_shaken, d.formation_broken);
    if !one_line {
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
    target_notes(&mut n, d.target_hedgehog, d.target_column);
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
        headers: headers(&[
            "Die Roll",
            "HI Front",
            "HI Flank",
            "HI Salvo",
            "HI+RA Front",
            "HI+RA Flank",
            "HI+RA Salvo",
        ]),
        rows: table(edition)
            .iter()
            .zip(ROWS)
            .map(|(row, label)| labelled(label, row.iter().map(|c| c.cell())))
            .collect(),
        notes,
    }]
}
