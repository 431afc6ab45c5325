//! Running scenario files end to end: load, override, expand the sweep,
//! build every course, resolve, and write the reports.

use std::path::{Path, PathBuf};
use std::sync::Arc;

mod block;
pub mod decide;
pub mod estimate;
mod output;
pub mod plan;
pub mod progress;
mod stream;
mod sweep;
mod variant;

pub use block::STREAM_ABOVE;
pub use sweep::SUMMARY_ABOVE;

pub use output::*;
pub use plan::{DEFAULT_SEED, DEFAULT_TRIALS, Presentation, RunPlan, RunRequest};
use variant::{VariantCell, VariantKernel};

pub use crate::engine::Method;
use crate::engine::{self, Kernel, RunOptions, Task, Threads};
use crate::error::{InputError, Result};
use crate::outcome::Side;
use crate::report::folder;
use crate::report::replace::{self, NewFolder};
use crate::report::{self, CourseRun, Plots, RunId, ScenarioRun};
use crate::scenario::ScenarioFile;
use crate::scenario::fields::collect;
use crate::scenario::limits::{MAX_SEED, MAX_TRIALS};
use crate::systems;
use crate::targets::{self as expect, Checked, Expect, Scope};

/// A scenario ready to run: every variant validated, its courses ready.
/// Without a sweep the kernels are built and held; with one, each
/// variant's kernels are built when the run reaches it and released after
/// (so memory does not grow with the number of variants). A sweep
/// prepared for `run` ([`run_checked`]) is validated by its run instead:
/// only its first variant is built here, and the run builds the others
/// block by block (see `block`).
pub struct Prepared {
    /// The scenario's file, with the overrides applied.
    pub file: ScenarioFile,
    /// Its name, rule system, editions (every edition the variants use, in
    /// order of first use) and seed.
    pub id: RunId,
    /// Trials per course.
    pub trials: u64,
    /// Every course of every variant built, in output order (variants
    /// outermost).
    pub courses: Vec<PreparedCourse>,
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

/// One course of one variant, ready to run.
pub struct PreparedCourse {
    /// The variant's label (empty without a sweep).
    pub variant: String,
    /// The variant's identity (see [`crate::scenario::Variant`]): the
    /// course's random streams are seeded from it and from its name.
    pub identity: String,
    /// The course's name.
    pub name: String,
    /// Its own and enemy units.
    pub side: Side,
    /// What its trials and exact answer are drawn from.
    pub kernel: Box<dyn Kernel>,
}

/// How [`prepare_with`] keeps what it builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Build {
    /// Every variant built to validate it; the kernels of a scenario
    /// without a sweep, or of a sweep's first variant, kept.
    Kept,
    /// Every variant built to validate it; no kernel kept (each is built
    /// again when the run reaches it).
    Released,
    /// A sweep's first variant only built (and kept): its run builds and
    /// validates the others (see `block`).
    Lazy,
}

/// Loads a scenario, applies the overrides and builds every course of
/// every variant, on threads of its own (a command that prepares or runs
/// more than once starts its [`Threads`] once: [`prepare_file_on`]).
pub fn prepare(path: &Path, plan: &RunPlan) -> Result<Prepared> {
    prepare_file(ScenarioFile::load(path)?, plan)
}

/// As [`prepare`], for a scenario already loaded (or built from text).
///
/// The `[[expect]]` entries are taken out of the table after `--set` and
/// before the sweep is expanded (the systems refuse keys they do not know),
/// then validated against the courses built.
pub fn prepare_file(file: ScenarioFile, plan: &RunPlan) -> Result<Prepared> {
    prepare_with(file, plan, Build::Kept, &plan.threads()?)
}

/// As [`prepare_file`], on the command's `threads`: `diff`, `serve` and
/// the studies prepare more than one version of a file on one pool.
pub fn prepare_file_on(file: ScenarioFile, plan: &RunPlan, threads: &Threads) -> Result<Prepared> {
    prepare_with(file, plan, Build::Kept, threads)
}

/// As [`prepare`] on the command's `threads`, keeping no kernel built:
/// every variant is validated, then built again when the run reaches it
/// and released after. `report` prepares every scenario before running
/// any, so its memory then holds one variant at a time, not every
/// scenario's first (at the cost of building each scenario's first
/// variant twice).
pub fn prepare_released(path: &Path, plan: &RunPlan, threads: &Threads) -> Result<Prepared> {
    prepare_with(ScenarioFile::load(path)?, plan, Build::Released, threads)
}

