//! Hakkaa Päälle (wargames rules for the age of Gustavus II Adolphus, Tilly
//! and Koniecpolski), from its quick reference sheet.
//!
//! Every roll is a TQ test: 2d6 on the row of the unit's grade, read as
//! DS / S / F / DF ([`tq`]). Fire, closing, charge reaction, close combat,
//! fleeing and uncontrolled units each read their table with that result;
//! visibility and movement are lookups. Every chart is data headed by its
//! section name; readings of what the card leaves open are in
//! `docs/rules/hakkaa.md`.
//!
//! The procedures are written once over [`draw::Draw`]: rolled with real dice
//! for Monte Carlo, and enumerated by TQ result and roll outcome for their
//! exact distributions.

pub mod casualties;
pub mod close_combat;
pub mod closing;
pub mod course;
pub mod draw;
pub mod fire;
pub mod fleeing;
pub mod movement;
pub mod pair;
pub mod plan;
pub mod reaction;
pub mod scenario;
pub mod tq;
pub mod uncontrolled;
pub mod unit;
pub mod visibility;

pub use unit::{Unit, UnitClass, UnitState};

use crate::systems::Chart;

/// The Battle sequence of play, in order.
pub const SEQUENCE: [&str; 8] = [
    "Visibility Phase",
    "Random Events Phase",
    "Initiative Determination Phase",
    "Orders Phase",
    "Fire Phase",
    "Closing Phase",
    "Close Combat Phase",
    "Army Morale Phase",
];

/// Every chart of the card, in card order, for `pikeshot tables hakkaa`.
pub fn charts() -> Vec<Chart> {
    let mut c = vec![Chart {
        id: "sequence",
        title: "Battle sequence of play".into(),
        rule: "Sequence of play",
        headers: vec!["Phase".into()],
        rows: SEQUENCE.iter().map(|s| vec![s.to_string()]).collect(),
        notes: vec![],
    }];
    c.extend(tq::charts());
    c.extend(visibility::charts());
    c.extend(movement::charts());
    c.extend(fleeing::charts());
    c.extend(uncontrolled::charts());
    c.extend(reaction::charts());
    c.extend(fire::charts());
    c.extend(closing::charts());
    c.extend(close_combat::charts());
    c.extend(casualties_chart());
    c
}

/// The charts for `pikeshot tables hakkaa`: the card has no editions, so
/// `--edition` is refused.
pub fn charts_for(edition: Option<&str>) -> Result<Vec<Chart>, crate::error::Error> {
    match edition {
        None => Ok(charts()),
        Some(e) => Err(crate::error::InputError::new(format!(
            "Hakkaa Päälle has one quick reference sheet and no editions; drop `--edition {e}`"
        ))
        .key("--edition")
        .into()),
    }
}

fn casualties_chart() -> Vec<Chart> {
    use casualties::{Level, RECEIVING_CASUALTIES};
    vec![Chart {
        id: "receiving-casualties",
        title: "Receiving casualties table".into(),
        rule: "Close Combat",
        headers: ["", "DS", "S", "F", "DF"].map(String::from).to_vec(),
        rows: Level::ALL
            .iter()
            .zip(RECEIVING_CASUALTIES)
            .map(|(l, r)| {
                std::iter::once(l.abbreviation().to_string())
                    .chain(r.iter().map(|c| c.cell().to_string()))
                    .collect()
            })
            .collect(),
        notes: vec![
            "The unit hit tests its TQ once per casualty result (2 LC and 2 C: twice)".into(),
            "- unit status unchanged; D: Fall Back if Disordered, Disorder if not; F: Flee if Disordered, Fall Back if not".into(),
            "X (X* in the key): Step Loss; Flee if Disordered, Fall Back if not".into(),
        ],
    }]
}

/// What `pikeshot list hakkaa` prints.
pub fn list() -> String {
    use unit::{CommanderKind, Formation, Status};
    let mut out = String::from("hakkaa — Hakkaa Päälle (quick reference sheet; no editions)\n");
    out.push_str("procedures (scenario steps):\n");
    out.push_str(&crate::systems::describe_procedures(course::PROCEDURES));
    out.push_str(
        "unit classes (`type`; the card's abbreviations, which it leaves undefined except EH, read as input classes):\n",
    );
    for c in UnitClass::ALL {
        out.push_str(&format!("  {:<10} {}\n", c.name(), c.describe()));
    }
    let grades: Vec<String> = tq::Grade::ALL
        .iter()
        .map(|g| format!("{} ({})", g.name(), g.tq()))
        .collect();
    out.push_str(&format!(
        "grades (`tq`, a name or its number): {}\n",
        grades.join(", ")
    ));
    out.push_str(&format!("formations: {}\n", Formation::names().join(", ")));
    out.push_str(&format!(
        "statuses (0..4 in own-status): {}, (eliminated)\n",
        Status::names().join(", ")
    ));
    out.push_str(&format!(
        "commanders: {}\n",
        CommanderKind::names().join(", ")
    ));
    out.push_str("tq_modifier_mode (top level): row (default: the modifiers shift the grade row) | roll (they shift the 2d6 roll)\n");
    out.push_str("double_results (top level): two-tests (default: 2 LC and 2 C are two results, each tested) | one-test\n");
    out.push_str("unit keys: type, tq, steps, formation, limbered, status, fatigued, commander, charismatic, field_works, cc_value, fp | fp_per_step, extra_tq\n");
    out.push_str(&format!(
        "course keys: name, steps, own, enemy (unit names: the reported pair), turns (1..{}: an engagement), stop_when ({}; default target-fled, own-fled; one unit: own-rallied, own-eliminated)\n",
        scenario::MAX_TURNS,
        course::STOP_NAMES.join(", ")
    ));
    out.push_str(&format!(
        "measures of courses (own-/enemy-morale: 0 steady, 1 disordered or fell back, 2 fled, 3 eliminated; hits: step losses): {}, {} (with a charge), {} (engagements)\n",
        course::COURSE_MEASURES.join(", "),
        course::CLOSE_COMBATS,
        course::TURNS
    ));
    let ids: Vec<&str> = charts().iter().map(|c| c.id).collect();
    out.push_str(&format!(
        "charts (pikeshot tables hakkaa): {}\n",
        ids.join(", ")
    ));
    out
}
