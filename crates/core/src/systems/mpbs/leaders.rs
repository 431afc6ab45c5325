//! Leader Casualty (5.3) and Leader Replacement (5.3.3) of both cards: a
//! leader whose modifier was used in a close combat rolls one d10 on the
//! Leader Casualty Table; on a 9 the leader is removed and one d10 is rolled
//! on the Leader Replacement Table. Both tables are the same on both cards
//! (docs/rules/mpbs.md, Where the cards differ). Readings are in `docs/rules/mpbs.md`.

use super::close_combat::{Fail, Modifiers, finish_step};
use super::{Band, Edition, Unit};
use crate::dice::Dice;
use crate::error::InputError;
use crate::explain::Source;
use crate::outcome::{Leaf, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::Fields;
use crate::systems::Key;
use crate::systems::{Chart, ProcedureInfo};

/// Results of the Leader Casualty Table (5.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CasualtyResult {
    /// No effect.
    NoEffect,
    /// Leader removed from play (roll on the Leader Replacement Table).
    Removed,
}

/// Results of the Leader Replacement Table (5.3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReplacementResult {
    /// Return the original leader immediately.
    ReturnsImmediately,
    /// Use the replacement; the original returns at the end of the next turn.
    ReturnsEndOfNextTurn,
    /// The leader is eliminated or does not return: use the replacement.
    Replaced,
}

/// Leader Casualty Table (5.3), both cards.
pub const LEADER_CASUALTY: [(Band, CasualtyResult, &str); 2] = [
    (Band::new(i8::MIN, 8), CasualtyResult::NoEffect, "No Effect"),
    (
        Band::new(9, i8::MAX),
        CasualtyResult::Removed,
        "Leader removed from play",
    ),
];

/// Leader Replacement Table (5.3.3), both cards.
pub const LEADER_REPLACEMENT: [(Band, ReplacementResult, &str); 3] = [
    (
        Band::new(i8::MIN, 0),
        ReplacementResult::ReturnsImmediately,
        "Return original leader immediately",
    ),
    (
        Band::new(1, 1),
        ReplacementResult::ReturnsEndOfNextTurn,
        "Use replacement; original leader returns at end of next turn",
    ),
    (
        Band::new(2, i8::MAX),
        ReplacementResult::Replaced,
        "Leader eliminated or does not return (if off map); use replacement leader",
    ),
];

/// The outcome labels of a leader casualty check: no effect, then the
/// three replacement results.
pub const OUTCOMES: [&str; 4] = [
    "No effect",
    "Original returns immediately",
    "Original returns end of next turn",
    "Replaced",
];

/// The result of a modified roll on a table of bands that covers every roll.
fn band_result<T: Copy>(table: &[(Band, T, &str)], modified_roll: i32) -> T {
    let r = modified_roll.clamp(i8::MIN as i32, i8::MAX as i32);
    table
        .iter()
        .find(|(b, _, _)| b.contains(r))
        .map(|&(_, res, _)| res)
        .expect("the table covers every roll")
}

/// The Leader Casualty result of a modified roll.
pub fn casualty_result(modified_roll: i32) -> CasualtyResult {
    band_result(&LEADER_CASUALTY, modified_roll)
}

/// The Leader Replacement result of a modified roll.
pub fn replacement_result(modified_roll: i32) -> ReplacementResult {
    band_result(&LEADER_REPLACEMENT, modified_roll)
}

/// The final outcome of a casualty check: no effect, or removed with the
/// replacement result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeaderOutcome {
    /// No effect.
    NoEffect,
    /// Removed, then this replacement result.
    Removed(ReplacementResult),
}

impl LeaderOutcome {
    /// Every outcome, in label order.
    pub const ALL: [LeaderOutcome; 4] = [
        LeaderOutcome::NoEffect,
        LeaderOutcome::Removed(ReplacementResult::ReturnsImmediately),
        LeaderOutcome::Removed(ReplacementResult::ReturnsEndOfNextTurn),
        LeaderOutcome::Removed(ReplacementResult::Replaced),
    ];
    /// Index in [`OUTCOMES`].
    pub fn index(self) -> usize {
        match self {
            LeaderOutcome::NoEffect => 0,
            LeaderOutcome::Removed(ReplacementResult::ReturnsImmediately) => 1,
            LeaderOutcome::Removed(ReplacementResult::ReturnsEndOfNextTurn) => 2,
            LeaderOutcome::Removed(ReplacementResult::Replaced) => 3,
        }
    }
    /// The outcome label.
    pub fn label(self) -> &'static str {
        OUTCOMES[self.index()]
    }
}

/// `extra_drm`, declared once: its doc and its reader.
pub(crate) const EXTRA_DRM: Key<i64> = Key::int(
    "extra_drm",
    -9,
    9,
    "a DRM on the Leader Casualty roll (5.3)",
)
.or("0");

/// `replacement_drm`, declared once: its doc and its reader.
pub(crate) const REPLACEMENT_DRM: Key<i64> = Key::int(
    "replacement_drm",
    -9,
    9,
    "a DRM on the Leader Replacement roll (5.3.3)",
)
.or("0");

