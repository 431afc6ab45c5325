//! The Charge Reaction tables (galloping, and trotting/running charges) and
//! the procedure `charge-reaction`: the target tests its TQ on its row, then
//! stands, flees, counter-charges, or fires at the charger through the fire
//! procedure ([`super::fire::Volley`]).
//!
//! Reading of the cells (docs/rules/hakkaa.md): "(d)" flees a Disordered
//! unit and otherwise stands, so "(d) ½Fi" fires only when the unit stands;
//! "Fi" and "½Fi" fire with full or half Fire Points (rounded down) and
//! stand; a unit without Fire Points stands without firing. The charge goes
//! on into contact unless the target fled or the reaction fire moved the
//! charger back (fall back, flee) or eliminated it.

use super::closing::{CHARGER_KEY, CONTACT, TARGET_KEY, check_charge, read_row};
use super::draw::{self, Draw};
use super::explain::why::{Tested, Why, fp_lines};
use super::fire::{Volley, effective_fp};
use super::pair::{self, Ranges};
use super::row::ResultRow;
use super::tq::extra_tq;
use super::tq::{Readings, Situation, TestKind, Tester, TqTest, read_extra_tq};
use super::unit::{Formation, MAX_FP, Status, Unit, UnitClass, UnitState};
use crate::error::InputError;
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::scenario::Fields;
use crate::systems::Key;
use crate::systems::chart::labelled;
use crate::systems::named::named_enum;
use crate::systems::{Chart, KeyDoc, ProcedureInfo};

named_enum! {
    /// The pace of a charge: which Charge Reaction table the target reads.
    Pace {
        /// A galloping charge.
        Gallop = "gallop",
        /// A trotting charge (the Trotting/Running table).
        Trot = "trot",
        /// A running charge (the Trotting/Running table).
        Run = "run",
    }
}

/// The title of the Charge Reaction table `pace` reads.
pub fn pace_title(pace: Pace) -> &'static str {
    if pace.galloping() {
        "Charge reaction table - Galloping charge"
    } else {
        "Charge reaction table - Trotting/Running charge"
    }
}

impl Pace {
    /// True for the galloping table.
    pub fn galloping(self) -> bool {
        self == Pace::Gallop
    }
    /// The default pace of a charger: cavalry gallops, others run.
    pub fn default_for(charger: &Unit) -> Pace {
        if charger.class.is_cavalry() {
            Pace::Gallop
        } else {
            Pace::Run
        }
    }
}

/// Fire in a reaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReactionFire {
    /// No fire.
    None,
    /// ½Fi: fire at half Fire Points.
    Half,
    /// Fi: fire.
    Full,
}

/// A cell of a Charge Reaction table: the printed tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reaction {
    /// St: stand.
    pub stand: bool,
    /// (d): flee if Disordered, otherwise stand.
    pub flee_if_disordered: bool,
    /// Fi / ½Fi.
    pub fire: ReactionFire,
    /// CC: counter charge if possible, otherwise stand.
    pub counter_charge: bool,
    /// Flee.
    pub flee: bool,
}

impl Reaction {
    /// The cell as printed: "St Fi", "(d) ½Fi", "CC", "Flee".
    pub fn cell(&self) -> String {
        let mut t: Vec<&str> = Vec::new();
        if self.stand {
            t.push("St");
        }
        if self.flee_if_disordered {
            t.push("(d)");
        }
        match self.fire {
            ReactionFire::None => {}
            ReactionFire::Half => t.push("½Fi"),
            ReactionFire::Full => t.push("Fi"),
        }
        if self.counter_charge {
            t.push("CC");
        }
        if self.flee {
            t.push("Flee");
        }
        t.join(" ")
    }
}

const fn re(
    stand: bool,
    flee_if_disordered: bool,
    fire: ReactionFire,
    counter_charge: bool,
    flee: bool,
) -> Reaction {
    Reaction {
        stand,
        flee_if_disordered,
        fire,
        counter_charge,
        flee,
    }
}

