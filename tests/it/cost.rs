//! Cost before work and precision that starts small (issue 14, items 4 and
//! 5): the estimate a long run prints first, the progress wording, and
//! `--precision` from one chunk with a warning when `--max-trials` stops it.

use std::io::Read;
use std::num::NonZeroUsize;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pikeshot::engine::CHUNK;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use pikeshot::engine::progress::{Meter, ShowProgress, duration, line, rate, si, trials};
use pikeshot::engine::{self, RunOptions, Task};
use pikeshot::run::estimate::{Estimate, ExactFit, Total, estimate};
use pikeshot::run::{Method, RunPlan, execute, prepare};

use crate::support::cli::{run_fresh, run_to, stderr};
use crate::support::{assert_ends_with, assert_texts};

const SCENARIO: &str = "scenarios/mpbs/charge-or-salvo.toml";

fn scenario() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(SCENARIO)
}

#[test]
fn counts_rates_and_durations_are_said_in_words() {
    assert_texts(
        si,
        &[
            (950.0, "950"),
            (12_345.0, "12 k"),
            (4_900_000.0, "4.9 M"),
            (610_000_000.0, "610 M"),
            (1_113_741_901.991_2, "1.1 G"),
            (999_999.0, "1.0 M"),
        ],
    );
    assert_eq!(rate(1_113_741_901.991_2), "1.1 G/s");
    assert_texts(
        duration,
        &[
            (0.42, "0.4 s"),
            (12.3, "12 s"),
            (185.0, "3 min 5 s"),
            (7920.0, "2 h 12 min"),
        ],
    );
    // 12 M done in 10 s: 1.2 M/s, 88 M left take 73.3 s.
    assert_eq!(
        line(12_000_000, 100_000_000, Duration::from_secs(10)),
        "12 M of 100 M trials (12%), 1.2 M/s, about 1 min 13 s left"
    );
}

#[test]
fn the_bar_says_the_trials_their_rate_and_the_time_left() {
    // 12 M done in 10 s: 1.2 M/s, 88 M left take 73.3 s.
    assert_eq!(
        trials(12_000_000, 100_000_000, Duration::from_secs(10)),
        "12 M/100 M trials (1.2 M/s, 1 min 13 s left)"
    );
    // Nothing done yet: no rate, no time left.
    assert_eq!(trials(0, 100, Duration::ZERO), "0/100 trials (0/s, - left)");
}

/// A meter that counts what the engine tells it.
struct Counting {
    done: Arc<AtomicU64>,
    finished: Arc<AtomicU64>,
}

impl Meter for Counting {
    fn inc(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }
    fn finish(&self) {
        self.finished.fetch_add(1, Ordering::Relaxed);
    }
}

#[test]
fn a_run_counts_every_trial_into_the_meter_its_caller_starts() {
    let req = RunPlan::default();
    let p = prepare(Path::new(SCENARIO), &req).unwrap();
    let tasks: Vec<Task> = p
        .courses
        .iter()
        .enumerate()
        .map(|(i, c)| Task {
            variant: 0,
            course: i as u64,
            kernel: c.kernel.as_ref(),
        })
        .collect();
    let done = Arc::new(AtomicU64::new(0));
    let finished = Arc::new(AtomicU64::new(0));
    let planned = Arc::new(AtomicU64::new(0));
    let (d, f, pl) = (done.clone(), finished.clone(), planned.clone());
    let show = ShowProgress::new(move |total| {
        pl.store(total, Ordering::Relaxed);
        Some(Box::new(Counting {
            done: d.clone(),
            finished: f.clone(),
        }) as Box<dyn Meter>)
    });
    // Two and a half chunks per course: the last chunk's trials count too.
    let n = CHUNK * 5 / 2;
    let opts = RunOptions {
        trials: n,
        seed: 7,
        progress: Some(show),
        ..RunOptions::default()
    };
    let tallies = engine::Threads::new(NonZeroUsize::new(2))
        .unwrap()
        .run(&tasks, &opts)
        .unwrap();
    let want = n * tasks.len() as u64;
    assert_eq!(tallies.iter().map(|t| t.trials).sum::<u64>(), want);
    assert_eq!(planned.load(Ordering::Relaxed), want);
    assert_eq!(done.load(Ordering::Relaxed), want);
    assert_eq!(finished.load(Ordering::Relaxed), 1);
}

