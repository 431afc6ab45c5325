//! The runner: chunks, seeding, rayon, accumulators, adaptive precision.
//!
//! Trials are cut into fixed chunks of [`CHUNK`]. Chunk `k` of course `c` of
//! variant `v` draws from its own stream, seeded from `(seed, v, c, k)`, and
//! counts into its own block; blocks merge by integer addition. So the same
//! seed gives the same counts on any machine and any thread count. `v` and
//! `c` are the [`stream_id`]s of the variant's identity and the course's
//! name, not their positions: a course gives the same numbers wherever it
//! stands in a run (a variant pinned with `--set`, one shard of a report).

pub mod alias;
pub mod chain;
pub mod choose;
pub mod compiled;
pub mod control;
pub mod decide;
pub mod exact;
pub mod method;
pub mod pools;
pub mod progress;
pub mod shared;
pub mod stages;

use std::num::NonZeroUsize;
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

use crate::dice::{EnumerationError, Sampler};
use crate::outcome::OutcomeSpace;
use crate::procedure::Procedure;
use crate::stats;
pub use compiled::CompiledTable;
pub use control::RunControl;
pub use method::Method;
use progress::Progress;

/// Trials per chunk: the unit of parallel work and of seeding.
pub const CHUNK: u64 = 1 << 16;

/// Most worker threads a run may start (a fixed number, so that the limit
/// is the same on every machine; results never depend on it).
pub const MAX_THREADS: usize = 256;

/// How the Monte Carlo loop resolves a trial.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KernelMode {
    /// A compiled table where the procedure allows one, else `Direct`.
    #[default]
    Auto,
    /// Replay `resolve` with the sampler's dice for every trial.
    Direct,
}

/// What a kernel's trials are drawn from, as `explain` and `timing.csv`
/// name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelKind {
    /// A compiled table of die paths ([`CompiledTable`]).
    Compiled,
    /// An alias table over the exact distribution ([`alias::AliasTable`]).
    Alias,
    /// The procedure's own `resolve`, die by die.
    DieByDie,
}

impl KernelKind {
    /// The kind in words: `compiled table`, `alias table`, `die by die`.
    pub fn name(self) -> &'static str {
        match self {
            KernelKind::Compiled => "compiled table",
            KernelKind::Alias => "alias table",
            KernelKind::DieByDie => "die by die",
        }
    }
}

/// A procedure ready to run: the object-safe face of a [`Procedure`], so a
/// run can hold procedures of different types; dispatch happens once per chunk.
pub trait Kernel: Sync + Send {
    /// The outcome space of the procedure.
    fn space(&self) -> &OutcomeSpace;
    /// Resolves `n` trials with dice from `rng`, adding to `counts`.
    fn sample(&self, rng: &mut Sampler, n: u64, counts: &mut [u64]);
    /// Exact leaf probabilities within a path budget.
    fn exact(&self, budget: u64) -> Result<Vec<f64>, EnumerationError>;
    /// Whether trials use a compiled table.
    fn is_compiled(&self) -> bool;
    /// What trials are drawn from: a table (see [`Kernel::is_compiled`])
    /// or the procedure die by die.
    fn kind(&self) -> KernelKind {
        if self.is_compiled() {
            KernelKind::Compiled
        } else {
            KernelKind::DieByDie
        }
    }
    /// Every path of die results of one trial and the leaf it ends in
    /// (see [`exact::die_paths`]), within `budget` paths; `None` for a
    /// kernel that does not roll one procedure of its own (a wrapper of
    /// answers found before).
    fn die_paths(
        &self,
        budget: u64,
    ) -> Option<Result<Vec<(crate::dice::Path, crate::outcome::Leaf)>, EnumerationError>> {
        let _ = budget;
        None
    }
    /// Drops what the kernel can build again (the runner calls it when it
    /// is done with a variant); a no-op for a kernel that holds its tables.
    fn release(&self) {}
    /// Builds what the kernel would build when first used (a sweep
    /// variant's courses), so that the runner can build the next variant
    /// on one thread while the chunks of this one run on the others; a
    /// no-op for a kernel that holds its tables.
    fn prepare(&self) {}
}

/// A [`Procedure`] as a [`Kernel`]: the procedure with the table its
/// trials are drawn from, if it has one, and its exact distribution, when
/// that was found to build the table. Two kinds: [`ProcedureKernel`] (a
/// [`CompiledTable`]) and [`alias::Tabulated`] (an [`alias::AliasTable`] of
/// the exact distribution).
pub struct TableKernel<P, T> {
    procedure: P,
    table: Option<T>,
    /// The exact leaf probabilities within [`exact::DEFAULT_BUDGET`], kept
    /// when the table was built from them.
    exact: Option<Vec<f64>>,
}

