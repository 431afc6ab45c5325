//! Two views of the terminal report beyond the per-course tables: each
//! course's difference from the first course of its variant, and the
//! "at least" view `P(X >= k)` of every measure of a course.

use std::fmt::Write as _;

use super::WIDTH;
use super::columns::{columns, wrap_words};
use super::{pct, wrap_list};
use crate::report::compare::VariantKeys;
use crate::report::key::{KeyKind, difference_text, signed, verdict};
use crate::report::model::{CourseStats, MeasureStat, ScenarioRun};

/// The difference of each course from the first course of its variant
/// that has each key outcome: the Monte Carlo difference with its 95%
/// interval, the exact difference under it where known, then one sentence
/// per course for each key probability (`… beats … by …`). Nothing when the
/// variant has fewer than two courses with a key outcome in common.
pub(super) fn difference_block(out: &mut String, run: &ScenarioRun, v: &VariantKeys) {
    let n = v.courses.len();
    // Rows with at least one difference, and the courses that have one.
    let rows: Vec<usize> = (0..v.rows.len())
        .filter(|&r| (0..n).any(|j| v.difference(r, j).is_some()))
        .collect();
    let cols: Vec<usize> = (0..n)
        .filter(|&j| rows.iter().any(|&r| v.difference(r, j).is_some()))
        .collect();
    if rows.is_empty() || cols.is_empty() {
        return;
    }
    let name = |j: usize| run.courses[v.courses[j]].course.as_str();
    let firsts: Vec<usize> = rows.iter().filter_map(|&r| v.reference(r)).collect();
    let common = firsts.iter().all(|&f| f == firsts[0]).then(|| firsts[0]);
    out.push('\n');
    let from = match common {
        Some(f) => format!("difference from \"{}\"", name(f)),
        None => "difference from the first course with the outcome".to_string(),
    };
    if v.variant.is_empty() {
        let _ = writeln!(out, "== {from}");
    } else {
        let _ = writeln!(out, "== {from}  [{}]", v.variant);
    }
    let any_exact = rows.iter().any(|&r| {
        cols.iter()
            .any(|&j| v.difference(r, j).is_some_and(|d| d.exact.is_some()))
    });
    // `--method exact`: the exact differences alone, without intervals.
    let exact_only = v.courses.iter().all(|&c| run.courses[c].tally.trials == 0);
    if exact_only {
        let _ = writeln!(out, "  course minus the first, exact");
    } else {
        let _ = writeln!(
            out,
            "  course minus the first: Monte Carlo [95% interval: Newcombe for probabilities, \
             normal for means]{}",
            if any_exact {
                ";\n  the exact difference under it"
            } else {
                ""
            }
        );
    }
    let names: Vec<&str> = cols.iter().map(|&j| name(j)).collect();
    let mut table: Vec<(String, Vec<String>)> = Vec::new();
    for &r in &rows {
        let def = &v.rows[r].0;
        let mut label = def.label.to_string();
        if common.is_none()
            && let Some(f) = v.reference(r)
        {
            let _ = write!(label, " (from {})", name(f));
        }
        let decimals = match def.kind {
            KeyKind::Probability => 2,
            KeyKind::Expectation => 3,
        };
        let cells = cols
            .iter()
            .map(|&j| {
                v.difference(r, j)
                    .map_or_else(|| "-".into(), |d| difference_text(def.kind, &d, decimals))
            })
            .collect();
        table.push((label, cells));
        if !exact_only
            && cols
                .iter()
                .any(|&j| v.difference(r, j).is_some_and(|d| d.exact.is_some()))
        {
            let cells = cols
                .iter()
                .map(|&j| {
                    v.difference(r, j)
                        .and_then(|d| d.exact)
                        .map_or_else(String::new, |e| signed(def.kind, e, decimals))
                })
                .collect();
            table.push(("  exact".to_string(), cells));
        }
    }
    columns(out, "", &names, &table);
    // The sentences a player reads first: each key probability.
    let mut said = false;
    for &r in &rows {
        let def = &v.rows[r].0;
        if def.kind != KeyKind::Probability {
            continue;
        }
        let Some(f) = v.reference(r) else { continue };
        for &j in &cols {
            let Some(d) = v.difference(r, j) else {
                continue;
            };
            if let Some(s) = verdict(def, name(j), name(f), &d) {
                if !said {
                    out.push('\n');
                    said = true;
                }
                for (k, line) in wrap_words(&s, WIDTH - 4).iter().enumerate() {
                    let indent = if k == 0 { "  " } else { "    " };
                    let _ = writeln!(out, "{indent}{line}");
                }
            }
        }
    }
}

/// `P(X >= k)` of every measure of a course that takes more than one value:
/// one line per measure, `>=k` then the Monte Carlo probability and, in
/// brackets, the exact one when known.
pub(super) fn at_least_block(out: &mut String, s: &CourseStats) {
    let shown: Vec<(&MeasureStat, Vec<usize>)> = s
        .measures
        .iter()
        .map(|m| (m, m.at_least_indices()))
        .filter(|(_, ks)| !ks.is_empty())
        .collect();
    if shown.is_empty() {
        return;
    }
    let exact = shown.iter().any(|(m, _)| m.exact_at_least.is_some());
    let exact_only = exact && s.trials == 0;
    let _ = writeln!(
        out,
        "  at least, P(X >= k){}:",
        match (exact, exact_only) {
            (true, true) => ", exact",
            (true, false) => ", Monte Carlo [exact]",
            _ => "",
        }
    );
    let label_w = shown
        .iter()
        .map(|(m, _)| m.label.chars().count())
        .max()
        .unwrap_or(0)
        .min(28);
    for (m, ks) in shown {
        let items: Vec<String> = ks
            .iter()
            .map(|&i| {
                let k = m.min + i as i32;
                match &m.exact_at_least {
                    Some(e) if exact_only => format!(">={k} {}", pct(e[i], 2)),
                    Some(e) => format!(">={k} {} [{}]", pct(m.at_least[i], 2), pct(e[i], 2)),
                    None => format!(">={k} {}", pct(m.at_least[i], 2)),
                }
            })
            .collect();
        let prefix = format!("    {}  ", super::columns::cell(&m.label, label_w));
        wrap_list(out, &prefix, &items);
    }
}
