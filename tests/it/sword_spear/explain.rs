//! `pikeshot explain` of Sword & Spear: each side's combat dice line by
//! line with the card line behind it, armour and protection with their
//! clamp, the Discipline a test needs term by term, results equal to the
//! exact run; the readings as `[rules]` keys (the old step spelling refused,
//! located) changing the figures as the card and docs/rules say.

use serde_json::Value;

use crate::support::assert_close;
use crate::support::cli::{code, pikeshot, pikeshot_ok, stderr, stdout};
use crate::support::course::{course, measure, outcome};
use crate::support::explain::{explained, json};
use crate::support::located::{assert_located, key_line};
use crate::support::scenario::{exact, input_error, prepare};
use pikeshot::explain::{self, ExplainRequest};
use pikeshot::stats;

/// The line of `lines` labelled `label`.
#[track_caller]
fn labelled<'a>(lines: &'a Value, label: &str) -> &'a Value {
    lines
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["label"] == label)
        .unwrap_or_else(|| panic!("no line {label} in {lines}"))
}

/// A scenario of `units` and one course "c" of `steps`, with `top` keys
/// (e.g. a `[rules]` table) before the units.
fn doc(top: &str, units: &str, steps: &str) -> String {
    format!(
        "name = \"t\"\nsystem = \"sword-and-spear\"\n{top}\n{units}\n[[course]]\nname = \"c\"\nsteps = [\n  {steps}\n]\n"
    )
}

#[test]
fn a_melee_counts_each_sides_dice_line_by_line_with_the_card_lines() {
    let file = "scenarios/sword-and-spear/heavy-foot-vs-cavalry.toml";
    let name = "charge advancing spears (cavalry with impetus)";
    let v = json(&[file, "--course", name]);
    let c = &v["variants"][0]["courses"][0];
    let step = &c["steps"][0];
    assert_eq!(step["title"], "step 1: melee (knights against spears)");
    let roll = &step["cases"][0]["roll"];
    let [knights, spears] = [&roll["sides"][0], &roll["sides"][1]];
    assert_eq!(knights["side"], "knights (attacker)");
    // Knights: strength 3, and two impetus dice as fresh cavalry (Melee
    // Combat Dice 1): 5 dice.
    let s = labelled(&knights["lines"], "strength 3");
    assert_eq!(
        (s["dice"].as_i64(), s["applied"].as_bool()),
        (Some(3), Some(true))
    );
    assert_eq!(s["source"]["kind"], "unit");
    let i = labelled(
        &knights["lines"],
        "impetus (fresh large unit, cavalry or large beasts)",
    );
    assert_eq!(
        (i["dice"].as_i64(), i["rule"].as_str()),
        (Some(2), Some("Melee Combat Dice 1"))
    );
    assert_eq!(i["source"]["detail"], "knights: fresh cavalry");
    assert_eq!(knights["total"], 5);
    // Spears moved this phase against fresh cavalry with impetus: the
    // card's second "no impetus" condition; 4 dice.
    let no = labelled(&spears["lines"], "no impetus: moved-foot-vs-fresh-mounted");
    assert_eq!(no["applied"], false);
    assert!(
        no["source"]["detail"]
            .as_str()
            .unwrap()
            .starts_with("2. \"Is foot who have moved this phase"),
        "{no}"
    );
    assert_eq!(spears["total"], 4);
    // Effect of Armour: heavily armoured −2, armoured −1, each from the unit.
    let k = &knights["dice_modifiers"][0];
    assert_eq!(
        (k["value"].as_i64(), k["rule"].as_str()),
        (Some(-2), Some("Effect of Armour"))
    );
    assert_eq!(
        k["source"]["detail"],
        "knights: armour = \"heavily-armoured\""
    );
    assert_eq!(spears["dice_modifiers"][0]["value"], -1);
    // The Discipline each side tests against.
    assert_eq!(
        (
            knights["test_total"].as_i64(),
            spears["test_total"].as_i64()
        ),
        (Some(3), Some(4))
    );
    // The results are `run --method exact`'s.
    let k = crate::support::scenario::course(
        pikeshot::run::prepare(std::path::Path::new(file), &Default::default()).unwrap(),
        name,
    );
    let probs = stats::outcome_probs(k.space(), &exact(k.as_ref()));
    for (r, p) in step["results"].as_array().unwrap().iter().zip(&probs) {
        assert_close(r["p"].as_f64().unwrap(), *p);
    }
    // The text shows the count building up per side.
    let text = stdout(&pikeshot_ok(&["explain", file, "--course", name]));
    for line in [
        "knights (attacker): 5 dice",
        "+3  strength 3 (Melee Combat Dice (base)) — unit: knights: strength = 3  (= 3)",
        "+2  impetus (fresh large unit, cavalry or large beasts) (Melee Combat Dice 1) — unit: knights: fresh cavalry  (= 5)",
        "spears (defender): 4 dice",
        "-2  heavily-armoured: lowers one of spears' winning dice by up to 2 (Effect of Armour)",
    ] {
        assert!(text.contains(line), "`{line}` not in:\n{text}");
    }
}

