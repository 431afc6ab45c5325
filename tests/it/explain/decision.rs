//! `pikeshot explain --decision`: at a state where the own side chooses,
//! each option's value is the sum over where its turn leads of the exact
//! probability times the value there, and every figure is the one
//! `pikeshot decide` writes in the decision's policy.csv.

use serde_json::Value;

use crate::support::cli::{code, pikeshot, pikeshot_ok, stderr, stdout, temp_out};

const SNAPHANCE: &str = "scenarios/snaphance/fire-or-charge.toml";
const DECISION: &str = "fire or charge each turn";

/// policy.csv of the shipped Snaphance decision: its header and rows.
fn policy() -> (Vec<String>, Vec<Vec<String>>) {
    let out = temp_out();
    pikeshot_ok(&["decide", SNAPHANCE, "--out", out.to_str().unwrap()]);
    let text = std::fs::read_to_string(out.join("fire-or-charge-each-turn/policy.csv")).unwrap();
    let mut lines = text
        .lines()
        .map(|l| l.split(',').map(String::from).collect());
    let header: Vec<String> = lines.next().unwrap();
    (header, lines.collect())
}

fn explain(state: &[&str]) -> Value {
    let mut args = vec![
        "explain",
        SNAPHANCE,
        "--decision",
        DECISION,
        "--format",
        "json",
    ];
    args.extend_from_slice(state);
    serde_json::from_str(&stdout(&pikeshot_ok(&args))).unwrap()
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

/// At the start (policy.csv's first row: turn 1, every feature 0 or
/// "no") the options' values are the row's `value fire` (1.395157722412)
/// and `value charge` (0.932538814269); fire is best. Firing's turn leads to
/// turn 2 only (a volley ends no melee), and each place it leads to is
/// worth the best value of the policy.csv row of that state in turn 2, so
/// Σ p × value over them is fire's 1.395157722412.
#[test]
fn the_start_is_policy_csv_first_row() {
    let (header, rows) = policy();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let start = &rows[0];
    assert_eq!(start[col("turn")], "1");
    let e = explain(&[]);
    let at = &e["variants"][0]["at"];
    let options = at["options"].as_array().unwrap();
    assert_eq!(options[0]["name"], "fire");
    assert_eq!(options[1]["name"], "charge");
    let fire: f64 = start[col("value fire")].parse().unwrap();
    let charge: f64 = start[col("value charge")].parse().unwrap();
    assert!((num(&options[0]["value"]) - fire).abs() < 1e-11, "{at}");
    assert!((num(&options[1]["value"]) - charge).abs() < 1e-11, "{at}");
    assert_eq!(at["best"], 0);
    assert_eq!(at["runner_up"], 1);
    assert!((num(&e["variants"][0]["value"]) - fire).abs() < 1e-11);
    // The state explained is the first row's, in policy.csv's words.
    let state: Vec<(String, String)> = at["state"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_str().unwrap().into(), p[1].as_str().unwrap().into()))
        .collect();
    for (k, v) in &state {
        assert_eq!(start[col(k)], *v, "{k}");
    }
    // Each option: Σ p = 1 and Σ p × value = its value.
    for o in options {
        let leads = o["leads_to"].as_array().unwrap();
        let p: f64 = leads.iter().map(|n| num(&n["probability"])).sum();
        let v: f64 = leads.iter().map(|n| num(&n["contribution"])).sum();
        assert!((p - 1.0).abs() < 1e-12, "{o}");
        assert!((v - num(&o["value"])).abs() < 1e-12, "{o}");
    }
    // Firing's places are states of turn 2, each worth the best value of
    // its policy.csv row.
    for n in options[0]["leads_to"].as_array().unwrap() {
        let after = n["after"].as_str().unwrap();
        assert!(after.ends_with("turn 2"), "{after}");
        let row = rows
            .iter()
            .find(|r| {
                header[..col("turn") + 1]
                    .iter()
                    .zip(r.iter())
                    .map(|(h, v)| format!("{h} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
                    == after
            })
            .unwrap_or_else(|| panic!("no policy.csv row for {after}"));
        let best = &row[col("best")];
        let v: f64 = row[col(&format!("value {best}"))].parse().unwrap();
        assert!((num(&n["value"]) - v).abs() < 1e-11, "{after}");
    }
    // The differences sum to fire's lead over charge.
    let gain: f64 = at["difference"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| num(&d["gain"]))
        .sum();
    assert!((gain - (fire - charge)).abs() < 1e-11);
}

/// A state named by `--state` is a policy.csv row of that state: at turn
/// 3 with the musketeers one SP down the options' values are that row's.
#[test]
fn a_named_state_is_its_policy_csv_row() {
    let (header, rows) = policy();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let e = explain(&["--state", "turn=3, musketeers SP lost=1, reiters SP lost=0"]);
    let at = &e["variants"][0]["at"];
    let row = rows
        .iter()
        .filter(|r| {
            r[col("turn")] == "3"
                && r[col("musketeers SP lost")] == "1"
                && r[col("reiters SP lost")] == "0"
        })
        .max_by(|a, b| {
            a[col("reach")]
                .parse::<f64>()
                .unwrap()
                .total_cmp(&b[col("reach")].parse().unwrap())
        })
        .unwrap();
    for (k, o) in at["options"].as_array().unwrap().iter().enumerate() {
        let name = o["name"].as_str().unwrap();
        let v: f64 = row[col(&format!("value {name}"))].parse().unwrap();
        assert!((num(&o["value"]) - v).abs() < 1e-11, "option {k}: {o}");
    }
    assert_eq!(
        at["options"][at["best"].as_u64().unwrap() as usize]["name"],
        row[col("best")].as_str()
    );
}

/// A feature the decision has not, a state it never reaches, and a
/// decision it has not are errors naming what is accepted (exit 2).
#[test]
fn bad_states_say_what_is_accepted() {
    for (args, says) in [
        (
            vec!["--decision", DECISION, "--state", "turns=2"],
            "did you mean `turn`",
        ),
        (
            vec!["--decision", DECISION, "--state", "turn=9"],
            "turn is one of 1, 2, 3",
        ),
        (
            vec!["--decision", DECISION, "--state", "turn"],
            "FEATURE=VALUE",
        ),
        (
            vec!["--decision", "fire or charge"],
            "accepted: fire or charge each turn",
        ),
    ] {
        let mut all = vec!["explain", SNAPHANCE];
        all.extend(args);
        let o = pikeshot(&all);
        assert_eq!(code(&o), 2, "{}", stderr(&o));
        assert!(stderr(&o).contains(says), "`{says}` not in {}", stderr(&o));
        assert!(stdout(&o).is_empty());
    }
}

/// The text names each option's value, the best and the runner-up, and
/// what makes the difference.
#[test]
fn the_text_shows_values_and_the_difference() {
    let out = stdout(&pikeshot_ok(&[
        "explain",
        SNAPHANCE,
        "--decision",
        DECISION,
    ]));
    for s in [
        "fire    1.395  best",
        "charge  0.933  runner-up",
        "fire: 1.395 = Σ p(where the turn leads) × its value",
        "what makes the difference (fire against charge: +0.463)",
    ] {
        assert!(out.contains(s), "`{s}` not in {out}");
    }
}
