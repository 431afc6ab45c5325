//! Close Combat (11.0) of both cards: the Close Combat Table, its die roll
//! modifiers, the Close Combat Matrix (11.3.8) and the strength-ratio steps
//! (11.3.4).
//!
//! A [`CloseCombat`] is built once, from its scenario step
//! ([`CloseCombat::from_step`]) or from unit values ([`CloseCombat::new`]):
//! every DRM goes into a labelled breakdown ([`Modifiers`]), the total is
//! limited to −4..=+4, and the leaf of each die face is worked out, so
//! [`Procedure::resolve`](crate::procedure::Procedure::resolve) rolls one d10 and indexes. Every reading of what the
//! cards leave open is in `docs/rules/mpbs.md`, with the step key
//! that overrides it.

use super::unit::find_unit;
use super::{Band, Edition, Formation, MoraleState, Order, Unit, UnitKind, named_enum, terrain};
use crate::error::InputError;
use crate::explain::{Source, Term};
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::scenario::Fields;
use crate::systems::Key;
use crate::systems::mpbs::drm_roll::by_face;
use crate::systems::{Chart, KeyDoc, Kind, ProcedureInfo};
use std::borrow::Cow;

mod charts;
mod drms;
mod input;
mod modifiers;
mod momentum;
mod rules;
mod step;
mod table;
mod table_roll;

pub use charts::charts;
pub(crate) use drms::Fail;
pub use drms::*;
pub use input::*;
pub use modifiers::*;
pub use momentum::momentum_eligible;
pub use rules::*;
pub(crate) use step::finish_step;
pub use table::*;
pub(crate) use table_roll::{TableRoll, table_roll_procedure};

/// The outcome space of a close combat with `attackers` attacking units.
pub fn space(attackers: usize) -> OutcomeSpace {
    OutcomeSpace::from_labels(
        &OUTCOMES,
        vec![
            Measure::new(ATTACKER_FORMATION_HITS, 0, attackers.max(1) as i32),
            Measure::new(DEFENDER_FORMATION_HITS, 0, 1),
        ],
    )
}

/// A close combat built for one set of unit states: one d10 plus the
/// limited DRM on the Close Combat Table (11.0).
#[derive(Clone, Debug)]
pub struct CloseCombat {
    edition: Edition,
    space: OutcomeSpace,
    modifiers: Modifiers,
    by_face: [Leaf; 10],
    leader_units: [Option<String>; 2],
    cavalry_momentum: bool,
}

/// `morale_differential`, declared once: its doc and its reader.
pub(crate) const MORALE_DIFFERENTIAL: Key<i64> = Key::int(
    "morale_differential",
    -9,
    9,
    "replaces the computed morale differential (11.3.3: lead attacker's morale - defender's, -1 per morale step lost)",
);

/// `strength_ratio`, declared once: its doc and its reader.
pub(crate) const STRENGTH_RATIO: Key<i64> = Key::int(
    "strength_ratio",
    -2,
    2,
    "replaces the computed strength-ratio DRM (11.3.4)",
);

/// `strength_rounding`, declared once: its doc and its reader.
pub(crate) const STRENGTH_ROUNDING: Key<StrengthRounding> = Key::one_of("strength_rounding", "strength rounding", "defender: a ratio between steps reads the step below, 1:3 is -2; steps: the printed steps as thresholds, 1:3 is -1").or("defender");

/// `defender_pistol`, declared once: its doc and its reader.
pub(crate) const DEFENDER_PISTOL: Key<bool> = Key::flag(
    "defender_pistol",
    "true: the defending cavalry expends a pistol shot, -1",
);

/// `attacker_pistols`, declared once: its doc and its reader.
pub(crate) const ATTACKER_PISTOLS: Key<i64> = Key::int("attacker_pistols", 0, 9, "attacking cavalry units expending a pistol shot, +1 each (at most one per attacking cavalry unit)").or("0");

/// `flank_hexes`, declared once: its doc and its reader.
pub(crate) const FLANK_HEXES: Key<i64> = Key::int(
    "flank_hexes",
    0,
    MAX_FLANK_HEXES as i64,
    "flank/rear hexes the defender is attacked from, +1 each (11.3.7)",
)
.or("0");

/// `fired_salvo`, declared once: its doc and its reader.
pub(crate) const FIRED_SALVO: Key<bool> = Key::flag(
    "fired_salvo",
    "true: the attacker fired a Salvo just prior, +1 (needs attacking heavy infantry)",
);

/// `halmstad`, declared once: its doc and its reader.
pub(crate) const HALMSTAD: Key<bool> = Key::flag(
    "halmstad",
    "true: NGBG Halmstad, cavalry momentum +1 instead of +2 (series card only)",
);

/// `extra_drm`, declared once: its doc and its reader.
pub(crate) const EXTRA_DRM: Key<i64> = Key::int(
    "extra_drm",
    -9,
    9,
    "any further DRM, added before the ±4 limit",
)
.or("0");

