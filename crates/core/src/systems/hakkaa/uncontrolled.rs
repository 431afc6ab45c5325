//! The Uncontrolled units tables and the procedure `uncontrolled`: what an
//! uncontrolled unit does in each of the card's eight situations, as the
//! distribution of its TQ test over the row of its class.
//!
//! The card does not define its result codes (H_D, A_S, C_H, C_C A, T/…,
//! Pu, Ret, M, CM); they are reported as printed (subscripts after `_`).
//! Situations 1 (defending: automatic Hold) and 3 (enemy to rear) take no
//! test.

use super::closing::read_row;
use super::draw::{self, Draw};
use super::explain::why::{Tested, Why};
use super::row::ResultRow;
use super::tq::extra_tq;
use super::tq::{
    Readings, Situation as TqSituation, TestKind, Tester, Tq, TqTest, finish, key_err,
    read_extra_tq, relocate,
};
use super::unit::{Formation, Unit, UnitClass, find_unit};
use crate::error::InputError;
use crate::outcome::{Leaf, OutcomeSpace};
use crate::scenario::Fields;
use crate::systems::Key;
use crate::systems::chart::labelled;
use crate::systems::named::named_enum;
use crate::systems::{Chart, KeyDoc, ProcedureInfo};

named_enum! {
    /// The eight situations of the Uncontrolled units tables, in card order.
    Situation {
        /// Situation 1: Defending: automatic Hold.
        Defending = "defending",
        /// Situation 2: Fleeing enemy (cavalry only).
        FleeingEnemy = "fleeing-enemy",
        /// Situation 3: Enemy to rear: turns, no test.
        EnemyToRear = "enemy-to-rear",
        /// Situation 4: Enemy at flank.
        EnemyAtFlank = "enemy-at-flank",
        /// Situation 5: Defensible position, supporting line or square, enemy visible.
        DefensibleEnemyVisible = "defensible-enemy-visible",
        /// Situation 6: Defensible position, supporting line or square, no visible enemy.
        DefensibleNoEnemy = "defensible-no-enemy",
        /// Situation 7: Visible enemy.
        VisibleEnemy = "visible-enemy",
        /// Situation 8: No visible enemy.
        NoVisibleEnemy = "no-visible-enemy",
    }
}

/// A row of an Uncontrolled units table: the codes for DS, S, F, DF, as
/// printed.
pub type URow = ResultRow<&'static str>;

const fn u(label: &'static str, cells: [&'static str; 4]) -> URow {
    URow::new(label, cells)
}

/// Situation 1: Defending.
pub const DEFENDING: &str = "Hold";

/// Situation 2: Fleeing enemy [Cavalry only].
pub const FLEEING_ENEMY: [URow; 3] = [
    u("LC/SC", ["Pu", "Pu", "Pu", "H_D"]),
    u("HL/EH", ["C_H", "Pu", "Pu", "H_D"]),
    u("Other cavalry", ["A_S", "Pu", "Pu", "H_D"]),
];

/// Situation 3: Enemy to rear: with no visible enemy to the front, at least one unit
/// must turn 180°; otherwise units may; the rest of the group holds.
pub const ENEMY_TO_REAR: [&str; 2] = ["at-least-one-turns-180", "may-turn-180"];

/// Situation 4: Enemy at flank.
pub const ENEMY_AT_FLANK: [URow; 9] = [
    u("MI/HI/LTI", ["T/H_D", "T/H_D", "H_D", "Flee"]),
    u("AI", ["T/A_S", "T/H_D", "H_D", "Flee"]),
    u("CI", ["T/C_H", "T/C_H", "H_D", "Flee"]),
    u("Skirmishing", ["T/A_D", "T/H_D", "Ret", "Flee"]),
    u("Levy", ["T/H_D", "T/H_D", "Ret", "Flee"]),
    u("HL", ["T/C_H", "T/H_D", "H_D", "Ret"]),
    u("LBC/HBC", ["T/A_S", "T/H_D", "H_D", "Ret"]),
    u("EH/LC/HQ", ["T/A_D", "T/H_D", "H_D", "Flee"]),
    u("Art", ["T/H_D", "T/H_D", "H_D", "Flee"]),
];

