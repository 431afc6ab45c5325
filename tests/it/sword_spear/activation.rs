//! Sword & Spear activation, Discipline and commanders against the card:
//! every comparison of the action die, the bonus rule, every adjustment to
//! Discipline with its footnote exemptions, command distance, group moves,
//! Discipline tests and the Risk to Commanders table; exact results against
//! hand arithmetic, Monte Carlo against exact, located input errors.

// Input errors are cold, as in the library (lib.rs).
#![allow(clippy::result_large_err)]

use crate::support::close;
use crate::support::located::{assert_each_refused, key_line};
use crate::support::monte_carlo::{Compiled, Leaves, assert_both_kernels};
use crate::support::ok;
use crate::support::step::one_step_doc as doc;
use crate::support::sword_spear::build;
use crate::support::{measure_probs, outcome_probs};
use pikeshot::Procedure;
use pikeshot::engine::exact::exact;
use pikeshot::engine::{Kernel, KernelMode, ProcedureKernel};
use pikeshot::error::InputError;
use pikeshot::stats;
use pikeshot::systems::sword_spear::activation::{
    self, Activation, ActivationInput, Allocate, Level, Need, bonus, level,
};
use pikeshot::systems::sword_spear::commanders::{self, CommanderRisk, Situation};
use pikeshot::systems::sword_spear::discipline::{
    self, ADJUSTMENTS, COMMAND_DISTANCE, DisciplineTest, adjusted, command_range, fail_faces,
};
use pikeshot::systems::sword_spear::troops::{Terrain, Troop};
use pikeshot::systems::sword_spear::unit::{Commander, Unit};

// ---------------------------------------------------------------- helpers

fn assert_err<T: std::fmt::Debug>(r: Result<T, InputError>, text: &str, key: &str, says: &str) {
    let e = r.expect_err("an input error");
    assert!(
        e.key.as_deref().is_some_and(|k| k.ends_with(key)),
        "key {:?} for {key}: {e}",
        e.key
    );
    assert_eq!(e.line, Some(key_line(text, key)), "{e}");
    assert!(e.to_string().contains(says), "`{says}` not in: {e}");
}

/// P(measure == 1) for a 0/1 measure.
fn flag<P: Procedure>(p: &P, name: &str) -> f64 {
    let m = p
        .space()
        .measure_index(name)
        .unwrap_or_else(|| panic!("no {name}"));
    stats::measure_probs(p.space(), m, &exact(p, 10_000_000).unwrap())[1]
}

fn unit(troop: Troop, discipline: u8) -> Unit {
    Unit::new("u", troop, discipline, 4)
}

fn activation(input: ActivationInput) -> Activation {
    ok(Activation::new(&input))
}

fn monte_carlo_matches<P: Procedure + Clone + 'static>(p: &P, seed: u64) {
    let probs = exact(p, 10_000_000).unwrap();
    assert!(close(probs.iter().sum::<f64>(), 1.0));
    assert_both_kernels(
        |mode| ProcedureKernel::new(p.clone(), mode),
        &probs,
        seed,
        Leaves::Each,
        Compiled::Unchecked,
        "",
    );
}

// ---------------------------------------------------------------- the card

#[test]
fn every_action_die_against_every_discipline() {
    for d in 0..=8i32 {
        for face in 1..=6u8 {
            let want = if (face as i32) < d {
                Level::None
            } else if face as i32 == d {
                Level::Equal
            } else {
                Level::Greater
            };
            assert_eq!(level(face, d), want, "face {face} vs {d}");
        }
    }
    assert_eq!(activation::ACTIVATION[0].level, Level::Equal);
    assert_eq!(
        activation::ACTIVATION[0].actions,
        [
            "Shoot",
            "Move (advance only for non-skirmishers)",
            "Fight in close combat",
            "Defer"
        ]
    );
    assert_eq!(activation::ACTIVATION[1].level, Level::Greater);
    assert_eq!(activation::ACTIVATION[1].actions.len(), 5);
}

#[test]
fn bonus_rule() {
    // Each 6 is one bonus; n matching dice below 6 give n - 1.
    for k in 1..=8u8 {
        assert_eq!(bonus(6, k), k);
        for f in 1..=5u8 {
            assert_eq!(bonus(f, k), k - 1);
        }
    }
}

