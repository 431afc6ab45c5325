//! Musket & Pike: the names the two cards give the same rows, and the
//! refusal of a name one card only prints (docs/rules/mpbs.md, "Card names
//! across editions"); every refused name carries a "did you mean".

use pikeshot::error::Error;
use pikeshot::run::{RunPlan, prepare_file};
use pikeshot::scenario::ScenarioFile;
use pikeshot::stats;

const UNIT: &str = r#"system = "mpbs"
edition = "EDITION"
[units.a]
kind = "heavy-infantry"
morale = 7
strength = 8
[units.d]
kind = "KIND"
morale = 7
strength = 8
TEXT
[[course]]
name = "c"
steps = [{ procedure = "@PROC@", @KEYS@ }]
"#;

/// [`UNIT`] on card `edition`, unit `d` of `kind` with the further keys
/// `text`, its one step the procedure `procedure` with the keys `keys`.
fn scenario(edition: &str, kind: &str, text: &str, procedure: &str, keys: &str) -> String {
    UNIT.replace("EDITION", edition)
        .replace("KIND", kind)
        .replace("TEXT", text)
        .replace("@PROC@", procedure)
        .replace("@KEYS@", keys)
}

/// [`UNIT`] with `a` attacking `d` in close combat.
fn doc(edition: &str, kind: &str, text: &str) -> String {
    scenario(
        edition,
        kind,
        text,
        "close-combat",
        "attacker = \"a\", defender = \"d\"",
    )
}

/// [`UNIT`] with `d`, artillery with gun `gun`, firing on `a` at range 3.
fn gun(edition: &str, gun: &str) -> String {
    scenario(
        edition,
        "artillery",
        &format!("gun = \"{gun}\""),
        "artillery",
        "firer = \"d\", target = \"a\", range = 3",
    )
}

fn build(text: &str) -> Result<Vec<f64>, Error> {
    let file = ScenarioFile::from_str("t.toml", text)?;
    let p = prepare_file(file, &RunPlan::default())?;
    let k = p.courses.into_iter().next().expect("a course").kernel;
    let probs = k.exact(1_000_000).expect("exact");
    Ok(stats::outcome_probs(k.space(), &probs))
}

fn refused(text: &str) -> pikeshot::error::InputError {
    match build(text) {
        Err(Error::Input(e)) => *e,
        Err(e) => panic!("not an input error: {e}"),
        Ok(_) => panic!("accepted:\n{text}"),
    }
}

/// P(attacker eliminated) of an even heavy infantry fight: the defender's
/// TEC close-combat DRM d leaves rolls 0..(0-d) at or below 0.
fn attacker_eliminated(text: &str) -> f64 {
    build(text).unwrap_or_else(|e| panic!("{e}"))[0]
}

#[test]
fn the_series_thicket_row_answers_to_garden_and_vineyard() {
    // Series: "Thicket, Vineyard, or Garden" +1 under every name.
    for name in ["thicket", "vineyard", "garden"] {
        let t = doc("series", "heavy-infantry", &format!("terrain = \"{name}\""));
        assert!((attacker_eliminated(&t) - 0.0).abs() < 1e-12, "{name}");
    }
    // SFO: Garden is its own row (0), Thicket +1.
    let t = doc("sfo", "heavy-infantry", "terrain = \"garden\"");
    assert!((attacker_eliminated(&t) - 0.1).abs() < 1e-12);
    let t = doc("sfo", "heavy-infantry", "terrain = \"thicket\"");
    assert!((attacker_eliminated(&t) - 0.0).abs() < 1e-12);
    // Vineyard is printed on the series card only.
    let e = refused(&doc("sfo", "heavy-infantry", "terrain = \"vineyard\""));
    assert!(e.message.contains("on the series card only"), "{e}");
    assert_eq!(e.suggestion.as_deref(), Some("thicket"));
    assert_eq!(e.key.as_deref(), Some("units.d.terrain"));
}

#[test]
fn pond_and_river_or_pond_hexsides_on_both_cards() {
    for edition in ["sfo", "series"] {
        for name in ["pond", "river-or-pond"] {
            let t = doc(edition, "heavy-infantry", &format!("hexside = \"{name}\""));
            // Close combat 0 across it: attacker eliminated on roll 0 only.
            assert!(
                (attacker_eliminated(&t) - 0.1).abs() < 1e-12,
                "{edition} {name}"
            );
        }
    }
}

