//! The command line end to end: the quick start, inspection commands, and
//! every kind of bad input (exit code 2, located message, nothing written).

use crate::support::cli::{
    diff_cards, pikeshot, pikeshot_exits, pikeshot_ok, pikeshot_refused, pikeshot_says, run_fresh,
    run_into, run_to, stderr, stdout, temp_out,
};
use std::path::{Path, PathBuf};

fn scenario(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const GOOD: &str = r#"name = "t"
system = "mpbs"
edition = "series"
seed = 7
trials = 20000

[units.a]
kind = "cuirassier"
morale = 7
strength = 4
order = "charge"

[units.b]
kind = "heavy-infantry"
morale = 6
strength = 8
terrain = "clear"

[[course]]
name = "charge"
steps = [{ procedure = "close-combat", attacker = "a", defender = "b", momentum = true }]
own = "a"
enemy = "b"

[[course]]
name = "volley"
steps = [{ procedure = "musketry", firer = "b", target = "a", column = "front" }]
own = "b"
enemy = "a"
"#;

#[test]
fn quick_start_scenario_runs_and_writes_every_output() {
    let args = ["--trials", "100000", "--exact"];
    let (out, o) = run_fresh("scenarios/mpbs/charge-or-salvo.toml", &args);
    for f in ["outcomes.csv", "measures.csv", "summary.csv", "timing.csv"] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let files = crate::support::file_names(&out);
    // A PNG and an SVG histogram for each course of each edition.
    for course in ["charge-now", "salvo-then-charge", "keep-firing"] {
        for edition in ["series", "sfo"] {
            for ext in ["png", "svg"] {
                let name = format!("edition-{edition}--{course}.{ext}");
                assert!(files.contains(&name), "{name} missing from {files:?}");
            }
        }
    }
    let t = stdout(&o);
    for course in ["charge now", "salvo, then charge", "keep firing"] {
        assert!(t.contains(course), "{course} missing from the table:\n{t}");
    }
    let csv = std::fs::read_to_string(out.join("outcomes.csv")).unwrap();
    assert!(csv.starts_with(
        "scenario,variant,course,outcome,count,trials,probability,ci_low,ci_high,exact,label\n"
    ));
    // Every row has an exact value with --exact.
    let (header, rows) = crate::support::read_csv(&out.join("outcomes.csv"));
    let exact = crate::support::col(&header, "exact");
    for row in &rows {
        assert!(!row[exact].is_empty(), "exact column empty: {row:?}");
    }
}

#[test]
fn tables_and_list_print_the_charts() {
    pikeshot_says(
        &["tables", "mpbs", "--edition", "sfo", "close-combat"],
        &["11.0"],
    );
    let all = stdout(&pikeshot_ok(&["tables", "mpbs", "--edition", "series"]));
    for rule in [
        "10.0", "10.8", "10.8.2", "11.0", "11.3.8", "11.4.5", "11.7.2", "12.5", "5.3", "5.7", "9.3",
    ] {
        assert!(all.contains(&format!("({rule})")), "chart {rule} missing");
    }
    pikeshot_says(
        &["list", "mpbs"],
        &[
            "close-combat",
            "musketry",
            "artillery",
            "cuirassier",
            "woods",
            "defender-eliminated",
        ],
    );
}

/// `list` names each outcome by the id `[[expect]]` takes, with the card's
/// label beside it where the two differ; an outcome whose label is its id
/// appears once.
#[test]
fn list_shows_outcome_ids_beside_card_labels() {
    let text = stdout(&pikeshot_ok(&["list", "mpbs"]));
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("outcomes: miss, "))
        .expect("musketry's outcomes line");
    assert_eq!(
        line.trim(),
        "outcomes: miss, 1-hit (\"1 hit\"), 1-hit-fh (\"1 hit + FH\"), 2-hits (\"2 hits\"), \
         2-hits-fh (\"2 hits + FH\"), 2-hits-fh-mc (\"2 hits + FH + MC\")"
    );
    // Close combat's results read as the card's words beside their ids.
    assert!(text.contains(
        "defender-broken-retreat-2 (\"Defender broken, retreat 2\"), \
         defender-eliminated (\"Defender eliminated\")"
    ));
}