#[test]
fn command_distance_and_adjustments_as_printed() {
    assert_eq!(COMMAND_DISTANCE[0].commander, Commander::Captain);
    assert_eq!(COMMAND_DISTANCE[0].du, 4);
    assert_eq!(COMMAND_DISTANCE[1].commander, Commander::General);
    assert_eq!(COMMAND_DISTANCE[1].du, 8);
    assert_eq!(command_range(Commander::Captain), 4);
    assert_eq!(command_range(Commander::General), 8);
    let adj: Vec<(&str, i8)> = ADJUSTMENTS
        .iter()
        .map(|a| (a.situation, a.adjustment))
        .collect();
    assert_eq!(
        adj,
        [
            ("Commander with Unit", -1),
            ("Unit out of Command Range", 1),
            ("In difficult terrain", 1)
        ]
    );
}

#[test]
fn adjustments_with_footnote_exemptions_for_every_troop_type() {
    use Troop::*;
    // Footnote *: commander with unit, unless swarm, beasts, large beasts, monster or hero.
    let commander_exempt = [Swarms, Beasts, LargeBeasts, Monsters, HeroMounted, HeroFoot];
    // Footnote **: difficult terrain, other than swarm, large beasts, monsters, light foot, heroes.
    let difficult_exempt = [
        Swarms,
        LargeBeasts,
        Monsters,
        LightFoot,
        HeroMounted,
        HeroFoot,
    ];
    for &t in Troop::ALL {
        let mut u = unit(t, 4);
        assert_eq!(adjusted(&u), 4);
        u.commander = Some(Commander::Captain);
        let c = if commander_exempt.contains(&t) { 0 } else { -1 };
        assert_eq!(adjusted(&u), 4 + c, "{t} with commander");
        u.out_of_command = true;
        assert_eq!(adjusted(&u), 5 + c, "{t} with commander, out of command");
        u.commander = None;
        u.terrain = Terrain::Difficult;
        let d = if difficult_exempt.contains(&t) { 0 } else { 1 };
        assert_eq!(adjusted(&u), 5 + d, "{t} out of command in difficult");
        u.out_of_command = false;
        u.terrain = Terrain::Rough;
        assert_eq!(adjusted(&u), 4, "{t} in rough");
        assert_eq!(discipline::adjustments(&u), vec![]);
    }
    // Beasts are exempt from the commander's -1 but not from difficult terrain.
    let mut b = unit(Beasts, 3);
    b.terrain = Terrain::Difficult;
    b.commander = Some(Commander::General);
    assert_eq!(adjusted(&b), 4);
    assert_eq!(
        discipline::adjustments(&b),
        vec![("In difficult terrain", 1)]
    );
}

#[test]
fn command_range_from_the_scenario() {
    let text = |by: &str, d: u32| {
        doc(
            &format!(
                "[units.u]\ntroop = \"heavy-foot\"\ndiscipline = 3\nstrength = 4\ncommand_by = \"{by}\"\ncommand_distance = {d}\n"
            ),
            "procedure = \"activation\"\nunit = \"u\"",
        )
    };
    for (by, d, out) in [
        ("captain", 4, false),
        ("captain", 5, true),
        ("general", 8, false),
        ("general", 9, true),
        ("general", 0, false),
    ] {
        let a = ok(build(&text(by, d), Activation::from_step));
        assert_eq!(a.discipline(), 3 + out as i32, "{by} at {d}");
    }
}

// ---------------------------------------------------------------- exact odds

#[test]
fn one_die_against_discipline_four() {
    let mut u = unit(Troop::MediumFoot, 4);
    u.weapon = Some(pikeshot::systems::sword_spear::shooting::Weapon::Javelin);
    let a = activation(ActivationInput::new(u));
    // Faces 1-3 nothing, 4 equal, 5-6 greater.
    let p = outcome_probs(&a);
    assert!(close(p[0], 3.0 / 6.0) && close(p[1], 1.0 / 6.0) && close(p[2], 2.0 / 6.0));
    assert!(close(flag(&a, "can-shoot"), 3.0 / 6.0));
    assert!(close(flag(&a, "can-charge"), 2.0 / 6.0));
    assert!(close(flag(&a, "can-manoeuvre"), 2.0 / 6.0));
    assert!(close(flag(&a, "can-move-and-shoot"), 2.0 / 6.0));
    // No hits: nothing to rally.
    assert!(close(flag(&a, "can-rally"), 0.0));
    // Bonus only on the 6.
    let b = measure_probs(&a, "bonus");
    assert!(close(b[1], 1.0 / 6.0));
    // The face used: 0 when not activated.
    let f = measure_probs(&a, "action-die");
    assert!(close(f[0], 0.5) && close(f[4], 1.0 / 6.0) && close(f[6], 1.0 / 6.0));
    assert!(a.space().measure_index("can-group-move").is_none());
}

