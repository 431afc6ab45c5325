//! Snaphance Morale Test/SP losses [8.0], Order Test [4.5] and Pursuit
//! [13.0]: every line and cell of the sheet, exact probabilities against
//! hand counts, the readings' switches, and bad input in stands and steps.

// Input errors are cold, as in the library (lib.rs).
#![allow(clippy::result_large_err)]

use crate::support::close;
use crate::support::outcome_probs;
use crate::support::step::units_from_text;
use pikeshot::engine::exact::exact;
use pikeshot::error::InputError;
use pikeshot::procedure::Procedure;
use pikeshot::scenario::{Fields, Source};
use pikeshot::stats;
use pikeshot::systems::snaphance::morale::{
    self, After, CAPS, MORALE, MoraleCheck, MoraleTest, loss_cap, passes,
};
use pikeshot::systems::snaphance::orders::{
    self, LEADER_RANGE_HEXES, ORDER_MODS, OrderInput, OrderTest, PASS_ON, Purpose,
};
use pikeshot::systems::snaphance::pursuit::{self, Column, PURSUIT, Pursuit, hexes};
use pikeshot::systems::snaphance::readings::SpLoss;
use pikeshot::systems::snaphance::terrain::Terrain;
use pikeshot::systems::snaphance::{Class, Era, Kind, Readings, Stand};

fn stand(name: &str, kind: Kind, sp: u8) -> Stand {
    Stand::new(name, kind, sp)
}

// ------------------------------------------------------------ morale

#[test]
fn morale_lines_as_printed() {
    assert_eq!(
        (
            MORALE.commander,
            MORALE.disordered,
            MORALE.per_sp_lost,
            MORALE.per_hit
        ),
        (1, -1, -1, -1)
    );
    assert_eq!((MORALE.always_pass, MORALE.always_fail), (1, 6));
    assert_eq!(
        (
            CAPS.melee_lost,
            CAPS.melee_won_or_drawn,
            CAPS.fire,
            CAPS.point_blank_artillery,
            CAPS.vs_skirmishers_or_lc,
            CAPS.cavalry_vs_infantry,
            CAPS.light_cavalry
        ),
        (2, 1, 1, 2, 1, 1, 1)
    );
}

#[test]
fn adjusted_morale_every_line() {
    let mut s = stand("s", Kind::Pike, 5);
    let m = |s: &Stand, dis: bool| MoraleCheck::new(s, dis, 0, SpLoss::Difference);
    assert_eq!(m(&s, false).adjusted(1), 4);
    s.leader = true;
    assert_eq!(m(&s, false).adjusted(1), 5);
    assert_eq!(m(&s, true).adjusted(1), 4);
    s.sp_lost = 2;
    assert_eq!(m(&s, true).adjusted(1), 2);
    assert_eq!(m(&s, true).adjusted(3), 0);
    assert_eq!(MoraleCheck::new(&s, true, 2, SpLoss::One).adjusted(3), 2);
}

#[test]
fn one_always_passes_six_always_fails() {
    for morale in -5..=10 {
        for roll in 1..=6u8 {
            let want = roll == 1 || (roll < 6 && roll as i32 <= morale);
            assert_eq!(passes(roll, morale), want, "roll {roll} vs {morale}");
        }
    }
}

#[test]
fn sp_lost_is_the_difference_or_one() {
    let s = stand("s", Kind::Pike, 6);
    let diff = MoraleCheck::new(&s, false, 0, SpLoss::Difference);
    let one = MoraleCheck::new(&s, false, 0, SpLoss::One);
    // 4 hits: morale 2. Rolls 1, 2 pass; 3 -> 1, 4 -> 2, 5 -> 3, 6 -> 4.
    let want = [0, 0, 1, 2, 3, 4];
    for r in 1..=6u8 {
        assert_eq!(diff.raw_loss(4, r), want[r as usize - 1], "roll {r}");
        assert_eq!(one.raw_loss(4, r), (want[r as usize - 1] > 0) as u32);
        assert_eq!(diff.loss(4, r, 2), want[r as usize - 1].min(2) as u8);
    }
    // A forced 6 against morale 6 or more costs 1.
    let big = stand("b", Kind::Pike, 12);
    assert_eq!(
        MoraleCheck::new(&big, false, 0, SpLoss::Difference).raw_loss(1, 6),
        1
    );
    // Never more than what is left.
    let mut thin = stand("t", Kind::Pike, 6);
    thin.sp_lost = 5;
    assert_eq!(
        MoraleCheck::new(&thin, false, 0, SpLoss::Difference).loss(3, 6, 2),
        1
    );
}