/// A [`Procedure`] with its compiled table, if it has one.
pub type ProcedureKernel<P> = TableKernel<P, CompiledTable>;

impl<P, T> TableKernel<P, T> {
    /// The procedure itself.
    pub fn procedure(&self) -> &P {
        &self.procedure
    }
    /// The table trials are drawn from, if any.
    pub fn table(&self) -> Option<&T> {
        self.table.as_ref()
    }
}

impl<P: Procedure> ProcedureKernel<P> {
    /// Prepares `procedure`, compiling it when `mode` allows and it fits.
    pub fn new(procedure: P, mode: KernelMode) -> ProcedureKernel<P> {
        let table = match mode {
            KernelMode::Auto => CompiledTable::compile(&procedure),
            KernelMode::Direct => None,
        };
        TableKernel {
            procedure,
            table,
            exact: None,
        }
    }
}

impl<P: Procedure + 'static> ProcedureKernel<P> {
    /// Boxes `procedure` as a [`Kernel`] (see [`ProcedureKernel::new`]).
    pub fn boxed(procedure: P, mode: KernelMode) -> Box<dyn Kernel> {
        Box::new(ProcedureKernel::new(procedure, mode))
    }
}

/// A table that trials are drawn from in place of resolving the procedure:
/// a [`CompiledTable`] or an [`alias::AliasTable`].
pub trait TrialTable: Sync + Send {
    /// Resolves `n` trials from `rng`, adding each leaf's count to `counts`.
    fn draw(&self, rng: &mut Sampler, n: u64, counts: &mut [u64]);
    /// Which kind of table it is.
    fn kind(&self) -> KernelKind;
}

impl TrialTable for CompiledTable {
    fn draw(&self, rng: &mut Sampler, n: u64, counts: &mut [u64]) {
        self.sample(rng, n, counts)
    }
    fn kind(&self) -> KernelKind {
        KernelKind::Compiled
    }
}

impl<P: Procedure, T: TrialTable> Kernel for TableKernel<P, T> {
    fn space(&self) -> &OutcomeSpace {
        self.procedure.space()
    }
    /// Drawn from the table when there is one, else each trial resolved by
    /// the procedure itself.
    fn sample(&self, rng: &mut Sampler, n: u64, counts: &mut [u64]) {
        match &self.table {
            Some(t) => t.draw(rng, n, counts),
            None => {
                for _ in 0..n {
                    counts[self.procedure.resolve(rng) as usize] += 1;
                }
            }
        }
    }
    fn exact(&self, budget: u64) -> Result<Vec<f64>, EnumerationError> {
        match &self.exact {
            Some(p) if budget >= exact::DEFAULT_BUDGET => Ok(p.clone()),
            _ => exact::exact(&self.procedure, budget),
        }
    }
    fn is_compiled(&self) -> bool {
        self.table.is_some()
    }
    fn kind(&self) -> KernelKind {
        self.table.as_ref().map_or(KernelKind::DieByDie, T::kind)
    }
    fn die_paths(
        &self,
        budget: u64,
    ) -> Option<Result<Vec<(crate::dice::Path, crate::outcome::Leaf)>, EnumerationError>> {
        Some(exact::die_paths(&self.procedure, budget))
    }
}

/// Options of a run. The worker threads are not among them: a run is
/// given its [`Threads`], started once per command.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Trials per task (not used with `precision`, which starts from one
    /// chunk).
    pub trials: u64,
    /// Master seed.
    pub seed: u64,
    /// Target 95% Wilson half-width for every reported probability.
    pub precision: Option<f64>,
    /// Cap on trials per task in precision mode.
    pub max_trials: u64,
    /// How the figures are found: trials, exact answers or both. Under
    /// [`Method::Exact`] (or a variant [`Method::Auto`] answers exactly) a
    /// tally has 0 trials and zero counts.
    pub method: Method,
    /// Path budget for exact enumeration.
    pub exact_budget: u64,
    /// How to show the run's progress (nothing when `None`).
    pub progress: Option<progress::ShowProgress>,
    /// Watched and stopped from outside (see [`control`]): trials done are
    /// counted into it, and its stop flag is looked at before each chunk.
    pub control: Option<Arc<RunControl>>,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            trials: 1_000_000,
            seed: 1,
            precision: None,
            max_trials: 100_000_000,
            method: Method::MonteCarlo,
            exact_budget: exact::DEFAULT_BUDGET,
            progress: None,
            control: None,
        }
    }
}

