//! The DRMs of a close combat from unit values: each labelled in a
//! breakdown, summed and limited to −4..=+4 (11.0, 11.3).

use super::drms::fail;
use super::momentum::momentum_drms;
use super::*;

/// The strength-ratio DRM of `attacker_sp` against `defender_sp` (both > 0).
pub fn strength_ratio_drm(attacker_sp: u32, defender_sp: u32, rounding: StrengthRounding) -> i32 {
    let (a, d) = (attacker_sp as u64, defender_sp as u64);
    // a/d >= s.attacker/s.defender
    let at_least = |s: &RatioStep| a * s.defender as u64 >= d * s.attacker as u64;
    let at_most = |s: &RatioStep| a * s.defender as u64 <= d * s.attacker as u64;
    match rounding {
        StrengthRounding::Defender => {
            STRENGTH_STEPS
                .iter()
                .find(|s| at_least(s))
                .unwrap_or(&STRENGTH_STEPS[STRENGTH_STEPS.len() - 1])
                .drm as i32
        }
        StrengthRounding::Steps => {
            let up = STRENGTH_STEPS.iter().filter(|s| s.printed && s.drm > 0);
            let down = STRENGTH_STEPS
                .iter()
                .rev()
                .filter(|s| s.printed && s.drm < 0);
            up.clone()
                .find(|s| at_least(s))
                .or_else(|| down.clone().find(|s| at_most(s)))
                .map_or(0, |s| s.drm as i32)
        }
    }
}

/// Morale points a side counts below its printed rating in the morale
/// differential (11.3.3): Morale Shaken −1 (docs/rules/mpbs.md, Morale differential); Morale
/// Broken −2 (one per step, by extension).
pub const MORALE_STATE_PENALTY: [(MoraleState, i32); 3] = [
    (MoraleState::Good, 0),
    (MoraleState::Shaken, 1),
    (MoraleState::Broken, 2),
];

/// A unit's morale for the morale differential: printed rating less the
/// penalty of its morale state.
pub fn effective_morale(unit: &Unit) -> i32 {
    let penalty = MORALE_STATE_PENALTY
        .iter()
        .find(|(s, _)| *s == unit.morale_state)
        .map_or(0, |(_, p)| *p);
    unit.morale as i32 - penalty
}

named_enum! {
    /// Which momentum DRMs a step claims (11.3.6).
    Momentum {
        /// No momentum.
        None = "none",
        /// Every momentum DRM an attacker is eligible for (`momentum = true`).
        All = "all",
        /// Cavalry momentum only.
        Cavalry = "cavalry",
        /// Heavy infantry momentum only.
        HeavyInfantry = "heavy-infantry",
    }
}

/// The DRMs of a close combat: the labelled breakdown, the total and the
/// total limited to −4..=+4. Errors name the step key concerned.
pub fn modifiers(edition: Edition, input: &CloseCombatInput) -> Result<Modifiers, InputError> {
    assemble(edition, input).map_err(|(k, e)| e.key(k))
}

/// Refuses (at `key`) a unit that cannot take part in a close combat: an
/// artillery unit (11.5; `instead` ends the message with what to do) or an
/// eliminated one.
fn check_combatant(u: &Unit, key: &'static str, instead: &str) -> Result<(), Fail> {
    if u.kind == UnitKind::Artillery {
        return Err(fail(
            key,
            format!(
                "{} is artillery: artillery is ignored in close combat (11.5){instead}",
                u.name
            ),
        ));
    }
    if u.morale_state == MoraleState::Eliminated {
        return Err(fail(key, format!("{} is eliminated", u.name)));
    }
    Ok(())
}

/// The error (at `key`) for a unit whose class has no `line` ("row" or
/// "column") on the card's CC matrix (11.3.8).
fn not_on_matrix(key: &'static str, u: &Unit, card: &str, line: &str, class: CcClass) -> Fail {
    fail(
        key,
        format!(
            "{} is {}: the {card}'s CC matrix (11.3.8) has no \"{}\" {line}",
            u.name,
            u.kind,
            class.label()
        ),
    )
}

/// The DRMs of a close combat in the card's order (11.3): leaders, morale
/// differential, strength ratio, the CC matrix, pistol shots, flank and
/// rear, formations, salvo and momentum, the defender's terrain.
pub(super) fn assemble(edition: Edition, input: &CloseCombatInput) -> Result<Modifiers, Fail> {
    let rules = rules(edition);
    let lead = combatants(input)?;
    let mut m = Modifiers::default();
    leader_drms(edition, rules, input, &mut m)?;
    morale_differential(input, lead, &mut m);
    strength_ratio(input, &mut m)?;
    matrix_drm(edition, rules, input, lead, &mut m)?;
    pistol_drms(input, &mut m)?;
    flank_drm(input, &mut m)?;
    once_per_combat(edition, rules, input, &mut m)?;
    tec_drms(edition, input, &mut m)?;
    m.push_extra(input.extra_drm)?;
    m.finish(Some(DRM_LIMIT));
    Ok(m)
}

