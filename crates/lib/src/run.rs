//! Running scenario files end to end: load, override, expand the sweep,
//! build every course, resolve, and write the reports.

use std::path::{Path, PathBuf};
use std::sync::Arc;

mod block;
pub mod decide;
pub mod estimate;
mod output;
pub mod progress;
mod stream;
mod sweep;
mod variant;

pub use block::STREAM_ABOVE;
pub use sweep::SUMMARY_ABOVE;

pub use output::*;
use variant::{VariantCell, VariantKernel};

use crate::engine::{self, Kernel, KernelMode, RunOptions, Task, Threads};
use crate::error::{InputError, Result};
use crate::outcome::Side;
use crate::report::folder;
use crate::report::replace::{self, NewFolder};
use crate::report::{self, CourseRun, Plots, RunId, ScenarioRun};
use crate::scenario::ScenarioFile;
use crate::scenario::fields::collect;
use crate::scenario::limits::{MAX_SEED, MAX_THREADS, MAX_TRIALS};
use crate::systems;
use crate::targets::{self as expect, Checked, Expect, Scope};

/// What the user asked of `pikeshot run`.
#[derive(Clone, Debug, Default)]
pub struct RunRequest {
    /// Scenario files.
    pub scenarios: Vec<PathBuf>,
    /// Trials per course and variant (overrides the file's `trials`).
    pub trials: Option<u64>,
    /// Master seed (overrides the file's `seed`).
    pub seed: Option<u64>,
    /// Run until every probability's 95% half-width is at most this.
    pub precision: Option<f64>,
    /// Cap on trials in precision mode.
    pub max_trials: Option<u64>,
    /// Worker threads (0 = one per core).
    pub threads: usize,
    /// Also compute exact distributions.
    pub exact: bool,
    /// No Monte Carlo (`--method exact`): every probability exact, and a
    /// course that does not enumerate within the budget is an error
    /// naming it. Implies `exact`.
    pub exact_only: bool,
    /// `--method auto`: a variant whose courses all enumerate within the
    /// budget runs no trials (as under `--method exact`); any other
    /// variant runs its trials with the exact column where it fits (as
    /// under `--method both`). Implies `exact`, not `exact_only`.
    pub auto: bool,
    /// Which plots to draw (`--plots`); `None` for the default (see
    /// [`RunRequest::plots_for`]).
    pub plots: Option<Plots>,
    /// Path budget for exact enumeration.
    pub exact_budget: Option<u64>,
    /// `--set KEY=VALUE` overrides, applied to every scenario.
    pub sets: Vec<String>,
    /// Output folder (one scenario), or parent folder (several).
    pub out: Option<PathBuf>,
    /// Kernel mode for the Monte Carlo loop.
    pub kernel: KernelMode,
    /// Show a progress bar on a terminal.
    pub progress: bool,
    /// `run` writes a sweep of more variants than this as it runs
    /// (default [`STREAM_ABOVE`]; the hidden `--stream-sweeps-above`).
    pub stream_above: Option<usize>,
    /// Watched and stopped from outside (`pikeshot serve`): see
    /// [`engine::control`]. A stopped run is [`crate::Error::Stopped`].
    pub control: Option<std::sync::Arc<engine::RunControl>>,
    /// The rule systems a scenario's `system` may name (by default
    /// [`systems::Registry::shipped`]).
    pub systems: systems::Registry,
}

impl RunRequest {
    /// The kernel mode the courses are built with: `--kernel`, except
    /// under `--method exact`, where no trial is drawn and a compiled
    /// table (enumerating each course's dice paths once more to fill it)
    /// would be built for nothing.
    fn build_mode(&self) -> KernelMode {
        if self.exact_only {
            KernelMode::Direct
        } else {
            self.kernel
        }
    }
}

