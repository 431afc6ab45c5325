//! Engagements: melee rounds between the same two units until one routs.
//!
//! An engagement is a chain ([`Chain`]) of melee rounds over the units'
//! hits and commanders: round `k` is built again for every state that can
//! reach it (fewer dice as hits mount, fresh status and its impetus lost,
//! a killed commander's −1 Discipline gone), and it ends when a unit routs
//! or after `max_rounds`. Exact probabilities are propagated round by round;
//! rounds that are the same procedure share one exact computation.
//!
//! Only the first round is fought in the phase of the step's situation
//! (charged, moved, shot, bonus dice…): later rounds are later phases, in
//! which the units have done nothing else. Contacts, ground, magic and
//! extra dice stay.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use super::melee::{MeleeInput, MeleeRound, OUTCOMES, melee_keys};
use super::unit::{Unit, finish_step};
use crate::engine::chain::{Chain, ChainSpec, Transition};
use crate::error::InputError;
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::Fields;
use crate::systems::ProcedureInfo;

/// Default number of rounds.
pub const DEFAULT_ROUNDS: u8 = 20;
/// Largest `max_rounds`.
pub const MAX_ROUNDS: u8 = 50;

/// Everything an engagement is built from.
#[derive(Clone, Debug, PartialEq)]
pub struct EngagementInput {
    /// The first round's input.
    pub melee: MeleeInput,
    /// Rounds fought at most.
    pub max_rounds: u8,
    /// Impetus in rounds after the first (by the card's conditions).
    pub later_rounds_impetus: bool,
}

impl EngagementInput {
    /// Rounds of `melee` with the defaults.
    pub fn new(melee: MeleeInput) -> EngagementInput {
        EngagementInput {
            melee,
            max_rounds: DEFAULT_ROUNDS,
            later_rounds_impetus: false,
        }
    }
}

/// The state between rounds: each side's hits and whether its commander is
/// still with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoundState {
    /// Hits of attacker and defender.
    pub hits: [u8; 2],
    /// Commander still with attacker and defender.
    pub commander: [bool; 2],
}

/// Exact results shared by rounds that are the same procedure: keyed by the
/// state and whether the round is a later one.
type RoundCache = RefCell<HashMap<(RoundState, bool), Arc<OnceLock<Vec<f64>>>>>;

/// An engagement as a chain specification.
pub struct EngagementSpec {
    input: EngagementInput,
    space: OutcomeSpace,
    start: RoundState,
    commander_measures: [bool; 2],
    cache: RoundCache,
}

/// What `pikeshot list` says of an engagement.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "engagement",
    rule: "Combat Process; Melee Combat Dice",
    summary: "Melee rounds between the same two units until one routs (or max_rounds): the first in the step's phase, later ones in later phases",
    keys: melee_keys!(
        (
            "max_rounds",
            "1..50 rounds at most (default 20); no rout by then is neither-routs"
        ),
        (
            "later_rounds_impetus",
            "false (default): impetus in the first round only (the charge); true: also in later rounds by the card's conditions"
        ),
    ),
    outcomes: &OUTCOMES,
    measures: &[
        "rounds",
        "attacker-hits",
        "defender-hits",
        "attacker-commander-killed",
        "defender-commander-killed",
    ],
};

impl EngagementSpec {
    /// The specification of `input`.
    pub fn new(input: EngagementInput) -> EngagementSpec {
        let u = &input.melee.units;
        let commander_measures = [u[0].commander.is_some(), u[1].commander.is_some()];
        let mut measures = vec![
            Measure::new("rounds", 1, input.max_rounds as i32),
            Measure::new("attacker-hits", 0, (u[0].strength - u[0].hits) as i32),
            Measure::new("defender-hits", 0, (u[1].strength - u[1].hits) as i32),
        ];
        if commander_measures[0] {
            measures.push(Measure::new("attacker-commander-killed", 0, 1));
        }
        if commander_measures[1] {
            measures.push(Measure::new("defender-commander-killed", 0, 1));
        }
        let start = RoundState {
            hits: [u[0].hits, u[1].hits],
            commander: commander_measures,
        };
        EngagementSpec {
            space: OutcomeSpace::from_labels(&OUTCOMES, measures),
            input,
            start,
            commander_measures,
            cache: RefCell::new(HashMap::new()),
        }
    }

