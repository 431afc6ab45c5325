//! Charging: the Closing Table with its favourable and unfavourable
//! conditions (`closing`), the Charge Reaction tables with reaction fire
//! (`charge-reaction`), the Close Combat Table (`close-combat`), and the
//! composite `charge` built from them on the chain — exact against hand
//! arithmetic and against composing the parts, Monte Carlo against exact,
//! and bad input.

use crate::support::assert_all_close;
use crate::support::hakkaa::*;
use crate::support::scenario::Want::{Measure as M, Outcome as O};
use pikeshot::procedure::Procedure;
use pikeshot::systems::hakkaa::close_combat::{CcOptions, CloseCombat};
use pikeshot::systems::hakkaa::closing::{Closing, ClosingOptions};
use pikeshot::systems::hakkaa::pair;
use pikeshot::systems::hakkaa::reaction::{ChargeReaction, Pace, ReactionOptions};
use pikeshot::systems::hakkaa::tq::Readings;
use pikeshot::systems::hakkaa::unit::{Unit, UnitState};

const F36: f64 = 36.0;

fn step_scenario(units: &str, procedure: &str, keys: &str) -> String {
    let (a, b) = match procedure {
        "close-combat" => ("attacker", "defender"),
        _ => ("charger", "target"),
    };
    one(
        "",
        units,
        &format!("procedure = \"{procedure}\"\n{a} = \"a\"\n{b} = \"b\"\n{keys}"),
    )
}

fn pair_units(a: &str, b: &str) -> String {
    format!("[units.a]\nsteps = 3\n{a}\n\n[units.b]\nsteps = 4\n{b}\n")
}

/// The only course of one `procedure` step (with `keys`) between unit `a`
/// (3 steps, keys `a`) and unit `b` (4 steps, keys `b`).
fn pair_step(a: &str, b: &str, procedure: &str, keys: &str) -> Box<dyn pikeshot::engine::Kernel> {
    only(&step_scenario(&pair_units(a, b), procedure, keys))
}

// ---------------------------------------------------------------- closing

/// P(contact) and P(charger falls back) of a closing step.
fn closing(a: &str, b: &str, keys: &str) -> (f64, f64) {
    let k = pair_step(a, b, "closing", keys);
    let contact = measure(k.as_ref(), "contact")[1];
    // The target is untouched.
    let target_before = outcomes(k.as_ref())
        .iter()
        .filter(|(_, p)| *p > 0.0)
        .count();
    assert_eq!(target_before, 1);
    (contact, measure(k.as_ref(), "own-status")[2])
}

/// One closing case: the charger's and the target's unit keys, the step's
/// keys, P(contact) in 36ths and, where the case pins it, P(the charger falls
/// back) in 36ths.
type ClosingCase<'a> = (&'a str, &'a str, &'a str, f64, Option<f64>);

/// Asserts every case's P(contact) and P(fall back) against the card.
fn check_closing(cases: &[ClosingCase]) {
    for &(a, b, keys, contact, fell_back) in cases {
        let (c, fb) = closing(a, b, keys);
        assert_close(c, contact / F36);
        if let Some(fb36) = fell_back {
            assert_close(fb, fb36 / F36);
        }
    }
}

#[test]
fn closing_results_under_conditions() {
    let mi = "type = \"mi\"\ntq = \"green\"";
    let mi_disordered = format!("{mi}\nstatus = \"disordered\"");
    let hbc = "type = \"hbc\"\ntq = \"veteran\"";
    let hbc_disordered = format!("{hbc}\nstatus = \"disordered\"");
    let behind_works = format!("{mi_disordered}\nfield_works = true");
    check_closing(&[
        // HBC Veteran: A_R (DS 10), A (S 20, F 5), F_B (DF 1).
        (hbc, mi, "", 35.0, Some(1.0)),
        // Disordered against a steady enemy is unfavourable: only A_R goes in.
        // Disordered Veteran reads Trained: DS 6 A_R, S 20 and F 7 A, DF 3 F_B.
        (&hbc_disordered, mi, "", 6.0, Some(3.0)),
        // Against a Disordered enemy it is not: A goes in.
        (&hbc_disordered, &mi_disordered, "", 33.0, None),
        // ... unless the enemy is uphill, behind chevaux de frise or field works.
        (
            &hbc_disordered,
            &mi_disordered,
            "enemy_uphill = true",
            6.0,
            None,
        ),
        (
            &hbc_disordered,
            &mi_disordered,
            "chevaux_de_frise = true",
            6.0,
            None,
        ),
        (&hbc_disordered, &behind_works, "", 6.0, None),
    ]);
}