#[test]
fn light_infantry_is_the_lt_inf_column() {
    // Lt Inf against Lt Inf reads 0 on both cards; the SP ratio is even.
    for edition in ["sfo", "series"] {
        let t = doc(edition, "light-infantry", "")
            .replace("kind = \"heavy-infantry\"", "kind = \"light-infantry\"");
        assert!((attacker_eliminated(&t) - 0.1).abs() < 1e-12, "{edition}");
    }
}

#[test]
fn one_card_names_are_refused_with_the_nearest_name() {
    let e = refused(&doc("sfo", "heavy-infantry-no-pikes", ""));
    assert!(e.message.contains("on the series card only"), "{e}");
    assert_eq!(e.suggestion.as_deref(), Some("heavy-infantry"));
    let e = refused(&doc("sfo", "heavy-infantry", "terrain = \"chateau\""));
    assert!(e.message.contains("on the series card only"), "{e}");
    assert_eq!(e.suggestion.as_deref(), Some("village"));
    let e = refused(&doc(
        "series",
        "heavy-infantry",
        "hexside = \"garden-walls\"",
    ));
    assert!(e.message.contains("on the sfo card only"), "{e}");
    assert!(e.suggestion.is_some(), "{e}");
}

#[test]
fn the_12lb_column_answers_to_12lb_and_12_24lb() {
    for edition in ["sfo", "series"] {
        let gun = |g: &str| build(&gun(edition, g));
        let a = gun("12lb").unwrap_or_else(|e| panic!("{e}"));
        let b = gun("12-24lb").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(a, b, "{edition}");
        let a = gun("double-12lb").unwrap_or_else(|e| panic!("{e}"));
        let b = gun("double-12-24lb").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(a, b, "{edition}");
    }
    let e = refused(&gun("sfo", "double-3lb"));
    assert!(e.message.contains("on the series card only"), "{e}");
    assert_eq!(e.suggestion.as_deref(), Some("3lb"));
}

#[test]
fn every_refused_name_has_a_did_you_mean() {
    let cases = [
        (doc("series", "cuirasier", ""), "cuirassier"),
        (
            doc("series", "heavy-infantry", "terrain = \"wods\""),
            "woods",
        ),
        (
            doc("series", "heavy-infantry", "hexside = \"hegde\""),
            "hedge",
        ),
        (gun("series", "4-8b"), "4-8lb"),
        (doc("serie", "heavy-infantry", ""), "series"),
        (
            doc("series", "heavy-infantry", "").replace("close-combat", "close-combt"),
            "close-combat",
        ),
        (
            doc("series", "heavy-infantry", "").replace("\"mpbs\"", "\"mbps\""),
            "mpbs",
        ),
    ];
    for (text, want) in cases {
        let e = refused(&text);
        assert_eq!(e.suggestion.as_deref(), Some(want), "{e}");
    }
}

/// The shipped garden scenario: the garden's close combat DRM moves from 0
/// (SFO Garden row) to +1 (series "Thicket, Vineyard, or Garden"), so every
/// result moves one row towards the attacker: attacker eliminated 1/10 → 0,
/// defender eliminated 1/10 → 2/10.
#[test]
fn the_garden_reads_0_on_sfo_and_plus_1_on_series() {
    let text = include_str!("../../../scenarios/mpbs/garden-assault.toml");
    let file = ScenarioFile::from_str("garden-assault.toml", text).unwrap();
    let p = prepare_file(file, &RunPlan::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut seen = 0;
    for c in &p.courses {
        let (variant, course, k) = (&c.variant, &c.name, &c.kernel);
        if course != "assault the garden" {
            continue;
        }
        let probs = stats::outcome_probs(k.space(), &k.exact(1_000_000).unwrap());
        let (first, last) = if variant.contains("sfo") {
            (0.1, 0.1)
        } else {
            (0.0, 0.2)
        };
        assert!((probs[0] - first).abs() < 1e-12, "{variant}: {probs:?}");
        assert!((probs[7] - last).abs() < 1e-12, "{variant}: {probs:?}");
        seen += 1;
    }
    assert_eq!(seen, 2);
}
