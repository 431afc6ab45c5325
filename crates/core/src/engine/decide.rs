//! The best plan of a `[[decision]]`: at the start of every turn the own
//! side picks one of several options (each a list of steps, as a course
//! writes them), and the plan that makes an objective most (or least)
//! likely is found exactly by backward induction over every state the
//! options' course machines reach.
//!
//! The states are those the engine's chains enumerate: each option is a
//! course machine ([`Machine`]) over the same unit states, run turn by
//! turn. A state at the start of a turn is a *choice*: it leads to the
//! first stage of that turn of every option. Everything between two
//! choices is the option's own chain. The value of a state is the
//! probability of the objective's outcome (or the expectation of its
//! measure) from there under the best plan: a rolling state's value is the
//! sum over its leaves of their exact probability times the value of the
//! state each leads to, a choice's the best of its options' values, and an
//! end's the objective read from the leaf it ends in. Turns never go back,
//! so one pass over the states in reverse topological order values them
//! all.
//!
//! [`rule`] then searches small decision rules over the choices' features
//! for the plan in words.

mod graph;

use graph::{Flat, topological};
pub mod at;
pub mod rule;
pub mod summary;

use std::hash::Hash;

use crate::dice::Dice;
use crate::engine::chain::{Action, Machine};
use crate::engine::exact;
use crate::engine::stages::AtStage;
use crate::error::InputError;
use crate::outcome::{Leaf, OutcomeSpace};
use crate::procedure::Procedure;

/// Most states (choices and rolling states together) a decision may reach.
pub const MAX_DECISION_STATES: usize = 2_000_000;

/// What a decision's best plan maximises or minimises.
#[derive(Clone, Debug, PartialEq)]
pub struct Objective {
    /// The outcome made likely, or the measure whose expectation counts.
    pub target: Target,
    /// Most (true) or least (false).
    pub maximise: bool,
}

/// The objective's value of a leaf of one option's space.
pub type Reader = Box<dyn Fn(Leaf) -> f64>;

/// What an [`Objective`] reads from the leaf a course ends in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// The probability of ending in any of these outcomes (ids or labels).
    Outcome(Vec<String>),
    /// The expectation of this measure (its name).
    Measure(String),
}

impl Objective {
    /// The objective in words: "most likely target-fled".
    pub fn words(&self) -> String {
        let (most, what) = match &self.target {
            Target::Outcome(o) => (
                if self.maximise {
                    "most likely"
                } else {
                    "least likely"
                },
                o.join(" or "),
            ),
            Target::Measure(m) => (
                if self.maximise {
                    "largest expected"
                } else {
                    "smallest expected"
                },
                m.clone(),
            ),
        };
        format!("{most} {what}")
    }

    /// The value of ending in `leaf` of `space`: 1 or 0 for an outcome, the
    /// measure's value for a measure. An outcome or measure the space does
    /// not report is an error naming those it does.
    pub fn reader(&self, space: &OutcomeSpace) -> Result<Reader, InputError> {
        let space = space.clone();
        match &self.target {
            Target::Outcome(names) => {
                let mut hit = vec![false; space.outcomes().len()];
                for o in names {
                    let i = space
                        .outcome_index_by_id(o)
                        .or_else(|| space.outcome_index(o))
                        .ok_or_else(|| {
                            let ids: Vec<&str> =
                                space.outcome_ids().iter().map(String::as_str).collect();
                            InputError::new(format!(
                                "no outcome \"{o}\" in this decision's results"
                            ))
                            .one_of(o, &ids)
                        })?;
                    hit[i] = true;
                }
                Ok(Box::new(move |l| {
                    f64::from(u8::from(hit[space.outcome_of(l)]))
                }))
            }
            Target::Measure(m) => {
                let i = space.measure_index(m).ok_or_else(|| {
                    let names: Vec<&str> =
                        space.measures().iter().map(|m| m.name.as_str()).collect();
                    InputError::new(format!("no measure \"{m}\" in this decision's results"))
                        .one_of(m, &names)
                })?;
                Ok(Box::new(move |l| f64::from(space.value_of(l, i))))
            }
        }
    }