/// A scenario ready to run: every variant validated, its courses ready.
/// Without a sweep the kernels are built and held; with one, each
/// variant's kernels are built when the run reaches it and released after
/// (so memory does not grow with the number of variants). A sweep
/// prepared for `run` ([`run_checked`]) is validated by its run instead:
/// only its first variant is built here, and the run builds the others
/// block by block (see `block`).
pub struct Prepared {
    /// The scenario's file.
    pub file: ScenarioFile,
    /// Its name, rule system, edition (every edition the variants use, in
    /// order of first use) and seed.
    pub id: RunId,
    /// Trials per course.
    pub trials: u64,
    /// (variant label, course name, kernel) in output order.
    pub courses: Vec<(String, String, Box<dyn Kernel>)>,
    /// Each course's own and enemy units, in the order of `courses`.
    pub sides: Vec<Side>,
    /// Each course's variant identity (see [`crate::scenario::Variant`]),
    /// in the order of `courses`: its random streams are seeded from it.
    pub identities: Vec<String>,
    /// The scenario's `[[expect]]` targets, validated against the courses.
    pub expects: Vec<Expect>,
    /// Whether the file has `[[expect]]` entries (some may not apply to
    /// this run, when `--set` pinned a key their `variant` names).
    pub has_expects: bool,
    /// Every variant's label, in order (one empty label without a sweep).
    pub variants: Vec<String>,
    /// Whether only the first variant was built (its courses are the
    /// only ones in `courses`): the run builds and validates the others.
    pub(crate) lazy: bool,
}

/// How a run finds its figures (`--method`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// Monte Carlo trials only.
    #[default]
    MonteCarlo,
    /// Exact enumeration only: no trials.
    Exact,
    /// Monte Carlo trials, and the exact values beside them.
    Both,
    /// Exact for each variant whose courses all enumerate within the
    /// budget; Monte Carlo with the exact column where it fits for any
    /// other.
    Auto,
}

impl Method {
    /// The name on the command line and in `run.json`.
    pub fn name(self) -> &'static str {
        match self {
            Method::MonteCarlo => "monte-carlo",
            Method::Exact => "exact",
            Method::Both => "both",
            Method::Auto => "auto",
        }
    }

    /// The method a command line asks for: `--method` when given, else
    /// `both` under `--exact`; else `auto`, unless `--trials` or
    /// `--precision` asks for trials by name (then `monte-carlo`: the
    /// trials asked for; `--exact` adds the exact column).
    pub fn resolve(method: Option<Method>, exact: bool, trials_asked: bool) -> Method {
        match (method, exact) {
            (Some(m), _) => m,
            (None, true) => Method::Both,
            (None, false) if trials_asked => Method::MonteCarlo,
            (None, false) => Method::Auto,
        }
    }
}

impl RunRequest {
    /// The method this request asks for.
    pub fn method(&self) -> Method {
        match (self.exact_only, self.auto, self.exact) {
            (true, _, _) => Method::Exact,
            (false, true, _) => Method::Auto,
            (false, false, true) => Method::Both,
            (false, false, false) => Method::MonteCarlo,
        }
    }

    /// Sets `exact`, `exact_only` and `auto` for `method`.
    pub fn set_method(&mut self, method: Method) {
        self.exact = method != Method::MonteCarlo;
        self.exact_only = method == Method::Exact;
        self.auto = method == Method::Auto;
    }

    /// Refuses values outside their limits ([`crate::scenario::limits`]):
    /// the same limit for `--trials` as for `trials` in a file, and for
    /// `--seed` as for `seed`; zero for `--max-trials` and
    /// `--exact-budget`; more than [`MAX_THREADS`] threads (0 keeps its
    /// meaning here: one per core).
    pub fn check(&self) -> Result<(), InputError> {
        let flag =
            |name: &str, m: String, acc: String| Err(InputError::new(m).key(name).accepted(acc));
        if let Some(t) = self.trials
            && !(1..=MAX_TRIALS).contains(&t)
        {
            return flag(
                "--trials",
                format!("{t} trials is outside the accepted range"),
                format!("a whole number from 1 to {MAX_TRIALS}"),
            );
        }
        if let Some(s) = self.seed
            && s > MAX_SEED
        {
            return flag(
                "--seed",
                format!("{s} is larger than the largest seed"),
                format!("a whole number from 0 to {MAX_SEED} (as for `seed` in a file)"),
            );
        }
        if let Some(m) = self.max_trials
            && !(1..=MAX_TRIALS).contains(&m)
        {
            return flag(
                "--max-trials",
                format!("{m} is outside the accepted range"),
                format!("a whole number from 1 to {MAX_TRIALS}"),
            );
        }
        if self.exact_only && self.precision.is_some() {
            return flag(
                "--precision",
                "--precision sets how many Monte Carlo trials to run, and --method exact runs none"
                    .into(),
                "--precision with --method monte-carlo or both; or --method exact alone".into(),
            );
        }
        if self.exact_only && self.trials.is_some() {
            return flag(
                "--trials",
                "--trials sets how many Monte Carlo trials to run, and --method exact runs none"
                    .into(),
                "--trials with --method monte-carlo or both; or --method exact alone".into(),
            );
        }
        if self.exact_budget == Some(0) {
            return flag(
                "--exact-budget",
                "a budget of 0 paths cannot enumerate anything".into(),
                "a whole number of at least 1, e.g. 10000000".into(),
            );
        }
        if self.threads > MAX_THREADS {
            return flag(
                "--threads",
                format!("{} threads is more than the limit", self.threads),
                format!(
                    "a whole number from 1 to {MAX_THREADS}; leave --threads out for one per core"
                ),
            );
        }
        Ok(())
    }
}

