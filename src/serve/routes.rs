//! The HTTP routes: the page and its assets, and the JSON API.
//!
//! - `GET /`, `/style.css`, `/form.js`, `/app.js`: the page (embedded).
//! - `GET /api/systems`: the registry ([`super::meta`]).
//! - `GET /api/scenarios`: the shipped scenarios and those under DIR.
//! - `GET /api/scenario/{*id}`: one of them, as TOML text.
//! - `POST /api/run`: odds and explanation ([`super::compute`]).
//! - `GET /api/progress/{client}`: how far that page's latest run is.
//! - `POST /api/parse`: TOML text to its JSON form; `POST /api/toml` back.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;

use super::assets::{PAGE_FILES, SHIPPED};
use super::compute::{self, ErrorBody, RunBody};
use super::limits::{Generations, MAX_BODY_BYTES, MAX_RUNNING, StopOnDrop, TIME_LIMIT};
use crate::scenario::limits::MAX_FILE_BYTES;

/// Most scenario files listed from DIR.
const MAX_DIR_FILES: usize = 1000;

/// What every handler shares.
pub struct AppState {
    /// The folder of the user's scenarios, if given.
    pub dir: Option<PathBuf>,
    /// `GET /api/systems`, built once.
    pub systems: String,
    /// Turns for computations.
    pub running: Arc<Semaphore>,
    /// Each page's latest request.
    pub generations: Arc<Generations>,
}

