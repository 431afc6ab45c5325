//! Sword & Spear engagements and courses: melee rounds until a unit routs
//! against hand arithmetic, what later rounds keep and drop, state carried
//! between the steps of a course (hits, routs, commanders, activation bonus,
//! "shot this phase"), the shipped scenarios' claims, Monte Carlo against
//! exact, and scenario-level input errors located by file, line and key.

// Input errors are cold, as in the library (lib.rs).
#![allow(clippy::result_large_err)]

use crate::support::close;
use crate::support::course::{measure, outcome};
use crate::support::located::{assert_located, line_containing};
use crate::support::monte_carlo::{Leaves, assert_sample_matches};
use crate::support::ok;
use crate::support::scenario::Want::{Measure as M, Outcome as O};
use crate::support::scenario::{assert_figures, input_error, try_prepare};
use std::path::Path;

use pikeshot::Procedure;
use pikeshot::engine::exact::{DEFAULT_BUDGET, exact};
use pikeshot::engine::{Kernel, KernelMode};
use pikeshot::run::{RunPlan, prepare};
use pikeshot::scenario::Overrides;
use pikeshot::scenario::{Fields, Source};
use pikeshot::stats;
use pikeshot::systems::sword_spear::combat::ClashProcedure;
use pikeshot::systems::sword_spear::melee::{MeleeInput, MeleeRound, NoImpetus, Round};
use pikeshot::systems::sword_spear::troops::Troop;
use pikeshot::systems::sword_spear::unit::{Commander, Unit};

// ---------------------------------------------------------------- helpers

fn outcome_probs(k: &dyn Kernel) -> Vec<f64> {
    stats::outcome_probs(k.space(), &k.exact(DEFAULT_BUDGET).unwrap())
}

/// A course's name and kernel.
type Built = (String, Box<dyn Kernel>);

fn courses(text: &str) -> Result<Vec<Built>, pikeshot::Error> {
    let p = try_prepare("s.toml", text, KernelMode::Auto)?;
    Ok(p.courses.into_iter().map(|c| (c.name, c.kernel)).collect())
}

fn course(text: &str) -> Box<dyn Kernel> {
    courses(text)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .next()
        .unwrap()
        .1
}

fn scenario(units: &str, steps: &str) -> String {
    format!(
        "name = \"t\"\nsystem = \"sword-and-spear\"\n\n{units}\n[[course]]\nname = \"c\"\nsteps = [\n{steps}\n]\n"
    )
}

fn monte_carlo_matches(k: &dyn Kernel, seed: u64) {
    let q = k.exact(DEFAULT_BUDGET).unwrap();
    assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    assert_sample_matches(k, &q, seed, Leaves::Marginals, "");
}

// ---------------------------------------------------------------- engagements

/// An engagement of round after round worked out apart from the course
/// machinery: the distribution over (hits, commanders) propagated round by
/// round, each round a `MeleeRound` built for its state (the first from
/// `m`, later ones from `m.later_round(later_impetus)`). Returns the
/// outcome probabilities (neither, attacker, defender, both routed), the
/// rounds fought (index 0 = 1 round) and each side's hits over the
/// engagement (0..=strength).
struct ByRounds {
    outcomes: [f64; 4],
    rounds: Vec<f64>,
    hits: [Vec<f64>; 2],
}

fn engagement_by_rounds(m: &MeleeInput, turns: usize, later_impetus: bool) -> ByRounds {
    use std::collections::HashMap;
    let strength = [m.units[0].strength, m.units[1].strength];
    let start = (
        [m.units[0].hits, m.units[1].hits],
        [m.units[0].commander, m.units[1].commander],
    );
    let mut out = ByRounds {
        outcomes: [0.0; 4],
        rounds: vec![0.0; turns],
        hits: [
            vec![0.0; strength[0] as usize + 1],
            vec![0.0; strength[1] as usize + 1],
        ],
    };
    type State = ([u8; 2], [Option<Commander>; 2]);
    let mut cur: HashMap<State, f64> = HashMap::from([(start, 1.0)]);
    let end = |o: usize, r: usize, h: [u8; 2], w: f64, out: &mut ByRounds| {
        out.outcomes[o] += w;
        out.rounds[r] += w;
        for (s, dist) in out.hits.iter_mut().enumerate() {
            dist[(h[s] - start.0[s]) as usize] += w;
        }
    };
    for round in 0..turns {
        let mut next: HashMap<State, f64> = HashMap::new();
        for ((hits, cmd), w) in cur {
            let mut input = m.clone();
            for s in 0..2 {
                input.units[s].hits = hits[s];
                input.units[s].commander = cmd[s];
            }
            if round > 0 {
                input = input.later_round(later_impetus);
            }
            let r = ok(MeleeRound::new(&input, false));
            let sp = r.space().clone();
            for (leaf, p) in exact(&r, DEFAULT_BUDGET).unwrap().into_iter().enumerate() {
                if p == 0.0 {
                    continue;
                }
                let leaf = leaf as u32;
                let mut h = hits;
                let mut c = cmd;
                for s in 0..2 {
                    h[s] = (h[s] + sp.value_of(leaf, s) as u8).min(strength[s]);
                    let killed = ["attacker-commander-killed", "defender-commander-killed"][s];
                    if sp
                        .measure_index(killed)
                        .is_some_and(|k| sp.value_of(leaf, k) == 1)
                    {
                        c[s] = None;
                    }
                }
                let o = sp.outcome_of(leaf);
                if o != 0 {
                    end(o, round, h, w * p, &mut out);
                } else if round + 1 == turns {
                    end(0, round, h, w * p, &mut out);
                } else {
                    *next.entry((h, c)).or_default() += w * p;
                }
            }
        }
        cur = next;
    }
    out
}

/// A course fighting `attacker` against `defender` until one routs.
fn engagement_text(units: &str, turns: u8, melee: &str, rules: &str) -> String {
    format!(
        "name = \"t\"\nsystem = \"sword-and-spear\"\n{rules}\n{units}\n[[course]]\nname = \"c\"\nrepeat = {{ turns = {turns}, until = [\"either-routs\"] }}\nsteps = [\n{{ procedure = \"melee\", attacker = \"a\", defender = \"b\"{melee} }},\n]\n"
    )
}

