//! Melee [10.0] dice: the chart's ±D6 modifiers as data ([`MELEE_DICE`]),
//! each side's pool worked out from them and the terrain and town sheets
//! ([`side_pool`]) for a side ([`Role`]) of a melee step ([`MeleeInput`]),
//! and the Melee chart.

use super::DiceCell::{D6, Words};
use super::readings::{HorseVsPikes, NewDisorder, PikeRanks, Readings};
use super::terrain::{
    self, DEFENCES, STREAM_BANK_DICE, TOWN_ATTACKING, TOWN_INSIDE, TOWN_TERCIO_DEPTH, Terrain,
};
use super::unit::Stand;
use super::{Aspect, Kind, dice_chart};
use crate::explain::{PoolLine, Source, pool_sum};
use crate::systems::Chart;
use crate::systems::named::named_enum;

/// The ±D6 modifiers of Melee, as printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeleeDice {
    /// Disordered.
    pub disordered: i8,
    /// Up hill.
    pub uphill: i8,
    /// Fighting enemy flank.
    pub enemy_flank: i8,
    /// Each of the 2nd and 3rd rank of pikes vs foot (fighting frontally).
    pub pike_rank_vs_foot: i8,
    /// Each of the 2nd and 3rd rank of pikes vs horse (fighting frontally).
    pub pike_rank_vs_horse: i8,
    /// Shot caught unsupported in the open by MCS.
    pub shot_unsupported_vs_mcs: i8,
    /// Shot fighting unsupported in the open against LC.
    pub shot_unsupported_vs_lc: i8,
    /// Shot not in cover fighting any CS (additional).
    pub shot_no_cover_vs_cs: i8,
}

/// Melee [10.0]: the Charge Bonus (+?D6) is a stand's army-list value.
pub const MELEE_DICE: MeleeDice = MeleeDice {
    disordered: -1,
    uphill: 1,
    enemy_flank: 1,
    pike_rank_vs_foot: 1,
    pike_rank_vs_horse: 2,
    shot_unsupported_vs_mcs: -2,
    shot_unsupported_vs_lc: -1,
    shot_no_cover_vs_cs: -1,
};

/// One side's pool, worked out once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SidePool {
    /// Each modifier with what it is for (the first is the SP; Charge Bonus
    /// lines the terrain cancels are listed with 0): [`SidePool::lines`] as
    /// (label, dice).
    pub modifiers: Vec<(String, i32)>,
    /// The pool line by line, each with its rule and source; a line that
    /// cannot apply is listed as not applied, with why.
    pub lines: Vec<PoolLine>,
    /// Dice thrown.
    pub dice: u8,
    /// Why the stand becomes disordered in this melee (empty: it does not).
    pub new_disorder: Vec<&'static str>,
    /// Disordered for this round's dice and morale.
    pub disordered: bool,
}

/// The Melee chart's rule number.
const R: &str = "10.0";

/// A bonus the fight may take away: `line` as it counts, or, when `lost`
/// says why it does not, the same dice listed as "no {bonus}: {why}" under
/// the Melee chart's rule and not counted.
fn unless_lost(line: PoolLine, bonus: &str, lost: Option<&str>) -> PoolLine {
    match lost {
        None => line,
        Some(why) => PoolLine {
            label: format!("no {bonus}: {why}"),
            rule: R.to_string(),
            ..line
        }
        .not_applied(why),
    }
}

/// The first reason that holds, in the sheet's order: why a bonus is lost,
/// or `None` when none holds.
fn first_reason<'a>(reasons: &[(bool, &'a str)]) -> Option<&'a str> {
    reasons
        .iter()
        .find(|&&(holds, _)| holds)
        .map(|&(_, why)| why)
}

pub(crate) fn in_town(s: &Stand) -> bool {
    s.terrain == Terrain::Town
}

