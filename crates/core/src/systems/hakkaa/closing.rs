//! The Closing Table and its conditions, and the procedure `closing`: the
//! charger's TQ test on its row decides whether it moves into contact.
//!
//! A assaults unless conditions are unfavourable; A_F only if they are
//! favourable and none is unfavourable; A_R regardless; F_B falls back 50
//! paces and becomes Disordered; "-" stays in place. The conditions are
//! worked out from the two units' states and the step's positional flags
//! (`group_in_contact`, `flank_or_rear`, `enemy_uphill`, `chevaux_de_frise`),
//! and `favourable` / `unfavourable` override the result.

use super::draw::{self, Draw};
use super::explain::why::{Tested, Why};
use super::pair::{self, Ranges};
use super::row::ResultRow;
use super::tq::extra_tq;
use super::tq::{Readings, Situation, TestKind, Tester, Tq, TqTest, key_err, read_extra_tq};
use super::unit::{Formation, Unit, UnitClass, check_pair};
use crate::error::InputError;
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::scenario::Fields;
use crate::systems::Key;
use crate::systems::chart::labelled;
use crate::systems::{Chart, KeyDoc, ProcedureInfo};

/// A cell of the Closing Table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClosingResult {
    /// "-": no effect, the unit remains in place.
    NoEffect,
    /// A: assault, into contact if conditions are not unfavourable.
    Assault,
    /// A_F: into contact if conditions are favourable and none unfavourable.
    AssaultIfFavourable,
    /// A_R: into contact regardless of conditions.
    AssaultRegardless,
    /// F_B: fall back 50 paces and become Disordered.
    FallBack,
}

impl ClosingResult {
    /// As printed.
    pub fn cell(self) -> &'static str {
        ["-", "A", "A_F", "A_R", "F_B"][self as usize]
    }
    /// Whether the charger moves into contact under these conditions.
    pub fn contact(self, favourable: bool, unfavourable: bool) -> bool {
        match self {
            ClosingResult::NoEffect | ClosingResult::FallBack => false,
            ClosingResult::Assault => !unfavourable,
            ClosingResult::AssaultIfFavourable => favourable && !unfavourable,
            ClosingResult::AssaultRegardless => true,
        }
    }
}

use ClosingResult::{
    Assault as A, AssaultIfFavourable as AF, AssaultRegardless as AR, FallBack as FB,
    NoEffect as NO,
};

/// A row of the Closing Table.
pub type ClosingRow = ResultRow<ClosingResult>;

const fn r(label: &'static str, cells: [ClosingResult; 4]) -> ClosingRow {
    ClosingRow::new(label, cells)
}

/// The row labels of [`CLOSING_TABLE`], which `closing_row` names.
pub const CLOSING_ROWS: [&str; CLOSING_TABLE.len()] = {
    let mut out = [""; CLOSING_TABLE.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = CLOSING_TABLE[i].label;
        i += 1;
    }
    out
};

/// Closing table (Close Combat): the charger's row, columns its DS, S, F, DF.
pub const CLOSING_TABLE: [ClosingRow; 12] = [
    r("MI", [A, AF, NO, FB]),
    r("AI/HI", [AR, A, AF, NO]),
    r("CI", [AR, AR, A, NO]),
    r("Skirmishing", [FB, FB, FB, NO]),
    r("LTI", [A, NO, FB, FB]),
    r("Levy", [AR, A, NO, FB]),
    r("HL", [AR, A, A, NO]),
    r("HQ", [A, AF, NO, FB]),
    r("HBC", [AR, A, A, FB]),
    r("EH", [AR, AF, AF, NO]),
    r("LBC", [AR, A, AF, FB]),
    r("LC", [A, FB, FB, FB]),
];

/// The Closing Table row a unit reads: "Skirmishing" in skirmish order, else
/// its class's row; `None` for SC and artillery, which have none.
pub fn row_for(class: UnitClass, formation: Formation) -> Option<usize> {
    if formation == Formation::Skirmishing {
        return Some(3);
    }
    Some(match class {
        UnitClass::Mi => 0,
        UnitClass::Ai | UnitClass::Hi => 1,
        UnitClass::Ci => 2,
        UnitClass::Lti => 4,
        UnitClass::Levy => 5,
        UnitClass::Hl => 6,
        UnitClass::Hq => 7,
        UnitClass::Hbc => 8,
        UnitClass::Eh => 9,
        UnitClass::Lbc => 10,
        UnitClass::Lc => 11,
        UnitClass::Sc | UnitClass::Artillery => return None,
    })
}

