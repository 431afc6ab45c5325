//! Hakkaa Päälle courses and engagements on the chain: state carried from
//! step to step, skipped steps, stop conditions and the `turns` measure
//! (exact against hand arithmetic), "fire" against "charge" side by side on
//! the shipped scenarios, the CLI end to end, and bad course input.

use crate::support::cli::{pikeshot, pikeshot_ok, stderr};

use crate::support::hakkaa::*;
use crate::support::scenario::Want::Outcome as O;

const UNITS: &str = "[units.a]\ntype = \"mi\"\ntq = \"trained\"\nsteps = 4\nfp = 1\n\n\
                     [units.b]\ntype = \"hi\"\ntq = \"trained\"\nsteps = 4\nstatus = \"disordered\"\n";

/// P(a Disordered Trained unit flees) from one volley of a Trained firer
/// with 1 FP: the firer's DS (6/36) gives 2 LC, S (20/36) LC; each LC test
/// on the Green row flees on DF (3/36) and only falls back on F, so the
/// unit stays Disordered and the chance is the same every turn.
fn p_flee() -> f64 {
    let lc = 3.0 / 36.0;
    6.0 / 36.0 * (1.0 - (1.0 - lc) * (1.0 - lc)) + 20.0 / 36.0 * lc
}

#[test]
fn firefight_turns_are_geometric() {
    let p = p_flee();
    assert_close(p, 7.0 / 96.0);
    let n = 5;
    let t = doc(
        UNITS,
        &format!(
            "[[course]]\nname = \"e\"\nrepeat = {{ turns = {n}, until = [\"target-fled\"] }}\nsteps = [{{ procedure = \"fire\", firer = \"a\", target = \"b\" }}]\n"
        ),
    );
    let k = only(&t);
    let turns = measure(k.as_ref(), "turns");
    assert_eq!(turns.len(), n);
    for (i, q) in turns.iter().enumerate() {
        let t = i as i32 + 1;
        let want = if t < n as i32 {
            (1.0 - p).powi(t - 1) * p
        } else {
            (1.0 - p).powi(n as i32 - 1)
        };
        assert_close(*q, want);
    }
    assert_figures(
        "until the target flees",
        k.as_ref(),
        &[
            O("target-fled", 1.0 - (1.0 - p).powi(n as i32)),
            O("target-steady", 0.0),
        ],
    );
    // The same without a stop: five volleys, fled or not.
    let t = doc(
        UNITS,
        "[[course]]\nname = \"e\"\nrepeat = { turns = 5, until = [\"own-fled\"] }\nsteps = [{ procedure = \"fire\", firer = \"a\", target = \"b\" }]\n",
    );
    let k = only(&t);
    assert_close(measure(k.as_ref(), "turns")[4], 1.0);
    assert_close(outcome(k.as_ref(), "target-fled"), 1.0 - (1.0 - p).powi(5));
}

#[test]
fn steps_before_from_step_run_once() {
    // Two volleys, the second repeated: `from_step = 1` over 3 turns fires
    // 1 + 3 volleys; `from_step = 0` fires 2 × 3.
    let p = p_flee();
    let fires = "steps = [{ procedure = \"fire\", firer = \"a\", target = \"b\" }, { procedure = \"fire\", firer = \"a\", target = \"b\" }]\n";
    for (from, volleys) in [(1, 4), (0, 6)] {
        let t = doc(
            UNITS,
            &format!(
                "[[course]]\nname = \"e\"\nrepeat = {{ turns = 3, until = [\"own-fled\"], from_step = {from} }}\n{fires}"
            ),
        );
        let k = only(&t);
        assert_close(measure(k.as_ref(), "turns")[2], 1.0);
        assert_close(
            outcome(k.as_ref(), "target-fled"),
            1.0 - (1.0 - p).powi(volleys),
        );
    }
    // A step that does not exist.
    let t = doc(
        UNITS,
        &format!("[[course]]\nname = \"e\"\nrepeat = {{ turns = 3, from_step = 2 }}\n{fires}"),
    );
    let e = error(&t);
    assert_eq!(e.key.as_deref(), Some("course[0].repeat.from_step"), "{e}");
    assert!(e.to_string().contains("from 0 to 1"), "{e}");
}

