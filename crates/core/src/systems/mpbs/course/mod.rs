//! Musket & Pike courses of action: every procedure behind one enum, and
//! courses (and engagements repeated turn after turn) compiled into a chain
//! over unit states.
//!
//! What a course carries from one roll to the next (docs/rules/mpbs.md,
//! "Courses and engagements"): casualty points from hits, formation hits,
//! morale levels, Salvo markers and leaders; the morale checks a fire result
//! triggers (10.6); after a close combat the leader casualty rolls (5.3), the
//! Unable to Retreat roll (11.4.5) and the cavalry pursuit (11.7.2). Each of
//! these is its own roll in the chain, so the exact answer follows every
//! branch.

use super::close_combat::{self, CcResult, CloseCombat, Side};
use super::leaders::{LeaderOutcome, ReplacementResult};
use super::morale::{self, MoraleCheck, MoraleResult};
use super::musketry::FireResult;
use super::pursuit::{DefendingLeader, Pursuit, PursuitInput, PursuitKeys, PursuitResult};
use super::retreat::{RetreatResult, UnableToRetreat};
use super::threshold::casualty_threshold;
use super::{Edition, Formation, MoraleState, Unit};
use super::{artillery, leaders, light_fire, musketry, orders, pursuit, retreat};

use crate::engine::chain::{Action, Chain, Machine};
use crate::engine::choose::Chosen;
use crate::engine::shared::Shared;
use crate::engine::{Kernel, KernelMode};
use crate::error::InputError;
use crate::outcome::keys::{
    ENEMY_MORALE, FORMATION_HITS_INFLICTED as FH_INFLICTED, FORMATION_HITS_TAKEN as FH_TAKEN,
    HITS_INFLICTED, HITS_TAKEN, OWN_MORALE, TURNS,
};
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::{Fields, course};

mod after_combat;
pub mod decision;
mod explain;
mod procs;
mod rolled;
pub(crate) mod rules;
mod state;
mod step;

pub use explain::explain_course;
use procs::Procs;
use rolled::Rolled;
pub use rules::Readings;
pub use state::*;
use state::{OutcomeIx, Sub, unit_ix};
use step::build;
pub use step::*;

/// Outcome of a course that ended because a unit a later step needs was
/// eliminated.
pub const ENDED_EARLY: &str = "ended early, unit eliminated";
/// Outcome of a course that ended because a unit a later step needs has
/// pursued off the map (11.7.2): neither broken nor eliminated.
pub const PURSUED_OFF_MAP: &str = "pursued off map";
/// Measure: 1 when the course's own unit pursued off the map.
pub const OWN_PURSUED_OFF_MAP: &str = "own-pursued-off-map";
/// Outcome of an engagement that ran all its turns.
pub const TURN_LIMIT: &str = "turn limit";

/// The outcomes a course adds for ending before its last step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct EarlyEnds {
    /// [`ENDED_EARLY`]: a unit a later step needs was eliminated.
    pub eliminated: bool,
    /// [`PURSUED_OFF_MAP`]: a unit a later step needs pursued off the map.
    pub off_map: bool,
}

/// What a Musket & Pike course is built from, as the scenario reads it.
pub struct CourseInput<'a> {
    /// The card.
    pub edition: Edition,
    /// Every unit of the scenario, as it starts.
    pub units: Vec<Unit>,
    /// The course's steps.
    pub steps: Vec<StepSpec<'a>>,
    /// The `[rules]` readings.
    pub rules: Readings,
    /// `repeat = { turns, until, from_step }`, if any.
    pub repeat: Option<Repeat>,
    /// The unit whose results the course reports as its own.
    pub own: Option<usize>,
    /// The unit it reports as the enemy.
    pub enemy: Option<usize>,
}

/// A Musket & Pike course as a state machine.
pub struct Course<'a> {
    /// What it is built from.
    input: CourseInput<'a>,
    space: OutcomeSpace,
    early: EarlyEnds,
    /// Outcome indices of [`ENDED_EARLY`] and [`PURSUED_OFF_MAP`].
    early_index: [Option<OutcomeIx>; 2],
    /// Whether the space has the [`OWN_PURSUED_OFF_MAP`] measure.
    off_map_measure: bool,
    /// Every procedure built so far, by what it is built from: the states
    /// of a chain that roll the same thing share one procedure (and its
    /// exact distribution) instead of each building its own.
    procs: Procs,
}

