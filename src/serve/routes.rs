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
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::assets::{PAGE_FILES, SHIPPED};
use super::compute::{self, ErrorBody, RunBody};
use super::http::{BodyError, Request, Response};
use super::limits::{Generations, MAX_BODY_BYTES, MAX_RUNNING, StopOnDrop, TIME_LIMIT, Turns};
use crate::scenario::limits::MAX_FILE_BYTES;

/// Most scenario files listed from DIR.
const MAX_DIR_FILES: usize = 1000;

/// How often a waiting request looks whether its page went away.
const POLL: Duration = Duration::from_millis(50);

/// What every handler shares.
pub struct AppState {
    /// The folder of the user's scenarios, if given.
    pub dir: Option<PathBuf>,
    /// `GET /api/systems`, built once.
    pub systems: String,
    /// Turns for computations.
    pub running: Arc<Turns>,
    /// Each page's latest request.
    pub generations: Arc<Generations>,
}

/// Answers `request`: the route its method and path name, `404` for a
/// path no route has, `405` for a route asked with another method.
pub fn handle(s: &AppState, request: &mut Request) -> Response {
    let path = request.path.clone();
    let get = request.method == "GET";
    let post = request.method == "POST";
    if let Some((_, body, kind)) = PAGE_FILES.iter().find(|(p, _, _)| *p == path) {
        return if get {
            page(body, kind)
        } else {
            wrong_method(&path, "GET")
        };
    }
    let (route, rest) = match path.strip_prefix("/api/") {
        Some(r) => r.split_once('/').map_or((r, None), |(a, b)| (a, Some(b))),
        None => ("", None),
    };
    match (route, rest, get, post) {
        ("systems", None, true, _) => systems(s),
        ("scenarios", None, true, _) => scenarios(s),
        ("scenario", Some(id), true, _) if !id.is_empty() => scenario(s, id),
        ("progress", Some(client), true, _) if !client.is_empty() && !client.contains('/') => {
            progress(s, client)
        }
        ("run", None, _, true) => run(s, request),
        ("parse", None, _, true) => parse(request),
        ("toml", None, _, true) => to_toml(request),
        ("systems" | "scenarios", None, false, _) => wrong_method(&path, "GET"),
        ("run" | "parse" | "toml", None, _, false) => wrong_method(&path, "POST"),
        _ => error(ErrorBody::plain(
            "not-found",
            format!("no page or API at {path}"),
        )),
    }
}

/// A request the server could not read as HTTP, answered with `status`.
pub fn refused(status: u16, why: String) -> Response {
    let kind = match status {
        503 => "busy",
        431 => "too-large",
        _ => "input",
    };
    let mut r = error(ErrorBody::plain(kind, why));
    r.status = status;
    r
}

fn wrong_method(path: &str, allowed: &'static str) -> Response {
    let mut r = error(ErrorBody::plain(
        "input",
        format!("{path} answers {allowed} only"),
    ));
    r.status = 405;
    r.with_header("Allow", allowed)
}

fn page(body: &'static str, kind: &'static str) -> Response {
    Response::new(200, kind, body).with_header("Cache-Control", "no-store")
}

fn json_ok<T: Serialize>(value: &T) -> Response {
    match serde_json::to_string(value) {
        Ok(s) => Response::new(200, "application/json", s),
        Err(e) => error(ErrorBody::plain("internal", e.to_string())),
    }
}

/// An error as JSON `{ "error": ... }` with the status its kind calls for.
fn error(e: ErrorBody) -> Response {
    let status = match e.kind {
        "input" => 400,
        "cancelled" => 409,
        "too-large" => 413,
        "busy" | "timeout" => 503,
        "not-found" => 404,
        _ => 500,
    };
    #[derive(Serialize)]
    struct Wrapped {
        error: ErrorBody,
    }
    let body = serde_json::to_string(&Wrapped { error: e }).unwrap_or_default();
    Response::new(status, "application/json", body)
}

