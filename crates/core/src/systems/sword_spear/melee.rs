//! One round of melee (procedure `melee`): the situation of each side as
//! the step's keys give it, and the round resolved by the combat process
//! ([`super::combat`]) on the combat dice of [`super::impetus`].

use crate::systems::Key;
use std::sync::{Arc, OnceLock};

use super::combat::{
    Clash, ClashProcedure, ClashResult, ClashRules, ClashSide, DiceFrom, MAX_DICE,
};
use super::discipline::discipline_terms;
pub use super::impetus::{NO_IMPETUS, NoImpetus, SideDice, charts, combat_dice};
use super::readings::Readings;
use super::unit::{Armour, Unit, find_unit, finish_step};

use crate::error::InputError;
use crate::explain::Term;
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::scenario::Fields;
use crate::systems::{KeyDoc, Kind, ProcedureInfo};

/// `pursuit`, declared once: its doc and its reader.
pub(crate) const PURSUIT: Key<bool> = Key::flag(
    "pursuit",
    "true: the combat is the result of a pursuit (no impetus for either)",
);

/// `obstacle`, declared once: its doc and its reader.
pub(crate) const OBSTACLE: Key<bool> = Key::flag(
    "obstacle",
    "true: fighting across an obstacle or stakes (no impetus for a side that charged)",
);

/// Most extra units in contact one side may count.
pub const MAX_EXTRA_UNITS: u8 = 3;

/// One side's situation in a melee (the `attacker_*` / `defender_*` keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Situation {
    /// Charged this phase.
    pub charged: bool,
    /// Moved this phase (charging, manoeuvring and group moves count too).
    pub moved: bool,
    /// Carried out a manoeuvre this phase.
    pub manoeuvred: bool,
    /// Moved as part of a group this phase.
    pub group_moved: bool,
    /// Shot this phase.
    pub shot: bool,
    /// In contact with the opponent's flank or rear.
    pub flank: bool,
    /// Fighting uphill (the higher side).
    pub uphill: bool,
    /// Extra units of its side in contact.
    pub extra_units: u8,
    /// Bonus dice from the action dice (part of impetus).
    pub bonus_dice: u8,
    /// Magical bonus dice (part of impetus).
    pub magic_dice: u8,
    /// Claims impetus at all (false: none whatever the conditions).
    pub impetus: bool,
    /// Dice added at the end.
    pub extra_dice: i32,
    /// Added to the adjusted Discipline for its tests.
    pub extra_discipline: i32,
}

impl Default for Situation {
    fn default() -> Situation {
        Situation {
            charged: false,
            moved: false,
            manoeuvred: false,
            group_moved: false,
            shot: false,
            flank: false,
            uphill: false,
            extra_units: 0,
            bonus_dice: 0,
            magic_dice: 0,
            impetus: true,
            extra_dice: 0,
            extra_discipline: 0,
        }
    }
}

impl Situation {
    /// Moved this phase in any way (a charge, manoeuvre or group move is a move).
    pub fn moved_at_all(&self) -> bool {
        self.moved || self.charged || self.manoeuvred || self.group_moved
    }
    /// The situation a later phase of the same melee starts in: nothing
    /// done this phase, no action bonus; contacts, ground, magic and
    /// extras stay.
    pub fn next_phase(&self) -> Situation {
        Situation {
            flank: self.flank,
            uphill: self.uphill,
            extra_units: self.extra_units,
            magic_dice: self.magic_dice,
            impetus: self.impetus,
            extra_dice: self.extra_dice,
            extra_discipline: self.extra_discipline,
            // What the phase did, and its action bonus, start afresh.
            ..Situation::default()
        }
    }
}

/// Everything a round of melee is built from; side 0 is the attacker,
/// side 1 the defender.
#[derive(Clone, Debug, PartialEq)]
pub struct MeleeInput {
    /// Attacker and defender.
    pub units: [Unit; 2],
    /// Their situations.
    pub sides: [Situation; 2],
    /// The combat results from a pursuit.
    pub pursuit: bool,
    /// The units fight across an obstacle or stakes.
    pub obstacle: bool,
    /// Dice from strength once a unit has hits.
    pub dice_from: DiceFrom,
    /// Combat switches.
    pub rules: ClashRules,
    /// A mounted side that does not rout pursues a routed opponent.
    pub mounted_pursue: bool,
    /// Bonus and magic dice are part of impetus and lost with it.
    pub bonus_needs_impetus: bool,
    /// `None` for the round of the step's phase; `Some(impetus)` for a
    /// later round of a repeated melee, `impetus` being `[rules]
    /// later_rounds_impetus`.
    pub later: Option<bool>,
}

