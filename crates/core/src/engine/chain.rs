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

use crate::dice::{Dice, EnumerationError};
use crate::engine::exact;
use crate::error::InputError;
use crate::outcome::{Leaf, MAX_LEAVES, OutcomeSpace};
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

/// What a [`Machine`] does in a state: roll a procedure, or end in a leaf.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action<P> {
    /// Resolve this procedure; its leaf decides the next state.
    Roll(P),
    /// The course ends here, in this leaf of the course's space.
    End(Leaf),
}

/// A course: a state machine whose every state either rolls a procedure or
/// ends. A course of fixed stages carries
/// [`AtStage`](crate::engine::stages::AtStage) states, its moves between
/// stages written by [`Stages`](crate::engine::stages::Stages). Sub-rolls that only some results trigger
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
    /// The turn (0-based) of a course repeated turn after turn, which never
    /// decreases from a state to the next; `None` for a course that does not
    /// repeat. It lets a course with too many states say how many turns fit.
    fn turn(&self, _state: &Self::State) -> Option<usize> {
        None
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

/// States a chain's builder makes room for before it starts (it grows past
/// them as needed).
const EXPECTED_STATES: usize = 2048;

/// Most links from a node's leaves a chain may hold (the sum over its nodes
/// of their procedures' leaves): what bounds its memory when the nodes'
/// procedures have many leaves each.
pub const MAX_LINKS: usize = 20_000_000;

/// The error for a course that reaches more than [`MAX_NODES`] states. For
/// a course repeated turn after turn it names the largest number of turns
/// whose states fit ([`turns_that_fit`]).
fn too_many_states<M: Machine>(m: &M) -> InputError {
    let e = InputError::new(format!(
        "the course reaches more than {MAX_NODES} distinct states, the most a course may have"
    ));
    match turns_that_fit(m) {
        None => e
            .key("steps")
            .accepted("fewer steps, or units that can end in fewer ways"),
        // The states of the first turn alone pass the limit; a course of
        // fewer turns may still fit, as a unit's state can count measures
        // up to a bound that grows with the turns.
        Some(Fit::Exactly(0) | Fit::AtLeast(0)) => e
            .key("repeat.turns")
            .accepted("fewer turns, fewer steps, or units that can end in fewer ways"),
        Some(Fit::Exactly(t)) => e.key("repeat.turns").accepted(format!(
            "at most {t}, the largest value for which the states fit"
        )),
        // Too many states of later turns to count them all: the turns known
        // to fit, never a figure that was not worked out.
        Some(Fit::AtLeast(t)) => e.key("repeat.turns").accepted(format!(
            "fewer turns: {t} fit (more may; their states were too many to count)"
        )),
    }
}

/// The largest number of turns a repeated course may have and reach at most
/// [`MAX_NODES`] states, or `None` for a course that does not repeat (or
/// whose states could not be built). A course of `t` turns reaches exactly
/// the rolling states of turns below `t`, and turns never decrease along a
/// path: so the states are explored turn by turn, and when every state of
/// turn `j` is known, their count decides whether `j + 1` turns fit. The
/// states of later turns found meanwhile are held too, up to a bound; past
/// it, the answer is the turns known to fit, said to be a lower bound.
fn turns_that_fit<M: Machine>(m: &M) -> Option<Fit> {
    let first = m.initial();
    m.turn(&first)?;
    let mut seen: std::collections::HashSet<M::State> = std::collections::HashSet::new();
    let mut buckets: Vec<Vec<M::State>> = Vec::new();
    let push = |s: M::State,
                seen: &mut std::collections::HashSet<M::State>,
                buckets: &mut Vec<Vec<M::State>>|
     -> Option<Option<M::Proc>> {
        if seen.contains(&s) {
            return Some(None);
        }
        match m.action(&s).ok()? {
            Action::End(_) => Some(None),
            Action::Roll(p) => {
                let t = m.turn(&s)?;
                if buckets.len() <= t {
                    buckets.resize_with(t + 1, Vec::new);
                }
                seen.insert(s.clone());
                buckets[t].push(s);
                Some(Some(p))
            }
        }
    };
    push(first, &mut seen, &mut buckets)?;
    let mut rolling_below = 0;
    let mut turn = 0;
    while turn < buckets.len() {
        let mut i = 0;
        while i < buckets[turn].len() {
            let s = buckets[turn][i].clone();
            let Some(Action::Roll(p)) = m.action(&s).ok() else {
                return None;
            };
            for leaf in 0..p.space().len() as Leaf {
                push(m.apply(&s, &p, leaf), &mut seen, &mut buckets)?;
            }
            if rolling_below + buckets[turn].len() > MAX_NODES {
                // The states of turns up to this one are too many already.
                return Some(Fit::Exactly(turn));
            }
            if seen.len() > 2 * MAX_NODES {
                return Some(Fit::AtLeast(turn));
            }
            i += 1;
        }
        rolling_below += buckets[turn].len();
        if rolling_below > MAX_NODES {
            return Some(Fit::Exactly(turn));
        }
        // No later state is of this turn: forget its states.
        buckets[turn] = Vec::new();
        seen.retain(|s| m.turn(s).is_some_and(|t| t > turn));
        turn += 1;
    }
    Some(Fit::Exactly(turn))
}

/// How many turns of a course fit ([`turns_that_fit`]).
enum Fit {
    /// The largest number of turns whose states fit.
    Exactly(usize),
    /// Turns known to fit, when the states of later turns were too many to
    /// count (more may fit).
    AtLeast(usize),
}

impl<P: Procedure> Chain<P> {
    /// Builds the chain of a machine: every state reachable from the
    /// initial one that rolls becomes a node, and every leaf of its
    /// procedure an edge to the next node or an end.
    pub fn from_machine<M: Machine<Proc = P>>(m: &M) -> Result<Chain<P>, InputError> {
        Ok(explore(m)?.0)
    }

    /// As [`Chain::from_machine`], with the state of each node, in node
    /// order (as [`reach_chain`] takes them).
    pub fn with_states<M: Machine<Proc = P>>(
        m: &M,
    ) -> Result<(Chain<P>, Vec<M::State>), InputError> {
        let (chain, seen) = explore(m)?;
        Ok((chain, node_states::<M>(seen)))
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

/// Every state of a machine reachable from the initial one that rolls, as
/// the chain's nodes (in the order first reached), with every state met
/// (see [`Seen`]).
fn explore<M: Machine>(m: &M) -> Result<Explored<M>, InputError> {
    // Every state met so far: its node, or the end it is (an end met again
    // is not worked out again). Looked up by state, and iterated only in
    // the order states were first met, so the hasher cannot affect the
    // chain. Each state is held once, in the map's entries; its table
    // holds only their indices, so growing it moves no state.
    // Room for a typical course's states from the start: a map grown from
    // empty is rehashed a dozen times, and each outgrown table freed makes
    // the allocator consolidate its free lists.
    let mut seen: Seen<M> =
        Seen::<M>::with_capacity_and_hasher(EXPECTED_STATES, Default::default());
    // Each node's index in `seen`.
    let mut at: Vec<u32> = Vec::with_capacity(EXPECTED_STATES);
    let mut procs: Vec<Option<M::Proc>> = Vec::with_capacity(EXPECTED_STATES);
    // The node of a state, queued when new; or the end it is.
    let visit = |state: M::State,
                 seen: &mut Seen<M>,
                 at: &mut Vec<u32>,
                 procs: &mut Vec<Option<M::Proc>>|
     -> Result<Next, InputError> {
        let entry = match seen.entry(state) {
            indexmap::map::Entry::Occupied(e) => return Ok(*e.get()),
            indexmap::map::Entry::Vacant(e) => e,
        };
        let next = match m.action(entry.key())? {
            Action::End(l) => Next::Done(l),
            Action::Roll(p) => {
                if at.len() >= MAX_NODES {
                    return Err(too_many_states(m));
                }
                let id = at.len() as u32;
                at.push(entry.index() as u32);
                procs.push(Some(p));
                Next::Node(id)
            }
        };
        entry.insert(next);
        Ok(next)
    };
    let start = visit(m.initial(), &mut seen, &mut at, &mut procs)?;
    let mut nodes: Vec<Node<M::Proc>> = Vec::new();
    let mut head = 0;
    let mut links = 0usize;
    while head < at.len() {
        let proc = procs[head].take().expect("each node is built once");
        let state = seen
            .get_index(at[head] as usize)
            .expect("a node's state is in the map")
            .0
            .clone();
        links = links.saturating_add(proc.space().len());
        if links > MAX_LINKS {
            return Err(InputError::new(format!(
                "the course's chain would hold more than {MAX_LINKS} links from \
                 its states' outcomes; shorten it (fewer steps or turns)"
            )));
        }
        // A leaf no path of the node's dice reaches is not followed.
        let dense = exact::exact(&proc, BUILD_BUDGET).ok();
        let mut next = Vec::with_capacity(proc.space().len());
        for leaf in 0..proc.space().len() as Leaf {
            if dense.as_ref().is_some_and(|p| p[leaf as usize] == 0.0) {
                next.push(Next::Never);
                continue;
            }
            let after = m.apply(&state, &proc, leaf);
            next.push(visit(after, &mut seen, &mut at, &mut procs)?);
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
    // A sparse space holds the results reached; a dense one fits already.
    if m.space().len() > MAX_LEAVES {
        let e = InputError::new(format!(
            "the course reaches more than {MAX_LEAVES} combinations of results, the most a \
             course may report"
        ));
        return Err(match m.turn(&m.initial()) {
            Some(_) => e
                .key("repeat.turns")
                .accepted("fewer turns, or fewer steps"),
            None => e.key("steps").accepted("fewer steps, or smaller units"),
        });
    }
    let order = topological(&nodes).ok_or_else(|| {
        InputError::new("the course can return to a state it left: it would never end")
    })?;
    let chain = Chain {
        space: m.space().clone(),
        start,
        nodes,
        order,
    };
    Ok((chain, seen))
}

/// Every state a chain's builder met, in the order first met, with its
/// node or the end it is.
type Seen<M> = indexmap::IndexMap<<M as Machine>::State, Next, rustc_hash::FxBuildHasher>;

/// The states of a chain's nodes, in node order.
fn node_states<M: Machine>(seen: Seen<M>) -> Vec<M::State> {
    // Node ids were given in the order states were first met.
    seen.into_iter()
        .filter(|(_, n)| matches!(n, Next::Node(_)))
        .map(|(s, _)| s)
        .collect()
}

/// A machine's chain and every state met building it.
type Explored<M> = (Chain<<M as Machine>::Proc>, Seen<M>);

/// One rolling state of a course, as [`reach`] finds it.
#[derive(Debug)]
pub struct Reached<S, P> {
    /// The state.
    pub state: S,
    /// The procedure rolled in it.
    pub proc: P,
    /// Exact probability that the course reaches this state.
    pub mass: f64,
    /// Exact probability of each leaf of `proc`.
    pub probs: Vec<f64>,
    /// For each leaf of `proc`, the index (into the returned list) of the
    /// state it leads to, or `None` when the course ends there.
    pub next: Vec<Option<usize>>,
}

/// Every rolling state of a machine, in the order first reached, with the
/// exact probability of reaching it: the same states, procedures and
/// propagation as the chain a run resolves.
pub fn reach<M: Machine>(m: &M, budget: u64) -> Result<Reach<M::State, M::Proc>, InputError> {
    let (chain, states) = Chain::with_states(m)?;
    reach_chain(chain, states, budget)
}

/// [`reach`] over a chain already built, whose nodes' states are `states`
/// ([`Chain::with_states`]).
pub fn reach_chain<S, P: Procedure>(
    chain: Chain<P>,
    states: Vec<S>,
    budget: u64,
) -> Result<Reach<S, P>, InputError> {
    let mut mass = vec![0.0f64; chain.nodes.len()];
    let mut ends = vec![0.0f64; chain.space.len()];
    match chain.start {
        Next::Node(n) => mass[n as usize] = 1.0,
        Next::Done(l) => ends[l as usize] = 1.0,
        Next::Never => unreachable!("a chain starts somewhere"),
    }
    let mut probs: Vec<Vec<f64>> = vec![Vec::new(); chain.nodes.len()];
    for &i in &chain.order {
        let i = i as usize;
        let node = &chain.nodes[i];
        let p = exact::exact(&node.proc, budget)
            .map_err(|e| InputError::new(format!("cannot explain this roll exactly: {e}")))?;
        for (leaf, &q) in p.iter().enumerate() {
            match node.next[leaf] {
                Next::Node(n) => mass[n as usize] += mass[i] * q,
                Next::Done(l) => ends[l as usize] += mass[i] * q,
                // A leaf no path reaches: its probability is zero.
                Next::Never => {}
            }
        }
        probs[i] = p;
    }
    let nodes = chain
        .nodes
        .into_iter()
        .zip(states)
        .zip(mass.into_iter().zip(probs))
        .map(|((node, state), (mass, probs))| Reached {
            state,
            proc: node.proc,
            mass,
            probs,
            next: node
                .next
                .iter()
                .map(|n| match n {
                    Next::Node(k) => Some(*k as usize),
                    Next::Done(_) | Next::Never => None,
                })
                .collect(),
        })
        .collect();
    Ok(Reach { nodes, ends })
}

/// What [`reach`] finds.
#[derive(Debug)]
pub struct Reach<S, P> {
    /// Every rolling state, in the order first reached.
    pub nodes: Vec<Reached<S, P>>,
    /// Exact probability of each leaf of the course's space (as the run's
    /// exact answer).
    pub ends: Vec<f64>,
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
