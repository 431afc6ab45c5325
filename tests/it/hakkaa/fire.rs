//! Fire (`fire`): the firer's TQ test on the Fire Table, the target's
//! step-loss and commander rolls and its Receiving Casualties tests, exact
//! against hand arithmetic; the 2 LC reading and its switch; Fire Points
//! (½Fi, per step); the exact method against full dice enumeration; Monte
//! Carlo against exact; bad input.

use crate::support::hakkaa::*;
use crate::support::scenario::Want::Outcome as O;
use pikeshot::engine::Kernel;
use pikeshot::systems::hakkaa::fire::{Fire, FireOptions};
use pikeshot::systems::hakkaa::tq::Readings;

const H: f64 = 1296.0; // 36 * 36

fn fire_scenario(top: &str, firer: &str, target: &str, step: &str) -> String {
    one(
        top,
        &format!("[units.a]\ntype = \"mi\"\n{firer}\n\n[units.b]\ntype = \"hi\"\n{target}\n"),
        &format!("procedure = \"fire\"\nfirer = \"a\"\ntarget = \"b\"\n{step}"),
    )
}

/// The one course of a fire step, with no top-level keys.
fn fired(firer: &str, target: &str, step: &str) -> Box<dyn Kernel> {
    only(&fire_scenario("", firer, target, step))
}

/// The target's status outcomes, in the order [`assert_status`] takes them.
const STATUS: [&str; 5] = [
    "target-steady",
    "target-disordered",
    "target-fell-back",
    "target-fled",
    "target-eliminated",
];

/// Asserts the exact probability of each of the target's [`STATUS`]
/// outcomes of the one course of `text`.
#[track_caller]
fn assert_status(text: &str, want: [f64; 5]) {
    let want: Vec<_> = STATUS.into_iter().zip(want).map(|(l, w)| O(l, w)).collect();
    assert_figures(text, only(text).as_ref(), &want);
}

#[test]
fn trained_musketeers_on_veteran_pike() {
    // Firer Trained, FP 4: DS (6/36) C * S5+, S (20/36) C *, F (7/36) LC,
    // DF (3/36) NE. Target Veteran, steady: DS 10, S 20, F 5, DF 1 (of 36).
    // C: DS -, S D, F F, DF F; LC: F D, DF F.
    let t = fire_scenario(
        "",
        "tq = \"trained\"\nsteps = 4\nfp = 4",
        "tq = \"veteran\"\nsteps = 4\ncommander = \"commander\"",
        "",
    );
    let steady = (6.0 * 10.0 + 20.0 * 10.0 + 7.0 * 30.0 + 3.0 * 36.0) / H;
    let disordered = (6.0 * 20.0 + 20.0 * 20.0 + 7.0 * 5.0) / H;
    let fell_back = (6.0 * 6.0 + 20.0 * 6.0 + 7.0 * 1.0) / H;
    assert_close(steady, 578.0 / H);
    assert_status(&t, [steady, disordered, fell_back, 0.0, 0.0]);
    let k = only(&t);
    // A step lost on S5+ after a DS: 6/36 * 2/6.
    assert_close(measure(k.as_ref(), "hits-inflicted")[1], 6.0 / 36.0 / 3.0);
    // The commander is hit on a 6 after DS or S: 26/36 * 1/6.
    assert_close(
        measure(k.as_ref(), "target-commander-injured")[1],
        26.0 / 216.0,
    );
    // The firer is untouched.
    assert_close(measure(k.as_ref(), "own-morale")[0], 1.0);
    assert_close(mean(k.as_ref(), "hits-taken"), 0.0);
}