/// Runs a bad scenario and checks exit code 2, the message, and that the
/// output folder was not created.
fn refused(text: &str, extra: &[&str], expect: &[&str]) {
    let out = temp_out();
    let p = out.write("bad.toml", text);
    let mut args = vec!["run", p.to_str().unwrap(), "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    pikeshot_refused(&args, expect);
    assert!(!out.exists(), "output written despite bad input");
}

#[test]
fn malformed_toml_is_located() {
    refused(
        "name = \"t\"\nsystem = \"mpbs\n",
        &[],
        &["bad.toml:2", "not valid TOML"],
    );
}

/// A bad value or name in GOOD, each refused at its line and key: an
/// unknown key gets "did you mean", an unknown unit kind, terrain or
/// procedure its nearest name, a value outside the card its range.
#[test]
fn a_bad_key_or_value_is_refused_at_its_line_with_the_fix() {
    let cases: [(&str, &str, &[&str]); 5] = [
        (
            "morale = 6",
            "moral = 6",
            &["bad.toml:15", "units.b.moral", "did you mean `morale`"],
        ),
        (
            "kind = \"cuirassier\"",
            "kind = \"cuirasier\"",
            &[
                "bad.toml:8",
                "units.a.kind",
                "unknown unit kind",
                "did you mean `cuirassier`",
            ],
        ),
        (
            "terrain = \"clear\"",
            "terrain = \"wods\"",
            &["bad.toml:17", "units.b.terrain", "did you mean `woods`"],
        ),
        (
            "procedure = \"close-combat\"",
            "procedure = \"close-combt\"",
            &["bad.toml:21", "procedure", "did you mean `close-combat`"],
        ),
        (
            "morale = 7",
            "morale = 12",
            &["bad.toml:9", "units.a.morale", "from 2 to 9"],
        ),
    ];
    for (good, bad, says) in cases {
        assert!(GOOD.contains(good), "{good}");
        refused(&GOOD.replace(good, bad), &[], says);
    }
}

#[test]
fn table_the_edition_lacks_is_refused() {
    let t = GOOD
        .replace("edition = \"series\"", "edition = \"sfo\"")
        .replace(
            "kind = \"heavy-infantry\"",
            "kind = \"heavy-infantry-no-pikes\"",
        );
    refused(
        &t,
        &[],
        &["bad.toml:14", "units.b.kind", "series card only"],
    );
}

#[test]
fn na_artillery_range_is_an_input_error() {
    let t = r#"system = "mpbs"
edition = "series"
[units.gun]
kind = "artillery"
morale = 6
strength = 2
gun = "3lb"
[units.b]
kind = "heavy-infantry"
morale = 6
strength = 8
[[course]]
name = "too far"
steps = [{ procedure = "artillery", firer = "gun", target = "b", range = 12 }]
"#;
    refused(t, &[], &["bad.toml:14", "range"]);
}

#[test]
fn zero_trials_is_refused() {
    refused(GOOD, &["--trials", "0"], &["trials"]);
    let t = GOOD.replace("trials = 20000", "trials = 0");
    refused(&t, &[], &["bad.toml:5", "trials"]);
}

#[test]
fn bad_set_is_refused() {
    refused(
        GOOD,
        &["--set", "units.b.terrain=swamp"],
        &["--set units.b.terrain", "unknown terrain"],
    );
}

/// `--set` is read once, the same way, by every command that takes it: an
/// assignment without `=` is refused by each with the one message.
#[test]
fn a_set_without_equals_is_refused_alike_by_every_command() {
    let says = ["`--set units.b.terrain` has no `=`", "KEY=VALUE"];
    refused(GOOD, &["--set", "units.b.terrain"], &says);
    let tmp = tempfile::tempdir().unwrap();
    let p = scenario(tmp.path(), "ok.toml", GOOD);
    let p = p.to_str().unwrap();
    for cmd in ["explain", "decide", "sensitivity"] {
        pikeshot_refused(&[cmd, p, "--set", "units.b.terrain"], &says);
    }
}

#[test]
fn unwritable_output_folder_is_refused_and_nothing_written() {
    let tmp = tempfile::tempdir().unwrap();
    let p = scenario(tmp.path(), "ok.toml", GOOD);
    let blocker = tmp.path().join("file");
    std::fs::write(&blocker, "x").unwrap();
    let out = blocker.join("out");
    let o = pikeshot(&["run", p.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("file"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&blocker).unwrap(), "x");
}

#[test]
fn set_overrides_a_key_from_the_command_line() {
    let tmp = tempfile::tempdir().unwrap();
    let p = scenario(tmp.path(), "s.toml", GOOD);
    let run = |extra: &[&str]| {
        let out = tmp.path().join(format!("o{}", extra.len()));
        let mut args = vec!["--exact", "-q"];
        args.extend_from_slice(extra);
        run_to(&p, &args, &out);
        std::fs::read_to_string(out.join("outcomes.csv")).unwrap()
    };
    let plain = run(&[]);
    let woods = run(&["--set", "units.b.terrain=woods"]);
    assert_ne!(plain, woods, "terrain changed nothing");
}

/// GOOD with two targets: the second fails on the series card only when
/// raised with `--set expect[1]...`.
fn with_targets() -> String {
    format!(
        "{GOOD}\n[[expect]]\ncourse = \"charge\"\nmeasure = \"p-enemy-broken-or-eliminated\"\nat_least = 0\n\n\
         [[expect]]\ncourse = \"volley\"\nmeasure = \"p-enemy-broken-or-eliminated\"\nat_least = 0\n"
    )
}

#[test]
fn expect_entries_are_numbered_as_set_numbers_them_and_failures_show_it() {
    let out = temp_out();
    let p = out.write("t.toml", &with_targets());
    let o = run_into(
        &p,
        &["-q", "--check", "--set", "expect[1].at_least=0.99"],
        &out,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    let failed = err.split("FAILED:").nth(1).expect("a FAILED table");
    assert!(failed.lines().next().unwrap_or("").is_empty());
    let head = failed.lines().nth(1).unwrap();
    assert!(head.contains("entry"), "{head}");
    let row = failed.lines().nth(2).unwrap();
    assert!(row.contains("expect[1]") && row.contains("volley"), "{row}");
    let (h, rows) = crate::support::read_csv(&out.join("expect.csv"));
    let entry = crate::support::col(&h, "entry");
    let verdict = crate::support::col(&h, "verdict");
    let got: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r[entry].as_str(), r[verdict].as_str()))
        .collect();
    assert_eq!(got, [("0", "pass"), ("1", "fail")]);
}

#[test]
fn report_takes_quiet() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("s");
    std::fs::create_dir(&dir).unwrap();
    scenario(&dir, "t.toml", GOOD);
    let out = tmp.path().join("o");
    let args = [
        "report",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    let o = pikeshot_ok(&args);
    assert!(stderr(&o).contains("wrote 1 scenario"), "{}", stderr(&o));
    let o = pikeshot_ok(&[&args[..], &["-q"]].concat());
    assert_eq!(stderr(&o), "");
    assert!(out.join("index.html").is_file());
}

#[test]
fn diff_takes_format_json_and_check() {
    let out = temp_out();
    let p = out.write("t.toml", &with_targets());
    let o = diff_cards(&p, &out, &["--format", "json", "--check"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON document");
    assert_eq!(v["from"], "sfo");
    assert_eq!(v["to"], "series");
    let rows = v["rows"].as_array().unwrap();
    // The same rows as diff.csv, one for one.
    let (_, csv_rows) = crate::support::read_csv(&out.join("diff.csv"));
    assert_eq!(rows.len(), csv_rows.len());
    let key = rows
        .iter()
        .find(|r| r["course"] == "charge" && r["name"] == "p-enemy-broken-or-eliminated")
        .unwrap();
    let (a, b) = (
        key["from"]["exact"].as_f64().unwrap(),
        key["to"]["exact"].as_f64().unwrap(),
    );
    assert!((key["exact_change"].as_f64().unwrap() - (b - a)).abs() < 1e-12);
    // Both targets checked under both cards.
    let variants = crate::support::json_strs(&v["targets"], "variant");
    assert_eq!(
        variants,
        [
            "edition=sfo",
            "edition=sfo",
            "edition=series",
            "edition=series"
        ]
    );
    // --check fails on a target raised out of reach, naming the card.
    let o = diff_cards(
        &p,
        &out,
        &["-q", "--check", "--set", "expect[1].at_least=0.99"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("FAILED") && err.contains("edition=sfo") && err.contains("expect[1]"),
        "{err}"
    );
    assert!(err.contains("edition=series"), "{err}");
}

#[test]
fn tables_name_every_system_and_the_card_printed() {
    let o = pikeshot(&["tables", "--help"]);
    let help = stdout(&o);
    for s in pikeshot::systems::Registry::shipped().systems() {
        assert!(help.contains(s.id()), "tables --help lacks {}", s.id());
    }
    let o = pikeshot(&["tables", "mpbs"]);
    let first = stdout(&o).lines().next().unwrap().to_string();
    assert!(
        first.contains("the series card") && first.contains("--edition sfo"),
        "{first}"
    );
    let o = pikeshot(&["tables", "mpbs", "--edition", "sfo"]);
    let first = stdout(&o).lines().next().unwrap().to_string();
    assert!(
        first.contains("the sfo card") && first.contains("--edition series"),
        "{first}"
    );
    // A system without editions prints its charts straight away.
    let o = pikeshot(&["tables", "hakkaa"]);
    assert!(!stdout(&o).lines().next().unwrap().contains("card ("));
}

/// The guide's `--check` example (docs/guide/targets.md) prints what the
/// tool prints with the shipped file (its stderr, the "wrote" line aside).
#[test]
fn guide_check_example_is_what_the_tool_prints() {
    let readme = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/guide/targets.md"),
    )
    .unwrap();
    let start = readme
        .find("$ pikeshot run scenarios/mpbs/charge-or-salvo.toml --check")
        .expect("the --check example");
    let block = &readme[start..];
    let block = &block[..block.find("```").unwrap()];
    let mut lines = block.lines();
    let command = lines.next().unwrap();
    let shown: Vec<&str> = lines.collect();
    let out = temp_out();
    let mut args: Vec<String> = command
        .split_whitespace()
        .skip(2)
        .map(|a| a.trim_matches('\'').to_string())
        .collect();
    args.extend(["--out".into(), out.to_str().unwrap().into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let err = pikeshot_exits(&args, 1, &[]);
    let printed: Vec<&str> = err.lines().filter(|l| !l.starts_with("wrote ")).collect();
    assert_eq!(printed, shown);
}

/// A reader that stops early (`pikeshot explain … --format json | head`)
/// ends the program quietly: exit 0, nothing on stderr. The document is
/// streamed, so the closed pipe surfaces inside the JSON writer.
#[test]
fn a_closed_stdout_ends_a_streamed_explanation_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    // Megabytes of JSON: far more than a pipe holds.
    let mut child = Command::new(env!("CARGO_BIN_EXE_pikeshot"))
        .args([
            "explain",
            "scenarios/hakkaa/fire-or-charge.toml",
            "--format",
            "json",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first, "{\n");
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
}