/// The favourable conditions, in card order (any one is enough).
pub const FAVOURABLE: [&str; 6] = [
    "not Disordered, and a general attached",
    "not Disordered, and other units of the same group already in contact [group_in_contact]",
    "the enemy is artillery",
    "not Disordered, and the enemy Disordered",
    "EH, and the enemy Disordered",
    "closing with the enemy's flank or rear [flank_or_rear]",
];

/// The unfavourable conditions, in card order.
pub const UNFAVOURABLE: [&str; 2] = [
    "self Disordered, and the enemy not Disordered",
    "self Disordered, and the enemy uphill [enemy_uphill] or behind chevaux de frise [chevaux_de_frise] or field works (the target's `field_works`)",
];

/// Options of a closing test (also read by `charge`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ClosingOptions {
    /// Replaces the computed "conditions are favourable".
    pub favourable: Option<bool>,
    /// Replaces the computed "conditions are unfavourable".
    pub unfavourable: Option<bool>,
    /// Other units of the charger's group already moved into contact.
    pub group_in_contact: bool,
    /// Closing with the enemy's flank or rear.
    pub flank_or_rear: bool,
    /// The enemy is uphill.
    pub enemy_uphill: bool,
    /// The enemy is behind chevaux de frise.
    pub chevaux_de_frise: bool,
    /// The Closing Table row, replacing the charger's.
    pub row: Option<usize>,
    /// Further TQ modifier of the charger's test.
    pub charger_extra_tq: i8,
}

/// Reads a row key by its printed label (case-insensitive).
pub(crate) fn read_row(
    f: &mut Fields,
    key: &'static str,
    labels: &[&'static str],
) -> Result<Option<usize>, InputError> {
    let names: Vec<String> = labels.iter().map(|l| l.to_ascii_lowercase()).collect();
    f.named(
        key,
        "table row",
        |s| names.iter().position(|n| *n == s.to_ascii_lowercase()),
        labels,
    )
}

impl ClosingOptions {
    /// Reads the closing keys of a `closing` or `charge` step.
    pub fn read(f: &mut Fields) -> Result<ClosingOptions, InputError> {
        Ok(ClosingOptions {
            favourable: FAVOURABLE_KEY.read(f)?,
            unfavourable: UNFAVOURABLE_KEY.read(f)?,
            group_in_contact: GROUP_IN_CONTACT.get(f)?,
            flank_or_rear: FLANK_OR_REAR.get(f)?,
            enemy_uphill: ENEMY_UPHILL.get(f)?,
            chevaux_de_frise: CHEVAUX_DE_FRISE.get(f)?,
            row: read_row(f, "closing_row", &CLOSING_ROWS)?,
            charger_extra_tq: read_extra_tq(f, "charger_extra_tq")?,
        })
    }
}

/// The conditions that hold for `charger` closing with `target` (both in
/// their states): the favourable ones and the unfavourable ones, by index
/// into [`FAVOURABLE`] and [`UNFAVOURABLE`].
pub fn conditions(charger: &Unit, target: &Unit, o: &ClosingOptions) -> (Vec<usize>, Vec<usize>) {
    let own_d = charger.state.status.is_disordered();
    let enemy_d = target.state.status.is_disordered();
    let fav = [
        !own_d && charger.general_attached(),
        !own_d && o.group_in_contact,
        target.class == UnitClass::Artillery,
        !own_d && enemy_d,
        charger.class == UnitClass::Eh && enemy_d,
        o.flank_or_rear,
    ];
    let unfav = [
        own_d && !enemy_d,
        own_d && (o.enemy_uphill || o.chevaux_de_frise || target.field_works),
    ];
    let on = |v: &[bool]| v.iter().enumerate().filter(|x| *x.1).map(|x| x.0).collect();
    (on(&fav), on(&unfav))
}

/// Refuses a charge (or its parts) that cannot happen: the same unit
/// twice, a charger that cannot act, a target fleeing or eliminated.
pub(crate) fn check_charge(charger: &Unit, target: &Unit) -> Result<(), InputError> {
    check_pair(
        charger,
        target,
        "target",
        "charge",
        &[
            ("charger", charger, " and cannot charge"),
            (
                "target",
                target,
                ": the card's charge tables are for a target that can react",
            ),
        ],
    )
}

/// The extra measure of closing and charge reaction: 1 when the charge goes
/// on into contact.
pub const CONTACT: &str = "contact";

/// What `pikeshot list` says of `closing`.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "closing",
    rule: "Closing table",
    summary: "the charger's TQ test on its Closing Table row: into contact (A / A_F / A_R under the conditions), stay, or fall back",
    keys: CLOSING_KEYS,
    outcomes: &pair::TARGET_OUTCOMES,
    measures: &pair::with_extras::<6>(&[CONTACT]),
};