/// Reads one side's keys, prefixed `attacker_` or `defender_`. A course
/// passes a pending activation bonus and "shot this phase" through the unit.
macro_rules! read_side {
    ($f:expr, $p:literal, $unit:expr) => {{
        let unit: &Unit = $unit;
        Situation {
            charged: $f.flag(concat!($p, "_charged"))?,
            moved: $f.flag(concat!($p, "_moved"))?,
            manoeuvred: $f.flag(concat!($p, "_manoeuvred"))?,
            group_moved: $f.flag(concat!($p, "_group_moved"))?,
            shot: $f
                .bool(concat!($p, "_shot"))?
                .unwrap_or(unit.shot_this_phase),
            flank: $f.flag(concat!($p, "_flank"))?,
            uphill: $f.flag(concat!($p, "_uphill"))?,
            extra_units: $f
                .int(concat!($p, "_extra_units"), 0, MAX_EXTRA_UNITS as i64)?
                .unwrap_or(0) as u8,
            bonus_dice: $f
                .int(concat!($p, "_bonus_dice"), 0, 8)?
                .map_or(unit.action_bonus, |b| b as u8),
            magic_dice: $f.int(concat!($p, "_magic_dice"), 0, 4)?.unwrap_or(0) as u8,
            impetus: $f.bool(concat!($p, "_impetus"))?.unwrap_or(true),
            extra_dice: $f.int(concat!($p, "_extra_dice"), -8, 8)?.unwrap_or(0) as i32,
            extra_discipline: $f
                .int(concat!($p, "_extra_discipline"), -3, 3)?
                .unwrap_or(0) as i32,
        }
    }};
}

/// The step keys of melee: shared, then each side's (`attacker_…` and
/// `defender_…`, each with the side's name before its help).
macro_rules! melee_keys {
    () => {
        melee_keys!(@side [
            KeyDoc::unit("attacker", "required: the attacking (charging) unit"),
            KeyDoc::unit("defender", "required: the defending unit"),
            PURSUIT.doc(),
            OBSTACLE.doc(),
        ] [
            ("charged", Kind::Bool, None, "true: charged this phase (counts as moved)"),
            ("moved", Kind::Bool, None, "true: moved this phase"),
            ("manoeuvred", Kind::Bool, None, "true: carried out a manoeuvre this phase (no impetus)"),
            ("group_moved", Kind::Bool, None, "true: moved as part of a group this phase (no impetus)"),
            ("shot", Kind::Bool, None, "true: shot this phase (no impetus for missile troops); default: shot earlier in the course"),
            ("flank", Kind::Bool, None, "true: in contact with the opponent's flank or rear (+1 die; the opponent loses impetus and fresh status)"),
            ("uphill", Kind::Bool, None, "true: fighting uphill (+1 die for medium or heavy foot)"),
            ("extra_units", Kind::Int { min: 0, max: MAX_EXTRA_UNITS as i64 }, Some("0"), "extra units in contact, +1 die each"),
            ("bonus_dice", Kind::Int { min: 0, max: 8 }, None, "bonus dice from the action dice (default: a pending activation bonus)"),
            ("magic_dice", Kind::Int { min: 0, max: 4 }, Some("0"), "magical bonus dice"),
            ("impetus", Kind::Bool, None, "false: claims no impetus at all (default true: the card's conditions decide)"),
            ("extra_dice", Kind::Int { min: -8, max: 8 }, Some("0"), "dice added last"),
            ("extra_discipline", Kind::Int { min: -3, max: 3 }, Some("0"), "added to its adjusted Discipline for tests"),
        ])
    };
    (@side [$($shared:expr,)*] [$(($k:literal, $kind:expr, $def:expr, $d:literal)),* $(,)?]) => {
        &[
            $($shared,)*
            $(
                KeyDoc { key: concat!("attacker_", $k), kind: $kind, default: $def, help: concat!("attacker: ", $d) },
                KeyDoc { key: concat!("defender_", $k), kind: $kind, default: $def, help: concat!("defender: ", $d) },
            )*
        ]
    };
}

impl MeleeInput {
    /// `attacker` against `defender`, nothing claimed beyond the defaults.
    pub fn new(attacker: Unit, defender: Unit) -> MeleeInput {
        MeleeInput {
            units: [attacker, defender],
            sides: [Situation::default(); 2],
            pursuit: false,
            obstacle: false,
            dice_from: DiceFrom::StrengthLessHits,
            rules: ClashRules::default(),
            mounted_pursue: true,
            bonus_needs_impetus: true,
            later: None,
        }
    }

