//! One d10 plus a summed DRM, its leaf fixed for each die face when the roll
//! is built: the shape of the fire tables (musketry, light fire, artillery)
//! and of the orders rolls. Each of those procedures holds a [`DrmRoll`] and
//! forwards to it with `drm_roll_procedure!`. The close combat result rolls
//! that keep a labelled close combat `Modifiers` breakdown (Cavalry Pursuit,
//! Unable to Retreat) hold a `close_combat::TableRoll` instead.

use crate::explain::Term;
use crate::outcome::{Leaf, OutcomeSpace};

/// The leaf of each die face 0..=9 of a d10 plus `drm`: `leaf(face + drm)`.
pub fn by_face(drm: i32, leaf: impl Fn(i32) -> Leaf) -> [Leaf; 10] {
    std::array::from_fn(|face| leaf(face as i32 + drm))
}

/// A d10 roll plus the sum of its modifiers, read on one table.
#[derive(Clone, Debug)]
pub struct DrmRoll {
    drm: i32,
    modifiers: Vec<Term>,
    space: OutcomeSpace,
    /// The leaf for each die face 0..=9.
    leaves: [Leaf; 10],
}

impl DrmRoll {
    /// Sums `modifiers` and fixes each face's leaf: `leaf(space, face + drm)`.
    pub fn new(
        modifiers: Vec<Term>,
        space: OutcomeSpace,
        leaf: impl Fn(&OutcomeSpace, i32) -> Leaf,
    ) -> DrmRoll {
        let drm: i32 = crate::explain::sum(&modifiers);
        let leaves = by_face(drm, |n| leaf(&space, n));
        DrmRoll {
            drm,
            modifiers,
            space,
            leaves,
        }
    }
    /// The summed DRM.
    pub fn drm(&self) -> i32 {
        self.drm
    }
    /// Each DRM applied, with what it is for.
    pub fn modifiers(&self) -> &[Term] {
        &self.modifiers
    }
}

d10_procedure!(DrmRoll, leaves);

/// Implements `Procedure` for a type by forwarding to its `roll` field
/// (a [`DrmRoll`] or a `close_combat::TableRoll`).
macro_rules! roll_procedure {
    ($name:ty) => {
        impl $crate::procedure::Procedure for $name {
            fn space(&self) -> &$crate::outcome::OutcomeSpace {
                $crate::procedure::Procedure::space(&self.roll)
            }
            #[inline]
            fn resolve<D: $crate::dice::Dice>(&self, dice: &mut D) -> $crate::outcome::Leaf {
                $crate::procedure::Procedure::resolve(&self.roll, dice)
            }
        }
    };
}
pub(crate) use roll_procedure;

/// Implements `Procedure` for a type whose `roll` field is a [`DrmRoll`],
/// and its `drm()` and `modifiers()` accessors, forwarded to that roll.
macro_rules! drm_roll_procedure {
    ($name:ty) => {
        $crate::systems::mpbs::drm_roll::roll_procedure!($name);
        impl $name {
            /// The summed DRM.
            pub fn drm(&self) -> i32 {
                self.roll.drm()
            }
            /// Each DRM applied, with what it is for.
            pub fn modifiers(&self) -> &[$crate::explain::Term] {
                self.roll.modifiers()
            }
        }
    };
}
pub(crate) use drm_roll_procedure;
