//! The report's "best plan" section: a scenario with `[[decision]]`s gets
//! the figures `pikeshot decide` prints (the best plan beside "always X"
//! and the scenario's own courses, the plan in words) and each decision's
//! policy file, byte for byte the policy.csv `decide --out` writes; a
//! sharded report merged has them too.

use std::fs;

use crate::support::cli::{pikeshot_ok, stdout};
use tempfile::TempDir;

const SCENARIO: &str = "scenarios/snaphance/fire-or-charge.toml";

#[test]
fn the_best_plan_section_shows_decides_figures_and_links_its_policy() {
    let tmp = TempDir::new().unwrap();
    let input = tmp.path().join("in");
    fs::create_dir_all(&input).unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    fs::copy(
        format!("{root}/{SCENARIO}"),
        input.join("fire-or-charge.toml"),
    )
    .unwrap();
    let out = tmp.path().join("out");
    pikeshot_ok(&[
        "report",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--plots",
        "none",
    ]);
    let decided = tmp.path().join("decided");
    let text = stdout(&pikeshot_ok(&[
        "decide",
        SCENARIO,
        "--out",
        decided.to_str().unwrap(),
    ]));
    // decide's figures, as docs/guide/decisions.md gives them.
    assert!(text.contains("best plan 1.395; always fire 1.102, always charge 0.860"));
    let html = fs::read_to_string(out.join("index.html")).unwrap();
    for s in [
        "<h3>Best plan: fire or charge each turn</h3>",
        "<strong>1.395</strong>",
        "<td>always fire</td><td class=\"num\">1.102</td><td class=\"num\">-0.294</td>",
        "<td>always charge</td><td class=\"num\">0.860</td>",
        "the scenario&#39;s course &quot;fire, then charge to a finish&quot;</td><td class=\"num\">1.376</td>",
        "fire while turn ≤ 2; otherwise charge (1.395, losing nothing measurable)",
        "href=\"fire-or-charge/policy-fire-or-charge-each-turn.csv\"",
    ] {
        assert!(html.contains(s), "`{s}` not in the page");
    }
    assert_eq!(
        fs::read(out.join("fire-or-charge/policy-fire-or-charge-each-turn.csv")).unwrap(),
        fs::read(decided.join("fire-or-charge-each-turn/policy.csv")).unwrap()
    );
    let json: serde_json::Value =
        serde_json::from_slice(&fs::read(out.join("fire-or-charge/decisions.json")).unwrap())
            .unwrap();
    let d = &json["variants"][0]["decisions"][0];
    assert_eq!(d["name"], "fire or charge each turn");
    assert!((d["value"].as_f64().unwrap() - 1.395157722412).abs() < 1e-9);
}