#[test]
fn two_lc_is_two_results_each_tested() {
    // Firer Fanatic, FP 1: DS (15/36) 2 LC *, S (20/36) LC, F (1/36) NE.
    // Target Trained steady: DS 6, S 20, F 7, DF 3; Disordered it reads
    // Green: DS 3, S 18, F 12, DF 3. LC: F D, DF F.
    let firer = "tq = \"fanatic\"\nsteps = 4\nfp = 1";
    let target = "tq = \"trained\"\nsteps = 4";
    // Two LC tests, the second with the status the first left:
    // steady 26*26; disordered 26*7 + 7*21; fell back 26*3 + 7*12 + 3*33;
    // fled 7*3 + 3*3 (of 1296).
    let two = [676.0 / H, 329.0 / H, 261.0 / H, 30.0 / H];
    let lc = [26.0 / 36.0, 7.0 / 36.0, 3.0 / 36.0, 0.0];
    let want = |double: [f64; 4]| {
        let mut w = [0.0; 5];
        for i in 0..4 {
            w[i] = 15.0 / 36.0 * double[i] + 20.0 / 36.0 * lc[i];
        }
        w[0] += 1.0 / 36.0;
        w
    };
    assert_status(&fire_scenario("", firer, target, ""), want(two));
    // The switch: one test for "2 LC".
    assert_status(
        &fire_scenario("[rules]\ndouble_results = \"one-test\"", firer, target, ""),
        want(lc),
    );
    assert_status(
        &fire_scenario("[rules]\ndouble_results = \"two-tests\"", firer, target, ""),
        want(two),
    );
}

#[test]
fn heavy_casualties_can_eliminate() {
    // Firer Fanatic, FP 8: DS (15/36) HC ** S4+, S (20/36) 2 C ** S5+,
    // F (1/36) C * S5+. Target one step of Rabble with a commander.
    // Eliminated: DS: S4+ (1/2), else X on its DF (6/36); S, F: S5+ (1/3).
    let t = fire_scenario(
        "",
        "tq = \"fanatic\"\nsteps = 2\nfp = 8",
        "tq = \"rabble\"\nsteps = 1\ncommander = \"general\"",
        "",
    );
    let k = only(&t);
    let elim = 15.0 / 36.0 * (0.5 + 0.5 * 6.0 / 36.0) + 21.0 / 36.0 / 3.0;
    assert_close(elim, 7.0 / 16.0);
    assert_close(outcome(k.as_ref(), "target-eliminated"), elim);
    assert_close(measure(k.as_ref(), "hits-inflicted")[1], elim);
    // The commander roll comes only if the unit survives the step roll:
    // DS 1/2 * 1/3, S 2/3 * 1/3, F 2/3 * 1/6.
    let cmd = 15.0 / 36.0 / 6.0 + 20.0 / 36.0 * 2.0 / 9.0 + 1.0 / 36.0 / 9.0;
    assert_close(cmd, 127.0 / 648.0);
    assert_close(measure(k.as_ref(), "target-commander-injured")[1], cmd);
    // Surviving a DS: HC test DS/S D, F F (fall back), DF X (eliminated).
    let survive_ds = 15.0 / 36.0 * 0.5;
    // 2 C (two tests) and C on Rabble: DS (3/36) -, S (12/36) D, F and DF F.
    let (ds, s) = (3.0 / 36.0, 12.0 / 36.0);
    // Green row (Rabble, Disordered: clamped at Rabble) is the same.
    let two_c_steady = ds * ds;
    let one_c_steady = ds;
    let steady = 20.0 / 36.0 * 2.0 / 3.0 * two_c_steady + 1.0 / 36.0 * 2.0 / 3.0 * one_c_steady;
    assert_close(outcome(k.as_ref(), "target-steady"), steady);
    let disordered = survive_ds * 15.0 / 36.0
        + 20.0 / 36.0 * 2.0 / 3.0 * (ds * s + s * ds)
        + 1.0 / 36.0 * 2.0 / 3.0 * s;
    assert_close(outcome(k.as_ref(), "target-disordered"), disordered);
}

