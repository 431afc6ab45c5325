//! `[[decision]]`: the best plan by backward induction over the states the
//! course machines reach (`engine::decide`), checked against the courses
//! that always take one option, against its own plan in words, and against
//! the plan played by the options' procedures on seeded dice.

use pikeshot::engine::decide::summary::Decided;
use pikeshot::run::decide::decide_file;
use pikeshot::scenario::ScenarioFile;

use crate::support::cli::{pikeshot_exits, temp_out};
use crate::support::course::{course, outcome};
use crate::support::shipped_files;

/// The shipped Hakkaa Päälle fire-or-charge units, a course that always
/// fires and one that always charges for `turns` turns, and the decision
/// between the two over the same turns, making the imperialists flee (or
/// be eliminated) most likely.
fn fire_or_charge(turns: u8) -> String {
    format!(
        r#"
system = "hakkaa"

[units.swedes]
type = "ai"
tq = "trained"
steps = 4
fp_per_step = 1
commander = "general"
cc_value = 3

[units.imperialists]
type = "mi"
tq = "green"
steps = 4
fp_per_step = 1
cc_value = 2

[[course]]
name = "keep firing"
repeat = {{ turns = {turns} }}
steps = [{{ procedure = "fire", firer = "swedes", target = "imperialists" }}]

[[course]]
name = "keep charging"
repeat = {{ turns = {turns} }}
steps = [{{ procedure = "charge", charger = "swedes", target = "imperialists" }}]

[[decision]]
name = "fire or charge"
own = "swedes"
enemy = "imperialists"
repeat = {{ turns = {turns} }}
objective = {{ most = ["target-fled", "target-eliminated"] }}

[[decision.option]]
name = "fire"
steps = [{{ procedure = "fire", firer = "swedes", target = "imperialists" }}]

[[decision.option]]
name = "charge"
steps = [{{ procedure = "charge", charger = "swedes", target = "imperialists" }}]
"#
    )
}

/// The one decision of scenario text `text`.
fn decided(text: &str) -> Decided {
    let file = ScenarioFile::from_str("s.toml", text).unwrap_or_else(|e| panic!("{e}"));
    let mut d = decide_file(file, &Default::default()).unwrap_or_else(|e| panic!("{e}"));
    d.variants.remove(0).decisions.remove(0)
}

/// P(the imperialists fled or were eliminated) of course `name` of `text`,
/// exact, through the run path.
fn broken(text: &str, name: &str) -> f64 {
    let k = course(text, name);
    outcome(k.as_ref(), "target-fled") + outcome(k.as_ref(), "target-eliminated")
}

/// "Always X" is the course of X repeated: the same states, the same exact
/// probability.
#[test]
fn always_an_option_is_the_course_of_that_option() {
    for turns in [1, 3] {
        let text = fire_or_charge(turns);
        let d = decided(&text);
        assert_eq!(d.options, ["fire", "charge"]);
        for (k, course) in ["keep firing", "keep charging"].iter().enumerate() {
            let want = broken(&text, course);
            assert!(
                (d.always[k] - want).abs() < 1e-12,
                "{turns} turns, always {}: {} against the course's {want}",
                d.options[k],
                d.always[k]
            );
        }
    }
}

/// A one-turn decision is the better of its single options, and its plan
/// in words is "always" that option, losing nothing.
#[test]
fn a_one_turn_decision_is_the_best_single_option() {
    let d = decided(&fire_or_charge(1));
    let best = d.always.iter().copied().fold(f64::MIN, f64::max);
    assert!((d.value - best).abs() < 1e-12, "{} against {best}", d.value);
    assert_eq!(d.choices.len(), 1, "one state to choose in");
    assert!(d.rule.starts_with("always "), "{}", d.rule);
    assert!(d.rule_loss < 1e-12);
}

