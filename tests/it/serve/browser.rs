//! The page end to end in headless Chromium (through chromedriver): load
//! charge-or-salvo (its sweep over the cards shows the report's sweep
//! chart and table), switch the card, change a modifier, and check that
//! the odds shown, their differences' colours (good or bad for the own
//! side), the "copy as CLI command" line, the shared link and the
//! downloaded TOML all give `pikeshot run --method exact`'s figures, that
//! an invalid value is shown beside its control in the CLI's words, and
//! that a TOML file uploaded into the form runs to the CLI's figures.
//!
//! Skips (saying so) where Chromium or chromedriver is not installed,
//! except under CI (`CI=true`), where `.ci/run` installs them and their
//! absence fails the test.

use std::path::Path;

use serde_json::{Value, json};

use super::{cli_exact, exact_figures};
use crate::support::cli::{pikeshot, pikeshot_ok, stderr, stdout};
use crate::support::http::Server;
use crate::support::webdriver::{Lease, Session, browser, lease};

/// Whether a run later than generation `arguments[0]` ended in state
/// `arguments[1]`.
const SETTLED: &str = "const s = document.querySelector('#status'); \
    return !!s && s.dataset.state === arguments[1] && Number(s.dataset.gen || 0) > arguments[0];";
/// [`SETTLED`], first starting the run the page has scheduled, if any,
/// without its 250 ms pause for further typing (what a run shows does not
/// depend on when it starts).
const SETTLED_NOW: &str = "if (typeof runTimer !== 'undefined' && runTimer !== null) { \
    clearTimeout(runTimer); runTimer = null; runNow(); } \
    const s = document.querySelector('#status'); \
    return !!s && s.dataset.state === arguments[1] && Number(s.dataset.gen || 0) > arguments[0];";
/// The latest run's number once it is shown (`state` `done` or `error`).
pub(super) const GEN: &str = "const s = document.querySelector('#status'); \
    return s ? Number(s.dataset.gen || 0) : 0;";
pub(super) const CHOOSE: &str = "const e = document.querySelector(arguments[0]); e.value = arguments[1]; \
    e.dispatchEvent(new Event('change')); return true;";
/// Every key outcome shown: [course, key, value, text].
pub(super) const ODDS: &str = "return [...document.querySelectorAll('.course')].flatMap(c => \
    [...c.querySelectorAll('td[data-key]')].map(td => \
    [c.dataset.course, td.dataset.key, Number(td.dataset.value), td.textContent]));";

/// Every difference shown: [course, key, its colour class or ""].
const JUDGED: &str = "return [...document.querySelectorAll('.course')].flatMap(c => \
    [...c.querySelectorAll('td[data-diff]')].filter(td => td.textContent !== '').map(td => \
    [c.dataset.course, td.dataset.diff, td.classList.contains('better') ? 'better' : \
     td.classList.contains('worse') ? 'worse' : '']));";

/// The colour each difference of a CLI run's JSON should have: `better`
/// where it favours the own side (more of a key outcome where more is
/// better, less where less is), `worse` where it does not, none where it
/// is zero or the key outcome is neither.
fn judged(cli: &Value) -> Value {
    let mut want = Vec::new();
    for c in cli["courses"].as_array().unwrap() {
        for k in c["key_outcomes"].as_array().unwrap() {
            let Some(d) = k["difference"]["exact"].as_f64() else {
                continue;
            };
            let def = pikeshot::report::KEY_OUTCOMES
                .iter()
                .find(|x| x.name == k["name"])
                .unwrap();
            let colour = match def.more_is_better {
                _ if d.abs() < 1e-12 => "",
                None => "",
                Some(more) if (d > 0.0) == more => "better",
                Some(_) => "worse",
            };
            want.push(json!([c["course"], k["name"], colour]));
        }
    }
    Value::Array(want)
}

/// The exact figures of the scenario the page would save (Download TOML),
/// written to `file` and run on the CLI.
fn saved_figures(s: &Session, file: &Path) -> Vec<(String, f64)> {
    let toml = s.js(
        "return document.querySelector('#toml-text').value;",
        json!([]),
    );
    std::fs::write(file, toml.as_str().unwrap()).unwrap();
    exact_figures(&cli_exact(file, &[]))
}

/// Does `act`, then waits for the run it causes to end in `state`,
/// starting a scheduled run at once ([`SETTLED_NOW`]).
pub(super) fn settle(s: &Session, state: &str, act: impl FnOnce()) {
    settle_with(s, SETTLED_NOW, state, act);
}

/// As [`settle`], but the run starts on the page's own timer, after its
/// 250 ms pause: one typed value goes this way, so that the timer that
/// starts a run after typing is tested too.
fn settle_by_timer(s: &Session, state: &str, act: impl FnOnce()) {
    settle_with(s, SETTLED, state, act);
}

fn settle_with(s: &Session, settled: &str, state: &str, act: impl FnOnce()) {
    let before = s.js(GEN, json!([]));
    act();
    s.wait_for(
        settled,
        json!([before, state]),
        &format!("a run ending in {state}"),
    );
}

