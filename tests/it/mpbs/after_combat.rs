//! After close combat, both MPBS cards: Cavalry Pursuit (11.7.2), Unable to
//! Retreat (11.4.5), Leader Casualty (5.3) and Leader Replacement (5.3.3).
//! Every cell, exact distributions against hand arithmetic, Monte Carlo
//! against exact, located errors.

// Input errors are cold; their size does not matter (as in the library).
#![allow(clippy::result_large_err)]

use crate::support::located::{assert_located, line_after};
use crate::support::mpbs::{self, monte_carlo_vs_exact, with_step};
use crate::support::outcome_probs;
use pikeshot::Procedure;
use pikeshot::error::InputError;
use pikeshot::scenario::Fields;
use pikeshot::systems::mpbs::leaders::{
    self, CasualtyResult, LeaderCasualty, LeaderOutcome, ReplacementResult,
};
use pikeshot::systems::mpbs::pursuit::{self, ColumnKind, Pursuit, PursuitInput, PursuitResult};
use pikeshot::systems::mpbs::retreat::{self, RetreatResult, UnableToRetreat};
use pikeshot::systems::mpbs::{Edition, Order, Unit, UnitKind};

/// A unit of strength 4 (see [`mpbs::unit`]).
fn unit(name: &str, kind: UnitKind, morale: u8) -> Unit {
    mpbs::unit(name, kind, morale, 4)
}

fn assert_probs<P: Procedure>(p: &P, hand: &[f64]) {
    let got = outcome_probs(p);
    assert_eq!(got.len(), hand.len());
    for (i, (a, b)) in got.iter().zip(hand).enumerate() {
        assert!(
            (a - b).abs() < 1e-12,
            "{}: {a} vs {b}",
            p.space().outcomes()[i]
        );
    }
}

// ---------------------------------------------------------------- scenario steps

const UNITS: &str = r#"
[units.finns]
kind = "cuirassier"
morale = 8
strength = 3
leader = -2

[units.croats]
kind = "arquebusier"
morale = 6
strength = 3
order = "make-ready"

[units.tercio]
kind = "heavy-infantry"
morale = 6
strength = 12
"#;

fn scenario(edition: &str, procedure: &str, step: &str) -> String {
    format!(
        "edition = \"{edition}\"\n{UNITS}\n[[course]]\nname = \"c\"\n\n[[course.steps]]\nprocedure = \"{procedure}\"\n{step}\n"
    )
}

/// The step `procedure` with the `step` lines under `edition` (see
/// [`scenario`]), built by `from_step`, which must accept it.
fn built<P>(
    edition: &str,
    procedure: &str,
    step: &str,
    from_step: impl Fn(&mut Fields, &[Unit], Edition) -> Result<P, InputError>,
) -> P {
    with_step(&scenario(edition, procedure, step), from_step).unwrap()
}

/// The key's line is searched inside the step (units above may have keys of
/// the same name).
#[track_caller]
fn assert_at(text: &str, err: &InputError, key: &str, fragment: &str) {
    let line = line_after(text, "[[course.steps]]", &format!("{key} ="));
    assert_located(
        err,
        None,
        &format!("course[0].steps[0].{key}"),
        line,
        fragment,
    );
}

/// One step the reader refuses: the card, the step's keys, the key the
/// error names and what it says.
type Refusal<'a> = (&'a str, &'a str, &'a str, &'a str);

/// Asserts `build` refuses each of `cases` as a step of `procedure`, located
/// at its key (as [`assert_at`]).
#[track_caller]
fn assert_refusals<P>(
    procedure: &str,
    build: impl Fn(&mut Fields, &[Unit], Edition) -> Result<P, InputError>,
    cases: &[Refusal],
) {
    for &(edition, step, key, fragment) in cases {
        let text = scenario(edition, procedure, step);
        let Err(err) = with_step(&text, &build) else {
            panic!("{edition} `{step}` should fail");
        };
        assert_at(&text, &err, key, fragment);
    }
}

// ---------------------------------------------------------------- pursuit 11.7.2