/// Defaults when neither the file nor the command line says.
pub const DEFAULT_TRIALS: u64 = 1_000_000;
/// Default seed.
pub const DEFAULT_SEED: u64 = 1;

/// Loads a scenario, applies the overrides and builds every course of every variant.
pub fn prepare(path: &Path, req: &RunRequest) -> Result<Prepared> {
    prepare_file(ScenarioFile::load(path)?, req)
}

impl RunRequest {
    /// The worker threads this request runs on (`--threads`), once its
    /// flags are checked ([`RunRequest::check`]). A command starts them
    /// once and runs every step on them.
    pub fn threads(&self) -> Result<Threads> {
        self.check()?;
        Threads::new(self.threads)
    }
}

/// As [`prepare`], for a scenario already loaded (or built from text).
///
/// The `[[expect]]` entries are taken out of the table after `--set` and
/// before the sweep is expanded (the systems refuse keys they do not know),
/// then validated against the courses built.
pub fn prepare_file(file: ScenarioFile, req: &RunRequest) -> Result<Prepared> {
    prepare_kept(file, req, true, false, &req.threads()?)
}

/// As [`prepare_file`], on `threads` already started: `balance` and
/// `sensitivity` prepare many versions of one file on one pool.
pub fn prepare_file_on(
    file: ScenarioFile,
    req: &RunRequest,
    threads: &Threads,
) -> Result<Prepared> {
    prepare_kept(file, req, true, false, threads)
}

/// As [`prepare`], keeping no kernel built: every variant is validated,
/// then built again when the run reaches it and released after. `report`
/// prepares every scenario before running any, so its memory then holds
/// one variant at a time, not every scenario's first (at the cost of
/// building each scenario's first variant twice).
pub fn prepare_released(path: &Path, req: &RunRequest) -> Result<Prepared> {
    let file = ScenarioFile::load(path)?;
    prepare_kept(file, req, false, false, &req.threads()?)
}

