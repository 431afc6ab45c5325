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

use std::hash::Hash;

use rustc_hash::FxHashMap;

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
    /// Nowhere: no path of the node's dice ends in this leaf (its exact
    /// probability is zero), so no trial follows it.
    Never,
}

/// Most die paths a node's procedure is enumerated over while the chain is
/// built. Within it, the node's exact distribution is kept, and a leaf of
/// probability zero is not followed (a procedure's space is every
/// combination of its outcome and measures, most of which its dice cannot
/// produce; following them would build states no trial reaches). A node
/// beyond it follows every leaf, and is enumerated when exact values are
/// asked for.
pub const BUILD_BUDGET: u64 = 100_000;

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

/// What a [`Machine`] does in a state: roll a procedure, or end in a leaf.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action<P> {
    /// Resolve this procedure; its leaf decides the next state.
    Roll(P),
    /// The course ends here, in this leaf of the course's space.
    End(Leaf),
}

/// The general form of a course: a state machine whose every state either
/// rolls a procedure or ends. Sub-rolls that only some results trigger
/// (a morale check after hits, a pursuit after a break) are states like any
/// other. The machine must not loop: every path ends.
pub trait Machine {
    /// The state: unit states, position in the course, pending sub-rolls.
    type State: Clone + Eq + Hash;
    /// The procedures rolled.
    type Proc: Procedure;
    /// The outcome space of the whole course.
    fn space(&self) -> &OutcomeSpace;
    /// The state before anything is rolled.
    fn initial(&self) -> Self::State;
    /// What happens in `state`.
    fn action(&self, state: &Self::State) -> Result<Action<Self::Proc>, InputError>;
    /// The state after leaf `leaf` of `proc`, rolled in `state`.
    fn apply(&self, state: &Self::State, proc: &Self::Proc, leaf: Leaf) -> Self::State;
}

/// A [`ChainSpec`] seen as a [`Machine`]: the state is the step reached.
struct Steps<'a, C>(&'a C);

/// State of [`Steps`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum StepState<S> {
    At(usize, S),
    Ended(Leaf),
}

impl<C: ChainSpec> Machine for Steps<'_, C> {
    type State = StepState<C::State>;
    type Proc = C::Proc;
    fn space(&self) -> &OutcomeSpace {
        self.0.space()
    }
    fn initial(&self) -> Self::State {
        StepState::At(0, self.0.initial())
    }
    fn action(&self, state: &Self::State) -> Result<Action<C::Proc>, InputError> {
        Ok(match state {
            StepState::Ended(l) => Action::End(*l),
            StepState::At(step, s) if *step == self.0.steps() => Action::End(self.0.finish(s)),
            StepState::At(step, s) => Action::Roll(self.0.build(*step, s)?),
        })
    }
    fn apply(&self, state: &Self::State, proc: &C::Proc, leaf: Leaf) -> Self::State {
        match state {
            StepState::At(step, s) => match self.0.apply(*step, proc, leaf, s) {
                Transition::Continue(next) => StepState::At(step + 1, next),
                Transition::End(l) => StepState::Ended(l),
            },
            StepState::Ended(_) => unreachable!("an ended course rolls nothing"),
        }
    }
}

/// One rolling state of a chain.
#[derive(Debug)]
struct Node<P> {
    proc: P,
    next: Vec<Next>,
    /// The procedure's exact distribution (its leaves of non-zero
    /// probability), when it was found within [`BUILD_BUDGET`].
    probs: Option<Box<[(Leaf, f64)]>>,
}

/// A course compiled to a chain of nodes.
#[derive(Debug)]
pub struct Chain<P> {
    space: OutcomeSpace,
    start: Next,
    nodes: Vec<Node<P>>,
    /// Node ids in an order where every edge goes forward.
    order: Vec<u32>,
}

/// Most nodes a chain may have.
pub const MAX_NODES: usize = 200_000;

impl<P: Procedure> Chain<P> {
    /// Builds the chain of a fixed sequence of steps.
    pub fn build<C: ChainSpec<Proc = P>>(spec: &C) -> Result<Chain<P>, InputError> {
        Chain::from_machine(&Steps(spec))
    }

    /// Builds the chain of a machine: every state reachable from the
    /// initial one that rolls becomes a node, and every leaf of its
    /// procedure an edge to the next node or an end.
    pub fn from_machine<M: Machine<Proc = P>>(m: &M) -> Result<Chain<P>, InputError> {
        // Every state met so far: its node, or the end it is (an end met
        // again is not worked out again). Only looked up, never iterated,
        // so the hasher cannot affect the chain: node ids follow the order
        // states are first met.
        let mut seen: FxHashMap<M::State, Next> = FxHashMap::default();
        let mut states: Vec<M::State> = Vec::new();
        let mut procs: Vec<Option<P>> = Vec::new();
        // The node of a state, queued when new; or the end it is.
        let visit = |state: M::State,
                     seen: &mut FxHashMap<M::State, Next>,
                     states: &mut Vec<M::State>,
                     procs: &mut Vec<Option<P>>|
         -> Result<Next, InputError> {
            if let Some(&next) = seen.get(&state) {
                return Ok(next);
            }
            match m.action(&state)? {
                Action::End(l) => {
                    seen.insert(state, Next::Done(l));
                    Ok(Next::Done(l))
                }
                Action::Roll(p) => {
                    if states.len() >= MAX_NODES {
                        return Err(InputError::new(format!(
                            "the course reaches more than {MAX_NODES} distinct states; \
                             shorten it (fewer steps or turns)"
                        )));
                    }
                    let id = states.len() as u32;
                    seen.insert(state.clone(), Next::Node(id));
                    states.push(state);
                    procs.push(Some(p));
                    Ok(Next::Node(id))
                }
            }
        };
        let start = visit(m.initial(), &mut seen, &mut states, &mut procs)?;
        let mut nodes: Vec<Node<P>> = Vec::new();
        let mut head = 0;
        while head < states.len() {
            let proc = procs[head].take().expect("each node is built once");
            let state = states[head].clone();
            let dense = exact::exact(&proc, BUILD_BUDGET).ok();
            let mut next = Vec::with_capacity(proc.space().len());
            for leaf in 0..proc.space().len() as Leaf {
                if dense.as_ref().is_some_and(|p| p[leaf as usize] == 0.0) {
                    next.push(Next::Never);
                    continue;
                }
                let after = m.apply(&state, &proc, leaf);
                next.push(visit(after, &mut seen, &mut states, &mut procs)?);
            }
            let probs = dense.map(|p| {
                p.into_iter()
                    .enumerate()
                    .filter(|&(_, x)| x != 0.0)
                    .map(|(l, x)| (l as Leaf, x))
                    .collect()
            });
            nodes.push(Node { proc, next, probs });
            head += 1;
        }
        let order = topological(&nodes).ok_or_else(|| {
            InputError::new("the course can return to a state it left: it would never end")
        })?;
        Ok(Chain {
            space: m.space().clone(),
            start,
            nodes,
            order,
        })
    }

