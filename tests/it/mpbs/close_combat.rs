//! Close Combat (11.0) of both MPBS cards: every cell of the Close Combat
//! Table, the CC Matrix, the strength-ratio steps and the TEC close-combat
//! column; DRM assembly; exact distributions against hand arithmetic; Monte
//! Carlo against exact; located errors.

// Input errors are cold; their size does not matter (as in the library).
#![allow(clippy::result_large_err)]

use crate::support::close;
use crate::support::located::{assert_located, line_after};
use crate::support::mpbs::{monte_carlo_vs_exact, unit, with_step};
use crate::support::{measure_probs, outcome_probs};
use pikeshot::Procedure;
use pikeshot::error::InputError;
use pikeshot::systems::mpbs::close_combat::{
    self, CcClass, CcResult, CloseCombat, CloseCombatInput, Modifiers, Momentum, Side,
    StrengthRounding, strength_ratio_drm,
};
use pikeshot::systems::mpbs::{Edition, Formation, MoraleState, Order, Unit, UnitKind, terrain};

fn hi(name: &str) -> Unit {
    unit(name, UnitKind::HeavyInfantry, 7, 6)
}

/// A 1:1 combat of equal morale in clear terrain: every computed DRM is 0.
fn even(a: Unit, d: Unit) -> CloseCombatInput {
    CloseCombatInput::new(vec![a], d)
}

fn drm(e: Edition, input: &CloseCombatInput, label: &str) -> Option<i32> {
    close_combat::modifiers(e, input).unwrap().get(label)
}

/// Asserts each DRM `(label, value)` of `m` (None: not listed), naming
/// `case` and the label where one differs.
#[track_caller]
fn assert_drms(case: &str, m: &Modifiers, want: &[(&str, Option<i32>)]) {
    for &(label, value) in want {
        assert_eq!(m.get(label), value, "{case}: {label}");
    }
}

// ---------------------------------------------------------------- table 11.0

#[test]
fn outcome_labels_are_in_table_order() {
    // The ids in table order, each derived from the card's label.
    assert_eq!(
        close_combat::OUTCOMES.map(pikeshot::outcome::kebab_id),
        [
            "attacker-eliminated",
            "attacker-broken-retreat-2",
            "attacker-shaken-retreat-2",
            "attacker-shaken-retreat-1",
            "defender-shaken-retreat-1",
            "defender-shaken-retreat-2",
            "defender-broken-retreat-2",
            "defender-eliminated",
        ]
    );
    assert_eq!(close_combat::INFO.outcomes, close_combat::OUTCOMES);
    assert_eq!(
        close_combat::INFO.measures,
        ["attacker-formation-hits", "defender-formation-hits"]
    );
}

#[test]
fn close_combat_table_every_roll() {
    // Card 11.0 (both cards): ≤0, 1-2, 3, 4, 5, 6, 7-8, ≥9.
    let expected = |r: i32| match r {
        ..=0 => "attacker-eliminated",
        1 | 2 => "attacker-broken-retreat-2",
        3 => "attacker-shaken-retreat-2",
        4 => "attacker-shaken-retreat-1",
        5 => "defender-shaken-retreat-1",
        6 => "defender-shaken-retreat-2",
        7 | 8 => "defender-broken-retreat-2",
        _ => "defender-eliminated",
    };
    for e in Edition::ALL {
        assert_eq!(close_combat::cc_table(e), &close_combat::CC_TABLE);
    }
    for r in -5..=14 {
        assert_eq!(
            pikeshot::outcome::kebab_id(close_combat::result(r).label()),
            expected(r),
            "roll {r}"
        );
    }
    assert_eq!(close_combat::result(-1000), CcResult::AttackerEliminated);
    assert_eq!(close_combat::result(1000), CcResult::DefenderEliminated);
}

#[test]
fn close_combat_table_flags() {
    use CcResult::*;
    // (result, loser, retreat, defender may advance, attacker must advance, pursuit check)
    let card = [
        (AttackerEliminated, Side::Attacker, 0, true, false, true),
        (AttackerBrokenRetreat2, Side::Attacker, 2, true, false, true),
        (
            AttackerShakenRetreat2,
            Side::Attacker,
            2,
            true,
            false,
            false,
        ),
        (
            AttackerShakenRetreat1,
            Side::Attacker,
            1,
            false,
            false,
            false,
        ),
        (
            DefenderShakenRetreat1,
            Side::Defender,
            1,
            false,
            false,
            false,
        ),
        (
            DefenderShakenRetreat2,
            Side::Defender,
            2,
            false,
            true,
            false,
        ),
        (DefenderBrokenRetreat2, Side::Defender, 2, false, true, true),
        (DefenderEliminated, Side::Defender, 0, false, true, true),
    ];
    for (i, (r, loser, retreat, may, must, pursuit)) in card.into_iter().enumerate() {
        assert_eq!(CcResult::from_index(i), Some(r));
        assert_eq!(r.loser(), loser, "{r:?}");
        assert_eq!(r.row().retreat, retreat, "{r:?}");
        assert_eq!(r.defender_may_advance(), may, "{r:?}");
        assert_eq!(r.attacker_must_advance(), must, "{r:?}");
        assert_eq!(r.pursuit_check(), pursuit, "{r:?}");
    }
}

#[test]
fn morale_effects_follow_the_one_step_reading() {
    use MoraleState::*;
    // docs/rules/mpbs.md, Morale levels: MS on MS -> MB retreating 2; MB on MS -> MB; any loss on MB eliminates.
    let r = CcResult::AttackerShakenRetreat1;
    assert_eq!(r.effect(Side::Attacker, Good), (Shaken, 1));
    assert_eq!(r.effect(Side::Attacker, Shaken), (Broken, 2));
    assert_eq!(r.effect(Side::Attacker, Broken), (Eliminated, 0));
    assert_eq!(r.effect(Side::Defender, Shaken), (Shaken, 0));
    let r = CcResult::DefenderBrokenRetreat2;
    assert_eq!(r.effect(Side::Defender, Good), (Broken, 2));
    assert_eq!(r.effect(Side::Defender, Shaken), (Broken, 2));
    assert_eq!(r.effect(Side::Defender, Broken), (Eliminated, 0));
    let r = CcResult::DefenderEliminated;
    assert_eq!(r.effect(Side::Defender, Good), (Eliminated, 0));
    assert_eq!(r.effect(Side::Attacker, Good), (Good, 0));
}