#[test]
fn every_loss_cap() {
    let pike = stand("p", Kind::Pike, 4);
    let horse = stand("h", Kind::Horse, 4);
    let lc = stand("lc", Kind::LightCavalry, 4);
    let sk = stand("sk", Kind::Skirmishers, 4);
    let art = stand("a", Kind::Artillery, 3);
    let cap = |a, s: &Stand, o: Option<&Stand>| loss_cap(a, s, o).0;
    assert_eq!(cap(After::MeleeLost, &pike, Some(&pike)), 2);
    assert_eq!(cap(After::MeleeWon, &pike, Some(&pike)), 1);
    assert_eq!(cap(After::MeleeDraw, &pike, Some(&pike)), 1);
    assert_eq!(cap(After::Fire, &pike, Some(&art)), 1);
    assert_eq!(cap(After::PointBlank, &pike, Some(&art)), 2);
    // All stands vs Sk inf. and LC.
    assert_eq!(cap(After::MeleeLost, &pike, Some(&sk)), 1);
    assert_eq!(cap(After::MeleeLost, &horse, Some(&lc)), 1);
    // Cav vs inf: the cavalry.
    assert_eq!(cap(After::MeleeLost, &horse, Some(&pike)), 1);
    assert_eq!(cap(After::MeleeLost, &pike, Some(&horse)), 2);
    // Against artillery horse are not "vs inf".
    assert_eq!(cap(After::MeleeLost, &horse, Some(&art)), 2);
    // LC always.
    assert_eq!(cap(After::MeleeLost, &lc, Some(&horse)), 1);
    assert_eq!(cap(After::PointBlank, &lc, None), 1);
    // The lines that set it.
    let (_, lines) = loss_cap(After::MeleeLost, &horse, Some(&pike));
    assert!(lines.contains(&"cav vs inf max loss cav 1SP"));
}

#[test]
fn morale_test_by_hand() {
    // A 3-SP stand, 1 hit: morale 2, passes on 1-2; fails 3 (1 SP), 4 (2),
    // 5 (3: destroyed), 6 (4: destroyed) before a melee-lost cap of 2.
    let s = stand("s", Kind::Pike, 3);
    let r = Readings::default();
    let t = MoraleTest::new(&s, 1, After::MeleeLost, None, 0, &r);
    assert_eq!(t.adjusted(), 2);
    let p = outcome_probs(&t);
    assert!(close(p[0], 2.0 / 6.0));
    assert!(
        close(p[1], 4.0 / 6.0),
        "capped at 2 of 3 SP: never destroyed"
    );
    let lost = stats::measure_probs(t.space(), 0, &exact(&t, 100).unwrap());
    assert!(close(lost[1], 1.0 / 6.0) && close(lost[2], 3.0 / 6.0));
    // After fire (cap 1), a 1-SP stand fails into destruction.
    let one = stand("o", Kind::Shot, 1);
    let t = MoraleTest::new(&one, 1, After::Fire, None, 0, &r);
    let p = outcome_probs(&t);
    assert!(close(p[0], 1.0 / 6.0) && close(p[2], 5.0 / 6.0));
}

// ------------------------------------------------------------ order test

