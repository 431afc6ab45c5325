//! Fire combat: the Fire Table, and the procedure `fire`.
//!
//! The firer tests its TQ; the result picks the column of the Fire Table on
//! the row of its Fire Points (docs/rules/hakkaa.md section 3: the firer rolls, FP is a
//! scenario input). The cell names the casualties (NE, LC, 2 LC, C, 2 C, HC),
//! a step-loss roll (S4+, S5+) and a commander-injury roll (*, **) for the
//! target; the target then tests once per casualty result on the Receiving
//! Casualties Table ([`super::casualties`]).

use super::casualties::{self, Injury, Level, StepRoll};
use super::draw::{self, Draw};
use super::explain::why::{Tested, Why, fp_lines};
use super::pair::{self, Ranges};
use super::tq::extra_tq;
use super::tq::{
    DoubleResults, Readings, Situation, TestKind, Tester, Tq, TqTest, key_err, read_extra_tq,
};
use super::unit::{MAX_FP, Unit, UnitState, check_pair, find_unit};
use crate::error::InputError;
use crate::explain::Source;
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::scenario::Fields;
use crate::systems::Key;
use crate::systems::chart::labelled;
use crate::systems::{Chart, KeyDoc, ProcedureInfo};

/// The casualties of a Fire Table cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Casualty {
    /// NE: no effect.
    Ne,
    /// LC.
    Lc,
    /// 2 LC: two LC results, each tested (docs/rules/hakkaa.md section 3).
    TwoLc,
    /// C.
    C,
    /// 2 C: two C results, each tested (as 2 LC).
    TwoC,
    /// HC.
    Hc,
}

impl Casualty {
    /// The Receiving Casualties row and how many tests it takes.
    pub fn tests(self) -> Option<(Level, u8)> {
        match self {
            Casualty::Ne => None,
            Casualty::Lc => Some((Level::Lc, 1)),
            Casualty::TwoLc => Some((Level::Lc, 2)),
            Casualty::C => Some((Level::C, 1)),
            Casualty::TwoC => Some((Level::C, 2)),
            Casualty::Hc => Some((Level::Hc, 1)),
        }
    }
    /// As printed.
    pub fn abbreviation(self) -> &'static str {
        ["NE", "LC", "2 LC", "C", "2 C", "HC"][self as usize]
    }
}

/// Measure: the Fire Table result of a `fire` step, by severity: 1 NE, 2 LC,
/// 3 2 LC, 4 C, 5 2 C, 6 HC ([`Casualty`] order, plus one). A course with one
/// `fire` step reports it too, with 0 when the step did not fire
/// (docs/rules/hakkaa.md section 3).
pub const FIRE_RESULT: &str = "fire-result";

/// The [`FIRE_RESULT`] value of a casualty result.
pub fn result_value(c: Casualty) -> i32 {
    c as i32 + 1
}

/// Measure: 1 when the volley moved the target back (a fall back or a
/// flee: D on a Disordered unit, F, X) or eliminated it. A course ends the
/// target's contact on it (docs/rules/hakkaa.md, section 7, "Contact").
pub const TARGET_MOVED_BACK: &str = "target-moved-back";

/// The measures of `fire`: the pair measures, then [`FIRE_RESULT`] and
/// [`TARGET_MOVED_BACK`].
pub const FIRE_MEASURES: [&str; 7] = pair::with_extras(&[FIRE_RESULT, TARGET_MOVED_BACK]);

/// One cell of the Fire Table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FireCell {
    /// Casualties.
    pub casualty: Casualty,
    /// Commander-injury roll.
    pub injury: Injury,
    /// Step-loss roll.
    pub step: StepRoll,
}

impl FireCell {
    /// The cell as printed: "NE", "2 LC *", "C * S5+", "HC ** S4+".
    pub fn cell(&self) -> String {
        casualties::cell(self.casualty.abbreviation(), self.injury, self.step)
    }
}

const fn c(casualty: Casualty, injury: Injury, step: StepRoll) -> FireCell {
    FireCell {
        casualty,
        injury,
        step,
    }
}