#[test]
fn engagement_of_one_die_units_by_hand() {
    // Each round: A routs 1/3 (hit 9/36 or test 6/36 failed at 1/2), B
    // routs 1/3, neither 1/3; never both. So rounds are geometric.
    let units = "[units.a]\ntroop = \"medium-foot\"\ndiscipline = 4\nstrength = 1\n\n[units.b]\ntroop = \"medium-foot\"\ndiscipline = 4\nstrength = 1\n";
    let e = course(&engagement_text(
        units,
        20,
        ", attacker_impetus = false, defender_impetus = false",
        "",
    ));
    let o = outcome_probs(e.as_ref());
    let none = (1.0f64 / 3.0).powi(20);
    assert!(close(o[0], none), "{o:?}");
    assert!(close(o[1], (1.0 - none) / 2.0));
    assert!(close(o[2], (1.0 - none) / 2.0));
    assert!(close(o[3], 0.0));
    let r = measure(e.as_ref(), "turns");
    for k in 1..=19usize {
        let want = (1.0f64 / 3.0).powi(k as i32 - 1) * 2.0 / 3.0;
        assert!(close(r[k - 1], want), "round {k}: {} vs {want}", r[k - 1]);
    }
    // Round 20 ends it either way.
    assert!(close(r[19], (1.0f64 / 3.0).powi(19)));
    // Hits over the engagement are at most strength.
    let h = measure(e.as_ref(), "hits-taken");
    assert_eq!(h.len(), 2);
    assert!(close(h[1], o[1]));
}

#[test]
fn later_rounds_are_later_phases() {
    // Round 1: the attacker charged across an obstacle (no impetus) with
    // two bonus dice. Later rounds: no charge, no bonus: impetus again.
    let mut m = MeleeInput::new(
        Unit::new("a", Troop::MediumFoot, 3, 4),
        Unit::new("b", Troop::MediumFoot, 4, 4),
    );
    m.sides[0].charged = true;
    m.sides[0].bonus_dice = 2;
    m.sides[0].extra_units = 1;
    m.obstacle = true;
    // Impetus after the first round is the `later_rounds_impetus = true`
    // reading (docs/rules/sword-and-spear.md section 7); the default gives none.
    let first = ok(MeleeRound::new(&m, false));
    assert_eq!(first.dice()[0].total, 4 + 1);
    assert!(
        first.dice()[0]
            .no_impetus
            .contains(&NoImpetus::ChargedAcrossObstacle)
    );
    let later = ok(MeleeRound::new(&m.later_round(true), false));
    assert_eq!(later.dice()[0].total, 4 + 1 + 1);
    // With hits: fewer dice.
    let mut hit = m.clone();
    hit.units[0].hits = 2;
    hit.units[1].hits = 1;
    let r = ok(MeleeRound::new(&hit.later_round(true), false));
    assert_eq!((r.dice()[0].total, r.dice()[1].total), (2 + 1 + 1, 3 + 1));
    // later_rounds_impetus = false (the default).
    assert_eq!(
        ok(MeleeRound::new(&m.later_round(false), false)).dice()[0].total,
        4 + 1
    );
}

#[test]
fn fresh_cavalry_lose_their_second_die_once_hit() {
    let m = MeleeInput::new(
        Unit::new("c", Troop::Cavalry, 3, 3),
        Unit::new("f", Troop::MediumFoot, 4, 4),
    );
    // Round 2 has impetus only with `later_rounds_impetus = true`
    // (docs/rules/sword-and-spear.md section 7); by default it has none.
    let none = ok(MeleeRound::new(&m.later_round(false), false));
    assert_eq!((none.dice()[0].total, none.dice()[0].impetus), (3, 0));
    let at = |h: u8| {
        let mut hit = m.clone();
        hit.units[0].hits = h;
        ok(MeleeRound::new(&hit.later_round(true), false)).dice()[0].clone()
    };
    assert_eq!((at(0).total, at(0).impetus), (5, 2));
    assert_eq!((at(1).total, at(1).impetus), (3, 1));
    assert_eq!((at(2).total, at(2).impetus), (2, 1));
}

#[test]
fn a_killed_commander_leaves_the_unit() {
    let mut a = Unit::new("a", Troop::HeavyFoot, 4, 4);
    a.commander = Some(Commander::Captain);
    let m = MeleeInput::new(a, Unit::new("b", Troop::HeavyFoot, 4, 4));
    let mut with = m.clone();
    with.units[0].hits = 1;
    let mut without = with.clone();
    without.units[0].commander = None;
    let with = ok(MeleeRound::new(&with.later_round(false), false));
    let without = ok(MeleeRound::new(&without.later_round(false), false));
    assert_eq!(with.clash().sides[0].discipline, 3);
    assert_eq!(without.clash().sides[0].discipline, 4);
    assert!(with.clash().sides[0].commander && !without.clash().sides[0].commander);
    // Through a course: the repeated melee loses the captain as the rounds
    // worked out one by one do.
    let units = "[units.a]\ntroop = \"heavy-foot\"\ndiscipline = 4\nstrength = 4\ncommander = \"captain\"\n\n[units.b]\ntroop = \"heavy-foot\"\ndiscipline = 4\nstrength = 4\n";
    let k = course(&engagement_text(units, 20, "", ""));
    let want = engagement_by_rounds(&m, 20, false);
    let lost = measure(k.as_ref(), "a-commander-lost");
    assert!(lost[1] > 0.0);
    for (g, w) in outcome_probs(k.as_ref()).iter().zip(want.outcomes) {
        assert!(close(*g, w), "{g} vs {w}");
    }
}

