//! The Sword & Spear combat process, melee combat dice and shooting against
//! the card: pair comparison, every armour effect and its documented
//! choice, every impetus rule and all seventeen "no impetus" conditions, the
//! extra dice, the weapons table with ranges, armour and cover; exact
//! results against hand arithmetic, the pool-by-pool exact override
//! against plain enumeration, Monte Carlo against exact, located errors.

// Input errors are cold, as in the library (lib.rs).
#![allow(clippy::result_large_err)]

use crate::support::close;
use crate::support::located::key_line;
use crate::support::monte_carlo::{Compiled, Leaves, assert_procedure_matches};
use crate::support::ok;
use crate::support::step::one_step_doc;
use crate::support::sword_spear;
use crate::support::{measure_probs, outcome_probs};
use pikeshot::dice::{EnumerationError, Enumerator};
use pikeshot::engine::exact::{DEFAULT_BUDGET, exact};
use pikeshot::systems::sword_spear::combat::{
    ArmourChoice, Clash, ClashProcedure, ClashRules, ClashSide, CommanderRisk, DiceFrom,
    DiceOutcome, PairEffect, Placed, Unpaired, multisets, pair_effect, top_four,
    top_four_distribution,
};
use pikeshot::systems::sword_spear::melee::{
    MeleeInput, MeleeRound, NO_IMPETUS, NoImpetus, Situation, combat_dice,
};
use pikeshot::systems::sword_spear::shooting::{
    ArmourEffect, BonusDice, Shooting, ShootingInput, WEAPONS, Weapon, protection,
};
use pikeshot::systems::sword_spear::troops::{Terrain, Troop, is_fresh};
use pikeshot::systems::sword_spear::unit::{Armour, Commander, MeleeWeapon, Unit};
use pikeshot::{Dice, Pool, Procedure};

// ---------------------------------------------------------------- helpers

fn side(dice: u8) -> ClashSide {
    ClashSide {
        dice,
        reduce: 0,
        raise: false,
        vulnerable: true,
        discipline: 4,
        strength: 4,
        hits: 0,
        commander: false,
        pursued_by_mounted: false,
    }
}

fn clash(a: ClashSide, b: ClashSide, rules: ClashRules) -> Clash {
    Clash::new([a, b], rules)
}

fn cmp(c: &Clash, a: &[u8], b: &[u8]) -> DiceOutcome {
    c.compare(&Placed::of(a), &Placed::of(b))
}

fn probs<P: Procedure>(p: &P) -> Vec<f64> {
    exact(p, DEFAULT_BUDGET).unwrap()
}

fn monte_carlo_matches<P: Procedure + Clone + 'static>(p: &P, seed: u64) {
    assert_procedure_matches(
        p,
        DEFAULT_BUDGET,
        seed,
        Leaves::Marginals,
        Compiled::Unchecked,
    );
}

/// The override against a plain enumeration of every path of `resolve`.
fn override_matches_plain_enumeration<P: Procedure>(p: &P) {
    let fast = probs(p);
    let mut plain = vec![0.0; p.space().len()];
    Enumerator::new()
        .for_each(
            DEFAULT_BUDGET,
            |d| p.resolve(d),
            |_, l, w| plain[l as usize] += w,
        )
        .unwrap();
    for (l, (a, b)) in fast.iter().zip(&plain).enumerate() {
        assert!(
            (a - b).abs() < 1e-12,
            "leaf {l}: override {a}, enumeration {b}"
        );
    }
}

fn foot(name: &str, strength: u8) -> Unit {
    Unit::new(name, Troop::MediumFoot, 4, strength)
}

/// A one-die side: strength 1, claims no impetus.
fn one_die(name: &str, troop: Troop, discipline: u8) -> Unit {
    Unit::new(name, troop, discipline, 1)
}

fn no_impetus(mut m: MeleeInput) -> MeleeInput {
    m.sides[0].impetus = false;
    m.sides[1].impetus = false;
    m
}

fn round(m: &MeleeInput) -> MeleeRound {
    ok(MeleeRound::new(m, true))
}

// ---------------------------------------------------------------- steps 2, 3, 5

#[test]
fn top_four_highest_first() {
    let p = Pool::from_counts(6, &[1, 0, 2, 0, 1, 3]);
    assert_eq!(
        top_four(&p),
        Placed {
            dice: [6, 6, 6, 5],
            n: 4
        }
    );
    let p = Pool::from_counts(6, &[2, 0, 1, 0, 0, 0]);
    assert_eq!(
        top_four(&p),
        Placed {
            dice: [3, 1, 1, 0],
            n: 3
        }
    );
    assert_eq!(
        Placed::of(&[2, 6, 1, 5, 5]),
        Placed {
            dice: [6, 5, 5, 2],
            n: 4
        }
    );
    for n in 0..=8u8 {
        let d = top_four_distribution(n);
        assert!(close(d.iter().map(|(_, w)| w).sum(), 1.0));
        assert_eq!(multisets(n), {
            let mut c = 0u64;
            Enumerator::new()
                .for_each(1_000_000, |d| d.pool(n, 6), |_, _, _| c += 1)
                .unwrap();
            c
        });
    }
    // 126 multisets of four faces once four dice are placed.
    assert_eq!(top_four_distribution(8).len(), 126);
    assert_eq!(top_four_distribution(2).len(), 21);
}

#[test]
fn every_pair_of_faces() {
    for w in 1..=7u8 {
        for l in 1..=w {
            let want = if w == l {
                PairEffect::Draw
            } else if w >= 2 * l {
                PairEffect::Hit
            } else {
                PairEffect::Test
            };
            assert_eq!(pair_effect(w, l), want, "{w} vs {l}");
        }
    }
    // Card: a die that doubles its opponent is a hit; beating without doubling a test.
    let c = clash(side(4), side(4), ClashRules::default());
    let o = cmp(&c, &[6, 3, 2, 1], &[3, 3, 1, 1]);
    assert_eq!(o.hits, [0, 2]);
    assert_eq!(o.tests, [0, 0]);
    let o = cmp(&c, &[5, 4, 2, 1], &[6, 3, 3, 2]);
    // 5v6 test on A; 4v3 test on B; 2v3 test on A; 1v2 hit on A.
    assert_eq!(o.hits, [1, 0]);
    assert_eq!(o.tests, [2, 1]);
    assert_eq!(o.all_lost, [false, false]);
}