const ST_FI: Reaction = re(true, false, ReactionFire::Full, false, false);
const ST_HFI: Reaction = re(true, false, ReactionFire::Half, false, false);
const ST: Reaction = re(true, false, ReactionFire::None, false, false);
const D: Reaction = re(false, true, ReactionFire::None, false, false);
const D_FI: Reaction = re(false, true, ReactionFire::Full, false, false);
const D_HFI: Reaction = re(false, true, ReactionFire::Half, false, false);
const HFI: Reaction = re(false, false, ReactionFire::Half, false, false);
const CC: Reaction = re(false, false, ReactionFire::None, true, false);
const FLEE: Reaction = re(false, false, ReactionFire::None, false, true);

/// A row of a Charge Reaction table.
pub type ReactionRow = ResultRow<Reaction>;

const fn rr(label: &'static str, cells: [Reaction; 4]) -> ReactionRow {
    ReactionRow::new(label, cells)
}

/// The row labels, shared by both tables.
pub const ROW_LABELS: [&str; 6] = [
    "MI/HI^S/Art*",
    "Skirmishing/CoM/Art**",
    "Other infantry",
    "HL",
    "Eastern Horse",
    "Other Cavalry***",
];

/// Names of the rows for `reaction_row`, in row order.
pub const ROW_IDS: [&str; 6] = [
    "mi-hi-art",
    "skirmishing-com-art",
    "other-infantry",
    "hl",
    "eastern-horse",
    "other-cavalry",
];

/// Charge reaction table — Galloping charge.
pub const GALLOPING: [ReactionRow; 6] = [
    rr(ROW_LABELS[0], [ST_FI, D_HFI, D_HFI, FLEE]),
    rr(ROW_LABELS[1], [ST_FI, FLEE, FLEE, ST]),
    rr(ROW_LABELS[2], [D_HFI, D_HFI, D, FLEE]),
    rr(ROW_LABELS[3], [CC, CC, D, FLEE]),
    rr(ROW_LABELS[4], [CC, D_HFI, D, FLEE]),
    rr(ROW_LABELS[5], [ST_FI, D_HFI, D, FLEE]),
];

/// Charge reaction table — Trotting/Running charge.
pub const TROTTING: [ReactionRow; 6] = [
    rr(ROW_LABELS[0], [ST_FI, D_FI, D_HFI, FLEE]),
    rr(ROW_LABELS[1], [ST_FI, FLEE, FLEE, ST]),
    rr(ROW_LABELS[2], [HFI, D_HFI, D_HFI, FLEE]),
    rr(ROW_LABELS[3], [CC, CC, D, FLEE]),
    rr(ROW_LABELS[4], [CC, ST_HFI, D_HFI, FLEE]),
    rr(ROW_LABELS[5], [ST_FI, ST_HFI, D_HFI, FLEE]),
];

/// The table for a pace.
pub fn table(pace: Pace) -> &'static [ReactionRow; 6] {
    if pace.galloping() {
        &GALLOPING
    } else {
        &TROTTING
    }
}

/// The row a target reads (the card's footnotes): any unit in skirmish order
/// or column of march, and limbered artillery, read "Skirmishing/CoM/Art**";
/// other MI, HI and unlimbered artillery "MI/HI/Art*"; other AI, CI, LTI and
/// Levy "Other infantry"; HL; EH "Eastern Horse"; other cavalry "Other
/// Cavalry***".
pub fn row_for(class: UnitClass, formation: Formation, limbered: bool) -> usize {
    if formation != Formation::Formed || limbered {
        return 1;
    }
    match class {
        UnitClass::Mi | UnitClass::Hi | UnitClass::Artillery => 0,
        UnitClass::Ai | UnitClass::Ci | UnitClass::Lti | UnitClass::Levy => 2,
        UnitClass::Hl => 3,
        UnitClass::Eh => 4,
        UnitClass::Hq | UnitClass::Hbc | UnitClass::Lbc | UnitClass::Lc | UnitClass::Sc => 5,
    }
}

