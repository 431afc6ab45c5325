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

use super::activation::{self, Activation, Level};
use super::commanders::{self, CommanderRisk};
use super::discipline::{self, DisciplineTest};
use super::engagement;
use super::melee::{self, MeleeRound};
use super::shooting::{self, Shooting};
use super::unit::Unit;

use crate::engine::chain::{Chain, ChainSpec, Transition};
use crate::error::InputError;
use crate::outcome::keys::{ENEMY_MORALE, HITS_INFLICTED, HITS_TAKEN, OWN_MORALE, TURNS};
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::Fields;

macro_rules! steps {
    ($($var:ident($ty:ty, $info:expr, $build:expr)),+ $(,)?) => {
        crate::systems::named::step_enum! {
            /// Any Sword & Spear procedure, as one step of a course.
            Step { $($var($ty, $info)),+ }
        }

        /// Builds the step named `name` from its keys.
        pub fn build_step(name: &str, f: &mut Fields, units: &[Unit]) -> Result<Step, InputError> {
            f.has("procedure");
            $(
                if name == $info.name {
                    return Ok(Step::$var($build(f, units)?));
                }
            )+
            let names: Vec<&str> = PROCEDURES.iter().map(|p| p.name).collect();
            Err(f.locate("procedure", InputError::new(format!("unknown procedure \"{name}\"")).one_of(name, &names)))
        }
    };
}

steps! {
    Activation(Activation, activation::INFO, Activation::from_step),
    DisciplineTest(DisciplineTest, discipline::INFO, DisciplineTest::from_step),
    Shooting(Shooting, shooting::INFO, Shooting::from_step),
    Melee(MeleeRound, melee::INFO, MeleeRound::from_step),
    Engagement(Chain<MeleeRound>, engagement::INFO, engagement::from_step),
    CommanderRisk(CommanderRisk, commanders::INFO, CommanderRisk::from_step),
}

/// The step keys naming the acting and the other unit, per procedure.
pub const STEP_UNIT_KEYS: &[(&str, &str, Option<&str>)] = &[
    ("activation", "unit", None),
    ("discipline-test", "unit", None),
    ("commander-risk", "unit", None),
    ("shooting", "firer", Some("target")),
    ("melee", "attacker", Some("defender")),
    ("engagement", "attacker", Some("defender")),
];

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

/// The outcome of a course stopped by an activation without what it `need`s.
pub const STOPPED_NOT_ACTIVATED: &str = "stopped-not-activated";

/// Measure of a course of several steps: the step (1-based) at which it
/// ended, the number of steps when it ran to its end.
pub const ENDED_AT_STEP: &str = "ended-at-step";
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

/// A course of Sword & Spear steps.
pub struct CourseSpec<'a> {
    units: Vec<Unit>,
    steps: Vec<StepSpec<'a>>,
    space: OutcomeSpace,
    /// Per unit: its hits measure (`NAME-hits`, or `hits-taken` /
    /// `hits-inflicted` for the own / enemy unit) and commander measure.
    unit_measures: Vec<(usize, Option<usize>, Option<usize>)>,
    /// The own and enemy units with their morale measures (key outcomes).
    morale_measures: Vec<(usize, usize)>,
    rounds_measure: Option<usize>,
    /// The own and enemy units with their Discipline tests measures.
    tests_measures: Vec<(usize, usize)>,
    /// The `ended-at-step` measure (courses of several steps).
    ended_measure: Option<usize>,
    not_activated: Option<usize>,
    /// Per unit: the outcome `NAME-routs`, for a unit that routs before a
    /// step that names it when the last step has no outcome saying so.
    routed_outcome: Vec<Option<usize>>,
}

