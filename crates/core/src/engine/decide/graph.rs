//! The decision's graph laid out for valuing: the order in which every
//! edge goes forward (Kahn's algorithm), and the graph flattened in the
//! reverse of that order, its edges in one array.

use super::{Edge, Node};

/// A [`Flat::choice`] that is a roll.
pub(super) const ROLL: u32 = u32::MAX;

/// The graph in reverse topological order, its edges in one array, so that
/// valuing a plan (thousands of times in the rule search) walks memory in
/// order. Position `j` is the `j`-th node of the reversed order; node 0 (the
/// first choice) is last.
///
/// **Invariant:** an edge's value is `coef * value[target]`, with one more
/// position than there are nodes (the *end slot*, valued 1) as the target of
/// every edge that ends the decision: so `coef` is the end's value (or its
/// probability times it) and the product is that value exactly, and valuing
/// a position is one multiply-add per edge, without a branch.
#[derive(Debug)]
pub(super) struct Flat {
    /// Each position's choice index, or [`ROLL`].
    pub(super) choice: Vec<u32>,
    /// Each position's first edge; one more entry closes the last.
    pub(super) start: Vec<u32>,
    /// Each edge's target position, or the end slot.
    pub(super) target: Vec<u32>,
    /// A roll's edge: its probability, or for an end its probability
    /// times the end's value; a choice's edge: 1, or the end's value.
    pub(super) coef: Vec<f64>,
    /// The position of node 0.
    pub(super) root: u32,
}

impl Flat {
    /// `nodes` flattened in the reverse of `order`.
    pub(super) fn new<P>(nodes: &[Node<P>], order: &[u32]) -> Flat {
        let n = nodes.len();
        let end = n as u32;
        let mut pos = vec![0u32; n];
        for (j, &i) in order.iter().rev().enumerate() {
            pos[i as usize] = j as u32;
        }
        let mut f = Flat {
            choice: Vec::with_capacity(n),
            start: Vec::with_capacity(n + 1),
            target: Vec::new(),
            coef: Vec::new(),
            root: pos[0],
        };
        for &i in order.iter().rev() {
            f.start.push(f.target.len() as u32);
            match &nodes[i as usize] {
                Node::Roll { edges, .. } => {
                    f.choice.push(ROLL);
                    for (_, p, e) in edges {
                        match e {
                            Edge::Node(t) => {
                                f.target.push(pos[*t as usize]);
                                f.coef.push(*p);
                            }
                            Edge::End(v) => {
                                f.target.push(end);
                                f.coef.push(p * v);
                            }
                        }
                    }
                }
                Node::Choose {
                    choice, options, ..
                } => {
                    f.choice.push(*choice);
                    for e in options {
                        match e {
                            Edge::Node(t) => {
                                f.target.push(pos[*t as usize]);
                                f.coef.push(1.0);
                            }
                            Edge::End(v) => {
                                f.target.push(end);
                                f.coef.push(*v);
                            }
                        }
                    }
                }
            }
        }
        f.start.push(f.target.len() as u32);
        f
    }

    /// The value from the start of the plan that picks `plan(c)` at choice
    /// `c`, in `value` (one entry per position and the end slot; its
    /// contents on entry do not matter, so one buffer serves every call).
    pub(super) fn value(&self, plan: impl Fn(usize) -> usize, value: &mut Vec<f64>) -> f64 {
        let n = self.choice.len();
        value.clear();
        value.resize(n + 1, 0.0);
        value[n] = 1.0;
        let (target, coef) = (&self.target[..], &self.coef[..]);
        for j in 0..n {
            let (a, b) = (self.start[j] as usize, self.start[j + 1] as usize);
            value[j] = match self.choice[j] {
                ROLL => target[a..b]
                    .iter()
                    .zip(&coef[a..b])
                    .map(|(&t, &c)| c * value[t as usize])
                    .sum(),
                c => {
                    let e = a + plan(c as usize);
                    coef[e] * value[target[e] as usize]
                }
            };
        }
        value[self.root as usize]
    }
}

/// Kahn's algorithm over the graph: node ids so that every edge goes
/// forward, or `None` when there is a cycle.
pub(super) fn topological<P>(nodes: &[Node<P>]) -> Option<Vec<u32>> {
    let targets = |n: &Node<P>| -> Vec<u32> {
        let edges: Box<dyn Iterator<Item = &Edge>> = match n {
            Node::Choose { options, .. } => Box::new(options.iter()),
            Node::Roll { edges, .. } => Box::new(edges.iter().map(|(_, _, e)| e)),
        };
        edges
            .filter_map(|e| match e {
                Edge::Node(t) => Some(*t),
                Edge::End(_) => None,
            })
            .collect()
    };
    let mut indegree = vec![0u32; nodes.len()];
    for n in nodes {
        for t in targets(n) {
            indegree[t as usize] += 1;
        }
    }
    let mut ready: Vec<u32> = (0..nodes.len() as u32)
        .filter(|&i| indegree[i as usize] == 0)
        .collect();
    let mut order = Vec::with_capacity(nodes.len());
    while let Some(i) = ready.pop() {
        order.push(i);
        for t in targets(&nodes[i as usize]) {
            let d = &mut indegree[t as usize];
            *d -= 1;
            if *d == 0 {
                ready.push(t);
            }
        }
    }
    (order.len() == nodes.len()).then_some(order)
}
