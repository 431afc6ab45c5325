//! The command line's arguments: every subcommand's flags as clap reads
//! them, and the typed values (`--method`, `--plots`, `--shard`,
//! `--kernel`) they become before the library is called.

use std::num::NonZeroUsize;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use pikeshot::engine::KernelMode;
use pikeshot::run::{Method, Presentation, RunPlan, RunRequest};
use pikeshot::scenario::Overrides;
use pikeshot::{Error, batch, report, systems};

/// The odds for pike-and-shot wargames: resolves a fight millions of times in
/// parallel, computes the exact answer where the dice allow, and writes the
/// outcome distributions to CSV with histograms beside them.
#[derive(Parser, Debug)]
#[command(name = "pikeshot", version, about, long_about = None)]
#[command(
    after_help = "Exit codes: 0 done (and every target passed; also when stdout is closed early,\n\
as by `| head`), 1 a target failed (--check), 2 bad input (the message names the\n\
file, line and key, or a path that is missing or unusable), 3 a read or write\n\
failed otherwise (e.g. a full disk) or an internal failure (e.g. the worker\n\
threads could not start).\n\
Examples:\n  pikeshot run scenarios/mpbs/charge-or-salvo.toml\n  \
pikeshot run scenarios/mpbs/cuirassiers-vs-pike.toml --exact --set units.pike.terrain=woods\n  \
pikeshot report scenarios --check\n  \
pikeshot diff scenarios/mpbs/charge-or-salvo.toml --from sfo --to series --exact --check\n  \
pikeshot tables mpbs --edition sfo close-combat\n  pikeshot list mpbs\n  \
pikeshot serve --open"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Resolve scenario files and write outcomes.csv, measures.csv, summary.csv,
    /// timing.csv, run.json, and with every plot (`--plots all`, the default
    /// below 21 variants) a PNG and SVG histogram per course and
    /// explain.json (every roll explained, as `explain --format json`).
    Run(RunArgs),
    /// Resolve every scenario file under a folder into a report: one folder
    /// per scenario, summary.csv across all, and index.html.
    Report(ReportArgs),
    /// Compare two editions of a card on one scenario (a system with
    /// editions, e.g. mpbs): how each outcome's probability and each key
    /// outcome moves (diff.csv, chart).
    Diff(DiffArgs),
    /// Explain every roll of a scenario: for each step of each course, the
    /// dice, table and column, every modifier with its source, the limit and
    /// what it cost, the row each die face lands on, the exact probability of
    /// each result and the rolls a result triggers, for every state earlier
    /// steps can leave.
    Explain(ExplainArgs),
    /// Solve a scenario's `[[decision]]`s exactly: the best plan turn by
    /// turn, its value beside "always X" for each option, the plan in words
    /// and what it loses; with --out, each decision's policy.csv (every
    /// state where the own side chooses) and decisions.json.
    Decide(DecideArgs),
    /// Combine the outputs of `report --shard I/N` into exactly what one
    /// unsharded report writes.
    Merge(MergeArgs),
    /// Print a system's charts as transcribed, laid out like the card.
    Tables {
        /// Rule system.
        #[arg(value_parser = RegistryNames(system_names))]
        system: String,
        /// Edition, for a system that has editions [default: its newest].
        #[arg(long, short, value_parser = RegistryNames(edition_names))]
        edition: Option<String>,
        /// One chart by id (default: all; `pikeshot list SYSTEM` names them).
        table: Option<String>,
    },
    /// Name the procedures, unit kinds, terrain, modifiers and outcome labels.
    List {
        /// Rule system (default: all).
        #[arg(value_parser = RegistryNames(system_names))]
        system: Option<String>,
    },
    /// Serve a page on which to set up a fight and read its odds in a
    /// browser: forms generated from the registry (systems, editions, unit
    /// keys, procedures and every key), the shipped scenarios (and those
    /// under DIR) in one click, odds recomputed on every change (exact
    /// where every course enumerates, else Monte Carlo with intervals),
    /// side by side per course with the explain breakdown, TOML download
    /// and upload, and the page's state in its URL. Listens on 127.0.0.1
    /// only unless --host says otherwise; writes nothing to disk.
    Serve(ServeArgs),
    /// Solve for a target: run every value of the keys varied (exactly
    /// where the courses enumerate) and print the value, or the two
    /// neighbouring values, closest to it (several keys: the combinations
    /// within --tolerance, closest first); writes balance.csv and a chart.
    Balance(BalanceArgs),
    /// What decides a fight: every ordered key of the scenario moved one
    /// step down and one step up, and the change of each course's key
    /// outcomes, largest first (a tornado per course); writes
    /// sensitivity.csv and the tornado charts.
    Sensitivity(SensitivityArgs),
    /// Print a shell completion script, e.g. `pikeshot completions bash >
    /// ~/.local/share/bash-completion/completions/pikeshot`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// How scenarios are resolved: shared by run, report and diff.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct RunFlags {
    /// Trials per course and variant, 1 to 10000000000 [default: the file's
    /// `trials`, else 1000000].
    #[arg(long, short = 'n', conflicts_with = "precision")]
    pub(crate) trials: Option<u64>,
    /// Run in rounds, from one chunk of 65,536 trials and doubling, until
    /// every reported probability's 95% interval half-width is at most E
    /// (e.g. 0.001), capped by --max-trials (a warning says when the cap
    /// stops it short). Not with --trials.
    #[arg(long, value_name = "E")]
    pub(crate) precision: Option<f64>,
    /// Cap on trials per course in --precision mode, honoured exactly (1 to
    /// 10000000000).
    #[arg(long, default_value_t = 100_000_000, requires = "precision")]
    pub(crate) max_trials: u64,
    /// Master seed, 0 to 9223372036854775807 [default: the file's `seed`,
    /// else 1].
    #[arg(long, short)]
    pub(crate) seed: Option<u64>,
    /// How the figures are found: `auto` (exact for each variant whose
    /// courses all enumerate within --exact-budget, no trials; otherwise
    /// trials with the exact column where it fits), `exact` (no trials: a
    /// course that does not enumerate is an error naming it), `both`
    /// (trials, and the exact column where it fits) or `monte-carlo`
    /// (trials only) [default: auto; monte-carlo when --trials or
    /// --precision is given, both with --exact].
    #[arg(long, value_enum, conflicts_with = "exact")]
    pub(crate) method: Option<MethodArg>,
    /// Also compute exact probabilities (the `exact` column): the same as
    /// `--method both`.
    #[arg(long)]
    pub(crate) exact: bool,
    /// Which plots to draw: `all` (each course's histogram, each
    /// engagement's turn plots, the comparison charts, the sweep charts,
    /// and explain.json), `summary` (the sweep charts, and each variant's
    /// comparison charts when there are at most 20 variants; no
    /// explain.json) or `none` (CSV files only)
    /// [default: all; summary for a sweep of more than 20 variants].
    #[arg(long, value_enum)]
    pub(crate) plots: Option<PlotsArg>,
    /// Most paths of die results an exact enumeration may visit (at least 1).
    #[arg(long, default_value_t = 10_000_000)]
    pub(crate) exact_budget: u64,
    /// Override a scenario key, e.g. --set units.tercio.terrain=woods (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub(crate) sets: Vec<String>,
    /// Worker threads, 1 to 256 [default: one per core]. Results do not
    /// depend on it.
    #[arg(long, short = 'j')]
    pub(crate) threads: Option<usize>,
    /// How trials are resolved: `auto` folds small procedures into a table
    /// first; `direct` replays the procedure for every trial.
    #[arg(long, value_enum, default_value_t = KernelFlag::Auto)]
    pub(crate) kernel: KernelFlag,
    /// `run` writes a sweep of more variants than this as it runs
    /// (compressed tables, no per-variant plot): lowered by tests.
    #[arg(long, hide = true, value_name = "N")]
    pub(crate) stream_sweeps_above: Option<usize>,
}

