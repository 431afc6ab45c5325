//! What follows a close combat in a course: morale and formation, leader
//! casualty, Unable to Retreat and cavalry pursuit.

use super::*;

impl Course<'_> {
    /// Morale and formation after a close combat, then the rolls it
    /// triggers: leader casualties, Unable to Retreat, cavalry pursuit.
    pub(super) fn after_close_combat(
        &self,
        s: &mut CourseState,
        spec: &StepSpec,
        cc: &CloseCombat,
        r: CcResult,
    ) {
        // An attacker result, and the Formation Hit, apply to every attacking
        // unit (11.0, docs/rules/mpbs.md section 2).
        let sides = spec
            .acting()
            .map(|i| (Side::Attacker, i))
            .chain(spec.target.map(|i| (Side::Defender, i)));
        for (side, i) in sides {
            let u = &mut s.units[i];
            u.morale = r.effect(side, u.morale).0;
            // A unit Morale Broken by the result has no formation (6.3) and
            // takes no Formation Hit.
            if !u.gone() && !u.no_formation() {
                u.formation = u.formation.after_hit();
            }
        }
        // The leader at risk is the one whose modifier the combat used (5.3).
        let index = |name: &str| self.input.units.iter().position(|u| u.name == name);
        let leader_of = |side| cc.leader_unit(side).and_then(index);
        if self.input.rules.leader_casualty {
            for side in [Side::Attacker, Side::Defender] {
                if let Some(i) = leader_of(side)
                    && s.units[i].leader == LeaderState::With
                {
                    s.pending.push(Sub::LeaderCasualty(unit_ix(i)));
                }
            }
        }
        let (loser, winner) = match r.loser() {
            Side::Attacker => (spec.actor, spec.target),
            Side::Defender => (spec.target, spec.actor),
        };
        // Every losing unit made Morale Broken that cannot retreat rolls
        // Unable to Retreat (11.4.5), the attackers in the order listed.
        let losers: Vec<usize> = match r.loser() {
            Side::Attacker => spec.acting().collect(),
            Side::Defender => spec.target.into_iter().collect(),
        };
        for l in losers {
            if s.units[l].morale == MoraleState::Broken && !self.input.units[l].can_retreat {
                s.pending.push(Sub::UnableToRetreat(unit_ix(l)));
            }
        }
        if self.input.rules.pursuit
            && r.pursuit_check()
            && let (Some(w), Some(l)) = (winner, loser)
            && self.input.units[w].kind.is_cavalry()
        {
            let won = match r.loser() {
                Side::Attacker => Side::Defender,
                Side::Defender => Side::Attacker,
            };
            let momentum = cc.cavalry_momentum() && won == Side::Attacker;
            let leader = leader_of(won).zip(cc.leader_modifier(won)).map(|(u, m)| {
                let m = match won {
                    Side::Attacker => m,
                    Side::Defender => {
                        pursuit::leader_modifier(m, self.input.rules.defending_leader)
                    }
                };
                (unit_ix(u), m as i8)
            });
            s.pending
                .push(Sub::Pursuit(unit_ix(w), unit_ix(l), momentum, leader));
        }
    }
}
