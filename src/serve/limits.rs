//! What makes the server safe to leave running: bounded request bodies
//! (the scenario file limit of [`crate::scenario::limits`], plus room for
//! the JSON around it), at most [`MAX_RUNNING`] computations at once on the
//! blocking pool, a time bound on each, a bounded number of trials, and a
//! newer request from the same page superseding the one before it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::compute::ErrorBody;
use crate::scenario::limits::MAX_FILE_BYTES;

/// Largest request body: a scenario at the file size limit, sent as JSON
/// (escaping may double it), with room for the rest of the request.
pub const MAX_BODY_BYTES: usize = 2 * MAX_FILE_BYTES as usize + 64 * 1024;

/// Most computations running at once; more wait for a turn.
pub const MAX_RUNNING: usize = 2;

/// Longest a request waits for its turn and then computes. Monte Carlo is
/// bounded by [`SERVE_TRIALS`] and exact enumeration by its path budget,
/// so a computation ends; past this the page is told, and the computation's
/// turn is held until it does end.
pub const TIME_LIMIT: Duration = Duration::from_secs(60);

/// Most Monte Carlo trials of one request, shared by its courses (and
/// variants).
pub const SERVE_TRIALS: u64 = 2_000_000;

/// Largest explanation sent to the page, as JSON bytes.
pub const MAX_EXPLAIN_BYTES: usize = 4 * 1024 * 1024;

/// Most pages whose latest request is remembered.
const MAX_CLIENTS: usize = 10_000;

/// The latest request number of each page (by the id it sends).
#[derive(Default)]
pub struct Generations {
    next: AtomicU64,
    latest: Mutex<HashMap<String, u64>>,
}

impl Generations {
    /// Registers a new request from `client`: every earlier one of the same
    /// client is superseded from now on. A request without a client id is
    /// never superseded.
    pub fn begin(self: &Arc<Self>, client: Option<&str>) -> Cancel {
        let n = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(c) = client {
            let mut map = self.latest.lock().unwrap_or_else(|e| e.into_inner());
            if map.len() >= MAX_CLIENTS && !map.contains_key(c) {
                map.clear();
            }
            map.insert(c.to_string(), n);
        }
        Cancel {
            owner: Arc::clone(self),
            client: client.map(str::to_string),
            generation: n,
        }
    }

    fn is_latest(&self, client: &str, generation: u64) -> bool {
        let map = self.latest.lock().unwrap_or_else(|e| e.into_inner());
        map.get(client).is_none_or(|&n| n == generation)
    }
}

/// One request's place among its page's requests.
pub struct Cancel {
    owner: Arc<Generations>,
    client: Option<String>,
    generation: u64,
}

impl Cancel {
    /// Whether a newer request of the same page has come in.
    pub fn superseded(&self) -> bool {
        self.client
            .as_deref()
            .is_some_and(|c| !self.owner.is_latest(c, self.generation))
    }

    /// `Err` (kind `superseded`) once a newer request has come in: the
    /// computation stops at the next stage.
    pub fn check(&self) -> Result<(), ErrorBody> {
        if self.superseded() {
            Err(ErrorBody::plain(
                "superseded",
                "a newer request from the same page replaced this one",
            ))
        } else {
            Ok(())
        }
    }
}
