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
