//! Melee Combat Dice: each side's dice, and the sheet's "No dice for
//! Impetus" conditions as data ([`NO_IMPETUS`]), with their charts.
//!
//! Each side's combat dice are its strength (less its hits, by default),
//! plus impetus — two dice for a fresh large unit, cavalry or large beasts,
//! otherwise one, plus any magical bonus and bonus from the action dice —
//! unless one of the sheet's "no impetus" conditions holds ([`NO_IMPETUS`],
//! each a scenario input), plus one die per extra unit in contact, one
//! uphill (medium or heavy foot, not against swarms, monsters or heroes)
//! and one for flank or rear contact (not against train, swarms, monsters or
//! heroes). The round is then resolved by the combat process
//! ([`super::combat`]).
//!
//! Three conditions name the opponent's impetus ("… who have impetus"):
//! they are read against the opponent's impetus after its other
//! conditions, so the two sides' impetus never depend on each other in a
//! circle.

use super::melee::MeleeInput;
use super::named_enum;
use super::shooting::Weapon;
use super::troops::{Terrain, Troop, is_fresh};
use super::unit::MeleeWeapon;
use crate::explain::{PoolLine, Source};
use crate::systems::Chart;
use crate::systems::chart::headers;

named_enum! {
    /// The sheet's "No dice for Impetus if the Unit:" conditions, in card order.
    NoImpetus {
        /// Is fighting an enemy in contact with its flank or rear.
        EnemyOnFlankOrRear = "enemy-on-flank-or-rear",
        /// Is foot that moved this phase fighting fresh mounted, beasts or
        /// large beasts who have impetus.
        MovedFootVsFreshMounted = "moved-foot-vs-fresh-mounted",
        /// Is mounted, beasts or large beasts fighting fresh foot with
        /// spears or pikes who have not moved this phase and have impetus.
        MountedVsStandingSpears = "mounted-vs-standing-spears",
        /// Is foot other than pikes fighting fresh pike-armed foot who have impetus.
        FootVsFreshPikes = "foot-vs-fresh-pikes",
        /// Is mounted or heavy foot not completely in open terrain.
        NotInOpen = "not-in-open",
        /// Is light horse fighting non-skirmishers frontally.
        LightHorseFrontally = "light-horse-frontally",
        /// Is mounted fighting a unit that causes fear.
        MountedVsFear = "mounted-vs-fear",
        /// Is mounted or beasts fighting train.
        VsTrain = "vs-train",
        /// Is large beasts fighting skirmishers.
        LargeBeastsVsSkirmishers = "large-beasts-vs-skirmishers",
        /// Is missile troops that shot this phase.
        ShotThisPhase = "shot-this-phase",
        /// Is light foot, except javelin-armed light foot fighting light foot.
        LightFoot = "light-foot",
        /// Is medium foot armed with missiles, unless melee capable and
        /// neither unit charged this phase.
        MediumFootWithMissiles = "medium-foot-with-missiles",
        /// Is in a combat that results from a pursuit.
        Pursuit = "pursuit",
        /// Moved as part of a group this phase.
        GroupMove = "group-move",
        /// Carried out a manoeuvre this phase.
        Manoeuvre = "manoeuvre",
        /// Charged this phase and is fighting across an obstacle or stakes.
        ChargedAcrossObstacle = "charged-across-obstacle",
        /// Is fighting a monster, unless a hero, a monster or heroic.
        VsMonster = "vs-monster",
    }
}

