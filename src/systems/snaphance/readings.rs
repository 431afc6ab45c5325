//! Readings of what the summary sheets leave open (docs/rules/snaphance.md
//! section 2), each a switch of the scenario's optional `[rules]` table. The
//! default of each is the reading `docs/rules/snaphance.md` section 2 argues.

use crate::error::InputError;
use crate::scenario::Fields;
use crate::systems::KeyDoc;
use crate::systems::named::named_enum;

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

/// The `[rules]` keys: what each accepts, its default and what it means.
pub fn keys() -> Vec<KeyDoc> {
    use crate::systems::registry::named;
    let d = Readings::default();
    vec![
        named(
            "fives",
            Fives::NAMES,
            d.fives.name(),
            "Firing, Melee: what \"hit on 6 or double 5\" makes of the fives",
        ),
        named(
            "sp_loss",
            SpLoss::NAMES,
            d.sp_loss.name(),
            "8.0: SP a failed morale test costs before the caps",
        ),
        named(
            "pike_ranks",
            PikeRanks::NAMES,
            d.pike_ranks.name(),
            "Melee: whether the 2nd and 3rd ranks of pikes add their dice each or once together",
        ),
        named(
            "horse_vs_pikes",
            HorseVsPikes::NAMES,
            d.horse_vs_pikes.name(),
            "Melee: when horse lose the Charge Bonus against pikes (frontal only, or always)",
        ),
        named(
            "new_disorder",
            NewDisorder::NAMES,
            d.new_disorder.name(),
            "Melee: when disorder gained by fighting takes effect",
        ),
    ]
}

impl Readings {
    /// Reads the optional `[rules]` table of a scenario.
    pub fn from_fields(f: &mut Fields) -> Result<Readings, InputError> {
        let Some(mut r) = f.table("rules")? else {
            return Ok(Readings::default());
        };
        let d = Readings::default();
        let out = Readings {
            fives: r
                .named(
                    "fives",
                    "reading of fives",
                    Fives::from_name,
                    &Fives::names(),
                )?
                .unwrap_or(d.fives),
            sp_loss: r
                .named(
                    "sp_loss",
                    "SP loss reading",
                    SpLoss::from_name,
                    &SpLoss::names(),
                )?
                .unwrap_or(d.sp_loss),
            pike_ranks: r
                .named(
                    "pike_ranks",
                    "pike ranks reading",
                    PikeRanks::from_name,
                    &PikeRanks::names(),
                )?
                .unwrap_or(d.pike_ranks),
            horse_vs_pikes: r
                .named(
                    "horse_vs_pikes",
                    "reading",
                    HorseVsPikes::from_name,
                    &HorseVsPikes::names(),
                )?
                .unwrap_or(d.horse_vs_pikes),
            new_disorder: r
                .named(
                    "new_disorder",
                    "reading",
                    NewDisorder::from_name,
                    &NewDisorder::names(),
                )?
                .unwrap_or(d.new_disorder),
        };
        r.finish()?;
        Ok(out)
    }
}
