//! A test of one d6 read on a table (Morale, Order and Pursuit tests): the
//! leaf of each face, worked out once when the procedure is built, so that
//! resolving it is one roll and one index.

use crate::dice::Dice;
use crate::outcome::{Leaf, OutcomeSpace};
use crate::procedure::Procedure;

/// The leaf each face of one d6 ends in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OneDie([Leaf; 6]);

impl OneDie {
    /// The leaf of each face from 1 to 6, as `leaf_of(face)` reads it.
    pub fn new(mut leaf_of: impl FnMut(u8) -> Leaf) -> OneDie {
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

/// A one-die test as a procedure: its outcome space, the leaf of each face,
/// and what the kind of test keeps beside them (`T`: the morale check, the
/// order test's modifiers, the pursuit column). The Morale, Order and
/// Pursuit tests are this one procedure with their own `T`.
#[derive(Clone, Debug)]
pub struct OneDieTest<T> {
    space: OutcomeSpace,
    faces: OneDie,
    /// False when no die is rolled (a stand that does not pursue): every
    /// resolve ends in face 1's leaf and draws nothing from the dice.
    rolls: bool,
    /// What the kind of test keeps for its accessors and `pikeshot explain`.
    pub(super) kind: T,
}

impl<T> OneDieTest<T> {
    /// The test over `space`, ending in `faces`, rolled when `rolls`.
    pub(super) fn from_faces(
        space: OutcomeSpace,
        faces: OneDie,
        rolls: bool,
        kind: T,
    ) -> OneDieTest<T> {
        OneDieTest {
            space,
            faces,
            rolls,
            kind,
        }
    }
    /// True when some roll ends in `leaf`.
    pub fn reachable(&self, leaf: Leaf) -> bool {
        self.faces.reachable(leaf)
    }
}

impl<T: Send + Sync> Procedure for OneDieTest<T> {
    fn space(&self) -> &OutcomeSpace {
        &self.space
    }
    #[inline]
    fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
        if !self.rolls {
            return self.faces.face(1);
        }
        self.faces.roll(dice)
    }
}