/// The router over `state`.
pub fn router(state: AppState) -> Router {
    let mut router = Router::new();
    for (path, body, kind) in PAGE_FILES {
        router = router.route(path, get(move || async move { page(body, kind) }));
    }
    router
        .route("/api/systems", get(systems))
        .route("/api/scenarios", get(scenarios))
        .route("/api/scenario/{*id}", get(scenario))
        .route("/api/run", post(run))
        .route("/api/progress/{client}", get(progress))
        .route("/api/parse", post(parse))
        .route("/api/toml", post(to_toml))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(Arc::new(state))
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

fn json_ok<T: Serialize>(value: &T) -> Response {
    match serde_json::to_string(value) {
        Ok(s) => ([(header::CONTENT_TYPE, "application/json")], s).into_response(),
        Err(e) => error(ErrorBody::plain("internal", e.to_string())),
    }
}

/// An error as JSON `{ "error": ... }` with the status its kind calls for.
fn error(e: ErrorBody) -> Response {
    let status = match e.kind {
        "input" => StatusCode::BAD_REQUEST,
        "cancelled" => StatusCode::CONFLICT,
        "too-large" => StatusCode::PAYLOAD_TOO_LARGE,
        "busy" | "timeout" => StatusCode::SERVICE_UNAVAILABLE,
        "not-found" => StatusCode::NOT_FOUND,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    #[derive(Serialize)]
    struct Wrapped {
        error: ErrorBody,
    }
    let body = serde_json::to_string(&Wrapped { error: e }).unwrap_or_default();
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// Reads a JSON body, refusing what does not parse with a located error.
fn body<T: for<'de> Deserialize<'de>>(bytes: &Bytes) -> Result<T, ErrorBody> {
    serde_json::from_slice(bytes).map_err(|e| {
        ErrorBody::plain(
            "input",
            format!("the request is not the JSON expected: {e}"),
        )
    })
}

async fn systems(State(s): State<Arc<AppState>>) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        s.systems.clone(),
    )
        .into_response()
}

/// One scenario the page may load.
#[derive(Serialize)]
struct Listed {
    /// `shipped/<system>/<file>` or `dir/<path under DIR>`.
    id: String,
    /// Its rule system (the folder it is shipped in), if known.
    group: String,
}

async fn scenarios(State(s): State<Arc<AppState>>) -> Response {
    let mut out: Vec<Listed> = SHIPPED
        .iter()
        .map(|(path, _)| Listed {
            id: format!("shipped/{path}"),
            group: path.split('/').next().unwrap_or("").to_string(),
        })
        .collect();
    if let Some(dir) = &s.dir {
        out.extend(dir_files(dir).into_iter().map(|rel| Listed {
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
    State(s): State<Arc<AppState>>,
    axum::extract::Path(id): axum::extract::Path<String>,
) -> Response {
    if let Some(path) = id.strip_prefix("shipped/")
        && let Some((_, text)) = SHIPPED.iter().find(|(p, _)| *p == path)
    {
        return page(text, "application/toml; charset=utf-8");
    }
    // Only a file the listing names: no path outside DIR is ever read.
    if let (Some(rel), Some(dir)) = (id.strip_prefix("dir/"), &s.dir)
        && dir_files(dir).iter().any(|f| f == rel)
    {
        return match read_capped(&dir.join(rel)) {
            Ok(text) => (
                [(header::CONTENT_TYPE, "application/toml; charset=utf-8")],
                text,
            )
                .into_response(),
            Err(e) => error(e),
        };
    }
    error(ErrorBody::plain(
        "not-found",
        format!("no scenario \"{id}\"; GET /api/scenarios lists them"),
    ))
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
/// over [`MAX_BODY_BYTES`], and cut off at that limit when it has none.
async fn read_body(request: Request) -> Result<Bytes, Response> {
    if let Some(r) = too_long(request.headers()) {
        return Err(r);
    }
    axum::body::to_bytes(request.into_body(), MAX_BODY_BYTES)
        .await
        .map_err(|e| {
            error(ErrorBody::plain(
                "too-large",
                format!(
                    "the request body could not be read whole within {MAX_BODY_BYTES} bytes: {e}"
                ),
            ))
        })
}

fn too_long(headers: &HeaderMap) -> Option<Response> {
    let length = headers
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .parse::<u64>()
        .ok()?;
    (length > MAX_BODY_BYTES as u64).then(|| {
        error(ErrorBody::plain(
            "too-large",
            format!(
                "the request is {length} bytes, over the limit of {MAX_BODY_BYTES} \
                 (a scenario may be at most {MAX_FILE_BYTES} bytes)"
            ),
        ))
    })
}

async fn run(State(s): State<Arc<AppState>>, request: Request) -> Response {
    let bytes = match read_body(request).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let req: RunBody = match body(&bytes) {
        Ok(r) => r,
        Err(e) => return error(e),
    };
    let cancel = s.generations.begin(req.client.as_deref());
    // Dropped unanswered (the page gone, or the time limit): the run stops.
    let guard = StopOnDrop::new(cancel.control());
    let work = async {
        let permit = Arc::clone(&s.running)
            .acquire_owned()
            .await
            .map_err(|_| ErrorBody::plain("busy", "the server is shutting down"))?;
        cancel.check()?;
        // The turn is held by the computation itself, so that it is given
        // back when the computation ends, even after a timeout.
        tokio::task::spawn_blocking(move || {
            let answer = compute::run(req, &cancel);
            drop(permit);
            answer
        })
        .await
        .map_err(|e| ErrorBody::plain("internal", format!("the computation failed: {e}")))?
    };
    let answer = tokio::time::timeout(TIME_LIMIT, work).await;
    if answer.is_ok() {
        guard.finished();
    }
    match answer {
        Ok(Ok(answer)) => json_ok(&answer),
        Ok(Err(e)) => error(e),
        Err(_) => error(ErrorBody::plain(
            "timeout",
            format!(
                "no answer within {} s (at most {MAX_RUNNING} computations run at once); \
                 try fewer courses or `pikeshot run` on the command line",
                TIME_LIMIT.as_secs()
            ),
        )),
    }
}

/// The trials done and planned of the latest request of page `client`.
async fn progress(
    State(s): State<Arc<AppState>>,
    axum::extract::Path(client): axum::extract::Path<String>,
) -> Response {
    match s.generations.progress(&client) {
        Some(p) => json_ok(&p),
        None => error(ErrorBody::plain(
            "not-found",
            format!("no request from page \"{client}\" yet"),
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

async fn parse(request: Request) -> Response {
    let bytes = match read_body(request).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let result = body::<ParseBody>(&bytes).and_then(|b| {
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

async fn to_toml(request: Request) -> Response {
    let bytes = match read_body(request).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let result = body::<TomlBody>(&bytes).and_then(|b| {
        let text = compute::to_toml(&b.doc)?;
        compute::scenario_text(Some(text), None).map_err(ErrorBody::from)
    });
    match result {
        Ok(toml) => json_ok(&TomlOut { toml }),
        Err(e) => error(e),
    }
}
