//! The terminal layout of an explanation: one readable column of lines.

use std::fmt::Write;

use super::{
    Case, Explanation, Limit, PoolLine, ResultP, Roll, SidePool, SourceKind, StepExplanation, Term,
};

fn pct(p: f64) -> String {
    format!("{:.2}%", p * 100.0)
}

fn signed(v: i32) -> String {
    if v == 0 { "0".into() } else { format!("{v:+}") }
}

fn source_kind(k: SourceKind) -> &'static str {
    match k {
        SourceKind::Card => "card",
        SourceKind::Unit => "unit",
        SourceKind::Key => "step key",
        SourceKind::Rules => "[rules]",
    }
}

/// "+6, limited to +4 (11.0): 2 of the +6 lost", or the limit not reached.
pub fn limit_line(raw: i32, fin: i32, l: &Limit) -> String {
    let range = if l.min == -l.max {
        format!("±{}", l.max)
    } else {
        format!("{}..{}", signed(l.min), signed(l.max))
    };
    if l.lost == 0 {
        format!(
            "total {}; limit {range} ({}): not reached",
            signed(raw),
            l.rule
        )
    } else {
        format!(
            "total {}, limited to {} ({}): {} of the {} lost",
            signed(raw),
            signed(fin),
            l.rule,
            l.lost,
            signed(raw)
        )
    }
}

fn term_line(out: &mut String, pad: &str, t: &Term) {
    let rule = if t.rule.is_empty() || t.label.contains(&format!("({}", t.rule)) {
        String::new()
    } else {
        format!(" ({})", t.rule)
    };
    let value = if t.applied {
        format!("{:>3}", signed(t.value))
    } else {
        format!("({})", signed(t.value))
    };
    let _ = write!(
        out,
        "{pad}{value}  {}{rule} — {}: {}",
        t.label,
        source_kind(t.source.kind),
        t.source.detail
    );
    match (&t.note, t.applied) {
        (Some(n), false) => {
            let _ = write!(out, " [not applied: {n}]");
        }
        (Some(n), true) => {
            let _ = write!(out, " [{n}]");
        }
        (None, false) => out.push_str(" [not applied]"),
        (None, true) => {}
    }
    out.push('\n');
}

/// The lines of one roll, indented by `pad`.
pub fn roll(out: &mut String, pad: &str, r: &Roll) {
    let column = r
        .column
        .as_ref()
        .map_or_else(String::new, |c| format!(", column {c}"));
    let rule = if r.rule.is_empty() {
        String::new()
    } else {
        format!(" ({})", r.rule)
    };
    let _ = writeln!(out, "{pad}roll: {} on {}{rule}{column}", r.dice, r.table);
    if !r.column_from.is_empty() {
        let _ = writeln!(out, "{pad}row/column from:");
        for t in &r.column_from {
            term_line(out, &format!("{pad}  "), t);
        }
        if r.column_from.len() > 1 {
            let _ = writeln!(out, "{pad}  = {}", super::sum(&r.column_from));
        }
    }
    if !r.pool.is_empty() {
        let _ = writeln!(out, "{pad}dice:");
        let mut total = 0;
        for l in &r.pool {
            pool_line(out, pad, l, &mut total);
        }
    }
    for side in &r.sides {
        side_pool(out, pad, side);
    }
    if r.modifiers.is_empty() {
        // A pool's lines above, or an opposed roll's sides, are its modifiers.
        if r.pool.is_empty() && r.sides.is_empty() {
            let _ = writeln!(out, "{pad}modifiers: none");
        }
    } else {
        let _ = writeln!(out, "{pad}modifiers:");
        for t in &r.modifiers {
            term_line(out, &format!("{pad}  "), t);
        }
    }
    match &r.limit {
        Some(l) => {
            let _ = writeln!(out, "{pad}{}", limit_line(r.raw_total, r.final_total, l));
        }
        None if !r.modifiers.is_empty() => {
            let _ = writeln!(out, "{pad}total {} (no limit)", signed(r.raw_total));
        }
        None => {}
    }
    if !r.faces.is_empty() {
        let _ = writeln!(out, "{pad}faces (die -> modified -> row: result):");
        for f in &r.faces {
            let note = f
                .note
                .as_ref()
                .map_or_else(String::new, |n| format!(" [{n}]"));
            let _ = writeln!(
                out,
                "{pad}  {:>5} -> {:>7} -> {}: {}{note}",
                f.faces, f.modified, f.row, f.result
            );
        }
    }
    for n in &r.notes {
        let _ = writeln!(out, "{pad}note: {n}");
    }
    for f in &r.follow_ups {
        let _ = writeln!(out, "{pad}then, {}:", f.when);
        roll(out, &format!("{pad}  "), &f.roll);
    }
}

