//! Readings of what the summary sheets leave open (docs/rules/snaphance.md
//! section 2), each a switch of the scenario's optional `[rules]` table. The
//! default of each is the reading `docs/rules/snaphance.md` section 2 argues.

use crate::systems::named::named_enum;
use crate::systems::rules::{RulesTable, Switches};

named_enum! {
    /// "Hit on 6 or double 5" (Firing, Melee): what the fives score.
    Fives {
        /// Each pair of 5s scores one hit; an odd 5 nothing (docs/rules/snaphance.md section 2).
        Pair = "pair",
        /// When two or more 5s show, every 5 hits.
        AllIfPair = "all-if-pair",
        /// Every 5 hits (a hit on 5+).
        Each = "each",
        /// Only 6s hit.
        Ignore = "none",
    }
}

impl Fives {
    /// The hits scored by `sixes` 6s and `fives` 5s.
    #[inline]
    pub fn hits(self, sixes: u32, fives: u32) -> u32 {
        sixes
            + match self {
                Fives::Pair => fives / 2,
                Fives::AllIfPair => {
                    if fives >= 2 {
                        fives
                    } else {
                        0
                    }
                }
                Fives::Each => fives,
                Fives::Ignore => 0,
            }
    }
}

named_enum! {
    /// How many SP a failed morale test costs before the caps (8.0).
    SpLoss {
        /// The roll minus the adjusted morale, at least 1 (docs/rules/snaphance.md section 2,
        /// the Impetus reading).
        Difference = "difference",
        /// One SP per failed test.
        One = "one",
    }
}

named_enum! {
    /// "+1D6 2nd and 3rd rank of pikes vs foot, +2D6 vs horse" (Melee).
    PikeRanks {
        /// Each of the 2nd and 3rd ranks adds the dice.
        Each = "each",
        /// The 2nd and 3rd ranks together add the dice once.
        Together = "together",
    }
}

named_enum! {
    /// "No Charge Bonus horse vs Pikes, P&S, Tercio" (Melee): printed under
    /// "Pikes [if fighting frontally only]".
    HorseVsPikes {
        /// Only when the pikes fight frontally.
        Frontal = "frontal",
        /// Whatever the aspect.
        Always = "always",
    }
}

named_enum! {
    /// When disorder the sheets give for fighting ("disorder if fighting
    /// enemy stand in woods", "−2D6 and disorder mounted attacking
    /// defences", a flank charge from behind the front…) takes effect.
    NewDisorder {
        /// At once: the stand fights and tests morale disordered.
        ThisMelee = "this-melee",
        /// After the melee round: it counts from the next round on.
        AfterMelee = "after-melee",
    }
}

/// The readings in force for a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Readings {
    /// What the fives score.
    pub fives: Fives,
    /// SP lost on a failed morale test.
    pub sp_loss: SpLoss,
    /// How pike ranks add dice.
    pub pike_ranks: PikeRanks,
    /// When horse lose the Charge Bonus against pikes.
    pub horse_vs_pikes: HorseVsPikes,
    /// When disorder gained by fighting counts.
    pub new_disorder: NewDisorder,
}

impl Default for Readings {
    fn default() -> Readings {
        Readings {
            fives: Fives::Pair,
            sp_loss: SpLoss::Difference,
            pike_ranks: PikeRanks::Each,
            horse_vs_pikes: HorseVsPikes::Frontal,
            new_disorder: NewDisorder::ThisMelee,
        }
    }
}

impl RulesTable for Readings {
    fn switches(s: &mut Switches<Self>) {
        s.named(
            "fives",
            "reading of fives",
            "Firing, Melee: what \"hit on 6 or double 5\" makes of the fives",
            |d| &mut d.fives,
        );
        s.named(
            "sp_loss",
            "SP loss reading",
            "8.0: SP a failed morale test costs before the caps",
            |d| &mut d.sp_loss,
        );
        s.named(
            "pike_ranks",
            "pike ranks reading",
            "Melee: whether the 2nd and 3rd ranks of pikes add their dice each or once together",
            |d| &mut d.pike_ranks,
        );
        s.named(
            "horse_vs_pikes",
            "reading",
            "Melee: when horse lose the Charge Bonus against pikes (frontal only, or always)",
            |d| &mut d.horse_vs_pikes,
        );
        s.named(
            "new_disorder",
            "reading",
            "Melee: when disorder gained by fighting takes effect",
            |d| &mut d.new_disorder,
        );
    }
}