#[test]
fn a_repeated_melee_is_the_engagement_round_by_round() {
    // Armoured cavalry with a general charge heavy foot: the course's
    // outcomes, turns and hits equal the rounds worked out one by one, by
    // default and with `[rules] later_rounds_impetus = true`.
    let units = "[units.a]\ntroop = \"cavalry\"\ndiscipline = 3\nstrength = 3\narmour = \"armoured\"\ncommander = \"general\"\n\n[units.b]\ntroop = \"heavy-foot\"\ndiscipline = 4\nstrength = 4\n";
    let mut a = Unit::new("a", Troop::Cavalry, 3, 3);
    a.armour = pikeshot::systems::sword_spear::unit::Armour::Armoured;
    a.commander = Some(Commander::General);
    let mut m = MeleeInput::new(a, Unit::new("b", Troop::HeavyFoot, 4, 4));
    m.sides[0].charged = true;
    let mut differ = false;
    for (rules, later) in [
        ("", false),
        ("[rules]\nlater_rounds_impetus = true\n", true),
    ] {
        let k = course(&engagement_text(
            units,
            12,
            ", attacker_charged = true",
            rules,
        ));
        let want = engagement_by_rounds(&m, 12, later);
        let got = outcome_probs(k.as_ref());
        for (g, w) in got.iter().zip(want.outcomes) {
            assert!(close(*g, w), "{rules}: {g} vs {w}");
        }
        for (g, w) in measure(k.as_ref(), "turns").iter().zip(&want.rounds) {
            assert!(close(*g, *w), "{rules}: turns {g} vs {w}");
        }
        for (name, side) in [("hits-taken", 0), ("hits-inflicted", 1)] {
            for (g, w) in measure(k.as_ref(), name).iter().zip(&want.hits[side]) {
                assert!(close(*g, *w), "{rules}: {name} {g} vs {w}");
            }
        }
        differ |= !close(got[2], engagement_by_rounds(&m, 12, !later).outcomes[2]);
    }
    // The switch matters here: the cavalry's impetus in later rounds.
    assert!(differ);
}

#[test]
fn engagement_monte_carlo_matches_exact() {
    let units = "[units.a]\ntroop = \"cavalry\"\ndiscipline = 3\nstrength = 3\narmour = \"armoured\"\ncommander = \"general\"\n\n[units.b]\ntroop = \"heavy-foot\"\ndiscipline = 4\nstrength = 4\n";
    let text = engagement_text(units, 20, ", attacker_charged = true", "");
    let p = try_prepare("s.toml", &text, KernelMode::Direct).unwrap_or_else(|e| panic!("{e}"));
    let k = &p.courses[0].kernel;
    monte_carlo_matches(k.as_ref(), 0x55_2001);
}

// ---------------------------------------------------------------- courses

const TWO: &str = "[units.a]\ntroop = \"medium-foot\"\ndiscipline = 4\nstrength = 1\n\n[units.b]\ntroop = \"medium-foot\"\ndiscipline = 4\nstrength = 2\n";

#[test]
fn a_routed_unit_stops_the_course() {
    // Strength 1, one test at Discipline 4: routed on 1-3; the second step
    // names it, so the course stops half the time.
    let k = course(&scenario(
        TWO,
        "{ procedure = \"discipline-test\", unit = \"a\" },\n{ procedure = \"discipline-test\", unit = \"a\" },",
    ));
    assert_figures(
        "a tested twice",
        k.as_ref(),
        &[
            // Routed in the first step (it ended at step 1): the course ends
            // there and reports the rout as the last step's "routs"
            // (docs/rules/sword-and-spear.md 7).
            M("ended-at-step", 1, 0.5),
            O("stands", 0.25),
            O("routs", 0.5 + 0.25),
            // Hit in the first step (1/2) or in the second (1/4).
            M("hits-taken", 1, 0.75),
            // Key outcomes: a is the own unit, alone; strength 1, so every
            // hit routs it (morale 2) and no path leaves it hit but standing.
            M("own-morale", 0, 0.25),
            M("own-morale", 1, 0.0),
            M("own-morale", 2, 0.75),
        ],
    );
    assert!(k.space().measure_index("a-hits").is_none());
    assert!(k.space().measure_index("enemy-morale").is_none());
}

#[test]
fn hits_carry_between_steps() {
    // b (strength 2): two single tests; routs only when both fail.
    let k = course(&scenario(
        TWO,
        "{ procedure = \"discipline-test\", unit = \"b\" },\n{ procedure = \"discipline-test\", unit = \"b\" },",
    ));
    assert_figures(
        "b tested twice",
        k.as_ref(),
        &[
            O("routs", 0.25),
            M("hits-taken", 0, 0.25),
            M("hits-taken", 1, 0.5),
            M("hits-taken", 2, 0.25),
            // No hits 0, hit once 1, routed 2: the same split.
            M("own-morale", 0, 0.25),
            M("own-morale", 1, 0.5),
            M("own-morale", 2, 0.25),
        ],
    );
}

#[test]
fn an_activation_without_what_it_needs_stops_the_course() {
    let k = course(&scenario(
        TWO,
        "{ procedure = \"activation\", unit = \"b\", need = \"charge\" },\n{ procedure = \"discipline-test\", unit = \"b\" },",
    ));
    // Charge needs a die above 4: 5 or 6. Then b (strength 2) stands
    // whatever its test, and takes a hit half the time.
    assert_figures(
        "charge needed",
        k.as_ref(),
        &[
            O("stopped-not-activated", 4.0 / 6.0),
            O("stands", 2.0 / 6.0),
            M("hits-taken", 1, 2.0 / 6.0 * 0.5),
        ],
    );
}

#[test]
fn a_dead_commander_changes_later_tests() {
    // Captain with b: Discipline 3 (fails 1-2); killed on a 6, then 4 (1-3).
    let units = "[units.b]\ntroop = \"medium-foot\"\ndiscipline = 4\nstrength = 2\ncommander = \"captain\"\n";
    let k = course(&scenario(
        units,
        "{ procedure = \"commander-risk\", unit = \"b\" },\n{ procedure = \"discipline-test\", unit = \"b\" },",
    ));
    assert_figures(
        "captain at risk",
        k.as_ref(),
        &[
            M(
                "hits-taken",
                1,
                5.0 / 6.0 * 2.0 / 6.0 + 1.0 / 6.0 * 3.0 / 6.0,
            ),
            M("b-commander-lost", 1, 1.0 / 6.0),
        ],
    );
}

