//! Parts of `index.html` beyond the outcome tables: a course's difference
//! from the first course (from `comparison.csv`'s `diff_*` columns), the
//! "at least" table of a course's measures (from `measures.csv`) and the
//! options a scenario was run with (from `run.json`).

use std::fmt::Write as _;

use super::html_parts::esc;
use super::site::{Folder, Table};
use crate::report::Figure;
use crate::report::draw::thousands;
use crate::report::key::{KeyKind, difference_text, signed};
use crate::report::record::RunRecord;

/// A number in a CSV cell, if any.
fn num(s: &str) -> Option<f64> {
    s.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// The difference of row `i` of `comparison.csv` from its `diff_from`
/// course, as a line under the value: `vs charge now: +17.32 pp [+17.18,
/// +17.46], exact +17.30 pp`. Empty on the reference course's own row.
pub fn difference_line(t: &Table, i: usize, kind: KeyKind) -> String {
    let from = t.get(i, "diff_from");
    let Some(value) = num(&t.get(i, "diff")) else {
        return String::new();
    };
    if from.is_empty() {
        return String::new();
    }
    let d = Figure {
        value,
        ci: (
            num(&t.get(i, "diff_ci_low")).unwrap_or(f64::NAN),
            num(&t.get(i, "diff_ci_high")).unwrap_or(f64::NAN),
        ),
        exact: num(&t.get(i, "diff_exact")),
    };
    let decimals = match kind {
        KeyKind::Probability => 2,
        KeyKind::Expectation => 3,
    };
    let exact = d.exact.map_or_else(String::new, |e| {
        format!(", exact {}", signed(kind, e, decimals))
    });
    format!(
        "<span class=\"diff\">vs {}: {}{}</span>",
        esc(&from),
        esc(&difference_text(kind, &d, decimals)),
        esc(&exact)
    )
}

/// The "at least" table of one course: a row per measure that takes more
/// than one value, a cell per value `k` above the smallest up to the
/// largest that can happen, each `P(X >= k)` (the exact value under it
/// when known). Nothing when no measure varies.
pub fn at_least_table(o: &mut String, f: &Folder, variant: &str, course: &str) {
    let t = &f.measures;
    let rows: Vec<usize> = (0..t.rows.len())
        .filter(|&i| t.get(i, "variant") == variant && t.get(i, "course") == course)
        .collect();
    let mut measures: Vec<String> = Vec::new();
    for &i in &rows {
        let m = t.get(i, "measure");
        if !measures.contains(&m) {
            measures.push(m);
        }
    }
    let mut body = String::new();
    let mut widest = 0;
    for m in &measures {
        let mine: Vec<usize> = rows
            .iter()
            .copied()
            .filter(|&i| t.get(i, "measure") == *m)
            .collect();
        let possible = |i: usize| {
            t.get(i, "count").parse::<u64>().is_ok_and(|c| c > 0)
                || num(&t.get(i, "exact")).is_some_and(|e| e > 0.0)
        };
        let (Some(first), Some(last)) = (
            mine.iter().position(|&i| possible(i)),
            mine.iter().rposition(|&i| possible(i)),
        ) else {
            continue;
        };
        if last <= first {
            continue;
        }
        widest = widest.max(last - first);
        let _ = write!(body, "<tr><td>{}</td>", esc(m));
        for &i in &mine[first + 1..=last] {
            let exact = num(&t.get(i, "exact_at_least")).map_or_else(String::new, |e| {
                format!("<span class=\"ci\">exact {:.2}%</span>", e * 100.0)
            });
            let _ = write!(
                body,
                "<td class=\"num\"><span class=\"k\">&#8805;{}</span> {}{exact}</td>",
                esc(&t.get(i, "value")),
                num(&t.get(i, "at_least"))
                    .map_or_else(|| "–".into(), |p| format!("{:.2}%", p * 100.0)),
            );
        }
        let _ = writeln!(body, "</tr>");
    }
    if body.is_empty() {
        return;
    }
    let _ = writeln!(
        o,
        "<div class=\"wide\"><table class=\"atleast\">\n<thead><tr><th>measure</th>\
         <th colspan=\"{widest}\">at least k: P(X &#8805; k)</th></tr></thead>\n<tbody>\n{body}</tbody>\n</table></div>"
    );
}

/// The options a run used, for a scenario's header: trials, seed, exact,
/// kernel and every `--set`.
pub fn run_options(r: &RunRecord) -> String {
    let mut parts = vec![
        format!("{} trials", thousands(r.trials)),
        format!("seed {}", r.seed),
        format!("exact {}", if r.exact { "on" } else { "off" }),
        format!("kernel {}", esc(&r.kernel)),
    ];
    if r.sets.is_empty() {
        parts.push("no --set".into());
    } else {
        let sets: Vec<String> = r
            .sets
            .iter()
            .map(|s| format!("<code>--set {}</code>", esc(s)))
            .collect();
        parts.push(sets.join(" "));
    }
    format!("run with {}", parts.join(" · "))
}
