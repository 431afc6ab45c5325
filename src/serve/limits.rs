//! What makes the server safe to leave running: bounded request bodies
//! (the scenario file limit of [`crate::scenario::limits`], plus room for
//! the JSON around it), at most [`MAX_RUNNING`] computations at once
//! ([`Turns`]), a time bound on each, a bounded number of trials, and a
//! newer request from the same page cancelling the one before it (its
//! Monte Carlo run stops at its next chunk).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::compute::ErrorBody;
use crate::engine::RunControl;
use crate::scenario::limits::MAX_FILE_BYTES;

/// Largest request body: a scenario at the file size limit, sent as JSON
/// (escaping may double it), with room for the rest of the request.
pub const MAX_BODY_BYTES: usize = 2 * MAX_FILE_BYTES as usize + 64 * 1024;

/// Most computations running at once; more wait for a turn.
pub const MAX_RUNNING: usize = 2;

/// Longest a request waits for its turn and then computes. Monte Carlo is
/// bounded by [`SERVE_TRIALS`] and exact enumeration by its path budget,
/// so a computation ends; past this the page is told, the computation is
/// stopped (a Monte Carlo run at its next chunk; an exact enumeration,
/// which is not watched, at the end of its stage), and its turn is held
/// until it does end.
pub const TIME_LIMIT: Duration = Duration::from_secs(60);

/// Most Monte Carlo trials of one request, shared by its courses (and
/// variants).
pub const SERVE_TRIALS: u64 = 2_000_000;

/// Largest explanation sent to the page, as JSON bytes.
pub const MAX_EXPLAIN_BYTES: usize = 4 * 1024 * 1024;

/// Most pages whose latest request is remembered.
const MAX_CLIENTS: usize = 10_000;

/// The turns to compute: at most [`MAX_RUNNING`] computations hold one at
/// once; the others wait for one.
pub struct Turns {
    free: Mutex<usize>,
    given_back: Condvar,
}

impl Turns {
    /// `n` turns, all free.
    pub fn new(n: usize) -> Turns {
        Turns {
            free: Mutex::new(n),
            given_back: Condvar::new(),
        }
    }

    /// Waits for a turn until `deadline`, asking `gone` every `poll`
    /// whether the request still wants one: `None` past the deadline or
    /// once `gone` says so. The turn is given back when the [`Turn`] is
    /// dropped.
    pub fn take(
        self: &Arc<Self>,
        deadline: Instant,
        poll: Duration,
        gone: impl Fn() -> bool,
    ) -> Option<Turn> {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if *free > 0 {
                *free -= 1;
                return Some(Turn(Arc::clone(self)));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            free = self
                .given_back
                .wait_timeout(free, left.min(poll))
                .unwrap_or_else(|e| e.into_inner())
                .0;
            if *free == 0 && gone() {
                return None;
            }
        }
    }
}

/// A turn to compute, given back when dropped.
pub struct Turn(Arc<Turns>);

impl Drop for Turn {
    fn drop(&mut self) {
        *self.0.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.0.given_back.notify_one();
    }
}

/// The latest request of each page (by the id it sends): its number and
/// its run's control, so that a newer request stops the older's run
/// (between two chunks of its trials, not only between stages) and the
/// page can read how far its run is.
#[derive(Default)]
pub struct Generations {
    next: AtomicU64,
    latest: Mutex<HashMap<String, (u64, Arc<RunControl>)>>,
}

impl Generations {
    /// Registers a new request from `client`: every earlier one of the same
    /// client is cancelled from now on (its run stops at its next chunk).
    /// A request without a client id is never cancelled by another.
    pub fn begin(self: &Arc<Self>, client: Option<&str>) -> Cancel {
        let n = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        let control = Arc::new(RunControl::new());
        if let Some(c) = client {
            let mut map = self.latest.lock().unwrap_or_else(|e| e.into_inner());
            if map.len() >= MAX_CLIENTS && !map.contains_key(c) {
                map.clear();
            }
            if let Some((_, older)) = map.insert(c.to_string(), (n, Arc::clone(&control))) {
                older.stop();
            }
        }
        Cancel {
            generation: n,
            control,
        }
    }

    /// How far the latest request of `client` is: its run's trials done
    /// and planned (both 0 before its Monte Carlo starts, and for an exact
    /// run), or `None` for a page never seen.
    pub fn progress(&self, client: &str) -> Option<Progress> {
        let map = self.latest.lock().unwrap_or_else(|e| e.into_inner());
        map.get(client).map(|(n, c)| Progress {
            request: *n,
            trials_done: c.trials_done(),
            trials_planned: c.trials_planned(),
            cancelled: c.is_stopped(),
        })
    }
}

/// How far a page's latest request is (`GET /api/progress`).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Progress {
    /// The request's number (increasing over the server's requests).
    pub request: u64,
    /// Monte Carlo trials done, over every course and variant.
    pub trials_done: u64,
    /// Monte Carlo trials planned (0 before they start, or without any).
    pub trials_planned: u64,
    /// Whether the request was stopped (a timeout, or the page gone).
    pub cancelled: bool,
}

/// One request's place among its page's requests, and its run's control.
pub struct Cancel {
    generation: u64,
    control: Arc<RunControl>,
}

impl Cancel {
    /// Whether the request was cancelled: a newer request of the same page
    /// came in, or the request timed out or its page went away.
    pub fn cancelled(&self) -> bool {
        self.control.is_stopped()
    }

    /// The request's number.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The control its run is watched and stopped through.
    pub fn control(&self) -> Arc<RunControl> {
        Arc::clone(&self.control)
    }

    /// `Err` (kind `cancelled`) once the request was cancelled: the
    /// computation stops at the next stage (and a Monte Carlo run at its
    /// next chunk, through [`Cancel::control`]).
    pub fn check(&self) -> Result<(), ErrorBody> {
        if self.cancelled() {
            Err(cancelled())
        } else {
            Ok(())
        }
    }
}

/// The answer of a cancelled request.
pub fn cancelled() -> ErrorBody {
    ErrorBody::plain(
        "cancelled",
        "cancelled: a newer request from the same page replaced this one",
    )
}

/// Stops a request's run when dropped before [`StopOnDrop::finished`]:
/// the request's handler holds one, so that a page that goes away (its
/// connection closed) or a timeout leaves no computation running for
/// nobody.
pub struct StopOnDrop(Option<Arc<RunControl>>);

impl StopOnDrop {
    /// Guards the run of `control`.
    pub fn new(control: Arc<RunControl>) -> StopOnDrop {
        StopOnDrop(Some(control))
    }
    /// The request was answered: nothing to stop.
    pub fn finished(mut self) {
        self.0 = None;
    }
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        if let Some(c) = &self.0 {
            c.stop();
        }
    }
}
