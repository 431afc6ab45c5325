//! A procedure shared by the states of a course that roll the same thing.
//!
//! A course's chain has a node for every state it reaches, but many states
//! differ only in what the roll does not depend on (the turn, the rolls
//! already taken, a unit the step does not name): they roll the same
//! procedure. A machine that knows this hands each of them one [`Shared`]
//! procedure, built once, whose exact distribution is also worked out once
//! however many nodes ask for it.

use std::fmt;
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use crate::dice::{Dice, EnumerationError};
use crate::engine::exact;
use crate::outcome::{Leaf, OutcomeSpace};
use crate::procedure::Procedure;

/// A procedure held by reference count, with its exact distribution kept
/// once found.
pub struct Shared<P>(Arc<Inner<P>>);

/// What a [`Shared`] holds.
struct Inner<P> {
    proc: P,
    /// The exact distribution worked out first, and the budget it was
    /// worked out within.
    exact: OnceLock<(u64, Result<Vec<f64>, EnumerationError>)>,
}

impl<P> Shared<P> {
    /// Shares `proc`.
    pub fn new(proc: P) -> Shared<P> {
        Shared(Arc::new(Inner {
            proc,
            exact: OnceLock::new(),
        }))
    }
}

impl<P> Shared<P> {
    /// The same number for every handle of one shared procedure, and a
    /// different one for any other procedure alive at the same time.
    pub fn id(&self) -> usize {
        Arc::as_ptr(&self.0) as usize
    }
}

impl<P> Clone for Shared<P> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0))
    }
}

impl<P> Deref for Shared<P> {
    type Target = P;
    fn deref(&self) -> &P {
        &self.0.proc
    }
}

impl<P: fmt::Debug> fmt::Debug for Shared<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.proc.fmt(f)
    }
}

impl<P: Procedure> Procedure for Shared<P> {
    fn space(&self) -> &OutcomeSpace {
        self.0.proc.space()
    }
    #[inline]
    fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
        self.0.proc.resolve(dice)
    }
    fn exact(&self, budget: u64) -> Option<Result<Vec<f64>, EnumerationError>> {
        let (found, probs) = self
            .0
            .exact
            .get_or_init(|| (budget, exact::exact(&self.0.proc, budget)));
        // A distribution found within a budget is found the same within
        // any larger one; an error, or a smaller budget, is worked afresh.
        Some(match probs {
            Ok(_) if budget >= *found => probs.clone(),
            _ if budget == *found => probs.clone(),
            _ => exact::exact(&self.0.proc, budget),
        })
    }
}
