//! The table printed on the terminal after a run: plain text, at most 100
//! columns.
//!
//! One block per variant × course: each outcome with its probability, 95%
//! Wilson interval and exact probability when known, then the measure
//! means. When a variant has several courses with the same outcomes, a
//! side-by-side table of their probabilities follows. When its courses have
//! key measures (see [`key`](super::key)) or are engagements, a "key
//! outcomes" table follows: one column per course, one row per key outcome
//! (the Monte Carlo value, then the exact value in brackets, or ± half the
//! 95% interval without it), then for engagements the share ending each way
//! (`ends <stop reason>`). Course names head their columns, wrapped rather
//! than cut; columns that do not fit in [`WIDTH`] continue in a further
//! table.

use std::fmt::Write as _;

mod columns;
pub mod sweep;
pub mod views;

pub(crate) use columns::label_width;
use columns::{LABEL_W_KEY, cell, columns, fit_cap};

use super::compare::{VariantKeys, variant_keys};
use super::draw::trials_note;
use super::engagement::is_engagement;
use super::engagement::stop_phrase;
use super::figure::Figure;
use super::key::KeyKind;
use super::model::{CourseRun, CourseStats, ScenarioRun};

/// Widest line the table aims for.
pub const WIDTH: usize = 100;

/// Longest outcome label shown before it is shortened.
const LABEL_MAX: usize = 40;

/// A probability as a percentage with `decimals` decimals.
fn pct(p: f64, decimals: usize) -> String {
    if p.is_finite() {
        format!("{:.decimals$}%", p * 100.0)
    } else {
        "-".into()
    }
}

/// The first line of the table: the scenario's name, system, edition(s)
/// and seed.
pub fn title(run: &ScenarioRun) -> String {
    let mut context = vec![run.id.system.clone()];
    if let Some(e) = run.id.edition() {
        let editions = if run.id.editions.len() > 1 {
            "editions"
        } else {
            "edition"
        };
        context.push(format!("{editions} {e}"));
    }
    context.push(format!("seed {}", run.id.seed));
    format!("{}  ({})\n", run.id.name, context.join(", "))
}

/// The table for `run`, ending with a newline.
pub fn terminal_table(run: &ScenarioRun) -> String {
    let mut out = title(run);

    let stats: Vec<&CourseStats> = run.courses.iter().map(CourseRun::stats).collect();
    let keys = variant_keys(run);
    for (variant, v) in run.variants().into_iter().zip(&keys) {
        let members: Vec<usize> = (0..run.courses.len())
            .filter(|&i| run.courses[i].variant == variant)
            .collect();
        for &i in &members {
            out.push('\n');
            block(&mut out, &run.courses[i], stats[i]);
        }
        if members.len() >= 2 {
            side_by_side(&mut out, run, &stats, &members);
        }
        key_block(&mut out, run, &stats, v);
        views::difference_block(&mut out, run, v);
    }
    out
}