#[test]
fn order_classes_every_cell() {
    assert_eq!(PASS_ON, [(Class::A, 3), (Class::B, 4), (Class::C, 5)]);
    assert_eq!(
        (
            ORDER_MODS.leader_attached,
            ORDER_MODS.out_of_range_or_dead,
            ORDER_MODS.per_move_after_first
        ),
        (1, -1, -1)
    );
    assert_eq!(LEADER_RANGE_HEXES, 4);
    for (class, passing) in [
        (Class::A, [3, 4, 5, 6].as_slice()),
        (Class::B, &[4, 5, 6]),
        (Class::C, &[5, 6]),
    ] {
        let mut s = stand("s", Kind::Shot, 4);
        s.class = Some(class);
        let t = OrderTest::new(&s, &OrderInput::default()).unwrap();
        assert_eq!(t.need(), passing[0]);
        assert!(
            close(outcome_probs(&t)[0], passing.len() as f64 / 6.0),
            "{class}"
        );
    }
}

#[test]
fn order_modifiers() {
    let mut s = stand("s", Kind::Shot, 4);
    s.class = Some(Class::B);
    let p = |s: &Stand, i: OrderInput| outcome_probs(&OrderTest::new(s, &i).unwrap())[0];
    let base = OrderInput::default();
    assert!(close(p(&s, base), 3.0 / 6.0));
    // Leader attached +1.
    let led = Stand {
        leader: true,
        ..s.clone()
    };
    assert!(close(p(&led, base), 4.0 / 6.0));
    // Out of range or dead: -1 once.
    for i in [
        OrderInput {
            out_of_leader_range: true,
            ..base
        },
        OrderInput {
            leader_dead: true,
            ..base
        },
        OrderInput {
            out_of_leader_range: true,
            leader_dead: true,
            ..base
        },
    ] {
        assert!(close(p(&s, i), 2.0 / 6.0));
    }
    // Each movement after the first: 0, 1 free; 2 -> -1; 3 -> -2.
    for (moves, want) in [(0, 3.0), (1, 3.0), (2, 2.0), (3, 1.0), (4, 0.0)] {
        let i = OrderInput {
            moves_taken: moves,
            ..base
        };
        assert!(close(p(&s, i), want / 6.0), "{moves} moves");
    }
    // extra_mod.
    assert!(close(
        p(
            &s,
            OrderInput {
                extra_mod: 2,
                ..base
            }
        ),
        5.0 / 6.0
    ));
}

#[test]
fn order_test_refusals() {
    let s = stand("s", Kind::Shot, 4);
    let e = OrderTest::new(&s, &OrderInput::default()).unwrap_err();
    assert_eq!(e.key.as_deref(), Some("unit"));
    // Cannot recover where the sheets say so.
    let recover = OrderInput {
        purpose: Some(Purpose::Recover),
        ..OrderInput::default()
    };
    for (k, t, era, ok) in [
        (Kind::Pike, Terrain::Woods, Era::Seventeenth, false),
        (Kind::PikeAndShot, Terrain::Woods, Era::Seventeenth, false),
        (Kind::PikeAndShot, Terrain::Woods, Era::Late, true),
        (Kind::Horse, Terrain::Woods, Era::Seventeenth, false),
        (Kind::LightCavalry, Terrain::Woods, Era::Seventeenth, true),
        (Kind::Shot, Terrain::Stream, Era::Seventeenth, false),
        (Kind::Skirmishers, Terrain::Swamp, Era::Seventeenth, true),
        (Kind::Shot, Terrain::Swamp, Era::Seventeenth, false),
        (Kind::Shot, Terrain::Fields, Era::Seventeenth, true),
        (Kind::Horse, Terrain::Town, Era::Seventeenth, false),
        (Kind::PikeAndShot, Terrain::Town, Era::Sixteenth, false),
        (Kind::PikeAndShot, Terrain::Town, Era::Seventeenth, true),
        (Kind::Shot, Terrain::Town, Era::Seventeenth, true),
    ] {
        let s = Stand {
            class: Some(Class::B),
            terrain: t,
            era,
            disordered: true,
            ..stand("s", k, 4)
        };
        assert_eq!(OrderTest::new(&s, &recover).is_ok(), ok, "{k} {t} {era}");
    }
    // An attached leader is neither out of range nor dead.
    let led = Stand {
        class: Some(Class::A),
        leader: true,
        ..stand("s", Kind::Shot, 4)
    };
    let e = OrderTest::new(
        &led,
        &OrderInput {
            leader_dead: true,
            ..OrderInput::default()
        },
    )
    .unwrap_err();
    assert_eq!(e.key.as_deref(), Some("leader_dead"));
}

