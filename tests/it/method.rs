//! `--method exact|monte-carlo|both` and `--plots all|summary|none` (issue
//! 14, item 1): an exact-only run resolves no trial, writes exact figures
//! with intervals of zero width, refuses a course that does not enumerate,
//! and draws only the plots asked for.

use std::path::{Path, PathBuf};

use crate::support::cli::{TempOut, pikeshot_ok, pikeshot_refused, run_to, temp_out};
use crate::support::{col, file_names as files, image_names, read_csv};

const SCENARIO: &str = "scenarios/mpbs/charge-or-salvo.toml";

/// Runs the scenario's series variant under `--method method` with `extra`
/// arguments into `out`, and asserts it succeeded.
fn run_series(method: &str, extra: &[&str], out: &Path) -> std::process::Output {
    let mut args = vec![
        "run",
        SCENARIO,
        "--method",
        method,
        "--set",
        "edition=series",
    ];
    args.extend_from_slice(extra);
    args.extend(["--out", out.to_str().unwrap()]);
    pikeshot_ok(&args)
}

/// Runs the scenario quietly twice, with `first` into a fresh folder and
/// with `second` into one beside it, and returns both folders.
fn run_twice(first: &[&str], second: &[&str]) -> (TempOut, PathBuf) {
    let a = temp_out();
    let b = a.beside("b");
    for (args, out) in [(first, &*a), (second, b.as_path())] {
        run_to(SCENARIO, &[args, &["-q"]].concat(), out);
    }
    (a, b)
}