const NE: FireCell = c(Casualty::Ne, Injury::None, StepRoll::None);
const LC: FireCell = c(Casualty::Lc, Injury::None, StepRoll::None);
const LC2: FireCell = c(Casualty::TwoLc, Injury::None, StepRoll::None);
const LC2_: FireCell = c(Casualty::TwoLc, Injury::On6, StepRoll::None);
const C_: FireCell = c(Casualty::C, Injury::On6, StepRoll::None);
const C_S5: FireCell = c(Casualty::C, Injury::On6, StepRoll::On5);
const C2__S5: FireCell = c(Casualty::TwoC, Injury::On5, StepRoll::On5);
const HC__S4: FireCell = c(Casualty::Hc, Injury::On5, StepRoll::On4);

/// Fire Table rows, by Fire Points.
pub const FP_ROWS: [&str; 9] = ["<1", "1", "2", "3", "4", "5", "6", "7", "8+"];

/// Fire Table: rows FP <1, 1, …, 7, 8+; columns the firer's DS, S, F, DF.
pub const FIRE_TABLE: [[FireCell; 4]; 9] = [
    [LC, NE, NE, NE],           // <1
    [LC2_, LC, NE, NE],         // 1
    [C_S5, LC, NE, NE],         // 2
    [C_S5, LC2_, LC, NE],       // 3
    [C_S5, C_, LC, NE],         // 4
    [HC__S4, C_S5, LC, NE],     // 5
    [HC__S4, C_S5, LC2, NE],    // 6
    [HC__S4, C_S5, LC2_, LC],   // 7
    [HC__S4, C2__S5, C_S5, LC], // 8+
];

/// The Fire Table row of `fp` Fire Points (0 reads "<1", 8 or more "8+").
pub fn fp_row(fp: u8) -> usize {
    fp.min(8) as usize
}

/// The Fire Table cell for `fp` Fire Points and the firer's TQ result.
pub fn cell(fp: u8, tq: Tq) -> FireCell {
    FIRE_TABLE[fp_row(fp)][tq as usize]
}

/// The Fire Points a unit fires with: its FP plus `modifier` (range and the
/// like, never below 0), halved and rounded down for ½Fi (docs/rules/hakkaa.md section 3).
pub fn effective_fp(fp: u8, modifier: i8, half: bool) -> u8 {
    let v = (fp as i32 + modifier as i32).clamp(0, MAX_FP as i32) as u8;
    if half { v / 2 } else { v }
}

/// What a Fire Table cell does to the unit fired at: the step-loss roll, the
/// commander-injury roll, then one Receiving Casualties test per casualty.
/// With `one_test`, "2 LC" and "2 C" take a single test. Returns true
/// when the unit was moved back (fell back, fled) or eliminated.
#[inline]
pub fn apply<W: Draw>(
    w: &mut W,
    cell: FireCell,
    target: &Tester,
    s: &mut UnitState,
    one_test: bool,
) -> bool {
    casualties::suffer(w, s, cell.step, cell.injury);
    match cell.casualty.tests() {
        Some((level, n)) => {
            let n = if one_test { 1 } else { n };
            casualties::receive(w, target, s, level, n)
        }
        None => s.eliminated(),
    }
}

/// One unit's fire at another, ready to roll: the firer's test, the row of
/// its Fire Points, and the target's tests. Also used for reaction fire.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Volley {
    firer: TqTest,
    fp: u8,
    cells: [FireCell; 4],
    target: Tester,
    one_test: bool,
}

