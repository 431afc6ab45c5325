//! Hakkaa exact drawing of TQ tests and rolls, and its budget (`hakkaa::draw`).

use pikeshot::dice::EnumerationError;
use pikeshot::outcome::Leaf;
use pikeshot::systems::hakkaa::draw::*;
use pikeshot::systems::hakkaa::tq::{Grade, Tq, TqMode, TqTest};

#[test]
fn a_test_and_a_roll_weigh_right() {
    let t = TqTest::new(Grade::Trained, 0, TqMode::Row);
    // Pass (2d6 <= 8) and then a 4+.
    let probs = exact(4, 1000, |w| {
        let pass = matches!(w.test(&t), Tq::DecisiveSuccess | Tq::Success);
        let four = w.roll(4);
        (pass as u32) * 2 + four as u32
    })
    .unwrap();
    assert!((probs[3] - 26.0 / 36.0 * 0.5).abs() < 1e-15);
    assert!((probs[0] - 10.0 / 36.0 * 0.5).abs() < 1e-15);
    assert!((probs.iter().sum::<f64>() - 1.0).abs() < 1e-15);
}

#[test]
fn budget_is_enforced() {
    let t = TqTest::new(Grade::Trained, 0, TqMode::Row);
    let r = exact(4, 3, |w| w.test(&t) as Leaf);
    assert_eq!(r, Err(EnumerationError::Budget { budget: 3 }));
}