#[test]
fn exact_only_writes_exact_probabilities_no_counts_and_zero_width_intervals() {
    let out = temp_out();
    let o = run_series("exact", &["--plots", "none"], &out);
    let (h, rows) = read_csv(&out.join("outcomes.csv"));
    let (count, trials, p, lo, hi, exact) = (
        col(&h, "count"),
        col(&h, "trials"),
        col(&h, "probability"),
        col(&h, "ci_low"),
        col(&h, "ci_high"),
        col(&h, "exact"),
    );
    assert_eq!(rows.len(), 8 + 8 + 3, "every outcome of the three courses");
    for r in &rows {
        assert_eq!(r[count], "", "no Monte Carlo count: {r:?}");
        assert_eq!(r[trials], "0", "no trial: {r:?}");
        let e: f64 = r[exact].parse().unwrap();
        let v: f64 = r[p].parse().unwrap();
        assert!(
            (v - e).abs() < 1e-6,
            "probability is the exact value: {r:?}"
        );
        assert_eq!(
            (&r[lo], &r[hi]),
            (&r[p], &r[p]),
            "zero-width interval: {r:?}"
        );
    }
    // "charge now" is one close combat: its result is one d10 roll on the
    // chart, so every exact probability is a whole number of tenths, and
    // they sum to 1.
    let charge: Vec<f64> = rows
        .iter()
        .filter(|r| r[2] == "charge now")
        .map(|r| r[exact].parse().unwrap())
        .collect();
    assert!((charge.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    for x in &charge {
        assert!(
            (x * 10.0 - (x * 10.0).round()).abs() < 1e-9,
            "{x} is not k/10"
        );
    }
    let (h, rows) = read_csv(&out.join("summary.csv"));
    let (value, lo, hi, exact) = (
        col(&h, "value"),
        col(&h, "ci_low"),
        col(&h, "ci_high"),
        col(&h, "exact"),
    );
    for r in &rows {
        assert!(!r[value].is_empty() && r[lo] == r[value] && r[hi] == r[value]);
        assert!(!r[exact].is_empty(), "{r:?}");
    }
    // No plot at all, and the record says how the figures were found.
    assert!(
        files(&out)
            .iter()
            .all(|f| !f.ends_with(".png") && !f.ends_with(".svg")),
        "{:?}",
        files(&out)
    );
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(v["method"], "exact");
    assert_eq!(v["plots"], "none");
    assert_eq!(v["trials"], 0);
    let table = crate::support::cli::stdout(&o);
    assert!(table.contains("exact (no Monte Carlo trials)"), "{table}");
}

#[test]
fn exact_only_figures_equal_the_exact_column_of_a_run_with_both() {
    let (a, b) = run_twice(
        &["--method", "exact", "--plots", "none"],
        &["--method", "both", "--plots", "none", "--trials", "2000"],
    );
    let exact_of = |dir: &Path| {
        let (h, rows) = read_csv(&dir.join("outcomes.csv"));
        let e = col(&h, "exact");
        rows.iter()
            .map(|r| (r[1].clone(), r[2].clone(), r[3].clone(), r[e].clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(exact_of(&a), exact_of(&b));
}

#[test]
fn exact_is_the_same_as_method_both() {
    let (a, b) = run_twice(
        &["--trials", "3000", "--plots", "none", "--exact"],
        &["--trials", "3000", "--plots", "none", "--method", "both"],
    );
    for f in ["outcomes.csv", "measures.csv", "summary.csv"] {
        assert_eq!(
            std::fs::read(a.join(f)).unwrap(),
            std::fs::read(b.join(f)).unwrap(),
            "{f}"
        );
    }
}

#[test]
fn exact_only_refuses_a_course_beyond_the_budget_and_writes_nothing() {
    let out = temp_out();
    pikeshot_refused(
        &[
            "run",
            SCENARIO,
            "--method",
            "exact",
            "--exact-budget",
            "1",
            "--out",
            out.to_str().unwrap(),
        ],
        &[
            "charge-or-salvo.toml",
            "course \"charge now\"",
            "edition=series",
            "--method both",
            "--exact-budget",
        ],
    );
    assert!(!out.exists() || files(&out).is_empty(), "{:?}", files(&out));
}

#[test]
fn exact_only_refuses_trials_and_precision() {
    for extra in [["--trials", "1000"], ["--precision", "0.01"]] {
        let mut args = vec![
            "run",
            SCENARIO,
            "--method",
            "exact",
            "--out",
            "/nonexistent/x",
        ];
        args.extend(extra);
        pikeshot_refused(&args, &[extra[0], "--method exact"]);
    }
    pikeshot_refused(&["run", SCENARIO, "--method", "exact", "--exact"], &[]);
}

#[test]
fn plots_summary_draws_the_comparison_charts_only_and_all_draws_every_plot() {
    let exact_sfo = ["--method", "exact", "--set", "edition=sfo", "--plots"];
    let (s, a) = run_twice(
        &[&exact_sfo[..], &["summary"]].concat(),
        &[&exact_sfo[..], &["all"]].concat(),
    );
    let summary = image_names(&s);
    assert!(!summary.is_empty());
    assert!(
        summary.iter().all(|f| f.starts_with("comparison")),
        "{summary:?}"
    );
    let all = image_names(&a);
    for f in &summary {
        assert!(all.contains(f), "{f} missing from --plots all");
    }
    for f in ["charge-now.png", "keep-firing-turns.svg"] {
        assert!(all.contains(&f.to_string()), "{f} missing from {all:?}");
    }
    // The CSV files do not depend on the plots drawn.
    for f in ["outcomes.csv", "summary.csv", "comparison.csv"] {
        assert_eq!(
            std::fs::read(s.join(f)).unwrap(),
            std::fs::read(a.join(f)).unwrap()
        );
    }
}

#[test]
fn exact_only_shows_one_exact_column_and_exact_differences_without_intervals() {
    let out = temp_out();
    let o = run_series("exact", &["--plots", "none"], &out);
    let table = crate::support::cli::stdout(&o);
    // The outcome tables: one exact column, no Monte Carlo or interval one.
    assert!(!table.contains("95% CI"), "{table}");
    assert!(!table.contains("Monte Carlo ["), "{table}");
    let head = table
        .lines()
        .find(|l| l.trim_start().starts_with("outcome"))
        .unwrap();
    assert_eq!(
        head.split_whitespace().collect::<Vec<_>>(),
        ["outcome", "exact"]
    );
    // The differences: each once, exact, with no interval and no NaN.
    let diff = &table[table
        .find("== difference from")
        .expect("a difference table")..];
    let diff = &diff[..diff[2..].find("==").map_or(diff.len(), |i| i + 2)];
    assert!(diff.contains("course minus the first, exact"), "{diff}");
    assert!(!diff.contains('[') && !diff.contains("NaN"), "{diff}");
    assert!(
        !diff.contains("\n    exact "),
        "no repeated exact row: {diff}"
    );
    // salvo, then charge minus charge now, from the comparison file.
    let (h, rows) = read_csv(&out.join("comparison.csv"));
    let (diff, lo, hi, ex, from) = (
        col(&h, "diff"),
        col(&h, "diff_ci_low"),
        col(&h, "diff_ci_high"),
        col(&h, "diff_exact"),
        col(&h, "diff_from"),
    );
    let mut differences = 0;
    for r in rows.iter().filter(|r| !r[from].is_empty()) {
        assert_eq!((&r[lo], &r[hi]), (&String::new(), &String::new()), "{r:?}");
        let (d, e): (f64, f64) = (r[diff].parse().unwrap(), r[ex].parse().unwrap());
        assert!((d - e).abs() < 1e-6, "{r:?}");
        differences += 1;
    }
    assert!(differences > 0);
    // JSON: the same differences, null rather than NaN intervals.
    let o = run_series(
        "exact",
        &["--plots", "none", "--format", "json", "-q"],
        &out.beside("j"),
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut seen = 0;
    for c in v["scenarios"][0]["courses"].as_array().unwrap() {
        for k in c["key_outcomes"].as_array().unwrap() {
            let d = &k["difference"];
            if d.is_null() {
                continue;
            }
            assert!(d["ci_low"].is_null() && d["ci_high"].is_null(), "{d}");
            assert_eq!(d["value"], d["exact"], "{d}");
            seen += 1;
        }
    }
    assert!(seen > 0);
}

/// The histogram's exact markers (diamonds, the legend's included) and bars
/// (the legend's swatch included) of course `stem` in `dir`.
fn marks(dir: &Path, stem: &str) -> (usize, usize) {
    let name = files(dir)
        .into_iter()
        .find(|f| f.ends_with(&format!("{stem}.svg")))
        .unwrap_or_else(|| panic!("no {stem}.svg in {:?}", files(dir)));
    let svg = std::fs::read_to_string(dir.join(name)).unwrap();
    (
        svg.matches("<polygon opacity=\"1\" fill=\"#E4572E\"")
            .count(),
        svg.matches("fill=\"#4C78A8\"").count(),
    )
}

#[test]
fn histograms_leave_out_outcomes_the_exact_enumeration_finds_impossible() {
    // "charge now" has 8 outcomes; "attacker-eliminated" has exact
    // probability 0 (the close combat chart never eliminates the attacker).
    let out = temp_out();
    run_series("exact", &["-q"], &out);
    let (h, rows) = read_csv(&out.join("outcomes.csv"));
    let e = col(&h, "exact");
    let possible = rows
        .iter()
        .filter(|r| r[2] == "charge now" && r[e].parse::<f64>().unwrap() > 0.0)
        .count();
    assert_eq!(possible, 7);
    assert_eq!(marks(&out, "charge-now"), (possible + 1, possible + 1));
    // Under Monte Carlo alone nothing is known to be impossible: with 10
    // trials some outcome of eight has no count, and every one keeps its bar.
    let mc = out.beside("mc");
    run_series("monte-carlo", &["--trials", "10", "-q"], &mc);
    let (h, rows) = read_csv(&mc.join("outcomes.csv"));
    let count = col(&h, "count");
    let charge: Vec<&Vec<String>> = rows.iter().filter(|r| r[2] == "charge now").collect();
    assert!(charge.iter().any(|r| r[count] == "0"));
    assert_eq!(marks(&mc, "charge-now"), (0, charge.len() + 1));
}

/// The `trials` column of every row of `outcomes.csv` in `out`, and
/// whether every row has an exact probability.
fn trials_and_exact(out: &Path) -> (Vec<String>, bool) {
    let (h, rows) = read_csv(&out.join("outcomes.csv"));
    let (t, e) = (col(&h, "trials"), col(&h, "exact"));
    (
        rows.iter().map(|r| r[t].clone()).collect(),
        rows.iter().all(|r| !r[e].is_empty()),
    )
}

/// The method `run.json` in `out` records.
fn recorded_method(out: &Path) -> String {
    let text = std::fs::read_to_string(out.join("run.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["method"].as_str().unwrap().to_string()
}

/// Without `--method`, a scenario whose courses all enumerate is answered
/// exactly (`auto`): no trial, the terminal says so per course, and the
/// figures are byte for byte those of `--method exact`.
#[test]
fn auto_is_the_default_and_answers_an_enumerable_scenario_exactly() {
    let auto = temp_out();
    let o = run_to(
        SCENARIO,
        &["--set", "edition=series", "--plots", "none"],
        &auto,
    );
    let table = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(table.matches("(exact, no trials)").count(), 3, "{table}");
    // No course ran trials ("(1,000,000 trials)").
    assert!(!table.contains("0 trials)"), "{table}");
    let (trials, exact) = trials_and_exact(&auto);
    assert!(trials.iter().all(|t| t == "0"), "{trials:?}");
    assert!(exact);
    assert_eq!(recorded_method(&auto), "auto");
    let only = auto.beside("exact");
    run_series("exact", &["--plots", "none"], &only);
    for f in [
        "outcomes.csv",
        "measures.csv",
        "summary.csv",
        "comparison.csv",
    ] {
        assert_eq!(
            std::fs::read(auto.join(f)).unwrap(),
            std::fs::read(only.join(f)).unwrap(),
            "{f}"
        );
    }
}

/// Under `auto`, a variant with a course that does not enumerate within
/// the budget runs the file's trials (here every course: a budget of one
/// die path fits none), and says so per course.
#[test]
fn auto_runs_trials_where_a_course_does_not_enumerate() {
    let out = temp_out();
    let o = run_to(
        SCENARIO,
        &[
            "--set",
            "edition=series",
            "--set",
            "trials=20000",
            "--exact-budget",
            "1",
            "--plots",
            "none",
        ],
        &out,
    );
    let table = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(table.matches("(20,000 trials)").count(), 3, "{table}");
    let (trials, _) = trials_and_exact(&out);
    assert!(trials.iter().all(|t| t == "20000"), "{trials:?}");
    let (h, rows) = read_csv(&out.join("outcomes.csv"));
    assert!(rows.iter().all(|r| r[col(&h, "exact")].is_empty()));
}

/// `--trials` asks for trials by name: without `--method` the run is Monte
/// Carlo, as `run.json` records.
#[test]
fn trials_on_the_command_line_ask_for_monte_carlo() {
    let out = temp_out();
    run_to(
        SCENARIO,
        &["--set", "edition=series", "--trials", "20000", "-q"],
        &out,
    );
    let (trials, _) = trials_and_exact(&out);
    assert!(trials.iter().all(|t| t == "20000"), "{trials:?}");
    assert_eq!(recorded_method(&out), "monte-carlo");
}

/// `-q` prints nothing when every target passes: no table, no "wrote"
/// line, no verdict count.
#[test]
fn quiet_prints_nothing_when_the_targets_pass() {
    let out = temp_out();
    let o = run_to(SCENARIO, &["-q", "--check", "--plots", "none"], &out);
    assert_eq!(String::from_utf8_lossy(&o.stdout), "");
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
}

/// `report` of a folder that is not there is bad input naming it, exit 2.
#[test]
fn report_of_a_missing_folder_is_a_located_error() {
    let out = temp_out();
    let missing = out.dir().join("no-such-folder");
    pikeshot_refused(
        &[
            "report",
            missing.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        &[missing.to_str().unwrap(), "does not exist", "accepted:"],
    );
    assert!(!out.exists(), "nothing written");
}
