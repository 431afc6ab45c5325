//! Each Hakkaa Päälle procedure's roll as explained: which table its TQ
//! test reads and why (row, column), what each result does there, and the
//! rolls that result leads to.

use super::super::casualties::{Injury, Level, Received, StepRoll, received};
use super::super::close_combat::{self, CloseCombat};
use super::super::closing::Closing;
use super::super::fire::{self, FP_ROWS, Fire, Volley, fp_row};
use super::super::fleeing::{FLEE_STEP_LOSS, FLEEING_TABLE, Fleeing};
use super::super::reaction::{ChargeReaction, ReactionFire, pace_title};
use super::super::tq::{Tq, TqTest, TroopQualityTest};
use super::super::uncontrolled::Uncontrolled;
use super::super::unit::Effect;
use super::roll::{d6_roll, tq_roll};
use super::why::Tested;
use crate::explain::{FollowUp, Roll, Source, Term, possessive as poss};

/// The results a test can give.
fn possible(t: &TqTest) -> Vec<Tq> {
    t.options().iter().map(|(r, _)| *r).collect()
}

/// The results of `t` grouped by what `key` says of them (in DS..DF
/// order): each group's results ("DS, S") and its key.
fn grouped<K: PartialEq + Clone>(t: &TqTest, key: impl Fn(Tq) -> K) -> Vec<(String, K)> {
    let mut out: Vec<(Vec<&str>, K)> = Vec::new();
    for r in possible(t) {
        let k = key(r);
        match out.iter_mut().find(|(_, x)| *x == k) {
            Some((v, _)) => v.push(r.abbreviation()),
            None => out.push((vec![r.abbreviation()], k)),
        }
    }
    out.into_iter().map(|(v, k)| (v.join(", "), k)).collect()
}

/// What a D / F status result does to a unit that is (or is not) Disordered.
fn effect_text(e: Effect, disordered: bool) -> &'static str {
    match (e, disordered) {
        (Effect::None, _) => "status unchanged",
        (Effect::Disorder, false) => "becomes Disordered",
        (Effect::Disorder, true) => "falls back (already Disordered)",
        (Effect::FallBackOrFlee, false) => "falls back",
        (Effect::FallBackOrFlee, true) => "flees (already Disordered)",
    }
}

/// What a Receiving Casualties cell does to a unit.
fn received_text(r: Received, disordered: bool) -> String {
    match r {
        Received::Unchanged => "- unit status unchanged".into(),
        Received::D => format!("D: {}", effect_text(Effect::Disorder, disordered)),
        Received::F => format!("F: {}", effect_text(Effect::FallBackOrFlee, disordered)),
        Received::X => format!(
            "X: a step loss, then {}",
            effect_text(Effect::FallBackOrFlee, disordered)
        ),
    }
}

/// The step-loss and commander-injury rolls of a cell suffered by `who`
/// (`table`, `rule`: where the marks are printed).
fn suffer_rolls(
    r: &mut Roll,
    on: &str,
    who: &Tested,
    step: StepRoll,
    injury: Injury,
    table: &str,
    rule: &str,
) {
    let name = who.name();
    if let Some(n) = step.need() {
        let last = if who.unit.state.steps == 1 {
            " (its last: eliminated)"
        } else {
            ""
        };
        let roll = d6_roll(
            n,
            &format!("{table}: {}", step.mark()),
            rule,
            &format!("{name} loses a step{last}"),
            "no step loss",
        );
        r.follow_ups.push(FollowUp {
            when: format!("{on}: step-loss roll of {name}"),
            roll,
        });
    }
    if let Some(n) = injury.need()
        && who.unit.state.commander
    {
        let roll = d6_roll(
            n,
            &format!("{table}: {}", injury.mark()),
            rule,
            &format!("{} commander is injured", poss(name)),
            "commander unhurt",
        );
        r.follow_ups.push(FollowUp {
            when: format!("{on}, if {name} still stands: commander-injury roll"),
            roll,
        });
    }
}

/// `tq-test`.
pub fn tq_test(p: &TroopQualityTest) -> Roll {
    let t = p.test();
    tq_roll(
        t,
        p.tested(),
        "TQ Table",
        "Troop Quality",
        format!("{} row", t.grade().title()),
        |r| {
            format!(
                "{} ({})",
                r.label(),
                if r.passed() { "pass" } else { "fail" }
            )
        },
    )
}

