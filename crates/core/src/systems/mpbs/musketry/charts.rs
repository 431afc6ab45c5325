//! The musketry charts for `pikeshot tables`.

use super::*;
use crate::systems::chart::{headers, labelled};

impl FireLineDrms {
    /// The firer's formation DRM lines: Shaken (with Open Order on one line
    /// where the card prints them so) and Broken.
    pub(crate) fn firer_formation_notes(&self) -> Vec<String> {
        let mut n = vec!["Firer is or has:".to_string()];
        if self.shaken_or_open_order_one_line {
            n.push(format!(
                "{:+} Formation Shaken or Open Order marker",
                self.formation_shaken
            ));
        } else {
            n.push(format!("{:+} Formation Shaken", self.formation_shaken));
        }
        n.push(format!("{:+} Formation Broken", self.formation_broken));
        n
    }

    /// The Halmstad DRM line, on the card that prints it.
    pub(crate) fn halmstad_note(&self) -> Option<String> {
        self.halmstad
            .map(|v| format!("{v:+} NGBG: all firing at Halmstad [halmstad]"))
    }

    /// The target's DRM lines: Hedgehog, Column and the TEC.
    pub(crate) fn target_notes(&self, n: &mut Vec<String>) {
        n.push("Defender is:".into());
        n.push(format!("{:+} in Hedgehog", self.target_hedgehog));
        n.push(format!("{:+} in Column", self.target_column));
        n.push("plus the TEC fire column for the target's hex and hexside".into());
    }
}

/// One musketry DRM line as the edition prints it.
fn drm_notes(edition: Edition) -> Vec<String> {
    let d = &MUSKETRY_DRMS[edition as usize];
    let lines = &d.lines;
    let mut n = lines.firer_formation_notes();
    if !lines.shaken_or_open_order_one_line {
        n.push(format!("{:+} Open Order marker", lines.open_order));
    }
    n.push(format!(
        "{:+} Reaction Fire vs. moving cavalry [reaction_fire]",
        d.reaction_fire
    ));
    n.push(format!(
        "{:+} unit with Salvo marker (10.4)",
        d.salvo_marker
    ));
    match lines.advancing_fire {
        Some(a) => n.push(format!(
            "{a:+} Advancing Fire (10.3.2) or {:+} Retreating Fire (10.3.4) [fire_mode]",
            lines.retreating_fire
        )),
        None => n.push(format!(
            "{:+} Retreating Fire (10.3.4) [fire_mode]",
            lines.retreating_fire
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
    n.extend(lines.halmstad_note());
    if let Some(v) = d.peasant_militia {
        n.push(format!(
            "{v:+} NGBG: Peasant Militia at Landskrona [peasant_militia]"
        ));
    }
    lines.target_notes(&mut n);
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
