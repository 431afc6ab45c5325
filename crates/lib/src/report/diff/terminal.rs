//! The terminal table of a diff.

use std::fmt::Write as _;

use super::{Diff, DiffRow, RowKind, exact_signed, pct, pp, signed};
use crate::report::KeyKind;
use crate::report::terminal::label_width;

/// The terminal table of a diff: per variant and course, each outcome's
/// probability under both cards, the change in percentage points with its
/// 95% interval and the exact change; then the key outcomes likewise. A
/// course whose every figure is exact (`--method exact`) shows only the
/// exact change, an exact zero as `0`.
pub fn terminal(d: &Diff) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}  ({}, {} → {}, seed {})",
        d.id.scenario, d.id.system, d.id.from, d.id.to, d.id.seed
    );
    let exact = d.rows.iter().any(|r| r.exact_change().is_some());
    let label_w = label_width(36, d.rows.iter().map(|r| r.label.as_str()));
    let mut i = 0;
    while i < d.rows.len() {
        let (variant, course) = (&d.rows[i].variant, &d.rows[i].course);
        let group: Vec<&DiffRow> = d.rows[i..]
            .iter()
            .take_while(|r| r.variant == *variant && r.course == *course)
            .collect();
        i += group.len();
        out.push('\n');
        let mut head = format!("== {course}");
        if !variant.is_empty() {
            let _ = write!(head, "  [{variant}]");
        }
        let _ = writeln!(out, "{head}");
        if group.iter().all(|r| r.is_exact_only()) {
            exact_group(&mut out, d, &group, label_w);
            continue;
        }
        let mut line = format!(
            "  {:<label_w$}  {:>9}  {:>9}  {:>10}  {:^21}",
            "", d.id.from, d.id.to, "change", "95% interval"
        );
        if exact {
            let _ = write!(line, "  {:>12}", "exact change");
        }
        let _ = writeln!(out, "{}", line.trim_end());
        for r in group {
            let (lo, hi) = r.change_ci();
            let cut = cut(&r.label, label_w);
            let (fv, tv, ch, lo_s, hi_s, ex) = match r.kind {
                RowKind::Outcome | RowKind::Key(KeyKind::Probability) => (
                    r.from.map_or("-".into(), |f| pct(f.value, 2)),
                    r.to.map_or("-".into(), |f| pct(f.value, 2)),
                    pp(r.change() * 100.0),
                    signed(lo * 100.0, 2),
                    signed(hi * 100.0, 2),
                    r.exact_change()
                        .map_or("-".into(), |e| format!("{} pp", signed(e * 100.0, 3))),
                ),
                RowKind::Key(KeyKind::Expectation) => (
                    r.from.map_or("-".into(), |f| format!("{:.3}", f.value)),
                    r.to.map_or("-".into(), |f| format!("{:.3}", f.value)),
                    signed(r.change(), 3),
                    signed(lo, 3),
                    signed(hi, 3),
                    r.exact_change().map_or("-".into(), |e| signed(e, 4)),
                ),
            };
            let mut line = format!(
                "  {:<label_w$}  {fv:>9}  {tv:>9}  {ch:>10}  {:^21}",
                cut,
                format!("[{lo_s}, {hi_s}]")
            );
            if exact {
                let _ = write!(line, "  {ex:>12}");
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
    out
}

/// `label`, cut to `w` characters with an ellipsis.
fn cut(label: &str, w: usize) -> String {
    if label.chars().count() > w {
        label.chars().take(w - 1).collect::<String>() + "…"
    } else {
        label.to_string()
    }
}

/// The rows of a course whose every figure is exact: both sides and the
/// exact change, with no interval (there is no sampling error).
fn exact_group(out: &mut String, d: &Diff, group: &[&DiffRow], label_w: usize) {
    let line = format!(
        "  {:<label_w$}  {:>9}  {:>9}  {:>12}",
        "", d.id.from, d.id.to, "exact change"
    );
    let _ = writeln!(out, "{}", line.trim_end());
    for r in group {
        let e = r.exact_change().unwrap_or(f64::NAN);
        let (fv, tv, ch) = match r.kind {
            RowKind::Outcome | RowKind::Key(KeyKind::Probability) => (
                r.from.map_or("-".into(), |f| pct(f.value, 2)),
                r.to.map_or("-".into(), |f| pct(f.value, 2)),
                format!("{} pp", exact_signed(e * 100.0, 3)),
            ),
            RowKind::Key(KeyKind::Expectation) => (
                r.from.map_or("-".into(), |f| format!("{:.3}", f.value)),
                r.to.map_or("-".into(), |f| format!("{:.3}", f.value)),
                exact_signed(e, 4),
            ),
        };
        let line = format!(
            "  {:<label_w$}  {fv:>9}  {tv:>9}  {ch:>12}",
            cut(&r.label, label_w)
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
}
