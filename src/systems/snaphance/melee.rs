//! Melee [10.0], procedure `melee`: one round between an attacker and a
//! defender. Each side throws one d6 per remaining SP, whole dice added or
//! taken away by the chart's modifiers and the terrain sheet; each 6 and
//! each double 5 hits the other side. The side that scores more hits wins
//! (RULES-NOTES 4(b)); equal hits draw. Each side hit takes its morale test
//! (8.0) and loses at most 2 SP if it lost, 1 SP on a win or a draw (and the
//! other caps). `melee-to-finish` repeats rounds until one side is beaten or
//! destroyed (see [`super::course`]).

use super::hits::{self, roll_hits};
use super::morale::{After, MoraleCheck, loss_cap};
use super::readings::{Fives, HorseVsPikes, NewDisorder, PikeRanks, Readings};
use super::terrain::{
    self, DEFENCES, STREAM_BANK_DICE, TOWN_ATTACKING, TOWN_INSIDE, TOWN_TERCIO_DEPTH, Terrain,
};
use super::unit::{Stand, find, finish, key_err, relocate};
use super::{Aspect, Kind};
use crate::dice::{Dice, EnumerationError};
use crate::error::InputError;
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::Fields;
use crate::systems::named::named_enum;
use crate::systems::{Chart, ProcedureInfo};

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

named_enum! {
    /// A side of a melee.
    Role {
        /// The stand that attacks (charges in).
        Attacker = "attacker",
        /// The stand attacked.
        Defender = "defender",
    }
}

/// How a melee round ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeleeResult {
    /// The attacker scored more hits: the defender is beaten.
    AttackerWins,
    /// The defender scored more hits: the attacker is beaten.
    DefenderWins,
    /// Equal hits: the melee goes on.
    Draw,
    /// The attacker, beaten in a town, stays (3.3): the melee goes on.
    AttackerHolds,
    /// The defender, beaten in a town, stays (3.3): the melee goes on.
    DefenderHolds,
    /// The attacker lost its last SP.
    AttackerDestroyed,
    /// The defender lost its last SP.
    DefenderDestroyed,
    /// Both lost their last SP.
    BothDestroyed,
}

impl MeleeResult {
    /// Every result, in label order.
    pub const ALL: [MeleeResult; 8] = [
        MeleeResult::AttackerWins,
        MeleeResult::DefenderWins,
        MeleeResult::Draw,
        MeleeResult::AttackerHolds,
        MeleeResult::DefenderHolds,
        MeleeResult::AttackerDestroyed,
        MeleeResult::DefenderDestroyed,
        MeleeResult::BothDestroyed,
    ];
    /// The outcome label.
    pub fn label(self) -> &'static str {
        LABELS[self as usize]
    }
    /// True when the melee goes on to another round.
    pub fn ongoing(self) -> bool {
        matches!(
            self,
            MeleeResult::Draw | MeleeResult::AttackerHolds | MeleeResult::DefenderHolds
        )
    }
}

/// Outcome labels of a melee round, by [`MeleeResult`].
pub const LABELS: [&str; 8] = [
    "attacker wins",
    "defender wins",
    "draw",
    "attacker holds town",
    "defender holds town",
    "attacker destroyed",
    "defender destroyed",
    "both destroyed",
];

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

/// One side's pool, worked out once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SidePool {
    /// Each modifier with what it is for (the first is the SP; Charge Bonus
    /// lines the terrain cancels are listed with 0).
    pub modifiers: Vec<(String, i32)>,
    /// Dice thrown.
    pub dice: u8,
    /// Why the stand becomes disordered in this melee (empty: it does not).
    pub new_disorder: Vec<&'static str>,
    /// Disordered for this round's dice and morale.
    pub disordered: bool,
}

