//! The page's "best plan" panel (headless Chromium, as `browser.rs`): a
//! shipped decision scenario loaded shows the plan in words and the best
//! plan's value `pikeshot decide` prints; the objective changed through its
//! choice, the panel solves again and shows the new objective's best plan.
//! `POST /api/decide` answers `pikeshot decide --format json`'s document.

use std::path::Path;

use serde_json::{Value, json};

use super::browser::{CHOOSE, page_or_skip, settle};
use crate::support::cli::{pikeshot_ok, stdout};
use crate::support::http::Server;
use crate::support::webdriver::Session;

const SCENARIO: &str = "scenarios/snaphance/fire-or-charge.toml";
const SHIPPED: &str = "shipped/snaphance/fire-or-charge.toml";

/// The panel's latest solve: [state, generation].
const PANEL: &str = "const p = document.querySelector('#best-plan'); \
    return [p.dataset.state || '', Number(p.dataset.gen || 0)];";

/// What the panel shows of each decision: [name, [plan, value] rows, the
/// plan in words, the states table's row count, whether it is folded].
const SHOWN: &str = "return [...document.querySelectorAll('#best-plan .decision')].map(d => [\
    d.dataset.decision, \
    [...d.querySelectorAll('table.plans tbody tr')].map(r => [r.dataset.plan, Number(r.querySelector('td[data-value]').dataset.value)]), \
    d.querySelector('.plan-words').textContent, \
    d.querySelectorAll('details.states tbody tr').length, \
    !d.querySelector('details.states').open]);";

/// `pikeshot decide --format json` of the shipped Snaphance decision,
/// under `sets`.
fn decided(sets: &[&str]) -> Value {
    let mut args = vec!["decide", SCENARIO, "--format", "json"];
    for s in sets {
        args.extend(["--set", s]);
    }
    serde_json::from_str(&stdout(&pikeshot_ok(&args))).unwrap()
}

/// Does `act`, then waits for the panel's next solve to end in `state`.
fn solved(s: &Session, state: &str, act: impl FnOnce()) {
    let before = s.js(PANEL, json!([]))[1].as_i64().unwrap();
    act();
    s.wait_for(
        "const p = document.querySelector('#best-plan'); \
         return ['done', 'error'].includes(p.dataset.state) && Number(p.dataset.gen || 0) > arguments[0];",
        json!([before]),
        "the best plan solved",
    );
    assert_eq!(s.js(PANEL, json!([]))[0], state);
}

/// The panel's decision against decide's: the same exact values for the
/// best plan, each "always X" and each course, and the same plan in words.
fn assert_panel_is(shown: &Value, d: &Value) {
    let rows = shown[1].as_array().unwrap();
    let want: Vec<f64> = std::iter::once(d["value"].as_f64().unwrap())
        .chain(
            d["always"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap()),
        )
        .chain(
            d["courses"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["value"].as_f64().unwrap()),
        )
        .collect();
    assert_eq!(rows.len(), want.len(), "{shown}");
    for (r, w) in rows.iter().zip(&want) {
        assert!(
            (r[1].as_f64().unwrap() - w).abs() < 1e-12,
            "{r} against {w}"
        );
    }
    assert_eq!(rows[0][0], "the best plan");
    let words = shown[2].as_str().unwrap();
    assert!(
        words.contains(d["rule"].as_str().unwrap()),
        "{words} against {d}"
    );
    assert_eq!(shown[3], d["choices"].as_array().unwrap().len(), "{shown}");
    assert_eq!(shown[4], true, "the states table is folded");
}

#[test]
fn the_best_plan_panel_shows_decides_plan_and_recomputes_on_a_new_objective() {
    let Some((_server, s)) = page_or_skip() else {
        return;
    };
    solved(&s, "done", || {
        settle(&s, "done", || {
            s.js(CHOOSE, json!(["#load", SHIPPED]));
        });
    });
    let cli = decided(&[]);
    let d = &cli["variants"][0]["decisions"][0];
    let shown = s.js(SHOWN, json!([]));
    assert_eq!(shown.as_array().unwrap().len(), 1, "{shown}");
    assert_eq!(shown[0][0], "fire or charge each turn");
    assert_panel_is(&shown[0], d);
    // 1.395: docs/guide/decisions.md's figure for this decision.
    assert!((shown[0][1][0][1].as_f64().unwrap() - 1.395).abs() < 5e-4);
    assert!(
        shown[0][2]
            .as_str()
            .unwrap()
            .contains("fire while turn ≤ 2; otherwise charge")
    );
    // Each option's steps are drawn by the courses' step editor.
    let steps = s.js(
        "return [...document.querySelectorAll('fieldset[data-decision=\"0\"] fieldset[data-step]')].map(f => f.dataset.step);",
        json!([]),
    );
    assert!(
        steps
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p == "decision[0].option[0].steps[0]"),
        "{steps}"
    );
    let png = Path::new("/tmp/shots");
    std::fs::create_dir_all(png).unwrap();
    s.js(
        "document.querySelector('#best-plan').scrollIntoView(); \
         document.querySelector('#best-plan details.states').open = true; return true;",
        json!([]),
    );
    std::fs::write(png.join("best-plan.png"), s.screenshot()).unwrap();
    s.js(
        "document.querySelector('#best-plan details.states').open = false; return true;",
        json!([]),
    );
    // The objective as a choice: the smallest expected hits inflicted.
    solved(&s, "done", || {
        s.js(
            CHOOSE,
            json!(["#f-decision\\[0\\]\\.objective-aim", "least_expected"]),
        );
    });
    let least = decided(&["decision[0].objective={ least_expected = \"hits-inflicted\" }"]);
    let d2 = &least["variants"][0]["decisions"][0];
    assert!(d2["value"].as_f64().unwrap() < d["value"].as_f64().unwrap());
    let shown = s.js(SHOWN, json!([]));
    assert_panel_is(&shown[0], d2);
}

/// `POST /api/decide` answers what `pikeshot decide --format json` prints
/// (the file's name aside), and refuses a scenario without decisions with
/// the CLI's error.
#[test]
fn api_decide_answers_decides_document() {
    let server = Server::start(&[]);
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(SCENARIO)).unwrap();
    let r = server.post("/api/decide", &json!({ "toml": text }));
    let mut got = r.json();
    let mut want = decided(&[]);
    for v in [&mut got, &mut want] {
        v["file"] = Value::Null;
    }
    assert_eq!(got, want);
    // The same scenario without its decisions: decide's own error.
    let courses = &text[..text.find("[[decision]]").unwrap()];
    let r = server.post("/api/decide", &json!({ "toml": courses }));
    assert_eq!(r.status, 400, "{}", r.body);
    let e = r.json();
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("the scenario has no `[[decision]]` table"),
        "{e}"
    );
}