/// A volley (a `fire` step, or reaction fire): the firer's test on the
/// Fire Table row of its Fire Points, then what each cell makes the
/// target roll.
fn volley(v: &Volley, firer: &Tested, target: &Tested, fp_lines: Vec<Term>) -> Roll {
    let fp = v.fp();
    let row = FP_ROWS[fp_row(fp)];
    let end = if fp > 8 {
        ": off the table's end, reads the 8+ row"
    } else {
        ""
    };
    let mut r = tq_roll(
        v.firer_test(),
        firer,
        "Fire table",
        "Fire combat",
        format!(
            "FP {row} row ({fp} Fire Points{end}); {} result picks the column",
            poss(firer.name())
        ),
        |t| fire::cell(fp, t).cell(),
    );
    r.column_from = fp_lines;
    no_commander(&mut r, target);
    let tname = target.name();
    let disordered = target.unit.state.status.is_disordered();
    for (on, cell) in grouped(v.firer_test(), |t| fire::cell(fp, t)) {
        let on = format!("on {on} ({})", cell.cell());
        suffer_rolls(
            &mut r,
            &on,
            target,
            cell.step,
            cell.injury,
            "Fire table",
            "Fire combat",
        );
        let Some((level, n)) = cell.casualty.tests() else {
            continue;
        };
        let n = if v.one_test() { 1 } else { n };
        let test = v.target_test(&target.unit.state);
        let mut rc = tq_roll(
            test,
            target,
            "Receiving casualties table",
            "Fire combat",
            format!("{} row", level.abbreviation()),
            |t| received_text(received(level, t), disordered),
        );
        if target.unit.charismatic && target.unit.state.commander {
            rc = rc.note(format!(
                "if {} commander was injured just before, the charismatic leader modifier no longer applies", poss(tname)
            ));
        }
        let when = if n == 2 {
            rc = rc.note(format!(
                "the second test reads with the status the first left: after a D, {tname} is Disordered (-1) and a second D makes it fall back ([rules] double_results = two-tests)"
            ));
            format!("{on}: two Receiving Casualties tests of {tname}, one after the other")
        } else if matches!(level, Level::Lc | Level::C)
            && cell.casualty.tests().is_some_and(|x| x.1 == 2)
        {
            format!(
                "{on}: one Receiving Casualties test of {tname} ([rules] double_results = one-test)"
            )
        } else {
            format!("{on}: Receiving Casualties test of {tname}")
        };
        r = r.then(when, rc);
    }
    r
}

/// The note that `who` rolls no * / ** commander die, when it has none.
fn no_commander(r: &mut Roll, who: &Tested) {
    if !who.unit.state.commander {
        r.notes.push(format!(
            "{} has no commander attached: the * / ** commander-injury rolls do not apply",
            who.name()
        ));
    }
}

/// `fire`.
pub fn fire(p: &Fire) -> Roll {
    let w = p.why();
    volley(p.volley(), &w.tests[0], &w.tests[1], w.lines.clone())
}

/// `closing`.
pub fn closing(p: &Closing) -> Roll {
    let w = p.why();
    let row = p.row();
    let (fav, unfav) = (p.favourable(), p.unfavourable());
    let target_name = w
        .tests
        .get(1)
        .map_or("the target", |t| t.name())
        .to_string();
    let mut r = tq_roll(
        p.test(),
        &w.tests[0],
        "Closing table",
        "Close Combat",
        format!("{} row", row.label),
        |t| {
            let c = row.cells[t as usize];
            let what = match c.cell() {
                "-" => "no effect: stays in place".to_string(),
                "F_B" => "falls back 50 paces, Disordered".to_string(),
                _ if c.contact(fav, unfav) => "moves into contact".to_string(),
                _ => "conditions do not allow it: stays in place".to_string(),
            };
            format!("{} {what}", c.cell())
        },
    );
    r.notes.extend(w.notes.iter().cloned());
    r.note(format!(
        "into contact: {} Charge Reaction test follows (in a charge); otherwise the charge ends",
        poss(&target_name)
    ))
}