/// The "no impetus" conditions as the sheet words them, in card order,
/// with the scenario inputs that decide each.
pub const NO_IMPETUS: [(NoImpetus, &str, &str); 17] = [
    (
        NoImpetus::EnemyOnFlankOrRear,
        "Is fighting enemy in contact with its flank or rear",
        "the opponent's `_flank`",
    ),
    (
        NoImpetus::MovedFootVsFreshMounted,
        "Is foot who have moved this phase and is fighting fresh mounted, beasts or large beasts who have impetus",
        "`_moved` (or charged, manoeuvred, group_moved); troop types; fresh status",
    ),
    (
        NoImpetus::MountedVsStandingSpears,
        "Is mounted, beasts or large beasts and is fighting fresh foot armed with spears or pikes who have not moved this phase and have impetus",
        "units' `melee_weapon`; the opponent's `_moved`",
    ),
    (
        NoImpetus::FootVsFreshPikes,
        "Is foot other than pikes and is fighting fresh foot armed with pikes who have impetus",
        "units' `melee_weapon`",
    ),
    (
        NoImpetus::NotInOpen,
        "Is mounted or heavy foot and is not completely in open terrain",
        "unit `terrain`",
    ),
    (
        NoImpetus::LightHorseFrontally,
        "Is light horse and is fighting non skirmishers frontally",
        "opponent `skirmisher`; own `_flank`",
    ),
    (
        NoImpetus::MountedVsFear,
        "Is mounted and is fighting a unit that causes fear",
        "opponent `causes_fear`",
    ),
    (
        NoImpetus::VsTrain,
        "Is mounted or beasts and is fighting train",
        "opponent `train`",
    ),
    (
        NoImpetus::LargeBeastsVsSkirmishers,
        "Is large beasts and is fighting skirmishers",
        "opponent `skirmisher`",
    ),
    (
        NoImpetus::ShotThisPhase,
        "Is missile troops and has shot this phase",
        "`_shot`",
    ),
    (
        NoImpetus::LightFoot,
        "Is light foot except for javelin armed light foot who are fighting light foot",
        "unit `weapon`, troop types",
    ),
    (
        NoImpetus::MediumFootWithMissiles,
        "Is medium foot armed with missiles, unless melee capable and neither unit charged this phase",
        "unit `weapon`, `melee_capable`; `_charged`",
    ),
    (
        NoImpetus::Pursuit,
        "Is involved in a combat which is the result of a pursuit",
        "`pursuit`",
    ),
    (
        NoImpetus::GroupMove,
        "Moved as part of group this phase",
        "`_group_moved`",
    ),
    (
        NoImpetus::Manoeuvre,
        "Carried out a manoeuvre this phase",
        "`_manoeuvred`",
    ),
    (
        NoImpetus::ChargedAcrossObstacle,
        "Charged this phase and is fighting across an obstacle or stakes",
        "`_charged` and `obstacle`",
    ),
    (
        NoImpetus::VsMonster,
        "Is fighting a monster, unless the unit is a hero or monster or has the heroic characteristic",
        "troop types, `heroic`",
    ),
];

/// One side's combat dice, counted line by line, and why it has no impetus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideDice {
    /// Each contribution with its card line and source (lines not applied
    /// explain a die not given).
    pub lines: Vec<PoolLine>,
    /// The dice rolled.
    pub total: u8,
    /// Impetus dice (with bonus and magic dice when they go with it).
    pub impetus: u8,
    /// Fresh status.
    pub fresh: bool,
    /// The conditions that deny impetus.
    pub no_impetus: Vec<NoImpetus>,
}

/// A line of a dice count: `dice` for `label` (card line `rule`), set by
/// `source`.
pub(crate) fn line(dice: i32, label: impl Into<String>, rule: &str, source: Source) -> PoolLine {
    PoolLine::new(dice, label, rule, source)
}

/// The same line, not applied, with the reason.
pub(crate) fn not_applied(l: PoolLine, why: impl Into<String>) -> PoolLine {
    l.not_applied(why)
}

/// The same line, with a remark.
pub(crate) fn with_note(mut l: PoolLine, note: impl Into<String>) -> PoolLine {
    l.note = Some(note.into());
    l
}

/// The card line of the melee dice (Melee Combat Dice, item `n`).
fn item(n: u8) -> String {
    format!("Melee Combat Dice {n}")
}

fn is_missile(w: Option<Weapon>) -> bool {
    w.is_some_and(|w| w != Weapon::Magic)
}

