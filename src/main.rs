//! The `pikeshot` command line: parse, call the library, map errors to exit codes.

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, Parser};

use pikeshot::batch::diff::{self, DiffRequest};
use pikeshot::batch::{self, ReportRequest, json, merge};
use pikeshot::run::RunRequest;
use pikeshot::targets::{self as expect, CheckRow, VerdictCounts};
use pikeshot::{Error, InputError, report, run, systems};

#[path = "cli/args.rs"]
mod args;
use args::*;

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
fn suggest_fixes(
    done: &[run::Finished],
    req: &RunRequest,
    threads: &mut Option<pikeshot::engine::Threads>,
) -> Result<(), Error> {
    let mut first = true;
    for f in done {
        for c in f.checks.iter().filter(|c| !c.verdict.passes()) {
            if first {
                out("\n== smallest single change for each failed target\n")?;
                first = false;
            }
            let threads = match threads {
                Some(t) => &*t,
                None => threads.insert(req.plan.threads()?),
            };
            let s = pikeshot::balance::suggest(&f.path, &req.plan.overrides, c, threads)?;
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
            req.show.out = a.out;
            // The command's one pool: started by the run, and the
            // suggestions under --check run on it.
            let mut threads = None;
            let done = run::run_checked_with(&req, &mut threads)?;
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
                suggest_fixes(&done, &req, &mut threads)?;
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
        Command::Explain(a) if a.decision.is_some() => {
            use pikeshot::explain::decision;
            let state = decision::parse_state(a.state.as_deref().unwrap_or(""))?;
            let e = decision::explain_decision_path(
                &a.scenario,
                &pikeshot::scenario::Overrides::parse(&a.sets)?,
                &a.variant,
                a.decision.as_deref().unwrap_or_default(),
                &state,
            )?;
            match a.format {
                Format::Text => out(decision::render(&e))?,
                Format::Json => out(decision::json(&e))?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Explain(a) => {
            let req = pikeshot::explain::ExplainRequest {
                overrides: pikeshot::scenario::Overrides::parse(&a.sets)?,
                courses: a.course,
                variants: a.variant,
                ..Default::default()
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
            let overrides = pikeshot::scenario::Overrides::parse(&a.sets)?;
            let d = pikeshot::run::decide::decide_path(&a.scenario, &overrides)?;
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
            if let Some(line) =
                systems::Registry::shipped().card_line(&system, edition.as_deref())?
            {
                out(format!("{line}\n\n"))?;
            }
            out(systems::Registry::shipped().tables(
                &system,
                edition.as_deref(),
                table.as_deref(),
            )?)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::List { system } => {
            out(systems::Registry::shipped().list(system.as_deref())?)?;
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
