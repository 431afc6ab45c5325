//! Pursuit [13.0], procedure `pursuit`: one d6 after a won melee. Gendarmes
//! and Swiss pike must attempt to pursue; other stands with a positive
//! Charge Bonus may choose to. An attached leader may add or subtract 1.

use super::Kind;
use super::one_die::{OneDie, OneDieTest};
use super::unit::{Stand, find, finish};
use crate::error::InputError;
use crate::outcome::{Measure, OutcomeSpace};
use crate::scenario::Fields;
use crate::systems::Key;
use crate::systems::chart::{headers, labelled};
use crate::systems::named::named_enum;
use crate::systems::{Chart, KeyDoc, ProcedureInfo};

named_enum! {
    /// The columns of the pursuit rules.
    Column {
        /// Gendarmes (must): 1H on 2-3, 2H on 4-5, 3H on 6.
        Gendarmes = "gendarmes",
        /// Swiss pike (must): 1H on 2-3, 2H on 4-6.
        SwissPike = "swiss-pike",
        /// Other infantry with a positive Charge Bonus (may): 1H on 4-6.
        Infantry = "infantry",
        /// Other cavalry with a positive Charge Bonus (may): 1H on 2-3, 2H on 4-6.
        Cavalry = "cavalry",
    }
}

/// Pursuit [13.0]: hexes pursued for a modified roll of 1–6 (rows), by
/// [`Column`] (columns: gendarmes, Swiss pike, infantry, cavalry).
pub const PURSUIT: [[u8; 4]; 6] = [
    [0, 0, 0, 0], // 1
    [1, 1, 0, 1], // 2
    [1, 1, 0, 1], // 3
    [2, 2, 1, 2], // 4
    [2, 2, 1, 2], // 5
    [3, 2, 1, 2], // 6
];

/// The most an attached leader may add to or subtract from the roll.
pub const LEADER_ADJUST: i8 = 1;

/// The pursuit column of a stand, and whether it must pursue; `None`: it
/// may not pursue (no positive Charge Bonus).
pub fn column(stand: &Stand) -> Option<(Column, bool)> {
    match stand.kind {
        Kind::Gendarmes => Some((Column::Gendarmes, true)),
        Kind::Pike if stand.swiss => Some((Column::SwissPike, true)),
        _ if stand.charge_bonus == 0 => None,
        k if k.mounted() => Some((Column::Cavalry, false)),
        _ => Some((Column::Infantry, false)),
    }
}

/// Hexes pursued on `column` for a modified roll (read 1..=6: a modified 0
/// reads 1, a 7 reads 6; ASSUMPTION, the sheet prints no clamp).
pub fn hexes(column: Column, modified_roll: i32) -> u8 {
    PURSUIT[(modified_roll.clamp(1, 6) - 1) as usize][column as usize]
}

/// Index of "no pursuit" in [`OUTCOMES`].
pub const NO_PURSUIT: usize = 0;

/// Outcome labels of a pursuit.
pub const OUTCOMES: [&str; 4] = ["no pursuit", "pursue 1H", "pursue 2H", "pursue 3H"];

/// `leader_adjust`, declared once: its doc and its reader.
pub(crate) const LEADER_ADJUST_KEY: Key<i64> = Key::int(
    "leader_adjust",
    -(LEADER_ADJUST as i64),
    LEADER_ADJUST as i64,
    "an attached leader's choice",
)
.or("0");

/// `pursue`, declared once: its doc and its reader.
pub(crate) const PURSUE: Key<bool> = Key::flag(
    "pursue",
    "false: a stand that may pursue chooses not to (default true)",
);

/// What `pikeshot list` shows of `pursuit`.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "pursuit",
    rule: "13.0",
    summary: "Pursuit: gendarmes and Swiss pike must, others with a Charge Bonus may; one d6 ± leader",
    keys: &[
        KeyDoc::unit(
            "pursuer",
            "the winning stand (gendarmes, Swiss pike, or any with a positive Charge Bonus)",
        ),
        LEADER_ADJUST_KEY.doc(),
        PURSUE.doc(),
    ],
    outcomes: &OUTCOMES,
    measures: &["hexes"],
};

/// A pursuit roll, built once.
pub type Pursuit = OneDieTest<PursuitFacts>;

