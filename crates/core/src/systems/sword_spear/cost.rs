//! What a Sword & Spear course may cost, bounded before it is built.
//!
//! A course is compiled to a chain with one node per (stage, unit states)
//! it can reach ([`crate::engine::chain`]). Before building anything, the
//! steps alone bound how many such nodes there can be: at each stage every
//! unit the course names can carry at most as many hit values as the steps
//! before could inflict (four a melee round or volley, `tests` a Discipline
//! test, never past its strength), its commander or not once a step put it
//! at risk, "shot this phase" or not once it shot, and an activation's
//! bonus (0–8) once activated. The bound is the sum over stages of the
//! product over units: never below the nodes the chain will have. A course
//! whose bound passes [`MAX_NODES`] is refused at its `repeat.turns` (or
//! its `steps`), naming the most turns (or steps) that fit, instead of
//! running out of memory or time while it is built.

use super::unit::Unit;
use crate::engine::chain::MAX_NODES;

/// What a step does to the units it names, for the bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepShape {
    /// The procedure named.
    pub procedure: &'static str,
    /// The acting unit (unit, firer, attacker).
    pub actor: Option<usize>,
    /// The other unit (target, defender).
    pub target: Option<usize>,
}

/// Most new hits one round of melee or one volley gives a side (each of
/// the four placed pairs a hit or a test, unpaired dice a hit at most).
const HITS_PER_CLASH: u32 = 4;
/// Most Discipline tests one `discipline-test` step takes (its `tests`).
const TESTS_PER_STEP: u32 = 8;
/// Values an activation's pending bonus can take (0 to 8).
const BONUS_VALUES: u128 = 9;

/// What one unit can carry by a stage.
#[derive(Clone, Copy, Debug, Default)]
struct Carried {
    hits: u32,
    commander_at_risk: bool,
    shot: bool,
    activated: bool,
}

/// The upper bound on a course's chain nodes: `steps` in order, the steps
/// from `from_step` on repeated for `turns` turns (a course without
/// `repeat`: `from_step` = the number of steps, `turns` = 1). Saturates far
/// above [`MAX_NODES`].
pub fn node_bound(steps: &[StepShape], units: &[Unit], from_step: usize, turns: u32) -> u128 {
    let mut carried = vec![Carried::default(); units.len()];
    let mut named: Vec<usize> = Vec::new();
    for s in steps {
        for u in [s.actor, s.target].into_iter().flatten() {
            if !named.contains(&u) {
                named.push(u);
            }
        }
    }
    let cap = 1u128 << 100;
    let mut total = 0u128;
    let order = (0..from_step).chain((0..turns).flat_map(|_| from_step..steps.len()));
    for i in order {
        // The states this stage's nodes can be in.
        let mut states = 1u128;
        for &u in &named {
            let c = carried[u];
            let room = units[u].strength.saturating_sub(units[u].hits) as u32;
            let mut f = (c.hits.min(room) + 1) as u128;
            if c.commander_at_risk && units[u].commander.is_some() {
                f *= 2;
            }
            if c.shot {
                f *= 2;
            }
            if c.activated {
                f *= BONUS_VALUES;
            }
            states = states.saturating_mul(f).min(cap);
        }
        total = total.saturating_add(states).min(cap);
        let s = steps[i];
        let mut hit = |u: Option<usize>, n: u32, at_risk: bool| {
            if let Some(u) = u {
                carried[u].hits = carried[u].hits.saturating_add(n);
                carried[u].commander_at_risk |= at_risk;
            }
        };
        match s.procedure {
            "melee" => {
                hit(s.actor, HITS_PER_CLASH, true);
                hit(s.target, HITS_PER_CLASH, true);
            }
            "shooting" => {
                hit(s.target, HITS_PER_CLASH, true);
                if let Some(u) = s.actor {
                    carried[u].shot = true;
                }
            }
            "discipline-test" => hit(s.actor, TESTS_PER_STEP, false),
            "commander-risk" => hit(s.actor, 0, true),
            "activation" => {
                if let Some(u) = s.actor {
                    carried[u].activated = true;
                }
            }
            _ => {}
        }
    }
    total
}

/// Why a course is refused before it is built: its bound, and the most
/// turns (with `repeat`) or steps (without) whose bound fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverBudget {
    /// The course's bound on chain nodes.
    pub bound: u128,
    /// The most turns that fit (courses with `repeat`; 0 when none does).
    pub turns_that_fit: Option<u32>,
    /// The most steps that fit, from the first (courses without `repeat`).
    pub steps_that_fit: Option<usize>,
}

/// Checks a course's bound against [`MAX_NODES`] before it is built.
/// `repeat` is `(from_step, turns)`.
pub fn check(
    steps: &[StepShape],
    units: &[Unit],
    repeat: Option<(usize, u32)>,
) -> Result<u128, OverBudget> {
    let limit = MAX_NODES as u128;
    let (from_step, turns) = repeat.unwrap_or((steps.len(), 1));
    let bound = node_bound(steps, units, from_step, turns);
    if bound <= limit {
        return Ok(bound);
    }
    Err(match repeat {
        Some(_) => OverBudget {
            bound,
            turns_that_fit: Some(
                (1..turns)
                    .rev()
                    .find(|&t| node_bound(steps, units, from_step, t) <= limit)
                    .unwrap_or(0),
            ),
            steps_that_fit: None,
        },
        None => OverBudget {
            bound,
            turns_that_fit: None,
            steps_that_fit: Some(
                (1..steps.len())
                    .rev()
                    .find(|&k| node_bound(&steps[..k], units, k, 1) <= limit)
                    .unwrap_or(0),
            ),
        },
    })
}
