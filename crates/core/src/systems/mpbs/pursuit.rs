//! Cavalry Pursuit (11.7.2) of both cards: after a close combat result that
//! says "Check for Cavalry Pursuit", the winning cavalry rolls one d10 plus
//! its DRMs on one of the table's two columns.
//!
//! Both cards have a TACW column (This Accursed Civil War) and a second
//! column with the same values, named "SFO" on the Sweden Fights On card and
//! "Other" (all other, non-England, games) on the series card. Readings are
//! in `docs/rules/mpbs.md`.

use super::close_combat::{
    self, Fail, LeaderDrm, Modifiers, TableRoll, finish_step, table_roll_procedure,
};
use super::input::{EXTRA_DRM_KEY, read_extra};
use super::unit::find_unit;
use super::{Band, Edition, Order, Unit, named_enum};
use crate::error::InputError;
use crate::explain::Source;
use crate::scenario::Fields;
use crate::systems::Key;
use crate::systems::{Chart, KeyDoc, Kind, ProcedureInfo};
use std::borrow::Cow;

/// The results of the Cavalry Pursuit Table, in table order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PursuitResult {
    /// Break Off.
    BreakOff,
    /// Pursue and Eliminate; mark the pursuer Formation Broken.
    PursueAndEliminate,
    /// Pursue off map and Eliminate.
    PursueOffMapAndEliminate,
}

impl PursuitResult {
    /// Every result, in table order.
    pub const ALL: [PursuitResult; 3] = [
        PursuitResult::BreakOff,
        PursuitResult::PursueAndEliminate,
        PursuitResult::PursueOffMapAndEliminate,
    ];
    /// The outcome label.
    pub fn label(self) -> &'static str {
        OUTCOMES[self as usize]
    }
    /// The result as the card names it.
    pub fn title(self) -> &'static str {
        match self {
            PursuitResult::BreakOff => "Break Off",
            PursuitResult::PursueAndEliminate => {
                "Pursue and Eliminate; mark pursuer Formation Broken"
            }
            PursuitResult::PursueOffMapAndEliminate => "Pursue off map and Eliminate",
        }
    }
    /// The pursuer ends Formation Broken.
    pub fn pursuer_formation_broken(self) -> bool {
        self == PursuitResult::PursueAndEliminate
    }
    /// The beaten unit is eliminated (docs/rules/mpbs.md, Pursuit and leaders).
    pub fn eliminates(self) -> bool {
        self != PursuitResult::BreakOff
    }
}

/// The outcome labels of pursuit, in table order.
pub const OUTCOMES: [&str; 3] = [
    "Break off",
    "Pursue and eliminate",
    "Pursue off map and eliminate",
];

/// Which of the two columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColumnKind {
    /// This Accursed Civil War.
    Tacw,
    /// The card's other column: "SFO" (SFO card) or "Other" (series card).
    Other,
}

/// One column of the Cavalry Pursuit Table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PursuitColumn {
    /// Which column.
    pub kind: ColumnKind,
    /// Scenario name (`column = "..."`).
    pub name: &'static str,
    /// Heading on the card.
    pub label: &'static str,
    /// Modified rolls of each result, in [`PursuitResult::ALL`] order.
    pub bands: [Band; 3],
    /// The Cromwell DRM applies (TACW only).
    pub cromwell: bool,
    /// The leadership DRM applies (all but TACW).
    pub leader: bool,
    /// The games the column is for, as the card says.
    pub games: &'static str,
    /// The card's line for the leadership DRM on this column, if any.
    pub leader_note: Option<&'static str>,
}

const TACW: PursuitColumn = PursuitColumn {
    kind: ColumnKind::Tacw,
    name: "tacw",
    label: "TACW",
    bands: [
        Band::new(i8::MIN, 2),
        Band::new(3, 5),
        Band::new(6, i8::MAX),
    ],
    cromwell: true,
    leader: false,
    games: "This Accursed Civil War",
    leader_note: None,
};
const OTHER_BANDS: [Band; 3] = [
    Band::new(i8::MIN, 4),
    Band::new(5, 8),
    Band::new(9, i8::MAX),
];

