//! A test of one d6 read on a table (Morale, Order and Pursuit tests): the
//! leaf of each face, worked out once when the procedure is built, so that
//! resolving it is one roll and one index.

use crate::dice::Dice;
use crate::outcome::Leaf;

/// The leaf each face of one d6 ends in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OneDie([Leaf; 6]);

impl OneDie {
    /// The leaf of each face from 1 to 6, as `leaf_of(face)` reads it.
    pub fn new(leaf_of: impl FnMut(u8) -> Leaf) -> OneDie {
        let mut leaf_of = leaf_of;
        OneDie(std::array::from_fn(|i| leaf_of(i as u8 + 1)))
    }
    /// The leaf of `face` (1 to 6), without rolling.
    pub fn face(&self, face: u8) -> Leaf {
        self.0[face as usize - 1]
    }
    /// True when some face ends in `leaf`.
    pub fn reachable(&self, leaf: Leaf) -> bool {
        self.0.contains(&leaf)
    }
    /// Rolls the die: the leaf of the face it shows.
    #[inline]
    pub fn roll<D: Dice>(&self, dice: &mut D) -> Leaf {
        self.face(dice.d6())
    }
}
