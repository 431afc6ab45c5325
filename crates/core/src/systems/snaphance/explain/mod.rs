//! How each Snaphance roll is made, for `pikeshot explain`: a fire or
//! melee pool built line by line (SP, then each ±D6 with its rule and what
//! set it, the lines that could not apply with why), how the hits are read
//! (`[rules] fives`), and the morale test each hit stand takes — its
//! adjusted morale line by line, one case per number of hits, each face of
//! the d6 read as pass or the SP lost within the caps; the order test's
//! and the pursuit roll's modifiers and faces.

mod morale;

use super::course::{CourseSpec, CourseState};
use super::fire::Fire;
use super::melee::Melee;
use super::orders::{self, OrderTest};
use super::pursuit::{self, Pursuit};
use super::readings::Fives;
use super::step::Step;
use crate::explain::{Explain, PoolLine, Roll, Source, described_roll, faces_of, pool_sum};

/// How a pool's dice score hits under `[rules] fives`.
fn hits_note(f: Fives) -> String {
    let how = match f {
        Fives::Pair => "each 6 hits, and each pair of 5s one more",
        Fives::AllIfPair => "each 6 hits, and every 5 when two or more 5s show",
        Fives::Each => "each 5 or 6 hits",
        Fives::Ignore => "only 6s hit",
    };
    format!("hit on 6 or double 5: {how} ([rules] fives = {f})")
}

/// The note when a pool's lines sum below zero (no dice are thrown).
fn floor_note(lines: &[PoolLine]) -> Option<String> {
    let s = pool_sum(lines);
    (s < 0).then(|| format!("the lines sum to {s}: no dice are thrown (a pool is never below 0)"))
}

fn fire(p: &Fire) -> Roll {
    let why = p.morale_why();
    let mut r = Roll::new(
        &format!("{}d6 (a pool)", p.dice()),
        &format!("Firing: {} fires at {}", p.firer(), why.name),
        "Firing",
        Vec::new(),
    )
    .note(hits_note(p.fives()));
    r.pool = p.lines().to_vec();
    if let Some(n) = floor_note(&r.pool) {
        r = r.note(n);
    }
    r.follow_ups = morale::by_hits(
        p.check(),
        why,
        p.cap(),
        p.dice() as u32,
        &format!("from {} fire", crate::explain::possessive(p.firer())),
    );
    r
}

fn melee(p: &Melee) -> Roll {
    let [a, d] = p.pools();
    let [wa, wd] = p.morale_why();
    let side = |pool: &super::melee_dice::SidePool, me: &str, foe: &str| {
        let mut r = Roll::new(
            &format!("{}d6 (a pool)", pool.dice),
            &format!("Melee: {me} against {foe}"),
            "10.0",
            Vec::new(),
        );
        r.pool = pool.lines.clone();
        if let Some(n) = floor_note(&r.pool) {
            r = r.note(n);
        }
        if !pool.new_disorder.is_empty() {
            r = r.note(format!(
                "{me} becomes disordered: {}",
                pool.new_disorder.join("; ")
            ));
        }
        r
    };
    let mut r = side(a, &wa.name, &wd.name).note(hits_note(p.fives()));
    r = r.note("more hits wins, equal hits draw; each side hit tests morale (8.0): max 2 SP lost if it loses, 1 SP on a win or draw");
    if p.holds().iter().any(|h| *h) {
        r = r.note("hold_town: a stand beaten in a town stays, losing one more SP, and the melee goes on (towns 3.3)");
    }
    let rd = side(d, &wd.name, &wa.name);
    r = r.then(format!("at the same time: {} dice", wd.name), rd);
    for (w, hits_from, dice) in [(wa, &wd.name, d.dice), (wd, &wa.name, a.dice)] {
        if dice == 0 {
            continue;
        }
        r = r.then(
            format!("when {} is hit: its morale test", w.name),
            morale::adjusted_roll(w, &format!("from {hits_from}")),
        );
    }
    r
}

fn order(p: &OrderTest, step: &Step) -> Roll {
    let need = p.need();
    let mut r = described_roll(step, &orders::INFO, p.modifiers().to_vec())
        .column(format!("class {}: passes on {need}+", p.class()));
    r.faces = faces_of(1..=6, p.modifier(), |m| {
        if m >= need as i32 {
            (format!("{need}+"), false, "pass".into())
        } else {
            (format!("below {need}"), false, "fail".into())
        }
    });
    r
}

fn pursuit(p: &Pursuit, step: &Step) -> Roll {
    let (name, why) = p.who();
    let adjust = p.adjust() as i32;
    let mut mods = Vec::new();
    if adjust != 0 {
        mods.push(crate::explain::Term::new(
            "an attached leader adds or subtracts 1",
            "13.0",
            adjust,
            Source::key(format!("leader_adjust = {adjust}")),
        ));
    }
    let mut r = described_roll(step, &pursuit::INFO, mods).note(why.to_string());
    if let Some(col) = p.column() {
        r = r.column(format!("{col} (of {name})"));
        r.faces = faces_of(1..=6, adjust, |m| {
            let h = pursuit::hexes(col, m);
            let row = m.clamp(1, 6).to_string();
            let what = if h == 0 {
                "no pursuit".to_string()
            } else {
                format!("pursues {h}H")
            };
            (row, !(1..=6).contains(&m), what)
        });
    }
    r
}

impl Explain for Step {
    fn roll(&self) -> Roll {
        match self {
            Step::Fire(p) => fire(p),
            Step::Melee(p) => melee(p),
            Step::Morale(p) => morale::test(p),
            Step::Order(p) => order(p, self),
            Step::Pursuit(p) => pursuit(p, self),
            Step::Pass(_) => Roll::new(
                "no dice",
                "no roll: this step cannot happen in this state (a stand is destroyed, or the course ended)",
                "",
                Vec::new(),
            ),
        }
    }
}

impl CourseSpec<'_> {
    /// What the earlier steps left on the stands in `s`, one line per stand
    /// that differs from the scenario: SP lost, disorder, beaten.
    pub fn state_lines(&self, s: &CourseState) -> Vec<String> {
        let mut out = Vec::new();
        for (i, u) in self.units.iter().enumerate() {
            let mut parts = Vec::new();
            let lost = s.sp_lost[i];
            if lost != u.sp_lost {
                if lost >= u.strength {
                    parts.push("destroyed".to_string());
                } else {
                    parts.push(format!("{lost} SP lost (was {})", u.sp_lost));
                }
            }
            if s.disordered[i] != u.disordered {
                parts.push(if s.disordered[i] {
                    "disordered".to_string()
                } else {
                    "recovered from disorder".to_string()
                });
            }
            if s.beaten[i] {
                parts.push("beaten in melee".to_string());
            }
            if !parts.is_empty() {
                out.push(format!("{}: {}", u.name, parts.join(", ")));
            }
        }
        out
    }
}
