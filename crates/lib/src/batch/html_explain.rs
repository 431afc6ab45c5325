//! The page's "how it is rolled" box for one course: its `explain.json`
//! entry (the model of `pikeshot explain`) shown collapsed, a `<details>`
//! per course and per step inside it.
//!
//! Engagement courses reach many states, so a step shows at most
//! [`CASES_SHOWN`] cases (the likeliest first) and says how many more
//! `explain.json` holds, and a course at most [`STEPS_SHOWN`] steps (a
//! repeated course lists one per turn).

use std::fmt::Write as _;

use super::html_parts::esc;
use crate::explain::{
    Case, CourseExplanation, Explanation, PoolLine, Roll, SidePool, Source, SourceKind,
    StepExplanation, Term,
};

/// Most cases (states a step is rolled in) shown per step.
pub const CASES_SHOWN: usize = 3;
/// Most steps shown per course (a course repeated turn after turn lists a
/// step per turn).
pub const STEPS_SHOWN: usize = 12;

/// The explanation of `course` in `variant`, when `e` has it.
fn find<'a>(e: &'a Explanation, variant: &str, course: &str) -> Option<&'a CourseExplanation> {
    e.variants
        .iter()
        .filter(|v| v.variant == variant)
        .flat_map(|v| &v.courses)
        .find(|c| c.name == course)
}

/// Writes the collapsed explanation of `course` in `variant` (nothing when
/// the folder has no `explain.json` or it lacks the course). `link` is the
/// page's relative address of the file.
pub fn course(o: &mut String, e: Option<&Explanation>, variant: &str, course: &str, link: &str) {
    let Some(c) = e.and_then(|e| find(e, variant, course)) else {
        return;
    };
    let _ = writeln!(
        o,
        "<details class=\"explain\"><summary>How it is rolled <span class=\"ex\">({} · {} against {} · {} step{})</span></summary>",
        esc(&c.name),
        esc(&c.own),
        esc(&c.enemy),
        c.steps.len(),
        if c.steps.len() == 1 { "" } else { "s" }
    );
    for s in c.steps.iter().take(STEPS_SHOWN) {
        step(o, s, link);
    }
    more(o, c.steps.len(), STEPS_SHOWN, "step", link);
    let _ = writeln!(o, "</details>");
}

/// The line saying how many of `total` things the page left out after
/// showing `shown`, pointing at `explain.json` (nothing when none was).
fn more(o: &mut String, total: usize, shown: usize, thing: &str, link: &str) {
    if total > shown {
        let more = total - shown;
        let _ = writeln!(
            o,
            "<p class=\"meta\">… {more} more {thing}{} (see <a href=\"{}\">explain.json</a>)</p>",
            if more == 1 { "" } else { "s" },
            esc(link)
        );
    }
}

fn pct(p: f64) -> String {
    format!("{:.2}%", p * 100.0)
}

fn signed(v: i32) -> String {
    format!("{v:+}")
}

/// A rule number as it follows a title: ` (11.7.2)`, escaped; nothing
/// when there is none.
fn rule_suffix(rule: &str) -> String {
    if rule.is_empty() {
        String::new()
    } else {
        format!(" ({})", esc(rule))
    }
}

fn step(o: &mut String, s: &StepExplanation, link: &str) {
    let rule = rule_suffix(&s.rule);
    let _ = writeln!(
        o,
        "<details class=\"step\"><summary>{}{rule} <span class=\"ex\">· rolled {} · {} case{}</span></summary>",
        esc(&s.title),
        pct(s.p_reached),
        s.cases.len(),
        if s.cases.len() == 1 { "" } else { "s" }
    );
    results(o, "results", &s.results);
    let mut order: Vec<&Case> = s.cases.iter().collect();
    // Likeliest first; ties keep the file's order (the sort is stable).
    order.sort_by(|a, b| b.p_reached.total_cmp(&a.p_reached));
    // With one case its results are the step's, already shown.
    let alone = s.cases.len() == 1;
    for c in order.iter().take(CASES_SHOWN) {
        case(o, c, alone);
    }
    more(o, s.cases.len(), CASES_SHOWN, "state", link);
    let _ = writeln!(o, "</details>");
}

fn results(o: &mut String, what: &str, r: &[crate::explain::ResultP]) {
    let parts: Vec<String> = r
        .iter()
        .filter(|r| r.p > 0.0)
        .map(|r| format!("{} {}", esc(&r.label), pct(r.p)))
        .collect();
    if !parts.is_empty() {
        let _ = writeln!(o, "<p class=\"meta\">{what}: {}</p>", parts.join(" · "));
    }
}

fn case(o: &mut String, c: &Case, alone: bool) {
    let state = if c.state.is_empty() {
        "the scenario's own state".to_string()
    } else {
        c.state
            .iter()
            .map(|s| esc(s))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let _ = writeln!(
        o,
        "<div class=\"case\"><p><b>reached {}</b> · {state}</p>",
        pct(c.p_reached)
    );
    roll(o, &c.roll);
    if !alone {
        results(o, "results here", &c.results);
    }
    for t in &c.triggers {
        let _ = writeln!(
            o,
            "<p class=\"meta\">on {}: {}{}</p>",
            esc(&t.on),
            esc(&t.roll),
            if t.always { "" } else { " (some ways)" }
        );
    }
    let _ = writeln!(o, "</div>");
}

fn source(kind: SourceKind) -> &'static str {
    match kind {
        SourceKind::Card => "card",
        SourceKind::Unit => "unit",
        SourceKind::Key => "key",
        SourceKind::Rules => "rules",
    }
}

