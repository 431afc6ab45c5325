//! Snaphance Melee [10.0] with the terrain sheet and the town rules: every
//! modifier, every Charge Bonus and depth rule, the loss caps in melee, the
//! result by hits, exact distributions against hand arithmetic and against
//! plain enumeration, Monte Carlo against exact, and bad input.

// Input errors are cold, as in the library (lib.rs).
#![allow(clippy::result_large_err)]

use crate::support::close;
use crate::support::monte_carlo::{Compiled, Leaves, assert_both_kernels};
use crate::support::snaphance;
use crate::support::step::Plain;
use pikeshot::engine::alias::Tabulated;
use pikeshot::engine::exact::exact;
use pikeshot::outcome::Leaf;
use pikeshot::procedure::Procedure;
use pikeshot::stats;
use pikeshot::systems::snaphance::melee::{
    self, MELEE_DICE, Melee, MeleeInput, Role, SidePool, side_pool,
};
use pikeshot::systems::snaphance::readings::{HorseVsPikes, NewDisorder, PikeRanks};
use pikeshot::systems::snaphance::terrain::Terrain;
use pikeshot::systems::snaphance::{Aspect, Era, Kind, Readings, Stand};

fn stand(name: &str, kind: Kind, sp: u8) -> Stand {
    Stand::new(name, kind, sp)
}

fn input() -> MeleeInput {
    MeleeInput::default()
}

/// The pool of `me` fighting `foe` as `role`, default readings.
fn pool(me: &Stand, foe: &Stand, role: Role, i: MeleeInput) -> SidePool {
    side_pool(me, foe, role, &i, &Readings::default())
}

fn att(a: &Stand, d: &Stand, i: MeleeInput) -> SidePool {
    pool(a, d, Role::Attacker, i)
}

fn def(a: &Stand, d: &Stand, i: MeleeInput) -> SidePool {
    pool(d, a, Role::Defender, i)
}

/// The modifier labelled (in part) `label`.
fn m(p: &SidePool, label: &str) -> Option<i32> {
    p.modifiers
        .iter()
        .find(|(l, _)| l.contains(label))
        .map(|(_, v)| *v)
}

fn melee(a: &Stand, d: &Stand, i: MeleeInput) -> Melee {
    Melee::new(a, d, &i, &Readings::default(), true).unwrap_or_else(|e| panic!("{e}"))
}

/// Outcome probabilities by label.
fn by_label<P: Procedure>(p: &P, label: &str) -> f64 {
    let probs = stats::outcome_probs(p.space(), &exact(p, 10_000_000).unwrap());
    p.space().outcome_index(label).map_or(0.0, |i| probs[i])
}

// ------------------------------------------------------------ the chart

#[test]
fn melee_modifiers_as_printed() {
    let d = MELEE_DICE;
    assert_eq!(
        [
            d.disordered,
            d.uphill,
            d.enemy_flank,
            d.pike_rank_vs_foot,
            d.pike_rank_vs_horse,
            d.shot_unsupported_vs_mcs,
            d.shot_unsupported_vs_lc,
            d.shot_no_cover_vs_cs,
        ],
        [-1, 1, 1, 1, 2, -2, -1, -1]
    );
}