fn in_town(s: &Stand) -> bool {
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
    let mut mods: Vec<(String, i32)> = vec![("SP".into(), me.sp() as i32)];
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
        mods.push(("disordered".into(), d.disordered as i32));
    }
    if input.higher == Some(role) {
        mods.push(("up hill (higher hex)".into(), d.uphill as i32));
    }
    if attacking && input.attack_on != Aspect::Front {
        if in_town(foe) {
            mods.push((
                "flank/rear of a stand in a town: no benefit (3.0)".into(),
                0,
            ));
        } else {
            mods.push((
                format!("fighting enemy {}", input.attack_on),
                d.enemy_flank as i32,
            ));
        }
    }
    // Charge Bonus.
    if attacking && input.charge && input.round == 1 && me.charge_bonus > 0 {
        let frontal = input.attack_on == Aspect::Front;
        let lost: Option<&str> = if k.mounted()
            && foe.kind.has_pikes()
            && (frontal || readings.horse_vs_pikes == HorseVsPikes::Always)
        {
            Some("horse vs Pikes, P&S, Tercio")
        } else if me.terrain == Terrain::Woods && !w.charge_bonus_from {
            Some("in woods")
        } else if foe.terrain == Terrain::Woods && !w.charge_bonus_into {
            Some("vs unit in woods")
        } else if me.terrain == Terrain::Stream {
            Some("in a stream")
        } else if me.terrain == Terrain::Swamp {
            Some("in a swamp")
        } else if foe.terrain == Terrain::Swamp && foe.kind == Kind::Skirmishers {
            Some("vs Sk in a swamp")
        } else if me.terrain.fields() || foe.terrain.fields() {
            Some("in or vs unit in rough/fields")
        } else if foe.defences {
            Some("attacking defences")
        } else if in_town(me) {
            Some("attacking out of a town (3.2)")
        } else if attacking_town {
            Some("attacking a town (3.1)")
        } else if input.left_town && k.combat_stand() {
            Some("left a town to attack (5.0)")
        } else {
            None
        };
        match lost {
            Some(why) => mods.push((format!("no Charge Bonus: {why}"), 0)),
            None => mods.push(("Charge Bonus".into(), me.charge_bonus as i32)),
        }
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
        let lost: Option<&str> = if !frontally {
            Some("not fighting frontally")
        } else if woods_fight && !w.pike_bonus {
            Some("in or vs unit in woods")
        } else if me.terrain == Terrain::Stream {
            Some("in a stream")
        } else if attacking && foe.defences {
            Some("attacking defences")
        } else if in_town(me) {
            Some("in a town (3.2)")
        } else if attacking_town && k == Kind::Pike {
            Some("attacking a town (3.1)")
        } else {
            None
        };
        match lost {
            Some(why) => mods.push((format!("no depth bonus: {why}"), 0)),
            None => {
                let mut v = ranks * per_rank;
                if attacking_town {
                    v = v.min(TOWN_TERCIO_DEPTH as i32);
                }
                mods.push((
                    format!("{} extra rank(s) of pikes vs {against}", me.ranks),
                    v,
                ));
            }
        }
    }
    if k == Kind::PikeAndShot && me.pike_bonus {
        let lost: Option<&str> = if !frontally {
            Some("not fighting frontally")
        } else if woods_fight && !w.pike_bonus {
            Some("in or vs unit in woods")
        } else if attacking && foe.defences {
            Some("attacking defences")
        } else if in_town(me) || attacking_town {
            Some("town (3.1, 3.2)")
        } else {
            None
        };
        match lost {
            Some(why) => mods.push((format!("no P&S bonus: {why}"), 0)),
            None => mods.push((format!("P&S bonus vs {against}"), per_rank)),
        }
    }
    // Shot.
    if k == Kind::Shot {
        let supported = me.supported || me.in_cover();
        let open = !me.in_cover();
        if !supported && open && foe.kind.mcs() {
            mods.push((
                "Shot caught unsupported in the open by MCS".into(),
                d.shot_unsupported_vs_mcs as i32,
            ));
        }
        if !supported && open && foe.kind == Kind::LightCavalry {
            mods.push((
                "Shot unsupported in the open against LC".into(),
                d.shot_unsupported_vs_lc as i32,
            ));
        }
        if open && foe.kind.combat_stand() {
            mods.push((
                "Shot not in cover fighting a CS".into(),
                d.shot_no_cover_vs_cs as i32,
            ));
        }
    }
    // Terrain.
    if woods_fight && w.dice != 0 {
        mods.push((
            format!("woods ({} in or vs unit in)", w.label),
            w.dice as i32,
        ));
    }
    if foe.terrain == Terrain::Stream && me.terrain != Terrain::Stream {
        mods.push((
            "on bank fighting stand in stream".into(),
            STREAM_BANK_DICE as i32,
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
            mods.push(("attacking defences".into(), v as i32));
        }
    }
    if in_town(me) {
        let v = TOWN_INSIDE.dice(k, me.single_stand);
        if v != 0 {
            mods.push(("3.2 in a town".into(), v as i32));
        }
    } else if attacking_town {
        let v = TOWN_ATTACKING.dice(k, me.single_stand);
        if v != 0 {
            mods.push(("3.1 attacking a town".into(), v as i32));
        }
    }
    let extra = input.extra_dice[role as usize];
    if extra != 0 {
        mods.push(("extra_dice".into(), extra as i32));
    }
    let dice = mods
        .iter()
        .map(|(_, v)| v)
        .sum::<i32>()
        .clamp(0, u8::MAX as i32) as u8;
    SidePool {
        modifiers: mods,
        dice,
        new_disorder,
        disordered,
    }
}