#[test]
fn default_stops_and_fall_back_stops() {
    // Default stop conditions: target fled, own fled.
    let t = doc(
        UNITS,
        "[[course]]\nname = \"e\"\nrepeat = { turns = 3 }\nsteps = [{ procedure = \"fire\", firer = \"a\", target = \"b\" }]\n",
    );
    let p = p_flee();
    let k = only(&t);
    assert_close(measure(k.as_ref(), "turns")[0], p);
    assert_close(measure(k.as_ref(), "turns")[1], (1.0 - p) * p);
    // Stop at a fall back: on the Green row an LC test falls back on F (12)
    // and flees on DF (3); the unit starts Disordered, so the first volley
    // stops it whenever any test gives F or DF.
    let t = doc(
        UNITS,
        "[[course]]\nname = \"e\"\nrepeat = { turns = 3, until = [\"target-fell-back\"] }\nsteps = [{ procedure = \"fire\", firer = \"a\", target = \"b\" }]\n",
    );
    let k = only(&t);
    let hit = 15.0 / 36.0;
    let first = 6.0 / 36.0 * (1.0 - (1.0 - hit) * (1.0 - hit)) + 20.0 / 36.0 * hit;
    assert_close(measure(k.as_ref(), "turns")[0], first);
}

#[test]
fn rallying_turns_of_a_fleeing_unit() {
    // A fleeing Trained unit with no commander and no friend closer tests
    // on the Green row (it counts as Disordered): it rallies on DS (3/36),
    // else flees and loses a step on 4+. Default stops for one unit:
    // rallied, eliminated.
    let t = doc(
        "[units.u]\ntype = \"mi\"\ntq = \"trained\"\nsteps = 20\nstatus = \"fled\"\n",
        "[[course]]\nname = \"rally\"\nrepeat = { turns = 4 }\nsteps = [{ procedure = \"fleeing\", unit = \"u\" }]\n",
    );
    let k = only(&t);
    let p: f64 = 1.0 / 12.0;
    let turns = measure(k.as_ref(), "turns");
    for (i, q) in turns.iter().enumerate().take(3) {
        assert_close(*q, (1.0 - p).powi(i as i32) * p);
    }
    assert_close(turns[3], (1.0 - p).powi(3));
    // Rallied units are Disordered.
    assert_figures(
        "rally",
        k.as_ref(),
        &[
            O("unit-disordered", 1.0 - (1.0 - p).powi(4)),
            O("unit-fled", (1.0 - p).powi(4)),
        ],
    );
    // Each turn it is still fleeing and does not rally, it loses a step
    // with probability 1/2.
    let expected: f64 = (1..=4).map(|t| (1.0 - p).powi(t) / 2.0).sum();
    assert_close(mean(k.as_ref(), "hits-taken"), expected);
    // Key outcomes: rallied (Disordered) 1, still fleeing 2.
    let morale = measure(k.as_ref(), "own-morale");
    assert_close(morale[1], 1.0 - (1.0 - p).powi(4));
    assert_close(morale[2], (1.0 - p).powi(4));
}