#[test]
fn the_estimate_counts_variants_courses_and_trials() {
    let req = RunPlan {
        trials: Some(1_000_000),
        threads: NonZeroUsize::new(2),
        ..RunPlan::default()
    };
    let p = prepare(&scenario(), &req).unwrap();
    let e = estimate(&p, &req, &req.threads().unwrap());
    assert_eq!((e.variants, e.courses, e.trials), (2, 3, 1_000_000));
    assert!(!e.up_to);
    assert!(e.seconds > 0.0 && e.seconds.is_finite(), "{e:?}");
    let l = e.line();
    assert!(
        l.starts_with("estimate: 2 variants × 3 courses × 1,000,000 trials (6.0 M in all), about "),
        "{l}"
    );
    assert!(l.contains(" on 2 threads"), "{l}");
    // With --precision, the cap.
    let req = RunPlan {
        precision: Some(0.001),
        max_trials: Some(50_000_000),
        ..RunPlan::default()
    };
    let e = estimate(&p, &req, &req.threads().unwrap());
    assert!(e.up_to && e.trials == 50_000_000);
    assert!(e.line().contains("up to 50,000,000 trials"), "{}", e.line());
    // Exact only: no trial, nothing to wait for.
    let req = RunPlan {
        method: Method::Exact,
        ..RunPlan::default()
    };
    let e = estimate(&p, &req, &req.threads().unwrap());
    assert_eq!(e.seconds, 0.0);
    assert!(!e.worth_saying());
}

#[test]
fn a_long_estimate_says_whether_exact_fits() {
    let mut e = Estimate {
        variants: 1,
        courses: 1,
        trials: 10_000_000_000,
        up_to: false,
        threads: 1,
        seconds: 12.0,
        exact: ExactFit::Fits,
    };
    assert!(e.worth_saying());
    assert_ends_with(
        &e.line(),
        "about 12 s on 1 thread; exact fits every course: --method exact answers without trials",
    );
    e.exact = ExactFit::Not("keep firing".into());
    assert_ends_with(
        &e.line(),
        "; exact does not fit course \"keep firing\" within --exact-budget",
    );
    e.seconds = 2.0;
    assert!(!e.worth_saying());
}

#[test]
fn a_short_run_prints_no_estimate() {
    let (_out, o) = run_fresh(SCENARIO, &["--trials", "2000"]);
    assert!(!stderr(&o).contains("estimate"), "{}", stderr(&o));
}

