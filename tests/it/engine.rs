//! The runner: Monte Carlo against exact on every shipped scenario course,
//! compiled against direct kernels, determinism across thread counts,
//! adaptive precision, and runs watched and stopped from outside.

mod alias;
mod chain;
mod choose;
mod control;
mod decide;
mod fit;
mod pools;
mod sparse;

use crate::support::cli::run_to;
use crate::support::shipped_files;
use std::path::{Path, PathBuf};

use pikeshot::engine::{self, KernelMode, RunOptions, Task};
use pikeshot::run::{RunPlan, prepare};
use pikeshot::stats;

/// Every shipped scenario file, of every system.
fn shipped() -> Vec<PathBuf> {
    let v = shipped_files("");
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
            let req = RunPlan {
                kernel: mode,
                ..RunPlan::default()
            };
            let p = prepare(&path, &req).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
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
            let opts = RunOptions {
                trials: n,
                seed: 99,
                method: engine::Method::Both,
                ..RunOptions::default()
            };
            let tallies = engine::Threads::new(None)
                .unwrap()
                .run(&tasks, &opts)
                .unwrap();
            for (pc, t) in p.courses.iter().zip(&tallies) {
                let (v, c, k) = (&pc.variant, &pc.name, &pc.kernel);
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
        run_to(
            "scenarios/mpbs/cuirassiers-vs-pike.toml",
            &["--trials", "300001", "--exact", "-q", "-j", threads],
            dir,
        );
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
    let p = prepare(&path, &RunPlan::default()).unwrap();
    let task = [Task {
        variant: 0,
        course: 0,
        kernel: p.courses[0].kernel.as_ref(),
    }];
    let run = |seed| {
        let o = RunOptions {
            trials: 100_000,
            seed,
            ..RunOptions::default()
        };
        engine::Threads::new(None)
            .unwrap()
            .run(&task, &o)
            .unwrap()
            .remove(0)
            .counts
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5), run(6));
}