#[test]
fn state_carries_from_step_to_step() {
    // Fanatic firer, FP 1, at a steady Trained unit: it flees only when the
    // 2 LC (DS, 15/36) both test badly: D then F (7 * 3) or F then F (3 * 3)
    // of 1296. A fleeing test follows: on the Green row it rallies on DS
    // (3/36) and becomes Disordered; a unit that did not flee is skipped.
    let units = "[units.a]\ntype = \"mi\"\ntq = \"fanatic\"\nsteps = 4\nfp = 1\n\n\
                 [units.b]\ntype = \"hi\"\ntq = \"trained\"\nsteps = 4\n";
    let fled = 15.0 / 36.0 * 30.0 / 1296.0;
    let t = doc(
        units,
        "[[course]]\nname = \"c\"\nsteps = [\n  { procedure = \"fire\", firer = \"a\", target = \"b\" },\n  { procedure = \"fleeing\", unit = \"b\" },\n]\n",
    );
    let k = only(&t);
    assert_close(outcome(k.as_ref(), "target-fled"), fled * 33.0 / 36.0);
    assert_close(measure(k.as_ref(), "hits-inflicted")[1], fled * 33.0 / 72.0);
    let fire_alone = only(&doc(
        units,
        "[[course]]\nname = \"f\"\nsteps = [{ procedure = \"fire\", firer = \"a\", target = \"b\" }]\n",
    ));
    assert_close(
        outcome(k.as_ref(), "target-disordered"),
        outcome(fire_alone.as_ref(), "target-disordered") + fled * 3.0 / 36.0,
    );
    // A fleeing firer's fire is skipped: rally first, then fire.
    let units = "[units.a]\ntype = \"mi\"\ntq = \"trained\"\nsteps = 4\nfp = 1\nstatus = \"fled\"\n\n\
                 [units.b]\ntype = \"hi\"\ntq = \"trained\"\nsteps = 4\n";
    let t = doc(
        units,
        "[[course]]\nname = \"c\"\nsteps = [\n  { procedure = \"fleeing\", unit = \"a\" },\n  { procedure = \"fire\", firer = \"a\", target = \"b\" },\n]\n",
    );
    let k = only(&t);
    // The firer rallies on DS only (3/36) and then fires Disordered (Green
    // row: DS 3/36 LC... on FP 1: DS 2 LC *, S LC); the target is hit
    // only then.
    let rally = 3.0 / 36.0;
    // Key outcomes: still fleeing 2, rallied (Disordered) 1.
    assert_close(measure(k.as_ref(), "own-morale")[2], 1.0 - rally);
    assert_close(measure(k.as_ref(), "own-morale")[1], rally);
    let touched = 1.0 - outcome(k.as_ref(), "target-steady");
    let green_hits = 3.0 / 36.0 * (1.0 - (26.0 / 36.0) * (26.0 / 36.0)) + 18.0 / 36.0 * 10.0 / 36.0;
    assert_close(touched, rally * green_hits);
}

#[test]
fn key_outcomes_by_hand() {
    // One volley of the Trained firer (1 FP) at the Disordered Trained
    // unit: it flees with p_flee, else stays Disordered or falls back (both
    // 1 on the key scale); FP 1 (2 LC, LC) takes no steps, and the firer is
    // untouched.
    let p = p_flee();
    let fire = "{ procedure = \"fire\", firer = \"a\", target = \"b\" }";
    let t = doc(
        UNITS,
        &format!("[[course]]\nname = \"f\"\nsteps = [{fire}]\n"),
    );
    let k = only(&t);
    let enemy = measure(k.as_ref(), "enemy-morale");
    assert_eq!(enemy.len(), 4);
    assert_close(enemy[0], 0.0);
    assert_close(enemy[1], 1.0 - p);
    assert_close(enemy[2], p);
    assert_close(enemy[3], 0.0);
    assert_close(measure(k.as_ref(), "own-morale")[0], 1.0);
    assert_close(measure(k.as_ref(), "hits-inflicted")[0], 1.0);
    assert_close(measure(k.as_ref(), "hits-taken")[0], 1.0);
    assert!(
        k.space()
            .measure_index("formation-hits-inflicted")
            .is_none()
    );
    assert!(k.space().measure_index("turns").is_none());
    // Neither unit has a commander: the injury measures are 0..0.
    assert_eq!(measure(k.as_ref(), "target-commander-injured").len(), 1);
    // An engagement of 5 volleys stopping when the target flees.
    let t = doc(
        UNITS,
        &format!(
            "[[course]]\nname = \"e\"\nrepeat = {{ turns = 5, until = [\"target-fled\"] }}\nsteps = [{fire}]\n"
        ),
    );
    let k = only(&t);
    let fled = 1.0 - (1.0 - p).powi(5);
    assert_close(measure(k.as_ref(), "enemy-morale")[2], fled);
    assert_close(measure(k.as_ref(), "enemy-morale")[1], 1.0 - fled);
    // `own` and `enemy` swap the reported pair: now b is own.
    let t = doc(
        UNITS,
        &format!("[[course]]\nname = \"f\"\nown = \"b\"\nenemy = \"a\"\nsteps = [{fire}]\n"),
    );
    let k = only(&t);
    let own = measure(k.as_ref(), "own-morale");
    assert_close(own[1], 1.0 - p);
    assert_close(own[2], p);
    assert_close(measure(k.as_ref(), "enemy-morale")[0], 1.0);
    assert_close(outcome(k.as_ref(), "target-steady"), 1.0);
}

// ---------------------------------------------------------------- shipped scenarios

