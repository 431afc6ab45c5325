//! Hakkaa Päälle steps and courses: every procedure behind one enum, the
//! composite `charge`, and courses and engagements compiled to a chain over
//! the units' states (a [`Machine`] over
//! [`Stages`](crate::engine::stages::Stages): the plans' parts, under the
//! course's `repeat`).
//!
//! A `charge` is a course of three parts on the chain: the charger's
//! Closing test, the target's Charge Reaction test (with its reaction fire)
//! when the charger goes in, and the Close Combat test of both sides when
//! the charge makes contact. Exact probabilities are propagated part by part
//! over the units' states.
//!
//! An engagement is a course with `repeat = { turns, until, from_step }`:
//! its steps from `from_step` on repeat turn after turn (those before it run
//! in the first turn only) until an `until` condition holds (checked after
//! every step) or the turns run out; the `turns` measure says when it stopped. A step whose
//! unit cannot act (fled or eliminated; a charge on a fleeing target; a
//! fleeing test of a unit that is not fleeing) is skipped.

use super::close_combat::{self, CloseCombat};
use super::closing::{self, CONTACT, Closing};
use super::draw::Draw;
use super::fire::{self, Fire};
use super::fleeing::{self, Fleeing};
use super::pair;
use super::plan::Part;
pub use super::plan::Plan;
use super::reaction::{self, ChargeReaction};
use super::repeat::Stop;
use super::tq::extra_tq;
use super::tq::{self, Readings, TroopQualityTest};
use super::uncontrolled::{self, Uncontrolled};
use super::unit::{Status, Unit, UnitState};
use std::cell::RefCell;

use crate::dice::{Dice, EnumerationError};
use crate::engine::chain::{Action, Machine};
use crate::engine::stages::{AtStage, Stage, Transition};
use crate::error::InputError;
use crate::outcome::keys::{ENEMY_MORALE, HITS_INFLICTED, HITS_TAKEN, OWN_MORALE};
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::course::Repeat;
use crate::scenario::staged::Staged;
use crate::systems::{KeyDoc, ProcedureInfo};

/// A step that cannot happen in the state reached: no dice, no change.
#[derive(Clone, Debug)]
pub struct Skip {
    space: OutcomeSpace,
    why: String,
}

impl Skip {
    /// A step that does not happen, `why` saying which state stops it
    /// (e.g. "swedes did not reach contact").
    pub fn because(why: impl Into<String>) -> Skip {
        Skip {
            space: OutcomeSpace::from_labels(&["skipped"], vec![]),
            why: why.into(),
        }
    }
    /// Why the step does not happen.
    pub fn why(&self) -> &str {
        &self.why
    }
}

impl Procedure for Skip {
    fn space(&self) -> &OutcomeSpace {
        &self.space
    }
    #[inline]
    fn resolve<D: Dice>(&self, _: &mut D) -> Leaf {
        0
    }
    fn exact(&self, _: u64) -> Option<Result<Vec<f64>, EnumerationError>> {
        Some(Ok(vec![1.0]))
    }
}

/// Any Hakkaa Päälle procedure, as one step (or part of a step) of a course.
///
/// Held by value in the chain's nodes so a trial does not chase pointers:
/// the largest variant (a charge reaction with its two volleys) is about a
/// kilobyte, and a chain has at most a few thousand nodes.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Step {
    /// See [`TroopQualityTest`].
    Tq(TroopQualityTest),
    /// See [`Fire`].
    Fire(Fire),
    /// See [`Closing`].
    Closing(Closing),
    /// See [`ChargeReaction`].
    Reaction(ChargeReaction),
    /// See [`CloseCombat`].
    CloseCombat(CloseCombat),
    /// See [`Fleeing`].
    Fleeing(Fleeing),
    /// See [`Uncontrolled`].
    Uncontrolled(Uncontrolled),
    /// See [`Skip`].
    Skip(Skip),
}

