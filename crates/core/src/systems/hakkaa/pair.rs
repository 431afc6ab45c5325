//! The outcome space of every procedure between two units (fire, closing,
//! charge reaction, close combat) and of courses: the target's resulting
//! status as the category, and the step losses and commander injuries of
//! both sides, with the acting unit's ("own") status, as measures.
//!
//! Because fire and charge report the same labels and measures, a scenario's
//! "fire" and "charge" courses line up side by side, and a course can carry
//! both units' states from one step to the next by decoding a leaf
//! ([`decode`]).

use super::unit::{ELIMINATED, Status, UnitState};
use crate::outcome::{Leaf, Measure, OutcomeSpace};

/// Categories: the target's status after the procedure or course.
pub const TARGET_OUTCOMES: [&str; 5] = [
    "target steady",
    "target disordered",
    "target fell back",
    "target fled",
    "target eliminated",
];

/// Categories of a course with a single unit: its status at the end.
pub const UNIT_OUTCOMES: [&str; 5] = [
    "unit steady",
    "unit disordered",
    "unit fell back",
    "unit fled",
    "unit eliminated",
];

/// Measure: steps the target lost.
pub const TARGET_STEP_LOSSES: &str = "target-step-losses";
/// Measure: 1 when the target's attached commander was injured.
pub const TARGET_COMMANDER_INJURED: &str = "target-commander-injured";
/// Measure: the acting unit's status, 0 steady, 1 disordered, 2 fell back,
/// 3 fled, 4 eliminated (so `at_least` 3 reads "fled or eliminated").
pub const OWN_STATUS: &str = "own-status";
/// Measure: steps the acting unit lost.
pub const OWN_STEP_LOSSES: &str = "own-step-losses";
/// Measure: 1 when the acting unit's attached commander was injured.
pub const OWN_COMMANDER_INJURED: &str = "own-commander-injured";
/// The pair measures, in space order.
pub const PAIR_MEASURES: [&str; 5] = [
    TARGET_STEP_LOSSES,
    TARGET_COMMANDER_INJURED,
    OWN_STATUS,
    OWN_STEP_LOSSES,
    OWN_COMMANDER_INJURED,
];

/// `head` followed by `tail`, as one array of `N` (a `const` list of
/// measures built from shorter ones, so each list is written once).
pub const fn joined<const N: usize>(
    head: &[&'static str],
    tail: &[&'static str],
) -> [&'static str; N] {
    assert!(head.len() + tail.len() == N, "N is the two lengths summed");
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = if i < head.len() {
            head[i]
        } else {
            tail[i - head.len()]
        };
        i += 1;
    }
    out
}

/// The pair measures followed by a procedure's `extras`, in space order.
pub const fn with_extras<const N: usize>(extras: &[&'static str]) -> [&'static str; N] {
    joined(&PAIR_MEASURES, extras)
}
/// Most extra measures a procedure adds after the pair measures.
pub const MAX_EXTRAS: usize = 4;

/// How far each pair measure can go in one procedure (the space is dense,
/// so tight ranges keep it small).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ranges {
    /// Most steps the target can lose.
    pub target_losses: u8,
    /// The target's commander can be injured.
    pub target_commander: bool,
    /// Most steps the acting unit can lose.
    pub own_losses: u8,
    /// The acting unit's commander can be injured.
    pub own_commander: bool,
}

/// The space of a two-unit procedure with these ranges and `extras`
/// measures after the pair measures.
pub fn space(r: Ranges, extras: Vec<Measure>) -> OutcomeSpace {
    assert!(extras.len() <= MAX_EXTRAS);
    let mut m = vec![
        Measure::new(TARGET_STEP_LOSSES, 0, r.target_losses as i32).labelled("target step losses"),
        Measure::new(TARGET_COMMANDER_INJURED, 0, r.target_commander as i32)
            .labelled("target commander injured"),
        Measure::new(OWN_STATUS, 0, ELIMINATED as i32).labelled("own status"),
        Measure::new(OWN_STEP_LOSSES, 0, r.own_losses as i32).labelled("own step losses"),
        Measure::new(OWN_COMMANDER_INJURED, 0, r.own_commander as i32)
            .labelled("own commander injured"),
    ];
    m.extend(extras);
    OutcomeSpace::from_labels(&TARGET_OUTCOMES, m)
}

/// The leaf for the two units' states before and after, with the extra
/// measures' values.
#[inline]
pub fn leaf(
    space: &OutcomeSpace,
    target: (&UnitState, &UnitState),
    own: (&UnitState, &UnitState),
    extras: &[i32],
) -> Leaf {
    let mut v = [0i32; PAIR_MEASURES.len() + MAX_EXTRAS];
    v[0] = (target.0.steps - target.1.steps) as i32;
    v[1] = (target.0.commander && !target.1.commander) as i32;
    v[2] = own.1.status_index() as i32;
    v[3] = (own.0.steps - own.1.steps) as i32;
    v[4] = (own.0.commander && !own.1.commander) as i32;
    v[5..5 + extras.len()].copy_from_slice(extras);
    space.leaf(target.1.status_index(), &v[..5 + extras.len()])
}

fn after(before: &UnitState, status_index: usize, losses: i32, injured: i32) -> UnitState {
    UnitState {
        steps: before.steps - losses as u8,
        status: Status::ALL
            .get(status_index)
            .copied()
            .unwrap_or(before.status),
        commander: before.commander && injured == 0,
    }
}

/// The target's and the acting unit's states after a leaf of a pair space,
/// from their states before.
pub fn decode(
    space: &OutcomeSpace,
    leaf: Leaf,
    target: &UnitState,
    own: &UnitState,
) -> (UnitState, UnitState) {
    let v = |i: usize| space.value_of(leaf, i);
    (
        after(target, space.outcome_of(leaf), v(0), v(1)),
        after(own, v(2) as usize, v(3), v(4)),
    )
}