impl RunFlags {
    /// The run request these flags ask for (no scenarios, no output
    /// folder); `quiet`: no estimate and no progress either.
    pub(crate) fn request(&self, quiet: bool) -> Result<RunRequest, Error> {
        if let Some(e) = self.precision
            && !(e > 0.0 && e < 0.5)
        {
            return Err(Error::input(format!(
                "--precision {e} is out of range; accepted: a half-width between 0 and 0.5, e.g. 0.001"
            )));
        }
        let plan = RunPlan {
            method: Method::resolve(
                self.method.map(MethodArg::method),
                self.exact,
                self.trials.is_some() || self.precision.is_some(),
            ),
            trials: self.trials,
            precision: self.precision,
            max_trials: Some(self.max_trials),
            seed: self.seed,
            exact_budget: Some(self.exact_budget),
            threads: threads_arg(self.threads)?,
            kernel: match self.kernel {
                KernelFlag::Auto => KernelMode::Auto,
                KernelFlag::Direct => KernelMode::Direct,
            },
            overrides: Overrides::parse(&self.sets)?,
            control: None,
            systems: systems::Registry::shipped(),
        };
        let show = Presentation {
            progress: !quiet,
            plots: self.plots.map(|p| match p {
                PlotsArg::All => report::Plots::All,
                PlotsArg::Summary => report::Plots::Summary,
                PlotsArg::None => report::Plots::None,
            }),
            out: None,
            stream_above: self.stream_sweeps_above,
        };
        Ok(RunRequest {
            scenarios: Vec::new(),
            plan,
            show,
        })
    }
}

