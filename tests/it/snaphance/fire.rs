//! Snaphance Firing (Firing and Melee Chart) with Move and Fire [7.2]: every
//! modifier line and move-and-fire cell of the sheet, the hit reading,
//! exact distributions against hand arithmetic, Monte Carlo against exact,
//! and bad input.

// Input errors are cold, as in the library (lib.rs).
#![allow(clippy::result_large_err)]

use crate::support::close;
use crate::support::monte_carlo::{Compiled, Leaves, assert_both_kernels};
use crate::support::outcome_probs;
use crate::support::snaphance;
use pikeshot::engine::alias::Tabulated;
use pikeshot::engine::exact::exact;
use pikeshot::procedure::Procedure;
use pikeshot::stats;
use pikeshot::systems::snaphance::fire::{
    self, DRAGOONS_HEXES, FIRE_DICE, Fire, FireInput, LC_HEXES, SK_FREE_BOUNDS,
};
use pikeshot::systems::snaphance::readings::{Fives, SpLoss};
use pikeshot::systems::snaphance::terrain::Terrain;
use pikeshot::systems::snaphance::{Aspect, Era, Kind, Readings, Stand};

fn stand(name: &str, kind: Kind, sp: u8) -> Stand {
    Stand::new(name, kind, sp)
}

fn fire(firer: &Stand, target: &Stand, input: FireInput) -> Fire {
    Fire::new(firer, target, &input, &Readings::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// The dice of `firer` at `target` with `input`.
fn dice(firer: &Stand, target: &Stand, input: FireInput) -> i32 {
    fire(firer, target, input).dice() as i32
}

/// The modifier labelled (in part) `label`, if applied.
fn modifier(f: &Fire, label: &str) -> Option<i32> {
    f.modifiers()
        .iter()
        .find(|(l, _)| l.contains(label))
        .map(|(_, v)| *v)
}

// ------------------------------------------------------------ the sheet

#[test]
fn firing_modifiers_as_printed() {
    let d = FIRE_DICE;
    assert_eq!(d.art_per_extra_rank, 1);
    assert_eq!(d.per_bound_moved, -1);
    assert_eq!(d.firer_disordered, -1);
    assert_eq!(d.target_evading, -1);
    assert_eq!(d.sk_lc_in_open, -1);
    assert_eq!(d.target_in_cover, -1);
    assert_eq!(d.art_in_open, -1);
    assert_eq!(d.second_rank_pistols, -1);
    assert_eq!(d.defences, -2);
    assert_eq!(d.defences_artillery, -1);
    // Move and Fire [7.2].
    assert_eq!(DRAGOONS_HEXES, [Some(0), Some(-1), Some(-1), None]);
    assert_eq!(LC_HEXES, [0, 0, 0, -1, -2]);
    assert_eq!(SK_FREE_BOUNDS, 1);
}

#[test]
fn one_die_per_remaining_sp() {
    let t = stand("t", Kind::Pike, 4);
    for sp in 1..=12 {
        let mut s = stand("s", Kind::Shot, 12);
        s.sp_lost = 12 - sp;
        assert_eq!(dice(&s, &t, FireInput::default()), sp as i32);
    }
}

#[test]
fn each_firing_line() {
    let shot = stand("shot", Kind::Shot, 4);
    let pike = stand("pike", Kind::Pike, 4);
    let base = FireInput::default();
    // Range factor from the army list, either way.
    for r in -4..=4 {
        let i = FireInput {
            range_dice: r,
            ..base
        };
        assert_eq!(dice(&shot, &pike, i), 4 + r as i32);
    }
    // Firer disordered.
    let mut dis = shot.clone();
    dis.disordered = true;
    assert_eq!(dice(&dis, &pike, base), 3);
    // Target evading: LC, Dr, Sk only.
    for k in [Kind::LightCavalry, Kind::Dragoons, Kind::Skirmishers] {
        let mut t = stand("t", k, 4);
        t.terrain = Terrain::Woods; // not in the open: only the evading line
        if k == Kind::LightCavalry {
            t.terrain = Terrain::Town;
        }
        let plain = dice(&shot, &t, base);
        let ev = FireInput {
            target_evading: true,
            ..base
        };
        assert_eq!(dice(&shot, &t, ev), plain - 1, "{k}");
    }
    // Sk and LC in the open; not when in cover.
    for k in [Kind::Skirmishers, Kind::LightCavalry] {
        let t = stand("t", k, 4);
        assert_eq!(dice(&shot, &t, base), 3, "{k} in the open");
        assert_eq!(
            modifier(&fire(&shot, &t, base), "Sk/LC in the open"),
            Some(-1)
        );
    }
    // Any in cover: woods and towns; not fields, streams, swamps.
    for (ter, cover) in [
        (Terrain::Open, false),
        (Terrain::Woods, true),
        (Terrain::Town, true),
        (Terrain::Fields, false),
        (Terrain::Rough, false),
        (Terrain::Stream, false),
        (Terrain::Swamp, false),
    ] {
        let mut t = stand("t", Kind::Shot, 4);
        t.terrain = ter;
        let f = fire(&shot, &t, base);
        assert_eq!(modifier(&f, "in cover").is_some(), cover, "{ter}");
        assert_eq!(f.dice(), if cover { 3 } else { 4 }, "{ter}");
    }
    // Artillery in the open; in woods only the cover line.
    let art = stand("art", Kind::Artillery, 3);
    assert_eq!(dice(&shot, &art, base), 3);
    let mut art_w = art.clone();
    art_w.terrain = Terrain::Woods;
    let f = fire(&shot, &art_w, base);
    assert_eq!(f.dice(), 3);
    assert_eq!(modifier(&f, "art in the open"), None);
    // 2nd rank of pistols.
    let pistols = stand("p", Kind::Pistols, 4);
    assert_eq!(
        dice(
            &pistols,
            &pike,
            FireInput {
                second_rank: true,
                ..base
            }
        ),
        3
    );
}

#[test]
fn prepared_defences_by_firer() {
    let mut t = stand("t", Kind::PikeAndShot, 4);
    t.defences = true;
    for (k, m) in [
        (Kind::Shot, -2),
        (Kind::PikeAndShot, -2),
        (Kind::Tercio, -2),
        (Kind::Pistols, -2),
        (Kind::Horse, -2),
        (Kind::Dragoons, -2),
        (Kind::Artillery, -1),
        (Kind::Skirmishers, 0),
        (Kind::LightCavalry, 0),
    ] {
        let f = stand("f", k, 5);
        let got = fire(&f, &t, FireInput::default());
        assert_eq!(got.dice() as i32, 5 + m, "{k}");
        assert_eq!(modifier(&got, "prepared defences").unwrap_or(0), m, "{k}");
    }
}

#[test]
fn artillery_against_extra_ranks() {
    let art = stand("art", Kind::Artillery, 3);
    for kind in [Kind::Pike, Kind::Tercio] {
        for ranks in 0..=2u8 {
            let mut t = stand("t", kind, 4);
            t.ranks = ranks;
            for (aspect, counts) in [
                (Aspect::Front, true),
                (Aspect::Rear, true),
                (Aspect::Flank, false),
            ] {
                let i = FireInput {
                    aspect: Some(aspect),
                    ..FireInput::default()
                };
                let want = 3 + if counts { ranks as i32 } else { 0 };
                assert_eq!(dice(&art, &t, i), want, "{kind} {ranks} ranks {aspect}");
            }
        }
    }
    // Only artillery gets the ranks.
    let mut t = stand("t", Kind::Pike, 4);
    t.ranks = 2;
    assert_eq!(
        dice(&stand("s", Kind::Shot, 3), &t, FireInput::default()),
        3
    );
}

#[test]
fn move_and_fire_every_cell() {
    let t = stand("t", Kind::Pike, 4);
    let hexes = |h| FireInput {
        hexes_moved: h,
        ..FireInput::default()
    };
    let bounds = |b| FireInput {
        bounds_moved: b,
        ..FireInput::default()
    };
    // Dragoons: 1 or 2H -1D6; 3H no fire.
    let dr = stand("dr", Kind::Dragoons, 4);
    assert_eq!(dice(&dr, &t, hexes(0)), 4);
    assert_eq!(dice(&dr, &t, hexes(1)), 3);
    assert_eq!(dice(&dr, &t, hexes(2)), 3);
    let e = Fire::new(&dr, &t, &hexes(3), &Readings::default()).unwrap_err();
    assert_eq!(e.key.as_deref(), Some("hexes_moved"));
    assert!(e.message.contains("no fire after a 3H move"), "{e}");
    // LC: -1D6 at 3H, -2D6 at 4H, free before.
    let lc = stand("lc", Kind::LightCavalry, 4);
    for (h, want) in [(0, 4), (1, 4), (2, 4), (3, 3), (4, 2)] {
        assert_eq!(dice(&lc, &t, hexes(h)), want, "LC {h}H");
    }
    assert!(Fire::new(&lc, &t, &hexes(5), &Readings::default()).is_err());
    // Sk: once free, then -1D6 a bound.
    let sk = stand("sk", Kind::Skirmishers, 4);
    for (b, want) in [(0, 4), (1, 4), (2, 3), (3, 2)] {
        assert_eq!(dice(&sk, &t, bounds(b)), want, "Sk {b} bounds");
    }
    // Other stands: -1D6 each time moved.
    for k in [
        Kind::Shot,
        Kind::PikeAndShot,
        Kind::Tercio,
        Kind::Pistols,
        Kind::Horse,
    ] {
        let s = stand("s", k, 5);
        for b in 0..=3 {
            assert_eq!(dice(&s, &t, bounds(b)), 5 - b as i32, "{k} {b} bounds");
        }
    }
    // Artillery cannot move and fire.
    let art = stand("art", Kind::Artillery, 3);
    assert_eq!(dice(&art, &t, bounds(0)), 3);
    let e = Fire::new(&art, &t, &bounds(1), &Readings::default()).unwrap_err();
    assert_eq!(e.key.as_deref(), Some("bounds_moved"));
    // Hexes for dragoons and LC only; bounds for the rest.
    assert_eq!(
        Fire::new(&dr, &t, &bounds(1), &Readings::default())
            .unwrap_err()
            .key
            .as_deref(),
        Some("bounds_moved")
    );
    assert_eq!(
        Fire::new(&art, &t, &hexes(1), &Readings::default())
            .unwrap_err()
            .key
            .as_deref(),
        Some("hexes_moved")
    );
}

#[test]
fn who_fires_and_from_where() {
    let t = stand("t", Kind::Shot, 4);
    for k in [Kind::Pike, Kind::Lancers, Kind::Gendarmes] {
        let e = Fire::new(
            &stand("f", k, 4),
            &t,
            &FireInput::default(),
            &Readings::default(),
        )
        .unwrap_err();
        assert_eq!(e.key.as_deref(), Some("firer"), "{k}");
    }
    // A stand of kind `k` in the open firing at the target in woods.
    let mut tw = t.clone();
    tw.terrain = Terrain::Woods;
    let fire_at_woods = |k: Kind| {
        Fire::new(
            &stand("f", k, 4),
            &tw,
            &FireInput::default(),
            &Readings::default(),
        )
    };
    // Horse and Pistols: no fire in or against woods; the others fire.
    for k in [Kind::Horse, Kind::Pistols] {
        let mut f = stand("f", k, 4);
        f.terrain = Terrain::Woods;
        assert!(Fire::new(&f, &t, &FireInput::default(), &Readings::default()).is_err());
        assert!(fire_at_woods(k).is_err());
    }
    for k in [
        Kind::Shot,
        Kind::LightCavalry,
        Kind::Dragoons,
        Kind::Skirmishers,
    ] {
        assert!(fire_at_woods(k).is_ok());
    }
    // Towns 2.0: 16th century P&S and all tercios -2D6 firing out; 17th
    // century and late P&S, shot and the rest fire normally. (16th century
    // P&S and tercios are also disordered in a town, towns 1.0: -1D6.)
    for (k, era, town, disordered) in [
        (Kind::PikeAndShot, Era::Sixteenth, -2, -1),
        (Kind::PikeAndShot, Era::Seventeenth, 0, 0),
        (Kind::PikeAndShot, Era::Late, 0, 0),
        (Kind::Tercio, Era::Seventeenth, -2, -1),
        (Kind::Shot, Era::Seventeenth, 0, 0),
        (Kind::Dragoons, Era::Seventeenth, 0, 0),
    ] {
        let mut f = stand("f", k, 5);
        f.era = era;
        f.terrain = Terrain::Town;
        let got = fire(&f, &t, FireInput::default());
        assert_eq!(got.dice() as i32, 5 + town + disordered, "{k} {era}");
        assert_eq!(
            modifier(&got, "out of a town").unwrap_or(0),
            town,
            "{k} {era}"
        );
        assert_eq!(
            modifier(&got, "firer disordered").unwrap_or(0),
            disordered,
            "{k} {era}"
        );
    }
}

#[test]
fn point_blank_artillery_may_cost_two_sp() {
    let art = stand("art", Kind::Artillery, 3);
    let t = stand("t", Kind::Pike, 4);
    assert_eq!(fire(&art, &t, FireInput::default()).cap(), 1);
    let pb = FireInput {
        point_blank: true,
        ..FireInput::default()
    };
    assert_eq!(fire(&art, &t, pb).cap(), 2);
    // LC lose at most 1 even so.
    assert_eq!(fire(&art, &stand("lc", Kind::LightCavalry, 4), pb).cap(), 1);
    let e = Fire::new(&stand("s", Kind::Shot, 4), &t, &pb, &Readings::default()).unwrap_err();
    assert_eq!(e.key.as_deref(), Some("point_blank"));
}

// ------------------------------------------------------------ exact

#[test]
fn one_die_at_a_two_sp_stand_by_hand() {
    // 1 die: a hit on a 6 (1/6). Hit: morale 2 - 1 = 1, pass on 1 only;
    // a fail loses roll - 1 >= 1, capped at 1.
    let p = outcome_probs(&fire(
        &stand("s", Kind::Shot, 1),
        &stand("t", Kind::Shot, 2),
        FireInput::default(),
    ));
    assert!(close(p[0], 5.0 / 6.0));
    assert!(close(p[1], 1.0 / 36.0));
    assert!(close(p[2], 5.0 / 36.0));
    assert!(close(p[3], 0.0));
}

#[test]
fn four_shot_at_pike_in_the_open_by_hand() {
    let f = fire(
        &stand("shot", Kind::Shot, 4),
        &stand("pike", Kind::Pike, 4),
        FireInput::default(),
    );
    assert_eq!(f.target_morale(), 4);
    // Hits of four d6: h = #6 + floor(#5 / 2).
    // P(0) = P(no 6) P(at most one 5 | faces 1-5) = (5/6)^4 (4^4 + 4*4^3) / 5^4.
    let p0 = 512.0 / 1296.0;
    // h = #6 + floor(#5 / 2), counted over the 1296 rolls:
    // 4 hits: 6,6,6,6 (1).
    // 3 hits: three 6s and any other (4 * 5 = 20); two 6s and 5,5 (6).
    // 2 hits: two 6s and two others not 5,5 (6 * 24 = 144); one 6 and two
    //   5s and a 1-4 (4 * 3 * 4 = 48); one 6 and three 5s (4); four 5s (1).
    let p4 = 1.0 / 1296.0;
    let p3 = (20.0 + 6.0) / 1296.0;
    let p2 = (144.0 + 48.0 + 4.0 + 1.0) / 1296.0;
    let p1 = 1.0 - p0 - p2 - p3 - p4;
    let hits = stats::measure_probs(f.space(), 0, &exact(&f, 1000).unwrap());
    for (h, want) in [p0, p1, p2, p3, p4].into_iter().enumerate() {
        assert!(close(hits[h], want), "{h} hits: {} vs {want}", hits[h]);
    }
    // Morale 4 - h: passes on 3, 2, 1, 1 of six rolls for 1..4 hits.
    let passed = p1 * 3.0 / 6.0 + p2 * 2.0 / 6.0 + (p3 + p4) / 6.0;
    let p = outcome_probs(&f);
    assert!(close(p[0], p0));
    assert!(close(p[1], passed));
    assert!(close(p[2], 1.0 - p0 - passed));
}

#[test]
fn sp_loss_readings() {
    // 1 die at a 1-SP LC... use a 6-SP target and point blank artillery to
    // see the difference reading: 3 dice, hits h, morale 6 - h.
    let art = stand("art", Kind::Artillery, 3);
    let t = stand("t", Kind::Pike, 6);
    let pb = FireInput {
        point_blank: true,
        ..FireInput::default()
    };
    let diff = fire(&art, &t, pb);
    let one = Fire::new(
        &art,
        &t,
        &pb,
        &Readings {
            sp_loss: SpLoss::One,
            ..Readings::default()
        },
    )
    .unwrap();
    let lost = |f: &Fire| stats::measure_probs(f.space(), 1, &exact(f, 1000).unwrap());
    // Under "one" a failure costs 1; under "difference" 2 when roll - (6 - h) >= 2.
    assert!(close(lost(&one)[2], 0.0));
    let h = stats::measure_probs(diff.space(), 0, &exact(&diff, 1000).unwrap());
    // 2 SP: roll >= 8 - h, and roll 6 always fails: h=1: none of 7+ but
    // the 6 is forced (loss 1); h=2: roll 6 (6-4=2); h=3: rolls 5,6.
    let want2 = h[2] / 6.0 + h[3] * 2.0 / 6.0;
    assert!(
        close(lost(&diff)[2], want2),
        "{} vs {want2}",
        lost(&diff)[2]
    );
}

#[test]
fn hit_readings_switch() {
    let two = |fives| {
        let f = Fire::new(
            &stand("s", Kind::Shot, 2),
            &stand("t", Kind::Pike, 4),
            &FireInput::default(),
            &Readings {
                fives,
                ..Readings::default()
            },
        )
        .unwrap();
        stats::measure_probs(f.space(), 0, &exact(&f, 1000).unwrap())
    };
    // Two dice, by hand (of 36): 6,6 -> 2; one 6 -> 1 (10); 5,5 -> pair.
    let pair = two(Fives::Pair);
    assert!(close(pair[1], 11.0 / 36.0) && close(pair[2], 1.0 / 36.0));
    let all = two(Fives::AllIfPair);
    assert!(close(all[1], 10.0 / 36.0) && close(all[2], 2.0 / 36.0));
    let each = two(Fives::Each);
    assert!(close(each[1], 16.0 / 36.0) && close(each[2], 4.0 / 36.0));
    let none = two(Fives::Ignore);
    assert!(close(none[1], 10.0 / 36.0) && close(none[2], 1.0 / 36.0));
}

#[test]
fn zero_dice_never_hit() {
    let mut s = stand("s", Kind::Shot, 1);
    s.disordered = true;
    let f = fire(&s, &stand("t", Kind::Pike, 4), FireInput::default());
    assert_eq!(f.dice(), 0);
    assert!(close(outcome_probs(&f)[0], 1.0));
}

// ------------------------------------------------------------ Monte Carlo

fn monte_carlo_matches_exact<P: Procedure + Clone + 'static>(p: &P, seed: u64) {
    let probs = exact(p, 10_000_000).unwrap();
    assert_both_kernels(
        |mode| Tabulated::new(p.clone(), mode),
        &probs,
        seed,
        Leaves::Marginals,
        Compiled::WhenAuto,
        "",
    );
}

#[test]
fn monte_carlo_matches_exact_for_twelve_dice() {
    let f = fire(
        &stand("tercio", Kind::Tercio, 12),
        &stand("t", Kind::PikeAndShot, 6),
        FireInput::default(),
    );
    assert_eq!(f.dice(), 12);
    monte_carlo_matches_exact(&f, 12);
    // Point blank artillery with a 2SP cap.
    let art = fire(
        &stand("art", Kind::Artillery, 4),
        &stand("t", Kind::Tercio, 5),
        FireInput {
            point_blank: true,
            ..FireInput::default()
        },
    );
    monte_carlo_matches_exact(&art, 13);
}

// ------------------------------------------------------------ scenario keys

const UNITS: &str = "[units.shot]\nkind = \"shot\"\nstrength = 4\n\n\
[units.dr]\nkind = \"dragoons\"\nstrength = 3\n\n\
[units.pike]\nkind = \"pike\"\nstrength = 4\nranks = 2\n\n\
[units.gens]\nkind = \"gendarmes\"\nstrength = 4\n";

#[test]
fn step_builds_with_every_key() {
    let f = snaphance::procedure_step(
        UNITS,
        "fire",
        "firer = \"shot\"\ntarget = \"pike\"\nrange_dice = 1\naspect = \"front\"\n\
         bounds_moved = 1\nextra_dice = -1\nextra_morale = 2",
        Fire::from_step,
    )
    .unwrap();
    assert_eq!(f.dice(), 4 + 1 - 1 - 1);
    assert_eq!(f.target_morale(), 4 + 2);
    let f = snaphance::procedure_step(
        UNITS,
        "fire",
        "firer = \"dr\"\ntarget = \"pike\"\nhexes_moved = 2\n",
        Fire::from_step,
    )
    .unwrap();
    assert_eq!(f.dice(), 2);
}

#[test]
fn step_errors_are_located() {
    snaphance::assert_procedure_refusals(
        UNITS,
        "fire",
        Fire::from_step,
        &[
            (
                "firer = \"gens\"\ntarget = \"pike\"",
                "firer",
                "has no fire",
            ),
            ("firer = \"shot\"\ntarget = \"shot\"", "target", "itself"),
            (
                "firer = \"shot\"\ntarget = \"pik\"",
                "target",
                "no unit named",
            ),
            (
                "firer = \"dr\"\ntarget = \"pike\"\nhexes_moved = 3",
                "hexes_moved",
                "3H",
            ),
            (
                "firer = \"dr\"\ntarget = \"pike\"\nbounds_moved = 1",
                "bounds_moved",
                "hexes_moved",
            ),
            (
                "firer = \"shot\"\ntarget = \"pike\"\nhexes_moved = 1",
                "hexes_moved",
                "bounds_moved",
            ),
            (
                "firer = \"shot\"\ntarget = \"pike\"\ntarget_evading = true",
                "target_evading",
                "only LC, Dr and Sk",
            ),
            (
                "firer = \"shot\"\ntarget = \"pike\"\nsecond_rank = true",
                "second_rank",
                "pistols",
            ),
            (
                "firer = \"shot\"\ntarget = \"pike\"\npoint_blank = true",
                "point_blank",
                "artillery",
            ),
            (
                "firer = \"shot\"\ntarget = \"pike\"\nrange_dice = 9",
                "range_dice",
                "from -4 to 4",
            ),
            (
                "firer = \"shot\"\ntarget = \"pike\"\naspect = \"flnk\"",
                "aspect",
                "did you mean `flank`",
            ),
            (
                "firer = \"shot\"\ntarget = \"pike\"\nrnage_dice = 1",
                "rnage_dice",
                "did you mean `range_dice`",
            ),
        ],
    );
}

#[test]
fn chart_lists_every_line() {
    let c = &fire::charts()[0];
    assert_eq!(c.id, "fire");
    let text = c.render();
    for line in [
        "per remaining SP",
        "range factors from army list",
        "each extra rank of Pike or Tercio",
        "each bound moved",
        "firer disordered",
        "target evading",
        "Sk/LC in the open",
        "any in cover",
        "art in open",
        "2nd rank of Pistols",
        "prepared defences",
    ] {
        assert!(text.contains(line), "{line} missing:\n{text}");
    }
}
