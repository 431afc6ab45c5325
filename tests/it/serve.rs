//! `pikeshot serve`: the JSON API, through the binary on a free port (no
//! browser; `serve/browser.rs` drives the page in headless Chromium).

mod browser;
mod browser_decision;
mod browser_forgive;
mod hostile;
mod results;

use std::path::Path;

use serde_json::{Value, json};

use crate::support::cli::{pikeshot, run_to, stderr, stdout};
use crate::support::http::{Server, claim_length, request, send};
use crate::support::{shipped_files, shipped_root};
use pikeshot::scenario::limits::MAX_FILE_BYTES;
use pikeshot::serve::limits::{Generations, MAX_BODY_BYTES, PageId};
use pikeshot::systems::Registry;

const CHARGE: &str = "scenarios/mpbs/charge-or-salvo.toml";

fn text(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// `pikeshot run FILE --method exact --format json` with `sets`: the
/// scenario's JSON.
pub fn cli_exact(file: &Path, sets: &[&str]) -> Value {
    let out = tempfile::tempdir().unwrap();
    let mut args = vec![
        "--method", "exact", "--format", "json", "-q", "--plots", "none",
    ];
    for s in sets {
        args.extend(["--set", s]);
    }
    let o = run_to(file, &args, out.path());
    let doc: Value = serde_json::from_str(&stdout(&o)).unwrap();
    doc["scenarios"][0].clone()
}

/// Every (variant, course, outcome) exact probability and (variant,
/// course, key outcome) exact value and exact difference of a run's JSON.
pub fn exact_figures(scenario: &Value) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    for c in scenario["courses"].as_array().unwrap() {
        let at = format!("{} / {}", c["variant"], c["course"]);
        for o in c["outcomes"].as_array().unwrap() {
            out.push((
                format!("{at} / {}", o["outcome"]),
                o["exact"].as_f64().unwrap(),
            ));
        }
        for k in c["key_outcomes"].as_array().unwrap() {
            out.push((
                format!("{at} / {}", k["name"]),
                k["exact"].as_f64().unwrap(),
            ));
            if let Some(d) = k["difference"].as_object() {
                out.push((
                    format!("{at} / {} difference", k["name"]),
                    d["exact"].as_f64().unwrap(),
                ));
            }
        }
    }
    out
}

/// The keys a list of `/api/systems` key entries names, in order.
fn listed_keys(keys: &Value) -> Vec<&str> {
    keys.as_array()
        .unwrap()
        .iter()
        .map(|k| k["key"].as_str().unwrap())
        .collect()
}

/// The names a list of `[name, ...]` pairs of `/api/systems` gives, in
/// order (editions, a control's names per card).
fn pair_names(pairs: &Value) -> Vec<&str> {
    pairs
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e[0].as_str().unwrap())
        .collect()
}

/// The keys of the registry's `docs`, in order.
fn doc_keys(docs: &[pikeshot::systems::KeyDoc]) -> Vec<&'static str> {
    docs.iter().map(|k| k.key).collect()
}