/// Result order for the loss tables: the stand won, drew, or lost.
const WON: usize = 0;
const DRAWN: usize = 1;
const LOST: usize = 2;

/// A melee round, built once.
#[derive(Clone, Debug)]
pub struct Melee {
    fives: Fives,
    pools: [SidePool; 2],
    remaining: [u8; 2],
    holds: [bool; 2],
    /// Per side: SP lost for (won/drawn/lost, hits taken, morale roll):
    /// index `(res * (H + 1) + h) * 6 + roll - 1`, `H` the other side's dice.
    loss: [Vec<u8>; 2],
    /// Category of each [`MeleeResult`] in this space (`u32::MAX`: absent).
    cats: [u32; 8],
    with_hits: bool,
    space: OutcomeSpace,
    /// Leaves some roll reaches (the space is dense; a course follows only these).
    reachable: Vec<bool>,
}

/// What `pikeshot list` shows of `melee`.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "melee",
    rule: "10.0, 8.0, terrain 4.0, towns 3.0-5.0",
    summary: "one round: each side one d6 per SP ± D6 modifiers; more hits wins; each side hit tests morale",
    keys: MELEE_KEYS,
    outcomes: &LABELS,
    measures: &[
        "attacker-sp-lost",
        "defender-sp-lost",
        "attacker-hits",
        "defender-hits",
    ],
};

/// The keys of `melee` (and of `melee-to-finish`, which adds `max_rounds`).
pub const MELEE_KEYS: &[(&str, &str)] = &[
    ("attacker", "the stand that attacks"),
    ("defender", "the stand attacked"),
    (
        "charge",
        "true: the attacker charges in, Charge Bonus (default true; first round only)",
    ),
    (
        "attack_on",
        "front | flank | rear of the defender (default front): +1D6, no pike bonus for the defender",
    ),
    (
        "commenced_behind_front",
        "flank/rear attacker began behind the defender's front: defender disorders (default true for flank/rear)",
    ),
    (
        "higher",
        "attacker | defender: the stand on the higher hex, +1D6",
    ),
    (
        "left_town",
        "true: the attacker left a town to attack, no Charge Bonus for combat stands (5.0)",
    ),
    (
        "hold_town",
        "true: a stand beaten in a town stays, +1 SP lost, melee ongoing (3.3)",
    ),
    (
        "attacker_extra_dice",
        "-6..=6: further dice for the attacker",
    ),
    (
        "defender_extra_dice",
        "-6..=6: further dice for the defender",
    ),
    (
        "attacker_extra_morale",
        "-6..=6: added to the attacker's adjusted morale",
    ),
    (
        "defender_extra_morale",
        "-6..=6: added to the defender's adjusted morale",
    ),
];