/// Works out one side's pool: `me` fighting `foe` as `role`.
pub fn side_pool(
    me: &Stand,
    foe: &Stand,
    role: Role,
    input: &MeleeInput,
    readings: &Readings,
) -> SidePool {
    let d = MELEE_DICE;
    let k = me.kind;
    let w = terrain::woods(k);
    let woods_fight = me.terrain == Terrain::Woods || foe.terrain == Terrain::Woods;
    let attacking_town = in_town(foe) && !in_town(me);
    let attacking = role == Role::Attacker;
    let n = &me.name;
    let fname = &foe.name;
    let role_key = |k: &str| format!("{}_{k}", role.name());
    let mut mods: Vec<PoolLine> = vec![me.sp_line("SP", R)];
    // Disorder this melee gives.
    let mut new_disorder: Vec<&'static str> = Vec::new();
    if !attacking
        && input.round == 1
        && input.attack_on != Aspect::Front
        && input.commenced_behind_front
    {
        new_disorder.push("charged in flank/rear by a stand commencing behind its front");
    }
    if w.disorder_fighting && foe.terrain == Terrain::Woods {
        new_disorder.push("fighting an enemy stand in woods");
    }
    if attacking && foe.defences && k.mounted() {
        new_disorder.push("mounted attacking defences");
    }
    if attacking_town && k.mounted() {
        new_disorder.push("mounted attacking a town (3.1)");
    }
    if attacking_town && k == Kind::Pike {
        new_disorder.push("pike attacking a town (3.1)");
    }
    let disordered = me.is_disordered()
        || (readings.new_disorder == NewDisorder::ThisMelee && !new_disorder.is_empty());
    if disordered {
        let why = if me.is_disordered() {
            super::morale::disorder_why(me)
        } else {
            format!(
                "{n} disorders in this melee: {} ([rules] new_disorder = this-melee)",
                new_disorder.join("; ")
            )
        };
        mods.push(PoolLine::new(
            d.disordered as i32,
            "disordered",
            R,
            Source::unit(why),
        ));
    }
    if input.higher == Some(role) {
        mods.push(PoolLine::new(
            d.uphill as i32,
            "up hill (higher hex)",
            R,
            Source::key(format!("higher = {}", role.name())),
        ));
    }
    if attacking && input.attack_on != Aspect::Front {
        let line = PoolLine::new(
            d.enemy_flank as i32,
            format!("fighting enemy {}", input.attack_on),
            R,
            Source::key(format!("attack_on = {}", input.attack_on)),
        );
        if in_town(foe) {
            mods.push(
                PoolLine {
                    label: "flank/rear of a stand in a town: no benefit (3.0)".into(),
                    ..line
                }
                .not_applied(format!("{fname} is in a town (towns 3.0)")),
            );
        } else {
            mods.push(line);
        }
    }
    // Charge Bonus.
    if attacking && input.charge && input.round == 1 && me.charge_bonus > 0 {
        let frontal = input.attack_on == Aspect::Front;
        let lost = first_reason(&[
            (
                k.mounted()
                    && foe.kind.has_pikes()
                    && (frontal || readings.horse_vs_pikes == HorseVsPikes::Always),
                "horse vs Pikes, P&S, Tercio",
            ),
            (
                me.terrain == Terrain::Woods && !w.charge_bonus_from,
                "in woods",
            ),
            (
                foe.terrain == Terrain::Woods && !w.charge_bonus_into,
                "vs unit in woods",
            ),
            (me.terrain == Terrain::Stream, "in a stream"),
            (me.terrain == Terrain::Swamp, "in a swamp"),
            (
                foe.terrain == Terrain::Swamp && foe.kind == Kind::Skirmishers,
                "vs Sk in a swamp",
            ),
            (
                me.terrain.fields() || foe.terrain.fields(),
                "in or vs unit in rough/fields",
            ),
            (foe.defences, "attacking defences"),
            (in_town(me), "attacking out of a town (3.2)"),
            (attacking_town, "attacking a town (3.1)"),
            (
                input.left_town && k.combat_stand(),
                "left a town to attack (5.0)",
            ),
        ]);
        let src = Source::unit(format!(
            "{n}: charge_bonus = {} (army list), charging in (charge = true)",
            me.charge_bonus
        ));
        let line = PoolLine::new(me.charge_bonus as i32, "Charge Bonus", R, src);
        mods.push(unless_lost(line, "Charge Bonus", lost));
    }
    // Pikes, if fighting frontally.
    let frontally = attacking || input.attack_on == Aspect::Front;
    let vs_horse = foe.kind.mounted();
    let per_rank = if vs_horse {
        d.pike_rank_vs_horse
    } else {
        d.pike_rank_vs_foot
    } as i32;
    let against = if vs_horse { "horse" } else { "foot" };
    if k.has_depth() && me.ranks > 0 {
        let ranks = match readings.pike_ranks {
            PikeRanks::Each => me.ranks as i32,
            PikeRanks::Together => 1,
        };
        let lost = first_reason(&[
            (!frontally, "not fighting frontally"),
            (woods_fight && !w.pike_bonus, "in or vs unit in woods"),
            (me.terrain == Terrain::Stream, "in a stream"),
            (attacking && foe.defences, "attacking defences"),
            (in_town(me), "in a town (3.2)"),
            (attacking_town && k == Kind::Pike, "attacking a town (3.1)"),
        ]);
        let src = Source::unit(format!(
            "{n}: ranks = {} ([rules] pike_ranks = {}), against {fname} ({})",
            me.ranks, readings.pike_ranks, foe.kind
        ));
        let mut v = ranks * per_rank;
        if attacking_town {
            v = v.min(TOWN_TERCIO_DEPTH as i32);
        }
        let line = PoolLine::new(
            v,
            format!("{} extra rank(s) of pikes vs {against}", me.ranks),
            if attacking_town { "towns 3.1" } else { R },
            src,
        );
        mods.push(unless_lost(line, "depth bonus", lost));
    }
    if k == Kind::PikeAndShot && me.pike_bonus {
        let lost = first_reason(&[
            (!frontally, "not fighting frontally"),
            (woods_fight && !w.pike_bonus, "in or vs unit in woods"),
            (attacking && foe.defences, "attacking defences"),
            (in_town(me) || attacking_town, "town (3.1, 3.2)"),
        ]);
        let src = Source::unit(format!(
            "{n}: pike_bonus = true, against {fname} ({})",
            foe.kind
        ));
        let line = PoolLine::new(per_rank, format!("P&S bonus vs {against}"), R, src);
        mods.push(unless_lost(line, "P&S bonus", lost));
    }
    // Shot.
    if k == Kind::Shot {
        let supported = me.supported || me.in_cover();
        let open = !me.in_cover();
        let src = Source::unit(format!(
            "{n}: in {}, supported = {}; against {fname} ({})",
            me.terrain, me.supported, foe.kind
        ));
        if !supported && open && foe.kind.mcs() {
            mods.push(PoolLine::new(
                d.shot_unsupported_vs_mcs as i32,
                "Shot caught unsupported in the open by MCS",
                R,
                src.clone(),
            ));
        }
        if !supported && open && foe.kind == Kind::LightCavalry {
            mods.push(PoolLine::new(
                d.shot_unsupported_vs_lc as i32,
                "Shot unsupported in the open against LC",
                R,
                src.clone(),
            ));
        }
        if open && foe.kind.combat_stand() {
            mods.push(PoolLine::new(
                d.shot_no_cover_vs_cs as i32,
                "Shot not in cover fighting a CS",
                R,
                src,
            ));
        }
    }
    // Terrain.
    if woods_fight && w.dice != 0 {
        mods.push(PoolLine::new(
            w.dice as i32,
            format!("woods ({} in or vs unit in)", w.label),
            "terrain 4.0",
            Source::unit(format!("{n} in {}, {fname} in {}", me.terrain, foe.terrain)),
        ));
    }
    if foe.terrain == Terrain::Stream && me.terrain != Terrain::Stream {
        mods.push(PoolLine::new(
            STREAM_BANK_DICE as i32,
            "on bank fighting stand in stream",
            "terrain 4.0",
            Source::unit(format!("{fname} is in a stream, {n} in {}", me.terrain)),
        ));
    }
    if attacking && foe.defences {
        let v = if k.mounted() {
            DEFENCES.mounted_dice
        } else if k.infantry() {
            DEFENCES.infantry_dice
        } else {
            0
        };
        if v != 0 {
            mods.push(PoolLine::new(
                v as i32,
                "attacking defences",
                "terrain 4.0",
                Source::unit(format!("{fname}: defences = true; {n} is {k}")),
            ));
        }
    }
    // A town: the row for fighting in or out of it, else for attacking it
    // (the line's words are written only when it counts).
    let inside = in_town(me);
    let town = if inside {
        Some((&TOWN_INSIDE, "3.2 in a town", "towns 3.2"))
    } else if attacking_town {
        Some((&TOWN_ATTACKING, "3.1 attacking a town", "towns 3.1"))
    } else {
        None
    };
    if let Some((row, label, rule)) = town {
        let v = row.dice(k, me.single_stand);
        if v != 0 {
            let why = if inside {
                format!("{n}: {k} in a town")
            } else {
                format!("{fname} is in a town; {n} is {k}")
            };
            mods.push(PoolLine::new(v as i32, label, rule, Source::unit(why)));
        }
    }
    let extra = input.extra_dice[role as usize];
    if extra != 0 {
        mods.push(PoolLine::new(
            extra as i32,
            "extra_dice",
            "",
            Source::key(format!("{} = {extra}", role_key("extra_dice"))),
        ));
    }
    let dice = pool_sum(&mods).clamp(0, u8::MAX as i32) as u8;
    SidePool {
        modifiers: mods
            .iter()
            .map(|l| (l.label.clone(), if l.applied { l.dice } else { 0 }))
            .collect(),
        lines: mods,
        dice,
        new_disorder,
        disordered,
    }
}

