//! A sweep run block by block: `run` builds a sweep's variants a block at
//! a time on every thread (each thread building whole variants, which is
//! what validates them, with their exact answers when asked for), resolves
//! the block's trials, and hands its courses on in variant order before
//! the next block is built. So building, the bulk of a sweep's work, uses
//! every core, and memory holds one block's kernels at a time, whatever
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
use crate::outcome::OutcomeSpace;

/// A sweep of more variants than this is written as it runs, gzip
/// compressed, and keeps only its key outcomes in memory (see
/// `run::stream`); `--stream-sweeps-above` (hidden) lowers it for tests.
pub const STREAM_ABOVE: usize = 1_000;

/// Variants built at once per thread: enough that a slow variant rarely
/// leaves a thread idle at the end of a block, few enough that a block's
/// kernels stay small.
const BLOCK_PER_THREAD: usize = 4;

/// Runs every variant of the lazily prepared sweep `p`, a block at a time,
/// giving each block's courses (variants in order, each variant's courses
/// in order) to `sink`. Returns the editions the variants use, joined by
/// `", "` in order of first use (`None` for a system without editions).
///
/// The first error in variant order stops the run (a variant that does
/// not build, or under `--method exact` a course without an exact answer).
/// `sink` takes a block while the next one is built on the other threads
/// (so a large sweep's tables are written while it goes on).
pub(crate) fn run_blocks(
    p: &Prepared,
    req: &RunRequest,
    mut sink: impl FnMut(Vec<CourseRun>) -> Result<()> + Send,
) -> Result<Option<String>> {
    let count = p.variant_count();
    let pool = validation_pool(req.threads)?;
    let threads = pool.current_num_threads();
    let mut opts = p.options(req);
    // One bar for the whole sweep would need the engine's; each block's
    // own would flicker, so a block runs without one.
    opts.progress = false;
    let exact = opts.exact.then_some(opts.exact_budget);
    let block = BLOCK_PER_THREAD * threads;
    let mut edition: Option<String> = None;
    // Block `first`'s variants, each built on a thread of the pool; the
    // first error in variant order.
    let build = |first: usize| -> Result<Vec<Validated>> {
        (first..(first + block).min(count))
            .into_par_iter()
            .map(|i| validate(&p.file, i, req, exact))
            .collect::<Vec<Result<Validated>>>()
            .into_iter()
            .collect()
    };
    let mut next = Some(pool.install(|| build(0)));
    for first in (0..count).step_by(block) {
        let mut built = next.take().expect("each block built before it is run")?;
        let answers: Vec<Vec<variant::ExactAnswer>> = built
            .iter_mut()
            .map(|b| b.exact.take().unwrap_or_default())
            .collect();
        for b in &built {
            if let Some(e) = &b.built.edition {
                add_edition(&mut edition, e);
            }
        }
        let tallies = if opts.monte_carlo {
            trials(&built, answers, &opts)?
        } else {
            exact_only(&built, answers, threads)
        };
        let mut courses = Vec::with_capacity(tallies.len());
        let mut tallies = tallies.into_iter();
        for b in built {
            let sides = b.built.sides.into_iter();
            for ((course, kernel), side) in b.built.courses.into_iter().zip(sides) {
                let tally = tallies.next().expect("a tally per course");
                if !opts.monte_carlo
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
        }
        let following = first + block < count;
        let (sunk, built) = pool
            .install(|| rayon::join(|| sink(courses), || following.then(|| build(first + block))));
        sunk?;
        next = built;
    }
    Ok(edition)
}

/// Adds edition `e` to the `", "`-joined list `all` unless there.
fn add_edition(all: &mut Option<String>, e: &str) {
    match all {
        None => *all = Some(e.to_string()),
        Some(all) => {
            if !all.split(", ").any(|x| x == e) {
                all.push_str(", ");
                all.push_str(e);
            }
        }
    }
}

/// The tallies of a block's courses under `--method exact`: the answers
/// found while the block was built, no trial.
fn exact_only(
    built: &[Validated],
    answers: Vec<Vec<variant::ExactAnswer>>,
    threads: usize,
) -> Vec<engine::Tally> {
    built
        .iter()
        .zip(answers)
        .flat_map(|(b, answers)| {
            let mut answers = answers.into_iter();
            b.built
                .courses
                .iter()
                .map(move |(_, k)| (k.space().len(), answers.next()))
        })
        .map(|(len, answer)| {
            let (exact, exact_error) = split(answer);
            engine::Tally {
                trials: 0,
                counts: vec![0; len],
                exact,
                exact_error,
                seconds: 0.0,
                threads,
            }
        })
        .collect()
}

/// An exact answer as a tally holds it: the probabilities, or why not.
fn split(answer: Option<variant::ExactAnswer>) -> (Option<Vec<f64>>, Option<String>) {
    match answer {
        Some(Ok(p)) => (Some(p), None),
        Some(Err(e)) => (None, Some(e.to_string())),
        None => (None, None),
    }
}

/// The trials of a block's courses, run by the engine (each variant's
/// chunks on every thread), with the exact answers found while building.
fn trials(
    built: &[Validated],
    answers: Vec<Vec<variant::ExactAnswer>>,
    opts: &RunOptions,
) -> Result<Vec<engine::Tally>> {
    let kernels: Vec<Answered> = built
        .iter()
        .zip(answers)
        .flat_map(|(b, answers)| {
            let mut answers = answers.into_iter();
            b.built.courses.iter().map(move |(_, k)| Answered {
                kernel: k.as_ref(),
                exact: Mutex::new(answers.next()),
            })
        })
        .collect();
    let mut tasks = Vec::with_capacity(kernels.len());
    let mut next = kernels.iter();
    for b in built {
        let variant = engine::stream_id(&b.v.identity);
        for (course, _) in &b.built.courses {
            let kernel = next.next().expect("a kernel per course");
            tasks.push(Task {
                variant,
                course: engine::stream_id(course),
                kernel,
            });
        }
    }
    engine::run(&tasks, opts)
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
}