/// [`prepare_file`]; with `keep`, the kernels of a scenario without a sweep,
/// or of a sweep's first variant, are kept from the validating build. With
/// `lazy`, a sweep's first variant only is built (and kept): its run
/// builds the others (see `block`). Variants are built on `threads`.
fn prepare_kept(
    mut file: ScenarioFile,
    req: &RunRequest,
    keep: bool,
    lazy: bool,
    threads: &Threads,
) -> Result<Prepared> {
    req.check()?;
    for s in &req.sets {
        file.set(s)?;
    }
    let expect_value = expect::take(&mut file)?;
    let axes = Scope::axes_of(&file);
    let count = file.variant_count()?;
    let lazy = lazy && count > 1;
    let built_count = if lazy { 1 } else { count };
    // A sweep's variants are built here to validate them, then dropped
    // (but the first, when kept), and built again when run: see `variant`.
    let shared = ((count > 1 && !lazy) || !keep).then(|| Arc::new(file.clone()));
    let mut labels = Vec::with_capacity(count);
    let mut name = file.stem();
    let mut system = String::new();
    let mut edition = None;
    let mut seed = DEFAULT_SEED;
    let mut trials = DEFAULT_TRIALS;
    let mut courses: Vec<(String, String, Box<dyn Kernel>)> = Vec::new();
    let mut sides = Vec::new();
    let mut identities = Vec::new();
    // Under `--method exact`, a sweep's exact answers are found while its
    // variants are built to validate them, so no variant is built twice.
    let early_exact = (req.exact_only || req.auto) && shared.is_some() && !lazy;
    let budget = req.exact_budget.unwrap_or(engine::exact::DEFAULT_BUDGET);
    // Variants are built a batch at a time on every thread (in order, the
    // first error first), so memory holds one batch's kernels at most.
    let batch = VALIDATION_BATCH * threads.count();
    for first in (0..built_count).step_by(batch) {
        let built: Vec<Result<Validated>> = threads.install(|| {
            use rayon::prelude::*;
            (first..(first + batch).min(built_count))
                .into_par_iter()
                .map(|i| validate(&file, i, req, early_exact.then_some(budget)))
                .collect()
        });
        for (k, b) in built.into_iter().enumerate() {
            let i = first + k;
            let Validated {
                v,
                name: n,
                sys,
                seed: s,
                trials: t,
                built,
                exact,
            } = b?;
            if let Some(n) = n {
                name = n;
            }
            if i == 0 {
                system = sys.id().to_string();
                seed = req.seed.or(s).unwrap_or(DEFAULT_SEED);
                trials = req.trials.or(t).unwrap_or(DEFAULT_TRIALS);
            }
            // Every edition the variants use, in order ("series, sfo" for a
            // sweep of both cards), so that no page lists such a sweep as one.
            if let Some(e) = &built.edition {
                match &mut edition {
                    None => edition = Some(e.clone()),
                    Some(all) => {
                        if !all.split(", ").any(|x| x == e) {
                            all.push_str(", ");
                            all.push_str(e);
                        }
                    }
                }
            }
            identities.extend(std::iter::repeat_n(v.identity.clone(), built.courses.len()));
            sides.extend(built.sides);
            match &shared {
                None => {
                    for (course, kernel) in built.courses {
                        courses.push((v.label.clone(), course, kernel));
                    }
                }
                Some(shared) => {
                    let (names, kernels): (Vec<String>, Vec<Box<dyn Kernel>>) =
                        built.courses.into_iter().unzip();
                    let spaces: Vec<_> = kernels.iter().map(|k| k.space().clone()).collect();
                    let cell = VariantCell::new(
                        Arc::clone(shared),
                        i,
                        sys,
                        req.build_mode(),
                        (i == 0 && keep && exact.is_none()).then_some(kernels),
                    );
                    let mut exact = exact.map(Vec::into_iter);
                    for (c, (course, space)) in names.into_iter().zip(spaces).enumerate() {
                        courses.push((
                            v.label.clone(),
                            course,
                            Box::new(VariantKernel {
                                cell: Arc::clone(&cell),
                                course: c,
                                space,
                                exact: std::sync::Mutex::new(
                                    exact.as_mut().and_then(Iterator::next),
                                ),
                            }),
                        ));
                    }
                }
            }
            labels.push(v.label);
        }
    }
    // A lazy sweep's other variants: their labels only (each is built and
    // validated by the run); the targets are read against the first
    // variant's courses for each.
    let mut scope_courses: Vec<(String, String, &crate::outcome::OutcomeSpace)> = courses
        .iter()
        .map(|(v, c, k)| (v.clone(), c.clone(), k.space()))
        .collect();
    if lazy {
        for i in 1..count {
            let label = file.variant(i)?.label;
            for (_, c, k) in &courses {
                scope_courses.push((label.clone(), c.clone(), k.space()));
            }
            labels.push(label);
        }
    }
    let expects = {
        let scope = Scope {
            file: &file,
            labels: labels.clone(),
            axes,
            pinned: req
                .sets
                .iter()
                .filter_map(|s| s.split_once('=').map(|(k, _)| k.trim().to_string()))
                .collect(),
            courses: scope_courses,
        };
        expect::read(expect_value.as_ref(), &scope)?
    };
    Ok(Prepared {
        file,
        id: RunId {
            name,
            system,
            edition,
            seed,
        },
        trials,
        courses,
        sides,
        identities,
        has_expects: expect_value.is_some(),
        expects,
        variants: labels,
        lazy,
    })
}