#[test]
fn what_a_unit_cannot_do() {
    use pikeshot::systems::sword_spear::shooting::Weapon;
    // No weapon: never shoots.
    let a = activation(ActivationInput::new(unit(Troop::Cavalry, 2)));
    assert!(close(flag(&a, "can-shoot"), 0.0));
    assert!(close(flag(&a, "can-move-and-shoot"), 0.0));
    assert!(close(flag(&a, "can-charge"), 4.0 / 6.0));
    // A crossbow cannot move and shoot.
    let mut x = unit(Troop::MediumFoot, 2);
    x.weapon = Some(Weapon::Crossbow);
    let a = activation(ActivationInput::new(x));
    assert!(close(flag(&a, "can-shoot"), 5.0 / 6.0));
    assert!(close(flag(&a, "can-move-and-shoot"), 0.0));
    // Artillery (0 DU in the open) shoots but never charges or manoeuvres.
    let mut g = unit(Troop::Artillery, 2);
    g.weapon = Some(Weapon::Artillery);
    let a = activation(ActivationInput::new(g));
    assert!(close(flag(&a, "can-shoot"), 5.0 / 6.0));
    assert!(close(flag(&a, "can-charge"), 0.0));
    assert!(close(flag(&a, "can-manoeuvre"), 0.0));
    // Chariots cannot enter difficult terrain (n/a): no charge from there.
    let mut c = unit(Troop::Chariots, 2);
    c.terrain = Terrain::Difficult;
    assert!(close(
        flag(&activation(ActivationInput::new(c)), "can-charge"),
        0.0
    ));
}

#[test]
fn rally_needs_the_die_to_exceed_discipline_by_the_hits() {
    let mut u = unit(Troop::Cavalry, 3);
    u.hits = 2;
    let a = activation(ActivationInput::new(u.clone()));
    // 6 - 3 = 3 >= 2 and 5 - 3 = 2 >= 2; 4 - 3 = 1 < 2.
    assert!(close(flag(&a, "can-rally"), 2.0 / 6.0));
    let mut i = ActivationInput::new(u.clone());
    i.in_contact = true;
    assert!(close(flag(&activation(i), "can-rally"), 0.0));
    u.hits = 1;
    // 4, 5 and 6 all exceed 3 by at least 1.
    assert!(close(
        flag(&activation(ActivationInput::new(u)), "can-rally"),
        3.0 / 6.0
    ));
}

#[test]
fn two_dice_best_allocation_by_hand() {
    let mut i = ActivationInput::new(unit(Troop::HeavyFoot, 4));
    i.dice = 2;
    let a = activation(i.clone());
    let p = outcome_probs(&a);
    // Not activated: both below 4 = 9/36. Greater: at least one 5 or 6 = 1 - 16/36.
    assert!(close(p[0], 9.0 / 36.0));
    assert!(close(p[2], 20.0 / 36.0));
    assert!(close(p[1], 7.0 / 36.0));
    // Bonus 2: double 6. Bonus 1: one 6 only (10/36), or double 4 or 5 (2/36).
    let b = measure_probs(&a, "bonus");
    assert!(close(b[2], 1.0 / 36.0));
    assert!(close(b[1], 12.0 / 36.0));
    // Single: only the highest die, so bonus 1 exactly when a 6 shows.
    i.allocate = Allocate::Single;
    let b = measure_probs(&activation(i), "bonus");
    assert!(close(b[1], 11.0 / 36.0));
    assert!(close(b[2], 0.0));
}

#[test]
fn best_allocation_prefers_activation_then_bonus() {
    // Three dice, Discipline 3. {6, 4, 4}: the 6 gives greater and 1 bonus,
    // the pair of 4s greater and 1 bonus: same rank and bonus, the higher
    // face (6) is used. {5, 4, 4}: the 4s give greater and 1 bonus; the 5 none.
    let mut i = ActivationInput::new(unit(Troop::HeavyFoot, 3));
    i.dice = 3;
    let a = activation(i);
    let probs = exact(&a, 10_000).unwrap();
    // P(action-die = 4 and bonus = 1): two 4s and a die below 4 or one 5
    // ({4,4,1},{4,4,2},{4,4,3},{4,4,5}: 3 orders each), or three 4s (bonus 2).
    let die = a.space().measure_index("action-die").unwrap();
    let bon = a.space().measure_index("bonus").unwrap();
    let mut p = 0.0;
    for (l, &q) in probs.iter().enumerate() {
        let l = l as u32;
        if a.space().value_of(l, die) == 4 && a.space().value_of(l, bon) == 1 {
            p += q;
        }
    }
    assert!(close(p, 12.0 / 216.0), "{p}");
}

