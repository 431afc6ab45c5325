//! The `pikeshot` command line: parse, call the library, map errors to exit codes.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};

use pikeshot::batch::diff::{self, DiffRequest};
use pikeshot::batch::{self, ReportRequest, json, merge};
use pikeshot::engine::KernelMode;
use pikeshot::run::{Method, RunRequest};
use pikeshot::targets::{self as expect, CheckRow, VerdictCounts};
use pikeshot::{Error, InputError, report, run, systems};

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
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
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
struct RunFlags {
    /// Trials per course and variant, 1 to 10000000000 [default: the file's
    /// `trials`, else 1000000].
    #[arg(long, short = 'n', conflicts_with = "precision")]
    trials: Option<u64>,
    /// Run in rounds, from one chunk of 65,536 trials and doubling, until
    /// every reported probability's 95% interval half-width is at most E
    /// (e.g. 0.001), capped by --max-trials (a warning says when the cap
    /// stops it short). Not with --trials.
    #[arg(long, value_name = "E")]
    precision: Option<f64>,
    /// Cap on trials per course in --precision mode, honoured exactly (1 to
    /// 10000000000).
    #[arg(long, default_value_t = 100_000_000, requires = "precision")]
    max_trials: u64,
    /// Master seed, 0 to 9223372036854775807 [default: the file's `seed`,
    /// else 1].
    #[arg(long, short)]
    seed: Option<u64>,
    /// How the figures are found: `auto` (exact for each variant whose
    /// courses all enumerate within --exact-budget, no trials; otherwise
    /// trials with the exact column where it fits), `exact` (no trials: a
    /// course that does not enumerate is an error naming it), `both`
    /// (trials, and the exact column where it fits) or `monte-carlo`
    /// (trials only) [default: auto; monte-carlo when --trials or
    /// --precision is given, both with --exact].
    #[arg(long, value_enum, conflicts_with = "exact")]
    method: Option<MethodArg>,
    /// Also compute exact probabilities (the `exact` column): the same as
    /// `--method both`.
    #[arg(long)]
    exact: bool,
    /// Which plots to draw: `all` (each course's histogram, each
    /// engagement's turn plots, the comparison charts, the sweep charts,
    /// and explain.json), `summary` (the sweep charts, and each variant's
    /// comparison charts when there are at most 20 variants; no
    /// explain.json) or `none` (CSV files only)
    /// [default: all; summary for a sweep of more than 20 variants].
    #[arg(long, value_enum)]
    plots: Option<PlotsArg>,
    /// Most paths of die results an exact enumeration may visit (at least 1).
    #[arg(long, default_value_t = 10_000_000)]
    exact_budget: u64,
    /// Override a scenario key, e.g. --set units.tercio.terrain=woods (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// Worker threads, 1 to 256 [default: one per core]. Results do not
    /// depend on it.
    #[arg(long, short = 'j')]
    threads: Option<usize>,
    /// How trials are resolved: `auto` folds small procedures into a table
    /// first; `direct` replays the procedure for every trial.
    #[arg(long, value_enum, default_value_t = KernelFlag::Auto)]
    kernel: KernelFlag,
    /// `run` writes a sweep of more variants than this as it runs
    /// (compressed tables, no per-variant plot): lowered by tests.
    #[arg(long, hide = true, value_name = "N")]
    stream_sweeps_above: Option<usize>,
}