#[test]
fn sp_disorder_uphill_flank() {
    let a = stand("a", Kind::Pike, 4);
    let d = stand("d", Kind::Pike, 3);
    assert_eq!(att(&a, &d, input()).dice, 4);
    assert_eq!(def(&a, &d, input()).dice, 3);
    let mut ad = a.clone();
    ad.disordered = true;
    assert_eq!(att(&ad, &d, input()).dice, 3);
    for (higher, da, dd) in [
        (Some(Role::Attacker), 5, 3),
        (Some(Role::Defender), 4, 4),
        (None, 4, 3),
    ] {
        let i = MeleeInput { higher, ..input() };
        assert_eq!((att(&a, &d, i).dice, def(&a, &d, i).dice), (da, dd));
    }
    // Flank and rear: +1D6 to the attacker; the defender, charged from
    // behind its front, disorders (-1D6) unless it did not commence there.
    for aspect in [Aspect::Flank, Aspect::Rear] {
        let i = MeleeInput {
            attack_on: aspect,
            commenced_behind_front: true,
            ..input()
        };
        assert_eq!(m(&att(&a, &d, i), "fighting enemy"), Some(1));
        let dp = def(&a, &d, i);
        assert_eq!(dp.dice, 2, "{aspect}");
        assert!(!dp.new_disorder.is_empty());
        let j = MeleeInput {
            commenced_behind_front: false,
            ..i
        };
        assert_eq!(def(&a, &d, j).dice, 3);
        // Round 2 of an ongoing melee: the flank still counts, the new
        // disorder does not come again.
        let r2 = MeleeInput { round: 2, ..i };
        assert_eq!(att(&a, &d, r2).dice, 5);
        assert!(def(&a, &d, r2).new_disorder.is_empty());
    }
    // After-melee reading: the disorder counts from the next round.
    let i = MeleeInput {
        attack_on: Aspect::Flank,
        commenced_behind_front: true,
        ..input()
    };
    let later = Readings {
        new_disorder: NewDisorder::AfterMelee,
        ..Readings::default()
    };
    let dp = side_pool(&d, &a, Role::Defender, &i, &later);
    assert_eq!(dp.dice, 3);
    assert!(!dp.disordered && !dp.new_disorder.is_empty());
}

#[test]
fn charge_bonus_by_troop_type_and_round() {
    let foe = stand("foe", Kind::Shot, 4);
    for (k, cb) in [
        (Kind::Gendarmes, 2),
        (Kind::Lancers, 1),
        (Kind::Horse, 1),
        (Kind::LightCavalry, 1),
        (Kind::Pistols, 0),
        (Kind::Pike, 0),
        (Kind::Shot, 0),
    ] {
        let a = stand("a", k, 4);
        assert_eq!(
            m(&att(&a, &foe, input()), "Charge Bonus").unwrap_or(0),
            cb,
            "{k}"
        );
        let no_charge = MeleeInput {
            charge: false,
            ..input()
        };
        assert_eq!(m(&att(&a, &foe, no_charge), "Charge Bonus"), None, "{k}");
        let round2 = MeleeInput {
            round: 2,
            ..input()
        };
        assert_eq!(m(&att(&a, &foe, round2), "Charge Bonus"), None, "{k}");
    }
    // The army list's value, from the unit.
    let mut a = stand("a", Kind::Pike, 4);
    a.charge_bonus = 3;
    assert_eq!(att(&a, &foe, input()).dice, 7);
    // Only the attacker charges.
    let h = stand("h", Kind::Horse, 4);
    assert_eq!(m(&def(&foe, &h, input()), "Charge Bonus"), None);
}

#[test]
fn no_charge_bonus_horse_against_pikes() {
    let g = stand("g", Kind::Gendarmes, 4);
    for k in [Kind::Pike, Kind::PikeAndShot, Kind::Tercio] {
        let d = stand("d", k, 4);
        let front = att(&g, &d, input());
        assert_eq!(m(&front, "Charge Bonus"), Some(0), "{k}");
        assert!(
            front
                .modifiers
                .iter()
                .any(|(l, _)| l.contains("horse vs Pikes"))
        );
        let flank = MeleeInput {
            attack_on: Aspect::Flank,
            ..input()
        };
        assert_eq!(m(&att(&g, &d, flank), "Charge Bonus"), Some(2), "{k} flank");
        let always = Readings {
            horse_vs_pikes: HorseVsPikes::Always,
            ..Readings::default()
        };
        let p = side_pool(&g, &d, Role::Attacker, &flank, &always);
        assert_eq!(m(&p, "Charge Bonus"), Some(0), "{k} flank, always");
    }
    // Foot with a Charge Bonus keep it against pikes.
    let mut swiss = stand("s", Kind::Pike, 4);
    swiss.swiss = true;
    swiss.charge_bonus = 1;
    assert_eq!(
        m(
            &att(&swiss, &stand("d", Kind::Pike, 4), input()),
            "Charge Bonus"
        ),
        Some(1)
    );
}