/// Situation 5: Defensible position or supporting line, or in square, and enemy visible.
pub const DEFENSIBLE_ENEMY_VISIBLE: [URow; 10] = [
    u("HI/Artillery", ["H_D", "H_D", "H_D", "A_D"]),
    u("MI", ["A_D", "H_D", "H_D", "Ret"]),
    u("AI", ["H_D", "H_D", "H_D", "A_S"]),
    u("CI", ["C_H", "H_D", "H_D", "Ret"]),
    u("LTI/Skirmishing", ["H_D", "H_D", "H_D", "Ret"]),
    u("Levy/EH", ["H_D", "H_D", "H_D", "A_S"]),
    u("HBC/HQ", ["C_C A", "C_C H", "C_C H", "Ret"]),
    u("HL", ["C_H", "H_D", "H_D", "Ret"]),
    u("LBC", ["A_S", "H_D", "H_D", "Ret"]),
    u("LC", ["A_D", "H_D", "H_D", "Ret"]),
];

/// Situation 6: Defensible position or supporting line, or in square, and no visible
/// enemy.
pub const DEFENSIBLE_NO_ENEMY: [URow; 1] = [u("All", ["H_D", "H_D", "H_D", "M"])];

/// Situation 7: Visible enemy.
pub const VISIBLE_ENEMY: [URow; 13] = [
    u("Skirmishing", ["A_D", "H_D", "Ret", "Flee"]),
    u("MI", ["A_S", "A_D", "H_D", "Ret"]),
    u("AI", ["A_S", "A_S", "H_D", "Ret"]),
    u("CI", ["C_H", "C_H", "H_D", "Ret"]),
    u("LTI/HI", ["A_D", "H_D", "H_D", "Ret"]),
    u("Levy", ["A_S", "H_D", "H_D", "Flee"]),
    u("HBC", ["A_S", "A_S", "C_C H", "H_D"]),
    u("HQ", ["C_C A", "C_C H", "C_C H", "Ret"]),
    u("HL", ["C_H", "C_H", "H_D", "Ret"]),
    u("LBC", ["A_S", "A_S", "H_D", "Ret"]),
    u("EH", ["C_H", "A_D", "H_D", "Ret"]),
    u("LC", ["A_S", "A_D", "H_D", "Ret"]),
    u("Art", ["A_D", "H_D", "H_D", "H_D"]),
];

/// Situation 8: No visible enemy.
pub const NO_VISIBLE_ENEMY: [URow; 3] = [
    u("Art", ["CM", "H_D", "H_D", "H_D"]),
    u("Skirmishing or Cavalry", ["M", "CM", "CM", "H_D"]),
    u("Other", ["M", "CM", "H_D", "H_D"]),
];

