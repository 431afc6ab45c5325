//! From the states a course reaches (the run's own state machine, walked
//! by [`crate::engine::chain::reach`]) to its explained steps: every state
//! a step is rolled in becomes a case with the exact probability of
//! reaching it; states whose rolls read the same merge.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use super::{Case, Explain, ResultP, StepExplanation, Trigger, results};
use crate::engine::alias::Tabulated;
use crate::engine::chain::{Chain, Machine, Reach};
use crate::engine::choose::Chosen;
use crate::engine::stages::AtStage;
use crate::engine::{Kernel, KernelMode};
use crate::procedure::Procedure;

/// Which step of a course a state rolls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepKey {
    /// Sort key: steps are listed in this order (then first reached).
    pub order: (u32, u32, u32),
    /// The step's title; states with the same title are one step.
    pub title: String,
    /// The procedure's name.
    pub procedure: String,
    /// Its rule number.
    pub rule: String,
}

/// What a rule system says of its course states, for explaining.
pub trait CourseView {
    /// The state carried between rolls.
    type State;
    /// The procedure rolled.
    type Proc: Explain;
    /// The step `state` rolls (`proc`).
    fn step_of(&self, state: &Self::State, proc: &Self::Proc) -> StepKey;
    /// What the earlier rolls left behind in `state`, one line per unit
    /// that differs from the scenario's units (empty when none does).
    fn state_lines(&self, state: &Self::State) -> Vec<String>;
    /// The rolls that going from `before` to `after` queued.
    fn triggered(&self, before: &Self::State, after: &Self::State) -> Vec<String>;
    /// An identity of `proc`, the same for two states only when they roll
    /// one shared procedure (see [`crate::engine::shared::Shared`]), whose
    /// roll and results are then worked out once; `None` (the default)
    /// works them out for every state.
    fn roll_id(&self, proc: &Self::Proc) -> Option<usize> {
        let _ = proc;
        None
    }
}

/// The explained steps of a course, from every state it reaches.
///
/// The per-state work is kept small: a shared procedure's roll and
/// results are worked out (and serialised, for merging) once; each
/// distinct (roll, results) is interned as a number, so a case's merge key
/// is that number and its triggers, not the roll's JSON copied per state;
/// the rolls a move triggers are asked once per state moved to, not once
/// per leaf; and a state's lines are only written when a case keeps them.
pub fn steps<V: CourseView>(view: &V, reach: &Reach<V::State, V::Proc>) -> Vec<StepExplanation> {
    struct Group {
        key: StepKey,
        first: usize,
        cases: Vec<Case>,
        /// Index of each distinct case by its (roll, results) and triggers.
        index: FxHashMap<(u32, Vec<Trigger>), usize>,
    }
    let mut groups: Vec<Group> = Vec::new();
    // Each distinct (roll, results), by its JSON: the first part of a
    // case's merge key.
    let mut interned: FxHashMap<String, u32> = FxHashMap::default();
    let mut intern = |json: String| {
        let n = interned.len() as u32;
        *interned.entry(json).or_insert(n)
    };
    // A shared procedure's roll, results and interned number, worked out
    // once.
    let mut made: FxHashMap<usize, (super::Roll, Vec<ResultP>, u32)> = FxHashMap::default();
    // Per state: the rolls moving to each next state triggers (deduplicated).
    let mut moves: Vec<(usize, Vec<String>)> = Vec::new();
    for (i, node) in reach.nodes.iter().enumerate() {
        if node.mass <= 0.0 {
            continue;
        }
        let space = node.proc.space();
        let key = view.step_of(&node.state, &node.proc);
        moves.clear();
        for (leaf, &p) in node.probs.iter().enumerate() {
            if p <= 0.0 {
                continue;
            }
            let Some(k) = node.next[leaf] else { continue };
            if !moves.iter().any(|(m, _)| *m == k) {
                let mut seen: Vec<String> = Vec::new();
                for t in view.triggered(&node.state, &reach.nodes[k].state) {
                    if !seen.contains(&t) {
                        seen.push(t);
                    }
                }
                moves.push((k, seen));
            }
        }
        let mut triggers: BTreeMap<(usize, &str), usize> = BTreeMap::new();
        let mut leaves_of: BTreeMap<usize, usize> = BTreeMap::new();
        for (leaf, &p) in node.probs.iter().enumerate() {
            if p <= 0.0 {
                continue;
            }
            let cat = space.outcome_of(leaf as u32);
            *leaves_of.entry(cat).or_default() += 1;
            let Some(k) = node.next[leaf] else { continue };
            let (_, ts) = moves
                .iter()
                .find(|(m, _)| *m == k)
                .expect("every move asked above");
            for t in ts {
                *triggers.entry((cat, t.as_str())).or_default() += 1;
            }
        }
        let triggers: Vec<Trigger> = triggers
            .into_iter()
            .map(|((cat, roll), n)| Trigger {
                on: space.outcomes()[cat].clone(),
                roll: roll.to_string(),
                always: n == leaves_of[&cat],
            })
            .collect();
        let mut make = || {
            let roll = node.proc.roll();
            let results = results(space, &node.probs);
            let json = serde_json::to_string(&(&roll, &results)).expect("a roll serialises");
            let n = intern(json);
            (roll, results, n)
        };
        let fresh;
        let (roll, results, rolled) = match view.roll_id(&node.proc) {
            Some(id) => &*made.entry(id).or_insert_with(make),
            None => {
                fresh = make();
                &fresh
            }
        };
        let g = match groups.iter_mut().position(|g| g.key.title == key.title) {
            Some(g) => &mut groups[g],
            None => {
                groups.push(Group {
                    key,
                    first: i,
                    cases: Vec::new(),
                    index: FxHashMap::default(),
                });
                groups.last_mut().expect("just pushed")
            }
        };
        // A case whose roll, results and triggers are those of one met
        // before merges into it: their probabilities add, and only the
        // state lines both share are kept.
        let merge_key = (*rolled, triggers);
        match g.index.get(&merge_key) {
            Some(&c) => {
                let c = &mut g.cases[c];
                c.p_reached += node.mass;
                if !c.state.is_empty() {
                    let state = view.state_lines(&node.state);
                    c.state.retain(|l| state.contains(l));
                }
            }
            None => {
                let (_, triggers) = &merge_key;
                g.cases.push(Case {
                    p_reached: node.mass,
                    state: view.state_lines(&node.state),
                    roll: roll.clone(),
                    results: results.clone(),
                    triggers: triggers.clone(),
                });
                g.index.insert(merge_key, g.cases.len() - 1);
            }
        }
    }
    groups.sort_by_key(|g| (g.key.order, g.first));
    groups
        .into_iter()
        .map(|mut g| {
            g.cases.sort_by(|a, b| b.p_reached.total_cmp(&a.p_reached));
            let p_reached: f64 = g.cases.iter().map(|c| c.p_reached).sum();
            let mut results: Vec<ResultP> = Vec::new();
            for c in &g.cases {
                for r in &c.results {
                    let w = if p_reached > 0.0 {
                        c.p_reached / p_reached
                    } else {
                        0.0
                    };
                    match results.iter_mut().find(|x| x.id == r.id) {
                        Some(x) => x.p += w * r.p,
                        None => results.push(ResultP {
                            p: w * r.p,
                            ..r.clone()
                        }),
                    }
                }
            }
            StepExplanation {
                title: g.key.title,
                procedure: g.key.procedure,
                rule: g.key.rule,
                p_reached,
                results,
                cases: g.cases,
            }
        })
        .collect()
}