    /// Whether value `a` is better than `b` for this objective.
    pub fn better(&self, a: f64, b: f64) -> bool {
        if self.maximise { a > b } else { a < b }
    }
}

/// One option's course machine, run turn by turn: the stages of every turn
/// of `spec` (a course of the option's steps repeated `turns` times from
/// its first step), `per_turn` stages a turn.
pub struct OptionCourse<C> {
    /// The option's name.
    pub name: String,
    /// The course machine of the option's steps under the decision's
    /// repeat.
    pub spec: C,
    /// Stages in one turn.
    pub per_turn: usize,
    /// Stages in all.
    pub stages: usize,
}

/// The names and values of a choice state's features (what the plan in
/// words may test): each system names its units' states.
pub trait Features {
    /// The state carried from turn to turn.
    type State;
    /// The features' names, in the order [`Features::features`] gives them.
    fn feature_names(&self) -> Vec<String>;
    /// The features of `state`.
    fn features(&self, state: &Self::State) -> Vec<i32>;
    /// A feature's value in words, where it names a level ("disordered").
    fn feature_value(&self, _feature: usize, value: i32) -> String {
        value.to_string()
    }
}

/// Where an edge of a decision's graph goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Edge {
    /// Another state.
    Node(u32),
    /// The decision ends with this value of the objective.
    End(f64),
}

/// One state of a decision's graph.
#[derive(Debug)]
pub enum Node<P> {
    /// The start of a turn: the own side chooses; each option's first
    /// state of the turn.
    Choose {
        /// The turn (0-based).
        turn: usize,
        /// Index among the choices (into [`Solved::choices`]).
        choice: u32,
        /// Each option's edge.
        options: Vec<Edge>,
    },
    /// A roll.
    Roll {
        /// The option whose course rolls.
        option: u32,
        /// The procedure rolled.
        proc: P,
        /// Leaves of non-zero probability, their exact probability and edge.
        edges: Vec<(Leaf, f64, Edge)>,
    },
}

/// One choice state of a solved decision.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The turn (1-based).
    pub turn: usize,
    /// The state's features (see [`Features`]).
    pub features: Vec<i32>,
    /// Exact probability the best plan reaches this state.
    pub reach: f64,
    /// The value of each option here, the best plan followed afterwards.
    pub values: Vec<f64>,
    /// The best option (the first of equal values).
    pub best: usize,
}

/// A decision solved: the graph of its states, each choice's values and
/// the best plan's.
#[derive(Debug)]
pub struct Solved<P> {
    /// The options' names.
    pub options: Vec<String>,
    /// The features' names.
    pub feature_names: Vec<String>,
    /// What the plan maximises or minimises.
    pub objective: Objective,
    /// The states; node 0 is the first choice.
    pub nodes: Vec<Node<P>>,
    /// Node ids, each before every node it leads to.
    order: Vec<u32>,
    /// The graph flattened for [`Solved::evaluate`].
    flat: Flat,
    /// The choices, in the order first reached.
    pub choices: Vec<Choice>,
    /// The best plan's value from the start.
    pub value: f64,
    /// The value of "always option k", for every option.
    pub always: Vec<f64>,
}

/// Where a roll of an option leads ([`Options::apply`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Moved<S, C> {
    /// On, within the option's turn.
    To(S),
    /// To the start of turn `.0` (0-based), where the own side chooses
    /// again, in this state.
    Turn(usize, C),
    /// The decision ends in this leaf of the option's space.
    End(Leaf),
}

/// The options of a decision as the solver walks them: each option a
/// course machine over states the options share at the start of a turn.
pub trait Options {
    /// The state at the start of a turn, where the own side chooses.
    type Carried: Clone + Eq + Hash;
    /// The state within an option's turn.
    type State: Clone + Eq + Hash;
    /// The procedures rolled.
    type Proc: Procedure;
    /// The options' names.
    fn names(&self) -> Vec<String>;
    /// Option `k`'s outcome space (the leaves it ends in).
    fn space(&self, k: usize) -> &OutcomeSpace;
    /// The state before the first turn.
    fn initial(&self) -> Self::Carried;
    /// Option `k` taken at the start of turn `turn` in `c`.
    fn enter(&self, k: usize, turn: usize, c: &Self::Carried) -> Self::State;
    /// What option `k` does in `s`: roll, or end.
    fn action(&self, k: usize, s: &Self::State) -> Result<Action<Self::Proc>, InputError>;
    /// Where leaf `leaf` of `proc`, rolled by option `k` in `s`, leads.
    fn apply(
        &self,
        k: usize,
        s: &Self::State,
        proc: &Self::Proc,
        leaf: Leaf,
    ) -> Moved<Self::State, Self::Carried>;
}