#[test]
fn charismatic_leader_counts_until_injured() {
    // Firer Fanatic, FP 4: DS (15/36) C * S5+, S (20/36) C *, F (1/36) LC.
    // Target Trained with a charismatic commander reads Veteran (DS 10/36)
    // until the * roll (a 6) injures the commander, then Trained (DS 6/36).
    let t = fire_scenario(
        "",
        "tq = \"fanatic\"\nsteps = 4\nfp = 4",
        "tq = \"trained\"\nsteps = 4\ncommander = \"commander\"\ncharismatic = true",
        "",
    );
    let steady =
        35.0 / 36.0 * (5.0 / 6.0 * 10.0 / 36.0 + 1.0 / 6.0 * 6.0 / 36.0) + 1.0 / 36.0 * 30.0 / 36.0;
    assert_close(steady, 2140.0 / 7776.0);
    assert_close(outcome(only(&t).as_ref(), "target-steady"), steady);
}

#[test]
fn fire_points_from_the_unit_the_step_and_half_fire() {
    let target = "tq = \"green\"\nsteps = 4\ncommander = \"commander\"";
    let base = fired("tq = \"trained\"\nsteps = 4\nfp = 1", target, "");
    let want = exact(base.as_ref());
    // ½Fi of 3 is 1; 1 + 2 - 2 is 1; 1 per step with one step is 1; the
    // step's `fp` replaces the unit's.
    for (firer, step) in [
        ("tq = \"trained\"\nsteps = 4\nfp = 3", "half = true"),
        ("tq = \"trained\"\nsteps = 4\nfp = 3", "fp_modifier = -2"),
        ("tq = \"trained\"\nsteps = 1\nfp_per_step = 1", ""),
        ("tq = \"trained\"\nsteps = 4\nfp_per_step = 3", "fp = 1"),
        (
            "tq = \"trained\"\nsteps = 4\nfp = 2",
            "fp = 4\nfp_modifier = -1\nhalf = true",
        ),
    ] {
        let k = fired(firer, target, step);
        for (a, b) in exact(k.as_ref()).iter().zip(&want) {
            assert_close(*a, *b);
        }
    }
    // FP 0 reads "<1": LC on a DS only (6/36), then the Green LC test.
    let k = fired("tq = \"trained\"\nsteps = 4\nfp = 0", target, "");
    assert_figures(
        "FP 0",
        k.as_ref(),
        &[
            O("target-disordered", 6.0 / 36.0 * 12.0 / 36.0),
            O("target-fell-back", 6.0 / 36.0 * 3.0 / 36.0),
        ],
    );
    // 4 per step on two steps is 8: "8+".
    assert_same_exact(
        "FP 8 and 99",
        fired("tq = \"trained\"\nsteps = 2\nfp_per_step = 4", target, "").as_ref(),
        fired("tq = \"trained\"\nsteps = 4\nfp = 99", target, "").as_ref(),
    );
}

#[test]
fn firer_modifiers_and_fleeing_targets() {
    // A Disordered firer reads the next row down; `firer_extra_tq` too.
    let target = "tq = \"veteran\"\nsteps = 4";
    let a = fired(
        "tq = \"trained\"\nsteps = 4\nfp = 4\nstatus = \"disordered\"",
        target,
        "",
    );
    let b = fired("tq = \"green\"\nsteps = 4\nfp = 4", target, "");
    let c = fired(
        "tq = \"trained\"\nsteps = 4\nfp = 4",
        target,
        "firer_extra_tq = -1",
    );
    // (The leaves differ in own-morale: compare what happens to the target.)
    for k in [&b, &c] {
        for ((_, x), (_, y)) in outcomes(a.as_ref()).iter().zip(outcomes(k.as_ref())) {
            assert_close(*x, y);
        }
        for m in ["hits-inflicted", "target-commander-injured"] {
            for (x, y) in measure(a.as_ref(), m).iter().zip(measure(k.as_ref(), m)) {
                assert_close(*x, y);
            }
        }
    }
    assert_close(measure(a.as_ref(), "own-morale")[1], 1.0);
    // A fleeing target stays fleeing, and still loses steps.
    let k = fired(
        "tq = \"trained\"\nsteps = 4\nfp = 4",
        "tq = \"veteran\"\nsteps = 4\nstatus = \"fled\"",
        "",
    );
    assert_close(outcome(k.as_ref(), "target-fled"), 1.0);
    assert_close(measure(k.as_ref(), "hits-inflicted")[1], 6.0 / 36.0 / 3.0);
}