#[test]
fn charge_bonus_and_terrain() {
    let horse = stand("h", Kind::Horse, 4);
    let lancers = stand("l", Kind::Lancers, 4);
    let lc = stand("lc", Kind::LightCavalry, 4);
    let foe = stand("f", Kind::Shot, 4);
    let at = |s: &Stand, t: Terrain| Stand {
        terrain: t,
        ..s.clone()
    };
    let cb = |a: &Stand, d: &Stand| m(&att(a, d, input()), "Charge Bonus");
    // Woods: lancers charge out with it, not in; horse neither; LC out only.
    assert_eq!(cb(&at(&lancers, Terrain::Woods), &foe), Some(1));
    assert_eq!(cb(&lancers, &at(&foe, Terrain::Woods)), Some(0));
    assert_eq!(cb(&at(&horse, Terrain::Woods), &foe), Some(0));
    assert_eq!(cb(&horse, &at(&foe, Terrain::Woods)), Some(0));
    assert_eq!(cb(&at(&lc, Terrain::Woods), &foe), Some(1));
    assert_eq!(cb(&lc, &at(&foe, Terrain::Woods)), Some(0));
    // Stream: none from it; kept from the bank into it.
    assert_eq!(cb(&at(&horse, Terrain::Stream), &foe), Some(0));
    assert_eq!(cb(&horse, &at(&foe, Terrain::Stream)), Some(1));
    // Swamp: none from it; kept into it, except against Sk in it.
    assert_eq!(cb(&at(&horse, Terrain::Swamp), &foe), Some(0));
    assert_eq!(cb(&horse, &at(&foe, Terrain::Swamp)), Some(1));
    let sk = stand("sk", Kind::Skirmishers, 3);
    assert_eq!(cb(&horse, &at(&sk, Terrain::Swamp)), Some(0));
    // Fields and rough: none in or against.
    for t in [Terrain::Fields, Terrain::Rough] {
        assert_eq!(cb(&at(&horse, t), &foe), Some(0));
        assert_eq!(cb(&horse, &at(&foe, t)), Some(0));
    }
    // Defences.
    let dug_in = Stand {
        defences: true,
        ..foe.clone()
    };
    assert_eq!(cb(&horse, &dug_in), Some(0));
    // Towns: none attacking into or out of a town, nor for combat stands
    // that left one (5.0); LC (a support stand) keep it after leaving.
    assert_eq!(cb(&horse, &at(&foe, Terrain::Town)), Some(0));
    let mut shot_cb = stand("s", Kind::Shot, 4);
    shot_cb.charge_bonus = 1;
    assert_eq!(
        cb(&at(&shot_cb, Terrain::Town), &stand("p", Kind::Pike, 4)),
        Some(0)
    );
    let left = MeleeInput {
        left_town: true,
        ..input()
    };
    assert_eq!(m(&att(&horse, &foe, left), "Charge Bonus"), Some(0));
    assert_eq!(m(&att(&lc, &foe, left), "Charge Bonus"), Some(1));
    // Open ground: kept.
    assert_eq!(cb(&horse, &foe), Some(1));
}

#[test]
fn pike_ranks_frontally() {
    let foot = stand("f", Kind::Shot, 4);
    let horse = stand("h", Kind::Horse, 4);
    for kind in [Kind::Pike, Kind::Tercio] {
        for ranks in 0..=2u8 {
            let mut p = stand("p", kind, 4);
            p.ranks = ranks;
            let r = ranks;
            // As defender, frontally.
            assert_eq!(
                def(&foot, &p, input()).dice,
                4 + r,
                "{kind} {ranks} vs foot"
            );
            assert_eq!(
                def(&horse, &p, input()).dice,
                4 + 2 * r,
                "{kind} {ranks} vs horse"
            );
            // As attacker, always frontal.
            let fl = MeleeInput {
                attack_on: Aspect::Flank,
                ..input()
            };
            assert_eq!(
                att(&p, &foot, fl).dice,
                4 + r + 1,
                "{kind} attacking a flank"
            );
            // Attacked in flank or rear: no ranks (and disordered).
            for aspect in [Aspect::Flank, Aspect::Rear] {
                let i = MeleeInput {
                    attack_on: aspect,
                    commenced_behind_front: false,
                    ..input()
                };
                assert_eq!(def(&horse, &p, i).dice, 4, "{kind} {aspect}");
            }
            // The 2nd and 3rd ranks together: once.
            let together = Readings {
                pike_ranks: PikeRanks::Together,
                ..Readings::default()
            };
            let t = side_pool(&p, &horse, Role::Defender, &input(), &together);
            assert_eq!(t.dice, 4 + if ranks > 0 { 2 } else { 0 });
        }
    }
    // Only pikes and tercios have ranks.
    let shot = stand("s", Kind::Shot, 4);
    assert_eq!(m(&def(&horse, &shot, input()), "rank"), None);
}

