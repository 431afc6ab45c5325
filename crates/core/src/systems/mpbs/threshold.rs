//! Casualty Threshold Table (12.5): no dice, a lookup of the casualty points
//! at which a unit reaches its threshold (10.6.4), by original morale and
//! original strength. The same on both cards.

use super::{Band, Edition, chart_morale};
use crate::systems::Chart;
use crate::systems::chart::labelled;

/// Original-strength columns of the table: 2, 3-4, 5-6, 7-9, 10-14, 15+.
pub const STRENGTH_BANDS: [Band; 6] = [
    Band::new(2, 2),
    Band::new(3, 4),
    Band::new(5, 6),
    Band::new(7, 9),
    Band::new(10, 14),
    Band::new(15, i8::MAX),
];

/// Original-morale rows of the table: ≤6, 7, 8.
pub const MORALE_BANDS: [Band; 3] = [Band::new(i8::MIN, 6), Band::new(7, 7), Band::new(8, 8)];

/// Casualty Threshold Table (12.5), both cards: rows original morale ≤6, 7,
/// 8; columns [`STRENGTH_BANDS`]; `None` = NA.
pub const CASUALTY_THRESHOLD: [[Option<u8>; 6]; 3] = [
    [Some(1), Some(1), Some(2), Some(3), Some(4), Some(5)], // ≤6
    [Some(1), Some(2), Some(3), Some(4), Some(5), Some(6)], // 7
    [None, None, Some(4), Some(5), Some(6), Some(7)],       // 8
];

/// The casualty threshold of a unit, or `None` when the card says NA
/// (morale 8 with strength 2-4) or the unit is off the chart (original
/// strength below 2). Morale 9 reads the row of 8, as on every table
/// (docs/rules/mpbs.md, "Morale 9").
pub fn casualty_threshold(original_morale: u8, original_strength: u8) -> Option<u8> {
    let m = MORALE_BANDS
        .iter()
        .position(|b| b.contains(chart_morale(original_morale) as i32))?;
    let s = STRENGTH_BANDS
        .iter()
        .position(|b| b.contains(original_strength as i32))?;
    CASUALTY_THRESHOLD[m][s]
}

/// The Casualty Threshold Table (the same on both cards).
pub fn charts(_edition: Edition) -> Vec<Chart> {
    vec![Chart {
        id: "casualty-threshold",
        title: "Casualty Threshold Table".into(),
        rule: "12.5",
        headers: labelled(
            "Original Morale \\ Original Strength",
            STRENGTH_BANDS.iter().map(|b| b.to_string()),
        ),
        rows: MORALE_BANDS
            .iter()
            .zip(CASUALTY_THRESHOLD)
            .map(|(m, row)| {
                std::iter::once(m.to_string())
                    .chain(
                        row.iter()
                            .map(|c| c.map_or("NA".to_string(), |v| v.to_string())),
                    )
                    .collect()
            })
            .collect(),
        notes: vec![
            "Numbers = casualty threshold of the unit; NA = not applicable".into(),
            "Off the chart (no threshold): original strength 1, original morale 9".into(),
        ],
    }]
}
