//! Target variants: values at dotted key paths (`targets::schema`).

use pikeshot::targets::schema::*;

#[test]
fn lookup_reads_nested_keys_and_list_items() {
    let t: toml::Table = toml::from_str(
        "edition = \"sfo\"\n[units.a]\nterrain = \"woods\"\n[[course]]\nname = \"x\"\n",
    )
    .unwrap();
    assert_eq!(lookup(&t, "edition").map(short).as_deref(), Some("sfo"));
    assert_eq!(
        lookup(&t, "units.a.terrain").map(short).as_deref(),
        Some("woods")
    );
    assert_eq!(
        lookup(&t, "course[0].name").map(short).as_deref(),
        Some("x")
    );
    assert!(lookup(&t, "course[1].name").is_none());
}
