//! The scenario file: sweeps as a Cartesian product and `--set` (`scenario::doc`).

use pikeshot::scenario::doc::*;

const TEXT: &str = r#"
name = "t"
[units.a]
terrain = "clear"
[[course]]
name = "c"
steps = [{ procedure = "x", column = "front" }]
[sweep]
"units.a.terrain" = ["clear", "woods"]
edition = ["sfo", "series"]
"#;

#[test]
fn sweeps_expand_as_a_cartesian_product() {
    let f = ScenarioFile::from_str("t.toml", TEXT).unwrap();
    let v = f.variants().unwrap();
    assert_eq!(v.len(), 4);
    assert_eq!(v[0].label, "units.a.terrain=clear, edition=sfo");
    assert_eq!(v[3].label, "units.a.terrain=woods, edition=series");
    assert_eq!(v[3].table["units"]["a"]["terrain"].as_str(), Some("woods"));
    assert!(!v[0].table.contains_key("sweep"));
}

#[test]
fn set_overrides_nested_keys_and_list_items() {
    let mut f = ScenarioFile::from_str("t.toml", TEXT).unwrap();
    f.set("units.a.terrain=village").unwrap();
    f.set("course[0].steps[0].column=salvo").unwrap();
    f.set("trials=5000").unwrap();
    assert_eq!(f.table["units"]["a"]["terrain"].as_str(), Some("village"));
    assert_eq!(
        f.table["course"][0]["steps"][0]["column"].as_str(),
        Some("salvo")
    );
    assert_eq!(f.table["trials"].as_integer(), Some(5000));
    let e = f.set("course[3].name=x").unwrap_err();
    assert!(e.to_string().contains("past the end"), "{e}");
    // A --set of a swept key pins it: it leaves the sweep.
    let mut g = ScenarioFile::from_str("t.toml", TEXT).unwrap();
    g.set("edition=sfo").unwrap();
    let v = g.variants().unwrap();
    assert_eq!(v.len(), 2);
    assert_eq!(v[1].label, "units.a.terrain=woods");
    assert_eq!(v[1].table["edition"].as_str(), Some("sfo"));
    let e = f.set("nonsense").unwrap_err();
    assert!(e.to_string().contains("KEY=VALUE"), "{e}");
}