#[test]
fn an_activation_bonus_is_spent_by_the_next_fight() {
    // Cavalry, Discipline 2, two action dice: the bonus goes to the melee
    // as impetus dice. The same course with a fixed bonus per state must
    // agree with the propagated chain; the Monte Carlo must agree with both.
    let units = "[units.c]\ntroop = \"cavalry\"\ndiscipline = 2\nstrength = 2\n\n[units.f]\ntroop = \"medium-foot\"\ndiscipline = 4\nstrength = 3\n";
    let k = course(&scenario(
        units,
        "{ procedure = \"activation\", unit = \"c\", dice = 2, need = \"charge\" },\n{ procedure = \"melee\", attacker = \"c\", defender = \"f\", attacker_charged = true },",
    ));
    // Build the melee for each bonus by hand and weigh it by the bonus odds.
    let melee_for = |bonus: u8| {
        let mut m = MeleeInput::new(
            Unit::new("c", Troop::Cavalry, 2, 2),
            Unit::new("f", Troop::MediumFoot, 4, 3),
        );
        m.sides[0].charged = true;
        m.sides[0].bonus_dice = bonus;
        ok(MeleeRound::new(&m, true))
    };
    // Two dice, Discipline 2 (charge needs 3+): bonus 2 on double 6; bonus 1
    // on exactly one 6 (10/36) or a double 3, 4 or 5 (3/36).
    let weights = [
        (0u8, 1.0 - 1.0 / 36.0 - 13.0 / 36.0 - 4.0 / 36.0),
        (1, 13.0 / 36.0),
        (2, 1.0 / 36.0),
    ];
    let mut want = 0.0;
    for (b, w) in weights {
        let r = melee_for(b);
        let o = stats::outcome_probs(r.space(), &exact(&r, DEFAULT_BUDGET).unwrap());
        want += w * o[2];
    }
    assert_figures(
        "activation bonus",
        k.as_ref(),
        &[
            // Not activated (both dice 1 or 2, or a die of 2 with a 1): 4/36.
            O("stopped-not-activated", 4.0 / 36.0),
            O("defender-routs", want),
        ],
    );
    monte_carlo_matches(k.as_ref(), 0x55_2002);
}

#[test]
fn shooting_then_charging_carries_hits_and_shot() {
    let units = "[units.h]\ntroop = \"cavalry\"\ndiscipline = 3\nstrength = 3\nweapon = \"bow\"\n\n[units.s]\ntroop = \"medium-foot\"\ndiscipline = 4\nstrength = 4\n";
    let k = course(&scenario(
        units,
        "{ procedure = \"shooting\", firer = \"h\", target = \"s\", range = 4 },\n{ procedure = \"melee\", attacker = \"h\", defender = \"s\", attacker_charged = true },",
    ));
    // The same by hand: the volley's hits distribution, then the melee with
    // the target's hits and the cavalry having shot (no impetus).
    let mut h = Unit::new("h", Troop::Cavalry, 3, 3);
    h.weapon = Some(pikeshot::systems::sword_spear::shooting::Weapon::Bow);
    let s = Unit::new("s", Troop::MediumFoot, 4, 4);
    let mut v = pikeshot::systems::sword_spear::shooting::ShootingInput::new(h.clone(), s.clone());
    v.range = Some(4);
    let volley = ok(pikeshot::systems::sword_spear::shooting::Shooting::new(&v));
    let vp = exact(&volley, DEFAULT_BUDGET).unwrap();
    let hits = stats::measure_probs(volley.space(), 0, &vp);
    let routed = stats::outcome_probs(volley.space(), &vp)[1];
    let mut want = 0.0;
    for (n, w) in hits.iter().enumerate() {
        if n >= 4 {
            continue;
        }
        let mut t = s.clone();
        t.hits = n as u8;
        let mut m = MeleeInput::new(h.clone(), t);
        m.sides[0].charged = true;
        m.sides[0].shot = true;
        let r = ok(MeleeRound::new(&m, true));
        assert!(r.dice()[0].no_impetus.contains(&NoImpetus::ShotThisPhase));
        let o = stats::outcome_probs(r.space(), &exact(&r, DEFAULT_BUDGET).unwrap());
        want += w * o[2];
    }
    assert_figures(
        "shooting, then a charge",
        k.as_ref(),
        &[
            M("ended-at-step", 1, routed),
            O("defender-routs", routed + want),
        ],
    );
    assert!(k.space().measure_index("rounds").is_some());
    monte_carlo_matches(k.as_ref(), 0x55_2003);
}

// ---------------------------------------------------------------- shipped scenarios

fn shipped(name: &str) -> String {
    crate::support::shipped("sword-and-spear", name)
}

/// The melee step `steps[step]` of course `course` of a scenario text.
fn melee_step(text: &str, course: usize, step: usize) -> MeleeRound {
    let (src, table) = Source::parse("s.toml", text).unwrap();
    let mut units = Vec::new();
    for (name, v) in table["units"].as_table().unwrap() {
        let mut f = Fields::new(&src, format!("units.{name}"), v.as_table().unwrap());
        units.push(ok(Unit::from_fields(name, &mut f)));
    }
    let s = table["course"][course]["steps"][step].as_table().unwrap();
    let mut f = Fields::new(&src, format!("course[{course}].steps[{step}]"), s);
    f.req_string("procedure").unwrap();
    ok(MeleeRound::from_step(&mut f, &units))
}

#[test]
fn shipped_heavy_foot_against_cavalry_claims() {
    let t = shipped("heavy-foot-vs-cavalry.toml");
    // Standing spears: cavalry without impetus, spears with.
    let r = melee_step(&t, 0, 0);
    assert_eq!(r.dice()[0].impetus, 0);
    assert_eq!(
        r.dice()[0].no_impetus,
        vec![NoImpetus::MountedVsStandingSpears]
    );
    assert_eq!(r.dice()[1].impetus, 1);
    // Advancing spears: cavalry with two impetus dice, spears without.
    let r = melee_step(&t, 1, 0);
    assert_eq!(r.dice()[0].impetus, 2);
    assert_eq!(
        r.dice()[1].no_impetus,
        vec![NoImpetus::MovedFootVsFreshMounted]
    );
}

