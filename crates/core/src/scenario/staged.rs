//! A course's stages under its `repeat` ([`Staged`]: the steps before
//! `from_step` once, then the others turn after turn), with what the
//! repeat says of them (which steps repeat, the stop conditions). Hakkaa
//! Päälle, Snaphance and Sword & Spear courses are course machines over
//! these stages ([`crate::engine::stages`]).

use super::course::Repeat;
use crate::engine::stages::{Stage, Stages};

/// A course's stages under its repeat: what every system's course machine
/// asks of them (the chain's steps, each stage's step and turn, whether a
/// step repeats).
#[derive(Clone, Debug)]
pub struct Staged<S> {
    stages: Stages,
    repeat: Option<Repeat<S>>,
}

impl<S> Staged<S> {
    /// The stages of a course of `steps` steps with `repeat`: the steps
    /// before the repeat once, then the others turn after turn.
    pub fn new(steps: usize, repeat: Option<Repeat<S>>) -> Staged<S> {
        let stages = Stages::new(steps, repeat.as_ref().map(|r| (r.turns, r.from_step)));
        Staged { stages, repeat }
    }
    /// The stages, as the course machine walks them.
    pub fn stages(&self) -> &Stages {
        &self.stages
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
        self.stages.stage(stage)
    }
    /// Stage `stage`, if the course has it.
    pub fn get(&self, stage: usize) -> Option<Stage> {
        self.stages.get(stage)
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