/// The Melee chart.
pub fn charts() -> Vec<Chart> {
    let d = MELEE_DICE;
    vec![dice_chart(
        "melee",
        "Melee",
        "10.0",
        &[
            (Words("1D6"), "per remaining SP"),
            (D6(d.disordered), "if disordered"),
            (D6(d.uphill), "up hill"),
            (D6(d.enemy_flank), "fighting enemy flank (or rear)"),
            (
                Words("+?D6"),
                "Charge Bonus if charging in (army list; troop-types chart)",
            ),
            (
                D6(d.pike_rank_vs_foot),
                "2nd and 3rd rank of pikes vs foot (each; fighting frontally only)",
            ),
            (
                D6(d.pike_rank_vs_horse),
                "2nd and 3rd rank of pikes vs horse (each; fighting frontally only)",
            ),
            (
                Words("none"),
                "Charge Bonus horse vs Pikes, P&S, Tercio (frontally)",
            ),
            (
                D6(d.shot_unsupported_vs_mcs),
                "Shot caught unsupported in the open by MCS",
            ),
            (
                D6(d.shot_unsupported_vs_lc),
                "Shot fighting unsupported in the open against LC",
            ),
            (
                D6(d.shot_no_cover_vs_cs),
                "Shot not in cover fighting any CS (additional)",
            ),
        ],
        &[
            "Hit on 6 or double 5; more hits wins, equal hits draw (ASSUMPTION 4(b))",
            "Foot will not charge MCS (except close assault in woods, towns)",
            "Stands charged in flank/rear by a stand commencing behind front disorder",
            "Shot unsupported = not in cover (woods, town, defences) and not next to a CS",
            "P&S bonus (ASSUMPTION): as one rank of pikes, fighting frontally",
            "Each side hit tests morale (8.0): loser max 2SP, winner or draw 1SP",
        ],
    )]
}