fn shipped(name: &str) -> String {
    crate::support::shipped("hakkaa", name)
}

#[test]
fn fire_and_charge_line_up() {
    let b = build(&shipped("fire-or-charge.toml"));
    let names: Vec<&str> = b.courses.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "fire",
            "charge",
            "fire, then charge",
            "keep firing (up to 4 turns)",
            "charge each turn (up to 4 turns)"
        ]
    );
    let fire = &b.courses[0].1;
    for (i, (_, k)) in b.courses.iter().enumerate() {
        assert_eq!(k.space().outcomes(), fire.space().outcomes());
        for m in fire.space().measures() {
            // The Fire Table result is reported by the courses with one
            // `fire` step ("fire", "fire, then charge"), the key measures
            // by every course.
            let reports = m.name != "fire-result" || i == 0 || i == 2;
            assert_eq!(
                k.space().measure_index(&m.name).is_some(),
                reports,
                "{}",
                m.name
            );
        }
    }
    assert!(
        b.courses[1]
            .1
            .space()
            .measure_index("close-combats")
            .is_some()
    );
    assert!(b.courses[3].1.space().measure_index("turns").is_some());
    // A volley of the Trained Swedes (4 FP) never routs the Green
    // musketeers; a charge can.
    assert_eq!(outcome(b.courses[0].1.as_ref(), "target-fled"), 0.0);
    assert!(outcome(b.courses[1].1.as_ref(), "target-fled") > 0.05);
    // Firing first disorders the musketeers, so the charge's reaction
    // "(d)" makes them flee far more often.
    assert!(
        outcome(b.courses[2].1.as_ref(), "target-fled")
            > 3.0 * outcome(b.courses[1].1.as_ref(), "target-fled")
    );
}

#[test]
fn gallop_and_trot_differ() {
    let b = build(&shipped("cuirassiers-charge-green-shot.toml"));
    let (g, t) = (&b.courses[0].1, &b.courses[1].1);
    // The shot flees only on its reaction DF (3/36) at either pace, once
    // the Veteran HBC goes in (A_R, A, A: 35/36).
    for (pace, k) in [("gallop", g), ("trot", t)] {
        assert_figures(
            pace,
            k.as_ref(),
            &[O("target-fled", 35.0 / 36.0 * 3.0 / 36.0)],
        );
    }
    // At a trot it fires at full Fire Points on an S, so the cuirassiers
    // take more: their status is worse on average.
    assert!(mean(t.as_ref(), "own-morale") > mean(g.as_ref(), "own-morale"));
    assert!(mean(g.as_ref(), "close-combats") > mean(t.as_ref(), "close-combats"));
}

#[test]
fn musketeers_on_pike_by_hand() {
    // The first course of the shipped scenario, worked in hakkaa_fire.rs.
    let b = build(&shipped("musketeers-vs-pike.toml"));
    let k = &b.courses[0].1;
    assert_figures(
        "one volley",
        k.as_ref(),
        &[
            O("target-steady", 578.0 / 1296.0),
            O("target-disordered", 555.0 / 1296.0),
            O("target-fell-back", 163.0 / 1296.0),
        ],
    );
    let e = &b.courses[2].1;
    assert_eq!(
        e.space()
            .measure_index("turns")
            .map(|m| e.space().measures()[m].max),
        Some(6)
    );
}

#[test]
fn engagements_agree_with_monte_carlo() {
    let t = doc(
        "[units.a]\ntype = \"hbc\"\ntq = \"veteran\"\nsteps = 2\ncommander = \"commander\"\n\n\
         [units.b]\ntype = \"mi\"\ntq = \"green\"\nsteps = 2\nfp_per_step = 2\n",
        "[[course]]\nname = \"charges\"\nrepeat = { turns = 3, until = [\"target-fled\", \"own-fell-back\"] }\nsteps = [{ procedure = \"charge\", charger = \"a\", target = \"b\", pace = \"trot\" }]\n\
         [[course]]\nname = \"fire then melee\"\nrepeat = { turns = 2 }\nsteps = [\n  { procedure = \"fire\", firer = \"b\", target = \"a\" },\n  { procedure = \"close-combat\", attacker = \"a\", defender = \"b\" },\n]\n",
    );
    monte_carlo_matches_exact(&t, 0xe9_0001);
}

