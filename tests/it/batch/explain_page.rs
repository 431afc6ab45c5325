//! Each course's rolls on the page: `report` writes `explain.json` into a
//! scenario's folder (the very document `pikeshot explain --format json`
//! prints) and index.html shows it collapsed, escaped, bounded.

use super::{CHARGE, s, write};
use crate::support::cli::{pikeshot_ok, stdout};
use pikeshot::batch::html_explain::CASES_SHOWN;
use std::fs;
use std::path::Path;

/// The explanation's part of the page for the course `name` (escaped).
fn explain_box<'a>(page: &'a str, name: &str) -> &'a str {
    let open = format!(
        "<details class=\"explain\"><summary>How it is rolled <span class=\"ex\">({name} ·"
    );
    let at = page
        .find(&open)
        .unwrap_or_else(|| panic!("no explanation of {name} on the page"));
    let rest = &page[at..];
    // The box ends where the course's own box does.
    let end = rest.find("</details>\n</details>\n").unwrap();
    &rest[..end]
}

/// `pikeshot report DIR --out OUT --trials 2000 -q` and the extra `args`,
/// which must succeed.
fn report(dir: &Path, out: &Path, args: &[&str]) {
    let mut a = vec!["report", s(dir), "--out", s(out), "--trials", "2000", "-q"];
    a.extend_from_slice(args);
    pikeshot_ok(&a);
}

#[test]
fn report_writes_explain_json_equal_to_explain_and_the_page_shows_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    let text = CHARGE.replace("name = \"charge\"", "name = \"charge <b>&\"");
    let scenario = write(&dir, "mpbs/charge.toml", &text);
    for (threads, out) in [("1", "out1"), ("2", "out2")] {
        let out = tmp.path().join(out);
        report(&dir, &out, &["--threads", threads]);
    }
    let json = fs::read_to_string(tmp.path().join("out1/mpbs/charge/explain.json")).unwrap();
    assert_eq!(
        json,
        fs::read_to_string(tmp.path().join("out2/mpbs/charge/explain.json")).unwrap(),
        "explain.json differs across thread counts"
    );
    let printed = stdout(&pikeshot_ok(&["explain", s(&scenario), "--format", "json"]));
    assert_eq!(json, printed);
    let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(parsed["variants"][0]["courses"][0]["name"], "charge <b>&");

    let page = fs::read_to_string(tmp.path().join("out1/index.html")).unwrap();
    assert!(
        !page.contains("charge <b>&"),
        "a course name left unescaped"
    );
    let b = explain_box(&page, "charge &lt;b&gt;&amp;");
    // Collapsed: neither the course's box nor its steps are open.
    assert!(!b.contains("open="));
    assert!(b.contains("horse against foot"));
    assert!(b.contains("<details class=\"step\"><summary>step 1: close-combat"));
    // The card's modifier lines for this charge, with value and source.
    for (value, line, source) in [
        (
            "+1",
            "morale differential",
            "unit: horse morale 7 − foot morale 6",
        ),
        ("+2", "cavalry momentum", "key: momentum = true"),
        ("-1", "strength ratio", "unit: current SP 4"),
    ] {
        let row = b
            .lines()
            .find(|l| l.contains(&format!(">{line}")))
            .unwrap_or_else(|| panic!("no modifier line {line} in\n{b}"));
        assert!(
            row.contains(&format!("<td class=\"num\">{value}</td>")),
            "{row}"
        );
        assert!(row.contains(source), "{row}");
    }
    assert!(page.contains("<a href=\"mpbs/charge/explain.json\">explain.json</a>"));
    // The volley course is explained too.
    explain_box(&page, "volley");
}

/// An engagement reaches many states: the page shows the likeliest few
/// per step and says how many more `explain.json` holds.
#[test]
fn the_page_bounds_the_cases_of_an_engagement() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    write(&dir, "mpbs/swept.toml", super::SWEPT);
    let out = tmp.path().join("out");
    report(&dir, &out, &[]);
    let json = fs::read_to_string(out.join("mpbs/swept/explain.json")).unwrap();
    let e: pikeshot::explain::Explanation = serde_json::from_str(&json).unwrap();
    let page = fs::read_to_string(out.join("index.html")).unwrap();
    let big = e
        .variants
        .iter()
        .flat_map(|v| &v.courses)
        .flat_map(|c| &c.steps)
        .map(|s| s.cases.len())
        .max()
        .unwrap();
    assert!(
        big > CASES_SHOWN,
        "the scenario no longer has a step of many cases"
    );
    let more = big - CASES_SHOWN;
    assert!(
        page.contains(&format!(
            "… {more} more states (see <a href=\"mpbs/swept/explain.json\">"
        )),
        "no bound line for {more} more states"
    );
    // No step shows more cases than the bound.
    for step in page.split("<details class=\"step\">").skip(1) {
        let step = &step[..step.find("</details>").unwrap()];
        assert!(step.matches("<div class=\"case\">").count() <= CASES_SHOWN);
    }
}

/// A Hakkaa Päälle fire shows, folded, where its Fire Table row came from
/// (the Fire Points, line by line) and the rolls its results lead to
/// (step loss, commander, Receiving Casualties), at most
/// `MAX_FOLLOW_UPS` of them, the rest counted.
#[test]
fn the_page_shows_a_rolls_row_source_and_its_follow_up_rolls() {
    use pikeshot::batch::html_explain::MAX_FOLLOW_UPS;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = fs::read_to_string(root.join("scenarios/hakkaa/musketeers-vs-pike.toml")).unwrap();
    write(&dir, "hakkaa/fire.toml", &text);
    let out = tmp.path().join("out");
    report(&dir, &out, &[]);
    let json = fs::read_to_string(out.join("hakkaa/fire/explain.json")).unwrap();
    let e: pikeshot::explain::Explanation = serde_json::from_str(&json).unwrap();
    let fire = e.variants[0]
        .courses
        .iter()
        .find(|c| c.name == "one volley at close range")
        .expect("the shipped scenario has a course \"one volley at close range\"");
    let roll = &fire.steps[0]
        .cases
        .iter()
        .max_by_key(|c| c.roll.follow_ups.len())
        .unwrap()
        .roll;
    assert!(
        !roll.column_from.is_empty(),
        "the fire roll says no row source"
    );
    let n = roll.follow_ups.len();
    assert!(
        n > MAX_FOLLOW_UPS,
        "only {n} follow-up rolls: the bound is not exercised"
    );
    let page = fs::read_to_string(out.join("index.html")).unwrap();
    let b = explain_box(&page, "one volley at close range");
    assert!(b.contains("<p class=\"meta\">row/column from:</p>"));
    assert!(b.contains(&format!("<summary>then: {n} further rolls</summary>")));
    assert!(b.contains(&format!("and {} more in explain.json", n - MAX_FOLLOW_UPS)));
    for u in roll.follow_ups.iter().take(MAX_FOLLOW_UPS) {
        let when = pikeshot::batch::html_parts::esc(&u.when);
        assert!(
            b.contains(&format!("<p><b>{when}</b></p>")),
            "follow-up {when} not shown"
        );
    }
}
