//! Bad and big input (issue 13): counts that come from input are checked,
//! limits are the same wherever a value comes from, files are read with a
//! cap, sweeps hold one variant at a time, and every refusal says where, in
//! words.

use std::num::NonZeroUsize;
use std::time::Instant;

use pikeshot::Error;
use pikeshot::engine::{self, CHUNK, RunOptions, Task};
use pikeshot::error::InputError;
use pikeshot::run::{self, RunPlan, prepare_file};
use pikeshot::scenario::Overrides;
use pikeshot::scenario::limits::{MAX_FILE_BYTES, MAX_SEED, MAX_THREADS, MAX_TRIALS, MAX_VARIANTS};
use pikeshot::scenario::{ScenarioFile, Source};

use crate::support::cli::{code, pikeshot, run_into, run_refused_saying, stderr};
use crate::support::located::line_containing;
use crate::support::scenario::refused_under;

/// A small Musket & Pike scenario: one unit firing at another.
const FIRE: &str = r#"name = "fire"
system = "mpbs"
edition = "series"
seed = 7
trials = 1000

[units.musketeers]
kind = "artillery"
morale = 6
strength = 2
gun = "3lb"

[units.tercio]
kind = "heavy-infantry"
morale = 6
strength = 10

[[course]]
name = "volley"
steps = [{ procedure = "artillery", firer = "musketeers", target = "tercio", range = 2 }]
"#;

/// A working scenario of two variants (built from the shipped falcon).
const FALCON: &str = include_str!("../../scenarios/mpbs/artillery-falcon.toml");

fn refused_with(text: &str, req: &RunPlan) -> InputError {
    refused_under("t.toml", text, req)
}

/// Asserts [`FIRE`] run as `req` is refused with a message naming `limit`.
#[track_caller]
fn refused_naming(req: &RunPlan, limit: impl ToString) {
    let e = refused_with(FIRE, req);
    assert!(e.to_string().contains(&limit.to_string()), "{e}");
}

fn refused(text: &str) -> InputError {
    refused_with(text, &RunPlan::default())
}

/// The error refusing `text` for going over `limit`, which it names.
fn refused_over(text: &str, limit: usize) -> InputError {
    let e = refused(text);
    assert!(e.to_string().contains(&format!("limit of {limit}")), "{e}");
    e
}

fn with_sets(sets: &[&str]) -> RunPlan {
    RunPlan {
        overrides: Overrides::parse(sets).unwrap(),
        ..RunPlan::default()
    }
}

#[test]
fn a_sweep_of_64_two_value_axes_is_refused_at_its_line_not_wrapped_to_zero() {
    // 2^64 wraps a usize product to 0: nothing was validated, exit 0.
    let mut text = FALCON.replace("system = \"mpbs\"", "system = 42");
    for i in 0..64 {
        text.push_str(&format!("\"units.target.x{i}\" = [1, 2]\n"));
    }
    let e = refused(&text);
    assert!(
        e.to_string()
            .contains(&format!("more than {MAX_VARIANTS} variants")),
        "{e}"
    );
    assert_eq!(e.file.as_deref(), Some("t.toml"));
    // The axis that crosses the limit: the falcon's own axis of two guns
    // times 2^13 is 16,384 > 10,000.
    assert_eq!(
        e.line,
        Some(line_containing(&text, "\"units.target.x12\"")),
        "{e}"
    );
}

#[test]
fn sweeping_trials_seed_or_name_is_refused_with_a_message() {
    for key in ["trials", "seed", "name"] {
        let text = format!("{FALCON}\"{key}\" = [1, 2]\n");
        let e = refused(&text);
        assert_eq!(
            e.key.as_deref(),
            Some(format!("sweep.{key}").as_str()),
            "{e}"
        );
        assert!(e.to_string().contains("cannot be swept"), "{e}");
        assert_eq!(
            e.line,
            Some(line_containing(&text, &format!("\"{key}\" = [1, 2]")))
        );
    }
}