/// The lead attacker, after refusing attackers or a defender that cannot
/// take part (11.5) or are named twice.
fn combatants(input: &CloseCombatInput) -> Result<&Unit, Fail> {
    let lead = input
        .attackers
        .first()
        .ok_or_else(|| fail("attacker", "no attacking unit"))?;
    let def = &input.defender;
    for (i, a) in input.attackers.iter().enumerate() {
        check_combatant(a, "attacker", " and cannot attack")?;
        if a.name == def.name {
            return Err(fail("defender", format!("{} cannot attack itself", a.name)));
        }
        if input.attackers[..i].iter().any(|b| b.name == a.name) {
            return Err(fail(
                "attacker",
                format!("{} is named twice among the attackers", a.name),
            ));
        }
    }
    check_combatant(
        def,
        "defender",
        "; name the unit stacked with it as the defender",
    )?;
    Ok(lead)
}

/// Leaders (11.3.2): the attacking leader's rating as a plus, the
/// defending one's as printed (SFO), or ±1 for any leader (series).
fn leader_drms(
    edition: Edition,
    rules: &CcRules,
    input: &CloseCombatInput,
    m: &mut Modifiers,
) -> Result<(), Fail> {
    let def = &input.defender;
    for (key, leader, sign) in [
        ("attacker_leader", input.attacker_leader, 1),
        ("defender_leader", input.defender_leader, -1),
    ] {
        let Some(r) = leader else { continue };
        if !(-3..=0).contains(&r) {
            return Err((
                key,
                InputError::new(format!("leader rating {r} is outside the cards' ratings"))
                    .accepted("a rating from -3 to 0"),
            ));
        }
        let drm = match rules.leader {
            LeaderDrm::Rating => sign * (r as i32).abs(),
            LeaderDrm::PlusMinusOne => sign,
        };
        let (label, side_units, unit) = if sign > 0 {
            (
                ATTACKER_LEADER,
                "attacking",
                input
                    .attacker_leader_unit
                    .and_then(|i| input.attackers.get(i)),
            )
        } else {
            (
                DEFENDER_LEADER,
                "defending",
                input.defender_leader_stacked.then_some(def),
            )
        };
        let how = match rules.leader {
            LeaderDrm::Rating if sign > 0 => {
                format!(
                    "rating {r}, converted to a + when attacking (11.3.2, {} card)",
                    edition.name()
                )
            }
            LeaderDrm::Rating => format!("rating {r}, added as printed ({} card)", edition.name()),
            LeaderDrm::PlusMinusOne => {
                format!("±1 for any {side_units} leader ({} card)", edition.name())
            }
        };
        let source = match unit {
            Some(u) => Source::unit(format!("leader stacked with {}: {how}", u.name)),
            None => Source::key(format!("{key} = {r}: {how}")),
        };
        m.push(label, "11.3.2", drm, source);
    }

    Ok(())
}

/// Morale differential (11.3.3): the lead attacker against the defender.
fn morale_differential(input: &CloseCombatInput, lead: &Unit, m: &mut Modifiers) {
    let def = &input.defender;
    let morale = input
        .morale_differential
        .unwrap_or_else(|| effective_morale(lead) - effective_morale(def));
    let source = match input.morale_differential {
        Some(v) => Source::key(format!("morale_differential = {v}")),
        None => {
            let one = |u: &Unit| match u.morale_state {
                MoraleState::Good => format!("{} morale {}", u.name, u.morale),
                s => format!(
                    "{} morale {} less {} for {s}",
                    u.name,
                    u.morale,
                    u.morale as i32 - effective_morale(u)
                ),
            };
            Source::unit(format!("{} − {}", one(lead), one(def)))
        }
    };
    m.push("morale differential (11.3.3)", "11.3.3", morale, source);
}

