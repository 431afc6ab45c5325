//! From a scenario file to its [`Explanation`]: the same loading, `--set`
//! and sweep as `pikeshot run`, each variant's courses explained by its
//! rule system.

use std::path::Path;

use super::{Explanation, VariantExplanation};
use crate::error::{Error, InputError, Result};
use crate::run::TOP_KEYS;
use crate::scenario::fields::collect;
use crate::scenario::limits::{MAX_SEED, MAX_TRIALS};
use crate::scenario::{Overrides, ScenarioFile};
use crate::systems;

/// What `pikeshot explain` was asked.
#[derive(Clone, Debug, Default)]
pub struct ExplainRequest {
    /// `--set KEY=VALUE` overrides.
    pub overrides: Overrides,
    /// `--course NAME`: only these courses (all when empty).
    pub courses: Vec<String>,
    /// `--variant LABEL`: only these variants of a sweep (all when empty).
    pub variants: Vec<String>,
    /// The rule systems a scenario's `system` may name (by default
    /// [`systems::Registry::shipped`]).
    pub systems: systems::Registry,
}

/// The file `report` and `run` write into each scenario folder: what
/// `pikeshot explain --format json` prints for the same file and `--set`s.
pub const EXPLAIN_JSON: &str = "explain.json";

/// Writes [`EXPLAIN_JSON`] for `file` (a scenario already loaded, with
/// `overrides` already applied, its `system` one of `systems`) into the
/// folder being written,
/// `into` (staged and renamed into place), when `plots` draws every plot:
/// like the per-course plots it is a reader's view, a few megabytes a
/// variant, left out of `--plots summary` (the default above a sweep's
/// size limit) and `--plots none` (the instant answer). It depends on the
/// scenario and the overrides only, never on threads, trials or seed, so
/// it is byte-identical on any thread count.
pub fn write_json(
    file: &ScenarioFile,
    overrides: &Overrides,
    systems: systems::Registry,
    plots: crate::report::Plots,
    into: &Path,
) -> Result<()> {
    if plots != crate::report::Plots::All {
        return Ok(());
    }
    let req = ExplainRequest {
        overrides: overrides.clone(),
        systems,
        ..Default::default()
    };
    let e = explain_applied(file.clone(), &req)?;
    let mut staging = crate::report::Staging::new(into)?;
    let mut json = staging.open(EXPLAIN_JSON)?;
    super::write_json_to(&e, &mut json).map_err(|err| Error::io(json.target(), err))?;
    json.finish()?;
    staging.commit()?;
    Ok(())
}

/// Explains the scenario at `path`.
pub fn explain_path(path: &Path, req: &ExplainRequest) -> Result<Explanation> {
    explain_file(ScenarioFile::load(path)?, req)
}

/// Explains a scenario already loaded (or built from text).
pub fn explain_file(mut file: ScenarioFile, req: &ExplainRequest) -> Result<Explanation> {
    file.apply(&req.overrides)?;
    explain_applied(file, req)
}

/// Explains `file`, whose overrides `req.overrides` are already applied
/// (here they are only recorded).
fn explain_applied(mut file: ScenarioFile, req: &ExplainRequest) -> Result<Explanation> {
    // Balance targets say nothing of how a roll is made.
    crate::targets::take(&mut file)?;
    let count = file.variant_count()?;
    let mut out = Explanation {
        file: file.path.display().to_string(),
        name: file.stem(),
        system: String::new(),
        sets: req.overrides.texts(),
        variants: Vec::new(),
    };
    let mut labels = Vec::new();
    let mut course_names: Vec<String> = Vec::new();
    for i in 0..count {
        let v = file.variant(i)?;
        labels.push(v.label.clone());
        // Every error of the variant in file order, as `run` reports them.
        let (n, sys, explained) = collect(&file.source, &v.table, TOP_KEYS, |f| {
            let n = f.name("name")?;
            f.string("description")?;
            f.int("seed", 0, MAX_SEED as i64)?;
            f.int("trials", 1, MAX_TRIALS as i64)?;
            let sys = req.systems.read_system(f)?;
            Ok((n, sys, sys.explain(f)?))
        })?;
        if let Some(n) = n {
            out.name = n;
        }
        out.system = sys.id().to_string();
        if !req.variants.is_empty() && !req.variants.contains(&v.label) {
            continue;
        }
        let mut courses = explained.courses;
        for c in &courses {
            if !course_names.contains(&c.name) {
                course_names.push(c.name.clone());
            }
        }
        if !req.courses.is_empty() {
            courses.retain(|c| req.courses.contains(&c.name));
        }
        out.variants.push(VariantExplanation {
            variant: v.label,
            edition: explained.edition,
            courses,
        });
    }
    for want in &req.variants {
        if !labels.contains(want) {
            let e = if labels.iter().all(String::is_empty) {
                InputError::new(format!(
                    "no variant \"{want}\": the scenario has no [sweep]"
                ))
                .key("--variant")
                .accepted("no --variant (the scenario has one variant)")
            } else {
                InputError::new(format!("no variant \"{want}\""))
                    .key("--variant")
                    .one_of(want, &labels)
            };
            return Err(e.at(Some(&out.file), None).into());
        }
    }
    for want in &req.courses {
        if !course_names.contains(want) {
            return Err(InputError::new(format!("no course \"{want}\""))
                .key("--course")
                .one_of(want, &course_names)
                .at(Some(&out.file), None)
                .into());
        }
    }
    Ok(out)
}
