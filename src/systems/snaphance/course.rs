//! Snaphance steps and courses: every procedure behind one enum, and
//! courses of several steps (or a melee fought to a finish) compiled to a
//! chain over stand states.
//!
//! State carried between steps: each stand's SP lost and whether it is
//! disordered. Fire, melee and morale tests add SP lost; a melee disorders
//! the stands the sheets disorder for fighting (a flank charge from behind
//! the front, woods, defences, towns); an order test to recover that passes
//! clears disorder, and a failed order test for a move or an opportunity
//! ends the course (`on_fail`). A step that needs a destroyed stand ends
//! the course early.
//!
//! Key measures (the cross-system comparison, `crate::outcome::keys`): the
//! course's own and enemy stand at the end on the morale scale (good 0,
//! disordered 1, beaten in a melee 2, destroyed 3) and the SP each lost
//! (`hits-taken`, `hits-inflicted`); `turns` counts the turns of a
//! repeated course that began.
//!
//! A course with `repeat = { turns = N, until = [...], from_step = K }` runs
//! its steps before `K` once and its steps from `K` on turn after turn,
//! at most `N` turns, until a stop condition ([`Stop`]) holds at the end of
//! a turn. A `melee` step that repeats is one melee going on: turn `t` is
//! its round `t` (the charge in the first only), and when it is the
//! course's last step the course reports the engagement's outcomes
//! ([`FINISH_LABELS`]). "A melee fought to a finish" is a course of one
//! `melee` with `repeat = { turns = 10, until = ["decided"] }`.

use super::fire::{self, Fire};
use super::melee::{self, Melee, MeleeResult, Role};
use super::morale::{self, MoraleTest};
use super::orders::{self, OrderTest};
use super::pursuit::{self, Pursuit};
use super::readings::Readings;
use super::unit::{Stand, finish, relocate};
use crate::dice::{Dice, EnumerationError};
use crate::engine::chain::{ChainSpec, Transition};
use crate::error::InputError;
use crate::outcome::keys::{ENEMY_MORALE, HITS_INFLICTED, HITS_TAKEN, OWN_MORALE, TURNS};
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::Fields;
use crate::scenario::course::{self, Stage, course_space};
use crate::systems::ProcedureInfo;

/// Any Snaphance procedure, as one step of a course.
#[derive(Clone, Debug)]
pub enum Step {
    /// See [`Fire`].
    Fire(Fire),
    /// See [`Melee`] (one round).
    Melee(Melee),
    /// See [`MoraleTest`].
    Morale(MoraleTest),
    /// See [`OrderTest`].
    Order(OrderTest),
    /// See [`Pursuit`].
    Pursuit(Pursuit),
    /// A step that cannot happen (a pursuit after a melee its pursuer did
    /// not win): no dice, one leaf.
    Pass(Pass),
}

/// No dice and one leaf: a step that cannot happen in the state reached.
#[derive(Clone, Debug)]
pub struct Pass(OutcomeSpace);

impl Pass {
    /// The one-leaf step.
    pub fn new() -> Pass {
        Pass(OutcomeSpace::from_labels(&["pass"], vec![]))
    }
}

impl Default for Pass {
    fn default() -> Pass {
        Pass::new()
    }
}

impl Procedure for Step {
    fn space(&self) -> &OutcomeSpace {
        match self {
            Step::Fire(p) => p.space(),
            Step::Melee(p) => p.space(),
            Step::Morale(p) => p.space(),
            Step::Order(p) => p.space(),
            Step::Pursuit(p) => p.space(),
            Step::Pass(p) => &p.0,
        }
    }
    #[inline]
    fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
        match self {
            Step::Fire(p) => p.resolve(dice),
            Step::Melee(p) => p.resolve(dice),
            Step::Morale(p) => p.resolve(dice),
            Step::Order(p) => p.resolve(dice),
            Step::Pursuit(p) => p.resolve(dice),
            Step::Pass(_) => 0,
        }
    }
    fn exact(&self, budget: u64) -> Option<Result<Vec<f64>, EnumerationError>> {
        match self {
            Step::Fire(p) => p.exact(budget),
            Step::Melee(p) => p.exact(budget),
            _ => None,
        }
    }
}