#[test]
fn group_move_needs_the_die_above_every_discipline() {
    let mut centre = unit(Troop::HeavyFoot, 3);
    centre.commander = Some(Commander::General); // adjusted 2
    let mut i = ActivationInput::new(centre);
    i.group = vec![
        Unit::new("left", Troop::Cavalry, 4, 3),
        Unit::new("right", Troop::Cavalry, 3, 3),
    ];
    let a = activation(i.clone());
    // Needs > 2, > 4 and > 3: 5 or 6.
    assert!(close(flag(&a, "can-group-move"), 2.0 / 6.0));
    i.dice = 2;
    let a = activation(i);
    // At least one die of 5 or 6.
    assert!(close(flag(&a, "can-group-move"), 20.0 / 36.0));
    assert!(a.meets(
        Need::GroupMove,
        a.space().leaf(2, &[0, 5, 0, 1, 1, 0, 0, 1])
    ));
}

#[test]
fn activation_monte_carlo_matches_exact() {
    let mut u = unit(Troop::Cavalry, 3);
    u.hits = 1;
    u.weapon = Some(pikeshot::systems::sword_spear::shooting::Weapon::Bow);
    let mut i = ActivationInput::new(u);
    i.dice = 4;
    monte_carlo_matches(&activation(i.clone()), 0x55_0001);
    i.dice = 1;
    // One die compiles to a flat table.
    let a = activation(i);
    assert!(ProcedureKernel::new(a.clone(), KernelMode::Auto).is_compiled());
    monte_carlo_matches(&a, 0x55_0002);
}

// ---------------------------------------------------------------- tests and commanders

#[test]
fn discipline_tests_by_hand() {
    // The faces of a d6 that fail a test: below the Discipline, at most six.
    for (discipline, faces) in [(4, 3), (1, 0), (0, 0), (7, 6), (9, 6)] {
        assert_eq!(fail_faces(discipline), faces, "Discipline {discipline}");
    }
    // Two tests at Discipline 4: each fails on 1-3.
    let u = Unit::new("u", Troop::MediumFoot, 4, 4);
    let t = DisciplineTest::new(&u, 2, 0);
    let h = measure_probs(&t, "hits");
    assert!(close(h[0], 0.25) && close(h[1], 0.5) && close(h[2], 0.25));
    assert!(close(outcome_probs(&t)[1], 0.0));
    // Three hits already: a single failure routs.
    let mut v = u.clone();
    v.hits = 3;
    assert!(close(
        outcome_probs(&DisciplineTest::new(&v, 2, 0))[1],
        0.75
    ));
    // extra_discipline -1: fails on 1-2.
    assert!(close(
        measure_probs(&DisciplineTest::new(&u, 1, -1), "hits")[1],
        2.0 / 6.0
    ));
    // A commander with the unit: Discipline 3.
    v.commander = Some(Commander::Captain);
    assert_eq!(DisciplineTest::new(&v, 1, 0).discipline(), 3);
    monte_carlo_matches(&DisciplineTest::new(&u, 5, 0), 0x55_0003);
}

#[test]
fn risk_to_commanders_as_printed() {
    assert_eq!(
        commanders::RISK[0].situation,
        Situation::RoutedPursuedByMounted
    );
    assert_eq!(commanders::RISK[0].kill_on, 5);
    assert_eq!(commanders::RISK[1].situation, Situation::Otherwise);
    assert_eq!(commanders::RISK[1].kill_on, 6);
    assert_eq!(commanders::kill_on(true), 5);
    assert_eq!(commanders::kill_on(false), 6);
    assert!(close(
        outcome_probs(&CommanderRisk::new(Situation::Otherwise))[0],
        1.0 / 6.0
    ));
    assert!(close(
        outcome_probs(&CommanderRisk::new(Situation::RoutedPursuedByMounted))[0],
        2.0 / 6.0
    ));
}

// ---------------------------------------------------------------- bad input

