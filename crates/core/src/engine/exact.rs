//! Exact distributions by enumerating every path of die results.

use crate::dice::{EnumerationError, Enumerator, Path};
use crate::outcome::Leaf;
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

/// Every path of die results of one trial of `p` (what was rolled, with
/// its probability) and the leaf it ends in, in enumeration order; an
/// error when there are more than `budget`.
pub fn die_paths<P: Procedure>(p: &P, budget: u64) -> Result<Vec<(Path, Leaf)>, EnumerationError> {
    let mut out = Vec::new();
    Enumerator::new().for_each(
        budget,
        |d| (p.resolve(d), d.current_path()),
        |_, (leaf, path), _| out.push((path, leaf)),
    )?;
    Ok(out)
}