// ------------------------------------------------------------ pursuit

#[test]
fn pursuit_every_cell() {
    // Rows 1..6, columns gendarmes, Swiss pike, infantry, cavalry.
    let want: [[u8; 4]; 6] = [
        [0, 0, 0, 0],
        [1, 1, 0, 1],
        [1, 1, 0, 1],
        [2, 2, 1, 2],
        [2, 2, 1, 2],
        [3, 2, 1, 2],
    ];
    assert_eq!(PURSUIT, want);
    for (c, col) in Column::ALL.iter().enumerate() {
        for roll in 1..=6 {
            assert_eq!(hexes(*col, roll), want[roll as usize - 1][c]);
        }
        // Clamped at both ends.
        assert_eq!(hexes(*col, 0), want[0][c]);
        assert_eq!(hexes(*col, 7), want[5][c]);
    }
}

#[test]
fn who_pursues() {
    let g = stand("g", Kind::Gendarmes, 4);
    let swiss = Stand {
        swiss: true,
        charge_bonus: 1,
        ..stand("s", Kind::Pike, 4)
    };
    let horse = stand("h", Kind::Horse, 4);
    let mut inf = stand("i", Kind::Shot, 4);
    inf.charge_bonus = 1;
    let pistols = stand("p", Kind::Pistols, 4);
    assert_eq!(pursuit::column(&g), Some((Column::Gendarmes, true)));
    assert_eq!(pursuit::column(&swiss), Some((Column::SwissPike, true)));
    assert_eq!(pursuit::column(&horse), Some((Column::Cavalry, false)));
    assert_eq!(pursuit::column(&inf), Some((Column::Infantry, false)));
    assert_eq!(pursuit::column(&pistols), None);
    // Exact: gendarmes 1H 2/6, 2H 2/6, 3H 1/6; leader +1: 1H 2/6, 2H 2/6, 3H 2/6.
    let p = outcome_probs(&Pursuit::new(&g, 0, true).unwrap());
    assert!(close(p[0], 1.0 / 6.0) && close(p[1], 2.0 / 6.0) && close(p[3], 1.0 / 6.0));
    let led = Stand {
        leader: true,
        ..g.clone()
    };
    let p = outcome_probs(&Pursuit::new(&led, 1, true).unwrap());
    assert!(close(p[0], 0.0) && close(p[3], 2.0 / 6.0));
    let p = outcome_probs(&Pursuit::new(&led, -1, true).unwrap());
    assert!(close(p[0], 2.0 / 6.0) && close(p[3], 0.0));
    // Infantry 1H on 4-6.
    let p = outcome_probs(&Pursuit::new(&inf, 0, true).unwrap());
    assert!(close(p[1], 0.5) && close(p[0], 0.5));
    // May choose not to: no roll.
    let p = outcome_probs(&Pursuit::new(&horse, 0, false).unwrap());
    assert!(close(p[0], 1.0));
    // Must.
    assert_eq!(
        Pursuit::new(&g, 0, false).unwrap_err().key.as_deref(),
        Some("pursue")
    );
    assert_eq!(
        Pursuit::new(&pistols, 0, true).unwrap_err().key.as_deref(),
        Some("pursuer")
    );
    assert_eq!(
        Pursuit::new(&g, 1, true).unwrap_err().key.as_deref(),
        Some("leader_adjust")
    );
}