#[test]
fn cli_runs_fire_or_charge_with_plots() {
    let dir = tempfile::tempdir().unwrap();
    pikeshot_ok(&[
        "run",
        "scenarios/hakkaa/fire-or-charge.toml",
        "--exact",
        "--trials",
        "20000",
        "-q",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    let csv = std::fs::read_to_string(dir.path().join("outcomes.csv")).unwrap();
    for course in ["fire", "charge", "\"fire, then charge\""] {
        assert!(
            csv.lines()
                .any(|l| l.contains(&format!(",{course},target-fled,"))),
            "{course}"
        );
    }
    assert!(dir.path().join("fire.png").exists());
    assert!(dir.path().join("charge.svg").exists());
    let o = pikeshot(&["tables", "hakkaa", "--edition", "sfo"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no editions"));
}

// ---------------------------------------------------------------- bad input

#[test]
fn bad_courses_are_located() {
    let fire = "{ procedure = \"fire\", firer = \"a\", target = \"b\" }";
    // (the course's keys before its steps, the key the error names, what
    // its line holds, what the error says)
    let refused = [
        (
            "repeat = { until = [\"target-fled\"] }",
            "course[0].repeat.turns",
            "repeat",
            "missing key `turns`",
        ),
        (
            "repeat = { turns = 2, until = [\"target-flees\"] }",
            "course[0].repeat.until",
            "repeat",
            "unknown stop condition",
        ),
        (
            "enemy = \"bb\"",
            "course[0].enemy",
            "enemy",
            "no unit named \"bb\"",
        ),
        (
            "repeat = { turns = 0 }",
            "course[0].repeat.turns",
            "repeat",
            "from 1 to 30",
        ),
        // The old spellings are refused, naming the new one.
        (
            "turns = 2",
            "course[0].turns",
            "turns",
            "write `repeat = { turns = N, until = [...] }` instead",
        ),
        (
            "stop_when = [\"target-fled\"]",
            "course[0].stop_when",
            "stop_when",
            "write `repeat = { turns = N, until = [...] }` instead",
        ),
    ];
    let errors: Vec<_> = refused
        .iter()
        .map(|&(keys, key, line, says)| {
            let t = doc(
                UNITS,
                &format!("[[course]]\nname = \"c\"\n{keys}\nsteps = [{fire}]\n"),
            );
            assert_error(&t, key, "[[course]]", line, says)
        })
        .collect();
    // The misspelt stop condition and the unknown enemy say what was meant.
    assert_eq!(errors[1].suggestion.as_deref(), Some("target-fled"));
    assert_eq!(errors[2].accepted.as_deref(), Some("a, b"));
    let t = doc(
        UNITS,
        &format!(
            "[[course]]\nname = \"c\"\nsteps = [\n  {fire},\n  {{ procedure = \"tq-test\", unit = \"b\" }},\n]\n"
        ),
    );
    assert_error(
        &t,
        "course[0].steps[1].procedure",
        "[[course]]",
        "{ procedure = \"tq-test\"",
        "give each a course of its own",
    );
    let t = doc(
        UNITS,
        &format!(
            "[[course]]\nname = \"c\"\nsteps = [{fire}]\n[[course]]\nname = \"c\"\nsteps = [{fire}]\n"
        ),
    );
    let e = error(&t);
    assert_eq!(e.key.as_deref(), Some("course[1].name"));
    let second = t
        .lines()
        .enumerate()
        .filter(|(_, l)| *l == "name = \"c\"")
        .nth(1)
        .unwrap()
        .0
        + 1;
    assert_eq!(e.line, Some(second));
    assert!(e.to_string().contains("two courses are named"), "{e}");
    // In a course of several steps, what no state changes is still checked.
    let t = doc(
        UNITS,
        "[[course]]\nname = \"c\"\nsteps = [\n  { procedure = \"fire\", firer = \"b\", target = \"a\" },\n  { procedure = \"fleeing\", unit = \"b\" },\n]\n",
    );
    assert_error(
        &t,
        "course[0].steps[0].firer",
        "[[course]]",
        "{ procedure = \"fire\"",
        "b has no Fire Points",
    );
    let e = error(&doc(UNITS, ""));
    assert_eq!(e.key.as_deref(), Some("course"));
    assert!(e.to_string().contains("at least one course"), "{e}");
}