impl Step {
    /// True when some roll of the step ends in `leaf` (spaces are dense:
    /// most combinations of category and measures never happen).
    pub fn reachable(&self, leaf: Leaf) -> bool {
        match self {
            Step::Fire(p) => p.reachable(leaf),
            Step::Melee(p) => p.reachable(leaf),
            Step::Morale(p) => p.reachable(leaf),
            Step::Order(p) => p.reachable(leaf),
            Step::Pursuit(p) => p.reachable(leaf),
            Step::Pass(_) => leaf == 0,
        }
    }
}

/// Outcome labels of a repeated course whose last step is a melee (an
/// engagement); the last reads "undecided after N rounds".
pub const FINISH_LABELS: [&str; 6] = [
    "attacker wins",
    "defender wins",
    "attacker destroyed",
    "defender destroyed",
    "both destroyed",
    "undecided",
];

/// Most turns of `repeat` (the rounds `melee-to-finish` allowed).
pub const MAX_TURNS: u8 = 20;

/// What ends a repeated course, checked at the end of every turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The last melee fought was decided: a stand beaten or destroyed.
    Decided,
    /// The own stand is beaten in a melee, or destroyed.
    OwnBeaten,
    /// The enemy stand is beaten in a melee, or destroyed.
    EnemyBeaten,
    /// The own stand is destroyed.
    OwnDestroyed,
    /// The enemy stand is destroyed.
    EnemyDestroyed,
}

/// The names `repeat.until` accepts, in [`Stop::ALL`] order.
pub const STOP_NAMES: [&str; 5] = [
    "decided",
    "own-beaten",
    "enemy-beaten",
    "own-destroyed",
    "enemy-destroyed",
];

impl Stop {
    /// Every stop condition, in [`STOP_NAMES`] order.
    pub const ALL: [Stop; 5] = [
        Stop::Decided,
        Stop::OwnBeaten,
        Stop::EnemyBeaten,
        Stop::OwnDestroyed,
        Stop::EnemyDestroyed,
    ];
}

/// A course's repeat: its turns, the first step that repeats, and what
/// ends it (the default `decided`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repeat {
    /// At most this many turns.
    pub turns: u8,
    /// Steps before this one run once, in the first turn.
    pub from_step: usize,
    /// What ends the course at the end of a turn.
    pub until: Vec<Stop>,
}

/// Every procedure a scenario step can name.
pub const PROCEDURES: &[ProcedureInfo] = &[
    fire::INFO,
    melee::INFO,
    morale::INFO,
    orders::INFO,
    pursuit::INFO,
];

/// The step keys that name stands, per procedure.
pub const STEP_UNIT_KEYS: &[(&str, &[&str])] = &[
    ("fire", &["firer", "target"]),
    ("melee", &["attacker", "defender"]),
    ("morale-test", &["unit", "opponent"]),
    ("order-test", &["unit"]),
    ("pursuit", &["pursuer"]),
];

/// Builds the step named `name` from its keys. `round` is `Some(t)` for a
/// melee that repeats, in turn `t` of the course (its round `t`: the charge
/// in the first only); `None` for a step that runs once.
pub fn build_step(
    name: &str,
    f: &mut Fields,
    units: &[Stand],
    readings: &Readings,
    round: Option<u8>,
) -> Result<Step, InputError> {
    f.has("procedure");
    Ok(match (name, round) {
        ("fire", _) => Step::Fire(Fire::from_step(f, units, readings)?),
        ("melee", None) => Step::Melee(Melee::from_step(f, units, readings)?),
        ("melee", Some(round)) => {
            let (a, d, input) = Melee::read(f, units, round)?;
            let p = Melee::new(a, d, &input, readings, false).map_err(|e| relocate(f, e))?;
            finish(f)?;
            Step::Melee(p)
        }
        ("morale-test", _) => Step::Morale(MoraleTest::from_step(f, units, readings)?),
        ("order-test", _) => Step::Order(OrderTest::from_step(f, units)?),
        ("pursuit", _) => Step::Pursuit(Pursuit::from_step(f, units)?),
        ("melee-to-finish", _) => {
            return Err(f.err(
                "procedure",
                "`melee-to-finish` is no longer a procedure; write `procedure = \"melee\"` and, on the course, `repeat = { turns = 10, until = [\"decided\"] }` (`from_step = K` when steps come before the melee)",
            ));
        }
        (other, _) => {
            let names: Vec<&str> = PROCEDURES.iter().map(|p| p.name).collect();
            return Err(f.locate(
                "procedure",
                InputError::new(format!("unknown procedure \"{other}\"")).one_of(other, &names),
            ));
        }
    })
}