fn morale_level(m: MoraleState) -> i32 {
    match m {
        MoraleState::Good => 0,
        MoraleState::Shaken => 1,
        MoraleState::Broken => 2,
        MoraleState::Eliminated => 3,
    }
}

fn formation_level(f: Formation) -> i32 {
    match f {
        Formation::Normal => 0,
        Formation::Shaken => 1,
        Formation::Broken => 2,
        _ => 0,
    }
}

impl<'a> Course<'a> {
    /// A course over `units`. `own` and `enemy` are the units whose fate the
    /// key measures report; `early` adds the [`ENDED_EARLY`] and
    /// [`PURSUED_OFF_MAP`] outcomes.
    pub fn new(input: CourseInput<'a>, early: EarlyEnds) -> Result<Course<'a>, InputError> {
        let CourseInput {
            edition,
            ref units,
            ref steps,
            ref rules,
            ref repeat,
            own,
            enemy,
        } = input;
        let most = crate::scenario::limits::MAX_UNITS;
        if units.len() > most {
            return Err(InputError::new(format!(
                "a course over {} units: more than the limit of {most}",
                units.len()
            )));
        }
        // The last step's outcomes, from building it once as the scenario
        // states it (also checks every step's keys up front).
        let mut last = Vec::new();
        let mut max_hits = [0i32; 2];
        let mut fh_steps = [false; 2];
        let mut close_combat = false;
        for (i, s) in steps.iter().enumerate() {
            let lenient = i > 0 || repeat.is_some();
            let p = build(s, &mut s.fields.fresh(), units, edition, rules, lenient)?;
            close_combat |= matches!(p, Step::CloseCombat(_));
            last = p.space().outcomes().to_vec();
            for (k, who) in [enemy, own].into_iter().enumerate() {
                let Some(w) = who else { continue };
                if s.target == Some(w) {
                    max_hits[k] += p.most_hits();
                    fh_steps[k] |= matches!(
                        p,
                        Step::Musketry(_) | Step::Artillery(_) | Step::CloseCombat(_)
                    );
                }
                if s.named().any(|u| u == w) {
                    fh_steps[k] |= matches!(p, Step::CloseCombat(_));
                }
            }
        }
        let mut outcomes: Vec<String> = match &repeat {
            None => last,
            Some(r) => r
                .until
                .iter()
                .map(|s| s.outcome().to_string())
                .chain([TURN_LIMIT.to_string()])
                .collect(),
        };
        let mut early_index = [None; 2];
        for (k, (on, name)) in [
            (early.eliminated, ENDED_EARLY),
            (early.off_map, PURSUED_OFF_MAP),
        ]
        .into_iter()
        .enumerate()
        {
            if on {
                early_index[k] = Some(outcomes.len() as OutcomeIx);
                outcomes.push(name.to_string());
            }
        }
        let off_map_measure =
            rules.pursuit && close_combat && own.is_some_and(|o| units[o].kind.is_cavalry());
        // The measures for `turns` turns (the space grows with them).
        let measures_for = |turns: usize| {
            let turns = turns as i32;
            let mut measures = Vec::new();
            for (k, who, morale_name, hits_name, fh_name) in [
                (1, own, OWN_MORALE, HITS_TAKEN, FH_TAKEN),
                (0, enemy, ENEMY_MORALE, HITS_INFLICTED, FH_INFLICTED),
            ] {
                let Some(w) = who else { continue };
                let u = &units[w];
                let room = (u.strength - u.casualty_points) as i32;
                measures.push(Measure::new(morale_name, 0, 3));
                measures.push(Measure::new(hits_name, 0, (max_hits[k] * turns).min(room)));
                let fh_room = if fh_steps[k] {
                    2 - formation_level(u.formation)
                } else {
                    0
                };
                measures.push(Measure::new(fh_name, 0, fh_room.max(0)));
            }
            if off_map_measure {
                measures
                    .push(Measure::new(OWN_PURSUED_OFF_MAP, 0, 1).labelled("own pursued off map"));
            }
            if repeat.is_some() {
                measures.push(Measure::new(TURNS, 1, turns));
            }
            (outcomes.clone(), measures)
        };
        let space = course::course_space(repeat.as_ref().map(|r| r.turns as usize), measures_for)?;
        Ok(Course {
            input,
            space,
            early,
            early_index,
            off_map_measure,
            procs: Procs::default(),
        })
    }

    /// Which early-end outcomes the space has.
    pub fn early_ends(&self) -> EarlyEnds {
        self.early
    }

    /// Gives back what the course was built from (to build it again).
    pub fn into_input(self) -> CourseInput<'a> {
        self.input
    }

