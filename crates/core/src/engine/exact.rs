//! Exact distributions by enumerating every path of die results.

use crate::dice::{EnumerationError, Enumerator};
use crate::procedure::Procedure;

/// Default leaf budget for exact enumeration.
pub const DEFAULT_BUDGET: u64 = 10_000_000;

/// The exact probability of every leaf of `p`, or an error when more than
/// `budget` paths would be needed.
pub fn exact<P: Procedure>(p: &P, budget: u64) -> Result<Vec<f64>, EnumerationError> {
    if let Some(r) = p.exact(budget) {
        return r;
    }
    let mut probs = vec![0.0f64; p.space().len()];
    Enumerator::new().for_each(
        budget,
        |d| p.resolve(d),
        |_, leaf, w| probs[leaf as usize] += w,
    )?;
    Ok(probs)
}
