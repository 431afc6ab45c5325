//! A stop reason reads as one phrase (`report::engagement`).

use pikeshot::report::engagement::*;

#[test]
fn a_stop_reason_reads_once() {
    assert_eq!(
        stop_phrase("ended early: stand destroyed"),
        "ends: stand destroyed"
    );
    assert_eq!(stop_phrase("turn-limit"), "ends: turn-limit");
}