/// One step of a course: its reader (to rebuild it for each state) and the
/// stands it names.
pub struct StepSpec<'a> {
    /// Procedure name.
    pub procedure: String,
    /// Reader over the step's keys.
    pub fields: Fields<'a>,
    /// The stands the step names, as indices into the scenario's units
    /// (for melee: attacker, defender; for fire: firer, target).
    pub units: Vec<usize>,
}

/// Whether `procedure` is a melee.
fn is_melee(procedure: &str) -> bool {
    procedure == "melee"
}

/// The state of a course between stages.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CourseState {
    pub(super) sp_lost: Vec<u8>,
    pub(super) disordered: Vec<bool>,
    /// Beaten in a melee (lost it and fell back), until it wins one.
    pub(super) beaten: Vec<bool>,
    /// Won the last melee it fought (its opponent beaten or destroyed, it
    /// not): the one state in which Pursuit 13.0 rolls.
    won: Vec<bool>,
    /// Turns of the repeat begun.
    turns: u8,
    /// The last melee fought was decided (only tracked when a stop
    /// condition asks).
    decided: bool,
    last: u16,
}

/// A course of Snaphance steps.
pub struct CourseSpec<'a> {
    readings: Readings,
    pub(super) units: Vec<Stand>,
    steps: Vec<StepSpec<'a>>,
    stages: Vec<Stage>,
    repeat: Option<Repeat>,
    /// A repeated course whose last step is a melee: outcomes are the
    /// engagement's ([`FINISH_LABELS`]).
    finish_labels: bool,
    /// The stands the key measures report: own, then enemy.
    keyed: [Option<usize>; 2],
    /// Other units whose SP lost is a measure, in unit order.
    measured: Vec<usize>,
    /// Courses of several steps: the `ended-at-step` measure.
    counts_steps: bool,
    /// Per step: a pursuit after a melee its pursuer fought earlier in the
    /// course (it rolls only when the pursuer won that melee).
    after_melee: Vec<bool>,
    space: OutcomeSpace,
    /// Per stand: the outcome filed when a later step needs it destroyed
    /// and the last step has no outcome of its own that says so.
    destroyed_outcome: Vec<Option<usize>>,
    stopped: Option<usize>,
}

/// Measure of a course of several steps: the step (1-based) at which the
/// course ended, the number of steps when it ran to its end.
pub const ENDED_AT_STEP: &str = "ended-at-step";
/// Outcome added when an order test fails and stops the course.
pub const STOPPED: &str = "stopped: order test failed";

