//! Troop Quality: the TQ Table, the TQ modifiers, and the procedure
//! `tq-test`.
//!
//! Every roll of the game is a TQ test: 2d6 read on the row of the unit's
//! grade, giving DS / S / F / DF (Decisive Success, Success, Failure,
//! Decisive Failure; docs/rules/hakkaa.md section 2). The modifiers shift the *row* by
//! default, clamped to the table (Rabble 6 … Fanatic 11); the scenario switch
//! `tq_modifier_mode = "roll"` shifts the roll instead (a +1 modifier reads
//! the roll one lower, clamped to 2..=12).

use super::draw::{self, Draw};
use super::unit::{Unit, UnitState, find_unit};
use crate::error::InputError;
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::scenario::Fields;
use crate::systems::Key;
use crate::systems::named::named_enum;
use crate::systems::{Chart, KeyDoc, ProcedureInfo};

named_enum! {
    /// Troop quality grades, best first.
    Grade {
        /// Fanatic (11).
        Fanatic = "fanatic",
        /// Elite (10).
        Elite = "elite",
        /// Veteran (9).
        Veteran = "veteran",
        /// Trained (8).
        Trained = "trained",
        /// Green (7).
        Green = "green",
        /// Rabble (6).
        Rabble = "rabble",
    }
}

/// Lowest TQ number on the table (Rabble).
pub const MIN_TQ: i32 = 6;
/// Highest TQ number on the table (Fanatic).
pub const MAX_TQ: i32 = 11;

impl Grade {
    /// The grade's TQ number (Fanatic 11 … Rabble 6).
    pub fn tq(self) -> i32 {
        MAX_TQ - self as i32
    }
    /// The grade with TQ number `tq`, if it is on the table.
    pub fn from_tq(tq: i32) -> Option<Grade> {
        Grade::ALL.iter().copied().find(|g| g.tq() == tq)
    }
    /// The name as the card prints it ("Fanatic").
    pub fn title(self) -> &'static str {
        TQ_TABLE[self as usize].title
    }
}

/// Reads a grade: a name (`"trained"`) or its TQ number (`8`).
pub fn read_grade(f: &mut Fields, key: &'static str) -> Result<Option<Grade>, InputError> {
    if f.peek_string(key).is_some() || !f.has(key) {
        return f.named(key, "grade", Grade::from_name, &Grade::names());
    }
    let n = f
        .quietly(|f| f.int(key, MIN_TQ as i64, MAX_TQ as i64))
        .map_err(|e| {
            e.accepted(format!(
                "{}, or a TQ number from {MIN_TQ} to {MAX_TQ}",
                Grade::names().join(", ")
            ))
        })?;
    Ok(n.and_then(|n| Grade::from_tq(n as i32)))
}

/// A TQ test result, best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tq {
    /// DS.
    DecisiveSuccess,
    /// S.
    Success,
    /// F.
    Failure,
    /// DF.
    DecisiveFailure,
}

impl Tq {
    /// The four results, in table column order.
    pub const ALL: [Tq; 4] = [
        Tq::DecisiveSuccess,
        Tq::Success,
        Tq::Failure,
        Tq::DecisiveFailure,
    ];
    /// The column heading on the card.
    pub fn abbreviation(self) -> &'static str {
        ["DS", "S", "F", "DF"][self as usize]
    }
    /// The outcome label.
    pub fn label(self) -> &'static str {
        OUTCOMES[self as usize]
    }
    /// DS or S.
    pub fn passed(self) -> bool {
        self <= Tq::Success
    }
}

/// Outcome labels of a TQ test.
pub const OUTCOMES: [&str; 4] = ["Decisive success", "Success", "Failure", "Decisive failure"];

/// One row of the TQ Table: the 2d6 band of each result (`None` = "-").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TqRow {
    /// The grade.
    pub grade: Grade,
    /// Its name on the card.
    pub title: &'static str,
    /// Inclusive 2d6 bands for DS, S, F, DF.
    pub bands: [Option<(u8, u8)>; 4],
}

const fn row(grade: Grade, title: &'static str, bands: [Option<(u8, u8)>; 4]) -> TqRow {
    TqRow {
        grade,
        title,
        bands,
    }
}

