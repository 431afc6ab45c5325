//! A sweep too large to hold (more than [`STREAM_ABOVE`] variants, or the
//! hidden `--stream-sweeps-above`), run block by block (see `block`) with
//! each block's rows written to its folder's temporary place as the block
//! finishes ([`SweepStream`]): compressed tables, the targets checked
//! block by block, the sweep charts drawn at the end from the key outcomes
//! kept. Its folder is committed with the others, so a failure anywhere
//! leaves none, as for any run.

use super::*;
use crate::report::Staging;
use crate::report::stream::SweepStream;
use crate::report::sweep::Sweep;

impl Presentation {
    /// Whether `run` writes `p` as it runs ([`STREAM_ABOVE`]).
    pub fn streams(&self, p: &Prepared) -> bool {
        p.lazy && p.variant_count() > self.stream_above.unwrap_or(STREAM_ABOVE)
    }

    /// Refuses `--plots all` for a sweep written as it runs: its
    /// per-variant plots would be tens of thousands of files.
    pub(crate) fn check_streamed(&self, p: &Prepared) -> Result<()> {
        if self.streams(p) && self.plots == Some(Plots::All) {
            return Err(InputError::new(format!(
                "a sweep of {} variants is too large to draw every variant's plots \
                 (more than {} variants: its tables are written compressed and only the sweep charts are drawn)",
                p.variant_count(),
                self.stream_above.unwrap_or(STREAM_ABOVE)
            ))
            .key("--plots all")
            .accepted(
                "--plots summary (the sweep charts) or none; or fewer variants, e.g. a key pinned with --set",
            )
            .at(Some(&p.file.path.display().to_string()), None)
            .into());
        }
        Ok(())
    }
}

/// Runs the large sweep `p` into `into` (the folder being replaced, to be
/// at `dir` once committed).
pub(crate) fn streamed(
    p: &Prepared,
    req: &RunRequest,
    threads: &Threads,
    into: &Path,
    dir: PathBuf,
) -> Result<Finished> {
    let plots = req.show.plots_for(p).0;
    let mut run = p.scenario_run(&req.plan, Vec::new(), p.id.editions.clone());
    let sweep = run.sweep.take();
    let mut stream = SweepStream::new(sweep.as_ref(), Staging::new(into)?);
    let mut checks: Vec<Vec<Checked>> = vec![Vec::new(); p.expects.len()];
    let mut warnings = Vec::new();
    let mut at = 0;
    let editions = block::run_blocks(p, &req.plan, req.show.progress, threads, |courses| {
        // The block's own points of the sweep, for its rows' key columns.
        let variants = courses
            .iter()
            .enumerate()
            .filter(|(i, c)| *i == 0 || courses[i - 1].variant != c.variant)
            .count();
        let part = ScenarioRun {
            courses,
            sweep: sweep.as_ref().map(|s| Sweep {
                axes: s.axes.clone(),
                points: s.points[at.min(s.points.len())..(at + variants).min(s.points.len())]
                    .to_vec(),
            }),
            ..run.clone()
        };
        at += variants;
        for (e, into) in p.expects.iter().zip(&mut checks) {
            into.extend(expect::evaluate(std::slice::from_ref(e), &part));
        }
        warnings.extend(precision_warnings(&part, &req.plan));
        stream.add(sweep.as_ref(), part)
    })?;
    run.id.editions = editions;
    run.sweep = sweep;
    let checks: Vec<Checked> = checks.into_iter().flatten().collect();
    stream.finish(
        &run,
        plots,
        Some(&record(p, req)?),
        p.has_expects
            .then(|| expect::expect_csv(&run.id.name, &checks)),
    )?;
    Ok(Finished {
        run,
        path: p.file.path.clone(),
        dir,
        has_expects: p.has_expects,
        checks,
        warnings,
        streamed: true,
    })
}
