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
use crate::systems::Chart;

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

/// One side's combat dice, labelled, and why it has no impetus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideDice {
    /// Each contribution, labelled (zero entries explain a die not given).
    pub entries: Vec<(String, i32)>,
    /// The dice rolled.
    pub total: u8,
    /// Impetus dice (with bonus and magic dice when they go with it).
    pub impetus: u8,
    /// Fresh status.
    pub fresh: bool,
    /// The conditions that deny impetus.
    pub no_impetus: Vec<NoImpetus>,
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
        let mut entries: Vec<(String, i32)> =
            vec![(format!("strength {}", me.strength), me.strength as i32)];
        let from_strength = input.dice_from.dice(me.strength, me.hits);
        if from_strength < me.strength {
            entries.push((
                format!("{} hits", me.hits),
                from_strength as i32 - me.strength as i32,
            ));
        }
        let big = me.large || matches!(me.troop, Troop::Cavalry | Troop::LargeBeasts);
        let base = if fresh[s] && big { 2 } else { 1 };
        let extra = my.bonus_dice + my.magic_dice;
        let impetus = if has {
            entries.push((
                if base == 2 {
                    "impetus (fresh large unit, cavalry or large beasts)".into()
                } else {
                    "impetus".into()
                },
                base,
            ));
            base as u8 + extra
        } else {
            let why = if !my.impetus {
                "impetus: not claimed".to_string()
            } else {
                format!(
                    "no impetus: {}",
                    no_impetus
                        .iter()
                        .map(|c| c.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            entries.push((why, 0));
            if input.bonus_needs_impetus { 0 } else { extra }
        };
        if my.bonus_dice > 0 {
            entries.push((
                "bonus dice (action dice)".into(),
                if has || !input.bonus_needs_impetus {
                    my.bonus_dice as i32
                } else {
                    0
                },
            ));
        }
        if my.magic_dice > 0 {
            entries.push((
                "magic dice".into(),
                if has || !input.bonus_needs_impetus {
                    my.magic_dice as i32
                } else {
                    0
                },
            ));
        }
        if my.extra_units > 0 {
            entries.push(("extra units in contact".into(), my.extra_units as i32));
        }
        let vs_special =
            opp.troop == Troop::Swarms || opp.troop == Troop::Monsters || opp.troop.is_hero();
        if my.uphill {
            let d = me.troop.is_medium_or_heavy_foot() && !vs_special;
            entries.push((
                if d {
                    "uphill".into()
                } else if !me.troop.is_medium_or_heavy_foot() {
                    "uphill: no die (not medium or heavy foot)".into()
                } else {
                    "uphill: no die (enemy is a swarm, monster or hero)".into()
                },
                d as i32,
            ));
        }
        if my.flank {
            let d = !(vs_special || opp.train);
            entries.push((
                if d {
                    "flank or rear contact".into()
                } else {
                    "flank or rear: no die (enemy is train, a swarm, a monster or a hero)".into()
                },
                d as i32,
            ));
        }
        if my.extra_dice != 0 {
            entries.push(("extra dice".into(), my.extra_dice));
        }
        let total: i32 = entries.iter().map(|(_, d)| d).sum();
        SideDice {
            entries,
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
        headers: vec!["Dice".into(), "For".into()],
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
        headers: vec!["#".into(), "Condition".into(), "Scenario input".into()],
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
