//! Chart text: percentages, thousands and where a label may break (`report::draw`).

use pikeshot::report::draw::*;

#[test]
fn percentages_and_thousands() {
    assert_eq!(percent(0.4213), "42.1%");
    assert_eq!(percent(0.0042), "0.42%");
    assert_eq!(percent(0.00005), "<0.01%");
    assert_eq!(percent(0.0), "0%");
    assert_eq!(thousands(1_000_000), "1,000,000");
    assert_eq!(thousands(999), "999");
    assert_eq!(thousands(1234), "1,234");
}

#[test]
fn labels_split_after_dashes_and_spaces() {
    assert_eq!(
        tokens("defender-morale broken"),
        vec!["defender-", "morale ", "broken"]
    );
}