/// Applies the overrides to `file`, then builds its variants on
/// `threads` (which validates them) and keeps them as `build` says.
fn prepare_with(
    mut file: ScenarioFile,
    plan: &RunPlan,
    build: Build,
    threads: &Threads,
) -> Result<Prepared> {
    plan.check()?;
    file.apply(&plan.overrides)?;
    let expect_value = expect::take(&mut file)?;
    let axes = Scope::axes_of(&file);
    let count = file.variant_count()?;
    let lazy = build == Build::Lazy && count > 1;
    let built_count = if lazy { 1 } else { count };
    // A sweep's variants are built here to validate them, then dropped
    // (but the first, when kept), and built again when run: see `variant`.
    let shared = ((count > 1 && !lazy) || build == Build::Released).then(|| Arc::new(file.clone()));
    let mut g = Gathered {
        name: file.stem(),
        system: String::new(),
        editions: Vec::new(),
        seed: DEFAULT_SEED,
        trials: DEFAULT_TRIALS,
        courses: Vec::new(),
        labels: Vec::with_capacity(count),
    };
    // Under `--method exact` or `auto`, a sweep's exact answers are found
    // while its variants are built to validate them, so no variant is
    // built twice.
    let early_exact =
        matches!(plan.method, Method::Exact | Method::Auto) && shared.is_some() && !lazy;
    // Variants are built a batch at a time on every thread (in order, the
    // first error first), so memory holds one batch's kernels at most.
    let batch = VALIDATION_BATCH * threads.count();
    for first in (0..built_count).step_by(batch) {
        let built: Vec<Result<Validated>> = threads.install(|| {
            use rayon::prelude::*;
            (first..(first + batch).min(built_count))
                .into_par_iter()
                .map(|i| validate(&file, i, plan, early_exact.then_some(plan.budget())))
                .collect()
        });
        for (k, b) in built.into_iter().enumerate() {
            g.add(
                first + k,
                b?,
                plan,
                shared.as_ref(),
                build != Build::Released,
            );
        }
    }
    // A lazy sweep's other variants: their labels only (each is built and
    // validated by the run); the targets are read against the first
    // variant's courses for each.
    let mut scope_courses: Vec<(String, String, &crate::outcome::OutcomeSpace)> = g
        .courses
        .iter()
        .map(|c| (c.variant.clone(), c.name.clone(), c.kernel.space()))
        .collect();
    if lazy {
        for i in 1..count {
            let label = file.variant(i)?.label;
            for c in &g.courses {
                scope_courses.push((label.clone(), c.name.clone(), c.kernel.space()));
            }
            g.labels.push(label);
        }
    }
    let scope = Scope {
        file: &file,
        labels: g.labels.clone(),
        axes,
        pinned: plan.overrides.keys().map(str::to_string).collect(),
        courses: scope_courses,
    };
    let expects = expect::read(expect_value.as_ref(), &scope)?;
    Ok(Prepared {
        id: RunId {
            name: g.name,
            system: g.system,
            editions: g.editions,
            seed: g.seed,
        },
        file,
        trials: g.trials,
        courses: g.courses,
        has_expects: expect_value.is_some(),
        expects,
        variants: g.labels,
        lazy,
    })
}

/// What the variants built so far say of the scenario, and their courses.
struct Gathered {
    /// The scenario's `name` (the last variant's that sets one), else the
    /// file's stem.
    name: String,
    /// The first variant's rule system.
    system: String,
    /// Every edition the variants use, in order of first use.
    editions: Vec<String>,
    /// The seed and trials of the first variant, under the plan's.
    seed: u64,
    trials: u64,
    /// Every course built, in order.
    courses: Vec<PreparedCourse>,
    /// Every variant's label, in order.
    labels: Vec<String>,
}

impl Gathered {
    /// Adds variant `i`, built: its courses hold their kernels (no sweep),
    /// or kernels built again from `shared` when run, the first variant's
    /// kept from this build when `keep` says so.
    fn add(
        &mut self,
        i: usize,
        b: Validated,
        plan: &RunPlan,
        shared: Option<&Arc<ScenarioFile>>,
        keep: bool,
    ) {
        let Validated {
            v,
            name,
            sys,
            seed,
            trials,
            built,
            exact,
        } = b;
        if let Some(n) = name {
            self.name = n;
        }
        if i == 0 {
            self.system = sys.id().to_string();
            self.seed = plan.seed.or(seed).unwrap_or(DEFAULT_SEED);
            self.trials = plan.trials.or(trials).unwrap_or(DEFAULT_TRIALS);
        }
        // Every edition the variants use, so that no page lists a sweep of
        // both cards as one.
        if let Some(e) = &built.edition {
            add_edition(&mut self.editions, e);
        }
        let (names, kernels): (Vec<String>, Vec<Box<dyn Kernel>>) =
            built.courses.into_iter().unzip();
        let kernels = match shared {
            None => kernels,
            Some(shared) => {
                let spaces: Vec<_> = kernels.iter().map(|k| k.space().clone()).collect();
                let cell = VariantCell::new(
                    Arc::clone(shared),
                    i,
                    sys,
                    plan.build_mode(),
                    (i == 0 && keep && exact.is_none()).then_some(kernels),
                );
                let mut exact = exact.map(Vec::into_iter);
                spaces
                    .into_iter()
                    .enumerate()
                    .map(|(c, space)| {
                        Box::new(VariantKernel {
                            cell: Arc::clone(&cell),
                            course: c,
                            space,
                            exact: std::sync::Mutex::new(exact.as_mut().and_then(Iterator::next)),
                        }) as Box<dyn Kernel>
                    })
                    .collect()
            }
        };
        for ((name, kernel), side) in names.into_iter().zip(kernels).zip(built.sides) {
            self.courses.push(PreparedCourse {
                variant: v.label.clone(),
                identity: v.identity.clone(),
                name,
                side,
                kernel,
            });
        }
        self.labels.push(v.label);
    }
}

