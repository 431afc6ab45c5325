//! One d10 plus a summed DRM, its leaf fixed for each die face when the roll
//! is built: the shape of the fire tables (musketry, light fire, artillery)
//! and of the orders rolls. Each of those procedures holds a [`DrmRoll`] and
//! forwards to it with `drm_roll_procedure!`. The close combat result rolls
//! that keep a labelled [`Modifiers`] breakdown (Cavalry Pursuit, Unable to
//! Retreat) hold a `TableRoll` instead.

use super::close_combat::{Fail, Modifiers};
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
/// (a [`DrmRoll`] or a `TableRoll`).
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

/// A d10 plus the DRMs of a [`Modifiers`] breakdown (no limit), read on a
/// one-column table whose rows are outcome labels and which counts no
/// measures: Cavalry Pursuit (11.7.2), Unable to Retreat (11.4.5).
#[derive(Clone, Debug)]
pub(crate) struct TableRoll {
    space: OutcomeSpace,
    modifiers: Modifiers,
    by_face: [Leaf; 10],
}

impl TableRoll {
    /// Records the step's `extra_drm` in `modifiers`, sums them, and fixes
    /// each face's outcome: `row(face + total)`, an index into `labels`.
    /// Errors (keyed `extra_drm`): a DRM outside -9..=9.
    pub(crate) fn new(
        mut modifiers: Modifiers,
        extra_drm: i32,
        labels: &[&str],
        row: impl Fn(i32) -> usize,
    ) -> Result<TableRoll, Fail> {
        modifiers.push_extra(extra_drm)?;
        modifiers.finish(None);
        let space = OutcomeSpace::from_labels(labels, vec![]);
        let by_face = by_face(modifiers.total, |n| space.leaf(row(n), &[]));
        Ok(TableRoll {
            space,
            modifiers,
            by_face,
        })
    }
    /// The DRMs and their total.
    pub(crate) fn modifiers(&self) -> &Modifiers {
        &self.modifiers
    }
    /// The table row (index into the labels) a leaf stands for.
    pub(crate) fn row_of(&self, leaf: Leaf) -> usize {
        self.space.outcome_of(leaf)
    }
}

d10_procedure!(TableRoll, by_face);
