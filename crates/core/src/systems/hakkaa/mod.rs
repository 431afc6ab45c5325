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
pub mod decision;
pub mod draw;
pub mod explain;
pub mod fire;
pub mod fleeing;
pub mod movement;
pub mod pair;
pub mod plan;
pub mod reaction;
pub mod readings;
pub mod repeat;
pub mod row;
pub mod scenario;
pub mod tq;
pub mod uncontrolled;
pub mod unit;
pub mod visibility;

pub use unit::{Unit, UnitClass, UnitState};

use crate::engine::KernelMode;
use crate::error::InputError;
use crate::scenario::Fields;
use crate::systems::BuiltCourses;
use crate::systems::Chart;
use crate::systems::chart::{headers, labelled};

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
        headers: headers(&["Phase"]),
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

fn casualties_chart() -> Vec<Chart> {
    use casualties::{Level, RECEIVING_CASUALTIES};
    vec![Chart {
        id: "receiving-casualties",
        title: "Receiving casualties table".into(),
        rule: "Close Combat",
        headers: row::result_headers(""),
        rows: Level::ALL
            .iter()
            .zip(RECEIVING_CASUALTIES)
            .map(|(l, r)| {
                labelled(l.abbreviation(), r.iter().map(|c| c.cell().to_string()))
            })
            .collect(),
        notes: vec![
            "The unit hit tests its TQ once per casualty result (2 LC and 2 C: twice)".into(),
            "- unit status unchanged; D: Fall Back if Disordered, Disorder if not; F: Flee if Disordered, Fall Back if not".into(),
            "X (X* in the key): Step Loss; Flee if Disordered, Fall Back if not".into(),
        ],
    }]
}

/// Hakkaa Päälle in the registry of rule systems.
pub struct Hakkaa;

impl crate::systems::RuleSystem for Hakkaa {
    fn id(&self) -> &'static str {
        "hakkaa"
    }
    fn name(&self) -> &'static str {
        "Hakkaa Päälle (quick reference sheet)"
    }
    fn procedures(&self) -> &'static [crate::systems::ProcedureInfo] {
        course::PROCEDURES
    }
    fn charts(&self, _edition: Option<&str>) -> Vec<Chart> {
        charts()
    }
    fn vocabulary(&self) -> String {
        use unit::{CommanderKind, Formation, Status};
        let mut out = String::from(
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
        out.push_str(&format!(
            "measures of courses (own-/enemy-morale: 0 steady, 1 disordered or fell back, 2 fled, 3 eliminated; hits: step losses): {}, {} (with a charge), {} (engagements), {} (one `fire` step, no repeat: 0 did not fire, 1 NE, 2 LC, 3 2 LC, 4 C, 5 2 C, 6 HC)\n",
            course::COURSE_MEASURES.join(", "),
            course::CLOSE_COMBATS,
            course::TURNS,
            fire::FIRE_RESULT
        ));
        out
    }
    fn unit_keys(&self) -> Vec<crate::systems::KeyDoc> {
        unit::keys::all()
    }
    fn repeats(&self) -> &'static crate::systems::Repeats {
        &repeat::REPEATS
    }
    fn rules_keys(&self) -> Vec<crate::systems::KeyDoc> {
        use crate::systems::rules::RulesTable;
        tq::Readings::keys()
    }
    fn explain(&self, f: &mut Fields) -> Result<crate::explain::Explained, InputError> {
        scenario::explain(f)
    }
    fn build_courses(&self, f: &mut Fields, mode: KernelMode) -> Result<BuiltCourses, InputError> {
        scenario::build_courses(f, mode)
    }
    fn decide(
        &self,
        f: &mut Fields,
        ask: &crate::scenario::decision::DecideAsk,
    ) -> Result<Vec<crate::engine::decide::summary::Decided>, InputError> {
        decision::decide(f, ask)
    }
    fn reads_decisions(&self) -> bool {
        true
    }
}