/// Courses of stages ([`AtStage`] machines) as options: a state is the
/// stage reached and the course's state; a turn starts every `per_turn`
/// stages.
impl<S, M> Options for [OptionCourse<M>]
where
    S: Clone + Eq + Hash,
    M: Machine<State = AtStage<S>>,
{
    type Carried = S;
    type State = AtStage<S>;
    type Proc = M::Proc;
    fn names(&self) -> Vec<String> {
        self.iter().map(|o| o.name.clone()).collect()
    }
    fn space(&self, k: usize) -> &OutcomeSpace {
        self[k].spec.space()
    }
    fn initial(&self) -> S {
        match self[0].spec.initial() {
            AtStage::At(_, s) => s,
            AtStage::Ended(_) => unreachable!("a course starts before its first stage"),
        }
    }
    fn enter(&self, k: usize, turn: usize, c: &S) -> AtStage<S> {
        AtStage::At(turn * self[k].per_turn, c.clone())
    }
    fn action(&self, k: usize, s: &AtStage<S>) -> Result<Action<M::Proc>, InputError> {
        self[k].spec.action(s)
    }
    fn apply(&self, k: usize, s: &AtStage<S>, proc: &M::Proc, leaf: Leaf) -> Moved<AtStage<S>, S> {
        let o = &self[k];
        match o.spec.apply(s, proc, leaf) {
            AtStage::Ended(l) => Moved::End(l),
            AtStage::At(j, n) if j < o.stages && j % o.per_turn == 0 => {
                Moved::Turn(j / o.per_turn, n)
            }
            next => Moved::To(next),
        }
    }
}

/// Course machines ([`Machine`]) over one state type as options, each a
/// course of the option's steps repeated turn after turn: a roll after
/// which the machine's [`Machine::turn`] grows starts a turn.
pub struct MachineOptions<M> {
    /// (option name, its course machine), in file order.
    pub options: Vec<(String, M)>,
}

impl<M: Machine> Options for MachineOptions<M> {
    type Carried = M::State;
    type State = M::State;
    type Proc = M::Proc;
    fn names(&self) -> Vec<String> {
        self.options.iter().map(|(n, _)| n.clone()).collect()
    }
    fn space(&self, k: usize) -> &OutcomeSpace {
        self.options[k].1.space()
    }
    fn initial(&self) -> M::State {
        self.options[0].1.initial()
    }
    fn enter(&self, _: usize, _: usize, c: &M::State) -> M::State {
        c.clone()
    }
    fn action(&self, k: usize, s: &M::State) -> Result<Action<M::Proc>, InputError> {
        self.options[k].1.action(s)
    }
    fn apply(
        &self,
        k: usize,
        s: &M::State,
        proc: &M::Proc,
        leaf: Leaf,
    ) -> Moved<M::State, M::State> {
        let m = &self.options[k].1;
        let next = m.apply(s, proc, leaf);
        match (m.turn(s), m.turn(&next)) {
            // A state that ends as the turn begins ends in this option's
            // space, not the next option's.
            (Some(a), Some(b)) if b > a => match m.action(&next) {
                Ok(Action::End(l)) => Moved::End(l),
                _ => Moved::Turn(b, next),
            },
            _ => Moved::To(next),
        }
    }
}

/// A state of the decision's graph while it is explored.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Key<C, S> {
    /// The start of turn `.0` (0-based) in this state.
    Choose(usize, C),
    /// Option `.0` in this state.
    At(u32, S),
}

