//! General Movement Rates: paces per move by unit type, and the additions.
//! A lookup, not a roll.

use crate::systems::Chart;
use crate::systems::chart::headers;

/// A movement rate. Artillery prints two figures, "unlimbered / limbered"
/// (read so: only Very Light Artillery moves unlimbered); `None` is "-".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// The row as printed.
    pub label: &'static str,
    /// Paces unlimbered (or the only figure for non-artillery).
    pub paces: Option<u16>,
    /// Artillery only: paces limbered.
    pub limbered: Option<u16>,
}

const fn rate(label: &'static str, paces: u16) -> Rate {
    Rate {
        label,
        paces: Some(paces),
        limbered: None,
    }
}

const fn guns(label: &'static str, unlimbered: Option<u16>, limbered: u16) -> Rate {
    Rate {
        label,
        paces: unlimbered,
        limbered: Some(limbered),
    }
}

/// General Movement Rates (paces).
pub const RATES: [Rate; 9] = [
    rate("Commanders", 350),
    rate("HI and Levy Infantry", 100),
    rate("Other Infantry", 150),
    rate("HBC/HQ", 200),
    rate("HL/LBC", 250),
    rate("EH/LC/SC", 300),
    guns("Very Light Artillery", Some(100), 200),
    guns("Light & Medium Artillery", None, 200),
    guns("Heavy Artillery", None, 150),
];

/// Additions to the movement rate (paces).
pub const ADDITIONS: [(&str, u16); 7] = [
    ("Skirmishing", 50),
    ("Column of March", 50),
    ("CoM or Limbered Artillery following road", 50),
    ("Charging units", 50),
    ("Fleeing units", 50),
    ("Limbered Horse Artillery", 50),
    ("Mounted Infantry (only on march moves)", 50),
];

impl Rate {
    /// The rate as printed: "350 paces", "100 / 200 paces", "- / 150 paces".
    pub fn cell(&self) -> String {
        let p = |v: Option<u16>| v.map_or("-".to_string(), |v| v.to_string());
        match self.limbered {
            None => format!("{} paces", p(self.paces)),
            Some(l) => format!("{} / {l} paces", p(self.paces)),
        }
    }
}

/// The General Movement Rates chart.
pub fn charts() -> Vec<Chart> {
    let mut rows: Vec<Vec<String>> = RATES
        .iter()
        .map(|r| vec![r.label.to_string(), r.cell()])
        .collect();
    rows.extend(
        ADDITIONS
            .iter()
            .map(|(l, v)| vec![l.to_string(), format!("+{v} paces")]),
    );
    vec![Chart {
        id: "movement",
        title: "General Movement Rates".into(),
        rule: "Movement",
        headers: headers(&["Unit", "Move"]),
        rows,
        notes: vec!["Artillery: unlimbered / limbered".into()],
    }]
}
