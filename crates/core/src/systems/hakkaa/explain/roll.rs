//! The rolls of Hakkaa Päälle as explained: a TQ test (2d6 on the TQ
//! Table, its modifiers with their sources, the row clamp or the roll's
//! table end, and what each result reads on the procedure's table) and a
//! single-die roll (step loss, commander injury).

use super::super::tq::{self, MAX_TQ, MIN_TQ, Tq, TqMode, TqTest};
use super::why::Tested;
use crate::explain::{Face, Roll, faces_of, sum};

/// Ways of throwing `s` on 2d6.
fn ways(s: i32) -> i32 {
    6 - (s - 7).abs()
}

/// The faces `a` or `a-b` of a face range.
fn span(f: &Face) -> (i32, i32) {
    let mut it = f.faces.split('-').map(|x| x.parse::<i32>().unwrap_or(0));
    let a = it.next().unwrap_or(0);
    (a, it.next().unwrap_or(a))
}

/// A TQ test of `who` (built as `test`) read on `table` (rule `rule`,
/// column or row `column`): each result (DS, S, F, DF) reads `read`.
pub fn tq_roll(
    test: &TqTest,
    who: &Tested,
    table: &str,
    rule: &str,
    column: String,
    read: impl Fn(Tq) -> String,
) -> Roll {
    let terms = who.terms();
    debug_assert_eq!(
        sum(&terms),
        test.net(),
        "the terms are the test's modifiers"
    );
    let g = test.grade();
    let dice = format!(
        "2d6, {} TQ test ({} {})",
        crate::explain::possessive(who.name()),
        g.title(),
        g.tq()
    );
    let mut r = Roll::new(&dice, table, rule, terms).column(column);
    match test.mode() {
        TqMode::Row => {
            r = r.limited(
                MIN_TQ - g.tq(),
                MAX_TQ - g.tq(),
                "TQ Table: rows Rabble (6) to Fanatic (11)",
            );
            let row = test.row();
            r.faces = faces_of(2..=12, 0, |s| {
                let t = test.result(s as u8);
                (t.abbreviation().to_string(), false, read(t))
            });
            r = r.note(format!(
                "[rules] tq_modifier_mode = row: the modifiers shift the grade row; {} ({}) reads the {} ({}) row of the TQ Table",
                g.title(),
                g.tq(),
                row.title(),
                row.tq()
            ));
        }
        TqMode::Roll => {
            let net = test.net();
            r.faces = faces_of(2..=12, -net, |m| {
                let t = tq::read(g, m.clamp(2, 12) as u8);
                (
                    t.abbreviation().to_string(),
                    !(2..=12).contains(&m),
                    read(t),
                )
            });
            r = r.note(format!(
                "[rules] tq_modifier_mode = roll: the modifiers shift the 2d6 roll (a +1 reads one lower), read on the {} ({}) row, clamped to 2..12",
                g.title(),
                g.tq()
            ));
        }
    }
    for f in &mut r.faces {
        let (a, b) = span(f);
        let n: i32 = (a..=b).map(ways).sum();
        f.result = format!("{} (P {n}/36)", f.result);
    }
    r
}

/// A single d6 that succeeds on `need` or more: `hit` on a success, `miss`
/// otherwise, read from `table` (rule `rule`).
pub fn d6_roll(need: u8, table: &str, rule: &str, hit: &str, miss: &str) -> Roll {
    let mut r = Roll::new("1d6", table, rule, Vec::new());
    r.faces = faces_of(1..=6, 0, |f| {
        if f >= need as i32 {
            (format!("{need}+"), false, hit.to_string())
        } else {
            (format!("below {need}"), false, miss.to_string())
        }
    });
    for f in &mut r.faces {
        let (a, b) = span(f);
        f.result = format!("{} (P {}/6)", f.result, b - a + 1);
    }
    r
}