/// Variants validated together per thread: a batch is built on every
/// thread at once, and its kernels are held until the batch is done.
const VALIDATION_BATCH: usize = 2;

/// One variant built and checked.
struct Validated {
    v: crate::scenario::Variant,
    name: Option<String>,
    sys: &'static dyn systems::RuleSystem,
    seed: Option<u64>,
    trials: Option<u64>,
    built: systems::BuiltCourses,
    /// Each course's exact answer, when asked for while building.
    exact: Option<Vec<variant::ExactAnswer>>,
}

/// Builds variant `i` of `file` (which validates it); with `exact`, also
/// finds each course's exact answer within that budget.
fn validate(
    file: &ScenarioFile,
    i: usize,
    req: &RunRequest,
    exact: Option<u64>,
) -> Result<Validated> {
    let v = file.variant(i)?;
    // Every error of the variant in file order (see `fields::collect`).
    let (name, sys, seed, trials, built) = collect(&file.source, &v.table, TOP_KEYS, |f| {
        let n = f.name("name")?;
        f.string("description")?;
        let sys = req.systems.read_system(f)?;
        let s = f.int("seed", 0, MAX_SEED as i64)?.map(|s| s as u64);
        let t = f.int("trials", 1, MAX_TRIALS as i64)?.map(|t| t as u64);
        let built = sys.build_courses(f, req.build_mode())?;
        Ok((n, sys, s, t, built))
    })?;
    check_sides(file, &v.label, &built)?;
    let exact = exact.map(|budget| built.courses.iter().map(|(_, k)| k.exact(budget)).collect());
    Ok(Validated {
        v,
        name,
        sys,
        seed,
        trials,
        built,
        exact,
    })
}

/// Every top-level key some rule system reads (`sweep` and `expect` are
/// taken out before): when building fails, a key outside these is
/// reported too, so that a misspelt table (`[unit.a]`) is reported at its
/// own line with "did you mean", before the missing unit further down.
pub(crate) const TOP_KEYS: &[&str] = &[
    "name",
    "description",
    "system",
    "seed",
    "trials",
    "edition",
    "rules",
    "units",
    "course",
    "decision",
];

/// Refuses an output folder that names something other than a folder,
/// before any work.
fn check_out(dir: &Path) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        return Err(InputError::new(
            "is a file, not a folder: the outputs of a run are written into a folder",
        )
        .key("--out")
        .accepted("a folder that exists or can be created")
        .at(Some(&dir.display().to_string()), None)
        .into());
    }
    Ok(())
}

/// Refuses a comparison whose courses read their key outcomes from
/// different own/enemy pairs, unless every course names both: the
/// comparison would otherwise set one side's odds beside the other's.
fn check_sides(file: &ScenarioFile, variant: &str, built: &systems::BuiltCourses) -> Result<()> {
    // A course of one unit (no enemy) has no side to be read from.
    let paired: Vec<usize> = (0..built.sides.len())
        .filter(|&i| !built.sides[i].own.is_empty() && !built.sides[i].enemy.is_empty())
        .collect();
    let sides = &built.sides;
    if paired.iter().all(|&i| sides[i].named) {
        return Ok(());
    }
    let Some(&f) = paired.first() else {
        return Ok(());
    };
    let first = &sides[f];
    let Some(&k) = paired
        .iter()
        .find(|&&i| (&sides[i].own, &sides[i].enemy) != (&first.own, &first.enemy))
    else {
        return Ok(());
    };
    let name = |i: usize| built.courses[i].0.as_str();
    let pair = |s: &Side| format!("own = \"{}\", enemy = \"{}\"", s.own, s.enemy);
    let within = if variant.is_empty() {
        String::new()
    } else {
        format!(" (variant {variant})")
    };
    let e = InputError::new(format!(
        "the courses are read from different sides{within}: course \"{}\" reads {} but course \"{}\" reads {}; \
         name the pair each course is read from with `own` and `enemy` in every [[course]] \
         (e.g. `own = \"{}\"`, `enemy = \"{}\"`), so that the comparison sets like beside like",
        name(f),
        pair(first),
        name(k),
        pair(&sides[k]),
        first.own,
        first.enemy,
    ))
    .key(format!("course[{k}].own, course[{k}].enemy"));
    // At the second course's table, as the file (or a --set) gives it.
    Err(file.source.locate(e, &format!("course[{k}]")).into())
}