/// TQ Table (Troop Quality): 2d6 bands for DS / S / F / DF, Fanatic (11)
/// first.
pub const TQ_TABLE: [TqRow; 6] = [
    row(
        Grade::Fanatic,
        "Fanatic",
        [Some((2, 6)), Some((7, 11)), Some((12, 12)), None],
    ),
    row(
        Grade::Elite,
        "Elite",
        [Some((2, 5)), Some((6, 10)), Some((11, 11)), Some((12, 12))],
    ),
    row(
        Grade::Veteran,
        "Veteran",
        [Some((2, 5)), Some((6, 9)), Some((10, 11)), Some((12, 12))],
    ),
    row(
        Grade::Trained,
        "Trained",
        [Some((2, 4)), Some((5, 8)), Some((9, 10)), Some((11, 12))],
    ),
    row(
        Grade::Green,
        "Green",
        [Some((2, 3)), Some((4, 7)), Some((8, 10)), Some((11, 12))],
    ),
    row(
        Grade::Rabble,
        "Rabble",
        [Some((2, 3)), Some((4, 6)), Some((7, 9)), Some((10, 12))],
    ),
];

/// The result of an (unmodified) 2d6 `roll`, 2..=12, on `grade`'s row.
pub fn read(grade: Grade, roll: u8) -> Tq {
    let r = &TQ_TABLE[grade as usize];
    Tq::ALL
        .into_iter()
        .find(|t| r.bands[*t as usize].is_some_and(|(lo, hi)| (lo..=hi).contains(&roll)))
        .unwrap_or_else(|| panic!("the TQ Table covers 2..=12, not {roll}"))
}

/// The TQ modifiers the card prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TqModifier {
    /// Disordered −1.
    Disordered,
    /// Lower total CC value than the close combat opponent(s) −1.
    LowerCcValue,
    /// Single unit rolling on the Uncontrolled units table (independent
    /// units excepted) −1.
    SingleUncontrolled,
    /// Fatigued −1.
    Fatigued,
    /// Charismatic leader attached to the unit +1.
    Charismatic,
    /// Charge Reaction / Close Combat manning Field Works +1.
    FieldWorks,
}

/// TQ modifiers (TQ Table), in card order: value and a short label.
pub const TQ_MODIFIERS: [(TqModifier, i8, &str); 6] = [
    (TqModifier::Disordered, -1, "Disordered"),
    (
        TqModifier::LowerCcValue,
        -1,
        "lower total CC value than close combat opponent(s)",
    ),
    (
        TqModifier::SingleUncontrolled,
        -1,
        "single unit on the Uncontrolled units table (not independent units)",
    ),
    (TqModifier::Fatigued, -1, "Fatigued"),
    (TqModifier::Charismatic, 1, "charismatic leader attached"),
    (
        TqModifier::FieldWorks,
        1,
        "charge reaction or close combat manning field works",
    ),
];

/// The value of a printed modifier.
pub fn modifier(m: TqModifier) -> i32 {
    TQ_MODIFIERS
        .iter()
        .find(|(k, _, _)| *k == m)
        .map(|&(_, v, _)| v as i32)
        .expect("every modifier is on the table")
}

named_enum! {
    /// How TQ modifiers apply (docs/rules/hakkaa.md section 2).
    TqMode {
        /// Shift the grade row, clamped to Rabble 6 … Fanatic 11 (default).
        Row = "row",
        /// Shift the 2d6 roll (a +1 modifier reads one lower), clamped to 2..=12.
        Roll = "roll",
    }
}

named_enum! {
    /// How a "2 LC" or "2 C" Fire Table result is tested (docs/rules/hakkaa.md section 2).
    DoubleResults {
        /// Two results, each tested on the Receiving Casualties Table (default).
        TwoTests = "two-tests",
        /// One test on the row (the "2" read as emphasis only).
        OneTest = "one-test",
    }
}

/// The scenario-wide readings of what the card leaves open (top-level
/// switches of a scenario).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Readings {
    /// How TQ modifiers apply (`tq_modifier_mode`).
    pub tq_mode: TqMode,
    /// How 2 LC and 2 C are tested (`double_results`).
    pub double_results: DoubleResults,
}

impl Default for Readings {
    fn default() -> Readings {
        Readings {
            tq_mode: TqMode::Row,
            double_results: DoubleResults::TwoTests,
        }
    }
}

impl Readings {
    /// The default readings with TQ modifiers applied the `mode` way.
    pub fn with_mode(mode: TqMode) -> Readings {
        Readings {
            tq_mode: mode,
            ..Readings::default()
        }
    }
}

/// A TQ test ready to roll: the result of every 2d6 sum, and the results
/// with their exact probabilities.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TqTest {
    by_roll: [Tq; 13],
    options: [(Tq, f64); 4],
    n: u8,
    grade: Grade,
    net: i32,
    mode: TqMode,
}