// ------------------------------------------------------------ input

fn units(text: &str) -> Result<Vec<Stand>, InputError> {
    units_from_text(text, Stand::from_fields)
}

/// Asserts `e` names key path `path`, the first line of `text` that sets
/// `key`, and says `says`.
#[track_caller]
fn assert_key_err(e: &InputError, text: &str, path: &str, key: &str, says: &str) {
    assert_eq!(e.key.as_deref(), Some(path), "{e}");
    let line = text
        .lines()
        .position(|l| l.starts_with(&format!("{key} =")))
        .map(|i| i + 1);
    assert_eq!(e.line, line, "{e}");
    assert!(e.to_string().contains(says), "`{says}` not in: {e}");
}

fn unit_err(body: &str, key: &str, says: &str) {
    let text = format!("[units.x]\n{body}\n");
    let e = units(&text).expect_err("an input error");
    assert_key_err(&e, &text, &format!("units.x.{key}"), key, says);
}

#[test]
fn stands_read_every_key() {
    let u = units(
        "[units.x]\nkind = \"pike\"\nstrength = 5\nsp_lost = 1\ndisordered = true\nleader = true\n\
         class = \"A\"\ncharge_bonus = 2\nranks = 2\nswiss = true\nterrain = \"fields\"\ndefences = true\n\n\
         [units.y]\nkind = \"pike-and-shot\"\nstrength = 3\nera = \"late\"\npike_bonus = false\nsingle_stand = false\n\n\
         [units.z]\nkind = \"shot\"\nstrength = 2\nsupported = true\n",
    )
    .unwrap();
    let x = &u[0];
    assert_eq!(
        (x.kind, x.strength, x.sp_lost, x.sp()),
        (Kind::Pike, 5, 1, 4)
    );
    assert!(x.disordered && x.leader && x.swiss && x.defences);
    assert_eq!((x.class, x.charge_bonus, x.ranks), (Some(Class::A), 2, 2));
    assert_eq!(x.terrain, Terrain::Fields);
    let y = &u[1];
    assert_eq!(y.era, Era::Late);
    assert!(!y.pike_bonus && !y.single_stand);
    assert!(u[2].supported);
    // Swiss pike default to a Charge Bonus of 1.
    let s = units("[units.s]\nkind = \"pike\"\nstrength = 4\nswiss = true\n").unwrap();
    assert_eq!(s[0].charge_bonus, 1);
}

#[test]
fn stand_errors_are_located() {
    unit_err(
        "kind = \"pikes\"\nstrength = 4",
        "kind",
        "did you mean `pike`",
    );
    unit_err("kind = \"pike\"\nstrength = 0", "strength", "from 1 to 30");
    unit_err(
        "kind = \"pike\"\nstrength = 4\nsp_lost = 4",
        "sp_lost",
        "leave none",
    );
    unit_err(
        "kind = \"shot\"\nstrength = 4\nranks = 1",
        "ranks",
        "pike and tercio",
    );
    unit_err(
        "kind = \"shot\"\nstrength = 4\nswiss = true",
        "swiss",
        "pike stands",
    );
    unit_err(
        "kind = \"pike\"\nstrength = 4\nera = \"16th\"",
        "era",
        "pike-and-shot",
    );
    unit_err(
        "kind = \"pike\"\nstrength = 4\nsupported = true",
        "supported",
        "shot stands",
    );
    unit_err(
        "kind = \"pike\"\nstrength = 4\nclass = \"D\"",
        "class",
        "accepted: A, B, C",
    );
    unit_err(
        "kind = \"pike\"\nstrength = 4\nterrain = \"wood\"",
        "terrain",
        "did you mean `woods`",
    );
    unit_err(
        "kind = \"pike\"\nstrength = 4\nranks = 3",
        "ranks",
        "from 0 to 2",
    );
    unit_err(
        "kind = \"pike\"\nstrength = 4\nstrenght = 3",
        "strenght",
        "did you mean `strength`",
    );
}