#[test]
fn trials_and_seed_have_one_limit_wherever_they_come_from() {
    let over = (MAX_TRIALS + 1).to_string();
    // On the command line.
    refused_naming(
        &RunPlan {
            trials: Some(MAX_TRIALS + 1),
            ..RunPlan::default()
        },
        MAX_TRIALS,
    );
    // In the file.
    let e = refused(&FIRE.replace("trials = 1000", &format!("trials = {over}")));
    assert!(e.to_string().contains(&MAX_TRIALS.to_string()), "{e}");
    assert_eq!(e.line, Some(5));
    // Through --set.
    refused_naming(&with_sets(&[&format!("trials={over}")]), MAX_TRIALS);
    // The limit itself is accepted everywhere (nothing is run here).
    let at = |req: &RunPlan| {
        prepare_file(ScenarioFile::from_str("t.toml", FIRE).unwrap(), req)
            .unwrap_or_else(|e| panic!("{e}"))
    };
    assert_eq!(
        at(&with_sets(&[&format!("trials={MAX_TRIALS}")])).trials,
        MAX_TRIALS
    );
    // Seeds: the largest TOML integer, on the command line too.
    refused_naming(
        &RunPlan {
            seed: Some(MAX_SEED + 1),
            ..RunPlan::default()
        },
        MAX_SEED,
    );
    let p = at(&RunPlan {
        seed: Some(MAX_SEED),
        ..RunPlan::default()
    });
    assert_eq!(p.id.seed, MAX_SEED);
}

#[test]
fn zero_max_trials_zero_exact_budget_and_too_many_threads_are_refused() {
    for (req, key) in [
        (
            RunPlan {
                max_trials: Some(0),
                ..RunPlan::default()
            },
            "--max-trials",
        ),
        (
            RunPlan {
                exact_budget: Some(0),
                ..RunPlan::default()
            },
            "--exact-budget",
        ),
        (
            RunPlan {
                threads: NonZeroUsize::new(MAX_THREADS + 1),
                ..RunPlan::default()
            },
            "--threads",
        ),
    ] {
        let e = refused_with(FIRE, &req);
        assert_eq!(e.key.as_deref(), Some(key), "{e}");
        assert!(e.accepted.is_some(), "{e}");
    }
    // On the command line, `--threads 0` is refused (leaving the flag out
    // means one per core), and so is more than the cap.
    for args in [
        ["--threads", "0"],
        ["--threads", "10000"],
        ["--max-trials", "0"],
        ["--exact-budget", "0"],
    ] {
        let mut a = vec![
            "run",
            "scenarios/mpbs/artillery-falcon.toml",
            "-o",
            "/nonexistent/x",
        ];
        a.extend(args);
        if args[0] == "--max-trials" {
            a.extend(["--precision", "0.01"]);
        }
        let o = pikeshot(&a);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(args[0]), "{args:?}: {}", stderr(&o));
    }
}

/// The falcon scenario, prepared to run as it stands.
fn falcon() -> run::Prepared {
    prepare_file(
        ScenarioFile::from_str("t.toml", FALCON).unwrap(),
        &RunPlan::default(),
    )
    .unwrap()
}

/// A course of the falcon scenario as a task.
fn falcon_task(p: &run::Prepared) -> Task<'_> {
    Task {
        variant: 0,
        course: 0,
        kernel: p.courses[0].kernel.as_ref(),
    }
}

#[test]
fn max_trials_is_honoured_exactly_and_the_partial_chunk_is_deterministic() {
    let p = falcon();
    for cap in [1000, CHUNK + 123, 3 * CHUNK - 1] {
        let run = |threads| {
            let opts = RunOptions {
                trials: 1,
                seed: 3,
                precision: Some(1e-9),
                max_trials: cap,
                ..RunOptions::default()
            };
            engine::Threads::new(NonZeroUsize::new(threads))
                .unwrap()
                .run(&[falcon_task(&p)], &opts)
                .unwrap()
                .remove(0)
        };
        let one = run(1);
        assert_eq!(one.trials, cap);
        assert_eq!(one.counts.iter().sum::<u64>(), cap);
        assert_eq!(
            run(2).counts,
            one.counts,
            "cap {cap}: thread count changed the counts"
        );
    }
}

#[test]
fn a_sweep_variant_rebuilt_after_release_gives_the_same_numbers() {
    let p = falcon();
    // Two variants of seven courses; the second variant's kernels are built
    // on demand, and released by the runner after its tasks.
    assert_eq!(p.courses.len(), 14);
    let k = p.courses[10].kernel.as_ref();
    let exact = k.exact(10_000_000).unwrap();
    let task = Task {
        variant: 1,
        course: 3,
        kernel: k,
    };
    let opts = RunOptions {
        trials: 5000,
        method: engine::Method::Both,
        ..RunOptions::default()
    };
    let threads = engine::Threads::new(NonZeroUsize::new(2)).unwrap();
    let first = threads
        .run(std::slice::from_ref(&task), &opts)
        .unwrap()
        .remove(0);
    k.release();
    let again = threads
        .run(std::slice::from_ref(&task), &opts)
        .unwrap()
        .remove(0);
    assert_eq!(first.counts, again.counts);
    assert_eq!(first.exact.as_deref(), Some(&exact[..]));
    assert_eq!(again.exact.as_deref(), Some(&exact[..]));
}

