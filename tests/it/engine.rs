//! The runner: Monte Carlo against exact on every shipped scenario course,
//! compiled against direct kernels, determinism across thread counts, and
//! adaptive precision.

mod alias;
mod chain;
mod pools;

use crate::support::cli::pikeshot_ok;
use std::path::{Path, PathBuf};

use pikeshot::engine::{self, KernelMode, RunOptions, Task};
use pikeshot::run::{RunRequest, prepare};
use pikeshot::stats;

/// Every shipped scenario file, of every system.
fn shipped() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .flat_map(|d| std::fs::read_dir(d.unwrap().path()).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    v.sort();
    assert!(!v.is_empty());
    v
}

/// Every outcome and every measure value of every course of every shipped
/// scenario, simulated with both kernels, lies within 4.5 standard errors of
/// exact.
#[test]
fn monte_carlo_agrees_with_exact_on_every_shipped_course() {
    let n = 200_000u64;
    for path in shipped() {
        for mode in [KernelMode::Auto, KernelMode::Direct] {
            let req = RunRequest {
                kernel: mode,
                ..RunRequest::default()
            };
            let p = prepare(&path, &req).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let tasks: Vec<Task> = p
                .courses
                .iter()
                .enumerate()
                .map(|(i, (_, _, k))| Task {
                    variant: 0,
                    course: i as u32,
                    kernel: k.as_ref(),
                })
                .collect();
            let opts = RunOptions {
                trials: n,
                seed: 99,
                exact: true,
                ..RunOptions::default()
            };
            let tallies = engine::run(&tasks, &opts).unwrap();
            for ((v, c, k), t) in p.courses.iter().zip(&tallies) {
                let exact = t.exact.as_ref().unwrap_or_else(|| panic!("{c}: no exact"));
                let total: f64 = exact.iter().sum();
                assert!((total - 1.0).abs() < 1e-9, "{c}: exact sums to {total}");
                let off = stats::disagreements(k.space(), &t.counts, n, exact, 4.5);
                assert!(
                    off.is_empty(),
                    "{} [{v}] {c} ({mode:?}): {off:?}",
                    path.display()
                );
            }
        }
    }
}

/// The same scenario and seed give byte-identical CSVs on one and two threads
/// (with a trial count that leaves a partial last chunk).
#[test]
fn outputs_do_not_depend_on_thread_count() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let b = tmp.path().join("b");
    for (dir, threads) in [(&a, "1"), (&b, "2")] {
        pikeshot_ok(&[
            "run",
            "scenarios/mpbs/cuirassiers-vs-pike.toml",
            "--trials",
            "300001",
            "--exact",
            "-q",
            "-j",
            threads,
            "--out",
            dir.to_str().unwrap(),
        ]);
    }
    for f in ["outcomes.csv", "measures.csv", "summary.csv"] {
        let x = std::fs::read(a.join(f)).unwrap();
        let y = std::fs::read(b.join(f)).unwrap();
        assert!(x == y, "{f} differs between 1 and 2 threads");
    }
}

/// Different seeds give different counts (the seed reaches the streams).
#[test]
fn seed_changes_the_sample() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/mpbs/charge-or-salvo.toml");
    let p = prepare(&path, &RunRequest::default()).unwrap();
    let task = [Task {
        variant: 0,
        course: 0,
        kernel: p.courses[0].2.as_ref(),
    }];
    let run = |seed| {
        let o = RunOptions {
            trials: 100_000,
            seed,
            ..RunOptions::default()
        };
        engine::run(&task, &o).unwrap().remove(0).counts
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5), run(6));
}

/// Precision mode stops when every probability's half-width is at most E.
#[test]
fn precision_mode_meets_its_target() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/mpbs/charge-or-salvo.toml");
    let p = prepare(&path, &RunRequest::default()).unwrap();
    let k = p.courses[1].2.as_ref();
    let task = [Task {
        variant: 0,
        course: 1,
        kernel: k,
    }];
    let e = 0.002;
    let o = RunOptions {
        trials: 1,
        seed: 3,
        precision: Some(e),
        max_trials: 10_000_000,
        ..RunOptions::default()
    };
    let t = engine::run(&task, &o).unwrap().remove(0);
    assert_eq!(t.trials % engine::CHUNK, 0);
    assert!(stats::worst_half_width(k.space(), &t.counts, t.trials) <= e);
    // Not wastefully: the previous round (half the trials) did not meet it.
    let half = engine::run(
        &task,
        &RunOptions {
            trials: t.trials / 2,
            precision: None,
            ..o.clone()
        },
    )
    .unwrap()
    .remove(0);
    assert!(
        t.trials == engine::CHUNK
            || stats::worst_half_width(k.space(), &half.counts, half.trials) > e
    );
}
