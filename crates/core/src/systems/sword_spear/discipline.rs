//! Command distance, the Adjustments to Discipline and the Discipline test.
//!
//! A unit's Discipline (lower is better) is adjusted by the situations of
//! the sheet's table ([`ADJUSTMENTS`]), each with the troop types its
//! footnote exempts. The same adjusted Discipline is read by activation and
//! by Discipline tests. The test itself is not on the sheet: one d6, passed
//! on a roll at least the adjusted Discipline, a failure is one hit
//! (docs/rules/sword-and-spear.md section 2).

use super::troops::Troop;
use super::unit::{Commander, Unit, find_unit, finish_step};
use crate::dice::Dice;
use crate::error::InputError;
use crate::explain::{Source, Term};
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::Fields;
use crate::systems::Key;
use crate::systems::chart::headers;
use crate::systems::{Chart, KeyDoc, ProcedureInfo};

/// Command distance: how far (DU) a commander's command range reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommandDistance {
    /// The commander.
    pub commander: Commander,
    /// Command range in DU.
    pub du: u8,
}

/// Command distance, as on the sheet.
pub const COMMAND_DISTANCE: [CommandDistance; 2] = [
    CommandDistance {
        commander: Commander::Captain,
        du: 4,
    },
    CommandDistance {
        commander: Commander::General,
        du: 8,
    },
];

/// The command range of a commander (DU); a unit at most this far is in range.
pub fn command_range(c: Commander) -> u8 {
    COMMAND_DISTANCE
        .iter()
        .find(|d| d.commander == c)
        .map(|d| d.du)
        .expect("every commander has a command distance")
}

/// One row of the Adjustments to Discipline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjustment {
    /// The situation as on the sheet.
    pub situation: &'static str,
    /// The adjustment to Discipline.
    pub adjustment: i8,
    /// Troop types its footnote exempts.
    pub exempt: &'static [Troop],
    /// The footnote mark and text, if any.
    pub footnote: Option<&'static str>,
}

/// Adjustments to Discipline, in card order: commander with unit, out of
/// command range, difficult terrain.
pub const ADJUSTMENTS: [Adjustment; 3] = [
    Adjustment {
        situation: "Commander with Unit",
        adjustment: -1,
        exempt: &[
            Troop::Swarms,
            Troop::Beasts,
            Troop::LargeBeasts,
            Troop::Monsters,
            Troop::HeroMounted,
            Troop::HeroFoot,
        ],
        footnote: Some("* unless it is a unit of swarm, beasts, large beasts or a monster or hero"),
    },
    Adjustment {
        situation: "Unit out of Command Range",
        adjustment: 1,
        exempt: &[],
        footnote: None,
    },
    Adjustment {
        situation: "In difficult terrain",
        adjustment: 1,
        exempt: &[
            Troop::Swarms,
            Troop::LargeBeasts,
            Troop::Monsters,
            Troop::LightFoot,
            Troop::HeroMounted,
            Troop::HeroFoot,
        ],
        footnote: Some("** other than swarm, large beasts, monsters, light foot, heroes"),
    },
];

/// The adjustments that apply to `unit`, labelled, in card order.
pub fn adjustments(unit: &Unit) -> Vec<(&'static str, i32)> {
    discipline_terms(unit, 0, "")
        .into_iter()
        .skip(1)
        .filter(|t| t.applied)
        .map(|t| {
            let a = ADJUSTMENTS
                .iter()
                .find(|a| a.situation == t.label)
                .expect("a term of the table");
            (a.situation, t.value)
        })
        .collect()
}

/// `unit`'s Discipline after the sheet's adjustments.
pub fn adjusted(unit: &Unit) -> i32 {
    crate::explain::sum(&discipline_terms(unit, 0, ""))
}

/// The Discipline `unit` activates and tests against, term by term: its
/// printed Discipline, each of the sheet's Adjustments to Discipline that
/// its state calls for (one its footnote exempts is kept, not applied, with
/// the footnote), and `extra` from step key `extra_key` when not 0. The
/// applied terms sum to the adjusted Discipline ([`adjusted`]).
pub fn discipline_terms(unit: &Unit, extra: i32, extra_key: &str) -> Vec<Term> {
    let name = &unit.name;
    let mut terms = vec![Term::new(
        "Discipline (printed)",
        "",
        unit.discipline as i32,
        Source::unit(format!("{name}: discipline = {}", unit.discipline)),
    )];
    let states = [
        unit.commander
            .map(|c| format!("{name}: commander = \"{}\"", c.name())),
        unit.out_of_command.then(|| {
            format!("{name}: out of command range (command_distance beyond command_by, or out_of_command)")
        }),
        (unit.terrain == super::troops::Terrain::Difficult)
            .then(|| format!("{name}: terrain = \"difficult\"")),
    ];
    for (a, state) in ADJUSTMENTS.iter().zip(states) {
        let Some(state) = state else { continue };
        let t = Term::new(
            a.situation,
            "Adjustments to Discipline",
            a.adjustment as i32,
            Source::unit(state),
        );
        terms.push(if a.exempt.contains(&unit.troop) {
            t.not_applied(format!(
                "{} are exempt (footnote {})",
                unit.troop.name(),
                a.footnote.unwrap_or("")
            ))
        } else {
            t
        });
    }
    if extra != 0 {
        terms.push(Term::new(
            "extra Discipline (not on the card)",
            "",
            extra,
            Source::key(format!("{extra_key} = {extra}")),
        ));
    }
    terms
}

/// Faces of a d6 that fail a Discipline test against `discipline`: the
/// test passes on a roll at least the Discipline, so faces
/// `1..=fail_faces` fail.
pub fn fail_faces(discipline: i32) -> u8 {
    (discipline - 1).clamp(0, 6) as u8
}