#[test]
fn a_sweep_runs_byte_identically_on_one_and_two_threads() {
    let dir = tempfile::tempdir().unwrap();
    let out = |j: &str| {
        let o = dir.path().join(j);
        let r = run_into(
            "scenarios/mpbs/artillery-falcon.toml",
            &["-n", "70000", "-j", j, "-q"],
            &o,
        );
        assert_eq!(code(&r), 0, "{}", stderr(&r));
        std::fs::read(o.join("outcomes.csv")).unwrap()
    };
    assert_eq!(out("1"), out("2"));
}

#[test]
fn files_that_are_not_regular_or_too_big_are_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.toml");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(MAX_FILE_BYTES + 1).unwrap();
    let missing = dir.path().join("missing.toml");
    let mut cases = vec![
        (big.clone(), "over the limit"),
        (dir.path().to_path_buf(), "is a folder"),
        (missing, "no such file"),
    ];
    if std::path::Path::new("/dev/zero").exists() {
        cases.push(("/dev/zero".into(), "not a regular file"));
    }
    let fifo = dir.path().join("fifo.toml");
    if std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        cases.push((fifo, "not a regular file"));
    }
    for (path, says) in cases {
        let start = Instant::now();
        let e = match ScenarioFile::load(&path) {
            Err(Error::Input(e)) => e,
            Err(e) => panic!("not an input error: {e}"),
            Ok(_) => panic!("{} accepted", path.display()),
        };
        assert!(start.elapsed().as_secs() < 5, "{}", path.display());
        let s = e.to_string();
        assert_eq!(
            e.file.as_deref(),
            Some(path.display().to_string().as_str()),
            "{s}"
        );
        assert!(s.contains(says), "`{says}` not in: {s}");
        assert!(!s.contains("os error"), "{s}");
        assert!(e.accepted.is_some(), "{s}");
    }
}

#[test]
fn invalid_utf8_is_refused_with_its_byte_offset_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.toml");
    std::fs::write(&path, b"name = \"ok\"\nsystem = \"mp\xffbs\"\n").unwrap();
    let Err(Error::Input(e)) = ScenarioFile::load(&path) else {
        panic!("accepted")
    };
    assert_eq!(e.line, Some(2), "{e}");
    assert!(e.to_string().contains("offset 24"), "{e}");
}

#[test]
fn line_lookup_is_fast_for_forty_thousand_keys() {
    let mut text = String::from("[units.a]\n");
    for i in 0..40_000 {
        text.push_str(&format!("k{i} = {i}\n"));
    }
    let start = Instant::now();
    let (src, _) = Source::parse("t.toml", &text).unwrap();
    let took = start.elapsed();
    assert_eq!(src.line("units.a.k0"), Some(2));
    assert_eq!(src.line("units.a.k39999"), Some(40_001));
    // It took 55 s when every key rescanned the file.
    assert!(took.as_secs() < 5, "{took:?}");
}

#[test]
fn a_misspelt_sweep_key_is_found_at_its_line_in_the_sweep() {
    let text = format!("{FALCON}editon = [\"sfo\", \"series\"]\n");
    let e = refused(&text);
    assert_eq!(e.line, Some(line_containing(&text, "editon = [")), "{e}");
    assert_eq!(e.suggestion.as_deref(), Some("edition"), "{e}");
    assert!(!e.to_string().contains("in ``"), "{e}");
    assert_eq!(e.file.as_deref(), Some("t.toml"), "{e}");
    assert_eq!(e.key.as_deref(), Some("editon"), "{e}");
    assert!(e.accepted.is_some(), "{e}");
}

#[test]
fn a_misspelt_table_is_found_at_its_line_with_did_you_mean() {
    let text = FIRE.replace("[units.tercio]", "[unit.tercio]");
    let e = refused(&text);
    assert_eq!(e.line, Some(line_containing(&text, "[unit.tercio]")), "{e}");
    assert_eq!(e.suggestion.as_deref(), Some("units"), "{e}");
    assert_eq!(e.file.as_deref(), Some("t.toml"), "{e}");
    assert_eq!(e.key.as_deref(), Some("unit"), "{e}");
    assert!(
        e.accepted.as_deref().is_some_and(|a| a.contains("units")),
        "{e}"
    );
}

