//! The small pieces every section of the report's page is written with:
//! escaping, links, the cells of a figure and the plots' figures.

use std::fmt::Write as _;

use super::site::{Folder, Table};
use crate::report::folder::PlotKind;

/// Escapes text and attribute values: `&`, `<`, `>`, `"` and `'`.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A relative URL from path segments: each segment percent-encoded except
/// unreserved characters, joined with `/`.
pub fn href(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// A number in a CSV cell, if any.
pub(crate) fn num(s: &str) -> Option<f64> {
    s.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// A probability cell as a percentage with `d` decimals, or `–`.
pub(crate) fn pct(s: &str, d: usize) -> String {
    num(s).map_or_else(|| "–".into(), |x| format!("{:.d$}%", x * 100.0))
}

/// An expectation with `d` decimals, or `–`.
pub(crate) fn dec(s: &str, d: usize) -> String {
    num(s).map_or_else(|| "–".into(), |x| format!("{x:.d$}"))
}

/// The figure at row `i` of a table with `value`, `ci_low`, `ci_high` and
/// `exact` columns, for a cell: the value, the exact value beside it when
/// known, the 95% interval below; a probability as a percentage.
pub(crate) fn figure(t: &Table, i: usize, prob: bool) -> String {
    let d = if prob { 2 } else { 3 };
    let show = |s: &str| if prob { pct(s, d) } else { dec(s, d) };
    let exact = t.get(i, "exact");
    let ex = if exact.is_empty() {
        String::new()
    } else {
        format!(" <span class=\"ex\">exact {}</span>", show(&exact))
    };
    format!(
        "{}{ex}<span class=\"ci\">{} – {}</span>",
        show(&t.get(i, "value")),
        show(&t.get(i, "ci_low")),
        show(&t.get(i, "ci_high")),
    )
}

/// Figures for the plots at rows `idx` of `plots.csv`: the PNG, linking to
/// the SVG.
pub(crate) fn plots(o: &mut String, f: &Folder, base: &str, idx: &[usize]) {
    if idx.is_empty() {
        return;
    }
    let _ = writeln!(o, "<div class=\"plots\">");
    for &i in idx {
        let kind = f.plots.get(i, "kind");
        let course = f.plots.get(i, "course");
        let caption = match PlotKind::from_name(&kind) {
            Some(PlotKind::Comparison) => "key outcomes by course".to_string(),
            Some(PlotKind::ComparisonExpected) => "expected values by course".to_string(),
            Some(PlotKind::Histogram) => format!("{course}: outcomes"),
            Some(PlotKind::Turns) => format!("{course}: turns to each stop reason"),
            Some(PlotKind::Cumulative) => format!("{course}: P(stopped by turn t)"),
            Some(PlotKind::AtLeast) => format!("{course}: at least k, P(X ≥ k)"),
            Some(PlotKind::Sweep) => "key outcomes across the sweep".to_string(),
            Some(PlotKind::Heatmap) => format!("{course}: across two swept keys"),
            None => kind.clone(),
        };
        let png = href(&format!("{base}{}", f.plots.get(i, "png")));
        let svg = href(&format!("{base}{}", f.plots.get(i, "svg")));
        let _ = writeln!(
            o,
            "<figure><a href=\"{}\"><img src=\"{}\" alt=\"{}\" width=\"1000\" height=\"600\" loading=\"lazy\"></a>\
             <figcaption>{} (<a href=\"{}\">SVG</a>)</figcaption></figure>",
            esc(&svg),
            esc(&png),
            esc(&caption),
            esc(&caption),
            esc(&svg),
        );
    }
    let _ = writeln!(o, "</div>");
}
