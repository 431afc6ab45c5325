//! `pikeshot balance`, `pikeshot sensitivity` and the fix `--check` suggests
//! for a failing target, through the command line, checked against exact
//! runs of the same scenario with `--set` (the public run path).

use std::path::Path;

use pikeshot::report::key::{KEY_OUTCOMES, key_outcome};
use pikeshot::run::{self, Method, RunPlan};
use pikeshot::scenario::Overrides;
use pikeshot::scenario::ScenarioFile;

use crate::support::cli::{code, pikeshot, pikeshot_ok, stderr, stdout, temp_out};
use crate::support::read_csv;

/// Cuirassiers charging pike, one course: no sweep, every course exact.
const CHARGE: &str = r#"
name = "Cuirassiers on pike"
system = "mpbs"
edition = "series"

[units.cuirassiers]
kind = "cuirassier"
morale = 7
strength = 4
order = "charge"

[units.pike]
kind = "heavy-infantry"
morale = 6
strength = 8
terrain = "clear"

[[course]]
name = "charge"
own = "cuirassiers"
enemy = "pike"
steps = [
  { procedure = "close-combat", attacker = "cuirassiers", defender = "pike", momentum = true },
]
"#;

const P_BROKEN: &str = "p-enemy-broken-or-eliminated";

/// The exact `P(enemy broken or eliminated)` of course `charge` of `text`
/// with `sets`, run as `pikeshot run --method exact --set …` runs it.
fn exact_p(text: &str, sets: &[&str]) -> f64 {
    let file = ScenarioFile::from_str("charge.toml", text).unwrap();
    let req = RunPlan {
        method: Method::Exact,
        overrides: Overrides::parse(sets).unwrap(),
        ..RunPlan::default()
    };
    let p = run::prepare_file(file, &req).unwrap();
    let r = run::execute(&p, &req).unwrap();
    let c = r.courses.iter().find(|c| c.course == "charge").unwrap();
    let def = KEY_OUTCOMES.iter().find(|d| d.name == P_BROKEN).unwrap();
    key_outcome(*def, c.stats()).unwrap().figure.exact.unwrap()
}

/// The rows of `file` (a CSV) whose column `col` is `value`.
fn rows_where(file: &Path, col: &str, value: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let (h, rows) = read_csv(file);
    let i = h.iter().position(|x| x == col).unwrap();
    let keep = rows.into_iter().filter(|r| r[i] == value).collect();
    (h, keep)
}

fn field<'a>(h: &[String], r: &'a [String], col: &str) -> &'a str {
    &r[h.iter()
        .position(|x| x == col)
        .unwrap_or_else(|| panic!("no {col}"))]
}

#[test]
fn balance_answers_the_best_value_of_an_exact_sweep() {
    let out = temp_out();
    let file = out.write("charge.toml", CHARGE);
    let o = pikeshot_ok(&[
        "balance",
        file.to_str().unwrap(),
        "--vary",
        "units.pike.morale",
        "--target",
        "charge: p-enemy-broken-or-eliminated = 0.52",
        "--out",
        out.to_str().unwrap(),
    ]);
    // The explicit sweep: every morale the key accepts, run exactly.
    let sweep: Vec<(i64, f64)> = (2..=9)
        .map(|m| (m, exact_p(CHARGE, &[&format!("units.pike.morale={m}")])))
        .collect();
    let best = sweep
        .iter()
        .min_by(|a, b| (a.1 - 0.52).abs().total_cmp(&(b.1 - 0.52).abs()))
        .unwrap()
        .0;
    let text = stdout(&o);
    assert!(
        text.contains(&format!("closest: --set units.pike.morale={best}")),
        "{text}"
    );
    // Every point of the curve is the sweep's exact figure.
    let (h, rows) = read_csv(&out.join("balance.csv"));
    assert_eq!(rows.len(), sweep.len());
    for (r, (m, p)) in rows.iter().zip(&sweep) {
        assert_eq!(field(&h, r, "units.pike.morale"), m.to_string());
        let got: f64 = field(&h, r, "exact").parse().unwrap();
        assert!((got - p).abs() < 1e-9, "morale {m}: {got} against {p}");
    }
    assert!(out.join("balance.png").is_file() && out.join("balance.svg").is_file());
}