#[test]
fn assault_if_favourable_needs_a_favourable_condition() {
    // EH Trained: A_R (DS 6), A_F (S 20, F 7), - (DF 3).
    let eh = "type = \"eh\"\ntq = \"trained\"";
    let mi = "type = \"mi\"\ntq = \"green\"";
    let favourable = 33.0;
    let disordered_mi = format!("{mi}\nstatus = \"disordered\"");
    let eh_general = format!("{eh}\ncommander = \"general\"");
    let eh_commander = format!("{eh}\ncommander = \"commander\"");
    let eh_disordered = format!("{eh}\nstatus = \"disordered\"");
    let hq_disordered = "type = \"hq\"\ntq = \"trained\"\nstatus = \"disordered\"";
    check_closing(&[
        (eh, mi, "", 6.0, Some(0.0)),
        // Each favourable condition of the card: general attached, group
        // already in contact, flank or rear, enemy Disordered, enemy artillery.
        (&eh_general, mi, "", favourable, None),
        (eh, mi, "group_in_contact = true", favourable, None),
        (eh, mi, "flank_or_rear = true", favourable, None),
        (eh, &disordered_mi, "", favourable, None),
        (
            eh,
            "type = \"artillery\"\ntq = \"green\"",
            "",
            favourable,
            None,
        ),
        // A commander who is not a general does not count.
        (&eh_commander, mi, "", 6.0, None),
        // EH and the enemy Disordered counts even when Disordered itself (the
        // charger reads Green: DS 3 A_R, S 18 and F 12 A_F).
        (&eh_disordered, &disordered_mi, "", 33.0, None),
        // ... but a Disordered HQ against a Disordered enemy has none
        // (HQ: A DS, A_F S; Green: DS 3, S 18).
        (hq_disordered, &disordered_mi, "", 3.0, None),
        // Overrides.
        (
            eh,
            mi,
            "flank_or_rear = true\nfavourable = false",
            6.0,
            None,
        ),
        (eh, mi, "favourable = true", favourable, None),
        (
            eh,
            mi,
            "flank_or_rear = true\nunfavourable = true",
            6.0,
            None,
        ),
    ]);
}

#[test]
fn closing_rows_skirmishers_and_overrides() {
    let mi = "type = \"mi\"\ntq = \"green\"";
    check_closing(&[
        // Skirmishers: F_B on DS, S and F; "-" on DF.
        (
            "type = \"lc\"\ntq = \"trained\"\nformation = \"skirmishing\"",
            mi,
            "",
            0.0,
            Some(33.0),
        ),
        // `closing_row` reads another row: LC is A, F_B, F_B, F_B.
        (
            "type = \"sc\"\ntq = \"trained\"",
            mi,
            "closing_row = \"LC\"",
            6.0,
            Some(30.0),
        ),
        // LTI: A, -, F_B, F_B.
        ("type = \"lti\"\ntq = \"trained\"", mi, "", 6.0, Some(10.0)),
    ]);
}

// ---------------------------------------------------------------- reaction

fn reaction(a: &str, b: &str, keys: &str) -> Box<dyn pikeshot::engine::Kernel> {
    pair_step(a, b, "charge-reaction", keys)
}

