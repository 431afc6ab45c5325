//! How each Hakkaa Päälle roll is made, for `pikeshot explain`: the
//! procedure's table and rule (as `pikeshot list` names them), the dice,
//! the TQ modifiers the test recorded, and the exact result of each face.

use super::course::{CHARGE_INFO, Step};
use super::{close_combat, closing, fire, fleeing, reaction, tq, uncontrolled};
use crate::explain::{Explain, Roll, described_roll, labelled_terms};

impl Explain for Step {
    fn roll(&self) -> Roll {
        let _ = &CHARGE_INFO;
        match self {
            Step::Tq(p) => described_roll(self, &tq::INFO, labelled_terms(p.modifiers())).note(
                "TQ modifiers shift the grade row, or the 2d6 roll ([rules] tq_modifier_mode)",
            ),
            Step::Fire(_) => described_roll(self, &fire::INFO, Vec::new()),
            Step::Closing(_) => described_roll(self, &closing::INFO, Vec::new()),
            Step::Reaction(_) => described_roll(self, &reaction::INFO, Vec::new()),
            Step::CloseCombat(_) => described_roll(self, &close_combat::INFO, Vec::new()),
            Step::Fleeing(_) => described_roll(self, &fleeing::INFO, Vec::new()),
            Step::Uncontrolled(_) => described_roll(self, &uncontrolled::INFO, Vec::new()),
            Step::Skip(_) => Roll::new(
                "no dice",
                "no roll: this step does not happen in this state",
                "",
                Vec::new(),
            ),
        }
    }
}
