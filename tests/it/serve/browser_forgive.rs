//! The page forgives adapting a scenario (headless Chromium, as
//! `browser.rs`): invalid input greys the previous odds and marks them
//! "not for this setup"; each error sits under the control it is about in
//! the form's words; a stale `[[expect]]` target never blocks the odds and
//! renaming a course renames it in `[[expect]]`; changing a step's
//! procedure or the system drops what the new one refuses and says so; a
//! blank fight per system; rule numbers once; the card's outcome labels.

use std::path::Path;

use serde_json::json;

use super::browser::{CHOOSE, GEN, ODDS, page_or_skip, settle};
use crate::support::webdriver::Session;

/// The odds greyed and marked: [stale class, banner shown, banner text].
const STALE: &str = "const r = document.querySelector('#results'), b = document.querySelector('#stale'); \
    return [r.classList.contains('stale'), !b.hidden, b.textContent];";

/// Sets `doc` at a path (a JS expression on `doc`) and redraws the form,
/// as a change through a control would.
const EDIT: &str = "(new Function('doc', arguments[0]))(doc); changed(true); return true;";

/// Every error shown under a control: [its key, the key of the nearest
/// fieldset holding it (a step, course or unit), its text].
const ERRORS: &str = "return [...document.querySelectorAll('.err[data-for]')].map(e => \
    [e.dataset.for, (e.closest('fieldset[data-path]') || {dataset: {}}).dataset.path || '', e.textContent]);";

/// Saves a screenshot of the page's top as `name` under the tests' temporary folder.
fn shot(s: &Session, name: &str) {
    s.js("window.scrollTo(0, 0); return true;", json!([]));
    let png = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&png, s.screenshot()).unwrap();
    println!("screenshot: {}", png.display());
}

/// As [`SETTLED_NOW`], for a run ending in either state.
const SETTLED_ANY: &str = "if (typeof runTimer !== 'undefined' && runTimer !== null) { \
    clearTimeout(runTimer); runTimer = null; runNow(); } \
    const s = document.querySelector('#status'); \
    return !!s && ['done', 'error'].includes(s.dataset.state) && Number(s.dataset.gen || 0) > arguments[0];";

