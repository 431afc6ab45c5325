//! A swept scenario on the page (issue 14, item 2): its section opens with
//! the sweep charts and the sweep table, and each variant's detail follows
//! collapsed.

use super::{CHARGE, s, write};
use crate::support::cli::pikeshot_ok;
use crate::support::{col, read_csv};
use std::fs;

#[test]
fn a_swept_scenario_opens_with_its_charts_and_table_and_folds_the_variants() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    let text = format!("{CHARGE}\n[sweep]\n\"units.foot.morale\" = [5, 6, 7]\n");
    write(&dir, "mpbs/swept.toml", &text);
    write(&dir, "mpbs/plain.toml", CHARGE);
    let out = tmp.path().join("out");
    pikeshot_ok(&[
        "report",
        s(&dir),
        "--out",
        s(&out),
        "--method",
        "exact",
        "-q",
    ]);
    let page = fs::read_to_string(out.join("index.html")).unwrap();
    let swept = page
        .find("mpbs/swept.toml</code>")
        .expect("the swept section");
    let plain = page
        .find("mpbs/plain.toml</code>")
        .expect("the plain section");
    let (start, end) = if swept < plain {
        (swept, plain)
    } else {
        (swept, page.len())
    };
    let section = &page[start..end];
    let across = section.find("<h3>Across the sweep</h3>").unwrap();
    let chart = section
        .find("mpbs/swept/sweep--units-foot-morale.png")
        .expect("the key's chart");
    let table = section.find("<table class=\"sweep\">").unwrap();
    let details = section.find("<details class=\"variants\">").unwrap();
    assert!(across < chart && chart < table && table < details);
    // The table: the swept key, then a column per course, a row per variant.
    let t = &section[table..section[table..].find("</table>").unwrap() + table];
    assert!(t.contains("<th><code>units.foot.morale</code></th>"), "{t}");
    assert!(t.contains("<th class=\"num\">charge</th>"), "{t}");
    assert_eq!(t.matches("<tr><td>").count(), 3, "{t}");
    assert!(t.contains("exact "), "{t}");
    // Every variant's own heading is inside the folded detail.
    for m in [5, 6, 7] {
        let h = format!("<h3>units.foot.morale={m}</h3>");
        assert!(section.find(&h).unwrap() > details, "{h}");
    }
    assert!(out.join("mpbs/swept/sweep.csv").is_file());
    // plots.csv lists the key's chart; one key swept, no heatmap.
    let (h, rows) = read_csv(&out.join("mpbs/swept/plots.csv"));
    let kinds: Vec<&str> = rows.iter().map(|r| r[col(&h, "kind")].as_str()).collect();
    assert_eq!(kinds.iter().filter(|k| **k == "sweep").count(), 1);
    assert_eq!(kinds.iter().filter(|k| **k == "heatmap").count(), 0);
    // The scenario without a sweep has neither.
    let other = &page[plain..if plain < swept { swept } else { page.len() }];
    assert!(!other.contains("Across the sweep"));
    assert!(!other.contains("<details class=\"variants\">"));
    assert!(!out.join("mpbs/plain/sweep.csv").exists());
}