#[test]
fn exact_method_matches_full_dice_enumeration() {
    let u = units(
        "[units.a]\ntype = \"mi\"\ntq = \"elite\"\nsteps = 3\nfp = 8\n\
         [units.b]\ntype = \"hi\"\ntq = \"green\"\nsteps = 2\ncommander = \"commander\"\ncharismatic = true\n",
    );
    for half in [false, true] {
        let o = FireOptions {
            half,
            ..FireOptions::default()
        };
        let p = Fire::new(&u[0], &u[1], &o, Readings::default()).unwrap();
        exact_matches_dice(&p, 3_000_000);
    }
}

#[test]
fn monte_carlo_agrees_with_exact() {
    monte_carlo_matches_exact(
        &fire_scenario(
            "",
            "tq = \"elite\"\nsteps = 4\nfp = 8",
            "tq = \"green\"\nsteps = 2\ncommander = \"commander\"\ncharismatic = true",
            "",
        ),
        0xf1_0001,
    );
    monte_carlo_matches_exact(
        &fire_scenario(
            "[rules]\ntq_modifier_mode = \"roll\"",
            "tq = \"trained\"\nsteps = 4\nfp_per_step = 1\nstatus = \"disordered\"",
            "tq = \"rabble\"\nsteps = 1",
            "fp_modifier = 3",
        ),
        0xf1_0002,
    );
}

// ---------------------------------------------------------------- bad input

#[test]
fn bad_fire_steps_are_located() {
    let units = "[units.a]\ntype = \"mi\"\ntq = 8\nsteps = 4\n\n[units.b]\ntype = \"hi\"\ntq = 9\nsteps = 4\nfp = 2\n";
    let errors = assert_procedure_refusals(
        units,
        "fire",
        &[
            (
                "firer = \"a\"\ntarget = \"b\"",
                "firer",
                "a has no Fire Points",
                None,
            ),
            (
                "firer = \"b\"\ntarget = \"b\"",
                "target",
                "name the same unit",
                None,
            ),
            (
                "firer = \"bb\"\ntarget = \"a\"",
                "firer",
                "no unit named \"bb\"",
                None,
            ),
            (
                "firer = \"b\"\ntarget = \"a\"\nfp_modifer = 1",
                "fp_modifer",
                "unknown key `fp_modifer`",
                Some("fp_modifier"),
            ),
            (
                "firer = \"b\"\ntarget = \"a\"\nhalf = \"yes\"",
                "half",
                "expected true or false",
                None,
            ),
            (
                "firer = \"b\"\ntarget = \"a\"\nprocedure2 = 1",
                "procedure2",
                "unknown key",
                None,
            ),
            (
                "firer = \"b\"\ntarget = \"a\"\nfp = 100",
                "fp",
                "from 0 to 99",
                None,
            ),
        ],
    );
    // An unknown unit: the names the scenario has.
    let e = &errors[2];
    assert!(e.to_string().contains("accepted: a, b"), "{e}");
    // A fleeing firer does not fire (a course of this one step).
    let fled = "[units.a]\ntype = \"mi\"\ntq = 8\nsteps = 4\nfp = 2\nstatus = \"fled\"\n\n[units.b]\ntype = \"hi\"\ntq = 9\nsteps = 4\n";
    let t = one(
        "",
        fled,
        "procedure = \"fire\"\nfirer = \"a\"\ntarget = \"b\"",
    );
    assert_step_error(&t, "firer", "fleeing or eliminated and cannot fire");
    let t = one("", units, "procedure = \"shoot\"\nfirer = \"b\"");
    let e = assert_step_error(&t, "procedure", "unknown procedure \"shoot\"");
    assert!(e.to_string().contains("tq-test, fire, charge"), "{e}");
}

