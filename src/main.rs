//! The `pikeshot` command line: parse, call the library, map errors to exit codes.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use pikeshot::engine::KernelMode;
use pikeshot::run::RunRequest;
use pikeshot::{Error, report, run, systems};

/// The odds for pike-and-shot wargames: resolves a fight millions of times in
/// parallel, computes the exact answer where the dice allow, and writes the
/// outcome distributions to CSV with histograms beside them.
#[derive(Parser, Debug)]
#[command(name = "pikeshot", version, about, long_about = None)]
#[command(
    after_help = "Exit codes: 0 done, 2 bad input (the message names the file, line and key).\n\
Examples:\n  pikeshot run scenarios/mpbs/charge-or-salvo.toml\n  \
pikeshot run scenarios/mpbs/cuirassiers-vs-pike.toml --exact --set units.pike.terrain=woods\n  \
pikeshot tables mpbs --edition sfo close-combat\n  pikeshot list mpbs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Resolve scenario files and write outcomes.csv, measures.csv, summary.csv,
    /// timing.csv and a PNG and SVG histogram per course.
    Run(RunArgs),
    /// Print a system's charts as transcribed, laid out like the card.
    Tables {
        /// Rule system (mpbs).
        system: String,
        /// Edition (mpbs: sfo or series).
        #[arg(long, short)]
        edition: Option<String>,
        /// One chart by id (default: all; `pikeshot list SYSTEM` names them).
        table: Option<String>,
    },
    /// Name the procedures, unit kinds, terrain, modifiers and outcome labels.
    List {
        /// Rule system (default: all).
        system: Option<String>,
    },
}

#[derive(clap::Args, Debug)]
struct RunArgs {
    /// Scenario files (TOML).
    #[arg(required = true, value_name = "SCENARIO")]
    scenarios: Vec<PathBuf>,
    /// Trials per course and variant [default: the file's `trials`, else 1000000].
    #[arg(long, short = 'n', conflicts_with = "precision")]
    trials: Option<u64>,
    /// Run in rounds until every reported probability's 95% interval
    /// half-width is at most E (e.g. 0.001), capped by --max-trials.
    #[arg(long, value_name = "E")]
    precision: Option<f64>,
    /// Cap on trials per course in --precision mode.
    #[arg(long, default_value_t = 100_000_000, requires = "precision")]
    max_trials: u64,
    /// Master seed [default: the file's `seed`, else 1].
    #[arg(long, short)]
    seed: Option<u64>,
    /// Also compute exact probabilities (the `exact` column).
    #[arg(long)]
    exact: bool,
    /// Most paths of die results an exact enumeration may visit.
    #[arg(long, default_value_t = 10_000_000)]
    exact_budget: u64,
    /// Override a scenario key, e.g. --set units.tercio.terrain=woods (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// Output folder [default: reports/<scenario>/; with several scenarios,
    /// one sub-folder each].
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Worker threads [default: one per core]. Results do not depend on it.
    #[arg(long, short = 'j')]
    threads: Option<usize>,
    /// How trials are resolved: `auto` folds small procedures into a table
    /// first; `direct` replays the procedure for every trial.
    #[arg(long, value_enum, default_value_t = Kernel::Auto)]
    kernel: Kernel,
    /// Print no table on the terminal.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Kernel {
    Auto,
    Direct,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match dispatch(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn dispatch(cli: Cli) -> Result<(), Error> {
    match cli.command {
        Command::Run(a) => {
            if let Some(e) = a.precision
                && !(e > 0.0 && e < 0.5)
            {
                return Err(Error::input(format!(
                    "--precision {e} is out of range; accepted: a half-width between 0 and 0.5, e.g. 0.001"
                )));
            }
            if a.trials == Some(0) {
                return Err(Error::input(
                    "--trials 0: accepted: a whole number of at least 1",
                ));
            }
            let req = RunRequest {
                scenarios: a.scenarios,
                trials: a.trials,
                seed: a.seed,
                precision: a.precision,
                max_trials: Some(a.max_trials),
                threads: a.threads.unwrap_or(0),
                exact: a.exact,
                exact_budget: Some(a.exact_budget),
                sets: a.sets,
                out: a.out,
                kernel: match a.kernel {
                    Kernel::Auto => KernelMode::Auto,
                    Kernel::Direct => KernelMode::Direct,
                },
                progress: true,
            };
            for (r, dir) in run::run_all(&req)? {
                if !a.quiet {
                    print!("{}", report::terminal_table(&r));
                }
                eprintln!("wrote {}", dir.display());
            }
            Ok(())
        }
        Command::Tables {
            system,
            edition,
            table,
        } => {
            print!(
                "{}",
                systems::tables(&system, edition.as_deref(), table.as_deref())?
            );
            Ok(())
        }
        Command::List { system } => {
            print!("{}", systems::list(system.as_deref())?);
            Ok(())
        }
    }
}