/// One unit of work: a course of one variant.
pub struct Task<'a> {
    /// The variant's stream id (for seeding): [`stream_id`] of its identity.
    pub variant: u64,
    /// The course's stream id (for seeding): [`stream_id`] of its name.
    pub course: u64,
    /// What to resolve.
    pub kernel: &'a dyn Kernel,
}

/// What a task produced.
#[derive(Clone, Debug)]
pub struct Tally {
    /// Trials resolved.
    pub trials: u64,
    /// Count of each leaf.
    pub counts: Vec<u64>,
    /// Exact leaf probabilities, when asked for and within budget.
    pub exact: Option<Vec<f64>>,
    /// Why exact probabilities are missing although asked for.
    pub exact_error: Option<String>,
    /// Seconds of the Monte Carlo part: the time its chunks took, spread
    /// over the threads (a variant's courses run together, so one course's
    /// wall time is not its own).
    pub seconds: f64,
    /// Threads used.
    pub threads: usize,
    /// What the trials were drawn from (`None`: no trial was drawn).
    pub kernel: Option<KernelKind>,
}

/// An exact answer as a [`Tally`] holds it: the probabilities, or why
/// they are missing (`None`: not asked for).
pub fn exact_parts<E: std::fmt::Display>(
    answer: Option<Result<Vec<f64>, E>>,
) -> (Option<Vec<f64>>, Option<String>) {
    match answer {
        Some(Ok(p)) => (Some(p), None),
        Some(Err(e)) => (None, Some(e.to_string())),
        None => (None, None),
    }
}