#[test]
fn reaction_without_firearms() {
    let hbc = "type = \"hbc\"\ntq = \"veteran\"";
    // Green MI at a gallop: St Fi, (d) ½Fi, (d) ½Fi, Flee. Without Fire
    // Points it stands on DS, S, F and flees on DF (3/36).
    let k = reaction(hbc, "type = \"mi\"\ntq = \"green\"", "pace = \"gallop\"");
    assert_figures(
        "green MI at a gallop",
        k.as_ref(),
        &[
            O("target-fled", 3.0 / F36),
            M("contact", 1, 33.0 / F36),
            M("reaction-fire", 0, 1.0),
        ],
    );
    // (target, step keys, P(target flees) in 36ths)
    for (target, keys, fled) in [
        // Disordered, it reads Rabble (DS 3, S 12, F 15, DF 6) and "(d)" flees.
        (
            "type = \"mi\"\ntq = \"green\"\nstatus = \"disordered\"",
            "pace = \"gallop\"",
            33.0,
        ),
        // Skirmishers at a gallop: St Fi, Flee, Flee, St.
        (
            "type = \"mi\"\ntq = \"trained\"\nformation = \"skirmishing\"",
            "",
            27.0,
        ),
        // Limbered artillery reads the same row.
        (
            "type = \"artillery\"\ntq = \"trained\"\nlimbered = true",
            "",
            27.0,
        ),
        // Field works +1 on the reaction test: Trained reads Veteran, DF 1/36.
        (
            "type = \"mi\"\ntq = \"trained\"\nfield_works = true",
            "",
            1.0,
        ),
    ] {
        assert_figures(
            target,
            reaction(hbc, target, keys).as_ref(),
            &[O("target-fled", fled / F36)],
        );
    }
}

#[test]
fn counter_charges() {
    // HL Trained: CC (DS 6, S 20), (d) (F 7), Flee (DF 3).
    let a = "type = \"hbc\"\ntq = \"veteran\"";
    let hl = "type = \"hl\"\ntq = \"trained\"";
    // (case, target, step keys, what the reaction gives)
    let cases = [
        (
            "HL",
            hl,
            "",
            [
                M("counter-charge", 1, 26.0 / F36),
                M("contact", 1, 33.0 / F36),
            ]
            .as_slice(),
        ),
        // Not possible: it stands instead; the charge still goes in.
        (
            "HL, counter charge not possible",
            hl,
            "counter_charge_possible = false",
            &[M("counter-charge", 1, 0.0), M("contact", 1, 33.0 / F36)],
        ),
        // Eastern Horse at a trot: CC, St ½Fi, (d) ½Fi, Flee.
        (
            "EH at a trot",
            "type = \"eh\"\ntq = \"trained\"",
            "pace = \"trot\"",
            &[M("counter-charge", 1, 6.0 / F36)],
        ),
    ];
    for (case, target, keys, wants) in cases {
        assert_figures(case, reaction(a, target, keys).as_ref(), wants);
    }
}

#[test]
fn reaction_fire_can_drive_the_charger_off() {
    // HBC Veteran (3 steps, commander) charges Green MI with 4 FP.
    // Full fire, FP 4, Green firer (DS 3, S 18, F 12, DF 3): C on DS/S
    // (21/36), LC on F (12/36). Half fire, FP 2: C on DS (3/36), LC on S
    // (18/36). The Veteran charger falls back on C with F/DF (6/36) and on
    // LC with DF (1/36); D only disorders it, and it goes on.
    let a = "type = \"hbc\"\ntq = \"veteran\"\ncommander = \"commander\"";
    let b = "type = \"mi\"\ntq = \"green\"\nfp = 4";
    let moved_full = (21.0 * 6.0 + 12.0 * 1.0) / 1296.0;
    let moved_half = (3.0 * 6.0 + 18.0 * 1.0) / 1296.0;
    // Gallop: DS (3) St Fi, S (18) and F (12) (d) ½Fi, DF (3) Flee.
    let k = reaction(a, b, "pace = \"gallop\"");
    assert_close(
        measure(k.as_ref(), "contact")[1],
        3.0 / F36 * (1.0 - moved_full) + 30.0 / F36 * (1.0 - moved_half),
    );
    assert_close(measure(k.as_ref(), "reaction-fire")[2], 3.0 / F36);
    assert_close(measure(k.as_ref(), "reaction-fire")[1], 30.0 / F36);
    assert_close(measure(k.as_ref(), "reaction-fire")[0], 3.0 / F36);
    // The charger's commander: * on C (a 6).
    assert_close(
        measure(k.as_ref(), "own-commander-injured")[1],
        (3.0 * 21.0 + 30.0 * 3.0) / 1296.0 / 6.0,
    );
    // Trot: DS St Fi, S (d) Fi, F (d) ½Fi, DF Flee.
    let k = reaction(a, b, "pace = \"trot\"");
    assert_close(
        measure(k.as_ref(), "contact")[1],
        21.0 / F36 * (1.0 - moved_full) + 12.0 / F36 * (1.0 - moved_half),
    );
    // Reactions that read the same: (case, then charger, target and step
    // keys of each of the two).
    let ai = "type = \"ai\"\ntq = \"veteran\"";
    let cases = [
        // Reaction Fire Points: the step's, then its modifier, then halved.
        (
            "reaction_fp",
            (a, b, "pace = \"trot\""),
            (
                a,
                "type = \"mi\"\ntq = \"green\"",
                "pace = \"trot\"\nreaction_fp = 4",
            ),
        ),
        (
            "reaction_fp_modifier",
            (a, b, "pace = \"trot\""),
            (
                a,
                "type = \"mi\"\ntq = \"green\"\nfp = 1",
                "pace = \"trot\"\nreaction_fp = 6\nreaction_fp_modifier = -2",
            ),
        ),
        // Cavalry gallops by default; an infantry charger runs (trot table).
        ("cavalry gallops", (a, b, ""), (a, b, "pace = \"gallop\"")),
        ("infantry runs", (ai, b, ""), (ai, b, "pace = \"trot\"")),
    ];
    for (case, (a1, b1, keys1), (a2, b2, keys2)) in cases {
        let (x, y) = (reaction(a1, b1, keys1), reaction(a2, b2, keys2));
        assert_same_exact(case, x.as_ref(), y.as_ref());
    }
}