/// Cavalry Pursuit Table (11.7.2), Sweden Fights On card: TACW and SFO columns.
pub const SFO_COLUMNS: [PursuitColumn; 2] = [
    TACW,
    PursuitColumn {
        kind: ColumnKind::Other,
        name: "sfo",
        label: "SFO",
        bands: OTHER_BANDS,
        cromwell: false,
        leader: true,
        games: "Sweden Fights On",
        leader_note: Some("± SFO: leadership modifier"),
    },
];

/// Cavalry Pursuit Table (11.7.2), series card: TACW and Other columns.
pub const SERIES_COLUMNS: [PursuitColumn; 2] = [
    TACW,
    PursuitColumn {
        kind: ColumnKind::Other,
        name: "other",
        label: "Other",
        bands: OTHER_BANDS,
        cromwell: false,
        leader: true,
        games: "all other (non-England) MPBS games",
        leader_note: Some(
            "± All but TACW: leadership modifier of the friendly leader used in the close combat",
        ),
    },
];

/// +1 pursuing cavalry under a Charge order (11.7.2, both cards).
pub const CHARGE_ORDER_DRM: i32 = 1;
/// +1 pursuing cavalry used momentum in the close combat (11.7.2, both cards).
pub const MOMENTUM_USED_DRM: i32 = 1;
/// −2 TACW: Cromwell stacked with or adjacent to the cavalry (11.7.2).
pub const CROMWELL_DRM: i32 = -2;

/// The columns of an edition's Cavalry Pursuit Table.
pub fn columns(edition: Edition) -> &'static [PursuitColumn; 2] {
    match edition {
        Edition::Sfo => &SFO_COLUMNS,
        Edition::Series => &SERIES_COLUMNS,
    }
}

/// The column of `kind` on an edition's card.
pub fn column(edition: Edition, kind: ColumnKind) -> &'static PursuitColumn {
    columns(edition)
        .iter()
        .find(|c| c.kind == kind)
        .expect("both cards have both columns")
}

/// The result of a modified roll on a column.
pub fn pursuit_result(column: &PursuitColumn, modified_roll: i32) -> PursuitResult {
    let r = modified_roll.clamp(i8::MIN as i32, i8::MAX as i32);
    PursuitResult::ALL
        .into_iter()
        .zip(column.bands)
        .find(|(_, b)| b.contains(r))
        .map(|(res, _)| res)
        .expect("the pursuit columns cover every roll")
}

/// Everything a pursuit roll is built from.
#[derive(Clone, Debug, PartialEq)]
pub struct PursuitInput {
    /// The pursuing cavalry unit.
    pub pursuer: Unit,
    /// Which column.
    pub column: ColumnKind,
    /// The pursuer is under a Charge order.
    pub charge_order: bool,
    /// The pursuer used momentum in the close combat.
    pub momentum_used: bool,
    /// TACW: Cromwell stacked with or adjacent to the cavalry.
    pub cromwell: bool,
    /// All but TACW: the leadership modifier of the friendly leader used in
    /// the close combat, as added to the roll.
    pub leader: Option<i32>,
    /// Any further DRM, −9..=9.
    pub extra_drm: i32,
}

impl PursuitInput {
    /// The defaults: the card's non-TACW column, the Charge-order DRM when
    /// the pursuer's order is Charge, no leader used, nothing else.
    pub fn new(pursuer: Unit) -> PursuitInput {
        PursuitInput {
            charge_order: pursuer.order == Order::Charge,
            leader: None,
            pursuer,
            column: ColumnKind::Other,
            momentum_used: false,
            cromwell: false,
            extra_drm: 0,
        }
    }
}