/// `--threads`, read once for every command that takes it: `None` for one
/// per core; 0 refused here (more than the limit where the threads start).
pub(crate) fn threads_arg(threads: Option<usize>) -> Result<Option<NonZeroUsize>, Error> {
    match threads {
        None => Ok(None),
        Some(n) => NonZeroUsize::new(n).map(Some).ok_or_else(|| {
            pikeshot::error::InputError::new("0 threads cannot run anything")
                .key("--threads")
                .accepted(format!(
                    "a whole number from 1 to {}; leave --threads out for one per core",
                    pikeshot::scenario::limits::MAX_THREADS
                ))
                .into()
        }),
    }
}

/// `--method`, read into [`Method`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum MethodArg {
    /// Exact where every course of a variant enumerates, else trials with
    /// the exact column where it fits.
    Auto,
    /// Exact enumeration only, no trials.
    Exact,
    /// Monte Carlo trials and the exact column.
    Both,
    /// Monte Carlo trials only.
    MonteCarlo,
}

impl MethodArg {
    /// The library's method.
    pub(crate) fn method(self) -> Method {
        match self {
            MethodArg::Auto => Method::Auto,
            MethodArg::Exact => Method::Exact,
            MethodArg::Both => Method::Both,
            MethodArg::MonteCarlo => Method::MonteCarlo,
        }
    }
}

/// `--plots`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum PlotsArg {
    /// Every plot, and explain.json.
    All,
    /// The sweep charts, and the comparison charts of at most 20 variants.
    Summary,
    /// No plot.
    None,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// Tables on the terminal.
    Text,
    /// One JSON document on stdout.
    Json,
}