/// Options of a charge reaction (also read by `charge`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ReactionOptions {
    /// The charge's pace (default: cavalry gallops, others run).
    pub pace: Option<Pace>,
    /// A counter charge is possible (default true); if not, CC stands.
    pub counter_charge_impossible: bool,
    /// Fire Points of the reaction fire, replacing the target's.
    pub reaction_fp: Option<u8>,
    /// Added to the reaction fire's Fire Points before halving.
    pub reaction_fp_modifier: i8,
    /// The reaction table row, replacing the target's.
    pub row: Option<usize>,
    /// Further TQ modifier of the target's tests.
    pub target_extra_tq: i8,
    /// Further TQ modifier of the charger's tests.
    pub charger_extra_tq: i8,
}

impl ReactionOptions {
    /// Reads the reaction keys of a `charge-reaction` or `charge` step
    /// (`charger_extra_tq` is read with the closing keys by `charge`).
    pub fn read(f: &mut Fields, charger_extra: bool) -> Result<ReactionOptions, InputError> {
        Ok(ReactionOptions {
            pace: PACE.read(f)?,
            counter_charge_impossible: !COUNTER_CHARGE_POSSIBLE.read(f)?.unwrap_or(true),
            reaction_fp: REACTION_FP.read(f)?.map(|v| v as u8),
            reaction_fp_modifier: REACTION_FP_MODIFIER.read(f)?.unwrap_or(0) as i8,
            row: read_row(f, "reaction_row", &ROW_IDS)?,
            target_extra_tq: read_extra_tq(f, "target_extra_tq")?,
            charger_extra_tq: if charger_extra {
                read_extra_tq(f, "charger_extra_tq")?
            } else {
                0
            },
        })
    }
}

/// Extra measure: 1 when the target counter-charged.
pub const COUNTER_CHARGE: &str = "counter-charge";
/// Extra measure: the reaction fire, 0 none, 1 at half Fire Points, 2 full.
pub const REACTION_FIRE: &str = "reaction-fire";

/// `pace`, read by `charge-reaction` and `charge` alike.
pub const PACE_KEY: KeyDoc = PACE.doc();
/// `pace`, declared once: its doc and its reader.
pub(crate) const PACE: Key<Pace> = Key::one_of(
    "pace",
    "pace",
    "which Charge Reaction table (default: gallop for cavalry, run for others)",
);
/// `reaction_fp_modifier`, read by `charge-reaction` and `charge` alike.
pub const REACTION_FP_MODIFIER_KEY: KeyDoc = REACTION_FP_MODIFIER.doc();

/// The measures of `charge-reaction`, in space order.
const REACTION_MEASURES: [&str; 8] = pair::with_extras(&[CONTACT, COUNTER_CHARGE, REACTION_FIRE]);

/// `reaction_fp_modifier`, declared once: its doc and its reader.
pub(crate) const REACTION_FP_MODIFIER: Key<i64> = Key::int(
    "reaction_fp_modifier",
    -20,
    20,
    "added to the reaction fire's Fire Points before ½Fi halves them",
);

/// `counter_charge_possible`, declared once: its doc and its reader.
pub(crate) const COUNTER_CHARGE_POSSIBLE: Key<bool> = Key::flag(
    "counter_charge_possible",
    "false: a CC result stands instead (default true)",
);

/// `reaction_fp`, declared once: its doc and its reader.
pub(crate) const REACTION_FP: Key<i64> = Key::int(
    "reaction_fp",
    0,
    MAX_FP as i64,
    "Fire Points of the reaction fire, replacing the target's",
);