#[test]
fn pursuit_columns_every_roll() {
    let tacw = |r: i32| match r {
        ..=2 => PursuitResult::BreakOff,
        3..=5 => PursuitResult::PursueAndEliminate,
        _ => PursuitResult::PursueOffMapAndEliminate,
    };
    let other = |r: i32| match r {
        ..=4 => PursuitResult::BreakOff,
        5..=8 => PursuitResult::PursueAndEliminate,
        _ => PursuitResult::PursueOffMapAndEliminate,
    };
    for (e, names) in [
        (Edition::Sfo, ["tacw", "sfo"]),
        (Edition::Series, ["tacw", "other"]),
    ] {
        let cols = pursuit::columns(e);
        assert_eq!(cols.map(|c| c.name), names);
        for r in -3..=12 {
            let t = pursuit::pursuit_result(pursuit::column(e, ColumnKind::Tacw), r);
            let o = pursuit::pursuit_result(pursuit::column(e, ColumnKind::Other), r);
            assert_eq!(t, tacw(r), "{e} tacw {r}");
            assert_eq!(o, other(r), "{e} other {r}");
        }
    }
    assert_eq!(
        PursuitResult::ALL.map(|r| pikeshot::outcome::kebab_id(r.label())),
        [
            "break-off",
            "pursue-and-eliminate",
            "pursue-off-map-and-eliminate"
        ]
    );
    assert!(PursuitResult::PursueAndEliminate.pursuer_formation_broken());
    assert!(!PursuitResult::PursueOffMapAndEliminate.pursuer_formation_broken());
}

#[test]
fn pursuit_exact_distributions() {
    for e in Edition::ALL {
        let mut input = PursuitInput::new(unit("c", UnitKind::Cuirassier, 7));
        input.charge_order = false;
        // Other, DRM 0: ≤4 rolls 0-4 (5), 5-8 (4), 9 (1).
        assert_probs(&Pursuit::new(e, &input).unwrap(), &[0.5, 0.4, 0.1]);
        // TACW, DRM 0: ≤2 rolls 0-2 (3), 3-5 (3), 6-9 (4).
        input.column = ColumnKind::Tacw;
        assert_probs(&Pursuit::new(e, &input).unwrap(), &[0.3, 0.3, 0.4]);
        // TACW, Charge +1 and momentum +1: break off only on 0; 1-3 pursue; 4-9 off map.
        input.charge_order = true;
        input.momentum_used = true;
        let p = Pursuit::new(e, &input).unwrap();
        assert_eq!(p.modifiers().total, 2);
        assert_probs(&p, &[0.1, 0.3, 0.6]);
        // TACW, Charge +1 and Cromwell -2 = -1: 0-3 break off, 4-6 pursue, 7-9 off map.
        input.momentum_used = false;
        input.cromwell = true;
        assert_probs(&Pursuit::new(e, &input).unwrap(), &[0.4, 0.3, 0.3]);
        // Other, Charge +1 and a -2 leader = -1: 0-5 break off, 6-9 pursue, never off map.
        let mut input = PursuitInput::new(unit("c", UnitKind::Arquebusier, 7));
        input.leader = Some(-2);
        let p = Pursuit::new(e, &input).unwrap();
        assert_eq!(p.modifiers().get("leadership modifier"), Some(-2));
        assert_probs(&p, &[0.6, 0.4, 0.0]);
        // Cromwell is TACW only.
        input.cromwell = true;
        assert_eq!(
            Pursuit::new(e, &input).unwrap_err().key.as_deref(),
            Some("cromwell")
        );
    }
}

#[test]
fn pursuit_defaults_from_the_pursuer() {
    let mut c = unit("c", UnitKind::Cuirassier, 7);
    c.leader = Some(-1);
    let input = PursuitInput::new(c.clone());
    assert!(input.charge_order);
    // No leader is taken as used unless said (docs/rules/mpbs.md, Cavalry
    // Pursuit): the stacked leader's printed rating is not the pursuit DRM.
    assert_eq!(input.leader, None);
    assert_eq!(input.column, ColumnKind::Other);
    c.order = Order::ReceiveCharge;
    assert!(!PursuitInput::new(c).charge_order);
    // Only cavalry pursues.
    let input = PursuitInput::new(unit("h", UnitKind::HeavyInfantry, 7));
    let err = Pursuit::new(Edition::Sfo, &input).unwrap_err();
    assert_eq!(err.key.as_deref(), Some("pursuer"));
}

#[test]
fn pursuit_steps() {
    // finns: Charge order +1, momentum +1, and its -2 leader used as the
    // attacking leader: +1 on the series card (11.7.2 "leadership modifier
    // of friendly leader used in the Close Combat", ±1 there).
    let p = built(
        "series",
        "pursuit",
        "pursuer = \"finns\"\nmomentum_used = true",
        Pursuit::from_step,
    );
    assert_eq!(p.column().name, "other");
    assert_eq!(p.modifiers().get("leadership modifier"), Some(1));
    assert_eq!(p.modifiers().total, 3);
    let p = built(
        "sfo",
        "pursuit",
        "pursuer = \"finns\"\ncolumn = \"tacw\"\ncromwell = true\ncharge_order = false",
        Pursuit::from_step,
    );
    assert_eq!(p.modifiers().total, -2);
    assert_probs(&p, &[0.5, 0.3, 0.2]); // rolls 0-4, 5-7, 8-9
    let p = built(
        "sfo",
        "pursuit",
        "pursuer = \"croats\"\ncolumn = \"sfo\"",
        Pursuit::from_step,
    );
    assert_eq!(p.modifiers().total, 0); // make-ready: no Charge DRM
}