/// What run, report and diff print and how they exit: shared by the three.
#[derive(clap::Args, Debug)]
pub(crate) struct ResultFlags {
    /// Exit 1, with a table of what failed, when an [[expect]] target fails
    /// (under either edition, for diff); `run` also prints, unless -q, the
    /// smallest single change of one key that brings each back into range.
    #[arg(long)]
    pub(crate) check: bool,
    /// `text`: tables (report: a summary line) on the terminal; `json`: one
    /// JSON document on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    /// Print nothing but errors, and the table of failed targets when a
    /// target fails: no table, summary or "wrote" line, estimate or
    /// progress.
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

#[derive(clap::Args, Debug)]
pub(crate) struct RunArgs {
    /// Scenario files (TOML).
    #[arg(required = true, value_name = "SCENARIO")]
    pub(crate) scenarios: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) flags: RunFlags,
    /// Output folder, replaced whole: a new or empty folder, or one pikeshot
    /// wrote [default: reports/<scenario>/; with several scenarios, one
    /// sub-folder each].
    #[arg(long, short)]
    pub(crate) out: Option<PathBuf>,
    /// Print every variant's tables of a sweep before its summary (by
    /// default a sweep prints its summary table across the variants and
    /// the files written).
    #[arg(long)]
    pub(crate) detail: bool,
    #[command(flatten)]
    pub(crate) result: ResultFlags,
}

#[derive(clap::Args, Debug)]
pub(crate) struct ReportArgs {
    /// Folder of scenario files (every *.toml under it, recursively).
    #[arg(value_name = "DIR")]
    pub(crate) dir: PathBuf,
    /// Report folder: one sub-folder per scenario, mirroring its path, each
    /// replaced whole; folders of scenarios that are gone are removed, your
    /// own files are left alone.
    #[arg(long, short, default_value = "reports")]
    pub(crate) out: PathBuf,
    /// Run only slice I of N of the sorted scenario list (for a CI matrix;
    /// combine the slices with `pikeshot merge`). `auto` reads it from the
    /// scheduler: a Slurm job array (SLURM_ARRAY_TASK_ID, _MIN, _MAX,
    /// _STEP or _COUNT), a Kubernetes Indexed Job (JOB_COMPLETION_INDEX,
    /// with --shards N or PIKESHOT_SHARDS) or PIKESHOT_SHARD=I/N.
    #[arg(long, value_name = "I/N|auto", value_parser = parse_shard)]
    pub(crate) shard: Option<ShardArg>,
    /// How many shards a Kubernetes Indexed Job has (its completions), for
    /// `--shard auto`.
    #[arg(long, value_name = "N", requires = "shard")]
    pub(crate) shards: Option<u32>,
    #[command(flatten)]
    pub(crate) result: ResultFlags,
    #[command(flatten)]
    pub(crate) flags: RunFlags,
}

#[derive(clap::Args, Debug)]
pub(crate) struct DiffArgs {
    /// Scenario file (of a system with editions).
    #[arg(value_name = "SCENARIO")]
    pub(crate) scenario: PathBuf,
    /// The edition compared from [default: the system's oldest, e.g. sfo].
    #[arg(long, value_parser = RegistryNames(edition_names))]
    pub(crate) from: Option<String>,
    /// The edition compared to [default: the system's newest, e.g. series].
    #[arg(long, value_parser = RegistryNames(edition_names))]
    pub(crate) to: Option<String>,
    /// Output folder [default: reports/<scenario>-diff/].
    #[arg(long, short)]
    pub(crate) out: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) result: ResultFlags,
    #[command(flatten)]
    pub(crate) flags: RunFlags,
}

#[derive(clap::Args, Debug)]
pub(crate) struct ExplainArgs {
    /// Scenario file (TOML).
    #[arg(value_name = "SCENARIO")]
    pub(crate) scenario: PathBuf,
    /// Override a scenario key, e.g. --set edition=series (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub(crate) sets: Vec<String>,
    /// Explain only this course (repeatable; default: every course).
    #[arg(long, value_name = "NAME")]
    pub(crate) course: Vec<String>,
    /// Explain only this variant of a sweep, by its label, e.g.
    /// `edition=sfo` (repeatable; default: every variant).
    #[arg(long, value_name = "LABEL")]
    pub(crate) variant: Vec<String>,
    /// Explain this `[[decision]]` instead of the courses: at a state, the
    /// value of each option, and for the best against the runner-up where
    /// each one's turn leads and the rolls that make the difference.
    #[arg(long, value_name = "NAME", conflicts_with = "course")]
    pub(crate) decision: Option<String>,
    /// The decision's state, as policy.csv names its features, e.g.
    /// "turn=2, imperialists status=disordered" [default: the start].
    #[arg(long, value_name = "FEATURE=VALUE,...", requires = "decision")]
    pub(crate) state: Option<String>,
    /// `text`: a column of lines; `json`: the same content as one JSON document.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
}