impl TqTest {
    /// A test of `grade` with net modifier `net` applied the `mode` way.
    pub fn new(grade: Grade, net: i32, mode: TqMode) -> TqTest {
        let mut by_roll = [Tq::DecisiveSuccess; 13];
        for (s, r) in by_roll.iter_mut().enumerate().skip(2) {
            *r = match mode {
                TqMode::Row => {
                    let row = Grade::from_tq((grade.tq() + net).clamp(MIN_TQ, MAX_TQ))
                        .expect("clamped to the table");
                    read(row, s as u8)
                }
                TqMode::Roll => read(grade, (s as i32 - net).clamp(2, 12) as u8),
            };
        }
        let mut ways = [0u32; 4];
        for a in 1..=6 {
            for b in 1..=6 {
                ways[by_roll[a + b] as usize] += 1;
            }
        }
        let mut options = [(Tq::DecisiveSuccess, 0.0); 4];
        let mut n = 0;
        for t in Tq::ALL {
            if ways[t as usize] > 0 {
                options[n] = (t, ways[t as usize] as f64 / 36.0);
                n += 1;
            }
        }
        TqTest {
            by_roll,
            options,
            n: n as u8,
            grade,
            net,
            mode,
        }
    }
    /// The result of a 2d6 sum (2..=12).
    #[inline]
    pub fn result(&self, sum: u8) -> Tq {
        self.by_roll[sum as usize]
    }
    /// The results that can occur, with their probabilities.
    pub fn options(&self) -> &[(Tq, f64)] {
        &self.options[..self.n as usize]
    }
    /// Exact probability of a result.
    pub fn probability(&self, t: Tq) -> f64 {
        self.options()
            .iter()
            .find(|(r, _)| *r == t)
            .map_or(0.0, |(_, p)| *p)
    }
    /// Probability of passing (DS or S).
    pub fn pass_probability(&self) -> f64 {
        self.probability(Tq::DecisiveSuccess) + self.probability(Tq::Success)
    }
    /// The unit's grade.
    pub fn grade(&self) -> Grade {
        self.grade
    }
    /// The net modifier.
    pub fn net(&self) -> i32 {
        self.net
    }
    /// How the modifiers apply (`[rules] tq_modifier_mode`).
    pub fn mode(&self) -> TqMode {
        self.mode
    }
    /// The grade row read in row mode (the unit's own row in roll mode).
    pub fn row(&self) -> Grade {
        match self.mode {
            TqMode::Row => {
                Grade::from_tq((self.grade.tq() + self.net).clamp(MIN_TQ, MAX_TQ)).unwrap()
            }
            TqMode::Roll => self.grade,
        }
    }
}

/// What kind of test: decides which situational modifiers can apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TestKind {
    /// Fire, closing, receiving casualties, fleeing: only the unit's own
    /// modifiers.
    General,
    /// A charge reaction test (field works +1).
    ChargeReaction,
    /// A close combat test (field works +1, lower CC value −1).
    CloseCombat,
    /// A test on the Uncontrolled units table (single unit −1).
    Uncontrolled,
}

/// The situation of a test: its kind and the situational modifiers claimed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Situation {
    /// Which kind of test.
    pub kind: TestKind,
    /// The unit's side has the lower total CC value (close combat only).
    pub lower_cc_value: bool,
    /// A single unit on the Uncontrolled units table (uncontrolled only).
    pub single_unit: bool,
    /// A further modifier for this test.
    pub extra: i8,
}

impl Situation {
    /// A test of `kind` with no situational modifier.
    pub fn of(kind: TestKind) -> Situation {
        Situation {
            kind,
            lower_cc_value: false,
            single_unit: false,
            extra: 0,
        }
    }
    /// The same with `extra` added.
    pub fn with_extra(mut self, extra: i8) -> Situation {
        self.extra = extra;
        self
    }
}

/// The modifiers of a test by `unit` (its static attributes) when it is
/// `disordered` and a charismatic leader is attached or not (`charisma`),
/// each labelled, in card order, then the unit's and the test's extras.
pub fn modifiers(
    unit: &Unit,
    disordered: bool,
    charisma: bool,
    s: &Situation,
) -> Vec<(&'static str, i32)> {
    let mut m = Vec::new();
    for &(k, v, label) in &TQ_MODIFIERS {
        if applies(k, unit, disordered, charisma, s) {
            m.push((label, v as i32));
        }
    }
    if unit.extra_tq != 0 {
        m.push(("unit extra_tq", unit.extra_tq as i32));
    }
    if s.extra != 0 {
        m.push(("step extra_tq", s.extra as i32));
    }
    m
}