// ---------------------------------------------------------------- close combat

#[test]
fn close_combat_both_sides_test() {
    // Trained attacker: DS 6 -, S 20 D * S6, F 7 F ** S5+, DF 3 F ** S4+.
    let commanded = "type = \"ai\"\ntq = \"trained\"\ncommander = \"commander\"";
    let green = "type = \"mi\"\ntq = \"green\"";
    // The defender's result in 36ths: (case, attacker, defender, [(outcome,
    // ways)]).
    let cases = [
        // Green defender: DS 3, S 18, F 12, DF 3.
        (
            "green",
            commanded,
            green,
            [
                ("target-steady", 3.0),
                ("target-disordered", 18.0),
                ("target-fell-back", 15.0),
            ],
        ),
        // A Disordered defender (Rabble row: DS 3, S 12, F 15, DF 6): D
        // falls back, F flees.
        (
            "disordered",
            "type = \"ai\"\ntq = \"trained\"",
            "type = \"mi\"\ntq = \"green\"\nstatus = \"disordered\"",
            [
                ("target-disordered", 3.0),
                ("target-fell-back", 12.0),
                ("target-fled", 21.0),
            ],
        ),
    ];
    for (case, a, b, want) in cases {
        let k = pair_step(a, b, "close-combat", "");
        assert_figures(
            case,
            k.as_ref(),
            &want.map(|(label, ways)| O(label, ways / F36)),
        );
    }
    // The attacker's side against the green defender.
    let k = pair_step(commanded, green, "close-combat", "");
    let own = measure(k.as_ref(), "own-status");
    assert_close(own[0], 6.0 / F36);
    assert_close(own[1], 20.0 / F36);
    assert_close(own[2], 10.0 / F36);
    assert_close(
        measure(k.as_ref(), "own-step-losses")[1],
        (20.0 / 6.0 + 7.0 / 3.0 + 3.0 / 2.0) / F36,
    );
    assert_close(measure(k.as_ref(), "own-step-losses")[1], 86.0 / 432.0);
    assert_close(
        measure(k.as_ref(), "target-step-losses")[1],
        (18.0 / 6.0 + 12.0 / 3.0 + 3.0 / 2.0) / F36,
    );
    assert_close(
        measure(k.as_ref(), "own-commander-injured")[1],
        (20.0 / 6.0 + 10.0 / 3.0) / F36,
    );
}

/// One close combat: the attacker's and the defender's unit keys, the
/// step's keys, and in 36ths P(the attacker stays steady) and P(the defender
/// stays steady) where the case pins them.
type CcCase<'a> = (&'a str, &'a str, &'a str, Option<f64>, Option<f64>);