#[test]
fn a_volley_sums_the_targets_protection_and_the_clamp_says_what_it_cost() {
    // Longbow at heavily armoured foot: one level less (armoured), 2 of 3.
    let v = json(&[
        "scenarios/sword-and-spear/longbow-vs-heavily-armoured.toml",
        "--course",
        "one volley at 5 DU",
    ]);
    let roll = &v["variants"][0]["courses"][0]["steps"][0]["cases"][0]["roll"];
    let a = labelled(&roll["modifiers"], "armour: heavily-armoured");
    assert_eq!(
        (a["value"].as_i64(), a["source"]["kind"].as_str()),
        (Some(3), Some("unit"))
    );
    let l = labelled(
        &roll["modifiers"],
        "Longbow: armoured or heavily armoured target one level less",
    );
    assert_eq!(
        (l["value"].as_i64(), l["rule"].as_str()),
        (Some(-1), Some("Shooting Weapons"))
    );
    assert_eq!(roll["final_total"], 2);
    assert_eq!(roll["limit"]["lost"], 0);
    assert_eq!(roll["sides"][1]["dice_modifiers"][0]["value"], -1);
    // A bow at heavily armoured foot in two levels of cover: 3 + 2, held to
    // heavily armoured (3): 2 of the +5 lost.
    let units = "[units.archers]\ntroop = \"medium-foot\"\ndiscipline = 3\nstrength = 4\nweapon = \"bow\"\n\n[units.men]\ntroop = \"heavy-foot\"\ndiscipline = 3\nstrength = 4\narmour = \"heavily-armoured\"\n";
    let e = explained(&doc(
        "",
        units,
        "{ procedure = \"shooting\", firer = \"archers\", target = \"men\", range = 4, cover = true, cover_levels = 2 },",
    ));
    let r = &e.variants[0].courses[0].steps[0].cases[0].roll;
    let cover = r
        .modifiers
        .iter()
        .find(|t| t.label == "in cover: better protection")
        .unwrap();
    assert_eq!(
        (cover.value, cover.source.detail.as_str()),
        (2, "cover = true")
    );
    assert_eq!((r.raw_total, r.final_total), (5, 3));
    assert_eq!(r.limit.as_ref().unwrap().lost, 2);
}

