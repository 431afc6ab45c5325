//! Courses as chains: the propagated exact distribution equals path enumeration (`engine::chain`).

use pikeshot::dice::{Dice, Enumerator};
use pikeshot::engine::chain::*;
use pikeshot::engine::stages::{AtStage, Stage, Stages, Transition};
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
struct Spec(OutcomeSpace, Stages);
impl Machine for Spec {
    type State = AtStage<i32>;
    type Proc = D10;
    fn space(&self) -> &OutcomeSpace {
        &self.0
    }
    fn initial(&self) -> AtStage<i32> {
        AtStage::At(0, 0)
    }
    fn action(&self, state: &AtStage<i32>) -> Result<Action<D10>, InputError> {
        let build = |_: Stage, _: &i32| {
            let labels: Vec<String> = (0..10).map(|i| i.to_string()).collect();
            Ok(D10(OutcomeSpace::new(labels, vec![])))
        };
        self.1.action(state, build, |s| self.0.leaf(1, &[*s]))
    }
    fn apply(&self, state: &AtStage<i32>, _: &D10, leaf: Leaf) -> AtStage<i32> {
        self.1.apply(state, |_, _, s| {
            if leaf == 0 {
                Transition::End(self.0.leaf(0, &[*s]))
            } else {
                Transition::Continue(s + leaf as i32)
            }
        })
    }
}

#[test]
fn propagated_exact_equals_path_enumeration() {
    let spec = Spec(
        OutcomeSpace::from_labels(&["stopped", "finished"], vec![Measure::new("total", 0, 27)]),
        Stages::new(3, None),
    );
    let chain = Chain::from_machine(&spec).unwrap();
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