#[test]
fn pursuit_step_errors() {
    let cases: &[Refusal] = &[
        (
            "sfo",
            "pursuer = \"finns\"\ncolumn = \"other\"",
            "column",
            "calls this column \"sfo\"",
        ),
        (
            "series",
            "pursuer = \"finns\"\ncolumn = \"sfo\"",
            "column",
            "calls this column \"other\"",
        ),
        (
            "series",
            "pursuer = \"finns\"\ncolumn = \"england\"",
            "column",
            "unknown pursuit column",
        ),
        (
            "series",
            "pursuer = \"finns\"\ncromwell = true",
            "cromwell",
            "TACW column only",
        ),
        (
            "sfo",
            "pursuer = \"finns\"\ncolumn = \"tacw\"\nleader = -1",
            "leader",
            "TACW column has no",
        ),
        (
            "sfo",
            "pursuer = \"finns\"\nleader = 4",
            "leader",
            "outside",
        ),
        ("sfo", "pursuer = \"tercio\"", "pursuer", "only cavalry"),
        (
            "sfo",
            "pursuer = \"finns\"\nextra_drm = -10",
            "extra_drm",
            "outside",
        ),
        (
            "sfo",
            "pursuer = \"finns\"\nmomentum = true",
            "momentum",
            "unknown key",
        ),
    ];
    assert_refusals("pursuit", Pursuit::from_step, cases);
}

#[test]
fn pursuit_monte_carlo_matches_exact() {
    let mut input = PursuitInput::new(unit("c", UnitKind::Cuirassier, 7));
    input.column = ColumnKind::Tacw;
    monte_carlo_vs_exact(Pursuit::new(Edition::Series, &input).unwrap(), 0x9075_0172);
}

// ---------------------------------------------------------------- unable to retreat 11.4.5

#[test]
fn unable_to_retreat_every_roll_and_drm() {
    for r in -5..=14 {
        let want = if r <= 4 {
            RetreatResult::Eliminated
        } else {
            RetreatResult::Stands
        };
        assert_eq!(retreat::unable_to_retreat_result(r), want, "roll {r}");
    }
    assert_eq!(retreat::OUTCOMES, ["eliminated", "stands"]);
    // -2 base morale ≤ 6, +1 base morale 8 (9 read as 8), 7 none.
    for (morale, d) in [(2, -2), (5, -2), (6, -2), (7, 0), (8, 1), (9, 1)] {
        for e in Edition::ALL {
            let p =
                UnableToRetreat::new(e, &unit("u", UnitKind::HeavyInfantry, morale), 0).unwrap();
            assert_eq!(p.modifiers().total, d, "morale {morale}");
        }
    }
}

#[test]
fn unable_to_retreat_exact() {
    let e = Edition::Series;
    let p = |m, x| UnableToRetreat::new(e, &unit("u", UnitKind::HeavyInfantry, m), x).unwrap();
    // Morale 7: eliminated on rolls 0-4 = 5/10.
    assert_probs(&p(7, 0), &[0.5, 0.5]);
    // Morale 6: roll - 2 ≤ 4 on rolls 0-6 = 7/10.
    assert_probs(&p(6, 0), &[0.7, 0.3]);
    // Morale 8: roll + 1 ≤ 4 on rolls 0-3 = 4/10.
    assert_probs(&p(8, 0), &[0.4, 0.6]);
    // Morale 8, extra +3: roll + 4 ≤ 4 only on 0 = 1/10.
    assert_probs(&p(8, 3), &[0.1, 0.9]);
    monte_carlo_vs_exact(p(6, 0), 0x0011_4500);
}

#[test]
fn unable_to_retreat_steps() {
    let p = built(
        "sfo",
        "unable-to-retreat",
        "unit = \"tercio\"\nextra_drm = 1",
        UnableToRetreat::from_step,
    );
    assert_eq!(p.modifiers().total, -1);
    assert_probs(&p, &[0.6, 0.4]); // roll - 1 ≤ 4 on 0-5
    assert_refusals(
        "unable-to-retreat",
        UnableToRetreat::from_step,
        &[
            ("series", "unit = \"nobody\"", "unit", "no unit named"),
            (
                "series",
                "unit = \"tercio\"\nextra_drm = 12",
                "extra_drm",
                "outside",
            ),
            (
                "series",
                "unit = \"tercio\"\nmorale = 8",
                "morale",
                "unknown key",
            ),
        ],
    );
}

