//! The TQ test (`tq-test`): exact probabilities against hand arithmetic on
//! 2d6, every printed TQ modifier, the row and roll readings of the
//! modifiers with their clamps, the exact method against full dice
//! enumeration, Monte Carlo against exact, and bad input.

use crate::support::hakkaa::*;
use pikeshot::dice::{Dice, Enumerator};
use pikeshot::engine::exact::exact as exact_of;
use pikeshot::systems::hakkaa::tq::{Grade, Tq, TqMode, TqTest};

/// A one-step `tq-test` scenario of a unit with `unit_keys`.
fn tq_scenario(top: &str, unit_keys: &str, step_keys: &str) -> String {
    one(
        top,
        &format!("[units.u]\ntype = \"mi\"\nsteps = 4\n{unit_keys}\n"),
        &format!("procedure = \"tq-test\"\nunit = \"u\"\n{step_keys}"),
    )
}

/// Exact DS, S, F, DF probabilities of a `tq-test` scenario.
fn results(text: &str) -> [f64; 4] {
    let k = only(text);
    let p = ["decisive-success", "success", "failure", "decisive-failure"]
        .map(|l| outcome(k.as_ref(), l));
    // `passed` is DS + S.
    assert_close(measure(k.as_ref(), "passed")[1], p[0] + p[1]);
    p
}

/// The card's bands of a grade row, in 36ths.
fn row(grade: Grade) -> [f64; 4] {
    match grade {
        Grade::Fanatic => [ways(2, 6), ways(7, 11), ways(12, 12), 0.0],
        Grade::Elite => [ways(2, 5), ways(6, 10), ways(11, 11), ways(12, 12)],
        Grade::Veteran => [ways(2, 5), ways(6, 9), ways(10, 11), ways(12, 12)],
        Grade::Trained => [ways(2, 4), ways(5, 8), ways(9, 10), ways(11, 12)],
        Grade::Green => [ways(2, 3), ways(4, 7), ways(8, 10), ways(11, 12)],
        Grade::Rabble => [ways(2, 3), ways(4, 6), ways(7, 9), ways(10, 12)],
    }
}

#[track_caller]
fn assert_row(got: [f64; 4], want: [f64; 4]) {
    for (g, w) in got.iter().zip(want) {
        assert_close(*g, w / 36.0);
    }
}

#[test]
fn trained_passes_26_in_36() {
    // 2d6 <= 8: 1 + 2 + 3 + 4 + 5 + 6 + 5 ways.
    let p = results(&tq_scenario("", "tq = \"trained\"", ""));
    assert_close(p[0] + p[1], 26.0 / 36.0);
    // DS 2-4 (6 ways), S 5-8 (20), F 9-10 (7), DF 11-12 (3).
    assert_row(p, [6.0, 20.0, 7.0, 3.0]);
}

#[test]
fn every_grade_by_name_and_number() {
    let by_hand: [(Grade, [f64; 4]); 6] = [
        (Grade::Fanatic, [15.0, 20.0, 1.0, 0.0]),
        (Grade::Elite, [10.0, 23.0, 2.0, 1.0]),
        (Grade::Veteran, [10.0, 20.0, 5.0, 1.0]),
        (Grade::Trained, [6.0, 20.0, 7.0, 3.0]),
        (Grade::Green, [3.0, 18.0, 12.0, 3.0]),
        (Grade::Rabble, [3.0, 12.0, 15.0, 6.0]),
    ];
    for (g, want) in by_hand {
        assert_eq!(row(g), want, "{g}");
        assert_row(
            results(&tq_scenario("", &format!("tq = \"{}\"", g.name()), "")),
            want,
        );
        assert_row(
            results(&tq_scenario("", &format!("tq = {}", g.tq()), "")),
            want,
        );
        // A pass is 2d6 <= TQ.
        assert_close(
            TqTest::new(g, 0, TqMode::Row).pass_probability(),
            ways(2, g.tq() as u8) / 36.0,
        );
    }
}

