//! Musket & Pike steps and courses: every procedure behind one enum, and
//! courses of several steps compiled to a chain over unit states.
//!
//! State carried between steps (docs/rules/mpbs.md, "Courses"): hits add
//! casualty points to the target; formation hits move it Normal → Shaken →
//! Broken; a salvo places a Salvo marker on the firer; close combat results
//! move morale one level down per loss (Morale Broken results to at least
//! Broken) and give both sides their formation hit. A step whose unit has
//! been eliminated ends the course.

use super::{Edition, Formation, MoraleState, Unit};
use super::{artillery, close_combat, leaders, light_fire, musketry, orders, pursuit, retreat};
use crate::dice::Dice;
use crate::engine::chain::{ChainSpec, Transition};
use crate::error::InputError;
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::Fields;
use crate::systems::ProcedureInfo;

macro_rules! steps {
    ($($var:ident($ty:ty, $info:expr)),+ $(,)?) => {
        /// Any Musket & Pike procedure, as one step of a course.
        #[derive(Debug)]
        pub enum Step {
            $(
                #[doc = concat!("See [`", stringify!($ty), "`].")]
                $var($ty)
            ),+
        }

        impl Procedure for Step {
            fn space(&self) -> &OutcomeSpace {
                match self { $(Step::$var(p) => p.space()),+ }
            }
            #[inline]
            fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
                match self { $(Step::$var(p) => p.resolve(dice)),+ }
            }
        }

        /// Every procedure a scenario step can name, with what `list` says of it.
        pub const PROCEDURES: &[ProcedureInfo] = &[$($info),+];

        /// Builds the step named `name` from its keys.
        pub fn build_step(
            name: &str,
            f: &mut Fields,
            units: &[Unit],
            edition: Edition,
        ) -> Result<Step, InputError> {
            f.has("procedure");
            $(
                if name == $info.name {
                    return Ok(Step::$var(<$ty>::from_step(f, units, edition)?));
                }
            )+
            let names: Vec<&str> = PROCEDURES.iter().map(|p| p.name).collect();
            Err(f.locate("procedure", InputError::new(format!("unknown procedure \"{name}\"")).one_of(name, &names)))
        }
    };
}

steps! {
    CloseCombat(close_combat::CloseCombat, close_combat::INFO),
    Musketry(musketry::Musketry, musketry::INFO),
    LightFire(light_fire::LightFire, light_fire::INFO),
    Artillery(artillery::Artillery, artillery::INFO),
    Pursuit(pursuit::Pursuit, pursuit::INFO),
    UnableToRetreat(retreat::UnableToRetreat, retreat::INFO),
    LeaderCasualty(leaders::LeaderCasualty, leaders::INFO),
    Continuation(orders::Continuation, orders::CONTINUATION_INFO),
    Preemption(orders::Preemption, orders::PREEMPTION_INFO),
    OrdersChange(orders::OrdersChange, orders::ORDERS_CHANGE_INFO),
    Interception(orders::Interception, orders::INTERCEPTION_INFO),
}

/// The state of one unit between steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnitState {
    /// Casualty points.
    pub casualty_points: u8,
    /// Formation.
    pub formation: Formation,
    /// Morale level.
    pub morale: MoraleState,
    /// Salvo marker.
    pub salvo_marker: bool,
}

impl UnitState {
    fn of(u: &Unit) -> UnitState {
        UnitState {
            casualty_points: u.casualty_points,
            formation: u.formation,
            morale: u.morale_state,
            salvo_marker: u.salvo_marker,
        }
    }
    fn formation_hit(&mut self) {
        self.formation = self.formation.after_hit();
    }
}

/// The state of a course between steps: every unit's state and the
/// measures accumulated so far.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CourseState {
    units: Vec<UnitState>,
    measures: Vec<i32>,
    /// The category of the last step resolved.
    last_outcome: usize,
}

/// One step of a course: its reader (to rebuild it for each state) and the
/// units it names.
pub struct StepSpec<'a> {
    /// Procedure name.
    pub procedure: String,
    /// Reader over the step's keys.
    pub fields: Fields<'a>,
    /// Units the step acts on, as indices into the scenario's units:
    /// (acting unit, target unit) where the procedure has them.
    pub actor: Option<usize>,
    /// The unit acted upon.
    pub target: Option<usize>,
}

/// A course of several Musket & Pike steps.
pub struct CourseSpec<'a> {
    /// The edition.
    pub edition: Edition,
    /// The scenario's units, as written.
    pub units: Vec<Unit>,
    /// The steps, in order.
    pub steps: Vec<StepSpec<'a>>,
    space: OutcomeSpace,
    /// For each step, the index in the course's measures of each of the
    /// step's measures.
    measure_map: Vec<Vec<usize>>,
}

/// The outcome added to the last step's outcomes: a unit the course needs
/// was eliminated before the last step.
pub const ENDED_EARLY: &str = "ended-early-unit-eliminated";