/// The leadership modifier (11.7.2, all but TACW) of a leader whose
/// close-combat modifier was `cc_modifier` (as added to the close combat
/// roll). The series card: "Leadership modifier of friendly leader used in
/// the Close Combat", ±1 there; the SFO card: the rating converted to a plus
/// (11.3.2). A defending leader's modifier (≤ 0 on the close combat roll)
/// helps its own side, so `defending_leader` reads it as a plus
/// ([`DefendingLeader::Plus`], the default) or as applied
/// (docs/rules/mpbs.md, "Cavalry Pursuit (11.7.2)").
pub fn leader_modifier(cc_modifier: i32, defending_leader: DefendingLeader) -> i32 {
    match defending_leader {
        DefendingLeader::Plus => cc_modifier.abs(),
        DefendingLeader::AsApplied => cc_modifier,
    }
}

/// The pursuit leadership modifier of a leader of `rating` used as the
/// attacking leader in the close combat: +1 on the series card, the rating
/// converted to a plus on the SFO card (11.3.2).
pub fn attacking_leader_modifier(edition: Edition, rating: i8) -> i32 {
    match close_combat::rules(edition).leader {
        LeaderDrm::Rating => (rating as i32).abs(),
        LeaderDrm::PlusMinusOne => 1,
    }
}

named_enum! {
    /// How a defending leader's close-combat modifier reads on the pursuit
    /// roll (`[rules.pursuit] defending_leader`).
    DefendingLeader {
        /// As a plus: the help it gave its own side.
        Plus = "plus",
        /// As applied to the close combat roll (−1, or the rating).
        AsApplied = "as-applied",
    }
}

/// The leader key of a pursuit: absent, `true`, `false` or a modifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LeaderKey {
    /// The leader used in the close combat (default; `true`).
    #[default]
    Used,
    /// No leader (`false`).
    None,
    /// This modifier, −3..=3.
    Modifier(i32),
}

/// The keys of a pursuit besides the pursuer, as a `pursuit` step or
/// `[rules.pursuit]` gives them; `None` keeps the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PursuitKeys {
    /// `column`.
    pub column: Option<ColumnKind>,
    /// `charge_order`.
    pub charge_order: Option<bool>,
    /// `momentum_used`.
    pub momentum_used: Option<bool>,
    /// `cromwell`.
    pub cromwell: bool,
    /// `leader`.
    pub leader: LeaderKey,
    /// `extra_drm`.
    pub extra_drm: i32,
}

impl PursuitKeys {
    /// Reads the keys (refusing a key the chosen column lacks); leaves the
    /// reader's other keys alone.
    pub fn read(f: &mut Fields, edition: Edition) -> Result<PursuitKeys, InputError> {
        let mut k = PursuitKeys::default();
        let cols = columns(edition);
        let names: Vec<&str> = cols.iter().map(|c| c.name).collect();
        if let Some(s) = f.string("column")? {
            k.column = Some(match cols.iter().find(|c| c.name == s) {
                Some(c) => c.kind,
                None => {
                    let other = Edition::ALL
                        .into_iter()
                        .filter(|&e| e != edition)
                        .flat_map(|e| columns(e).iter())
                        .find(|c| c.name == s);
                    let msg = match other {
                        Some(c) => format!(
                            "the {} calls this column \"{}\", not \"{s}\"",
                            edition.card(),
                            column(edition, c.kind).name
                        ),
                        None => format!("unknown pursuit column \"{s}\""),
                    };
                    return Err(f.locate("column", InputError::new(msg).one_of(&s, &names)));
                }
            });
        }
        let col = column(edition, k.column.unwrap_or(ColumnKind::Other));
        k.charge_order = CHARGE_ORDER.read(f)?;
        k.momentum_used = MOMENTUM_USED.read(f)?;
        if f.has("cromwell") {
            if !col.cromwell {
                return Err(f.err(
                    "cromwell",
                    format!(
                        "the Cromwell modifier is on the TACW column only, not on \"{}\"",
                        col.name
                    ),
                ));
            }
            k.cromwell = CROMWELL.get(f)?;
        }
        if f.has("leader") {
            if !col.leader {
                return Err(f.err(
                    "leader",
                    "the TACW column has no leadership modifier (all but TACW)",
                ));
            }
            k.leader = match f.quietly(|f| f.bool("leader")) {
                Ok(Some(true)) => LeaderKey::Used,
                Ok(Some(false)) => LeaderKey::None,
                _ => match f.quietly(|f| f.int("leader", -3, 3)) {
                    Ok(v) => v.map_or(LeaderKey::Used, |v| LeaderKey::Modifier(v as i32)),
                    Err(e) => return Err(e.accepted("true, false, or a whole number from -3 to 3")),
                },
            };
        }
        k.extra_drm = read_extra(f)? as i32;
        Ok(k)
    }

