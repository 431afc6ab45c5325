//! `pikeshot explain --decision NAME [--state "FEATURE=VALUE, …"]`: a
//! decision at one state where the own side chooses (the start unless
//! `--state` names another), solved by the same path as `pikeshot decide`:
//! each option's value there, and for the best against the runner-up where
//! each one's turn leads, what it is worth, and the rolls that get there.

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use crate::engine::decide::at::{DecisionAt, ExplainAt};
use crate::error::{Error, InputError, Result};
use crate::run::decide::decide_file_at;
use crate::scenario::{Overrides, ScenarioFile};

/// Rows of each table the text shows (the JSON has every one).
const SHOWN_ROWS: usize = 8;

/// A decision explained at one state, in every variant asked for.
#[derive(Clone, Debug, Serialize)]
pub struct DecisionExplanation {
    /// The scenario file.
    pub file: String,
    /// The scenario's name.
    pub name: String,
    /// The rule system.
    pub system: String,
    /// The `--set` overrides applied.
    pub sets: Vec<String>,
    /// The decision's name.
    pub decision: String,
    /// The objective in words.
    pub objective: String,
    /// Whether values are probabilities (else expectations).
    pub probability: bool,
    /// Each variant's explanation (one without a sweep).
    pub variants: Vec<VariantDecision>,
}

/// The decision explained in one variant.
#[derive(Clone, Debug, Serialize)]
pub struct VariantDecision {
    /// The variant's label (empty without a sweep).
    pub variant: String,
    /// The best plan's value from the start.
    pub value: f64,
    /// The decision at the state asked for.
    pub at: DecisionAt,
}

/// `--state "turn=2, imperialists status=disordered"` as `(feature,
/// value)` pairs; an item without `=` is an error saying what is accepted.
pub fn parse_state(state: &str) -> Result<Vec<(String, String)>, InputError> {
    state
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|item| {
            let (k, v) = item.split_once('=').ok_or_else(|| {
                InputError::new(format!("\"{}\" is not FEATURE=VALUE", item.trim()))
                    .key("--state")
                    .accepted("FEATURE=VALUE pairs separated by commas, e.g. \"turn=2, imperialists status=disordered\" (the features are policy.csv's columns)")
            })?;
            Ok((k.trim().to_string(), v.trim().to_string()))
        })
        .collect()
}

/// Explains decision `decision` of the scenario `file` (its `overrides`
/// not yet applied) at the state `state` names (none: the start),
/// in the variants labelled `variants` (all when empty).
pub fn explain_decision_file(
    file: ScenarioFile,
    overrides: &Overrides,
    variants: &[String],
    decision: &str,
    state: &[(String, String)],
) -> Result<DecisionExplanation> {
    let at = ExplainAt {
        decision: decision.to_string(),
        state: state.to_vec(),
    };
    let path = file.path.display().to_string();
    let ds = decide_file_at(file, overrides, Some(&at)).map_err(|e| match e {
        Error::Input(i) => Error::Input(Box::new(i.at(Some(&path), None))),
        e => e,
    })?;
    let labels: Vec<String> = ds.variants.iter().map(|v| v.variant.clone()).collect();
    for want in variants {
        if !labels.contains(want) {
            return Err(InputError::new(format!("no variant \"{want}\""))
                .key("--variant")
                .one_of(want, &labels)
                .at(Some(&ds.file), None)
                .into());
        }
    }
    let mut out = DecisionExplanation {
        file: ds.file.clone(),
        name: ds.name.clone(),
        system: ds.system.clone(),
        sets: ds.sets.clone(),
        decision: decision.to_string(),
        objective: String::new(),
        probability: false,
        variants: Vec::new(),
    };
    for v in ds.variants {
        if !variants.is_empty() && !variants.contains(&v.variant) {
            continue;
        }
        for d in v.decisions {
            let Some(at) = d.at else { continue };
            out.objective = d.objective;
            out.probability = d.probability;
            out.variants.push(VariantDecision {
                variant: v.variant.clone(),
                value: d.value,
                at,
            });
        }
    }
    Ok(out)
}