/// `charge-reaction`.
pub fn reaction(p: &ChargeReaction) -> Roll {
    let w = p.why();
    let (target, firer, charger) = (&w.tests[0], &w.tests[1], &w.tests[2]);
    let row = p.row();
    let disordered = target.unit.state.status.is_disordered();
    let cc = p.counter_charge_possible();
    let fires = p.fire().is_some();
    let tname = target.name();
    let mut r = tq_roll(
        p.test(),
        target,
        pace_title(p.pace()),
        "Charging",
        format!("{} row", row.label),
        |t| {
            let c = row.cells[t as usize];
            let what = if c.flee || (c.flee_if_disordered && disordered) {
                "flees".to_string()
            } else {
                let mut v = vec!["stands"];
                match (c.fire, fires) {
                    (ReactionFire::None, _) => {}
                    (ReactionFire::Full, true) => v.push("fires"),
                    (ReactionFire::Half, true) => v.push("fires at half FP"),
                    (_, false) => v.push("no Fire Points: does not fire"),
                }
                if c.counter_charge {
                    v.push(if cc {
                        "counter-charges"
                    } else {
                        "counter charge not possible"
                    });
                }
                v.join(", ")
            };
            format!("{} {what}", c.cell())
        },
    );
    r.notes.extend(w.notes.iter().cloned());
    if let Some((full, half)) = p.fire() {
        let shows = |f: ReactionFire| {
            grouped(p.test(), |t| {
                let c = row.cells[t as usize];
                !(c.flee || (c.flee_if_disordered && disordered)) && c.fire == f
            })
            .into_iter()
            .filter(|(_, k)| *k)
            .map(|(on, _)| on)
            .collect::<Vec<_>>()
        };
        for (kind, v, label) in [
            (ReactionFire::Full, full, "Fi"),
            (ReactionFire::Half, half, "½Fi"),
        ] {
            for on in shows(kind) {
                let mut lines = w.lines.clone();
                if kind == ReactionFire::Half {
                    lines.push(Term::new(
                        "½Fi: half Fire Points, rounded down",
                        "Charge reaction results",
                        v.fp() as i32 - full.fp() as i32,
                        Source::card("Charge reaction results: ½Fi"),
                    ));
                }
                let roll = volley(v, firer, charger, lines);
                r = r.then(
                    format!("on {on} ({label}): {tname} fires at {}", charger.name()),
                    roll,
                );
            }
        }
        r = r.note(format!(
            "reaction fire that makes {} fall back, flee or be eliminated stops the charge: no contact",
            charger.name()
        ));
    }
    r
}

/// `close-combat`.
pub fn close_combat(p: &CloseCombat) -> Roll {
    let w = p.why();
    let (ta, td) = p.tests();
    let side = |t: &TqTest, who: &Tested| {
        let d = who.unit.state.status.is_disordered();
        tq_roll(
            t,
            who,
            "Close combat table",
            "Close Combat",
            format!("row All, {} own test", poss(who.name())),
            move |r| {
                let c = close_combat::cell(r);
                format!("{}: {}", c.cell(), effect_text(c.effect, d))
            },
        )
    };
    let mut r = side(ta, &w.tests[0]);
    r.notes.extend(w.notes.iter().cloned());
    let mut rd = side(td, &w.tests[1]);
    no_commander(&mut r, &w.tests[0]);
    no_commander(&mut rd, &w.tests[1]);
    for (t, who, roll) in [(ta, &w.tests[0], &mut r), (td, &w.tests[1], &mut rd)] {
        for (on, c) in grouped(t, close_combat::cell) {
            let on = format!("on {} {on} ({})", poss(who.name()), c.cell());
            suffer_rolls(
                roll,
                &on,
                who,
                c.step,
                c.injury,
                "Close combat table",
                "Close Combat",
            );
        }
    }
    r.then(
        format!(
            "at the same time: {} test on the same table",
            poss(w.tests[1].name())
        ),
        rd,
    )
}

/// `fleeing`.
pub fn fleeing(p: &Fleeing) -> Roll {
    let w = p.why();
    let who = &w.tests[0];
    let rallies = p.rallies();
    let mut r = tq_roll(
        p.test(),
        who,
        "Fleeing units table",
        "Fleeing",
        "row All".into(),
        |t| {
            let cell = FLEEING_TABLE[t as usize].cell();
            if rallies[t as usize] {
                format!("{cell}: rallies")
            } else {
                format!("{cell}: flees")
            }
        },
    );
    r.notes.extend(w.notes.iter().cloned());
    let flees: Vec<&str> = possible(p.test())
        .into_iter()
        .filter(|t| !rallies[*t as usize])
        .map(Tq::abbreviation)
        .collect();
    if !flees.is_empty() {
        let mut s = Roll::new("", "", "", Vec::new());
        suffer_rolls(
            &mut s,
            &format!("on {} (flees)", flees.join(", ")),
            who,
            FLEE_STEP_LOSS,
            Injury::None,
            "Fleeing units table: Flee^S4",
            "Fleeing",
        );
        r.follow_ups.extend(s.follow_ups);
    }
    r
}

/// `uncontrolled`.
pub fn uncontrolled(p: &Uncontrolled) -> Roll {
    let w = p.why();
    let table = w.notes.first().cloned().unwrap_or_default();
    match (p.test(), p.row()) {
        (Some(t), Some(row)) => {
            let mut r = tq_roll(
                t,
                &w.tests[0],
                &table,
                "Uncontrolled units",
                format!("{} row", row.label),
                |x| row.cells[x as usize].to_string(),
            );
            r.notes.extend(w.notes.iter().skip(1).cloned());
            r.note("the card does not define these codes: they are reported as printed")
        }
        _ => Roll::new("no dice", &table, "Uncontrolled units", Vec::new())
            .note("this situation takes no test"),
    }
}