impl Volley {
    /// `firer` (in its state) firing `fp` Fire Points at `target`.
    pub fn new(
        firer: &Unit,
        fp: u8,
        firer_extra: i8,
        target: &Unit,
        target_extra: i8,
        readings: Readings,
    ) -> Volley {
        let own = Tester::new(
            firer,
            &Situation::of(TestKind::General).with_extra(firer_extra),
            readings.tq_mode,
        );
        Volley {
            firer: *own.get(&firer.state),
            fp,
            cells: FIRE_TABLE[fp_row(fp)],
            target: Tester::new(
                target,
                &Situation::of(TestKind::General).with_extra(target_extra),
                readings.tq_mode,
            ),
            one_test: readings.double_results == DoubleResults::OneTest,
        }
    }
    /// The Fire Points fired.
    pub fn fp(&self) -> u8 {
        self.fp
    }
    /// The firer's test.
    pub fn firer_test(&self) -> &TqTest {
        &self.firer
    }
    /// The target's Receiving Casualties test in state `s`.
    pub fn target_test(&self, s: &UnitState) -> &TqTest {
        self.target.get(s)
    }
    /// True when "2 LC" and "2 C" take one test (`[rules] double_results`).
    pub fn one_test(&self) -> bool {
        self.one_test
    }
    /// Fires once at a target in state `s`; true when the target was moved
    /// back or eliminated.
    #[inline]
    pub fn run<W: Draw>(&self, w: &mut W, s: &mut UnitState) -> bool {
        let col = w.test(&self.firer);
        apply(w, self.cells[col as usize], &self.target, s, self.one_test)
    }
}

/// Options of a fire step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FireOptions {
    /// Fire Points, replacing the firer's.
    pub fp: Option<u8>,
    /// Added to the Fire Points (range and the like).
    pub fp_modifier: i8,
    /// ½Fi: fire at half Fire Points.
    pub half: bool,
    /// Further TQ modifier of the firer's test.
    pub firer_extra_tq: i8,
    /// Further TQ modifier of the target's Receiving Casualties tests.
    pub target_extra_tq: i8,
}

impl FireOptions {
    /// Reads the options of a `fire` step.
    pub fn read(f: &mut Fields) -> Result<FireOptions, InputError> {
        Ok(FireOptions {
            fp: FP.read(f)?.map(|v| v as u8),
            fp_modifier: FP_MODIFIER.read(f)?.unwrap_or(0) as i8,
            half: HALF.get(f)?,
            firer_extra_tq: read_extra_tq(f, "firer_extra_tq")?,
            target_extra_tq: read_extra_tq(f, "target_extra_tq")?,
        })
    }
}

/// The Fire Points `firer` fires with under `o`; an error at `firer` when
/// it has none.
pub fn fire_points(firer: &Unit, o: &FireOptions) -> Result<u8, InputError> {
    let base = o.fp.or(firer.fp()).ok_or_else(|| {
        key_err(
            "firer",
            format!(
                "{} has no Fire Points: give the unit `fp` or `fp_per_step`, or the step `fp`",
                firer.name
            ),
        )
    })?;
    Ok(effective_fp(base, o.fp_modifier, o.half))
}

/// `fp_modifier`, declared once: its doc and its reader.
pub(crate) const FP_MODIFIER: Key<i64> = Key::int(
    "fp_modifier",
    -20,
    20,
    "added to the Fire Points (range and the like; not below 0)",
);

/// `half`, declared once: its doc and its reader.
pub(crate) const HALF: Key<bool> = Key::flag(
    "half",
    "true: ½Fi, half Fire Points rounded down (default false)",
);

/// `fp`, declared once: its doc and its reader.
pub(crate) const FP: Key<i64> = Key::int(
    "fp",
    0,
    MAX_FP as i64,
    "Fire Points, replacing the firer's `fp` / `fp_per_step` x steps",
);

/// What `pikeshot list` says of `fire`.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "fire",
    rule: "Fire combat",
    summary: "the firer's TQ test picks the Fire Table column on its FP row; the target rolls for step loss and commander, then tests on the Receiving Casualties Table once per casualty",
    keys: &[
        KeyDoc::unit("firer", "required: the unit firing"),
        KeyDoc::unit("target", "required: the unit fired at"),
        FP.doc(),
        FP_MODIFIER.doc(),
        HALF.doc(),
        extra_tq("firer_extra_tq", "further modifier of the firer's test").doc(),
        extra_tq(
            "target_extra_tq",
            "further modifier of the target's Receiving Casualties tests",
        )
        .doc(),
    ],
    outcomes: &pair::TARGET_OUTCOMES,
    measures: &FIRE_MEASURES,
};

