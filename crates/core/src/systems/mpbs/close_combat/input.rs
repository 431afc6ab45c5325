//! What a close combat is built from: the units' values and the step's
//! modifiers (`CloseCombatInput`), and the leader whose modifier it uses.

use super::*;

/// Everything a close combat is built from: unit values plus the step's
/// modifiers. Courses that update unit states between steps build one per
/// state.
#[derive(Clone, Debug, PartialEq)]
pub struct CloseCombatInput {
    /// The attacking units; the first is the lead attacker, whose morale
    /// and CC Matrix row are read.
    pub attackers: Vec<Unit>,
    /// The defending unit.
    pub defender: Unit,
    /// The attacking leader used: its rating (−3..=0). On the series card
    /// only its presence counts (+1).
    pub attacker_leader: Option<i8>,
    /// The defending leader used: its rating (−3..=0). On the series card
    /// only its presence counts (−1).
    pub defender_leader: Option<i8>,
    /// Which attacking unit's stacked leader is the one used (index into
    /// `attackers`); `None` when no leader is used or the one used is not
    /// stacked with an attacker. Its leader is the one at risk (5.3).
    pub attacker_leader_unit: Option<usize>,
    /// The defending leader used is the one stacked with the defender.
    pub defender_leader_stacked: bool,
    /// Replaces the computed morale differential.
    pub morale_differential: Option<i32>,
    /// Replaces the computed strength-ratio DRM.
    pub strength_ratio: Option<i32>,
    /// How a ratio between steps is read.
    pub strength_rounding: StrengthRounding,
    /// The defending cavalry expends a pistol shot.
    pub defender_pistol: bool,
    /// Attacking cavalry units expending a pistol shot.
    pub attacker_pistols: u8,
    /// Flank/rear hexes the defender is attacked from.
    pub flank_hexes: u8,
    /// The attacker fired a Salvo just prior.
    pub fired_salvo: bool,
    /// Momentum claimed.
    pub momentum: Momentum,
    /// NGBG Halmstad (series card): cavalry momentum +1 instead of +2.
    pub halmstad: bool,
    /// Any further DRM, −9..=9, added before the ±4 limit.
    pub extra_drm: i32,
    /// Claim momentum only where an attacker is eligible, instead of
    /// refusing the claim: a course's later steps meet states (a formation
    /// hit from reaction fire, say) the scenario author could not see.
    pub momentum_if_eligible: bool,
}

impl CloseCombatInput {
    /// The defaults: leaders from the units (the best rating stacked with
    /// each side), no other modifier claimed, rounding in the defender's
    /// favour.
    pub fn new(attackers: Vec<Unit>, defender: Unit) -> CloseCombatInput {
        let (attacker_leader, attacker_leader_unit) = best_leader(&attackers);
        let defender_leader = defender.leader;
        CloseCombatInput {
            attackers,
            defender_leader_stacked: defender_leader.is_some(),
            defender,
            attacker_leader,
            defender_leader,
            attacker_leader_unit,
            morale_differential: None,
            strength_ratio: None,
            strength_rounding: StrengthRounding::Defender,
            defender_pistol: false,
            attacker_pistols: 0,
            flank_hexes: 0,
            fired_salvo: false,
            momentum: Momentum::None,
            halmstad: false,
            extra_drm: 0,
            momentum_if_eligible: false,
        }
    }
}

/// The best (most negative) leader stacked with any of `units`, and the
/// first unit that has it.
pub fn best_leader(units: &[Unit]) -> (Option<i8>, Option<usize>) {
    units
        .iter()
        .enumerate()
        .filter_map(|(i, u)| u.leader.map(|r| (r, i)))
        .min()
        .map_or((None, None), |(r, i)| (Some(r), Some(i)))
}