#[test]
fn unpaired_dice_and_lost_dice() {
    let c = clash(side(4), side(2), ClashRules::default());
    let o = cmp(&c, &[2, 2, 6, 6], &[5, 5]);
    // 6v5 test, 6v5 test; the two 2s have no opponent: ignored.
    assert_eq!(o.hits, [0, 0]);
    assert_eq!(o.tests, [0, 2]);
    assert_eq!(o.all_lost, [false, true]);
    let hits = ClashRules {
        unpaired: Unpaired::Hits,
        ..ClashRules::default()
    };
    let o = cmp(&clash(side(4), side(2), hits), &[2, 2, 6, 6], &[5, 5]);
    assert_eq!(o.hits, [0, 2]);
    // A side with dice left over has not lost them all.
    let o = cmp(&c, &[1, 1, 1], &[6, 6]);
    assert_eq!(o.all_lost, [false, false]);
    assert_eq!(o.hits, [2, 0]);
    // A draw keeps a die.
    let o = cmp(&c, &[3, 1], &[3, 2]);
    assert_eq!(o.all_lost, [false, false]);
    // A shooter is not hurt.
    let mut shooter = side(2);
    shooter.vulnerable = false;
    let o = cmp(
        &clash(shooter, side(2), ClashRules::default()),
        &[1, 1],
        &[6, 6],
    );
    assert_eq!(o, DiceOutcome::default());
}

// ---------------------------------------------------------------- step 4

#[test]
fn heavy_armour_choice_hits_first_and_literal() {
    let mut ha = side(2);
    ha.reduce = 2;
    // A: 6 and 2 against B (heavily armoured): 3 and 1. Both are hits on B.
    // Lowering the 6 by 2 gives 4v3, a test (hit->test); lowering the 2 to
    // 1 gives a draw (hit->draw).
    let c = clash(side(2), ha, ClashRules::default());
    let o = cmp(&c, &[6, 2], &[3, 1]);
    assert_eq!((o.hits[1], o.tests[1]), (1, 0), "hits-first: hit->draw");
    let literal = ClashRules {
        armour_choice: ArmourChoice::Literal,
        ..ClashRules::default()
    };
    let o = cmp(&clash(side(2), ha, literal), &[6, 2], &[3, 1]);
    assert_eq!((o.hits[1], o.tests[1]), (1, 1), "literal: hit->test first");
    // Never below its own die: 5v4 lowers to 4v4, not 3v4.
    let o = cmp(&c, &[5], &[4]);
    assert_eq!((o.hits, o.tests), ([0, 0], [0, 0]));
    // Pairs 6v4 (a test) and 5v1 (a hit): lowering the 5 to 3 leaves the
    // hit, so the test is cancelled instead.
    let o = cmp(&c, &[6, 5], &[4, 1]);
    assert_eq!((o.hits[1], o.tests[1]), (1, 0));
    // Only the opponent's winning dice: 6v4 lowered to a draw; its own
    // winning 3v1 stays a hit on the opponent.
    let o = cmp(&c, &[6, 1], &[4, 3]);
    assert_eq!((o.hits, o.tests), ([1, 0], [0, 0]));
}

#[test]
fn armour_lowers_by_one() {
    let mut a = side(2);
    a.reduce = 1;
    let c = clash(side(2), a, ClashRules::default());
    // 5v2 stays a hit at 4v2; 3v2 becomes a draw: cancel the test.
    let o = cmp(&c, &[5, 3], &[2, 2]);
    assert_eq!((o.hits[1], o.tests[1]), (1, 0));
    // 4v2 -> 3v2 (hit->test) preferred to 3v2 -> 2v2 (test->draw).
    let o = cmp(&c, &[4, 3], &[2, 2]);
    assert_eq!((o.hits[1], o.tests[1]), (0, 2));
    // 2v1 -> 1v1 (hit->draw) preferred to 4v2 -> 3v2 (hit->test).
    let o = cmp(&c, &[4, 2], &[2, 1]);
    assert_eq!((o.hits[1], o.tests[1]), (1, 0));
    let literal = ClashRules {
        armour_choice: ArmourChoice::Literal,
        ..ClashRules::default()
    };
    let o = cmp(&clash(side(2), a, literal), &[4, 2], &[2, 1]);
    assert_eq!((o.hits[1], o.tests[1]), (1, 1));
}

#[test]
fn raising_against_lacking_protection() {
    let mut r = side(2);
    r.raise = true;
    let c = clash(r, side(2), ClashRules::default());
    // A draw 1v1 becomes 2v1: a hit, preferred to 3v2 (test) -> 4v2 (hit)
    // since it keeps the test too.
    let o = cmp(&c, &[3, 1], &[2, 1]);
    assert_eq!((o.hits[1], o.tests[1]), (1, 1));
    // A test into a hit: 5v3 -> 6v3, preferred to 3v3 -> 4v3 (draw->test).
    let o = cmp(&c, &[5, 3], &[3, 3]);
    assert_eq!((o.hits[1], o.tests[1]), (1, 0));
    // Only a draw into a test is on offer (4v4 -> 5v4; 1v3 is lost).
    let o = cmp(&c, &[4, 1], &[4, 3]);
    assert_eq!((o.hits, o.tests), ([1, 0], [0, 1]));
    // A 6 raised is a 7: 6v6 -> 7v6 is a test.
    let o = cmp(&c, &[6], &[6]);
    assert_eq!(o.tests, [0, 1]);
    // Losing dice are never raised.
    let o = cmp(&c, &[1], &[6]);
    assert_eq!((o.hits, o.tests), ([1, 0], [0, 0]));
    // Both lacking protection and both raising the same drawn pair: still a draw.
    let c = clash(r, r, ClashRules::default());
    let o = cmp(&c, &[1], &[1]);
    assert_eq!(o, DiceOutcome::default());
}

#[test]
fn armour_then_raise() {
    // A armoured (lowers by 1) against B lacking protection (A raises).
    // 3v4: B wins, a test on A; armour lowers B's 4 to 3 (draw); then A
    // raises that draw 3v3 -> 4v3, a test on B.
    let mut a = side(1);
    a.reduce = 1;
    a.raise = true;
    let o = cmp(&clash(a, side(1), ClashRules::default()), &[3], &[4]);
    assert_eq!((o.tests, o.hits), ([0, 1], [0, 0]));
}

// ---------------------------------------------------------------- exact hand arithmetic