fn step(body: &str) -> (String, Result<(), InputError>) {
    let text = format!(
        "[units.g]\nkind = \"gendarmes\"\nstrength = 4\n\n[units.s]\nkind = \"shot\"\nstrength = 3\nclass = \"C\"\n\n\
         [units.w]\nkind = \"pike\"\nstrength = 4\nclass = \"B\"\nterrain = \"woods\"\n\n\
         [[course]]\nname = \"c\"\n\n[[course.steps]]\n{body}\n"
    );
    let r = (|| {
        let (src, table) = Source::parse("s.toml", &text)?;
        let mut us = Vec::new();
        for (name, v) in table["units"].as_table().unwrap() {
            let mut f = Fields::new(&src, format!("units.{name}"), v.as_table().unwrap());
            us.push(Stand::from_fields(name, &mut f)?);
        }
        let st = table["course"][0]["steps"][0].as_table().unwrap();
        let mut f = Fields::new(&src, "course[0].steps[0]", st);
        match f.req_string("procedure")?.as_str() {
            "order-test" => OrderTest::from_step(&mut f, &us).map(|_| ()),
            "pursuit" => Pursuit::from_step(&mut f, &us).map(|_| ()),
            _ => MoraleTest::from_step(&mut f, &us, &Readings::default()).map(|_| ()),
        }
    })();
    (text, r)
}

fn step_err(body: &str, key: &str, says: &str) {
    let (text, r) = step(body);
    let e = r.expect_err("an input error");
    assert_key_err(&e, &text, &format!("course[0].steps[0].{key}"), key, says);
}

#[test]
fn step_keys_and_errors() {
    for ok in [
        "procedure = \"order-test\"\nunit = \"s\"\npurpose = \"opportunity\"\nmoves_taken = 2\n\
         out_of_leader_range = true\nextra_mod = 1\non_fail = \"continue\"",
        "procedure = \"pursuit\"\npursuer = \"g\"\npursue = true",
        "procedure = \"morale-test\"\nunit = \"s\"\nhits = 2\nafter = \"melee-lost\"\nopponent = \"g\"\nextra_morale = -1",
    ] {
        let (_, r) = step(ok);
        r.unwrap_or_else(|e| panic!("{e}"));
    }
    step_err(
        "procedure = \"order-test\"\nunit = \"g\"",
        "unit",
        "no `class`",
    );
    step_err(
        "procedure = \"order-test\"\nunit = \"w\"\npurpose = \"recover\"",
        "purpose",
        "cannot recover",
    );
    step_err(
        "procedure = \"order-test\"\nunit = \"s\"\non_fail = \"halt\"",
        "on_fail",
        "accepted: stop, continue",
    );
    step_err(
        "procedure = \"pursuit\"\npursuer = \"s\"",
        "pursuer",
        "no Charge Bonus",
    );
    step_err(
        "procedure = \"pursuit\"\npursuer = \"g\"\npursue = false",
        "pursue",
        "must attempt",
    );
    step_err(
        "procedure = \"pursuit\"\npursuer = \"g\"\nleader_adjust = 2",
        "leader_adjust",
        "from -1 to 1",
    );
    step_err(
        "procedure = \"morale-test\"\nunit = \"s\"\nhits = 0",
        "hits",
        "from 1 to 40",
    );
    step_err(
        "procedure = \"morale-test\"\nunit = \"s\"\nhits = 1\nafter = \"melee\"",
        "after",
        "accepted: fire, point-blank",
    );
}

#[test]
fn charts_render() {
    let m = &morale::charts()[0].render();
    assert!(
        m.contains("Always fail on") && m.contains("Cav vs inf"),
        "{m}"
    );
    let o = &orders::charts()[0].render();
    assert!(o.contains("| A class          | 3,4,5,6"), "{o}");
    let p = &pursuit::charts()[0].render();
    assert!(p.contains("| 6    | 3H"), "{p}");
}