/// A [`CourseView`] for a course of stages (an
/// [`AtStage`] machine): each state is
/// (stage index, state); `name` gives a step's
/// procedure name and rule, `lines` what a state carries.
pub struct StepsView<F, L, S, P> {
    /// The step's (procedure, rule) from its index and procedure.
    pub name: F,
    /// The state's lines.
    pub lines: L,
    /// The state type.
    pub marker: std::marker::PhantomData<fn(&S, &P)>,
}

impl<F, L, S, P> StepsView<F, L, S, P>
where
    F: Fn(usize, &P) -> (String, String),
    L: Fn(&S) -> Vec<String>,
{
    /// A view naming steps with `name` and states with `lines`.
    pub fn new(name: F, lines: L) -> StepsView<F, L, S, P> {
        StepsView {
            name,
            lines,
            marker: std::marker::PhantomData,
        }
    }
}

impl<F, L, S, P> CourseView for StepsView<F, L, S, P>
where
    F: Fn(usize, &P) -> (String, String),
    L: Fn(&S) -> Vec<String>,
    P: Explain,
{
    type State = (usize, S);
    type Proc = P;
    fn step_of(&self, state: &(usize, S), proc: &P) -> StepKey {
        let (procedure, rule) = (self.name)(state.0, proc);
        StepKey {
            order: (0, state.0 as u32, 0),
            title: format!("step {}: {procedure}", state.0 + 1),
            procedure,
            rule,
        }
    }
    fn state_lines(&self, state: &(usize, S)) -> Vec<String> {
        (self.lines)(&state.1)
    }
    fn triggered(&self, _: &(usize, S), _: &(usize, S)) -> Vec<String> {
        Vec::new()
    }
}

/// Explains a course of stages (an
/// [`AtStage`] machine): each step titled
/// by the table its roll reads.
pub fn explain_spec<S, M>(
    name: &str,
    side: &crate::outcome::Side,
    spec: &M,
) -> Result<super::CourseExplanation, crate::error::InputError>
where
    M: Machine<State = AtStage<S>>,
    M::Proc: Explain,
{
    explain_spec_lines(name, side, spec, |_: &S| Vec::new())
}