// ---------------------------------------------------------------- matrix 11.3.8

const CLASSES_SERIES: [CcClass; 6] = [
    CcClass::Cuirassier,
    CcClass::Arquebusier,
    CcClass::HeavyInfantry,
    CcClass::LightInfantry,
    CcClass::Hedgehog,
    CcClass::HeavyInfantryNoPikes,
];

#[test]
fn cc_matrix_every_cell_sfo() {
    // SFO card: rows Cuir, Arq, HI, LI; columns Cuir, Arq, HI, LI, Hedgehog.
    let card: [[Option<i8>; 5]; 4] = [
        [Some(0), Some(1), Some(-1), Some(2), Some(-2)],
        [Some(-1), Some(0), Some(-2), Some(1), Some(-3)],
        [Some(1), Some(2), Some(0), Some(2), Some(-1)],
        [None, None, None, Some(0), None],
    ];
    let m = close_combat::rules(Edition::Sfo).matrix;
    assert_eq!(m.rows.len(), 4);
    assert_eq!(m.columns.len(), 5);
    for (r, row) in card.iter().enumerate() {
        for (c, &cell) in row.iter().enumerate() {
            assert_eq!(
                m.cell(CLASSES_SERIES[r], CLASSES_SERIES[c]),
                Some(cell),
                "{:?} vs {:?}",
                CLASSES_SERIES[r],
                CLASSES_SERIES[c]
            );
        }
    }
    // No HI-no-Pikes row or column, no Hedgehog row.
    assert_eq!(
        m.cell(CcClass::HeavyInfantryNoPikes, CcClass::HeavyInfantry),
        None
    );
    assert_eq!(
        m.cell(CcClass::HeavyInfantry, CcClass::HeavyInfantryNoPikes),
        None
    );
    assert_eq!(m.cell(CcClass::Hedgehog, CcClass::HeavyInfantry), None);
}

#[test]
fn cc_matrix_every_cell_series() {
    // Series card: rows Cuir, Arq, HI, LI, HI no Pikes; columns + Hedgehog, HI no Pikes.
    let rows = [
        CcClass::Cuirassier,
        CcClass::Arquebusier,
        CcClass::HeavyInfantry,
        CcClass::LightInfantry,
        CcClass::HeavyInfantryNoPikes,
    ];
    let card: [[Option<i8>; 6]; 5] = [
        [Some(0), Some(1), Some(-1), Some(2), Some(-2), Some(1)],
        [Some(-1), Some(0), Some(-2), Some(1), Some(-3), Some(0)],
        [Some(1), Some(2), Some(0), Some(2), Some(-1), Some(1)],
        [None, None, None, Some(0), None, None],
        [Some(-1), Some(0), Some(-1), Some(1), Some(-2), Some(0)],
    ];
    let m = close_combat::rules(Edition::Series).matrix;
    assert_eq!(m.rows, rows);
    assert_eq!(m.columns, CLASSES_SERIES);
    for (r, row) in card.iter().enumerate() {
        for (c, &cell) in row.iter().enumerate() {
            assert_eq!(m.cell(rows[r], CLASSES_SERIES[c]), Some(cell));
        }
    }
}

/// The defender's matrix column through units: kind, or Hedgehog.
fn defenders(e: Edition) -> Vec<(Unit, CcClass)> {
    let mut out = vec![
        (unit("d", UnitKind::Cuirassier, 7, 6), CcClass::Cuirassier),
        (unit("d", UnitKind::Arquebusier, 7, 6), CcClass::Arquebusier),
        (
            unit("d", UnitKind::HeavyInfantry, 7, 6),
            CcClass::HeavyInfantry,
        ),
        (
            unit("d", UnitKind::CommandedMuskets, 7, 6),
            CcClass::LightInfantry,
        ),
        (unit("d", UnitKind::Dragoons, 7, 6), CcClass::LightInfantry),
    ];
    let mut hh = unit("d", UnitKind::HeavyInfantry, 7, 6);
    hh.formation = Formation::Hedgehog;
    out.push((hh, CcClass::Hedgehog));
    if e == Edition::Series {
        out.push((
            unit("d", UnitKind::HeavyInfantryNoPikes, 7, 6),
            CcClass::HeavyInfantryNoPikes,
        ));
    }
    out
}