    fn units_in(&self, state: &CourseState) -> Vec<Unit> {
        self.input
            .units
            .iter()
            .zip(&state.units)
            .map(|(u, s)| Unit {
                casualty_points: s.casualty_points.min(u.strength.saturating_sub(1)),
                // A Morale Broken unit has no formation (6.3): no formation
                // modifier, no Hedgehog column; its formation is kept aside.
                formation: if s.no_formation() {
                    Formation::Normal
                } else {
                    s.formation
                },
                morale_state: if s.gone() {
                    MoraleState::Broken
                } else {
                    s.morale
                },
                salvo_marker: s.salvo_marker,
                leader: if s.leader == LeaderState::With {
                    u.leader
                } else {
                    None
                },
                ..u.clone()
            })
            .collect()
    }

    fn final_leaf(&self, state: &CourseState, category: usize) -> Leaf {
        let mut values = Vec::with_capacity(7);
        for who in [self.input.own, self.input.enemy] {
            let Some(w) = who else { continue };
            let (u, s) = (&self.input.units[w], &state.units[w]);
            values.push(morale_level(s.morale));
            values.push((s.casualty_points - u.casualty_points) as i32);
            values.push(formation_level(s.formation) - formation_level(u.formation));
        }
        if self.off_map_measure {
            values.push(self.input.own.is_some_and(|o| state.units[o].off_map) as i32);
        }
        if self.input.repeat.is_some() {
            values.push(state.turn as i32 + 1);
        }
        self.space.leaf(category, &values)
    }

    /// Adds a fire result's hits (casualty points) and formation hit to
    /// unit `t`, queuing the morale checks they and its MC trigger.
    fn take_fire(&self, s: &mut CourseState, t: usize, fire: FireResult, salvo: bool) {
        let (hits, fh, table_mc) = (fire.hits as i32, fire.formation_hit, fire.morale_check);
        let unit = &self.input.units[t];
        let r = &self.input.rules;
        let u = &mut s.units[t];
        let mut ordinary = 0;
        if hits > 0 {
            u.casualty_points = (u.casualty_points as i32 + hits).min(unit.strength as i32) as u8;
            if r.morale_check_on_hits {
                ordinary += 1;
            }
            if r.eliminate_at_strength && u.casualty_points >= unit.strength {
                u.morale = MoraleState::Eliminated;
            }
        }
        if salvo && r.morale_check_on_salvo {
            ordinary += 1;
        }
        if !u.threshold_reached
            && casualty_threshold(unit.morale, unit.strength)
                .is_some_and(|th| u.casualty_points >= th)
        {
            u.threshold_reached = true;
            if r.morale_check_on_threshold {
                ordinary += 1;
            }
        }
        let mut checks = if r.morale_checks_combined {
            ordinary.min(1)
        } else {
            ordinary
        };
        if table_mc && r.morale_check_on_table {
            checks += 1;
        }
        if fh && !u.no_formation() {
            if u.formation == Formation::Broken && r.morale_check_on_broken_formation_hit {
                checks += 1;
            }
            u.formation = u.formation.after_hit();
        }
        for _ in 0..checks {
            s.pending.push(Sub::Morale(unit_ix(t)));
        }
    }