#[test]
fn systems_lists_every_registry_system_procedure_and_key() {
    let server = Server::start(&[]);
    let r = server.get("/api/systems");
    assert_eq!(r.status, 200);
    let meta = r.json();
    let listed = meta["systems"].as_array().unwrap();
    assert_eq!(listed.len(), Registry::shipped().systems().len());
    for (sys, m) in Registry::shipped().systems().iter().zip(listed) {
        assert_eq!(m["id"], sys.id());
        assert_eq!(m["list"], sys.list(), "the whole `pikeshot list` text");
        let eds: Vec<&str> = sys.editions().iter().map(|e| e.id).collect();
        assert_eq!(pair_names(&m["editions"]), eds);
        let procs = m["procedures"].as_array().unwrap();
        assert_eq!(procs.len(), sys.procedures().len(), "{}", sys.id());
        for (p, pm) in sys.procedures().iter().zip(procs) {
            assert_eq!(pm["name"], p.name);
            assert_eq!(
                listed_keys(&pm["keys"]),
                doc_keys(p.keys),
                "{} {}",
                sys.id(),
                p.name
            );
            for (k, doc) in pm["keys"].as_array().unwrap().iter().zip(p.keys) {
                assert_eq!(k["help"], doc.describe(), "as `pikeshot list` prints it");
                assert!(
                    ["bool", "int", "decimal", "enum", "unit", "units", "text"]
                        .contains(&k["control"]["kind"].as_str().unwrap())
                );
            }
        }
        assert_eq!(listed_keys(&m["rules_keys"]), doc_keys(&sys.rules_keys()));
        for k in m["rules_keys"].as_array().unwrap() {
            assert!(k["default"].is_string(), "every reading has a default: {k}");
        }
        assert_eq!(listed_keys(&m["unit_keys"]), doc_keys(&sys.unit_keys()));
        assert_eq!(m["max_turns"], sys.max_turns());
    }
    let key = |keys: &Value, name: &str| -> Value {
        keys.as_array()
            .unwrap()
            .iter()
            .find(|k| k["key"] == name)
            .unwrap_or_else(|| panic!("no key {name}"))
            .clone()
    };
    // The card's names reach the unit forms, per card where they differ
    // (mpbs terrain, one list per card's TEC).
    let mpbs = &listed[0];
    let terrain = key(&mpbs["unit_keys"], "terrain")["control"].clone();
    assert_eq!(terrain["kind"], "enum");
    assert_eq!(pair_names(&terrain["by_edition"]), ["sfo", "series"]);
    for by in terrain["by_edition"].as_array().unwrap() {
        assert!(by[1].as_array().unwrap().contains(&json!("clear")), "{by}");
    }
    // A class given one name per line of `pikeshot list` (Hakkaa's `type`).
    let hakkaa = listed.iter().find(|m| m["id"] == "hakkaa").unwrap();
    let class = key(&hakkaa["unit_keys"], "type")["control"].clone();
    assert_eq!(class["kind"], "enum");
    assert!(class["values"].as_array().unwrap().contains(&json!("levy")));
    // A grade: a name or a TQ number from 6 to 11.
    let tq = key(&hakkaa["unit_keys"], "tq")["control"].clone();
    assert_eq!(
        (tq["min"].as_i64(), tq["max"].as_i64()),
        (Some(6), Some(11))
    );
    assert!(
        tq["values"].as_array().unwrap().contains(&json!("veteran")),
        "{tq}"
    );
    // A step key's range becomes a number control with its bounds; a
    // leader is a rating or a switch; a unit key picks the scenario's units.
    let cc = &mpbs["procedures"][0]["keys"];
    let drm = key(cc, "extra_drm");
    assert_eq!(drm["control"]["kind"], "int");
    assert_eq!(
        (
            drm["control"]["min"].as_i64(),
            drm["control"]["max"].as_i64()
        ),
        (Some(-9), Some(9))
    );
    assert_eq!(drm["default"], "0");
    let leader = key(cc, "attacker_leader")["control"].clone();
    assert_eq!(
        (leader["kind"].as_str(), leader["or_bool"].as_bool()),
        (Some("int"), Some(true))
    );
    assert_eq!(key(cc, "defender")["control"]["kind"], "unit");
    assert_eq!(key(cc, "attacker")["control"]["kind"], "units");
    // A choice of the card's names, from the reader's own list.
    let momentum = key(cc, "momentum")["control"].clone();
    assert_eq!(momentum["values"], json!(["cavalry", "heavy-infantry"]));
    assert_eq!(momentum["or_bool"], true);
}