#[test]
fn each_printed_modifier_shifts_the_row() {
    let trained = "tq = \"trained\"";
    let cases: [(&str, &str, Grade); 9] = [
        // Disordered -1.
        ("status = \"disordered\"", "", Grade::Green),
        // Fatigued -1.
        ("fatigued = true", "", Grade::Green),
        // Charismatic leader attached +1.
        (
            "commander = \"commander\"\ncharismatic = true",
            "",
            Grade::Veteran,
        ),
        // Field works +1 on a charge reaction or close combat test only.
        (
            "field_works = true",
            "test = \"charge-reaction\"",
            Grade::Veteran,
        ),
        (
            "field_works = true",
            "test = \"close-combat\"",
            Grade::Veteran,
        ),
        ("field_works = true", "", Grade::Trained),
        // Lower total CC value -1 (close combat).
        (
            "",
            "test = \"close-combat\"\nlower_cc_value = true",
            Grade::Green,
        ),
        // Single unit on the Uncontrolled units table -1.
        (
            "",
            "test = \"uncontrolled\"\nsingle_unit = true",
            Grade::Green,
        ),
        // The extras add up: unit +1, step +1.
        ("extra_tq = 1", "extra_tq = 1", Grade::Elite),
    ];
    for (unit, step, grade) in cases {
        let p = results(&tq_scenario("", &format!("{trained}\n{unit}"), step));
        assert_row(p, row(grade));
    }
    // All four -1 together and a charismatic leader: 8 - 4 + 1 = 5, clamped
    // to Rabble (6).
    let p = results(&tq_scenario(
        "",
        "tq = \"trained\"\nstatus = \"fell-back\"\nfatigued = true\ncommander = \"general\"\ncharismatic = true",
        "test = \"close-combat\"\nlower_cc_value = true\nextra_tq = -1",
    ));
    assert_row(p, row(Grade::Rabble));
}

#[test]
fn row_mode_clamps_to_the_table() {
    // Fanatic +2 stays Fanatic; Rabble -3 stays Rabble.
    assert_row(
        results(&tq_scenario("", "tq = \"fanatic\"\nextra_tq = 2", "")),
        row(Grade::Fanatic),
    );
    assert_row(
        results(&tq_scenario("", "tq = \"rabble\"\nextra_tq = -3", "")),
        row(Grade::Rabble),
    );
    for g in Grade::ALL {
        for net in -6..=6 {
            let t = TqTest::new(*g, net, TqMode::Row);
            let want = Grade::from_tq((g.tq() + net).clamp(6, 11)).unwrap();
            assert_eq!(t.row(), want);
        }
    }
}

#[test]
fn roll_mode_shifts_the_roll() {
    let roll = "[rules]\ntq_modifier_mode = \"roll\"";
    // Trained, Disordered (-1): read 2d6 + 1 on the Trained row.
    // DS: 2d6 + 1 <= 4, 2d6 <= 3: 3 ways. S: 5..8, 2d6 4..7: 18 ways.
    // F: 9..10, 2d6 8..9: 9 ways. DF: 2d6 >= 10: 6 ways.
    let p = results(&tq_scenario(
        roll,
        "tq = \"trained\"\nstatus = \"disordered\"",
        "",
    ));
    assert_row(p, [3.0, 18.0, 9.0, 6.0]);
    // The row reading gives the Green row instead: F 8-10, 12 ways.
    let q = results(&tq_scenario(
        "",
        "tq = \"trained\"\nstatus = \"disordered\"",
        "",
    ));
    assert_row(q, [3.0, 18.0, 12.0, 3.0]);
    // Fanatic +2: 2d6 - 2, clamped to 2: DS 2d6 <= 8 (26 ways), S 9..12
    // (10 ways), never F.
    let p = results(&tq_scenario(roll, "tq = \"fanatic\"\nextra_tq = 2", ""));
    assert_row(p, [26.0, 10.0, 0.0, 0.0]);
    // Rabble -3: 2d6 + 3, clamped to 12: DS never (2d6 + 3 >= 5), S 4..6 is
    // 2d6 <= 3 (3 ways), F 7..9 is 2d6 4..6 (12 ways), DF 2d6 >= 7 (21).
    let p = results(&tq_scenario(roll, "tq = \"rabble\"\nextra_tq = -3", ""));
    assert_row(p, [0.0, 3.0, 12.0, 21.0]);
    // With no modifier both readings agree.
    for g in Grade::ALL {
        for s in 2..=12 {
            assert_eq!(
                TqTest::new(*g, 0, TqMode::Roll).result(s),
                TqTest::new(*g, 0, TqMode::Row).result(s)
            );
        }
    }
}

