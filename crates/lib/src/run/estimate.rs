//! The cost of a run before it starts: variants × courses × trials, whether
//! the exact answer fits, and about how long the trials will take, measured
//! on the first variant's courses.

use std::time::{Duration, Instant};

use super::{Method, Prepared, PreparedCourse, RunPlan, RunRequest};
use crate::dice::Sampler;
use crate::engine::progress::{duration, si};
use crate::engine::{CHUNK, Threads};
use crate::report::draw::thousands;

/// A run estimated to take longer than this many seconds says so first.
pub const SAY_ABOVE_SECONDS: f64 = 3.0;

/// How long each course's trials are timed for the estimate, at least...
const CALIBRATE_FOR: Duration = Duration::from_millis(20);
/// ...and at most.
const CALIBRATE_AT_MOST: Duration = Duration::from_millis(200);

/// Whether every course of the first variant has an exact answer within
/// the budget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExactFit {
    /// Every course enumerates within the budget.
    Fits,
    /// This course does not.
    Not(String),
    /// Not looked at (the run is short, or exact only).
    Unknown,
}

/// What a run will cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Sweep variants.
    pub variants: usize,
    /// Courses per variant.
    pub courses: usize,
    /// Trials per course (with `--precision`: at most this many).
    pub trials: u64,
    /// Whether `trials` is a cap (`--precision`) rather than a count.
    pub up_to: bool,
    /// Worker threads.
    pub threads: usize,
    /// Estimated seconds of Monte Carlo.
    pub seconds: f64,
    /// Whether exact fits.
    pub exact: ExactFit,
}

impl Estimate {
    /// Whether the run is long enough to say so before it starts.
    pub fn worth_saying(&self) -> bool {
        self.seconds > SAY_ABOVE_SECONDS
    }

    /// One line for stderr: `estimate: 2 variants × 3 courses × 1,000,000
    /// trials, about 12 s on 2 threads; exact fits every course: --method
    /// exact answers without trials`.
    pub fn line(&self) -> String {
        let plural = |n: usize, one: &str, many: &str| {
            format!(
                "{} {}",
                thousands(n as u64),
                if n == 1 { one } else { many }
            )
        };
        let mut out = format!(
            "estimate: {} × {} × {}{} trials ({} in all), about {} on {}",
            plural(self.variants, "variant", "variants"),
            plural(self.courses, "course", "courses"),
            if self.up_to { "up to " } else { "" },
            thousands(self.trials),
            si((self.variants * self.courses) as f64 * self.trials as f64),
            duration(self.seconds),
            plural(self.threads, "thread", "threads"),
        );
        out.push_str(&self.exact.note(""));
        out
    }
}

impl ExactFit {
    /// What the estimate line says of exact (nothing when unknown); `of`
    /// follows the course's name (the scenario it is in, when several are).
    fn note(&self, of: &str) -> String {
        match self {
            ExactFit::Fits => {
                "; exact fits every course: --method exact answers without trials".into()
            }
            ExactFit::Not(course) => {
                format!("; exact does not fit course \"{course}\"{of} within --exact-budget")
            }
            ExactFit::Unknown => String::new(),
        }
    }
}

/// What several runs will cost together: the scenarios of `report`, or
/// the two editions of `diff`.
#[derive(Clone, Debug, PartialEq)]
pub struct Total {
    /// How many runs.
    pub runs: usize,
    /// What each run is, singular (`scenario`, `edition`).
    pub noun: &'static str,
    /// Courses over every variant of every run.
    pub courses: usize,
    /// Trials in all (with `--precision`: at most this many).
    pub trials: f64,
    /// Whether `trials` is a cap (`--precision`) rather than a count.
    pub up_to: bool,
    /// Worker threads.
    pub threads: usize,
    /// Estimated seconds of Monte Carlo, all runs together.
    pub seconds: f64,
    /// Whether exact fits every first variant's courses, and where not,
    /// the course.
    pub exact: ExactFit,
    /// The name of the run holding the course exact does not fit.
    pub exact_in: String,
}