    /// Applies the keys to `input`; `used` is the leadership modifier of
    /// the leader used in the close combat, if any.
    pub fn apply(&self, input: &mut PursuitInput, used: Option<i32>) {
        if let Some(c) = self.column {
            input.column = c;
        }
        if let Some(b) = self.charge_order {
            input.charge_order = b;
        }
        if let Some(b) = self.momentum_used {
            input.momentum_used = b;
        }
        input.cromwell = self.cromwell;
        input.leader = match self.leader {
            LeaderKey::Used => used,
            LeaderKey::None => None,
            LeaderKey::Modifier(m) => Some(m),
        };
        input.extra_drm = self.extra_drm;
    }
}

/// `charge_order`, declared once: its doc and its reader.
pub(crate) const CHARGE_ORDER: Key<bool> = Key::flag(
    "charge_order",
    "true: the pursuer is under a Charge order, +1 (default: the pursuer's order is Charge)",
);

/// `momentum_used`, declared once: its doc and its reader.
pub(crate) const MOMENTUM_USED: Key<bool> = Key::flag(
    "momentum_used",
    "true: the pursuer used momentum in the close combat, +1",
);

/// `cromwell`, declared once: its doc and its reader.
pub(crate) const CROMWELL: Key<bool> = Key::flag(
    "cromwell",
    "true: Cromwell stacked with or adjacent to the cavalry, -2 (TACW column only)",
);

/// What `pikeshot list` says of cavalry pursuit.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "pursuit",
    rule: "11.7.2",
    summary: "Cavalry Pursuit Table: one d10 + DRMs on the TACW column or the card's other column",
    keys: &[
        KeyDoc::unit("pursuer", "required: the pursuing unit (cavalry)"),
        KeyDoc::new(
            "column",
            Kind::PerEdition(Cow::Borrowed(&[
                (
                    "sfo",
                    Cow::Borrowed(&[SFO_COLUMNS[0].name, SFO_COLUMNS[1].name]),
                ),
                (
                    "series",
                    Cow::Borrowed(&[SERIES_COLUMNS[0].name, SERIES_COLUMNS[1].name]),
                ),
            ])),
            "the pursuit column: tacw, or the card's other column (default)",
        ),
        CHARGE_ORDER.doc(),
        MOMENTUM_USED.doc(),
        CROMWELL.doc(),
        KeyDoc::new(
            "leader",
            Kind::BoolOrInt { min: -3, max: 3 },
            "not on the TACW column: the leadership modifier of the friendly leader used in the close combat; true (default): the pursuer's stacked leader, used as the attacking leader (series +1, SFO the rating as a plus); false: none",
        ),
        EXTRA_DRM_KEY,
    ],
    outcomes: &OUTCOMES,
    measures: &[],
};

/// A pursuit roll built once: one d10 plus the DRM on one column.
#[derive(Clone, Debug)]
pub struct Pursuit {
    column: &'static PursuitColumn,
    roll: TableRoll,
}

impl Pursuit {
    /// Builds a pursuit from unit values and modifiers.
    pub fn new(edition: Edition, input: &PursuitInput) -> Result<Pursuit, InputError> {
        Pursuit::build(edition, input).map_err(|(k, e)| e.key(k))
    }

