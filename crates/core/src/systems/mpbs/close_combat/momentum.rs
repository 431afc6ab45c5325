//! Momentum in close combat (11.3.6): which attackers may claim it, the
//! DRMs a claim adds, and whether cavalry momentum counted (which a pursuit
//! after the combat adds to its roll, 11.7.2).

use super::drms::fail;
use super::*;

/// True when `unit` may claim momentum (11.3.6, docs/rules/mpbs.md, Momentum): under
/// a Charge order and in Formation Normal (that it moved into contact this
/// activation is what the step asserts by claiming momentum).
/// A Morale Broken unit has no formation (6.3), so it is never eligible.
pub fn momentum_eligible(unit: &Unit) -> bool {
    unit.order == Order::Charge
        && unit.formation == Formation::Normal
        && unit.morale_state != MoraleState::Broken
}

/// Whether some attacker is eligible for cavalry momentum (`cavalry`) or
/// heavy infantry momentum (11.3.6).
fn momentum_claimable(input: &CloseCombatInput, cavalry: bool) -> bool {
    input.attackers.iter().any(|u| {
        momentum_eligible(u)
            && if cavalry {
                u.kind.is_cavalry()
            } else {
                u.kind.is_heavy_infantry()
            }
    })
}

/// Whether the combat's DRMs include cavalry momentum: claimed, and some
/// attacking cavalry eligible (11.3.6). A pursuit after the combat adds
/// its momentum DRM then (11.7.2).
pub(super) fn cavalry_momentum(input: &CloseCombatInput) -> bool {
    matches!(input.momentum, Momentum::All | Momentum::Cavalry) && momentum_claimable(input, true)
}

/// Adds the momentum DRMs claimed, refusing a claim no attacker is
/// eligible for.
pub(super) fn momentum_drms(
    rules: &CcRules,
    input: &CloseCombatInput,
    m: &mut Modifiers,
) -> Result<(), Fail> {
    if input.momentum == Momentum::None {
        return Ok(());
    }
    let (cav, hi) = (
        momentum_claimable(input, true),
        momentum_claimable(input, false),
    );
    let why = || {
        let each: Vec<String> = input
            .attackers
            .iter()
            .map(|u| {
                format!(
                    "{} is {} under {} in formation {}",
                    u.name, u.kind, u.order, u.formation
                )
            })
            .collect();
        each.join("; ")
    };
    let refuse = |what: &str| {
        fail(
            "momentum",
            format!(
                "{what} momentum (11.3.6) needs an attacking {what} unit under a Charge order in Formation Normal (docs/rules/mpbs.md, Momentum): {}",
                why()
            ),
        )
    };
    let want_cav = matches!(input.momentum, Momentum::All | Momentum::Cavalry);
    let want_hi = matches!(input.momentum, Momentum::All | Momentum::HeavyInfantry);
    match input.momentum {
        _ if input.momentum_if_eligible => {}
        Momentum::Cavalry if !cav => return Err(refuse("cavalry")),
        Momentum::HeavyInfantry if !hi => return Err(refuse("heavy infantry")),
        Momentum::All if !cav && !hi => {
            return Err(refuse("cavalry or heavy infantry"));
        }
        _ => {}
    }
    let claimed = match input.momentum {
        Momentum::All => "true".to_string(),
        m => format!("\"{m}\""),
    };
    let key = Source::key(format!("momentum = {claimed}"));
    let not_eligible = || format!("no attacker is eligible: {}", why());
    let all = input.momentum == Momentum::All;
    if want_hi && (hi || !all || !cav) {
        let t = Term::new(
            "heavy infantry momentum (11.3.6)",
            "11.3.6",
            HEAVY_INFANTRY_MOMENTUM,
            key.clone(),
        );
        m.record(if hi { t } else { t.not_applied(not_eligible()) });
    }
    if want_cav && (cav || !all || !hi) {
        let t = match (input.halmstad, rules.halmstad_momentum) {
            (true, Some(d)) => Term::new(
                "cavalry momentum, NGBG Halmstad (11.3.6)",
                "11.3.6",
                d as i32,
                Source::key(format!("momentum = {claimed}, halmstad = true")),
            ),
            _ => Term::new(
                "cavalry momentum (11.3.6)",
                "11.3.6",
                CAVALRY_MOMENTUM,
                key.clone(),
            ),
        };
        m.record(if cav {
            t
        } else {
            t.not_applied(not_eligible())
        });
    }
    Ok(())
}