    /// Drops triggered rolls that no longer matter, then checks the stop
    /// conditions and the end of the turn.
    fn settle(&self, mut s: CourseState) -> CourseState {
        loop {
            let units = &s.units;
            s.pending.retain(|sub| match *sub {
                Sub::Morale(u) | Sub::UnableToRetreat(u) | Sub::LeaderCasualty(u) => {
                    !units[u as usize].out()
                }
                Sub::Pursuit(p, _, _, _) => !units[p as usize].out(),
            });
            if s.ended.is_some() || !s.pending.is_empty() {
                return s;
            }
            if let Some(r) = &self.input.repeat {
                for (i, stop) in r.until.iter().enumerate() {
                    let hit = match stop {
                        Stop::EnemyBroken => self
                            .input
                            .enemy
                            .is_some_and(|e| morale_level(s.units[e].morale) >= 2),
                        Stop::EnemyThreshold => self
                            .input
                            .enemy
                            .is_some_and(|e| s.units[e].threshold_reached),
                        Stop::OwnBroken => self
                            .input
                            .own
                            .is_some_and(|o| morale_level(s.units[o].morale) >= 2),
                    };
                    if hit {
                        s.ended = Some(i as OutcomeIx);
                        return s;
                    }
                }
            }
            if s.pc as usize == self.input.steps.len() {
                match &self.input.repeat {
                    Some(r) if s.turn + 1 < r.turns => {
                        // A replaced leader returns at the end of the turn
                        // after its casualty (5.3.3).
                        for u in &mut s.units {
                            if u.leader == LeaderState::BackAfterTurn(s.turn) {
                                u.leader = LeaderState::With;
                            }
                        }
                        s.turn += 1;
                        s.pc = r.from_step;
                        continue;
                    }
                    Some(r) => s.ended = Some(r.until.len() as OutcomeIx),
                    None => s.ended = Some(s.last),
                }
                return s;
            }
            let next = &self.input.steps[s.pc as usize];
            let needed = || next.named();
            let end = if needed().any(|i| s.units[i].gone()) {
                Some(0)
            } else if needed().any(|i| s.units[i].off_map) {
                Some(1)
            } else {
                None
            };
            if let Some(k) = end {
                s.ended = Some(
                    self.early_index[k]
                        .expect("ended early in a course built without that outcome"),
                );
            }
            return s;
        }
    }

    /// Whether the step of `state` is read leniently: any step but the
    /// first roll of a course that does not repeat.
    fn lenient(&self, state: &CourseState) -> bool {
        state.pc > 0 || state.turn > 0 || self.input.repeat.is_some()
    }

    fn step_proc(&self, state: &CourseState) -> Result<Step, InputError> {
        let s = &self.input.steps[state.pc as usize];
        build(
            s,
            &mut s.fields.fresh(),
            &self.units_in(state),
            self.input.edition,
            &self.input.rules,
            self.lenient(state),
        )
    }
}

impl Machine for Course<'_> {
    type State = CourseState;
    type Proc = Shared<Step>;

    fn turn(&self, state: &CourseState) -> Option<usize> {
        self.input.repeat.as_ref().map(|_| state.turn as usize)
    }

    fn space(&self) -> &OutcomeSpace {
        &self.space
    }

    fn initial(&self) -> CourseState {
        self.settle(CourseState {
            units: self.input.units.iter().map(UnitState::of).collect(),
            turn: 0,
            pc: 0,
            pending: Pending::new(),
            last: 0,
            ended: None,
        })
    }

    fn action(&self, state: &CourseState) -> Result<Action<Shared<Step>>, InputError> {
        if let Some(c) = state.ended {
            return Ok(Action::End(self.final_leaf(state, c as usize)));
        }
        let proc = self
            .procs
            .get_or_build(state, self.lenient(state), || self.build_action(state))?;
        Ok(Action::Roll(proc))
    }

    fn apply(&self, state: &CourseState, proc: &Shared<Step>, leaf: Leaf) -> CourseState {
        self.apply_step(state, proc, leaf)
    }
}

