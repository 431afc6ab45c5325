//! The "best plan" section of a scenario with `[[decision]]`s on the
//! report's page, read from the folder's `decisions.json` (what `pikeshot
//! decide --format json` prints): for each decision the best plan's value
//! beside "always X" for every option and the scenario's own courses, the
//! plan in words with what it loses, the Monte Carlo check, and a link to
//! the decision's policy file (every state where the own side chooses).

use std::fmt::Write as _;

use super::decisions_doc::{DecidedDoc, DecisionsDoc};
use super::html_parts::{esc, href};
use crate::report::decision::policy_file;

/// A value as the page shows it: a percentage for a probability, else an
/// expectation to 3 decimals.
fn shown(d: &DecidedDoc, v: f64) -> String {
    if d.probability {
        format!("{:.1}%", 100.0 * v)
    } else {
        format!("{v:.3}")
    }
}

/// A difference of values: points for probabilities.
fn gap(d: &DecidedDoc, v: f64) -> String {
    if d.probability {
        format!("{:+.1} pts", 100.0 * v)
    } else {
        format!("{v:+.3}")
    }
}

/// Writes the "best plan" section of a scenario whose folder (relative
/// path `base`, ending in `/`) has `decisions.json`; nothing without one.
pub fn section(o: &mut String, doc: Option<&DecisionsDoc>, base: &str) {
    let Some(doc) = doc else { return };
    for v in &doc.variants {
        for d in &v.decisions {
            let title = if v.variant.is_empty() {
                format!("Best plan: {}", d.name)
            } else {
                format!("Best plan: {} ({})", d.name, v.variant)
            };
            let _ = writeln!(o, "<section class=\"decision\">");
            let _ = writeln!(o, "<h3>{}</h3>", esc(&title));
            let _ = writeln!(
                o,
                "<p class=\"meta\">The own side picks an option at the start of each turn, knowing the state; objective: {}.</p>",
                esc(&d.objective)
            );
            let _ = writeln!(
                o,
                "<div class=\"wide\"><table>\n<thead><tr><th>plan</th><th class=\"num\">exact</th><th class=\"num\">against the best plan</th></tr></thead>\n<tbody>"
            );
            let _ = writeln!(
                o,
                "<tr><td><strong>the best plan</strong></td><td class=\"num\"><strong>{}</strong></td><td class=\"num\"></td></tr>",
                shown(d, d.value)
            );
            let rows = d
                .options
                .iter()
                .zip(&d.always)
                .map(|(n, v)| (format!("always {n}"), *v))
                .chain(
                    d.courses
                        .iter()
                        .map(|c| (format!("the scenario's course \"{}\"", c.name), c.value)),
                );
            for (label, v) in rows {
                let _ = writeln!(
                    o,
                    "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
                    esc(&label),
                    shown(d, v),
                    gap(d, v - d.value)
                );
            }
            let _ = writeln!(o, "</tbody>\n</table></div>");
            // Under half the last digit shown (0.1 points, 0.001), the
            // rule loses nothing measurable.
            let under = if d.probability {
                100.0 * d.rule_loss < 0.05
            } else {
                d.rule_loss < 0.0005
            };
            let loss = if under {
                "losing nothing measurable".to_string()
            } else {
                format!("{} against the best plan", gap(d, -d.rule_loss))
            };
            let _ = writeln!(
                o,
                "<p><strong>The plan in words:</strong> {} ({}, {loss}).</p>",
                esc(&d.rule),
                shown(d, d.rule_value),
            );
            let policy = policy_file(&v.variant, &d.name);
            let _ = writeln!(
                o,
                "<p class=\"meta\">{} states, {} where the own side chooses: <a href=\"{}\">{}</a> (each with the best option and every option's value). The best plan played on seeded dice: {} over {} trials (standard error {}).</p>",
                d.states,
                d.choices.len(),
                esc(&href(&format!("{base}{policy}"))),
                esc(&policy),
                shown(d, d.check.mean),
                d.check.trials,
                shown(d, d.check.std_error)
            );
            let _ = writeln!(o, "</section>");
        }
    }
}
