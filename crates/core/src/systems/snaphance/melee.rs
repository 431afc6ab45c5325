//! Melee [10.0], procedure `melee`: one round between an attacker and a
//! defender. Each side throws one d6 per remaining SP, whole dice added or
//! taken away by the chart's modifiers and the terrain sheet; each 6 and
//! each double 5 hits the other side. The side that scores more hits wins
//! (docs/rules/snaphance.md section 4); equal hits draw. Each side hit takes its morale test
//! (8.0) and loses at most 2 SP if it lost, 1 SP on a win or a draw (and the
//! other caps). A course's `repeat` fights rounds until one side is beaten
//! or destroyed (see [`super::course`]).

use super::Aspect;
use super::hits::{self, roll_hits};
use super::morale::{self, After, MoraleCheck, MoraleWhy, loss_cap};
use super::readings::{Fives, Readings};
use super::terrain::{self, Terrain};
use super::unit::{Stand, find, finish, key_err, relocate};
use crate::dice::{Dice, EnumerationError};
use crate::error::InputError;
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::Fields;
use crate::systems::Key;
use crate::systems::{KeyDoc, ProcedureInfo};

use super::melee_dice::in_town;
pub use super::melee_dice::{MELEE_DICE, MeleeDice, MeleeInput, Role, SidePool, charts, side_pool};

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
    /// Each side's morale test, line by line, for `pikeshot explain`.
    why: Box<[MoraleWhy; 2]>,
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

/// `higher`, declared once: its doc and its reader.
pub(crate) const HIGHER: Key<Role> =
    Key::one_of("higher", "side", "the stand on the higher hex, +1D6");

/// `charge`, declared once: its doc and its reader.
pub(crate) const CHARGE: Key<bool> = Key::flag(
    "charge",
    "true: the attacker charges in, Charge Bonus (default true; first round only)",
);

/// `commenced_behind_front`, declared once: its doc and its reader.
pub(crate) const COMMENCED_BEHIND_FRONT: Key<bool> = Key::flag(
    "commenced_behind_front",
    "true: a flank/rear attacker began behind the defender's front: the defender disorders (default true for flank/rear)",
);

/// `left_town`, declared once: its doc and its reader.
pub(crate) const LEFT_TOWN: Key<bool> = Key::flag(
    "left_town",
    "true: the attacker left a town to attack, no Charge Bonus for combat stands (5.0)",
);

/// `hold_town`, declared once: its doc and its reader.
pub(crate) const HOLD_TOWN: Key<bool> = Key::flag(
    "hold_town",
    "true: a stand beaten in a town stays, +1 SP lost, melee ongoing (3.3)",
);

/// `attacker_extra_dice`, declared once: its doc and its reader.
pub(crate) const ATTACKER_EXTRA_DICE: Key<i64> = Key::int(
    "attacker_extra_dice",
    -6,
    6,
    "further dice for the attacker",
);

/// `defender_extra_dice`, declared once: its doc and its reader.
pub(crate) const DEFENDER_EXTRA_DICE: Key<i64> = Key::int(
    "defender_extra_dice",
    -6,
    6,
    "further dice for the defender",
);

/// `attacker_extra_morale`, declared once: its doc and its reader.
pub(crate) const ATTACKER_EXTRA_MORALE: Key<i64> = Key::int(
    "attacker_extra_morale",
    -6,
    6,
    "added to the attacker's adjusted morale",
);

/// `defender_extra_morale`, declared once: its doc and its reader.
pub(crate) const DEFENDER_EXTRA_MORALE: Key<i64> = Key::int(
    "defender_extra_morale",
    -6,
    6,
    "added to the defender's adjusted morale",
);

