//! The one trait every rule procedure implements.

use crate::dice::{Dice, EnumerationError};
use crate::outcome::{Leaf, OutcomeSpace};

/// A dice procedure from a card, built once from its scenario inputs
/// (modifiers summed and clamped, table columns chosen) so that resolving it
/// only rolls and indexes.
///
/// `resolve` is generic over [`Dice`]: the same code runs under the Monte
/// Carlo [`Sampler`](crate::dice::Sampler) and the exact
/// [`Enumerator`](crate::dice::Enumerator). It must be deterministic given its
/// dice and must not allocate.
///
/// # Example: hit on 5+
///
/// One d6; a 5 or a 6 hits. The same `resolve` is rolled by the sampler and
/// enumerated exactly:
///
/// ```
/// # extern crate pikeshot_core as pikeshot;
/// use pikeshot::engine::exact::exact;
/// use pikeshot::{Dice, Leaf, OutcomeSpace, Procedure, Sampler};
///
/// struct HitOn5 { space: OutcomeSpace }
///
/// impl Procedure for HitOn5 {
///     fn space(&self) -> &OutcomeSpace { &self.space }
///     fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
///         let hit = dice.d(6) >= 5; // faces read 1..=6
///         self.space.leaf(usize::from(hit), &[])
///     }
/// }
///
/// let p = HitOn5 { space: OutcomeSpace::from_labels(&["miss", "hit"], vec![]) };
///
/// // Exact: every path of the die, weighted.
/// let probs = exact(&p, 100).unwrap();
/// assert!((probs[1] - 1.0 / 3.0).abs() < 1e-12);
///
/// // Monte Carlo: the sampler rolls the same code.
/// let mut dice = Sampler::new(7);
/// let n = 60_000;
/// let hits = (0..n).filter(|_| p.resolve(&mut dice) == 1).count() as f64;
/// let se = (1.0f64 / 3.0 * 2.0 / 3.0 / n as f64).sqrt();
/// assert!((hits / n as f64 - 1.0 / 3.0).abs() < 4.5 * se);
/// ```
pub trait Procedure: Sync + Send {
    /// The categories and measures `resolve` reports.
    fn space(&self) -> &OutcomeSpace;
    /// Resolves the procedure once and returns the leaf it ends in.
    fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf;
    /// Exact leaf probabilities by a method of the procedure's own (such as
    /// propagating a distribution over states), or `None` to enumerate every
    /// path of `resolve`.
    fn exact(&self, budget: u64) -> Option<Result<Vec<f64>, EnumerationError>> {
        let _ = budget;
        None
    }
}