#[test]
fn a_unit_made_by_set_is_blamed_on_the_set_and_a_missing_one_is_named() {
    // Created by --set with a bad kind: the error names the --set, no line.
    let e = refused_with(FIRE, &with_sets(&["units.x.kind=pike"]));
    assert_eq!(e.line, None, "{e}");
    assert!(e.to_string().contains("--set units.x.kind"), "{e}");
    // Created by --set without its kind: still the --set, not a file line.
    let e = refused_with(
        FIRE,
        &with_sets(&["units.x.kind=dragoons", "units.x.morale=99"]),
    );
    assert_eq!(e.line, None, "{e}");
    assert!(e.to_string().contains("--set units.x"), "{e}");
    // A typo in a unit's name.
    let e = refused_with(FIRE, &with_sets(&["units.tercoi.morale=5"]));
    assert!(e.to_string().contains("no unit named `tercoi`"), "{e}");
    assert_eq!(e.suggestion.as_deref(), Some("tercio"), "{e}");
}

#[test]
fn a_decimal_where_a_whole_number_is_wanted_is_said_in_words() {
    let e = refused_with(FIRE, &with_sets(&["trials=1e3"]));
    let s = e.to_string();
    assert!(
        s.contains("decimal number 1000.0") && s.contains("e.g. 1000"),
        "{s}"
    );
    assert_eq!(e.key.as_deref(), Some("trials"), "{e}");
    assert!(
        e.file
            .as_deref()
            .is_some_and(|f| f.contains("--set trials")),
        "{e}"
    );
    assert_eq!(e.line, None, "{e}");
}

#[test]
fn control_characters_are_escaped_in_messages() {
    let text = FIRE.replace("system = \"mpbs\"", "system = \"mp\\u001b[31mbs\"");
    let e = refused(&text);
    let s = e.to_string();
    assert!(!s.contains('\u{1b}'), "{s:?}");
    assert!(s.contains("\\u{1b}"), "{s:?}");
}