#[test]
fn shipped_armoured_against_lacking_protection_is_six_against_six() {
    let t = shipped("armoured-vs-lacking-protection.toml");
    let r = melee_step(&t, 0, 0);
    assert_eq!((r.dice()[0].total, r.dice()[1].total), (6, 6));
    // The legion (armoured) lowers by 1 and raises against the warband.
    let c = r.clash();
    assert_eq!((c.sides[1].reduce, c.sides[1].raise), (1, true));
    assert_eq!((c.sides[0].reduce, c.sides[0].raise), (0, false));
}

#[test]
fn every_shipped_scenario_builds_with_an_exact_answer() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/sword-and-spear");
    let mut names = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let p = prepare(&path, &RunPlan::default()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.id.system, "sword-and-spear");
        assert!(p.id.editions.is_empty());
        for pc in &p.courses {
            let (c, k) = (&pc.name, &pc.kernel);
            let q = k
                .exact(DEFAULT_BUDGET)
                .unwrap_or_else(|e| panic!("{c}: {e}"));
            assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{c}");
        }
        names.push(path.file_name().unwrap().to_string_lossy().into_owned());
    }
    names.sort();
    for required in [
        "armoured-vs-lacking-protection.toml",
        "heavy-foot-vs-cavalry.toml",
        "longbow-vs-heavily-armoured.toml",
        "horse-archers-shoot-or-charge.toml",
    ] {
        assert!(names.iter().any(|n| n == required), "{required} missing");
    }
}

/// Key outcomes (docs/rules/sword-and-spear.md): every shipped course that
/// pits two units in one step reports own/enemy morale, hits taken and
/// inflicted (and turns for an engagement) exactly as the step's own
/// outcomes and measures give them, leaf by leaf; every shipped course's
/// space stays under 100,000 leaves.
#[test]
fn key_outcomes_of_single_step_courses_follow_the_step() {
    use pikeshot::systems::sword_spear::step::build_step;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/sword-and-spear");
    let mut checked = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let p = prepare(&path, &RunPlan::default()).unwrap();
        let (src, table) = Source::parse("s.toml", &text).unwrap();
        let mut units = Vec::new();
        for (name, v) in table["units"].as_table().unwrap() {
            let mut f = Fields::new(&src, format!("units.{name}"), v.as_table().unwrap());
            units.push(ok(Unit::from_fields(name, &mut f)));
        }
        let list = table["course"].as_array().unwrap();
        // A sweep's first variant is the file's own units (armoured legion).
        let first = p.courses[0].variant.clone();
        for pc in &p.courses {
            let (variant, name, k) = (&pc.variant, &pc.name, &pc.kernel);
            assert!(k.space().len() < 100_000, "{name}: {}", k.space().len());
            if *variant != first {
                continue;
            }
            let c = list
                .iter()
                .position(|t| t["name"].as_str() == Some(name.as_str()))
                .unwrap();
            let steps = list[c]["steps"].as_array().unwrap();
            let st = steps[0].as_table().unwrap();
            let proc_name = st["procedure"].as_str().unwrap().to_string();
            let (actor_key, target_key) = match proc_name.as_str() {
                "shooting" => ("firer", "target"),
                "melee" => ("attacker", "defender"),
                _ => continue,
            };
            if steps.len() != 1 {
                continue;
            }
            let idx = |key: &str| {
                let n = st[key].as_str().unwrap();
                units.iter().position(|u| u.name == n).unwrap()
            };
            let (own, enemy) = (idx(actor_key), idx(target_key));
            let mut f = Fields::new(&src, format!("course[{c}].steps[0]"), st);
            f.req_string("procedure").unwrap();
            if let Some(repeat) = list[c].get("repeat") {
                // A melee until one side routs: the course against the
                // rounds worked out one by one.
                let turns = repeat["turns"].as_integer().unwrap() as usize;
                let m = ok(MeleeInput::read(
                    &mut f,
                    &units,
                    &pikeshot::systems::sword_spear::readings::Readings::default(),
                ));
                let want = engagement_by_rounds(&m, turns, false);
                let got = outcome_probs(k.as_ref());
                for (g, w) in got.iter().zip(want.outcomes) {
                    assert!(close(*g, w), "{name}: {g} vs {w}");
                }
                let t = k.space().measure_index("turns").expect("turns");
                assert_eq!(k.space().measures()[t].min, 1, "{name}");
                for (g, w) in measure(k.as_ref(), "turns").iter().zip(&want.rounds) {
                    assert!(close(*g, *w), "{name}: turns {g} vs {w}");
                }
                for (key, side, morale, routed) in [
                    (
                        "hits-taken",
                        0,
                        "own-morale",
                        want.outcomes[1] + want.outcomes[3],
                    ),
                    (
                        "hits-inflicted",
                        1,
                        "enemy-morale",
                        want.outcomes[2] + want.outcomes[3],
                    ),
                ] {
                    let hits = measure(k.as_ref(), key);
                    for (g, w) in hits.iter().zip(&want.hits[side]) {
                        assert!(close(*g, *w), "{name}: {key} {g} vs {w}");
                    }
                    let level = measure(k.as_ref(), morale);
                    assert!(close(level[0], want.hits[side][0]), "{name} {morale}");
                    assert!(close(level[2], routed), "{name} {morale}");
                }
                checked += 1;
                continue;
            }
            let step = ok(build_step(
                &proc_name,
                &mut f,
                &units,
                Round::single(),
                &pikeshot::systems::sword_spear::readings::Readings::default(),
            ));
            let sp = step.space();
            let q = exact(&step, DEFAULT_BUDGET).unwrap();
            let shooting = proc_name == "shooting";
            let m = |n: &str| sp.measure_index(n);
            let (taken, inflicted) = if shooting {
                (None, m("target-hits"))
            } else {
                (m("attacker-hits"), m("defender-hits"))
            };
            // Expected marginals: [own-morale, enemy-morale] over 0..=2,
            // hits over 0..=strength, turns over 0..=50.
            let mut want_morale = [[0.0f64; 3]; 2];
            let mut want_hits = [vec![0.0f64; 9], vec![0.0f64; 9]];
            let mut want_turns = vec![0.0f64; 51];
            for (leaf, &w) in q.iter().enumerate() {
                if w == 0.0 {
                    continue;
                }
                let leaf = leaf as u32;
                let o = sp.outcome_of(leaf);
                let routed = if shooting {
                    [false, o == 1]
                } else {
                    [o & 1 == 1, o & 2 == 2]
                };
                for (side, (u, h)) in [(own, taken), (enemy, inflicted)].into_iter().enumerate() {
                    // A course counts hits up to the unit's strength (it
                    // has routed by then); a melee can score more.
                    let room = (units[u].strength - units[u].hits) as i32;
                    let new = h.map_or(0, |h| sp.value_of(leaf, h)).min(room);
                    let level = if routed[side] {
                        2
                    } else {
                        (units[u].hits as i32 + new > 0) as usize
                    };
                    want_morale[side][level] += w;
                    want_hits[side][new as usize] += w;
                }
                if let Some(r) = m("rounds") {
                    want_turns[sp.value_of(leaf, r) as usize] += w;
                }
            }
            let same = |got: Vec<f64>, want: &[f64], min: usize, what: &str| {
                for (i, g) in got.iter().enumerate() {
                    assert!(
                        close(*g, want[min + i]),
                        "{name} {what}[{i}]: {g} vs {}",
                        want[min + i]
                    );
                }
                let covered: f64 = got.iter().sum();
                assert!(close(covered, 1.0), "{name} {what}");
            };
            same(
                measure(k.as_ref(), "own-morale"),
                &want_morale[0],
                0,
                "own-morale",
            );
            same(
                measure(k.as_ref(), "enemy-morale"),
                &want_morale[1],
                0,
                "enemy-morale",
            );
            same(
                measure(k.as_ref(), "hits-taken"),
                &want_hits[0],
                0,
                "hits-taken",
            );
            same(
                measure(k.as_ref(), "hits-inflicted"),
                &want_hits[1],
                0,
                "hits-inflicted",
            );
            // A single round has no turns (a repeated melee has, above).
            let turns = k.space().measure_index("turns");
            assert!(turns.is_none(), "{name}");
            assert!(want_turns.iter().all(|&w| w == 0.0), "{name}");
            // The course keeps the step's outcomes.
            let got = outcome_probs(k.as_ref());
            let want = stats::outcome_probs(sp, &q);
            assert_eq!(&k.space().outcomes()[..want.len()], sp.outcomes(), "{name}");
            for (g, w) in got.iter().zip(&want) {
                assert!(close(*g, *w), "{name}");
            }
            checked += 1;
        }
    }
    // Longbow (2 shootings), heavy foot (2 melees, 2 repeated melees),
    // armoured against lacking protection (single-step fights).
    assert!(checked >= 6, "{checked}");
}

