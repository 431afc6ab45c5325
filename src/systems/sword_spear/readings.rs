//! Readings of what the Sword & Spear sheet leaves open
//! (docs/rules/sword-and-spear.md sections 3, 4, 6 and 7), each a switch of
//! the scenario's optional `[rules]` table. The default of each is the
//! reading the docs argue; `pikeshot list sword-and-spear` names them.

use super::combat::{ArmourChoice, ClashRules, CommanderRisk, DiceFrom, Unpaired};
use crate::error::InputError;
use crate::scenario::Fields;
use crate::systems::KeyDoc;
use crate::systems::registry::{flag, named};

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

impl Readings {
    /// Reads the optional `[rules]` table; refuses keys it does not know.
    pub fn from_fields(f: &mut Fields) -> Result<Readings, InputError> {
        use crate::systems::named::read;
        let d = Readings::default();
        let Some(mut r) = f.table("rules")? else {
            return Ok(d);
        };
        let out = Readings {
            later_rounds_impetus: r
                .bool("later_rounds_impetus")?
                .unwrap_or(d.later_rounds_impetus),
            dice_from: read(&mut r, "dice_from", "dice rule")?.unwrap_or(d.dice_from),
            unpaired: read(&mut r, "unpaired", "unpaired rule")?.unwrap_or(d.unpaired),
            armour_choice: read(&mut r, "armour_choice", "armour choice")?
                .unwrap_or(d.armour_choice),
            commander_risk: read(&mut r, "commander_risk", "commander risk rule")?
                .unwrap_or(d.commander_risk),
            mounted_pursue: r.bool("mounted_pursue")?.unwrap_or(d.mounted_pursue),
            bonus_needs_impetus: r
                .bool("bonus_needs_impetus")?
                .unwrap_or(d.bonus_needs_impetus),
        };
        r.finish()?;
        Ok(out)
    }

    /// The switches of the combat mechanism.
    pub fn clash_rules(&self) -> ClashRules {
        ClashRules {
            unpaired: self.unpaired,
            armour_choice: self.armour_choice,
            commander_risk: self.commander_risk,
        }
    }

    /// What `pikeshot list` says of the `[rules]` keys: what each accepts,
    /// its default and what it means, with its section of
    /// docs/rules/sword-and-spear.md.
    pub fn keys() -> Vec<KeyDoc> {
        let d = Readings::default();
        vec![
            flag(
                "later_rounds_impetus",
                d.later_rounds_impetus,
                "Melee Combat Dice, item 1 (docs/rules/sword-and-spear.md 7): false, impetus in a repeated melee's first round only (the charge); true, in later rounds too by the card's conditions",
            ),
            named(
                "dice_from",
                DiceFrom::NAMES,
                d.dice_from.name(),
                "Melee Combat Dice, base (docs/rules/sword-and-spear.md 3): a unit's dice from strength once it has hits",
            ),
            named(
                "unpaired",
                Unpaired::NAMES,
                d.unpaired.name(),
                "Combat Process 3 (docs/rules/sword-and-spear.md 3): dice with no opposing die are ignored, or each is a hit",
            ),
            named(
                "armour_choice",
                ArmourChoice::NAMES,
                d.armour_choice.name(),
                "Effect of Armour (docs/rules/sword-and-spear.md 3): which winning die armour lowers; literal follows hit->test, hit->draw, test->draw to the letter",
            ),
            named(
                "commander_risk",
                CommanderRisk::NAMES,
                d.commander_risk.name(),
                "Risk to Commanders (docs/rules/sword-and-spear.md 6): a commander is at risk when its unit routs or loses all its combat dice, or only when it routs",
            ),
            flag(
                "mounted_pursue",
                d.mounted_pursue,
                "Risk to Commanders (docs/rules/sword-and-spear.md 6): a mounted side that does not rout pursues, so a routed opponent's commander dies on 5+",
            ),
            flag(
                "bonus_needs_impetus",
                d.bonus_needs_impetus,
                "Melee Combat Dice, item 1 (docs/rules/sword-and-spear.md 4): bonus and magic dice are part of impetus and lost with it",
            ),
        ]
    }
}