impl<'a> CourseSpec<'a> {
    /// Prepares a course: builds each step once from the initial state to
    /// learn its outcomes. `own` and `enemy` are the stands whose fate the
    /// key measures report (by default the first step's acting stand and
    /// the stand it acts on). `repeat` repeats its steps turn after turn.
    pub fn new(
        readings: Readings,
        units: Vec<Stand>,
        steps: Vec<StepSpec<'a>>,
        (own, enemy): (Option<usize>, Option<usize>),
        repeat: Option<Repeat>,
    ) -> Result<CourseSpec<'a>, InputError> {
        let (turns, from_step) = repeat
            .as_ref()
            .map_or((1, steps.len()), |r| (r.turns, r.from_step));
        let stages = course::stages(steps.len(), repeat.as_ref().map(|_| (turns, from_step)));
        let finish_labels =
            repeat.is_some() && steps.last().is_some_and(|s| is_melee(&s.procedure));
        let mut stops = false;
        let mut last_labels: Vec<String> = Vec::new();
        for (i, s) in steps.iter().enumerate() {
            let proc = build_step(&s.procedure, &mut s.fields.fresh(), &units, &readings, None)?;
            let is_last = i + 1 == steps.len();
            if let Step::Order(o) = &proc
                && o.stops_on_fail()
                && !is_last
            {
                stops = true;
            }
            if is_last {
                last_labels = if finish_labels {
                    let mut l: Vec<String> = FINISH_LABELS.iter().map(|x| x.to_string()).collect();
                    *l.last_mut().expect("labels") = format!("undecided after {turns} rounds");
                    l
                } else {
                    proc.space().outcomes().to_vec()
                };
            }
        }
        // A stand destroyed before a step that needs it ends the course: the
        // last step's own outcome reports it where it has one (docs/rules
        // section 8), else an outcome `NAME-destroyed`.
        let mut destroyed_outcome = vec![None; units.len()];
        let last = steps.last().expect("a course has a step");
        let covered: Vec<usize> = match last.procedure.as_str() {
            p if is_melee(p) => last.units.clone(),
            "fire" => last.units.get(1).copied().into_iter().collect(),
            "morale-test" => last.units.first().copied().into_iter().collect(),
            _ => Vec::new(),
        };
        for s in steps.iter().skip(1) {
            for &u in &s.units {
                if destroyed_outcome[u].is_none() && !covered.contains(&u) {
                    destroyed_outcome[u] = Some(last_labels.len());
                    last_labels.push(format!("{}-destroyed", units[u].name));
                }
            }
        }
        let after_melee: Vec<bool> = steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                s.procedure == "pursuit"
                    && steps[..i]
                        .iter()
                        .any(|e| is_melee(&e.procedure) && e.units.contains(&s.units[0]))
            })
            .collect();
        let mut stopped = None;
        if stops {
            stopped = Some(last_labels.len());
            last_labels.push(STOPPED.to_string());
        }
        let mut measured: Vec<usize> = steps.iter().flat_map(|s| s.units.iter().copied()).collect();
        measured.sort_unstable();
        measured.dedup();
        measured.retain(|&u| Some(u) != own && Some(u) != enemy);
        let mut measures = Vec::new();
        for (who, morale_name, hits_name) in [
            (own, OWN_MORALE, HITS_TAKEN),
            (enemy, ENEMY_MORALE, HITS_INFLICTED),
        ] {
            if let Some(w) = who {
                measures.push(Measure::new(morale_name, 0, 3));
                measures.push(Measure::new(hits_name, 0, units[w].sp() as i32));
            }
        }
        measures.extend(measured.iter().map(|&u| {
            Measure::new(
                format!("{}-sp-lost", units[u].name),
                0,
                units[u].sp() as i32,
            )
        }));
        let counts_steps = steps.len() > 1;
        // The space for `n` turns (it grows with them).
        let space_for = |n: usize| {
            let mut measures = measures.clone();
            if repeat.is_some() {
                // Turns begun: at least one when every step repeats; none
                // when a step before the repeated ones ended the course first.
                let first = i32::from(from_step == 0);
                measures.push(Measure::new(TURNS, first, n as i32));
            }
            if counts_steps {
                measures.push(Measure::new(ENDED_AT_STEP, 1, steps.len() as i32));
            }
            (last_labels.clone(), measures)
        };
        let space = course_space(repeat.as_ref().map(|r| r.turns as usize), space_for)?;
        Ok(CourseSpec {
            readings,
            units,
            steps,
            stages,
            repeat,
            finish_labels,
            keyed: [own, enemy],
            measured,
            counts_steps,
            after_melee,
            space,
            destroyed_outcome,
            stopped,
        })
    }

    fn units_in(&self, state: &CourseState) -> Vec<Stand> {
        self.units
            .iter()
            .zip(state.sp_lost.iter().zip(&state.disordered))
            .map(|(u, (&lost, &dis))| Stand {
                sp_lost: lost.min(u.strength.saturating_sub(1)),
                disordered: dis,
                ..u.clone()
            })
            .collect()
    }

    /// A stand's state on the key-measure morale scale: good 0,
    /// disordered 1 (marked, or forced by its terrain), beaten in a melee 2,
    /// destroyed 3.
    fn morale_level(&self, state: &CourseState, u: usize) -> i32 {
        let unit = &self.units[u];
        if self.destroyed(state, u) {
            3
        } else if state.beaten[u] {
            2
        } else if state.disordered[u] || unit.forced_disorder() {
            1
        } else {
            0
        }
    }

    /// What a course that ends because `blocker` is destroyed reports: the
    /// last step's own outcome for the stands destroyed where it has one
    /// ("defender destroyed", "destroyed"), else `NAME-destroyed`.
    fn early_outcome(&self, state: &CourseState, blocker: usize) -> usize {
        let last = self.steps.last().expect("a course has a step");
        let dead = |i: usize| last.units.get(i).is_some_and(|&u| self.destroyed(state, u));
        let label = match last.procedure.as_str() {
            p if is_melee(p) => match (dead(0), dead(1)) {
                (true, true) => Some("both destroyed"),
                (true, false) => Some("attacker destroyed"),
                (false, true) => Some("defender destroyed"),
                (false, false) => None,
            },
            "fire" => dead(1).then_some("destroyed"),
            "morale-test" => dead(0).then_some("destroyed"),
            _ => None,
        };
        label
            .and_then(|l| self.space.outcome_index(l))
            .or(self.destroyed_outcome[blocker])
            .expect("every stand a later step names has an outcome when destroyed")
    }

    fn leaf_of(&self, state: &CourseState, outcome: usize, ended_at: usize) -> Leaf {
        let lost = |u: usize| (state.sp_lost[u] - self.units[u].sp_lost) as i32;
        let mut values = Vec::with_capacity(self.space.measures().len());
        for w in self.keyed.into_iter().flatten() {
            values.push(self.morale_level(state, w));
            values.push(lost(w));
        }
        values.extend(self.measured.iter().map(|&u| lost(u)));
        if self.repeat.is_some() {
            values.push(state.turns as i32);
        }
        if self.counts_steps {
            values.push(ended_at as i32);
        }
        self.space.leaf(outcome, &values)
    }

    fn destroyed(&self, state: &CourseState, u: usize) -> bool {
        state.sp_lost[u] >= self.units[u].strength
    }

    /// Whether `step` repeats turn after turn.
    fn repeats(&self, step: usize) -> bool {
        self.repeat.as_ref().is_some_and(|r| step >= r.from_step)
    }

    /// Whether a stop condition asks whether the last melee was decided.
    fn tracks_decided(&self) -> bool {
        self.repeat
            .as_ref()
            .is_some_and(|r| r.until.contains(&Stop::Decided))
    }

    /// Whether a stop condition of the repeat holds in `state`.
    fn stops(&self, state: &CourseState) -> bool {
        let Some(r) = &self.repeat else {
            return false;
        };
        let [own, enemy] = self.keyed;
        let level = |u: Option<usize>| u.map_or(0, |u| self.morale_level(state, u));
        r.until.iter().any(|s| match s {
            Stop::Decided => state.decided,
            Stop::OwnBeaten => level(own) >= 2,
            Stop::EnemyBeaten => level(enemy) >= 2,
            Stop::OwnDestroyed => level(own) == 3,
            Stop::EnemyDestroyed => level(enemy) == 3,
        })
    }
}