/// The shipped "shoot or charge" course "charge": the horse archers'
/// Discipline 3 is 2 with their captain, so a charge needs a 3+ on one of
/// two dice; not activated is both dice 1-2, 4/36 by hand. Those paths end
/// with no melee (turns 0) and both sides unhit (morale 0).
#[test]
fn shoot_or_charge_key_outcomes_by_hand() {
    let ks = courses(&shipped("horse-archers-shoot-or-charge.toml")).unwrap();
    let (_, charge) = &ks[2];
    let k = charge.as_ref();
    let stop = outcome(k, "stopped-not-activated");
    assert!(close(stop, 4.0 / 36.0), "{stop}");
    let turns = measure(k, "turns");
    assert_eq!(
        k.space().measures()[k.space().measure_index("turns").unwrap()].min,
        0
    );
    assert!(close(turns[0], stop), "{} vs {stop}", turns[0]);
    let own = measure(k, "own-morale");
    let enemy = measure(k, "enemy-morale");
    // P(own routed) = attacker-routs + both-rout; P(enemy routed) =
    // defender-routs + both-rout.
    let both = outcome(k, "both-rout");
    assert!(close(own[2], outcome(k, "attacker-routs") + both));
    assert!(close(enemy[2], outcome(k, "defender-routs") + both));
    // The not-activated paths leave both sides unhit.
    assert!(own[0] >= stop - 1e-12 && enemy[0] >= stop - 1e-12);
    // The "shoot" course never fights back: no hits taken, own morale 0.
    let shoot = ks[0].1.as_ref();
    assert!(close(measure(shoot, "own-morale")[0], 1.0));
    assert!(close(measure(shoot, "hits-taken")[0], 1.0));
    assert!(shoot.space().measure_index("turns").is_none());
    monte_carlo_matches(k, 0x55_2004);
}

#[test]
fn longbow_scenario_reads_heavy_armour_as_armoured() {
    let ks = courses(&shipped("longbow-vs-heavily-armoured.toml")).unwrap();
    let open = &ks[0].1;
    let cover = &ks[1].1;
    // In cover the target is heavily armoured again: fewer hits.
    let mean = |k: &dyn Kernel| {
        measure(k, "hits-inflicted")
            .iter()
            .enumerate()
            .map(|(i, p)| i as f64 * p)
            .sum::<f64>()
    };
    assert!(mean(cover.as_ref()) < mean(open.as_ref()));
}

// ---------------------------------------------------------------- bad input

