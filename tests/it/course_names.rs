//! Courses by name (issue 14, item 6): `--set`, `[sweep]` and a
//! `[[expect]]` variant filter address a course as
//! `course."salvo, then charge".steps[0].column` as well as by index; an
//! unknown name is a located error with did-you-mean.

use pikeshot::run::{RunPlan, prepare_file};
use pikeshot::scenario::ScenarioFile;

use crate::support::cli::{run_refused_saying, temp_out};
use crate::support::located::line_containing;
use crate::support::scenario::refused_under;

/// Two courses, the second named with a comma (as the shipped
/// charge-or-salvo does).
const TEXT: &str = r#"name = "t"
system = "mpbs"
edition = "series"
seed = 7
trials = 1000

[units.swedes]
kind = "heavy-infantry"
morale = 7
strength = 6

[units.tercio]
kind = "heavy-infantry"
morale = 6
strength = 10

[[course]]
name = "charge now"
steps = [{ procedure = "close-combat", attacker = "swedes", defender = "tercio" }]

[[course]]
name = "salvo, then charge"
steps = [
  { procedure = "musketry", firer = "swedes", target = "tercio", column = "salvo" },
  { procedure = "close-combat", attacker = "swedes", defender = "tercio", fired_salvo = true },
]
"#;

fn file(text: &str) -> ScenarioFile {
    ScenarioFile::from_str("t.toml", text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn set_by_name_changes_the_same_key_as_set_by_index() {
    let mut by_name = file(TEXT);
    by_name
        .set(r#"course."salvo, then charge".steps[0].column=front"#)
        .unwrap();
    let mut by_index = file(TEXT);
    by_index.set("course[1].steps[0].column=front").unwrap();
    assert_eq!(by_name.table, by_index.table);
    assert_eq!(
        by_name.table["course"][1]["steps"][0]["column"].as_str(),
        Some("front")
    );
    // A bare name (no space, dot or comma) needs no quotes; a whole step
    // list is a TOML value.
    let mut bare = file(&TEXT.replace("charge now", "charge"));
    bare.set(r#"course.charge.steps=[{ procedure = "close-combat", attacker = "swedes", defender = "tercio", momentum = true }]"#)
        .unwrap();
    assert_eq!(
        bare.table["course"][0]["steps"][0]["momentum"].as_bool(),
        Some(true)
    );
}

#[test]
fn an_unknown_course_name_in_set_is_located_with_did_you_mean() {
    let mut f = file(TEXT);
    let e = f
        .set(r#"course."salvo then charge".steps[0].column=front"#)
        .unwrap_err();
    let m = e.to_string();
    for needle in [
        "--set",
        "no entry named \"salvo then charge\"",
        "did you mean \"salvo, then charge\"",
        "\"charge now\"",
    ] {
        assert!(m.contains(needle), "{needle:?} missing from: {m}");
    }
    // Through the command line: exit 2, nothing written.
    let out = temp_out();
    run_refused_saying(
        "scenarios/mpbs/charge-or-salvo.toml",
        &[
            "--set",
            r#"course."salvo, than charge".steps[0].column=front"#,
        ],
        &out,
        &["did you mean \"salvo, then charge\""],
    );
    assert!(!out.exists());
    // An unclosed quote is not a key path.
    let e = file(TEXT)
        .set(r#"course."salvo.steps[0].column=front"#)
        .unwrap_err();
    assert!(e.to_string().contains("no closing"), "{e}");
}

#[test]
fn a_sweep_addresses_a_course_by_name() {
    let text = format!(
        "{TEXT}\n[sweep]\n'course.\"salvo, then charge\".steps[0].column' = [\"salvo\", \"front\"]\n"
    );
    let f = file(&text);
    let v = f.variants().unwrap();
    assert_eq!(v.len(), 2);
    assert_eq!(
        v[1].label,
        "course.\"salvo, then charge\".steps[0].column=front"
    );
    assert_eq!(
        v[1].table["course"][1]["steps"][0]["column"].as_str(),
        Some("front")
    );
    // The run builds both variants, the second firing front instead of a
    // salvo: its course has no Salvo marker step, so it differs.
    let p = prepare_file(f, &RunPlan::default()).unwrap();
    assert_eq!(p.courses.len(), 4);
    // A misspelt name in the sweep is refused at the sweep's line.
    let bad = text.replace(
        "'course.\"salvo, then charge\"",
        "'course.\"salvoes, then charge\"",
    );
    let e = refused_under("t.toml", &bad, &RunPlan::default());
    assert_eq!(e.line, Some(line_containing(&bad, "salvoes, then")), "{e}");
    assert!(
        e.to_string()
            .contains("did you mean \"salvo, then charge\""),
        "{e}"
    );
}

#[test]
fn an_expect_variant_filter_names_a_course_path_with_a_comma() {
    let text = format!(
        "{TEXT}\n[sweep]\n'course.\"salvo, then charge\".steps[0].column' = [\"salvo\", \"front\"]\n\n\
         [[expect]]\ncourse = \"salvo, then charge\"\nvariant = 'course.\"salvo, then charge\".steps[0].column=front'\n\
         measure = \"p-enemy-broken-or-eliminated\"\nat_least = 0.0\n"
    );
    let p = prepare_file(file(&text), &RunPlan::default()).unwrap();
    assert_eq!(p.expects.len(), 1);
    let applies = &p.expects[0].variants;
    assert_eq!(
        applies.as_deref(),
        Some(&["course.\"salvo, then charge\".steps[0].column=front".to_string()][..]),
    );
}