/// Starts `pikeshot ARGS` (a run, report or diff of 10^10 trials a course:
/// minutes of work) with `-q` when `quiet`, waits up to `wait` or until its
/// stderr has an estimate, and stops it. Returns what it printed and how
/// long the estimate took to appear.
fn long_run(args: &[&str], quiet: bool, wait: Duration) -> (String, Option<Duration>) {
    let mut args = args.to_vec();
    if quiet {
        args.push("-q");
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_pikeshot"))
        .args(&args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = err.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let start = Instant::now();
    let mut text = String::new();
    let mut seen = None;
    while start.elapsed() < wait {
        if let Ok(b) = rx.recv_timeout(Duration::from_millis(100)) {
            text.push_str(&String::from_utf8_lossy(&b));
        }
        if text.contains("estimate:") {
            seen = Some(start.elapsed());
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    (text, seen)
}

/// Runs `args` without and with `-q`: the first prints a line starting
/// `first` (and saying that exact fits), the second nothing at all in
/// twice the time the first took.
fn says_its_cost_first_unless_quiet(args: &[&str], first: &str) {
    let (text, seen) = long_run(args, false, Duration::from_secs(120));
    let took = seen.unwrap_or_else(|| panic!("no estimate within 120 s: {text}"));
    assert!(text.contains(first), "{text}");
    assert!(text.contains("exact fits every course"), "{text}");
    let (text, seen) = long_run(args, true, took * 2 + Duration::from_secs(1));
    assert!(seen.is_none() && text.is_empty(), "{text}");
}

const LONG: [&str; 4] = ["--trials", "10000000000", "--threads", "1"];

#[test]
fn a_long_run_says_its_cost_first_unless_quiet() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_str().unwrap();
    let mut args = vec!["run", SCENARIO, "--set", "edition=sfo", "--out", out];
    args.extend(LONG);
    says_its_cost_first_unless_quiet(
        &args,
        "estimate: 1 variant × 3 courses × 10,000,000,000 trials (30 G in all)",
    );
}

#[test]
fn a_long_report_says_its_cost_first_unless_quiet() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("scenarios");
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy(scenario(), dir.join("charge-or-salvo.toml")).unwrap();
    let out = tmp.path().join("out");
    let (dir, out) = (dir.to_str().unwrap(), out.to_str().unwrap());
    let mut args = vec!["report", dir, "--set", "edition=sfo", "--out", out];
    args.extend(LONG);
    says_its_cost_first_unless_quiet(
        &args,
        "estimate: 1 scenario, 3 courses over their variants, 30 G trials in all, about ",
    );
}

#[test]
fn a_long_diff_says_its_cost_first_unless_quiet() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_str().unwrap();
    let mut args = vec!["diff", SCENARIO, "--out", out];
    args.extend(LONG);
    // Each edition's run: the sweep over `edition` pinned to it.
    says_its_cost_first_unless_quiet(
        &args,
        "estimate: 2 editions, 6 courses over their variants, 60 G trials in all, about ",
    );
}

#[test]
fn the_total_of_several_runs_names_where_exact_does_not_fit() {
    let mut t = Total {
        runs: 26,
        noun: "scenario",
        courses: 130,
        trials: 2.6e9,
        up_to: false,
        threads: 2,
        seconds: 12.0,
        exact: ExactFit::Fits,
        exact_in: String::new(),
    };
    assert!(t.worth_saying());
    assert_eq!(
        t.line(),
        "estimate: 26 scenarios, 130 courses over their variants, 2.6 G trials in all, \
         about 12 s on 2 threads; exact fits every course: --method exact answers without trials"
    );
    t.exact = ExactFit::Not("keep firing".into());
    t.exact_in = "mpbs/charge-or-salvo.toml".into();
    assert_ends_with(
        &t.line(),
        "; exact does not fit course \"keep firing\" of scenario \"mpbs/charge-or-salvo.toml\" within --exact-budget",
    );
    t.seconds = 2.0;
    assert!(!t.worth_saying());
}

#[test]
fn precision_starts_from_one_chunk_and_is_the_same_on_any_thread_count() {
    // The file asks for 1,000,000 trials; a half-width of 0.01 needs about
    // 9,600 (1.96² · 0.25 / 0.01²), so one chunk meets it.
    let run = |threads| {
        let req = RunPlan {
            precision: Some(0.01),
            threads: NonZeroUsize::new(threads),
            ..RunPlan::default()
        };
        let p = prepare(&scenario(), &req).unwrap();
        execute(&p, &req).unwrap()
    };
    let one = run(1);
    for c in &one.courses {
        assert_eq!(c.tally.trials, CHUNK, "{}", c.course);
    }
    let two = run(2);
    for (a, b) in one.courses.iter().zip(&two.courses) {
        assert_eq!(a.tally.counts, b.tally.counts, "{}", a.course);
    }
    // A tighter target doubles from there: 0.002 needs about 240,000.
    let req = RunPlan {
        precision: Some(0.002),
        ..RunPlan::default()
    };
    let p = prepare(&scenario(), &req).unwrap();
    for c in &execute(&p, &req).unwrap().courses {
        let chunks = c.tally.trials / CHUNK;
        assert!(
            c.tally.trials % CHUNK == 0 && chunks.is_power_of_two() && (4..=8).contains(&chunks),
            "{}: {} trials",
            c.course,
            c.tally.trials
        );
    }
}

#[test]
fn max_trials_stopping_precision_short_is_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let o = run_to(
        SCENARIO,
        &[
            "--precision",
            "0.0005",
            "--max-trials",
            "70000",
            "--set",
            "edition=sfo",
            "-q",
        ],
        tmp.path(),
    );
    let e = stderr(&o);
    assert!(
        e.contains("warning: course \"charge now\" stopped at --max-trials 70000"),
        "{e}"
    );
    assert!(
        e.contains("above --precision 0.0005; raise --max-trials"),
        "{e}"
    );
    // Met: no warning.
    let o = run_to(SCENARIO, &["--precision", "0.01", "-q"], tmp.path());
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
    // With --trials: refused, saying so.
    let o = crate::support::cli::pikeshot(&[
        "run",
        SCENARIO,
        "--precision",
        "0.01",
        "--trials",
        "1000",
    ]);
    assert_eq!(crate::support::cli::code(&o), 2);
    assert!(stderr(&o).contains("--trials"), "{}", stderr(&o));
}

