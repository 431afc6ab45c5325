//! Morale Check (10.6). The cards name the triggers (10.6.2 morale levels
//! after hits, 10.6.3 target of Salvo fire, 10.6.4 Casualty Threshold,
//! 10.6.5 an MC result on a fire table, 10.6.6 a formation hit on a unit
//! already Formation Broken) but print no table: the check itself is the
//! docs/rules/mpbs.md, Morale check reading, d10 ≤ the unit's morale rating passes and a
//! failure costs one morale level (docs/rules/mpbs.md, "Morale").

use super::unit::find_unit;
use super::{Edition, Unit};
use crate::error::InputError;
use crate::explain::Term;
use crate::outcome::{Leaf, OutcomeSpace};
use crate::scenario::Fields;
use crate::systems::chart::headers;
use crate::systems::mpbs::drm_roll::by_face;
use crate::systems::{Key, KeyDoc, ProcedureInfo};

/// Outcome labels of a morale check.
pub const OUTCOMES: [&str; 2] = ["pass", "fail"];

/// The result of a morale check, in [`OUTCOMES`] order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoraleResult {
    /// d10 + DRM ≤ the rating.
    Pass,
    /// Above it: the unit loses one morale level.
    Fail,
}

/// One morale check: passes when d10 + DRM ≤ the unit's morale rating.
#[derive(Clone, Debug)]
pub struct MoraleCheck {
    space: OutcomeSpace,
    by_face: [Leaf; 10],
    rating: u8,
    modifiers: Vec<Term>,
}

/// `extra_drm`: added to the roll.
const EXTRA_DRM: Key<i64> = Key::int(
    "extra_drm",
    -9,
    9,
    "added to the roll (+ makes failure likelier)",
)
.or("0");

/// What `pikeshot list` says of a morale check.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "morale-check",
    rule: "10.6",
    summary: "Morale Check (reading, the cards print no table): d10 + DRM ≤ the unit's morale rating passes; a failure costs one morale level",
    keys: &[
        KeyDoc::unit(
            "unit",
            "required: the unit checking (its printed morale rating)",
        ),
        EXTRA_DRM.doc(),
    ],
    outcomes: &OUTCOMES,
    measures: &[],
};

impl MoraleCheck {
    /// A check against `rating` with `drm` (the step's `extra_drm`) added
    /// to the roll.
    pub fn new(rating: u8, drm: i32) -> MoraleCheck {
        let terms = crate::explain::key_term("extra DRM", "extra_drm", drm);
        MoraleCheck::with_terms(rating, terms.into_iter().collect())
    }

    /// A check against `rating` with these modifiers on the roll.
    pub fn with_terms(rating: u8, modifiers: Vec<Term>) -> MoraleCheck {
        let drm = crate::explain::sum(&modifiers);
        let by_face = by_face(drm, |n| Leaf::from(n > rating as i32));
        MoraleCheck {
            space: OutcomeSpace::from_labels(&OUTCOMES, vec![]),
            by_face,
            rating,
            modifiers,
        }
    }

    /// The morale rating checked against.
    pub fn rating(&self) -> u8 {
        self.rating
    }

    /// The modifiers on the roll.
    pub fn modifiers(&self) -> &[Term] {
        &self.modifiers
    }

    /// Reads a `morale-check` step.
    pub fn from_step(
        f: &mut Fields,
        units: &[Unit],
        _edition: Edition,
    ) -> Result<MoraleCheck, InputError> {
        f.has("procedure");
        let unit = find_unit(f, "unit", units)?;
        let drm = EXTRA_DRM.get(f)? as i32;
        f.finish()?;
        Ok(MoraleCheck::new(unit.morale, drm))
    }

    /// The result a leaf of this procedure stands for (the check has no
    /// measures: a leaf is its outcome).
    pub fn result_of(&self, leaf: Leaf) -> MoraleResult {
        if leaf == 0 {
            MoraleResult::Pass
        } else {
            MoraleResult::Fail
        }
    }

    /// Probability of passing.
    pub fn pass_probability(&self) -> f64 {
        self.by_face.iter().filter(|&&l| l == 0).count() as f64 / 10.0
    }
}

d10_procedure!(MoraleCheck, by_face);

/// The morale check as a chart for `pikeshot tables`.
pub fn charts(_edition: Edition) -> Vec<crate::systems::Chart> {
    let rows = (2..=9)
        .map(|m| {
            vec![
                m.to_string(),
                format!("0-{}", m.min(9)),
                if m >= 9 {
                    "-".into()
                } else {
                    format!("{}-9", m + 1)
                },
                format!("{}%", (m + 1).min(10) * 10),
            ]
        })
        .collect();
    vec![crate::systems::Chart {
        id: "morale-check",
        title: "Morale Check (reading: the cards print no table)".into(),
        rule: "10.6",
        headers: headers(&["Morale", "Pass", "Fail", "P(pass)"]),
        rows,
        notes: vec![
            "Triggers: 10.6.2 hits, 10.6.3 target of Salvo fire, 10.6.4 Casualty Threshold reached, 10.6.5 MC on a fire table, 10.6.6 FH on a Formation Broken unit".into(),
            "A failure costs one morale level: Good -> Shaken -> Broken -> eliminated (docs/rules/mpbs.md, Morale levels and Morale check)".into(),
        ],
    }]
}