/// Over several turns the best plan is at least every "always X", and at
/// least its own plan in words, whose loss is exactly the difference.
#[test]
fn the_best_plan_is_at_least_every_fixed_plan() {
    for turns in [2, 4] {
        let d = decided(&fire_or_charge(turns));
        for (o, v) in d.options.iter().zip(&d.always) {
            assert!(d.value >= v - 1e-12, "always {o} {v} beats {}", d.value);
        }
        assert!(d.rule_value <= d.value + 1e-12);
        assert!((d.value - d.rule_value - d.rule_loss).abs() < 1e-12);
    }
}

/// Every choice's best option is the one of largest value there, and the
/// states of the first turn are reached with probability 1.
#[test]
fn each_state_picks_its_best_option() {
    let d = decided(&fire_or_charge(4));
    for c in &d.choices {
        let k = d.options.iter().position(|o| *o == c.best).unwrap();
        let most = c.values.iter().copied().fold(f64::MIN, f64::max);
        assert_eq!(c.values[k], most, "{c:?}");
    }
    let first: f64 = d
        .choices
        .iter()
        .filter(|c| c.turn == 1)
        .map(|c| c.reach)
        .sum();
    assert!((first - 1.0).abs() < 1e-12);
    assert!(d.choices.iter().any(|c| c.turn == 4));
}