/// Strength ratio (11.3.4): the attackers' current SP summed against the
/// defender's.
fn strength_ratio(input: &CloseCombatInput, m: &mut Modifiers) -> Result<(), Fail> {
    let def = &input.defender;
    let mut strength_source = Source::key(format!(
        "strength_ratio = {}",
        input.strength_ratio.unwrap_or(0)
    ));
    let strength = match input.strength_ratio {
        Some(s) => s,
        None => {
            let a: u32 = input
                .attackers
                .iter()
                .map(|u| u.current_strength() as u32)
                .sum();
            let d = def.current_strength() as u32;
            if a == 0 {
                return Err(fail("attacker", "the attackers have no strength left"));
            }
            if d == 0 {
                return Err(fail(
                    "defender",
                    format!("{} has no strength left", def.name),
                ));
            }
            strength_source = Source::unit(format!(
                "current SP {a} ({}) against {} {d}; strength_rounding = {}",
                input
                    .attackers
                    .iter()
                    .map(|u| format!("{} {}", u.name, u.current_strength()))
                    .collect::<Vec<_>>()
                    .join(" + "),
                def.name,
                input.strength_rounding
            ));
            strength_ratio_drm(a, d, input.strength_rounding)
        }
    };
    m.push(
        "strength ratio (11.3.4)",
        "11.3.4",
        strength,
        strength_source,
    );

    Ok(())
}

/// CC Matrix (11.3.8): every attacker must be allowed; the lead's row
/// counts.
fn matrix_drm(
    edition: Edition,
    rules: &CcRules,
    input: &CloseCombatInput,
    lead: &Unit,
    m: &mut Modifiers,
) -> Result<(), Fail> {
    let card = edition.card();
    let def = &input.defender;
    let column = CcClass::of_defender(def).expect("artillery refused above");
    if !rules.matrix.columns.contains(&column) {
        return Err(not_on_matrix("defender", def, card, "column", column));
    }
    let mut matrix = 0;
    for (i, a) in input.attackers.iter().enumerate() {
        let row = CcClass::of_kind(a.kind).expect("artillery refused above");
        if !rules.matrix.rows.contains(&row) {
            return Err(not_on_matrix("attacker", a, card, "row", row));
        }
        match rules.matrix.cell(row, column).flatten() {
            None => {
                return Err(fail(
                    "attacker",
                    format!(
                        "the CC matrix (11.3.8) reads NA for {} ({}) against {} ({}): not allowed (light infantry close-combats only light infantry, 11.6)",
                        a.name,
                        row.label(),
                        def.name,
                        column.label()
                    ),
                ));
            }
            Some(d) if i == 0 => matrix = d as i32,
            Some(_) => {}
        }
    }
    let lead_row = CcClass::of_kind(lead.kind).expect("artillery refused above");
    let hedgehog = if column == CcClass::Hedgehog {
        " (the defender is in Hedgehog)"
    } else {
        ""
    };
    m.push(
        "CC matrix (11.3.8)",
        "11.3.8",
        matrix,
        Source::card(format!(
            "{} card's CC matrix, row {} ({}), column {} ({}){hedgehog}",
            edition.name(),
            lead_row.label(),
            lead.name,
            column.label(),
            def.name
        )),
    );

    Ok(())
}

/// Pistol shots (11.0): a defending cavalry unit's, and one per attacking
/// cavalry unit.
fn pistol_drms(input: &CloseCombatInput, m: &mut Modifiers) -> Result<(), Fail> {
    let def = &input.defender;
    // Pistol shots.
    if input.defender_pistol {
        if !def.kind.is_cavalry() {
            return Err(fail(
                "defender_pistol",
                format!(
                    "{} is {}: only defending cavalry expends a pistol shot",
                    def.name, def.kind
                ),
            ));
        }
        m.push(
            "defending cavalry pistol shot",
            "11.0",
            DEFENDER_PISTOL_DRM,
            Source::key("defender_pistol = true"),
        );
    }
    if input.attacker_pistols > 0 {
        let cavalry = input
            .attackers
            .iter()
            .filter(|u| u.kind.is_cavalry())
            .count();
        if input.attacker_pistols as usize > cavalry {
            return Err((
                "attacker_pistols",
                InputError::new(format!(
                    "{} pistol shots but {cavalry} attacking cavalry unit(s): one per attacking cavalry unit",
                    input.attacker_pistols
                ))
                .accepted(format!("a whole number from 0 to {cavalry}")),
            ));
        }
        m.push(
            "attacking cavalry pistol shots",
            "11.0",
            ATTACKER_PISTOL_DRM * input.attacker_pistols as i32,
            Source::key(format!("attacker_pistols = {}", input.attacker_pistols)),
        );
    }

    Ok(())
}

/// Flank and rear hexes (11.3.7).
fn flank_drm(input: &CloseCombatInput, m: &mut Modifiers) -> Result<(), Fail> {
    // Flank/rear (11.3.7).
    if input.flank_hexes > MAX_FLANK_HEXES {
        return Err((
            "flank_hexes",
            InputError::new(format!("{} flank/rear hexes", input.flank_hexes))
                .accepted(format!("a whole number from 0 to {MAX_FLANK_HEXES}")),
        ));
    }
    if input.flank_hexes > 0 {
        m.push(
            "flank/rear hexes (11.3.7)",
            "11.3.7",
            FLANK_HEX_DRM * input.flank_hexes as i32,
            Source::key(format!("flank_hexes = {}", input.flank_hexes)),
        );
    }

    Ok(())
}