/// A deterministic stand-in for a course's cost per trial: one unit, and
/// one more per outcome category and per measure of its space (a trial
/// resolves into them).
fn cost_units(space: &pikeshot::outcome::OutcomeSpace) -> f64 {
    1.0 + space.outcomes().len() as f64 + space.measures().len() as f64
}

/// The estimate's model against the run, on a cost proxy instead of time:
/// for every shipped scenario, under `--method auto` and under
/// `--method monte-carlo`, the model's cost (the first variant's courses,
/// each trial costing [`cost_units`], as every variant) is within a factor
/// of 2 of the cost of the trials the run samples (each course's trials
/// times its units, over every variant), per scenario and in all.
#[test]
fn the_estimate_s_model_is_within_a_factor_of_2_of_the_run_on_a_cost_proxy() {
    use pikeshot::engine::Threads;
    use pikeshot::run::estimate::modelled_by;
    let mut failures = Vec::new();
    let mut sampled = 0u64;
    for method in [Method::Auto, Method::MonteCarlo] {
        let req = RunPlan {
            trials: Some(CHUNK / 16),
            threads: std::num::NonZeroUsize::new(1),
            method,
            ..RunPlan::default()
        };
        let one = Threads::new(req.threads).unwrap();
        let (mut modelled_all, mut run_all) = (0.0, 0.0);
        for f in crate::support::shipped_files("") {
            let p = prepare(&f, &req).unwrap();
            let modelled = modelled_by(&p, &req, &one, |k, trials| {
                trials as f64 * cost_units(k.space())
            })
            .seconds;
            let run = execute(&p, &req).unwrap();
            let actual: f64 = run
                .courses
                .iter()
                .map(|c| c.tally.trials as f64 * cost_units(&c.space))
                .sum();
            sampled += run.courses.iter().map(|c| c.tally.trials).sum::<u64>();
            modelled_all += modelled;
            run_all += actual;
            let off = |a: f64, b: f64| a > 2.0 * b || b > 2.0 * a;
            if off(modelled, actual) {
                failures.push(format!(
                    "{method:?} {}: model {modelled}, run {actual}",
                    f.display()
                ));
            }
        }
        assert!(
            run_all <= 2.0 * modelled_all && modelled_all <= 2.0 * run_all,
            "{method:?}: model {modelled_all}, run {run_all}"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(sampled > 0, "the runs sampled no trial");
}
