//! A sweep run block by block: `run` builds each of a sweep's variants
//! (which is what validates it, with its exact answers when asked for),
//! resolves its trials and drops its kernels, as one task of a block of
//! variants on every thread; the block's courses are handed on in variant
//! order while the next block runs. A variant's trials are chunks any
//! idle thread takes, so a block ends on its last chunk or build, not on
//! its slowest variant, and no phase waits for another; memory holds a
//! block's tallies and the kernels of the variants being run, whatever
//! the number of variants.
//!
//! What the caller does with each block's courses is its own: keep them
//! (a sweep of at most [`STREAM_ABOVE`] variants: the whole run is then
//! written as any other) or write them out as they come and keep only
//! their key outcomes (a larger sweep: see [`super::stream`]).

use std::sync::Mutex;

use rayon::prelude::*;

use super::*;
use crate::dice::{EnumerationError, Sampler};
use crate::engine::control;
use crate::engine::progress::Progress;
use crate::outcome::OutcomeSpace;

/// A sweep of more variants than this is written as it runs, gzip
/// compressed, and keeps only its key outcomes in memory (see
/// `run::stream`); `--stream-sweeps-above` (hidden) lowers it for tests.
pub const STREAM_ABOVE: usize = 1_000;

/// Variants run per thread in a block: enough that a block's last build
/// or chunk is a small part of it, few enough that the courses held
/// before the caller takes them stay small (a variant's kernels are
/// dropped as soon as its trials are done). The 10,000-variant sweep of
/// `scripts/sweep-10k.sh` peaked at 70 MB with 4, 81 MB with 8 and
/// 103 MB with 16 on two threads, in the same CPU time.
const BLOCK_PER_THREAD: usize = 8;

/// One variant run: its edition and its courses, in order.
struct Ran {
    edition: Option<String>,
    courses: Vec<CourseRun>,
}

/// Runs every variant of the lazily prepared sweep `p` under `plan` on
/// `threads` (with a progress bar when `progress`), a block at a time,
/// giving each block's courses (variants in order, each variant's courses
/// in order) to `sink`. Returns the editions the variants use, in order of
/// first use (none for a system without editions).
///
/// The first error in variant order stops the run (a variant that does
/// not build, or under `--method exact` a course without an exact answer).
/// `sink` takes a block while the next one runs on the other threads (so
/// a large sweep's tables are written while it goes on).
pub(crate) fn run_blocks(
    p: &Prepared,
    plan: &RunPlan,
    progress: bool,
    threads: &Threads,
    mut sink: impl FnMut(Vec<CourseRun>) -> Result<()> + Send,
) -> Result<Vec<String>> {
    let count = p.variant_count();
    let opts = p.options(plan, progress);
    let method = opts.method;
    let exact = method.exact().then_some(opts.exact_budget);
    let block = BLOCK_PER_THREAD * threads.count();
    // One bar and one plan for the whole sweep (every variant has the
    // first one's courses).
    let planned = engine::planned(count.saturating_mul(p.courses.len()), &opts);
    let bar = Progress::new(planned, opts.progress.as_ref());
    let control = opts.control.as_deref();
    if let Some(c) = control {
        c.plan(planned);
    }
    let watch = engine::Watch { bar: &bar, control };
    // Variant `i` built (validated), its trials run, its kernels dropped.
    let one = |i: usize| -> Result<Ran> {
        control::check(control)?;
        let mut b = validate(&p.file, i, plan, exact)?;
        let answers = b.exact.take().unwrap_or_default();
        // `--method auto`: a variant whose courses all enumerate runs no
        // trials.
        let all_exact =
            method.exact_first() && !answers.is_empty() && answers.iter().all(Result::is_ok);
        let tallies = if method.monte_carlo() && !all_exact {
            trials(threads, &b, answers, &opts, &watch)?
        } else {
            exact_only(&b, answers, threads.count())
        };
        let mut courses = Vec::with_capacity(tallies.len());
        let sides = b.built.sides.into_iter();
        for (((course, kernel), side), tally) in b.built.courses.into_iter().zip(sides).zip(tallies)
        {
            if !method.monte_carlo()
                && let Some(why) = &tally.exact_error
            {
                return Err(no_exact(
                    &p.file,
                    &b.v.label,
                    &course,
                    opts.exact_budget,
                    why,
                ));
            }
            courses.push(CourseRun::new(
                b.v.label.clone(),
                course,
                side,
                kernel.space().clone(),
                tally,
            ));
        }
        Ok(Ran {
            edition: b.built.edition,
            courses,
        })
    };
    // Block `first`'s variants, each a task on the pool (its chunks shared
    // with idle threads); each variant's outcome, in order.
    let run_block = |first: usize| -> Vec<Result<Ran>> {
        (first..(first + block).min(count))
            .into_par_iter()
            .map(one)
            .collect()
    };
    let mut editions: Vec<String> = Vec::new();
    threads.install(|| -> Result<()> {
        let mut next = Some(run_block(0));
        for first in (0..count).step_by(block) {
            let ran = next.take().expect("each block run before it is handed on");
            let mut courses = Vec::new();
            for r in ran {
                let r = r?;
                if let Some(e) = &r.edition {
                    add_edition(&mut editions, e);
                }
                courses.extend(r.courses);
            }
            let following = first + block < count;
            let (sunk, ran) = rayon::join(
                || sink(courses),
                || following.then(|| run_block(first + block)),
            );
            sunk?;
            next = ran;
        }
        Ok(())
    })?;
    bar.finish();
    Ok(editions)
}

