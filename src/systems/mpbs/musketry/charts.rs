//! The musketry charts for `pikeshot tables`.

use super::*;

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