impl Melee {
    /// Builds a melee round of `attacker` against `defender`. `with_hits`
    /// adds the hits each side scored as measures (a step on its own; a
    /// course keeps its spaces small). Errors carry the bare step key.
    pub fn new(
        attacker: &Stand,
        defender: &Stand,
        input: &MeleeInput,
        readings: &Readings,
        with_hits: bool,
    ) -> Result<Melee, InputError> {
        check(attacker, defender, input)?;
        let pools = [
            side_pool(attacker, defender, Role::Attacker, input, readings),
            side_pool(defender, attacker, Role::Defender, input, readings),
        ];
        let stands = [attacker, defender];
        let holds = [
            input.hold_town && in_town(attacker),
            input.hold_town && in_town(defender),
        ];
        let mut loss: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
        let mut max_loss = [0u8; 2];
        for s in 0..2 {
            let me = stands[s];
            let foe = stands[1 - s];
            let check = MoraleCheck::new(
                me,
                pools[s].disordered,
                input.extra_morale[s],
                readings.sp_loss,
            );
            let h_max = pools[1 - s].dice as usize;
            let mut t = vec![0u8; 3 * (h_max + 1) * 6];
            for (res, after) in [
                (WON, After::MeleeWon),
                (DRAWN, After::MeleeDraw),
                (LOST, After::MeleeLost),
            ] {
                let (cap, _) = loss_cap(after, me, Some(foe));
                for h in 0..=h_max {
                    for r in 1..=6u8 {
                        let mut l = check.loss(h as u32, r, cap);
                        if res == LOST && holds[s] {
                            l = (l + 1).min(check.remaining);
                        }
                        t[(res * (h_max + 1) + h) * 6 + r as usize - 1] = l;
                        max_loss[s] = max_loss[s].max(l);
                    }
                }
            }
            loss[s] = t;
        }
        let mut labels: Vec<&str> = Vec::new();
        let mut cats = [u32::MAX; 8];
        for r in MeleeResult::ALL {
            let present = match r {
                MeleeResult::AttackerHolds => holds[0],
                MeleeResult::DefenderHolds => holds[1],
                _ => true,
            };
            if present {
                cats[r as usize] = labels.len() as u32;
                labels.push(r.label());
            }
        }
        let mut measures = vec![
            Measure::new("attacker-sp-lost", 0, max_loss[0] as i32),
            Measure::new("defender-sp-lost", 0, max_loss[1] as i32),
        ];
        if with_hits {
            measures.push(Measure::new("attacker-hits", 0, pools[0].dice as i32));
            measures.push(Measure::new("defender-hits", 0, pools[1].dice as i32));
        }
        let space = OutcomeSpace::from_labels(&labels, measures);
        let mut m = Melee {
            fives: readings.fives,
            remaining: [attacker.sp(), defender.sp()],
            holds,
            loss,
            cats,
            with_hits,
            reachable: vec![false; space.len()],
            space,
            pools,
        };
        let mut reachable = vec![false; m.space.len()];
        m.each_roll(|ha, hd, ra, rd, _| reachable[m.leaf(ha, hd, ra, rd) as usize] = true);
        m.reachable = reachable;
        Ok(m)
    }

    /// Calls `f(ha, hd, ra, rd, weight)` for every number of hits each side
    /// can score and every morale roll that follows (0: no test), with the
    /// weight of the morale rolls (1, 1/6 or 1/36).
    fn each_roll(&self, mut f: impl FnMut(u32, u32, u8, u8, f64)) {
        let rolls = |h: u32| if h == 0 { 0..=0u8 } else { 1..=6u8 };
        for ha in 0..=self.pools[0].dice as u32 {
            for hd in 0..=self.pools[1].dice as u32 {
                let wa = if hd == 0 { 1.0 } else { 1.0 / 6.0 };
                let wd = if ha == 0 { 1.0 } else { 1.0 / 6.0 };
                for ra in rolls(hd) {
                    for rd in rolls(ha) {
                        f(ha, hd, ra, rd, wa * wd);
                    }
                }
            }
        }
    }

    /// True when some roll ends in `leaf`.
    pub fn reachable(&self, leaf: Leaf) -> bool {
        self.reachable[leaf as usize]
    }