/// The best plan of every shipped decision, played as a table of state →
/// option by the options' own procedures on seeded dice, lies within 4
/// standard errors of its exact value.
#[test]
fn every_shipped_decision_agrees_with_monte_carlo() {
    let mut seen = 0;
    for path in shipped_files("") {
        let text = std::fs::read_to_string(&path).unwrap();
        if !text.contains("[[decision]]") {
            continue;
        }
        let ds = pikeshot::run::decide::decide_path(&path, &Default::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for d in ds.variants.iter().flat_map(|v| &v.decisions) {
            seen += 1;
            assert!(d.check.trials >= 10_000);
            let z = d.check.deviations(d.value);
            assert!(
                z < 4.0,
                "{}: {} {z} standard errors off",
                path.display(),
                d.name
            );
        }
    }
    assert!(seen > 0, "a shipped scenario has a decision");
}

/// `decide --out` writes each decision's policy.csv (a row per state where
/// the own side chooses) and decisions.json; the terminal says the values.
#[test]
fn decide_writes_the_policy_and_json() {
    let out = temp_out();
    let path = out.write("s.toml", &fire_or_charge(3));
    let dir = out.beside("decided");
    let o = crate::support::cli::pikeshot_ok(&[
        "decide",
        path.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    let text = crate::support::cli::stdout(&o);
    assert!(text.contains("best plan"), "{text}");
    assert!(text.contains("always fire"), "{text}");
    assert!(text.contains("plan in words"), "{text}");
    let csv = std::fs::read_to_string(dir.join("fire-or-charge/policy.csv")).unwrap();
    let d = decided(&fire_or_charge(3));
    assert_eq!(csv.lines().count(), 1 + d.choices.len());
    assert!(
        csv.starts_with("swedes status,swedes steps,imperialists status,imperialists steps,turn,reach,best,value fire,value charge\n"),
        "{csv}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("decisions.json")).unwrap())
            .unwrap();
    assert_eq!(
        json["variants"][0]["decisions"][0]["choices"]
            .as_array()
            .unwrap()
            .len(),
        d.choices.len()
    );
}

/// Bad decisions are refused with the file, line and key, exit code 2.
#[test]
fn bad_decisions_are_located() {
    let out = temp_out();
    let good = fire_or_charge(2);
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "objective = { most = [\"target-fled\", \"target-eliminated\"] }",
            "objective = { most = \"target-routed\" }",
            &[
                "no outcome \"target-routed\"",
                "decision[0].objective",
                "bad0.toml:34:",
            ],
        ),
        (
            "objective = { most = [\"target-fled\", \"target-eliminated\"] }",
            "",
            &["missing key `objective`", "decision[0]"],
        ),
        (
            "repeat = { turns = 2 }\nobjective",
            "repeat = { turns = 2, until = [\"target-gone\"] }\nobjective",
            &[
                "unknown stop condition \"target-gone\"",
                "decision[0].repeat.until",
            ],
        ),
        (
            "own = \"swedes\"",
            "own = \"sweden\"",
            &["no unit named \"sweden\"", "decision[0].own"],
        ),
    ];
    for (i, (from, to, says)) in cases.iter().enumerate() {
        assert!(good.contains(from), "{from}");
        let path = out.write(&format!("bad{i}.toml"), &good.replacen(from, to, 1));
        pikeshot_exits(&["decide", path.to_str().unwrap()], 2, says);
    }
    // A scenario without a decision says what to add.
    pikeshot_exits(
        &["decide", "scenarios/hakkaa/musketeers-vs-pike.toml"],
        2,
        &["no `[[decision]]`"],
    );
}

/// A Musket & Pike decision whose options share a step after them (the
/// tercio's fire): "always X" over `turns` turns is the course of X then
/// that step, repeated, with the same stop conditions.
fn salvo_or_charge(turns: u8) -> String {
    let charge = r#"{ procedure = "close-combat", attacker = "swedes", defender = "tercio", momentum = true }"#;
    let fire =
        r#"{ procedure = "musketry", firer = "swedes", target = "tercio", column = "front" }"#;
    let back =
        r#"{ procedure = "musketry", firer = "tercio", target = "swedes", column = "front" }"#;
    let repeat = format!(r#"{{ turns = {turns}, until = ["enemy-broken", "own-broken"] }}"#);
    format!(
        r#"
system = "mpbs"
edition = "series"

[units.swedes]
kind = "heavy-infantry"
morale = 7
strength = 6
regimental_artillery = true
order = "charge"

[units.tercio]
kind = "heavy-infantry"
morale = 6
strength = 10
hexes = 2
terrain = "clear"

[[course]]
name = "always fire"
own = "swedes"
enemy = "tercio"
repeat = {repeat}
steps = [{fire}, {back}]

[[course]]
name = "always charge"
own = "swedes"
enemy = "tercio"
repeat = {repeat}
steps = [{charge}, {back}]

[[decision]]
name = "fire or charge"
own = "swedes"
enemy = "tercio"
repeat = {repeat}
objective = {{ most_expected = "enemy-morale" }}
after = [{back}]

[[decision.option]]
name = "fire"
steps = [{fire}]

[[decision.option]]
name = "charge"
steps = [{charge}]
"#
    )
}

/// The expectation of measure `name` of course `course` of `text`, exact.
fn expected(text: &str, course_name: &str, name: &str) -> f64 {
    let k = course(text, course_name);
    let m = k
        .space()
        .measures()
        .iter()
        .find(|m| m.name == name)
        .unwrap()
        .min;
    crate::support::course::measure(k.as_ref(), name)
        .iter()
        .enumerate()
        .map(|(i, p)| (m + i as i32) as f64 * p)
        .sum()
}

/// Musket & Pike, through its own course machine: "always X" equals the
/// course of X with the shared step after it, and the best plan is at
/// least both; over one turn it is the better of the two.
#[test]
fn musket_and_pike_options_are_their_courses() {
    for turns in [1, 3] {
        let text = salvo_or_charge(turns);
        let d = decided(&text);
        for (k, c) in ["always fire", "always charge"].iter().enumerate() {
            let want = expected(&text, c, "enemy-morale");
            assert!(
                (d.always[k] - want).abs() < 1e-9,
                "{turns} turns, {c}: {} against {want}",
                d.always[k]
            );
            assert!(d.value >= d.always[k] - 1e-12);
        }
        if turns == 1 {
            assert!((d.value - d.always[0].max(d.always[1])).abs() < 1e-12);
        }
    }
}

/// Snaphance: a disordered shot stand of 2 SP (class B, no leader) facing a
/// pike stand of 4 SP in the open, two turns, each turn "fire" or "rally"
/// (an order test to recover from disorder), making the pikes lose the
/// most SP.
fn fire_or_rally() -> &'static str {
    r#"
system = "snaphance"

[units.shot]
kind = "shot"
strength = 2
class = "B"
disordered = true

[units.pikes]
kind = "pike"
strength = 4

[[decision]]
name = "fire or rally"
own = "shot"
enemy = "pikes"
repeat = { turns = 2 }
objective = { most_expected = "hits-inflicted" }

[[decision.option]]
name = "fire"
steps = [{ procedure = "fire", firer = "shot", target = "pikes" }]

[[decision.option]]
name = "rally"
steps = [{ procedure = "order-test", unit = "shot", purpose = "recover" }]
"#
}

/// The two-turn Snaphance decision of [`fire_or_rally`], worked from the
/// summary sheets (docs/rules/snaphance.md sections 3, 5 and 6):
///
/// Fire throws 1D6 per SP, −1D6 disordered: 2 dice in order, 1 disordered.
/// A hit is a 6 or a pair of 5s. 1 die: P(1 hit) = 1/6. 2 dice (36 rolls):
/// 6-6 two hits (1 roll), one 6 (10 rolls) or 5-5 (1 roll) one hit, so
/// P(1 hit) = 11/36, P(2 hits) = 1/36. A hit pikes stand tests on 1D6
/// against 4 − SP lost − hits: a 1 passes, a 6 fails, else fail above the
/// morale; P(fail) at morale 3 = 3/6, at 2 = 4/6, at 1 = 5/6. Fire loses at
/// most 1 SP. The order test (class B, no leader) passes on 4+: 1/2.
///
/// Turn 2 (the last; "rally" inflicts nothing, so fire is best everywhere;
/// the solver's values there add the 1 SP already lost where it was):
/// - shot disordered, pikes 0 lost: fire 1/6 · 3/6 = 1/12 = 18/216.
/// - shot disordered, pikes 1 lost: fire 1/6 · 4/6 = 1/9 = 24/216.
/// - shot in order, pikes 0 lost: fire 11/36 · 3/6 + 1/36 · 4/6
///   = 33/216 + 4/216 = 37/216.
///
/// Turn 1 (shot disordered, pikes 0 lost):
/// - fire: 1/12 now; the pikes lost 1 with 1/12, the shot stays disordered:
///   18/216 + 1/12 · 24/216 + 11/12 · 18/216 = (216 + 24 + 198)/2592
///   = 438/2592 = 73/432.
/// - rally: 1/2 · 37/216 + 1/2 · 18/216 = 55/432.
///
/// So the best plan fires now and again, 73/432 ≈ 0.16898; always rally is
/// 0; always fire is the best plan.
#[test]
fn a_two_turn_snaphance_decision_worked_by_hand() {
    let d = decided(fire_or_rally());
    assert_eq!(d.options, ["fire", "rally"]);
    assert!((d.value - 73.0 / 432.0).abs() < 1e-12, "{}", d.value);
    assert!((d.always[0] - 73.0 / 432.0).abs() < 1e-12, "{:?}", d.always);
    assert!(d.always[1].abs() < 1e-12, "{:?}", d.always);
    // Features: shot SP lost, disordered, beaten; pikes SP lost,
    // disordered, beaten; turn. A value counts the SP the pikes lost so
    // far; the solver may keep states apart that these features do not
    // tell apart (a hit the pikes passed against no hit), so the rows of
    // one feature state are checked each and their reach summed.
    let rows = |turn: &str, shot_dis: &str, pikes_lost: &str| {
        let rows: Vec<_> = d
            .choices
            .iter()
            .filter(|c| {
                c.features[6] == turn && c.features[1] == shot_dis && c.features[3] == pikes_lost
            })
            .collect();
        assert!(!rows.is_empty(), "no state {turn} {shot_dis} {pikes_lost}");
        rows
    };
    let first = rows("1", "yes", "0");
    assert_eq!(first.len(), 1);
    assert_eq!(first[0].best, "fire");
    assert!(
        (first[0].values[0] - 73.0 / 432.0).abs() < 1e-12,
        "{first:?}"
    );
    assert!(
        (first[0].values[1] - 55.0 / 432.0).abs() < 1e-12,
        "{first:?}"
    );
    assert!((first[0].reach - 1.0).abs() < 1e-12);
    for (dis, lost, fire, rally, reach) in [
        ("yes", "0", 18.0 / 216.0, 0.0, 11.0 / 12.0),
        ("yes", "1", 1.0 + 24.0 / 216.0, 1.0, 1.0 / 12.0),
        ("no", "0", 37.0 / 216.0, 0.0, 0.0),
    ] {
        let rs = rows("2", dis, lost);
        for c in &rs {
            assert_eq!(c.best, "fire", "{c:?}");
            assert!((c.values[0] - fire).abs() < 1e-12, "{c:?}: {fire}");
            assert!((c.values[1] - rally).abs() < 1e-12, "{c:?}: {rally}");
        }
        let r: f64 = rs.iter().map(|c| c.reach).sum();
        assert!(
            (r - reach).abs() < 1e-12,
            "{dis} {lost}: {r} against {reach}"
        );
    }
}

/// The scenario's own courses with the decision's units and objective
/// stand beside the best plan, each with its exact figure: here "keep
/// firing" and "keep charging" are the options always taken, so their
/// figures are the "always X" values and the courses' own exact
/// probabilities; the terminal and the JSON show them.
#[test]
fn the_scenarios_courses_stand_beside_the_best_plan() {
    let text = fire_or_charge(3);
    let d = decided(&text);
    let names: Vec<&str> = d.courses.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["keep firing", "keep charging"]);
    for (k, c) in d.courses.iter().enumerate() {
        let want = broken(&text, &c.name);
        assert!((c.value - want).abs() < 1e-12, "{c:?} against {want}");
        assert!((c.value - d.always[k]).abs() < 1e-12, "{c:?}");
        assert!(d.value >= c.value - 1e-12, "{c:?} beats {}", d.value);
    }
    // A course of other units, or without the objective's outcomes, is
    // left out: the Musket & Pike decision's courses share its measure.
    let other = text.replace(
        "name = \"keep charging\"\nrepeat",
        "name = \"keep charging\"\nown = \"imperialists\"\nenemy = \"swedes\"\nrepeat",
    );
    let other = other.replace(
        "name = \"keep firing\"\nrepeat",
        "name = \"keep firing\"\nown = \"swedes\"\nenemy = \"imperialists\"\nrepeat",
    );
    assert_ne!(other, text);
    let other = other.replace(
        "{ procedure = \"charge\", charger = \"swedes\", target = \"imperialists\" }]\n\n[[decision]]",
        "{ procedure = \"charge\", charger = \"imperialists\", target = \"swedes\" }]\n\n[[decision]]",
    );
    let names: Vec<String> = decided(&other)
        .courses
        .into_iter()
        .map(|c| c.name)
        .collect();
    assert_eq!(names, ["keep firing"]);
    let m = decided(&salvo_or_charge(2));
    assert_eq!(m.courses.len(), 2, "{:?}", m.courses);

    let out = temp_out();
    let path = out.write("s.toml", &text);
    let dir = out.beside("decided");
    let o = crate::support::cli::pikeshot_ok(&[
        "decide",
        path.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    let shown = crate::support::cli::stdout(&o);
    assert!(
        shown.contains("the scenario's courses: \"keep firing\""),
        "{shown}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("decisions.json")).unwrap())
            .unwrap();
    let courses = &json["variants"][0]["decisions"][0]["courses"];
    assert_eq!(courses[1]["name"], "keep charging");
    assert!((courses[1]["value"].as_f64().unwrap() - d.courses[1].value).abs() < 1e-12);
}