macro_rules! each {
    ($s:expr, $p:ident => $e:expr) => {
        match $s {
            Step::Tq($p) => $e,
            Step::Fire($p) => $e,
            Step::Closing($p) => $e,
            Step::Reaction($p) => $e,
            Step::CloseCombat($p) => $e,
            Step::Fleeing($p) => $e,
            Step::Uncontrolled($p) => $e,
            Step::Skip($p) => $e,
        }
    };
}

impl Procedure for Step {
    fn space(&self) -> &OutcomeSpace {
        each!(self, p => p.space())
    }
    #[inline]
    fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
        each!(self, p => p.resolve(dice))
    }
    fn exact(&self, budget: u64) -> Option<Result<Vec<f64>, EnumerationError>> {
        each!(self, p => p.exact(budget))
    }
}

impl Step {
    /// Runs once on any [`Draw`] (a skip draws nothing).
    pub fn run<W: Draw>(&self, w: &mut W) -> Leaf {
        match self {
            Step::Tq(p) => p.run(w),
            Step::Fire(p) => p.run(w),
            Step::Closing(p) => p.run(w),
            Step::Reaction(p) => p.run(w),
            Step::CloseCombat(p) => p.run(w),
            Step::Fleeing(p) => p.run(w),
            Step::Uncontrolled(p) => p.run(w),
            Step::Skip(_) => 0,
        }
    }
}

/// Measure of courses with a charge: close combats fought.
pub const CLOSE_COMBATS: &str = "close-combats";
/// Measure of engagements: the turn the engagement stopped in.
pub use crate::outcome::keys::TURNS;
/// Measure of a course: whether the target's attached commander was injured.
pub const COURSE_TARGET_COMMANDER: &str = pair::TARGET_COMMANDER_INJURED;
/// Measure of a course: whether the own unit's attached commander was injured.
pub const COURSE_OWN_COMMANDER: &str = pair::OWN_COMMANDER_INJURED;
/// The measures of a course with a target, in space order (`close-combats`
/// and `turns` follow where the course has them).
pub const COURSE_MEASURES: [&str; 6] = [
    HITS_INFLICTED,
    COURSE_TARGET_COMMANDER,
    OWN_MORALE,
    ENEMY_MORALE,
    HITS_TAKEN,
    COURSE_OWN_COMMANDER,
];
/// The measures of a course of one unit, in space order (`turns` follows in
/// an engagement).
pub const UNIT_COURSE_MEASURES: [&str; 3] = [OWN_MORALE, HITS_TAKEN, "commander-injured"];

/// A course measure ranging over `0..=max`, labelled in words (the key
/// measures take theirs from [`crate::outcome::keys::label`]).
fn course_measure(name: &'static str, max: i32) -> Measure {
    let m = Measure::new(name, 0, max);
    match name {
        COURSE_TARGET_COMMANDER => m.labelled("target commander injured"),
        COURSE_OWN_COMMANDER => m.labelled("own commander injured"),
        "commander-injured" => m.labelled("commander injured"),
        _ => m,
    }
}

/// A unit's state on the key-outcome morale scale of every system (0 good,
/// 1 shaken, 2 broken, 3 eliminated): steady 0; disordered or fallen back 1;
/// fled 2; eliminated 3 (docs/rules/hakkaa.md, "Key outcomes").
pub fn morale_level(s: &UnitState) -> i32 {
    match s.status_index() {
        0 => 0,
        1 | 2 => 1,
        3 => 2,
        _ => 3,
    }
}

/// What `pikeshot list` says of `charge`.
pub const CHARGE_INFO: ProcedureInfo = ProcedureInfo {
    name: "charge",
    rule: "Charging, Close Combat",
    summary: "a course of three parts: the charger's Closing test; if it goes in, the target's Charge Reaction test with any reaction fire; if contact is made, the Close Combat test of both sides",
    keys: CHARGE_KEYS,
    outcomes: &pair::TARGET_OUTCOMES,
    measures: &pair::joined::<7>(&COURSE_MEASURES, &[CLOSE_COMBATS]),
};

