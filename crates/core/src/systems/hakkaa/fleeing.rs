//! The Fleeing units table and the procedure `fleeing`: a fleeing unit tests
//! its TQ to rally; if it does not, it makes a Flee move and loses a step on
//! a single die roll of 4 or more.
//!
//! R_Y rallies; R_C rallies if a commander is attached *or* a friendly
//! non-fleeing unit is visible and closer than the nearest visible enemy
//! (`friend_closer`); R_F+C needs both; otherwise, and on DF, Flee^S4.

use super::casualties::StepRoll;
use super::draw::{self, Draw};
use super::explain::why::{Tested, Why};
use super::row::all_row_chart;
use super::tq::extra_tq;
use super::tq::{Readings, Situation, TestKind, Tester, Tq, TqTest, key_err, read_extra_tq};
use super::unit::{Status, Unit, UnitState};
use crate::error::InputError;
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::scenario::Fields;
use crate::systems::Key;
use crate::systems::{Chart, KeyDoc, ProcedureInfo};

/// A cell of the Fleeing units table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FleeResult {
    /// R_Y: rally.
    Rally,
    /// R_C: rally if a commander is attached or a friend is closer.
    RallyIfCommanderOrFriend,
    /// R_F+C: rally if a commander is attached and a friend is closer.
    RallyIfCommanderAndFriend,
    /// Flee^S4: flee move, step loss on 4+.
    Flee,
}

impl FleeResult {
    /// As printed.
    pub fn cell(self) -> &'static str {
        ["R_Y", "R_C", "R_F+C", "Flee^S4"][self as usize]
    }
    /// Whether the unit rallies.
    pub fn rallies(self, commander: bool, friend_closer: bool) -> bool {
        match self {
            FleeResult::Rally => true,
            FleeResult::RallyIfCommanderOrFriend => commander || friend_closer,
            FleeResult::RallyIfCommanderAndFriend => commander && friend_closer,
            FleeResult::Flee => false,
        }
    }
}

/// Fleeing units table, row "All": DS, S, F, DF.
pub const FLEEING_TABLE: [FleeResult; 4] = [
    FleeResult::Rally,
    FleeResult::RallyIfCommanderOrFriend,
    FleeResult::RallyIfCommanderAndFriend,
    FleeResult::Flee,
];

/// The step-loss roll of a Flee^S4 result.
pub const FLEE_STEP_LOSS: StepRoll = StepRoll::On4;

/// Outcome labels of `fleeing`.
pub const OUTCOMES: [&str; 3] = ["rally", "flee", "eliminated"];

/// Options of a fleeing test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FleeOptions {
    /// A friendly non-fleeing unit is visible and closer than the nearest
    /// visible enemy.
    pub friend_closer: bool,
    /// The status a rallied unit takes (default Disordered).
    pub rally_status: Status,
    /// Whether the Disordered modifier applies (default: a fleeing unit
    /// counts as Disordered).
    pub disordered: bool,
    /// Further TQ modifier.
    pub extra_tq: i8,
}

impl Default for FleeOptions {
    fn default() -> FleeOptions {
        FleeOptions {
            friend_closer: false,
            rally_status: Status::Disordered,
            disordered: true,
            extra_tq: 0,
        }
    }
}

/// The statuses `rally_status` may name.
pub const RALLY_STATUSES: [&str; 2] = ["disordered", "steady"];

impl FleeOptions {
    /// Reads the options of a `fleeing` step.
    pub fn read(f: &mut Fields) -> Result<FleeOptions, InputError> {
        let d = FleeOptions::default();
        Ok(FleeOptions {
            friend_closer: FRIEND_CLOSER.get(f)?,
            rally_status: f
                .named(
                    "rally_status",
                    "status",
                    |s| match s {
                        "disordered" => Some(Status::Disordered),
                        "steady" => Some(Status::Steady),
                        _ => None,
                    },
                    &RALLY_STATUSES,
                )?
                .unwrap_or(d.rally_status),
            disordered: DISORDERED.read(f)?.unwrap_or(d.disordered),
            extra_tq: read_extra_tq(f, "extra_tq")?,
        })
    }
}

/// `friend_closer`, declared once: its doc and its reader.
pub(crate) const FRIEND_CLOSER: Key<bool> = Key::flag(
    "friend_closer",
    "true: a friendly non-fleeing unit is visible and closer than the nearest visible enemy (default false)",
);

/// `disordered`, declared once: its doc and its reader.
pub(crate) const DISORDERED: Key<bool> = Key::flag(
    "disordered",
    "false: the fleeing unit tests without the Disordered -1 (default true)",
);

