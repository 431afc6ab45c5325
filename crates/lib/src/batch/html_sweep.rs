//! A swept scenario's opening on `index.html`: the sweep charts (each swept
//! key's line chart, each course's heatmap) and the sweep table, one row
//! per variant with its swept values and a column per course giving the
//! first key outcome, its 95% interval and exact value, read from the
//! scenario's `sweep.csv`. The page then shows each variant's detail
//! collapsed (see [`super::html`]).

use std::collections::HashMap;
use std::fmt::Write as _;

use super::html_parts::{esc, figure, href, plots};
use super::site::{Folder, Table};
use crate::report::folder::PlotKind;
use crate::report::key::{KEY_OUTCOMES, KeyKind};
use crate::report::sweep_csv::{SWEEP_COLUMNS, SWEEP_CSV};

/// The most variants the sweep table lists; `sweep.csv` has every one.
pub const MAX_ROWS: usize = 500;

/// Writes the sweep's charts and table when the folder has a `sweep.csv`;
/// returns whether it did (the scenario is swept).
pub fn section(o: &mut String, f: &Folder, base: &str) -> bool {
    let Some(t) = &f.sweep else {
        return false;
    };
    let _ = writeln!(o, "<section class=\"sweep\">");
    let _ = writeln!(o, "<h3>Across the sweep</h3>");
    let figures: Vec<usize> = (0..f.plots.rows.len())
        .filter(|&i| {
            matches!(
                PlotKind::from_name(&f.plots.get(i, "kind")),
                Some(PlotKind::Sweep | PlotKind::Heatmap)
            )
        })
        .collect();
    plots(o, f, base, &figures);
    table(o, t, base);
    let _ = writeln!(o, "</section>");
    true
}

/// The sweep table of the first key outcome in `sweep.csv`.
fn table(o: &mut String, t: &Table, base: &str) {
    let keys: Vec<&String> = t
        .header
        .iter()
        .take_while(|h| *h != SWEEP_COLUMNS[0])
        .collect();
    let Some(id) = (0..t.rows.len())
        .filter(|&i| t.get(i, "kind") == "key")
        .map(|i| t.get(i, "id"))
        .next()
    else {
        return;
    };
    let def = KEY_OUTCOMES.iter().find(|d| d.name == id);
    let prob = def.is_none_or(|d| d.kind == KeyKind::Probability);
    let mut variants: Vec<String> = Vec::new();
    let mut courses: Vec<String> = Vec::new();
    let mut cells: HashMap<(String, String), usize> = HashMap::new();
    let mut swept: HashMap<String, usize> = HashMap::new();
    for i in 0..t.rows.len() {
        let v = t.get(i, "variant");
        let c = t.get(i, "course");
        if !swept.contains_key(&v) {
            swept.insert(v.clone(), i);
            variants.push(v.clone());
        }
        if !courses.contains(&c) {
            courses.push(c.clone());
        }
        if t.get(i, "kind") == "key" && t.get(i, "id") == id {
            cells.insert((v, c), i);
        }
    }
    let any_exact = cells.values().any(|&i| !t.get(i, "exact").is_empty());
    let label = def.map_or(id.as_str(), |d| d.label);
    let _ = writeln!(
        o,
        "<p class=\"meta\">{} by variant and course: the value, its 95% interval below{}; \
         every key outcome and mean in <a href=\"{}\">{SWEEP_CSV}</a>.</p>",
        esc(label),
        if any_exact {
            ", the exact value beside it"
        } else {
            ""
        },
        esc(&href(&format!("{base}{SWEEP_CSV}"))),
    );
    let _ = write!(
        o,
        "<div class=\"wide\"><table class=\"sweep\">\n<thead><tr>"
    );
    for k in &keys {
        let _ = write!(o, "<th><code>{}</code></th>", esc(k));
    }
    for c in &courses {
        let _ = write!(o, "<th class=\"num\">{}</th>", esc(c));
    }
    let _ = writeln!(o, "</tr></thead>\n<tbody>");
    for v in variants.iter().take(MAX_ROWS) {
        let first = swept[v];
        let _ = write!(o, "<tr>");
        for k in &keys {
            let _ = write!(o, "<td>{}</td>", esc(&t.get(first, k)));
        }
        for c in &courses {
            match cells.get(&(v.clone(), c.clone())) {
                None => {
                    let _ = write!(o, "<td class=\"num\">–</td>");
                }
                Some(&i) => {
                    let _ = write!(o, "<td class=\"num\">{}</td>", figure(t, i, prob));
                }
            }
        }
        let _ = writeln!(o, "</tr>");
    }
    let _ = writeln!(o, "</tbody>\n</table></div>");
    if variants.len() > MAX_ROWS {
        let _ = writeln!(
            o,
            "<p class=\"meta\">… {} more variants (see {SWEEP_CSV}).</p>",
            variants.len() - MAX_ROWS
        );
    }
}
