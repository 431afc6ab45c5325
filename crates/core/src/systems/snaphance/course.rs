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

use super::melee::{MeleeResult, Role};
use super::orders;
use super::pursuit;
use super::readings::Readings;
use super::repeat::{Repeat, Stop};
use super::step::{Pass, Step, build_step};
use super::unit::Stand;
use crate::engine::chain::{Action, Machine};
use crate::engine::stages::{AtStage, Stage, Transition};
use crate::error::InputError;
use crate::outcome::keys::{ENDED_AT_STEP, ENEMY_MORALE, HITS_INFLICTED, HITS_TAKEN, OWN_MORALE};
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::Fields;
use crate::scenario::course::{course_space, lost_unit_outcomes};
use crate::scenario::staged::Staged;

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
    /// The stages under the course's repeat.
    staged: Staged<Stop>,
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
        let turns = repeat.as_ref().map_or(1, |r| r.turns);
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
        let last = steps.last().expect("a course has a step");
        let covered: Vec<usize> = match last.procedure.as_str() {
            p if is_melee(p) => last.units.clone(),
            "fire" => last.units.get(1).copied().into_iter().collect(),
            "morale-test" => last.units.first().copied().into_iter().collect(),
            _ => Vec::new(),
        };
        let destroyed_outcome = lost_unit_outcomes(
            &mut last_labels,
            units.len(),
            steps.iter().skip(1).flat_map(|s| s.units.iter().copied()),
            &covered,
            |u| format!("{} destroyed", units[u].name),
        );
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
            .labelled(format!("{} SP lost", units[u].name))
        }));
        let counts_steps = steps.len() > 1;
        // The space for `n` turns (it grows with them).
        let space_for = |n: usize| {
            let mut measures = measures.clone();
            if let Some(r) = &repeat {
                measures.push(r.turns_measure(n));
            }
            if counts_steps {
                measures.push(Measure::new(ENDED_AT_STEP, 1, steps.len() as i32));
            }
            (last_labels.clone(), measures)
        };
        let space = course_space(repeat.as_ref().map(|r| r.turns as usize), space_for)?;
        let staged = Staged::new(steps.len(), repeat);
        Ok(CourseSpec {
            readings,
            units,
            steps,
            staged,
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
        if self.staged.repeat().is_some() {
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

    /// Whether a stop condition asks whether the last melee was decided.
    fn tracks_decided(&self) -> bool {
        self.staged
            .repeat()
            .is_some_and(|r| r.until.contains(&Stop::Decided))
    }

    /// Whether a stop condition of the repeat holds in `state`.
    fn stops(&self, state: &CourseState) -> bool {
        let [own, enemy] = self.keyed;
        let level = |u: Option<usize>| u.map_or(0, |u| self.morale_level(state, u));
        self.staged.any_stop(|s| match s {
            Stop::Decided => state.decided,
            Stop::OwnBeaten => level(own) >= 2,
            Stop::EnemyBeaten => level(enemy) >= 2,
            Stop::OwnDestroyed => level(own) == 3,
            Stop::EnemyDestroyed => level(enemy) == 3,
        })
    }
}

/// What each stage of the course rolls and what its result does; the
/// moves between stages are written once by
/// [`Stages`](crate::engine::stages::Stages) (see the [`Machine`] impl).
impl CourseSpec<'_> {
    /// The course's stages under its repeat.
    pub fn staged(&self) -> &Staged<Stop> {
        &self.staged
    }
    /// The state before the first stage.
    fn first_state(&self) -> CourseState {
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
    /// Builds the roll of stage `st` for `state`.
    fn build_stage(&self, st: Stage, state: &CourseState) -> Result<Step, InputError> {
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
            self.staged.repeats(st.step).then_some(st.turn),
        )
    }
    /// What leaf `leaf` of `proc`, rolled at a stage in `state`, does to
    /// it; the stage after is `None` after the last.
    fn step(
        &self,
        st: Stage,
        next_stage: Option<Stage>,
        proc: &Step,
        leaf: Leaf,
        state: &CourseState,
    ) -> Transition<CourseState> {
        if !proc.reachable(leaf) {
            // No roll gets here: its mass is zero, so any end will do, and
            // ending keeps the chain to the states that can happen.
            return Transition::End(self.leaf_of(state, 0, self.steps.len()));
        }
        let spec = &self.steps[st.step];
        let is_last_step = st.step + 1 == self.steps.len();
        let space = proc.space();
        let mut next = state.clone();
        if self.staged.begins_turn(st.step) {
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
        if let Some(nst) = next_stage {
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
    /// The course's leaf for a state after the last stage.
    fn finish(&self, state: &CourseState) -> Leaf {
        self.leaf_of(state, state.last as usize, self.steps.len())
    }
}

impl Machine for CourseSpec<'_> {
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
