//! What a course carries from one roll to the next: unit states, leaders,
//! the rolls results trigger, and the stop conditions of an engagement.

use smallvec::SmallVec;

use super::*;
use crate::outcome::MAX_LEAVES;
use crate::scenario::limits::{MAX_STEPS, MAX_UNITS};

/// The state of one unit between rolls.
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
    /// Where the unit's leader is.
    pub leader: LeaderState,
    /// The unit pursued off the map (11.7.2): it has left the fight, neither
    /// broken nor eliminated.
    pub off_map: bool,
    /// The Casualty Threshold check (10.6.4) has been taken.
    pub threshold_reached: bool,
}

impl UnitState {
    pub(super) fn of(u: &Unit) -> UnitState {
        UnitState {
            casualty_points: u.casualty_points,
            formation: u.formation,
            morale: u.morale_state,
            salvo_marker: u.salvo_marker,
            leader: if u.leader.is_some() {
                LeaderState::With
            } else {
                LeaderState::Lost
            },
            off_map: false,
            threshold_reached: casualty_threshold(u.morale, u.strength)
                .is_some_and(|t| u.casualty_points >= t),
        }
    }
    /// One morale level down, as a failed check (docs/rules/mpbs.md, Morale levels and Morale check).
    pub(super) fn lose_morale(&mut self) {
        self.morale = close_combat::morale_after(self.morale, close_combat::MoraleLoss::Shaken);
    }
    pub(super) fn gone(&self) -> bool {
        self.morale == MoraleState::Eliminated
    }
    /// Eliminated or off the map: no further roll concerns it.
    pub(super) fn out(&self) -> bool {
        self.gone() || self.off_map
    }
    /// Morale Broken: the unit has no formation (chart 6.3), so formation
    /// hits do nothing and no formation modifier applies
    /// (docs/rules/mpbs.md, "Morale Broken means no formation").
    pub(super) fn no_formation(&self) -> bool {
        self.morale == MoraleState::Broken
    }
}

/// Where a unit's leader is (Leader Casualty 5.3 and Replacement 5.3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeaderState {
    /// With the unit (also after "0 Return original Leader Immediately").
    With,
    /// Replaced for now; the original returns at the end of this turn
    /// (0-based) of the engagement ("1 ... returns at end of next turn").
    BackAfterTurn(u8),
    /// No leader, or the leader was eliminated or replaced for good.
    Lost,
}

/// A unit's index in a course state. Every unit of a scenario has one: the
/// type holds [`MAX_UNITS`] (checked when compiled), and [`Course::new`]
/// refuses more units.
pub(super) type UnitIx = u16;
const _: () = assert!(MAX_UNITS <= UnitIx::MAX as usize);

/// An outcome index of a course (the category it ended in): every outcome of
/// a space has one, as a space has at most [`MAX_LEAVES`] leaves.
pub(super) type OutcomeIx = u32;
const _: () = assert!(MAX_LEAVES <= OutcomeIx::MAX as usize);

// The step counter `pc` holds every step index and the turn counter every
// turn: both `u8`, whose range covers the limits.
const _: () = assert!(MAX_STEPS <= u8::MAX as usize);
const _: () = assert!(MAX_TURNS <= u8::MAX as i64);

/// Most turns an engagement may run.
pub const MAX_TURNS: i64 = 50;

/// The index of unit `i` in a course state.
pub(super) fn unit_ix(i: usize) -> UnitIx {
    UnitIx::try_from(i).expect("a course has at most MAX_UNITS units (checked in Course::new)")
}

/// A roll some result triggers, taken before the course goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Sub {
    /// A morale check (10.6) of a unit.
    Morale(UnitIx),
    /// Cavalry pursuit (11.7.2): pursuer, beaten unit, momentum used, and
    /// the leader used in the close combat (its unit and the pursuit
    /// modifier it gives).
    Pursuit(UnitIx, UnitIx, bool, Option<(UnitIx, i8)>),
    /// Unable to Retreat (11.4.5) of a Morale Broken unit.
    UnableToRetreat(UnitIx),
    /// Leader Casualty (5.3) of the leader with a unit.
    LeaderCasualty(UnitIx),
}

/// The unit states of a course, inline for the few units a course names
/// (a state is cloned for every leaf of every roll while the chain is
/// built: no allocation then).
pub(super) type Units = SmallVec<[UnitState; 4]>;

/// The rolls still to take, inline for the usual few.
pub(super) type Pending = SmallVec<[Sub; 4]>;

/// The state of a course between rolls.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CourseState {
    pub(super) units: Units,
    /// Turn (0-based) of an engagement.
    pub(super) turn: u8,
    /// Next step of the turn.
    pub(super) pc: u8,
    /// Triggered rolls still to take, first first.
    pub(super) pending: Pending,
    /// Category of the last step resolved.
    pub(super) last: OutcomeIx,
    /// The category the course ended in, once it has.
    pub(super) ended: Option<OutcomeIx>,
}

/// One step of a course: its reader (to rebuild it for each state) and the
/// units it names.
pub struct StepSpec<'a> {
    /// Procedure name.
    pub procedure: String,
    /// Reader over the step's keys.
    pub fields: Fields<'a>,
    /// The acting unit (firer, lead attacker, pursuer), as an index into the units.
    pub actor: Option<usize>,
    /// The other attacking units of a close combat, after the lead
    /// attacker, as indices into the units (empty for any other step).
    pub others: Vec<usize>,
    /// The unit acted upon (target, defender).
    pub target: Option<usize>,
}

impl StepSpec<'_> {
    /// The units acting on the step: the acting unit, then the other
    /// attackers of a close combat.
    pub fn acting(&self) -> impl Iterator<Item = usize> + '_ {
        self.actor.into_iter().chain(self.others.iter().copied())
    }
    /// Every unit the step names: the acting units, then the target.
    pub fn named(&self) -> impl Iterator<Item = usize> + '_ {
        self.acting().chain(self.target)
    }
}

crate::systems::named::stop_enum! {
    /// Why an engagement stops, in the order the scenario lists them.
    Stop {
        EnemyBroken = "enemy-broken": "the enemy is Morale Broken or eliminated",
        EnemyThreshold = "enemy-threshold":
            "the enemy's casualty points reach its Casualty Threshold (12.5)",
        OwnBroken = "own-broken": "our unit is Morale Broken or eliminated",
    }
}

impl Stop {
    /// The outcome of a course this condition ended.
    pub fn outcome(self) -> &'static str {
        match self {
            Stop::EnemyBroken => "enemy broken or eliminated",
            Stop::EnemyThreshold => "enemy casualty threshold",
            Stop::OwnBroken => "own broken or eliminated",
        }
    }
}

/// An engagement: the course's steps repeated each turn until a stop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repeat {
    /// At most this many turns.
    pub turns: u8,
    /// The first step (0-based) of each later turn; the steps before it
    /// run in the first turn only.
    pub from_step: u8,
    /// Stop conditions, checked after every roll in this order.
    pub until: Vec<Stop>,
}