/// One die against one die, no impetus: A's die a, B's die b.
/// A hits B on a >= 2b: 9 of 36. A tests B on b < a < 2b: 6 of 36.
#[test]
fn one_die_each_by_hand() {
    let m = no_impetus(MeleeInput::new(
        one_die("a", Troop::MediumFoot, 3),
        one_die("b", Troop::MediumFoot, 4),
    ));
    let r = round(&m);
    assert_eq!(r.dice()[0].total, 1);
    let p = outcome_probs(&r);
    // B routs on a hit, or a test failed (1-3 of 6 at Discipline 4).
    let b = 9.0 / 36.0 + 6.0 / 36.0 * 3.0 / 6.0;
    // A routs on a hit, or a test failed (1-2 at Discipline 3).
    let a = 9.0 / 36.0 + 6.0 / 36.0 * 2.0 / 6.0;
    assert!(close(p[1], a), "{p:?}");
    assert!(close(p[2], b));
    assert!(close(p[3], 0.0));
    assert!(close(p[0], 1.0 - a - b));
    let tests = measure_probs(&r, "defender-tests");
    assert!(close(tests[1], 6.0 / 36.0));
}

#[test]
fn armour_by_hand() {
    let base = |armour: Armour| {
        let mut b = one_die("b", Troop::MediumFoot, 4);
        b.armour = armour;
        round(&no_impetus(MeleeInput::new(
            one_die("a", Troop::MediumFoot, 3),
            b,
        )))
    };
    let b_hits_tests = |r: &MeleeRound| {
        let t = measure_probs(r, "defender-tests")[1];
        // Defender hits = dice hits + failed tests (1/2).
        let h = measure_probs(r, "defender-hits")[1];
        (h - t / 2.0, t)
    };
    // Armoured: A's winning die lowered by 1. Hits: (3,1),(4,1),(5,1),(6,1),
    // (5,2),(6,2). Tests: (4,2),(5,3),(6,3),(6,4).
    let (h, t) = b_hits_tests(&base(Armour::Armoured));
    assert!(close(h, 6.0 / 36.0) && close(t, 4.0 / 36.0), "{h} {t}");
    // Heavily armoured: lowered by up to 2, not below b. Hits: (4,1),(5,1),
    // (6,1),(6,2). Tests: (5,2),(6,3).
    let (h, t) = b_hits_tests(&base(Armour::HeavilyArmoured));
    assert!(close(h, 4.0 / 36.0) && close(t, 2.0 / 36.0), "{h} {t}");
    // Lacking protection: A raises a winning or drawing die. Hits: b=1 any a
    // (6), b=2 a>=3 (4), b=3 a>=5 (2). Tests: b=2 a=2, b=3 a=3,4, b=4
    // a=4,5,6, b=5 a=5,6, b=6 a=6.
    let (h, t) = b_hits_tests(&base(Armour::LackingProtection));
    assert!(close(h, 12.0 / 36.0) && close(t, 9.0 / 36.0), "{h} {t}");
    // A's odds are untouched by B's protection.
    for a in [
        Armour::Armoured,
        Armour::HeavilyArmoured,
        Armour::LackingProtection,
    ] {
        let r = base(a);
        assert!(close(measure_probs(&r, "attacker-tests")[1], 6.0 / 36.0));
    }
}

#[test]
fn commander_risk_by_hand() {
    // A: mounted, one die. B: one die, Discipline 4 with a captain (3).
    let mut b = one_die("b", Troop::MediumFoot, 4);
    b.commander = Some(Commander::Captain);
    let m = no_impetus(MeleeInput::new(one_die("a", Troop::Cavalry, 3), b));
    let killed = |m: &MeleeInput| measure_probs(&round(m), "defender-commander-killed")[1];
    // B routs: hit 9/36, or test failed 6/36 * 2/6 = 11/36; pursued by
    // mounted: 5+. B's die beaten without routing (test passed): 6/36 * 4/6,
    // all its dice lost: 6.
    let rout = 9.0 / 36.0 + 6.0 / 36.0 * 2.0 / 6.0;
    let lost = 6.0 / 36.0 * 4.0 / 6.0;
    assert!(close(killed(&m), rout * 2.0 / 6.0 + lost / 6.0));
    let mut n = m.clone();
    n.mounted_pursue = false;
    assert!(close(killed(&n), rout / 6.0 + lost / 6.0));
    let mut n = m.clone();
    n.rules.commander_risk = CommanderRisk::RoutOnly;
    assert!(close(killed(&n), rout * 2.0 / 6.0));
    // A side without a commander has no such measure.
    assert!(
        round(&m)
            .space()
            .measure_index("attacker-commander-killed")
            .is_none()
    );
}

#[test]
fn exact_override_agrees_with_plain_enumeration() {
    // Small pools, armour both ways, tests, commanders: every path of
    // resolve enumerated against the pool-by-pool override.
    let mut a = Unit::new("a", Troop::Cavalry, 3, 2);
    a.armour = Armour::HeavilyArmoured;
    a.commander = Some(Commander::General);
    let mut b = Unit::new("b", Troop::HeavyFoot, 4, 3);
    b.armour = Armour::LackingProtection;
    b.commander = Some(Commander::Captain);
    b.hits = 1;
    let r = round(&MeleeInput::new(a.clone(), b.clone()));
    // Cavalry 2 + 2 impetus; heavy foot 3 - 1 hit + 1 impetus (not fresh).
    assert_eq!(r.dice()[0].total, 4);
    assert_eq!(r.dice()[1].total, 3);
    override_matches_plain_enumeration(&r);
    let mut m = MeleeInput::new(b, a);
    m.rules.unpaired = Unpaired::Hits;
    m.rules.armour_choice = ArmourChoice::Literal;
    override_matches_plain_enumeration(&round(&m));
    let mut f = Unit::new("f", Troop::MediumFoot, 3, 3);
    f.weapon = Some(Weapon::Bow);
    let mut t = Unit::new("t", Troop::HeavyFoot, 4, 2);
    t.armour = Armour::Armoured;
    t.commander = Some(Commander::Captain);
    override_matches_plain_enumeration(&ok(Shooting::new(&ShootingInput::new(f, t))));
}

#[test]
fn eight_against_eight_is_exact_within_the_default_budget() {
    let mut a = Unit::new("a", Troop::MediumFoot, 3, 7);
    a.armour = Armour::HeavilyArmoured;
    let mut b = Unit::new("b", Troop::MediumFoot, 4, 7);
    b.armour = Armour::LackingProtection;
    b.commander = Some(Commander::General);
    let r = round(&MeleeInput::new(a, b));
    assert_eq!((r.dice()[0].total, r.dice()[1].total), (8, 8));
    let p = probs(&r);
    assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    // The override counts its own paths against the budget.
    assert_eq!(
        r.exact(10_000),
        Some(Err(EnumerationError::Budget { budget: 10_000 }))
    );
    monte_carlo_matches(&r, 0x55_1001);
}