    /// Reads the melee keys of a step ([`MELEE_KEYS`]) for `round`, and the
    /// two stands.
    pub fn read<'u>(
        f: &mut Fields,
        units: &'u [Stand],
        round: u8,
    ) -> Result<(&'u Stand, &'u Stand, MeleeInput), InputError> {
        f.has("procedure");
        let attacker = find(f, "attacker", units)?;
        let defender = find(f, "defender", units)?;
        if attacker.name == defender.name {
            return Err(f.err("defender", "a stand cannot fight itself"));
        }
        let attack_on = f
            .named("attack_on", "aspect", Aspect::from_name, &Aspect::names())?
            .unwrap_or(Aspect::Front);
        let behind = f.bool("commenced_behind_front")?;
        if behind.is_some() && attack_on == Aspect::Front {
            return Err(f.err(
                "commenced_behind_front",
                "`commenced_behind_front` is for a flank or rear attack (attack_on)",
            ));
        }
        let input = MeleeInput {
            charge: f.bool("charge")?.unwrap_or(true),
            attack_on,
            commenced_behind_front: behind.unwrap_or(attack_on != Aspect::Front),
            higher: f.named("higher", "side", Role::from_name, &Role::names())?,
            left_town: f.flag("left_town")?,
            hold_town: f.flag("hold_town")?,
            round,
            extra_dice: [
                f.int("attacker_extra_dice", -6, 6)?.unwrap_or(0) as i8,
                f.int("defender_extra_dice", -6, 6)?.unwrap_or(0) as i8,
            ],
            extra_morale: [
                f.int("attacker_extra_morale", -6, 6)?.unwrap_or(0) as i8,
                f.int("defender_extra_morale", -6, 6)?.unwrap_or(0) as i8,
            ],
        };
        Ok((attacker, defender, input))
    }

    /// Reads a scenario step (see [`INFO`]): a single round, with hits.
    pub fn from_step(
        f: &mut Fields,
        units: &[Stand],
        readings: &Readings,
    ) -> Result<Melee, InputError> {
        let (a, d, input) = Melee::read(f, units, 1)?;
        let p = Melee::new(a, d, &input, readings, true).map_err(|e| relocate(f, e))?;
        finish(f)?;
        Ok(p)
    }

    /// One side's pool.
    pub fn pool(&self, role: Role) -> &SidePool {
        &self.pools[role as usize]
    }
    /// True when `role` becomes disordered in this round (and stays so).
    pub fn disorders(&self, role: Role) -> bool {
        !self.pools[role as usize].new_disorder.is_empty()
    }
    /// The result a leaf's category stands for.
    pub fn result_of(&self, leaf: Leaf) -> MeleeResult {
        let c = self.space.outcome_of(leaf) as u32;
        MeleeResult::ALL[self
            .cats
            .iter()
            .position(|&x| x == c)
            .expect("every category is a result")]
    }
    /// SP lost by `role` at a leaf.
    pub fn sp_lost(&self, leaf: Leaf, role: Role) -> u8 {
        self.space.value_of(leaf, role as usize) as u8
    }

    /// The leaf for the hits each side scored and the morale rolls (0 when
    /// a side took no hits and so did not test).
    #[inline]
    fn leaf(&self, ha: u32, hd: u32, ra: u8, rd: u8) -> Leaf {
        let (res_a, res_d) = match ha.cmp(&hd) {
            std::cmp::Ordering::Greater => (WON, LOST),
            std::cmp::Ordering::Equal => (DRAWN, DRAWN),
            std::cmp::Ordering::Less => (LOST, WON),
        };
        let lost = |s: usize, res: usize, h: u32, r: u8| -> u8 {
            if h == 0 {
                return 0;
            }
            let hm = self.pools[1 - s].dice as usize;
            self.loss[s][(res * (hm + 1) + h as usize) * 6 + r as usize - 1]
        };
        let la = lost(0, res_a, hd, ra);
        let ld = lost(1, res_d, ha, rd);
        let gone_a = la >= self.remaining[0];
        let gone_d = ld >= self.remaining[1];
        let r = match (gone_a, gone_d) {
            (true, true) => MeleeResult::BothDestroyed,
            (true, false) => MeleeResult::AttackerDestroyed,
            (false, true) => MeleeResult::DefenderDestroyed,
            _ if res_a == WON && self.holds[1] => MeleeResult::DefenderHolds,
            _ if res_a == WON => MeleeResult::AttackerWins,
            _ if res_d == WON && self.holds[0] => MeleeResult::AttackerHolds,
            _ if res_d == WON => MeleeResult::DefenderWins,
            _ => MeleeResult::Draw,
        };
        let cat = self.cats[r as usize] as usize;
        if self.with_hits {
            self.space
                .leaf(cat, &[la as i32, ld as i32, ha as i32, hd as i32])
        } else {
            self.space.leaf(cat, &[la as i32, ld as i32])
        }
    }
}

