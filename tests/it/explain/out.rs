//! `pikeshot run --out DIR` writes `explain.json` beside the reports: what
//! `pikeshot explain --format json` prints, byte for byte, the same on any
//! thread count.

use crate::support::cli::{pikeshot_ok, stdout};
use crate::support::explain::shipped_explained;

#[test]
fn run_writes_explain_json_identical_across_threads_and_to_explain() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    let scenario = "scenarios/snaphance/shot-vs-pike.toml";
    let mut got = Vec::new();
    for threads in ["1", "2"] {
        pikeshot_ok(&[
            "run",
            scenario,
            "--trials",
            "2000",
            "--threads",
            threads,
            "-q",
            "--out",
            out.to_str().unwrap(),
        ]);
        got.push(std::fs::read(out.join("explain.json")).unwrap());
    }
    assert_eq!(
        got[0], got[1],
        "explain.json differs between --threads 1 and 2"
    );
    let printed = stdout(&pikeshot_ok(&["explain", scenario, "--format", "json"]));
    assert_eq!(String::from_utf8(got[0].clone()).unwrap(), printed);
}

/// explain.json goes with every plot: `--plots summary` and `--plots none`
/// (the instant answer) leave it out, and a rerun into the same folder
/// removes the one an earlier `--plots all` run wrote; with `--set`, the
/// file records the overrides it was explained under.
#[test]
fn explain_json_only_with_every_plot() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    let scenario = "scenarios/snaphance/shot-vs-pike.toml";
    let run = |plots: &str| {
        pikeshot_ok(&[
            "run",
            scenario,
            "--trials",
            "2000",
            "-q",
            "--plots",
            plots,
            "--set",
            "seed=7",
            "--out",
            out.to_str().unwrap(),
        ]);
        out.join("explain.json")
    };
    let all = run("all");
    let json = std::fs::read_to_string(&all).unwrap();
    assert!(
        json.contains("\"seed=7\""),
        "the overrides are not recorded"
    );
    assert!(
        !run("summary").exists(),
        "explain.json written under --plots summary"
    );
    assert!(
        !run("none").exists(),
        "explain.json written under --plots none"
    );
    assert!(out.join("outcomes.csv").exists());
}

#[test]
fn every_shipped_scenario_explains_as_text_and_json() {
    use pikeshot::explain::{self, Explanation};
    let all = shipped_explained();
    for sys in ["mpbs", "hakkaa", "snaphance", "sword-and-spear"] {
        let folder = std::path::Path::new("scenarios").join(sys);
        assert!(all.iter().any(|(f, _)| f.starts_with(&folder)), "{sys}");
    }
    for (f, e) in all {
        let text = explain::text::render(e);
        for s in e
            .variants
            .iter()
            .flat_map(|v| &v.courses)
            .flat_map(|c| &c.steps)
        {
            assert!(text.contains(&s.title), "{}: {}", f.display(), s.title);
            // Every roll has a table, and no empty parentheses are printed.
            assert!(s.cases.iter().all(|c| !c.roll.table.is_empty()));
        }
        assert!(!text.contains("()"), "{}", f.display());
        let back: Explanation = serde_json::from_str(&explain::to_json(e)).unwrap();
        assert_eq!(back.variants.len(), e.variants.len(), "{}", f.display());
    }
}