#[test]
fn six_against_six_monte_carlo_matches_exact() {
    let mut a = Unit::new("a", Troop::MediumFoot, 3, 4);
    a.large = true;
    a.armour = Armour::Armoured;
    a.commander = Some(Commander::Captain);
    let mut b = Unit::new("b", Troop::MediumFoot, 4, 4);
    b.large = true;
    b.armour = Armour::LackingProtection;
    let r = round(&MeleeInput::new(b, a));
    assert_eq!((r.dice()[0].total, r.dice()[1].total), (6, 6));
    monte_carlo_matches(&r, 0x55_1002);
}

// ---------------------------------------------------------------- combat dice

fn dice(m: &MeleeInput) -> [(u8, u8); 2] {
    let d = combat_dice(m);
    [(d[0].total, d[0].impetus), (d[1].total, d[1].impetus)]
}

fn denied(m: &MeleeInput, s: usize) -> Vec<NoImpetus> {
    combat_dice(m)[s].no_impetus.clone()
}

#[test]
fn base_dice_and_impetus() {
    // Fresh cavalry: two impetus dice; fresh large unit: two; fresh large
    // beasts: two; anything else one.
    let m = MeleeInput::new(Unit::new("c", Troop::Cavalry, 3, 3), foot("f", 4));
    assert_eq!(dice(&m), [(5, 2), (5, 1)]);
    let mut l = foot("l", 4);
    l.large = true;
    assert_eq!(dice(&MeleeInput::new(l, foot("f", 4)))[0], (6, 2));
    let m = MeleeInput::new(Unit::new("e", Troop::LargeBeasts, 3, 3), foot("f", 4));
    assert_eq!(dice(&m)[0], (5, 2));
    let m = MeleeInput::new(
        Unit::new("h", Troop::LightHorse, 3, 2),
        Unit::new("s", Troop::LightFoot, 4, 2),
    );
    assert_eq!(dice(&m)[0], (3, 1));
    // Hits: not fresh, fewer dice (strength less hits), one impetus die.
    let mut c = Unit::new("c", Troop::Cavalry, 3, 3);
    c.hits = 1;
    let mut m = MeleeInput::new(c, foot("f", 4));
    assert_eq!(dice(&m)[0], (3, 1));
    m.dice_from = DiceFrom::FullStrength;
    assert_eq!(dice(&m)[0], (4, 1));
    // Claiming no impetus.
    let mut m = MeleeInput::new(foot("a", 4), foot("f", 4));
    m.sides[0].impetus = false;
    assert_eq!(dice(&m)[0], (4, 0));
}

#[test]
fn fresh_status() {
    use Terrain::*;
    assert!(is_fresh(Troop::Cavalry, 0, Open, false));
    assert!(!is_fresh(Troop::Cavalry, 1, Open, false));
    assert!(!is_fresh(Troop::Cavalry, 0, Rough, false));
    assert!(!is_fresh(Troop::HeavyFoot, 0, Rough, false));
    assert!(is_fresh(Troop::MediumFoot, 0, Rough, false));
    assert!(!is_fresh(Troop::MediumFoot, 0, Difficult, false));
    assert!(!is_fresh(Troop::MediumFoot, 0, Open, true));
    assert!(is_fresh(Troop::Beasts, 0, Rough, false));
}

#[test]
fn extra_dice_for_contact_uphill_and_flank() {
    let mut m = MeleeInput::new(Unit::new("h", Troop::HeavyFoot, 3, 4), foot("f", 4));
    m.sides[0].extra_units = 2;
    m.sides[0].uphill = true;
    m.sides[0].flank = true;
    // 4 + 1 impetus + 2 + 1 + 1.
    assert_eq!(dice(&m)[0], (9, 1));
    // The flanked side loses impetus and fresh status.
    assert_eq!(denied(&m, 1), vec![NoImpetus::EnemyOnFlankOrRear]);
    assert!(!combat_dice(&m)[1].fresh);
    // Uphill only for medium or heavy foot, and not against a swarm,
    // monster or hero; flank not against train, swarm, monster or hero.
    let mut c = MeleeInput::new(Unit::new("c", Troop::Cavalry, 3, 3), foot("f", 4));
    c.sides[0].uphill = true;
    assert_eq!(dice(&c)[0], (5, 2));
    for t in [
        Troop::Swarms,
        Troop::Monsters,
        Troop::HeroFoot,
        Troop::HeroMounted,
    ] {
        let mut m = MeleeInput::new(
            Unit::new("h", Troop::HeavyFoot, 3, 4),
            Unit::new("x", t, 3, 4),
        );
        m.sides[0].uphill = true;
        m.sides[0].flank = true;
        m.sides[0].impetus = false;
        assert_eq!(dice(&m)[0].0, 4, "{t}");
    }
    let mut train = foot("w", 2);
    train.train = true;
    let mut m = MeleeInput::new(Unit::new("h", Troop::HeavyFoot, 3, 4), train);
    m.sides[0].flank = true;
    assert_eq!(dice(&m)[0].0, 5);
    m.units[1].train = false;
    assert_eq!(dice(&m)[0].0, 6);
}

#[test]
fn bonus_and_magic_dice_go_with_impetus() {
    let mut m = MeleeInput::new(Unit::new("c", Troop::Cavalry, 3, 3), foot("f", 4));
    m.sides[0].bonus_dice = 2;
    m.sides[0].magic_dice = 1;
    assert_eq!(dice(&m)[0], (8, 5));
    m.sides[0].manoeuvred = true;
    assert_eq!(dice(&m)[0], (3, 0));
    m.bonus_needs_impetus = false;
    assert_eq!(dice(&m)[0], (6, 0));
}

