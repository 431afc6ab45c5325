//! `pikeshot decide`: every `[[decision]]` of a scenario solved exactly,
//! variant by variant (the same loading, `--set` and sweep as `run`).

use std::path::Path;

use serde::Serialize;

use super::TOP_KEYS;
use crate::engine::decide::summary::{CourseFigure, Decided};
use crate::engine::{self, RunOptions, Task};
use crate::error::{InputError, Result};
use crate::scenario::ScenarioFile;
use crate::scenario::fields::collect;
use crate::scenario::limits::{MAX_SEED, MAX_TRIALS};
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

/// Solves the decisions of the scenario at `path` under `sets`.
pub fn decide_path(path: &Path, sets: &[String]) -> Result<Decisions> {
    decide_file(ScenarioFile::load(path)?, sets)
}

/// Solves the decisions of a scenario already loaded (or built from text).
/// A scenario without `[[decision]]` is an error saying what to add.
pub fn decide_file(mut file: ScenarioFile, sets: &[String]) -> Result<Decisions> {
    for s in sets {
        file.set(s)?;
    }
    crate::targets::take(&mut file)?;
    let mut out = Decisions {
        file: file.path.display().to_string(),
        name: file.stem(),
        system: String::new(),
        sets: sets.to_vec(),
        variants: Vec::new(),
    };
    // The scenario's courses, as `run` builds them, to set beside the
    // decisions that share their units and objective.
    let prepared = if file.table.contains_key("course") {
        Some(super::prepare_file(
            file.clone(),
            &super::RunRequest::default(),
        )?)
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
            Ok((n, sys, sys.decide(f, seed)?))
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
        let mut decisions = decisions;
        if let Some(p) = &prepared {
            beside_courses(p, &v.label, &v.table, &mut decisions)?;
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
/// left out (its figure is `run`'s, not exact).
fn beside_courses(
    p: &super::Prepared,
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
        for ((variant, name, kernel), side) in p.courses.iter().zip(&p.sides) {
            if variant != label || side.own != own || side.enemy != enemy {
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
                trials: 1,
                exact: true,
                ..RunOptions::default()
            };
            let Some(probs) = engine::run(&[task], &opts)?.remove(0).exact else {
                continue;
            };
            let value = probs
                .iter()
                .enumerate()
                .filter(|(_, p)| **p > 0.0)
                .map(|(leaf, p)| p * read(leaf as u32))
                .sum();
            d.courses.push(CourseFigure {
                name: name.clone(),
                value,
            });
        }
    }
    Ok(())
}