/// Adds edition `e` to `all` unless there.
pub(crate) fn add_edition(all: &mut Vec<String>, e: &str) {
    if !all.iter().any(|x| x == e) {
        all.push(e.to_string());
    }
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
    plan: &RunPlan,
    exact: Option<u64>,
) -> Result<Validated> {
    let v = file.variant(i)?;
    // Every error of the variant in file order (see `fields::collect`).
    let (name, sys, seed, trials, built) = collect(&file.source, &v.table, TOP_KEYS, |f| {
        let n = f.name("name")?;
        f.string("description")?;
        let sys = plan.systems.read_system(f)?;
        let s = f.int("seed", 0, MAX_SEED as i64)?.map(|s| s as u64);
        let t = f.int("trials", 1, MAX_TRIALS as i64)?.map(|t| t as u64);
        let built = sys.build_courses(f, plan.build_mode())?;
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

/// Resolves a prepared scenario on threads of its own, showing nothing.
pub fn execute(p: &Prepared, plan: &RunPlan) -> Result<ScenarioRun> {
    resolve(p, plan, false, &plan.threads()?)
}

/// As [`execute`], on the command's `threads`, with the progress bar
/// `req.show` asks for.
pub fn execute_on(p: &Prepared, req: &RunRequest, threads: &Threads) -> Result<ScenarioRun> {
    resolve(p, &req.plan, req.show.progress, threads)
}

/// Resolves `p` under `plan` on `threads`, with a progress bar when
/// `progress`.
fn resolve(p: &Prepared, plan: &RunPlan, progress: bool, threads: &Threads) -> Result<ScenarioRun> {
    if p.lazy {
        let mut courses = Vec::new();
        let editions = block::run_blocks(p, plan, progress, threads, |block| {
            courses.extend(block);
            Ok(())
        })?;
        return Ok(p.scenario_run(plan, courses, editions));
    }
    let opts = p.options(plan, progress);
    // Streams belong to the variant's identity and the course's name, not
    // their positions (see `engine::stream_id`).
    let tasks: Vec<Task> = p
        .courses
        .iter()
        .map(|c| Task {
            variant: engine::stream_id(&c.identity),
            course: engine::stream_id(&c.name),
            kernel: c.kernel.as_ref(),
        })
        .collect();
    let tallies = threads.run(&tasks, &opts)?;
    if plan.method == Method::Exact {
        exact_fits(p, &tallies, opts.exact_budget)?;
    }
    let courses = p
        .courses
        .iter()
        .zip(tallies)
        .map(|(c, tally)| {
            CourseRun::new(
                c.variant.clone(),
                c.name.clone(),
                c.side.clone(),
                c.kernel.space().clone(),
                tally,
            )
        })
        .collect();
    Ok(p.scenario_run(plan, courses, p.id.editions.clone()))
}

impl Prepared {
    /// The engine's options for this scenario under `plan`, with a
    /// progress bar on stderr when `progress`.
    fn options(&self, plan: &RunPlan, progress: bool) -> RunOptions {
        RunOptions {
            trials: self.trials,
            seed: self.id.seed,
            precision: plan.precision,
            max_trials: plan.trial_cap(),
            method: plan.method,
            exact_budget: plan.budget(),
            progress: progress.then(progress::on_stderr),
            control: plan.control.clone(),
        }
    }

    /// The run of this scenario with `courses` resolved, its variants
    /// using `editions`.
    fn scenario_run(
        &self,
        plan: &RunPlan,
        courses: Vec<CourseRun>,
        editions: Vec<String>,
    ) -> ScenarioRun {
        ScenarioRun {
            id: RunId {
                editions,
                ..self.id.clone()
            },
            file_stem: self.file.stem(),
            sets: plan.overrides.texts(),
            courses,
            sweep: self.sweep(),
        }
    }
}

/// Under `--method exact`, refuses a run with a course whose exact
/// distribution was not found (most often: more die paths than the
/// budget), naming the course and what to do.
fn exact_fits(p: &Prepared, tallies: &[engine::Tally], budget: u64) -> Result<()> {
    for (c, t) in p.courses.iter().zip(tallies) {
        if let Some(why) = &t.exact_error {
            return Err(no_exact(&p.file, &c.variant, &c.name, budget, why));
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