impl Course<'_> {
    /// Builds the roll of `state` (which has not ended).
    fn build_action(&self, state: &CourseState) -> Result<Step, InputError> {
        let units = || self.units_in(state);
        let e = self.input.edition;
        let proc = match state.pending.first() {
            Some(&Sub::Morale(u)) => {
                let d = self.input.rules.morale_check_drm;
                let terms = (d != 0).then(|| {
                    crate::explain::Term::new(
                        "morale check DRM",
                        "10.6",
                        d,
                        crate::explain::Source::rules(format!("morale_check_drm = {d}")),
                    )
                });
                Step::MoraleCheck(MoraleCheck::with_terms(
                    self.input.units[u as usize].morale,
                    terms.into_iter().collect(),
                ))
            }
            Some(&Sub::Pursuit(p, _, momentum, leader)) => {
                let mut input = PursuitInput::new(units()[p as usize].clone());
                input.momentum_used = momentum;
                // The leader used in the close combat counts while it is
                // still with its unit (docs/rules/mpbs.md, "Cavalry Pursuit").
                let used = leader
                    .filter(|&(u, _)| state.units[u as usize].leader == LeaderState::With)
                    .map(|(_, m)| m as i32);
                self.input.rules.pursuit_keys.apply(&mut input, used);
                if !pursuit::column(e, input.column).leader {
                    input.leader = None;
                }
                Step::Pursuit(Pursuit::new(e, &input)?)
            }
            Some(&Sub::UnableToRetreat(u)) => {
                Step::UnableToRetreat(UnableToRetreat::new(e, &units()[u as usize], 0)?)
            }
            Some(&Sub::LeaderCasualty(_)) => {
                Step::LeaderCasualty(leaders::LeaderCasualty::new(e, 0, 0)?)
            }
            None => self.step_proc(state)?,
        };
        Ok(proc)
    }

    /// The state after leaf `leaf` of `proc`, rolled in `state`.
    fn apply_step(&self, state: &CourseState, proc: &Step, leaf: Leaf) -> CourseState {
        let mut s = state.clone();
        let rolled = proc.rolled(leaf);
        if !s.pending.is_empty() {
            let sub = s.pending.remove(0);
            self.after_sub(&mut s, sub, rolled);
            return self.settle(s);
        }
        let spec = &self.input.steps[s.pc as usize];
        match rolled {
            Rolled::Fire { result, salvo } => {
                if let Some(t) = spec.target {
                    self.take_fire(&mut s, t, result, salvo);
                }
                if let (true, Some(a)) = (salvo, spec.actor) {
                    s.units[a].salvo_marker = true;
                }
            }
            Rolled::CloseCombat(cc, r) => self.after_close_combat(&mut s, spec, cc, r),
            Rolled::Morale(r) => {
                if let (Some(t), MoraleResult::Fail) = (spec.target.or(spec.actor), r) {
                    s.units[t].lose_morale();
                }
            }
            Rolled::Retreat(r) => {
                if let Some(t) = spec.target {
                    s.units[t].morale = after_retreat(r);
                }
            }
            // A pursuit or leader casualty written as a step of its own
            // reports its result and changes no unit state.
            Rolled::Pursuit(_) | Rolled::Leader(_) | Rolled::Orders => {}
        }
        if self.input.repeat.is_none() {
            // Only a plain course reports its last step's outcome; an
            // engagement reports why it stopped (and carries fewer states).
            s.last = proc.space().outcome_of(leaf) as OutcomeIx;
        }
        s.pc += 1;
        self.settle(s)
    }

    /// What the result of a triggered roll does.
    fn after_sub(&self, s: &mut CourseState, sub: Sub, rolled: Rolled) {
        match (sub, rolled) {
            (Sub::Morale(u), Rolled::Morale(MoraleResult::Fail)) => {
                s.units[u as usize].lose_morale();
            }
            (Sub::Pursuit(p, beaten, _, _), Rolled::Pursuit(r)) => match r {
                PursuitResult::PursueAndEliminate => {
                    s.units[beaten as usize].morale = MoraleState::Eliminated;
                    s.units[p as usize].formation = Formation::Broken;
                }
                // The pursuer leaves the fight having won: off the map,
                // neither broken nor eliminated (docs/rules/mpbs.md,
                // "Cavalry Pursuit").
                PursuitResult::PursueOffMapAndEliminate => {
                    s.units[beaten as usize].morale = MoraleState::Eliminated;
                    s.units[p as usize].off_map = true;
                }
                PursuitResult::BreakOff => {}
            },
            (Sub::UnableToRetreat(u), Rolled::Retreat(r)) => {
                s.units[u as usize].morale = after_retreat(r);
            }
            // 5.3.3: "0 Return original Leader Immediately" keeps the
            // leader; "1" brings it back at the end of the next turn of
            // an engagement; "2-9" replaces it for good.
            (Sub::LeaderCasualty(u), Rolled::Leader(r)) => {
                let leader = &mut s.units[u as usize].leader;
                match r {
                    LeaderOutcome::NoEffect
                    | LeaderOutcome::Removed(ReplacementResult::ReturnsImmediately) => {}
                    LeaderOutcome::Removed(ReplacementResult::ReturnsEndOfNextTurn)
                        if self.input.repeat.is_some() =>
                    {
                        *leader = LeaderState::BackAfterTurn(s.turn.saturating_add(1));
                    }
                    LeaderOutcome::Removed(_) => *leader = LeaderState::Lost,
                }
            }
            // A passed check; a triggered roll is built by its kind
            // (`build_action`), so no other result follows it.
            _ => {}
        }
    }
}