named_enum! {
    /// A side of a melee.
    Role {
        /// The stand that attacks (charges in).
        Attacker = "attacker",
        /// The stand attacked.
        Defender = "defender",
    }
}

/// What a melee step asks beyond the two stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeleeInput {
    /// The attacker charges in (Charge Bonus; first round only).
    pub charge: bool,
    /// Where the attack arrives on the defender.
    pub attack_on: Aspect,
    /// A flank or rear attacker commenced behind the defender's front, so
    /// the defender disorders (first round only).
    pub commenced_behind_front: bool,
    /// The stand on the higher hex.
    pub higher: Option<Role>,
    /// The attacker left a town hex to attack (towns 5.0).
    pub left_town: bool,
    /// A stand beaten in a town stays, losing one more SP (towns 3.3).
    pub hold_town: bool,
    /// Round of the melee: 1 is the charge, later rounds are the ongoing melee.
    pub round: u8,
    /// Further dice (attacker, defender).
    pub extra_dice: [i8; 2],
    /// Added to the adjusted morale (attacker, defender).
    pub extra_morale: [i8; 2],
}

impl Default for MeleeInput {
    fn default() -> MeleeInput {
        MeleeInput {
            charge: true,
            attack_on: Aspect::Front,
            commenced_behind_front: false,
            higher: None,
            left_town: false,
            hold_town: false,
            round: 1,
            extra_dice: [0; 2],
            extra_morale: [0; 2],
        }
    }
}
