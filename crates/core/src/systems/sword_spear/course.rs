//! Sword & Spear steps and courses: every procedure behind one enum, and
//! courses of several steps compiled to a chain over unit states.
//!
//! What carries from one step to the next (docs/rules/sword-and-spear.md,
//! "Courses"): hits (so fewer dice, fresh status lost, rout at strength),
//! routs (a later step needing a routed unit stops the course), commanders
//! killed (their −1 Discipline gone), the bonus of an activation (spent by
//! the unit's next shooting or melee step), and "shot this phase" (no
//! impetus for missile troops in a later melee of the same course). An
//! activation with `need` stops the course when the die does not allow it.

use super::activation::Level;
use super::melee::Round;
use super::readings::Readings;
use super::repeat::{Repeat, Stop};
use super::step::{Step, build_step};
use super::unit::Unit;

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use super::combat::{Clash, ClashProcedure};
use crate::engine::chain::{Action, Machine};
use crate::engine::stages::{AtStage, Stage, Transition};
use crate::error::InputError;
use crate::outcome::keys::{ENDED_AT_STEP, ENEMY_MORALE, HITS_INFLICTED, HITS_TAKEN, OWN_MORALE};
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::Fields;
use crate::scenario::course::lost_unit_outcomes;
use crate::scenario::staged::Staged;

/// One step of a course: its reader (to rebuild it for each state) and the
/// units it names (indices into the scenario's units).
pub struct StepSpec<'a> {
    /// Procedure name.
    pub procedure: String,
    /// Reader over the step's keys.
    pub fields: Fields<'a>,
    /// The acting unit (unit, firer, attacker).
    pub actor: Option<usize>,
    /// The other unit (target, defender).
    pub target: Option<usize>,
}

/// The state of one unit between steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnitState {
    /// Hits (at most its strength).
    pub hits: u8,
    /// Routed.
    pub routed: bool,
    /// Its commander is still with it.
    pub commander: bool,
    /// It shot earlier in the course.
    pub shot: bool,
    /// Unspent bonus of its last activation.
    pub bonus: u8,
    /// Discipline tests it took in shooting and melee steps.
    pub tests: u8,
}

/// The state of a course between steps.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CourseState {
    units: Vec<UnitState>,
    rounds: u16,
    last_outcome: usize,
}

impl CourseState {
    /// Each unit's state, in the scenario's order.
    pub fn units(&self) -> &[UnitState] {
        &self.units
    }
}

/// The outcome of a course stopped by an activation without what it `need`s.
pub const STOPPED_NOT_ACTIVATED: &str = "stopped, not activated";

/// Measure: Discipline tests the own unit took (shooting and melee steps).
pub const TESTS_TAKEN: &str = "tests-taken";
/// Measure: Discipline tests the enemy unit took (shooting and melee steps).
pub const TESTS_INFLICTED: &str = "tests-inflicted";

/// Key-outcome morale of a unit that has routed (docs/rules/sword-and-spear.md,
/// "Key outcomes"): routed units leave the table, so 2 is the top of the scale.
pub const ROUTED: i32 = 2;

/// Key-outcome morale (0 no hits, 1 hits, 2 routed) of a unit's state.
pub fn morale_level(s: &UnitState) -> i32 {
    if s.routed {
        ROUTED
    } else {
        (s.hits > 0) as i32
    }
}

/// Exact results shared by melee rounds that are the same procedure.
type ExactCache = RefCell<HashMap<(Clash, bool), Arc<OnceLock<Vec<f64>>>>>;