fn roll(o: &mut String, r: &Roll) {
    let column = r
        .column
        .as_ref()
        .map_or_else(String::new, |c| format!(", column {}", esc(c)));
    let rule = rule_suffix(&r.rule);
    let _ = writeln!(
        o,
        "<p>{} on {}{rule}{column}</p>",
        esc(&r.dice),
        esc(&r.table)
    );
    for side in &r.sides {
        side_pool(o, side);
    }
    if !r.column_from.is_empty() {
        let _ = writeln!(o, "<p class=\"meta\">row/column from:</p>");
        let _ = writeln!(o, "<div class=\"wide\"><table class=\"terms\"><tbody>");
        term_rows(o, &r.column_from);
        let _ = writeln!(o, "</tbody></table></div>");
    }
    let lines = r.pool.len() + r.modifiers.len();
    if lines > 0 {
        let _ = writeln!(o, "<div class=\"wide\"><table class=\"terms\"><tbody>");
        pool_rows(o, &r.pool);
        term_rows(o, &r.modifiers);
        let _ = writeln!(o, "</tbody></table></div>");
    }
    if !r.modifiers.is_empty() {
        let total = match &r.limit {
            Some(l) if l.lost > 0 => format!(
                "total {}, limited to {}..{} ({}): {} lost → {}",
                signed(r.raw_total),
                signed(l.min),
                signed(l.max),
                esc(&l.rule),
                l.lost,
                signed(r.final_total)
            ),
            _ => format!("total {}", signed(r.final_total)),
        };
        let _ = writeln!(o, "<p class=\"meta\">{total}</p>");
    }
    if !r.faces.is_empty() {
        let faces: Vec<String> = r
            .faces
            .iter()
            .map(|f| {
                format!(
                    "{} → {}: {}{}",
                    esc(&f.faces),
                    esc(&f.row),
                    esc(&f.result),
                    f.note
                        .as_ref()
                        .map_or_else(String::new, |n| format!(" [{}]", esc(n)))
                )
            })
            .collect();
        let _ = writeln!(o, "<p class=\"meta\">faces: {}</p>", faces.join(" · "));
    }
    for n in &r.notes {
        let _ = writeln!(o, "<p class=\"meta\">{}</p>", esc(n));
    }
    follow_ups(o, &r.follow_ups);
}

/// The rolls the same procedure makes after the first (a step-loss die, a
/// Receiving Casualties test…), folded; at most `MAX_FOLLOW_UPS` of them,
/// the rest left to explain.json so that the page stays small.
fn follow_ups(o: &mut String, f: &[crate::explain::FollowUp]) {
    if f.is_empty() {
        return;
    }
    let _ = writeln!(
        o,
        "<details><summary>then: {} further roll{}</summary>",
        f.len(),
        if f.len() == 1 { "" } else { "s" }
    );
    for u in f.iter().take(MAX_FOLLOW_UPS) {
        let _ = writeln!(o, "<p><b>{}</b></p>", esc(&u.when));
        roll(o, &u.roll);
    }
    if f.len() > MAX_FOLLOW_UPS {
        let _ = writeln!(
            o,
            "<p class=\"meta\">and {} more in explain.json</p>",
            f.len() - MAX_FOLLOW_UPS
        );
    }
    let _ = writeln!(o, "</details>");
}

/// Most follow-up rolls a roll shows on the page.
pub const MAX_FOLLOW_UPS: usize = 4;

/// One line of a roll's count: its value (struck through when it did not
/// apply), label and note, rule, and source.
/// One side's pool of an opposed roll: its dice line by line, the
/// modifiers to its dice, and the number its tests need.
fn side_pool(o: &mut String, s: &SidePool) {
    let _ = writeln!(
        o,
        "<p>{}: {} dice</p><div class=\"wide\"><table class=\"terms\"><tbody>",
        esc(&s.side),
        s.total
    );
    pool_rows(o, &s.lines);
    term_rows(o, &s.dice_modifiers);
    term_rows(o, &s.test_terms);
    let _ = writeln!(o, "</tbody></table></div>");
    if !s.test.is_empty() {
        let _ = writeln!(
            o,
            "<p class=\"meta\">{}: {}</p>",
            esc(&s.test),
            s.test_total
        );
    }
    for n in &s.notes {
        let _ = writeln!(o, "<p class=\"meta\">{}</p>", esc(n));
    }
}

/// A row for each line of a dice count.
fn pool_rows(o: &mut String, lines: &[PoolLine]) {
    for p in lines {
        term_row(
            o,
            &format!("{:+}D", p.dice),
            &p.label,
            &p.rule,
            &p.source,
            p.applied,
            p.note.as_deref(),
        );
    }
}

/// A row for each modifier.
fn term_rows(o: &mut String, terms: &[Term]) {
    for t in terms {
        term_row(
            o,
            &signed(t.value),
            &t.label,
            &t.rule,
            &t.source,
            t.applied,
            t.note.as_deref(),
        );
    }
}

fn term_row(
    o: &mut String,
    value: &str,
    label: &str,
    rule: &str,
    src: &Source,
    applied: bool,
    note: Option<&str>,
) {
    let value = if applied {
        esc(value)
    } else {
        format!("<s>{}</s>", esc(value))
    };
    let note = note.map_or_else(String::new, |n| {
        format!(" <span class=\"k\">{}</span>", esc(n))
    });
    let _ = writeln!(
        o,
        "<tr><td class=\"num\">{value}</td><td>{}{note}</td><td>{}</td><td class=\"k\">{}: {}</td></tr>",
        esc(label),
        esc(rule),
        source(src.kind),
        esc(&src.detail)
    );
}