/// One line of a dice count, with the running count `total` after it.
fn pool_line(out: &mut String, pad: &str, l: &PoolLine, total: &mut i32) {
    if l.applied {
        *total += l.dice;
    }
    let rule = if l.rule.is_empty() {
        String::new()
    } else {
        format!(" ({})", l.rule)
    };
    let state = match (&l.note, l.applied) {
        (Some(n), false) => format!(" [not applied: {n}]"),
        (None, false) => " [not applied]".into(),
        (Some(n), true) => format!(" [{n}]"),
        (None, true) => String::new(),
    };
    let _ = writeln!(
        out,
        "{pad}  {:>3}  {}{rule} — {}: {}{state}  (= {total})",
        signed(l.dice),
        l.label,
        source_kind(l.source.kind),
        l.source.detail
    );
}

/// One side's pool of an opposed roll: its dice line by line with the
/// running count, the modifiers to its dice, and the number its tests need.
fn side_pool(out: &mut String, pad: &str, s: &SidePool) {
    let _ = writeln!(
        out,
        "{pad}{}: {} {}",
        s.side,
        s.total,
        if s.total == 1 { "die" } else { "dice" }
    );
    let mut count = 0;
    for l in &s.lines {
        pool_line(out, pad, l, &mut count);
    }
    for t in &s.dice_modifiers {
        term_line(out, &format!("{pad}  "), t);
    }
    if !s.test.is_empty() {
        let _ = writeln!(out, "{pad}  {}:", s.test);
        for t in &s.test_terms {
            term_line(out, &format!("{pad}    "), t);
        }
        let _ = writeln!(out, "{pad}    = {}", s.test_total);
    }
    for n in &s.notes {
        let _ = writeln!(out, "{pad}  note: {n}");
    }
}

fn results(out: &mut String, pad: &str, head: &str, rs: &[ResultP]) {
    let _ = writeln!(out, "{pad}{head}");
    let w = rs
        .iter()
        .map(|r| r.label.chars().count())
        .max()
        .unwrap_or(0);
    for r in rs {
        let _ = writeln!(out, "{pad}  {:<w$}  {:>8}", r.label, pct(r.p));
    }
}

fn case(out: &mut String, pad: &str, c: &Case) {
    roll(out, pad, &c.roll);
    results(out, pad, "results (exact):", &c.results);
    if !c.triggers.is_empty() {
        let _ = writeln!(out, "{pad}triggers:");
        for t in &c.triggers {
            let when = if t.always {
                ""
            } else {
                " (on some ways to it)"
            };
            let _ = writeln!(out, "{pad}  on {}: {}{when}", t.on, t.roll);
        }
    }
}

fn step(out: &mut String, s: &StepExplanation) {
    let rule = if s.rule.is_empty() {
        String::new()
    } else {
        format!(" ({})", s.rule)
    };
    let _ = writeln!(
        out,
        "  {}{rule} — rolled with P = {}",
        s.title,
        pct(s.p_reached)
    );
    if let [one] = s.cases.as_slice() {
        if !one.state.is_empty() {
            let _ = writeln!(out, "    state: {}", one.state.join("; "));
        }
        case(out, "    ", one);
    } else {
        let _ = writeln!(
            out,
            "    {} states reach this step, each with its own roll:",
            s.cases.len()
        );
        for (i, c) in s.cases.iter().enumerate() {
            let state = if c.state.is_empty() {
                "as the scenario states".to_string()
            } else {
                c.state.join("; ")
            };
            let _ = writeln!(
                out,
                "    case {} (P = {}): {state}",
                i + 1,
                pct(c.p_reached)
            );
            case(out, "      ", c);
        }
        results(
            out,
            "    ",
            "results of the step (exact, given it is rolled):",
            &s.results,
        );
    }
}

/// The whole explanation as text.
pub fn render(e: &Explanation) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "== {} ({}, {})", e.name, e.system, e.file);
    if !e.sets.is_empty() {
        let _ = writeln!(out, "   --set {}", e.sets.join(" --set "));
    }
    for v in &e.variants {
        let mut head = Vec::new();
        if !v.variant.is_empty() {
            head.push(format!("variant {}", v.variant));
        }
        if let Some(ed) = &v.edition {
            head.push(format!("edition {ed}"));
        }
        if !head.is_empty() {
            let _ = writeln!(out, "\n-- {}", head.join(", "));
        }
        for c in &v.courses {
            let _ = writeln!(
                out,
                "\ncourse \"{}\" (own {}, enemy {})",
                c.name,
                if c.own.is_empty() { "-" } else { &c.own },
                if c.enemy.is_empty() { "-" } else { &c.enemy }
            );
            for s in &c.steps {
                step(&mut out, s);
            }
            results(
                &mut out,
                "  ",
                "course outcomes (exact, as `run --exact`):",
                &c.outcomes,
            );
        }
    }
    out
}
