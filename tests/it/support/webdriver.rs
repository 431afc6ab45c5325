//! A small W3C WebDriver client for headless Chromium through
//! chromedriver, over [`super::http`]: no async stack in the test build.
//! The browser tests share their sessions ([`lease`]): starting Chromium
//! and chromedriver is most of a short browser test's cost.

use std::net::TcpListener;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::http::request;

/// The key W3C WebDriver names an element by.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Chromium and chromedriver, if both are installed.
pub fn browser() -> Option<(PathBuf, PathBuf)> {
    let find = |names: &[&str]| -> Option<PathBuf> {
        let path = std::env::var_os("PATH").unwrap_or_default();
        names.iter().find_map(|n| {
            std::env::split_paths(&path)
                .chain([
                    PathBuf::from("/usr/bin"),
                    PathBuf::from("/usr/lib/chromium"),
                ])
                .map(|d| d.join(n))
                .find(|p| p.is_file())
        })
    };
    Some((
        find(&["chromium", "chromium-browser", "google-chrome"])?,
        find(&["chromedriver"])?,
    ))
}

/// A browser session; the session and chromedriver end when dropped.
pub struct Session {
    driver: Child,
    addr: String,
    id: String,
}

impl Session {
    /// Starts chromedriver on a free port and a headless Chromium session.
    pub fn start(chromium: &Path, chromedriver: &Path) -> Session {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let addr = format!("127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not listen");
            std::thread::sleep(Duration::from_millis(100));
        }
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium.to_str().unwrap(),
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1400,1000"]
            }
        } } });
        let r = request(&addr, "POST", "/session", Some(&caps.to_string()));
        let v = r.json();
        let id = v["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {}", r.body))
            .to_string();
        Session { driver, addr, id }
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let p = format!("/session/{}{path}", self.id);
        let r = request(
            &self.addr,
            method,
            &p,
            body.map(|b| b.to_string()).as_deref(),
        );
        let v = r.json();
        assert_eq!(r.status, 200, "{method} {path}: {}", r.body);
        v["value"].clone()
    }

    /// Opens `url`.
    pub fn go(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    /// Runs `script` (a function body; `arguments` holds `args`) in the page.
    pub fn js(&self, script: &str, args: Value) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": args })),
        )
    }

    /// The element matching the CSS selector `css`.
    pub fn find(&self, css: &str) -> String {
        let v = self.call(
            "POST",
            "/element",
            Some(json!({ "using": "css selector", "value": css })),
        );
        v[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}: {v}"))
            .to_string()
    }

    /// Clears the element's value and types `text` into it.
    pub fn type_into(&self, element: &str, text: &str) {
        self.call(
            "POST",
            &format!("/element/{element}/clear"),
            Some(json!({})),
        );
        self.call(
            "POST",
            &format!("/element/{element}/value"),
            Some(json!({ "text": text })),
        );
    }

    /// Puts the file at `path` (absolute) into the file input `element`,
    /// as a user choosing it would (the input may be hidden behind its
    /// label: W3C file inputs are not held to interactability by default).
    pub fn upload(&self, element: &str, path: &Path) {
        self.call(
            "POST",
            &format!("/element/{element}/value"),
            Some(json!({ "text": path.to_str().expect("a UTF-8 path") })),
        );
    }

    /// Clicks the element.
    pub fn click(&self, element: &str) {
        self.call(
            "POST",
            &format!("/element/{element}/click"),
            Some(json!({})),
        );
    }

    /// Waits (up to two minutes) until `script` returns true.
    pub fn wait_for(&self, script: &str, args: Value, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(120);
        while self.js(script, args.clone()) != Value::Bool(true) {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// A PNG screenshot of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        let v = self.call("GET", "/screenshot", None);
        base64_decode(v.as_str().unwrap())
    }
}

/// Sessions no test holds, ready for the next browser test; the process
/// ends them when it exits ([`end_idle`]).
static IDLE: Mutex<Vec<Session>> = Mutex::new(Vec::new());

/// A session on loan to one test, on a blank page; it goes back to
/// [`IDLE`] when the test passes, and ends if the test fails (its page may
/// be in any state).
pub struct Lease(Option<Session>);

impl Deref for Lease {
    type Target = Session;
    fn deref(&self) -> &Session {
        self.0.as_ref().expect("a leased session")
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let Some(s) = self.0.take() else { return };
        if std::thread::panicking() {
            return;
        }
        IDLE.lock().unwrap_or_else(|e| e.into_inner()).push(s);
    }
}

/// An idle session, or a new one when every session is in use (so tests
/// on parallel threads never wait for each other's browser), on a blank
/// page: the next page's first run is then its first run shown.
pub fn lease(chromium: &Path, chromedriver: &Path) -> Lease {
    static AT_EXIT: Once = Once::new();
    AT_EXIT.call_once(|| {
        // SAFETY: `atexit` only records the function, which takes no
        // arguments and unwinds no panic out of itself.
        unsafe { atexit(end_idle) };
    });
    let idle = IDLE.lock().unwrap_or_else(|e| e.into_inner()).pop();
    let s = idle.unwrap_or_else(|| Session::start(chromium, chromedriver));
    s.go("about:blank");
    Lease(Some(s))
}

unsafe extern "C" {
    /// C's `atexit`: `f` runs when the process exits (the test harness
    /// returns from `main` or calls `exit`; statics are never dropped).
    fn atexit(f: extern "C" fn()) -> std::ffi::c_int;
}

/// Ends every idle session and its chromedriver, so that no Chromium
/// outlives the test run.
extern "C" fn end_idle() {
    let _ = std::panic::catch_unwind(|| {
        let idle = std::mem::take(&mut *IDLE.lock().unwrap_or_else(|e| e.into_inner()));
        drop(idle);
    });
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = request(&self.addr, "DELETE", &format!("/session/{}", self.id), None);
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Standard base64 (with padding) to bytes.
fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a' + 26) as u32,
            b'0'..=b'9' => (c - b'0' + 52) as u32,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {c}"),
        }
    };
    let bytes: Vec<u8> = s.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    for chunk in bytes.chunks(4) {
        let data: Vec<u8> = chunk.iter().copied().filter(|&c| c != b'=').collect();
        let mut n = 0u32;
        for (i, &c) in data.iter().enumerate() {
            n |= val(c) << (18 - 6 * i);
        }
        for i in 0..data.len().saturating_sub(1) {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}