/// Whether the card's modifier `k` applies to a test by `unit` in
/// situation `s` (`disordered`, `charisma`: as in [`modifiers`]).
pub fn applies(
    k: TqModifier,
    unit: &Unit,
    disordered: bool,
    charisma: bool,
    s: &Situation,
) -> bool {
    match k {
        TqModifier::Disordered => disordered,
        TqModifier::LowerCcValue => s.kind == TestKind::CloseCombat && s.lower_cc_value,
        TqModifier::SingleUncontrolled => s.kind == TestKind::Uncontrolled && s.single_unit,
        TqModifier::Fatigued => unit.fatigued,
        TqModifier::Charismatic => charisma && unit.charismatic,
        TqModifier::FieldWorks => {
            unit.field_works && matches!(s.kind, TestKind::ChargeReaction | TestKind::CloseCombat)
        }
    }
}

/// A unit's tests in one situation, for each state that changes a modifier
/// during a procedure: Disordered or not, charismatic leader attached or not.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tester {
    tests: [[TqTest; 2]; 2],
}

impl Tester {
    /// The tests of `unit` in `situation`.
    pub fn new(unit: &Unit, situation: &Situation, mode: TqMode) -> Tester {
        let t = |d: bool, c: bool| {
            let net = modifiers(unit, d, c, situation)
                .iter()
                .map(|(_, v)| v)
                .sum();
            TqTest::new(unit.grade, net, mode)
        };
        Tester {
            tests: [
                [t(false, false), t(false, true)],
                [t(true, false), t(true, true)],
            ],
        }
    }
    /// The test for a unit in `state` (the leader counts while the
    /// commander is attached and uninjured).
    #[inline]
    pub fn get(&self, state: &UnitState) -> &TqTest {
        &self.tests[state.status.is_disordered() as usize][state.commander as usize]
    }
    /// Tests once.
    #[inline]
    pub fn test<W: Draw>(&self, w: &mut W, state: &UnitState) -> Tq {
        w.test(self.get(state))
    }
}

/// `lower_cc_value`, declared once: its doc and its reader.
pub(crate) const LOWER_CC_VALUE: Key<bool> = Key::flag(
    "lower_cc_value",
    "true: the unit's side has the lower total CC value, -1 (with test = close-combat)",
);

/// `single_unit`, declared once: its doc and its reader.
pub(crate) const SINGLE_UNIT: Key<bool> = Key::flag(
    "single_unit",
    "true: a single (not independent) unit on the Uncontrolled units table, -1 (with test = uncontrolled)",
);

/// What `pikeshot list` says of `tq-test`.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "tq-test",
    rule: "TQ Table",
    summary: "one TQ test: 2d6 on the unit's grade row, shifted by the TQ modifiers",
    keys: &[
        KeyDoc::unit("unit", "required: the unit testing"),
        KeyDoc::one_of("test", &TEST_KINDS, "which situational modifiers can apply").or("general"),
        LOWER_CC_VALUE.doc(),
        SINGLE_UNIT.doc(),
        extra_tq("extra_tq", "any further TQ modifier")
            .or("0")
            .doc(),
    ],
    outcomes: &OUTCOMES,
    measures: &["passed"],
};

/// The procedure `tq-test`: one TQ test, reporting DS / S / F / DF and
/// whether it passed.
#[derive(Clone, Debug)]
pub struct TroopQualityTest {
    test: TqTest,
    modifiers: Vec<(&'static str, i32)>,
    tested: super::explain::why::Tested,
    space: OutcomeSpace,
    leaves: [Leaf; 4],
}

impl TroopQualityTest {
    /// The test of `unit` (in its current state) in `situation`.
    pub fn new(unit: &Unit, situation: &Situation, mode: Readings) -> TroopQualityTest {
        let modifiers = modifiers(
            unit,
            unit.state.status.is_disordered(),
            unit.state.commander,
            situation,
        );
        let net = modifiers.iter().map(|(_, v)| v).sum();
        let space = OutcomeSpace::from_labels(&OUTCOMES, vec![Measure::new("passed", 0, 1)]);
        let leaves = Tq::ALL.map(|t| space.leaf(t as usize, &[t.passed() as i32]));
        TroopQualityTest {
            tested: super::explain::why::Tested::new(
                unit,
                situation.kind,
                situation.extra,
                "extra_tq",
            )
            .in_situation(*situation),
            test: TqTest::new(unit.grade, net, mode.tq_mode),
            modifiers,
            space,
            leaves,
        }
    }

