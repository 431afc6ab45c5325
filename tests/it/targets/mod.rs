//! `[[expect]]` targets: how a target's bounds read (`targets`).

mod schema;
mod verdict;

use pikeshot::targets::*;

#[test]
fn describe_shows_the_bounds() {
    assert_eq!(describe("x", Some(0.3), None), "x >= 0.3");
    assert_eq!(describe("x", None, Some(0.5)), "x <= 0.5");
    assert_eq!(describe("x", Some(0.3), Some(0.5)), "x in [0.3, 0.5]");
}
