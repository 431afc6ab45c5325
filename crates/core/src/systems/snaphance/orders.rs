//! Order Test [4.5], procedure `order-test`: one d6 plus modifiers, passing
//! at the stand's class number or more (A 3+, B 4+, C 5+). Taken for extra
//! moves, recovering from disorder, and opportunity.

use super::Class;
use super::one_die::{OneDie, OneDieTest};
use super::terrain;
use super::unit::{Stand, find, finish};
use crate::error::InputError;
use crate::explain::{Source, Term, key_term, sum};
use crate::outcome::{Leaf, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::Fields;
use crate::systems::Key;
use crate::systems::chart::headers;
use crate::systems::named::named_enum;
use crate::systems::{Chart, KeyDoc, ProcedureInfo};

/// Order Test [4.5]: the lowest modified roll that passes, by class.
pub const PASS_ON: [(Class, u8); 3] = [(Class::A, 3), (Class::B, 4), (Class::C, 5)];

/// The Order Test modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderMods {
    /// Leader attached.
    pub leader_attached: i8,
    /// Out of range of leader, or leader dead.
    pub out_of_range_or_dead: i8,
    /// Each movement taken after the first this round.
    pub per_move_after_first: i8,
}

/// Order Test [4.5]: +1 leader attached; −1 out of range of leader (4H) or
/// leader dead; −1 each movement taken after first this round.
pub const ORDER_MODS: OrderMods = OrderMods {
    leader_attached: 1,
    out_of_range_or_dead: -1,
    per_move_after_first: -1,
};

/// Leader range for the order test, in hexes.
pub const LEADER_RANGE_HEXES: u8 = 4;

named_enum! {
    /// What the order test is for.
    Purpose {
        /// An extra move.
        ExtraMove = "extra-move",
        /// Recovering from disorder.
        Recover = "recover",
        /// Opportunity.
        Opportunity = "opportunity",
    }
}

/// The class's pass number.
pub fn pass_on(class: Class) -> u8 {
    PASS_ON
        .iter()
        .find(|(c, _)| *c == class)
        .map(|(_, n)| *n)
        .expect("every class has a pass number")
}

/// What an order test asks beyond the stand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OrderInput {
    /// What the test is for.
    pub purpose: Option<Purpose>,
    /// Out of range (4H) of its leader.
    pub out_of_leader_range: bool,
    /// Its leader is dead.
    pub leader_dead: bool,
    /// Movements already taken this round.
    pub moves_taken: u8,
    /// A further modifier.
    pub extra_mod: i8,
    /// In a course, whether a failure stops the course (`None`: stop,
    /// except for recovery).
    pub stop_on_fail: Option<bool>,
}

/// Outcome labels of an order test.
pub const OUTCOMES: [&str; 2] = ["pass", "fail"];

/// What `on_fail` may name.
pub const ON_FAIL: [&str; 2] = ["stop", "continue"];

/// `purpose`, declared once: its doc and its reader.
pub(crate) const PURPOSE: Key<Purpose> =
    Key::one_of("purpose", "purpose", "what the test is for").or("extra-move");

/// `out_of_leader_range`, declared once: its doc and its reader.
pub(crate) const OUT_OF_LEADER_RANGE: Key<bool> = Key::flag(
    "out_of_leader_range",
    "true: out of range of its leader (4H), -1",
);

/// `leader_dead`, declared once: its doc and its reader.
pub(crate) const LEADER_DEAD: Key<bool> = Key::flag(
    "leader_dead",
    "true: its leader is dead, -1 (once with out of range)",
);

/// `moves_taken`, declared once: its doc and its reader.
pub(crate) const MOVES_TAKEN: Key<i64> = Key::int(
    "moves_taken",
    0,
    6,
    "movements already taken this round; -1 each after the first",
);

/// `extra_mod`, declared once: its doc and its reader.
pub(crate) const EXTRA_MOD: Key<i64> = Key::int("extra_mod", -3, 3, "a further modifier").or("0");

/// What `pikeshot list` shows of `order-test`.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "order-test",
    rule: "4.5",
    summary: "Order Test: one d6 + modifiers, A passes on 3+, B on 4+, C on 5+",
    keys: &[
        KeyDoc::unit(
            "unit",
            "the stand testing (its class and leader from [units])",
        ),
        PURPOSE.doc(),
        OUT_OF_LEADER_RANGE.doc(),
        LEADER_DEAD.doc(),
        MOVES_TAKEN.doc(),
        EXTRA_MOD.doc(),
        KeyDoc::one_of(
            "on_fail",
            &ON_FAIL,
            "in a course, whether a failure ends it (default stop; recover: continue)",
        ),
    ],
    outcomes: &OUTCOMES,
    measures: &[],
};

/// An order test, built once.
pub type OrderTest = OneDieTest<OrderFacts>;

/// What an [`OrderTest`] keeps beside its die.
#[derive(Clone, Debug)]
pub struct OrderFacts {
    purpose: Purpose,
    need: u8,
    modifier: i32,
    modifiers: Vec<Term>,
    stop_on_fail: bool,
    class: Class,
}