impl ChainSpec for CourseSpec<'_> {
    type State = CourseState;
    type Proc = Step;

    fn space(&self) -> &OutcomeSpace {
        &self.space
    }
    fn initial(&self) -> CourseState {
        CourseState {
            sp_lost: self.units.iter().map(|u| u.sp_lost).collect(),
            disordered: self.units.iter().map(|u| u.disordered).collect(),
            beaten: vec![false; self.units.len()],
            won: vec![false; self.units.len()],
            turns: 0,
            decided: false,
            last: 0,
        }
    }
    fn steps(&self) -> usize {
        self.stages.len()
    }
    fn turn(&self, stage: usize, _state: &CourseState) -> Option<usize> {
        course::stage_turn(&self.stages, stage, self.repeat.is_some())
    }
    fn build(&self, stage: usize, state: &CourseState) -> Result<Step, InputError> {
        let st = self.stages[stage];
        let s = &self.steps[st.step];
        if self.after_melee[st.step] && !state.won[s.units[0]] {
            // Pursuit 13.0 follows a won melee: after a lost or drawn one
            // no die is rolled and there is no pursuit.
            return Ok(Step::Pass(Pass::new()));
        }
        build_step(
            &s.procedure,
            &mut s.fields.fresh(),
            &self.units_in(state),
            &self.readings,
            self.repeats(st.step).then_some(st.turn),
        )
    }
    fn apply(
        &self,
        stage: usize,
        proc: &Step,
        leaf: Leaf,
        state: &CourseState,
    ) -> Transition<CourseState> {
        if !proc.reachable(leaf) {
            // No roll gets here: its mass is zero, so any end will do, and
            // ending keeps the chain to the states that can happen.
            return Transition::End(self.leaf_of(state, 0, self.steps.len()));
        }
        let st = self.stages[stage];
        let spec = &self.steps[st.step];
        let is_last_step = st.step + 1 == self.steps.len();
        let space = proc.space();
        let mut next = state.clone();
        if self.repeat.as_ref().is_some_and(|r| r.from_step == st.step) {
            next.turns += 1;
        }
        let add = |next: &mut CourseState, u: usize, lost: i32| {
            next.sp_lost[u] = next.sp_lost[u].saturating_add(lost as u8);
        };
        let measure = |name: &str| {
            space
                .measure_index(name)
                .map_or(0, |m| space.value_of(leaf, m))
        };
        match proc {
            Step::Pass(_) => {
                if self.after_melee[st.step] && is_last_step {
                    next.last = pursuit::NO_PURSUIT as u16;
                }
            }
            Step::Fire(_) => {
                add(&mut next, spec.units[1], measure("sp-lost"));
                if is_last_step {
                    next.last = space.outcome_of(leaf) as u16;
                }
            }
            Step::Morale(_) => {
                add(&mut next, spec.units[0], measure("sp-lost"));
                if is_last_step {
                    next.last = space.outcome_of(leaf) as u16;
                }
            }
            Step::Pursuit(_) => {
                if is_last_step {
                    next.last = space.outcome_of(leaf) as u16;
                }
            }
            Step::Order(o) => {
                let passed = o.passed(leaf);
                if passed && o.purpose() == orders::Purpose::Recover {
                    next.disordered[spec.units[0]] = false;
                }
                if is_last_step {
                    next.last = space.outcome_of(leaf) as u16;
                } else if !passed && o.stops_on_fail() {
                    let s = self
                        .stopped
                        .expect("a stopping order test adds its outcome");
                    return Transition::End(self.leaf_of(&next, s, st.step + 1));
                }
            }
            Step::Melee(m) => {
                let (a, d) = (spec.units[0], spec.units[1]);
                add(&mut next, a, m.sp_lost(leaf, Role::Attacker) as i32);
                add(&mut next, d, m.sp_lost(leaf, Role::Defender) as i32);
                if m.disorders(Role::Attacker) {
                    next.disordered[a] = true;
                }
                if m.disorders(Role::Defender) {
                    next.disordered[d] = true;
                }
                let r = m.result_of(leaf);
                match r {
                    MeleeResult::AttackerWins => {
                        next.beaten[d] = true;
                        next.beaten[a] = false;
                    }
                    MeleeResult::DefenderWins => {
                        next.beaten[a] = true;
                        next.beaten[d] = false;
                    }
                    _ => {}
                }
                // The winner of this melee (docs/rules section 7): more hits,
                // or its opponent destroyed while it stands.
                next.won[a] = matches!(
                    r,
                    MeleeResult::AttackerWins | MeleeResult::DefenderDestroyed
                );
                next.won[d] = matches!(
                    r,
                    MeleeResult::DefenderWins | MeleeResult::AttackerDestroyed
                );
                if self.tracks_decided() {
                    next.decided = !r.ongoing();
                }
                if is_last_step {
                    next.last = if self.finish_labels {
                        match r {
                            MeleeResult::AttackerWins => 0,
                            MeleeResult::DefenderWins => 1,
                            MeleeResult::AttackerDestroyed => 2,
                            MeleeResult::DefenderDestroyed => 3,
                            MeleeResult::BothDestroyed => 4,
                            _ => 5,
                        }
                    } else {
                        space.outcome_of(leaf) as u16
                    };
                }
            }
        }
        // The stop conditions, at the end of a turn.
        if is_last_step && self.stops(&next) {
            return Transition::End(self.leaf_of(&next, next.last as usize, self.steps.len()));
        }
        // The next stage needs its stands alive.
        if let Some(nst) = self.stages.get(stage + 1) {
            let needs = &self.steps[nst.step].units;
            if let Some(&u) = needs.iter().find(|&&u| self.destroyed(&next, u)) {
                // A single engagement ends when a stand is destroyed, so
                // only courses of several steps get here.
                let e = self.early_outcome(&next, u);
                return Transition::End(self.leaf_of(&next, e, st.step + 1));
            }
        }
        Transition::Continue(next)
    }
    fn finish(&self, state: &CourseState) -> Leaf {
        self.leaf_of(state, state.last as usize, self.steps.len())
    }
}