/// What counts once per combat (11.0, 11.3.6): both sides' formations, a
/// salvo fired just prior, momentum.
fn once_per_combat(
    edition: Edition,
    rules: &CcRules,
    input: &CloseCombatInput,
    m: &mut Modifiers,
) -> Result<(), Fail> {
    let card = edition.card();
    let def = &input.defender;
    // Once per combat: formations, salvo, momentum.
    let attackers: Vec<&Unit> = input.attackers.iter().collect();
    formation_drms(rules.formation, &ATTACKER_FORMATION_DRMS, &attackers, m);
    if input.fired_salvo {
        if !input.attackers.iter().any(|u| u.kind.is_heavy_infantry()) {
            return Err(fail(
                "fired_salvo",
                "only heavy infantry fires a Salvo (10.4, docs/rules/mpbs.md, Salvo): no attacker is heavy infantry",
            ));
        }
        m.push(
            "fired salvo just prior",
            "11.0",
            FIRED_SALVO_DRM,
            Source::key("fired_salvo = true"),
        );
    }
    if input.halmstad && rules.halmstad_momentum.is_none() {
        return Err(fail(
            "halmstad",
            format!("the {card} has no NGBG Halmstad modifier (series card only)"),
        ));
    }
    momentum_drms(rules, input, m)?;
    formation_drms(rules.formation, &DEFENDER_FORMATION_DRMS, &[def], m);

    Ok(())
}

/// The TEC close combat column for the defender's hex and hexside.
fn tec_drms(edition: Edition, input: &CloseCombatInput, m: &mut Modifiers) -> Result<(), Fail> {
    let card = edition.card();
    let def = &input.defender;
    let hex = terrain::hex(edition, def.terrain).ok_or_else(|| {
        fail(
            "defender",
            format!(
                "{} stands in \"{}\", which is not on the {card}'s TEC",
                def.name, def.terrain
            ),
        )
    })?;
    let hex_drm = hex.close_combat.ok_or_else(|| {
        fail(
            "defender",
            format!(
                "the {card}'s TEC reads NA for close combat against {} in {}: not allowed",
                def.name, hex.label
            ),
        )
    })?;
    m.push(
        "TEC hex",
        "TEC",
        hex_drm as i32,
        Source::unit(format!(
            "{} stands in {} ({} card's TEC, close combat column)",
            def.name,
            hex.label,
            edition.name()
        )),
    );
    if let Some(side) = def.hexside {
        let row = terrain::hexside(edition, side).ok_or_else(|| {
            fail(
                "defender",
                format!(
                    "{}'s hexside \"{side}\" is not on the {card}'s TEC",
                    def.name
                ),
            )
        })?;
        let drm = row.close_combat.ok_or_else(|| {
            fail(
                "defender",
                format!(
                    "the {card}'s TEC reads NA for close combat across {} against {}: not allowed",
                    row.label, def.name
                ),
            )
        })?;
        m.push(
            "TEC hexside",
            "TEC",
            drm as i32,
            Source::unit(format!(
                "{} is attacked across {} ({} card's TEC, close combat column)",
                def.name,
                row.label,
                edition.name()
            )),
        );
    }

    Ok(())
}

/// Adds the formation DRMs of one side, combined as the card says: every
/// line once (SFO), or only the worst (series; the others are recorded as
/// not applied).
fn formation_drms(
    combine: FormationCombine,
    table: &[FormationDrm],
    units: &[&Unit],
    m: &mut Modifiers,
) {
    let term = |d: &FormationDrm| {
        let who: Vec<String> = units
            .iter()
            .filter(|u| d.formations.contains(&u.formation))
            .map(|u| format!("{} in formation {}", u.name, u.formation))
            .collect();
        Term::new(d.label, "11.0", d.drm as i32, Source::unit(who.join(", ")))
    };
    let mut applying = table
        .iter()
        .filter(|d| units.iter().any(|u| d.formations.contains(&u.formation)));
    match combine {
        FormationCombine::EachOnce => {
            for d in applying {
                m.record(term(d));
            }
        }
        FormationCombine::WorstOnly => {
            let all: Vec<&FormationDrm> = applying.clone().collect();
            let first = applying.next();
            if let Some(w) = applying.fold(first, |w, d| match w {
                Some(w) if w.drm.abs() >= d.drm.abs() => Some(w),
                _ => Some(d),
            }) {
                for d in all {
                    if std::ptr::eq(d, w) {
                        m.record(term(d));
                    } else {
                        m.record(term(d).not_applied(
                            "series card: only the worst formation modifier per side applies",
                        ));
                    }
                }
            }
        }
    }
}
