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

/// The readings `sfo_interception_morale_6` may name: 6 or less (default),
/// or exactly 6.
pub const INTERCEPTION_MORALE_6: [&str; 2] = ["6-or-less", "exactly-6"];

impl Default for Readings {
    fn default() -> Readings {
        Readings {
            morale_check_on_hits: true,
            morale_check_on_salvo: true,
            morale_check_on_threshold: true,
            morale_check_on_table: true,
            morale_check_on_broken_formation_hit: true,
            morale_checks_combined: true,
            morale_check_drm: 0,
            pursuit: true,
            pursuit_keys: PursuitKeys::default(),
            defending_leader: DefendingLeader::Plus,
            sfo_interception_six_exactly: false,
            leader_casualty: true,
            eliminate_at_strength: true,
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
        let six = f
            .named(
                "sfo_interception_morale_6",
                "reading of the SFO Interception \"Original Morale of 6\"",
                |s| match s {
                    "6-or-less" => Some(false),
                    "exactly-6" => Some(true),
                    _ => None,
                },
                &INTERCEPTION_MORALE_6,
            )?
            .unwrap_or(false);
        let mut flag = |k: &'static str, dflt: bool| f.bool(k).map(|v| v.unwrap_or(dflt));
        let r = Readings {
            morale_check_on_hits: flag("morale_check_on_hits", d.morale_check_on_hits)?,
            morale_check_on_salvo: flag("morale_check_on_salvo", d.morale_check_on_salvo)?,
            morale_check_on_threshold: flag(
                "morale_check_on_threshold",
                d.morale_check_on_threshold,
            )?,
            morale_check_on_table: flag("morale_check_on_table", d.morale_check_on_table)?,
            morale_check_on_broken_formation_hit: flag(
                "morale_check_on_broken_formation_hit",
                d.morale_check_on_broken_formation_hit,
            )?,
            morale_checks_combined: flag("morale_checks_combined", d.morale_checks_combined)?,
            pursuit: pursuit_table || flag("pursuit", d.pursuit)?,
            leader_casualty: flag("leader_casualty", d.leader_casualty)?,
            eliminate_at_strength: flag("eliminate_at_strength", d.eliminate_at_strength)?,
            morale_check_drm: 0,
            pursuit_keys,
            defending_leader,
            sfo_interception_six_exactly: six,
        };
        let drm = f.int("morale_check_drm", -9, 9)?.unwrap_or(0) as i32;
        f.finish()?;
        Ok(Readings {
            morale_check_drm: drm,
            ..r
        })
    }
}