/// The keys of a `charge` step.
pub const CHARGE_KEYS: &[KeyDoc] = &[
    KeyDoc::unit("charger", "required: the charging unit (reported as own)"),
    closing::TARGET_KEY,
    reaction::PACE_KEY,
    KeyDoc::flag(
        "favourable",
        "true / false: replaces the computed favourable closing conditions",
    ),
    KeyDoc::flag(
        "unfavourable",
        "true / false: replaces the computed unfavourable closing conditions",
    ),
    closing::GROUP_IN_CONTACT_KEY,
    KeyDoc::flag(
        "flank_or_rear",
        "true: closing with the target's flank or rear",
    ),
    closing::ENEMY_UPHILL_KEY,
    closing::CHEVAUX_DE_FRISE_KEY,
    closing::CLOSING_ROW_KEY,
    KeyDoc::one_of(
        "reaction_row",
        &super::reaction::ROW_IDS,
        "a Charge Reaction row, replacing the target's",
    ),
    KeyDoc::flag(
        "counter_charge_possible",
        "false: a CC reaction stands instead (default true)",
    ),
    KeyDoc::int(
        "reaction_fp",
        0,
        super::unit::MAX_FP as i64,
        "Fire Points of the target's reaction fire, replacing its own",
    ),
    reaction::REACTION_FP_MODIFIER_KEY,
    KeyDoc::one_of(
        "lower_cc_value",
        &["charger", "target", "neither"],
        "the side with the lower total CC value in the close combat, -1 (default: compare the units' cc_value)",
    ),
    extra_tq(
        "charger_extra_tq",
        "further modifier of all the charger's tests",
    )
    .doc(),
    extra_tq(
        "target_extra_tq",
        "further modifier of all the target's tests",
    )
    .doc(),
];

/// Every procedure a scenario step can name.
pub const PROCEDURES: &[ProcedureInfo] = &[
    tq::INFO,
    fire::INFO,
    CHARGE_INFO,
    closing::INFO,
    reaction::INFO,
    close_combat::INFO,
    fleeing::INFO,
    uncontrolled::INFO,
];

/// The state of a course between steps.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CourseState {
    pub(super) units: Vec<UnitState>,
    contact: bool,
    /// The pair (lower index first) still in contact after a close combat
    /// in which neither fell back, fled or was eliminated: a later charge
    /// between them fights close combat without closing again.
    engaged: Option<(usize, usize)>,
    close_combats: u8,
    /// The Fire Table result of the course's one `fire` step
    /// ([`fire::FIRE_RESULT`]; 0 before it fires or when it did not).
    fire_result: u8,
}