    /// Reads the melee keys (shared and per side) of a step, without
    /// refusing other keys, under the scenario's `[rules]` `readings`.
    pub fn read(
        f: &mut Fields,
        units: &[Unit],
        readings: &Readings,
    ) -> Result<MeleeInput, InputError> {
        let a = find_unit(f, "attacker", units)?.clone();
        let d = find_unit(f, "defender", units)?.clone();
        let mut input = MeleeInput::new(a, d);
        input.sides[0] = read_side!(f, "attacker", &input.units[0]);
        input.sides[1] = read_side!(f, "defender", &input.units[1]);
        input.pursuit = PURSUIT.get(f)?;
        input.obstacle = OBSTACLE.get(f)?;
        input.dice_from = readings.dice_from;
        input.rules = readings.clash_rules();
        input.mounted_pursue = readings.mounted_pursue;
        input.bonus_needs_impetus = readings.bonus_needs_impetus;
        Ok(input)
    }

    /// The round this melee is fought in a later turn of a repeated course
    /// (docs/rules/sword-and-spear.md section 7): a later phase of the same
    /// melee. What the step says the sides did this phase (charged, moved,
    /// manoeuvred, group moved, shot, bonus dice) and `pursuit` held for the
    /// first round only; a side has shot this phase, or has a bonus, only
    /// when its unit carries one from earlier in the same turn. Neither side
    /// has impetus unless `impetus` (`[rules] later_rounds_impetus`), and then
    /// by the card's conditions. Contacts, ground, magic and extra dice stay.
    pub fn later_round(&self, impetus: bool) -> MeleeInput {
        let mut m = self.clone();
        for s in 0..2 {
            let mut side = m.sides[s].next_phase();
            side.shot = m.units[s].shot_this_phase;
            side.bonus_dice = m.units[s].action_bonus;
            if !impetus {
                side.impetus = false;
            }
            m.sides[s] = side;
        }
        m.pursuit = false;
        m.later = Some(impetus);
        m
    }
}

/// Outcome labels of a melee round (and of an engagement).
pub const OUTCOMES: [&str; 4] = [
    "neither routs",
    "attacker routs",
    "defender routs",
    "both rout",
];

/// The category of a result: 0 neither, 1 attacker, 2 defender, 3 both routed.
#[inline]
pub fn category(r: &ClashResult) -> usize {
    r.routed[0] as usize + 2 * r.routed[1] as usize
}

/// One round of melee.
#[derive(Clone, Debug)]
pub struct MeleeRound {
    space: OutcomeSpace,
    clash: Clash,
    dice: [SideDice; 2],
    detail: bool,
    commanders: [bool; 2],
    cache: Option<Arc<OnceLock<Vec<f64>>>>,
    /// What the round was built from, for `pikeshot explain`.
    input: Box<MeleeInput>,
    /// Each side's Discipline for its tests, term by term.
    tests: [Vec<Term>; 2],
}

/// What `pikeshot list` says of a melee round.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "melee",
    rule: "Melee Combat Dice; Combat Process; Effect of Armour",
    summary: "One round of melee: both sides' combat dice, top four paired, armour, hits and Discipline tests, rout, risk to commanders",
    keys: melee_keys!(),
    outcomes: &OUTCOMES,
    // What a `melee` step's course writes (docs/rules/sword-and-spear.md 9).
    measures: &[
        "own-morale",
        "hits-taken",
        "enemy-morale",
        "hits-inflicted",
        "tests-taken",
        "tests-inflicted",
        "NAME-commander-lost",
    ],
};

pub(crate) type Fail = (&'static str, InputError);

/// Which round of a melee a step is built as, and what it reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Round {
    /// `None`: the first round (the step's phase); `Some(impetus)`: a
    /// later round, with impetus by the card's conditions when `impetus`.
    pub later: Option<bool>,
    /// Report each side's Discipline tests as measures too.
    pub detail: bool,
}

impl Round {
    /// A step on its own: the first round, tests reported.
    pub fn single() -> Round {
        Round {
            later: None,
            detail: true,
        }
    }
}

impl MeleeRound {
    /// Builds a round. `detail`: report each side's Discipline tests as
    /// measures too (engagements leave them out).
    pub fn new(input: &MeleeInput, detail: bool) -> Result<MeleeRound, InputError> {
        MeleeRound::build(input, detail).map_err(|(k, e)| e.key(k))
    }

