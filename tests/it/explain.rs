//! `pikeshot explain`: each modifier with its source, the limit and what it
//! cost, faces to rows, triggered rolls, states carried between steps, and
//! result probabilities equal to the exact run's — through the CLI and the
//! public path.

mod decision;
mod hakkaa;
mod mpbs;
mod out;
mod snaphance;

use std::path::Path;

use serde_json::Value;

use crate::support::assert_close;
use crate::support::cli::{code, pikeshot, pikeshot_ok, stderr, stdout};
use crate::support::explain::{explained, json, shipped_explained};
use crate::support::scenario::exact;
use pikeshot::explain::{self, ExplainRequest, SourceKind, StepExplanation};
use pikeshot::run::{self, RunPlan};
use pikeshot::scenario::Overrides;
use pikeshot::stats;

fn modifier<'a>(roll: &'a Value, label: &str) -> &'a Value {
    roll["modifiers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["label"] == label)
        .unwrap_or_else(|| panic!("no modifier {label} in {roll}"))
}

#[test]
fn charge_now_on_the_series_card_names_each_drm_its_source_and_the_limit() {
    let v = json(&[
        "scenarios/mpbs/charge-or-salvo.toml",
        "--set",
        "edition=series",
        "--course",
        "charge now",
    ]);
    let variants = v["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 1, "--set pins the swept edition");
    assert_eq!(variants[0]["edition"], "series");
    let course = &variants[0]["courses"][0];
    assert_eq!(course["name"], "charge now");
    assert_eq!(
        (course["own"].as_str(), course["enemy"].as_str()),
        (Some("swedes"), Some("tercio"))
    );
    let step = &course["steps"][0];
    assert_eq!(step["procedure"], "close-combat");
    assert_eq!(step["rule"], "11.0");
    let roll = &step["cases"][0]["roll"];
    assert_eq!(roll["dice"], "1d10 read 0-9");
    // 11.3.3: swedes 7 against tercio 6, from the units.
    let m = modifier(roll, "morale differential (11.3.3)");
    assert_eq!(
        (m["value"].as_i64(), m["source"]["kind"].as_str()),
        (Some(1), Some("unit"))
    );
    assert!(
        m["source"]["detail"]
            .as_str()
            .unwrap()
            .contains("swedes morale 7")
    );
    // 11.3.4: 6 SP against 10 reads 1:2, -1.
    let m = modifier(roll, "strength ratio (11.3.4)");
    assert_eq!(
        (m["value"].as_i64(), m["source"]["kind"].as_str()),
        (Some(-1), Some("unit"))
    );
    // 11.3.8: Heavy Inf against Hv Inf, 0, from the card.
    let m = modifier(roll, "CC matrix (11.3.8)");
    assert_eq!(
        (m["value"].as_i64(), m["source"]["kind"].as_str()),
        (Some(0), Some("card"))
    );
    // 11.3.6: +1, set by the step's key.
    let m = modifier(roll, "heavy infantry momentum (11.3.6)");
    assert_eq!(
        (m["value"].as_i64(), m["source"]["kind"].as_str()),
        (Some(1), Some("key"))
    );
    assert_eq!(m["source"]["detail"], "momentum = true");
    // The ±4 limit of 11.0, not reached by +1.
    assert_eq!(roll["raw_total"], 1);
    assert_eq!(roll["limit"]["min"], -4);
    assert_eq!(roll["limit"]["max"], 4);
    assert_eq!(roll["limit"]["lost"], 0);
    assert_eq!(roll["final_total"], 1);
    let text = stdout(&pikeshot_ok(&[
        "explain",
        "scenarios/mpbs/charge-or-salvo.toml",
        "--set",
        "edition=series",
        "--course",
        "charge now",
    ]));
    assert!(
        text.contains("total +1; limit ±4 (11.0, Important: ±4): not reached"),
        "{text}"
    );
    assert!(
        text.contains("+1  heavy infantry momentum (11.3.6) — step key: momentum = true"),
        "{text}"
    );
}

const ALL_IN: &str = r#"
system = "mpbs"
edition = "series"

[units.brigade]
kind = "heavy-infantry"
morale = 7
strength = 6
order = "charge"

[units.horse]
kind = "arquebusier"
morale = 7
strength = 6

[[course]]
name = "all in"
steps = [{ procedure = "close-combat", attacker = "brigade", defender = "horse", momentum = true, fired_salvo = true, flank_hexes = 2 }]
"#;

#[test]
fn a_limit_that_bites_says_what_it_cost_and_the_faces_read_the_limited_total() {
    // Matrix Heavy Inf vs Arquebusier +2, flank 2 x +1, salvo +1, HI
    // momentum +1, morale 0, strength 0: +6, limited to +4 (11.0).
    let e = explained(ALL_IN);
    let step = &e.variants[0].courses[0].steps[0];
    let roll = &step.cases[0].roll;
    assert_eq!(roll.raw_total, 6);
    assert_eq!(roll.final_total, 4);
    let l = roll.limit.as_ref().unwrap();
    assert_eq!((l.min, l.max, l.lost), (-4, 4, 2));
    let text = explain::text::render(&e);
    assert!(
        text.contains("total +6, limited to +4 (11.0, Important: ±4): 2 of the +6 lost"),
        "{text}"
    );
    // Face 0 + 4 reads row 4; faces 5..9 read 9+ (the open row at the table's end).
    assert_eq!(
        (
            roll.faces[0].faces.as_str(),
            roll.faces[0].modified.as_str(),
            roll.faces[0].row.as_str()
        ),
        ("0", "4", "4")
    );
    let last = roll.faces.last().unwrap();
    assert_eq!((last.faces.as_str(), last.row.as_str()), ("5-9", "9+"));
    assert!(last.note.as_deref().unwrap().contains("table's end"));
    // Exact: rows 4, 5, 6 one face each, 7-8 two, 9+ five.
    let p = |id: &str| step.results.iter().find(|r| r.id == id).unwrap().p;
    assert_close(p("attacker-shaken-retreat-1"), 0.1);
    assert_close(p("defender-shaken-retreat-1"), 0.1);
    assert_close(p("defender-shaken-retreat-2"), 0.1);
    assert_close(p("defender-broken-retreat-2"), 0.2);
    assert_close(p("defender-eliminated"), 0.5);
    assert_close(p("attacker-broken-retreat-2"), 0.0);
}

#[test]
fn the_series_card_records_the_formation_modifier_it_does_not_apply() {
    // Two attackers, one Formation Shaken (-1) and one Formation Broken
    // (-2): the series card applies only the worst per side.
    let text = r#"
system = "mpbs"
edition = "series"

[units.a]
kind = "heavy-infantry"
morale = 7
strength = 6
formation = "shaken"

[units.b]
kind = "heavy-infantry"
morale = 7
strength = 6
formation = "broken"

[units.d]
kind = "heavy-infantry"
morale = 7
strength = 12

[[course]]
name = "both"
steps = [{ procedure = "close-combat", attacker = ["a", "b"], defender = "d" }]
"#;
    let e = explained(text);
    let roll = &e.variants[0].courses[0].steps[0].cases[0].roll;
    let fs = roll
        .modifiers
        .iter()
        .find(|t| t.label.starts_with("attacker Formation Shaken"))
        .unwrap();
    assert!(!fs.applied);
    assert!(fs.note.as_deref().unwrap().contains("only the worst"));
    assert_eq!(fs.source.kind, SourceKind::Unit);
    let fb = roll
        .modifiers
        .iter()
        .find(|t| t.label.starts_with("attacker Formation Broken"))
        .unwrap();
    assert!(fb.applied);
    assert_eq!(fb.value, -2);
    // Morale 0, 12 SP against 12 reads 0, matrix 0: only the -2 counts.
    assert_eq!(roll.raw_total, -2);
    assert!(explain::text::render(&e).contains("(-1)  attacker Formation Shaken"));
}

fn step<'a>(steps: &'a [StepExplanation], title: &str) -> &'a StepExplanation {
    steps
        .iter()
        .find(|s| s.title.starts_with(title))
        .unwrap_or_else(|| {
            let t: Vec<&str> = steps.iter().map(|s| s.title.as_str()).collect();
            panic!("no step {title}: {t:?}")
        })
}