/// A fixed 64-bit hash of a name (FNV-1a): the same on every machine,
/// build and run, unlike the standard library's randomly keyed hasher. A
/// variant's identity and a course's name become stream ids through it.
pub fn stream_id(name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The seed of chunk `k` of course `c` of variant `v` (stream ids, see
/// [`stream_id`]): SplitMix64-style mixing of the four numbers, so
/// neighbouring chunks get unrelated streams.
pub fn chunk_seed(seed: u64, variant: u64, course: u64, chunk: u64) -> u64 {
    let mut z = seed;
    for x in [variant, course, chunk] {
        z = mix(z ^ mix(x.wrapping_add(0x9E37_79B9_7F4A_7C15)));
    }
    z
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Where a run's chunks report: the progress bar, and the caller's
/// control when there is one.
pub struct Watch<'a> {
    /// The bar (or lines, or nothing) the trials done are shown on.
    pub bar: &'a Progress,
    /// The caller's control: trials done are counted into it, and no
    /// chunk starts once it is stopped.
    pub control: Option<&'a RunControl>,
}

impl Watch<'_> {
    /// Whether the caller asked the run to stop (no chunk starts then).
    #[inline]
    fn stopped(&self) -> bool {
        self.control.is_some_and(RunControl::is_stopped)
    }
    /// Counts a chunk of `n` trials done.
    #[inline]
    fn done(&self, n: u64) {
        self.bar.inc(n);
        if let Some(c) = self.control {
            c.add(n);
        }
    }
}

/// Counts of chunks `from..to` of a task of `total` trials (chunks not
/// started once the run is stopped count nothing: the run then returns
/// [`crate::Error::Stopped`], not these counts).
fn run_chunks(task: &Task, seed: u64, total: u64, from: u64, to: u64, watch: &Watch) -> Vec<u64> {
    let len = task.kernel.space().len();
    (from..to)
        .into_par_iter()
        .map(|k| {
            let n = CHUNK.min(total - k * CHUNK);
            let mut counts = vec![0u64; len];
            if watch.stopped() {
                return counts;
            }
            let mut rng = Sampler::new(chunk_seed(seed, task.variant, task.course, k));
            task.kernel.sample(&mut rng, n, &mut counts);
            watch.done(n);
            counts
        })
        .reduce(
            || vec![0u64; len],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        )
}

/// The worker threads of a command: a rayon pool of the number
/// `--threads` asks for, resolved here, in the one place (none given is
/// one per core). A command starts one and runs everything on it (a
/// sweep's builds, its trials, its exact answers), so `--threads 1` is one
/// worker thread in all, and no step starts threads of its own.
#[derive(Clone, Debug)]
pub struct Threads {
    pool: Arc<rayon::ThreadPool>,
}

impl Threads {
    /// `threads` worker threads (`None`: one per core, at most
    /// [`MAX_THREADS`]).
    ///
    /// More than [`MAX_THREADS`] is bad input (key `--threads`); threads
    /// that cannot start are an internal failure
    /// ([`crate::Error::Internal`]), not the input's fault.
    pub fn new(threads: Option<NonZeroUsize>) -> crate::Result<Threads> {
        let threads = match threads {
            Some(n) if n.get() > MAX_THREADS => {
                return Err(crate::error::InputError::new(format!(
                    "{n} threads is more than the limit"
                ))
                .key("--threads")
                .accepted(format!(
                    "a whole number from 1 to {MAX_THREADS}; leave --threads out for one per core"
                ))
                .into());
            }
            Some(n) => n.get(),
            None => std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS)),
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| crate::Error::internal(format!("cannot start {threads} threads"), e))?;
        Ok(Threads {
            pool: Arc::new(pool),
        })
    }

    /// How many worker threads there are.
    pub fn count(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Runs `op` on these threads: rayon's parallel iterators and joins in
    /// it use them (run in place when called from one of them).
    pub fn install<R: Send>(&self, op: impl FnOnce() -> R + Send) -> R {
        self.pool.install(op)
    }

    /// Runs every task on these threads and returns one [`Tally`] per
    /// task, in order.
    ///
    /// Zero trials is bad input. A run whose [`RunOptions::control`] is
    /// stopped returns [`crate::Error::Stopped`] (checked before each chunk
    /// and each variant).
    pub fn run(&self, tasks: &[Task], opts: &RunOptions) -> crate::Result<Vec<Tally>> {
        let planned = planned(tasks.len(), opts);
        let bar = Progress::new(planned, opts.progress.as_ref());
        let control = opts.control.as_deref();
        if let Some(c) = control {
            c.plan(planned);
        }
        let out = self.run_watched(tasks, opts, &Watch { bar: &bar, control })?;
        bar.finish();
        Ok(out)
    }

    /// As [`Threads::run`], for a part of a larger run that reports to the
    /// caller's `watch` (its bar, and its control, whose plan is the
    /// caller's): a sweep's variant, run while others are. Called from
    /// one of these threads, it runs in place.
    pub fn run_watched(
        &self,
        tasks: &[Task],
        opts: &RunOptions,
        watch: &Watch,
    ) -> crate::Result<Vec<Tally>> {
        check_options(opts)?;
        let threads = self.count();
        let control = watch.control;
        let mut out = Vec::with_capacity(tasks.len());
        let mut from = 0;
        while from < tasks.len() {
            control::check(control)?;
            // One variant's courses: run together, then their kernels may be
            // dropped (and rebuilt if asked for again), so a sweep holds one
            // variant at a time.
            let variant = tasks[from].variant;
            let to = from
                + tasks[from..]
                    .iter()
                    .take_while(|t| t.variant == variant)
                    .count();
            let group = &tasks[from..to];
            // Each course's exact answer on a thread of its own: first
            // under `--method auto`, which runs no trials for a variant
            // whose courses all have one; else after the trials.
            let find_exact = || -> Vec<(Option<Vec<f64>>, Option<String>)> {
                if opts.method.exact() {
                    self.install(|| {
                        group
                            .par_iter()
                            .map(|t| exact_parts(Some(t.kernel.exact(opts.exact_budget))))
                            .collect()
                    })
                } else {
                    vec![(None, None); group.len()]
                }
            };
            let early = opts.method.exact_first().then(find_exact);
            let all_exact = early
                .as_ref()
                .is_some_and(|e| e.iter().all(|(p, _)| p.is_some()));
            let trials = || match opts.precision {
                _ if !opts.method.monte_carlo() || all_exact => group
                    .iter()
                    .map(|t| (0, vec![0u64; t.kernel.space().len()], 0.0))
                    .collect(),
                None => run_group(group, opts.seed, opts.trials, threads, watch),
                Some(e) => group
                    .iter()
                    .map(|t| {
                        let start = Instant::now();
                        let (n, counts) = run_to_precision(t, opts, e, watch);
                        (n, counts, start.elapsed().as_secs_f64())
                    })
                    .collect(),
            };
            // The next variant is built meanwhile (it is needed only for
            // trials: under --method exact its answers come from validation).
            let next = tasks.get(to).filter(|_| opts.method.monte_carlo());
            let runs: Vec<(u64, Vec<u64>, f64)> = self.install(|| {
                rayon::join(trials, || {
                    if let Some(n) = next {
                        n.kernel.prepare()
                    }
                })
                .0
            });
            // A stopped run's counts are not whole: never returned.
            control::check(control)?;
            let exact = match early {
                Some(e) => e,
                None => find_exact(),
            };
            for ((task, (trials, counts, seconds)), (exact, exact_error)) in
                group.iter().zip(runs).zip(exact)
            {
                out.push(Tally {
                    trials,
                    counts,
                    exact,
                    exact_error,
                    seconds,
                    threads,
                    kernel: opts.method.monte_carlo().then(|| task.kernel.kind()),
                });
            }
            for t in group {
                t.kernel.release();
            }
            from = to;
        }
        Ok(out)
    }
}

