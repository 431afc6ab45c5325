//! Writing a run: the output folders a run claims and names, `run.json`,
//! and running every scenario of a request into them.

use super::*;

/// The `run.json` of a prepared scenario run with `req`.
pub fn record(p: &Prepared, req: &RunRequest) -> Result<report::record::RunRecord> {
    let bytes =
        std::fs::read(&p.file.path).map_err(|e| crate::error::Error::io(&p.file.path, e))?;
    Ok(report::record::RunRecord {
        pikeshot: env!("CARGO_PKG_VERSION").to_string(),
        command: report::record::command_line(),
        scenario: p.file.path.display().to_string(),
        sha256: report::record::sha256_hex(&bytes),
        sets: req.plan.overrides.texts(),
        seed: p.id.seed,
        // No trial is run under `--method exact`.
        trials: if req.plan.method == Method::Exact {
            0
        } else {
            p.trials
        },
        exact: req.plan.method.exact(),
        method: req.plan.method.name().to_string(),
        plots: req.show.plots_for(p).0.name().to_string(),
        kernel: format!("{:?}", req.plan.kernel).to_lowercase(),
        variants: p.variants.clone(),
    })
}

/// The output folder of a scenario.
pub fn out_dir(show: &Presentation, stem: &str, several: bool) -> PathBuf {
    match (&show.out, several) {
        (Some(o), false) => o.clone(),
        (Some(o), true) => o.join(stem),
        (None, _) => PathBuf::from("reports").join(stem),
    }
}

/// The folder names of the scenarios of one run: each file's stem, and
/// where two stems are alike (`hakkaa/fire-or-charge.toml` and
/// `snaphance/fire-or-charge.toml`) the name of the folder holding the
/// file before it (`hakkaa-fire-or-charge`), then `-2`, `-3`… until every
/// name differs.
pub fn folder_names(paths: &[&Path]) -> Vec<String> {
    let stem = |p: &Path| {
        p.file_stem()
            .map_or_else(|| "scenario".into(), |s| s.to_string_lossy().into_owned())
    };
    let stems: Vec<String> = paths.iter().map(|p| stem(p)).collect();
    let mut out: Vec<String> = Vec::with_capacity(paths.len());
    for (p, s) in paths.iter().zip(&stems) {
        let mut base = s.clone();
        if stems.iter().filter(|x| *x == s).count() > 1
            && let Some(parent) = p.parent().and_then(Path::file_name)
        {
            base = format!("{}-{s}", parent.to_string_lossy());
        }
        let mut name = base.clone();
        let mut k = 2;
        while out.contains(&name) {
            name = format!("{base}-{k}");
            k += 1;
        }
        out.push(name);
    }
    out
}

/// Runs every scenario of a request: all are validated (and the output
/// folders checked) before any is resolved, so bad input writes nothing.
/// Returns the runs and the folders written.
pub fn run_all(req: &RunRequest) -> Result<Vec<(ScenarioRun, PathBuf)>> {
    Ok(run_checked(req)?
        .into_iter()
        .map(|f| (f.run, f.dir))
        .collect())
}

/// A scenario resolved, written and checked against its targets.
pub struct Finished {
    /// The run.
    pub run: ScenarioRun,
    /// Its scenario file, as given.
    pub path: PathBuf,
    /// The folder written.
    pub dir: PathBuf,
    /// Whether the file has `[[expect]]` entries.
    pub has_expects: bool,
    /// Every target checked against every course it applies to.
    pub checks: Vec<Checked>,
    /// What the caller should tell the user (a `--precision` target that
    /// `--max-trials` stopped short of).
    pub warnings: Vec<String>,
    /// Whether the sweep was written as it ran ([`STREAM_ABOVE`]): `run`
    /// then holds no course (the folder has every figure).
    pub streamed: bool,
}

/// A warning for each course whose `--precision` target `--max-trials`
/// stopped the run short of.
pub fn precision_warnings(run: &ScenarioRun, plan: &RunPlan) -> Vec<String> {
    let Some(e) = plan.precision.filter(|_| plan.method != Method::Exact) else {
        return Vec::new();
    };
    run.courses
        .iter()
        .filter_map(|c| {
            let worst = crate::stats::worst_half_width(&c.space, &c.tally.counts, c.tally.trials);
            (worst > e).then(|| {
                let within = if c.variant.is_empty() {
                    String::new()
                } else {
                    format!(" (variant {})", c.variant)
                };
                format!(
                    "warning: course \"{}\"{within} stopped at --max-trials {} with a 95% half-width of {:.5}, \
                     above --precision {e}; raise --max-trials for the target",
                    c.course, c.tally.trials, worst
                )
            })
        })
        .collect()
}