/// One course: header, outcome rows, means.
fn block(out: &mut String, course: &CourseRun, s: &CourseStats) {
    let mut head = format!("== {}", course.course);
    let side = course.side.label();
    if !side.is_empty() {
        let _ = write!(head, "  ({side})");
    }
    if !course.variant.is_empty() {
        let _ = write!(head, "  [{}]", course.variant);
    }
    let _ = write!(head, "  ({})", trials_note(s.trials));
    let _ = writeln!(out, "{}", cell(&head, WIDTH).trim_end());

    let exact = s.has_exact();
    // `--method exact`: one exact column, no Monte Carlo ones to repeat it.
    let exact_only = exact && s.trials == 0;
    let label_w = label_width(LABEL_MAX, s.outcomes.iter().map(|o| o.label.as_str()));
    let mut line = if exact_only {
        format!("  {}", cell("outcome", label_w))
    } else {
        format!(
            "  {}  {:>8}  {:^17}",
            cell("outcome", label_w),
            "prob",
            "95% CI"
        )
    };
    if exact {
        let _ = write!(line, "  {:>9}", "exact");
    }
    let _ = writeln!(out, "{}", line.trim_end());
    for o in &s.outcomes {
        let ci = format!(
            "{:>7} – {:>7}",
            pct(o.figure.ci.0, 2),
            pct(o.figure.ci.1, 2)
        );
        let mut line = if exact_only {
            format!("  {}", cell(&o.label, label_w))
        } else {
            format!(
                "  {}  {:>8}  {:^17}",
                cell(&o.label, label_w),
                pct(o.figure.value, 2),
                ci
            )
        };
        if let Some(e) = o.figure.exact {
            let _ = write!(line, "  {:>9}", pct(e, 3));
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    if let Some(err) = &course.tally.exact_error {
        let _ = writeln!(out, "  exact: not computed ({err})");
    }
    if !s.measures.is_empty() {
        let items: Vec<String> = s
            .measures
            .iter()
            .map(|m| match m.exact_mean {
                Some(e) if exact_only => format!("{} {:.4} (exact)", m.label, e),
                Some(e) => format!("{} {:.3} (exact {:.4})", m.label, m.mean, e),
                None => format!("{} {:.3}", m.label, m.mean),
            })
            .collect();
        wrap_list(out, "  means: ", &items);
    }
    views::at_least_block(out, s);
}

/// `prefix` then `items` joined by `, `, wrapped at [`WIDTH`] with a
/// hanging indent.
fn wrap_list(out: &mut String, prefix: &str, items: &[String]) {
    let indent = " ".repeat(prefix.chars().count());
    let mut line = prefix.to_string();
    let mut first = true;
    for (k, item) in items.iter().enumerate() {
        let piece = if k + 1 < items.len() {
            format!("{item},")
        } else {
            item.clone()
        };
        let sep = if first { "" } else { " " };
        if !first && line.chars().count() + sep.len() + piece.chars().count() > WIDTH {
            let _ = writeln!(out, "{line}");
            line = format!("{indent}{piece}");
        } else {
            line.push_str(sep);
            line.push_str(&piece);
        }
        first = false;
    }
    let _ = writeln!(out, "{line}");
}

/// The probabilities of several courses of one variant side by side, when
/// they share their outcomes.
/// The names of the courses `members` (indices into the run's courses).
fn course_names<'r>(run: &'r ScenarioRun, members: &[usize]) -> Vec<&'r str> {
    members
        .iter()
        .map(|&i| run.courses[i].course.as_str())
        .collect()
}

fn side_by_side(out: &mut String, run: &ScenarioRun, stats: &[&CourseStats], members: &[usize]) {
    let first = run.courses[members[0]].space.outcomes();
    if members
        .iter()
        .any(|&i| run.courses[i].space.outcomes() != first)
    {
        return;
    }
    let exact = members.iter().all(|&i| stats[i].has_exact());
    let what = if exact {
        "exact probability"
    } else {
        "Monte Carlo probability"
    };
    let variant = &run.courses[members[0]].variant;
    out.push('\n');
    if variant.is_empty() {
        let _ = writeln!(out, "== side by side ({what})");
    } else {
        let _ = writeln!(out, "== side by side  [{variant}]  ({what})");
    }
    let names = course_names(run, members);
    let rows: Vec<(String, Vec<String>)> = first
        .iter()
        .enumerate()
        .map(|(k, label)| {
            let cells = members
                .iter()
                .map(|&i| {
                    let o = &stats[i].outcomes[k];
                    pct(
                        if exact {
                            o.figure.exact.unwrap_or(f64::NAN)
                        } else {
                            o.figure.value
                        },
                        2,
                    )
                })
                .collect();
            (label.clone(), cells)
        })
        .collect();
    let rows = with_sides(run, members, rows);
    columns(out, "outcome", &names, &rows);
}

/// `rows` after a first row naming each course's own and enemy units
/// (`own vs enemy`), when any course has them.
fn with_sides(
    run: &ScenarioRun,
    members: &[usize],
    rows: Vec<(String, Vec<String>)>,
) -> Vec<(String, Vec<String>)> {
    let sides: Vec<String> = members
        .iter()
        .map(|&i| run.courses[i].side.label())
        .collect();
    if sides.iter().all(String::is_empty) {
        return rows;
    }
    let mut out = vec![("own vs enemy".to_string(), sides)];
    out.extend(rows);
    out
}

