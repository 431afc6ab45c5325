//! How each Snaphance roll is made, for `pikeshot explain`: the
//! procedure's table and rule (as `pikeshot list` names them), the dice,
//! the fire dice built line by line and the order test's modifiers as the
//! procedures recorded them, and the exact result of each face.

use super::course::Step;
use super::{fire, melee, morale, orders, pursuit};
use crate::explain::{Explain, Roll, described_roll, labelled_terms, pool_lines};

impl Explain for Step {
    fn roll(&self) -> Roll {
        match self {
            Step::Fire(p) => {
                let mut r = described_roll(self, &fire::INFO, Vec::new());
                r.pool = pool_lines("", p.modifiers());
                r.note(format!("{} dice thrown", p.dice()))
            }
            Step::Melee(_) => described_roll(self, &melee::INFO, Vec::new()),
            Step::Morale(_) => described_roll(self, &morale::INFO, Vec::new()),
            Step::Order(p) => described_roll(self, &orders::INFO, labelled_terms(p.modifiers())),
            Step::Pursuit(_) => described_roll(self, &pursuit::INFO, Vec::new()),
            Step::Pass(_) => Roll::new(
                "no dice",
                "no roll: this step cannot happen in this state",
                "",
                Vec::new(),
            ),
        }
    }
}
