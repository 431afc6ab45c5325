//! What a command asks of a run, read once: the [`RunPlan`] (what to
//! compute: the method, trials or a precision target, the seed, the
//! worker threads, the `--set` overrides, and a control that can stop it)
//! apart from the [`Presentation`] (how to show and write it: progress,
//! plots, the output folder). Each value is typed where it is read, so
//! no step parses a flag again; [`RunPlan::check`] refuses what the types
//! cannot.

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::Arc;

use crate::engine::{self, KernelMode, Method, RunControl, Threads};
use crate::error::{InputError, Result};
use crate::report::Plots;
use crate::scenario::Overrides;
use crate::scenario::limits::{MAX_SEED, MAX_TRIALS};
use crate::systems::Registry;

/// What the user asked of `pikeshot run` (and `report`, `diff`): the
/// scenario files, what to compute of them and how to show it.
#[derive(Clone, Debug, Default)]
pub struct RunRequest {
    /// Scenario files.
    pub scenarios: Vec<PathBuf>,
    /// What to compute.
    pub plan: RunPlan,
    /// How to show and write it.
    pub show: Presentation,
}

/// What a run computes, whatever is shown of it.
#[derive(Clone, Debug, Default)]
pub struct RunPlan {
    /// How the figures are found (`--method`).
    pub method: Method,
    /// Trials per course and variant (overrides the file's `trials`).
    pub trials: Option<u64>,
    /// Run until every probability's 95% half-width is at most this.
    pub precision: Option<f64>,
    /// Cap on trials in precision mode.
    pub max_trials: Option<u64>,
    /// Master seed (overrides the file's `seed`).
    pub seed: Option<u64>,
    /// Path budget for exact enumeration.
    pub exact_budget: Option<u64>,
    /// Worker threads (`None`: one per core); the command's one pool is
    /// started from it ([`RunPlan::threads`]).
    pub threads: Option<NonZeroUsize>,
    /// Kernel mode for the Monte Carlo loop.
    pub kernel: KernelMode,
    /// `--set KEY=VALUE` overrides, applied to every scenario.
    pub overrides: Overrides,
    /// Watched and stopped from outside (`pikeshot serve`): see
    /// [`engine::control`]. A stopped run is [`crate::Error::Stopped`].
    pub control: Option<Arc<RunControl>>,
    /// The rule systems a scenario's `system` may name (by default
    /// [`Registry::shipped`]).
    pub systems: Registry,
}

/// How a run is shown and written; none of it changes a figure.
#[derive(Clone, Debug, Default)]
pub struct Presentation {
    /// Show a progress bar (and the estimate) on a terminal.
    pub progress: bool,
    /// Which plots to draw (`--plots`); `None` for the default (see
    /// [`Presentation::plots_for`]).
    pub plots: Option<Plots>,
    /// Output folder (one scenario), or parent folder (several).
    pub out: Option<PathBuf>,
    /// `run` writes a sweep of more variants than this as it runs
    /// (default [`super::STREAM_ABOVE`]; the hidden
    /// `--stream-sweeps-above`).
    pub stream_above: Option<usize>,
}

/// Trials per course when neither the file nor the command line says.
pub const DEFAULT_TRIALS: u64 = 1_000_000;
/// Seed when neither the file nor the command line says.
pub const DEFAULT_SEED: u64 = 1;
/// Cap on trials per course under `--precision` without `--max-trials`.
pub const DEFAULT_MAX_TRIALS: u64 = 100_000_000;

impl RunPlan {
    /// The kernel mode the courses are built with: `--kernel`, except
    /// under `--method exact`, where no trial is drawn and a compiled
    /// table (enumerating each course's dice paths once more to fill it)
    /// would be built for nothing.
    pub(crate) fn build_mode(&self) -> KernelMode {
        if self.method == Method::Exact {
            KernelMode::Direct
        } else {
            self.kernel
        }
    }

    /// The path budget of exact enumeration.
    pub fn budget(&self) -> u64 {
        self.exact_budget.unwrap_or(engine::exact::DEFAULT_BUDGET)
    }

    /// The cap on trials per course under `--precision`.
    pub fn trial_cap(&self) -> u64 {
        self.max_trials.unwrap_or(DEFAULT_MAX_TRIALS)
    }

    /// Refuses values outside their limits ([`crate::scenario::limits`]):
    /// the same limit for `--trials` as for `trials` in a file, and for
    /// `--seed` as for `seed`; zero for `--max-trials` and
    /// `--exact-budget`; a trial count under `--method exact`. The thread
    /// count is checked where the threads start ([`Threads::new`]).
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
        let exact_only = self.method == Method::Exact;
        if exact_only && self.precision.is_some() {
            return flag(
                "--precision",
                "--precision sets how many Monte Carlo trials to run, and --method exact runs none"
                    .into(),
                "--precision with --method monte-carlo or both; or --method exact alone".into(),
            );
        }
        if exact_only && self.trials.is_some() {
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
        Ok(())
    }

    /// The worker threads of the command, once the plan is checked
    /// ([`RunPlan::check`]): started once and passed to every step.
    pub fn threads(&self) -> Result<Threads> {
        self.check()?;
        Threads::new(self.threads)
    }
}