impl RunFlags {
    /// The run request these flags ask for (no scenarios, no output
    /// folder); `quiet`: no estimate and no progress either.
    fn request(&self, quiet: bool) -> Result<RunRequest, Error> {
        if let Some(e) = self.precision
            && !(e > 0.0 && e < 0.5)
        {
            return Err(Error::input(format!(
                "--precision {e} is out of range; accepted: a half-width between 0 and 0.5, e.g. 0.001"
            )));
        }
        if self.threads == Some(0) {
            return Err(
                pikeshot::error::InputError::new("0 threads cannot run anything")
                    .key("--threads")
                    .accepted(format!(
                        "a whole number from 1 to {}; leave --threads out for one per core",
                        pikeshot::scenario::limits::MAX_THREADS
                    ))
                    .into(),
            );
        }
        let mut req = RunRequest {
            scenarios: Vec::new(),
            trials: self.trials,
            seed: self.seed,
            precision: self.precision,
            max_trials: Some(self.max_trials),
            threads: self.threads.unwrap_or(0),
            exact: false,
            exact_only: false,
            auto: false,
            plots: self.plots.map(|p| match p {
                PlotsArg::All => report::Plots::All,
                PlotsArg::Summary => report::Plots::Summary,
                PlotsArg::None => report::Plots::None,
            }),
            exact_budget: Some(self.exact_budget),
            sets: self.sets.clone(),
            out: None,
            kernel: match self.kernel {
                KernelFlag::Auto => KernelMode::Auto,
                KernelFlag::Direct => KernelMode::Direct,
            },
            progress: !quiet,
            stream_above: self.stream_sweeps_above,
            control: None,
        };
        req.set_method(Method::resolve(
            self.method.map(MethodArg::method),
            self.exact,
            self.trials.is_some() || self.precision.is_some(),
        ));
        Ok(req)
    }
}