impl OrderTest {
    /// The order test of `stand`. Errors carry the bare step key.
    pub fn new(stand: &Stand, input: &OrderInput) -> Result<OrderTest, InputError> {
        let class = stand.class.ok_or_else(|| {
            InputError::new(format!(
                "{} has no `class`: an order test needs its class",
                stand.name
            ))
            .key("unit")
            .accepted("class = \"A\", \"B\" or \"C\" in its [units] table")
        })?;
        let purpose = input.purpose.unwrap_or(Purpose::ExtraMove);
        if purpose == Purpose::Recover
            && terrain::cannot_recover(stand.kind, stand.era, stand.terrain)
        {
            return Err(InputError::new(format!(
                "{} is {} in {}: it cannot recover from disorder there (terrain 4.0, towns 1.0)",
                stand.name, stand.kind, stand.terrain
            ))
            .key("purpose"));
        }
        if stand.leader && (input.out_of_leader_range || input.leader_dead) {
            let key = if input.leader_dead {
                "leader_dead"
            } else {
                "out_of_leader_range"
            };
            return Err(InputError::new(format!(
                "{} has its leader attached: it is neither out of its range nor is it dead",
                stand.name
            ))
            .key(key));
        }
        let m = ORDER_MODS;
        const R: &str = "4.5";
        let n = &stand.name;
        let mut mods: Vec<Term> = Vec::new();
        if stand.leader {
            mods.push(Term::new(
                "leader attached",
                R,
                m.leader_attached as i32,
                Source::unit(format!("{n}: leader = true")),
            ));
        }
        if input.out_of_leader_range || input.leader_dead {
            let key = if input.leader_dead {
                "leader_dead = true"
            } else {
                "out_of_leader_range = true"
            };
            mods.push(Term::new(
                format!("out of range of leader [{LEADER_RANGE_HEXES}H] or leader dead"),
                R,
                m.out_of_range_or_dead as i32,
                Source::key(key),
            ));
        }
        let after_first = input.moves_taken.saturating_sub(1);
        if after_first > 0 {
            mods.push(Term::new(
                format!("{after_first} movement(s) after the first this round"),
                R,
                m.per_move_after_first as i32 * after_first as i32,
                Source::key(format!("moves_taken = {}", input.moves_taken)),
            ));
        }
        mods.extend(key_term("extra_mod", "extra_mod", input.extra_mod as i32));
        let modifier: i32 = sum(&mods);
        let need = pass_on(class);
        let space = OutcomeSpace::from_labels(&OUTCOMES, vec![]);
        let faces = OneDie::new(|face| {
            if i32::from(face) + modifier >= need as i32 {
                0
            } else {
                1
            }
        });
        let facts = OrderFacts {
            purpose,
            need,
            modifier,
            modifiers: mods,
            class,
            stop_on_fail: input.stop_on_fail.unwrap_or(purpose != Purpose::Recover),
        };
        Ok(OneDieTest::from_faces(space, faces, true, facts))
    }

    /// Reads a scenario step (see [`INFO`]).
    pub fn from_step(f: &mut Fields, units: &[Stand]) -> Result<OrderTest, InputError> {
        f.has("procedure");
        let stand = find(f, "unit", units)?;
        let input = OrderInput {
            purpose: PURPOSE.read(f)?,
            out_of_leader_range: OUT_OF_LEADER_RANGE.get(f)?,
            leader_dead: LEADER_DEAD.get(f)?,
            moves_taken: MOVES_TAKEN.read(f)?.unwrap_or(0) as u8,
            extra_mod: EXTRA_MOD.read(f)?.unwrap_or(0) as i8,
            stop_on_fail: f.named(
                "on_fail",
                "on_fail",
                |s| match s {
                    "stop" => Some(true),
                    "continue" => Some(false),
                    _ => None,
                },
                &ON_FAIL,
            )?,
        };
        let p = OrderTest::new(stand, &input).map_err(|mut e| match e.key.take() {
            Some(k) if k == "unit" => f.locate("unit", e),
            Some(k) => f.locate(&k, e),
            None => f.locate("procedure", e),
        })?;
        finish(f)?;
        Ok(p)
    }

    /// What the test is for.
    pub fn purpose(&self) -> Purpose {
        self.kind.purpose
    }
    /// The pass number of the stand's class.
    pub fn need(&self) -> u8 {
        self.kind.need
    }
    /// The summed modifier.
    pub fn modifier(&self) -> i32 {
        self.kind.modifier
    }
    /// The stand's class (A, B or C).
    pub fn class(&self) -> Class {
        self.kind.class
    }
    /// Each modifier with what it is for, and its source.
    pub fn modifiers(&self) -> &[Term] {
        &self.kind.modifiers
    }
    /// In a course, a failure ends the course.
    pub fn stops_on_fail(&self) -> bool {
        self.kind.stop_on_fail
    }
    /// True when a leaf is a pass.
    pub fn passed(&self, leaf: Leaf) -> bool {
        self.space().outcome_of(leaf) == 0
    }
}

/// The Order Test chart.
pub fn charts() -> Vec<Chart> {
    let m = ORDER_MODS;
    let mut rows: Vec<Vec<String>> = PASS_ON
        .iter()
        .map(|(c, n)| {
            vec![
                format!("{c} class"),
                (*n..=6)
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(","),
            ]
        })
        .collect();
    rows.push(vec![
        format!("{:+}", m.leader_attached),
        "leader attached".into(),
    ]);
    rows.push(vec![
        format!("{:+}", m.out_of_range_or_dead),
        format!("out of range of leader [{LEADER_RANGE_HEXES}H] or leader dead"),
    ]);
    rows.push(vec![
        format!("{:+}", m.per_move_after_first),
        "each movement taken after first this round".into(),
    ]);
    vec![Chart {
        id: "order-test",
        title: "Order Test [1D6]".into(),
        rule: "4.5",
        headers: headers(&["Class / modifier", "Pass on / for"]),
        rows,
        notes: vec![
            "For extra moves, recovering from disorder, opportunity".into(),
            "No automatic pass or fail is printed: a modified roll at or above the class number passes".into(),
        ],
    }]
}