/// The pair `a`, `b` in the order [`CourseState::engaged`] keeps it.
fn pair_of(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

/// This step moved the unit out of contact: it fell back, fled or was
/// eliminated now (its status rose to fell back or beyond). A status left
/// from an earlier turn does not end contact (docs/rules/hakkaa.md,
/// section 7, "Contact").
fn moved_back(before: &UnitState, after: &UnitState) -> bool {
    after.status_index() > before.status_index()
        && after.status_index() >= Status::FellBack as usize
}

/// A course (or engagement) of Hakkaa Päälle steps.
#[derive(Debug)]
pub struct CourseSpec {
    pub(super) units: Vec<Unit>,
    plans: Vec<Plan>,
    /// Each plan's parts in order (a charge is three): the steps of the
    /// chain's stages.
    parts: Vec<(usize, Part)>,
    /// The parts under the course's repeat: the parts of the plans before
    /// `repeat.from_step` once, then the others turn after turn.
    staged: Staged<Stop>,
    own: usize,
    target: Option<usize>,
    counts_close_combats: bool,
    /// The course has one `fire` step and does not repeat: it reports
    /// [`fire::FIRE_RESULT`].
    counts_fire: bool,
    readings: Readings,
    space: OutcomeSpace,
    /// The leaves of the node last applied that have a positive
    /// probability, keyed by (stage, state): spaces are dense, and a leaf no
    /// dice can reach must not grow the chain.
    reachable: RefCell<Option<(Stage, CourseState, Vec<bool>)>>,
}

impl CourseSpec {
    /// A course of `plans` over `units`, under `repeat` repeated turn after
    /// turn until one of its stop conditions holds (engagements); plans
    /// before its `from_step` run in the first turn only.
    /// The first step with a target names the reported pair: its acting unit
    /// is "own", the unit acted upon the target; a course with no target
    /// reports the first step's unit.
    ///
    /// `own` and `enemy` (the course's keys of those names) replace the
    /// reported pair's units.
    pub fn new(
        units: Vec<Unit>,
        plans: Vec<Plan>,
        repeat: Option<Repeat<Stop>>,
        readings: Readings,
        (own, enemy): (Option<usize>, Option<usize>),
    ) -> Result<CourseSpec, InputError> {
        let (first_own, first_target) = default_pair(&plans);
        let own = own.unwrap_or(first_own);
        let target = enemy.or(first_target);
        let parts: Vec<(usize, Part)> = plans
            .iter()
            .enumerate()
            .flat_map(|(i, p)| p.parts().iter().map(move |&part| (i, part)))
            .collect();
        let turns = repeat.as_ref().map(|r| r.turns);
        let from_step = repeat.as_ref().map_or(0, |r| r.from_step);
        // The parts before the repeated ones run once.
        let prefix = parts.iter().filter(|(i, _)| *i < from_step).count();
        let charges = plans
            .iter()
            .filter(|p| matches!(p, Plan::Charge { .. }))
            .count();
        let fights = charges
            + plans
                .iter()
                .filter(|p| matches!(p, Plan::CloseCombat { .. }))
                .count();
        let counts_fire = turns.is_none() && plans.iter().filter(|p| p.is_fire()).count() == 1;
        let steps_of = |i: usize| units[i].state.steps as i32;
        // Ranges are tight (the space is dense): no commander, no injury.
        let commander_of = |i: usize| units[i].state.commander as i32;
        // The space for `n` turns (it grows with them).
        let space_for = |n: usize| {
            let mut measures = Vec::new();
            // The Fire Table result first: the key measures after it keep
            // their places whatever the units' ranges.
            if counts_fire {
                let most = fire::result_value(fire::Casualty::Hc);
                measures
                    .push(Measure::new(fire::FIRE_RESULT, 0, most).labelled("Fire Table result"));
            }
            let outcomes: &[&str] = match target {
                Some(t) => {
                    let ranges = [
                        steps_of(t),
                        commander_of(t),
                        3,
                        3,
                        steps_of(own),
                        commander_of(own),
                    ];
                    for (name, max) in COURSE_MEASURES.iter().zip(ranges) {
                        measures.push(course_measure(name, max));
                    }
                    &pair::TARGET_OUTCOMES
                }
                None => {
                    let ranges = [3, steps_of(own), commander_of(own)];
                    for (name, max) in UNIT_COURSE_MEASURES.iter().zip(ranges) {
                        measures.push(course_measure(name, max));
                    }
                    &pair::UNIT_OUTCOMES
                }
            };
            if charges > 0 {
                measures.push(
                    Measure::new(CLOSE_COMBATS, 0, (fights * n) as i32).labelled("close combats"),
                );
            }
            if turns.is_some() {
                measures.push(Measure::new(TURNS, 1, n as i32));
            }

            (outcomes.iter().map(|s| s.to_string()).collect(), measures)
        };
        Ok(CourseSpec {
            space: crate::scenario::course::course_space(turns.map(usize::from), space_for)?,
            units,
            plans,
            staged: Staged::new(
                parts.len(),
                repeat.map(|r| Repeat {
                    from_step: prefix,
                    ..r
                }),
            ),
            parts,
            own,
            target,
            counts_close_combats: charges > 0,
            counts_fire,
            readings,
            reachable: RefCell::new(None),
        })
    }

    /// Whether `leaf` of `proc`, built for `stage` in `state`, can happen.
    fn reachable(&self, stage: Stage, state: &CourseState, proc: &Step, leaf: Leaf) -> bool {
        let mut cache = self.reachable.borrow_mut();
        let fresh = !matches!(&*cache, Some((s, st, _)) if *s == stage && st == state);
        if fresh {
            let probs = match proc.exact(u64::MAX) {
                Some(Ok(p)) => p,
                _ => vec![1.0; proc.space().len()],
            };
            *cache = Some((
                stage,
                state.clone(),
                probs.into_iter().map(|p| p > 0.0).collect(),
            ));
        }
        cache.as_ref().expect("filled above").2[leaf as usize]
    }

    fn units_in(&self, state: &CourseState) -> Vec<Unit> {
        self.units
            .iter()
            .zip(&state.units)
            .map(|(u, s)| u.in_state(*s))
            .collect()
    }

    fn leaf(&self, state: &CourseState, turn: u8) -> Leaf {
        let o0 = &self.units[self.own].state;
        let o1 = &state.units[self.own];
        let mut v: Vec<i32> = Vec::with_capacity(9);
        if self.counts_fire {
            v.push(state.fire_result as i32);
        }
        let outcome = match self.target {
            Some(t) => {
                let t0 = &self.units[t].state;
                let t1 = &state.units[t];
                v.extend([
                    (t0.steps - t1.steps) as i32,
                    (t0.commander && !t1.commander) as i32,
                    morale_level(o1),
                    morale_level(t1),
                ]);
                t1.status_index()
            }
            None => {
                v.push(morale_level(o1));
                o1.status_index()
            }
        };
        v.push((o0.steps - o1.steps) as i32);
        v.push((o0.commander && !o1.commander) as i32);
        if self.counts_close_combats {
            v.push(state.close_combats as i32);
        }
        if self.staged.repeat().is_some() {
            v.push(turn as i32);
        }

        self.space.leaf(outcome, &v)
    }
}

/// What each stage of the course rolls and what its result does; the
/// moves between stages are written once by
/// [`Stages`](crate::engine::stages::Stages) (see the [`Machine`] impl).
impl CourseSpec {
    /// The course's stages under its repeat.
    pub fn staged(&self) -> &Staged<Stop> {
        &self.staged
    }
    /// The state before the first stage.
    fn first_state(&self) -> CourseState {
        CourseState {
            units: self.units.iter().map(|u| u.state).collect(),
            contact: false,
            engaged: None,
            close_combats: 0,
            fire_result: 0,
        }
    }
    /// Builds the roll of stage `stage` for `state`.
    fn build_stage(&self, stage: Stage, state: &CourseState) -> Result<Step, InputError> {
        let (plan, part) = self.parts[stage.step];
        let p = &self.plans[plan];
        let mut contact = state.contact;
        if let Plan::Charge {
            charger, target, ..
        } = p
            && state.engaged == Some(pair_of(*charger, *target))
        {
            // Already in contact: no Closing test and no Charge Reaction,
            // only the close combat.
            if part != Part::CloseCombat {
                return Ok(Step::Skip(Skip::because(format!(
                    "{} and {} are already in contact: no Closing test or Charge Reaction, only the close combat",
                    self.units[*charger].name, self.units[*target].name
                ))));
            }
            contact = true;
        }
        p.build(part, &self.units_in(state), contact, self.readings, true)
    }
    /// What leaf `leaf` of `proc`, rolled at a stage in `state`, does to
    /// it; the stage after is `None` after the last.
    fn step(
        &self,
        stage: Stage,
        next_stage: Option<Stage>,
        proc: &Step,
        leaf: Leaf,
        state: &CourseState,
    ) -> Transition<CourseState> {
        if !self.reachable(stage, state, proc, leaf) {
            // Probability 0: never sampled, adds nothing to the exact answer.
            return Transition::End(0);
        }
        let (i, turn) = (stage.step, stage.turn);
        let (plan, _) = self.parts[i];
        let mut next = state.clone();
        next.contact = false;
        let space = proc.space();
        let (actor, acted) = self.plans[plan].units();
        let pair_update = |next: &mut CourseState| {
            if let (Some(a), Some(t)) = (actor, acted) {
                let (t1, a1) = pair::decode(space, leaf, &state.units[t], &state.units[a]);
                next.units[t] = t1;
                next.units[a] = a1;
            }
        };
        match proc {
            Step::Fire(_) => {
                pair_update(&mut next);
                // A volley that moved its target back ends the target's
                // contact, whatever status it had before.
                let m = space
                    .measure_index(fire::TARGET_MOVED_BACK)
                    .expect("fire reports whether it moved the target back");
                if space.value_of(leaf, m) == 1
                    && let (Some(t), Some((a, b))) = (acted, next.engaged)
                    && (t == a || t == b)
                {
                    next.engaged = None;
                }
                if self.counts_fire {
                    let m = space
                        .measure_index(fire::FIRE_RESULT)
                        .expect("fire reports its result");
                    next.fire_result = space.value_of(leaf, m) as u8;
                }
            }
            Step::Closing(_) | Step::Reaction(_) => {
                pair_update(&mut next);
                let m = space.measure_index(CONTACT).expect("a contact measure");
                next.contact = space.value_of(leaf, m) == 1;
            }
            Step::CloseCombat(_) => {
                pair_update(&mut next);
                next.close_combats += 1;
                // The combat's own results decide contact: neither side
                // fell back, fled or was eliminated by them.
                if let (Some(a), Some(t)) = (actor, acted) {
                    let m = space.measure_index(CONTACT).expect("a contact measure");
                    next.engaged = (space.value_of(leaf, m) == 1).then(|| pair_of(a, t));
                }
            }
            Step::Fleeing(p) => {
                let u = actor.expect("a fleeing step names its unit");
                next.units[u] = p.after(leaf, &state.units[u]);
            }
            Step::Tq(_) | Step::Uncontrolled(_) | Step::Skip(_) => {}
        }
        if let Some((a, b)) = next.engaged
            && [a, b]
                .iter()
                .any(|&u| moved_back(&state.units[u], &next.units[u]))
        {
            next.engaged = None;
        }
        // Stop conditions are checked after every step (after the last part
        // of a charge).
        let step_done = self.parts.get(i + 1).is_none_or(|&(p, _)| p != plan);
        let own = &next.units[self.own];
        let stopped = step_done
            && self.staged.any_stop(|s| match (s.target, self.target) {
                (true, Some(t)) => s.holds(&next.units[t]),
                (true, None) => false,
                (false, _) => s.holds(own),
            });
        if stopped && next_stage.is_some() {
            return Transition::End(self.leaf(&next, turn));
        }
        Transition::Continue(next)
    }
    /// The course's leaf for a state after the last stage.
    fn finish(&self, state: &CourseState) -> Leaf {
        self.leaf(state, self.staged.turns())
    }
}

impl Machine for CourseSpec {
    type State = AtStage<CourseState>;
    type Proc = Step;
    fn space(&self) -> &OutcomeSpace {
        &self.space
    }
    fn initial(&self) -> AtStage<CourseState> {
        AtStage::At(0, self.first_state())
    }
    fn action(&self, state: &AtStage<CourseState>) -> Result<Action<Step>, InputError> {
        let stages = self.staged.stages();
        stages.action(state, |st, s| self.build_stage(st, s), |s| self.finish(s))
    }
    fn apply(&self, state: &AtStage<CourseState>, proc: &Step, leaf: Leaf) -> AtStage<CourseState> {
        let stages = self.staged.stages();
        stages.apply(state, |st, next, s| self.step(st, next, proc, leaf, s))
    }
    fn turn(&self, state: &AtStage<CourseState>) -> Option<usize> {
        self.staged.stages().turn_of(state)
    }
}

/// The reported pair of a course when `own` and `enemy` are not given: the
/// acting unit and the target of the first step that has a target, else the
/// first step's unit (docs/rules/hakkaa.md).
pub fn default_pair(plans: &[Plan]) -> (usize, Option<usize>) {
    plans
        .iter()
        .map(Plan::units)
        .find(|(_, t)| t.is_some())
        .or_else(|| plans.first().map(Plan::units))
        .map(|(a, t)| (a.unwrap_or(0), t))
        .unwrap_or((0, None))
}