/// What `pikeshot list` says of `charge-reaction`.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "charge-reaction",
    rule: "Charge reaction tables",
    summary: "the target's TQ test on the galloping or trotting/running table: stand, flee, counter-charge, or fire at the charger (Fire Table, step and commander rolls, Receiving Casualties)",
    keys: &[
        CHARGER_KEY,
        TARGET_KEY,
        PACE_KEY,
        COUNTER_CHARGE_POSSIBLE.doc(),
        REACTION_FP.doc(),
        REACTION_FP_MODIFIER_KEY,
        KeyDoc::one_of("reaction_row", &ROW_IDS, "replaces the target's row"),
        extra_tq("target_extra_tq", "further modifier of the target's tests").doc(),
        extra_tq(
            "charger_extra_tq",
            "further modifier of the charger's Receiving Casualties tests",
        )
        .doc(),
    ],
    outcomes: &pair::TARGET_OUTCOMES,
    measures: &REACTION_MEASURES,
};

/// The procedure `charge-reaction`.
#[derive(Clone, Debug)]
pub struct ChargeReaction {
    test: TqTest,
    row: usize,
    pace: Pace,
    cells: [Reaction; 4],
    /// Reaction fire at full and at half Fire Points, if the target has any.
    fire: Option<(Volley, Volley)>,
    counter_charge_possible: bool,
    target: UnitState,
    charger: UnitState,
    space: OutcomeSpace,
    /// What `pikeshot explain` reads of how the procedure was built.
    why: Box<Why>,
}

impl ChargeReaction {
    /// `target` reacting to `charger`, both in their states.
    pub fn new(
        charger: &Unit,
        target: &Unit,
        o: &ReactionOptions,
        readings: Readings,
    ) -> Result<ChargeReaction, InputError> {
        check_charge(charger, target)?;
        let pace = o.pace.unwrap_or_else(|| Pace::default_for(charger));
        let row = o
            .row
            .unwrap_or_else(|| row_for(target.class, target.formation, target.limbered));
        let test = *Tester::new(
            target,
            &Situation::of(TestKind::ChargeReaction).with_extra(o.target_extra_tq),
            readings.tq_mode,
        )
        .get(&target.state);
        let fire = o.reaction_fp.or(target.fp()).map(|base| {
            let v = |half| {
                Volley::new(
                    target,
                    effective_fp(base, o.reaction_fp_modifier, half),
                    o.target_extra_tq,
                    charger,
                    o.charger_extra_tq,
                    readings,
                )
            };
            (v(false), v(true))
        });
        let space = pair::space(
            Ranges {
                target_losses: 0,
                target_commander: false,
                own_losses: charger.state.steps.min(2),
                own_commander: charger.state.commander,
            },
            vec![
                Measure::new(CONTACT, 0, 1),
                Measure::new(COUNTER_CHARGE, 0, 1).labelled("counter-charge (CC)"),
                Measure::new(REACTION_FIRE, 0, 2).labelled("reaction fire"),
            ],
        );
        let why = Box::new(Why {
            tests: vec![
                Tested::new(
                    target,
                    TestKind::ChargeReaction,
                    o.target_extra_tq,
                    "target_extra_tq",
                ),
                Tested::new(
                    target,
                    TestKind::General,
                    o.target_extra_tq,
                    "target_extra_tq",
                ),
                Tested::new(
                    charger,
                    TestKind::General,
                    o.charger_extra_tq,
                    "charger_extra_tq",
                ),
            ],
            lines: if fire.is_some() {
                fp_lines(
                    target,
                    o.reaction_fp.map(|f| (f, "reaction_fp")),
                    (o.reaction_fp_modifier, "reaction_fp_modifier"),
                    None,
                )
            } else {
                Vec::new()
            },
            notes: vec![
                match o.pace {
                    Some(p) => format!("{} table: the step's pace = {p}", pace_title(pace)),
                    None => format!(
                        "{} table: {} charges at the {} of its arm (no pace given)",
                        pace_title(pace),
                        charger.name,
                        pace
                    ),
                },
                match o.row {
                    Some(_) => format!("row {}: the step's reaction_row", table(pace)[row].label),
                    None => format!(
                        "row {}: {} class {} ({}{})",
                        table(pace)[row].label,
                        crate::explain::possessive(&target.name),
                        target.class.abbreviation(),
                        target.formation,
                        if target.limbered { ", limbered" } else { "" }
                    ),
                },
            ],
        });
        Ok(ChargeReaction {
            why,
            test,
            row,
            pace,
            cells: table(pace)[row].cells,
            fire,
            counter_charge_possible: !o.counter_charge_impossible,
            target: target.state,
            charger: charger.state,
            space,
        })
    }