/// As [`run_all`], also checking each scenario's `[[expect]]` targets and
/// writing `expect.csv` beside the reports of a scenario that has them.
///
/// Every output folder is claimed before any work ([`NewFolder::begin`]:
/// locked, checked, its temporary made) and replaced whole once every
/// scenario is done: with several scenarios, the `--out` folder holds one
/// folder each and is replaced whole too.
pub fn run_checked(req: &RunRequest) -> Result<Vec<Finished>> {
    run_checked_with(req, &mut None)
}

/// As [`run_checked`], on the command's worker threads in `threads`: those
/// given, or started once the first file is read (its errors come first)
/// and left there for the command's later steps (the fixes `run --check`
/// suggests), so that a command starts one pool in all.
pub fn run_checked_with(req: &RunRequest, threads: &mut Option<Threads>) -> Result<Vec<Finished>> {
    let mut prepared: Vec<Prepared> = Vec::with_capacity(req.scenarios.len());
    for path in &req.scenarios {
        let file = ScenarioFile::load(path)?;
        let t = match threads {
            Some(t) => &*t,
            None => threads.insert(req.plan.threads()?),
        };
        prepared.push(prepare_with(file, &req.plan, Build::Lazy, t)?);
    }
    let Some(threads) = threads.as_ref() else {
        return Ok(Vec::new());
    };
    for p in &prepared {
        req.show.check_streamed(p)?;
    }
    let several = prepared.len() > 1;
    let paths: Vec<&Path> = prepared.iter().map(|p| p.file.path.as_path()).collect();
    let names = folder_names(&paths);
    let dirs: Vec<PathBuf> = names
        .iter()
        .map(|n| out_dir(&req.show, n, several))
        .collect();
    for d in &dirs {
        check_out(d)?;
    }
    // The folders replaced whole, and where each scenario is written.
    let mut claimed: Vec<NewFolder> = Vec::new();
    let mut into: Vec<PathBuf> = Vec::new();
    match (&req.show.out, several) {
        (Some(o), true) => {
            check_out(o)?;
            let f = NewFolder::begin(o, "--out", "run")?;
            for n in &names {
                let d = f.path().join(n);
                std::fs::create_dir(&d).map_err(|e| crate::error::Error::io(o.join(n), e))?;
                replace::mark(&d, "run")?;
                into.push(d);
            }
            claimed.push(f);
        }
        _ => {
            for d in &dirs {
                let f = NewFolder::begin(
                    d,
                    if req.show.out.is_some() {
                        "--out"
                    } else {
                        "reports"
                    },
                    "run",
                )?;
                into.push(f.path().to_path_buf());
                claimed.push(f);
            }
        }
    }
    // Exact only: every scenario is resolved before any is written, so a
    // course without an exact answer writes nothing.
    let mut early: Vec<Option<ScenarioRun>> = Vec::new();
    if req.plan.method == Method::Exact {
        for p in &prepared {
            early.push(
                (!req.show.streams(p))
                    .then(|| execute_on(p, req, threads))
                    .transpose()?,
            );
        }
    }
    let mut out = Vec::new();
    if req.show.progress && prepared.iter().any(|p| req.show.plots_for(p).1) {
        eprintln!("{}", Presentation::summary_note());
    }
    for (n, ((p, d), i)) in prepared.iter().zip(dirs).zip(&into).enumerate() {
        if req.show.streams(p) {
            if req.show.progress {
                let e = estimate::estimate(p, &req.plan, threads);
                if e.worth_saying() {
                    eprintln!("{}", e.line());
                }
            }
            out.push(stream::streamed(p, req, threads, i, d)?);
            continue;
        }
        let run = match early.get_mut(n).and_then(Option::take) {
            Some(r) => r,
            None => {
                if req.show.progress {
                    let e = estimate::estimate(p, &req.plan, threads);
                    if e.worth_saying() {
                        eprintln!("{}", e.line());
                    }
                }
                execute_on(p, req, threads)?
            }
        };
        let warnings = precision_warnings(&run, &req.plan);
        let checks = expect::evaluate(&p.expects, &run);
        let plots = req.show.plots_for(p).0;
        let record = record(p, req)?;
        let reports = || {
            folder::write(
                &run,
                p.has_expects
                    .then(|| expect::expect_csv(&run.id.name, &checks)),
                false,
                plots,
                Some(&record),
                i,
                &d,
            )
        };
        let explain = || {
            crate::explain::run::write_json(
                &p.file,
                &req.plan.overrides,
                req.plan.systems,
                plots,
                i,
            )
        };
        // explain.json (the course walked again) takes about as long as
        // the plots: each is written beside the other on the command's
        // threads (one after the other on one thread).
        let (r, e) = threads.install(|| rayon::join(reports, explain));
        r?;
        e?;
        out.push(Finished {
            run,
            path: p.file.path.clone(),
            dir: d,
            has_expects: p.has_expects,
            checks,
            warnings,
            streamed: false,
        });
    }
    for f in claimed {
        f.commit()?;
    }
    Ok(out)
}