/// Does `act`, then waits for the run it causes to end, in whatever
/// state, and gives that state.
fn settle_any(s: &Session, act: impl FnOnce()) -> String {
    let before = s.js(GEN, json!([]));
    act();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while s.js(SETTLED_ANY, json!([before])) != json!(true) {
        let status = s.js(
            "const s = document.querySelector('#status'); return [s.dataset.state, s.textContent];",
            json!([]),
        );
        assert!(
            std::time::Instant::now() < deadline,
            "no run ended: {status}"
        );
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    s.js(
        "return document.querySelector('#status').dataset.state;",
        json!([]),
    )
    .as_str()
    .unwrap()
    .to_string()
}

/// A rule number given twice in a row, "(11.3.2) (11.3.2)", if any.
fn rule_twice(text: &str) -> Option<String> {
    for (i, _) in text.match_indices(") (") {
        let Some(start) = text[..i].rfind('(') else {
            continue;
        };
        let Some(end) = text[i + 2..].find(')') else {
            continue;
        };
        let (a, b) = (&text[start..=i], &text[i + 2..i + 3 + end]);
        if a == b {
            return Some(format!("{a} {b}"));
        }
    }
    None
}

#[test]
fn invalid_input_greys_the_odds_shown_and_marks_them_not_for_this_setup() {
    let Some((_server, s)) = page_or_skip() else {
        return;
    };
    let before = s.js(ODDS, json!([]));
    assert!(!before.as_array().unwrap().is_empty());
    assert_eq!(s.js(STALE, json!([])).pointer("/0"), Some(&json!(false)));
    settle(&s, "error", || {
        s.js(EDIT, json!(["doc.course[0].steps[0].extra_drm = 42;"]));
    });
    let stale = s.js(STALE, json!([]));
    assert_eq!(stale[0], true, "{stale}");
    assert_eq!(stale[1], true, "{stale}");
    assert!(
        stale[2].as_str().unwrap().starts_with("Not for this setup"),
        "{stale}"
    );
    // The earlier odds are still there to compare with, greyed.
    assert_eq!(s.js(ODDS, json!([])), before);
    shot(&s, "stale.png");
    // A valid setup again: its own odds, no longer marked.
    settle(&s, "done", || {
        s.js(EDIT, json!(["doc.course[0].steps[0].extra_drm = 1;"]));
    });
    let stale = s.js(STALE, json!([]));
    assert_eq!(stale[0], false, "{stale}");
    assert_eq!(stale[1], false, "{stale}");
}

#[test]
fn each_error_sits_under_its_control_in_the_form_s_words() {
    let Some((_server, s)) = page_or_skip() else {
        return;
    };
    // An invalid value in the second course, and a key the second course's
    // step does not take (no control draws it): both under course[1].
    settle(&s, "error", || {
        s.js(
            EDIT,
            json!(["doc.course[1].steps[0].extra_drm = 42; doc.course[1].steps[0].bogus = 1;"]),
        );
    });
    let errors = s.js(ERRORS, json!([]));
    let list = errors.as_array().unwrap();
    assert!(!list.is_empty(), "{errors}");
    for e in list {
        let at = e[1].as_str().unwrap();
        assert_eq!(at, "course[1].steps[0]", "{errors}");
        let text = e[2].as_str().unwrap();
        assert!(!text.contains("scenario.toml"), "{text}");
    }
    let keys: Vec<&str> = list.iter().map(|e| e[0].as_str().unwrap()).collect();
    assert!(keys.contains(&"course[1].steps[0].extra_drm"), "{errors}");
    // Nothing in the first course, and no message above the form.
    assert_eq!(
        s.js(
            "return document.querySelectorAll('fieldset[data-course=\"0\"] .err').length;",
            json!([])
        ),
        0
    );
    assert_eq!(
        s.js(
            "return document.querySelector('#errors').hidden;",
            json!([])
        ),
        true
    );
}

/// Every target row: [entry, verdict].
const TARGETS: &str = "return [...document.querySelectorAll('section.targets tr[data-verdict]')].map(r => \
    [r.dataset.entry, r.dataset.verdict]);";

#[test]
fn a_stale_target_never_blocks_the_odds_and_a_renamed_course_keeps_its_targets() {
    let Some((_server, s)) = page_or_skip() else {
        return;
    };
    // The shipped scenario's two targets, each checked on both cards.
    let rows = s.js(TARGETS, json!([]));
    assert_eq!(
        rows,
        json!([["0", "pass"], ["0", "pass"], ["1", "pass"], ["1", "pass"]])
    );
    // Renaming "charge now" by typing renames it in its target.
    let name = s.find(r#"[data-path="course[0].name"]"#);
    settle(&s, "done", || s.type_into(&name, "charge at once"));
    let courses = s.js("return doc.expect.map(e => e.course);", json!([]));
    assert_eq!(courses, json!(["salvo, then charge", "charge at once"]));
    let rows = s.js(TARGETS, json!([]));
    assert_eq!(
        rows,
        json!([["0", "pass"], ["0", "pass"], ["1", "pass"], ["1", "pass"]])
    );
    let odds = s.js(ODDS, json!([]));
    assert!(
        odds.as_array()
            .unwrap()
            .iter()
            .any(|o| o[0] == "charge at once"),
        "{odds}"
    );
    shot(&s, "renamed.png");
    // A target naming a course the scenario no longer has: the odds are
    // still computed, and the target shows as failed, saying why.
    settle(&s, "done", || {
        s.js(EDIT, json!(["doc.expect[0].course = 'no such course';"]));
    });
    let rows = s.js(TARGETS, json!([]));
    assert_eq!(rows, json!([["1", "pass"], ["1", "pass"], ["0", "stale"]]));
    let why = s.js(
        "return document.querySelector('section.targets tr[data-verdict=stale]').textContent;",
        json!([]),
    );
    let why = why.as_str().unwrap();
    assert!(why.contains("no course named \"no such course\""), "{why}");
    assert!(!why.contains("scenario.toml"), "{why}");
    assert!(!s.js(ODDS, json!([])).as_array().unwrap().is_empty());
    assert_eq!(s.js(STALE, json!([])).pointer("/0"), Some(&json!(false)));
}

#[test]
fn changing_a_procedure_or_the_system_drops_what_the_new_one_refuses() {
    let Some((_server, s)) = page_or_skip() else {
        return;
    };
    // A key the first step's procedure takes and another procedure does not.
    let pick = s.js(
        "const s = META.systems.find(x => x.id === doc.system); \
         const p = s.procedures.find(x => x.name === doc.course[0].steps[0].procedure); \
         for (const q of s.procedures) { const k = p.keys.find(k => !(k.key in doc.course[0].steps[0]) && !q.keys.some(x => x.key === k.key)); \
           if (k) return [q.name, k.key]; } return null;",
        json!([]),
    );
    let (other, key) = (pick[0].as_str().unwrap(), pick[1].as_str().unwrap());
    let step = r#"fieldset[data-step="course[0].steps[0]"] .adders select"#;
    settle_any(&s, || {
        s.js(CHOOSE, json!([step, key]));
    });
    assert_eq!(
        s.js(
            "return arguments[0] in doc.course[0].steps[0];",
            json!([key])
        ),
        true
    );
    settle_any(&s, || {
        s.js(
            CHOOSE,
            json!([r#"[data-path="course[0].steps[0].procedure"]"#, other]),
        );
    });
    assert_eq!(
        s.js(
            "return arguments[0] in doc.course[0].steps[0];",
            json!([key])
        ),
        false
    );
    let note = s.js(
        "const n = document.querySelector('.dropped'); return n && [n.dataset.for, n.textContent];",
        json!([]),
    );
    assert_eq!(note[0], "course[0].steps[0].procedure", "{note}");
    assert!(note[1].as_str().unwrap().contains(key), "{note}");
    // A unit's kind: a cuirassier takes no regimental artillery, which
    // only heavy infantry has: the key goes, and the form says so.
    assert_eq!(
        s.js("return doc.units.swedes.regimental_artillery;", json!([])),
        true
    );
    settle_any(&s, || {
        s.js(
            CHOOSE,
            json!([r#"[data-path="units.swedes.kind"]"#, "cuirassier"]),
        );
    });
    let unit = s.js(
        "const n = document.querySelector('.dropped'); \
         return [Object.keys(doc.units.swedes), doc.units.swedes.kind, n && n.dataset.for, n && n.textContent];",
        json!([]),
    );
    assert!(
        !unit[0]
            .as_array()
            .unwrap()
            .contains(&json!("regimental_artillery")),
        "{unit}"
    );
    assert_eq!(unit[1], "cuirassier", "{unit}");
    assert_eq!(unit[2], "units.swedes.kind", "{unit}");
    assert!(
        unit[3].as_str().unwrap().contains("regimental_artillery"),
        "{unit}"
    );
    // Switching the system drops the other system's units, and says so.
    let state = settle_any(&s, || {
        s.js(CHOOSE, json!(["#f-system", "snaphance"]));
    });
    assert_eq!(state, "done");
    let held = s.js(
        "return [doc.system, Object.keys(doc.units), document.querySelector('.dropped').textContent];",
        json!([]),
    );
    assert_eq!(held[0], "snaphance");
    assert_eq!(held[1], json!(["ours", "theirs"]));
    let said = held[2].as_str().unwrap();
    assert!(said.starts_with("dropped units "), "{said}");
    assert!(
        said.contains("Musket & Pike") || said.contains("mpbs"),
        "{said}"
    );
}

#[test]
fn a_blank_fight_of_each_system_runs() {
    let Some((_server, s)) = page_or_skip() else {
        return;
    };
    let systems = s.js("return META.systems.map(x => x.id);", json!([]));
    let systems: Vec<String> = systems
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(systems.len(), 4);
    for id in &systems {
        let state = settle_any(&s, || {
            s.js(CHOOSE, json!(["#blank", id]));
        });
        let errs = s.js(
            "return document.querySelector('#errors').textContent + [...document.querySelectorAll('.err')].map(e => e.dataset.for + ': ' + e.textContent).join('; ');",
            json!([]),
        );
        assert_eq!(state, "done", "{id}: {errs}");
        let held = s.js(
            "return [doc.system, Object.keys(doc.units), document.querySelectorAll('.course').length];",
            json!([]),
        );
        assert_eq!(held, json!([id, ["ours", "theirs"], 1]), "{id}");
        if id == "mpbs" {
            shot(&s, "blank.png");
        }
    }
}

/// The "why" panel and the outcome bars of `scenario` (a shipped one).
fn why_and_bars(s: &Session, scenario: &str) -> (String, Vec<String>) {
    settle(s, "done", || {
        s.js(CHOOSE, json!(["#load", scenario]));
    });
    let why = s.js(
        "return [...document.querySelectorAll('details.explain')].map(d => d.textContent).join('\\n');",
        json!([]),
    );
    let bars = s.js(
        "return [...document.querySelectorAll('.course svg text[text-anchor=end]')].map(t => t.textContent);",
        json!([]),
    );
    let bars = bars
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    (why.as_str().unwrap().to_string(), bars)
}

#[test]
fn rule_numbers_once_and_the_card_s_outcome_labels() {
    let Some((_server, s)) = page_or_skip() else {
        return;
    };
    let list = s.js(
        "return [...document.querySelectorAll('#load option')].map(o => o.value).filter(Boolean);",
        json!([]),
    );
    for id in list.as_array().unwrap().iter().map(|v| v.as_str().unwrap()) {
        let (why, bars) = why_and_bars(&s, id);
        assert_eq!(rule_twice(&why), None, "{id}");
        // The bars carry words: none is a kebab-case id.
        for b in &bars {
            let id_like = b.contains('-') && !b.contains(' ');
            assert!(!id_like, "{id}: an outcome bar shows the id {b}");
        }
    }
}