/// Solves a decision exactly: explores every state the options reach from
/// their initial state, values each by backward induction, and values
/// "always option k". `name` is the decision's, for the error when its
/// states do not fit.
pub fn solve<O, F>(
    name: &str,
    options: &O,
    features: &F,
    objective: &Objective,
) -> Result<Solved<O::Proc>, InputError>
where
    O: Options + ?Sized,
    F: Features<State = O::Carried>,
{
    let names = options.names();
    if names.is_empty() {
        return Err(InputError::new("a decision needs at least one option"));
    }
    let readers = (0..names.len())
        .map(|k| objective.reader(options.space(k)))
        .collect::<Result<Vec<_>, _>>()?;
    type Seen<C, S> = indexmap::IndexSet<Key<C, S>, rustc_hash::FxBuildHasher>;
    let mut seen: Seen<O::Carried, O::State> = Seen::default();
    // The procedure of each rolling state, taken when it is processed.
    let mut procs: Vec<Option<O::Proc>> = Vec::new();
    let mut nodes: Vec<Node<O::Proc>> = Vec::new();
    let mut choice_states: Vec<(usize, Vec<i32>)> = Vec::new();
    // The edge to `key`: a new state is queued (a rolling one with its
    // procedure); an end is its value.
    let visit = |key: Key<O::Carried, O::State>,
                 seen: &mut Seen<O::Carried, O::State>,
                 procs: &mut Vec<Option<O::Proc>>|
     -> Result<Edge, InputError> {
        if let Some(id) = seen.get_index_of(&key) {
            return Ok(Edge::Node(id as u32));
        }
        let proc = match &key {
            Key::Choose(..) => None,
            Key::At(k, s) => match options.action(*k as usize, s)? {
                Action::End(l) => return Ok(Edge::End(readers[*k as usize](l))),
                Action::Roll(p) => Some(p),
            },
        };
        if seen.len() >= MAX_DECISION_STATES {
            return Err(InputError::new(format!(
                "decision \"{name}\" reaches more than {MAX_DECISION_STATES} states, the most a decision may have"
            ))
            .key("repeat.turns")
            .accepted("fewer turns, fewer options, or units that can end in fewer ways"));
        }
        let (id, _) = seen.insert_full(key);
        procs.push(proc);
        Ok(Edge::Node(id as u32))
    };
    visit(Key::Choose(0, options.initial()), &mut seen, &mut procs)?;
    let mut head = 0;
    while head < seen.len() {
        let key = seen.get_index(head).expect("queued").clone();
        let node = match key {
            Key::Choose(t, c) => {
                let mut edges = Vec::with_capacity(names.len());
                for k in 0..names.len() {
                    let s = options.enter(k, t, &c);
                    edges.push(visit(Key::At(k as u32, s), &mut seen, &mut procs)?);
                }
                choice_states.push((t, features.features(&c)));
                Node::Choose {
                    turn: t,
                    choice: (choice_states.len() - 1) as u32,
                    options: edges,
                }
            }
            Key::At(k, s) => {
                let proc = procs[head].take().expect("a rolling state has its roll");
                let probs = exact::exact(&proc, exact::DEFAULT_BUDGET).map_err(|e| {
                    InputError::new(format!(
                        "decision \"{name}\": a roll of option \"{}\" cannot be enumerated exactly ({e})",
                        names[k as usize]
                    ))
                    .key("option")
                })?;
                let mut edges = Vec::new();
                for (leaf, &p) in probs.iter().enumerate() {
                    if p == 0.0 {
                        continue;
                    }
                    let next = match options.apply(k as usize, &s, &proc, leaf as Leaf) {
                        Moved::End(l) => Edge::End(readers[k as usize](l)),
                        Moved::To(n) => visit(Key::At(k, n), &mut seen, &mut procs)?,
                        Moved::Turn(t, c) => visit(Key::Choose(t, c), &mut seen, &mut procs)?,
                    };
                    edges.push((leaf as Leaf, p, next));
                }
                Node::Roll {
                    option: k,
                    proc,
                    edges,
                }
            }
        };
        nodes.push(node);
        head += 1;
    }
    let order = topological(&nodes).ok_or_else(|| {
        InputError::new(format!(
            "decision \"{name}\" can return to a state it left: it would never end"
        ))
    })?;
    let mut solved = Solved {
        options: names,
        feature_names: features.feature_names(),
        objective: objective.clone(),
        flat: Flat::new(&nodes, &order),
        nodes,
        order,
        choices: choice_states
            .into_iter()
            .map(|(t, f)| Choice {
                turn: t + 1,
                features: f,
                reach: 0.0,
                values: Vec::new(),
                best: 0,
            })
            .collect(),
        value: 0.0,
        always: Vec::new(),
    };
    solved.induct();
    solved.always = (0..solved.options.len())
        .map(|k| solved.evaluate(|_| k))
        .collect();
    Ok(solved)
}