/// Most tests one step may roll.
pub const MAX_TESTS: u8 = 8;

/// Outcome labels of a Discipline test step.
pub const OUTCOMES: [&str; 2] = ["stands", "routs"];

/// Discipline tests: `tests` d6 against the adjusted Discipline; each
/// failure is a hit; the unit routs when its hits reach its strength.
#[derive(Clone, Debug)]
pub struct DisciplineTest {
    space: OutcomeSpace,
    tests: u8,
    discipline: i32,
    fail: u8,
    by_failures: [Leaf; MAX_TESTS as usize + 1],
    terms: Vec<Term>,
    /// The unit's name, strength and hits, for `pikeshot explain`.
    unit: (String, u8, u8),
}

/// `tests`, declared once: its doc and its reader.
pub(crate) const TESTS: Key<i64> = Key::int("tests", 1, MAX_TESTS as i64, "tests").or("1");

/// `extra_discipline`, declared once: its doc and its reader.
pub(crate) const EXTRA_DISCIPLINE: Key<i64> = Key::int(
    "extra_discipline",
    -3,
    3,
    "added to the adjusted Discipline",
)
.or("0");

/// What `pikeshot list` says of Discipline tests.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "discipline-test",
    rule: "Combat Process 6; Adjustments to Discipline",
    summary: "Discipline tests: one d6 each, passed on a roll at least the adjusted Discipline; each failure is a hit",
    keys: &[
        KeyDoc::unit("unit", "required: the unit testing"),
        TESTS.doc(),
        EXTRA_DISCIPLINE.doc(),
    ],
    outcomes: &OUTCOMES,
    measures: &["hits"],
};

impl DisciplineTest {
    /// `tests` Discipline tests of `unit`, its adjusted Discipline moved by `extra`.
    pub fn new(unit: &Unit, tests: u8, extra: i32) -> DisciplineTest {
        assert!((1..=MAX_TESTS).contains(&tests));
        let terms = discipline_terms(unit, extra, "extra_discipline");
        let discipline = crate::explain::sum(&terms);
        let fail = fail_faces(discipline);
        let space =
            OutcomeSpace::from_labels(&OUTCOMES, vec![Measure::new("hits", 0, tests as i32)]);
        let mut by_failures = [0; MAX_TESTS as usize + 1];
        for (k, leaf) in by_failures.iter_mut().enumerate().take(tests as usize + 1) {
            let routs = unit.hits as usize + k >= unit.strength as usize;
            *leaf = space.leaf(routs as usize, &[k as i32]);
        }
        DisciplineTest {
            space,
            tests,
            discipline,
            fail,
            by_failures,
            terms,
            unit: (unit.name.clone(), unit.strength, unit.hits),
        }
    }

    /// Builds the step from its keys (in [`INFO`]).
    pub fn from_step(f: &mut Fields, units: &[Unit]) -> Result<DisciplineTest, InputError> {
        let unit = find_unit(f, "unit", units)?;
        let tests = TESTS.read(f)?.unwrap_or(1) as u8;
        let extra = EXTRA_DISCIPLINE.read(f)?.unwrap_or(0) as i32;
        finish_step(f, INFO.keys)?;
        Ok(DisciplineTest::new(unit, tests, extra))
    }

    /// The Discipline the tests are rolled against.
    pub fn discipline(&self) -> i32 {
        self.discipline
    }
    /// That Discipline, term by term.
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }
    /// Tests rolled.
    pub fn tests(&self) -> u8 {
        self.tests
    }
    /// The unit's name, strength and hits before the tests.
    pub fn unit(&self) -> (&str, u8, u8) {
        (&self.unit.0, self.unit.1, self.unit.2)
    }
}

impl Procedure for DisciplineTest {
    fn space(&self) -> &OutcomeSpace {
        &self.space
    }
    #[inline]
    fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
        let pool = dice.pool(self.tests, 6);
        let failures: u8 = (1..=self.fail).map(|f| pool.count(f)).sum();
        self.by_failures[failures as usize]
    }
}

/// Command distance, for `pikeshot tables`.
pub fn command_charts() -> Vec<Chart> {
    vec![Chart {
        id: "command-distance",
        title: "Command distance".into(),
        rule: "Quick Reference Sheet",
        headers: headers(&["Commander", "DU"]),
        rows: COMMAND_DISTANCE
            .iter()
            .map(|d| {
                let mut name = d.commander.name().to_string();
                name[..1].make_ascii_uppercase();
                vec![name, d.du.to_string()]
            })
            .collect(),
        notes: vec![
            "A unit farther from its commander than this is out of command range (+1 Discipline)"
                .into(),
        ],
    }]
}

/// Adjustments to Discipline and the Discipline test, for `pikeshot tables`.
pub fn charts() -> Vec<Chart> {
    let mut notes: Vec<String> = ADJUSTMENTS
        .iter()
        .filter_map(|a| a.footnote.map(String::from))
        .collect();
    notes.push("Discipline test (not on the sheet; docs/rules/sword-and-spear.md section 2): one d6, passed on a roll at least the adjusted Discipline; a failure is one hit".into());
    vec![Chart {
        id: "discipline-adjustments",
        title: "Adjustments to Discipline".into(),
        rule: "Quick Reference Sheet",
        headers: headers(&["Situation", "Adjustment"]),
        rows: ADJUSTMENTS
            .iter()
            .map(|a| {
                let mark = match a.footnote {
                    Some(n) => n.split(' ').next().unwrap_or(""),
                    None => "",
                };
                vec![
                    format!("{}{mark}", a.situation),
                    format!("{:+}", a.adjustment),
                ]
            })
            .collect(),
        notes,
    }]
}