/// A course of Sword & Spear steps, repeated turn after turn when it has a
/// `repeat`.
pub struct CourseSpec<'a> {
    units: Vec<Unit>,
    steps: Vec<StepSpec<'a>>,
    /// The stages under the course's repeat.
    staged: Staged<Stop>,
    rules: Readings,
    own: Option<usize>,
    enemy: Option<usize>,
    space: OutcomeSpace,
    /// Per unit: its hits measure (`NAME-hits`, or `hits-taken` /
    /// `hits-inflicted` for the own / enemy unit) and commander measure.
    unit_measures: Vec<(usize, Option<usize>, Option<usize>)>,
    /// The own and enemy units with their morale measures (key outcomes).
    morale_measures: Vec<(usize, usize)>,
    /// `turns` (turns of the repeat begun) or `rounds` (melee steps fought).
    rounds_measure: Option<usize>,
    /// The own and enemy units with their Discipline tests measures.
    tests_measures: Vec<(usize, usize)>,
    /// The `ended-at-step` measure (courses of several steps).
    ended_measure: Option<usize>,
    not_activated: Option<usize>,
    /// Per unit: the outcome `NAME-routs`, for a unit that routs before a
    /// step that names it when the last step has no outcome saying so.
    routed_outcome: Vec<Option<usize>>,
    cache: ExactCache,
}

