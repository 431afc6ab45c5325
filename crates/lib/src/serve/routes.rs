//! The HTTP routes: the page and its assets, and the JSON API.
//!
//! - `GET /`, `/style.css`, `/form.js`, `/decision.js`, `/app.js`: the page
//!   (embedded).
//! - `GET /api/systems`: the registry ([`super::meta`]).
//! - `GET /api/scenarios`: the shipped scenarios and those under DIR.
//! - `GET /api/scenario/{*id}`: one of them, as TOML text.
//! - `POST /api/run`: odds and explanation ([`super::compute`]).
//! - `POST /api/decide`: a scenario's decisions solved ([`super::decide`]).
//! - `GET /api/progress/{client}`: how far that page's latest run is.
//! - `POST /api/parse`: TOML text to its JSON form; `POST /api/toml` back.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::rejection::PathRejection;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;

use super::assets::{PAGE_FILES, SHIPPED};
use super::compute::{self, RunBody};
use super::error_body::ErrorBody;
use super::limits::{
    BODY_DEADLINE, Generations, MAX_BODY_BYTES, MAX_RUNNING, PageId, StopOnDrop, TIME_LIMIT,
};
use super::origin::Origins;
use crate::scenario::limits::MAX_FILE_BYTES;

/// Most scenario files listed from DIR.
const MAX_DIR_FILES: usize = 1000;

/// What every handler shares.
pub struct AppState {
    /// The folder of the user's scenarios, if given.
    pub dir: Option<PathBuf>,
    /// `GET /api/systems`, built once.
    pub systems: String,
    /// Turns for computations: at most [`MAX_RUNNING`] at once.
    pub running: Arc<Semaphore>,
    /// Each page's latest request.
    pub generations: Arc<Generations>,
    /// The names and port requests must be addressed to.
    pub origins: Origins,
}

/// The routes: the page's files, the API, `404` for a path no route has
/// and `405` for a route asked with another method; every request first
/// through the [`Origins`] check.
pub fn router(state: AppState) -> Router {
    let state = Arc::new(state);
    let mut r = Router::new();
    for (path, body, kind) in PAGE_FILES {
        r = r.route(
            path,
            only_get(path, get(move || async move { page(body, kind) })),
        );
    }
    r.route("/api/systems", only_get("/api/systems", get(systems)))
        .route("/api/scenarios", only_get("/api/scenarios", get(scenarios)))
        .route(
            "/api/scenario/{*id}",
            only_get("/api/scenario", get(scenario)),
        )
        .route(
            "/api/progress/{client}",
            only_get("/api/progress", get(progress)),
        )
        .route("/api/run", only_post("/api/run", post(run)))
        .route("/api/decide", only_post("/api/decide", post(decide)))
        .route("/api/parse", only_post("/api/parse", post(parse)))
        .route("/api/toml", only_post("/api/toml", post(to_toml)))
        .fallback(|uri: axum::http::Uri| async move {
            error(ErrorBody::plain(
                "not-found",
                format!("no page or API at {}", uri.path()),
            ))
        })
        .layer(middleware::from_fn_with_state(
            Arc::clone(&state),
            own_origin,
        ))
        .with_state(state)
}

pub(super) type Shared = Arc<AppState>;

fn only_get(path: &'static str, m: MethodRouter<Shared>) -> MethodRouter<Shared> {
    m.fallback(move || async move { wrong_method(path, "GET") })
}

fn only_post(path: &'static str, m: MethodRouter<Shared>) -> MethodRouter<Shared> {
    m.fallback(move || async move { wrong_method(path, "POST") })
}

/// Refuses a request addressed to another name, or one from another
/// site that would compute ([`Origins::check`]).
async fn own_origin(State(s): State<Shared>, request: Request, next: Next) -> Response {
    match s.origins.check(request.method(), request.headers()) {
        Ok(()) => next.run(request).await,
        Err(e) => error(e),
    }
}

fn wrong_method(path: &str, allowed: &'static str) -> Response {
    let mut r = error(ErrorBody::plain(
        "input",
        format!("{path} answers {allowed} only"),
    ));
    *r.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
    r.headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static(allowed));
    r
}