#[test]
fn salvo_then_charge_carries_hits_formation_hit_and_morale_check_into_the_close_combat() {
    let req = ExplainRequest {
        overrides: Overrides::parse(&["edition=series"]).unwrap(),
        courses: vec!["salvo, then charge".into()],
        ..ExplainRequest::default()
    };
    let e = explain::explain_path(Path::new("scenarios/mpbs/charge-or-salvo.toml"), &req).unwrap();
    let c = &e.variants[0].courses[0];
    // The salvo: every result triggers the target's morale check (10.6.3
    // target of Salvo fire; 10.6.2 hits; 10.6.5 MC).
    let salvo = step(&c.steps, "step 1: musketry");
    assert_eq!(
        salvo.cases[0].roll.column.as_deref(),
        Some("Heavy Infantry with Regimental Artillery, salvo")
    );
    assert!(salvo.cases[0].triggers.iter().all(|t| {
        t.roll.starts_with("morale check (10.6) of tercio: ")
            && t.roll.contains("10.6.3 the target of Salvo fire")
            && t.always
    }));
    let mc = step(&c.steps, "after step 1: morale check (10.6) of tercio");
    assert_close(mc.results.iter().find(|r| r.id == "fail").unwrap().p, 0.3);
    // The close combat is rolled in every state the salvo and the checks leave.
    let cc = step(&c.steps, "step 2: close-combat");
    assert_close(cc.p_reached, 1.0);
    assert!(cc.cases.len() > 1);
    let reach: f64 = cc.cases.iter().map(|k| k.p_reached).sum();
    assert_close(reach, 1.0);
    // After 2 hits + FH (faces 6-9: 0.4), the tercio is Formation Shaken
    // (+1) and 8 SP (6:8 still reads 1:2).
    let shaken: Vec<_> = cc
        .cases
        .iter()
        .filter(|k| {
            k.state.iter().any(|l| {
                l.starts_with("tercio: 2 casualty points")
                    && l.contains("formation shaken")
                    && !l.contains("morale broken")
            })
        })
        .collect();
    assert!(!shaken.is_empty());
    for k in &shaken {
        let t = k
            .roll
            .modifiers
            .iter()
            .find(|t| t.label.starts_with("defender Formation Shaken"))
            .unwrap();
        assert_eq!(
            (t.value, t.applied, t.source.kind),
            (1, true, SourceKind::Unit)
        );
        assert!(t.source.detail.contains("tercio in formation shaken"));
    }
    // ... and a failed check (morale shaken) adds 1 to the morale differential.
    let broken_morale = cc
        .cases
        .iter()
        .find(|k| k.state.iter().any(|l| l.contains("morale shaken")))
        .unwrap();
    let md = broken_morale
        .roll
        .modifiers
        .iter()
        .find(|t| t.label.starts_with("morale differential"))
        .unwrap();
    assert_eq!(md.value, 2);
    // The salvo's +1 is on every case.
    assert!(cc.cases.iter().all(|k| {
        k.roll
            .modifiers
            .iter()
            .any(|t| t.label == "fired salvo just prior" && t.value == 1)
    }));
    // The step's results over the states are the course's, and the run's.
    let run = run::prepare(
        Path::new("scenarios/mpbs/charge-or-salvo.toml"),
        &RunPlan {
            overrides: Overrides::parse(&["edition=series"]).unwrap(),
            ..RunPlan::default()
        },
    )
    .unwrap();
    let k = run
        .courses
        .iter()
        .find(|c| c.name == "salvo, then charge")
        .map(|c| &c.kernel)
        .unwrap();
    let probs = stats::outcome_probs(k.space(), &exact(k.as_ref()));
    for (i, id) in k.space().outcome_ids().iter().enumerate() {
        let step_p = cc.results.iter().find(|r| &r.id == id).map_or(0.0, |r| r.p);
        assert_close(step_p, probs[i]);
        assert_close(c.outcomes[i].p, probs[i]);
    }
}

