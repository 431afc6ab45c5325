//! A course's stages under its `repeat` ([`Staged`]: the steps before
//! `from_step` once, then the others turn after turn), and the course
//! machine written over them ([`StagedChain`]), which is a [`ChainSpec`]
//! whose steps are the stages. Hakkaa Päälle, Snaphance and Sword & Spear
//! courses are such machines: each says what a stage builds and what its
//! result does, and the stage look-up, the chain's length and each stage's
//! turn are written once here.

use super::course::Repeat;
use crate::engine::chain::{ChainSpec, Transition};
use crate::error::InputError;
use crate::outcome::{Leaf, OutcomeSpace};
use crate::procedure::Procedure;
use std::hash::Hash;

/// One stage of a course's chain: step `step` in turn `turn` (1-based; a
/// course without `repeat` has one turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stage {
    /// The step (0-based).
    pub step: usize,
    /// The turn (1-based).
    pub turn: u8,
}

/// The stages of a course of `steps` steps repeated `turns` times from
/// `from_step` on (`None`: one turn of every step): the steps before
/// `from_step` once, then the others turn after turn.
fn stages(steps: usize, repeat: Option<(u8, usize)>) -> Vec<Stage> {
    let (turns, from_step) = repeat.unwrap_or((1, steps));
    let mut stages: Vec<Stage> = (0..from_step).map(|step| Stage { step, turn: 1 }).collect();
    for turn in 1..=turns {
        stages.extend((from_step..steps).map(|step| Stage { step, turn }));
    }
    stages
}

/// A course's stages under its repeat: what every system's course machine
/// asks of them (the chain's steps, each stage's step and turn, whether a
/// step repeats).
#[derive(Clone, Debug)]
pub struct Staged<S> {
    stages: Vec<Stage>,
    repeat: Option<Repeat<S>>,
}

impl<S> Staged<S> {
    /// The stages of a course of `steps` steps with `repeat`: the steps
    /// before the repeat once, then the others turn after turn.
    pub fn new(steps: usize, repeat: Option<Repeat<S>>) -> Staged<S> {
        let stages = stages(steps, repeat.as_ref().map(|r| (r.turns, r.from_step)));
        Staged { stages, repeat }
    }
    /// How many stages (the chain's steps).
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
    /// ([`crate::engine::chain`]'s `turn`); `None` when the course does not
    /// repeat.
    pub fn turn(&self, stage: usize) -> Option<usize> {
        self.repeat.is_some().then(|| {
            let turn = self.stages.get(stage).map_or(0, |s| s.turn as usize);
            turn.saturating_sub(1)
        })
    }
    /// The course's repeat, if any.
    pub fn repeat(&self) -> Option<&Repeat<S>> {
        self.repeat.as_ref()
    }
    /// Whether step `step` runs turn after turn.
    pub fn repeats(&self, step: usize) -> bool {
        self.repeat.as_ref().is_some_and(|r| r.repeats(step))
    }
    /// The most turns the course runs (1 without `repeat`).
    pub fn turns(&self) -> u8 {
        self.repeat.as_ref().map_or(1, |r| r.turns)
    }
    /// Whether any stop condition of the repeat holds, by `holds` (never
    /// without a repeat).
    pub fn any_stop(&self, holds: impl FnMut(&S) -> bool) -> bool {
        self.repeat
            .as_ref()
            .is_some_and(|r| r.until.iter().any(holds))
    }
    /// Whether step `step` begins a turn of the repeat.
    pub fn begins_turn(&self, step: usize) -> bool {
        self.repeat.as_ref().is_some_and(|r| r.from_step == step)
    }
}

/// A course machine over the stages of a [`Staged`]: what a system's
/// course builds at each stage and what a result there does. Every
/// `StagedChain` is a [`ChainSpec`] whose steps are its stages (by the
/// impl below), so the engine's chain and the explain walk take it as it
/// is. `space`, `initial` and `finish` mean the same under both traits;
/// where they are called, bring one of the two into scope.
pub trait StagedChain {
    /// The state carried from stage to stage (unit states, measures so far).
    type State: Clone + Eq + Hash;
    /// The procedure a stage resolves.
    type Proc: Procedure;
    /// The system's stop conditions (what `repeat.until` reads into).
    type Stop;
    /// The outcome space of the whole course.
    fn space(&self) -> &OutcomeSpace;
    /// The course's stages under its repeat.
    fn staged(&self) -> &Staged<Self::Stop>;
    /// The state before the first stage.
    fn initial(&self) -> Self::State;
    /// Builds the procedure of `stage` for `state`.
    fn build(&self, stage: Stage, state: &Self::State) -> Result<Self::Proc, InputError>;
    /// What leaf `leaf` of `proc`, rolled at `stage` in `state`, does to
    /// it; `next` is the stage that follows (`None` after the last).
    /// After the last stage, [`Transition::Continue`] is turned into an end
    /// by [`StagedChain::finish`].
    fn apply(
        &self,
        stage: Stage,
        next: Option<Stage>,
        proc: &Self::Proc,
        leaf: Leaf,
        state: &Self::State,
    ) -> Transition<Self::State>;
    /// The course's leaf for a state after the last stage.
    fn finish(&self, state: &Self::State) -> Leaf;
}

/// A course over stages is a chain of its stages, each reporting its turn.
impl<C: StagedChain> ChainSpec for C {
    type State = C::State;
    type Proc = C::Proc;
    fn space(&self) -> &OutcomeSpace {
        StagedChain::space(self)
    }
    fn initial(&self) -> C::State {
        StagedChain::initial(self)
    }
    fn steps(&self) -> usize {
        self.staged().len()
    }
    fn build(&self, step: usize, state: &C::State) -> Result<C::Proc, InputError> {
        StagedChain::build(self, self.staged().stage(step), state)
    }
    fn apply(
        &self,
        step: usize,
        proc: &C::Proc,
        leaf: Leaf,
        state: &C::State,
    ) -> Transition<C::State> {
        let staged = self.staged();
        let (stage, next) = (staged.stage(step), staged.get(step + 1));
        StagedChain::apply(self, stage, next, proc, leaf, state)
    }
    fn finish(&self, state: &C::State) -> Leaf {
        StagedChain::finish(self, state)
    }
    fn turn(&self, step: usize, _state: &C::State) -> Option<usize> {
        self.staged().turn(step)
    }
}