    /// The same chain reporting into `space`: every end leaf `l` becomes
    /// `map(l)`. A course whose space is narrowed after building (outcomes
    /// no path reaches left out) keeps its nodes instead of building them
    /// again.
    pub fn remap(mut self, space: OutcomeSpace, map: impl Fn(Leaf) -> Leaf) -> Chain<P> {
        let fix = |n: &mut Next| {
            if let Next::Done(l) = n {
                *l = map(*l);
            }
        };
        fix(&mut self.start);
        for node in &mut self.nodes {
            node.next.iter_mut().for_each(fix);
        }
        self.space = space;
        self
    }

    /// Number of rolling states.
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }

    /// True when some path of the chain ends in a leaf of category `outcome`.
    pub fn can_end_in(&self, outcome: usize) -> bool {
        std::iter::once(&self.start)
            .chain(self.nodes.iter().flat_map(|n| &n.next))
            .any(|n| match n {
                Next::Done(l) => self.space.outcome_of(*l) == outcome,
                Next::Node(_) | Next::Never => false,
            })
    }
}

/// Kahn's algorithm: node ids so that every edge goes forward, or `None`
/// when there is a cycle.
fn topological<P>(nodes: &[Node<P>]) -> Option<Vec<u32>> {
    let mut indegree = vec![0u32; nodes.len()];
    for n in nodes {
        for e in &n.next {
            if let Next::Node(t) = e {
                indegree[*t as usize] += 1;
            }
        }
    }
    let mut ready: Vec<u32> = (0..nodes.len() as u32)
        .filter(|&i| indegree[i as usize] == 0)
        .collect();
    let mut order = Vec::with_capacity(nodes.len());
    while let Some(i) = ready.pop() {
        order.push(i);
        for e in &nodes[i as usize].next {
            if let Next::Node(t) = e {
                let d = &mut indegree[*t as usize];
                *d -= 1;
                if *d == 0 {
                    ready.push(*t);
                }
            }
        }
    }
    (order.len() == nodes.len()).then_some(order)
}

impl<P: Procedure> Procedure for Chain<P> {
    fn space(&self) -> &OutcomeSpace {
        &self.space
    }
    #[inline]
    fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
        let mut at = self.start;
        loop {
            match at {
                Next::Done(l) => return l,
                Next::Never => unreachable!("a trial rolled a leaf no path of its dice reaches"),
                Next::Node(n) => {
                    let node = &self.nodes[n as usize];
                    at = node.next[node.proc.resolve(dice) as usize];
                }
            }
        }
    }
    fn exact(&self, budget: u64) -> Option<Result<Vec<f64>, EnumerationError>> {
        let mut out = vec![0.0f64; self.space.len()];
        let mut mass = vec![0.0f64; self.nodes.len()];
        match self.start {
            Next::Done(l) => {
                out[l as usize] = 1.0;
                return Some(Ok(out));
            }
            Next::Node(n) => mass[n as usize] = 1.0,
            Next::Never => unreachable!("a chain starts somewhere"),
        }
        // In topological order every node has all its mass when visited.
        for &i in &self.order {
            let i = i as usize;
            if mass[i] == 0.0 {
                continue;
            }
            let node = &self.nodes[i];
            // Kept from the build when found within a budget no larger
            // than this one; else enumerated now, within this budget.
            let fresh;
            let probs: &[(Leaf, f64)] = match &node.probs {
                Some(p) if budget >= BUILD_BUDGET => p,
                _ => {
                    fresh = match exact::exact(&node.proc, budget) {
                        Ok(p) => p
                            .into_iter()
                            .enumerate()
                            .filter(|&(_, x)| x != 0.0)
                            .map(|(l, x)| (l as Leaf, x))
                            .collect::<Vec<_>>(),
                        Err(e) => return Some(Err(e)),
                    };
                    &fresh
                }
            };
            for &(leaf, p) in probs {
                match node.next[leaf as usize] {
                    Next::Node(n) => mass[n as usize] += mass[i] * p,
                    Next::Done(l) => out[l as usize] += mass[i] * p,
                    Next::Never => unreachable!("a leaf of probability zero has mass"),
                }
            }
        }
        Some(Ok(out))
    }
}