impl<'a> CourseSpec<'a> {
    /// Prepares a course: builds each step once from the scenario's units
    /// (which checks every step) to learn the outcome space. `own` and
    /// `enemy` are the units the key measures report on
    /// (docs/rules/sword-and-spear.md, "Key outcomes").
    pub fn new(
        units: Vec<Unit>,
        steps: Vec<StepSpec<'a>>,
        own: Option<usize>,
        enemy: Option<usize>,
    ) -> Result<CourseSpec<'a>, InputError> {
        let mut last: Vec<String> = Vec::new();
        let mut rounds_max = 0i32;
        let mut has_melee = false;
        let mut has_engagement = false;
        let mut has_need = false;
        let mut involved: Vec<usize> = Vec::new();
        let mut stoppable: Vec<usize> = Vec::new();
        for (i, s) in steps.iter().enumerate() {
            let p = build_step(&s.procedure, &mut s.fields.fresh(), &units)?;
            match &p {
                Step::Melee(_) => {
                    has_melee = true;
                    rounds_max += 1;
                }
                Step::Engagement(c) => {
                    has_melee = true;
                    has_engagement = true;
                    let m = c
                        .space()
                        .measure_index("rounds")
                        .expect("engagements count rounds");
                    rounds_max += c.space().measures()[m].max;
                }
                Step::Activation(a) => has_need |= a.need().is_some(),
                _ => {}
            }
            for u in [s.actor, s.target].into_iter().flatten() {
                if !involved.contains(&u) {
                    involved.push(u);
                }
                // A later step naming a routed unit stops the course.
                if i > 0 && !stoppable.contains(&u) {
                    stoppable.push(u);
                }
            }
            last = p.space().outcomes().to_vec();
        }
        let mut outcomes = last;
        let last_step = steps.last().expect("a course has a step");
        // The units whose rout the last step's own outcomes report.
        let covered: Vec<usize> = match last_step.procedure.as_str() {
            "melee" | "engagement" => [last_step.actor, last_step.target]
                .into_iter()
                .flatten()
                .collect(),
            "shooting" => last_step.target.into_iter().collect(),
            "discipline-test" => last_step.actor.into_iter().collect(),
            _ => Vec::new(),
        };
        // Discipline tests apart from hits: a course of one `melee` or
        // `shooting` step (a longer course would multiply its space by the
        // tests of every step; its hits already count the failed ones).
        let counts_tests =
            steps.len() == 1 && matches!(steps[0].procedure.as_str(), "melee" | "shooting");
        let not_activated = has_need.then(|| {
            outcomes.push(STOPPED_NOT_ACTIVATED.to_string());
            outcomes.len() - 1
        });
        let mut routed_outcome = vec![None; units.len()];
        for &u in &stoppable {
            if !covered.contains(&u) {
                outcomes.push(format!("{}-routs", units[u].name));
                routed_outcome[u] = Some(outcomes.len() - 1);
            }
        }
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
                measures.push(Measure::new(name, 0, 4));
                tests_measures.push((u, measures.len() - 1));
            }
        }
        for &u in &involved {
            let unit = &units[u];
            let h = if Some(u) == own || Some(u) == enemy {
                None
            } else {
                measures.push(Measure::new(format!("{}-hits", unit.name), 0, room(u)));
                Some(measures.len() - 1)
            };
            let c = unit.commander.map(|_| {
                measures.push(Measure::new(format!("{}-commander-lost", unit.name), 0, 1));
                measures.len() - 1
            });
            unit_measures.push((u, h, c));
        }
        let rounds_measure = if has_engagement {
            // Rounds of melee fought: a course that starts with its melee
            // fights at least one.
            let first = steps.first().map_or(0, |s| {
                matches!(s.procedure.as_str(), "melee" | "engagement") as i32
            });
            measures.push(Measure::new(TURNS, first, rounds_max));
            Some(measures.len() - 1)
        } else if has_melee && steps.len() > 1 {
            measures.push(Measure::new("rounds", 0, rounds_max));
            Some(measures.len() - 1)
        } else {
            None
        };
        let ended_measure = (steps.len() > 1).then(|| {
            measures.push(Measure::new(ENDED_AT_STEP, 1, steps.len() as i32));
            measures.len() - 1
        });
        Ok(CourseSpec {
            space: OutcomeSpace::try_new(outcomes, measures)?,
            units,
            steps,
            unit_measures,
            morale_measures,
            rounds_measure,
            tests_measures,
            ended_measure,
            not_activated,
            routed_outcome,
        })
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

    /// What a course that ends because `blocker` routed reports: the last
    /// step's own outcome for the units routed where it has one
    /// (`defender-routs`, `target-routs`, `routs`), else `NAME-routs`.
    fn early_outcome(&self, state: &CourseState, blocker: usize) -> usize {
        let last = self.steps.last().expect("a course has a step");
        let routed = |u: Option<usize>| u.is_some_and(|u| state.units[u].routed);
        let found = match last.procedure.as_str() {
            "melee" | "engagement" => {
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

impl ChainSpec for CourseSpec<'_> {
    type State = CourseState;
    type Proc = Step;

    fn space(&self) -> &OutcomeSpace {
        &self.space
    }
    fn initial(&self) -> CourseState {
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
    fn steps(&self) -> usize {
        self.steps.len()
    }
    fn build(&self, step: usize, state: &CourseState) -> Result<Step, InputError> {
        let s = &self.steps[step];
        build_step(&s.procedure, &mut s.fields.fresh(), &self.units_in(state))
    }
    fn apply(
        &self,
        step: usize,
        proc: &Step,
        leaf: Leaf,
        state: &CourseState,
    ) -> Transition<CourseState> {
        let spec = &self.steps[step];
        let sp = proc.space();
        let val = |name: &str| sp.measure_index(name).map_or(0, |m| sp.value_of(leaf, m));
        let cat = sp.outcome_of(leaf);
        let mut next = state.clone();
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
                if let Some(t) = spec.target {
                    next.units[t].tests = next.units[t]
                        .tests
                        .saturating_add(val("target-tests") as u8);
                }
            }
            Step::Melee(_) | Step::Engagement(_) => {
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
                    s.tests = s.tests.saturating_add(val(tests) as u8);
                }
                next.rounds += if matches!(proc, Step::Melee(_)) {
                    1
                } else {
                    val("rounds") as u16
                };
            }
            Step::CommanderRisk(_) => hit(&mut next, spec.actor, 0, false, cat == 0),
        }
        if step + 1 < self.steps.len() {
            let nxt = &self.steps[step + 1];
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
    fn finish(&self, state: &CourseState) -> Leaf {
        self.leaf(state.last_outcome, state, self.steps.len())
    }
}