#[test]
fn run_of_charge_or_salvo_equals_the_cli_exact_run() {
    let server = Server::start(&[]);
    let r = server.post("/api/run", &json!({ "toml": text(CHARGE) }));
    assert_eq!(r.status, 200, "{}", r.body);
    let answer = r.json();
    assert_eq!(answer["method"], "exact");
    let cli = cli_exact(Path::new(CHARGE), &[]);
    let (got, want) = (exact_figures(&answer["scenario"]), exact_figures(&cli));
    assert_eq!(got.len(), want.len());
    assert!(!got.is_empty());
    assert_eq!(got, want);
    // Each course's explanation comes with it (the CLI's explain model).
    let ex = &answer["explain"]["variants"];
    assert_eq!(ex.as_array().unwrap().len(), 2, "one per card of the sweep");
    assert_eq!(ex[0]["courses"][1]["name"], "salvo, then charge");
    // And --set applies as on the CLI.
    let r = server.post(
        "/api/run",
        &json!({ "toml": text(CHARGE), "sets": ["edition=sfo"], "explain": false }),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let cli = cli_exact(Path::new(CHARGE), &["edition=sfo"]);
    assert_eq!(exact_figures(&r.json()["scenario"]), exact_figures(&cli));
}

#[test]
fn an_invalid_value_is_a_located_error_in_the_cli_words() {
    let server = Server::start(&[]);
    let bad = text(CHARGE).replace("fired_salvo = true", "fired_salvo = true, extra_drm = 42");
    let r = server.post("/api/run", &json!({ "toml": bad }));
    assert_eq!(r.status, 400, "{}", r.body);
    let e = &r.json()["error"];
    assert_eq!(e["kind"], "input");
    assert_eq!(e["key"], "course[1].steps[1].extra_drm");
    assert_eq!(e["accepted"], "a whole number from -9 to 9");
    let line = bad
        .lines()
        .position(|l| l.contains("extra_drm = 42"))
        .unwrap()
        + 1;
    assert_eq!(e["line"].as_u64(), Some(line as u64));
    // The same words as `pikeshot run` on the same text.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("scenario.toml");
    std::fs::write(&file, &bad).unwrap();
    let o = pikeshot(&[
        "run",
        file.to_str().unwrap(),
        "-q",
        "--out",
        dir.path().join("o").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let cli = stderr(&o);
    let after_file = |s: &str| {
        s.split_once("scenario.toml:")
            .map(|(_, r)| r.trim().to_string())
    };
    assert_eq!(
        after_file(e["message"].as_str().unwrap()),
        after_file(cli.trim_start_matches("error: ")),
    );
    // An unknown method is refused with what is accepted.
    let r = server.post(
        "/api/run",
        &json!({ "toml": text(CHARGE), "method": "guess" }),
    );
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["error"]["key"], "method");
    // Broken TOML is located by line.
    let r = server.post(
        "/api/parse",
        &json!({ "toml": "system = \"mpbs\"\n[units\n" }),
    );
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["error"]["line"].as_u64(), Some(2));
}

#[test]
fn what_is_not_http_or_no_route_is_refused_with_its_status() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("my fight.toml"), text(CHARGE)).unwrap();
    let server = Server::start(&[dir.path().to_str().unwrap()]);
    let host = &server.addr;
    // Not a request line; a head over 16 KiB; a length that is no number:
    // hyper refuses them with their status (and no body); a chunked body
    // and a path that does not percent-decode reach the routes, which
    // answer with a JSON error.
    for (bytes, status, json) in [
        (b"hello\r\n\r\n".to_vec(), 400, false),
        (
            format!(
                "GET / HTTP/1.1\r\nHost: {host}\r\nX: {}\r\n\r\n",
                "y".repeat(17_000)
            )
            .into_bytes(),
            431,
            false,
        ),
        (
            format!("POST /api/run HTTP/1.1\r\nHost: {host}\r\nContent-Length: lots\r\n\r\n")
                .into_bytes(),
            400,
            false,
        ),
        (
            format!(
                "POST /api/run HTTP/1.1\r\nHost: {host}\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
            )
            .into_bytes(),
            400,
            true,
        ),
        (
            format!("GET /api/scenario/%zz HTTP/1.1\r\nHost: {host}\r\n\r\n").into_bytes(),
            400,
            true,
        ),
    ] {
        let r = send(&server.addr, &bytes);
        assert_eq!(r.status, status, "{}", r.body);
        if json {
            assert!(r.body.contains("\"error\""), "{status}: {}", r.body);
        }
    }
    // A route asked with the wrong method names the one it answers.
    let r = request(&server.addr, "DELETE", "/api/run", None);
    assert_eq!(r.status, 405, "{}", r.body);
    assert!(r.body.contains("POST only"), "{}", r.body);
    assert_eq!(request(&server.addr, "POST", "/", Some("{}")).status, 405);
    // A path no route has.
    assert_eq!(server.get("/api/nothing").status, 404);
    assert_eq!(server.get("/api/progress/a/b").status, 404);
    // A percent-encoded path (a file name with a space), and a query.
    let listed = server.get("/api/scenarios").body;
    assert!(listed.contains("dir/my fight.toml"), "{listed}");
    let r = server.get("/api/scenario/dir/my%20fight.toml?x=1");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body, text(CHARGE));
}

#[test]
fn oversize_bodies_and_scenarios_are_refused() {
    let server = Server::start(&[]);
    let r = claim_length(&server.addr, "/api/run", MAX_BODY_BYTES as u64 + 1);
    assert_eq!(r.status, 413, "{}", r.body);
    // A body within bounds whose scenario is over the file size limit.
    let big = format!(
        "# {}\n{}",
        "x".repeat(MAX_FILE_BYTES as usize),
        text(CHARGE)
    );
    let r = server.post("/api/run", &json!({ "toml": big }));
    assert_eq!(r.status, 400, "{}", &r.body[..r.body.len().min(300)]);
    let e = &r.json()["error"];
    assert!(
        e["message"].as_str().unwrap().contains("over the limit"),
        "{e}"
    );
    assert!(
        e["accepted"]
            .as_str()
            .unwrap()
            .contains(&MAX_FILE_BYTES.to_string())
    );
}

