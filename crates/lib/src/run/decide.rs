//! `pikeshot decide`: every `[[decision]]` of a scenario solved exactly,
//! variant by variant (the same loading, `--set` and sweep as `run`).

use std::path::Path;

use serde::Serialize;

use super::TOP_KEYS;
use crate::engine::decide::at::ExplainAt;
use crate::engine::decide::summary::{CourseFigure, Decided};
use crate::engine::{Method, RunOptions, Task, Threads};
use crate::error::{InputError, Result};
use crate::scenario::decision::DecideAsk;
use crate::scenario::fields::collect;
use crate::scenario::limits::{MAX_SEED, MAX_TRIALS};
use crate::scenario::{Overrides, ScenarioFile};
use crate::systems;

/// The seed of the Monte Carlo check when the scenario gives none.
pub const DEFAULT_SEED: u64 = 1;

/// A scenario's decisions, solved.
#[derive(Clone, Debug, Serialize)]
pub struct Decisions {
    /// The scenario file.
    pub file: String,
    /// The scenario's name.
    pub name: String,
    /// The rule system.
    pub system: String,
    /// The `--set` overrides applied.
    pub sets: Vec<String>,
    /// Each variant's decisions (one variant without a sweep).
    pub variants: Vec<VariantDecisions>,
}

/// One variant's decisions.
#[derive(Clone, Debug, Serialize)]
pub struct VariantDecisions {
    /// The variant's label (empty without a sweep).
    pub variant: String,
    /// Its decisions, in file order.
    pub decisions: Vec<Decided>,
}

/// Solves the decisions of the scenario at `path` under `overrides`.
pub fn decide_path(path: &Path, overrides: &Overrides) -> Result<Decisions> {
    decide_file(ScenarioFile::load(path)?, overrides)
}

/// Solves the decisions of a scenario already loaded (or built from text).
/// A scenario without `[[decision]]` is an error saying what to add.
pub fn decide_file(file: ScenarioFile, overrides: &Overrides) -> Result<Decisions> {
    decide_file_at(file, overrides, None)
}

/// As [`decide_file`], and the decision `at` names explained at its state
/// (its [`Decided::at`], in every variant); a decision the scenario has not
/// is an error naming those it has.
pub fn decide_file_at(
    mut file: ScenarioFile,
    overrides: &Overrides,
    at: Option<&ExplainAt>,
) -> Result<Decisions> {
    file.apply(overrides)?;
    crate::targets::take(&mut file)?;
    let mut out = Decisions {
        file: file.path.display().to_string(),
        name: file.stem(),
        system: String::new(),
        sets: overrides.texts(),
        variants: Vec::new(),
    };
    // The scenario's courses, as `run` builds them (on the command's one
    // pool), to set beside the decisions that share their units and
    // objective.
    let prepared = if file.table.contains_key("course") {
        let threads = Threads::new(None)?;
        let p = super::prepare_file_on(file.clone(), &super::RunPlan::default(), &threads)?;
        Some((p, threads))
    } else {
        None
    };
    for i in 0..file.variant_count()? {
        let v = file.variant(i)?;
        let (n, sys, decisions) = collect(&file.source, &v.table, TOP_KEYS, |f| {
            let n = f.string("name")?;
            f.string("description")?;
            f.int("trials", 1, MAX_TRIALS as i64)?;
            let seed = f
                .int("seed", 0, MAX_SEED as i64)?
                .map_or(DEFAULT_SEED, |s| s as u64);
            let sys = systems::Registry::shipped().read_system(f)?;
            f.has("edition");
            let ask = DecideAsk {
                seed,
                explain: at.cloned(),
            };
            Ok((n, sys, sys.decide(f, &ask)?))
        })?;
        if let Some(n) = n {
            out.name = n;
        }
        out.system = sys.id().to_string();
        if decisions.is_empty() {
            return Err(InputError::new("the scenario has no `[[decision]]` table")
                .key("decision")
                .accepted("[[decision]] with name, own, repeat, objective and [[decision.option]] tables (docs/guide/decisions.md)")
                .at(Some(&file.path.display().to_string()), None)
                .into());
        }
        if let Some(at) = at
            && !decisions.iter().any(|d| d.name == at.decision)
        {
            let names: Vec<&str> = decisions.iter().map(|d| d.name.as_str()).collect();
            return Err(InputError::new(format!("no decision \"{}\"", at.decision))
                .key("--decision")
                .one_of(&at.decision, &names)
                .at(Some(&file.path.display().to_string()), None)
                .into());
        }
        let mut decisions = decisions;
        if let Some((p, threads)) = &prepared {
            beside_courses(p, threads, &v.label, &v.table, &mut decisions)?;
        }
        out.variants.push(VariantDecisions {
            variant: v.label,
            decisions,
        });
    }
    Ok(out)
}

/// Fills each decision's [`Decided::courses`]: every `[[course]]` of `p`
/// of the variant labelled `label` (of `table`, the variant's TOML) whose own and
/// enemy units are the decision's and whose outcome space reports the
/// objective's outcomes or measure, with its exact value under the
/// objective. A course that does not enumerate within the exact budget is
/// left out (its figure is `run`'s, not exact). Enumerated on `threads`.
fn beside_courses(
    p: &super::Prepared,
    threads: &Threads,
    label: &str,
    table: &toml::Table,
    decisions: &mut [Decided],
) -> Result<()> {
    let sides: Vec<(String, String)> = table
        .get("decision")
        .and_then(toml::Value::as_array)
        .map(|a| {
            a.iter()
                .map(|d| {
                    let name = |k: &str| {
                        d.get(k)
                            .and_then(toml::Value::as_str)
                            .unwrap_or_default()
                            .to_string()
                    };
                    (name("own"), name("enemy"))
                })
                .collect()
        })
        .unwrap_or_default();
    for (d, (own, enemy)) in decisions.iter_mut().zip(sides) {
        for c in &p.courses {
            let (kernel, side) = (&c.kernel, &c.side);
            if c.variant != label || side.own != own || side.enemy != enemy {
                continue;
            }
            let Ok(read) = d.target.reader(kernel.space()) else {
                continue;
            };
            let task = Task {
                variant: 0,
                course: 0,
                kernel: kernel.as_ref(),
            };
            let opts = RunOptions {
                method: Method::Exact,
                ..RunOptions::default()
            };
            let Some(probs) = threads.run(&[task], &opts)?.remove(0).exact else {
                continue;
            };
            let value = probs
                .iter()
                .enumerate()
                .filter(|(_, p)| **p > 0.0)
                .map(|(leaf, p)| p * read(leaf as u32))
                .sum();
            d.courses.push(CourseFigure {
                name: c.name.clone(),
                value,
            });
        }
    }
    Ok(())
}