/// As [`explain_spec`], each state described by `lines` (what the earlier
/// steps left on the units, one line per unit that changed).
pub fn explain_spec_lines<S, M, L>(
    name: &str,
    side: &crate::outcome::Side,
    spec: &M,
    lines: L,
) -> Result<super::CourseExplanation, crate::error::InputError>
where
    M: Machine<State = AtStage<S>>,
    M::Proc: Explain,
    L: Fn(&S) -> Vec<String>,
{
    let r = crate::engine::stages::reach_stages(spec, crate::engine::exact::DEFAULT_BUDGET)?;
    let view = StepsView::new(
        |_, p: &M::Proc| {
            let roll = p.roll();
            (roll.table, roll.rule)
        },
        lines,
    );
    Ok(super::CourseExplanation {
        name: name.to_string(),
        own: side.own.clone(),
        enemy: side.enemy.clone(),
        steps: steps(&view, &r),
        outcomes: results(spec.space(), &r.ends),
    })
}

/// Explains a course of one procedure resolved on its own.
pub fn explain_single<P: Explain>(
    name: &str,
    side: &crate::outcome::Side,
    proc: &P,
) -> Result<super::CourseExplanation, crate::error::InputError> {
    let probs =
        crate::engine::exact::exact(proc, crate::engine::exact::DEFAULT_BUDGET).map_err(|e| {
            crate::error::InputError::new(format!("cannot explain this roll exactly: {e}"))
        })?;
    let roll = proc.roll();
    let res = results(proc.space(), &probs);
    Ok(super::CourseExplanation {
        name: name.to_string(),
        own: side.own.clone(),
        enemy: side.enemy.clone(),
        steps: vec![StepExplanation {
            title: format!("step 1: {}", roll.table),
            procedure: roll.table.clone(),
            rule: roll.rule.clone(),
            p_reached: 1.0,
            results: res.clone(),
            cases: vec![Case {
                p_reached: 1.0,
                state: Vec::new(),
                roll,
                results: res.clone(),
                triggers: Vec::new(),
            }],
        }],
        outcomes: res,
    })
}

/// Which kernel a course's procedure is boxed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Boxer {
    /// [`Chosen`]: a compiled table where one fits with packed counters,
    /// else an alias table of the exact distribution, else the dice.
    Procedure,
    /// [`Tabulated`]: an alias table of the exact distribution.
    Tabulated,
}

impl Boxer {
    fn boxed<P: Procedure + 'static>(self, p: P, mode: KernelMode) -> Box<dyn Kernel> {
        match self {
            Boxer::Procedure => Chosen::boxed(p, mode),
            Boxer::Tabulated => Tabulated::boxed(p, mode),
        }
    }
}

/// A course as a system's reader makes it: one procedure resolved on its
/// own, or a course of stages (an
/// [`AtStage`] machine).
pub enum Made<S, C> {
    /// One procedure.
    Single(S),
    /// A chain of steps.
    Course(C),
}

impl<S, C> Made<S, C>
where
    S: Procedure + 'static,
    C: Machine,
    C::Proc: Procedure + 'static,
{
    /// The course as a kernel: the procedure itself, or the chain of its
    /// steps, boxed by `boxed` (`Chosen::boxed` or
    /// `Tabulated::boxed`).
    pub fn kernel(
        self,
        mode: KernelMode,
        boxed: Boxer,
    ) -> Result<Box<dyn Kernel>, crate::error::InputError> {
        Ok(match self {
            Made::Single(s) => boxed.boxed(s, mode),
            Made::Course(spec) => boxed.boxed(Chain::from_machine(&spec)?, mode),
        })
    }
}

impl<S, C, X> Made<S, C>
where
    S: Explain,
    C: Machine<State = AtStage<X>>,
    C::Proc: Explain,
{
    /// Explains the course.
    pub fn explain(
        &self,
        name: &str,
        side: &crate::outcome::Side,
    ) -> Result<super::CourseExplanation, crate::error::InputError> {
        match self {
            Made::Single(s) => explain_single(name, side, s),
            Made::Course(c) => explain_spec(name, side, c),
        }
    }

    /// Explains the course, each state of a chain described by `lines`.
    pub fn explain_with<L>(
        &self,
        name: &str,
        side: &crate::outcome::Side,
        lines: L,
    ) -> Result<super::CourseExplanation, crate::error::InputError>
    where
        L: Fn(&X) -> Vec<String>,
    {
        match self {
            Made::Single(s) => explain_single(name, side, s),
            Made::Course(c) => explain_spec_lines(name, side, c, lines),
        }
    }
}

/// What a system without editions returns from `explain`: its courses, in
/// file order.
pub fn explained(courses: Vec<(String, super::CourseExplanation)>) -> super::Explained {
    super::Explained {
        edition: None,
        courses: courses.into_iter().map(|(_, c)| c).collect(),
    }
}