fn page(body: &'static str, kind: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

fn json_text(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

pub(super) fn json_ok<T: Serialize>(value: &T) -> Response {
    match serde_json::to_string(value) {
        Ok(s) => json_text(StatusCode::OK, s),
        Err(e) => error(ErrorBody::plain("internal", e.to_string())),
    }
}

/// An error as JSON `{ "error": ... }` with the status its kind calls for.
pub(super) fn error(e: ErrorBody) -> Response {
    let status = match e.kind {
        "input" => StatusCode::BAD_REQUEST,
        "forbidden" => StatusCode::FORBIDDEN,
        "not-found" => StatusCode::NOT_FOUND,
        "slow" => StatusCode::REQUEST_TIMEOUT,
        "cancelled" => StatusCode::CONFLICT,
        "too-large" => StatusCode::PAYLOAD_TOO_LARGE,
        "misdirected" => StatusCode::MISDIRECTED_REQUEST,
        "busy" | "timeout" => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    #[derive(Serialize)]
    struct Wrapped {
        error: ErrorBody,
    }
    let body = serde_json::to_string(&Wrapped { error: e }).unwrap_or_default();
    json_text(status, body)
}

/// Reads a JSON body, refusing what does not parse with a located error.
pub(super) fn body<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> Result<T, ErrorBody> {
    serde_json::from_slice(bytes).map_err(|e| {
        ErrorBody::plain(
            "input",
            format!("the request is not the JSON expected: {e}"),
        )
    })
}

/// Runs a blocking piece of work (the file system) off the connections'
/// threads.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Response> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| error(ErrorBody::plain("internal", e.to_string())))
}

async fn systems(State(s): State<Shared>) -> Response {
    json_text(StatusCode::OK, s.systems.clone())
}

/// One scenario the page may load.
#[derive(Serialize)]
struct Listed {
    /// `shipped/<system>/<file>` or `dir/<path under DIR>`.
    id: String,
    /// Its rule system (the folder it is shipped in), if known.
    group: String,
}

async fn scenarios(State(s): State<Shared>) -> Response {
    let dir = s.dir.clone();
    let listed = match blocking(move || dir.as_deref().map(dir_files)).await {
        Ok(l) => l,
        Err(r) => return r,
    };
    let mut out: Vec<Listed> = SHIPPED
        .iter()
        .map(|(path, _)| Listed {
            id: format!("shipped/{path}"),
            group: path.split('/').next().unwrap_or("").to_string(),
        })
        .collect();
    if let Some(files) = listed {
        out.extend(files.into_iter().map(|rel| Listed {
            id: format!("dir/{rel}"),
            group: "DIR".into(),
        }));
    }
    json_ok(&out)
}

/// The `*.toml` files under `dir` (recursively, at most
/// [`MAX_DIR_FILES`]), as `/`-separated paths relative to it, sorted.
fn dir_files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_dir() {
                stack.push(p);
            } else if kind.is_file()
                && p.extension().is_some_and(|x| x == "toml")
                && let Ok(rel) = p.strip_prefix(dir)
            {
                let parts: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.push(parts.join("/"));
                if out.len() >= MAX_DIR_FILES {
                    out.sort();
                    return out;
                }
            }
        }
    }
    out.sort();
    out
}

async fn scenario(
    State(s): State<Shared>,
    uri: axum::http::Uri,
    id: Result<axum::extract::Path<String>, PathRejection>,
) -> Response {
    let id = match id {
        Ok(axum::extract::Path(id)) if well_escaped(uri.path()) => id,
        Ok(_) => {
            return error(ErrorBody::plain(
                "input",
                "the path has a % not followed by two hexadecimal digits",
            ));
        }
        Err(e) => return error(ErrorBody::plain("input", e.body_text())),
    };
    if let Some(path) = id.strip_prefix("shipped/")
        && let Some((_, text)) = SHIPPED.iter().find(|(p, _)| *p == path)
    {
        return page(text, "application/toml; charset=utf-8");
    }
    // Only a file the listing names: no path outside DIR is ever read.
    if let (Some(rel), Some(dir)) = (id.strip_prefix("dir/"), s.dir.clone()) {
        let rel = rel.to_string();
        let read = blocking(move || {
            dir_files(&dir)
                .contains(&rel)
                .then(|| read_capped(&dir.join(rel)))
        })
        .await;
        match read {
            Err(r) => return r,
            Ok(Some(Ok(text))) => {
                return (
                    [(header::CONTENT_TYPE, "application/toml; charset=utf-8")],
                    text,
                )
                    .into_response();
            }
            Ok(Some(Err(e))) => return error(e),
            Ok(None) => {}
        }
    }
    error(ErrorBody::plain(
        "not-found",
        format!("no scenario \"{id}\"; GET /api/scenarios lists them"),
    ))
}

/// Whether every `%` of `path` starts an escape (`%` and two hexadecimal
/// digits): the router leaves a bad one as it is.
fn well_escaped(path: &str) -> bool {
    let b = path.as_bytes();
    b.iter().enumerate().all(|(i, &c)| {
        c != b'%'
            || b.get(i + 1..i + 3)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
    })
}

/// A file's text, refused over the scenario file size limit.
fn read_capped(path: &Path) -> Result<String, ErrorBody> {
    use std::io::Read;
    let mut text = String::new();
    let f = std::fs::File::open(path)
        .map_err(|e| ErrorBody::plain("input", format!("{}: {e}", path.display())))?;
    f.take(MAX_FILE_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| ErrorBody::plain("input", format!("{}: {e}", path.display())))?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(ErrorBody::plain(
            "too-large",
            format!(
                "{} is over the scenario file size limit of {MAX_FILE_BYTES} bytes",
                path.display()
            ),
        ));
    }
    Ok(text)
}