/// The keys of `melee`.
pub const MELEE_KEYS: &[KeyDoc] = &[
    KeyDoc::unit("attacker", "the stand that attacks"),
    KeyDoc::unit("defender", "the stand attacked"),
    CHARGE.doc(),
    KeyDoc::one_of(
        "attack_on",
        super::Aspect::NAMES,
        "where on the defender the attack lands: flank or rear +1D6, no pike bonus for the defender",
    )
    .or("front"),
    COMMENCED_BEHIND_FRONT.doc(),
    HIGHER.doc(),
    LEFT_TOWN.doc(),
    HOLD_TOWN.doc(),
    ATTACKER_EXTRA_DICE.doc(),
    DEFENDER_EXTRA_DICE.doc(),
    ATTACKER_EXTRA_MORALE.doc(),
    DEFENDER_EXTRA_MORALE.doc(),
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
        let mut why: Box<[MoraleWhy; 2]> = Box::default();
        for s in 0..2 {
            let me = stands[s];
            let foe = stands[1 - s];
            let check = MoraleCheck::new(
                me,
                pools[s].disordered,
                input.extra_morale[s],
                readings.sp_loss,
            );
            let key = ["attacker_extra_morale", "defender_extra_morale"][s];
            why[s] = MoraleWhy {
                name: me.name.clone(),
                terms: morale::terms(me, pools[s].disordered, input.extra_morale[s], key),
                caps: Vec::new(),
            };
            let h_max = pools[1 - s].dice as usize;
            let mut t = vec![0u8; 3 * (h_max + 1) * 6];
            for (res, after) in [
                (WON, After::MeleeWon),
                (DRAWN, After::MeleeDraw),
                (LOST, After::MeleeLost),
            ] {
                let (cap, lines) = loss_cap(after, me, Some(foe));
                for l in lines {
                    if !why[s].caps.contains(&l) {
                        why[s].caps.push(l);
                    }
                }
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
            Measure::new("attacker-sp-lost", 0, max_loss[0] as i32).labelled("attacker SP lost"),
            Measure::new("defender-sp-lost", 0, max_loss[1] as i32).labelled("defender SP lost"),
        ];
        if with_hits {
            measures.push(
                Measure::new("attacker-hits", 0, pools[0].dice as i32).labelled("attacker hits"),
            );
            measures.push(
                Measure::new("defender-hits", 0, pools[1].dice as i32).labelled("defender hits"),
            );
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
            why,
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

    /// Each side's pool (attacker, defender).
    pub fn pools(&self) -> &[SidePool; 2] {
        &self.pools
    }
    /// Each side's morale test, line by line (attacker, defender).
    pub fn morale_why(&self) -> &[MoraleWhy; 2] {
        &self.why
    }
    /// A beaten stand in a town holds (attacker, defender; towns 3.3).
    pub fn holds(&self) -> [bool; 2] {
        self.holds
    }
    /// How fives score (`[rules] fives`).
    pub fn fives(&self) -> Fives {
        self.fives
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
        let behind = COMMENCED_BEHIND_FRONT.read(f)?;
        if behind.is_some() && attack_on == Aspect::Front {
            return Err(f.err(
                "commenced_behind_front",
                "`commenced_behind_front` is for a flank or rear attack (attack_on)",
            ));
        }
        let input = MeleeInput {
            charge: CHARGE.read(f)?.unwrap_or(true),
            attack_on,
            commenced_behind_front: behind.unwrap_or(attack_on != Aspect::Front),
            higher: HIGHER.read(f)?,
            left_town: LEFT_TOWN.get(f)?,
            hold_town: HOLD_TOWN.get(f)?,
            round,
            extra_dice: [
                ATTACKER_EXTRA_DICE.read(f)?.unwrap_or(0) as i8,
                DEFENDER_EXTRA_DICE.read(f)?.unwrap_or(0) as i8,
            ],
            extra_morale: [
                ATTACKER_EXTRA_MORALE.read(f)?.unwrap_or(0) as i8,
                DEFENDER_EXTRA_MORALE.read(f)?.unwrap_or(0) as i8,
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
