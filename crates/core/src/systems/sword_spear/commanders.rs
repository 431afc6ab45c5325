//! Risk to Commanders: when a unit with a commander loses all its combat
//! dice or routs, one d6 kills the commander on 5+ if the unit routed with
//! pursuit by mounted troops, otherwise on a 6.

use super::named_enum;
use super::unit::{Unit, find_unit, finish_step};
use crate::dice::Dice;
use crate::error::InputError;
use crate::outcome::{Leaf, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::Fields;
use crate::systems::Key;
use crate::systems::chart::headers;
use crate::systems::{Chart, KeyDoc, ProcedureInfo};

named_enum! {
    /// The situations of the Risk to Commanders table.
    Situation {
        /// Routed with pursuit by mounted troops.
        RoutedPursuedByMounted = "routed-pursued-by-mounted",
        /// Any other loss of all combat dice or rout.
        Otherwise = "otherwise",
    }
}

/// One row of the Risk to Commanders table: the lowest d6 that kills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RiskRow {
    /// The situation.
    pub situation: Situation,
    /// As on the sheet.
    pub label: &'static str,
    /// The commander is killed on this roll or more.
    pub kill_on: u8,
}

/// Risk to Commanders (unit loses all combat dice or routs), card order.
pub const RISK: [RiskRow; 2] = [
    RiskRow {
        situation: Situation::RoutedPursuedByMounted,
        label: "Routed with pursuit by mounted",
        kill_on: 5,
    },
    RiskRow {
        situation: Situation::Otherwise,
        label: "Otherwise",
        kill_on: 6,
    },
];

/// The lowest d6 that kills, routed with pursuit by mounted or otherwise.
pub fn kill_on(pursued_by_mounted: bool) -> u8 {
    let s = if pursued_by_mounted {
        Situation::RoutedPursuedByMounted
    } else {
        Situation::Otherwise
    };
    RISK.iter()
        .find(|r| r.situation == s)
        .map(|r| r.kill_on)
        .expect("both situations are on the table")
}

/// Outcome labels of a commander risk roll.
pub const OUTCOMES: [&str; 2] = ["commander killed", "commander survives"];

/// One roll on the Risk to Commanders table.
#[derive(Clone, Debug)]
pub struct CommanderRisk {
    space: OutcomeSpace,
    kill_on: u8,
}

/// `situation`, declared once: its doc and its reader.
pub(crate) const SITUATION: Key<Situation> =
    Key::one_of("situation", "situation", "when the commander is at risk").or("otherwise");

/// What `pikeshot list` says of the commander risk roll.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "commander-risk",
    rule: "Risk to Commanders",
    summary: "One d6 for a commander whose unit lost all its combat dice or routed: killed on 5+ (routed, pursued by mounted) or 6",
    keys: &[
        KeyDoc::unit("unit", "required: the unit (it must have a `commander`)"),
        SITUATION.doc(),
    ],
    outcomes: &OUTCOMES,
    measures: &[],
};

impl CommanderRisk {
    /// The roll for `situation`.
    pub fn new(situation: Situation) -> CommanderRisk {
        CommanderRisk {
            space: OutcomeSpace::from_labels(&OUTCOMES, vec![]),
            kill_on: kill_on(situation == Situation::RoutedPursuedByMounted),
        }
    }

    /// Builds the step from its keys (in [`INFO`]).
    pub fn from_step(f: &mut Fields, units: &[Unit]) -> Result<CommanderRisk, InputError> {
        let unit = find_unit(f, "unit", units)?;
        if unit.commander.is_none() {
            return Err(f.err(
                "unit",
                format!(
                    "{} has no `commander`: there is no commander at risk",
                    unit.name
                ),
            ));
        }
        let s = SITUATION.read(f)?.unwrap_or(Situation::Otherwise);
        finish_step(f, INFO.keys)?;
        Ok(CommanderRisk::new(s))
    }

    /// The lowest roll that kills.
    pub fn kill_on(&self) -> u8 {
        self.kill_on
    }
}

impl Procedure for CommanderRisk {
    fn space(&self) -> &OutcomeSpace {
        &self.space
    }
    #[inline]
    fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
        if dice.d6() >= self.kill_on { 0 } else { 1 }
    }
}

/// Risk to Commanders, for `pikeshot tables`.
pub fn charts() -> Vec<Chart> {
    vec![Chart {
        id: "risk-to-commanders",
        title: "Risk to Commanders (unit loses all combat dice or routs)".into(),
        rule: "Quick Reference Sheet",
        headers: headers(&["Situation", "Roll to Kill"]),
        rows: RISK
            .iter()
            .map(|r| {
                vec![
                    r.label.to_string(),
                    if r.kill_on == 6 {
                        "6".to_string()
                    } else {
                        format!("{}+", r.kill_on)
                    },
                ]
            })
            .collect(),
        notes: vec![
            "Loses all combat dice (reading): every die it placed is beaten and it placed no more dice than its opponent".into(),
            "Pursuit by mounted (reading): a mounted opponent that does not rout itself pursues (`[rules] mounted_pursue = false` to stop it)".into(),
        ],
    }]
}