    fn leaf(&self, outcome: usize, rounds: usize, s: &RoundState) -> Leaf {
        let mut v = [0i32; 5];
        v[0] = rounds as i32;
        v[1] = (s.hits[0] - self.start.hits[0]) as i32;
        v[2] = (s.hits[1] - self.start.hits[1]) as i32;
        let mut k = 3;
        for side in 0..2 {
            if self.commander_measures[side] {
                v[k] = (!s.commander[side]) as i32;
                k += 1;
            }
        }
        self.space.leaf(outcome, &v[..k])
    }
}

impl ChainSpec for EngagementSpec {
    type State = RoundState;
    type Proc = MeleeRound;

    fn space(&self) -> &OutcomeSpace {
        &self.space
    }
    fn initial(&self) -> RoundState {
        self.start
    }
    fn steps(&self) -> usize {
        self.input.max_rounds as usize
    }
    fn build(&self, step: usize, state: &RoundState) -> Result<MeleeRound, InputError> {
        let later = step > 0;
        let mut m = self.input.melee.clone();
        for s in 0..2 {
            m.units[s].hits = state.hits[s];
            if !state.commander[s] {
                m.units[s].commander = None;
            }
            if later {
                m.sides[s] = m.sides[s].next_phase();
                if !self.input.later_rounds_impetus {
                    m.sides[s].impetus = false;
                }
            }
        }
        if later {
            m.pursuit = false;
        }
        let cell = self
            .cache
            .borrow_mut()
            .entry((*state, later))
            .or_default()
            .clone();
        Ok(MeleeRound::new(&m, false)?.with_cache(cell))
    }
    fn apply(
        &self,
        step: usize,
        proc: &MeleeRound,
        leaf: Leaf,
        state: &RoundState,
    ) -> Transition<RoundState> {
        let sp = proc.space();
        let strength = [
            self.input.melee.units[0].strength,
            self.input.melee.units[1].strength,
        ];
        let mut next = *state;
        for (s, name) in ["attacker-commander-killed", "defender-commander-killed"]
            .iter()
            .enumerate()
        {
            let new = sp.value_of(leaf, s) as u8;
            next.hits[s] = (state.hits[s] + new).min(strength[s]);
            if let Some(m) = sp.measure_index(name)
                && sp.value_of(leaf, m) == 1
            {
                next.commander[s] = false;
            }
        }
        let outcome = sp.outcome_of(leaf);
        if outcome != 0 {
            Transition::End(self.leaf(outcome, step + 1, &next))
        } else {
            Transition::Continue(next)
        }
    }
    fn finish(&self, state: &RoundState) -> Leaf {
        self.leaf(0, self.input.max_rounds as usize, state)
    }
}

/// An engagement compiled to its chain of rounds.
pub fn engagement(input: EngagementInput) -> Result<Chain<MeleeRound>, InputError> {
    if !(1..=MAX_ROUNDS).contains(&input.max_rounds) {
        return Err(InputError::new(format!("{} rounds", input.max_rounds))
            .key("max_rounds")
            .accepted(format!("a whole number from 1 to {MAX_ROUNDS}")));
    }
    MeleeRound::new(&input.melee, false)?;
    Chain::build(&EngagementSpec::new(input))
}

/// Builds the step from its keys (in [`INFO`]).
pub fn from_step(f: &mut Fields, units: &[Unit]) -> Result<Chain<MeleeRound>, InputError> {
    let melee = MeleeInput::read(f, units)?;
    let mut input = EngagementInput::new(melee);
    input.max_rounds = f
        .int("max_rounds", 1, MAX_ROUNDS as i64)?
        .unwrap_or(DEFAULT_ROUNDS as i64) as u8;
    input.later_rounds_impetus = f.bool("later_rounds_impetus")?.unwrap_or(false);
    finish_step(f, INFO.keys)?;
    MeleeRound::build(&input.melee, false).map_err(|(k, e)| f.locate(k, e))?;
    engagement(input)
}