impl<'a> CourseSpec<'a> {
    /// Prepares a course: builds each step once from the scenario's units
    /// (which checks every step) to learn the outcome space. `own` and
    /// `enemy` are the units the key measures report on
    /// (docs/rules/sword-and-spear.md, "Key outcomes"); `repeat` repeats its
    /// steps turn after turn, and `rules` holds the `[rules]` switches.
    pub fn new(
        units: Vec<Unit>,
        steps: Vec<StepSpec<'a>>,
        (own, enemy): (Option<usize>, Option<usize>),
        repeat: Option<Repeat>,
        rules: Readings,
    ) -> Result<CourseSpec<'a>, InputError> {
        let mut last: Vec<String> = Vec::new();
        // Whether each step is a melee (its rounds are counted).
        let mut melee_at: Vec<bool> = Vec::new();
        let mut has_need = false;
        let mut involved: Vec<usize> = Vec::new();
        let mut stoppable: Vec<usize> = Vec::new();
        let from_step = repeat.as_ref().map_or(steps.len(), |r| r.from_step);
        let round = Round {
            later: None,
            detail: false,
        };
        for (i, s) in steps.iter().enumerate() {
            let p = build_step(&s.procedure, &mut s.fields.fresh(), &units, round, &rules)?;
            melee_at.push(matches!(p, Step::Melee(_)));
            if let Step::Activation(a) = &p {
                has_need |= a.need().is_some();
            }
            for u in [s.actor, s.target].into_iter().flatten() {
                if !involved.contains(&u) {
                    involved.push(u);
                }
                // A later step (or a step of a later turn) naming a routed
                // unit stops the course.
                if (i > 0 || i >= from_step) && !stoppable.contains(&u) {
                    stoppable.push(u);
                }
            }
            last = p.space().outcomes().to_vec();
        }
        let mut outcomes = last;
        let last_step = steps.last().expect("a course has a step");
        // The units whose rout the last step's own outcomes report.
        let covered: Vec<usize> = match last_step.procedure.as_str() {
            "melee" => [last_step.actor, last_step.target]
                .into_iter()
                .flatten()
                .collect(),
            "shooting" => last_step.target.into_iter().collect(),
            "discipline-test" => last_step.actor.into_iter().collect(),
            _ => Vec::new(),
        };
        // Discipline tests apart from hits: a course of one `melee` or
        // `shooting` step fought once (a longer course would multiply its
        // space by the tests of every step; its hits already count the
        // failed ones).
        let counts_tests = steps.len() == 1
            && repeat.is_none()
            && matches!(steps[0].procedure.as_str(), "melee" | "shooting");
        let not_activated = has_need.then(|| {
            outcomes.push(STOPPED_NOT_ACTIVATED.to_string());
            outcomes.len() - 1
        });
        let routed_outcome = lost_unit_outcomes(
            &mut outcomes,
            units.len(),
            stoppable.iter().copied(),
            &covered,
            |u| format!("{} routs", units[u].name),
        );
        let mut measures = Vec::new();
        let mut morale_measures = Vec::new();
        let mut unit_measures = Vec::new();
        let room = |u: usize| (units[u].strength - units[u].hits) as i32;
        for (who, morale, hits) in [
            (own, OWN_MORALE, HITS_TAKEN),
            (enemy, ENEMY_MORALE, HITS_INFLICTED),
        ] {
            let Some(u) = who else { continue };
            measures.push(Measure::new(morale, 0, ROUTED));
            morale_measures.push((u, measures.len() - 1));
            measures.push(Measure::new(hits, 0, room(u)));
            unit_measures.push((u, Some(measures.len() - 1), None));
        }
        let mut tests_measures = Vec::new();
        if counts_tests {
            let melee = steps[0].procedure == "melee";
            for (who, name) in [(own, TESTS_TAKEN), (enemy, TESTS_INFLICTED)] {
                let Some(u) = who else { continue };
                // The firer of a volley takes no tests.
                if !melee && Some(u) == steps[0].actor {
                    continue;
                }
                measures.push(Measure::new(name, 0, 4).labelled(name.replace('-', " ")));
                tests_measures.push((u, measures.len() - 1));
            }
        }
        for &u in &involved {
            let unit = &units[u];
            let h = if Some(u) == own || Some(u) == enemy {
                None
            } else {
                measures.push(
                    Measure::new(format!("{}-hits", unit.name), 0, room(u))
                        .labelled(format!("{} hits", unit.name)),
                );
                Some(measures.len() - 1)
            };
            let c = unit.commander.map(|_| {
                measures.push(
                    Measure::new(format!("{}-commander-lost", unit.name), 0, 1)
                        .labelled(format!("{} commander lost", unit.name)),
                );
                measures.len() - 1
            });
            unit_measures.push((u, h, c));
        }
        let melee_steps = melee_at.iter().filter(|&&m| m).count();
        let rounds_measure =
            (repeat.is_some() || (melee_steps > 0 && steps.len() > 1)).then_some(measures.len());
        let ended_measure =
            (steps.len() > 1).then(|| measures.len() + usize::from(rounds_measure.is_some()));
        // Turns begun (repeated) or rounds fought and the step the course
        // ended at grow with the turns or steps: the space for `n` of them.
        let space_for = |n: usize| {
            let mut measures = measures.clone();
            let mut ended_max = n;
            if let Some(r) = &repeat {
                measures.push(r.turns_measure(n));
                ended_max = steps.len();
            } else if rounds_measure.is_some() {
                let rounds = melee_at[..n].iter().filter(|&&m| m).count();
                measures.push(Measure::new("rounds", 0, rounds as i32));
            }
            if ended_measure.is_some() {
                measures.push(Measure::new(ENDED_AT_STEP, 1, ended_max as i32));
            }
            (outcomes.clone(), measures)
        };
        let space = match &repeat {
            Some(r) => crate::scenario::course::fitted_space(
                "repeat.turns",
                usize::from(r.turns),
                space_for,
            )?,
            None => crate::scenario::course::fitted_space("steps", steps.len(), space_for)?,
        };
        Ok(CourseSpec {
            space,
            staged: Staged::new(steps.len(), repeat),
            units,
            steps,
            rules,
            own,
            enemy,
            unit_measures,
            morale_measures,
            rounds_measure,
            tests_measures,
            ended_measure,
            not_activated,
            routed_outcome,
            cache: RefCell::new(HashMap::new()),
        })
    }

    /// Step `step`'s procedure name and the units it names (acting, other).
    pub fn step_units(&self, step: usize) -> (&str, Option<usize>, Option<usize>) {
        let s = &self.steps[step];
        (&s.procedure, s.actor, s.target)
    }
    /// Number of steps.
    pub fn step_count(&self) -> usize {
        self.steps.len()
    }
    /// The scenario's units, as the course starts.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }
    /// The `[rules]` readings in force.
    pub fn readings(&self) -> &Readings {
        &self.rules
    }

    fn units_in(&self, state: &CourseState) -> Vec<Unit> {
        self.units
            .iter()
            .zip(&state.units)
            .map(|(u, s)| Unit {
                hits: s.hits.min(u.strength.saturating_sub(1)),
                commander: if s.commander { u.commander } else { None },
                action_bonus: s.bonus,
                shot_this_phase: s.shot,
                ..u.clone()
            })
            .collect()
    }

    /// Whether a stop condition of the repeat holds in `state` (at the end
    /// of a turn).
    fn stops(&self, state: &CourseState) -> bool {
        let routed = |u: Option<usize>| u.is_some_and(|u| state.units[u].routed);
        let hit = |u: Option<usize>| u.is_some_and(|u| state.units[u].hits > self.units[u].hits);
        self.staged.any_stop(|s| match s {
            Stop::EitherRouts => self.staged.repeat().is_some_and(|r| {
                self.steps[r.from_step..]
                    .iter()
                    .any(|st| routed(st.actor) || routed(st.target))
            }),
            Stop::OwnRouts => routed(self.own),
            Stop::EnemyRouts => routed(self.enemy),
            Stop::OwnHit => hit(self.own),
            Stop::EnemyHit => hit(self.enemy),
        })
    }

    /// What a course that ends because `blocker` routed reports: the last
    /// step's own outcome for the units routed where it has one
    /// (`defender-routs`, `target-routs`, `routs`), else `NAME-routs`.
    fn early_outcome(&self, state: &CourseState, blocker: usize) -> usize {
        let last = self.steps.last().expect("a course has a step");
        let routed = |u: Option<usize>| u.is_some_and(|u| state.units[u].routed);
        let found = match last.procedure.as_str() {
            "melee" => {
                let cat = routed(last.actor) as usize + 2 * routed(last.target) as usize;
                (cat > 0).then_some(cat)
            }
            "shooting" | "discipline-test" => {
                let u = if last.procedure == "shooting" {
                    last.target
                } else {
                    last.actor
                };
                routed(u).then_some(1)
            }
            _ => None,
        };
        found
            .or(self.routed_outcome[blocker])
            .expect("every unit a later step names has an outcome when it routs")
    }

    fn leaf(&self, outcome: usize, state: &CourseState, ended_at: usize) -> Leaf {
        let mut v = vec![0i32; self.space.measures().len()];
        for &(u, h, c) in &self.unit_measures {
            let s = &state.units[u];
            if let Some(h) = h {
                v[h] = (s.hits - self.units[u].hits) as i32;
            }
            if let Some(c) = c {
                v[c] = (!s.commander) as i32;
            }
        }
        for &(u, m) in &self.morale_measures {
            v[m] = morale_level(&state.units[u]);
        }
        if let Some(r) = self.rounds_measure {
            v[r] = state.rounds as i32;
        }
        for &(u, m) in &self.tests_measures {
            v[m] = state.units[u].tests as i32;
        }
        if let Some(m) = self.ended_measure {
            v[m] = ended_at as i32;
        }
        self.space.leaf(outcome, &v)
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
            units: self
                .units
                .iter()
                .map(|u| UnitState {
                    hits: u.hits,
                    routed: false,
                    commander: u.commander.is_some(),
                    shot: false,
                    bonus: 0,
                    tests: 0,
                })
                .collect(),
            rounds: 0,
            last_outcome: 0,
        }
    }
    /// Builds the roll of stage `st` for `state`.
    fn build_stage(&self, st: Stage, state: &CourseState) -> Result<Step, InputError> {
        let s = &self.steps[st.step];
        // A melee that repeats is one melee going on: its later turns are
        // later rounds (docs/rules/sword-and-spear.md section 7).
        let round = Round {
            later: (self.staged.repeats(st.step) && st.turn > 1)
                .then_some(self.rules.later_rounds_impetus),
            detail: !self.tests_measures.is_empty(),
        };
        let step = build_step(
            &s.procedure,
            &mut s.fields.fresh(),
            &self.units_in(state),
            round,
            &self.rules,
        )?;
        Ok(match step {
            // Rounds that are the same procedure share one exact result.
            Step::Melee(m) => {
                let cell = self
                    .cache
                    .borrow_mut()
                    .entry((*m.clash(), round.detail))
                    .or_default()
                    .clone();
                Step::Melee(m.with_cache(cell))
            }
            other => other,
        })
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
        let step = stage.step;
        let spec = &self.steps[step];
        let sp = proc.space();
        let val = |name: &str| sp.measure_index(name).map_or(0, |m| sp.value_of(leaf, m));
        let cat = sp.outcome_of(leaf);
        let mut next = state.clone();
        match self.staged.repeat() {
            // Turns of the repeat begun.
            Some(r) if r.from_step == step => next.rounds += 1,
            // Melee steps fought.
            None if matches!(proc, Step::Melee(_)) => next.rounds += 1,
            _ => {}
        }
        let strength: Vec<u8> = self.units.iter().map(|u| u.strength).collect();
        let hit = |next: &mut CourseState, u: Option<usize>, n: i32, routed: bool, killed: bool| {
            if let Some(u) = u {
                let s = &mut next.units[u];
                s.hits = (s.hits + n as u8).min(strength[u]);
                s.routed |= routed;
                if killed {
                    s.commander = false;
                }
            }
        };
        // Discipline tests are carried only where the course reports them.
        let count_tests = !self.tests_measures.is_empty();
        match proc {
            Step::Activation(a) => {
                if let Some(u) = spec.actor {
                    next.units[u].bonus = if a.level_of(leaf) >= Level::Equal {
                        a.bonus_of(leaf)
                    } else {
                        0
                    };
                }
                if let (Some(need), Some(cat)) = (a.need(), self.not_activated)
                    && !a.meets(need, leaf)
                {
                    return Transition::End(self.leaf(cat, &next, step + 1));
                }
            }
            Step::DisciplineTest(_) => hit(&mut next, spec.actor, val("hits"), cat == 1, false),
            Step::Shooting(_) => {
                hit(
                    &mut next,
                    spec.target,
                    val("target-hits"),
                    cat == 1,
                    val("target-commander-killed") == 1,
                );
                if let Some(f) = spec.actor {
                    next.units[f].shot = true;
                    next.units[f].bonus = 0;
                }
                if let Some(t) = spec.target
                    && count_tests
                {
                    next.units[t].tests = next.units[t]
                        .tests
                        .saturating_add(val("target-tests") as u8);
                }
            }
            Step::Melee(_) => {
                hit(
                    &mut next,
                    spec.actor,
                    val("attacker-hits"),
                    cat & 1 == 1,
                    val("attacker-commander-killed") == 1,
                );
                hit(
                    &mut next,
                    spec.target,
                    val("defender-hits"),
                    cat & 2 == 2,
                    val("defender-commander-killed") == 1,
                );
                for (u, tests) in [
                    (spec.actor, "attacker-tests"),
                    (spec.target, "defender-tests"),
                ] {
                    let Some(u) = u else { continue };
                    // The melee closes the phase the unit shot in: "shot
                    // this phase" does not reach a later melee step.
                    let s = &mut next.units[u];
                    s.bonus = 0;
                    s.shot = false;
                    if count_tests {
                        s.tests = s.tests.saturating_add(val(tests) as u8);
                    }
                }
            }
            Step::CommanderRisk(_) => hit(&mut next, spec.actor, 0, false, cat == 0),
        }
        let end_of_turn = step + 1 == self.steps.len();
        if let Some(nst) = next_stage {
            // The stop conditions, at the end of a turn.
            if end_of_turn && self.stops(&next) {
                return Transition::End(self.leaf(cat, &next, self.steps.len()));
            }
            let nxt = &self.steps[nst.step];
            if let Some(u) = [nxt.actor, nxt.target]
                .into_iter()
                .flatten()
                .find(|&u| next.units[u].routed)
            {
                let cat = self.early_outcome(&next, u);
                return Transition::End(self.leaf(cat, &next, step + 1));
            }
        } else {
            next.last_outcome = cat;
        }
        Transition::Continue(next)
    }
    /// The course's leaf for a state after the last stage.
    fn finish(&self, state: &CourseState) -> Leaf {
        self.leaf(state.last_outcome, state, self.steps.len())
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
