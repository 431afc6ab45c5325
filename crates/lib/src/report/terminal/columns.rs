//! Plain-text tables of the terminal report: a label column, then one
//! right-aligned column per course headed by its name, wrapped rather than
//! cut, continued in a further table when the columns do not fit in
//! [`WIDTH`].

use std::fmt::Write as _;

use super::WIDTH;

/// `s` padded or shortened (with `…`) to exactly `n` characters.
pub(super) fn cell(s: &str, n: usize) -> String {
    let len = s.chars().count();
    if len <= n {
        format!("{s}{}", " ".repeat(n - len))
    } else {
        let mut out: String = s.chars().take(n.saturating_sub(1)).collect();
        out.push('…');
        out
    }
}
/// Widest label column of the key block.
pub(super) const LABEL_W_KEY: usize = 44;

/// Narrowest column a course name is wrapped into.
const MIN_COL: usize = 10;

/// The width of each column of `cols` when course names are wrapped at
/// `cap` characters: at least its widest cell, at most its name.
fn col_widths(
    cap: usize,
    names: &[&str],
    rows: &[(String, Vec<String>)],
    cols: &[usize],
) -> Vec<usize> {
    cols.iter()
        .map(|&j| {
            let cells = rows
                .iter()
                .map(|(_, c)| c[j].chars().count())
                .max()
                .unwrap_or(0);
            cells.max(names[j].chars().count().min(cap)).max(1)
        })
        .collect()
}

/// The width of a table's label column: its longest label, at least 7
/// characters and at most `max`.
pub(crate) fn label_width<'a>(max: usize, labels: impl IntoIterator<Item = &'a str>) -> usize {
    labels
        .into_iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(7, max)
}

/// The label column's width for `rows` under the heading `head`.
fn rows_label_width(max: usize, head: &str, rows: &[(String, Vec<String>)]) -> usize {
    label_width(max, rows.iter().map(|(l, _)| l.as_str()).chain([head]))
}

/// The largest wrapping width of course names at which columns `cols` fit in
/// [`WIDTH`] next to the label column, if any (at least [`MIN_COL`]).
pub(super) fn fit_cap(
    label_max: usize,
    names: &[&str],
    rows: &[(String, Vec<String>)],
    cols: impl IntoIterator<Item = usize>,
) -> Option<usize> {
    let cols: Vec<usize> = cols.into_iter().collect();
    let label_w = rows_label_width(label_max, "", rows);
    let longest = cols
        .iter()
        .map(|&j| names[j].chars().count())
        .max()
        .unwrap_or(0)
        .max(MIN_COL);
    (MIN_COL..=longest).rev().find(|&cap| {
        let total: usize = col_widths(cap, names, rows, &cols)
            .iter()
            .map(|w| w + 2)
            .sum();
        2 + label_w + total <= WIDTH
    })
}

/// Word-wraps `s` into lines of at most `w` characters, breaking after
/// spaces, dashes and commas, and inside a word only when it is longer than
/// a line.
pub(super) fn wrap_words(s: &str, w: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for piece in crate::report::pieces_after(s, &[' ', '-', ',', '/']) {
        let cand = format!("{line}{piece}");
        if cand.trim_end().chars().count() <= w {
            line = cand;
            continue;
        }
        if !line.trim_end().is_empty() {
            lines.push(line.trim_end().to_string());
        }
        line = String::new();
        for ch in piece.chars() {
            if line.trim_end().chars().count() >= w {
                lines.push(std::mem::take(&mut line).trim_end().to_string());
            }
            line.push(ch);
        }
    }
    if !line.trim_end().is_empty() {
        lines.push(line.trim_end().to_string());
    }
    lines
}

/// A table: a label column, then one right-aligned column per course headed
/// by its name (wrapped, never cut, when long). Columns that do not fit in
/// [`WIDTH`] continue in a further table below.
pub(super) fn columns(
    out: &mut String,
    head: &str,
    names: &[&str],
    rows: &[(String, Vec<String>)],
) {
    let label_w = rows_label_width(LABEL_W_KEY, head, rows);
    // Greedy chunks of columns that fit.
    let mut chunks: Vec<(Vec<usize>, usize)> = Vec::new();
    let mut cur: Vec<usize> = Vec::new();
    for j in 0..names.len() {
        let mut trial = cur.clone();
        trial.push(j);
        if fit_cap(LABEL_W_KEY, names, rows, trial.iter().copied()).is_some() || cur.is_empty() {
            cur = trial;
        } else {
            let cap = fit_cap(LABEL_W_KEY, names, rows, cur.iter().copied()).unwrap_or(MIN_COL);
            chunks.push((std::mem::take(&mut cur), cap));
            cur.push(j);
        }
    }
    if !cur.is_empty() {
        let cap = fit_cap(LABEL_W_KEY, names, rows, cur.iter().copied()).unwrap_or(MIN_COL);
        chunks.push((cur, cap));
    }
    for (n, (cols, cap)) in chunks.iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let widths = col_widths(*cap, names, rows, cols);
        let heads: Vec<Vec<String>> = cols
            .iter()
            .zip(&widths)
            .map(|(&j, &w)| wrap_words(names[j], w))
            .collect();
        let height = heads.iter().map(Vec::len).max().unwrap_or(1).max(1);
        for k in 0..height {
            let label = if k + 1 == height { head } else { "" };
            let mut line = format!("  {}", cell(label, label_w));
            for (lines, &w) in heads.iter().zip(&widths) {
                let pad = height - lines.len();
                let text = if k >= pad {
                    lines[k - pad].as_str()
                } else {
                    ""
                };
                let _ = write!(line, "  {text:>w$}");
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        for (label, cells) in rows {
            let mut line = format!("  {}", cell(label, label_w));
            for (&j, &w) in cols.iter().zip(&widths) {
                let _ = write!(line, "  {:>w$}", cells[j]);
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
}
