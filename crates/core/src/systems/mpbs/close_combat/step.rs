//! Reading a `close-combat` step's keys (the `Fields` of a scenario).

use super::*;

impl CloseCombat {
    /// Builds a close combat from a scenario step (keys in [`INFO`]),
    /// refusing unknown keys. Errors name the file, line and key.
    pub fn from_step(
        f: &mut Fields,
        units: &[Unit],
        edition: Edition,
    ) -> Result<CloseCombat, InputError> {
        CloseCombat::from_step_with(f, units, edition, false)
    }

    /// As [`CloseCombat::from_step`]; with `momentum_if_eligible` a momentum
    /// claim applies only where an attacker is eligible (courses, after
    /// their first step).
    pub fn from_step_with(
        f: &mut Fields,
        units: &[Unit],
        edition: Edition,
        momentum_if_eligible: bool,
    ) -> Result<CloseCombat, InputError> {
        let rules = rules(edition);
        f.has("procedure");
        let names = f.strings("attacker")?.ok_or_else(|| {
            f.missing("attacker")
                .accepted("a unit name, or a list of unit names")
        })?;
        let known: Vec<&str> = units.iter().map(|u| u.name.as_str()).collect();
        let mut attackers: Vec<Unit> = Vec::with_capacity(names.len());
        for n in &names {
            let u = units.iter().find(|u| &u.name == n).ok_or_else(|| {
                f.locate(
                    "attacker",
                    InputError::new(format!("no unit named \"{n}\" in [units]")).one_of(n, &known),
                )
            })?;
            attackers.push(u.clone());
        }
        let defender = find_unit(f, "defender", units)?.clone();
        let mut input = CloseCombatInput::new(attackers, defender);
        (input.attacker_leader, input.attacker_leader_unit) =
            read_leader(f, "attacker_leader", rules, &input.attackers)?;
        let defender_leader = read_leader(
            f,
            "defender_leader",
            rules,
            std::slice::from_ref(&input.defender),
        )?;
        input.defender_leader = defender_leader.0;
        input.defender_leader_stacked = defender_leader.1.is_some();
        input.morale_differential = MORALE_DIFFERENTIAL.read(f)?.map(|v| v as i32);
        input.strength_ratio = STRENGTH_RATIO.read(f)?.map(|v| v as i32);
        if let Some(r) = STRENGTH_ROUNDING.read(f)? {
            input.strength_rounding = r;
        }
        input.defender_pistol = DEFENDER_PISTOL.get(f)?;
        input.attacker_pistols = ATTACKER_PISTOLS.read(f)?.unwrap_or(0) as u8;
        input.flank_hexes = FLANK_HEXES.read(f)?.unwrap_or(0) as u8;
        input.fired_salvo = FIRED_SALVO.get(f)?;
        input.momentum = read_momentum(f)?;
        input.momentum_if_eligible = momentum_if_eligible;
        if f.has("halmstad") {
            if rules.halmstad_momentum.is_none() {
                return Err(f.err(
                    "halmstad",
                    format!(
                        "the {} has no NGBG Halmstad modifier (series card only)",
                        edition.card()
                    ),
                ));
            }
            input.halmstad = HALMSTAD.get(f)?;
        }
        input.extra_drm = EXTRA_DRM.read(f)?.unwrap_or(0) as i32;
        finish_step(f, &INFO)?;
        CloseCombat::build(edition, &input).map_err(|(k, e)| f.locate(k, e))
    }
}

/// Refuses keys of a step that `info` does not list (besides `procedure`),
/// without consuming the caller's reader.
pub(crate) fn finish_step(f: &Fields, info: &ProcedureInfo) -> Result<(), InputError> {
    let mut g = f.fresh();
    g.has("procedure");
    for k in info.keys {
        g.has(k.key);
    }
    g.finish()
}

/// Reads a leader key: a rating −3..=0, `true` (series: a leader is used;
/// SFO: the stacked leader's rating) or `false` (no leader); with the unit
/// of `side` whose stacked leader is the one used (docs/rules/mpbs.md,
/// "Leader (11.3.2)").
fn read_leader(
    f: &mut Fields,
    key: &'static str,
    rules: &CcRules,
    side: &[Unit],
) -> Result<(Option<i8>, Option<usize>), InputError> {
    let best = best_leader(side);
    if !f.has(key) {
        return Ok(best);
    }
    if let Ok(Some(b)) = f.quietly(|f| f.bool(key)) {
        return match (b, rules.leader, best) {
            (false, _, _) => Ok((None, None)),
            (true, LeaderDrm::PlusMinusOne, (d, i)) => Ok((Some(d.unwrap_or(0)), i)),
            (true, LeaderDrm::Rating, (Some(d), i)) => Ok((Some(d), i)),
            (true, LeaderDrm::Rating, (None, _)) => Err(f.err(
                key,
                format!(
                    "the {} uses the leader's rating (11.3.2), and no unit on this side has a leader: give the rating",
                    rules.edition.card()
                ),
            )
            .accepted("a rating from -3 to 0, or false")),
        };
    }
    let rating = f
        .quietly(|f| f.int(key, -3, 0))
        .map(|v| v.map(|r| r as i8))
        .map_err(|e| {
            let accepted = match rules.leader {
                LeaderDrm::Rating => {
                    "a rating from -3 to 0, true (the stacked leader's rating) or false"
                }
                LeaderDrm::PlusMinusOne => "true, false, or a rating from -3 to 0",
            };
            e.accepted(accepted)
        })?;
    let unit = rating.and_then(|r| side.iter().position(|u| u.leader == Some(r)));
    Ok((rating, unit))
}

/// Reads `momentum`: true, false, or the name of one momentum.
fn read_momentum(f: &mut Fields) -> Result<Momentum, InputError> {
    if !f.has("momentum") {
        return Ok(Momentum::None);
    }
    if let Ok(Some(b)) = f.quietly(|f| f.bool("momentum")) {
        return Ok(if b { Momentum::All } else { Momentum::None });
    }
    let names = ["true", "false", "cavalry", "heavy-infantry"];
    match f.quietly(|f| f.string("momentum")) {
        Ok(Some(s)) => Momentum::from_name(&s).ok_or_else(|| {
            f.locate(
                "momentum",
                InputError::new(format!("unknown momentum \"{s}\"")).one_of(&s, &names),
            )
        }),
        Ok(None) => Ok(Momentum::None),
        Err(e) => Err(e.accepted(names.join(", "))),
    }
}