/// `fire-result` of a Trained firer's FP 4 (of 36): 3 NE, 7 LC, 26 C.
const TRAINED_FP4: [f64; 7] = [0.0, 3.0, 7.0, 0.0, 26.0, 0.0, 0.0];

/// The `fire-result` distribution of a course is `of36` / 36 (values 0..6).
#[track_caller]
fn assert_fire_results(k: &dyn pikeshot::engine::Kernel, of36: [f64; 7]) {
    let got = measure(k, "fire-result");
    assert_eq!(got.len(), of36.len());
    for (g, w) in got.iter().zip(of36) {
        assert_close(*g, w / 36.0);
    }
}

/// Issue 11 item 16: `fire` reports the Fire Table result, measure
/// `fire-result` (1 NE, 2 LC, 3 2 LC, 4 C, 5 2 C, 6 HC; 0 did not fire), in
/// a course with one `fire` step; the firer's TQ test picks the column of
/// its FP row, so its distribution is the test's.
#[test]
fn fire_reports_the_fire_table_result() {
    // Trained (8), FP 4: DS 2-4 (6/36) C, S 5-8 (20/36) C, F 9-10 (7/36)
    // LC, DF 11-12 (3/36) NE.
    assert_eq!(
        (ways(2, 4), ways(5, 8), ways(9, 10), ways(11, 12)),
        (6.0, 20.0, 7.0, 3.0)
    );
    let trained = fire_scenario(
        "",
        "tq = \"trained\"\nsteps = 4\nfp = 4",
        "tq = \"veteran\"\nsteps = 4",
        "",
    );
    assert_fire_results(only(&trained).as_ref(), TRAINED_FP4);
    // Fanatic (11), FP 8+: DS 2-6 (15/36) HC, S 7-11 (20/36) 2 C, F 12
    // (1/36) C; a fanatic never rolls DF.
    let fanatic = fire_scenario(
        "",
        "tq = \"fanatic\"\nsteps = 4\nfp = 9",
        "tq = \"green\"\nsteps = 3\ncommander = \"commander\"",
        "",
    );
    assert_fire_results(
        only(&fanatic).as_ref(),
        [0.0, 0.0, 0.0, 0.0, 1.0, 20.0, 15.0],
    );
    // Monte Carlo within 4.5 standard errors of exact, both kernels.
    monte_carlo_matches_exact(&trained, 0xf1_0003);
    monte_carlo_matches_exact(&fanatic, 0xf1_0004);
}

/// The result is reported by a course with one `fire` step (fire, then
/// charge) and not by an engagement, where turns of fire would multiply it.
#[test]
fn only_a_course_with_one_fire_step_reports_the_fire_result() {
    let units = "[units.a]\ntype = \"hbc\"\ntq = \"trained\"\nsteps = 4\nfp = 4\n\n\
                 [units.b]\ntype = \"mi\"\ntq = \"green\"\nsteps = 4\n";
    let text = doc(
        units,
        "[[course]]\nname = \"fire then charge\"\nsteps = [\n\
           { procedure = \"fire\", firer = \"a\", target = \"b\" },\n\
           { procedure = \"charge\", charger = \"a\", target = \"b\" },\n]\n\n\
         [[course]]\nname = \"keep firing\"\nrepeat = { turns = 3 }\n\
         steps = [{ procedure = \"fire\", firer = \"a\", target = \"b\" }]\n",
    );
    let b = build(&text);
    let (_, first) = &b.courses[0];
    // The opening volley always fires: the trained firer's FP 4 column.
    assert_fire_results(first.as_ref(), TRAINED_FP4);
    let (_, repeated) = &b.courses[1];
    assert!(repeated.space().measure_index("fire-result").is_none());
}