    fn build(edition: Edition, input: &PursuitInput) -> Result<Pursuit, Fail> {
        let col = column(edition, input.column);
        let p = &input.pursuer;
        if !p.kind.is_cavalry() {
            return Err((
                "pursuer",
                InputError::new(format!(
                    "{} is {}: only cavalry pursues (11.7.2)",
                    p.name, p.kind
                ))
                .accepted("a cuirassier or arquebusier unit"),
            ));
        }
        let mut m = Modifiers::default();
        if input.charge_order {
            let source = if p.order == super::Order::Charge {
                Source::unit(format!("{} is under a Charge order", p.name))
            } else {
                Source::key("charge_order = true")
            };
            m.push(
                "pursuing cavalry under a Charge order",
                "11.7.2",
                CHARGE_ORDER_DRM,
                source,
            );
        }
        if input.momentum_used {
            m.push(
                "pursuing cavalry used momentum",
                "11.7.2",
                MOMENTUM_USED_DRM,
                Source::key(
                    "momentum_used = true (in a course: the close combat added cavalry momentum)",
                ),
            );
        }
        if input.cromwell {
            if !col.cromwell {
                return Err((
                    "cromwell",
                    InputError::new(format!(
                        "the Cromwell modifier is on the TACW column only, not on \"{}\"",
                        col.name
                    )),
                ));
            }
            m.push(
                "Cromwell (TACW)",
                "11.7.2",
                CROMWELL_DRM,
                Source::key("cromwell = true"),
            );
        }
        if let Some(l) = input.leader
            && col.leader
            && l != 0
        {
            if !(-3..=3).contains(&l) {
                return Err((
                    "leader",
                    InputError::new(format!("leadership modifier {l}"))
                        .accepted("a whole number from -3 to 3"),
                ));
            }
            m.push(
                "leadership modifier",
                "11.7.2",
                l,
                Source::unit(format!(
                    "the friendly leader used in the close combat: {l:+} (docs/rules/mpbs.md, Cavalry Pursuit; key `leader`)"
                )),
            );
        }
        let roll = TableRoll::new(m, input.extra_drm, &OUTCOMES, |n| {
            pursuit_result(col, n) as usize
        })?;
        Ok(Pursuit { column: col, roll })
    }

    /// Builds a pursuit from a scenario step (keys in [`INFO`]), refusing
    /// unknown keys and keys the chosen column lacks.
    pub fn from_step(
        f: &mut Fields,
        units: &[Unit],
        edition: Edition,
    ) -> Result<Pursuit, InputError> {
        f.has("procedure");
        let pursuer = find_unit(f, "pursuer", units)?.clone();
        let keys = PursuitKeys::read(f, edition)?;
        let used = pursuer
            .leader
            .map(|r| attacking_leader_modifier(edition, r));
        let mut input = PursuitInput::new(pursuer);
        keys.apply(&mut input, used);
        if !column(edition, input.column).leader {
            input.leader = None;
        }
        finish_step(f, &INFO)?;
        Pursuit::build(edition, &input).map_err(|(k, e)| f.locate(k, e))
    }

    /// The column rolled on.
    pub fn column(&self) -> &'static PursuitColumn {
        self.column
    }
}

table_roll_procedure!(Pursuit, PursuitResult);

/// The Cavalry Pursuit Table of an edition, laid out like the card.
pub fn charts(edition: Edition) -> Vec<Chart> {
    let cols = columns(edition);
    let mut headers: Vec<String> = cols.iter().map(|c| c.label.to_string()).collect();
    headers.push("Result".into());
    let rows = PursuitResult::ALL
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut row: Vec<String> = cols.iter().map(|c| c.bands[i].to_string()).collect();
            row.push(r.title().into());
            row
        })
        .collect();
    let mut notes: Vec<String> = cols
        .iter()
        .map(|c| format!("{} = {}", c.label, c.games))
        .collect();
    notes.push(format!(
        "+{CHARGE_ORDER_DRM} Pursuing cavalry under a Charge order"
    ));
    notes.push(format!(
        "+{MOMENTUM_USED_DRM} Pursuing cavalry used momentum in the close combat"
    ));
    notes.push(format!(
        "{CROMWELL_DRM} TACW: Cromwell stacked with or adjacent to the cavalry"
    ));
    notes.extend(cols.iter().filter_map(|c| c.leader_note).map(String::from));
    vec![Chart {
        id: "pursuit",
        title: "Cavalry Pursuit Table".into(),
        rule: "11.7.2",
        headers,
        rows,
        notes,
    }]
}
