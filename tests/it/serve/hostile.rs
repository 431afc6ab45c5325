//! `pikeshot serve` under hostile use: requests addressed to another
//! name (DNS rebinding), computing requests from another site, page ids
//! made to fill memory, and clients that send their requests a byte at a
//! time.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::http::{Server, request_with};
use pikeshot::serve::http::HEAD_DEADLINE;
use pikeshot::serve::limits::{Generations, MAX_PAGE_ID, MAX_PAGES, PageId};

/// A scenario that parses: the smallest of the shipped ones will do.
const SCENARIO: &str = "scenarios/mpbs/charge-or-salvo.toml";

fn scenario_text() -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(SCENARIO))
        .unwrap()
}

fn port(server: &Server) -> &str {
    server.addr.rsplit(':').next().unwrap()
}

#[test]
fn a_request_addressed_to_another_name_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("secret.toml"), scenario_text()).unwrap();
    let server = Server::start(&[dir.path().to_str().unwrap()]);
    let p = port(&server);
    let other_port = format!("127.0.0.1:{}", p.parse::<u32>().unwrap() % 65535 + 1);
    for host in [
        format!("attacker.example:{p}"),
        "attacker.example".to_string(),
        other_port,
        format!("localhost.attacker.example:{p}"),
    ] {
        for path in ["/api/scenarios", "/api/scenario/dir/secret.toml", "/"] {
            let r = request_with(&server.addr, "GET", path, &[("Host", &host)], "");
            assert_eq!(r.status, 421, "Host {host} {path}: {}", r.body);
            let e = r.json();
            assert_eq!(e["error"]["kind"], "misdirected", "{e}");
            assert!(!r.body.contains("secret"), "{}", r.body);
        }
    }
    // No Host at all (HTTP/1.0) is refused too.
    let r = crate::support::http::send(&server.addr, b"GET /api/scenarios HTTP/1.0\r\n\r\n");
    assert_eq!(r.status, 421, "{}", r.body);
    // The names it is reached at are served.
    for host in [
        server.addr.clone(),
        format!("localhost:{p}"),
        format!("LocalHost:{p}"),
        format!("[::1]:{p}"),
    ] {
        let r = request_with(
            &server.addr,
            "GET",
            "/api/scenarios",
            &[("Host", &host)],
            "",
        );
        assert_eq!(r.status, 200, "Host {host}: {}", r.body);
        assert!(r.body.contains("dir/secret.toml"), "{}", r.body);
    }
}

#[test]
fn a_computing_request_from_another_site_is_refused() {
    let server = Server::start(&[]);
    let host = server.addr.clone();
    let body = json!({ "toml": scenario_text(), "explain": false }).to_string();
    let own = format!("http://{host}");
    let cross: [&[(&str, &str)]; 5] = [
        // A cross-site form or fetch: text/plain needs no preflight.
        &[
            ("Origin", "http://attacker.example"),
            ("Content-Type", "text/plain"),
        ],
        &[("Origin", "null")],
        &[("Origin", "https://127.0.0.1")],
        &[("Sec-Fetch-Site", "cross-site")],
        // Another port of the same machine is another site's page.
        &[("Origin", &own), ("Sec-Fetch-Site", "same-site")],
    ];
    for extra in cross {
        let mut headers = vec![("Host", host.as_str())];
        headers.extend_from_slice(extra);
        for path in ["/api/run", "/api/decide", "/api/parse", "/api/toml"] {
            let r = request_with(&server.addr, "POST", path, &headers, &body);
            assert_eq!(r.status, 403, "{extra:?} {path}: {}", r.body);
            assert_eq!(r.json()["error"]["kind"], "forbidden", "{}", r.body);
        }
    }
    // The page's own requests, as a browser sends them, are computed.
    let r = request_with(
        &server.addr,
        "POST",
        "/api/run",
        &[
            ("Host", &host),
            ("Origin", &own),
            ("Sec-Fetch-Site", "same-origin"),
            ("Content-Type", "application/json"),
        ],
        &body,
    );
    assert_eq!(r.status, 200, "{}", &r.body[..r.body.len().min(300)]);
    assert_eq!(r.json()["method"], "exact");
    // Reading is not refused for its Origin (the Host check guards it).
    let r = request_with(
        &server.addr,
        "GET",
        "/api/systems",
        &[("Host", &host), ("Origin", "http://attacker.example")],
        "",
    );
    assert_eq!(r.status, 200);
}

/// The server's resident memory, in bytes (Linux).
fn resident(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kb * 1024
}