/// Resolves a prepared scenario.
pub fn execute(p: &Prepared, req: &RunRequest) -> Result<ScenarioRun> {
    execute_on(p, req, &req.threads()?)
}

/// As [`execute`], on `threads`.
pub fn execute_on(p: &Prepared, req: &RunRequest, threads: &Threads) -> Result<ScenarioRun> {
    if p.lazy {
        let mut courses = Vec::new();
        let edition = block::run_blocks(p, req, threads, |block| {
            courses.extend(block);
            Ok(())
        })?;
        return Ok(p.scenario_run(req, courses, edition));
    }
    let opts = p.options(req);
    // Streams belong to the variant's identity and the course's name, not
    // their positions (see `engine::stream_id`).
    let tasks: Vec<Task> = p
        .courses
        .iter()
        .zip(&p.identities)
        .map(|((_, c, k), identity)| Task {
            variant: engine::stream_id(identity),
            course: engine::stream_id(c),
            kernel: k.as_ref(),
        })
        .collect();
    let tallies = threads.run(&tasks, &opts)?;
    if req.exact_only {
        exact_fits(p, &tallies, opts.exact_budget)?;
    }
    let courses = p
        .courses
        .iter()
        .zip(&p.sides)
        .zip(tallies)
        .map(|(((v, c, k), side), tally)| {
            CourseRun::new(v.clone(), c.clone(), side.clone(), k.space().clone(), tally)
        })
        .collect();
    Ok(p.scenario_run(req, courses, p.id.edition.clone()))
}

impl Prepared {
    /// The engine's options for this scenario under `req`.
    fn options(&self, req: &RunRequest) -> RunOptions {
        RunOptions {
            trials: self.trials,
            seed: self.id.seed,
            threads: req.threads,
            precision: req.precision,
            max_trials: req.max_trials.unwrap_or(100_000_000),
            exact: req.exact || req.exact_only || req.auto,
            monte_carlo: !req.exact_only,
            auto: req.auto && !req.exact_only,
            exact_budget: req.exact_budget.unwrap_or(engine::exact::DEFAULT_BUDGET),
            progress: req.progress.then(progress::on_stderr),
            control: req.control.clone(),
        }
    }

    /// The run of this scenario with `courses` resolved.
    fn scenario_run(
        &self,
        req: &RunRequest,
        courses: Vec<CourseRun>,
        edition: Option<String>,
    ) -> ScenarioRun {
        ScenarioRun {
            id: RunId {
                edition,
                ..self.id.clone()
            },
            file_stem: self.file.stem(),
            sets: req.sets.clone(),
            courses,
            sweep: self.sweep(),
        }
    }
}

/// Under `--method exact`, refuses a run with a course whose exact
/// distribution was not found (most often: more die paths than the
/// budget), naming the course and what to do.
fn exact_fits(p: &Prepared, tallies: &[engine::Tally], budget: u64) -> Result<()> {
    for ((variant, course, _), t) in p.courses.iter().zip(tallies) {
        if let Some(why) = &t.exact_error {
            return Err(no_exact(&p.file, variant, course, budget, why));
        }
    }
    Ok(())
}

/// The error of a course of `variant` without an exact answer under
/// `--method exact`, saying `why` and what to do.
fn no_exact(
    file: &ScenarioFile,
    variant: &str,
    course: &str,
    budget: u64,
    why: &str,
) -> crate::Error {
    let within = if variant.is_empty() {
        String::new()
    } else {
        format!(" (variant {variant})")
    };
    InputError::new(format!(
        "course \"{course}\"{within} has no exact answer within the budget of {budget} die paths: {why}"
    ))
    .key("--method exact")
    .accepted(
        "--method both or monte-carlo for this scenario (Monte Carlo, with the exact column where it fits), \
         or a larger --exact-budget",
    )
    .at(Some(&file.path.display().to_string()), None)
    .into()
}