/// The conditions that deny side `s` impetus without reading the
/// opponent's impetus.
fn own_denials(input: &MeleeInput, s: usize) -> Vec<NoImpetus> {
    let o = 1 - s;
    let (me, opp) = (&input.units[s], &input.units[o]);
    let (my, their) = (&input.sides[s], &input.sides[o]);
    let mounted = me.troop.is_mounted();
    let checks = [
        (NoImpetus::EnemyOnFlankOrRear, their.flank),
        (
            NoImpetus::NotInOpen,
            (mounted || me.troop == Troop::HeavyFoot) && me.terrain != Terrain::Open,
        ),
        (
            NoImpetus::LightHorseFrontally,
            me.troop == Troop::LightHorse && !opp.skirmisher && !my.flank,
        ),
        (NoImpetus::MountedVsFear, mounted && opp.causes_fear),
        (
            NoImpetus::VsTrain,
            (mounted || me.troop == Troop::Beasts) && opp.train,
        ),
        (
            NoImpetus::LargeBeastsVsSkirmishers,
            me.troop == Troop::LargeBeasts && opp.skirmisher,
        ),
        (NoImpetus::ShotThisPhase, me.weapon.is_some() && my.shot),
        (
            NoImpetus::LightFoot,
            me.troop == Troop::LightFoot
                && !(me.weapon == Some(Weapon::Javelin) && opp.troop == Troop::LightFoot),
        ),
        (
            NoImpetus::MediumFootWithMissiles,
            me.troop == Troop::MediumFoot
                && is_missile(me.weapon)
                && !(me.melee_capable && !my.charged && !their.charged),
        ),
        (NoImpetus::Pursuit, input.pursuit),
        (NoImpetus::GroupMove, my.group_moved),
        (NoImpetus::Manoeuvre, my.manoeuvred),
        (
            NoImpetus::ChargedAcrossObstacle,
            my.charged && input.obstacle,
        ),
        (
            NoImpetus::VsMonster,
            opp.troop == Troop::Monsters
                && !(me.troop.is_hero() || me.troop == Troop::Monsters || me.heroic),
        ),
    ];
    checks
        .iter()
        .filter(|(_, on)| *on)
        .map(|(c, _)| *c)
        .collect()
}

/// The conditions that read the opponent's impetus ("who have impetus").
fn opponent_denials(
    input: &MeleeInput,
    s: usize,
    fresh: [bool; 2],
    opp_impetus: bool,
) -> Vec<NoImpetus> {
    let o = 1 - s;
    let (me, opp) = (&input.units[s], &input.units[o]);
    let (my, their) = (&input.sides[s], &input.sides[o]);
    let opp_mounted_or_beasts =
        opp.troop.is_mounted() || matches!(opp.troop, Troop::Beasts | Troop::LargeBeasts);
    let me_mounted_or_beasts =
        me.troop.is_mounted() || matches!(me.troop, Troop::Beasts | Troop::LargeBeasts);
    let opp_fresh_with_impetus = fresh[o] && opp_impetus;
    let checks = [
        (
            NoImpetus::MovedFootVsFreshMounted,
            me.troop.is_foot()
                && my.moved_at_all()
                && opp_mounted_or_beasts
                && opp_fresh_with_impetus,
        ),
        (
            NoImpetus::MountedVsStandingSpears,
            me_mounted_or_beasts
                && opp.troop.is_foot()
                && opp.melee_weapon.is_some()
                && !their.moved_at_all()
                && opp_fresh_with_impetus,
        ),
        (
            NoImpetus::FootVsFreshPikes,
            me.troop.is_foot()
                && me.melee_weapon != Some(MeleeWeapon::Pikes)
                && opp.troop.is_foot()
                && opp.melee_weapon == Some(MeleeWeapon::Pikes)
                && opp_fresh_with_impetus,
        ),
    ];
    checks
        .iter()
        .filter(|(_, on)| *on)
        .map(|(c, _)| *c)
        .collect()
}