/// Reads a JSON body, refusing what does not parse with a located error.
fn body<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> Result<T, ErrorBody> {
    serde_json::from_slice(bytes).map_err(|e| {
        ErrorBody::plain(
            "input",
            format!("the request is not the JSON expected: {e}"),
        )
    })
}

fn systems(s: &AppState) -> Response {
    Response::new(200, "application/json", s.systems.clone())
}

/// One scenario the page may load.
#[derive(Serialize)]
struct Listed {
    /// `shipped/<system>/<file>` or `dir/<path under DIR>`.
    id: String,
    /// Its rule system (the folder it is shipped in), if known.
    group: String,
}

fn scenarios(s: &AppState) -> Response {
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

fn scenario(s: &AppState, id: &str) -> Response {
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
            Ok(text) => Response::new(200, "application/toml; charset=utf-8", text),
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
/// over [`MAX_BODY_BYTES`].
fn read_body(request: &mut Request) -> Result<Vec<u8>, Response> {
    request.body(MAX_BODY_BYTES).map_err(|e| {
        error(match e {
            BodyError::TooLarge => ErrorBody::plain(
                "too-large",
                format!(
                    "the request is {} bytes, over the limit of {MAX_BODY_BYTES} \
                     (a scenario may be at most {MAX_FILE_BYTES} bytes)",
                    request.content_length.unwrap_or(0)
                ),
            ),
            BodyError::Chunked => ErrorBody::plain(
                "input",
                "the request's body came in chunks: send it with a Content-Length",
            ),
            BodyError::Io(e) => ErrorBody::plain(
                "input",
                format!("the request body could not be read whole: {e}"),
            ),
        })
    })
}

fn run(s: &AppState, request: &mut Request) -> Response {
    let bytes = match read_body(request) {
        Ok(b) => b,
        Err(r) => return r,
    };
    let req: RunBody = match body(&bytes) {
        Ok(r) => r,
        Err(e) => return error(e),
    };
    let deadline = Instant::now() + TIME_LIMIT;
    let cancel = s.generations.begin(req.client.as_deref());
    // Returned unanswered (the page gone, or the time limit): the run stops.
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
    let Some(turn) = s.running.take(deadline, POLL, || request.peer_gone()) else {
        return if Instant::now() >= deadline {
            timeout()
        } else {
            error(ErrorBody::plain("cancelled", "the page went away"))
        };
    };
    if let Err(e) = cancel.check() {
        return error(e);
    }
    // The turn is held by the computation itself, so that it is given
    // back when the computation ends, even after a timeout.
    let (send, answer) = channel();
    let computing = std::thread::Builder::new()
        .name("serve-run".into())
        .spawn(move || {
            let answer = compute::run(req, &cancel);
            drop(turn);
            let _ = send.send(answer);
        });
    if let Err(e) = computing {
        return error(ErrorBody::plain(
            "internal",
            format!("no thread for the computation: {e}"),
        ));
    }
    loop {
        let wait = deadline.saturating_duration_since(Instant::now()).min(POLL);
        match answer.recv_timeout(wait) {
            Ok(answer) => {
                guard.finished();
                return match answer {
                    Ok(a) => json_ok(&a),
                    Err(e) => error(e),
                };
            }
            Err(RecvTimeoutError::Disconnected) => {
                return error(ErrorBody::plain(
                    "internal",
                    "the computation failed without an answer",
                ));
            }
            Err(RecvTimeoutError::Timeout) if Instant::now() >= deadline => return timeout(),
            Err(RecvTimeoutError::Timeout) if request.peer_gone() => {
                return error(ErrorBody::plain("cancelled", "the page went away"));
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
    }
}

/// The trials done and planned of the latest request of page `client`.
fn progress(s: &AppState, client: &str) -> Response {
    match s.generations.progress(client) {
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

fn parse(request: &mut Request) -> Response {
    let bytes = match read_body(request) {
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

fn to_toml(request: &mut Request) -> Response {
    let bytes = match read_body(request) {
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
