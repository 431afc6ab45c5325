//! Chart text: percentages, thousands and where a label may break (`report::draw`).

use pikeshot::report::draw::*;

use crate::support::assert_texts;

#[test]
fn percentages_and_thousands() {
    assert_texts(
        percent,
        &[
            (0.4213, "42.1%"),
            (0.0042, "0.42%"),
            (0.00005, "<0.01%"),
            (0.0, "0%"),
        ],
    );
    assert_texts(
        thousands,
        &[(1_000_000, "1,000,000"), (999, "999"), (1234, "1,234")],
    );
}

#[test]
fn labels_split_after_dashes_and_spaces() {
    assert_eq!(
        tokens("defender-morale broken"),
        vec!["defender-", "morale ", "broken"]
    );
}