/// The odds shown against a CLI run's JSON: the same exact value, shown
/// as the CLI rounds it.
fn assert_shown(shown: &Value, cli: &Value) {
    let mut want = Vec::new();
    for c in cli["courses"].as_array().unwrap() {
        for k in c["key_outcomes"].as_array().unwrap() {
            let v = k["exact"].as_f64().unwrap();
            let text = if k["kind"] == "probability" {
                format!("{:.2}%", 100.0 * v)
            } else {
                format!("{v:.3}")
            };
            want.push((c["course"].clone(), k["name"].clone(), v, text));
        }
    }
    let shown: Vec<(Value, Value, f64, String)> = shown
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r[0].clone(),
                r[1].clone(),
                r[2].as_f64().unwrap(),
                r[3].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(!want.is_empty());
    assert_eq!(shown, want);
}

/// Chromium and chromedriver, or `None` (saying the test is skipped) where
/// they are not both installed; under CI their absence fails the test.
fn browser_or_skip() -> Option<(std::path::PathBuf, std::path::PathBuf)> {
    let found = browser();
    if found.is_none() {
        let why = "chromium and chromedriver are not both installed \
                   (Debian: apt-get install chromium chromium-driver)";
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI installs them (.ci/run): {why}"
        );
        println!("SKIPPED the browser test: {why}");
    }
    found
}

/// A server and a browser session on its page, its first odds shown; or
/// `None` (the test skipped) where Chromium or chromedriver is missing.
pub(super) fn page_or_skip() -> Option<(Server, Lease)> {
    let (chromium, chromedriver) = browser_or_skip()?;
    let server = Server::start(&[]);
    let s = lease(&chromium, &chromedriver);
    settle(&s, "done", || s.go(&format!("http://{}/", server.addr)));
    Some((server, s))
}

