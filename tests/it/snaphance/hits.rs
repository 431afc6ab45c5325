//! Snaphance hits from a pool of dice: exact by hand and against the face-by-face evaluator (`snaphance::hits`).

use pikeshot::systems::snaphance::hits::*;
use pikeshot::systems::snaphance::readings::Fives;

#[test]
fn one_die_hits_on_six_only() {
    let d = distribution(1, Fives::Pair);
    assert!((d[0] - 5.0 / 6.0).abs() < 1e-15 && (d[1] - 1.0 / 6.0).abs() < 1e-15);
}

#[test]
fn dense_equals_the_evaluator() {
    for fives in [Fives::Pair, Fives::AllIfPair, Fives::Each, Fives::Ignore] {
        for n in [0u8, 1, 7, 12, 30] {
            let a = distribution(n, fives);
            let b = distribution_by_evaluator(n, fives);
            for (x, y) in a.iter().zip(&b) {
                assert!((x - y).abs() < 1e-14, "{fives} {n}");
            }
        }
    }
}

#[test]
fn two_dice_by_hand() {
    // Two hits: 6,6 (1/36). One hit: one 6 and a non-6 (10/36) or 5,5 (1/36).
    let d = distribution(2, Fives::Pair);
    assert!((d[2] - 1.0 / 36.0).abs() < 1e-15);
    assert!((d[1] - 11.0 / 36.0).abs() < 1e-15);
    assert!((d[0] - 24.0 / 36.0).abs() < 1e-15);
    // Every 5 hits: one hit on exactly one of {5,6}: 2*2*4/36 = 16/36.
    let e = distribution(2, Fives::Each);
    assert!((e[1] - 16.0 / 36.0).abs() < 1e-15);
}