#[test]
fn a_discipline_test_builds_its_discipline_and_keeps_the_exempt_adjustment() {
    // Light foot of Discipline 4 with its captain (−1) in difficult terrain
    // (+1, but light foot are exempt: footnote **): tests against 3, so a
    // test fails on 1-2, and with 1 hit of strength 2 it routs 1/3.
    let t = doc(
        "",
        "[units.skirmishers]\ntroop = \"light-foot\"\ndiscipline = 4\nstrength = 2\nhits = 1\ncommander = \"captain\"\nterrain = \"difficult\"\n",
        "{ procedure = \"discipline-test\", unit = \"skirmishers\" },",
    );
    let e = explained(&t);
    let step = &e.variants[0].courses[0].steps[0];
    let r = &step.cases[0].roll;
    let labels: Vec<(&str, i32, bool)> = r
        .modifiers
        .iter()
        .map(|m| (m.label.as_str(), m.value, m.applied))
        .collect();
    assert_eq!(
        labels,
        [
            ("Discipline (printed)", 4, true),
            ("Commander with Unit", -1, true),
            ("In difficult terrain", 1, false),
        ]
    );
    assert!(
        r.modifiers[2]
            .note
            .as_ref()
            .unwrap()
            .contains("footnote **")
    );
    assert_eq!(r.final_total, 3);
    assert_eq!(r.faces[0].faces, "1-2");
    assert_eq!(r.faces[0].result, "fails: 1 hit");
    let routs = step.results.iter().find(|x| x.id == "routs").unwrap().p;
    assert_close(routs, 1.0 / 3.0);
    assert_close(routs, outcome(course(&t, "c").as_ref(), "routs"));
}

const DUEL: &str = "[units.horse]\ntroop = \"cavalry\"\ndiscipline = 3\nstrength = 4\n\n[units.foot]\ntroop = \"medium-foot\"\ndiscipline = 4\nstrength = 1\ncommander = \"captain\"\n";

