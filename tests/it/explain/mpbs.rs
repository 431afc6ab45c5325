//! `pikeshot explain` of Musket & Pike fire: the units named in every
//! source, the TEC hex and hexside as two terms, and the 10.6 morale
//! checks a fire result triggers with their reasons.

use std::path::Path;

use pikeshot::explain::{self, ExplainRequest, SourceKind};
use pikeshot::scenario::Overrides;
use pikeshot::scenario::ScenarioFile;

const IN_WOODS: &str = r#"
system = "mpbs"
edition = "series"

[units.brigade]
kind = "heavy-infantry"
morale = 7
strength = 6
formation = "shaken"

[units.tercio]
kind = "heavy-infantry"
morale = 6
strength = 10
terrain = "woods"
hexside = "hedge"

[[course]]
name = "fire"
steps = [{ procedure = "musketry", firer = "brigade", target = "tercio", column = "front" }]
"#;

#[test]
fn fire_names_the_units_and_the_tec_hex_and_hexside_are_two_terms() {
    let f = ScenarioFile::from_str("m.toml", IN_WOODS).unwrap();
    let e = explain::explain_file(f, &ExplainRequest::default()).unwrap();
    let r = &e.variants[0].courses[0].steps[0].cases[0].roll;
    let t = |label: &str| {
        r.modifiers
            .iter()
            .find(|t| t.label == label)
            .unwrap_or_else(|| panic!("no {label} in {:?}", r.modifiers))
    };
    let hex = t("TEC hex");
    assert_eq!((hex.value, hex.source.kind), (-1, SourceKind::Unit));
    assert!(
        hex.source.detail.starts_with("tercio stands in Woods"),
        "{}",
        hex.source.detail
    );
    let side = t("TEC hexside");
    assert_eq!((side.value, side.source.kind), (-1, SourceKind::Unit));
    assert!(
        side.source
            .detail
            .starts_with("tercio is behind Hedge Hexside"),
        "{}",
        side.source.detail
    );
    let fs = t("firer Formation Shaken");
    assert_eq!(fs.source.detail, "brigade is in Formation Shaken");
    for m in &r.modifiers {
        assert!(
            !m.source.detail.contains("the firer") && !m.source.detail.contains("the target"),
            "{m:?}"
        );
    }
    // Both TEC lines count: -2 from the terrain, -2 from the firer.
    assert_eq!(r.raw_total, explain::sum(&r.modifiers));
    assert_eq!(r.raw_total, -4);
}

#[test]
fn a_salvos_morale_checks_say_why_in_the_trigger() {
    let req = ExplainRequest {
        overrides: Overrides::parse(&["edition=series"]).unwrap(),
        courses: vec!["salvo, then charge".into()],
        ..ExplainRequest::default()
    };
    let e = explain::explain_path(Path::new("scenarios/mpbs/charge-or-salvo.toml"), &req).unwrap();
    let salvo = &e.variants[0].courses[0].steps[0];
    let on = |o: &str| -> Vec<&str> {
        salvo.cases[0]
            .triggers
            .iter()
            .filter(|t| t.on == o)
            .map(|t| t.roll.as_str())
            .collect()
    };
    // A miss still makes the target of a Salvo check (10.6.3).
    assert_eq!(
        on("miss"),
        ["morale check (10.6) of tercio: 10.6.3 the target of Salvo fire"]
    );
    // Hits and the Salvo: one check for both (morale_checks_combined).
    assert_eq!(
        on("1 hit"),
        [
            "morale check (10.6) of tercio: 10.6.2 at least one hit, 10.6.3 the target of Salvo fire: one check for them all ([rules] morale_checks_combined)"
        ]
    );
    // ... and an MC result a second one (10.6.5).
    let mc = on("2 hits + FH + MC");
    assert_eq!(mc.len(), 1, "{mc:?}");
    assert!(mc[0].ends_with("; and 10.6.5 an MC result"), "{mc:?}");
    // No separate note carries the reasons any more.
    assert!(
        !salvo.cases[0]
            .roll
            .notes
            .iter()
            .any(|n| n.contains("10.6.2")),
        "{:?}",
        salvo.cases[0].roll.notes
    );
}