#[test]
fn scenario_errors_are_located() {
    let good = "[units.a]\ntroop = \"cavalry\"\ndiscipline = 3\nstrength = 3\n\n[units.b]\ntroop = \"heavy-foot\"\ndiscipline = 4\nstrength = 4\n";
    // Unknown procedure, with a suggestion.
    let t = scenario(
        good,
        "{ procedure = \"mele\", attacker = \"a\", defender = \"b\" },",
    );
    let e = input_error("s.toml", &t);
    assert_eq!(e.suggestion.as_deref(), Some("melee"), "{e}");
    assert_eq!(e.line, Some(line_containing(&t, "mele")));
    assert!(e.file.as_deref().unwrap().ends_with("s.toml"));
    // Unknown unit in a later step of a course.
    let t = scenario(
        good,
        "{ procedure = \"melee\", attacker = \"a\", defender = \"b\" },\n{ procedure = \"melee\", attacker = \"a\", defender = \"bb\" },",
    );
    let e = input_error("s.toml", &t);
    assert_eq!(e.key.as_deref(), Some("course[0].steps[1].defender"), "{e}");
    assert_eq!(e.line, Some(line_containing(&t, "\"bb\"")));
    assert!(e.to_string().contains("no unit named \"bb\""), "{e}");
    // An engagement key on a melee step.
    let t = scenario(
        good,
        "{ procedure = \"melee\", attacker = \"a\", defender = \"b\", max_rounds = 3 },",
    );
    let e = input_error("s.toml", &t);
    assert!(e.to_string().contains("unknown key `max_rounds`"), "{e}");
    // The engagement step became a repeated melee: the old spellings are
    // refused naming the new one.
    // (the step, the key refused, what its line holds, what the error says)
    for (step, key, line, says) in [
        (
            "{ procedure = \"engagement\", attacker = \"a\", defender = \"b\", max_rounds = 5 },",
            "course[0].steps[0].procedure",
            "engagement",
            "repeat = { turns = 20",
        ),
        (
            "{ procedure = \"melee\", attacker = \"a\", defender = \"b\", later_rounds_impetus = true },",
            "course[0].steps[0].later_rounds_impetus",
            "later_rounds_impetus",
            "`[rules]`",
        ),
    ] {
        let t = scenario(good, step);
        assert_located(
            &input_error("s.toml", &t),
            None,
            key,
            line_containing(&t, line),
            says,
        );
    }
    // Turns of a repeat out of range.
    let t = scenario(
        good,
        "{ procedure = \"melee\", attacker = \"a\", defender = \"b\" },",
    )
    .replace("name = \"c\"\n", "name = \"c\"\nrepeat = { turns = 51 }\n");
    let e = input_error("s.toml", &t);
    assert!(e.to_string().contains("from 1 to 50"), "{e}");
    assert_eq!(e.line, Some(line_containing(&t, "turns = 51")));
    // A stop condition that is not one.
    let t = scenario(
        good,
        "{ procedure = \"melee\", attacker = \"a\", defender = \"b\" },",
    )
    .replace(
        "name = \"c\"\n",
        "name = \"c\"\nrepeat = { turns = 5, until = [\"enemy-rout\"] }\n",
    );
    let e = input_error("s.toml", &t);
    assert_eq!(e.suggestion.as_deref(), Some("enemy-routs"), "{e}");
    // An edition: Sword & Spear has none.
    let t = format!(
        "edition = \"series\"\n{}",
        scenario(
            good,
            "{ procedure = \"melee\", attacker = \"a\", defender = \"b\" },"
        )
    );
    let e = input_error("s.toml", &t);
    assert!(e.to_string().contains("unknown key `edition`"), "{e}");
    assert_eq!(e.line, Some(1));
    // Unknown unit key.
    let t = scenario(
        "[units.a]\ntroop = \"cavalry\"\ndiscipline = 3\nstrength = 3\narmor = \"armoured\"\n",
        "{ procedure = \"activation\", unit = \"a\" },",
    );
    let e = input_error("s.toml", &t);
    assert_eq!(e.suggestion.as_deref(), Some("armour"), "{e}");
    assert_eq!(e.line, Some(line_containing(&t, "armor")));
    // Two courses with one name; no units; no course.
    let t = format!(
        "{}\n[[course]]\nname = \"c\"\nsteps = [{{ procedure = \"activation\", unit = \"a\" }}]\n",
        scenario(good, "{ procedure = \"activation\", unit = \"a\" },")
    );
    assert!(
        input_error("s.toml", &t)
            .to_string()
            .contains("course names must differ")
    );
    let e = input_error("s.toml", "name = \"t\"\nsystem = \"sword-and-spear\"\n");
    assert!(e.to_string().contains("a scenario needs units"), "{e}");
    // The sweep reaches unit keys.
    let t = format!(
        "{}\n[sweep]\n\"units.b.armour\" = [\"armoured\", \"plate\"]\n",
        scenario(
            good,
            "{ procedure = \"melee\", attacker = \"a\", defender = \"b\" },"
        )
    );
    let e = input_error("s.toml", &t);
    assert!(e.to_string().contains("unknown armour \"plate\""), "{e}");
    // A --set override is located as such.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.toml");
    std::fs::write(
        &path,
        scenario(
            good,
            "{ procedure = \"melee\", attacker = \"a\", defender = \"b\" },",
        ),
    )
    .unwrap();
    let req = RunPlan {
        overrides: Overrides::parse(&["units.a.discipline=9"]).unwrap(),
        ..RunPlan::default()
    };
    let e = match prepare(&path, &req) {
        Err(pikeshot::Error::Input(e)) => e,
        _ => panic!("accepted"),
    };
    assert!(e.to_string().contains("--set units.a.discipline"), "{e}");
}

#[test]
fn chain_node_counts_stay_small() {
    // An 8-strength melee repeated over 20 rounds stays well inside the
    // chain's limits: its bound on nodes (never below the nodes built) is
    // under 2,000.
    use pikeshot::systems::sword_spear::cost::{StepShape, node_bound};
    let units = "[units.a]\ntroop = \"medium-foot\"\ndiscipline = 3\nstrength = 8\n\n[units.b]\ntroop = \"medium-foot\"\ndiscipline = 3\nstrength = 8\n";
    let k = course(&engagement_text(units, 20, "", ""));
    let q = k.exact(DEFAULT_BUDGET).unwrap();
    assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    let melee = StepShape {
        procedure: "melee",
        actor: Some(0),
        target: Some(1),
    };
    let two = [
        Unit::new("a", Troop::MediumFoot, 3, 8),
        Unit::new("b", Troop::MediumFoot, 3, 8),
    ];
    let bound = node_bound(&[melee], &two, 0, 20);
    assert!(bound < 2_000, "{bound}");
    // Hand count: turn t can carry min(4(t - 1), 8) + 1 hit values a side.
    let want: u128 = (1..=20u32)
        .map(|t| ((4 * (t - 1)).min(8) + 1).pow(2) as u128)
        .sum();
    assert_eq!(bound, want);
}