impl Total {
    /// Whether the runs together are long enough to say so first.
    pub fn worth_saying(&self) -> bool {
        self.seconds > SAY_ABOVE_SECONDS
    }

    /// One line for stderr: `estimate: 26 scenarios, 130 courses over
    /// their variants, 2.6 M trials in all, about 12 s on 2 threads`, then
    /// what exact fits, as [`Estimate::line`] says it.
    pub fn line(&self) -> String {
        let runs = thousands(self.runs as u64);
        let s = if self.runs == 1 { "" } else { "s" };
        let c = if self.courses == 1 { "" } else { "s" };
        let mut out = format!(
            "estimate: {runs} {}{s}, {} course{c} over their variants, {}{} trials in all, about {} on {} thread{}",
            self.noun,
            thousands(self.courses as u64),
            if self.up_to { "up to " } else { "" },
            si(self.trials),
            duration(self.seconds),
            thousands(self.threads as u64),
            if self.threads == 1 { "" } else { "s" },
        );
        let of = if self.exact_in.is_empty() {
            String::new()
        } else {
            format!(" of {} \"{}\"", self.noun, self.exact_in)
        };
        out.push_str(&self.exact.note(&of));
        out
    }
}

/// Says on stderr what the runs of `parts` will cost together, before any
/// of them starts on the command's `threads`, when they are long enough
/// to say so and `req.show.progress` is on (no `-q`). `report` calls it with its scenarios, `diff` with its
/// two editions (`noun` names what a part is); `run` says each scenario's
/// own [`Estimate`]. Kernels built to time them are released after, so a
/// report still holds one variant's kernels at a time.
pub fn announce(
    parts: &[(&Prepared, &str)],
    req: &RunRequest,
    noun: &'static str,
    threads: &Threads,
) {
    if !req.show.progress {
        return;
    }
    let t = total(parts, &req.plan, noun, threads);
    if t.worth_saying() {
        eprintln!("{}", t.line());
    }
}

/// The cost of the runs of `parts` together under `plan` on `threads`
/// (each named, for the course exact does not fit).
pub fn total(
    parts: &[(&Prepared, &str)],
    plan: &RunPlan,
    noun: &'static str,
    threads: &Threads,
) -> Total {
    let mut t = Total {
        runs: parts.len(),
        noun,
        courses: 0,
        trials: 0.0,
        up_to: plan.precision.is_some(),
        threads: threads.count(),
        seconds: 0.0,
        exact: ExactFit::Unknown,
        exact_in: String::new(),
    };
    for (p, _) in parts {
        let e = timed(p, plan, threads);
        let courses = e.variants * e.courses;
        t.courses += courses;
        t.trials += courses as f64 * e.trials as f64;
        t.seconds += e.seconds;
        release(p);
    }
    if t.worth_saying() && plan.method != Method::Exact {
        t.exact = ExactFit::Fits;
        for (p, name) in parts {
            let fit = exact_fit(p, plan);
            release(p);
            if let ExactFit::Not(_) = fit {
                t.exact = fit;
                t.exact_in = name.to_string();
                break;
            }
        }
    }
    t
}

/// Drops the kernels a prepared scenario can build again.
fn release(p: &Prepared) {
    for c in &p.courses {
        c.kernel.release();
    }
}

/// Estimates the run of `p` under `plan` on `threads`, timing a few thousand trials of
/// each course of the first variant (with their own seed: nothing of the
/// run's streams is drawn). When the run is long enough to say so, also
/// tries the exact answer of each of those courses within the budget.
pub fn estimate(p: &Prepared, plan: &RunPlan, threads: &Threads) -> Estimate {
    let mut e = timed(p, plan, threads);
    if e.worth_saying() && plan.method != Method::Exact {
        e.exact = exact_fit(p, plan);
    }
    e
}