#[test]
fn an_out_that_names_a_file_is_refused_in_words_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("afile");
    std::fs::write(&file, "x").unwrap();
    let s = run_refused_saying(
        "scenarios/mpbs/artillery-falcon.toml",
        &["-n", "10"],
        &file,
        &["is a file, not a folder", "--out"],
    );
    assert!(!s.contains("os error"), "{s}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
    // A folder or a missing file as the scenario: words, not "os error 21".
    for bad in [dir.path().to_str().unwrap(), "no/such/file.toml"] {
        let o = pikeshot(&["run", bad]);
        assert_eq!(code(&o), 2);
        assert!(
            stderr(&o).contains(bad) && !stderr(&o).contains("os error"),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn units_courses_and_steps_over_their_limits_are_refused_at_the_first_one_over() {
    use pikeshot::scenario::limits::{MAX_COURSES, MAX_STEPS, MAX_UNITS};
    // 257 units once put a morale check on the wrong unit (u8 indices).
    let mut text = FIRE.to_string();
    for i in 0..MAX_UNITS {
        text.push_str(&format!(
            "\n[units.extra{i}]\nkind = \"heavy-infantry\"\nmorale = 6\nstrength = 4\n"
        ));
    }
    let e = refused_over(&text, MAX_UNITS);
    let over = format!("[units.extra{}]", MAX_UNITS - 2);
    assert_eq!(e.line, Some(line_containing(&text, &over)), "{e}");

    let step =
        "{ procedure = \"artillery\", firer = \"musketeers\", target = \"tercio\", range = 2 }";
    let steps = vec![step; MAX_STEPS + 1].join(", ");
    let text = FIRE.replace(&format!("steps = [{step}]"), &format!("steps = [{steps}]"));
    let e = refused_over(&text, MAX_STEPS);
    assert_eq!(e.line, Some(line_containing(&text, "steps = [")), "{e}");

    let mut text = FIRE.to_string();
    for i in 0..MAX_COURSES {
        text.push_str(&format!(
            "\n[[course]]\nname = \"c{i}\"\nsteps = [{step}]\n"
        ));
    }
    refused_over(&text, MAX_COURSES);
}

/// Issue 13 item 3: turn counts inside their documented ranges used to
/// panic (exit 101, "outcome space too large") when a course's results
/// would not fit. A course numbers only the results it reaches now (issue
/// 32 item 4), so "keep firing" over 30 turns runs; a course whose states
/// would hold too many links is a located input error naming the limit,
/// and nothing is written.
#[test]
fn a_course_too_big_to_report_is_a_located_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let file = "scenarios/mpbs/charge-or-salvo.toml";
    let set = "course[2].repeat.turns=30";
    let o = pikeshot(&[
        "run",
        file,
        "--set",
        set,
        "--exact",
        "--trials",
        "1000",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 0, "{file} --set {set}: {}", stderr(&o));
    assert!(out.exists(), "the long course is written");

    let (file, set) = (
        "scenarios/hakkaa/fire-or-charge.toml",
        "course[1].repeat.turns=20",
    );
    let out = dir.path().join("refused");
    let o = pikeshot(&[
        "run",
        file,
        "--set",
        set,
        "--exact",
        "--trials",
        "1000",
        "--out",
        out.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert_eq!(code(&o), 2, "{file} --set {set}: {err}");
    assert!(err.contains(file), "names the file: {err}");
    assert!(err.contains("course["), "names the course key: {err}");
    assert!(
        err.contains("more than 20000000 links"),
        "states the limit: {err}"
    );
    assert!(!out.exists(), "nothing written for {file}");
}

/// A course whose every combination of results would be more than a dense
/// space holds (Sword & Spear, 40 melee steps fought once each: 4 outcomes
/// x 3 x 4 x 3 x 5 = 720, times rounds fought (0 to 40) and the step it
/// ended at (40): 1,180,800 > 1,048,576) builds, numbering only the results
/// it reaches, and its exact answer sums to 1.
#[test]
fn a_course_too_big_to_number_densely_numbers_what_it_reaches() {
    let step = "  { procedure = \"melee\", attacker = \"knights\", defender = \"spears\" },\n";
    let text = format!(
        r#"name = "forty"
system = "sword-and-spear"
[units.knights]
troop = "cavalry"
discipline = 3
strength = 3
armour = "heavily-armoured"
[units.spears]
troop = "heavy-foot"
discipline = 4
strength = 4
armour = "armoured"
melee_weapon = "spears"
[[course]]
name = "forty"
steps = [
{}]
"#,
        step.repeat(40)
    );
    let (probs, k) = crate::support::scenario::exact_course(&text, "forty");
    let space = k.space();
    assert!(space.is_sparse());
    let combinations =
        pikeshot::outcome::OutcomeSpace::leaf_count(space.outcomes().len(), space.measures());
    assert_eq!(combinations, 720 * 41 * 40);
    assert!(probs.len() < 1 << 20, "{}", probs.len());
    let total: f64 = probs.iter().sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
}

/// Issue 13 item 10: several unknown keys in one table are reported in file
/// order (the first by line is the error, the others listed with their
/// lines), not in the table's alphabetical order.
#[test]
fn unknown_keys_are_reported_in_file_order_all_at_once() {
    let text = FIRE
        .replace(
            "[units.tercio]\n",
            "[units.tercio]\nzulu = 1\nmike = \"x\"\n",
        )
        .replace("strength = 10\n", "strength = 10\nalpha = 2\n");
    let e = refused(&text);
    assert_eq!(e.key.as_deref(), Some("units.tercio.zulu"), "{e}");
    assert_eq!(e.line, Some(line_containing(&text, "zulu = 1")), "{e}");
    let s = e.to_string();
    let mike = line_containing(&text, "mike = ");
    let alpha = line_containing(&text, "alpha = 2");
    assert!(mike < alpha, "the test's own layout");
    assert!(
        s.contains(&format!(
            "also unknown: `mike` (line {mike}), `alpha` (line {alpha})"
        )),
        "{s}"
    );
}

/// Issue 13 item 9: a `--set` of a unit the file does not have names the
/// file as well as the `--set`.
#[test]
fn a_set_of_a_missing_unit_names_the_file_and_the_set() {
    let e = refused_with(FIRE, &with_sets(&["units.nobody.morale=5"]));
    assert_eq!(
        e.file.as_deref(),
        Some("t.toml (--set units.nobody.morale=5)"),
        "{e}"
    );
    assert_eq!(e.key.as_deref(), Some("units.nobody.morale"), "{e}");
}