/// Each "no impetus" condition: a case that triggers it for side 0.
#[test]
fn every_no_impetus_condition() {
    use NoImpetus::*;
    assert_eq!(NO_IMPETUS.len(), 17);
    let order: Vec<NoImpetus> = NO_IMPETUS.iter().map(|(c, _, _)| *c).collect();
    assert_eq!(order, NoImpetus::ALL);
    let cav = || Unit::new("c", Troop::Cavalry, 3, 3);
    let spears = || {
        let mut s = Unit::new("s", Troop::HeavyFoot, 4, 4);
        s.melee_weapon = Some(MeleeWeapon::Spears);
        s
    };
    let pikes = || {
        let mut s = Unit::new("p", Troop::HeavyFoot, 4, 4);
        s.melee_weapon = Some(MeleeWeapon::Pikes);
        s
    };
    let with = |a: Unit, b: Unit, f: &dyn Fn(&mut MeleeInput)| {
        let mut m = MeleeInput::new(a, b);
        f(&mut m);
        m
    };
    let cases: Vec<(NoImpetus, MeleeInput)> = vec![
        (
            EnemyOnFlankOrRear,
            with(foot("a", 4), foot("b", 4), &|m| m.sides[1].flank = true),
        ),
        (
            MovedFootVsFreshMounted,
            with(foot("a", 4), cav(), &|m| m.sides[0].moved = true),
        ),
        (MountedVsStandingSpears, with(cav(), spears(), &|_| {})),
        (FootVsFreshPikes, with(foot("a", 4), pikes(), &|_| {})),
        (
            NotInOpen,
            with(cav(), foot("b", 4), &|m| {
                m.units[0].terrain = Terrain::Rough
            }),
        ),
        (
            LightHorseFrontally,
            with(
                Unit::new("l", Troop::LightHorse, 3, 2),
                foot("b", 4),
                &|_| {},
            ),
        ),
        (
            MountedVsFear,
            with(cav(), foot("b", 4), &|m| m.units[1].causes_fear = true),
        ),
        (
            VsTrain,
            with(cav(), foot("b", 4), &|m| m.units[1].train = true),
        ),
        (
            LargeBeastsVsSkirmishers,
            with(
                Unit::new("e", Troop::LargeBeasts, 3, 3),
                Unit::new("s", Troop::LightFoot, 4, 2),
                &|_| {},
            ),
        ),
        (
            ShotThisPhase,
            with(foot("a", 4), foot("b", 4), &|m| {
                m.units[0].weapon = Some(Weapon::Bow);
                m.units[0].troop = Troop::HeavyFoot;
                m.sides[0].shot = true;
            }),
        ),
        (
            LightFoot,
            with(
                Unit::new("l", Troop::LightFoot, 4, 2),
                foot("b", 4),
                &|_| {},
            ),
        ),
        (
            MediumFootWithMissiles,
            with(foot("a", 4), foot("b", 4), &|m| {
                m.units[0].weapon = Some(Weapon::Sling)
            }),
        ),
        (
            Pursuit,
            with(foot("a", 4), foot("b", 4), &|m| m.pursuit = true),
        ),
        (
            GroupMove,
            with(foot("a", 4), foot("b", 4), &|m| {
                m.sides[0].group_moved = true
            }),
        ),
        (
            Manoeuvre,
            with(foot("a", 4), foot("b", 4), &|m| {
                m.sides[0].manoeuvred = true
            }),
        ),
        (
            ChargedAcrossObstacle,
            with(foot("a", 4), foot("b", 4), &|m| {
                m.sides[0].charged = true;
                m.obstacle = true;
            }),
        ),
        (
            VsMonster,
            with(foot("a", 4), Unit::new("m", Troop::Monsters, 3, 4), &|_| {}),
        ),
    ];
    assert_eq!(cases.len(), 17);
    for (cond, m) in &cases {
        let d = combat_dice(m);
        assert!(
            d[0].no_impetus.contains(cond),
            "{cond}: {:?}",
            d[0].no_impetus
        );
        assert_eq!(d[0].impetus, 0, "{cond}");
        // The breakdown names the condition, on a line that gives no die.
        assert!(
            d[0].lines
                .iter()
                .any(|l| l.label.contains(cond.name()) && !l.applied),
            "{cond}: {:?}",
            d[0].lines
        );
    }
}

#[test]
fn no_impetus_exceptions() {
    // Javelin light foot fighting light foot keep impetus.
    let mut j = Unit::new("j", Troop::LightFoot, 4, 2);
    j.weapon = Some(Weapon::Javelin);
    let lf = Unit::new("l", Troop::LightFoot, 4, 2);
    assert_eq!(dice(&MeleeInput::new(j.clone(), lf.clone()))[0].1, 1);
    assert_eq!(dice(&MeleeInput::new(j.clone(), foot("f", 4)))[0].1, 0);
    // Melee-capable medium foot with missiles keep it unless a unit charged.
    let mut mc = foot("m", 4);
    mc.weapon = Some(Weapon::Bow);
    mc.melee_capable = true;
    let mut m = MeleeInput::new(mc, foot("f", 4));
    assert_eq!(dice(&m)[0].1, 1);
    m.sides[1].charged = true;
    assert_eq!(dice(&m)[0].1, 0);
    // A magic attack is not "armed with missiles".
    let mut mg = foot("g", 4);
    mg.weapon = Some(Weapon::Magic);
    assert_eq!(dice(&MeleeInput::new(mg, foot("f", 4)))[0].1, 1);
    // Against a monster: heroes, monsters and the heroic keep impetus.
    for (t, heroic) in [
        (Troop::HeroFoot, false),
        (Troop::Monsters, false),
        (Troop::MediumFoot, true),
    ] {
        let mut u = Unit::new("u", t, 3, 3);
        u.heroic = heroic;
        let m = MeleeInput::new(u, Unit::new("m", Troop::Monsters, 3, 4));
        assert!(!denied(&m, 0).contains(&NoImpetus::VsMonster), "{t}");
    }
    // Light horse on a flank is not fighting frontally; against skirmishers always fine.
    let lh = Unit::new("l", Troop::LightHorse, 3, 2);
    let mut m = MeleeInput::new(lh.clone(), foot("f", 4));
    m.sides[0].flank = true;
    assert!(!denied(&m, 0).contains(&NoImpetus::LightHorseFrontally));
    assert!(denied(&MeleeInput::new(lh, lf), 0).is_empty());
    // Beasts (not large) against skirmishers keep impetus; beasts against train do not.
    let b = Unit::new("b", Troop::Beasts, 3, 3);
    let sk = Unit::new("s", Troop::LightFoot, 4, 2);
    assert!(denied(&MeleeInput::new(b.clone(), sk), 0).is_empty());
    let mut train = foot("t", 2);
    train.train = true;
    assert!(denied(&MeleeInput::new(b, train), 0).contains(&NoImpetus::VsTrain));
    // Medium foot are not "not completely in open terrain" victims.
    let mut mf = foot("m", 4);
    mf.terrain = Terrain::Rough;
    assert!(denied(&MeleeInput::new(mf, foot("f", 4)), 0).is_empty());
}

