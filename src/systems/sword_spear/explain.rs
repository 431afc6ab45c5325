//! How each Sword & Spear roll is made, for `pikeshot explain`: the
//! procedure's table and rule (as `pikeshot list` names them), the dice
//! pools built line by line as the procedures recorded them, and the exact
//! result of each face.

use super::course::Step;
use super::{activation, commanders, discipline, melee, shooting};
use crate::explain::{Explain, Roll, described_roll, pool_lines};

impl Explain for Step {
    fn roll(&self) -> Roll {
        match self {
            Step::Activation(_) => described_roll(self, &activation::INFO, Vec::new()),
            Step::DisciplineTest(_) => described_roll(self, &discipline::INFO, Vec::new()),
            Step::Shooting(p) => {
                let mut r = described_roll(self, &shooting::INFO, Vec::new());
                r.pool = pool_lines("shooter: ", p.firer_dice());
                r
            }
            Step::Melee(p) => {
                let mut r = described_roll(self, &melee::INFO, Vec::new());
                let [a, b] = p.dice();
                r.pool = pool_lines("first side: ", &a.entries);
                r.pool.extend(pool_lines("second side: ", &b.entries));
                r.note(format!(
                    "dice: first side {} ({} impetus), second side {} ({} impetus)",
                    a.total, a.impetus, b.total, b.impetus
                ))
            }
            Step::CommanderRisk(_) => described_roll(self, &commanders::INFO, Vec::new()),
        }
    }
}
