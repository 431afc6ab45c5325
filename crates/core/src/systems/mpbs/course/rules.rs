//! The `[rules]` switches of the readings a course applies between rolls.

use super::*;
use crate::systems::named;

/// The switches of the readings a course applies between rolls: the
/// scenario's `[rules]` table (docs/rules/mpbs.md, "Courses and
/// engagements"). Every default is the reading section 0 of that page
/// defends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Readings {
    /// 10.6.2: a morale check when fire inflicts at least one hit.
    pub morale_check_on_hits: bool,
    /// 10.6.3: a morale check for the target of Salvo fire.
    pub morale_check_on_salvo: bool,
    /// 10.6.4: a morale check when casualty points first reach the
    /// Casualty Threshold (12.5).
    pub morale_check_on_threshold: bool,
    /// 10.6.5: a morale check for an MC result on a fire table.
    pub morale_check_on_table: bool,
    /// 10.6.6: a morale check for a formation hit on a unit already
    /// Formation Broken.
    pub morale_check_on_broken_formation_hit: bool,
    /// 10.6.2–10.6.4 triggered by one fire give one check together (true)
    /// or one check each (false).
    pub morale_checks_combined: bool,
    /// DRM added to every morale check roll.
    pub morale_check_drm: i32,
    /// Roll Cavalry Pursuit (11.7.2) after a result that calls for it when
    /// the winner is cavalry.
    pub pursuit: bool,
    /// The keys of that pursuit (`[rules.pursuit]`, the `pursuit` step's
    /// keys besides `pursuer`).
    pub pursuit_keys: PursuitKeys,
    /// How the leadership modifier of a defending leader reads on the
    /// pursuit roll (`[rules.pursuit] defending_leader`).
    pub defending_leader: DefendingLeader,
    /// Interception (9.3) on the SFO card: "Original Morale of 6" read as
    /// exactly 6 (`sfo_interception_morale_6 = "exactly-6"`) instead of
    /// "6 or less" (default).
    pub sfo_interception_six_exactly: bool,
    /// Roll Leader Casualty (5.3) for each side whose leader DRM was used.
    pub leader_casualty: bool,
    /// A unit whose casualty points reach its strength is eliminated.
    pub eliminate_at_strength: bool,
}

crate::systems::named::named_enum! {
    /// The readings `sfo_interception_morale_6` may name: 6 or less
    /// (default), or exactly 6.
    Morale6 {
        /// "Original Morale of 6" read as 6 or less.
        SixOrLess = "6-or-less",
        /// "Original Morale of 6" read as exactly 6.
        Exactly6 = "exactly-6",
    }
}

/// The `[rules]` keys, each declared once: what `pikeshot list` says of it
/// and its reader.
pub mod keys {
    use super::Morale6;
    use crate::systems::{Key, KeyDoc};

    /// 10.6.2.
    pub const MORALE_CHECK_ON_HITS: Key<bool> = Key::flag(
        "morale_check_on_hits",
        "10.6.2: a morale check when fire inflicts at least one hit",
    )
    .or("true");
    /// 10.6.3.
    pub const MORALE_CHECK_ON_SALVO: Key<bool> = Key::flag(
        "morale_check_on_salvo",
        "10.6.3: a morale check for the target of Salvo fire",
    )
    .or("true");
    /// 10.6.4.
    pub const MORALE_CHECK_ON_THRESHOLD: Key<bool> = Key::flag(
        "morale_check_on_threshold",
        "10.6.4: a morale check when casualty points first reach the Casualty Threshold (12.5)",
    )
    .or("true");
    /// 10.6.5.
    pub const MORALE_CHECK_ON_TABLE: Key<bool> = Key::flag(
        "morale_check_on_table",
        "10.6.5: a morale check for an MC result on a fire table",
    )
    .or("true");
    /// 10.6.6.
    pub const MORALE_CHECK_ON_BROKEN_FORMATION_HIT: Key<bool> = Key::flag(
        "morale_check_on_broken_formation_hit",
        "10.6.6: a morale check for a formation hit on a unit already Formation Broken",
    )
    .or("true");
    /// 10.6.2-10.6.4 together.
    pub const MORALE_CHECKS_COMBINED: Key<bool> = Key::flag(
        "morale_checks_combined",
        "10.6.2-10.6.4 triggered by one fire give one check together (true) or one each (false)",
    )
    .or("true");
    /// A DRM on every morale check.
    pub const MORALE_CHECK_DRM: Key<i64> = Key::int(
        "morale_check_drm",
        -9,
        9,
        "DRM added to every morale check roll",
    )
    .or("0");
    /// 11.7.2: `true`, `false` or a table (read by `Readings::from_fields`).
    pub const PURSUIT: KeyDoc = KeyDoc::text(
        "pursuit",
        "11.7.2: roll Cavalry Pursuit after a result that calls for it when the winner is cavalry; true, false, or a table of the pursuit step's keys (column, charge_order, momentum_used, cromwell, leader, extra_drm) plus defending_leader (plus, as-applied)",
    )
    .or("true");
    /// 5.3.
    pub const LEADER_CASUALTY: Key<bool> = Key::flag(
        "leader_casualty",
        "5.3: roll Leader Casualty for the leader whose modifier each side used",
    )
    .or("true");
    /// 9.3 on the SFO card.
    pub const SFO_INTERCEPTION_MORALE_6: Key<Morale6> = Key::one_of(
        "sfo_interception_morale_6",
        "reading of the SFO Interception \"Original Morale of 6\"",
        "9.3 on the SFO card: \"Original Morale of 6\" read as 6 or less, or exactly 6",
    )
    .or("6-or-less");
    /// Elimination at strength.
    pub const ELIMINATE_AT_STRENGTH: Key<bool> = Key::flag(
        "eliminate_at_strength",
        "a unit whose casualty points reach its strength is eliminated",
    )
    .or("true");