/// What `balance` and `sensitivity` share: the scenario, its overrides and
/// variant, and how it runs.
#[derive(clap::Args, Debug)]
pub(crate) struct StudyArgs {
    /// Scenario file (TOML).
    #[arg(value_name = "SCENARIO")]
    pub(crate) scenario: PathBuf,
    /// Override a scenario key first, e.g. --set units.pike.terrain=woods (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub(crate) sets: Vec<String>,
    /// The sweep variant studied, by its label, e.g. `edition=sfo`
    /// [default: the sweep's first].
    #[arg(long, value_name = "LABEL")]
    pub(crate) variant: Option<String>,
    /// Trials per course when a course does not enumerate (Monte Carlo)
    /// [default: the file's `trials`].
    #[arg(long, short = 'n')]
    pub(crate) trials: Option<u64>,
    /// Master seed of Monte Carlo [default: the file's `seed`].
    #[arg(long, short)]
    pub(crate) seed: Option<u64>,
    /// Most paths of die results an exact enumeration may visit.
    #[arg(long, default_value_t = 10_000_000)]
    pub(crate) exact_budget: u64,
    /// Worker threads, 1 to 256 [default: one per core].
    #[arg(long, short = 'j')]
    pub(crate) threads: Option<usize>,
    /// Print no table.
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

impl StudyArgs {
    pub(crate) fn request(&self) -> Result<pikeshot::balance::StudyRequest, Error> {
        Ok(pikeshot::balance::StudyRequest {
            overrides: Overrides::parse(&self.sets)?,
            variant: self.variant.clone(),
            threads: threads_arg(self.threads)?,
            trials: self.trials,
            exact_budget: Some(self.exact_budget),
            seed: self.seed,
        })
    }