/// Refuses a fight the sheets forbid: "Foot will not charge MCS", except
/// close assaults on MCS in woods (Pike/P&S, Shot/Dragoons) and fights
/// into or out of a town (towns 3.0, 4.0). Also sanity of the town keys.
fn check(attacker: &Stand, defender: &Stand, input: &MeleeInput) -> Result<(), InputError> {
    if !attacker.kind.mounted() && defender.kind.mcs() {
        let woods_assault =
            defender.terrain == Terrain::Woods && terrain::woods(attacker.kind).assault_mcs;
        if !(woods_assault || in_town(defender) || in_town(attacker)) {
            return Err(key_err(
                "attacker",
                format!(
                    "Foot will not charge MCS (10.0): {} is {} and {} is {}; \
                     foot attack MCS only in woods (close assault) or across a town hex",
                    attacker.name, attacker.kind, defender.name, defender.kind
                ),
            ));
        }
    }
    if input.left_town && in_town(attacker) {
        return Err(key_err(
            "left_town",
            format!(
                "{} is still in a town; `left_town` is for a stand that has moved out (5.0)",
                attacker.name
            ),
        ));
    }
    if input.hold_town && !in_town(attacker) && !in_town(defender) {
        return Err(key_err(
            "hold_town",
            "`hold_town` is for a stand beaten in a town hex (3.3); neither stand is in a town",
        ));
    }
    Ok(())
}

impl Procedure for Melee {
    fn space(&self) -> &OutcomeSpace {
        &self.space
    }
    #[inline]
    fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
        let ha = roll_hits(dice, self.pools[0].dice, self.fives);
        let hd = roll_hits(dice, self.pools[1].dice, self.fives);
        let ra = if hd > 0 { dice.d6() } else { 0 };
        let rd = if ha > 0 { dice.d6() } else { 0 };
        self.leaf(ha, hd, ra, rd)
    }
    fn exact(&self, _budget: u64) -> Option<Result<Vec<f64>, EnumerationError>> {
        let pa = hits::distribution(self.pools[0].dice, self.fives);
        let pd = hits::distribution(self.pools[1].dice, self.fives);
        let mut out = vec![0.0; self.space.len()];
        self.each_roll(|ha, hd, ra, rd, w| {
            out[self.leaf(ha, hd, ra, rd) as usize] += pa[ha as usize] * pd[hd as usize] * w;
        });
        Some(Ok(out))
    }
}

/// The Melee chart.
pub fn charts() -> Vec<Chart> {
    let d = MELEE_DICE;
    let row = |v: String, s: &str| vec![v, s.to_string()];
    vec![Chart {
        id: "melee",
        title: "Melee".into(),
        rule: "10.0",
        headers: vec!["Dice".into(), "Modifier".into()],
        rows: vec![
            row("1D6".into(), "per remaining SP"),
            row(format!("{:+}D6", d.disordered), "if disordered"),
            row(format!("{:+}D6", d.uphill), "up hill"),
            row(
                format!("{:+}D6", d.enemy_flank),
                "fighting enemy flank (or rear)",
            ),
            row(
                "+?D6".into(),
                "Charge Bonus if charging in (army list; troop-types chart)",
            ),
            row(
                format!("{:+}D6", d.pike_rank_vs_foot),
                "2nd and 3rd rank of pikes vs foot (each; fighting frontally only)",
            ),
            row(
                format!("{:+}D6", d.pike_rank_vs_horse),
                "2nd and 3rd rank of pikes vs horse (each; fighting frontally only)",
            ),
            row(
                "none".into(),
                "Charge Bonus horse vs Pikes, P&S, Tercio (frontally)",
            ),
            row(
                format!("{:+}D6", d.shot_unsupported_vs_mcs),
                "Shot caught unsupported in the open by MCS",
            ),
            row(
                format!("{:+}D6", d.shot_unsupported_vs_lc),
                "Shot fighting unsupported in the open against LC",
            ),
            row(
                format!("{:+}D6", d.shot_no_cover_vs_cs),
                "Shot not in cover fighting any CS (additional)",
            ),
        ],
        notes: vec![
            "Hit on 6 or double 5; more hits wins, equal hits draw (ASSUMPTION 4(b))".into(),
            "Foot will not charge MCS (except close assault in woods, towns)".into(),
            "Stands charged in flank/rear by a stand commencing behind front disorder".into(),
            "Shot unsupported = not in cover (woods, town, defences) and not next to a CS".into(),
            "P&S bonus (ASSUMPTION): as one rank of pikes, fighting frontally".into(),
            "Each side hit tests morale (8.0): loser max 2SP, winner or draw 1SP".into(),
        ],
    }]
}
