//! What makes the server safe to leave running: bounded request bodies
//! (the scenario file limit of [`crate::scenario::limits`], plus room for
//! the JSON around it) read within [`BODY_DEADLINE`], at most
//! [`MAX_RUNNING`] computations at once, a time bound on each, a bounded
//! number of trials, short page ids ([`PageId`]) in a bounded store that
//! forgets, and a newer request from the same page cancelling the one
//! before it (its Monte Carlo run stops at its next chunk).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::error_body::{ErrorBody, cancelled};
use crate::engine::RunControl;
use crate::scenario::limits::MAX_FILE_BYTES;

/// Largest request body: a scenario at the file size limit, sent as JSON
/// (escaping may double it), with room for the rest of the request.
pub const MAX_BODY_BYTES: usize = 2 * MAX_FILE_BYTES as usize + 64 * 1024;

/// Longest a request's body may take to arrive, from the end of its head:
/// a client that trickles it is answered `408` and its connection closed.
pub const BODY_DEADLINE: Duration = Duration::from_secs(30);

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

/// Most pages whose latest request is remembered: with ids of at most
/// [`MAX_PAGE_ID`] bytes, the store holds well under 1 MiB.
pub const MAX_PAGES: usize = 1024;

/// How long a page's latest request is remembered after it came.
pub const PAGE_TTL: Duration = Duration::from_secs(15 * 60);

/// Longest page id, in bytes.
pub const MAX_PAGE_ID: usize = 64;

/// A page's id, as the page sends it (`client` of `POST /api/run`, the
/// last segment of `GET /api/progress/{client}`): 1 to [`MAX_PAGE_ID`]
/// ASCII letters, digits, `-` and `_`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PageId(String);

impl PageId {
    /// `id` as a page id, or the error that says what is accepted.
    pub fn parse(id: &str) -> Result<PageId, ErrorBody> {
        let ok = !id.is_empty()
            && id.len() <= MAX_PAGE_ID
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if ok {
            return Ok(PageId(id.to_string()));
        }
        let mut e = ErrorBody::plain(
            "input",
            format!(
                "the page id ({} bytes) is not 1 to {MAX_PAGE_ID} letters, digits, - or _",
                id.len()
            ),
        );
        e.key = Some("client".into());
        e.accepted = Some(format!("1 to {MAX_PAGE_ID} ASCII letters, digits, - and _"));
        Err(e)
    }

    /// The id's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A page's latest request: its number, when it came and its run's control.
struct Latest {
    request: u64,
    at: Instant,
    control: Arc<RunControl>,
}

/// The latest request of each page (by its [`PageId`]): its number and
/// its run's control, so that a newer request stops the older's run
/// (between two chunks of its trials, not only between stages) and the
/// page can read how far its run is. At most [`MAX_PAGES`] pages are
/// remembered, each for [`PAGE_TTL`]; past that the oldest is forgotten.
#[derive(Default)]
pub struct Generations {
    next: AtomicU64,
    latest: Mutex<HashMap<PageId, Latest>>,
}

impl Generations {
    /// Registers a new request from `page`: every earlier one of the same
    /// page is cancelled from now on (its run stops at its next chunk).
    /// A request without a page id is never cancelled by another.
    pub fn begin(self: &Arc<Self>, page: Option<&PageId>) -> Cancel {
        let n = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        let control = Arc::new(RunControl::new());
        if let Some(p) = page {
            let now = Instant::now();
            let mut map = self.latest.lock().unwrap_or_else(|e| e.into_inner());
            map.retain(|_, l| now.duration_since(l.at) < PAGE_TTL);
            if map.len() >= MAX_PAGES
                && !map.contains_key(p)
                && let Some(oldest) = map
                    .iter()
                    .min_by_key(|(_, l)| l.request)
                    .map(|(k, _)| k.clone())
            {
                map.remove(&oldest);
            }
            let latest = Latest {
                request: n,
                at: now,
                control: Arc::clone(&control),
            };
            if let Some(older) = map.insert(p.clone(), latest) {
                older.control.stop();
            }
        }
        Cancel {
            generation: n,
            control,
        }
    }

    /// How many pages are remembered.
    pub fn pages(&self) -> usize {
        self.latest.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// How far the latest request of `page` is: its run's trials done
    /// and planned (both 0 before its Monte Carlo starts, and for an exact
    /// run), or `None` for a page not remembered.
    pub fn progress(&self, page: &PageId) -> Option<Progress> {
        let map = self.latest.lock().unwrap_or_else(|e| e.into_inner());
        map.get(page).map(|l| Progress {
            request: l.request,
            trials_done: l.control.trials_done(),
            trials_planned: l.control.trials_planned(),
            cancelled: l.control.is_stopped(),
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