impl Situation {
    /// The situation's number on the card.
    pub fn number(self) -> usize {
        self as usize + 1
    }
    /// The situation's title on the card.
    pub fn title(self) -> &'static str {
        match self {
            Situation::Defending => "Defending",
            Situation::FleeingEnemy => "Fleeing enemy [Cavalry only]",
            Situation::EnemyToRear => "Enemy to Rear",
            Situation::EnemyAtFlank => "Enemy at Flank",
            Situation::DefensibleEnemyVisible => {
                "Defensible position or Supporting Line, or in Square formation, and enemy visible"
            }
            Situation::DefensibleNoEnemy => {
                "Defensible position or Supporting Line, or in Square formation, and no visible enemy"
            }
            Situation::VisibleEnemy => "Visible Enemy",
            Situation::NoVisibleEnemy => "No Visible Enemy",
        }
    }
    /// The table of a situation with a test; `None` for 1 and 3.
    pub fn rows(self) -> Option<&'static [URow]> {
        match self {
            Situation::Defending | Situation::EnemyToRear => None,
            Situation::FleeingEnemy => Some(&FLEEING_ENEMY),
            Situation::EnemyAtFlank => Some(&ENEMY_AT_FLANK),
            Situation::DefensibleEnemyVisible => Some(&DEFENSIBLE_ENEMY_VISIBLE),
            Situation::DefensibleNoEnemy => Some(&DEFENSIBLE_NO_ENEMY),
            Situation::VisibleEnemy => Some(&VISIBLE_ENEMY),
            Situation::NoVisibleEnemy => Some(&NO_VISIBLE_ENEMY),
        }
    }
    /// The row a unit reads: a "Skirmishing" row in skirmish order where the
    /// table has one, else its class's row; `None` where the table has no
    /// row for the unit (infantry and artillery in situation 2, SC where
    /// only the Fleeing-enemy chart names it).
    pub fn row_for(self, class: UnitClass, formation: Formation) -> Option<usize> {
        use UnitClass::*;
        let sk = formation == Formation::Skirmishing;
        match self {
            Situation::Defending | Situation::EnemyToRear => Some(0),
            Situation::FleeingEnemy => match class {
                Lc | Sc => Some(0),
                Hl | Eh => Some(1),
                Hq | Hbc | Lbc => Some(2),
                _ => None,
            },
            Situation::EnemyAtFlank => match class {
                _ if sk => Some(3),
                Mi | Hi | Lti => Some(0),
                Ai => Some(1),
                Ci => Some(2),
                Levy => Some(4),
                Hl => Some(5),
                Lbc | Hbc => Some(6),
                Eh | Lc | Hq => Some(7),
                Artillery => Some(8),
                Sc => None,
            },
            Situation::DefensibleEnemyVisible => match class {
                _ if sk => Some(4),
                Hi | Artillery => Some(0),
                Mi => Some(1),
                Ai => Some(2),
                Ci => Some(3),
                Lti => Some(4),
                Levy | Eh => Some(5),
                Hbc | Hq => Some(6),
                Hl => Some(7),
                Lbc => Some(8),
                Lc => Some(9),
                Sc => None,
            },
            Situation::DefensibleNoEnemy => Some(0),
            Situation::VisibleEnemy => match class {
                _ if sk => Some(0),
                Mi => Some(1),
                Ai => Some(2),
                Ci => Some(3),
                Lti | Hi => Some(4),
                Levy => Some(5),
                Hbc => Some(6),
                Hq => Some(7),
                Hl => Some(8),
                Lbc => Some(9),
                Eh => Some(10),
                Lc => Some(11),
                Artillery => Some(12),
                Sc => None,
            },
            Situation::NoVisibleEnemy => match class {
                Artillery => Some(0),
                _ if sk || class.is_cavalry() => Some(1),
                _ => Some(2),
            },
        }
    }
}

/// Options of an uncontrolled unit's test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UncontrolledOptions {
    /// The situation.
    pub situation: Situation,
    /// A single unit rolling (not an independent unit): TQ −1.
    pub single_unit: bool,
    /// Situation 3: a visible enemy to the front.
    pub enemy_to_front: bool,
    /// The row, replacing the unit's.
    pub row: Option<usize>,
    /// Further TQ modifier.
    pub extra_tq: i8,
}

/// `situation`, declared once: its doc and its reader.
pub(crate) const SITUATION: Key<Situation> =
    Key::one_of("situation", "situation", "required: the unit's situation");

/// `single_unit`, declared once: its doc and its reader.
pub(crate) const SINGLE_UNIT: Key<bool> = Key::flag(
    "single_unit",
    "true: a single unit rolling (independent units excepted), TQ -1",
);

/// `enemy_to_front`, declared once: its doc and its reader.
pub(crate) const ENEMY_TO_FRONT: Key<bool> = Key::flag(
    "enemy_to_front",
    "enemy-to-rear only: true when a visible enemy is to the front (units may turn), false (at least one must turn; default)",
);

