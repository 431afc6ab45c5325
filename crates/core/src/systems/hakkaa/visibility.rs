//! The Visibility chart: how far units can see, in paces, by visibility
//! conditions and the amount of action. A lookup, not a roll.

use crate::systems::Chart;
use crate::systems::chart::labelled;

/// Visibility conditions, the chart's rows.
pub const CONDITIONS: [&str; 4] = ["Perfect", "Normal", "Bad", "Very Bad"];

/// Amount of action, the chart's columns.
pub const ACTION: [&str; 4] = ["No Action", "Light Action", "Medium Action", "Heavy Action"];

/// Visibility (paces): rows Perfect, Normal, Bad, Very Bad; columns no,
/// light, medium, heavy action.
pub const VISIBILITY: [[u16; 4]; 4] = [
    [1600, 1200, 800, 600],
    [1200, 800, 600, 300],
    [800, 600, 300, 150],
    [300, 150, 100, 50],
];

/// The visibility in paces for a condition and an amount of action, by name
/// as on the chart (case-insensitive).
pub fn visibility(condition: &str, action: &str) -> Option<u16> {
    let r = CONDITIONS
        .iter()
        .position(|c| c.eq_ignore_ascii_case(condition))?;
    let c = ACTION.iter().position(|a| a.eq_ignore_ascii_case(action))?;
    Some(VISIBILITY[r][c])
}

/// The Visibility chart.
pub fn charts() -> Vec<Chart> {
    let mut headers = vec![String::new()];
    headers.extend(ACTION.iter().map(|s| s.to_string()));
    vec![Chart {
        id: "visibility",
        title: "Visibility".into(),
        rule: "Visibility Phase",
        headers,
        rows: CONDITIONS
            .iter()
            .zip(VISIBILITY)
            .map(|(c, r)| labelled(c, r.iter().map(|v| v.to_string())))
            .collect(),
        notes: vec!["Paces".into()],
    }]
}