/// A Morale Broken unit's morale after the Unable to Retreat Table (11.4.5):
/// eliminated, or it stands and returns to Morale Shaken.
fn after_retreat(r: RetreatResult) -> MoraleState {
    match r {
        RetreatResult::Eliminated => MoraleState::Eliminated,
        RetreatResult::Stands => MoraleState::Shaken,
    }
}

/// Compiles a course into a kernel. The early-end outcomes ([`ENDED_EARLY`],
/// [`PURSUED_OFF_MAP`]) are listed only when some path reaches them, so a
/// course that always runs to its end reports exactly its last step's
/// outcomes.
pub fn compile(input: CourseInput<'_>, mode: KernelMode) -> Result<Box<dyn Kernel>, InputError> {
    let (_, chain, _) = settle_course(input, false)?;
    Ok(Chosen::boxed(chain, mode))
}

/// The course a run resolves: built with every early-end outcome, then
/// again with only those some path reaches; with its chain and, when
/// `with_states` (to explain it), the state of each node of the chain.
#[allow(clippy::type_complexity)]
pub fn settle_course(
    input: CourseInput<'_>,
    with_states: bool,
) -> Result<(Course<'_>, Chain<Shared<Step>>, Vec<CourseState>), InputError> {
    let all = EarlyEnds {
        eliminated: true,
        off_map: true,
    };
    let course = Course::new(input, all)?;
    let (chain, states) = if with_states {
        Chain::with_states(&course)?
    } else {
        (Chain::from_machine(&course)?, Vec::new())
    };
    let reached = EarlyEnds {
        eliminated: course.early_index[0].is_some_and(|i| chain.can_end_in(i as usize)),
        off_map: course.early_index[1].is_some_and(|i| chain.can_end_in(i as usize)),
    };
    if reached == all {
        return Ok((course, chain, states));
    }
    let wide_index = course.early_index;
    let wide_space = course.space.clone();
    let procs = course.procs.take();
    // The narrower course has the same states (its ends renumbered), so
    // the chain built is kept and only its end leaves are moved over; its
    // rolls are the same too, so it keeps those built (which an explained
    // course walks again).
    let mut narrow = Course::new(course.into_input(), reached)?;
    narrow.procs = procs;
    let chain = {
        let (wide, slim) = (&wide_space, &narrow.space);
        let moved = |cat: usize| match wide_index.iter().position(|&i| i == Some(cat as OutcomeIx))
        {
            Some(k) => {
                narrow.early_index[k].expect("an outcome some path reaches is kept") as usize
            }
            None => cat,
        };
        chain.remap(slim.clone(), |l| {
            let values: Vec<i32> = (0..wide.measures().len())
                .map(|m| wide.value_of(l, m))
                .collect();
            slim.leaf(moved(wide.outcome_of(l)), &values)
        })
    };
    // A rolling state has not ended, so holds no end outcome: the
    // states are the narrower course's as they are.
    Ok((narrow, chain, states))
}