/// Refuses options no run can follow: zero trials, a zero
/// `--max-trials`.
fn check_options(opts: &RunOptions) -> crate::Result<()> {
    if opts.method.monte_carlo() && opts.trials == 0 {
        return Err(crate::Error::input(
            "trials must be at least 1; accepted: a whole number of at least 1",
        ));
    }
    if opts.precision.is_some() && opts.max_trials == 0 {
        return Err(crate::Error::input(
            "--max-trials must be at least 1; accepted: a whole number of at least 1",
        ));
    }
    Ok(())
}

/// The Monte Carlo trials `tasks` courses plan under `opts` (with a
/// precision target, the cap: a bar then shows the most the run can take);
/// checked, so a count from input never wraps (a total that overflows is
/// shown as the largest number instead).
pub fn planned(tasks: usize, opts: &RunOptions) -> u64 {
    let per_task = match opts.precision {
        Some(_) => opts.max_trials,
        None => opts.trials,
    };
    if opts.method.monte_carlo() {
        (tasks as u64).saturating_mul(per_task)
    } else {
        0
    }
}

/// Every chunk of every task of `group` (one variant's courses) in one
/// parallel pass, so that a course of a few chunks leaves no thread idle
/// while another course has work. Returns each task's trials, counts
/// (integer sums: the same on any thread count) and seconds: the time its
/// chunks took, spread over the threads they could use.
fn run_group(
    group: &[Task],
    seed: u64,
    trials: u64,
    threads: usize,
    watch: &Watch,
) -> Vec<(u64, Vec<u64>, f64)> {
    let chunks = trials.div_ceil(CHUNK);
    let zero = || {
        let counts: Vec<Vec<u64>> = group
            .iter()
            .map(|t| vec![0u64; t.kernel.space().len()])
            .collect();
        (counts, vec![0.0f64; group.len()])
    };
    let (counts, seconds) = (0..group.len() as u64 * chunks)
        .into_par_iter()
        .fold(zero, |(mut counts, mut seconds), job| {
            if watch.stopped() {
                return (counts, seconds);
            }
            let (t, k) = ((job / chunks) as usize, job % chunks);
            let task = &group[t];
            let n = CHUNK.min(trials - k * CHUNK);
            let start = Instant::now();
            let mut rng = Sampler::new(chunk_seed(seed, task.variant, task.course, k));
            task.kernel.sample(&mut rng, n, &mut counts[t]);
            seconds[t] += start.elapsed().as_secs_f64();
            watch.done(n);
            (counts, seconds)
        })
        .reduce(zero, |(mut a, mut sa), (b, sb)| {
            for (x, y) in a.iter_mut().zip(b) {
                for (x, y) in x.iter_mut().zip(y) {
                    *x += y;
                }
            }
            for (x, y) in sa.iter_mut().zip(sb) {
                *x += y;
            }
            (a, sa)
        });
    let spread = threads.min(chunks as usize).max(1) as f64;
    counts
        .into_iter()
        .zip(seconds)
        .map(|(c, s)| (trials, c, s / spread))
        .collect()
}

/// Rounds of chunks, from one chunk and doubling, until every outcome and
/// measure probability has a 95% Wilson half-width of at most `e`, or
/// `max_trials` trials: the
/// cap is honoured exactly. Only the last round may end in a partial
/// chunk; its size depends on the request alone (`max_trials`), so the
/// counts stay the same on any thread count.
fn run_to_precision(task: &Task, opts: &RunOptions, e: f64, watch: &Watch) -> (u64, Vec<u64>) {
    let cap = opts.max_trials.max(1);
    let cap_chunks = cap.div_ceil(CHUNK);
    let mut done = 0u64;
    // One chunk first, whatever the file's `trials`: a loose target is met
    // in a fraction of a second.
    let mut target: u64 = 1;
    let mut counts = vec![0u64; task.kernel.space().len()];
    loop {
        let trials = target.saturating_mul(CHUNK).min(cap);
        let more = run_chunks(task, opts.seed, trials, done, target, watch);
        for (x, y) in counts.iter_mut().zip(more) {
            *x += y;
        }
        done = target;
        let worst = stats::worst_half_width(task.kernel.space(), &counts, trials);
        if worst <= e || done >= cap_chunks || watch.stopped() {
            return (trials, counts);
        }
        target = done.saturating_mul(2).min(cap_chunks);
    }
}
