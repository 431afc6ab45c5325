//! The table printed on the terminal after a run: plain text, at most 100
//! columns.
//!
//! One block per variant × course: each outcome with its probability, 95%
//! Wilson interval and exact probability when known, then the measure
//! means. When a variant has several courses with the same outcomes, a
//! side-by-side table of their probabilities follows, if it fits.

use std::fmt::Write as _;

use super::model::{CourseRun, CourseStats, ScenarioRun};
use super::plot::thousands;

/// Widest line the table aims for.
pub const WIDTH: usize = 100;

/// Longest outcome label shown before it is shortened.
const LABEL_MAX: usize = 40;

/// `s` padded or shortened (with `…`) to exactly `n` characters.
fn cell(s: &str, n: usize) -> String {
    let len = s.chars().count();
    if len <= n {
        format!("{s}{}", " ".repeat(n - len))
    } else {
        let mut out: String = s.chars().take(n.saturating_sub(1)).collect();
        out.push('…');
        out
    }
}

/// A probability as a percentage with `decimals` decimals.
fn pct(p: f64, decimals: usize) -> String {
    if p.is_finite() {
        format!("{:.decimals$}%", p * 100.0)
    } else {
        "-".into()
    }
}

/// The table for `run`, ending with a newline.
pub fn terminal_table(run: &ScenarioRun) -> String {
    let mut out = String::new();
    let mut context = vec![run.system.clone()];
    if let Some(e) = &run.edition {
        context.push(format!("edition {e}"));
    }
    context.push(format!("seed {}", run.seed));
    let _ = writeln!(out, "{}  ({})", run.scenario, context.join(", "));

    let stats: Vec<CourseStats> = run.courses.iter().map(CourseRun::stats).collect();
    for variant in run.variants() {
        let members: Vec<usize> = (0..run.courses.len())
            .filter(|&i| run.courses[i].variant == variant)
            .collect();
        for &i in &members {
            out.push('\n');
            block(&mut out, &run.courses[i], &stats[i]);
        }
        if members.len() >= 2 {
            side_by_side(&mut out, run, &stats, &members);
        }
    }
    out
}

/// One course: header, outcome rows, means.
fn block(out: &mut String, course: &CourseRun, s: &CourseStats) {
    let mut head = format!("== {}", course.course);
    if !course.variant.is_empty() {
        let _ = write!(head, "  [{}]", course.variant);
    }
    let _ = write!(head, "  ({} trials)", thousands(s.trials));
    let _ = writeln!(out, "{}", cell(&head, WIDTH).trim_end());

    let exact = s.has_exact();
    let label_w = s
        .outcomes
        .iter()
        .map(|o| o.label.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(7, LABEL_MAX);
    let mut line = format!(
        "  {}  {:>8}  {:^17}",
        cell("outcome", label_w),
        "prob",
        "95% CI"
    );
    if exact {
        let _ = write!(line, "  {:>9}", "exact");
    }
    let _ = writeln!(out, "{}", line.trim_end());
    for o in &s.outcomes {
        let ci = format!("{:>7} – {:>7}", pct(o.ci.0, 2), pct(o.ci.1, 2));
        let mut line = format!(
            "  {}  {:>8}  {:^17}",
            cell(&o.label, label_w),
            pct(o.probability, 2),
            ci
        );
        if let Some(e) = o.exact {
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
                Some(e) => format!("{} {:.3} (exact {:.4})", m.name, m.mean, e),
                None => format!("{} {:.3}", m.name, m.mean),
            })
            .collect();
        wrap_list(out, "  means: ", &items);
    }
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
/// they share their outcomes and the table fits in [`WIDTH`].
fn side_by_side(out: &mut String, run: &ScenarioRun, stats: &[CourseStats], members: &[usize]) {
    let first = run.courses[members[0]].space.outcomes();
    if members
        .iter()
        .any(|&i| run.courses[i].space.outcomes() != first)
    {
        return;
    }
    let exact = members.iter().all(|&i| stats[i].has_exact());
    let label_w = first
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(7, 32);
    let col = members
        .iter()
        .map(|&i| run.courses[i].course.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(8, 16);
    if 2 + label_w + members.len() * (col + 2) > WIDTH {
        return;
    }
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
    let mut line = format!("  {}", cell("outcome", label_w));
    for &i in members {
        let name = cell(&run.courses[i].course, col);
        let _ = write!(line, "  {:>col$}", name.trim_end());
    }
    let _ = writeln!(out, "{}", line.trim_end());
    for (k, label) in first.iter().enumerate() {
        let mut line = format!("  {}", cell(label, label_w));
        for &i in members {
            let o = &stats[i].outcomes[k];
            let p = if exact {
                o.exact.unwrap_or(f64::NAN)
            } else {
                o.probability
            };
            let _ = write!(line, "  {:>col$}", pct(p, 2));
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
}