/// Explains decision `decision` of the scenario at `path`.
pub fn explain_decision_path(
    path: &Path,
    overrides: &Overrides,
    variants: &[String],
    decision: &str,
    state: &[(String, String)],
) -> Result<DecisionExplanation> {
    explain_decision_file(
        ScenarioFile::load(path)?,
        overrides,
        variants,
        decision,
        state,
    )
}

/// The terminal text of a decision explained.
pub fn render(e: &DecisionExplanation) -> String {
    let value = |v: f64| {
        if e.probability {
            format!("{:.1}%", 100.0 * v)
        } else {
            format!("{v:.3}")
        }
    };
    let part = |v: f64| {
        if e.probability {
            format!("{:+.1} pts", 100.0 * v)
        } else {
            format!("{v:+.3}")
        }
    };
    let pct = |p: f64| format!("{:.1}%", 100.0 * p);
    let mut out = format!(
        "{} ({})\ndecision \"{}\": {}\n",
        e.name, e.system, e.decision, e.objective
    );
    for v in &e.variants {
        let at = &v.at;
        if !v.variant.is_empty() {
            let _ = writeln!(out, "\n[{}]", v.variant);
        }
        let state: Vec<String> = at.state.iter().map(|(k, x)| format!("{k} {x}")).collect();
        let _ = writeln!(
            out,
            "\nat {} (the best plan reaches it {}; the best plan from the start: {})",
            state.join(", "),
            pct(at.reach),
            value(v.value)
        );
        if at.matched > 1 {
            let _ = writeln!(
                out,
                "  {} states match; this is the one the best plan reaches most often",
                at.matched
            );
        }
        let width = at.options.iter().map(|o| o.name.len()).max().unwrap_or(0);
        for (k, o) in at.options.iter().enumerate() {
            let tag = if k == at.best {
                "  best"
            } else if k == at.runner_up {
                "  runner-up"
            } else {
                ""
            };
            let _ = writeln!(out, "  {:width$}  {}{tag}", o.name, value(o.value));
        }
        for k in [at.best, at.runner_up] {
            let o = &at.options[k];
            let _ = writeln!(
                out,
                "\n  {}: {} = Σ p(where the turn leads) × its value",
                o.name,
                value(o.value)
            );
            for n in o.leads_to.iter().take(SHOWN_ROWS) {
                let _ = writeln!(
                    out,
                    "    {:>6} × {:>7} = {:>10}  {}\n{:>33}rolls: {}",
                    pct(n.probability),
                    value(n.value),
                    part(n.contribution),
                    n.after,
                    "",
                    n.rolls.join("; ")
                );
            }
            if o.leads_to.len() > SHOWN_ROWS {
                let rest: f64 = o.leads_to[SHOWN_ROWS..]
                    .iter()
                    .map(|n| n.contribution)
                    .sum();
                let _ = writeln!(
                    out,
                    "    … {} more places, together {}",
                    o.leads_to.len() - SHOWN_ROWS,
                    part(rest)
                );
            }
        }
        if at.best != at.runner_up {
            let (b, r) = (&at.options[at.best], &at.options[at.runner_up]);
            let _ = writeln!(
                out,
                "\n  what makes the difference ({} against {}: {}):",
                b.name,
                r.name,
                part(b.value - r.value)
            );
            for d in at.difference.iter().take(SHOWN_ROWS) {
                let _ = writeln!(
                    out,
                    "    {:>10}  {} {} against {}, worth {}: {}",
                    part(d.gain),
                    b.name,
                    pct(d.best),
                    pct(d.runner_up),
                    value(d.value),
                    d.after
                );
            }
            if at.difference.len() > SHOWN_ROWS {
                let rest: f64 = at.difference[SHOWN_ROWS..].iter().map(|d| d.gain).sum();
                let _ = writeln!(
                    out,
                    "    … {} more places, together {}",
                    at.difference.len() - SHOWN_ROWS,
                    part(rest)
                );
            }
        }
    }
    out
}

/// The JSON document of a decision explained.
pub fn json(e: &DecisionExplanation) -> String {
    serde_json::to_string_pretty(e).expect("serialising plain data") + "\n"
}
