//! Fleeing units (`fleeing`) and uncontrolled units (`uncontrolled`): exact
//! outcome distributions against hand arithmetic, every class in every
//! situation, Monte Carlo against exact, and bad input.

use crate::support::hakkaa::*;
use crate::support::scenario::Want::{Measure as M, Outcome as O};
use pikeshot::procedure::Procedure;
use pikeshot::stats;
use pikeshot::systems::hakkaa::tq::{Grade, Readings, Tq, TqMode, TqTest};
use pikeshot::systems::hakkaa::uncontrolled::{Situation, Uncontrolled, UncontrolledOptions};
use pikeshot::systems::hakkaa::unit::{Formation, UnitClass};

const F36: f64 = 36.0;

fn fleeing(unit: &str, keys: &str) -> Box<dyn pikeshot::engine::Kernel> {
    only(&one(
        "",
        &format!("[units.u]\ntype = \"mi\"\nstatus = \"fled\"\n{unit}\n"),
        &format!("procedure = \"fleeing\"\nunit = \"u\"\n{keys}"),
    ))
}

#[test]
fn fleeing_units_rally_or_flee() {
    // Trained, fleeing (counts as Disordered): Green row, DS 3, S 18, F 12,
    // DF 3. R_Y on DS; R_C on S with a commander or a friend closer; R_F+C on
    // F with both; otherwise Flee with a step loss on 4+.
    let t = "tq = \"trained\"\nsteps = 4";
    for (unit, keys, rally) in [
        (t.to_string(), "", 3.0),
        (format!("{t}\ncommander = \"commander\""), "", 21.0),
        (t.to_string(), "friend_closer = true", 21.0),
        (
            format!("{t}\ncommander = \"general\""),
            "friend_closer = true",
            33.0,
        ),
        // Without the Disordered modifier: Trained row, DS 6, S 20, F 7.
        (t.to_string(), "disordered = false", 6.0),
        (
            format!("{t}\ncommander = \"commander\""),
            "disordered = false\nfriend_closer = true",
            33.0,
        ),
        // A charismatic commander: +1 back to Trained, and R_C.
        (
            format!("{t}\ncommander = \"commander\"\ncharismatic = true"),
            "",
            26.0,
        ),
        // +2 with the Disordered -1: Veteran, DS 10; R_C has neither.
        (t.to_string(), "extra_tq = 2", 10.0),
    ] {
        let k = fleeing(&unit, keys);
        assert_figures(
            &format!("{unit} {keys}"),
            k.as_ref(),
            &[
                O("rally", rally / F36),
                O("flee", (F36 - rally) / F36),
                O("eliminated", 0.0),
                M("step-losses", 1, (F36 - rally) / F36 / 2.0),
            ],
        );
    }
    // One step left: the step loss eliminates.
    let k = fleeing("tq = \"green\"\nsteps = 1", "");
    // Green fleeing reads Rabble: DS 3 rallies.
    assert_figures(
        "one step left",
        k.as_ref(),
        &[
            O("rally", 3.0 / F36),
            O("eliminated", 33.0 / F36 / 2.0),
            O("flee", 33.0 / F36 / 2.0),
        ],
    );
}

fn uncontrolled(unit: &str, keys: &str) -> Vec<(String, f64)> {
    let k = only(&one(
        "",
        &format!("[units.u]\nsteps = 2\n{unit}\n"),
        &format!("procedure = \"uncontrolled\"\nunit = \"u\"\n{keys}"),
    ));
    outcomes(k.as_ref())
}

#[track_caller]
fn assert_dist(got: Vec<(String, f64)>, want: &[(&str, f64)]) {
    assert_eq!(got.len(), want.len(), "{got:?}");
    for ((l, p), (wl, wp)) in got.iter().zip(want) {
        assert_eq!(l, wl);
        assert_close(*p, wp / F36);
    }
}