    /// Reads a `tq-test` step (keys in [`INFO`]).
    pub fn from_step(
        f: &mut Fields,
        units: &[Unit],
        mode: Readings,
    ) -> Result<TroopQualityTest, InputError> {
        let u = find_unit(f, "unit", units)?;
        let kind = f
            .named(
                "test",
                "test",
                |s| match s {
                    "general" => Some(TestKind::General),
                    "charge-reaction" => Some(TestKind::ChargeReaction),
                    "close-combat" => Some(TestKind::CloseCombat),
                    "uncontrolled" => Some(TestKind::Uncontrolled),
                    _ => None,
                },
                &TEST_KINDS,
            )?
            .unwrap_or(TestKind::General);
        let lower_cc_value = LOWER_CC_VALUE.get(f)?;
        if lower_cc_value && kind != TestKind::CloseCombat {
            return Err(f.err(
                "lower_cc_value",
                "the lower-CC-value modifier is for close combat tests: set `test = \"close-combat\"`",
            ));
        }
        let single_unit = SINGLE_UNIT.get(f)?;
        if single_unit && kind != TestKind::Uncontrolled {
            return Err(f.err(
                "single_unit",
                "the single-unit modifier is for the Uncontrolled units table: set `test = \"uncontrolled\"`",
            ));
        }
        let extra = read_extra_tq(f, "extra_tq")?;
        finish(f)?;
        let s = Situation {
            kind,
            lower_cc_value,
            single_unit,
            extra,
        };
        Ok(TroopQualityTest::new(&units[u], &s, mode))
    }

    /// The test.
    pub fn test(&self) -> &TqTest {
        &self.test
    }
    /// Who tests, for `pikeshot explain`.
    pub fn tested(&self) -> &super::explain::why::Tested {
        &self.tested
    }
    /// Each modifier applied, with its label.
    pub fn modifiers(&self) -> &[(&'static str, i32)] {
        &self.modifiers
    }
    /// Runs the test on any [`Draw`].
    #[inline]
    pub fn run<W: Draw>(&self, w: &mut W) -> Leaf {
        self.leaves[w.test(&self.test) as usize]
    }
}

draw::draw_procedure!(TroopQualityTest);

/// The tests `test` may name.
pub const TEST_KINDS: [&str; 4] = ["general", "charge-reaction", "close-combat", "uncontrolled"];

/// A TQ modifier key (`extra_tq`, `charger_extra_tq`...): a whole number
/// from −5 to 5, 0 when absent; the one declaration of their range.
pub(crate) const fn extra_tq(key: &'static str, help: &'static str) -> Key<i64> {
    Key::int(key, -5, 5, help)
}

/// Reads a TQ modifier key (see [`extra_tq`]).
pub(crate) fn read_extra_tq(f: &mut Fields, key: &'static str) -> Result<i8, InputError> {
    Ok(extra_tq(key, "").get(f)? as i8)
}

/// Refuses any key of a step no one asked for, leaving the caller's reader
/// fresh.
pub(crate) fn finish(f: &mut Fields) -> Result<(), InputError> {
    f.has("procedure");
    let fresh = f.fresh();
    std::mem::replace(f, fresh).finish()
}

pub(crate) use crate::scenario::fields::{key_err, relocate};

/// The TQ Table and its modifiers, as on the card.
pub fn charts() -> Vec<Chart> {
    let band = |b: Option<(u8, u8)>| match b {
        None => "-".to_string(),
        Some((lo, hi)) if lo == hi => lo.to_string(),
        Some((lo, hi)) => format!("{lo} - {hi}"),
    };
    let mut notes = vec!["TQ modifiers:".to_string()];
    notes.extend(
        TQ_MODIFIERS
            .iter()
            .map(|(_, v, label)| format!("{v:+} {label}")),
    );
    notes.push(
        "DS / S / F / DF = Decisive Success / Success / Failure / Decisive Failure (docs/rules/hakkaa.md section 2); a pass is 2d6 <= TQ"
            .into(),
    );
    notes.push(
        "Modifiers shift the grade row, clamped to Rabble (6) .. Fanatic (11); tq_modifier_mode = \"roll\" shifts the 2d6 roll instead (+1 reads one lower, clamped to 2..12)"
            .into(),
    );
    vec![Chart {
        id: "tq",
        title: "TQ Table".into(),
        rule: "Troop Quality",
        headers: super::row::result_headers("Grade"),
        rows: TQ_TABLE
            .iter()
            .map(|r| {
                let mut row = vec![format!("{} ({})", r.title, r.grade.tq())];
                row.extend(r.bands.iter().map(|b| band(*b)));
                row
            })
            .collect(),
        notes,
    }]
}