/// The tallies of a variant's courses under `--method exact`: the
/// answers found while it was built, no trial.
fn exact_only(
    b: &Validated,
    answers: Vec<variant::ExactAnswer>,
    threads: usize,
) -> Vec<engine::Tally> {
    let mut answers = answers.into_iter();
    b.built
        .courses
        .iter()
        .map(|(_, k)| (k.space().len(), answers.next()))
        .map(|(len, answer)| {
            let (exact, exact_error) = engine::exact_parts(answer);
            engine::Tally {
                trials: 0,
                counts: vec![0; len],
                exact,
                exact_error,
                seconds: 0.0,
                threads,
                kernel: None,
            }
        })
        .collect()
}

/// The trials of a variant's courses, run by the engine on `threads`
/// (its chunks on any idle thread), with the exact answers found while
/// building.
fn trials(
    threads: &Threads,
    b: &Validated,
    answers: Vec<variant::ExactAnswer>,
    opts: &RunOptions,
    watch: &engine::Watch,
) -> Result<Vec<engine::Tally>> {
    let mut answers = answers.into_iter();
    let kernels: Vec<Answered> = b
        .built
        .courses
        .iter()
        .map(|(_, k)| Answered {
            kernel: k.as_ref(),
            exact: Mutex::new(answers.next()),
        })
        .collect();
    let variant = engine::stream_id(&b.v.identity);
    let tasks: Vec<Task> = b
        .built
        .courses
        .iter()
        .zip(&kernels)
        .map(|((course, _), kernel)| Task {
            variant,
            course: engine::stream_id(course),
            kernel,
        })
        .collect();
    threads.run_watched(&tasks, opts, watch)
}

/// A built course's kernel with the exact answer found while it was built,
/// given to the engine in place of enumerating it again.
struct Answered<'a> {
    kernel: &'a dyn Kernel,
    exact: Mutex<Option<variant::ExactAnswer>>,
}

impl Kernel for Answered<'_> {
    fn space(&self) -> &OutcomeSpace {
        self.kernel.space()
    }
    fn sample(&self, rng: &mut Sampler, n: u64, counts: &mut [u64]) {
        self.kernel.sample(rng, n, counts)
    }
    fn exact(&self, budget: u64) -> Result<Vec<f64>, EnumerationError> {
        let found = self.exact.lock().unwrap_or_else(|e| e.into_inner()).take();
        found.unwrap_or_else(|| self.kernel.exact(budget))
    }
    fn is_compiled(&self) -> bool {
        self.kernel.is_compiled()
    }
    fn kind(&self) -> engine::KernelKind {
        self.kernel.kind()
    }
}
