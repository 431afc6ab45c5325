//! The Close Combat Table and the procedure `close-combat`: both sides test
//! their TQ and each suffers its own result (status, step-loss roll,
//! commander-injury roll).
//!
//! The lower-total-CC-value modifier (−1) goes to the side whose units'
//! `cc_value` is lower (docs/rules/hakkaa.md section 2: a per-unit input); `lower_cc_value`
//! on the step names the side instead. Units manning field works test with
//! +1.

use super::casualties::{self, Injury, StepRoll};
use super::closing::CONTACT;
use super::draw::{self, Draw};
use super::explain::why::{Tested, Why};
use super::pair::{self, Ranges};
use super::row::all_row_chart;
use super::tq::extra_tq;
use super::tq::{Readings, Situation, TestKind, Tester, Tq, TqTest, read_extra_tq};
use super::unit::{Effect, Status, Unit, UnitState, check_pair};
use crate::error::InputError;
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::scenario::Fields;
use crate::systems::{Chart, KeyDoc, ProcedureInfo};

/// A cell of the Close Combat Table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CcCell {
    /// Status result: "-", D or F.
    pub effect: Effect,
    /// Commander-injury roll.
    pub injury: Injury,
    /// Step-loss roll.
    pub step: StepRoll,
}

impl CcCell {
    /// As printed: "-", "D * S6", "F ** S5+".
    pub fn cell(&self) -> String {
        let e = match self.effect {
            Effect::None => "-",
            Effect::Disorder => "D",
            Effect::FallBackOrFlee => "F",
        };
        casualties::cell(e, self.injury, self.step)
    }
}

const fn cc(effect: Effect, injury: Injury, step: StepRoll) -> CcCell {
    CcCell {
        effect,
        injury,
        step,
    }
}

/// Close combat table, row "All": DS, S, F, DF of each side's test.
pub const CLOSE_COMBAT_TABLE: [CcCell; 4] = [
    cc(Effect::None, Injury::None, StepRoll::None),
    cc(Effect::Disorder, Injury::On6, StepRoll::On6),
    cc(Effect::FallBackOrFlee, Injury::On5, StepRoll::On5),
    cc(Effect::FallBackOrFlee, Injury::On5, StepRoll::On4),
];

/// The Close Combat Table cell for a TQ result.
pub fn cell(tq: Tq) -> CcCell {
    CLOSE_COMBAT_TABLE[tq as usize]
}

/// Which side of a close combat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The attacker (the charger).
    Attacker,
    /// The defender (the target).
    Defender,
}

/// The side with the lower CC value, when both units have one and they
/// differ.
pub fn lower_side(attacker: &Unit, defender: &Unit) -> Option<Side> {
    match (attacker.cc_value, defender.cc_value) {
        (Some(a), Some(d)) if a < d => Some(Side::Attacker),
        (Some(a), Some(d)) if d < a => Some(Side::Defender),
        _ => None,
    }
}

/// Options of a close combat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CcOptions {
    /// Which side has the lower total CC value: `Some(None)` for neither;
    /// `None` to compare the units' `cc_value`.
    pub lower_cc_value: Option<Option<Side>>,
    /// Further TQ modifier of the attacker's test.
    pub attacker_extra_tq: i8,
    /// Further TQ modifier of the defender's test.
    pub defender_extra_tq: i8,
    /// The step keys of the two further modifiers (for `pikeshot explain`).
    pub extra_keys: [&'static str; 2],
}