#[test]
fn depth_lost_in_terrain() {
    let horse = stand("h", Kind::Horse, 4);
    let mut pike = stand("p", Kind::Pike, 4);
    pike.ranks = 2;
    let at = |s: &Stand, t: Terrain| Stand {
        terrain: t,
        ..s.clone()
    };
    let ranks = |p: &SidePool| m(p, "extra rank").unwrap_or(0);
    assert_eq!(ranks(&def(&horse, &pike, input())), 4);
    // Woods, in or against.
    assert_eq!(ranks(&def(&horse, &at(&pike, Terrain::Woods), input())), 0);
    assert_eq!(
        ranks(&att(
            &pike,
            &at(&stand("s", Kind::Shot, 4), Terrain::Woods),
            input()
        )),
        0
    );
    // In a stream.
    assert_eq!(ranks(&def(&horse, &at(&pike, Terrain::Stream), input())), 0);
    // Attacking defences.
    let dug_in = Stand {
        defences: true,
        ..stand("s", Kind::Shot, 4)
    };
    assert_eq!(ranks(&att(&pike, &dug_in, input())), 0);
    // Towns: none in one; none for pikes attacking one; tercios +1 at most.
    let shot_in_town = at(&stand("s", Kind::Shot, 4), Terrain::Town);
    assert_eq!(ranks(&att(&pike, &shot_in_town, input())), 0);
    let mut tercio = stand("t", Kind::Tercio, 6);
    tercio.ranks = 2;
    assert_eq!(ranks(&att(&tercio, &shot_in_town, input())), 1);
    assert_eq!(ranks(&def(&horse, &at(&tercio, Terrain::Town), input())), 0);
}

#[test]
fn pike_and_shot_bonus() {
    let ps = stand("ps", Kind::PikeAndShot, 4);
    let foot = stand("f", Kind::Shot, 4);
    let horse = stand("h", Kind::Horse, 4);
    let flank = MeleeInput {
        attack_on: Aspect::Flank,
        ..input()
    };
    let in_late_woods = Stand {
        terrain: Terrain::Woods,
        era: Era::Late,
        ..ps.clone()
    };
    let dug_in = Stand {
        defences: true,
        ..foot.clone()
    };
    let in_town = Stand {
        terrain: Terrain::Town,
        ..ps.clone()
    };
    let plain = Stand {
        pike_bonus: false,
        ..ps.clone()
    };
    assert_eq!(m(&def(&foot, &ps, input()), "P&S bonus vs foot"), Some(1));
    assert_eq!(m(&def(&horse, &ps, input()), "P&S bonus vs horse"), Some(2));
    // Where the bonus is lost (0) or never given (None): (case, the
    // pike-and-shot side's pool, its "P&S bonus" modifier).
    let cases = [
        ("flank attack", def(&horse, &ps, flank), Some(0)),
        (
            "late-era woods",
            def(&horse, &in_late_woods, input()),
            Some(0),
        ),
        ("attacking defences", att(&ps, &dug_in, input()), Some(0)),
        ("in a town", def(&horse, &in_town, input()), Some(0)),
        ("no pike bonus", def(&horse, &plain, input()), None),
    ];
    for (case, pool, want) in cases {
        assert_eq!(m(&pool, "P&S bonus"), want, "{case}");
    }
}