#[test]
fn exact_method_matches_full_dice_enumeration() {
    for g in Grade::ALL {
        for net in [-2, 0, 1] {
            for mode in [TqMode::Row, TqMode::Roll] {
                let t = TqTest::new(*g, net, mode);
                let mut by_dice = [0.0f64; 4];
                Enumerator::new()
                    .for_each(
                        100,
                        |d| t.result(d.d6() + d.d6()),
                        |_, r: Tq, p| by_dice[r as usize] += p,
                    )
                    .unwrap();
                for r in Tq::ALL {
                    assert_close(t.probability(r), by_dice[r as usize]);
                }
            }
        }
    }
    // And the procedure's own exact method against the crate's enumerator.
    let k = only(&tq_scenario("", "tq = \"green\"\nfatigued = true", ""));
    let mine = exact(k.as_ref());
    assert_eq!(mine.len(), k.space().len());
    // The procedure itself: its exact method against every path of dice.
    use pikeshot::systems::hakkaa::tq::{Readings, Situation, TestKind, TroopQualityTest};
    let unit = &units("[units.u]\ntype = \"mi\"\nsteps = 4\ntq = \"green\"\nfatigued = true\n")[0];
    let p = TroopQualityTest::new(unit, &Situation::of(TestKind::General), Readings::default());
    exact_matches_dice(&p, 1000);
    for (a, b) in exact_of(&p, 1000).unwrap().iter().zip(&mine) {
        assert_close(*a, *b);
    }
}

#[test]
fn monte_carlo_agrees_with_exact() {
    monte_carlo_matches_exact(
        &tq_scenario("", "tq = \"veteran\"\nstatus = \"disordered\"", ""),
        0x7a_0001,
    );
    monte_carlo_matches_exact(
        &tq_scenario(
            "[rules]\ntq_modifier_mode = \"roll\"",
            "tq = \"elite\"",
            "extra_tq = -2",
        ),
        0x7a_0002,
    );
}

// ---------------------------------------------------------------- bad input

#[test]
fn bad_grade_and_mode_are_located() {
    // (the [rules] table, the unit's keys, the key the error names, the
    // table it is in, what its line holds, what the error says)
    let refused = [
        (
            "",
            "tq = \"trianed\"",
            "units.u.tq",
            "[units.u]",
            "tq =",
            "unknown grade \"trianed\"",
        ),
        (
            "",
            "tq = 12",
            "units.u.tq",
            "[units.u]",
            "tq =",
            "outside the accepted range",
        ),
        (
            "[rules]\ntq_modifier_mode = \"rows\"",
            "tq = \"trained\"",
            "rules.tq_modifier_mode",
            "[rules]",
            "tq_modifier_mode",
            "unknown TQ modifier mode",
        ),
        (
            "[rules]\ndouble_results = \"twice\"",
            "tq = \"trained\"",
            "rules.double_results",
            "[rules]",
            "double_results",
            "two-tests, one-test",
        ),
        (
            "",
            "",
            "units.u.tq",
            "[units.u]",
            "[units.u]",
            "missing key `tq`",
        ),
    ];
    let errors: Vec<_> = refused
        .iter()
        .map(|&(rules, unit, key, table, line, says)| {
            assert_error(&tq_scenario(rules, unit, ""), key, table, line, says)
        })
        .collect();
    // A misspelt grade: the grades, and the one meant.
    let e = &errors[0];
    assert_eq!(e.suggestion.as_deref(), Some("trained"));
    assert!(
        e.to_string()
            .contains("fanatic, elite, veteran, trained, green, rabble")
    );
    // A number out of range says which numbers are TQs.
    let e = &errors[1];
    assert!(e.to_string().contains("a TQ number from 6 to 11"), "{e}");
    assert_eq!(errors[2].suggestion.as_deref(), Some("row"));
}