// ---------------------------------------------------------------- leaders 5.3 / 5.3.3

#[test]
fn leader_tables_every_roll() {
    for r in -3..=12 {
        let c = if r <= 8 {
            CasualtyResult::NoEffect
        } else {
            CasualtyResult::Removed
        };
        assert_eq!(leaders::casualty_result(r), c, "casualty {r}");
        let p = match r {
            ..=0 => ReplacementResult::ReturnsImmediately,
            1 => ReplacementResult::ReturnsEndOfNextTurn,
            _ => ReplacementResult::Replaced,
        };
        assert_eq!(leaders::replacement_result(r), p, "replacement {r}");
    }
    assert_eq!(
        LeaderOutcome::ALL.map(|o| pikeshot::outcome::kebab_id(o.label())),
        [
            "no-effect",
            "original-returns-immediately",
            "original-returns-end-of-next-turn",
            "replaced"
        ]
    );
}

#[test]
fn leader_casualty_exact() {
    for e in Edition::ALL {
        // 9 (1/10) removes; then 0 (1/10), 1 (1/10), 2-9 (8/10).
        let p = LeaderCasualty::new(e, 0, 0).unwrap();
        assert_probs(&p, &[0.9, 0.01, 0.01, 0.08]);
        // +1 on the casualty roll: 8-9 remove (2/10).
        let p = LeaderCasualty::new(e, 1, 0).unwrap();
        assert_probs(&p, &[0.8, 0.02, 0.02, 0.16]);
        // -1 on the replacement roll: 0-1 return now (2/10), 2 next turn, 3-9 replaced.
        let p = LeaderCasualty::new(e, 0, -1).unwrap();
        assert_probs(&p, &[0.9, 0.02, 0.01, 0.07]);
    }
    monte_carlo_vs_exact(
        LeaderCasualty::new(Edition::Sfo, 0, 0).unwrap(),
        0x0005_0303,
    );
}

#[test]
fn leader_casualty_steps() {
    let p = built(
        "series",
        "leader-casualty",
        "extra_drm = 1\nreplacement_drm = -1",
        LeaderCasualty::from_step,
    );
    assert_eq!(p.casualty_modifiers().total, 1);
    assert_eq!(p.replacement_modifiers().total, -1);
    // 0.2 removed × (0.2, 0.1, 0.7).
    assert_probs(&p, &[0.8, 0.04, 0.02, 0.14]);
    assert_refusals(
        "leader-casualty",
        LeaderCasualty::from_step,
        &[
            ("sfo", "replacement_drm = 10", "replacement_drm", "outside"),
            ("sfo", "leader = \"tilly\"", "leader", "unknown key"),
        ],
    );
}

// ---------------------------------------------------------------- charts

#[test]
fn charts_lay_out_each_card() {
    for (e, other) in [(Edition::Sfo, "SFO"), (Edition::Series, "Other")] {
        let c = &pursuit::charts(e)[0];
        assert_eq!(c.id, "pursuit");
        assert_eq!(c.headers, ["TACW", other, "Result"]);
        let cells: Vec<[&str; 2]> = c.rows.iter().map(|r| [&*r[0], &*r[1]]).collect();
        assert_eq!(cells, [["≤2", "≤4"], ["3-5", "5-8"], ["6+", "9+"]]);
        let c = &retreat::charts(e)[0];
        assert_eq!(c.id, "unable-to-retreat");
        assert_eq!(c.rows, [["", "≤4", "5+"]]);
        let l = leaders::charts(e);
        assert_eq!(
            l.iter().map(|c| c.id).collect::<Vec<_>>(),
            ["leader-casualty", "leader-replacement"]
        );
        assert_eq!(l[0].rows.len(), 2);
        assert_eq!(l[1].rows.len(), 3);
        assert_eq!(l[1].rows[1][0], "1");
    }
    assert!(
        pursuit::charts(Edition::Series)[0]
            .notes
            .iter()
            .any(|n| n.contains("All but TACW"))
    );
    assert_eq!(pursuit::INFO.name, "pursuit");
    assert_eq!(retreat::INFO.name, "unable-to-retreat");
    assert_eq!(leaders::INFO.name, "leader-casualty");
}