/// What `pikeshot list` says of `uncontrolled`.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "uncontrolled",
    rule: "Uncontrolled units",
    summary: "what an uncontrolled unit does: its TQ test on its row of the situation's table (codes as printed); 1 and 3 take no test",
    keys: &[
        KeyDoc::unit("unit", "required: the uncontrolled unit"),
        SITUATION.doc(),
        SINGLE_UNIT.doc(),
        ENEMY_TO_FRONT.doc(),
        KeyDoc::text(
            "row",
            "a row label of the situation's table (e.g. \"LBC/HBC\"), replacing the unit's",
        ),
        extra_tq("extra_tq", "further TQ modifier").or("0").doc(),
    ],
    outcomes: &[
        "the row's codes as printed (e.g. H_D, T/A_S, C_C A, Pu, Ret, Flee, M, CM); Hold; at-least-one-turns-180 / may-turn-180",
    ],
    measures: &[],
};

/// The procedure `uncontrolled`.
#[derive(Clone, Debug)]
pub struct Uncontrolled {
    test: Option<TqTest>,
    row: Option<&'static URow>,
    leaves: [Leaf; 4],
    space: OutcomeSpace,
    /// What `pikeshot explain` reads of how the procedure was built.
    why: Box<Why>,
}

impl Uncontrolled {
    /// The uncontrolled `unit` in situation `o.situation`.
    pub fn new(
        unit: &Unit,
        o: &UncontrolledOptions,
        readings: Readings,
    ) -> Result<Uncontrolled, InputError> {
        let Some(rows) = o.situation.rows() else {
            let label = match o.situation {
                Situation::Defending => DEFENDING,
                _ => ENEMY_TO_REAR[o.enemy_to_front as usize],
            };
            return Ok(Uncontrolled {
                test: None,
                row: None,
                leaves: [0; 4],
                space: OutcomeSpace::from_labels(&[label], vec![]),
                why: Box::new(Why {
                    notes: vec![format!(
                        "situation {}. {}: no test",
                        o.situation.number(),
                        o.situation.title()
                    )],
                    ..Why::default()
                }),
            });
        };
        let r = match o.row {
            Some(r) => r,
            None => o
                .situation
                .row_for(unit.class, unit.formation)
                .ok_or_else(|| {
                    let why = if o.situation == Situation::FleeingEnemy {
                        " (this table is for cavalry only)"
                    } else {
                        ""
                    };
                    key_err(
                        "unit",
                        format!(
                            "the \"{}\" table has no row for {} ({}){why}: name one with `row`",
                            o.situation.title(),
                            unit.name,
                            unit.class.abbreviation()
                        ),
                    )
                    .accepted(rows.iter().map(|r| r.label).collect::<Vec<_>>().join(", "))
                })?,
        };
        let row = &rows[r];
        let mut labels: Vec<&str> = Vec::new();
        for c in row.cells {
            if !labels.contains(&c) {
                labels.push(c);
            }
        }
        let space = OutcomeSpace::from_labels(&labels, vec![]);
        let leaves = row
            .cells
            .map(|c| labels.iter().position(|l| *l == c).unwrap() as Leaf);
        let s = TqSituation {
            kind: TestKind::Uncontrolled,
            lower_cc_value: false,
            single_unit: o.single_unit,
            extra: o.extra_tq,
        };
        let why = Box::new(Why {
            tests: vec![
                Tested::new(unit, TestKind::Uncontrolled, o.extra_tq, "extra_tq").in_situation(s),
            ],
            lines: Vec::new(),
            notes: vec![
                format!(
                    "Uncontrolled units {}. {}",
                    o.situation.number(),
                    o.situation.title()
                ),
                match o.row {
                    Some(_) => format!("row {}: the step's row", row.label),
                    None => format!(
                        "row {}: {} class {} ({})",
                        row.label,
                        crate::explain::possessive(&unit.name),
                        unit.class.abbreviation(),
                        unit.formation
                    ),
                },
            ],
        });
        Ok(Uncontrolled {
            why,
            test: Some(*Tester::new(unit, &s, readings.tq_mode).get(&unit.state)),
            row: Some(row),
            leaves,
            space,
        })
    }

