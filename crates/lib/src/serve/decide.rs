//! `POST /api/decide`: the page's "best plan" panel. A scenario's
//! `[[decision]]`s solved through `pikeshot decide`'s own path
//! ([`crate::run::decide::decide_file`]), under the limits every
//! computation has: the body's size and deadline, the time limit, and at
//! most [`MAX_RUNNING`] computations at once. Nothing is written to disk.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Body;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;

use super::compute::{SCENARIO_NAME, scenario_text};
use super::error_body::ErrorBody;
use super::limits::{MAX_RUNNING, TIME_LIMIT};
use super::routes::{Shared, body, error, json_ok, read_body};
use crate::run::decide::{Decisions, decide_file};
use crate::scenario::{Overrides, ScenarioFile};

/// What the page asks of `POST /api/decide`.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct DecideBody {
    /// The scenario as TOML text; or
    pub toml: Option<String>,
    /// the scenario as the JSON mirror of its TOML document.
    pub doc: Option<toml::Table>,
    /// `--set KEY=VALUE` overrides.
    #[serde(default)]
    pub sets: Vec<String>,
}

/// Solves the decisions of the scenario `body` holds, as `pikeshot decide
/// --format json` does (the same document).
pub fn solve(body: DecideBody) -> Result<Decisions, ErrorBody> {
    let text = scenario_text(body.toml, body.doc)?;
    let file = ScenarioFile::from_str(SCENARIO_NAME, &text)?;
    let overrides = Overrides::parse(&body.sets)?;
    Ok(decide_file(file, &overrides)?)
}

/// The handler: the body read under its limits, then [`solve`] on a
/// blocking thread once a turn is free, answered within the time limit.
pub async fn decide(State(s): State<Shared>, headers: HeaderMap, raw: Body) -> Response {
    let bytes = match read_body(&headers, raw).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let req: DecideBody = match body(&bytes) {
        Ok(r) => r,
        Err(e) => return error(e),
    };
    drop(bytes);
    let deadline = tokio::time::Instant::from_std(Instant::now() + TIME_LIMIT);
    let timeout = || {
        error(ErrorBody::plain(
            "timeout",
            format!(
                "no answer within {} s (at most {MAX_RUNNING} computations run at once); \
                 try fewer turns or options, or `pikeshot decide` on the command line",
                TIME_LIMIT.as_secs()
            ),
        ))
    };
    let turn = match tokio::time::timeout_at(deadline, Arc::clone(&s.running).acquire_owned()).await
    {
        Ok(Ok(turn)) => turn,
        Ok(Err(_)) => return error(ErrorBody::plain("internal", "the turns are closed")),
        Err(_) => return timeout(),
    };
    // The turn is held by the computation itself, so that it is given
    // back when the computation ends, even after a timeout.
    let computing = tokio::task::spawn_blocking(move || {
        let answer = solve(req);
        drop(turn);
        answer
    });
    match tokio::time::timeout_at(deadline, computing).await {
        Ok(Ok(Ok(d))) => json_ok(&d),
        Ok(Ok(Err(e))) => error(e),
        Ok(Err(e)) => error(ErrorBody::plain(
            "internal",
            format!("the computation failed without an answer: {e}"),
        )),
        Err(_) => timeout(),
    }
}