/// `--method`, read into [`Method`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum MethodArg {
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
    fn method(self) -> Method {
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
enum PlotsArg {
    /// Every plot, and explain.json.
    All,
    /// The sweep charts, and the comparison charts of at most 20 variants.
    Summary,
    /// No plot.
    None,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Tables on the terminal.
    Text,
    /// One JSON document on stdout.
    Json,
}

/// What run, report and diff print and how they exit: shared by the three.
#[derive(clap::Args, Debug)]
struct ResultFlags {
    /// Exit 1, with a table of what failed, when an [[expect]] target fails
    /// (under either edition, for diff); `run` also prints, unless -q, the
    /// smallest single change of one key that brings each back into range.
    #[arg(long)]
    check: bool,
    /// `text`: tables (report: a summary line) on the terminal; `json`: one
    /// JSON document on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Print nothing but errors, and the table of failed targets when a
    /// target fails: no table, summary or "wrote" line, estimate or
    /// progress.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(clap::Args, Debug)]
struct RunArgs {
    /// Scenario files (TOML).
    #[arg(required = true, value_name = "SCENARIO")]
    scenarios: Vec<PathBuf>,
    #[command(flatten)]
    flags: RunFlags,
    /// Output folder, replaced whole: a new or empty folder, or one pikeshot
    /// wrote [default: reports/<scenario>/; with several scenarios, one
    /// sub-folder each].
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Print every variant's tables of a sweep before its summary (by
    /// default a sweep prints its summary table across the variants and
    /// the files written).
    #[arg(long)]
    detail: bool,
    #[command(flatten)]
    result: ResultFlags,
}

#[derive(clap::Args, Debug)]
struct ReportArgs {
    /// Folder of scenario files (every *.toml under it, recursively).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Report folder: one sub-folder per scenario, mirroring its path, each
    /// replaced whole; folders of scenarios that are gone are removed, your
    /// own files are left alone.
    #[arg(long, short, default_value = "reports")]
    out: PathBuf,
    /// Run only slice I of N of the sorted scenario list (for a CI matrix;
    /// combine the slices with `pikeshot merge`). `auto` reads it from the
    /// scheduler: a Slurm job array (SLURM_ARRAY_TASK_ID, _MIN, _MAX,
    /// _STEP or _COUNT), a Kubernetes Indexed Job (JOB_COMPLETION_INDEX,
    /// with --shards N or PIKESHOT_SHARDS) or PIKESHOT_SHARD=I/N.
    #[arg(long, value_name = "I/N|auto", value_parser = parse_shard)]
    shard: Option<ShardArg>,
    /// How many shards a Kubernetes Indexed Job has (its completions), for
    /// `--shard auto`.
    #[arg(long, value_name = "N", requires = "shard")]
    shards: Option<u32>,
    #[command(flatten)]
    result: ResultFlags,
    #[command(flatten)]
    flags: RunFlags,
}

#[derive(clap::Args, Debug)]
struct DiffArgs {
    /// Scenario file (of a system with editions).
    #[arg(value_name = "SCENARIO")]
    scenario: PathBuf,
    /// The edition compared from [default: the system's oldest, e.g. sfo].
    #[arg(long, value_parser = RegistryNames(edition_names))]
    from: Option<String>,
    /// The edition compared to [default: the system's newest, e.g. series].
    #[arg(long, value_parser = RegistryNames(edition_names))]
    to: Option<String>,
    /// Output folder [default: reports/<scenario>-diff/].
    #[arg(long, short)]
    out: Option<PathBuf>,
    #[command(flatten)]
    result: ResultFlags,
    #[command(flatten)]
    flags: RunFlags,
}

#[derive(clap::Args, Debug)]
struct ExplainArgs {
    /// Scenario file (TOML).
    #[arg(value_name = "SCENARIO")]
    scenario: PathBuf,
    /// Override a scenario key, e.g. --set edition=series (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// Explain only this course (repeatable; default: every course).
    #[arg(long, value_name = "NAME")]
    course: Vec<String>,
    /// Explain only this variant of a sweep, by its label, e.g.
    /// `edition=sfo` (repeatable; default: every variant).
    #[arg(long, value_name = "LABEL")]
    variant: Vec<String>,
    /// `text`: a column of lines; `json`: the same content as one JSON document.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// What `balance` and `sensitivity` share: the scenario, its overrides and
/// variant, and how it runs.
#[derive(clap::Args, Debug)]
struct StudyArgs {
    /// Scenario file (TOML).
    #[arg(value_name = "SCENARIO")]
    scenario: PathBuf,
    /// Override a scenario key first, e.g. --set units.pike.terrain=woods (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// The sweep variant studied, by its label, e.g. `edition=sfo`
    /// [default: the sweep's first].
    #[arg(long, value_name = "LABEL")]
    variant: Option<String>,
    /// Trials per course when a course does not enumerate (Monte Carlo)
    /// [default: the file's `trials`].
    #[arg(long, short = 'n')]
    trials: Option<u64>,
    /// Master seed of Monte Carlo [default: the file's `seed`].
    #[arg(long, short)]
    seed: Option<u64>,
    /// Most paths of die results an exact enumeration may visit.
    #[arg(long, default_value_t = 10_000_000)]
    exact_budget: u64,
    /// Worker threads, 1 to 256 [default: one per core].
    #[arg(long, short = 'j')]
    threads: Option<usize>,
    /// Print no table.
    #[arg(long, short)]
    quiet: bool,
}

impl StudyArgs {
    fn request(&self) -> Result<pikeshot::balance::StudyRequest, Error> {
        if self.threads == Some(0) {
            return Err(
                pikeshot::error::InputError::new("0 threads cannot run anything")
                    .key("--threads")
                    .accepted(format!(
                        "a whole number from 1 to {}; leave --threads out for one per core",
                        pikeshot::scenario::limits::MAX_THREADS
                    ))
                    .into(),
            );
        }
        Ok(pikeshot::balance::StudyRequest {
            sets: self.sets.clone(),
            variant: self.variant.clone(),
            threads: self.threads.unwrap_or(0),
            trials: self.trials,
            exact_budget: Some(self.exact_budget),
            seed: self.seed,
        })
    }

    /// `--out`, else `reports/<stem>-<what>/`.
    fn out(&self, out: &Option<PathBuf>, what: &str) -> PathBuf {
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
struct BalanceArgs {
    #[command(flatten)]
    study: StudyArgs,
    /// A key to vary, as --set names it, over every value it accepts, or
    /// KEY=LO..HI, or KEY=A,B,C (repeatable).
    #[arg(long, required = true, value_name = "KEY")]
    vary: Vec<String>,
    /// The target: 'COURSE: NAME = P' (or >= P, <= P), NAME an outcome id,
    /// a key outcome or mean:<measure> as in [[expect]]; or expect[N], the
    /// scenario's own entry N.
    #[arg(long, required = true, value_name = "TARGET")]
    target: String,
    /// With several keys: how close a combination must come, in percentage
    /// points for a probability, in the measure's units for a mean
    /// [default: 1 point; 0.1 for a mean].
    #[arg(long)]
    tolerance: Option<f64>,
    /// Output folder, replaced whole [default: reports/<scenario>-balance/].
    #[arg(long, short)]
    out: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct SensitivityArgs {
    #[command(flatten)]
    study: StudyArgs,
    /// Output folder, replaced whole [default: reports/<scenario>-sensitivity/].
    #[arg(long, short)]
    out: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct DecideArgs {
    /// Scenario file (TOML) with `[[decision]]` tables.
    #[arg(value_name = "SCENARIO")]
    scenario: PathBuf,
    /// Override a scenario key, e.g. --set decision[0].repeat.turns=3 (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// Folder to write each decision's policy.csv and decisions.json into.
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// `text`: the values and the plan in words; `json`: every decision
    /// with every state, as decisions.json.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(clap::Args, Debug)]
struct ServeArgs {
    /// A folder whose scenario files (every *.toml under it) the page may
    /// load, beside the shipped ones (which are built into the binary).
    #[arg(value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Port to listen on; 0 picks a free one. The address is printed on the
    /// first line of stdout.
    #[arg(long, short, default_value_t = 8631)]
    port: u16,
    /// Address to listen on. Anything but a loopback address (127.0.0.1,
    /// ::1) lets other machines use the page, and prints a warning. A name
    /// given here is one requests may be addressed to, beside localhost and
    /// the address itself (docs/guide/serve.md).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
}

#[derive(clap::Args, Debug)]
struct MergeArgs {
    /// The output folders of `pikeshot report DIR --shard I/N` (or of
    /// `merge --partial`), in any order.
    #[arg(required = true, value_name = "SHARD_DIR")]
    shards: Vec<PathBuf>,
    /// The merged report's folder.
    #[arg(long, short, default_value = "reports")]
    out: PathBuf,
    /// Merge only the shards given (some may be missing): the output holds
    /// them with a `shard.json` and merges again like a shard, for a tree
    /// of merges over many shards.
    #[arg(long)]
    partial: bool,
    /// Exit 1, with a table of what failed, when an [[expect]] target failed.
    #[arg(long)]
    check: bool,
}

/// Names from the registry of rule systems, with a line of help each.
fn system_names() -> Vec<(&'static str, String)> {
    systems::SYSTEMS
        .iter()
        .map(|s| (s.id(), s.name().to_string()))
        .collect()
}

/// Every edition of every system, with its card's title.
fn edition_names() -> Vec<(&'static str, String)> {
    let mut out: Vec<(&'static str, String)> = Vec::new();
    for s in systems::SYSTEMS {
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
struct RegistryNames(fn() -> Vec<(&'static str, String)>);

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
enum ShardArg {
    Fixed(batch::Shard),
    Auto,
}

fn parse_shard(s: &str) -> Result<ShardArg, String> {
    if s == "auto" {
        return Ok(ShardArg::Auto);
    }
    batch::Shard::parse(s)
        .map(ShardArg::Fixed)
        .map_err(|e| format!("{e}, or auto"))
}

// The values of `--kernel`, read into `engine::KernelMode`.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum KernelFlag {
    Auto,
    Direct,
}

fn main() -> ExitCode {
    keep_heaps();
    let cli = Cli::parse();
    match dispatch(cli) {
        Ok(code) => code,
        // The reader went away (`pikeshot list | head -1`): nothing is wrong.
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// Writes `text` to standard output through one lock. A closed pipe comes
/// back as an [`Error::Io`] that [`Error::is_broken_pipe`] recognises, so
/// `main` ends quietly with exit 0 instead of panicking in `print!`.
fn out(text: impl AsRef<[u8]>) -> Result<(), Error> {
    let mut lock = std::io::stdout().lock();
    lock.write_all(text.as_ref())
        .and_then(|()| lock.flush())
        .map_err(|e| Error::io("<stdout>", e))
}

/// What a run wrote into `dir`, under a heading: its tables and records
/// by name, its charts counted (hidden files left out); empty when the
/// folder cannot be read.
fn files_written(dir: &std::path::Path) -> String {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return String::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    let charts = names
        .iter()
        .filter(|n| n.ends_with(".png") || n.ends_with(".svg"))
        .count();
    names.retain(|n| !(n.ends_with(".png") || n.ends_with(".svg")));
    let mut text = format!("\nwrote {}: {}", dir.display(), names.join(", "));
    if charts > 0 {
        text.push_str(&format!(", and {charts} charts (PNG and SVG)"));
    }
    text.push_str("\n(--detail prints each variant's tables)\n");
    text
}

/// The targets checked on scenario `file`, as the rows of the failure table.
fn check_rows(file: &str, checks: &[expect::Checked]) -> Vec<CheckRow> {
    let header: Vec<String> = expect::EXPECT_HEADER.map(String::from).to_vec();
    expect::expect_rows(file, checks)
        .iter()
        .map(|r| CheckRow::from_record(file, &header, r))
        .collect()
}

/// Prints the verdicts of `rows` on stderr: a count, and the table of what
/// failed; with `quiet`, nothing unless a target failed. Returns the exit
/// code: 1 when `check` and something failed.
fn verdicts(rows: &[CheckRow], check: bool, quiet: bool) -> ExitCode {
    if quiet && !rows.iter().any(CheckRow::failed) {
        return ExitCode::SUCCESS;
    }
    if rows.is_empty() {
        if check {
            eprintln!("targets: none ([[expect]] entries pin targets; see the README)");
        }
        return ExitCode::SUCCESS;
    }
    let tally = VerdictCounts::of(rows);
    eprintln!("{}", tally.line());
    if tally.fail == 0 {
        return ExitCode::SUCCESS;
    }
    let failed: Vec<CheckRow> = rows.iter().filter(|r| r.failed()).cloned().collect();
    eprintln!(
        "{}:",
        if check {
            "FAILED"
        } else {
            "failed (exit code 0 without --check)"
        }
    );
    eprint!("{}", expect::table(&failed));
    if check {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Under `--check`, prints (on stdout, after the tables) for each failed
/// target the smallest single change of one key that brings it back into
/// range, or that none does.
fn suggest_fixes(done: &[run::Finished], req: &RunRequest) -> Result<(), Error> {
    let mut first = true;
    for f in done {
        for c in f.checks.iter().filter(|c| !c.verdict.passes()) {
            if first {
                out("\n== smallest single change for each failed target\n")?;
                first = false;
            }
            let s = pikeshot::balance::suggest(&f.path, &req.sets, c, req.threads)?;
            out(format!("  {}: {}\n", f.path.display(), s.line()))?;
        }
    }
    Ok(())
}

fn dispatch(cli: Cli) -> Result<ExitCode, Error> {
    match cli.command {
        Command::Run(a) => {
            let ResultFlags {
                check,
                format,
                quiet,
            } = a.result;
            let mut req = a.flags.request(quiet)?;
            req.scenarios = a.scenarios;
            req.out = a.out;
            let done = run::run_checked(&req)?;
            let mut rows = Vec::new();
            let mut docs = Vec::new();
            for f in &done {
                let file = f.path.display().to_string();
                let mine = check_rows(&file, &f.checks);
                match format {
                    Format::Json => docs.push(json::scenario(
                        &file,
                        &f.dir.display().to_string(),
                        &f.run,
                        &f.checks,
                    )),
                    Format::Text if !quiet && f.streamed => out(format!(
                        "{}: {} variants, too many to print; their figures are in {} \
                         (sweep.csv.gz: every key outcome by variant and course)\n",
                        f.run.id.name,
                        f.run.sweep.as_ref().map_or(0, |s| s.points.len()),
                        f.dir.display()
                    ))?,
                    Format::Text if !quiet => {
                        match report::terminal::sweep::sweep_summary(&f.run) {
                            Some(summary) if !a.detail => {
                                out(report::terminal::title(&f.run))?;
                                out(summary)?;
                                out(files_written(&f.dir))?;
                            }
                            Some(summary) => {
                                out(report::terminal_table(&f.run))?;
                                out(summary)?;
                            }
                            None => out(report::terminal_table(&f.run))?,
                        }
                        if f.has_expects {
                            out("\n== targets\n")?;
                            if mine.is_empty() {
                                out("  none applies to this run\n")?;
                            } else {
                                out(expect::table(&mine))?;
                            }
                        }
                    }
                    Format::Text => {}
                }
                for w in &f.warnings {
                    eprintln!("{w}");
                }
                if !quiet {
                    eprintln!("wrote {}", f.dir.display());
                }
                rows.extend(mine);
            }
            if format == Format::Json {
                out(json::to_string(&json::document(docs)))?;
            }
            let code = verdicts(&rows, check, quiet);
            if check && format == Format::Text && !quiet {
                suggest_fixes(&done, &req)?;
            }
            Ok(code)
        }
        Command::Report(a) => {
            let req = ReportRequest {
                dir: a.dir,
                out: a.out,
                run: a.flags.request(a.result.quiet)?,
                shard: match a.shard {
                    None => None,
                    Some(ShardArg::Fixed(s)) => Some(s),
                    Some(ShardArg::Auto) => Some(
                        batch::scheduler::from_env(|k| std::env::var(k).ok(), a.shards)
                            .map_err(InputError::new)?,
                    ),
                },
                json: a.result.format == Format::Json,
            };
            let r = batch::report(&req)?;
            if let Some(doc) = &r.json {
                out(json::to_string(doc))?;
            }
            let shard = req
                .shard
                .map_or_else(String::new, |s| format!(" (shard {}/{})", s.index, s.count));
            if !a.result.quiet {
                eprintln!(
                    "wrote {} scenario{}{shard} to {}; open {}",
                    r.entries.len(),
                    if r.entries.len() == 1 { "" } else { "s" },
                    req.out.display(),
                    req.out.join(batch::site::INDEX).display()
                );
            }
            Ok(verdicts(&r.site.checks, a.result.check, a.result.quiet))
        }
        Command::Diff(a) => {
            let req = DiffRequest {
                scenario: a.scenario,
                from: a.from,
                to: a.to,
                run: a.flags.request(a.result.quiet)?,
                out: a.out,
            };
            let (d, checks) = diff::diff(&req)?;
            let rows = check_rows(&req.scenario.display().to_string(), &checks);
            match a.result.format {
                Format::Json => out(json::to_string(&json::diff(&d, &checks)))?,
                Format::Text if !a.result.quiet => out(diff::terminal(&d))?,
                Format::Text => {}
            }
            if !a.result.quiet {
                eprintln!("wrote {}", d.dir.display());
            }
            Ok(verdicts(&rows, a.result.check, a.result.quiet))
        }
        Command::Explain(a) => {
            let req = pikeshot::explain::ExplainRequest {
                sets: a.sets,
                courses: a.course,
                variants: a.variant,
            };
            let e = pikeshot::explain::explain_path(&a.scenario, &req)?;
            match a.format {
                Format::Text => out(pikeshot::explain::text::render(&e))?,
                // Streamed: the document of a long course is megabytes.
                Format::Json => {
                    let stdout = std::io::BufWriter::new(std::io::stdout().lock());
                    pikeshot::explain::write_json_to(&e, stdout)
                        .map_err(|err| Error::io("<stdout>", err))?
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Decide(a) => {
            let d = pikeshot::run::decide::decide_path(&a.scenario, &a.sets)?;
            if let Some(dir) = &a.out {
                for p in report::decision::write(&d, dir)? {
                    eprintln!("wrote {}", p.display());
                }
            }
            match a.format {
                Format::Text => out(report::decision::render(&d))?,
                Format::Json => out(report::decision::json(&d))?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Merge(a) => {
            let site = merge::merge(&a.shards, &a.out, a.partial)?;
            eprintln!(
                "merged {} shard{} into {}",
                a.shards.len(),
                if a.shards.len() == 1 { "" } else { "s" },
                a.out.display()
            );
            Ok(verdicts(&site.checks, a.check, false))
        }
        Command::Tables {
            system,
            edition,
            table,
        } => {
            if let Some(line) = systems::card_line(&system, edition.as_deref())? {
                out(format!("{line}\n\n"))?;
            }
            out(systems::tables(
                &system,
                edition.as_deref(),
                table.as_deref(),
            )?)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::List { system } => {
            out(systems::list(system.as_deref())?)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Serve(a) => {
            pikeshot::serve::serve(&pikeshot::serve::ServeOptions {
                host: a.host,
                port: a.port,
                open: a.open,
                dir: a.dir,
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Balance(a) => {
            let study = pikeshot::balance::Study::open(&a.study.scenario, &a.study.request()?)?;
            let file = a.study.scenario.display().to_string();
            let goal =
                pikeshot::balance::target::parse(&a.target, &study.base, &study.expects, &file)?;
            let tolerance = match (a.tolerance, goal.is_probability()) {
                (Some(t), true) => t / 100.0,
                (Some(t), false) => t,
                (None, true) => 0.01,
                (None, false) => 0.1,
            };
            if !(tolerance.is_finite() && tolerance >= 0.0) {
                return Err(pikeshot::InputError::new(format!(
                    "--tolerance {} is not a distance",
                    a.tolerance.unwrap_or_default()
                ))
                .key("--tolerance")
                .accepted("a number of at least 0, e.g. 1 (percentage point)")
                .into());
            }
            let b = pikeshot::balance::balance(&study, &a.vary, goal, tolerance)?;
            let dir = a.study.out(&a.out, "balance");
            pikeshot::balance::write_balance(&dir, &b)?;
            if !a.study.quiet {
                out(pikeshot::balance::balance_text(&b))?;
            }
            eprintln!("wrote {}", dir.display());
            Ok(ExitCode::SUCCESS)
        }
        Command::Sensitivity(a) => {
            let study = pikeshot::balance::Study::open(&a.study.scenario, &a.study.request()?)?;
            let s = pikeshot::balance::sensitivity(&study)?;
            let dir = a.study.out(&a.out, "sensitivity");
            pikeshot::balance::write_sensitivity(&dir, &s)?;
            if !a.study.quiet {
                out(pikeshot::balance::sensitivity_text(&s))?;
            }
            eprintln!("wrote {}", dir.display());
            Ok(ExitCode::SUCCESS)
        }
        Command::Completions { shell } => {
            let mut cmd = Cli::command();
            // Into memory first: clap_complete panics on a failed write.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut cmd, "pikeshot", &mut script);
            out(script)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Bytes glibc keeps at the top of a heap beyond what it needs (its
/// `M_TOP_PAD`, 128 KiB by default).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const HEAP_PAD: i32 = 64 << 20;

/// Keeps glibc's heaps from shrinking and growing again all the time.
/// Building a course allocates and frees megabytes; with the default pad,
/// a worker thread's heap gives those pages back after each build and
/// faults them in again for the next, and once a second thread runs, each
/// page given back interrupts the other core to flush its TLB. On the
/// 40-variant sweep of `scripts/speedup.sh` that cost a third more system
/// time and 12% more CPU time on two threads than on one; with the pad,
/// the two threads take the CPU time of one. The pad is address space
/// kept for reuse, filled only as the run needs it. Set by the program,
/// not the library, so that a program embedding the library keeps its own
/// allocator settings; a no-op off glibc.
fn keep_heaps() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: mallopt sets one of the allocator's tunables; glibc takes
        // its own lock, and any value is valid for M_TOP_PAD. Called once,
        // before any other thread starts.
        unsafe {
            libc::mallopt(libc::M_TOP_PAD, HEAP_PAD);
        }
    }
}