#[test]
fn lower_cc_value_and_field_works() {
    let ai = "type = \"ai\"\ntq = \"trained\"";
    let mi = "type = \"mi\"\ntq = \"trained\"";
    let ai_cc2 = "type = \"ai\"\ntq = \"trained\"\ncc_value = 2";
    let mi_cc3 = "type = \"mi\"\ntq = \"trained\"\ncc_value = 3";
    let cases: [CcCase; 6] = [
        // Attacker CC 2 against 3: the attacker tests Trained - 1 = Green.
        (ai_cc2, mi_cc3, "", Some(3.0), Some(6.0)),
        (
            ai_cc2,
            mi_cc3,
            "lower_cc_value = \"neither\"",
            Some(6.0),
            None,
        ),
        (
            ai_cc2,
            mi_cc3,
            "lower_cc_value = \"defender\"",
            Some(6.0),
            Some(3.0),
        ),
        // Equal or missing values: no modifier.
        (
            "type = \"ai\"\ntq = \"trained\"\ncc_value = 3",
            mi,
            "",
            Some(6.0),
            None,
        ),
        // Field works +1: the defender tests Veteran (DS 10).
        (
            ai,
            "type = \"mi\"\ntq = \"trained\"\nfield_works = true",
            "",
            None,
            Some(10.0),
        ),
        // The extra keys.
        (
            ai,
            mi,
            "attacker_extra_tq = 1\ndefender_extra_tq = -2",
            Some(10.0),
            Some(3.0),
        ),
    ];
    for (a, d, keys, own_steady, target_steady) in cases {
        let k = pair_step(a, d, "close-combat", keys);
        if let Some(p) = own_steady {
            assert_close(measure(k.as_ref(), "own-status")[0], p / F36);
        }
        if let Some(p) = target_steady {
            assert_close(outcome(k.as_ref(), "target-steady"), p / F36);
        }
    }
}

// ---------------------------------------------------------------- the composite charge

#[test]
fn charge_by_hand() {
    // CI Elite charges Veteran HI without firearms, at a gallop.
    // Closing, CI: A_R (DS 10, S 23), A (F 2: both steady, not
    // unfavourable), - (DF 1): contact 35/36.
    // Reaction, MI/HI row: St Fi, (d) ½Fi, (d) ½Fi stand; Flee on DF (1/36).
    // Close combat: Elite -, D (23), F (2), F (1); Veteran -, D (20), F (5),
    // F (1).
    let k = pair_step(
        "type = \"ci\"\ntq = \"elite\"",
        "type = \"hi\"\ntq = \"veteran\"",
        "charge",
        "pace = \"gallop\"",
    );
    let c = 35.0 / F36;
    let cc = c * 35.0 / F36;
    assert_figures(
        "CI Elite at Veteran HI",
        k.as_ref(),
        &[
            O("target-fled", c / F36),
            O("target-steady", 1.0 / F36 + cc * 10.0 / F36),
            O("target-disordered", cc * 20.0 / F36),
            O("target-fell-back", cc * 6.0 / F36),
            O("target-eliminated", 0.0),
        ],
    );
    // Key outcomes (0 steady, 1 disordered or fell back, 2 fled, 3
    // eliminated): the charger is Disordered on D (23) and falls back on F
    // (2 + 1: steady, so Fall Back, not Flee).
    assert_all_close(
        &measure(k.as_ref(), "own-morale"),
        &[
            1.0 / F36 + c / F36 + cc * 10.0 / F36,
            cc * 23.0 / F36 + cc * 3.0 / F36,
            0.0,
            0.0,
        ],
    );
    assert_all_close(
        &measure(k.as_ref(), "enemy-morale"),
        &[
            1.0 / F36 + cc * 10.0 / F36,
            cc * 20.0 / F36 + cc * 6.0 / F36,
            c / F36,
            0.0,
        ],
    );
    assert_close(measure(k.as_ref(), "close-combats")[1], cc);
    assert_close(
        measure(k.as_ref(), "hits-taken")[1],
        cc * (23.0 / 6.0 + 2.0 / 3.0 + 1.0 / 2.0) / F36,
    );
    assert_close(
        measure(k.as_ref(), "hits-inflicted")[1],
        cc * (20.0 / 6.0 + 5.0 / 3.0 + 1.0 / 2.0) / F36,
    );
}