#[test]
fn unsupported_shot() {
    let shot = stand("s", Kind::Shot, 4);
    let supported = Stand {
        supported: true,
        ..shot.clone()
    };
    let in_woods = Stand {
        terrain: Terrain::Woods,
        ..shot.clone()
    };
    let dug_in = Stand {
        defences: true,
        ..shot.clone()
    };
    let horse = stand("h", Kind::Horse, 4);
    let lc = stand("lc", Kind::LightCavalry, 4);
    let pike = stand("p", Kind::Pike, 4);
    let sk = stand("sk", Kind::Skirmishers, 4);
    // Against MCS: -2 unsupported in the open, -1 not in cover (additional).
    assert_eq!(def(&horse, &shot, input()).dice, 1);
    assert_eq!(def(&horse, &supported, input()).dice, 3);
    assert_eq!(def(&horse, &in_woods, input()).dice, 4);
    assert_eq!(def(&horse, &dug_in, input()).dice, 4);
    // Against LC (a support stand): -1 unsupported in the open.
    assert_eq!(def(&lc, &shot, input()).dice, 3);
    assert_eq!(def(&lc, &supported, input()).dice, 4);
    // Against a foot combat stand: -1 not in cover.
    assert_eq!(att(&shot, &pike, input()).dice, 3);
    assert_eq!(att(&supported, &pike, input()).dice, 3);
    // Against skirmishers (support stand): nothing.
    assert_eq!(att(&shot, &sk, input()).dice, 4);
}

#[test]
fn terrain_dice() {
    let at = |k: Kind, t: Terrain| Stand {
        terrain: t,
        ..stand("x", k, 5)
    };
    let shot = stand("s", Kind::Shot, 4);
    // Woods: lancers (and gendarmes) -2, pike and P&S (and tercios) -1, in
    // or against; horse none. Forced disorder counts too (they cannot
    // recover in woods): -1 more when they stand in woods.
    for (k, woods) in [
        (Kind::Lancers, -2),
        (Kind::Gendarmes, -2),
        (Kind::Pike, -1),
        (Kind::PikeAndShot, -1),
        (Kind::Tercio, -1),
        (Kind::Horse, 0),
        (Kind::Shot, 0),
    ] {
        let me = stand("x", k, 5);
        let foe_in_woods = Stand {
            terrain: Terrain::Woods,
            supported: true,
            ..shot.clone()
        };
        let p = pool(
            &me,
            &foe_in_woods,
            Role::Attacker,
            MeleeInput {
                charge: false,
                ..input()
            },
        );
        assert_eq!(m(&p, "woods (").unwrap_or(0), woods, "{k} vs woods");
        let inside = pool(&at(k, Terrain::Woods), &shot, Role::Defender, input());
        assert_eq!(m(&inside, "woods (").unwrap_or(0), woods, "{k} in woods");
    }
    // Lancers and pikes disorder fighting an enemy stand in woods.
    let in_woods = Stand {
        terrain: Terrain::Woods,
        ..shot.clone()
    };
    for k in [Kind::Lancers, Kind::Pike, Kind::PikeAndShot] {
        let p = pool(&stand("x", k, 4), &in_woods, Role::Attacker, input());
        assert!(
            p.new_disorder.contains(&"fighting an enemy stand in woods"),
            "{k}"
        );
        assert!(p.disordered);
    }
    // Stream: +1 on the bank against a stand in it.
    let p = def(
        &at(Kind::Pike, Terrain::Stream),
        &stand("d", Kind::Pike, 4),
        input(),
    );
    assert_eq!(m(&p, "on bank"), Some(1));
    // Defences: infantry -1, mounted -2 and disorder, artillery nothing.
    let dug_in = Stand {
        defences: true,
        ..stand("d", Kind::Pike, 4)
    };
    assert_eq!(
        m(
            &att(&stand("a", Kind::Pike, 4), &dug_in, input()),
            "attacking defences"
        ),
        Some(-1)
    );
    let h = att(&stand("a", Kind::Horse, 4), &dug_in, input());
    assert_eq!(m(&h, "attacking defences"), Some(-2));
    assert!(h.disordered);
    assert_eq!(
        m(
            &att(&stand("a", Kind::Artillery, 2), &dug_in, input()),
            "attacking defences"
        ),
        None
    );
}