/// The courses of the first variant of `p`.
fn first_variant(p: &Prepared) -> Vec<&PreparedCourse> {
    let first = p.courses.first().map(|c| &c.variant);
    p.courses
        .iter()
        .filter(|c| Some(&c.variant) == first)
        .collect()
}

/// Whether every course of the first variant of `p` has an exact answer
/// within the budget.
fn exact_fit(p: &Prepared, plan: &RunPlan) -> ExactFit {
    let budget = plan.budget();
    first_variant(p)
        .iter()
        .find(|c| c.kernel.exact(budget).is_err())
        .map_or(ExactFit::Fits, |c| ExactFit::Not(c.name.clone()))
}

/// [`estimate`] without the exact answer: the trials timed.
fn timed(p: &Prepared, plan: &RunPlan, threads: &Threads) -> Estimate {
    modelled(p, plan, threads, |k, trials| {
        trials as f64 / per_second(k, trials)
    })
}

/// The estimate's model with the seconds one course's `trials` take given
/// by `cost` instead of timed: what the run's trials cost on `threads`,
/// from the first variant's courses. Tests check the model against the
/// trials a run samples with a deterministic `cost` (a cost proxy, not
/// time).
pub fn modelled_by(
    p: &Prepared,
    plan: &RunPlan,
    threads: &Threads,
    cost: impl Fn(&dyn crate::engine::Kernel, u64) -> f64,
) -> Estimate {
    modelled(p, plan, threads, cost)
}

/// Trials per second of kernel `k`, timed on a few thousand of its trials
/// (with their own seed: nothing of the run's streams is drawn; at most
/// the run's own `trials`).
fn per_second(k: &dyn crate::engine::Kernel, trials: u64) -> f64 {
    let mut counts = vec![0u64; k.space().len()];
    let mut rng = Sampler::new(0x005E_ED0F_E571_AA7E);
    // At least a chunk and CALIBRATE_FOR, so that a thread that waits for
    // a core (a busy machine) or a first call that warms the caches does
    // not stand for the whole run; at most CALIBRATE_AT_MOST, and never
    // more trials than the run's own (then the run is as short as its
    // calibration).
    let (mut n, mut done) = (1024u64, 0u64);
    let start = Instant::now();
    while (done < CHUNK || start.elapsed() < CALIBRATE_FOR)
        && start.elapsed() < CALIBRATE_AT_MOST
        && done < 1 << 24
        && done < trials
    {
        k.sample(&mut rng, n, &mut counts);
        done += n;
        n = (n * 2).min(CHUNK);
    }
    done as f64 / start.elapsed().as_secs_f64().max(1e-9)
}

/// The model: each course of the first variant costs `cost(kernel,
/// trials)` seconds of one thread, every variant as much as the first, and
/// the chunks of a course spread over the threads.
fn modelled(
    p: &Prepared,
    plan: &RunPlan,
    threads: &Threads,
    cost: impl Fn(&dyn crate::engine::Kernel, u64) -> f64,
) -> Estimate {
    let courses = first_variant(p);
    let variants = p.variant_count();
    let up_to = plan.precision.is_some();
    let trials = if up_to { plan.trial_cap() } else { p.trials };
    let threads = threads.count();
    let mut per_variant = 0.0;
    // `--method auto` runs no trials where exact fits (judged, as the
    // estimate's timing is, by the first variant).
    let no_trials = plan.method == Method::Exact
        || (plan.method == Method::Auto && exact_fit(p, plan) == ExactFit::Fits);
    if !no_trials {
        for c in &courses {
            per_variant += cost(c.kernel.as_ref(), trials);
        }
    }
    // Chunks spread over the threads; a task of one chunk uses one.
    let chunks = trials.div_ceil(CHUNK) as usize;
    let seconds = per_variant * variants as f64 / threads.min(chunks).max(1) as f64;
    Estimate {
        variants,
        courses: courses.len(),
        trials,
        up_to,
        threads,
        seconds,
        exact: ExactFit::Unknown,
    }
}
