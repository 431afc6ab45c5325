//! Readings of what the Sword & Spear sheet leaves open
//! (docs/rules/sword-and-spear.md sections 3, 4, 6 and 7), each a switch of
//! the scenario's optional `[rules]` table. The default of each is the
//! reading the docs argue; `pikeshot list sword-and-spear` names them.

use super::combat::{ArmourChoice, ClashRules, CommanderRisk, DiceFrom, Unpaired};
use crate::systems::rules::{RulesTable, Switches};

/// The readings in force for a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Readings {
    /// Impetus in a repeated melee's later rounds too, by the card's
    /// conditions (default: the first round only).
    pub later_rounds_impetus: bool,
    /// Dice from strength once a unit has hits.
    pub dice_from: DiceFrom,
    /// Dice with no opposing die.
    pub unpaired: Unpaired,
    /// Which of the opponent's winning dice armour lowers.
    pub armour_choice: ArmourChoice,
    /// When a commander is at risk.
    pub commander_risk: CommanderRisk,
    /// A mounted side that does not rout pursues a routed opponent (its
    /// commander dies on 5+).
    pub mounted_pursue: bool,
    /// Bonus and magic dice are part of impetus and lost with it.
    pub bonus_needs_impetus: bool,
}

impl Default for Readings {
    fn default() -> Readings {
        let c = ClashRules::default();
        Readings {
            later_rounds_impetus: false,
            dice_from: DiceFrom::StrengthLessHits,
            unpaired: c.unpaired,
            armour_choice: c.armour_choice,
            commander_risk: c.commander_risk,
            mounted_pursue: true,
            bonus_needs_impetus: true,
        }
    }
}

/// The step keys these readings were once, refused on a step with a
/// message naming the `[rules]` key.
pub const MOVED_STEP_KEYS: [&str; 7] = [
    "later_rounds_impetus",
    "dice_from",
    "unpaired",
    "armour_choice",
    "commander_risk",
    "mounted_pursue",
    "bonus_needs_impetus",
];

impl RulesTable for Readings {
    /// The switches, each with its section of docs/rules/sword-and-spear.md.
    fn switches(s: &mut Switches<Self>) {
        s.flag(
            "later_rounds_impetus",
            "Melee Combat Dice, item 1 (docs/rules/sword-and-spear.md 7): false, impetus in a repeated melee's first round only (the charge); true, in later rounds too by the card's conditions",
            |d| &mut d.later_rounds_impetus,
        );
        s.named(
            "dice_from",
            "dice rule",
            "Melee Combat Dice, base (docs/rules/sword-and-spear.md 3): a unit's dice from strength once it has hits",
            |d| &mut d.dice_from,
        );
        s.named(
            "unpaired",
            "unpaired rule",
            "Combat Process 3 (docs/rules/sword-and-spear.md 3): dice with no opposing die are ignored, or each is a hit",
            |d| &mut d.unpaired,
        );
        s.named(
            "armour_choice",
            "armour choice",
            "Effect of Armour (docs/rules/sword-and-spear.md 3): which winning die armour lowers; literal follows hit->test, hit->draw, test->draw to the letter",
            |d| &mut d.armour_choice,
        );
        s.named(
            "commander_risk",
            "commander risk rule",
            "Risk to Commanders (docs/rules/sword-and-spear.md 6): a commander is at risk when its unit routs or loses all its combat dice, or only when it routs",
            |d| &mut d.commander_risk,
        );
        s.flag(
            "mounted_pursue",
            "Risk to Commanders (docs/rules/sword-and-spear.md 6): a mounted side that does not rout pursues, so a routed opponent's commander dies on 5+",
            |d| &mut d.mounted_pursue,
        );
        s.flag(
            "bonus_needs_impetus",
            "Melee Combat Dice, item 1 (docs/rules/sword-and-spear.md 4): bonus and magic dice are part of impetus and lost with it",
            |d| &mut d.bonus_needs_impetus,
        );
    }
}

impl Readings {
    /// The switches of the combat mechanism.
    pub fn clash_rules(&self) -> ClashRules {
        ClashRules {
            unpaired: self.unpaired,
            armour_choice: self.armour_choice,
            commander_risk: self.commander_risk,
        }
    }
}