#[test]
fn towns_every_cell() {
    let town = |k: Kind| Stand {
        terrain: Terrain::Town,
        ..stand("in", k, 5)
    };
    let out = |k: Kind| stand("out", k, 5);
    // 3.2 inside (defending): mounted -3, pike -2, tercio -2, single P&S -1,
    // P&S of several stands 0, other foot 0.
    let multi = Stand {
        single_stand: false,
        ..town(Kind::PikeAndShot)
    };
    for (s, want) in [
        (town(Kind::Horse), -3),
        (town(Kind::Pike), -2),
        (town(Kind::Tercio), -2),
        (town(Kind::PikeAndShot), -1),
        (multi, 0),
        (town(Kind::Shot), 0),
        (town(Kind::Skirmishers), 0),
    ] {
        let p = def(&out(Kind::Shot), &s, input());
        assert_eq!(
            m(&p, "3.2 in a town").unwrap_or(0),
            want,
            "{} inside",
            s.kind
        );
    }
    // 3.1 attacking a town: foot -1, mounted -2 and disorder, pike disorder.
    for (k, want, disorders) in [
        (Kind::Shot, -1, false),
        (Kind::Pike, -1, true),
        (Kind::PikeAndShot, -1, false),
        (Kind::Tercio, -1, false),
        (Kind::Horse, -2, true),
        (Kind::LightCavalry, -2, true),
    ] {
        let p = att(&out(k), &town(Kind::Shot), input());
        assert_eq!(m(&p, "3.1 attacking a town").unwrap_or(0), want, "{k}");
        assert_eq!(p.disordered, disorders, "{k}");
    }
    // 4.0: a stand attacked from a town suffers 3.1 too.
    let p = def(&town(Kind::Shot), &out(Kind::Horse), input());
    assert_eq!(m(&p, "3.1 attacking a town"), Some(-2));
    // No flank benefit against a stand in a town (3.0).
    let fl = MeleeInput {
        attack_on: Aspect::Flank,
        ..input()
    };
    assert_eq!(
        m(&att(&out(Kind::Shot), &town(Kind::Shot), fl), "no benefit"),
        Some(0)
    );
    // Towns 1.0: MCS, pike, tercio and 16th century P&S are disordered in one.
    for (s, dis) in [
        (town(Kind::Horse), true),
        (town(Kind::Pike), true),
        (town(Kind::Tercio), true),
        (
            Stand {
                era: Era::Sixteenth,
                ..town(Kind::PikeAndShot)
            },
            true,
        ),
        (town(Kind::PikeAndShot), false),
        (town(Kind::Shot), false),
        (town(Kind::LightCavalry), false),
    ] {
        assert_eq!(s.is_disordered(), dis, "{} {}", s.kind, s.era);
    }
}

#[test]
fn foot_will_not_charge_mcs() {
    let r = Readings::default();
    let horse = stand("h", Kind::Horse, 4);
    for k in [Kind::Pike, Kind::Shot, Kind::Skirmishers, Kind::Dragoons] {
        let e = Melee::new(&stand("f", k, 4), &horse, &input(), &r, false).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("attacker"), "{k}");
        assert!(e.message.contains("Foot will not charge MCS"), "{e}");
    }
    // Close assault in woods: Pike/P&S and Shot/Dragoons, not Sk.
    let in_woods = Stand {
        terrain: Terrain::Woods,
        ..horse.clone()
    };
    for (k, ok) in [
        (Kind::Pike, true),
        (Kind::PikeAndShot, true),
        (Kind::Shot, true),
        (Kind::Dragoons, true),
        (Kind::Skirmishers, false),
    ] {
        assert_eq!(
            Melee::new(&stand("f", k, 4), &in_woods, &input(), &r, false).is_ok(),
            ok,
            "{k}"
        );
    }
    // Towns: infantry attack MCS in a town; foot in a town attack MCS outside.
    let in_town = Stand {
        terrain: Terrain::Town,
        ..horse.clone()
    };
    assert!(Melee::new(&stand("f", Kind::Shot, 4), &in_town, &input(), &r, false).is_ok());
    let sk_in_town = Stand {
        terrain: Terrain::Town,
        ..stand("sk", Kind::Skirmishers, 3)
    };
    assert!(Melee::new(&sk_in_town, &horse, &input(), &r, false).is_ok());
    // LC are not MCS.
    assert!(
        Melee::new(
            &stand("f", Kind::Shot, 4),
            &stand("lc", Kind::LightCavalry, 4),
            &input(),
            &r,
            false
        )
        .is_ok()
    );
}

// ------------------------------------------------------------ results