/// A request's body: refused before it is read when its stated length is
/// over [`MAX_BODY_BYTES`], and when it does not come whole within
/// [`BODY_DEADLINE`].
pub(super) async fn read_body(headers: &HeaderMap, body: Body) -> Result<Bytes, Response> {
    let too_large = |length: Option<u64>| {
        let size = length.map_or("over the limit".into(), |n| format!("{n} bytes"));
        error(ErrorBody::plain(
            "too-large",
            format!(
                "the request is {size}, over the limit of {MAX_BODY_BYTES} bytes \
                 (a scenario may be at most {MAX_FILE_BYTES} bytes)"
            ),
        ))
    };
    let stated = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if stated.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
        return Err(too_large(stated));
    }
    match tokio::time::timeout(BODY_DEADLINE, axum::body::to_bytes(body, MAX_BODY_BYTES)).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(e)) => {
            let over = std::error::Error::source(&e)
                .is_some_and(|s| s.is::<http_body_util::LengthLimitError>());
            Err(if over {
                too_large(None)
            } else {
                error(ErrorBody::plain(
                    "input",
                    format!("the request body could not be read whole: {e}"),
                ))
            })
        }
        Err(_) => Err(error(ErrorBody::plain(
            "slow",
            format!(
                "the request body did not come whole within {} s",
                BODY_DEADLINE.as_secs()
            ),
        ))),
    }
}

async fn run(State(s): State<Shared>, headers: HeaderMap, body: Body) -> Response {
    let bytes = match read_body(&headers, body).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let req: RunBody = match self::body(&bytes) {
        Ok(r) => r,
        Err(e) => return error(e),
    };
    drop(bytes);
    let page_id = match req.client.as_deref().map(PageId::parse).transpose() {
        Ok(p) => p,
        Err(e) => return error(e),
    };
    let deadline = tokio::time::Instant::from_std(Instant::now() + TIME_LIMIT);
    let cancel = s.generations.begin(page_id.as_ref());
    // Dropped unanswered (the page gone, its connection closed; or the
    // time limit): the run stops.
    let guard = StopOnDrop::new(cancel.control());
    let timeout = || {
        error(ErrorBody::plain(
            "timeout",
            format!(
                "no answer within {} s (at most {MAX_RUNNING} computations run at once); \
                 try fewer courses or `pikeshot run` on the command line",
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
    if let Err(e) = cancel.check() {
        return error(e);
    }
    // The turn is held by the computation itself, so that it is given
    // back when the computation ends, even after a timeout.
    let computing = tokio::task::spawn_blocking(move || {
        let answer = compute::run(req, &cancel);
        drop(turn);
        answer
    });
    match tokio::time::timeout_at(deadline, computing).await {
        Ok(Ok(answer)) => {
            guard.finished();
            match answer {
                Ok(a) => json_ok(&a),
                Err(e) => error(e),
            }
        }
        Ok(Err(e)) => error(ErrorBody::plain(
            "internal",
            format!("the computation failed without an answer: {e}"),
        )),
        Err(_) => timeout(),
    }
}

/// The trials done and planned of the latest request of page `client`.
async fn progress(
    State(s): State<Shared>,
    client: Result<axum::extract::Path<String>, PathRejection>,
) -> Response {
    let client = match client {
        Ok(axum::extract::Path(c)) => c,
        Err(e) => return error(ErrorBody::plain("input", e.body_text())),
    };
    let page = match PageId::parse(&client) {
        Ok(p) => p,
        Err(e) => return error(e),
    };
    match s.generations.progress(&page) {
        Some(p) => json_ok(&p),
        None => error(ErrorBody::plain(
            "not-found",
            format!("no request from page \"{}\" yet", page.as_str()),
        )),
    }
}

#[derive(Serialize)]
struct DocOut<'a> {
    doc: &'a toml::Table,
}

#[derive(Serialize)]
struct TomlOut {
    toml: String,
}

#[derive(Deserialize)]
struct ParseBody {
    toml: String,
}

async fn parse(headers: HeaderMap, body: Body) -> Response {
    let bytes = match read_body(&headers, body).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let result = self::body::<ParseBody>(&bytes).and_then(|b| {
        let text = compute::scenario_text(Some(b.toml), None)?;
        compute::parse(&text).map_err(ErrorBody::from)
    });
    match result {
        // A struct, not `json!`: a JSON map would sort the keys, and the
        // form follows the file's order.
        Ok(doc) => json_ok(&DocOut { doc: &doc }),
        Err(e) => error(e),
    }
}

#[derive(Deserialize)]
struct TomlBody {
    doc: toml::Table,
}

async fn to_toml(headers: HeaderMap, body: Body) -> Response {
    let bytes = match read_body(&headers, body).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let result = self::body::<TomlBody>(&bytes).and_then(|b| {
        let text = compute::to_toml(&b.doc)?;
        compute::scenario_text(Some(text), None).map_err(ErrorBody::from)
    });
    match result {
        Ok(toml) => json_ok(&TomlOut { toml }),
        Err(e) => error(e),
    }
}

/// The handler: the body read under its limits, then [`super::decide::solve`] on a
/// blocking thread once a turn is free, answered within the time limit.
async fn decide(State(s): State<Shared>, headers: HeaderMap, raw: Body) -> Response {
    let bytes = match read_body(&headers, raw).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let req: super::decide::DecideBody = match body(&bytes) {
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
        let answer = super::decide::solve(req);
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