/// The exact distribution of a charge composed by hand from its three
/// procedures: (target status index, own status index) → probability.
fn compose(charger: &Unit, target: &Unit, pace: Pace) -> [[f64; 5]; 5] {
    let r = Readings::default();
    let mut dist = [[0.0; 5]; 5];
    let closing = Closing::new(charger, target, &ClosingOptions::default(), r).unwrap();
    let pc = pikeshot::engine::exact::exact(&closing, 1 << 20).unwrap();
    let contact_of = |s: &pikeshot::OutcomeSpace, leaf: usize| {
        s.value_of(leaf as u32, s.measure_index("contact").unwrap()) == 1
    };
    for (l1, p1) in pc.iter().enumerate().filter(|x| *x.1 > 0.0) {
        let (t1, c1) = pair::decode(closing.space(), l1 as u32, &target.state, &charger.state);
        if !contact_of(closing.space(), l1) {
            dist[t1.status_index()][c1.status_index()] += p1;
            continue;
        }
        let (ch1, tg1) = (charger.in_state(c1), target.in_state(t1));
        let o = ReactionOptions {
            pace: Some(pace),
            ..ReactionOptions::default()
        };
        let re = ChargeReaction::new(&ch1, &tg1, &o, r).unwrap();
        let pr = pikeshot::engine::exact::exact(&re, 1 << 24).unwrap();
        for (l2, p2) in pr.iter().enumerate().filter(|x| *x.1 > 0.0) {
            let (t2, c2) = pair::decode(re.space(), l2 as u32, &t1, &c1);
            if !contact_of(re.space(), l2) {
                dist[t2.status_index()][c2.status_index()] += p1 * p2;
                continue;
            }
            let cc = CloseCombat::new(
                &ch1.in_state(c2),
                &tg1.in_state(t2),
                &CcOptions::default(),
                r,
            )
            .unwrap();
            let p3 = pikeshot::engine::exact::exact(&cc, 1 << 24).unwrap();
            for (l3, p) in p3.iter().enumerate().filter(|x| *x.1 > 0.0) {
                let (t3, c3): (UnitState, UnitState) =
                    pair::decode(cc.space(), l3 as u32, &t2, &c2);
                dist[t3.status_index()][c3.status_index()] += p1 * p2 * p;
            }
        }
    }
    dist
}

#[test]
fn charge_equals_its_parts_composed() {
    let text = "[units.a]\ntype = \"hbc\"\ntq = \"veteran\"\nsteps = 3\ncommander = \"commander\"\ncc_value = 4\n\
                [units.b]\ntype = \"mi\"\ntq = \"green\"\nsteps = 4\nfp_per_step = 1\ncc_value = 2\ncommander = \"commander\"\ncharismatic = true\n";
    let u = units(text);
    for pace in [Pace::Gallop, Pace::Trot] {
        let want = compose(&u[0], &u[1], pace);
        let k = only(&one(
            "",
            text,
            &format!(
                "procedure = \"charge\"\ncharger = \"a\"\ntarget = \"b\"\npace = \"{}\"",
                pace.name()
            ),
        ));
        let probs = exact(k.as_ref());
        let s = k.space();
        // The course reports the charger on the key morale scale: steady 0,
        // disordered and fell back 1, fled 2, eliminated 3; and the target's
        // level beside its status.
        const LEVEL: [usize; 5] = [0, 1, 1, 2, 3];
        let own = s.measure_index("own-morale").unwrap();
        let enemy = s.measure_index("enemy-morale").unwrap();
        let mut got = [[0.0; 4]; 5];
        for (leaf, p) in probs.iter().enumerate() {
            let t = s.outcome_of(leaf as u32);
            if *p > 0.0 {
                assert_eq!(s.value_of(leaf as u32, enemy) as usize, LEVEL[t]);
            }
            got[t][s.value_of(leaf as u32, own) as usize] += p;
        }
        let mut want4 = [[0.0; 4]; 5];
        for t in 0..5 {
            for o in 0..5 {
                want4[t][LEVEL[o]] += want[t][o];
            }
        }
        for t in 0..5 {
            for o in 0..4 {
                assert_close(got[t][o], want4[t][o]);
            }
        }
    }
}