impl CcOptions {
    /// Reads `lower_cc_value` naming the sides `attacker` / `defender` (or
    /// `charger` / `target` in a charge) and the two extra keys.
    pub fn read(
        f: &mut Fields,
        names: [&'static str; 2],
        extras: [&'static str; 2],
    ) -> Result<CcOptions, InputError> {
        let accepted = [names[0], names[1], "neither"];
        let lower = f.named(
            "lower_cc_value",
            "side",
            |s| match s {
                _ if s == names[0] => Some(Some(Side::Attacker)),
                _ if s == names[1] => Some(Some(Side::Defender)),
                "neither" => Some(None),
                _ => None,
            },
            &accepted,
        )?;
        Ok(CcOptions {
            lower_cc_value: lower,
            attacker_extra_tq: read_extra_tq(f, extras[0])?,
            defender_extra_tq: read_extra_tq(f, extras[1])?,
            extra_keys: extras,
        })
    }
}

/// What `pikeshot list` says of `close-combat`.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "close-combat",
    rule: "Close combat table",
    summary: "both sides test TQ on the Close Combat Table; each suffers its result (D / F, step loss S6 / S5+ / S4+, commander * / **)",
    keys: &[
        KeyDoc::unit("attacker", "required: the attacking unit (reported as own)"),
        KeyDoc::unit(
            "defender",
            "required: the defending unit (reported as target)",
        ),
        KeyDoc::one_of(
            "lower_cc_value",
            &["attacker", "defender", "neither"],
            "the side with the lower total CC value, -1 (default: compare the units' cc_value)",
        ),
        extra_tq(
            "attacker_extra_tq",
            "further modifier of the attacker's test",
        )
        .doc(),
        extra_tq(
            "defender_extra_tq",
            "further modifier of the defender's test",
        )
        .doc(),
    ],
    outcomes: &pair::TARGET_OUTCOMES,
    measures: &pair::with_extras::<6>(&[CONTACT]),
};

/// The procedure `close-combat`.
#[derive(Clone, Debug)]
pub struct CloseCombat {
    attacker_test: TqTest,
    defender_test: TqTest,
    attacker: UnitState,
    defender: UnitState,
    space: OutcomeSpace,
    /// What `pikeshot explain` reads of how the procedure was built.
    why: Box<Why>,
}

impl CloseCombat {
    /// `attacker` against `defender`, both in their states.
    pub fn new(
        attacker: &Unit,
        defender: &Unit,
        o: &CcOptions,
        readings: Readings,
    ) -> Result<CloseCombat, InputError> {
        const NOT_IN_CC: &str = ": not in close combat";
        check_pair(
            attacker,
            defender,
            "defender",
            "fight",
            &[
                ("attacker", attacker, NOT_IN_CC),
                ("defender", defender, NOT_IN_CC),
            ],
        )?;
        let lower = o
            .lower_cc_value
            .unwrap_or_else(|| lower_side(attacker, defender));
        let situation = |side: Side, extra: i8| Situation {
            kind: TestKind::CloseCombat,
            lower_cc_value: lower == Some(side),
            single_unit: false,
            extra,
        };
        let test = |u: &Unit, side: Side, extra: i8| {
            *Tester::new(u, &situation(side, extra), readings.tq_mode).get(&u.state)
        };
        let tested = |u: &Unit, side: Side, extra: i8, key: &'static str| {
            Tested::new(u, TestKind::CloseCombat, extra, key).in_situation(situation(side, extra))
        };
        let keys = o.extra_keys;
        let why = Box::new(Why {
            tests: vec![
                tested(attacker, Side::Attacker, o.attacker_extra_tq, keys[0]),
                tested(defender, Side::Defender, o.defender_extra_tq, keys[1]),
            ],
            lines: Vec::new(),
            notes: vec![match (o.lower_cc_value, attacker.cc_value, defender.cc_value) {
                (Some(_), _, _) => "lower total CC value: as the step's lower_cc_value says".into(),
                (None, Some(a), Some(d)) => format!(
                    "lower total CC value: {} cc_value {a} against {} cc_value {d}",
                    attacker.name, defender.name
                ),
                (None, _, _) => {
                    "lower total CC value: neither (a unit has no cc_value and the step no lower_cc_value)".into()
                }
            }],
        });
        let space = pair::space(
            Ranges {
                target_losses: 1,
                target_commander: defender.state.commander,
                own_losses: 1,
                own_commander: attacker.state.commander,
            },
            vec![Measure::new(CONTACT, 0, 1)],
        );
        Ok(CloseCombat {
            attacker_test: test(attacker, Side::Attacker, o.attacker_extra_tq),
            defender_test: test(defender, Side::Defender, o.defender_extra_tq),
            attacker: attacker.state,
            defender: defender.state,
            space,
            why,
        })
    }

    /// The attacker's and the defender's tests.
    pub fn tests(&self) -> (&TqTest, &TqTest) {
        (&self.attacker_test, &self.defender_test)
    }

    /// Runs once on any [`Draw`].
    #[inline]
    pub fn run<W: Draw>(&self, w: &mut W) -> Leaf {
        let ra = w.test(&self.attacker_test);
        let rd = w.test(&self.defender_test);
        let mut a = self.attacker;
        let mut d = self.defender;
        let mut moved = false;
        for (s, r) in [(&mut a, ra), (&mut d, rd)] {
            let c = cell(r);
            moved |= moves_back(s.status, c.effect);
            s.status = s.status.after(c.effect);
            casualties::suffer(w, s, c.step, c.injury);
            moved |= s.eliminated();
        }
        let contact = !moved as i32;
        pair::leaf(
            &self.space,
            (&self.defender, &d),
            (&self.attacker, &a),
            &[contact],
        )
    }
}

draw::draw_procedure!(CloseCombat, why);

/// True when `effect` moves a unit of status `status` back out of contact:
/// "Fall Back if Disordered" on a Disordered (or fallen-back) unit, and F
/// (Fall Back, or Flee if Disordered). "-" and D on a steady unit leave it
/// in place (docs/rules/hakkaa.md, section 7, "Contact").
pub fn moves_back(status: Status, effect: Effect) -> bool {
    match effect {
        Effect::None => false,
        Effect::Disorder => status.is_disordered(),
        Effect::FallBackOrFlee => true,
    }
}

/// The Close Combat Table and its key.
pub fn charts() -> Vec<Chart> {
    vec![all_row_chart(
        "close-combat",
        "Close combat table",
        "Close Combat",
        CLOSE_COMBAT_TABLE.iter().map(CcCell::cell),
        vec![
            "Each side tests its TQ and suffers the result of its own test".into(),
            "- unit status unchanged; D: Fall Back if Disordered, Disorder if not; F: Flee if Disordered, Fall Back if not".into(),
            "S4+ / S5+ / S6: a step loss on a single die roll of 4+ / 5+ / 6".into(),
            "* / **: any attached commander is injured on a single die roll of 6 / 5+".into(),
        ],
    )]
}
