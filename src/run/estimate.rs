//! The cost of a run before it starts: variants × courses × trials, whether
//! the exact answer fits, and about how long the trials will take, measured
//! on the first variant's courses.

use std::time::{Duration, Instant};

use super::{Method, Prepared, RunRequest};
use crate::dice::Sampler;
use crate::engine::CHUNK;
use crate::engine::progress::{duration, si};
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
        match &self.exact {
            ExactFit::Fits => {
                out.push_str("; exact fits every course: --method exact answers without trials")
            }
            ExactFit::Not(course) => out.push_str(&format!(
                "; exact does not fit course \"{course}\" within --exact-budget"
            )),
            ExactFit::Unknown => {}
        }
        out
    }
}

/// Estimates the run of `p` under `req`, timing a few thousand trials of
/// each course of the first variant (with their own seed: nothing of the
/// run's streams is drawn). When the run is long enough to say so, also
/// tries the exact answer of each of those courses within the budget.
pub fn estimate(p: &Prepared, req: &RunRequest) -> Estimate {
    let first = p.courses.first().map(|(v, _, _)| v.clone());
    let courses: Vec<_> = p
        .courses
        .iter()
        .filter(|(v, _, _)| Some(v) == first.as_ref())
        .collect();
    let variants = p.courses.len() / courses.len().max(1);
    let up_to = req.precision.is_some();
    let trials = if up_to {
        req.max_trials.unwrap_or(100_000_000)
    } else {
        p.trials
    };
    let threads = if req.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        req.threads
    };
    let mut per_variant = 0.0;
    if !req.exact_only {
        for (_, _, k) in &courses {
            let mut counts = vec![0u64; k.space().len()];
            let mut rng = Sampler::new(0x005E_ED0F_E571_AA7E);
            // At least a chunk and CALIBRATE_FOR, so that a thread that
            // waits for a core (a busy machine) or a first call that warms
            // the caches does not stand for the whole run; at most
            // CALIBRATE_AT_MOST.
            let (mut n, mut done) = (1024u64, 0u64);
            let start = Instant::now();
            while (done < CHUNK || start.elapsed() < CALIBRATE_FOR)
                && start.elapsed() < CALIBRATE_AT_MOST
                && done < 1 << 24
            {
                k.sample(&mut rng, n, &mut counts);
                done += n;
                n = (n * 2).min(CHUNK);
            }
            let per_second = done as f64 / start.elapsed().as_secs_f64().max(1e-9);
            per_variant += trials as f64 / per_second;
        }
    }
    // Chunks spread over the threads; a task of one chunk uses one.
    let chunks = trials.div_ceil(CHUNK) as usize;
    let seconds = per_variant * variants as f64 / threads.min(chunks).max(1) as f64;
    let mut e = Estimate {
        variants,
        courses: courses.len(),
        trials,
        up_to,
        threads,
        seconds,
        exact: ExactFit::Unknown,
    };
    if e.worth_saying() && req.method() != Method::Exact {
        let budget = req
            .exact_budget
            .unwrap_or(crate::engine::exact::DEFAULT_BUDGET);
        e.exact = courses
            .iter()
            .find(|(_, _, k)| k.exact(budget).is_err())
            .map_or(ExactFit::Fits, |(_, c, _)| ExactFit::Not(c.clone()));
    }
    e
}