#[test]
fn hostile_page_ids_are_refused_and_memory_stays_bounded() {
    let server = Server::start(&[]);
    let host = server.addr.clone();
    let post = |client: &str| {
        let body = json!({ "toml": "", "client": client }).to_string();
        request_with(
            &server.addr,
            "POST",
            "/api/run",
            &[("Host", &host), ("Content-Type", "application/json")],
            &body,
        )
    };
    // Warm up: the runtime's threads and buffers exist before measuring.
    for _ in 0..5 {
        assert_eq!(post(&"w".repeat(MAX_PAGE_ID)).status, 400);
        post(&"x".repeat(2 << 20));
    }
    let before = resident(server.pid());
    for i in 0..300 {
        match i % 3 {
            // 2 MB ids, each different: refused, nothing kept.
            0 => {
                let id = format!("{i}{}", "a".repeat(2 << 20));
                let r = post(&id);
                assert_eq!(r.status, 400, "{}", &r.body[..r.body.len().min(300)]);
                let e = &r.json()["error"];
                assert_eq!(e["key"], "client", "{e}");
                assert!(r.body.len() < 1000, "the id is not quoted back");
            }
            // Ids one over the limit, or of characters not accepted.
            1 => {
                let id = if i % 2 == 0 {
                    format!("{i:0>width$}", width = MAX_PAGE_ID + 1)
                } else {
                    format!("page {i}/..")
                };
                assert_eq!(post(&id).status, 400, "{id}");
                let r = request_with(
                    &server.addr,
                    "GET",
                    &format!("/api/progress/{}", "p".repeat(8000)),
                    &[("Host", &host)],
                    "",
                );
                assert_eq!(r.status, 400, "{}", &r.body[..r.body.len().min(300)]);
            }
            // Distinct valid ids, each remembered (a scenario that does not
            // read is still a request of its page).
            _ => {
                let id = format!("{i:x>width$}", width = MAX_PAGE_ID);
                assert_eq!(post(&id).status, 400);
                let r = request_with(
                    &server.addr,
                    "GET",
                    &format!("/api/progress/{id}"),
                    &[("Host", &host)],
                    "",
                );
                assert_eq!(r.status, 200, "{}", r.body);
            }
        }
    }
    let after = resident(server.pid());
    assert!(
        after <= before + 10 * 1024 * 1024,
        "resident memory grew from {before} to {after} bytes over 300 hostile requests"
    );
}

#[test]
fn the_page_store_is_bounded_in_pages_and_forgets_the_oldest() {
    let g = std::sync::Arc::new(Generations::default());
    let first = PageId::parse("first").unwrap();
    g.begin(Some(&first));
    for i in 0..(MAX_PAGES + 500) {
        g.begin(Some(&PageId::parse(&format!("page-{i}")).unwrap()));
        assert!(g.pages() <= MAX_PAGES);
    }
    assert_eq!(g.pages(), MAX_PAGES);
    assert!(g.progress(&first).is_none(), "the oldest page is forgotten");
    let last = PageId::parse(&format!("page-{}", MAX_PAGES + 499)).unwrap();
    assert!(g.progress(&last).is_some());
    for bad in ["", "a b", "a/b", "é", &"x".repeat(MAX_PAGE_ID + 1)] {
        assert!(PageId::parse(bad).is_err(), "{bad:?}");
    }
    assert!(PageId::parse(&"Az09-_".repeat(10)).is_ok());
}

/// Whether the server has closed `s`: its end of the stream read (any
/// answer first), or the connection reset; `false` while it is open.
fn ended_now(s: &mut TcpStream) -> bool {
    s.set_nonblocking(true).unwrap();
    let mut buf = [0u8; 4096];
    let ended = loop {
        match s.read(&mut buf) {
            Ok(0) => break true,
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break true,
            Err(_) => break false,
        }
    };
    s.set_nonblocking(false).unwrap();
    ended
}

#[test]
fn slow_clients_do_not_starve_others() {
    let server = Server::start(&[]);
    let start = Instant::now();
    // 70 connections: 60 send their head a byte at a time, 10 a whole head
    // and then their body a byte at a time.
    let head = format!(
        "GET /api/systems HTTP/1.1\r\nHost: {}\r\nX-Pad: {}\r\n\r\n",
        server.addr,
        "y".repeat(200)
    );
    let body_head = format!(
        "POST /api/parse HTTP/1.1\r\nHost: {}\r\nContent-Length: 1000\r\n\r\n",
        server.addr
    );
    let mut trickling: Vec<TcpStream> = (0..70)
        .map(|i| {
            let mut s = TcpStream::connect(&server.addr).unwrap();
            s.set_write_timeout(Some(Duration::from_secs(1))).unwrap();
            if i >= 60 {
                s.write_all(body_head.as_bytes()).unwrap();
            }
            s
        })
        .collect();
    let mut sent = 0;
    let mut answered_in = None;
    let mut closed = vec![false; trickling.len()];
    // One byte on every connection each second, past the head deadline
    // (until every head trickler is cut off, or five seconds past it); a
    // normal request meanwhile.
    while start.elapsed() < HEAD_DEADLINE + Duration::from_secs(5) {
        if answered_in.is_some() && start.elapsed() > HEAD_DEADLINE {
            for (i, s) in trickling.iter_mut().enumerate().take(60) {
                closed[i] = closed[i] || ended_now(s);
            }
            if closed[..60].iter().all(|c| *c) {
                break;
            }
        }
        for (i, s) in trickling.iter_mut().enumerate() {
            let byte = if i >= 60 {
                b"{"
            } else {
                &head.as_bytes()[sent..sent + 1]
            };
            if s.write_all(byte).is_err() {
                closed[i] = true;
            }
        }
        sent += 1;
        if answered_in.is_none() && start.elapsed() > Duration::from_secs(2) {
            let asked = Instant::now();
            let r = request_with(
                &server.addr,
                "GET",
                "/api/systems",
                &[("Host", &server.addr)],
                "",
            );
            assert_eq!(r.status, 200);
            answered_in = Some(asked.elapsed());
        }
        std::thread::sleep(Duration::from_secs(1));
    }
    let answered_in = answered_in.unwrap();
    assert!(
        answered_in < Duration::from_secs(15),
        "a normal request waited {answered_in:?} while 70 clients trickled"
    );
    // Each head trickler was cut off at the head deadline (its bytes did
    // not move it): the server closed the connection.
    for (i, s) in trickling.iter_mut().enumerate().take(60) {
        if closed[i] {
            continue;
        }
        s.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
        let mut rest = Vec::new();
        let ended = match s.read_to_end(&mut rest) {
            Ok(_) => true,
            Err(e) => e.kind() == std::io::ErrorKind::ConnectionReset,
        };
        assert!(
            ended,
            "connection {i} is still open after {:?}",
            start.elapsed()
        );
    }
}