#[test]
fn a_reading_on_a_step_is_refused_naming_the_rules_key() {
    for (key, value) in [
        ("dice_from", "\"full-strength\""),
        ("unpaired", "\"hits\""),
        ("armour_choice", "\"literal\""),
        ("commander_risk", "\"rout-only\""),
        ("mounted_pursue", "false"),
        ("bonus_needs_impetus", "false"),
    ] {
        let t = doc(
            "",
            DUEL,
            &format!(
                "{{ procedure = \"melee\", attacker = \"horse\", defender = \"foot\",\n    {key} = {value} }},"
            ),
        );
        let e = input_error("s.toml", &t);
        assert_located(
            &e,
            Some("s.toml"),
            &format!("course[0].steps[0].{key}"),
            key_line(&t, key),
            &format!("write it in the `[rules]` table (`[rules]\n{key} = ...`"),
        );
        // The same key in `[rules]` is accepted.
        prepare(
            "s.toml",
            &doc(
                &format!("[rules]\n{key} = {value}\n"),
                DUEL,
                "{ procedure = \"melee\", attacker = \"horse\", defender = \"foot\" },",
            ),
        );
    }
    // On the command line: exit 2, the file, line and key named.
    let dir = std::env::temp_dir().join(format!("pikeshot-sns-explain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("old.toml");
    let t = doc(
        "",
        DUEL,
        "{ procedure = \"shooting\", firer = \"horse\", target = \"foot\", dice_from = \"full-strength\" },",
    );
    std::fs::write(&path, &t).unwrap();
    let o = pikeshot(&["explain", path.to_str().unwrap()]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("old.toml"), "{err}");
    assert!(err.contains("course[0].steps[0].dice_from"), "{err}");
    assert!(err.contains("[rules]"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn rules_readings_change_the_figures_as_the_card_says() {
    // Horse (4 dice, no impetus) against foot of strength 1 with a captain.
    // With `unpaired = "hits"` the horse's three dice with no opposing die
    // each hit: the foot always routs, the horse (strength 4, at most one
    // hit from the one pair) never. Its captain dies on 5+ (routed, pursued
    // by mounted: 2/6), or on 6 with `mounted_pursue = false` (1/6).
    let step = "{ procedure = \"melee\", attacker = \"horse\", defender = \"foot\", attacker_impetus = false, defender_impetus = false },";
    for (rules, killed) in [
        ("[rules]\nunpaired = \"hits\"\n", 2.0 / 6.0),
        (
            "[rules]\nunpaired = \"hits\"\nmounted_pursue = false\n",
            1.0 / 6.0,
        ),
    ] {
        let k = course(&doc(rules, DUEL, step), "c");
        assert_close(outcome(k.as_ref(), "defender-routs"), 1.0);
        assert_close(measure(k.as_ref(), "foot-commander-lost")[1], killed);
    }
    // Ignored (the default), the foot routs only when the one pair hurts it.
    let k = course(&doc("", DUEL, step), "c");
    assert!(outcome(k.as_ref(), "defender-routs") < 1.0);
    // `dice_from = "full-strength"`: a unit's hits no longer take dice away,
    // and the explanation says which reading kept them.
    let units = "[units.a]\ntroop = \"medium-foot\"\ndiscipline = 3\nstrength = 3\nhits = 1\nweapon = \"bow\"\n\n[units.b]\ntroop = \"medium-foot\"\ndiscipline = 4\nstrength = 3\n";
    let shot = "{ procedure = \"shooting\", firer = \"a\", target = \"b\", range = 3 },";
    for (rules, dice, applied) in [
        ("", 2, true),
        ("[rules]\ndice_from = \"full-strength\"\n", 3, false),
    ] {
        let e = explained(&doc(rules, units, shot));
        let side = &e.variants[0].courses[0].steps[0].cases[0].roll.sides[0];
        assert_eq!(side.total, dice, "{rules}");
        let hits = side.lines.iter().find(|l| l.label == "1 hits").unwrap();
        assert_eq!(hits.applied, applied, "{rules}");
        assert!(
            hits.note.as_ref().unwrap().contains("[rules] dice_from"),
            "{rules}"
        );
    }
    // `bonus_needs_impetus = false`: bonus dice kept without impetus.
    let step = "{ procedure = \"melee\", attacker = \"horse\", defender = \"foot\", attacker_impetus = false, attacker_bonus_dice = 2 },";
    for (rules, dice) in [("", 4), ("[rules]\nbonus_needs_impetus = false\n", 6)] {
        let e = explained(&doc(rules, DUEL, step));
        let side = &e.variants[0].courses[0].steps[0].cases[0].roll.sides[0];
        assert_eq!(side.total, dice, "{rules}");
    }
}

#[test]
fn a_repeated_melee_names_its_rounds_and_what_goes_on() {
    let file = "scenarios/sword-and-spear/heavy-foot-vs-cavalry.toml";
    let name = "fight it out against standing spears";
    let e = explain::explain_path(
        std::path::Path::new(file),
        &ExplainRequest {
            courses: vec![name.into()],
            ..ExplainRequest::default()
        },
    )
    .unwrap();
    let c = &e.variants[0].courses[0];
    assert_eq!(
        c.steps[0].title,
        "turn 1, step 1: melee round 1 (knights against spears)"
    );
    let two = &c.steps[1];
    assert_eq!(
        two.title,
        "turn 2, step 1: melee round 2 (a later round) (knights against spears)"
    );
    // The first round's results trigger the second round where nobody
    // routed; it has no impetus ([rules] later_rounds_impetus = false).
    let t = &c.steps[0].cases[0].triggers;
    assert!(
        t.iter().any(|t| t.on == "neither routs"
            && t.roll.starts_with("round 2 of the melee")
            && t.roll.contains("later_rounds_impetus = false")),
        "{t:?}"
    );
    let knights = &two.cases[0].roll.sides[0];
    let imp = knights
        .lines
        .iter()
        .find(|l| l.label == "impetus: none in a later round")
        .unwrap();
    assert!(!imp.applied);
    assert_eq!(imp.source.detail, "later_rounds_impetus = false");
    // Round 2 is rolled exactly as often as round 1 ends with nobody routed.
    let first = c.steps[0]
        .results
        .iter()
        .find(|r| r.id == "neither-routs")
        .unwrap();
    assert_close(two.p_reached, first.p);
}

#[test]
fn every_shipped_scenario_explains_in_text_and_json() {
    let dir = std::path::Path::new("scenarios/sword-and-spear");
    let mut n = 0;
    for f in std::fs::read_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir)).unwrap()
    {
        let p = f.unwrap().path();
        if p.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let rel = dir.join(p.file_name().unwrap());
        let rel = rel.to_str().unwrap();
        let text = stdout(&pikeshot_ok(&["explain", rel]));
        assert!(text.contains("course \""), "{rel}");
        let v = json(&[rel]);
        assert_eq!(v["system"], "sword-and-spear", "{rel}");
        n += 1;
    }
    assert_eq!(n, 5);
}