#[test]
fn cc_matrix_through_units_both_editions() {
    let kinds = [
        UnitKind::Cuirassier,
        UnitKind::Arquebusier,
        UnitKind::HeavyInfantry,
        UnitKind::HeavyInfantryNoPikes,
        UnitKind::CommandedMuskets,
        UnitKind::Dragoons,
    ];
    for e in Edition::ALL {
        let m = close_combat::rules(e).matrix;
        for kind in kinds {
            let row = CcClass::of_kind(kind).unwrap();
            for (d, col) in defenders(e) {
                let input = even(unit("a", kind, 7, 6), d);
                let got = close_combat::modifiers(e, &input);
                match m.cell(row, col) {
                    None => {
                        // SFO has no HI-no-Pikes row.
                        assert_eq!((e, kind), (Edition::Sfo, UnitKind::HeavyInfantryNoPikes));
                        let err = got.unwrap_err();
                        assert!(err.message.contains("no \"HI no Pikes\" row"), "{err}");
                    }
                    Some(None) => {
                        let err = got.unwrap_err();
                        assert!(err.message.contains("NA"), "{err}");
                        assert_eq!(err.key.as_deref(), Some("attacker"));
                    }
                    Some(Some(v)) => {
                        let mods = got.unwrap();
                        assert_eq!(mods.get("CC matrix (11.3.8)"), Some(v as i32));
                        // Nothing else moves in an even fight.
                        assert_eq!(mods.total, v as i32, "{e} {kind} vs {col:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn light_infantry_attacks_only_light_infantry() {
    for e in Edition::ALL {
        let lt = |n: &str, k| unit(n, k, 6, 2);
        let input = even(
            lt("dragoons", UnitKind::Dragoons),
            lt("muskets", UnitKind::CommandedMuskets),
        );
        assert_eq!(drm(e, &input, "CC matrix (11.3.8)"), Some(0));
        let err =
            close_combat::modifiers(e, &even(lt("dragoons", UnitKind::Dragoons), hi("tercio")))
                .unwrap_err();
        assert!(err.message.contains("NA"), "{err}");
    }
}

#[test]
fn artillery_is_refused_on_either_side() {
    for e in Edition::ALL {
        let guns = unit("guns", UnitKind::Artillery, 6, 1);
        let err = close_combat::modifiers(e, &even(guns.clone(), hi("t"))).unwrap_err();
        assert_eq!(err.key.as_deref(), Some("attacker"));
        assert!(err.message.contains("11.5"), "{err}");
        let err = close_combat::modifiers(e, &even(hi("s"), guns)).unwrap_err();
        assert_eq!(err.key.as_deref(), Some("defender"));
        assert!(err.message.contains("11.5"), "{err}");
    }
}

#[test]
fn hi_no_pikes_is_series_only() {
    let np = unit("np", UnitKind::HeavyInfantryNoPikes, 7, 6);
    let err = close_combat::modifiers(Edition::Sfo, &even(hi("a"), np.clone())).unwrap_err();
    assert_eq!(err.key.as_deref(), Some("defender"));
    assert!(err.message.contains("no \"HI no Pikes\" column"), "{err}");
    // Series: HI on HI no Pikes +1; HI no Pikes on HI -1.
    let e = Edition::Series;
    assert_eq!(
        drm(e, &even(hi("a"), np.clone()), "CC matrix (11.3.8)"),
        Some(1)
    );
    assert_eq!(drm(e, &even(np, hi("d")), "CC matrix (11.3.8)"), Some(-1));
}

// ---------------------------------------------------------------- strength 11.3.4

#[test]
fn strength_ratio_steps_and_rounding() {
    use StrengthRounding::*;
    // (attacker SP, defender SP, in the defender's favour, printed steps as thresholds)
    let cases = [
        (4, 1, 2, 2),   // 4:1
        (8, 2, 2, 2),   // 4:1
        (12, 1, 2, 2),  // above 4:1
        (7, 2, 1, 1),   // 3.5:1 -> 2:1
        (3, 1, 1, 1),   // 3:1 -> 2:1
        (5, 2, 1, 1),   // 2.5:1 -> 2:1
        (2, 1, 1, 1),   // 2:1
        (3, 2, 0, 0),   // 1.5:1 -> 1:1
        (1, 1, 0, 0),   // 1:1
        (4, 7, -1, 0),  // 1:1.75 -> 1:2 in the defender's favour
        (2, 3, -1, 0),  // 1:1.5 -> 1:2
        (1, 2, -1, -1), // 1:2
        (2, 5, -2, -1), // 1:2.5 -> 1:4
        (1, 3, -2, -1), // 1:3 -> 1:4
        (1, 4, -2, -2), // 1:4
        (1, 8, -2, -2), // below 1:4
    ];
    for (a, d, def, steps) in cases {
        assert_eq!(strength_ratio_drm(a, d, Defender), def, "{a}:{d} defender");
        assert_eq!(strength_ratio_drm(a, d, Steps), steps, "{a}:{d} steps");
    }
}

#[test]
fn strength_ratio_sums_current_strength_of_attackers() {
    for e in Edition::ALL {
        // Two attackers of 5 SP less 2 CP each = 6 SP against 3 SP: 2:1 = +1.
        let mut a = unit("a", UnitKind::HeavyInfantry, 7, 5);
        a.casualty_points = 2;
        let mut b = unit("b", UnitKind::HeavyInfantry, 7, 5);
        b.casualty_points = 2;
        let d = unit("d", UnitKind::HeavyInfantry, 7, 3);
        let input = CloseCombatInput::new(vec![a.clone(), b], d.clone());
        assert_eq!(drm(e, &input, "strength ratio (11.3.4)"), Some(1));
        // One of them alone: 3:3 = 0.
        assert_eq!(
            drm(e, &even(a, d.clone()), "strength ratio (11.3.4)"),
            Some(0)
        );
        // 1:3 reads 1:4 by default, 1:2 with printed steps.
        let small = unit("s", UnitKind::HeavyInfantry, 7, 1);
        let mut input = even(small, d);
        assert_eq!(drm(e, &input, "strength ratio (11.3.4)"), Some(-2));
        input.strength_rounding = StrengthRounding::Steps;
        assert_eq!(drm(e, &input, "strength ratio (11.3.4)"), Some(-1));
        input.strength_ratio = Some(2);
        assert_eq!(drm(e, &input, "strength ratio (11.3.4)"), Some(2));
    }
}

// ---------------------------------------------------------------- TEC column

/// TEC rows: scenario name and the close combat column as printed (None = NA).
type TecColumn = Vec<(&'static str, Option<i8>)>;

/// The TEC close combat column of an edition: hex rows, hexside rows.
fn tec_card(e: Edition) -> (TecColumn, TecColumn) {
    match e {
        Edition::Sfo => (
            vec![
                ("clear", Some(0)),
                ("woods", Some(-1)),
                ("marsh", Some(1)),
                ("thicket", Some(1)),
                ("hedge-lined-road", Some(-1)),
                ("river-or-pond", None),
                ("marshy-stream", Some(2)),
                ("stream", Some(1)),
                ("village", Some(-2)),
                ("bridge", Some(-2)),
                ("castle", None),
                ("wagon", Some(-1)),
                ("garden", Some(0)),
            ],
            vec![
                ("stream", Some(-1)),
                ("hedge", Some(-1)),
                ("up-slope", Some(-1)),
                ("down-slope", Some(0)),
                ("entrenchment", Some(-1)),
                ("pond", Some(0)),
                ("marshy-stream", Some(-2)),
                ("deep-stream", None),
                ("castle-or-town-walls", None),
                ("garden-walls", Some(-2)),
                ("elevated-road", Some(-1)),
            ],
        ),
        Edition::Series => (
            vec![
                ("clear", Some(0)),
                ("woods", Some(-1)),
                ("marsh", Some(1)),
                ("thicket", Some(1)),
                ("hedge-lined-road", Some(-1)),
                ("river-or-pond", None),
                ("marshy-stream", Some(2)),
                ("stream", Some(1)),
                ("village", Some(-2)),
                ("bridge", Some(-2)),
                ("castle", None),
                ("wagon", Some(-1)),
                ("chateau", Some(-2)),
                ("alerheim-gully", Some(-1)),
                ("alerheim-schloss", None),
            ],
            vec![
                ("stream", Some(-1)),
                ("hedge", Some(-1)),
                ("up-slope", Some(-1)),
                ("down-slope", Some(0)),
                ("entrenchment", Some(-1)),
                ("river-or-pond", Some(0)),
                ("marshy-stream", Some(-2)),
                ("bridge", Some(2)),
                ("freiburg-redoubt", Some(-2)),
                ("freiburg-star-fort", Some(-3)),
                ("freiburg-abatis", Some(-1)),
                ("mergentheim-struetle", Some(0)),
            ],
        ),
    }
}

#[test]
fn tec_close_combat_column_every_row() {
    for e in Edition::ALL {
        let (hexes, sides) = tec_card(e);
        let names: Vec<&str> = terrain::hex_rows(e).iter().map(|r| r.name).collect();
        assert_eq!(names, hexes.iter().map(|h| h.0).collect::<Vec<_>>(), "{e}");
        let names: Vec<&str> = terrain::hexside_rows(e).iter().map(|r| r.name).collect();
        assert_eq!(names, sides.iter().map(|h| h.0).collect::<Vec<_>>(), "{e}");
        for (name, cell) in hexes {
            let mut d = hi("d");
            d.terrain = terrain::hex(e, name).unwrap().name;
            let got = close_combat::modifiers(e, &even(hi("a"), d));
            match cell {
                Some(v) => {
                    let m = got.unwrap();
                    assert_eq!(m.get("TEC hex"), Some(v as i32), "{e} {name}");
                    assert_eq!(m.get("TEC hexside"), None);
                    assert_eq!(m.total, v as i32, "{e} {name}");
                }
                None => {
                    let err = got.unwrap_err();
                    assert!(err.message.contains("NA"), "{e} {name}: {err}");
                    assert_eq!(err.key.as_deref(), Some("defender"));
                }
            }
        }
        for (name, cell) in sides {
            let mut d = hi("d");
            d.hexside = Some(terrain::hexside(e, name).unwrap().name);
            let got = close_combat::modifiers(e, &even(hi("a"), d));
            match cell {
                Some(v) => {
                    let m = got.unwrap();
                    assert_eq!(m.get("TEC hexside"), Some(v as i32), "{e} {name}");
                    assert_eq!(m.get("TEC hex"), Some(0));
                    assert_eq!(m.total, v as i32, "{e} {name}");
                }
                None => {
                    let err = got.unwrap_err();
                    assert!(err.message.contains("NA"), "{e} {name}: {err}");
                }
            }
        }
    }
}

#[test]
fn hex_and_hexside_are_cumulative() {
    for e in Edition::ALL {
        let mut d = hi("d");
        d.terrain = "woods";
        d.hexside = Some("stream");
        let m = close_combat::modifiers(e, &even(hi("a"), d)).unwrap();
        assert_eq!(
            (m.get("TEC hex"), m.get("TEC hexside"), m.total),
            (Some(-1), Some(-1), -2)
        );
    }
}

// ---------------------------------------------------------------- DRM assembly

#[test]
fn leader_per_edition() {
    let mut input = even(hi("a"), hi("d"));
    input.attacker_leader = Some(-2);
    input.defender_leader = Some(-1);
    // SFO: rating converted to + when attacking; the defender's rating as is.
    assert_eq!(
        drm(Edition::Sfo, &input, "attacker leader (11.3.2)"),
        Some(2)
    );
    assert_eq!(
        drm(Edition::Sfo, &input, "defender leader (11.3.2)"),
        Some(-1)
    );
    // Series: ±1 per side whatever the rating.
    assert_eq!(
        drm(Edition::Series, &input, "attacker leader (11.3.2)"),
        Some(1)
    );
    assert_eq!(
        drm(Edition::Series, &input, "defender leader (11.3.2)"),
        Some(-1)
    );
    // A rating-0 leader: 0 on SFO, still +1 on the series card.
    input.attacker_leader = Some(0);
    input.defender_leader = None;
    assert_eq!(
        drm(Edition::Sfo, &input, "attacker leader (11.3.2)"),
        Some(0)
    );
    assert_eq!(
        drm(Edition::Series, &input, "attacker leader (11.3.2)"),
        Some(1)
    );
    assert_eq!(
        drm(Edition::Series, &input, "defender leader (11.3.2)"),
        None
    );
    // Default: the best leader stacked with an attacker.
    let mut a = hi("a");
    a.leader = Some(-1);
    let mut b = hi("b");
    b.leader = Some(-3);
    let input = CloseCombatInput::new(vec![a, b], hi("d"));
    assert_eq!(input.attacker_leader, Some(-3));
    assert_eq!(
        drm(Edition::Sfo, &input, "attacker leader (11.3.2)"),
        Some(3)
    );
}

#[test]
fn morale_differential_counts_morale_steps_lost() {
    for e in Edition::ALL {
        let mut d = hi("d");
        d.morale_state = MoraleState::Shaken;
        // 7 - (7 - 1) = +1
        assert_eq!(
            drm(e, &even(hi("a"), d.clone()), "morale differential (11.3.3)"),
            Some(1)
        );
        d.morale_state = MoraleState::Broken;
        assert_eq!(
            drm(e, &even(hi("a"), d), "morale differential (11.3.3)"),
            Some(2)
        );
        // Lead attacker only: 8 against 6 with a 6 behind it.
        let lead = unit("lead", UnitKind::HeavyInfantry, 8, 6);
        let second = unit("second", UnitKind::HeavyInfantry, 6, 6);
        let input = CloseCombatInput::new(
            vec![lead, second],
            unit("d", UnitKind::HeavyInfantry, 6, 12),
        );
        assert_eq!(drm(e, &input, "morale differential (11.3.3)"), Some(2));
        let mut input = even(hi("a"), hi("d"));
        input.morale_differential = Some(-3);
        assert_eq!(drm(e, &input, "morale differential (11.3.3)"), Some(-3));
    }
}

#[test]
fn total_is_clamped_to_plus_minus_four() {
    for e in Edition::ALL {
        // HI (morale 8, 8 SP) on arquebusiers (morale 6, 2 SP): +2 morale, +2 ratio, +2 matrix.
        let a = unit("a", UnitKind::HeavyInfantry, 8, 8);
        let d = unit("d", UnitKind::Arquebusier, 6, 2);
        let cc = CloseCombat::new(e, &even(a.clone(), d.clone())).unwrap();
        assert_eq!(cc.modifiers().total, 6);
        assert_eq!(cc.drm(), 4);
        // Reversed: arquebusiers on a hedgehog of 8: -2, -2, -3 = -7 -> -4.
        let mut hh = unit("hh", UnitKind::HeavyInfantry, 8, 8);
        hh.formation = Formation::Hedgehog;
        let cc = CloseCombat::new(e, &even(d, hh)).unwrap();
        assert_eq!(cc.modifiers().total, -7);
        assert_eq!(cc.drm(), -4);
    }
}

#[test]
fn formation_modifiers_sfo_each_once_series_worst_only() {
    let mut fs = hi("fs");
    fs.formation = Formation::Shaken;
    let mut oo = hi("oo");
    oo.formation = Formation::OpenOrder;
    let mut fb = hi("fb");
    fb.formation = Formation::Broken;
    let d = unit("d", UnitKind::HeavyInfantry, 7, 18);
    let shaken = "attacker Formation Shaken or Open Order";
    let broken = "attacker Formation Broken";
    // FS + FB attacking together.
    let input = CloseCombatInput::new(vec![fs.clone(), fb.clone()], d.clone());
    let sfo = close_combat::modifiers(Edition::Sfo, &input).unwrap();
    assert_eq!((sfo.get(shaken), sfo.get(broken)), (Some(-1), Some(-2)));
    let series = close_combat::modifiers(Edition::Series, &input).unwrap();
    assert_eq!((series.get(shaken), series.get(broken)), (None, Some(-2)));
    assert_eq!(sfo.total - series.total, -1);
    // FS + Open Order: one listed modifier, once, on both cards.
    let input = CloseCombatInput::new(vec![fs, oo], d.clone());
    for e in Edition::ALL {
        let m = close_combat::modifiers(e, &input).unwrap();
        assert_eq!((m.get(shaken), m.get(broken)), (Some(-1), None), "{e}");
    }
    // Defender: FS +1, FB +2, Open Order +1.
    for (f, label, v) in [
        (
            Formation::Shaken,
            "defender Formation Shaken or Open Order",
            1,
        ),
        (
            Formation::OpenOrder,
            "defender Formation Shaken or Open Order",
            1,
        ),
        (Formation::Broken, "defender Formation Broken", 2),
    ] {
        let mut d = hi("d");
        d.formation = f;
        for e in Edition::ALL {
            assert_eq!(drm(e, &even(hi("a"), d.clone()), label), Some(v));
        }
    }
}

#[test]
fn pistols_flanks_and_salvo() {
    for e in Edition::ALL {
        let cav = |n: &str| unit(n, UnitKind::Cuirassier, 7, 6);
        let mut input = CloseCombatInput::new(vec![cav("c1"), cav("c2"), hi("h")], cav("d"));
        input.attacker_pistols = 2;
        input.defender_pistol = true;
        input.flank_hexes = 3;
        input.fired_salvo = true;
        assert_drms(
            &e.to_string(),
            &close_combat::modifiers(e, &input).unwrap(),
            &[
                ("attacking cavalry pistol shots", Some(2)),
                ("defending cavalry pistol shot", Some(-1)),
                ("flank/rear hexes (11.3.7)", Some(3)),
                ("fired salvo just prior", Some(1)),
            ],
        );
        input.attacker_pistols = 3;
        let err = close_combat::modifiers(e, &input).unwrap_err();
        assert_eq!(err.key.as_deref(), Some("attacker_pistols"));
        // Pistol shot by a defender that is not cavalry.
        let mut input = even(cav("c"), hi("d"));
        input.defender_pistol = true;
        let err = close_combat::modifiers(e, &input).unwrap_err();
        assert_eq!(err.key.as_deref(), Some("defender_pistol"));
        // Salvo by cavalry alone.
        let mut input = even(cav("c"), hi("d"));
        input.fired_salvo = true;
        let err = close_combat::modifiers(e, &input).unwrap_err();
        assert_eq!(err.key.as_deref(), Some("fired_salvo"));
    }
}

#[test]
fn momentum_eligibility_and_values() {
    let cav = unit("cav", UnitKind::Cuirassier, 7, 6);
    for e in Edition::ALL {
        let mut input = even(hi("a"), hi("d"));
        input.momentum = Momentum::All;
        assert_eq!(drm(e, &input, "heavy infantry momentum (11.3.6)"), Some(1));
        assert_eq!(drm(e, &input, "cavalry momentum (11.3.6)"), None);
        let mut input = even(cav.clone(), hi("d"));
        input.momentum = Momentum::All;
        assert_eq!(drm(e, &input, "cavalry momentum (11.3.6)"), Some(2));
        // Both kinds eligible: both listed modifiers, once each.
        let mut input = CloseCombatInput::new(vec![cav.clone(), hi("h")], hi("d"));
        input.momentum = Momentum::All;
        assert_drms(
            &format!("{e} both kinds"),
            &close_combat::modifiers(e, &input).unwrap(),
            &[
                ("cavalry momentum (11.3.6)", Some(2)),
                ("heavy infantry momentum (11.3.6)", Some(1)),
            ],
        );
        input.momentum = Momentum::HeavyInfantry;
        let m = close_combat::modifiers(e, &input).unwrap();
        assert_eq!(m.get("cavalry momentum (11.3.6)"), None);
        // Not eligible: not under Charge, or not in Formation Normal.
        let mut slow = hi("a");
        slow.order = Order::MakeReady;
        let mut input = even(slow, hi("d"));
        input.momentum = Momentum::All;
        let err = close_combat::modifiers(e, &input).unwrap_err();
        assert_eq!(err.key.as_deref(), Some("momentum"));
        assert!(err.message.contains("11.3.6"), "{err}");
        assert!(err.message.contains("make-ready"), "{err}");
        let mut shaken = cav.clone();
        shaken.formation = Formation::Shaken;
        let mut input = even(shaken, hi("d"));
        input.momentum = Momentum::Cavalry;
        assert!(close_combat::modifiers(e, &input).is_err());
        let mut input = even(hi("a"), hi("d"));
        input.momentum = Momentum::Cavalry;
        assert!(close_combat::modifiers(e, &input).is_err());
    }
    // NGBG Halmstad: cavalry momentum +1 on the series card; no such modifier on SFO.
    let mut input = even(cav, hi("d"));
    input.momentum = Momentum::All;
    input.halmstad = true;
    assert_drms(
        "Halmstad",
        &close_combat::modifiers(Edition::Series, &input).unwrap(),
        &[
            ("cavalry momentum, NGBG Halmstad (11.3.6)", Some(1)),
            ("cavalry momentum (11.3.6)", None),
        ],
    );
    let err = close_combat::modifiers(Edition::Sfo, &input).unwrap_err();
    assert_eq!(err.key.as_deref(), Some("halmstad"));
}

// ---------------------------------------------------------------- distributions

#[test]
fn exact_distribution_at_drm_zero() {
    // d10 read 0..9, DRM 0: ≤0 {0}, 1-2 {1,2}, 3, 4, 5, 6, 7-8 {7,8}, ≥9 {9}.
    let cc = CloseCombat::new(Edition::Series, &even(hi("a"), hi("d"))).unwrap();
    assert_eq!(cc.drm(), 0);
    let p = outcome_probs(&cc);
    let hand = [1.0, 2.0, 1.0, 1.0, 1.0, 1.0, 2.0, 1.0].map(|n| n / 10.0);
    for (i, (a, b)) in p.iter().zip(hand).enumerate() {
        assert!(close(*a, b), "{}: {a} vs {b}", close_combat::OUTCOMES[i]);
    }
}

#[test]
fn exact_distribution_at_drm_plus_and_minus_four() {
    // +4: modified rolls 4..13: 4 -> A-MS1, 5 -> D-MS1, 6 -> D-MS2, 7-8 -> D-MB, 9..13 -> D-elim (5).
    let a = unit("a", UnitKind::HeavyInfantry, 8, 8);
    let d = unit("d", UnitKind::Arquebusier, 6, 2);
    let cc = CloseCombat::new(Edition::Sfo, &even(a, d.clone())).unwrap();
    assert_eq!(cc.drm(), 4);
    let hand = [0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 2.0, 5.0].map(|n| n / 10.0);
    for (a, b) in outcome_probs(&cc).iter().zip(hand) {
        assert!(close(*a, b), "{a} vs {b}");
    }
    // -4: modified rolls -4..5: -4..0 -> A-elim (5), 1-2 -> A-MB (2), 3, 4, 5 (1 each).
    let mut hh = unit("hh", UnitKind::HeavyInfantry, 8, 8);
    hh.formation = Formation::Hedgehog;
    let cc = CloseCombat::new(Edition::Sfo, &even(d, hh)).unwrap();
    assert_eq!(cc.drm(), -4);
    let hand = [5.0, 2.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0].map(|n| n / 10.0);
    for (a, b) in outcome_probs(&cc).iter().zip(hand) {
        assert!(close(*a, b), "{a} vs {b}");
    }
}

#[test]
fn formation_hit_measures() {
    let e = Edition::Series;
    // FN attacker, FS defender (+1) with extra_drm -1, so DRM 0: each side
    // changes formation unless it is eliminated or made Morale Broken, which
    // has no formation (chart 6.3): the attacker on rolls 0-2, the defender
    // on 7-9 (3/10 each).
    let mut d = hi("d");
    d.formation = Formation::Shaken;
    let mut input = even(hi("a"), d.clone());
    input.extra_drm = -1;
    let cc = CloseCombat::new(e, &input).unwrap();
    assert_eq!(cc.drm(), 0);
    assert!(close(measure_probs(&cc, "attacker-formation-hits")[1], 0.7));
    assert!(close(measure_probs(&cc, "defender-formation-hits")[1], 0.7));
    // A Morale Broken defender is eliminated by any defender result (rolls
    // 5..9), and while it stays Morale Broken it has no formation (6.3):
    // no Formation Hit at all.
    d.morale_state = MoraleState::Broken;
    let mut input = even(hi("a"), d);
    input.morale_differential = Some(0);
    input.extra_drm = -1;
    let cc = CloseCombat::new(e, &input).unwrap();
    assert_eq!(cc.drm(), 0);
    assert!(close(measure_probs(&cc, "defender-formation-hits")[1], 0.0));
    // A Morale Shaken attacker survives MB and MS results (only ≤0
    // eliminates), but every attacker result leaves it Morale Broken, with
    // no formation: a Formation Hit only on the defender results, 5/10.
    let mut a = hi("a");
    a.morale_state = MoraleState::Shaken;
    let mut input = even(a, hi("d"));
    input.morale_differential = Some(0);
    let cc = CloseCombat::new(e, &input).unwrap();
    assert!(close(measure_probs(&cc, "attacker-formation-hits")[1], 0.5));
    // No Formation Hit effect in FB, Hedgehog, Column or Open Order.
    for f in [
        Formation::Broken,
        Formation::Hedgehog,
        Formation::Column,
        Formation::OpenOrder,
    ] {
        let mut a = hi("a");
        a.formation = f;
        let mut d = hi("d");
        d.formation = f;
        let cc = CloseCombat::new(e, &even(a, d)).unwrap();
        assert!(
            close(measure_probs(&cc, "attacker-formation-hits")[0], 1.0),
            "{f}"
        );
        assert!(
            close(measure_probs(&cc, "defender-formation-hits")[0], 1.0),
            "{f}"
        );
    }
    // Two attackers, one FN and one FB: the count is 1 unless the attackers are eliminated.
    let mut fb = hi("b");
    fb.formation = Formation::Broken;
    let mut input = CloseCombatInput::new(vec![hi("a"), fb], hi("d"));
    input.strength_ratio = Some(0);
    input.morale_differential = Some(0);
    let cc = CloseCombat::new(Edition::Series, &input).unwrap();
    assert_eq!(cc.drm(), -2); // worst formation only
    let m = measure_probs(&cc, "attacker-formation-hits");
    assert_eq!(m.len(), 3);
    // DRM -2: attacker eliminated on rolls 0..2 (modified ≤0) = 3/10, and
    // Morale Broken (no formation, 6.3) on rolls 3..4 (modified 1-2) = 2/10.
    assert!(
        close(m[0], 0.5) && close(m[1], 0.5) && close(m[2], 0.0),
        "{m:?}"
    );
}

#[test]
fn monte_carlo_matches_exact() {
    let mut d = unit("d", UnitKind::Arquebusier, 7, 6);
    d.formation = Formation::Shaken;
    let mut input = CloseCombatInput::new(vec![hi("a"), unit("b", UnitKind::Cuirassier, 7, 3)], d);
    input.extra_drm = -1;
    let cc = CloseCombat::new(Edition::Sfo, &input).unwrap();
    // HI row vs Arq +2, FS defender +1, 9:6 = 0, extra -1.
    assert_eq!(cc.drm(), 2);
    monte_carlo_vs_exact(cc, 0x5eed_cc11);
}

// ---------------------------------------------------------------- steps and errors

const UNITS: &str = r#"
[units.swedes]
kind = "heavy-infantry"
morale = 7
strength = 6

[units.finns]
kind = "cuirassier"
morale = 8
strength = 3
leader = -2

[units.tercio]
kind = "heavy-infantry"
morale = 6
strength = 12

[units.croats]
kind = "arquebusier"
morale = 6
strength = 3
order = "make-ready"

[units.musketeers]
kind = "commanded-muskets"
morale = 6
strength = 2

[units.guns]
kind = "artillery"
morale = 6
strength = 1
gun = "4-8lb"

[units.ford]
kind = "heavy-infantry"
morale = 7
strength = 6
terrain = "river-or-pond"
"#;

fn scenario(edition: &str, step: &str) -> String {
    format!(
        "edition = \"{edition}\"\n{UNITS}\n[[course]]\nname = \"c\"\n\n[[course.steps]]\nprocedure = \"close-combat\"\n{step}\n"
    )
}

fn build(text: &str) -> Result<CloseCombat, InputError> {
    with_step(text, CloseCombat::from_step)
}

#[track_caller]
fn assert_at(text: &str, err: &InputError, key: &str) {
    let line = line_after(text, "[[course.steps]]", &format!("{key} ="));
    assert_located(
        err,
        Some("t.toml"),
        &format!("course[0].steps[0].{key}"),
        line,
        "",
    );
}

#[test]
fn step_builds_with_every_key() {
    let text = scenario(
        "series",
        "attacker = [\"finns\", \"swedes\"]\ndefender = \"tercio\"\nattacker_leader = true\ndefender_leader = -1\nstrength_rounding = \"steps\"\nattacker_pistols = 1\nflank_hexes = 1\nfired_salvo = true\nmomentum = \"cavalry\"\nhalmstad = true\nextra_drm = -1",
    );
    let cc = build(&text).unwrap();
    let m = cc.modifiers();
    // finns lead: morale 8 - 6 = +2; 9 SP vs 12 = 0; Cuir vs HI -1; leaders +1 -1;
    // pistols +1, flank +1, salvo +1, Halmstad momentum +1, extra -1.
    assert_drms(
        "every key",
        m,
        &[
            ("attacker leader (11.3.2)", Some(1)),
            ("defender leader (11.3.2)", Some(-1)),
            ("morale differential (11.3.3)", Some(2)),
            ("strength ratio (11.3.4)", Some(0)),
            ("CC matrix (11.3.8)", Some(-1)),
            ("cavalry momentum, NGBG Halmstad (11.3.6)", Some(1)),
            ("heavy infantry momentum (11.3.6)", None),
        ],
    );
    let hand = [1, -1, 2, 0, -1, 1, 1, 1, 1, -1];
    assert_eq!(m.total, hand.iter().sum::<i32>());
    assert_eq!(cc.space().measures()[0].max, 2);
    // A single attacker as a string, the SFO leader rating from the stack.
    let text = scenario(
        "sfo",
        "attacker = \"finns\"\ndefender = \"tercio\"\nattacker_leader = true",
    );
    let cc = build(&text).unwrap();
    assert_eq!(cc.modifiers().get("attacker leader (11.3.2)"), Some(2));
    let text = scenario(
        "sfo",
        "attacker = \"finns\"\ndefender = \"tercio\"\nattacker_leader = false",
    );
    assert_eq!(
        build(&text)
            .unwrap()
            .modifiers()
            .get("attacker leader (11.3.2)"),
        None
    );
}

#[test]
fn step_errors_are_located() {
    let cases: &[(&str, &str, &str, &str)] = &[
        // (edition, step, key, message fragment)
        (
            "sfo",
            "attacker = \"swedes\"\ndefender = \"tercio\"\nhalmstad = true",
            "halmstad",
            "Halmstad",
        ),
        (
            "series",
            "attacker = \"swedes\"\ndefender = \"tercio\"\nmomentun = true",
            "momentun",
            "unknown key",
        ),
        (
            "series",
            "attacker = \"croats\"\ndefender = \"tercio\"\nmomentum = true",
            "momentum",
            "11.3.6",
        ),
        (
            "series",
            "attacker = \"swedes\"\ndefender = \"tercio\"\nmomentum = \"dragoons\"",
            "momentum",
            "unknown momentum",
        ),
        (
            "series",
            "attacker = \"musketeers\"\ndefender = \"tercio\"",
            "attacker",
            "NA",
        ),
        (
            "sfo",
            "attacker = \"guns\"\ndefender = \"tercio\"",
            "attacker",
            "11.5",
        ),
        (
            "sfo",
            "attacker = \"swedes\"\ndefender = \"guns\"",
            "defender",
            "11.5",
        ),
        (
            "sfo",
            "attacker = \"swedes\"\ndefender = \"ford\"",
            "defender",
            "NA",
        ),
        (
            "series",
            "attacker = [\"swedes\", \"nobody\"]\ndefender = \"tercio\"",
            "attacker",
            "no unit named",
        ),
        (
            "series",
            "attacker = \"swedes\"\ndefender = \"tercio\"\nattacker_pistols = 1",
            "attacker_pistols",
            "cavalry",
        ),
        (
            "series",
            "attacker = \"swedes\"\ndefender = \"tercio\"\nflank_hexes = 6",
            "flank_hexes",
            "outside",
        ),
        (
            "series",
            "attacker = \"swedes\"\ndefender = \"tercio\"\ndefender_pistol = true",
            "defender_pistol",
            "cavalry",
        ),
        (
            "series",
            "attacker = \"finns\"\ndefender = \"tercio\"\nfired_salvo = true",
            "fired_salvo",
            "Salvo",
        ),
        (
            "sfo",
            "attacker = \"swedes\"\ndefender = \"tercio\"\nattacker_leader = true",
            "attacker_leader",
            "rating",
        ),
        (
            "sfo",
            "attacker = \"swedes\"\ndefender = \"tercio\"\ndefender_leader = 2",
            "defender_leader",
            "outside",
        ),
        (
            "series",
            "attacker = \"swedes\"\ndefender = \"tercio\"\nstrength_ratio = 3",
            "strength_ratio",
            "outside",
        ),
        (
            "series",
            "attacker = \"swedes\"\ndefender = \"tercio\"\nstrength_rounding = \"up\"",
            "strength_rounding",
            "unknown",
        ),
        (
            "series",
            "attacker = \"swedes\"\ndefender = \"tercio\"\nextra_drm = 10",
            "extra_drm",
            "outside",
        ),
        (
            "series",
            "attacker = \"swedes\"\ndefender = \"swedes\"",
            "defender",
            "itself",
        ),
    ];
    for (edition, step, key, fragment) in cases {
        let text = scenario(edition, step);
        let err = match build(&text) {
            Ok(_) => panic!("{edition} `{step}` should fail"),
            Err(e) => e,
        };
        assert_at(&text, &err, key);
        assert!(
            err.to_string().contains(fragment),
            "{edition} `{step}`: {err}"
        );
    }
}

#[test]
fn missing_attacker_is_refused() {
    let text = scenario("series", "defender = \"tercio\"");
    let err = build(&text).unwrap_err();
    assert!(err.message.contains("missing key `attacker`"), "{err}");
}

// ---------------------------------------------------------------- charts

#[test]
fn charts_lay_out_each_card() {
    for (e, mrows, mcols) in [(Edition::Sfo, 4, 6), (Edition::Series, 5, 7)] {
        let charts = close_combat::charts(e);
        let ids: Vec<&str> = charts.iter().map(|c| c.id).collect();
        assert_eq!(ids, ["close-combat", "cc-matrix", "strength-ratio"]);
        assert_eq!(charts[0].rows.len(), 8);
        assert_eq!(charts[0].rows[0][0], "≤0");
        assert_eq!(charts[0].rows[6][0], "7-8");
        assert_eq!(charts[0].rows[7][0], "9+");
        assert_eq!(charts[1].rows.len(), mrows);
        assert!(charts[1].rows.iter().all(|r| r.len() == mcols));
        assert_eq!(charts[1].rows[3][1], "NA");
        assert_eq!(charts[1].rows[1][5], "-3");
        assert_eq!(charts[2].rows.len(), 5);
        for c in &charts {
            assert!(!c.render().is_empty());
        }
    }
    let sfo = close_combat::charts(Edition::Sfo);
    assert!(sfo[0].notes.iter().any(|n| n.contains("converted to +")));
    let series = close_combat::charts(Edition::Series);
    assert!(series[0].notes.iter().any(|n| n.contains("Halmstad")));
    assert!(series[0].notes.iter().any(|n| n.contains("worst")));
}
