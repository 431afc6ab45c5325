//! The rolls a course has built, each built once: the states of a chain
//! that roll the same thing share one procedure (and its exact
//! distribution) instead of each building its own procedure, explanation
//! terms and outcome space and enumerating its dice again.

use super::Step;
use super::state::{CourseState, Sub, Units};
use crate::engine::shared::Shared;
use crate::error::InputError;
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// Every roll of a course built so far, by what it is built from.
#[derive(Default)]
pub(super) struct Procs(RefCell<FxHashMap<ProcKey, Shared<Step>>>);

/// What a roll of a course is built from: a step (its index, whether it is
/// read leniently, the unit states) or a triggered roll (with the unit
/// states where the roll depends on them).
#[derive(Clone, PartialEq, Eq, Hash)]
enum ProcKey {
    Step(u8, bool, Units),
    Sub(Sub, Units),
}

impl ProcKey {
    /// The key of the roll `state` makes (`lenient`: its step is read
    /// leniently). A morale check and a leader casualty roll depend on no
    /// unit's state; every other roll on the unit states (as the course's
    /// `units_in` reads them) and, for a step, its index and leniency.
    fn of(state: &CourseState, lenient: bool) -> ProcKey {
        match state.pending.first() {
            Some(&sub @ Sub::Morale(_)) => ProcKey::Sub(sub, Units::new()),
            Some(&Sub::LeaderCasualty(_)) => ProcKey::Sub(Sub::LeaderCasualty(0), Units::new()),
            Some(&sub) => ProcKey::Sub(sub, state.units.clone()),
            None => ProcKey::Step(state.pc, lenient, state.units.clone()),
        }
    }
}

impl Procs {
    /// The roll `state` makes (`lenient` as for its key): the one built
    /// for an earlier state that rolls the same thing, else `build`'s,
    /// kept for the states after.
    pub(super) fn get_or_build(
        &self,
        state: &CourseState,
        lenient: bool,
        build: impl FnOnce() -> Result<Step, InputError>,
    ) -> Result<Shared<Step>, InputError> {
        let key = ProcKey::of(state, lenient);
        if let Some(p) = self.0.borrow().get(&key) {
            return Ok(p.clone());
        }
        let proc = Shared::new(build()?);
        self.0.borrow_mut().insert(key, proc.clone());
        Ok(proc)
    }

    /// Every roll built so far, moved out (for a course that rolls the
    /// same things), leaving none.
    pub(super) fn take(&self) -> Procs {
        Procs(RefCell::new(std::mem::take(&mut *self.0.borrow_mut())))
    }
}
