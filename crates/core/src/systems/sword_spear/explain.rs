//! How each Sword & Spear roll is made, for `pikeshot explain`: the
//! adjusted Discipline an activation or test is rolled against, term by
//! term (printed Discipline, each Adjustment to Discipline or its footnoted
//! exemption, `extra_discipline`) with the d6's clamp; each side's combat
//! dice counted line by line with the card line and the unit state, step
//! key or `[rules]` reading behind each; armour and protection; and what a
//! round or volley triggers inside itself (Discipline tests, rout, risk to
//! commanders), each with its exact probability. The records read here are
//! the ones the procedures built their rolls from.

use super::activation::{Activation, Allocate};
use super::combat::{Clash, ClashProcedure, CommanderRisk as RiskRule, Unpaired};
use super::commanders::{self, CommanderRisk};
use super::discipline::{DisciplineTest, fail_faces};
use super::melee::{self, MeleeRound};
use super::shooting::{self, Shooting};
use super::step::Step;
use super::troops::{Terrain, Troop};
use super::unit::{Armour, Unit};
use super::{activation, commanders as risk};
use crate::engine::exact::DEFAULT_BUDGET;
use crate::explain::{Explain, Roll, SidePool, Source, Term, described_roll, faces_of, sum};
use crate::procedure::Procedure;

impl Explain for Step {
    fn roll(&self) -> Roll {
        match self {
            Step::Activation(a) => activation_roll(self, a),
            Step::DisciplineTest(t) => test_roll(t),
            Step::Shooting(v) => volley_roll(v),
            Step::Melee(m) => melee_roll(m),
            Step::CommanderRisk(c) => risk_roll(self, c),
        }
    }
}