#[test]
fn exact_methods_match_full_dice_enumeration() {
    let u = units(
        "[units.a]\ntype = \"hbc\"\ntq = \"trained\"\nsteps = 2\ncommander = \"commander\"\n\
         [units.b]\ntype = \"mi\"\ntq = \"green\"\nsteps = 2\ncommander = \"general\"\nfp = 1\n\
         [units.c]\ntype = \"hbc\"\ntq = \"trained\"\nsteps = 2\n",
    );
    let r = Readings::default();
    exact_matches_dice(
        &Closing::new(&u[0], &u[1], &ClosingOptions::default(), r).unwrap(),
        100,
    );
    exact_matches_dice(
        &CloseCombat::new(&u[0], &u[1], &CcOptions::default(), r).unwrap(),
        2_000_000,
    );
    // Trot: full fire on S, FP 1: 2 LC on the firer's DS; the charger has
    // no commander, so no injury roll.
    let o = ReactionOptions {
        pace: Some(Pace::Trot),
        ..ReactionOptions::default()
    };
    exact_matches_dice(
        &ChargeReaction::new(&u[2], &u[1], &o, r).unwrap(),
        2_000_000,
    );
}

#[test]
fn monte_carlo_agrees_with_exact() {
    let units = "[units.a]\ntype = \"eh\"\ntq = \"veteran\"\nsteps = 2\ncommander = \"general\"\ncc_value = 3\n\
                 [units.b]\ntype = \"mi\"\ntq = \"trained\"\nsteps = 3\nfp_per_step = 2\nstatus = \"disordered\"\n";
    let text = doc(
        units,
        "[[course]]\nname = \"gallop\"\nsteps = [{ procedure = \"charge\", charger = \"a\", target = \"b\" }]\n\
         [[course]]\nname = \"trot\"\nsteps = [{ procedure = \"charge\", charger = \"a\", target = \"b\", pace = \"trot\", flank_or_rear = true }]\n\
         [[course]]\nname = \"reaction\"\nsteps = [{ procedure = \"charge-reaction\", charger = \"a\", target = \"b\" }]\n\
         [[course]]\nname = \"melee\"\nsteps = [{ procedure = \"close-combat\", attacker = \"a\", defender = \"b\" }]\n",
    );
    monte_carlo_matches_exact(&text, 0xc4_0001);
}

// ---------------------------------------------------------------- bad input

#[test]
fn bad_charges_are_located() {
    let units = "[units.a]\ntype = \"sc\"\ntq = 8\nsteps = 2\n\n[units.b]\ntype = \"mi\"\ntq = 7\nsteps = 3\n\n[units.c]\ntype = \"mi\"\ntq = 7\nsteps = 3\nstatus = \"fled\"\n";
    let errors = assert_procedure_refusals(
        units,
        "charge",
        &[
            (
                "charger = \"a\"\ntarget = \"b\"",
                "charger",
                "the Closing Table has no row for a (SC)",
                None,
            ),
            (
                "charger = \"a\"\ntarget = \"b\"\nclosing_row = \"HBCX\"",
                "closing_row",
                "unknown table row \"HBCX\"",
                Some("HBC"),
            ),
            (
                "charger = \"b\"\ntarget = \"c\"",
                "target",
                "c is fleeing or eliminated",
                None,
            ),
            (
                "charger = \"c\"\ntarget = \"b\"",
                "charger",
                "cannot charge",
                None,
            ),
            (
                "charger = \"b\"\ntarget = \"a\"\npace = \"galop\"",
                "pace",
                "unknown pace",
                Some("gallop"),
            ),
            (
                "charger = \"b\"\ntarget = \"a\"\nlower_cc_value = \"attacker\"",
                "lower_cc_value",
                "accepted: charger, target, neither",
                None,
            ),
            (
                "charger = \"b\"\ntarget = \"a\"\nreaction_row = \"cavalry\"",
                "reaction_row",
                "other-cavalry",
                None,
            ),
            (
                "charger = \"b\"\ntarget = \"a\"\nfavorable = true",
                "favorable",
                "unknown key `favorable`",
                Some("favourable"),
            ),
        ],
    );
    // The Closing Table refusal names the key that picks a row, and the rows.
    let e = &errors[0];
    assert!(e.to_string().contains("closing_row"), "{e}");
    assert!(e.to_string().contains("accepted: MI, AI/HI"), "{e}");
    // The close combat alone names its sides attacker and defender.
    assert_procedure_refusals(
        units,
        "close-combat",
        &[
            (
                "attacker = \"b\"\ndefender = \"a\"\nlower_cc_value = \"charger\"",
                "lower_cc_value",
                "accepted: attacker, defender, neither",
                None,
            ),
            (
                "attacker = \"b\"\ndefender = \"c\"",
                "defender",
                "not in close combat",
                None,
            ),
        ],
    );
}
