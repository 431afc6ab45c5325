//! Courses as chains: the propagated exact distribution equals path enumeration (`engine::chain`).

use pikeshot::dice::{Dice, Enumerator};
use pikeshot::engine::chain::*;
use pikeshot::error::InputError;
use pikeshot::outcome::Measure;
use pikeshot::outcome::{Leaf, OutcomeSpace};
use pikeshot::procedure::Procedure;

/// A d10 read 0..=9 whose leaf is the face.
struct D10(OutcomeSpace);
impl Procedure for D10 {
    fn space(&self) -> &OutcomeSpace {
        &self.0
    }
    fn resolve<D: Dice>(&self, d: &mut D) -> Leaf {
        d.d10() as Leaf
    }
}

/// Roll up to three d10s, stopping early when a roll is 0; the course
/// reports whether it stopped early and the total of the rolls.
struct Spec(OutcomeSpace);
impl ChainSpec for Spec {
    type State = i32;
    type Proc = D10;
    fn space(&self) -> &OutcomeSpace {
        &self.0
    }
    fn initial(&self) -> i32 {
        0
    }
    fn steps(&self) -> usize {
        3
    }
    fn build(&self, _: usize, _: &i32) -> Result<D10, InputError> {
        let labels: Vec<String> = (0..10).map(|i| i.to_string()).collect();
        Ok(D10(OutcomeSpace::new(labels, vec![])))
    }
    fn apply(&self, _: usize, _: &D10, leaf: Leaf, s: &i32) -> Transition<i32> {
        if leaf == 0 {
            Transition::End(self.0.leaf(0, &[*s]))
        } else {
            Transition::Continue(s + leaf as i32)
        }
    }
    fn finish(&self, s: &i32) -> Leaf {
        self.0.leaf(1, &[*s])
    }
}

#[test]
fn propagated_exact_equals_path_enumeration() {
    let spec = Spec(OutcomeSpace::from_labels(
        &["stopped", "finished"],
        vec![Measure::new("total", 0, 27)],
    ));
    let chain = Chain::build(&spec).unwrap();
    let propagated = chain.exact(1_000_000).unwrap().unwrap();
    let mut enumerated = vec![0.0; chain.space().len()];
    Enumerator::new()
        .for_each(
            1_000_000,
            |d| chain.resolve(d),
            |_, l, p| enumerated[l as usize] += p,
        )
        .unwrap();
    for (a, b) in propagated.iter().zip(&enumerated) {
        assert!((a - b).abs() < 1e-12);
    }
    // P(finished) = 0.9^3.
    let p_fin: f64 = pikeshot::stats::outcome_probs(chain.space(), &propagated)[1];
    assert!((p_fin - 0.729).abs() < 1e-12);
}