impl<'a> CourseSpec<'a> {
    /// Prepares a course: builds each step once from the initial state to
    /// learn its outcome space. With `early_end` the space has the extra
    /// outcome [`ENDED_EARLY`].
    pub fn new(
        edition: Edition,
        units: Vec<Unit>,
        steps: Vec<StepSpec<'a>>,
        early_end: bool,
    ) -> Result<CourseSpec<'a>, InputError> {
        let mut names: Vec<String> = Vec::new();
        let mut ranges: Vec<(i32, i32)> = Vec::new();
        let mut measure_map = Vec::new();
        let mut last_outcomes = Vec::new();
        for s in &steps {
            let proc = build_step(&s.procedure, &mut s.fields.fresh(), &units, edition)?;
            let mut map = Vec::new();
            for m in proc.space().measures() {
                let i = match names.iter().position(|n| *n == m.name) {
                    Some(i) => i,
                    None => {
                        names.push(m.name.clone());
                        ranges.push((0, 0));
                        names.len() - 1
                    }
                };
                ranges[i].0 += m.min;
                ranges[i].1 += m.max;
                map.push(i);
            }
            measure_map.push(map);
            last_outcomes = proc.space().outcomes().to_vec();
        }
        if early_end {
            last_outcomes.push(ENDED_EARLY.to_string());
        }
        let measures = names
            .into_iter()
            .zip(ranges)
            .map(|(n, (lo, hi))| Measure::new(n, lo, hi))
            .collect();
        Ok(CourseSpec {
            edition,
            units,
            steps,
            space: OutcomeSpace::new(last_outcomes, measures),
            measure_map,
        })
    }

    fn units_in(&self, state: &CourseState) -> Vec<Unit> {
        self.units
            .iter()
            .zip(&state.units)
            .map(|(u, s)| Unit {
                casualty_points: s.casualty_points.min(u.strength.saturating_sub(1)),
                formation: s.formation,
                morale_state: if s.morale == MoraleState::Eliminated {
                    MoraleState::Broken
                } else {
                    s.morale
                },
                salvo_marker: s.salvo_marker,
                ..u.clone()
            })
            .collect()
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
            units: self.units.iter().map(UnitState::of).collect(),
            measures: vec![0; self.space.measures().len()],
            last_outcome: 0,
        }
    }
    fn steps(&self) -> usize {
        self.steps.len()
    }
    fn build(&self, step: usize, state: &CourseState) -> Result<Step, InputError> {
        let s = &self.steps[step];
        build_step(
            &s.procedure,
            &mut s.fields.fresh(),
            &self.units_in(state),
            self.edition,
        )
    }
    fn apply(
        &self,
        step: usize,
        proc: &Step,
        leaf: Leaf,
        state: &CourseState,
    ) -> Transition<CourseState> {
        let spec = &self.steps[step];
        let space = proc.space();
        let mut next = state.clone();
        for (k, &i) in self.measure_map[step].iter().enumerate() {
            next.measures[i] += space.value_of(leaf, k);
        }
        let value = |name: &str| {
            space
                .measure_index(name)
                .map_or(0, |m| space.value_of(leaf, m))
        };
        match proc {
            Step::Musketry(_) | Step::LightFire(_) | Step::Artillery(_) => {
                if let Some(t) = spec.target {
                    let u = &mut next.units[t];
                    u.casualty_points = u.casualty_points.saturating_add(value("hits") as u8);
                    for _ in 0..value("formation-hits") {
                        u.formation_hit();
                    }
                }
                if let (Step::Musketry(m), Some(a)) = (proc, spec.actor)
                    && m.is_salvo()
                {
                    next.units[a].salvo_marker = true;
                }
            }
            Step::CloseCombat(_) => {
                let r = close_combat::CcResult::from_index(space.outcome_of(leaf))
                    .expect("close combat categories are the table's results");
                for (side, idx) in [
                    (close_combat::Side::Attacker, spec.actor),
                    (close_combat::Side::Defender, spec.target),
                ] {
                    let Some(i) = idx else { continue };
                    let u = &mut next.units[i];
                    u.morale = r.effect(side, u.morale).0;
                    if u.morale != MoraleState::Eliminated {
                        u.formation_hit();
                    }
                }
            }
            _ => {}
        }
        if step + 1 < self.steps.len() {
            let nxt = &self.steps[step + 1];
            let gone = [nxt.actor, nxt.target]
                .into_iter()
                .flatten()
                .any(|i| next.units[i].morale == MoraleState::Eliminated);
            if gone {
                assert_eq!(
                    self.space.outcomes().last().map(String::as_str),
                    Some(ENDED_EARLY),
                    "a course built without an early end cannot end early"
                );
                let ended = self.space.outcomes().len() - 1;
                return Transition::End(self.space.leaf(ended, &next.measures));
            }
        }
        next.last_outcome = space.outcome_of(leaf);
        Transition::Continue(next)
    }
    fn finish(&self, state: &CourseState) -> Leaf {
        self.space.leaf(state.last_outcome, &state.measures)
    }
}