#[test]
fn conditions_that_read_the_opponents_impetus() {
    let cav = Unit::new("c", Troop::Cavalry, 3, 3);
    let mut spears = Unit::new("s", Troop::HeavyFoot, 4, 4);
    spears.melee_weapon = Some(MeleeWeapon::Spears);
    // Standing spears with impetus deny the cavalry; the spears keep theirs.
    let m = MeleeInput::new(cav.clone(), spears.clone());
    assert_eq!(dice(&m), [(3, 0), (5, 1)]);
    // Spears that moved: the cavalry keep two dice; the foot that moved
    // against fresh cavalry with impetus lose theirs.
    let mut n = m.clone();
    n.sides[1].moved = true;
    assert_eq!(dice(&n), [(5, 2), (4, 0)]);
    assert_eq!(denied(&n, 1), vec![NoImpetus::MovedFootVsFreshMounted]);
    // Spears that are not fresh do not stop the cavalry.
    let mut hit = spears.clone();
    hit.hits = 1;
    assert_eq!(dice(&MeleeInput::new(cav.clone(), hit))[0], (5, 2));
    // Spears without impetus (in rough, heavy foot) do not stop the cavalry
    // either: "who have impetus" reads the spears' own conditions first.
    let mut rough = spears.clone();
    rough.terrain = Terrain::Rough;
    let d = combat_dice(&MeleeInput::new(cav.clone(), rough));
    assert_eq!(d[1].no_impetus, vec![NoImpetus::NotInOpen]);
    assert_eq!(d[0].impetus, 2);
    // Pikes deny foot other than pikes; pikes against pikes keep theirs.
    let mut pikes = spears.clone();
    pikes.melee_weapon = Some(MeleeWeapon::Pikes);
    assert!(
        denied(&MeleeInput::new(foot("f", 4), pikes.clone()), 0)
            .contains(&NoImpetus::FootVsFreshPikes)
    );
    assert!(denied(&MeleeInput::new(pikes.clone(), pikes), 0).is_empty());
}

// ---------------------------------------------------------------- shooting

#[test]
fn shooting_weapons_as_printed() {
    use ArmourEffect::*;
    // (weapon, range, armour, ignores cover, move and shoot, bonus, fear)
    let card = [
        (Weapon::Bow, 4, Normal, false, true, BonusDice::Any, false),
        (
            Weapon::Longbow,
            5,
            OneLevelLess,
            false,
            true,
            BonusDice::Any,
            false,
        ),
        (
            Weapon::Crossbow,
            5,
            Ignored,
            false,
            false,
            BonusDice::MagicOnly,
            false,
        ),
        (Weapon::Sling, 3, Normal, false, true, BonusDice::Any, false),
        (
            Weapon::Javelin,
            2,
            Normal,
            false,
            true,
            BonusDice::Any,
            false,
        ),
        (
            Weapon::Firearm,
            3,
            Ignored,
            false,
            false,
            BonusDice::None,
            true,
        ),
        (
            Weapon::Artillery,
            10,
            Ignored,
            true,
            false,
            BonusDice::Any,
            false,
        ),
        (Weapon::Magic, 2, Ignored, true, true, BonusDice::Any, true),
    ];
    assert_eq!(WEAPONS.len(), card.len());
    for (row, c) in WEAPONS.iter().zip(card) {
        assert_eq!(
            (
                row.weapon,
                row.range,
                row.armour,
                row.ignores_cover,
                row.move_and_shoot,
                row.bonus,
                row.causes_fear
            ),
            c
        );
        assert_eq!(row.weapon.row(), row);
    }
}

#[test]
fn protection_against_each_weapon() {
    use Armour::*;
    let p = |a, w, cover| protection(a, w, cover, 1);
    assert_eq!(p(HeavilyArmoured, Weapon::Bow, false), HeavilyArmoured);
    assert_eq!(p(HeavilyArmoured, Weapon::Longbow, false), Armoured);
    assert_eq!(p(Armoured, Weapon::Longbow, false), Unarmoured);
    assert_eq!(p(Unarmoured, Weapon::Longbow, false), Unarmoured);
    assert_eq!(
        p(LackingProtection, Weapon::Longbow, false),
        LackingProtection
    );
    for w in [
        Weapon::Crossbow,
        Weapon::Firearm,
        Weapon::Artillery,
        Weapon::Magic,
    ] {
        assert_eq!(p(HeavilyArmoured, w, false), Unarmoured, "{w}");
        assert_eq!(p(Armoured, w, false), Unarmoured, "{w}");
        assert_eq!(p(LackingProtection, w, false), LackingProtection, "{w}");
    }
    // Cover: one level better, at most heavily armoured; not against
    // artillery or magic.
    assert_eq!(p(Unarmoured, Weapon::Bow, true), Armoured);
    assert_eq!(p(LackingProtection, Weapon::Sling, true), Unarmoured);
    assert_eq!(p(HeavilyArmoured, Weapon::Bow, true), HeavilyArmoured);
    assert_eq!(p(HeavilyArmoured, Weapon::Longbow, true), HeavilyArmoured);
    assert_eq!(p(HeavilyArmoured, Weapon::Crossbow, true), Armoured);
    assert_eq!(p(Unarmoured, Weapon::Artillery, true), Unarmoured);
    assert_eq!(p(Unarmoured, Weapon::Magic, true), Unarmoured);
    assert_eq!(
        protection(Unarmoured, Weapon::Bow, true, 2),
        HeavilyArmoured
    );
    assert_eq!(protection(Unarmoured, Weapon::Bow, true, 0), Unarmoured);
}

fn volley(weapon: Weapon, armour: Armour) -> Shooting {
    let mut f = Unit::new("f", Troop::MediumFoot, 3, 1);
    f.weapon = Some(weapon);
    let mut t = Unit::new("t", Troop::HeavyFoot, 4, 1);
    t.armour = armour;
    ok(Shooting::new(&ShootingInput::new(f, t)))
}