/// What `pikeshot list` says of the leader casualty check.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "leader-casualty",
    rule: "5.3, 5.3.3",
    summary: "Leader Casualty Table (one d10, 9 removes the leader), then on removal the Leader Replacement Table (one d10)",
    keys: &[EXTRA_DRM.doc(), REPLACEMENT_DRM.doc()],
    outcomes: &OUTCOMES,
    measures: &[],
};

/// A leader casualty check built once.
#[derive(Clone, Debug)]
pub struct LeaderCasualty {
    space: OutcomeSpace,
    casualty: Modifiers,
    replacement: Modifiers,
    /// Per face of the casualty die: removed?
    removed: [bool; 10],
    /// Per face of the replacement die: the leaf.
    replaced: [Leaf; 10],
    no_effect: Leaf,
}

impl LeaderCasualty {
    /// Builds the check with DRMs on the casualty roll and on the
    /// replacement roll (the cards print none).
    pub fn new(
        edition: Edition,
        extra_drm: i32,
        replacement_drm: i32,
    ) -> Result<LeaderCasualty, InputError> {
        LeaderCasualty::build(edition, extra_drm, replacement_drm).map_err(|(k, e)| e.key(k))
    }

    fn build(
        edition: Edition,
        extra_drm: i32,
        replacement_drm: i32,
    ) -> Result<LeaderCasualty, Fail> {
        let _ = edition; // the same on both cards
        let mods = |key: &'static str, d: i32| -> Result<Modifiers, Fail> {
            if !(-9..=9).contains(&d) {
                return Err((
                    key,
                    InputError::new(format!("DRM {d}")).accepted("a whole number from -9 to 9"),
                ));
            }
            let mut m = Modifiers::default();
            if d != 0 {
                m.push(
                    "extra DRM",
                    "",
                    d,
                    Source::key(format!("{key} = {d} (the cards print no DRM)")),
                );
            }
            m.finish(None);
            Ok(m)
        };
        let casualty = mods("extra_drm", extra_drm)?;
        let replacement = mods("replacement_drm", replacement_drm)?;
        let space = OutcomeSpace::from_labels(&OUTCOMES, vec![]);
        let mut removed = [false; 10];
        let mut replaced = [0; 10];
        for face in 0..10 {
            removed[face] =
                casualty_result(face as i32 + casualty.total) == CasualtyResult::Removed;
            let o = LeaderOutcome::Removed(replacement_result(face as i32 + replacement.total));
            replaced[face] = space.leaf(o.index(), &[]);
        }
        let no_effect = space.leaf(LeaderOutcome::NoEffect.index(), &[]);
        Ok(LeaderCasualty {
            space,
            casualty,
            replacement,
            removed,
            replaced,
            no_effect,
        })
    }

    /// Builds the check from a scenario step (keys in [`INFO`]).
    pub fn from_step(
        f: &mut Fields,
        units: &[Unit],
        edition: Edition,
    ) -> Result<LeaderCasualty, InputError> {
        let _ = units; // the check names no unit
        f.has("procedure");
        let extra = EXTRA_DRM.read(f)?.unwrap_or(0) as i32;
        let repl = REPLACEMENT_DRM.read(f)?.unwrap_or(0) as i32;
        finish_step(f, &INFO)?;
        LeaderCasualty::build(edition, extra, repl).map_err(|(k, e)| f.locate(k, e))
    }

    /// The DRMs of the casualty roll.
    pub fn casualty_modifiers(&self) -> &Modifiers {
        &self.casualty
    }
    /// The DRMs of the replacement roll.
    pub fn replacement_modifiers(&self) -> &Modifiers {
        &self.replacement
    }
    /// The outcome of a leaf of this procedure.
    pub fn outcome_of(&self, leaf: Leaf) -> LeaderOutcome {
        LeaderOutcome::ALL[self.space.outcome_of(leaf)]
    }
}

impl Procedure for LeaderCasualty {
    fn space(&self) -> &OutcomeSpace {
        &self.space
    }
    #[inline]
    fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
        if self.removed[dice.d10() as usize] {
            self.replaced[dice.d10() as usize]
        } else {
            self.no_effect
        }
    }
}

/// The Leader Casualty and Leader Replacement tables, laid out like the card.
pub fn charts(edition: Edition) -> Vec<Chart> {
    let _ = edition; // the same on both cards
    let headers = vec!["Die Roll".to_string(), "Result".to_string()];
    vec![
        Chart {
            id: "leader-casualty",
            title: "Leader Casualty Table".into(),
            rule: "5.3",
            headers: headers.clone(),
            rows: LEADER_CASUALTY
                .iter()
                .map(|(b, _, t)| vec![b.to_string(), t.to_string()])
                .collect(),
            notes: vec![
                "Checked after a close combat whose leader modifier was used (11.0)".into(),
            ],
        },
        Chart {
            id: "leader-replacement",
            title: "Leader Replacement Table".into(),
            rule: "5.3.3",
            headers,
            rows: LEADER_REPLACEMENT
                .iter()
                .map(|(b, _, t)| vec![b.to_string(), t.to_string()])
                .collect(),
            notes: vec!["Rolled when the Leader Casualty Table removes a leader".into()],
        },
    ]
}