/// The key outcomes of the courses of one variant side by side, with the
/// share of each engagement ending each way.
fn key_block(out: &mut String, run: &ScenarioRun, stats: &[&CourseStats], v: &VariantKeys) {
    let members = &v.courses;
    // Stop reasons of the variant's engagements, in order of first appearance.
    let mut reasons: Vec<&str> = Vec::new();
    for &i in members {
        if is_engagement(&run.courses[i]) {
            for r in run.courses[i].space.outcomes() {
                if !reasons.contains(&r.as_str()) {
                    reasons.push(r);
                }
            }
        }
    }
    if v.rows.is_empty() && reasons.is_empty() {
        return;
    }
    // (label, kind, value per course)
    let mut items: Vec<(String, KeyKind, Vec<Option<Figure>>)> = v
        .rows
        .iter()
        .map(|(def, vals)| {
            let shown = vals.iter().map(|k| k.map(|k| k.figure)).collect();
            (def.label.to_string(), def.kind, shown)
        })
        .collect();
    for reason in &reasons {
        let shown = members
            .iter()
            .map(|&i| {
                if !is_engagement(&run.courses[i]) {
                    return None;
                }
                let k = run.courses[i].space.outcome_index(reason)?;
                Some(stats[i].outcomes[k].figure)
            })
            .collect();
        items.push((stop_phrase(reason), KeyKind::Probability, shown));
    }
    // Exact only (`--method exact`): the value is exact, with nothing to
    // set beside it.
    let exact_only = members
        .iter()
        .all(|&i| stats[i].trials == 0 && stats[i].has_exact());
    if exact_only {
        for s in items
            .iter_mut()
            .flat_map(|(_, _, s)| s.iter_mut().flatten())
        {
            *s = Figure {
                value: s.value,
                ci: (f64::NAN, f64::NAN),
                exact: None,
            };
        }
    }
    let all: Vec<&Figure> = items
        .iter()
        .flat_map(|(_, _, s)| s.iter().flatten())
        .collect();
    let any_exact = all.iter().any(|s| s.exact.is_some());
    let all_exact = all.iter().all(|s| s.exact.is_some());

    out.push('\n');
    if v.variant.is_empty() {
        let _ = writeln!(out, "== key outcomes");
    } else {
        let _ = writeln!(out, "== key outcomes  [{}]", v.variant);
    }
    let legend = if exact_only {
        "exact (no Monte Carlo trials)"
    } else if all_exact {
        "Monte Carlo [exact]"
    } else if any_exact {
        "Monte Carlo [exact], or ± half the 95% interval where exact is missing"
    } else {
        "Monte Carlo ± half the 95% interval"
    };
    let _ = writeln!(out, "  {legend}");
    let names = course_names(run, members);
    let combined: Vec<(String, Vec<String>)> = items
        .iter()
        .map(|(label, kind, vals)| {
            let cells = vals
                .iter()
                .map(|s| match s {
                    Some(s) => format!("{} {}", value_text(s, *kind), second_text(s, *kind)),
                    None => "-".into(),
                })
                .collect();
            (label.clone(), cells)
        })
        .collect();
    let combined = with_sides(run, members, combined);
    if fit_cap(LABEL_W_KEY, &names, &combined, 0..names.len()).is_some() {
        columns(out, "", &names, &combined);
        return;
    }
    // Too wide: the exact value or interval on a line of its own.
    let sub = if all_exact {
        "  exact"
    } else if any_exact {
        "  exact or ±"
    } else {
        "  ± 95%"
    };
    let mut split = Vec::new();
    for (label, kind, vals) in &items {
        split.push((
            label.clone(),
            vals.iter()
                .map(|s| s.map_or_else(|| "-".into(), |s| value_text(&s, *kind)))
                .collect(),
        ));
        split.push((
            sub.to_string(),
            vals.iter()
                .map(|s| s.map_or_else(String::new, |s| second_text(&s, *kind)))
                .collect(),
        ));
    }
    let split = with_sides(run, members, split);
    columns(out, "", &names, &split);
}

/// A value shown in the key block: a probability as a percentage, an
/// expectation as a number.
fn value_text(f: &Figure, kind: KeyKind) -> String {
    match kind {
        KeyKind::Probability => pct(f.value, 2),
        KeyKind::Expectation => num(f.value, 3),
    }
}

/// What stands beside a value in the key block: `[exact]` when known, else
/// `±` half the interval.
fn second_text(f: &Figure, kind: KeyKind) -> String {
    match (f.exact, kind) {
        (Some(e), KeyKind::Probability) => format!("[{}]", pct(e, 2)),
        (Some(e), KeyKind::Expectation) => format!("[{}]", num(e, 3)),
        (None, _) => {
            let half = (f.ci.1 - f.ci.0) / 2.0;
            match kind {
                _ if !half.is_finite() => String::new(),
                KeyKind::Probability => format!("±{}", pct(half, 2)),
                KeyKind::Expectation => format!("±{}", num(half, 3)),
            }
        }
    }
}

/// A number with `decimals` decimals, `-` when not finite.
fn num(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{x:.decimals$}")
    } else {
        "-".into()
    }
}