#[test]
fn every_shipped_scenario_round_trips_through_parse_and_toml_to_identical_results() {
    let server = Server::start(&[]);
    let list = server.get("/api/scenarios").json();
    let ids: Vec<String> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect();
    // The embedded list is every file under scenarios/.
    let root = shipped_root();
    let mut files: Vec<String> = shipped_files("")
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(&root).unwrap().to_str().unwrap();
            format!("shipped/{}", rel.replace('\\', "/"))
        })
        .collect();
    files.sort();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(
        sorted, files,
        "the page's list (serve::assets::SHIPPED) holds every shipped scenario"
    );
    for id in &ids {
        let original = server.get(&format!("/api/scenario/{id}"));
        assert_eq!(original.status, 200, "{id}");
        assert_eq!(original.body, text(&id.replace("shipped/", "scenarios/")));
        // The answers are passed on as text: a `serde_json::Value` would
        // sort the keys, and their order is the file's (a sweep's order is
        // its variants').
        let doc = server.post("/api/parse", &json!({ "toml": original.body }));
        assert_eq!(doc.status, 200, "{id}: {}", doc.body);
        let toml =
            request(&server.addr, "POST", "/api/toml", Some(&doc.body)).json()["toml"].clone();
        let again = server.post("/api/parse", &json!({ "toml": toml }));
        assert_eq!(
            again.body, doc.body,
            "{id}: the document survives the round trip"
        );
        let run = |t: &str| {
            let r = server.post("/api/run", &json!({ "toml": t, "explain": false }));
            assert_eq!(r.status, 200, "{id}: {}", r.body);
            r.json()
        };
        let (a, b) = (run(&original.body), run(toml.as_str().unwrap()));
        let differ = differences(&a, &b, String::new());
        assert!(
            differ.is_empty(),
            "{id}: the round-tripped TOML's results differ: {differ:?}"
        );
    }
}

/// The paths at which two JSON documents differ, with both values.
fn differences(a: &Value, b: &Value, at: String) -> Vec<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) if x.len() == y.len() => x
            .iter()
            .flat_map(|(k, v)| differences(v, &y[k], format!("{at}.{k}")))
            .collect(),
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .flat_map(|(i, (u, v))| differences(u, v, format!("{at}[{i}]")))
            .collect(),
        _ if a == b => Vec::new(),
        _ => vec![format!("{at}: {a} vs {b}")],
    }
}

#[test]
fn dir_scenarios_are_listed_and_nothing_outside_dir_is_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("mine")).unwrap();
    std::fs::write(dir.path().join("mine/fight.toml"), text(CHARGE)).unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not a scenario").unwrap();
    let server = Server::start(&[dir.path().to_str().unwrap()]);
    let list = server.get("/api/scenarios").json();
    let dir_ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["id"].as_str())
        .filter(|id| id.starts_with("dir/"))
        .collect();
    assert_eq!(dir_ids, ["dir/mine/fight.toml"]);
    assert_eq!(
        server.get("/api/scenario/dir/mine/fight.toml").body,
        text(CHARGE)
    );
    for bad in [
        "dir/../Cargo.toml",
        "dir/notes.txt",
        "dir//etc/passwd",
        "shipped/nope.toml",
    ] {
        assert_eq!(
            server.get(&format!("/api/scenario/{bad}")).status,
            404,
            "{bad}"
        );
    }
    // The page and its assets are served from the binary.
    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("/app.js"));
    assert!(server.get("/app.js").body.contains("/api/run"));
    // The form's script, loaded before app.js, which calls it.
    let form_at = page.body.find("/form.js").expect("the page loads form.js");
    assert!(form_at < page.body.find("/app.js").unwrap());
    assert!(server.get("/form.js").body.contains("function renderForm"));
}

#[test]
fn a_non_loopback_host_is_warned_about_and_loopback_is_the_default() {
    let server = Server::start(&[]);
    assert!(server.addr.starts_with("127.0.0.1:"), "{}", server.banner);
    assert!(!server.stop().contains("WARNING"));
    let open = Server::start(&["--host", "0.0.0.0"]);
    let err = open.stop();
    assert!(
        err.contains("WARNING") && err.contains("not a loopback address"),
        "{err}"
    );
}

#[test]
fn a_newer_request_of_the_same_page_supersedes_the_older() {
    let g = std::sync::Arc::new(Generations::default());
    let (page, another) = (
        PageId::parse("page").unwrap(),
        PageId::parse("another-page").unwrap(),
    );
    let first = g.begin(Some(&page));
    let other = g.begin(Some(&another));
    assert!(first.check().is_ok());
    let second = g.begin(Some(&page));
    assert_eq!(first.check().unwrap_err().kind, "cancelled");
    // Its run is stopped too, not only its next stage.
    assert!(first.control().is_stopped() && !second.control().is_stopped());
    assert!(second.check().is_ok() && other.check().is_ok());
    // A request without a page id is never superseded.
    let lone = g.begin(None);
    g.begin(None);
    assert!(lone.check().is_ok());
}
