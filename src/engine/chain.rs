//! Courses of several steps as a chain of procedures over unit states.
//!
//! A course ("salvo, then charge") is a sequence of steps acting on the
//! states of the units involved. The chain is built once, before any trial:
//! starting from the scenario's states it builds each step's procedure for
//! every state that can reach it, and records, for each leaf of that
//! procedure, which node comes next (or which final leaf the course ends in).
//! A trial then walks the chain: roll a node's procedure, follow its leaf.
//!
//! Exact probabilities come from propagating the distribution over nodes
//! (each node's own exact distribution times the mass reaching it), so a
//! course is exact without enumerating every path of every step.

use std::collections::HashMap;
use std::hash::Hash;

use crate::dice::{Dice, EnumerationError};
use crate::engine::exact;
use crate::error::InputError;
use crate::outcome::{Leaf, OutcomeSpace};
use crate::procedure::Procedure;

/// Where a leaf of a node leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// Another node.
    Node(u32),
    /// The course ends in this leaf of the course's space.
    Done(Leaf),
}

/// What a step does to the state: go on to the next step, or stop here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Transition<S> {
    /// Continue with the next step from this state.
    Continue(S),
    /// The course ends now, in this leaf of the course's space.
    End(Leaf),
}

/// The rules a chain is built from.
pub trait ChainSpec {
    /// The state carried between steps (unit states, accumulated measures).
    type State: Clone + Eq + Hash;
    /// The procedure each step resolves.
    type Proc: Procedure;
    /// The outcome space of the whole course.
    fn space(&self) -> &OutcomeSpace;
    /// The state before the first step.
    fn initial(&self) -> Self::State;
    /// Number of steps.
    fn steps(&self) -> usize;
    /// Builds step `step` for `state`.
    fn build(&self, step: usize, state: &Self::State) -> Result<Self::Proc, InputError>;
    /// What leaf `leaf` of step `step`'s procedure does to `state`. After
    /// the last step, [`Transition::Continue`] is turned into an end by
    /// [`ChainSpec::finish`].
    fn apply(
        &self,
        step: usize,
        proc: &Self::Proc,
        leaf: Leaf,
        state: &Self::State,
    ) -> Transition<Self::State>;
    /// The course's leaf for a state after the last step.
    fn finish(&self, state: &Self::State) -> Leaf;
}

/// One step in one state.
#[derive(Debug)]
struct Node<P> {
    proc: P,
    next: Vec<Next>,
}

/// A course compiled to a chain of nodes.
#[derive(Debug)]
pub struct Chain<P> {
    space: OutcomeSpace,
    nodes: Vec<Node<P>>,
}

/// Most nodes a chain may have.
pub const MAX_NODES: usize = 100_000;

impl<P: Procedure> Chain<P> {
    /// Builds the chain of `spec`: every (step, state) pair reachable from
    /// the initial state, breadth first.
    pub fn build<C: ChainSpec<Proc = P>>(spec: &C) -> Result<Chain<P>, InputError> {
        let mut ids: HashMap<(usize, C::State), u32> = HashMap::new();
        let mut queue: Vec<(usize, C::State)> = vec![(0, spec.initial())];
        let mut nodes: Vec<Option<Node<P>>> = vec![None];
        ids.insert((0, spec.initial()), 0);
        let mut head = 0;
        while head < queue.len() {
            let (step, state) = queue[head].clone();
            let proc = spec.build(step, &state)?;
            let mut next = Vec::with_capacity(proc.space().len());
            for leaf in 0..proc.space().len() as Leaf {
                let n = match spec.apply(step, &proc, leaf, &state) {
                    Transition::End(l) => Next::Done(l),
                    Transition::Continue(s) if step + 1 == spec.steps() => {
                        Next::Done(spec.finish(&s))
                    }
                    Transition::Continue(s) => {
                        let key = (step + 1, s);
                        let id = match ids.get(&key) {
                            Some(&id) => id,
                            None => {
                                let id = nodes.len() as u32;
                                if nodes.len() >= MAX_NODES {
                                    return Err(InputError::new(format!(
                                        "the course reaches more than {MAX_NODES} distinct unit states"
                                    )));
                                }
                                nodes.push(None);
                                ids.insert(key.clone(), id);
                                queue.push(key);
                                id
                            }
                        };
                        Next::Node(id)
                    }
                };
                next.push(n);
            }
            nodes[head] = Some(Node { proc, next });
            head += 1;
        }
        Ok(Chain {
            space: spec.space().clone(),
            nodes: nodes
                .into_iter()
                .map(|n| n.expect("every queued node is built"))
                .collect(),
        })
    }

    /// Number of (step, state) nodes.
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }

    /// True when some path of the chain ends in a leaf of category `outcome`.
    pub fn can_end_in(&self, outcome: usize) -> bool {
        self.nodes.iter().flat_map(|n| &n.next).any(|n| match n {
            Next::Done(l) => self.space.outcome_of(*l) == outcome,
            Next::Node(_) => false,
        })
    }
}

impl<P: Procedure> Procedure for Chain<P> {
    fn space(&self) -> &OutcomeSpace {
        &self.space
    }
    #[inline]
    fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
        let mut node = &self.nodes[0];
        loop {
            let leaf = node.proc.resolve(dice);
            match node.next[leaf as usize] {
                Next::Node(n) => node = &self.nodes[n as usize],
                Next::Done(l) => return l,
            }
        }
    }
    fn exact(&self, budget: u64) -> Option<Result<Vec<f64>, EnumerationError>> {
        // Nodes are numbered breadth first and every edge goes to a later
        // step, so a single pass in id order sees all mass entering a node
        // before the node itself.
        let mut mass = vec![0.0f64; self.nodes.len()];
        mass[0] = 1.0;
        let mut out = vec![0.0f64; self.space.len()];
        for (i, node) in self.nodes.iter().enumerate() {
            if mass[i] == 0.0 {
                continue;
            }
            let probs = match exact::exact(&node.proc, budget) {
                Ok(p) => p,
                Err(e) => return Some(Err(e)),
            };
            for (leaf, p) in probs.into_iter().enumerate() {
                if p == 0.0 {
                    continue;
                }
                match node.next[leaf] {
                    Next::Node(n) => mass[n as usize] += mass[i] * p,
                    Next::Done(l) => out[l as usize] += mass[i] * p,
                }
            }
        }
        Some(Ok(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Enumerator;
    use crate::outcome::Measure;

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
        let p_fin: f64 = crate::stats::outcome_probs(chain.space(), &propagated)[1];
        assert!((p_fin - 0.729).abs() < 1e-12);
    }
}