/// What `pikeshot list` says of close combat.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "close-combat",
    rule: "11.0",
    summary: "Close Combat Table: one d10 + DRMs limited to -4..+4; both sides then take a Formation Hit",
    keys: &[
        KeyDoc::new(
            "attacker",
            Kind::Units,
            "required: the attacking unit, or a list of units; the first is the lead attacker (morale differential, CC matrix row), strengths are summed",
        ),
        KeyDoc::unit("defender", "required: the defending unit"),
        KeyDoc::new(
            "attacker_leader",
            Kind::BoolOrInt { min: -3, max: 0 },
            "SFO: the rating of the one WC/AC used, added as +|rating|; series: true or a rating, +1; false: none (default: the best leader stacked with an attacker)",
        ),
        KeyDoc::new(
            "defender_leader",
            Kind::BoolOrInt { min: -3, max: 0 },
            "SFO: the rating, added as is; series: true or a rating, -1; false: none (default: the leader stacked with the defender)",
        ),
        MORALE_DIFFERENTIAL.doc(),
        STRENGTH_RATIO.doc(),
        STRENGTH_ROUNDING.doc(),
        DEFENDER_PISTOL.doc(),
        ATTACKER_PISTOLS.doc(),
        FLANK_HEXES.doc(),
        FIRED_SALVO.doc(),
        KeyDoc::new(
            "momentum",
            Kind::BoolOrOneOf(Cow::Borrowed(&["cavalry", "heavy-infantry"])),
            "true: every momentum an attacker is eligible for; cavalry: +2; heavy-infantry: +1; needs an attacker under Charge in Formation Normal (11.3.6)",
        ),
        HALMSTAD.doc(),
        EXTRA_DRM.doc(),
    ],
    outcomes: &OUTCOMES,
    measures: &[ATTACKER_FORMATION_HITS, DEFENDER_FORMATION_HITS],
};

impl CloseCombat {
    /// Builds a close combat from unit values and modifiers.
    pub fn new(edition: Edition, input: &CloseCombatInput) -> Result<CloseCombat, InputError> {
        CloseCombat::build(edition, input).map_err(|(k, e)| e.key(k))
    }

    fn build(edition: Edition, input: &CloseCombatInput) -> Result<CloseCombat, Fail> {
        let modifiers = assemble(edition, input)?;
        let space = space(input.attackers.len());
        let by_face = by_face(modifiers.clamped, |n| {
            let r = result(n);
            let a = input
                .attackers
                .iter()
                .filter(|u| r.formation_hit_changes(Side::Attacker, u))
                .count() as i32;
            let d = r.formation_hit_changes(Side::Defender, &input.defender) as i32;
            space.leaf(r as usize, &[a, d])
        });
        let attacker_leader = input
            .attacker_leader_unit
            .filter(|_| modifiers.get(ATTACKER_LEADER).is_some())
            .and_then(|i| input.attackers.get(i))
            .map(|u| u.name.clone());
        let defender_leader = (modifiers.get(DEFENDER_LEADER).is_some()
            && input.defender_leader_stacked)
            .then(|| input.defender.name.clone());
        Ok(CloseCombat {
            edition,
            cavalry_momentum: momentum::cavalry_momentum(input),
            space,
            modifiers,
            by_face,
            leader_units: [attacker_leader, defender_leader],
        })
    }

    /// The edition it was built for.
    pub fn edition(&self) -> Edition {
        self.edition
    }
    /// The DRMs, their total and the limited total.
    pub fn modifiers(&self) -> &Modifiers {
        &self.modifiers
    }
    /// The unit whose stacked leader gave `side` its leader modifier: the
    /// leader at risk on the Leader Casualty Table (5.3). `None` when no
    /// leader modifier was used, or the leader used is not stacked with a
    /// unit of the scenario.
    pub fn leader_unit(&self, side: Side) -> Option<&str> {
        self.leader_units[side as usize].as_deref()
    }
    /// The leader modifier `side` used (as added to the roll), if any.
    pub fn leader_modifier(&self, side: Side) -> Option<i32> {
        self.modifiers.get(match side {
            Side::Attacker => ATTACKER_LEADER,
            Side::Defender => DEFENDER_LEADER,
        })
    }
    /// Whether cavalry momentum was added (11.3.6): a pursuit after the
    /// combat adds its momentum DRM then (11.7.2).
    pub fn cavalry_momentum(&self) -> bool {
        self.cavalry_momentum
    }
    /// The DRM added to the die (the limited total).
    pub fn drm(&self) -> i32 {
        self.modifiers.clamped
    }
    /// The Close Combat Table result of a leaf of this procedure.
    pub fn result_of(&self, leaf: Leaf) -> CcResult {
        CcResult::ALL[self.space.outcome_of(leaf)]
    }
}

d10_procedure!(CloseCombat, by_face);