#[test]
fn one_die_each_by_hand() {
    // 1-SP pikes, no modifiers: each side hits on a 6. A stand hit once
    // tests against 1 - 1 = 0: only the 1 passes, and a failure destroys it.
    let a = stand("a", Kind::Pike, 1);
    let d = stand("d", Kind::Pike, 1);
    let p = melee(&a, &d, input());
    let q = |n: f64| n / 1296.0;
    assert!(close(by_label(&p, "attacker wins"), q(30.0)));
    assert!(close(by_label(&p, "defender wins"), q(30.0)));
    assert!(close(by_label(&p, "draw"), q(901.0)));
    assert!(close(by_label(&p, "attacker destroyed"), q(155.0)));
    assert!(close(by_label(&p, "defender destroyed"), q(155.0)));
    assert!(close(by_label(&p, "both destroyed"), q(25.0)));
}

#[test]
fn loss_caps_in_melee() {
    let max = |p: &Melee, role: Role| p.space().measures()[role as usize].max;
    // Pike against pike: loser 2, winner 1.
    let big = |k: Kind| stand("x", k, 6);
    let p = melee(&big(Kind::Pike), &big(Kind::Pike), input());
    assert_eq!((max(&p, Role::Attacker), max(&p, Role::Defender)), (2, 2));
    // Cavalry against infantry: the cavalry lose at most 1.
    let p = melee(&big(Kind::Horse), &big(Kind::Pike), input());
    assert_eq!((max(&p, Role::Attacker), max(&p, Role::Defender)), (1, 2));
    // Against Sk infantry and LC: 1 for all; LC themselves 1.
    let p = melee(&big(Kind::Pike), &big(Kind::Skirmishers), input());
    assert_eq!(max(&p, Role::Attacker), 1);
    let p = melee(&big(Kind::LightCavalry), &big(Kind::Horse), input());
    assert_eq!((max(&p, Role::Attacker), max(&p, Role::Defender)), (1, 1));
    // A winner loses at most 1: with all leaves exact, no leaf where the
    // attacker wins has it losing 2.
    let p = melee(&big(Kind::Pike), &big(Kind::Pike), input());
    let probs = exact(&p, 1 << 30).unwrap();
    let wins = p.space().outcome_index("attacker wins").unwrap();
    for (l, &q) in probs.iter().enumerate() {
        if q > 0.0 && p.space().outcome_of(l as Leaf) == wins {
            assert!(p.space().value_of(l as Leaf, 0) <= 1);
        }
    }
}

#[test]
fn more_hits_wins() {
    let p = melee(
        &stand("a", Kind::Pike, 5),
        &stand("d", Kind::Pike, 3),
        input(),
    );
    let probs = exact(&p, 1 << 30).unwrap();
    let s = p.space();
    for (l, &q) in probs.iter().enumerate() {
        if q == 0.0 {
            continue;
        }
        let l = l as Leaf;
        let (ha, hd) = (s.value_of(l, 2), s.value_of(l, 3));
        let r = p.result_of(l);
        use melee::MeleeResult::*;
        match r {
            AttackerWins => assert!(ha > hd),
            DefenderWins => assert!(hd > ha),
            Draw => assert_eq!(ha, hd),
            _ => {}
        }
    }
}

#[test]
fn holding_a_town_costs_one_more_sp() {
    let a = stand("a", Kind::Shot, 4);
    let d = Stand {
        terrain: Terrain::Town,
        era: Era::Seventeenth,
        ..stand("d", Kind::PikeAndShot, 3)
    };
    let plain = melee(&a, &d, input());
    let hold = melee(
        &a,
        &d,
        MeleeInput {
            hold_town: true,
            ..input()
        },
    );
    assert!(hold.space().outcome_index("defender holds town").is_some());
    assert!(plain.space().outcome_index("defender holds town").is_none());
    assert!(close(by_label(&hold, "attacker wins"), 0.0));
    // What was "attacker wins" or "defender destroyed" splits into holding
    // and destroyed (by the extra SP); the rest is unchanged.
    let beaten = by_label(&plain, "attacker wins") + by_label(&plain, "defender destroyed");
    let now = by_label(&hold, "defender holds town") + by_label(&hold, "defender destroyed");
    assert!(close(beaten, now));
    assert!(close(by_label(&plain, "draw"), by_label(&hold, "draw")));
    assert!(by_label(&hold, "defender destroyed") > by_label(&plain, "defender destroyed"));
}