    /// Whether a CC result counter-charges (`counter_charge_possible`).
    pub fn counter_charge_possible(&self) -> bool {
        self.counter_charge_possible
    }
    /// The target's reaction test.
    pub fn test(&self) -> &TqTest {
        &self.test
    }
    /// The pace of the charge (which table is read).
    pub fn pace(&self) -> Pace {
        self.pace
    }
    /// The row read.
    pub fn row(&self) -> &'static ReactionRow {
        &table(self.pace)[self.row]
    }
    /// The reaction fire at full and half Fire Points, if any.
    pub fn fire(&self) -> Option<&(Volley, Volley)> {
        self.fire.as_ref()
    }

    /// Runs once on any [`Draw`].
    #[inline]
    pub fn run<W: Draw>(&self, w: &mut W) -> Leaf {
        let r = self.cells[w.test(&self.test) as usize];
        let mut t = self.target;
        let mut c = self.charger;
        let mut fired = 0;
        let mut counter = false;
        let mut repulsed = false;
        if r.flee || (r.flee_if_disordered && t.status.is_disordered()) {
            t.status = Status::Fled;
        } else {
            if let Some((full, half)) = &self.fire {
                match r.fire {
                    ReactionFire::None => {}
                    ReactionFire::Half => {
                        repulsed = half.run(w, &mut c);
                        fired = 1;
                    }
                    ReactionFire::Full => {
                        repulsed = full.run(w, &mut c);
                        fired = 2;
                    }
                }
            }
            counter = r.counter_charge && self.counter_charge_possible;
        }
        let contact = t.status != Status::Fled && !repulsed;
        pair::leaf(
            &self.space,
            (&self.target, &t),
            (&self.charger, &c),
            &[contact as i32, counter as i32, fired],
        )
    }
}

draw::draw_procedure!(ChargeReaction, why);

/// Both Charge Reaction tables and the key to their results.
pub fn charts() -> Vec<Chart> {
    let chart = |id: &'static str, title: &str, rows: &[ReactionRow; 6]| {
        Chart {
        id,
        title: title.into(),
        rule: "Charging",
        headers: super::row::result_headers(""),
        rows: rows
            .iter()
            .map(|r| {
                labelled(r.label, r.cells.iter().map(Reaction::cell))
            })
            .collect(),
        notes: vec![
            "* all non-Skirmishing infantry (read: MI and HI not in skirmish order or column of march), and all unlimbered artillery".into(),
            "** all infantry and cavalry in Skirmish or Column of March formation, and all limbered artillery".into(),
            "*** all other non-Skirmishing cavalry".into(),
            "^S on HI has no footnote on the card".into(),
            "Flee = Flee; St = Stand; (d) = flee if Disordered, otherwise stand; Fi = fire; ½Fi = fire at half FP; CC = counter charge if possible, otherwise stand".into(),
        ],
    }
    };
    vec![
        chart(
            "charge-reaction-gallop",
            "Charge reaction table - Galloping charge",
            &GALLOPING,
        ),
        chart(
            "charge-reaction-trot",
            "Charge reaction table - Trotting/Running charge",
            &TROTTING,
        ),
    ]
}