#[test]
fn one_die_volleys_by_hand() {
    let ht = |s: &Shooting| {
        let t = measure_probs(s, "target-tests")[1];
        (measure_probs(s, "target-hits")[1] - t / 2.0, t)
    };
    // Unarmoured: hits 9/36, tests 6/36; the target's wins do nothing.
    let s = volley(Weapon::Bow, Armour::Unarmoured);
    let (h, t) = ht(&s);
    assert!(close(h, 9.0 / 36.0) && close(t, 6.0 / 36.0));
    assert!(close(outcome_probs(&s)[1], 9.0 / 36.0 + 6.0 / 36.0 / 2.0));
    // Longbow against heavy armour counts it armoured: 6/36, 4/36.
    let (h, t) = ht(&volley(Weapon::Longbow, Armour::HeavilyArmoured));
    assert!(close(h, 6.0 / 36.0) && close(t, 4.0 / 36.0));
    // Bow against heavy armour: 4/36, 2/36.
    let (h, t) = ht(&volley(Weapon::Bow, Armour::HeavilyArmoured));
    assert!(close(h, 4.0 / 36.0) && close(t, 2.0 / 36.0));
    // Crossbow ignores it: 9/36, 6/36.
    let (h, t) = ht(&volley(Weapon::Crossbow, Armour::HeavilyArmoured));
    assert!(close(h, 9.0 / 36.0) && close(t, 6.0 / 36.0));
    // Against a target lacking protection the shooter raises: 12/36, 9/36.
    let (h, t) = ht(&volley(Weapon::Sling, Armour::LackingProtection));
    assert!(close(h, 12.0 / 36.0) && close(t, 9.0 / 36.0));
}

#[test]
fn shooting_dice_and_bonus() {
    let mut f = Unit::new("f", Troop::MediumFoot, 3, 4);
    f.weapon = Some(Weapon::Bow);
    f.hits = 1;
    let t = Unit::new("t", Troop::HeavyFoot, 4, 4);
    let mut i = ShootingInput::new(f.clone(), t.clone());
    i.bonus_dice = Some(2);
    i.magic_dice = 1;
    let s = ok(Shooting::new(&i));
    assert_eq!(s.clash().sides[0].dice, 3 + 2 + 1);
    assert_eq!(s.clash().sides[1].dice, 4);
    // A pending activation bonus: range first, then dice.
    f.action_bonus = 2;
    let mut i = ShootingInput::new(f.clone(), t.clone());
    i.range = Some(5);
    let s = ok(Shooting::new(&i));
    assert_eq!(s.clash().sides[0].dice, 3 + 1);
    // A crossbow's leftover bonus is lost.
    f.weapon = Some(Weapon::Crossbow);
    let s = ok(Shooting::new(&ShootingInput::new(f, t)));
    assert_eq!(s.clash().sides[0].dice, 3);
}

#[test]
fn shooting_refusals() {
    let mut f = Unit::new("f", Troop::MediumFoot, 3, 4);
    let t = Unit::new("t", Troop::HeavyFoot, 4, 4);
    let key = |i: &ShootingInput| Shooting::new(i).unwrap_err().key.unwrap();
    assert_eq!(key(&ShootingInput::new(f.clone(), t.clone())), "firer");
    for (w, range, ok_range) in [
        (Weapon::Bow, 5, 4),
        (Weapon::Longbow, 6, 5),
        (Weapon::Crossbow, 6, 5),
        (Weapon::Sling, 4, 3),
        (Weapon::Javelin, 3, 2),
        (Weapon::Firearm, 4, 3),
        (Weapon::Artillery, 11, 10),
        (Weapon::Magic, 3, 2),
    ] {
        f.weapon = Some(w);
        let mut i = ShootingInput::new(f.clone(), t.clone());
        i.range = Some(range);
        assert_eq!(key(&i), "range", "{w}");
        i.bonus_range = Some(1);
        assert!(Shooting::new(&i).is_ok(), "{w} with bonus range");
        i.bonus_range = None;
        i.range = Some(ok_range);
        assert!(Shooting::new(&i).is_ok(), "{w} at {ok_range}");
        i.moved = true;
        assert_eq!(
            Shooting::new(&i).is_ok(),
            w.row().move_and_shoot,
            "{w} moved"
        );
        i.moved = false;
        i.bonus_dice = Some(1);
        assert_eq!(
            Shooting::new(&i).is_ok(),
            w.row().bonus == BonusDice::Any,
            "{w} bonus"
        );
        i.bonus_dice = None;
        i.magic_dice = 1;
        assert_eq!(
            Shooting::new(&i).is_ok(),
            w.row().bonus != BonusDice::None,
            "{w} magic"
        );
    }
    let mut i = ShootingInput::new(f.clone(), f.clone());
    i.range = None;
    assert_eq!(key(&i), "target");
}

#[test]
fn volley_monte_carlo_matches_exact() {
    let mut f = Unit::new("f", Troop::MediumFoot, 3, 4);
    f.weapon = Some(Weapon::Longbow);
    let mut t = Unit::new("t", Troop::HeavyFoot, 3, 4);
    t.armour = Armour::HeavilyArmoured;
    t.commander = Some(Commander::General);
    t.hits = 1;
    let mut i = ShootingInput::new(f, t);
    i.bonus_dice = Some(1);
    monte_carlo_matches(&ok(Shooting::new(&i)), 0x55_1003);
}

// ---------------------------------------------------------------- melee step keys

/// The units the step-key tests name.
const UNITS: &str = "[units.knights]\ntroop = \"cavalry\"\ndiscipline = 3\nstrength = 3\n\n[units.spears]\ntroop = \"heavy-foot\"\ndiscipline = 4\nstrength = 4\nmelee_weapon = \"spears\"\n\n[units.archers]\ntroop = \"medium-foot\"\ndiscipline = 3\nstrength = 4\nweapon = \"bow\"\n";

fn doc(step: &str) -> String {
    one_step_doc(UNITS, step)
}

#[test]
fn melee_step_reads_both_sides() {
    let t = doc(
        "procedure = \"melee\"\nattacker = \"knights\"\ndefender = \"spears\"\nattacker_charged = true\ndefender_moved = true\nattacker_bonus_dice = 1\nattacker_extra_units = 1\ndefender_extra_dice = -1",
    );
    let r = ok(sword_spear::build(&t, MeleeRound::from_step));
    // Knights: 3 + 2 impetus + 1 bonus + 1 extra unit; spears moved against
    // fresh cavalry with impetus: 4 + 0 - 1.
    assert_eq!((r.dice()[0].total, r.dice()[1].total), (7, 3));
    let s = Situation::default();
    assert!(s.impetus && !s.charged);
}

