//! Musket & Pike fire results: labels and chart cells (`mpbs::musketry`).

use pikeshot::systems::mpbs::musketry::FireResult;

#[test]
fn labels_and_cells() {
    assert_eq!(FireResult::MISS.label(), "miss");
    assert_eq!(FireResult::new(1, false, false).label(), "1 hit");
    assert_eq!(FireResult::new(2, true, true).label(), "2 hits + FH + MC");
    assert_eq!(FireResult::new(1, true, false).cell(), "1+FH");
    assert_eq!(FireResult::new(0, true, true).label(), "FH + MC");
    assert_eq!(FireResult::new(0, true, false).cell(), "FH");
}
