//! Courses of fixed stages as course machines ([`Machine`]): a course
//! whose every roll is the next stage (a step in a turn) carries
//! [`AtStage`] states, and [`Stages`] writes once what such a machine does
//! between stages (which stage comes next, when the course ends, each
//! stage's turn). A system's course says only what a stage rolls and what
//! its result does.

use crate::engine::chain::{Action, Machine};
use crate::error::InputError;
use crate::outcome::Leaf;

/// One stage of a course: step `step` in turn `turn` (1-based; a course
/// that does not repeat has one turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stage {
    /// The step (0-based).
    pub step: usize,
    /// The turn (1-based).
    pub turn: u8,
}

/// What a stage's result does to the state: go on to the next stage, or
/// stop here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Transition<S> {
    /// Continue with the next stage from this state.
    Continue(S),
    /// The course ends now, in this leaf of the course's space.
    End(Leaf),
}

/// The state of a course of stages: the stage reached (its index) with
/// what the earlier stages left, or the leaf it ended in.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AtStage<S> {
    /// Before stage `.0` (an index into [`Stages`]), in this state.
    At(usize, S),
    /// The course ended in this leaf of its space.
    Ended(Leaf),
}

/// The stages of a course, in the order they are rolled: the steps before
/// the repeat's first once, then the others turn after turn.
#[derive(Clone, Debug)]
pub struct Stages {
    stages: Vec<Stage>,
    repeats: bool,
}

impl Stages {
    /// The stages of a course of `steps` steps repeated `turns` times from
    /// step `from_step` on (`repeat = Some((turns, from_step))`), or of
    /// one turn of every step (`None`).
    pub fn new(steps: usize, repeat: Option<(u8, usize)>) -> Stages {
        let (turns, from_step) = repeat.unwrap_or((1, steps));
        let mut stages: Vec<Stage> = (0..from_step).map(|step| Stage { step, turn: 1 }).collect();
        for turn in 1..=turns {
            stages.extend((from_step..steps).map(|step| Stage { step, turn }));
        }
        Stages {
            stages,
            repeats: repeat.is_some(),
        }
    }
    /// How many stages.
    pub fn len(&self) -> usize {
        self.stages.len()
    }
    /// Whether there are none (never, for a course of at least one step).
    pub fn is_empty(&self) -> bool {
        self.stages.is_empty()
    }
    /// Stage `stage`.
    pub fn stage(&self, stage: usize) -> Stage {
        self.stages[stage]
    }
    /// Stage `stage`, if the course has it.
    pub fn get(&self, stage: usize) -> Option<Stage> {
        self.stages.get(stage).copied()
    }
    /// The 0-based turn a repeated course reports for stage `stage`
    /// ([`Machine::turn`]); `None` when the course does not repeat.
    pub fn turn(&self, stage: usize) -> Option<usize> {
        self.repeats.then(|| {
            let turn = self.stages.get(stage).map_or(0, |s| s.turn as usize);
            turn.saturating_sub(1)
        })
    }
    /// [`Machine::action`] of a course of these stages in `state`: roll
    /// what `build` makes of its stage, or end (in `finish`'s leaf after
    /// the last stage).
    pub fn action<S, P>(
        &self,
        state: &AtStage<S>,
        build: impl FnOnce(Stage, &S) -> Result<P, InputError>,
        finish: impl FnOnce(&S) -> Leaf,
    ) -> Result<Action<P>, InputError> {
        Ok(match state {
            AtStage::Ended(l) => Action::End(*l),
            AtStage::At(i, s) => match self.get(*i) {
                Some(stage) => Action::Roll(build(stage, s)?),
                None => Action::End(finish(s)),
            },
        })
    }
    /// [`Machine::apply`] of a course of these stages: `step` says what the
    /// result rolled in `state` does, given its stage and the stage after
    /// (`None` after the last).
    pub fn apply<S>(
        &self,
        state: &AtStage<S>,
        step: impl FnOnce(Stage, Option<Stage>, &S) -> Transition<S>,
    ) -> AtStage<S> {
        match state {
            AtStage::At(i, s) => match step(self.stage(*i), self.get(i + 1), s) {
                Transition::Continue(next) => AtStage::At(i + 1, next),
                Transition::End(l) => AtStage::Ended(l),
            },
            AtStage::Ended(_) => unreachable!("an ended course rolls nothing"),
        }
    }
    /// [`Machine::turn`] of a course of these stages in `state`.
    pub fn turn_of<S>(&self, state: &AtStage<S>) -> Option<usize> {
        match state {
            AtStage::At(i, _) => self.turn(*i),
            AtStage::Ended(_) => None,
        }
    }
}

/// Every rolling state of a course of stages, as [`crate::engine::chain::reach`]
/// finds them, each as (stage index, state).
pub fn reach_stages<S, M>(
    m: &M,
    budget: u64,
) -> Result<crate::engine::chain::Reach<(usize, S), M::Proc>, InputError>
where
    M: Machine<State = AtStage<S>>,
{
    use crate::engine::chain::{Reach, Reached, reach};
    let r = reach(m, budget)?;
    let nodes = r
        .nodes
        .into_iter()
        .map(|r| Reached {
            state: match r.state {
                AtStage::At(i, s) => (i, s),
                AtStage::Ended(_) => unreachable!("an ended course rolls nothing"),
            },
            proc: r.proc,
            mass: r.mass,
            probs: r.probs,
            next: r.next,
        })
        .collect();
    Ok(Reach {
        nodes,
        ends: r.ends,
    })
}
