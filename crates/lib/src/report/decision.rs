//! What `pikeshot decide` shows of a solved decision: the terminal lines
//! (the best plan's value beside "always X", the plan in words and what it
//! loses, the Monte Carlo check) and `policy.csv` (every choice state:
//! its features, turn, reach under the best plan, best option and every
//! option's value).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::engine::decide::summary::Decided;
use crate::error::{Error, Result};
use crate::outcome::kebab_id;
use crate::run::decide::Decisions;

/// A value as the terminal shows it: a percentage for a probability, else
/// the expectation to 3 decimals.
fn shown(d: &Decided, v: f64) -> String {
    if d.probability {
        format!("{:.1}%", 100.0 * v)
    } else {
        format!("{v:.3}")
    }
}

/// The terminal text of every decision of `ds`.
pub fn render(ds: &Decisions) -> String {
    let mut out = format!("{} ({})\n", ds.name, ds.system);
    for v in &ds.variants {
        if !v.variant.is_empty() {
            let _ = writeln!(out, "\n[{}]", v.variant);
        }
        for d in &v.decisions {
            out.push_str(&render_one(d));
        }
    }
    out
}

/// The terminal text of one decision.
pub fn render_one(d: &Decided) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\ndecision \"{}\": {}", d.name, d.objective);
    let always: Vec<String> = d
        .options
        .iter()
        .zip(&d.always)
        .map(|(o, v)| format!("always {o} {}", shown(d, *v)))
        .collect();
    let _ = writeln!(
        out,
        "  best plan {}; {}",
        shown(d, d.value),
        always.join(", ")
    );
    if !d.courses.is_empty() {
        let courses: Vec<String> = d
            .courses
            .iter()
            .map(|c| format!("\"{}\" {}", c.name, shown(d, c.value)))
            .collect();
        let _ = writeln!(out, "  the scenario's courses: {}", courses.join(", "));
    }
    let _ = writeln!(
        out,
        "  plan in words: {} ({}, {} below the best plan)",
        d.rule,
        shown(d, d.rule_value),
        if d.probability {
            format!("{:.2} points", 100.0 * d.rule_loss)
        } else {
            format!("{:.4}", d.rule_loss)
        }
    );
    let _ = writeln!(
        out,
        "  {} states, {} where the own side chooses; Monte Carlo check of the plan: {} over {} trials ({:.1} standard errors from exact)",
        d.states,
        d.choices.len(),
        shown(d, d.check.mean),
        d.check.trials,
        d.check.deviations(d.value)
    );
    out
}

/// `policy.csv` of one decision: a row per choice state.
pub fn policy_csv(d: &Decided) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header: Vec<String> = d.features.clone();
    header.extend(["reach".into(), "best".into()]);
    header.extend(d.options.iter().map(|o| format!("value {o}")));
    w.write_record(&header).expect("writing to memory");
    for c in &d.choices {
        let mut row = c.features.clone();
        row.push(format!("{:.12}", c.reach));
        row.push(c.best.clone());
        row.extend(c.values.iter().map(|v| format!("{v:.12}")));
        w.write_record(&row).expect("writing to memory");
    }
    String::from_utf8(w.into_inner().expect("writing to memory")).expect("CSV of UTF-8 text")
}

/// The JSON document of `ds` (what `decisions.json` holds).
pub fn json(ds: &Decisions) -> String {
    serde_json::to_string_pretty(ds).expect("serialising plain data") + "\n"
}

/// The file `report` writes into a scenario's folder: what `pikeshot decide
/// --format json` prints for the scenario.
pub const DECISIONS_JSON: &str = "decisions.json";

/// The name of a decision's policy file in a report's scenario folder,
/// beside the folder's other files: `policy-<decision>.csv`, or
/// `policy-<variant>-<decision>.csv` in a sweep.
pub fn policy_file(variant: &str, decision: &str) -> String {
    if variant.is_empty() {
        format!("policy-{}.csv", kebab_id(decision))
    } else {
        format!("policy-{}-{}.csv", kebab_id(variant), kebab_id(decision))
    }
}

/// Writes [`DECISIONS_JSON`] and each decision's policy file
/// ([`policy_file`]) into `dir`, a report's scenario folder being written
/// (staged and renamed into place).
pub fn write_folder(ds: &Decisions, dir: &Path) -> Result<()> {
    let mut staging = crate::report::Staging::new(dir)?;
    for v in &ds.variants {
        for d in &v.decisions {
            staging.bytes(&policy_file(&v.variant, &d.name), policy_csv(d).as_bytes())?;
        }
    }
    staging.bytes(DECISIONS_JSON, json(ds).as_bytes())?;
    staging.commit()?;
    Ok(())
}

/// Writes each decision's `policy.csv` into `dir/<decision>/` (and
/// `dir/<variant>/<decision>/` in a sweep) and `decisions.json` into `dir`;
/// returns the files written.
pub fn write(ds: &Decisions, dir: &Path) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut written = Vec::new();
    for v in &ds.variants {
        for d in &v.decisions {
            let mut sub = dir.to_path_buf();
            if !v.variant.is_empty() {
                sub.push(kebab_id(&v.variant));
            }
            sub.push(kebab_id(&d.name));
            std::fs::create_dir_all(&sub).map_err(|e| Error::io(&sub, e))?;
            let mut staging = crate::report::Staging::new(&sub)?;
            staging.bytes("policy.csv", policy_csv(d).as_bytes())?;
            written.extend(staging.commit()?);
        }
    }
    let mut staging = crate::report::Staging::new(dir)?;
    staging.bytes("decisions.json", json(ds).as_bytes())?;
    written.extend(staging.commit()?);
    Ok(written)
}