/// What a [`Pursuit`] keeps beside its die.
#[derive(Clone, Debug)]
pub struct PursuitFacts {
    column: Option<Column>,
    adjust: i8,
    /// The pursuer's name and why it reads its column, for `pikeshot explain`.
    who: (String, String),
}

impl Pursuit {
    /// The pursuit of `stand`, with the leader's `adjust` (−1, 0 or +1),
    /// or no pursuit when it may and `pursue` is false. Errors carry the
    /// bare step key.
    pub fn new(stand: &Stand, adjust: i8, pursue: bool) -> Result<Pursuit, InputError> {
        let Some((col, must)) = column(stand) else {
            return Err(InputError::new(format!(
                "{} is {} with no Charge Bonus: only gendarmes, Swiss pike and stands with a \
                 positive Charge Bonus pursue (13.0)",
                stand.name, stand.kind
            ))
            .key("pursuer"));
        };
        if must && !pursue {
            return Err(InputError::new(format!(
                "{} must attempt to pursue (13.0: gendarmes and Swiss pike)",
                stand.name
            ))
            .key("pursue"));
        }
        if adjust != 0 && !stand.leader {
            return Err(InputError::new(format!(
                "{} has no leader attached: only an attached leader adjusts the roll",
                stand.name
            ))
            .key("leader_adjust"));
        }
        let space = OutcomeSpace::from_labels(&OUTCOMES, vec![Measure::new("hexes", 0, 3)]);
        let column = pursue.then_some(col);
        let faces = OneDie::new(|face| {
            let h = column.map_or(0, |c| hexes(c, i32::from(face) + adjust as i32));
            space.leaf(h as usize, &[h as i32])
        });
        let why = match (must, pursue) {
            (true, _) => format!("{}: {} must attempt to pursue", stand.name, stand.kind),
            (false, true) => format!(
                "{}: {} with Charge Bonus {} may pursue, and does (pursue = true)",
                stand.name, stand.kind, stand.charge_bonus
            ),
            (false, false) => format!(
                "{}: {} may pursue, and does not (pursue = false): no roll",
                stand.name, stand.kind
            ),
        };
        let facts = PursuitFacts {
            who: (stand.name.clone(), why),
            column,
            adjust,
        };
        // A stand that does not pursue rolls no die (13.0).
        Ok(OneDieTest::from_faces(
            space,
            faces,
            column.is_some(),
            facts,
        ))
    }

    /// Reads a scenario step (see [`INFO`]).
    pub fn from_step(f: &mut Fields, units: &[Stand]) -> Result<Pursuit, InputError> {
        f.has("procedure");
        let stand = find(f, "pursuer", units)?;
        let adjust = LEADER_ADJUST_KEY.read(f)?.unwrap_or(0) as i8;
        let pursue = PURSUE.read(f)?.unwrap_or(true);
        let p = Pursuit::new(stand, adjust, pursue).map_err(|mut e| {
            let k = e.key.take().unwrap_or_else(|| "procedure".into());
            f.locate(&k, e)
        })?;
        finish(f)?;
        Ok(p)
    }

    /// The column rolled on (`None`: the stand chose not to pursue).
    pub fn column(&self) -> Option<Column> {
        self.kind.column
    }
    /// The leader's adjustment.
    pub fn adjust(&self) -> i8 {
        self.kind.adjust
    }
    /// The pursuer's name, and why it reads its column.
    pub fn who(&self) -> (&str, &str) {
        (&self.kind.who.0, &self.kind.who.1)
    }
}

/// The Pursuit chart.
pub fn charts() -> Vec<Chart> {
    let cell = |h: u8| {
        if h == 0 {
            "-".to_string()
        } else {
            format!("{h}H")
        }
    };
    vec![Chart {
        id: "pursuit",
        title: "Pursuit [1D6]".into(),
        rule: "13.0",
        headers: headers(&[
            "Roll",
            "Gendarmes (must)",
            "Swiss pike (must)",
            "Other inf (may)",
            "Other cav (may)",
        ]),
        rows: PURSUIT
            .iter()
            .enumerate()
            .map(|(i, r)| labelled(i + 1, r.iter().map(|&h| cell(h))))
            .collect(),
        notes: vec![
            "Others: stands with a positive Charge Bonus may choose to pursue".into(),
            format!("An attached leader can add or subtract {LEADER_ADJUST} from the dice roll"),
            "A modified roll below 1 reads 1, above 6 reads 6 (ASSUMPTION)".into(),
        ],
    }]
}