#[test]
fn the_page_shows_the_cli_exact_odds_and_errors_beside_their_controls() {
    let Some((_server, s)) = page_or_skip() else {
        return;
    };
    settle(&s, "done", || {
        s.js(
            CHOOSE,
            json!(["#load", "shipped/mpbs/charge-or-salvo.toml"]),
        );
    });
    // Its sweep over both cards: the report's chart of the swept key, and
    // the table of the first key outcome, one row per card.
    let sweep = s.js(
        "const x = document.querySelector('section.sweep'); \
         return x && [[...x.querySelectorAll('figure')].map(f => f.dataset.stem), \
           [...x.querySelectorAll('tr[data-variant]')].map(r => r.dataset.variant), \
           document.querySelectorAll('details.variant').length, \
           x.querySelector('img').naturalWidth > 0];",
        json!([]),
    );
    assert_eq!(
        sweep,
        json!([
            ["sweep--edition"],
            ["edition=series", "edition=sfo"],
            2,
            true
        ])
    );
    // The card: one edition instead of the file's sweep over both.
    settle(&s, "done", || {
        s.js(CHOOSE, json!(["#f-edition", "sfo"]));
    });
    // A modifier: an extra DRM on the charge's close combat, typed in.
    let step = r#"fieldset[data-step="course[0].steps[0]"] .adders select"#;
    settle(&s, "done", || {
        s.js(CHOOSE, json!([step, "extra_drm"]));
    });
    let drm = s.find(r#"[data-path="course[0].steps[0].extra_drm"]"#);
    settle_by_timer(&s, "done", || s.type_into(&drm, "1"));
    let sets = ["edition=sfo", "course[0].steps[0].extra_drm=1"];
    let cli = cli_exact(Path::new("scenarios/mpbs/charge-or-salvo.toml"), &sets);
    let shown = s.js(ODDS, json!([]));
    assert_shown(&shown, &cli);
    // Each difference from the first course is coloured by what it means
    // for the own side: salvo first breaks the own unit less often, good.
    let colours = judged(&cli);
    for colour in ["better", "worse"] {
        let has = |c: &Value| c[2] == colour;
        assert!(colours.as_array().unwrap().iter().any(has), "{colours}");
    }
    assert_eq!(s.js(JUDGED, json!([])), colours);

    // Why: the charge's breakdown names the modifier and its source.
    let why = s.js(
        "return document.querySelector('.course[data-course=\"charge now\"] details.explain').textContent;",
        json!([]),
    );
    assert!(
        why.as_str()
            .unwrap()
            .contains("extra DRM+1key: extra_drm = 1"),
        "{why}"
    );
    s.js("window.scrollTo(0, 0); return true;", json!([]));
    let shot = s.screenshot();
    assert!(shot.starts_with(b"\x89PNG"));
    let png = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve.png");
    std::fs::write(&png, shot).unwrap();
    println!("screenshot: {}", png.display());

    // "Copy as CLI command" names the shipped file and the two --set.
    s.click(&s.find("#copy-cli"));
    let line = s.js(
        "return document.querySelector('#cli-text').textContent;",
        json!([]),
    );
    assert_eq!(
        line,
        "pikeshot run scenarios/mpbs/charge-or-salvo.toml --method exact \
         --set edition=sfo --set 'course[0].steps[0].extra_drm=1'"
    );
    let args: Vec<String> = line
        .as_str()
        .unwrap()
        .split(' ')
        .skip(1)
        .map(|a| a.trim_matches('\'').to_string())
        .collect();
    let out = tempfile::tempdir().unwrap();
    let mut argv: Vec<&str> = args.iter().map(String::as_str).collect();
    argv.extend(["--format", "json", "-q", "--plots", "none", "--out"]);
    argv.push(out.path().to_str().unwrap());
    let o = pikeshot_ok(&argv);
    let from_line: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        exact_figures(&from_line["scenarios"][0]),
        exact_figures(&cli)
    );

    // The TOML that Download saves runs on the CLI to the same figures.
    let file = out.path().join("downloaded.toml");
    assert_eq!(saved_figures(&s, &file), exact_figures(&cli));

    // The link reproduces the page.
    let href = s.js("return location.href;", json!([]));
    s.go("about:blank");
    settle(&s, "done", || s.go(href.as_str().unwrap()));
    assert_shown(&s.js(ODDS, json!([])), &cli);

    // An invalid value: the CLI's words, beside the control that caused it.
    let drm = s.find(r#"[data-path="course[0].steps[0].extra_drm"]"#);
    settle(&s, "error", || s.type_into(&drm, "42"));
    let beside = s.js(
        "const f = document.querySelector('[data-path=\"course[0].steps[0].extra_drm\"]'); \
         const e = f.closest('[data-row]').querySelector('.err'); \
         return [f.classList.contains('invalid'), e && e.dataset.for, e && e.textContent];",
        json!([]),
    );
    assert_eq!(beside[0], true);
    assert_eq!(beside[1], "course[0].steps[0].extra_drm");
    let words = beside[2].as_str().unwrap();
    let o = pikeshot(&[
        "run",
        "scenarios/mpbs/charge-or-salvo.toml",
        "-q",
        "--set",
        "course[0].steps[0].extra_drm=42",
        "--out",
        out.path().join("refused").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let cli_words = stderr(&o);
    let tail = cli_words
        .split("`course[0].steps[0].extra_drm`: ")
        .nth(1)
        .unwrap()
        .trim();
    assert!(words.ends_with(tail), "page: {words}\nCLI: {cli_words}");

    // A TOML file uploaded into the form: another system's scenario, with
    // its comments. The form holds it, and its odds are the CLI's.
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/snaphance/fire-or-charge.toml");
    settle(&s, "done", || s.upload(&s.find("#upload"), &file));
    let held = s.js(
        "return [document.querySelector('#f-system').value, document.querySelector('#f-name').value, \
           [...document.querySelectorAll('fieldset[data-unit]')].map(f => f.dataset.unit), \
           document.querySelectorAll('fieldset[data-course]').length];",
        json!([]),
    );
    assert_eq!(
        held,
        json!([
            "snaphance",
            "Pistols against shot: fire, or charge?",
            ["reiters", "musketeers"],
            3
        ])
    );
    let cli = cli_exact(&file, &[]);
    assert_shown(&s.js(ODDS, json!([])), &cli);
    // And what the form would save runs to the same figures: the round
    // trip loses nothing but the comments.
    let again = out.path().join("uploaded.toml");
    assert_eq!(saved_figures(&s, &again), exact_figures(&cli));
}

/// A number written with a decimal point stays one through the page: a
/// scenario whose `[[expect]]` bound is `1.0` is uploaded, a step key is
/// added and typed into, and the TOML the page writes back still holds the
/// decimal `1.0` (JSON alone would make it the integer 1, which the CLI
/// then reads as another type), and the typed whole number stays whole.
#[test]
fn a_decimal_keeps_its_point_through_the_form() {
    let Some((_server, s)) = page_or_skip() else {
        return;
    };
    let text = std::fs::read_to_string("scenarios/mpbs/charge-or-salvo.toml")
        .unwrap()
        .replace("at_most = 0.45", "at_most = 1.0");
    assert!(text.contains("at_most = 1.0"));
    settle(&s, "done", || {
        s.js(
            "upload(new File([arguments[0]], 'decimal.toml')); return true;",
            json!([text]),
        );
    });
    let written = || -> toml::Table {
        let t = s.js(
            "return document.querySelector('#toml-text').value;",
            json!([]),
        );
        toml::from_str(t.as_str().unwrap()).unwrap()
    };
    let bound = |t: &toml::Table| t["expect"][1]["at_most"].clone();
    assert_eq!(bound(&written()), toml::Value::Float(1.0));
    let step = r#"fieldset[data-step="course[0].steps[0]"] .adders select"#;
    settle(&s, "done", || {
        s.js(CHOOSE, json!([step, "extra_drm"]));
    });
    let drm = s.find(r#"[data-path="course[0].steps[0].extra_drm"]"#);
    settle(&s, "done", || s.type_into(&drm, "2"));
    let t = written();
    assert_eq!(bound(&t), toml::Value::Float(1.0));
    assert_eq!(
        t["course"][0]["steps"][0]["extra_drm"],
        toml::Value::Integer(2)
    );
}
