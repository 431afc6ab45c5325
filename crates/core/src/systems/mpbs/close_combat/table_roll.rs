//! A d10 plus the DRMs of a close combat [`Modifiers`] breakdown, read on a
//! one-column table: the rolls that follow a close combat result (Cavalry
//! Pursuit 11.7.2, Unable to Retreat 11.4.5). Each holds a [`TableRoll`] and
//! forwards to it with `table_roll_procedure!`.

use super::{Fail, Modifiers};
use crate::outcome::{Leaf, OutcomeSpace};
use crate::systems::mpbs::drm_roll::by_face;

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

/// Implements `Procedure` for a type whose `roll` field is a [`TableRoll`],
/// and its `modifiers()` and `result_of(leaf)` accessors; `$result` is the
/// table's result enum, whose `ALL` lists the rows in label order.
macro_rules! table_roll_procedure {
    ($name:ty, $result:ty) => {
        $crate::systems::mpbs::drm_roll::roll_procedure!($name);
        impl $name {
            /// The DRMs and their total.
            pub fn modifiers(&self) -> &$crate::systems::mpbs::close_combat::Modifiers {
                self.roll.modifiers()
            }
            /// The result of a leaf of this procedure.
            pub fn result_of(&self, leaf: $crate::outcome::Leaf) -> $result {
                <$result>::ALL[self.roll.row_of(leaf)]
            }
        }
    };
}
pub(crate) use table_roll_procedure;