    /// Every `[rules]` key, in the order `pikeshot list` prints them.
    pub fn all() -> Vec<KeyDoc> {
        vec![
            MORALE_CHECK_ON_HITS.doc(),
            MORALE_CHECK_ON_SALVO.doc(),
            MORALE_CHECK_ON_THRESHOLD.doc(),
            MORALE_CHECK_ON_TABLE.doc(),
            MORALE_CHECK_ON_BROKEN_FORMATION_HIT.doc(),
            MORALE_CHECKS_COMBINED.doc(),
            MORALE_CHECK_DRM.doc(),
            PURSUIT,
            LEADER_CASUALTY.doc(),
            SFO_INTERCEPTION_MORALE_6.doc(),
            ELIMINATE_AT_STRENGTH.doc(),
        ]
    }
}

/// Each reading as its key declares it.
impl Default for Readings {
    fn default() -> Readings {
        Readings {
            morale_check_on_hits: keys::MORALE_CHECK_ON_HITS.default(),
            morale_check_on_salvo: keys::MORALE_CHECK_ON_SALVO.default(),
            morale_check_on_threshold: keys::MORALE_CHECK_ON_THRESHOLD.default(),
            morale_check_on_table: keys::MORALE_CHECK_ON_TABLE.default(),
            morale_check_on_broken_formation_hit: keys::MORALE_CHECK_ON_BROKEN_FORMATION_HIT
                .default(),
            morale_checks_combined: keys::MORALE_CHECKS_COMBINED.default(),
            morale_check_drm: keys::MORALE_CHECK_DRM.default() as i32,
            pursuit: keys::PURSUIT.default == Some("true"),
            pursuit_keys: PursuitKeys::default(),
            defending_leader: DefendingLeader::Plus,
            sfo_interception_six_exactly: keys::SFO_INTERCEPTION_MORALE_6.default()
                == Morale6::Exactly6,
            leader_casualty: keys::LEADER_CASUALTY.default(),
            eliminate_at_strength: keys::ELIMINATE_AT_STRENGTH.default(),
        }
    }
}

impl Readings {
    /// Reads `[rules]`; absent keys keep their defaults. `pursuit` is
    /// `true`, `false`, or a table of the `pursuit` step's keys (besides
    /// `pursuer`) plus `defending_leader`.
    pub fn from_fields(f: &mut Fields, edition: Edition) -> Result<Readings, InputError> {
        let d = Readings::default();
        let (mut pursuit_keys, mut defending_leader) = (d.pursuit_keys, d.defending_leader);
        let pursuit_table = match f.quietly(|f| f.bool("pursuit")) {
            Ok(_) => false,
            Err(_) => {
                let mut pf = f.table("pursuit").map_err(|e| {
                    e.accepted("true, false, or a table of the pursuit step's keys: { column, charge_order, momentum_used, cromwell, leader, extra_drm, defending_leader }")
                })?.expect("the key is present");
                pursuit_keys = PursuitKeys::read(&mut pf, edition)?;
                if let Some(v) =
                    named::read(&mut pf, "defending_leader", "defending leader reading")?
                {
                    defending_leader = v;
                }
                pf.finish()?;
                true
            }
        };
        let six = keys::SFO_INTERCEPTION_MORALE_6.get(f)? == Morale6::Exactly6;
        let r = Readings {
            morale_check_on_hits: keys::MORALE_CHECK_ON_HITS.get(f)?,
            morale_check_on_salvo: keys::MORALE_CHECK_ON_SALVO.get(f)?,
            morale_check_on_threshold: keys::MORALE_CHECK_ON_THRESHOLD.get(f)?,
            morale_check_on_table: keys::MORALE_CHECK_ON_TABLE.get(f)?,
            morale_check_on_broken_formation_hit: keys::MORALE_CHECK_ON_BROKEN_FORMATION_HIT
                .get(f)?,
            morale_checks_combined: keys::MORALE_CHECKS_COMBINED.get(f)?,
            pursuit: pursuit_table || f.bool("pursuit")?.unwrap_or(d.pursuit),
            leader_casualty: keys::LEADER_CASUALTY.get(f)?,
            eliminate_at_strength: keys::ELIMINATE_AT_STRENGTH.get(f)?,
            morale_check_drm: 0,
            pursuit_keys,
            defending_leader,
            sfo_interception_six_exactly: six,
        };
        let drm = keys::MORALE_CHECK_DRM.get(f)? as i32;
        f.finish()?;
        Ok(Readings {
            morale_check_drm: drm,
            ..r
        })
    }
}