    pub(crate) fn build(input: &MeleeInput, detail: bool) -> Result<MeleeRound, Fail> {
        let [a, d] = &input.units;
        if a.name == d.name {
            return Err((
                "defender",
                InputError::new(format!("{} cannot fight itself", a.name)),
            ));
        }
        if input.sides[0].uphill && input.sides[1].uphill {
            return Err((
                "defender_uphill",
                InputError::new("only one side can be uphill of the other"),
            ));
        }
        for (s, key) in [(0, "attacker_shot"), (1, "defender_shot")] {
            if input.sides[s].shot && input.units[s].weapon.is_none() {
                return Err((
                    key,
                    InputError::new(format!(
                        "{} has no `weapon` and cannot have shot",
                        input.units[s].name
                    )),
                ));
            }
        }
        let dice = combat_dice(input);
        for (s, key) in [(0, "attacker_extra_dice"), (1, "defender_extra_dice")] {
            if dice[s].total > MAX_DICE {
                return Err((
                    key,
                    InputError::new(format!(
                        "{} combat dice: at most {MAX_DICE} a side",
                        dice[s].total
                    )),
                ));
            }
        }
        // Each side's Discipline for its tests, term by term (the record
        // the clash and `pikeshot explain` both read).
        let tests = [0, 1].map(|s| {
            discipline_terms(
                &input.units[s],
                input.sides[s].extra_discipline,
                ["attacker_extra_discipline", "defender_extra_discipline"][s],
            )
        });
        let sides = [0, 1].map(|s| {
            let (me, opp) = (&input.units[s], &input.units[1 - s]);
            ClashSide {
                reduce: me.armour.reduction(),
                raise: opp.armour == Armour::LackingProtection,
                pursued_by_mounted: input.mounted_pursue && opp.troop.is_mounted(),
                ..ClashSide::of(me, dice[s].total, crate::explain::sum(&tests[s]))
            }
        });
        let commanders = [sides[0].commander, sides[1].commander];
        let mut measures = vec![
            Measure::new("attacker-hits", 0, 4),
            Measure::new("defender-hits", 0, 4),
        ];
        if detail {
            measures.push(Measure::new("attacker-tests", 0, 4));
            measures.push(Measure::new("defender-tests", 0, 4));
        }
        if commanders[0] {
            measures.push(Measure::new("attacker-commander-killed", 0, 1));
        }
        if commanders[1] {
            measures.push(Measure::new("defender-commander-killed", 0, 1));
        }
        Ok(MeleeRound {
            space: OutcomeSpace::from_labels(&OUTCOMES, measures),
            clash: Clash::new(sides, input.rules),
            dice,
            detail,
            commanders,
            cache: None,
            input: Box::new(input.clone()),
            tests,
        })
    }

    /// Builds the step from its keys (in [`INFO`]) under the default
    /// readings.
    pub fn from_step(f: &mut Fields, units: &[Unit]) -> Result<MeleeRound, InputError> {
        MeleeRound::from_step_in(f, units, Round::single(), &Readings::default())
    }

    /// Builds the step from its keys as round `round` of a course, under
    /// the scenario's `[rules]` `readings`: the first round as the keys
    /// say, a later one as [`MeleeInput::later_round`] makes it.
    pub fn from_step_in(
        f: &mut Fields,
        units: &[Unit],
        round: Round,
        readings: &Readings,
    ) -> Result<MeleeRound, InputError> {
        let input = MeleeInput::read(f, units, readings)?;
        finish_step(f, INFO.keys)?;
        // The first round is built (and so checked) in every case.
        let first = MeleeRound::build(&input, round.detail).map_err(|(k, e)| f.locate(k, e))?;
        match round.later {
            None => Ok(first),
            Some(impetus) => MeleeRound::build(&input.later_round(impetus), round.detail)
                .map_err(|(k, e)| f.locate(k, e)),
        }
    }

    /// Shares exact results with every round built with the same cell
    /// (rounds that are the same procedure).
    pub fn with_cache(mut self, cell: Arc<OnceLock<Vec<f64>>>) -> MeleeRound {
        self.cache = Some(cell);
        self
    }

    /// Each side's combat dice, labelled.
    pub fn dice(&self) -> &[SideDice; 2] {
        &self.dice
    }
    /// What the round was built from.
    pub fn input(&self) -> &MeleeInput {
        &self.input
    }
    /// Each side's Discipline for its tests, term by term.
    pub fn tests(&self) -> &[Vec<Term>; 2] {
        &self.tests
    }
}

impl ClashProcedure for MeleeRound {
    fn clash(&self) -> &Clash {
        &self.clash
    }
    fn outcomes(&self) -> &OutcomeSpace {
        &self.space
    }
    #[inline]
    fn leaf_of(&self, r: &ClashResult) -> Leaf {
        let mut v = [0i32; 6];
        v[0] = r.hits[0] as i32;
        v[1] = r.hits[1] as i32;
        let mut k = 2;
        if self.detail {
            v[2] = r.tests[0] as i32;
            v[3] = r.tests[1] as i32;
            k = 4;
        }
        for s in 0..2 {
            if self.commanders[s] {
                v[k] = r.killed[s] as i32;
                k += 1;
            }
        }
        self.space.leaf(category(r), &v[..k])
    }
    fn shared(&self) -> Option<&OnceLock<Vec<f64>>> {
        self.cache.as_deref()
    }
}