/// `charger`, read by `closing`, `charge-reaction` and `charge`.
pub const CHARGER_KEY: KeyDoc = KeyDoc::unit("charger", "required: the charging unit");
/// `target`, read by `closing`, `charge-reaction` and `charge`.
pub const TARGET_KEY: KeyDoc = KeyDoc::unit("target", "required: the unit charged");
/// `group_in_contact`, declared once: its doc and its reader.
pub(crate) const GROUP_IN_CONTACT: Key<bool> = Key::flag(
    "group_in_contact",
    "true: other units of the charger's group already moved into contact",
);

/// `enemy_uphill`, declared once: its doc and its reader.
pub(crate) const ENEMY_UPHILL: Key<bool> = Key::flag("enemy_uphill", "true: the target is uphill");

/// `chevaux_de_frise`, declared once: its doc and its reader.
pub(crate) const CHEVAUX_DE_FRISE: Key<bool> = Key::flag(
    "chevaux_de_frise",
    "true: the target is behind chevaux de frise",
);

/// `favourable`, declared once: its doc and its reader.
pub(crate) const FAVOURABLE_KEY: Key<bool> = Key::flag(
    "favourable",
    "true / false: replaces the computed favourable conditions",
);

/// `unfavourable`, declared once: its doc and its reader.
pub(crate) const UNFAVOURABLE_KEY: Key<bool> = Key::flag(
    "unfavourable",
    "true / false: replaces the computed unfavourable conditions",
);

/// `flank_or_rear`, declared once: its doc and its reader.
pub(crate) const FLANK_OR_REAR: Key<bool> = Key::flag(
    "flank_or_rear",
    "true: closing with the target's flank or rear (favourable)",
);

/// `group_in_contact`, a closing condition of `closing` and `charge`.
pub const GROUP_IN_CONTACT_KEY: KeyDoc = GROUP_IN_CONTACT.doc();
/// `enemy_uphill`, a closing condition of `closing` and `charge`.
pub const ENEMY_UPHILL_KEY: KeyDoc = ENEMY_UPHILL.doc();
/// `chevaux_de_frise`, a closing condition of `closing` and `charge`.
pub const CHEVAUX_DE_FRISE_KEY: KeyDoc = CHEVAUX_DE_FRISE.doc();
/// `closing_row`, read by `closing` and `charge`.
pub const CLOSING_ROW_KEY: KeyDoc = KeyDoc::one_of(
    "closing_row",
    &CLOSING_ROWS,
    "a Closing Table row, replacing the charger's",
);

/// The keys of a closing test.
pub const CLOSING_KEYS: &[KeyDoc] = &[
    CHARGER_KEY,
    TARGET_KEY,
    FAVOURABLE_KEY.doc(),
    UNFAVOURABLE_KEY.doc(),
    GROUP_IN_CONTACT_KEY,
    FLANK_OR_REAR.doc(),
    ENEMY_UPHILL_KEY,
    CHEVAUX_DE_FRISE_KEY,
    CLOSING_ROW_KEY,
    extra_tq(
        "charger_extra_tq",
        "further modifier of the charger's tests",
    )
    .doc(),
];

/// The procedure `closing`.
#[derive(Clone, Debug)]
pub struct Closing {
    test: TqTest,
    row: usize,
    favourable: bool,
    unfavourable: bool,
    leaves: [Leaf; 4],
    space: OutcomeSpace,
    /// What `pikeshot explain` reads of how the procedure was built.
    why: Box<Why>,
}