#[test]
fn uncontrolled_units_by_hand() {
    let mi = "type = \"mi\"\ntq = \"trained\"";
    // 7. Visible enemy, MI: A_S, A_D, H_D, Ret on Trained 6, 20, 7, 3.
    assert_dist(
        uncontrolled(mi, "situation = \"visible-enemy\""),
        &[("A_S", 6.0), ("A_D", 20.0), ("H_D", 7.0), ("Ret", 3.0)],
    );
    // A single unit -1: Green 3, 18, 12, 3.
    assert_dist(
        uncontrolled(mi, "situation = \"visible-enemy\"\nsingle_unit = true"),
        &[("A_S", 3.0), ("A_D", 18.0), ("H_D", 12.0), ("Ret", 3.0)],
    );
    // 6. Defensible, no visible enemy: H_D on DS, S, F; M on DF.
    assert_dist(
        uncontrolled(mi, "situation = \"defensible-no-enemy\""),
        &[("H_D", 33.0), ("M", 3.0)],
    );
    // 2. Fleeing enemy, LC: Pu, Pu, Pu, H_D.
    assert_dist(
        uncontrolled(
            "type = \"lc\"\ntq = \"trained\"",
            "situation = \"fleeing-enemy\"",
        ),
        &[("Pu", 33.0), ("H_D", 3.0)],
    );
    // 4. Enemy at flank, HL Veteran (10, 20, 5, 1).
    assert_dist(
        uncontrolled(
            "type = \"hl\"\ntq = \"veteran\"",
            "situation = \"enemy-at-flank\"",
        ),
        &[("T/C_H", 10.0), ("T/H_D", 20.0), ("H_D", 5.0), ("Ret", 1.0)],
    );
    // 5. Defensible and enemy visible, HQ Green (3, 18, 12, 3).
    assert_dist(
        uncontrolled(
            "type = \"hq\"\ntq = \"green\"",
            "situation = \"defensible-enemy-visible\"",
        ),
        &[("C_C A", 3.0), ("C_C H", 30.0), ("Ret", 3.0)],
    );
    // 8. No visible enemy, skirmishing MI: M, CM, CM, H_D.
    assert_dist(
        uncontrolled(
            &format!("{mi}\nformation = \"skirmishing\""),
            "situation = \"no-visible-enemy\"",
        ),
        &[("M", 6.0), ("CM", 27.0), ("H_D", 3.0)],
    );
    // `row` reads another row: Art on visible enemy is A_D, H_D, H_D, H_D.
    assert_dist(
        uncontrolled(mi, "situation = \"visible-enemy\"\nrow = \"Art\""),
        &[("A_D", 6.0), ("H_D", 30.0)],
    );
    // 1. Defending: automatic Hold. 3. Enemy to rear: no test.
    assert_dist(
        uncontrolled(mi, "situation = \"defending\""),
        &[("Hold", 36.0)],
    );
    assert_dist(
        uncontrolled(mi, "situation = \"enemy-to-rear\""),
        &[("at-least-one-turns-180", 36.0)],
    );
    assert_dist(
        uncontrolled(mi, "situation = \"enemy-to-rear\"\nenemy_to_front = true"),
        &[("may-turn-180", 36.0)],
    );
}

#[test]
fn every_class_in_every_situation() {
    // The distribution of what an uncontrolled unit does is its row's codes
    // weighted by its TQ bands, for every class, grade and situation.
    let r = Readings::default();
    for &s in Situation::ALL {
        for &c in UnitClass::ALL {
            for &g in Grade::ALL {
                let text = format!(
                    "[units.u]\ntype = \"{}\"\ntq = \"{}\"\nsteps = 2\n",
                    c.name(),
                    g.name()
                );
                let u = &units(&text)[0];
                let o = UncontrolledOptions {
                    situation: s,
                    single_unit: false,
                    enemy_to_front: false,
                    row: None,
                    extra_tq: 0,
                };
                let p = match Uncontrolled::new(u, &o, r) {
                    Ok(p) => p,
                    Err(e) => {
                        assert!(s.row_for(c, Formation::Formed).is_none(), "{e}");
                        continue;
                    }
                };
                let probs = pikeshot::engine::exact::exact(&p, 1000).unwrap();
                let got = stats::outcome_probs(p.space(), &probs);
                let Some(row) = p.row() else {
                    assert_eq!(got, vec![1.0]);
                    continue;
                };
                let t = TqTest::new(g, 0, TqMode::Row);
                for (label, q) in p.space().outcomes().iter().zip(got) {
                    let want: f64 = Tq::ALL
                        .iter()
                        .filter(|x| row.cells[**x as usize] == label)
                        .map(|x| t.probability(*x))
                        .sum();
                    assert_close(q, want);
                }
                exact_matches_dice(&p, 1000);
            }
        }
    }
}

