//! Snaphance steps: every procedure behind one enum ([`Step`]), the step
//! that cannot happen ([`Pass`]), and building a step from its keys.

use super::fire::{self, Fire};
use super::melee::{self, Melee};
use super::morale::{self, MoraleTest};
use super::orders::{self, OrderTest};
use super::pursuit::{self, Pursuit};
use super::readings::Readings;
use super::unit::{Stand, finish, relocate};
use crate::dice::{Dice, EnumerationError};
use crate::error::InputError;
use crate::outcome::{Leaf, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::Fields;
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