#[test]
fn melee_refusals_are_located() {
    let melee = "procedure = \"melee\"\nattacker = \"knights\"\ndefender = \"spears\"\n";
    sword_spear::assert_procedure_refusals(
        UNITS,
        "melee",
        MeleeRound::from_step,
        &[
            (
                "attacker = \"knights\"\ndefender = \"knights\"",
                "defender",
                "cannot fight itself",
            ),
            (
                "attacker = \"knights\"\ndefender = \"spears\"\nattacker_uphill = true\ndefender_uphill = true",
                "defender_uphill",
                "only one side",
            ),
            (
                "attacker = \"knights\"\ndefender = \"spears\"\nattacker_shot = true",
                "attacker_shot",
                "no `weapon`",
            ),
            (
                "attacker = \"knights\"\ndefender = \"spears\"\nattacker_extra_units = 4",
                "attacker_extra_units",
                "from 0 to 3",
            ),
        ],
    );
    // A reading is a `[rules]` key, with "did you mean" there.
    let t = doc("procedure = \"melee\"\nattacker = \"knights\"\ndefender = \"spears\"").replace(
        "name = \"t\"\n",
        "name = \"t\"\nsystem = \"sword-and-spear\"\n\n[rules]\narmour_choice = \"literall\"\n",
    );
    let e = crate::support::scenario::input_error("s.toml", &t);
    assert_eq!(e.suggestion.as_deref(), Some("literal"), "{e}");
    assert_eq!(e.line, Some(key_line(&t, "armour_choice")));
    let t = doc(&format!("{melee}attacker_charge = true"));
    let e = sword_spear::build(&t, MeleeRound::from_step).unwrap_err();
    assert_eq!(e.suggestion.as_deref(), Some("attacker_charged"), "{e}");
    assert_eq!(e.line, Some(key_line(&t, "attacker_charge")));
    sword_spear::assert_procedure_refusals(
        UNITS,
        "shooting",
        Shooting::from_step,
        &[
            (
                "firer = \"archers\"\ntarget = \"knights\"\nrange = 5",
                "range",
                "out of range: Bow reaches 4 DU",
            ),
            (
                "firer = \"knights\"\ntarget = \"archers\"",
                "firer",
                "no `weapon`",
            ),
            (
                "firer = \"archers\"\ntarget = \"knights\"\ncover_levels = 3",
                "cover_levels",
                "from 0 to 2",
            ),
        ],
    );
}

/// Dice whose pools are rolled one die at a time: every ordered roll is a
/// path of its own (6^n for n dice), the brute force that the multiset
/// tabulation (each side's pool as C(n + 5, 5) multisets) must equal.
struct Ordered<'a>(&'a mut Enumerator);

impl Dice for Ordered<'_> {
    fn d(&mut self, sides: u8) -> u8 {
        self.0.d(sides)
    }
    fn pool(&mut self, n: u8, sides: u8) -> Pool {
        let mut counts = vec![0u8; sides as usize];
        for _ in 0..n {
            counts[(self.0.d(sides) - 1) as usize] += 1;
        }
        Pool::from_counts(sides, &counts)
    }
}

#[test]
fn multiset_tabulation_equals_every_ordered_roll() {
    use pikeshot::engine::KernelMode;
    use pikeshot::engine::alias::Tabulated;
    use pikeshot::systems::sword_spear::melee::Round;
    use pikeshot::systems::sword_spear::readings::Readings;
    use pikeshot::systems::sword_spear::step::build_step;
    // Small pools (2 against 3 dice, 3 against 2) with armour both ways, a
    // side lacking protection, Discipline tests and a commander at risk.
    let units = "[units.a]\ntroop = \"medium-foot\"\ndiscipline = 3\nstrength = 2\narmour = \"heavily-armoured\"\ncommander = \"captain\"\nweapon = \"bow\"\n\n[units.b]\ntroop = \"medium-foot\"\ndiscipline = 4\nstrength = 3\narmour = \"lacking-protection\"\n\n[units.c]\ntroop = \"medium-foot\"\ndiscipline = 4\nstrength = 3\nweapon = \"bow\"\n\n[units.d]\ntroop = \"heavy-foot\"\ndiscipline = 4\nstrength = 2\narmour = \"armoured\"\ncommander = \"general\"\n";
    // The second melee under `[rules] unpaired = "hits"`.
    let unpaired_hits = Readings {
        unpaired: Unpaired::Hits,
        ..Readings::default()
    };
    let steps = [
        (
            "melee",
            "attacker = \"a\", defender = \"b\", attacker_impetus = false, defender_impetus = false",
            Readings::default(),
        ),
        (
            "melee",
            "attacker = \"b\", defender = \"a\", attacker_impetus = false, defender_impetus = false",
            unpaired_hits,
        ),
        (
            "shooting",
            "firer = \"c\", target = \"d\", range = 3",
            Readings::default(),
        ),
    ];
    for (procedure, keys, readings) in steps {
        let step = format!("{{ procedure = \"{procedure}\", {keys} }}");
        let text = format!(
            "name = \"t\"\nsystem = \"sword-and-spear\"\n\n{units}\n[[course]]\nname = \"c\"\nsteps = [{step}]\n"
        );
        let p = ok(sword_spear::build(&text, |f, u| {
            build_step(procedure, f, u, Round::single(), &readings)
        }));
        let mut ordered = vec![0.0; p.space().len()];
        let paths = Enumerator::new()
            .for_each(
                DEFAULT_BUDGET,
                |e| p.resolve(&mut Ordered(e)),
                |_, l, w| ordered[l as usize] += w,
            )
            .unwrap();
        // The brute force visits far more paths than the multisets.
        assert!(paths > 7_776, "{step}: {paths}");
        // The exact distribution the run uses and the alias table Monte
        // Carlo draws from, against every ordered roll.
        let k = Tabulated::new(p, KernelMode::Auto);
        let tabulated = pikeshot::engine::Kernel::exact(&k, DEFAULT_BUDGET).unwrap();
        let drawn = k.table().expect("tabulated").probabilities(ordered.len());
        for (l, ((t, d), o)) in tabulated.iter().zip(&drawn).zip(&ordered).enumerate() {
            assert!((t - o).abs() < 1e-12, "{step} leaf {l}: {t} vs {o}");
            assert!((d - o).abs() < 1e-8, "{step} leaf {l}: drawn {d} vs {o}");
        }
    }
}

/// The multisets of combat dice and the top-four distribution built from them.
mod multisets {
    use pikeshot::systems::sword_spear::combat::*;

    #[test]
    fn multiset_counts() {
        // C(n + 5, 5) multisets of n dice.
        for (n, count) in [(0, 1), (1, 6), (2, 21), (8, 1287)] {
            assert_eq!(multisets(n), count, "{n} dice");
        }
        for n in 0..=8 {
            assert_eq!(
                top_four_distribution(n)
                    .iter()
                    .map(|(_, w)| w)
                    .sum::<f64>()
                    .round(),
                1.0
            );
        }
    }
}