#[test]
fn face_by_face_equals_multiset_enumeration() {
    let mut g = stand("g", Kind::Gendarmes, 3);
    g.leader = true;
    let mut p = stand("p", Kind::Pike, 3);
    p.ranks = 1;
    let i = MeleeInput {
        attack_on: Aspect::Flank,
        commenced_behind_front: true,
        ..input()
    };
    let m = melee(&g, &p, i);
    // 3 + flank + Charge Bonus 2; 3 - disordered, no ranks in the flank.
    assert_eq!(
        (m.pool(Role::Attacker).dice, m.pool(Role::Defender).dice),
        (6, 2)
    );
    let fast = exact(&m, 1 << 30).unwrap();
    let slow = exact(&Plain(m.clone()), 10_000_000).unwrap();
    for (a, b) in fast.iter().zip(&slow) {
        assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    }
}

#[test]
fn monte_carlo_matches_exact() {
    let mut g = stand("g", Kind::Gendarmes, 4);
    g.leader = true;
    let mut pike = stand("p", Kind::Pike, 4);
    pike.ranks = 2;
    for i in [
        input(),
        MeleeInput {
            attack_on: Aspect::Flank,
            ..input()
        },
    ] {
        let m = melee(&g, &pike, i);
        let probs = exact(&m, 1 << 30).unwrap();
        assert_both_kernels(
            |mode| Tabulated::new(m.clone(), mode),
            &probs,
            77,
            Leaves::Marginals,
            Compiled::Unchecked,
            "",
        );
    }
}

// ------------------------------------------------------------ scenario keys

const UNITS: &str = "[units.gens]\nkind = \"gendarmes\"\nstrength = 4\n\n\
[units.pike]\nkind = \"pike\"\nstrength = 4\nranks = 2\n\n\
[units.shot]\nkind = \"shot\"\nstrength = 4\n\n\
[units.garrison]\nkind = \"shot\"\nstrength = 3\nterrain = \"town\"\n";

#[test]
fn step_builds_with_every_key() {
    let m = snaphance::procedure_step(
        UNITS,
        "melee",
        "attacker = \"gens\"\ndefender = \"pike\"\ncharge = true\nattack_on = \"rear\"\n\
         commenced_behind_front = false\nhigher = \"defender\"\nattacker_extra_dice = 1\n\
         defender_extra_dice = -1\nattacker_extra_morale = 1\ndefender_extra_morale = 2",
        Melee::from_step,
    )
    .unwrap();
    // 4 + 1 rear + 2 Charge Bonus + 1 extra; 4 + 1 higher - 1 extra.
    assert_eq!(m.pool(Role::Attacker).dice, 8);
    assert_eq!(m.pool(Role::Defender).dice, 4);
    let m = snaphance::procedure_step(
        UNITS,
        "melee",
        "attacker = \"shot\"\ndefender = \"garrison\"\nhold_town = true",
        Melee::from_step,
    )
    .unwrap();
    assert!(m.space().outcome_index("defender holds town").is_some());
}

#[test]
fn step_errors_are_located() {
    snaphance::assert_procedure_refusals(
        UNITS,
        "melee",
        Melee::from_step,
        &[
            (
                "attacker = \"shot\"\ndefender = \"gens\"",
                "attacker",
                "Foot will not charge MCS",
            ),
            (
                "attacker = \"shot\"\ndefender = \"shot\"",
                "defender",
                "itself",
            ),
            (
                "attacker = \"gens\"\ndefender = \"pike\"\ncommenced_behind_front = true",
                "commenced_behind_front",
                "flank or rear",
            ),
            (
                "attacker = \"gens\"\ndefender = \"pike\"\nhold_town = true",
                "hold_town",
                "neither stand is in a town",
            ),
            (
                "attacker = \"gens\"\ndefender = \"pike\"\nhigher = \"atacker\"",
                "higher",
                "did you mean `attacker`",
            ),
            (
                "attacker = \"gens\"\ndefender = \"pike\"\nattacker_extra_dice = 7",
                "attacker_extra_dice",
                "from -6 to 6",
            ),
            (
                "attacker = \"gens\"\ndefender = \"pike\"\nflank = true",
                "flank",
                "unknown key",
            ),
        ],
    );
}
