//! What a roll of a course did, as a typed value: each procedure reads its
//! own leaf into its table's result, and the course goes on from that
//! result, never from an outcome label or a measure name.

use super::Step;
use super::close_combat::{CcResult, CloseCombat};
use crate::outcome::Leaf;
use crate::systems::mpbs::leaders::LeaderOutcome;
use crate::systems::mpbs::morale::MoraleResult;
use crate::systems::mpbs::musketry::FireResult;
use crate::systems::mpbs::pursuit::PursuitResult;
use crate::systems::mpbs::retreat::RetreatResult;

/// The result of one roll of a course, by the procedure rolled.
#[derive(Clone, Copy, Debug)]
pub(super) enum Rolled<'a> {
    /// A fire table (musketry, light fire, artillery); `salvo` when the
    /// musketry was a Salvo (10.4).
    Fire {
        /// The table's result.
        result: FireResult,
        /// The fire was a Salvo.
        salvo: bool,
    },
    /// The Close Combat Table, with the combat (its leaders and momentum).
    CloseCombat(&'a CloseCombat, CcResult),
    /// A morale check.
    Morale(MoraleResult),
    /// The Cavalry Pursuit Table.
    Pursuit(PursuitResult),
    /// The Unable to Retreat Table.
    Retreat(RetreatResult),
    /// The Leader Casualty and Replacement tables.
    Leader(LeaderOutcome),
    /// An orders roll, which changes no unit state a course carries.
    Orders,
}

impl Step {
    /// The result leaf `leaf` of this step stands for.
    pub(super) fn rolled(&self, leaf: Leaf) -> Rolled<'_> {
        match self {
            Step::Musketry(m) => Rolled::Fire {
                result: m.result_of(leaf),
                salvo: m.is_salvo(),
            },
            Step::LightFire(l) => Rolled::Fire {
                result: l.result_of(leaf),
                salvo: false,
            },
            Step::Artillery(a) => Rolled::Fire {
                result: a.result_of(leaf),
                salvo: false,
            },
            Step::CloseCombat(cc) => Rolled::CloseCombat(cc, cc.result_of(leaf)),
            Step::MoraleCheck(m) => Rolled::Morale(m.result_of(leaf)),
            Step::Pursuit(p) => Rolled::Pursuit(p.result_of(leaf)),
            Step::UnableToRetreat(u) => Rolled::Retreat(u.result_of(leaf)),
            Step::LeaderCasualty(l) => Rolled::Leader(l.outcome_of(leaf)),
            Step::Continuation(_)
            | Step::Preemption(_)
            | Step::OrdersChange(_)
            | Step::Interception(_) => Rolled::Orders,
        }
    }

    /// The most hits (casualty points) one roll of this step scores.
    pub(super) fn most_hits(&self) -> i32 {
        match self {
            Step::Musketry(m) => m.most_hits(),
            Step::LightFire(l) => l.most_hits(),
            _ => 0,
        }
    }
}