/// What `pikeshot list` says of `fleeing`.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "fleeing",
    rule: "Fleeing units table",
    summary: "a fleeing unit's TQ test: rally (R_Y; R_C commander or friend; R_F+C both) or Flee with a step loss on 4+",
    keys: &[
        KeyDoc::unit(
            "unit",
            "required: the fleeing unit (its status must be fled)",
        ),
        FRIEND_CLOSER.doc(),
        KeyDoc::one_of(
            "rally_status",
            &RALLY_STATUSES,
            "the status a rallied unit takes",
        )
        .or("disordered"),
        DISORDERED.doc(),
        extra_tq("extra_tq", "further TQ modifier").or("0").doc(),
    ],
    outcomes: &OUTCOMES,
    measures: &["step-losses"],
};

/// The procedure `fleeing`.
#[derive(Clone, Debug)]
pub struct Fleeing {
    test: TqTest,
    rallies: [bool; 4],
    one_step: bool,
    rally_status: Status,
    space: OutcomeSpace,
    /// What `pikeshot explain` reads of how the procedure was built.
    why: Box<Why>,
}

impl Fleeing {
    /// The fleeing test of `unit` (whose status must be fled).
    pub fn new(unit: &Unit, o: &FleeOptions, readings: Readings) -> Result<Fleeing, InputError> {
        if unit.state.status != Status::Fled || unit.state.eliminated() {
            return Err(key_err(
                "unit",
                format!(
                    "{} is not fleeing: the Fleeing units table is for fleeing units (set its `status = \"fled\"`)",
                    unit.name
                ),
            ));
        }
        let tester = Tester::new(
            unit,
            &Situation::of(TestKind::General).with_extra(o.extra_tq),
            readings.tq_mode,
        );
        let as_tested = UnitState {
            status: if o.disordered {
                Status::Fled
            } else {
                Status::Steady
            },
            ..unit.state
        };
        let why = Box::new(Why {
            tests: vec![Tested::new(
                &unit.in_state(as_tested),
                TestKind::General,
                o.extra_tq,
                "extra_tq",
            )],
            lines: Vec::new(),
            notes: vec![
                format!(
                    "{}: commander {}; a friendly non-fleeing unit closer than the nearest enemy: {} (friend_closer)",
                    unit.name,
                    if unit.state.commander {
                        "attached"
                    } else {
                        "not attached"
                    },
                    if o.friend_closer { "yes" } else { "no" }
                ),
                format!(
                    "a rallied unit becomes {} (rally_status); the Disordered modifier {} (disordered)",
                    o.rally_status,
                    if o.disordered {
                        "applies: a fleeing unit counts as Disordered"
                    } else {
                        "is switched off by the step"
                    }
                ),
            ],
        });
        Ok(Fleeing {
            why,
            test: *tester.get(&as_tested),
            rallies: FLEEING_TABLE.map(|r| r.rallies(unit.state.commander, o.friend_closer)),
            one_step: unit.state.steps == 1,
            rally_status: o.rally_status,
            space: OutcomeSpace::from_labels(
                &OUTCOMES,
                vec![Measure::new("step-losses", 0, 1).labelled("step losses")],
            ),
        })
    }

    /// Whether each result (DS, S, F, DF) rallies.
    pub fn rallies(&self) -> [bool; 4] {
        self.rallies
    }
    /// The test.
    pub fn test(&self) -> &TqTest {
        &self.test
    }

    /// The state after a leaf, from the state before.
    pub fn after(&self, leaf: Leaf, before: &UnitState) -> UnitState {
        let mut s = *before;
        match self.space.outcome_of(leaf) {
            0 => s.status = self.rally_status,
            1 => s.steps -= self.space.value_of(leaf, 0) as u8,
            _ => s.steps = 0,
        }
        s
    }

    /// Runs once on any [`Draw`].
    #[inline]
    pub fn run<W: Draw>(&self, w: &mut W) -> Leaf {
        let r: Tq = w.test(&self.test);
        if self.rallies[r as usize] {
            return self.space.leaf(0, &[0]);
        }
        let need = FLEE_STEP_LOSS.need().expect("Flee^S4 rolls");
        let loss = w.roll(need);
        if loss && self.one_step {
            self.space.leaf(2, &[1])
        } else {
            self.space.leaf(1, &[loss as i32])
        }
    }
}

draw::draw_procedure!(Fleeing, why);

/// The Fleeing units table and its key.
pub fn charts() -> Vec<Chart> {
    vec![all_row_chart(
        "fleeing",
        "Fleeing units table",
        "Fleeing",
        FLEEING_TABLE.iter().map(|r| r.cell().to_string()),
        vec![
            "Flee^S4: make a Flee move; step loss on a single die roll of 4 or more".into(),
            "R_F+C: rally if a commander is attached and a friendly non-fleeing unit is visible and closer than the nearest visible enemy unit [friend_closer], otherwise Flee^S4".into(),
            "R_C: rally if a commander is attached or such a friendly unit is closer, otherwise Flee^S4".into(),
            "R_Y: rally".into(),
        ],
    )]
}