    /// `--out`, else `reports/<stem>-<what>/`.
    pub(crate) fn out(&self, out: &Option<PathBuf>, what: &str) -> PathBuf {
        out.clone().unwrap_or_else(|| {
            let stem = self
                .scenario
                .file_stem()
                .map_or("scenario".into(), |s| s.to_string_lossy().into_owned());
            PathBuf::from("reports").join(format!("{stem}-{what}"))
        })
    }
}

#[derive(clap::Args, Debug)]
pub(crate) struct BalanceArgs {
    #[command(flatten)]
    pub(crate) study: StudyArgs,
    /// A key to vary, as --set names it, over every value it accepts, or
    /// KEY=LO..HI, or KEY=A,B,C (repeatable).
    #[arg(long, required = true, value_name = "KEY")]
    pub(crate) vary: Vec<String>,
    /// The target: 'COURSE: NAME = P' (or >= P, <= P), NAME an outcome id,
    /// a key outcome or mean:<measure> as in [[expect]]; or expect[N], the
    /// scenario's own entry N.
    #[arg(long, required = true, value_name = "TARGET")]
    pub(crate) target: String,
    /// With several keys: how close a combination must come, in percentage
    /// points for a probability, in the measure's units for a mean
    /// [default: 1 point; 0.1 for a mean].
    #[arg(long)]
    pub(crate) tolerance: Option<f64>,
    /// Output folder, replaced whole [default: reports/<scenario>-balance/].
    #[arg(long, short)]
    pub(crate) out: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub(crate) struct SensitivityArgs {
    #[command(flatten)]
    pub(crate) study: StudyArgs,
    /// Output folder, replaced whole [default: reports/<scenario>-sensitivity/].
    #[arg(long, short)]
    pub(crate) out: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub(crate) struct DecideArgs {
    /// Scenario file (TOML) with `[[decision]]` tables.
    #[arg(value_name = "SCENARIO")]
    pub(crate) scenario: PathBuf,
    /// Override a scenario key, e.g. --set decision[0].repeat.turns=3 (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub(crate) sets: Vec<String>,
    /// Folder to write each decision's policy.csv and decisions.json into.
    #[arg(long, short)]
    pub(crate) out: Option<PathBuf>,
    /// `text`: the values and the plan in words; `json`: every decision
    /// with every state, as decisions.json.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
}

#[derive(clap::Args, Debug)]
pub(crate) struct ServeArgs {
    /// A folder whose scenario files (every *.toml under it) the page may
    /// load, beside the shipped ones (which are built into the binary).
    #[arg(value_name = "DIR")]
    pub(crate) dir: Option<PathBuf>,
    /// Port to listen on; 0 picks a free one. The address is printed on the
    /// first line of stdout.
    #[arg(long, short, default_value_t = 8631)]
    pub(crate) port: u16,
    /// Address to listen on. Anything but a loopback address (127.0.0.1,
    /// ::1) lets other machines use the page, and prints a warning. A name
    /// given here is one requests may be addressed to, beside localhost and
    /// the address itself (docs/guide/serve.md).
    #[arg(long, default_value = "127.0.0.1")]
    pub(crate) host: String,
    /// Open the page in the default browser.
    #[arg(long)]
    pub(crate) open: bool,
}

#[derive(clap::Args, Debug)]
pub(crate) struct MergeArgs {
    /// The output folders of `pikeshot report DIR --shard I/N` (or of
    /// `merge --partial`), in any order.
    #[arg(required = true, value_name = "SHARD_DIR")]
    pub(crate) shards: Vec<PathBuf>,
    /// The merged report's folder.
    #[arg(long, short, default_value = "reports")]
    pub(crate) out: PathBuf,
    /// Merge only the shards given (some may be missing): the output holds
    /// them with a `shard.json` and merges again like a shard, for a tree
    /// of merges over many shards.
    #[arg(long)]
    pub(crate) partial: bool,
    /// Exit 1, with a table of what failed, when an [[expect]] target failed.
    #[arg(long)]
    pub(crate) check: bool,
}

/// Names from the registry of rule systems, with a line of help each.
pub(crate) fn system_names() -> Vec<(&'static str, String)> {
    systems::Registry::shipped()
        .iter()
        .map(|s| (s.id(), s.name().to_string()))
        .collect()
}

/// Every edition of every system, with its card's title.
pub(crate) fn edition_names() -> Vec<(&'static str, String)> {
    let mut out: Vec<(&'static str, String)> = Vec::new();
    for s in systems::Registry::shipped().iter() {
        for e in s.editions() {
            match out.iter_mut().find(|(id, _)| *id == e.id) {
                Some((_, help)) => help.push_str(&format!("; {}: {}", s.id(), e.card)),
                None => out.push((e.id, format!("{}: {}", s.id(), e.card))),
            }
        }
    }
    out
}

/// A value parser whose possible values (for `--help` and shell
/// completions) come from the registry of rule systems, and which passes
/// any string on: the library refuses an unknown name with its own message
/// (located, with "did you mean").
#[derive(Clone)]
pub(crate) struct RegistryNames(fn() -> Vec<(&'static str, String)>);

impl clap::builder::TypedValueParser for RegistryNames {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new((self.0)().into_iter().map(|(id, help)| {
            clap::builder::PossibleValue::new(id).help(help)
        })))
    }
}

/// `--shard`: a slice given, or `auto`, read from the environment.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ShardArg {
    Fixed(batch::Shard),
    Auto,
}

pub(crate) fn parse_shard(s: &str) -> Result<ShardArg, String> {
    if s == "auto" {
        return Ok(ShardArg::Auto);
    }
    batch::Shard::parse(s)
        .map(ShardArg::Fixed)
        .map_err(|e| format!("{e}, or auto"))
}

// The values of `--kernel`, read into `engine::KernelMode`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum KernelFlag {
    Auto,
    Direct,
}
