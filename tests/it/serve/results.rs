//! The results side of `pikeshot serve`, through the binary: a page's
//! newer request cancels its older Monte Carlo run on the server (which
//! answers `cancelled`) and a page that goes away stops its run, the
//! progress of a run, a swept scenario's summary
//! (the report's own sweep charts and `sweep.csv` rows), and each key
//! outcome's polarity for colouring a difference.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{CHARGE, text};
use crate::support::cli::run_to;
use crate::support::hakkaa::VOLLEYS;
use crate::support::http::Server;
use crate::support::{col, file_names, read_csv};
use pikeshot::report::KEY_OUTCOMES;
use pikeshot::serve::limits::SERVE_TRIALS;

/// The volleys over eight variants, which run one after the other
/// whatever the number of cores: seconds of Monte Carlo, whose first
/// progress comes with most of the run still to go.
fn long_run() -> String {
    format!("{VOLLEYS}\n[sweep]\n\"units.musketeers.steps\" = [1, 2, 3, 4, 5, 6, 7, 8]\n")
}

#[test]
fn a_newer_request_from_the_same_page_cancels_its_running_monte_carlo() {
    let swept = long_run();
    let server = Server::start(&[]);
    let addr = server.addr.clone();
    let first = std::thread::spawn(move || {
        let body = json!({
            "toml": swept,
            "method": "monte-carlo",
            "trials": SERVE_TRIALS,
            "explain": false,
            "client": "page",
        });
        crate::support::http::request(&addr, "POST", "/api/run", Some(&body.to_string()))
    });
    // The first run's trials are under way: the page's progress says so.
    let deadline = Instant::now() + Duration::from_secs(120);
    let progress = loop {
        let r = server.get("/api/progress/page");
        if r.status == 200 && r.json()["trials_done"].as_u64().unwrap() > 0 {
            break r.json();
        }
        assert!(Instant::now() < deadline, "no progress: {}", r.body);
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(progress["trials_planned"], SERVE_TRIALS);
    assert!(progress["trials_done"].as_u64().unwrap() < SERVE_TRIALS);
    assert_eq!(progress["cancelled"], false);
    // The same page asks again: the first run stops and answers so.
    let second = server.post(
        "/api/run",
        &json!({ "toml": text(CHARGE), "explain": false, "client": "page" }),
    );
    assert_eq!(second.status, 200, "{}", second.body);
    let first = first.join().unwrap();
    assert_eq!(first.status, 409, "{}", first.body);
    assert_eq!(first.json()["error"]["kind"], "cancelled");
    // The progress now is the second request's (exact: no trials).
    let now = server.get("/api/progress/page").json();
    assert!(now["request"].as_u64() > progress["request"].as_u64());
    assert_eq!(now["trials_planned"], 0);
    // A page that never asked has no progress.
    assert_eq!(server.get("/api/progress/nobody").status, 404);
}

#[test]
fn a_page_that_goes_away_leaves_no_run_going() {
    use std::io::Write;
    let server = Server::start(&[]);
    let body = json!({
        "toml": long_run(),
        "method": "monte-carlo",
        "explain": false,
        "client": "gone",
    })
    .to_string();
    let mut s = std::net::TcpStream::connect(&server.addr).unwrap();
    let head = format!(
        "POST /api/run HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        server.addr,
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body.as_bytes()).unwrap();
    // The request is in: the page knows it.
    let deadline = Instant::now() + Duration::from_secs(120);
    while server.get("/api/progress/gone").status != 200 {
        assert!(Instant::now() < deadline, "the request never came in");
        std::thread::sleep(Duration::from_millis(20));
    }
    // The page closes its connection (a tab closed, a fetch aborted): the
    // server stops the run instead of finishing it for nobody.
    drop(s);
    loop {
        let p = server.get("/api/progress/gone").json();
        if p["cancelled"] == true {
            break;
        }
        assert!(Instant::now() < deadline, "still running: {p}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_sweep_answers_the_reports_sweep_charts_and_table() {
    // charge-or-salvo swept over the tercio's morale as well as the card:
    // a line chart per key and a heatmap per course.
    let swept = text(CHARGE).replace(
        "edition = [\"series\", \"sfo\"]",
        "edition = [\"series\", \"sfo\"]\n\"units.tercio.morale\" = [5, 6, 7]",
    );
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("swept.toml");
    std::fs::write(&file, &swept).unwrap();
    let server = Server::start(&[]);
    let r = server.post("/api/run", &json!({ "toml": swept, "explain": false }));
    assert_eq!(r.status, 200, "{}", r.body);
    let sweep = r.json()["sweep"].clone();
    assert_eq!(sweep["keys"], json!(["edition", "units.tercio.morale"]));
    assert_eq!(sweep["variants"], 6);
    // What `pikeshot run --method exact` writes for the same file: the
    // same charts, byte for byte, in the order it writes them.
    let folder = out.path().join("run");
    run_to(
        file.to_str().unwrap(),
        &["--method", "exact", "--plots", "all", "-q"],
        &folder,
    );
    let charts = sweep["charts"].as_array().unwrap();
    let stems: Vec<&str> = charts.iter().map(|c| c["stem"].as_str().unwrap()).collect();
    assert_eq!(
        stems,
        [
            "sweep--edition",
            "sweep--units-tercio-morale",
            "sweep--heatmap--charge-now",
            "sweep--heatmap--salvo-then-charge",
            "sweep--heatmap--keep-firing",
        ]
    );
    let written: Vec<String> = file_names(&folder)
        .into_iter()
        .filter(|n| n.starts_with("sweep--") && n.ends_with(".svg"))
        .collect();
    let mut sent: Vec<String> = stems.iter().map(|s| format!("{s}.svg")).collect();
    sent.sort();
    assert_eq!(sent, written);
    for c in charts {
        let svg =
            std::fs::read_to_string(folder.join(format!("{}.svg", c["stem"].as_str().unwrap())));
        assert_eq!(c["svg"].as_str().unwrap(), svg.unwrap(), "{}", c["stem"]);
    }
    // The table's rows are sweep.csv's key outcome rows.
    let (header, rows) = read_csv(&folder.join("sweep.csv"));
    assert_eq!(sweep["header"], json!(header));
    let kind = col(&header, "kind");
    let keys: Vec<Value> = rows
        .iter()
        .filter(|r| r[kind] == "key")
        .map(|r| json!(r))
        .collect();
    assert!(!keys.is_empty());
    assert_eq!(sweep["rows"], json!(keys));
    // An unswept scenario has none.
    let r = server.post(
        "/api/run",
        &json!({ "toml": text(CHARGE), "sets": ["edition=sfo"], "explain": false }),
    );
    assert_eq!(r.json()["sweep"], Value::Null);
}

#[test]
fn each_key_outcome_says_whether_more_is_better_for_the_own_side() {
    let server = Server::start(&[]);
    let r = server.post(
        "/api/run",
        &json!({ "toml": text(CHARGE), "explain": false }),
    );
    let polarity = r.json()["more_is_better"].clone();
    // A rise in the own unit's breaks and in the hits it takes is bad; in
    // the enemy's and the hits inflicted, good; the turns, neither.
    assert_eq!(polarity["p-own-broken-or-eliminated"], false);
    assert_eq!(polarity["expected-hits-taken"], false);
    assert_eq!(polarity["p-enemy-broken-or-eliminated"], true);
    assert_eq!(polarity["expected-hits-inflicted"], true);
    assert_eq!(polarity["expected-turns"], Value::Null);
    for d in KEY_OUTCOMES {
        assert_eq!(polarity[d.name].as_bool(), d.more_is_better, "{}", d.name);
    }
}