#[test]
fn monte_carlo_agrees_with_exact() {
    let units = "[units.u]\ntype = \"lbc\"\ntq = \"veteran\"\nsteps = 1\nstatus = \"fled\"\ncommander = \"commander\"\n\
                 [units.v]\ntype = \"hq\"\ntq = \"rabble\"\nsteps = 2\nfatigued = true\n";
    let text = doc(
        units,
        "[[course]]\nname = \"rally\"\nsteps = [{ procedure = \"fleeing\", unit = \"u\" }]\n\
         [[course]]\nname = \"visible\"\nsteps = [{ procedure = \"uncontrolled\", unit = \"v\", situation = \"visible-enemy\", single_unit = true }]\n\
         [[course]]\nname = \"defensible\"\nsteps = [{ procedure = \"uncontrolled\", unit = \"v\", situation = \"defensible-enemy-visible\" }]\n",
    );
    monte_carlo_matches_exact(&text, 0x3a_0001);
}

// ---------------------------------------------------------------- bad input

#[test]
fn bad_fleeing_and_uncontrolled_steps_are_located() {
    let units = "[units.u]\ntype = \"mi\"\ntq = 8\nsteps = 2\n\n[units.s]\ntype = \"sc\"\ntq = 8\nsteps = 2\n";
    let step = |s: &str| one("", units, s);
    let errors = assert_step_refusals(
        step,
        &[
            (
                "procedure = \"fleeing\"\nunit = \"u\"",
                "unit",
                "u is not fleeing",
                None,
            ),
            (
                "procedure = \"fleeing\"\nunit = \"u\"\nrally_status = \"fled\"",
                "rally_status",
                "accepted: disordered, steady",
                None,
            ),
            (
                "procedure = \"uncontrolled\"\nunit = \"u\"\nsituation = \"fleeing-enemy\"",
                "unit",
                "cavalry only",
                None,
            ),
            (
                "procedure = \"uncontrolled\"\nunit = \"s\"\nsituation = \"visible-enemy\"",
                "unit",
                "has no row for s (SC)",
                None,
            ),
            (
                "procedure = \"uncontrolled\"\nunit = \"u\"\nsituation = \"visible-enemys\"",
                "situation",
                "unknown situation",
                Some("visible-enemy"),
            ),
        ],
    );
    // A unit without a row: the rows the table has.
    let e = &errors[3];
    assert!(e.to_string().contains("accepted: Skirmishing, MI"), "{e}");
    let t = step("procedure = \"uncontrolled\"\nunit = \"u\"");
    assert_error(
        &t,
        "course[0].steps[0].situation",
        "[[course.steps]]",
        "[[course.steps]]",
        "missing key `situation`",
    );
    assert_step_refusals(
        step,
        &[
            (
                "procedure = \"uncontrolled\"\nunit = \"u\"\nsituation = \"defending\"\nrow = \"MI\"",
                "row",
                "has no table rows",
                None,
            ),
            (
                "procedure = \"uncontrolled\"\nunit = \"u\"\nsituation = \"visible-enemy\"\nenemy_to_front = true",
                "enemy_to_front",
                "enemy-to-rear",
                None,
            ),
            (
                "procedure = \"uncontrolled\"\nunit = \"u\"\nsituation = \"visible-enemy\"\nrow = \"Cavalry\"",
                "row",
                "unknown table row",
                None,
            ),
        ],
    );
}