/// Both sides' combat dice (Melee Combat Dice).
pub fn combat_dice(input: &MeleeInput) -> [SideDice; 2] {
    let fresh = [0, 1].map(|s| {
        let u = &input.units[s];
        is_fresh(u.troop, u.hits, u.terrain, input.sides[1 - s].flank)
    });
    let own = [own_denials(input, 0), own_denials(input, 1)];
    let first = [0, 1].map(|s| input.sides[s].impetus && own[s].is_empty());
    [0, 1].map(|s| {
        let o = 1 - s;
        let (me, opp) = (&input.units[s], &input.units[o]);
        let my = &input.sides[s];
        let mut no_impetus = own[s].clone();
        no_impetus.extend(opponent_denials(input, s, fresh, first[o]));
        no_impetus.sort();
        let has = my.impetus && no_impetus.is_empty();
        let name = &me.name;
        let key = |k: &str| format!("{}_{k}", ["attacker", "defender"][s]);
        let mut lines = vec![line(
            me.strength as i32,
            format!("strength {}", me.strength),
            "Melee Combat Dice (base)",
            Source::unit(format!("{name}: strength = {}", me.strength)),
        )];
        if me.hits > 0 {
            let from_strength = input.dice_from.dice(me.strength, me.hits);
            let l = line(
                from_strength as i32 - me.strength as i32,
                format!("{} hits", me.hits),
                "docs/rules/sword-and-spear.md 3",
                Source::unit(format!("{name}: {} hits", me.hits)),
            );
            lines.push(if from_strength < me.strength {
                with_note(l, "[rules] dice_from = \"strength-less-hits\"")
            } else {
                not_applied(
                    line(
                        -(me.hits as i32),
                        format!("{} hits", me.hits),
                        "docs/rules/sword-and-spear.md 3",
                        Source::rules("dice_from = \"full-strength\""),
                    ),
                    "[rules] dice_from = \"full-strength\": dice from full strength",
                )
            });
        }
        let big = me.large || matches!(me.troop, Troop::Cavalry | Troop::LargeBeasts);
        let base = if fresh[s] && big { 2 } else { 1 };
        let extra = my.bonus_dice + my.magic_dice;
        let why_base = if base == 2 {
            format!(
                "{name}: fresh {}{}",
                if me.large { "large " } else { "" },
                me.troop.name()
            )
        } else if big {
            format!(
                "{name}: {}{}, not fresh (one die)",
                if me.large { "large " } else { "" },
                me.troop.name()
            )
        } else {
            format!("{name}: {}", me.troop.name())
        };
        let impetus_line = line(
            base,
            if base == 2 {
                "impetus (fresh large unit, cavalry or large beasts)"
            } else {
                "impetus"
            },
            &item(1),
            Source::unit(why_base),
        );
        let impetus = if has {
            lines.push(impetus_line);
            base as u8 + extra
        } else {
            lines.push(if !my.impetus {
                match input.later {
                    Some(false) => not_applied(
                        line(
                            base,
                            "impetus: none in a later round",
                            &item(1),
                            Source::rules("later_rounds_impetus = false"),
                        ),
                        "impetus is the clash that opens the melee (docs/rules/sword-and-spear.md 7)",
                    ),
                    _ => not_applied(
                        line(
                            base,
                            "impetus: not claimed",
                            &item(1),
                            Source::key(format!("{} = false", key("impetus"))),
                        ),
                        "the side claims no impetus",
                    ),
                }
            } else {
                let mut l = line(
                    base,
                    format!(
                        "no impetus: {}",
                        no_impetus
                            .iter()
                            .map(|c| c.name())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    "No dice for Impetus",
                    Source::card(
                        no_impetus
                            .iter()
                            .map(|c| {
                                let (i, (_, text, by)) = NO_IMPETUS
                                    .iter()
                                    .enumerate()
                                    .find(|(_, (x, _, _))| x == c)
                                    .expect("every condition is on the card");
                                format!("{}. \"{text}\" (decided by {by})", i + 1)
                            })
                            .collect::<Vec<_>>()
                            .join("; "),
                    ),
                );
                l.applied = false;
                l
            });
            if input.bonus_needs_impetus { 0 } else { extra }
        };
        let kept = has || !input.bonus_needs_impetus;
        let lost = |l: PoolLine| {
            if kept {
                if has {
                    l
                } else {
                    with_note(
                        l,
                        "kept without impetus: [rules] bonus_needs_impetus = false",
                    )
                }
            } else {
                not_applied(
                    l,
                    "lost with impetus ([rules] bonus_needs_impetus = true)",
                )
            }
        };
        if my.bonus_dice > 0 {
            let source = if me.action_bonus > 0 && my.bonus_dice == me.action_bonus {
                Source::unit(format!(
                    "{name}: bonus {} left by its activation ({} overrides)",
                    me.action_bonus,
                    key("bonus_dice")
                ))
            } else {
                Source::key(format!("{} = {}", key("bonus_dice"), my.bonus_dice))
            };
            lines.push(lost(line(
                my.bonus_dice as i32,
                "bonus dice (action dice)",
                &item(1),
                source,
            )));
        }
        if my.magic_dice > 0 {
            lines.push(lost(line(
                my.magic_dice as i32,
                "magic dice",
                &item(1),
                Source::key(format!("{} = {}", key("magic_dice"), my.magic_dice)),
            )));
        }
        if my.extra_units > 0 {
            lines.push(line(
                my.extra_units as i32,
                "extra units in contact",
                &item(2),
                Source::key(format!("{} = {}", key("extra_units"), my.extra_units)),
            ));
        }
        let vs_special =
            opp.troop == Troop::Swarms || opp.troop == Troop::Monsters || opp.troop.is_hero();
        if my.uphill {
            let l = line(
                1,
                "uphill",
                &item(3),
                Source::key(format!("{} = true", key("uphill"))),
            );
            lines.push(if !me.troop.is_medium_or_heavy_foot() {
                not_applied(l, format!("uphill: no die ({name} is not medium or heavy foot)"))
            } else if vs_special {
                not_applied(l, "uphill: no die (enemy is a swarm, monster or hero)")
            } else {
                l
            });
        }
        if my.flank {
            let l = line(
                1,
                "flank or rear contact",
                &item(4),
                Source::key(format!("{} = true", key("flank"))),
            );
            lines.push(if vs_special || opp.train {
                not_applied(
                    l,
                    "flank or rear: no die (enemy is train, a swarm, a monster or a hero)",
                )
            } else {
                l
            });
        }
        if my.extra_dice != 0 {
            lines.push(line(
                my.extra_dice,
                "extra dice (not on the card)",
                "",
                Source::key(format!("{} = {}", key("extra_dice"), my.extra_dice)),
            ));
        }
        let total: i32 = lines.iter().filter(|l| l.applied).map(|l| l.dice).sum();
        SideDice {
            lines,
            total: total.clamp(0, 255) as u8,
            impetus: if has { impetus } else { 0 },
            fresh: fresh[s],
            no_impetus,
        }
    })
}

/// Melee combat dice and the no-impetus conditions, for `pikeshot tables`.
pub fn charts() -> Vec<Chart> {
    let dice = Chart {
        id: "melee-dice",
        title: "Melee Combat Dice".into(),
        rule: "Combat",
        headers: headers(&["Dice", "For"]),
        rows: vec![
            vec!["Strength".into(), "Base combat dice is the strength of the unit (less its hits: `[rules] dice_from`)".into()],
            vec!["+2 / +1".into(), "Impetus: two dice for a fresh large unit, cavalry or large beasts, otherwise one; plus any magical bonuses or bonuses from action dice".into()],
            vec!["+1 each".into(), "Extra units in contact: one die per extra unit in contact".into()],
            vec!["+1".into(), "Uphill: medium or heavy foot, unless the enemy unit is a swarm, a monster or a hero".into()],
            vec!["+1".into(), "Flank or rear contact, unless the flanked enemy unit is train, a swarm, a monster or a hero".into()],
        ],
        notes: vec!["Impetus may gain more than one die depending on the Action Dice and unit type".into()],
    };
    let no = Chart {
        id: "no-impetus",
        title: "No dice for Impetus if the Unit".into(),
        rule: "Combat",
        headers: headers(&["#", "Condition", "Scenario input"]),
        rows: NO_IMPETUS
            .iter()
            .enumerate()
            .map(|(i, (_, text, key))| vec![(i + 1).to_string(), text.to_string(), key.to_string()])
            .collect(),
        notes: vec![
            "`_` keys are per side: attacker_... / defender_...".into(),
            "\"who have impetus\" reads the opponent's impetus after its other conditions".into(),
        ],
    };
    vec![dice, no]
}