#[test]
fn every_shipped_scenario_explains_and_its_outcomes_are_the_exact_runs() {
    let files = shipped_explained();
    for s in pikeshot::systems::Registry::shipped().systems() {
        let folder = Path::new("scenarios").join(s.id());
        assert!(
            files.iter().any(|(f, _)| f.starts_with(&folder)),
            "{}",
            s.id()
        );
    }
    for (f, e) in files {
        let run = run::prepare(f, &RunPlan::default()).unwrap();
        let courses: Vec<_> = e
            .variants
            .iter()
            .flat_map(|v| v.courses.iter().map(move |c| (&v.variant, c)))
            .collect();
        assert_eq!(courses.len(), run.courses.len(), "{}", f.display());
        for ((variant, c), pc) in courses.iter().zip(&run.courses) {
            let (label, name, k) = (&pc.variant, &pc.name, &pc.kernel);
            assert_eq!((*variant, &c.name), (label, name), "{}", f.display());
            assert!(!c.steps.is_empty(), "{}: {name}", f.display());
            for s in &c.steps {
                let total: f64 = s.results.iter().map(|r| r.p).sum();
                assert!(
                    (total - 1.0).abs() < 1e-9,
                    "{}: {name}: {}",
                    f.display(),
                    s.title
                );
                assert!(!s.cases.is_empty());
            }
            let probs = stats::outcome_probs(k.space(), &exact(k.as_ref()));
            assert_eq!(c.outcomes.len(), probs.len(), "{}: {name}", f.display());
            for (r, p) in c.outcomes.iter().zip(&probs) {
                assert!(
                    (r.p - p).abs() < 1e-9,
                    "{}: {name}: {} {} vs {p}",
                    f.display(),
                    r.id,
                    r.p
                );
            }
            // A course of one roll: the step's results are the course's.
            if let [only] = c.steps.as_slice()
                && only.results.len() == c.outcomes.len()
                && only
                    .results
                    .iter()
                    .zip(&c.outcomes)
                    .all(|(a, b)| a.id == b.id)
            {
                for (a, b) in only.results.iter().zip(&c.outcomes) {
                    assert!(
                        (a.p - b.p).abs() < 1e-9,
                        "{}: {name}: {}",
                        f.display(),
                        a.id
                    );
                }
            }
        }
    }
}