/// `n` units of strength 10 with a captain each, as `[units.uK]` tables.
fn strong_units(n: usize) -> String {
    (0..n)
        .map(|k| format!("[units.u{k}]\ntroop = \"heavy-foot\"\ndiscipline = 4\nstrength = 10\ncommander = \"captain\"\n\n"))
        .collect()
}

#[test]
fn a_course_too_costly_to_build_is_refused_before_it_is_built() {
    // Issue 13: ten chained engagements at strength 4 took 164 s and 8.4 GB.
    // The engagement step is gone (a located error naming the repeat)...
    let four = "[units.a]\ntroop = \"heavy-foot\"\ndiscipline = 4\nstrength = 4\n\n[units.b]\ntroop = \"heavy-foot\"\ndiscipline = 4\nstrength = 4\n";
    let ten =
        ["{ procedure = \"engagement\", attacker = \"a\", defender = \"b\" },"; 10].join("\n");
    let t = scenario(four, &ten);
    let e = input_error("s.toml", &t);
    assert_eq!(
        e.key.as_deref(),
        Some("course[0].steps[0].procedure"),
        "{e}"
    );
    // ...and its new spelling, ten melee steps repeated for 50 turns, stays
    // small: two units carry few states.
    let ten = ["{ procedure = \"melee\", attacker = \"a\", defender = \"b\" },"; 10].join("\n");
    let t =
        scenario(four, &ten).replace("name = \"c\"\n", "name = \"c\"\nrepeat = { turns = 50 }\n");
    let k = course(&t);
    assert!((k.exact(DEFAULT_BUDGET).unwrap().iter().sum::<f64>() - 1.0).abs() < 1e-9);
    // Three pairs of strength-10 units with captains, melee after melee,
    // turn after turn: each turn multiplies the states the six units can
    // carry; refused at repeat.turns with the most turns that fit.
    let pairs = "{ procedure = \"melee\", attacker = \"u0\", defender = \"u1\" },\n{ procedure = \"melee\", attacker = \"u2\", defender = \"u3\" },\n{ procedure = \"melee\", attacker = \"u4\", defender = \"u5\" },";
    let t = scenario(&strong_units(6), pairs)
        .replace("name = \"c\"\n", "name = \"c\"\nrepeat = { turns = 30 }\n");
    let e = input_error("s.toml", &t);
    assert_eq!(e.key.as_deref(), Some("course[0].repeat.turns"), "{e}");
    assert_eq!(e.line, Some(line_containing(&t, "turns = 30")), "{e}");
    assert_eq!(e.accepted.as_deref(), Some("1 to 1"), "{e}");
    assert!(
        e.to_string().contains("more than the limit of 200000"),
        "{e}"
    );
    // Without repeat: eight independent melees between sixteen units;
    // the first three fit.
    let steps: Vec<String> = (0..8)
        .map(|k| {
            format!(
                "{{ procedure = \"melee\", attacker = \"u{}\", defender = \"u{}\" }},",
                2 * k,
                2 * k + 1
            )
        })
        .collect();
    let t = scenario(&strong_units(16), &steps.join("\n"));
    let e = input_error("s.toml", &t);
    assert_eq!(e.key.as_deref(), Some("course[0].steps"), "{e}");
    assert_eq!(
        e.accepted.as_deref(),
        Some("at most 3 steps, or fewer units named"),
        "{e}"
    );
    assert!(e.file.as_deref().unwrap().ends_with("s.toml"), "{e}");
}

#[test]
fn own_and_enemy_course_keys_choose_the_key_units() {
    // Two tests of a (strength 1) then b (strength 2): by default a is
    // own (the first step's unit) and b the enemy (the first other unit).
    let steps = "{ procedure = \"discipline-test\", unit = \"a\" },\n{ procedure = \"discipline-test\", unit = \"b\" },";
    let k = course(&scenario(TWO, steps));
    // a routs on 1-3 (1/2); b's test does not need a, so it is always
    // taken: b (strength 2) is hit on 1-3 and stands.
    assert!(close(measure(k.as_ref(), "own-morale")[2], 0.5));
    let e = measure(k.as_ref(), "enemy-morale");
    assert!(close(e[0], 0.5) && close(e[1], 0.5) && close(e[2], 0.0));
    assert!(close(measure(k.as_ref(), "hits-inflicted")[1], 0.5));
    // Swapped by the course keys.
    let swapped = scenario(TWO, steps).replace(
        "name = \"c\"\n",
        "name = \"c\"\nown = \"b\"\nenemy = \"a\"\n",
    );
    let k = course(&swapped);
    assert!(close(measure(k.as_ref(), "enemy-morale")[2], 0.5));
    assert!(close(measure(k.as_ref(), "own-morale")[1], 0.5));
    // Unknown unit: located, with the accepted names.
    let bad = scenario(TWO, steps).replace("name = \"c\"\n", "name = \"c\"\nenemy = \"bb\"\n");
    let e = input_error("s.toml", &bad);
    let s = e.to_string();
    assert!(s.contains("no unit named \"bb\""), "{s}");
    assert!(s.contains("accepted: a, b"), "{s}");
    assert!(
        s.contains(&format!(":{}", line_containing(&bad, "enemy ="))),
        "{s}"
    );
    // The same unit twice.
    let same = scenario(TWO, steps).replace(
        "name = \"c\"\n",
        "name = \"c\"\nown = \"a\"\nenemy = \"a\"\n",
    );
    assert!(
        input_error("s.toml", &same)
            .to_string()
            .contains("name the same unit")
    );
}
