//! Where Hakkaa Päälle draws its randomness: TQ tests on 2d6 and single-d6
//! rolls ("step loss on 4+", "commander injured on 6").
//!
//! Every procedure of this system is written once, generic over [`Draw`],
//! and run two ways:
//!
//! - [`Rolled`] draws from any [`Dice`]: two d6 summed for a TQ test, one d6
//!   for a roll. This is what `Procedure::resolve` uses, so the Monte Carlo
//!   sampler and the crate's path enumerator both see real dice.
//! - [`Weighted`] enumerates *results* instead of faces: a TQ test branches
//!   into its (at most four) bands weighted by how many of the 36 rolls fall
//!   in each, a roll into hit or miss. The same `run` is replayed over every
//!   path of results by the crate's [`Enumerator`], odometer style, as it
//!   replays dice (each draw an [`Enumerator::pick`]); a fire resolution
//!   then has at most 256 paths instead of 1.7 million. This is each procedure's `exact` override.
//!
//! The weights come from the very table [`Rolled`] reads (see
//! [`TqTest`]), and the tests check the override against full
//! dice enumeration.

use crate::dice::{Dice, EnumerationError, Enumerator};
use crate::outcome::Leaf;

use super::tq::{Tq, TqTest};

/// A source of TQ tests and d6 rolls.
pub trait Draw {
    /// One TQ test: 2d6 read on the test's table.
    fn test(&mut self, t: &TqTest) -> Tq;
    /// One d6: true when it shows `need` or more (`need` in 2..=6).
    fn roll(&mut self, need: u8) -> bool;
}

/// Draws from real dice.
pub struct Rolled<'a, D: Dice>(pub &'a mut D);

impl<D: Dice> Draw for Rolled<'_, D> {
    #[inline]
    fn test(&mut self, t: &TqTest) -> Tq {
        let sum = self.0.d6() + self.0.d6();
        t.result(sum)
    }
    #[inline]
    fn roll(&mut self, need: u8) -> bool {
        debug_assert!((2..=6).contains(&need));
        self.0.d6() >= need
    }
}

/// Enumerates every path of results with its exact probability: each draw
/// is an [`Enumerator::pick`] among its results, weighted.
pub struct Weighted<'a>(&'a mut Enumerator);

impl Draw for Weighted<'_> {
    fn test(&mut self, t: &TqTest) -> Tq {
        let opts = t.options();
        opts[self.0.pick(opts.len() as u8, |i| opts[i].1)].0
    }
    fn roll(&mut self, need: u8) -> bool {
        assert!((2..=6).contains(&need), "a roll needs 2..=6, not {need}");
        let hit = (7 - need) as f64 / 6.0;
        self.0.pick(2, |i| if i == 0 { hit } else { 1.0 - hit }) == 0
    }
}

/// The exact probability of each of `leaves` leaves of `run`, visiting at
/// most `budget` paths of results.
pub fn exact(
    leaves: usize,
    budget: u64,
    mut run: impl FnMut(&mut Weighted) -> Leaf,
) -> Result<Vec<f64>, EnumerationError> {
    let mut probs = vec![0.0f64; leaves];
    Enumerator::new().for_each(
        budget,
        |e| run(&mut Weighted(e)),
        |_, leaf, p| probs[leaf as usize] += p,
    )?;
    Ok(probs)
}

/// Implements [`crate::procedure::Procedure`] for a procedure written once
/// over [`Draw`]: a type with a `space: OutcomeSpace` field and a
/// `run<W: Draw>(&self, w: &mut W) -> Leaf` method. Monte Carlo rolls real
/// dice through [`Rolled`]; exact enumerates through [`exact`], so both
/// run the same code. `draw_procedure!(T, why)` also gives `T` its `why()`,
/// the `why: Why` field that says how it was built.
macro_rules! draw_procedure {
    ($t:ty, why) => {
        $crate::systems::hakkaa::draw::draw_procedure!($t);
        impl $t {
            /// How the procedure was built, for `pikeshot explain`.
            pub fn why(&self) -> &$crate::systems::hakkaa::explain::why::Why {
                &self.why
            }
        }
    };
    ($t:ty) => {
        impl $crate::procedure::Procedure for $t {
            fn space(&self) -> &$crate::outcome::OutcomeSpace {
                &self.space
            }
            #[inline]
            fn resolve<D: $crate::dice::Dice>(&self, dice: &mut D) -> $crate::outcome::Leaf {
                self.run(&mut $crate::systems::hakkaa::draw::Rolled(dice))
            }
            fn exact(
                &self,
                budget: u64,
            ) -> Option<Result<Vec<f64>, $crate::dice::EnumerationError>> {
                Some($crate::systems::hakkaa::draw::exact(
                    self.space.len(),
                    budget,
                    |w| self.run(w),
                ))
            }
        }
    };
}
pub(crate) use draw_procedure;