const UNITS: &str = "[units.guard]\ntroop = \"heavy-foot\"\ndiscipline = 3\nstrength = 4\ncommander = \"general\"\n\n[units.wing]\ntroop = \"cavalry\"\ndiscipline = 4\nstrength = 3\n";

#[test]
fn activation_refusals_are_located() {
    let step = |step: &str| doc(UNITS, step);
    assert_each_refused(
        &[
            (
                "procedure = \"activation\"\nunit = \"guard\"\ndice = 9",
                "dice",
                "from 1 to 8",
            ),
            (
                "procedure = \"activation\"\nunit = \"wing\"\ngroup = \"guard\"",
                "group",
                "needs the central unit with its commander",
            ),
            (
                "procedure = \"activation\"\nunit = \"guard\"\ngroup = [\"guard\"]",
                "group",
                "named twice",
            ),
            (
                "procedure = \"activation\"\nunit = \"guard\"\nneed = \"group-move\"",
                "need",
                "needs a `group`",
            ),
        ],
        step,
        |t| build(t, Activation::from_step),
        assert_err,
    );
    let t = doc(UNITS, "procedure = \"activation\"\nunit = \"gard\"");
    let e = build(&t, Activation::from_step).unwrap_err();
    assert_eq!(e.suggestion.as_deref(), Some("guard"), "{e}");
    let t = doc(
        UNITS,
        "procedure = \"activation\"\nunit = \"guard\"\nneed = \"charg\"",
    );
    let e = build(&t, Activation::from_step).unwrap_err();
    assert_eq!(e.suggestion.as_deref(), Some("charge"), "{e}");
    let t = doc(
        UNITS,
        "procedure = \"activation\"\nunit = \"guard\"\nallocat = \"single\"",
    );
    let e = build(&t, Activation::from_step).unwrap_err();
    assert_eq!(e.suggestion.as_deref(), Some("allocate"), "{e}");
    assert_eq!(e.line, Some(key_line(&t, "allocat")));
    assert_each_refused(
        &[(
            "procedure = \"commander-risk\"\nunit = \"wing\"",
            "unit",
            "no `commander`",
        )],
        step,
        |t| build(t, CommanderRisk::from_step),
        assert_err,
    );
    assert_each_refused(
        &[(
            "procedure = \"discipline-test\"\nunit = \"wing\"\ntests = 0",
            "tests",
            "from 1 to 8",
        )],
        step,
        |t| build(t, DisciplineTest::from_step),
        assert_err,
    );
}

#[test]
fn unit_refusals_are_located() {
    let step = "procedure = \"activation\"\nunit = \"u\"";
    let u = |extra: &str| {
        doc(
            &format!("[units.u]\ntroop = \"heavy-foot\"\ndiscipline = 3\nstrength = 4\n{extra}\n"),
            step,
        )
    };
    assert_each_refused(
        &[
            ("hits = 4", "hits", "would rout"),
            (
                "command_by = \"captain\"",
                "command_by",
                "needs `command_distance`",
            ),
            (
                "commander = \"captain\"\nout_of_command = true",
                "out_of_command",
                "within command range",
            ),
            (
                "command_by = \"captain\"\ncommand_distance = 2\nout_of_command = false",
                "out_of_command",
                "not both",
            ),
            (
                "melee_capable = true",
                "melee_capable",
                "medium foot armed with missiles",
            ),
            (
                "terrain = \"wods\"",
                "terrain",
                "accepted: open, rough, difficult",
            ),
        ],
        u,
        |t| build(t, Activation::from_step),
        assert_err,
    );
    let t = doc(
        "[units.u]\ntroop = \"heavy-foot\"\ndiscipline = 7\nstrength = 4\n",
        step,
    );
    assert_err(
        build(&t, Activation::from_step),
        &t,
        "discipline",
        "from 1 to 6",
    );
    let t = u("command_distance = 5");
    let e = build(&t, Activation::from_step).unwrap_err();
    assert!(
        e.to_string().contains("captain (4 DU) or general (8 DU)"),
        "{e}"
    );
    let t = doc(
        "[units.u]\ntroop = \"heavy-fot\"\ndiscipline = 3\nstrength = 4\n",
        step,
    );
    let e = build(&t, Activation::from_step).unwrap_err();
    assert_eq!(e.suggestion.as_deref(), Some("heavy-foot"), "{e}");
    assert_eq!(e.line, Some(key_line(&t, "troop")));
}
