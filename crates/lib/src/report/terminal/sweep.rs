//! A sweep's summary on the terminal: one table across the variants.
//!
//! One row per variant: the swept keys' values, then for each course its
//! key probabilities (P(enemy broken or eliminated), P(own unit broken or
//! eliminated)), the best course of the variant marked `*` on each (most
//! enemy broken, least own broken). A sweep whose courses have no key
//! outcome shows each course's first outcome instead, unmarked. Exact
//! figures where the variant's course has them, else the Monte Carlo value.
//! Courses are numbered in a legend above the table.

use std::fmt::Write as _;

use super::pct;
use crate::report::compare::variant_keys;
use crate::report::figure::Figure;
use crate::report::key::{KEY_OUTCOMES, KeyKind};
use crate::report::model::ScenarioRun;

/// One figure of the table: the exact value when known, else the estimate.
fn shown(f: &Figure) -> f64 {
    f.exact.unwrap_or(f.value)
}

/// The summary table of a swept run, ending with a newline; `None` without
/// a sweep.
///
/// Courses are numbered in a legend above the table and head their
/// columns by number, so the table stays narrow whatever their names.
pub fn sweep_summary(run: &ScenarioRun) -> Option<String> {
    let sweep = run.sweep.as_ref()?;
    let keys = variant_keys(run);
    let first = keys.first()?;
    let courses: Vec<&str> = first
        .courses
        .iter()
        .map(|&i| run.courses[i].course.as_str())
        .collect();
    // The key probabilities any variant has, in report order.
    let defs: Vec<_> = KEY_OUTCOMES
        .iter()
        .filter(|d| d.kind == KeyKind::Probability)
        .filter(|d| {
            keys.iter()
                .any(|v| v.rows.iter().any(|(r, _)| r.name == d.name))
        })
        .collect();
    let mut out = String::new();
    let exact = run.courses.iter().all(|c| c.tally.trials == 0);
    let _ = writeln!(
        out,
        "\n== sweep: {} variants × {} courses{}",
        sweep.points.len(),
        courses.len(),
        if exact {
            " (exact)"
        } else {
            " (exact where known, else Monte Carlo)"
        }
    );
    for (j, c) in courses.iter().enumerate() {
        let _ = writeln!(out, "  course {}: {c}", j + 1);
    }
    // The groups of columns: a title each, and one column per course.
    let groups: Vec<String> = if defs.is_empty() {
        vec!["P(first outcome)".into()]
    } else {
        defs.iter().map(|d| short(d.name).to_string()).collect()
    };
    let mut rows: Vec<Vec<String>> = Vec::new();
    for (point, v) in sweep.points.iter().zip(&keys) {
        let mut row: Vec<String> = sweep
            .axes
            .iter()
            .zip(&point.picks)
            .map(|(a, &p)| a.values[p].text())
            .collect();
        if defs.is_empty() {
            for &i in &v.courses {
                let s = run.courses[i].stats();
                row.push(
                    s.outcomes
                        .first()
                        .map_or_else(|| "- ".into(), |o| format!("{} ", pct(shown(&o.figure), 2))),
                );
            }
        } else {
            for d in &defs {
                let vals: Vec<Option<f64>> = match v.rows.iter().find(|(r, _)| r.name == d.name) {
                    Some((_, vals)) => vals
                        .iter()
                        .map(|k| k.as_ref().map(|k| shown(&k.figure)))
                        .collect(),
                    None => vec![None; v.courses.len()],
                };
                let best = best(&vals, d.more_is_better);
                for (j, x) in vals.iter().enumerate() {
                    row.push(match x {
                        Some(x) if best == Some(j) => format!("{}*", pct(*x, 2)),
                        Some(x) => format!("{} ", pct(*x, 2)),
                        None => "- ".into(),
                    });
                }
            }
        }
        rows.push(row);
    }
    let axes = sweep.axes.len();
    let mut head: Vec<String> = sweep.axes.iter().map(|a| a.key.clone()).collect();
    for _ in &groups {
        head.extend((1..=courses.len()).map(|j| format!("{j} ")));
    }
    let widths: Vec<usize> = (0..head.len())
        .map(|c| {
            rows.iter()
                .map(|r| r.get(c).map_or(0, |s| s.chars().count()))
                .chain([head[c].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| {
        let mut l = String::from(" ");
        for (c, s) in cells.iter().enumerate() {
            let pad = widths[c].saturating_sub(s.chars().count());
            if c < axes {
                let _ = write!(l, " {s}{}", " ".repeat(pad));
            } else {
                // A gap before each group.
                let gap = if (c - axes) % courses.len().max(1) == 0 {
                    "   "
                } else {
                    " "
                };
                let _ = write!(l, "{gap}{}{s}", " ".repeat(pad));
            }
        }
        l.trim_end().to_string()
    };
    // The group titles over their columns, each from its group's first
    // column (as `line` lays them out).
    let n = courses.len().max(1);
    let mut starts = Vec::new();
    let mut at = 1;
    for (c, w) in widths.iter().enumerate() {
        if c < axes {
            at += 1 + w;
        } else {
            let gap = if (c - axes) % n == 0 { 3 } else { 1 };
            if (c - axes) % n == 0 {
                starts.push(at + gap);
            }
            at += gap + w;
        }
    }
    let mut titles = String::new();
    for (title, start) in groups.iter().zip(starts) {
        let len = titles.chars().count();
        let pad = if len == 0 { start } else { start.max(len + 2) };
        titles.push_str(&" ".repeat(pad - len));
        titles.push_str(title);
    }
    let _ = writeln!(out, "{}", titles.trim_end());
    let _ = writeln!(out, "{}", line(&head));
    for r in &rows {
        let _ = writeln!(out, "{}", line(r));
    }
    if !defs.is_empty() {
        let _ = writeln!(
            out,
            "  enemy broken: P(enemy broken or eliminated); own broken: P(own unit broken or \
             eliminated)\n  * the variant's best course on that figure"
        );
    }
    Some(out)
}

/// The short title of a key probability's columns.
fn short(name: &str) -> &'static str {
    match name {
        "p-enemy-broken-or-eliminated" => "enemy broken",
        "p-own-broken-or-eliminated" => "own broken",
        _ => "P",
    }
}

/// The index of the best of `vals` (the largest when more is better, the
/// smallest when less is); `None` when no value is better than another
/// (fewer than two values, or all alike) or the key outcome is neither.
fn best(vals: &[Option<f64>], more_is_better: Option<bool>) -> Option<usize> {
    let more = more_is_better?;
    let known: Vec<(usize, f64)> = vals
        .iter()
        .enumerate()
        .filter_map(|(j, x)| x.filter(|x| x.is_finite()).map(|x| (j, x)))
        .collect();
    if known.len() < 2 {
        return None;
    }
    let pick = known.iter().copied().reduce(|a, b| {
        let better = if more { b.1 > a.1 } else { b.1 < a.1 };
        if better { b } else { a }
    })?;
    let tie = known
        .iter()
        .filter(|(j, x)| *j != pick.0 && (*x - pick.1).abs() < 1e-12)
        .count();
    (tie == 0).then_some(pick.0)
}