    /// Reads an `uncontrolled` step (keys in [`INFO`]).
    pub fn from_step(
        f: &mut Fields,
        units: &[Unit],
        readings: Readings,
    ) -> Result<Uncontrolled, InputError> {
        let unit = find_unit(f, "unit", units)?;
        let situation: Situation = SITUATION.require(f)?;
        let single_unit = SINGLE_UNIT.get(f)?;
        let enemy_to_front = ENEMY_TO_FRONT.get(f)?;
        if f.has("enemy_to_front") && situation != Situation::EnemyToRear {
            return Err(f.err(
                "enemy_to_front",
                "`enemy_to_front` belongs to situation = \"enemy-to-rear\"",
            ));
        }
        let row = match situation.rows() {
            Some(rows) => {
                let labels: Vec<&'static str> = rows.iter().map(|r| r.label).collect();
                read_row(f, "row", &labels)?
            }
            None => {
                if f.has("row") {
                    return Err(f.err(
                        "row",
                        format!("situation \"{situation}\" has no table rows (no test)"),
                    ));
                }
                None
            }
        };
        let extra_tq = read_extra_tq(f, "extra_tq")?;
        finish(f)?;
        let o = UncontrolledOptions {
            situation,
            single_unit,
            enemy_to_front,
            row,
            extra_tq,
        };
        Uncontrolled::new(&units[unit], &o, readings).map_err(|e| relocate(f, e))
    }

    /// The unit's test, when the situation has one.
    pub fn test(&self) -> Option<&TqTest> {
        self.test.as_ref()
    }
    /// The row read, when the situation has a table.
    pub fn row(&self) -> Option<&'static URow> {
        self.row
    }

    /// Runs once on any [`Draw`].
    #[inline]
    pub fn run<W: Draw>(&self, w: &mut W) -> Leaf {
        match &self.test {
            None => 0,
            Some(t) => {
                let r: Tq = w.test(t);
                self.leaves[r as usize]
            }
        }
    }
}

draw::draw_procedure!(Uncontrolled, why);

/// One chart per situation.
pub fn charts() -> Vec<Chart> {
    let ids = [
        "uncontrolled-defending",
        "uncontrolled-fleeing-enemy",
        "uncontrolled-enemy-to-rear",
        "uncontrolled-enemy-at-flank",
        "uncontrolled-defensible-enemy-visible",
        "uncontrolled-defensible-no-enemy",
        "uncontrolled-visible-enemy",
        "uncontrolled-no-visible-enemy",
    ];
    let headers = super::row::result_headers("");
    Situation::ALL
        .iter()
        .zip(ids)
        .map(|(s, id)| {
            let title = format!("Uncontrolled units {}. {}", s.number(), s.title());
            let mut notes = vec![format!("situation = \"{}\"", s.name())];
            let (headers, rows) = match s.rows() {
                Some(rows) => (
                    headers.clone(),
                    rows.iter()
                        .map(|r| labelled(r.label, r.cells.iter().map(|c| c.to_string())))
                        .collect(),
                ),
                None if *s == Situation::Defending => {
                    (vec!["All".into()], vec![vec!["Automatic Hold".into()]])
                }
                None => {
                    notes.push("The rest of the group Holds; no test".into());
                    (
                        vec!["Visible enemy to the front".into(), "Result".into()],
                        vec![
                            vec![
                                "no".into(),
                                "at least one unit must make a 180 degree turn".into(),
                            ],
                            vec!["yes".into(), "units may make 180 degree turns".into()],
                        ],
                    )
                }
            };
            if s.rows().is_some() {
                notes.push(
                    "Codes as printed; the card does not define them (subscripts after _)".into(),
                );
            }
            Chart {
                id,
                title,
                rule: "Uncontrolled units",
                headers,
                rows,
                notes,
            }
        })
        .collect()
}