#[test]
fn balance_over_two_keys_ranks_the_combinations_within_the_tolerance() {
    let out = temp_out();
    let file = out.write("charge.toml", CHARGE);
    let o = pikeshot_ok(&[
        "balance",
        file.to_str().unwrap(),
        "--vary",
        "units.pike.morale=5..7",
        "--vary",
        "units.cuirassiers.morale=6,8",
        "--target",
        "charge: p-enemy-broken-or-eliminated = 0.5",
        "--tolerance",
        "0",
        "--out",
        out.to_str().unwrap(),
    ]);
    let (h, rows) = read_csv(&out.join("balance.csv"));
    assert_eq!(rows.len(), 6, "3 × 2 combinations");
    let mut within = 0;
    for r in &rows {
        let sets = [
            format!("units.pike.morale={}", field(&h, r, "units.pike.morale")),
            format!(
                "units.cuirassiers.morale={}",
                field(&h, r, "units.cuirassiers.morale")
            ),
        ];
        let p = exact_p(CHARGE, &[&sets[0], &sets[1]]);
        let got: f64 = field(&h, r, "exact").parse().unwrap();
        assert!((got - p).abs() < 1e-9, "{sets:?}: {got} against {p}");
        let hit = (p - 0.5).abs() < 1e-9;
        assert_eq!(field(&h, r, "within"), hit.to_string(), "{sets:?}");
        within += usize::from(hit);
    }
    assert!(
        stdout(&o).contains(&format!("{within} of 6 combinations within 0.00 pp")),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_sensitivity_row_is_the_difference_of_two_exact_runs() {
    let out = temp_out();
    let file = out.write("charge.toml", CHARGE);
    pikeshot_ok(&[
        "sensitivity",
        file.to_str().unwrap(),
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    let (h, rows) = rows_where(&out.join("sensitivity.csv"), "key", "units.pike.morale");
    let r = rows
        .iter()
        .find(|r| field(&h, r, "figure") == P_BROKEN)
        .unwrap();
    let base = exact_p(CHARGE, &[]);
    for (to, change) in [("down_to", "down_change"), ("up_to", "up_change")] {
        let value = field(&h, r, to);
        let want = exact_p(CHARGE, &[&format!("units.pike.morale={value}")]) - base;
        let got: f64 = field(&h, r, change).parse().unwrap();
        assert!(
            (got - want).abs() < 1e-9,
            "{to} {value}: {got} against {want}"
        );
    }
    assert_eq!(field(&h, r, "down_to"), "5");
    assert_eq!(field(&h, r, "up_to"), "7");
    assert!(out.join("tornado--charge.png").is_file());
    assert!(out.join("tornado--charge.svg").is_file());
}

#[test]
fn a_key_at_the_end_of_its_range_moves_one_way_only() {
    let out = temp_out();
    let file = out.write("charge.toml", CHARGE);
    pikeshot_ok(&[
        "sensitivity",
        file.to_str().unwrap(),
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    let csv = out.join("sensitivity.csv");
    // morale_state is `good` (the first of good | shaken | broken | …) and
    // attacker_pistols 0 (its least): nothing below either.
    for (key, up) in [
        ("units.pike.morale_state", "shaken"),
        ("course[0].steps[0].attacker_pistols", "1"),
    ] {
        let (h, rows) = rows_where(&csv, "key", key);
        let r = rows
            .iter()
            .find(|r| field(&h, r, "figure") == P_BROKEN)
            .unwrap();
        assert_eq!(field(&h, r, "down_to"), "", "{key}");
        assert_eq!(field(&h, r, "down_change"), "", "{key}");
        assert_eq!(field(&h, r, "up_to"), up, "{key}");
        assert!(!field(&h, r, "up_change").is_empty(), "{key}");
    }
}

#[test]
fn keys_that_cannot_change_the_outcome_are_listed_with_zero() {
    let out = temp_out();
    let file = out.write("charge.toml", CHARGE);
    pikeshot_ok(&[
        "sensitivity",
        file.to_str().unwrap(),
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    // A close combat rolls no morale check: the DRM of morale checks
    // cannot move it, either way.
    let (h, rows) = rows_where(
        &out.join("sensitivity.csv"),
        "key",
        "rules.morale_check_drm",
    );
    let r = rows
        .iter()
        .find(|r| field(&h, r, "figure") == P_BROKEN)
        .unwrap();
    for col in ["down_change", "up_change", "size"] {
        let x: f64 = field(&h, r, col).parse().unwrap();
        assert_eq!(x, 0.0, "{col}");
    }
}

#[test]
fn check_suggests_the_smallest_fix_of_a_failing_target_and_it_passes() {
    let out = temp_out();
    let text = format!(
        "{CHARGE}\n[[expect]]\ncourse = \"charge\"\nmeasure = \"{P_BROKEN}\"\nat_least = 0.55\n"
    );
    let file = out.write("charge.toml", &text);
    let f = file.to_str().unwrap();
    let o = pikeshot(&[
        "run",
        f,
        "--method",
        "exact",
        "--check",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let err = stdout(&o);
    // 40% as it is; the one key whose single step reaches 55% is the pike's
    // morale state (shaken: 70%); two steps of morale would also (60%).
    let fix = "units.pike.morale_state=shaken";
    assert!(
        err.contains(&format!("fix with --set {fix} (1 step")),
        "{err}"
    );
    // Under -q no table is printed, nor the fix.
    let o = pikeshot(&[
        "run",
        f,
        "--method",
        "exact",
        "--check",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(!stdout(&o).contains("fix with"), "{}", stdout(&o));
    let o = pikeshot(&[
        "run",
        f,
        "--method",
        "exact",
        "--check",
        "-q",
        "--set",
        fix,
        "--out",
        out.beside("fixed").to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn bad_input_is_refused_with_the_file_and_key_and_nothing_written() {
    let out = temp_out();
    let file = out.write("charge.toml", CHARGE);
    let f = file.to_str().unwrap();
    let o_ = out.to_str().unwrap();
    let target = "charge: p-enemy-broken-or-eliminated = 0.5";
    let cases: [(&[&str], &[&str]); 5] = [
        (
            &["--vary", "units.pike.moral", "--target", target],
            &["charge.toml", "units.pike.moral", "units.pike.morale"],
        ),
        (
            &[
                "--vary",
                "units.pike.morale",
                "--target",
                "charg: p-enemy-broken-or-eliminated = 0.5",
            ],
            &[
                "charge.toml",
                "--target",
                "no course named \"charg\"",
                "charge",
            ],
        ),
        (
            &["--vary", "units.pike.morale=0..12", "--target", target],
            &[
                "charge.toml",
                "units.pike.morale",
                "`0` is outside what units.pike.morale accepts",
                "2 | 3",
            ],
        ),
        (
            &[
                "--vary",
                "units.pike.morale",
                "--target",
                "charge: p-enemy-broken-or-eliminated = 1.5",
            ],
            &["charge.toml", "--target", "not a probability"],
        ),
        (
            &[
                "--vary",
                "units.pike.morale",
                "--target",
                "charge: p-enemy-routed = 0.5",
            ],
            &[
                "charge.toml",
                "--target",
                "no outcome or measure \"p-enemy-routed\"",
            ],
        ),
    ];
    for (args, says) in cases {
        let mut all = vec!["balance", f];
        all.extend_from_slice(args);
        all.extend(["--out", o_]);
        let o = pikeshot(&all);
        let err = stderr(&o);
        assert_eq!(code(&o), 2, "{args:?}: {err}");
        for s in says {
            assert!(err.contains(s), "{args:?}: `{s}` not in {err}");
        }
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
    for (flag, value) in [("--threads", "0"), ("--trials", "0")] {
        let o = pikeshot(&["sensitivity", f, flag, value, "--out", o_]);
        assert_eq!(code(&o), 2, "{}", stderr(&o));
        assert!(stderr(&o).contains(flag), "{}", stderr(&o));
        assert!(!out.exists());
    }
    let o = pikeshot(&["sensitivity", f, "--variant", "edition=sfo", "--out", o_]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("no [sweep]"), "{}", stderr(&o));
}

#[test]
fn both_commands_answer_on_a_shipped_sweep_in_its_chosen_variant() {
    let out = temp_out();
    let f = "scenarios/mpbs/cuirassiers-vs-pike.toml";
    let o = pikeshot_ok(&[
        "sensitivity",
        f,
        "--variant",
        "units.pike.terrain=woods, edition=sfo",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(stdout(&o).contains("variant units.pike.terrain=woods, edition=sfo"));
    let (h, rows) = read_csv(&out.join("sensitivity.csv"));
    // The swept keys are pinned to the variant: terrain stands at woods.
    let r = rows
        .iter()
        .find(|r| field(&h, r, "key") == "units.pike.terrain")
        .unwrap();
    assert_eq!(field(&h, r, "value"), "woods");
    let o = pikeshot_ok(&[
        "balance",
        "scenarios/mpbs/charge-or-salvo.toml",
        "--variant",
        "edition=sfo",
        "--vary",
        "units.tercio.morale",
        "--target",
        "expect[1]",
        "--out",
        out.beside("b").to_str().unwrap(),
    ]);
    let text = stdout(&o);
    assert!(
        text.contains("target charge now: p-enemy-broken-or-eliminated in [0.35, 0.45]; exact"),
        "{text}"
    );
    assert!(stdout(&o).contains("exact"), "{}", stdout(&o));
}

#[test]
fn a_course_over_the_exact_budget_is_balanced_by_monte_carlo_with_intervals() {
    let out = temp_out();
    let file = out.write("charge.toml", CHARGE);
    let o = pikeshot_ok(&[
        "balance",
        file.to_str().unwrap(),
        "--vary",
        "units.pike.morale=5..7",
        "--target",
        "charge: p-enemy-broken-or-eliminated = 0.5",
        "--exact-budget",
        "1",
        "--trials",
        "20000",
        "--seed",
        "7",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        stdout(&o).contains("Monte Carlo, 20000 trials per course, 95% intervals"),
        "{}",
        stdout(&o)
    );
    let (h, rows) = read_csv(&out.join("balance.csv"));
    for r in &rows {
        let m = field(&h, r, "units.pike.morale");
        assert_eq!(field(&h, r, "exact"), "", "morale {m}: no exact value");
        let v: f64 = field(&h, r, "value").parse().unwrap();
        let (lo, hi): (f64, f64) = (
            field(&h, r, "ci_low").parse().unwrap(),
            field(&h, r, "ci_high").parse().unwrap(),
        );
        assert!(lo < v && v < hi, "morale {m}: {lo} {v} {hi}");
        // Within 4 standard errors of the exact figure:
        // SE <= sqrt(0.25 / 20000) = 0.00354, 4 SE = 0.0142.
        let exact = exact_p(CHARGE, &[&format!("units.pike.morale={m}")]);
        assert!(
            (v - exact).abs() < 0.0142,
            "morale {m}: {v} against {exact}"
        );
    }
}
