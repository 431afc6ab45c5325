//! A run watched and stopped from outside: [`RunControl`], shared between
//! the caller (e.g. `pikeshot serve`, which shows a page the fraction of
//! trials done and stops a run when the page asks a newer question) and
//! [`super::Threads::run`], which counts the trials of each chunk it finishes and
//! looks at the stop flag before each chunk.
//!
//! A run without a control (`RunOptions::control` `None`, the CLI's case)
//! pays one `Option` test per chunk of 65,536 trials. A control never
//! changes a run's figures: a run that is not stopped gives the same
//! counts, byte for byte; a stopped one gives [`crate::Error::Stopped`],
//! never a tally.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The stop flag and the progress counters of one run.
#[derive(Debug, Default)]
pub struct RunControl {
    stop: AtomicBool,
    done: AtomicU64,
    planned: AtomicU64,
}

impl RunControl {
    /// A control for a run not yet started.
    pub fn new() -> RunControl {
        RunControl::default()
    }

    /// Asks the run to stop: no chunk starts after this, and the run
    /// returns [`crate::Error::Stopped`].
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether [`RunControl::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Monte Carlo trials resolved so far (every task of the run).
    pub fn trials_done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }

    /// Monte Carlo trials the run plans (every task; under a precision
    /// target, the cap); 0 before the run starts or without Monte Carlo.
    pub fn trials_planned(&self) -> u64 {
        self.planned.load(Ordering::Relaxed)
    }

    /// Sets the trials planned, when the run starts.
    pub fn plan(&self, trials: u64) {
        self.planned.store(trials, Ordering::Relaxed);
    }

    /// Counts `n` trials done.
    pub(crate) fn add(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }
}

/// The stop check of a run: `Err(Stopped)` once its control was stopped.
pub fn check(control: Option<&RunControl>) -> crate::Result<()> {
    if control.is_some_and(RunControl::is_stopped) {
        Err(crate::Error::Stopped)
    } else {
        Ok(())
    }
}