/// Precision mode stops when every probability's half-width is at most E.
#[test]
fn precision_mode_meets_its_target() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/mpbs/charge-or-salvo.toml");
    let p = prepare(&path, &RunPlan::default()).unwrap();
    let k = p.courses[1].kernel.as_ref();
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
    let t = engine::Threads::new(None)
        .unwrap()
        .run(&task, &o)
        .unwrap()
        .remove(0);
    assert_eq!(t.trials % engine::CHUNK, 0);
    assert!(stats::worst_half_width(k.space(), &t.counts, t.trials) <= e);
    // Not wastefully: the previous round (half the trials) did not meet it.
    let half = engine::Threads::new(None)
        .unwrap()
        .run(
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

/// A d6 whose leaf is the face less one.
#[derive(Debug)]
struct D6(&'static pikeshot::outcome::OutcomeSpace);

impl pikeshot::procedure::Procedure for D6 {
    fn space(&self) -> &pikeshot::outcome::OutcomeSpace {
        self.0
    }
    fn resolve<D: pikeshot::dice::Dice>(&self, d: &mut D) -> pikeshot::outcome::Leaf {
        (d.d6() - 1) as pikeshot::outcome::Leaf
    }
}

/// A d6 roll in turn `turn`, or the end once `turns` turns are done. The
/// six faces' space is built once: the machines below roll a d6 in each of
/// hundreds of thousands of states.
fn d6_until(turn: usize, turns: usize) -> pikeshot::engine::chain::Action<D6> {
    use pikeshot::engine::chain::Action;
    static FACES: std::sync::LazyLock<pikeshot::outcome::OutcomeSpace> =
        std::sync::LazyLock::new(|| {
            let faces: Vec<String> = (1..=6).map(|f| format!("face-{f}")).collect();
            pikeshot::outcome::OutcomeSpace::new(faces, vec![])
        });
    if turn == turns {
        Action::End(0)
    } else {
        Action::Roll(D6(&FACES))
    }
}

/// The one outcome of the state-limit courses below.
fn done() -> pikeshot::outcome::OutcomeSpace {
    pikeshot::outcome::OutcomeSpace::from_labels(&["done"], vec![])
}

/// Asserts the course `m` is refused for having more states than the limit,
/// at `repeat.turns`; the error, for what it accepts.
#[track_caller]
fn too_many_states<M: pikeshot::engine::chain::Machine<Proc = D6>>(
    m: &M,
) -> pikeshot::error::InputError {
    let e = pikeshot::engine::chain::Chain::from_machine(m).unwrap_err();
    assert_eq!(e.key.as_deref(), Some("repeat.turns"), "{e}");
    e
}

/// A course of `turns` turns of one d6 each, whose state remembers every
/// face rolled: turn `t` has 6^t states, so the turns below `t` have
/// (6^t - 1) / 5 of them.
struct Branching {
    turns: usize,
    space: pikeshot::outcome::OutcomeSpace,
}

impl pikeshot::engine::chain::Machine for Branching {
    type State = (usize, u64);
    type Proc = D6;
    fn space(&self) -> &pikeshot::outcome::OutcomeSpace {
        &self.space
    }
    fn initial(&self) -> (usize, u64) {
        (0, 0)
    }
    fn action(
        &self,
        s: &(usize, u64),
    ) -> Result<pikeshot::engine::chain::Action<D6>, pikeshot::error::InputError> {
        Ok(d6_until(s.0, self.turns))
    }
    fn apply(&self, s: &(usize, u64), _: &D6, leaf: pikeshot::outcome::Leaf) -> (usize, u64) {
        (s.0 + 1, s.1 * 6 + leaf as u64)
    }
    fn turn(&self, s: &(usize, u64)) -> Option<usize> {
        Some(s.0)
    }
}

/// Issue 13 item 3: a course with more states than the limit names the
/// largest number of turns whose states fit. Seven turns have
/// (6^7 - 1) / 5 = 55,987 states; eight have 335,923, more than 200,000.
#[test]
fn a_course_with_too_many_states_names_the_most_turns_that_fit() {
    use pikeshot::engine::chain::{Chain, MAX_NODES};
    assert!((6u64.pow(7) - 1) / 5 <= MAX_NODES as u64);
    assert!((6u64.pow(8) - 1) / 5 > MAX_NODES as u64);
    let m = |turns| Branching {
        turns,
        space: done(),
    };
    assert!(Chain::from_machine(&m(7)).is_ok());
    for turns in [8, 12] {
        let e = too_many_states(&m(turns));
        assert!(
            e.accepted.as_deref().unwrap_or("").contains("at most 7,"),
            "{e}"
        );
    }
}

/// A course of `turns` turns of eight d6 each, whose state remembers the
/// faces of the turn up to a bound that grows with the course's turns (as a
/// unit's state counts a measure up to the course's largest value): the
/// faces modulo 6^min(turns, 8). A course of one turn has at most 6 × 8
/// states; a course of 8 turns has (6^8 - 1) / 5 = 335,923 in its first
/// turn alone.
struct Bounded {
    turns: usize,
    space: pikeshot::outcome::OutcomeSpace,
}

impl pikeshot::engine::chain::Machine for Bounded {
    /// (turn, rolls made this turn, the faces remembered).
    type State = (usize, usize, u64);
    type Proc = D6;
    fn space(&self) -> &pikeshot::outcome::OutcomeSpace {
        &self.space
    }
    fn initial(&self) -> Self::State {
        (0, 0, 0)
    }
    fn action(
        &self,
        s: &Self::State,
    ) -> Result<pikeshot::engine::chain::Action<D6>, pikeshot::error::InputError> {
        Ok(d6_until(s.0, self.turns))
    }
    fn apply(&self, s: &Self::State, _: &D6, leaf: pikeshot::outcome::Leaf) -> Self::State {
        let kept = 6u64.pow(self.turns.min(8) as u32);
        let faces = (s.2 * 6 + leaf as u64) % kept;
        if s.1 + 1 == 8 {
            (s.0 + 1, 0, 0)
        } else {
            (s.0, s.1 + 1, faces)
        }
    }
    fn turn(&self, s: &Self::State) -> Option<usize> {
        Some(s.0)
    }
}

/// A course whose first turn alone passes the state limit, while a course
/// of one turn fits: the error asks for fewer turns and never says that
/// not even one fits.
#[test]
fn a_course_whose_first_turn_is_too_big_does_not_say_one_turn_cannot_fit() {
    use pikeshot::engine::chain::{Chain, MAX_NODES};
    assert!((6u64.pow(8) - 1) / 5 > MAX_NODES as u64);
    let m = |turns| Bounded {
        turns,
        space: done(),
    };
    assert!(Chain::from_machine(&m(1)).is_ok());
    let e = too_many_states(&m(8));
    let accepted = e.accepted.as_deref().unwrap_or("");
    assert!(accepted.starts_with("fewer turns"), "{e}");
    assert!(!accepted.contains("not even 1"), "{e}");
}