#[test]
fn bad_unit_keys_are_located() {
    for (keys, key, says) in [
        (
            "tq = \"trained\"\ntype2 = 1",
            "units.u.type2",
            "unknown key `type2`",
        ),
        (
            "tq = \"trained\"\ncharismatic = true",
            "units.u.charismatic",
            "a charismatic leader is an attached commander",
        ),
        (
            "tq = \"trained\"\nfp = 2\nfp_per_step = 1",
            "units.u.fp_per_step",
            "not both",
        ),
        (
            "tq = \"trained\"\nlimbered = true",
            "units.u.limbered",
            "only artillery limbers",
        ),
        (
            "tq = \"trained\"\nstatus = \"routed\"",
            "units.u.status",
            "steady, disordered, fell-back, fled",
        ),
        (
            "tq = \"trained\"\ncommander = \"king\"",
            "units.u.commander",
            "none, commander, general",
        ),
        (
            "tq = \"trained\"\nextra_tq = 9",
            "units.u.extra_tq",
            "from -5 to 5",
        ),
    ] {
        let t = tq_scenario("", keys, "");
        let needle = key.rsplit('.').next().unwrap();
        assert_error(&t, key, "[units.u]", &format!("{needle} ="), says);
    }
    let t = one(
        "",
        "[units.u]\ntype = \"artilery\"\ntq = 8\nsteps = 1\n",
        "procedure = \"tq-test\"\nunit = \"u\"",
    );
    let e = assert_error(
        &t,
        "units.u.type",
        "[units.u]",
        "type =",
        "unknown unit class",
    );
    assert_eq!(e.suggestion.as_deref(), Some("artillery"));
    let t = one(
        "",
        "[units.u]\ntype = \"artillery\"\ntq = 8\nsteps = 1\nformation = \"skirmishing\"\n",
        "procedure = \"tq-test\"\nunit = \"u\"",
    );
    assert_error(
        &t,
        "units.u.formation",
        "[units.u]",
        "formation =",
        "artillery does not skirmish",
    );
    let t = one(
        "",
        "[units.u]\ntype = \"mi\"\ntq = 8\n",
        "procedure = \"tq-test\"\nunit = \"u\"",
    );
    assert_error(
        &t,
        "units.u.steps",
        "[units.u]",
        "[units.u]",
        "missing key `steps`",
    );
}

#[test]
fn situational_modifiers_need_their_test() {
    let t = tq_scenario("", "tq = \"trained\"", "lower_cc_value = true");
    assert_step_error(&t, "lower_cc_value", "test = \"close-combat\"");
    let t = tq_scenario(
        "",
        "tq = \"trained\"",
        "test = \"close-combat\"\nsingle_unit = true",
    );
    assert_step_error(&t, "single_unit", "test = \"uncontrolled\"");
    let t = tq_scenario("", "tq = \"trained\"", "test = \"melee\"");
    assert_error(
        &t,
        "course[0].steps[0].test",
        "[[course.steps]]",
        "test =",
        "general, charge-reaction, close-combat, uncontrolled",
    );
    let t = one(
        "",
        "[units.u]\ntype = \"mi\"\nsteps = 4\ntq = 8\n",
        "procedure = \"tq-test\"\nunits = \"u\"",
    );
    let e = assert_step_error(&t, "units", "missing key `unit`");
    assert_eq!(e.suggestion.as_deref(), Some("unit"));
    let t = tq_scenario("", "tq = \"trained\"", "extra = 1");
    assert_error(
        &t,
        "course[0].steps[0].extra",
        "[[course.steps]]",
        "extra =",
        "unknown key `extra`",
    );
}