/// Equal JSON, numbers within 1e-12 (a float printed and parsed back may
/// differ in its last bit).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            (x.as_f64().unwrap() - y.as_f64().unwrap()).abs() < 1e-12
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

#[test]
fn json_and_text_carry_the_same_explanation() {
    for f in [
        "scenarios/mpbs/after-combat.toml",
        "scenarios/snaphance/volley-12-sp.toml",
        "scenarios/sword-and-spear/activation.toml",
        "scenarios/hakkaa/musketeers-vs-pike.toml",
    ] {
        let v = json(&[f]);
        let e = explain::explain_path(Path::new(f), &ExplainRequest::default()).unwrap();
        assert!(same(&v, &serde_json::to_value(&e).unwrap()), "{f}");
        let text = stdout(&pikeshot_ok(&["explain", f]));
        for c in e.variants.iter().flat_map(|v| &v.courses) {
            assert!(text.contains(&format!("course \"{}\"", c.name)), "{f}");
            for s in &c.steps {
                assert!(text.contains(&s.title), "{f}: {}", s.title);
            }
        }
    }
}

#[test]
fn a_close_combat_lists_the_rolls_each_result_triggers() {
    // Cavalry with a leader attacks foot that cannot retreat: a Morale
    // Broken defender rolls Unable to Retreat (11.4.5), a beaten one is
    // pursued (11.7.2), and the leader whose modifier was used is checked
    // (5.3) whatever the result.
    let text = r#"
system = "mpbs"
edition = "series"

[units.horse]
kind = "cuirassier"
morale = 7
strength = 4
order = "charge"
leader = -1

[units.foot]
kind = "commanded-muskets"
morale = 6
strength = 4
can_retreat = false

[[course]]
name = "charge"
steps = [{ procedure = "close-combat", attacker = "horse", defender = "foot", momentum = true }]
"#;
    let e = explained(text);
    let c = &e.variants[0].courses[0];
    let cc = step(&c.steps, "step 1: close-combat");
    let t = &cc.cases[0].triggers;
    // A trigger names the result it follows by the card's label.
    let on =
        |result: &str, roll: &str| t.iter().any(|x| x.on == result && x.roll.starts_with(roll));
    assert!(
        on(
            "Defender broken, retreat 2",
            "unable to retreat (11.4.5) of foot"
        ),
        "{t:?}"
    );
    assert!(
        on(
            "Defender broken, retreat 2",
            "cavalry pursuit (11.7.2) by horse of foot"
        ),
        "{t:?}"
    );
    assert!(
        on(
            "Defender eliminated",
            "cavalry pursuit (11.7.2) by horse of foot"
        ),
        "{t:?}"
    );
    assert!(
        !on("Defender shaken, retreat 1", "cavalry pursuit"),
        "{t:?}"
    );
    assert!(
        on(
            "Attacker shaken, retreat 1",
            "leader casualty (5.3) of the leader with horse"
        ),
        "{t:?}"
    );
    // The leader's +1 (series: ±1 for any leader), from the stacked leader.
    let l = cc.cases[0]
        .roll
        .modifiers
        .iter()
        .find(|m| m.label == "attacker leader (11.3.2)")
        .unwrap();
    assert_eq!((l.value, l.source.kind), (1, SourceKind::Unit));
    // The triggered rolls are steps of their own, with their tables.
    let ur = step(&c.steps, "after step 1: unable to retreat (11.4.5) of foot");
    assert_eq!(
        ur.cases[0].roll.table,
        "Unable to Retreat Table (Morale Broken)"
    );
    // Base morale 6: -2 from the unit (11.4.5).
    let m = &ur.cases[0].roll.modifiers[0];
    assert_eq!((m.value, m.source.kind), (-2, SourceKind::Unit));
    step(
        &c.steps,
        "after step 1: cavalry pursuit (11.7.2) by horse of foot",
    );
    step(&c.steps, "after step 1: leader casualty (5.3)");
}

#[test]
fn an_unknown_course_or_variant_is_refused_naming_what_exists() {
    for (flag, value, names) in [
        ("--course", "charge later", "charge now"),
        ("--variant", "edition=tacw", "edition=sfo"),
    ] {
        let file = "scenarios/mpbs/charge-or-salvo.toml";
        let o = pikeshot(&["explain", file, flag, value]);
        assert_eq!(code(&o), 2);
        let err = stderr(&o);
        assert!(err.contains(flag) && err.contains(names), "{err}");
        assert!(stdout(&o).is_empty());
    }
    let o = pikeshot_ok(&[
        "explain",
        "scenarios/mpbs/charge-or-salvo.toml",
        "--variant",
        "edition=sfo",
        "--course",
        "charge now",
    ]);
    assert!(stdout(&o).contains("edition sfo"));
}