impl<P: Procedure> Solved<P> {
    /// Backward induction: each choice's option values and best option,
    /// the best plan's value, and each choice's reach under it.
    fn induct(&mut self) {
        let mut value = vec![0.0f64; self.nodes.len()];
        let of = |e: &Edge, value: &[f64]| match e {
            Edge::Node(n) => value[*n as usize],
            Edge::End(v) => *v,
        };
        for &i in self.order.iter().rev() {
            value[i as usize] = match &self.nodes[i as usize] {
                Node::Roll { edges, .. } => edges.iter().map(|(_, p, e)| p * of(e, &value)).sum(),
                Node::Choose {
                    choice, options, ..
                } => {
                    let values: Vec<f64> = options.iter().map(|e| of(e, &value)).collect();
                    let mut best = 0;
                    for (k, &v) in values.iter().enumerate() {
                        if self.objective.better(v, values[best]) {
                            best = k;
                        }
                    }
                    let c = &mut self.choices[*choice as usize];
                    c.best = best;
                    c.values = values;
                    c.values[best]
                }
            };
        }
        self.value = value[0];
        let best: Vec<usize> = self.choices.iter().map(|c| c.best).collect();
        let reach = self.reach(|c| best[c]);
        for (c, r) in self.choices.iter_mut().zip(reach) {
            c.reach = r;
        }
    }

    /// The value from the start of the plan that picks `plan(c)` at choice
    /// `c` (an index into [`Solved::choices`]).
    pub fn evaluate(&self, plan: impl Fn(usize) -> usize) -> f64 {
        self.flat.value(plan, &mut Vec::new())
    }

    /// The probability that the plan picking `plan(c)` at choice `c`
    /// reaches each choice.
    pub fn reach(&self, plan: impl Fn(usize) -> usize) -> Vec<f64> {
        let mut mass = vec![0.0f64; self.nodes.len()];
        mass[0] = 1.0;
        let mut out = vec![0.0f64; self.choices.len()];
        for &i in &self.order {
            let m = mass[i as usize];
            if m == 0.0 {
                continue;
            }
            match &self.nodes[i as usize] {
                Node::Roll { edges, .. } => {
                    for (_, p, e) in edges {
                        if let Edge::Node(n) = e {
                            mass[*n as usize] += m * p;
                        }
                    }
                }
                Node::Choose {
                    choice, options, ..
                } => {
                    out[*choice as usize] = m;
                    if let Edge::Node(n) = options[plan(*choice as usize)] {
                        mass[n as usize] += m;
                    }
                }
            }
        }
        out
    }

    /// One trial of the plan picking `plan(c)` at choice `c`, rolled on
    /// `dice` by the options' own procedures: the objective's value at the
    /// end (the Monte Carlo check of the exact value).
    pub fn play<D: Dice>(&self, plan: &impl Fn(usize) -> usize, dice: &mut D) -> f64 {
        let mut at = Edge::Node(0);
        loop {
            match at {
                Edge::End(v) => return v,
                Edge::Node(n) => match &self.nodes[n as usize] {
                    Node::Choose {
                        choice, options, ..
                    } => at = options[plan(*choice as usize)],
                    Node::Roll { proc, edges, .. } => {
                        let leaf = proc.resolve(dice);
                        at = edges
                            .iter()
                            .find(|(l, _, _)| *l == leaf)
                            .map(|(_, _, e)| *e)
                            .expect("a rolled leaf has a non-zero probability");
                    }
                },
            }
        }
    }

    /// The best plan as a table: the best option at choice `c`.
    pub fn best(&self) -> impl Fn(usize) -> usize + '_ {
        |c| self.choices[c].best
    }

    /// Rolling and choice states together.
    pub fn states(&self) -> usize {
        self.nodes.len()
    }
}
