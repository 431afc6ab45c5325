//! The close combat charts for `pikeshot tables`.

use super::*;
use crate::systems::chart::{headers, labelled};

/// The close combat charts of an edition: the Close Combat Table with its
/// DRMs, the CC Matrix and the strength-ratio steps.
pub fn charts(edition: Edition) -> Vec<Chart> {
    let rules = rules(edition);
    let mut notes: Vec<String> = rules.drm_notes.iter().map(|s| s.to_string()).collect();
    notes.push(format!(
        "Total of all DRMs limited to -{DRM_LIMIT}..+{DRM_LIMIT}"
    ));
    notes.push(
        "After close combat both sides take a Formation Hit: FN -> FS -> FB; no effect if FB or Hedgehog (none in Column or Open Order, 6.3)"
            .into(),
    );
    let table = Chart {
        id: "close-combat",
        title: "Close Combat Table".into(),
        rule: "11.0",
        headers: headers(&[
            "Die Roll",
            "Result",
            "Retreat",
            "Advance",
            "Cavalry Pursuit",
        ]),
        rows: cc_table(edition)
            .iter()
            .map(|r| {
                let loser = match r.loser {
                    Side::Attacker => "Attacker",
                    Side::Defender => "Defender",
                };
                vec![
                    r.band.to_string(),
                    r.title.to_string(),
                    if r.retreat == 0 {
                        "-".into()
                    } else {
                        format!(
                            "{loser} {} hex{}",
                            r.retreat,
                            if r.retreat > 1 { "es" } else { "" }
                        )
                    },
                    if r.defender_may_advance {
                        "Defender may".into()
                    } else if r.attacker_must_advance {
                        "Attacker must".into()
                    } else {
                        "None".into()
                    },
                    if r.pursuit_check { "Check" } else { "-" }.into(),
                ]
            })
            .collect(),
        notes,
    };
    let m = rules.matrix;
    let matrix = Chart {
        id: "cc-matrix",
        title: "Close Combat Matrix".into(),
        rule: "11.3.8",
        headers: labelled(
            "Attacker \\ Defender",
            m.columns.iter().map(|c| c.label().to_string()),
        ),
        rows: m
            .rows
            .iter()
            .zip(m.cells)
            .map(|(r, cells)| {
                let mut row = vec![r.label().to_string()];
                row.extend(cells.iter().map(|c| match c {
                    None => "NA".to_string(),
                    Some(0) => "0".to_string(),
                    Some(d) => format!("{d:+}"),
                }));
                row
            })
            .collect(),
        notes: vec![
            "Artillery is ignored in Close Combat (11.5)".into(),
            "* See 11.6; commanded muskets and dragoons read as Lt Inf".into(),
            "A defender in Hedgehog reads the Hedgehog column".into(),
        ],
    };
    let mut ratio_notes = vec![
        "Attackers' current SP (strength - casualty points) summed, against the defender's".into(),
        "Default: a ratio between steps reads the step below it (in the defender's favour), below 1:4 reads 1:4 (strength_rounding = \"defender\"); \"steps\" reads the printed steps as thresholds".into(),
    ];
    if !rules.strength_steps_printed {
        ratio_notes.push(
            "This card prints no steps: the series card's steps are used (docs/rules/mpbs.md, Strength ratio)"
                .into(),
        );
    }
    let ratio = Chart {
        id: "strength-ratio",
        title: "Strength Ratio".into(),
        rule: "11.3.4",
        headers: headers(&["Ratio", "DRM"]),
        rows: STRENGTH_STEPS
            .iter()
            .map(|s| {
                vec![
                    format!(
                        "{}:{}{}",
                        s.attacker,
                        s.defender,
                        if s.printed { "" } else { " (implied)" }
                    ),
                    if s.drm == 0 {
                        "0".into()
                    } else {
                        format!("{:+}", s.drm)
                    },
                ]
            })
            .collect(),
        notes: ratio_notes,
    };
    vec![table, matrix, ratio]
}