impl Closing {
    /// `charger` closing with `target`, both in their states.
    pub fn new(
        charger: &Unit,
        target: &Unit,
        o: &ClosingOptions,
        readings: Readings,
    ) -> Result<Closing, InputError> {
        check_charge(charger, target)?;
        let row = match o.row {
            Some(r) => r,
            None => row_for(charger.class, charger.formation).ok_or_else(|| {
                key_err(
                    "charger",
                    format!(
                        "the Closing Table has no row for {} ({}): name one with `closing_row`",
                        charger.name,
                        charger.class.abbreviation()
                    ),
                )
                .accepted(
                    CLOSING_TABLE
                        .iter()
                        .map(|r| r.label)
                        .collect::<Vec<_>>()
                        .join(", "),
                )
            })?,
        };
        let (fav, unfav) = conditions(charger, target, o);
        let favourable = o.favourable.unwrap_or(!fav.is_empty());
        let unfavourable = o.unfavourable.unwrap_or(!unfav.is_empty());
        let test = *Tester::new(
            charger,
            &Situation::of(TestKind::General).with_extra(o.charger_extra_tq),
            readings.tq_mode,
        )
        .get(&charger.state);
        let space = pair::space(
            Ranges {
                target_losses: 0,
                target_commander: false,
                own_losses: 0,
                own_commander: false,
            },
            vec![Measure::new(CONTACT, 0, 1)],
        );
        let t = target.state;
        let own = charger.state;
        let leaves = Tq::ALL.map(|tq| {
            let res = CLOSING_TABLE[row].cells[tq as usize];
            let mut after = own;
            if res == ClosingResult::FallBack {
                after.status = after.status.fall_back();
            }
            let contact = res.contact(favourable, unfavourable);
            pair::leaf(&space, (&t, &t), (&own, &after), &[contact as i32])
        });
        let mut notes = vec![match o.row {
            Some(_) => format!("row {}: the step's closing_row", CLOSING_TABLE[row].label),
            None => format!(
                "row {}: {} class {} ({})",
                CLOSING_TABLE[row].label,
                crate::explain::possessive(&charger.name),
                charger.class.abbreviation(),
                charger.formation
            ),
        }];
        let said = |v: &[usize], of: &[&str], key: Option<bool>, name: &str| match key {
            Some(b) => format!(
                "{name} conditions: {} (step key {name} = {b})",
                if b { "yes" } else { "no" }
            ),
            None if v.is_empty() => format!("{name} conditions: none hold"),
            None => format!(
                "{name} conditions: {}",
                v.iter().map(|&i| of[i]).collect::<Vec<_>>().join("; ")
            ),
        };
        notes.push(said(&fav, &FAVOURABLE, o.favourable, "favourable"));
        notes.push(said(&unfav, &UNFAVOURABLE, o.unfavourable, "unfavourable"));
        let why = Box::new(Why {
            // The charger tests; the target is named (it does not test here).
            tests: vec![
                Tested::new(
                    charger,
                    TestKind::General,
                    o.charger_extra_tq,
                    "charger_extra_tq",
                ),
                Tested::new(target, TestKind::General, 0, "target_extra_tq"),
            ],
            lines: Vec::new(),
            notes,
        });
        Ok(Closing {
            test,
            row,
            favourable,
            unfavourable,
            leaves,
            space,
            why,
        })
    }

    /// The charger's test.
    pub fn test(&self) -> &TqTest {
        &self.test
    }
    /// The Closing Table row read.
    pub fn row(&self) -> &'static ClosingRow {
        &CLOSING_TABLE[self.row]
    }
    /// Conditions are favourable.
    pub fn favourable(&self) -> bool {
        self.favourable
    }
    /// Conditions are unfavourable.
    pub fn unfavourable(&self) -> bool {
        self.unfavourable
    }
    /// Runs once on any [`Draw`].
    #[inline]
    pub fn run<W: Draw>(&self, w: &mut W) -> Leaf {
        self.leaves[w.test(&self.test) as usize]
    }
}

draw::draw_procedure!(Closing, why);

/// The Closing Table with its key and conditions.
pub fn charts() -> Vec<Chart> {
    let mut notes = vec![
        "- no effect: the unit remains in place".to_string(),
        "F_B Fall Back: 50 paces back, becomes Disordered (the TQ check in an enemy Assault Zone is not modelled)".into(),
        "A_F Assault if favourable: into contact if conditions are favourable and none unfavourable".into(),
        "A Assault: into contact if conditions are not unfavourable".into(),
        "A_R Assault regardless of conditions: into contact".into(),
        "Favourable conditions:".into(),
    ];
    notes.extend(FAVOURABLE.iter().map(|s| format!("  {s}")));
    notes.push("Unfavourable conditions:".into());
    notes.extend(UNFAVOURABLE.iter().map(|s| format!("  {s}")));
    vec![Chart {
        id: "closing",
        title: "Closing table".into(),
        rule: "Close Combat",
        headers: super::row::result_headers(""),
        rows: CLOSING_TABLE
            .iter()
            .map(|r| labelled(r.label, r.cells.iter().map(|c| c.cell().to_string())))
            .collect(),
        notes,
    }]
}