/// "knights'" or "spears'": a name's possessive.
pub(crate) fn poss(name: &str) -> String {
    if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

fn pct(p: f64) -> String {
    format!("{:.2}%", p * 100.0)
}

/// Faces `lo..=hi` of a d6 as text: `1-2`, `6`, or `none`.
fn faces(lo: i32, hi: i32) -> String {
    match (lo.max(1), hi.min(6)) {
        (a, b) if a > b => "none".into(),
        (a, b) if a == b => a.to_string(),
        (a, b) => format!("{a}-{b}"),
    }
}

/// "fails on 1-2 (33.33%)" for a test against Discipline `d`.
fn fails_on(d: i32) -> String {
    let f = fail_faces(d) as i32;
    format!("fails on {} ({})", faces(1, f), pct(f as f64 / 6.0))
}

/// The clamp of a Discipline a d6 is compared with: `lo..=7`, where every
/// value below `lo` reads as `lo` and every value above 7 as 7.
const D6_LIMIT: &str = "a d6 shows 1-6";

/// A distribution over 0, 1, 2… as "0: 40.00%, 1: 35.00%, …" (zeros left out).
fn dist(p: &[f64]) -> String {
    p.iter()
        .enumerate()
        .filter(|&(_, &q)| q > 0.0)
        .map(|(k, q)| format!("{k}: {}", pct(*q)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The exact distribution of measure `name` of `p` (index = value − min).
fn measure_dist<P: Procedure>(p: &P, probs: &[f64], name: &str) -> Option<Vec<f64>> {
    let sp = p.space();
    let m = sp.measure_index(name)?;
    let meas = &sp.measures()[m];
    let mut out = vec![0.0; (meas.max - meas.min + 1).max(0) as usize];
    for (leaf, &q) in probs.iter().enumerate() {
        let v = sp.value_of(leaf as u32, m) - meas.min;
        if let Some(slot) = out.get_mut(v as usize) {
            *slot += q;
        }
    }
    Some(out)
}

fn activation_roll(step: &Step, a: &Activation) -> Roll {
    let d = a.discipline();
    let mut r = described_roll(step, &activation::INFO, a.terms().to_vec())
        .limited(0, 7, D6_LIMIT)
        .column(format!("adjusted Discipline {d}"));
    let (name, hits, in_contact) = a.unit();
    r = r.note(format!(
        "Activating Units: a die below {d} does nothing; equal to {d} lets {name} shoot, move (advance only for non-skirmishers), fight or defer; above {d} also charge, manoeuvre, move and shoot, or rally"
    ));
    let (dice, allocate) = a.dice();
    if dice > 1 {
        r.dice = format!("{dice}d6 (action dice)");
        r = r.note(match allocate {
            Allocate::Best => format!(
                "{dice} action dice (step key dice = {dice}); allocate = \"best\": {name} is given the dice of one face reaching the highest activation, then a group move, then the most bonus, then the highest face (docs/rules/sword-and-spear.md 2)"
            ),
            Allocate::Single => format!(
                "{dice} action dice (step key dice = {dice}); allocate = \"single\": the highest die alone"
            ),
        });
    }
    r = r.note(
        "bonus (docs/rules/sword-and-spear.md 2): each 6 is one bonus, n matching dice below 6 give n - 1, if the unit is activated; a course carries it to the unit's next shooting or melee",
    );
    if hits > 0 {
        r = r.note(if in_contact {
            format!("rally: not in contact with the enemy only (step key in_contact = true): {name} cannot rally")
        } else {
            format!(
                "rally: the die must exceed {d} by at least {} {hits} hits: {} or more",
                poss(name),
                d + hits as i32
            )
        });
    }
    if !a.group().is_empty() {
        let need = a
            .group()
            .iter()
            .map(|(_, g)| *g)
            .chain([d])
            .max()
            .unwrap_or(d);
        r = r.note(format!(
            "group move (step key group): the die must exceed the adjusted Discipline of every unit of the group ({name} {d}, {}): {} or more",
            a.group()
                .iter()
                .map(|(n, g)| format!("{n} {g}"))
                .collect::<Vec<_>>()
                .join(", "),
            need + 1
        ));
    }
    r
}

fn test_roll(t: &DisciplineTest) -> Roll {
    let d = t.discipline();
    let n = t.tests();
    let fail = fail_faces(d) as i32;
    let mut r = Roll::new(
        &format!("{n}d6, one for each test"),
        "Discipline test",
        discipline_rule(),
        t.terms().to_vec(),
    )
    .limited(1, 7, D6_LIMIT)
    .column(format!("adjusted Discipline {d}"));
    r.faces = faces_of(1..=6, 0, |f| {
        (
            "each test".into(),
            false,
            if f <= fail {
                "fails: 1 hit".into()
            } else {
                "passes".into()
            },
        )
    });
    let (name, strength, hits) = t.unit();
    r.note(format!(
        "a test is passed on a roll at least the adjusted Discipline (docs/rules/sword-and-spear.md 2): each {}; {name} has {hits} hits of strength {strength} and routs at {} failed tests",
        fails_on(d),
        strength - hits
    ))
}

fn discipline_rule() -> &'static str {
    super::discipline::INFO.rule
}

fn risk_roll(step: &Step, c: &CommanderRisk) -> Roll {
    let k = c.kill_on();
    described_roll(step, &risk::INFO, Vec::new()).note(format!(
        "Risk to Commanders: killed on {} (step key situation: {})",
        if k == 6 { "6".into() } else { format!("{k}+") },
        commanders::RISK
            .iter()
            .find(|r| r.kill_on == k)
            .map_or("", |r| r.label)
    ))
}

/// The pair rule of Combat Process 5, with the dice that double each face.
fn pair_rule() -> String {
    "Combat Process 5: a die at least double its opposing die is a hit (6 v 1-3, 5 v 1-2, 4 v 1-2, 3 v 1, 2 v 1); a die that beats it without doubling gives the loser a Discipline test; equal dice do nothing".into()
}

/// The readings of the combat process in force.
fn clash_notes(clash: &Clash) -> Vec<String> {
    let r = &clash.rules;
    vec![
        pair_rule(),
        format!(
            "dice with no opposing die (a side placing fewer than four): {} ([rules] unpaired = \"{}\")",
            match r.unpaired {
                Unpaired::Ignored => "ignored",
                Unpaired::Hits => "each a hit on the opponent",
            },
            r.unpaired.name()
        ),
    ]
}

/// The armour of side `me` against `opp`'s dice, as modifiers to the
/// placed dice (not summed).
fn armour_terms(me: &Unit, opp: &Unit, choice: &str) -> Vec<Term> {
    let mut t = Vec::new();
    let r = me.armour.reduction() as i32;
    if r > 0 {
        t.push(
            Term::new(
                format!(
                    "{}: lowers one of {} winning dice by {}",
                    me.armour.name(),
                    poss(&opp.name),
                    if r == 2 { "up to 2" } else { "1" }
                ),
                "Effect of Armour",
                -r,
                Source::unit(format!("{}: armour = \"{}\"", me.name, me.armour.name())),
            )
            .noted(format!(
                "never below {} own die: a losing die is not turned into a winning one; which die: [rules] armour_choice = \"{choice}\"",
                poss(&me.name)
            )),
        );
    }
    if opp.armour == Armour::LackingProtection {
        t.push(
            Term::new(
                format!(
                    "{} lacks protection: raises one of {} winning or drawing dice by 1",
                    opp.name,
                    poss(&me.name)
                ),
                "Effect of Armour",
                1,
                Source::unit(format!("{}: armour = \"lacking-protection\"", opp.name)),
            )
            .noted("where it gains most: a draw into a hit, else a test into a hit, else a draw into a test (docs/rules/sword-and-spear.md 3)"),
        );
    }
    t
}

/// Why a unit is or is not fresh (Fresh Status).
fn fresh_note(u: &Unit, fresh: bool, enemy_on_flank: bool) -> String {
    if fresh {
        return format!(
            "{} is fresh (Fresh Status: no hits, in the open if mounted or heavy foot, not in difficult terrain, no enemy on its flank or rear)",
            u.name
        );
    }
    let mut why = Vec::new();
    if u.hits > 0 {
        why.push(format!("{} hits", u.hits));
    }
    if (u.troop.is_mounted() || u.troop == Troop::HeavyFoot) && u.terrain != Terrain::Open {
        why.push(format!(
            "not in the open (terrain = \"{}\")",
            u.terrain.name()
        ));
    } else if u.terrain == Terrain::Difficult {
        why.push("in difficult terrain".into());
    }
    if enemy_on_flank {
        why.push("an enemy on its flank or rear".into());
    }
    format!("{} is not fresh (Fresh Status): {}", u.name, why.join(", "))
}

/// The commander line of a side: when it is at risk, and what kills it.
fn commander_note(me: &Unit, opp: &Unit, clash: &Clash, pursued: bool) -> Option<String> {
    let c = me.commander?;
    let when = match clash.rules.commander_risk {
        RiskRule::RoutOrAllDiceLost => "routs or loses all its combat dice",
        RiskRule::RoutOnly => "routs",
    };
    Some(format!(
        "its {} is at risk when {} {when} ([rules] commander_risk = \"{}\"): one d6, killed on 6{}",
        c.name(),
        me.name,
        clash.rules.commander_risk.name(),
        if pursued {
            format!(
                ", or 5+ when it routs and {} (mounted) does not ([rules] mounted_pursue = true)",
                opp.name
            )
        } else if opp.troop.is_mounted() {
            " ([rules] mounted_pursue = false: no pursuit)".into()
        } else {
            format!(" ({} is not mounted: no pursuit)", opp.name)
        }
    ))
}

/// What the dice of a round give each side before any test is rolled:
/// the distribution of its Discipline tests, and how often it loses all
/// its dice.
fn tests_notes(clash: &Clash, s: usize, name: &str) -> Vec<String> {
    let mut tests = [0.0f64; 5];
    let mut lost = 0.0;
    for (o, w) in clash.dice_outcomes() {
        tests[(o.tests[s] as usize).min(4)] += w;
        if o.all_lost[s] {
            lost += w;
        }
    }
    let mut out = vec![format!(
        "Discipline tests {name} takes (exact): {}; each {}, a failure a hit",
        dist(&tests),
        fails_on(clash.sides[s].discipline)
    )];
    if lost > 0.0 {
        out.push(format!(
            "{name} loses all its combat dice (every die beaten): {}",
            pct(lost)
        ));
    }
    out
}

fn melee_roll(m: &MeleeRound) -> Roll {
    let input = m.input();
    let clash = m.clash();
    let [a, b] = &input.units;
    let dice = m.dice();
    let mut r = Roll::new(
        &format!(
            "{} {}d6 against {} {}d6, each side's top four placed highest first and paired",
            a.name, dice[0].total, b.name, dice[1].total
        ),
        "melee round",
        melee::INFO.rule,
        Vec::new(),
    );
    let probs = m.exact(DEFAULT_BUDGET).and_then(Result::ok);
    for s in 0..2 {
        let (me, opp) = (&input.units[s], &input.units[1 - s]);
        let role = ["attacker", "defender"][s];
        let mut notes = vec![fresh_note(me, dice[s].fresh, input.sides[1 - s].flank)];
        notes.push(format!(
            "routs at {} more hits (strength {}, {} hits so far)",
            me.strength - me.hits,
            me.strength,
            me.hits
        ));
        notes.extend(commander_note(
            me,
            opp,
            clash,
            clash.sides[s].pursued_by_mounted,
        ));
        notes.extend(tests_notes(clash, s, &me.name));
        if let Some(p) = &probs {
            if let Some(h) = measure_dist(m, p, &format!("{role}-hits")) {
                notes.push(format!(
                    "new hits on {} (from the dice and failed tests, exact): {}",
                    me.name,
                    dist(&h)
                ));
            }
            if let Some(k) = measure_dist(m, p, &format!("{role}-commander-killed")) {
                notes.push(format!(
                    "{} commander killed (exact): {}",
                    poss(&me.name),
                    pct(k.get(1).copied().unwrap_or(0.0))
                ));
            }
        }
        r.sides.push(SidePool {
            side: format!("{} ({role})", me.name),
            lines: dice[s].lines.clone(),
            total: dice[s].total as i32,
            dice_modifiers: armour_terms(me, opp, clash.rules.armour_choice.name()),
            test: "Discipline for its tests".into(),
            test_terms: m.tests()[s].clone(),
            test_total: sum(&m.tests()[s]),
            notes,
        });
    }
    for n in clash_notes(clash) {
        r = r.note(n);
    }
    if input.later.is_some() {
        r = r.note(
            "a later round of the melee (a later phase): what the step says the sides did this phase (charged, moved, shot, bonus dice) and pursuit held for the first round only (docs/rules/sword-and-spear.md 7)",
        );
    }
    if input.pursuit {
        r = r.note("the combat is the result of a pursuit (step key pursuit = true): no impetus for either side");
    }
    r
}

fn volley_roll(v: &Shooting) -> Roll {
    let rec = v.record();
    let input = &rec.input;
    let clash = v.clash();
    let (f, t) = (&input.firer, &input.target);
    let weapon = f.weapon.expect("a shooter has a weapon");
    let row = weapon.row();
    let mut r = Roll::new(
        &format!(
            "{} {}d6 against {} {}d6, each side's top four placed highest first and paired",
            f.name, clash.sides[0].dice, t.name, clash.sides[1].dice
        ),
        "volley",
        shooting::INFO.rule,
        rec.protection_terms.clone(),
    )
    .limited(0, 3, "Effect of Armour: heavily armoured (3) is the most protection, lacking protection (0) the least")
    .column(format!("{} (Shooting Weapons)", row.label));
    let prot = v.protection();
    r = r.note(format!(
        "{} protection against the {}: level {} = {} ({})",
        poss(&t.name),
        row.label.to_lowercase(),
        prot.level(),
        prot.name(),
        match prot {
            Armour::HeavilyArmoured => "it lowers one of the shooter's winning dice by up to 2",
            Armour::Armoured => "it lowers one of the shooter's winning dice by 1",
            Armour::Unarmoured => "no effect on the dice",
            Armour::LackingProtection =>
                "the shooter raises one of its winning or drawing dice by 1",
        }
    ));
    r = r.note(format!(
        "{}: range {} DU{}; {}",
        row.label,
        row.range,
        input.range.map_or_else(String::new, |d| format!(
            ", shooting at {d} DU (step key range)"
        )),
        row.notes()
    ));
    let probs = v.exact(DEFAULT_BUDGET).and_then(Result::ok);
    let mut target_notes = vec![format!(
        "routs at {} more hits (strength {}, {} hits so far)",
        t.strength - t.hits,
        t.strength,
        t.hits
    )];
    target_notes.extend(commander_note(t, f, clash, false));
    target_notes.extend(tests_notes(clash, 1, &t.name));
    if let Some(p) = &probs {
        if let Some(h) = measure_dist(v, p, "target-hits") {
            target_notes.push(format!(
                "new hits on {} (from the dice and failed tests, exact): {}",
                t.name,
                dist(&h)
            ));
        }
        if let Some(k) = measure_dist(v, p, "target-commander-killed") {
            target_notes.push(format!(
                "{} commander killed (exact): {}",
                poss(&t.name),
                pct(k.get(1).copied().unwrap_or(0.0))
            ));
        }
    }
    let mut shooter_mods = Vec::new();
    if prot == Armour::LackingProtection {
        shooter_mods.push(Term::new(
            format!(
                "{} lacks protection: raises one of {} winning or drawing dice by 1",
                t.name,
                poss(&f.name)
            ),
            "Effect of Armour",
            1,
            Source::card("the target's protection against the weapon (modifiers above)"),
        ));
    }
    r.sides.push(SidePool {
        side: format!("{} (shooter)", f.name),
        lines: v.firer_dice().to_vec(),
        total: clash.sides[0].dice as i32,
        dice_modifiers: shooter_mods,
        test: String::new(),
        test_terms: Vec::new(),
        test_total: 0,
        notes: vec![format!(
            "only the shooter's dice hurt: {} winning dice do nothing (docs/rules/sword-and-spear.md 5)",
            poss(&t.name)
        )],
    });
    let reduce = prot.reduction() as i32;
    let mut target_mods = Vec::new();
    if reduce > 0 {
        target_mods.push(
            Term::new(
                format!(
                    "{}: lowers one of {} winning dice by {}",
                    prot.name(),
                    poss(&f.name),
                    if reduce == 2 { "up to 2" } else { "1" }
                ),
                "Effect of Armour",
                -reduce,
                Source::card("the target's protection against the weapon (modifiers above)"),
            )
            .noted(format!(
                "never below {} own die; which die: [rules] armour_choice = \"{}\"",
                poss(&t.name),
                clash.rules.armour_choice.name()
            )),
        );
    }
    r.sides.push(SidePool {
        side: format!("{} (target)", t.name),
        lines: rec.target_dice.clone(),
        total: clash.sides[1].dice as i32,
        dice_modifiers: target_mods,
        test: "Discipline for its tests".into(),
        test_terms: rec.tests.clone(),
        test_total: sum(&rec.tests),
        notes: target_notes,
    });
    for n in clash_notes(clash) {
        r = r.note(n);
    }
    r
}