/// The procedure `fire`.
#[derive(Clone, Debug)]
pub struct Fire {
    volley: Volley,
    target: UnitState,
    own: UnitState,
    space: OutcomeSpace,
    /// What `pikeshot explain` reads of how the procedure was built.
    why: Box<Why>,
}

impl Fire {
    /// `firer` firing at `target`, both in their current states. Errors
    /// (keyed by the bare step key): the same unit twice, a firer without
    /// Fire Points, a firer that cannot act, a target already eliminated.
    pub fn new(
        firer: &Unit,
        target: &Unit,
        o: &FireOptions,
        readings: Readings,
    ) -> Result<Fire, InputError> {
        check_pair(
            firer,
            target,
            "target",
            "fire at",
            &[("firer", firer, " and cannot fire")],
        )?;
        let fp = fire_points(firer, o)?;
        let volley = Volley::new(
            firer,
            fp,
            o.firer_extra_tq,
            target,
            o.target_extra_tq,
            readings,
        );
        let space = pair::space(
            Ranges {
                target_losses: target.state.steps.min(2),
                target_commander: target.state.commander,
                own_losses: 0,
                own_commander: false,
            },
            vec![
                Measure::new(
                    FIRE_RESULT,
                    result_value(Casualty::Ne),
                    result_value(Casualty::Hc),
                )
                .labelled("Fire Table result"),
                Measure::new(TARGET_MOVED_BACK, 0, 1).labelled("target moved back"),
            ],
        );
        let why = Box::new(Why {
            tests: vec![
                Tested::new(firer, TestKind::General, o.firer_extra_tq, "firer_extra_tq"),
                Tested::new(
                    target,
                    TestKind::General,
                    o.target_extra_tq,
                    "target_extra_tq",
                ),
            ],
            lines: fp_lines(
                firer,
                o.fp.map(|f| (f, "fp")),
                (o.fp_modifier, "fp_modifier"),
                o.half.then(|| Source::key("half = true")),
            ),
            notes: Vec::new(),
        });
        Ok(Fire {
            volley,
            target: target.state,
            own: firer.state,
            space,
            why,
        })
    }

    /// The volley (firer's test, FP, target's tests).
    pub fn volley(&self) -> &Volley {
        &self.volley
    }

    /// Runs once on any [`Draw`].
    #[inline]
    pub fn run<W: Draw>(&self, w: &mut W) -> Leaf {
        let mut t = self.target;
        let v = &self.volley;
        let cell = v.cells[w.test(&v.firer) as usize];
        let moved = apply(w, cell, &v.target, &mut t, v.one_test);
        pair::leaf(
            &self.space,
            (&self.target, &t),
            (&self.own, &self.own),
            &[result_value(cell.casualty), moved as i32],
        )
    }
}

draw::draw_procedure!(Fire, why);

/// Reads two distinct units of a step (acting, then acted upon).
pub(crate) fn read_pair(
    f: &mut Fields,
    actor: &'static str,
    target: &'static str,
    units: &[Unit],
) -> Result<(usize, usize), InputError> {
    let a = find_unit(f, actor, units)?;
    let t = find_unit(f, target, units)?;
    if a == t {
        return Err(f.err(
            target,
            format!("`{actor}` and `{target}` name the same unit"),
        ));
    }
    Ok((a, t))
}

/// The Fire Table as on the card.
pub fn charts() -> Vec<Chart> {
    vec![Chart {
        id: "fire",
        title: "Fire table".into(),
        rule: "Fire combat",
        headers: super::row::result_headers("FP"),
        rows: FIRE_TABLE
            .iter()
            .zip(FP_ROWS)
            .map(|(r, fp)| {
                labelled(fp, r.iter().map(FireCell::cell))
            })
            .collect(),
        notes: vec![
            "Columns: the firer's TQ test; FP: the firer's Fire Points (a scenario input; ½Fi halves, rounded down)".into(),
            "S4+ / S5+: the target loses a step on a single die roll of 4+ / 5+".into(),
            "* / **: any commander attached to the target is injured on a single die roll of 6 / 5+".into(),
            "LC, C, HC: the target tests on the Receiving Casualties Table; 2 LC and 2 C are two results, each tested".into(),
        ],
    }]
}
