//! Activating Units: the action die against Discipline.
//!
//! An action die below the unit's adjusted Discipline does nothing; equal
//! lets it shoot, move (advance only, unless skirmishers), fight or defer;
//! greater also lets it charge, manoeuvre, move and shoot, or rally (when
//! not in contact, and only if the die exceeds Discipline by at least its
//! hits). A 6, or several dice showing the same number given to one unit,
//! earn bonus dice, movement or range: each 6 is one bonus, n matching dice
//! below 6 give n − 1 (docs/rules/sword-and-spear.md section 2). A group move needs a die above the
//! Discipline of every unit of the group.
//!
//! With several action dice to choose from, the unit is given the dice a
//! player would give it ([`Allocate`]); the choice is worked out for every
//! face and count when the step is built, so `resolve` only rolls and
//! compares.

use super::discipline::{adjusted, discipline_terms};
use super::named_enum;
use super::unit::{Unit, find_unit, finish_step};
use crate::dice::Dice;
use crate::error::InputError;
use crate::explain::Term;
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::Fields;
use crate::systems::Key;
use crate::systems::chart::headers;
use crate::systems::{Chart, KeyDoc, Kind, ProcedureInfo};

/// Most action dice one step may offer a unit.
pub const MAX_DICE: u8 = 8;

/// What an action die allows, against Discipline (Activating Units).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Below Discipline: the unit does nothing.
    None,
    /// Equal to Discipline.
    Equal,
    /// Greater than Discipline.
    Greater,
}

/// One row of the activation chart: a comparison and what it allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActivationRow {
    /// The level.
    pub level: Level,
    /// The comparison, as on the sheet.
    pub when: &'static str,
    /// The actions it allows.
    pub actions: &'static [&'static str],
}

/// Activating Units, in card order.
pub const ACTIVATION: [ActivationRow; 2] = [
    ActivationRow {
        level: Level::Equal,
        when: "Action Dice equals Discipline",
        actions: &[
            "Shoot",
            "Move (advance only for non-skirmishers)",
            "Fight in close combat",
            "Defer",
        ],
    },
    ActivationRow {
        level: Level::Greater,
        when: "Action Dice greater than Discipline",
        actions: &[
            "Any of the above",
            "Charge",
            "Move (may be a manoeuvre)",
            "Move and shoot (either order)",
            "Rally if not in contact with enemy (Action Dice must exceed Discipline by Hits)",
        ],
    },
];

/// The level an action die `face` gives against an adjusted `discipline`.
pub fn level(face: u8, discipline: i32) -> Level {
    match (face as i32).cmp(&discipline) {
        std::cmp::Ordering::Less => Level::None,
        std::cmp::Ordering::Equal => Level::Equal,
        std::cmp::Ordering::Greater => Level::Greater,
    }
}

/// Bonus earned by `count` dice showing `face` given to one unit: each 6
/// is one bonus; n matching dice below 6 give n − 1 (docs/rules/sword-and-spear.md section 2).
pub fn bonus(face: u8, count: u8) -> u8 {
    if face == 6 {
        count
    } else {
        count.saturating_sub(1)
    }
}

named_enum! {
    /// Which of its action dice a unit is given.
    Allocate {
        /// The dice of one face (all that show it) that reach the highest
        /// activation (rally counting above plain "greater" when the unit
        /// has hits and is not in contact), then a group move, then the
        /// most bonus, then the highest face.
        Best = "best",
        /// The single highest die: only a 6 earns a bonus.
        Single = "single",
    }
}

named_enum! {
    /// What a course needs an activation to allow, or it stops.
    Need {
        /// Any activation (die at least Discipline).
        Activate = "activate",
        /// Shoot.
        Shoot = "shoot",
        /// Charge.
        Charge = "charge",
        /// Manoeuvre.
        Manoeuvre = "manoeuvre",
        /// Move and shoot.
        MoveAndShoot = "move-and-shoot",
        /// Rally.
        Rally = "rally",
        /// Group move.
        GroupMove = "group-move",
    }
}

/// Outcome labels of an activation.
pub const OUTCOMES: [&str; 3] = ["Not activated", "Equals Discipline", "Exceeds Discipline"];

/// Measure names, in order (`can-group-move` only with a group).
pub const MEASURES: [&str; 8] = [
    "bonus",
    "action-die",
    "can-shoot",
    "can-charge",
    "can-manoeuvre",
    "can-move-and-shoot",
    "can-rally",
    "can-group-move",
];

/// The labels of [`MEASURES`], in its order: what the card says the unit
/// may do.
const MEASURE_LABELS: [&str; 8] = [
    "bonus",
    "action die",
    "may shoot",
    "may charge",
    "may manoeuvre",
    "may move and shoot",
    "may rally",
    "may group move",
];

/// A measure of [`MEASURES`] (by index) over `0..=max`, with its label.
fn measure(i: usize, max: i32) -> Measure {
    Measure::new(MEASURES[i], 0, max).labelled(MEASURE_LABELS[i])
}

/// Everything an activation is built from.
#[derive(Clone, Debug, PartialEq)]
pub struct ActivationInput {
    /// The unit activated.
    pub unit: Unit,
    /// Action dice the player may choose from (1..=8).
    pub dice: u8,
    /// How the unit's dice are chosen.
    pub allocate: Allocate,
    /// The unit is in contact with an enemy (no rally).
    pub in_contact: bool,
    /// The other units of a group move (the unit is its centre).
    pub group: Vec<Unit>,
    /// Added to the unit's adjusted Discipline.
    pub extra_discipline: i32,
    /// What a course needs the activation to allow.
    pub need: Option<Need>,
}

impl ActivationInput {
    /// One die for `unit`, nothing else.
    pub fn new(unit: Unit) -> ActivationInput {
        ActivationInput {
            unit,
            dice: 1,
            allocate: Allocate::Best,
            in_contact: false,
            group: Vec::new(),
            extra_discipline: 0,
            need: None,
        }
    }
}

/// An activation: the unit's action dice against its adjusted Discipline.
#[derive(Clone, Debug)]
pub struct Activation {
    space: OutcomeSpace,
    dice: u8,
    allocate: Allocate,
    discipline: i32,
    need: Option<Need>,
    /// For `count` dice of `face`, `table[face][count]`: the preference
    /// (higher is preferred) and the leaf.
    table: Box<[[(u32, Leaf); MAX_DICE as usize + 1]; 7]>,
    /// The unit's adjusted Discipline, term by term, then each other unit
    /// of a group with its adjusted Discipline (for `pikeshot explain`).
    terms: Vec<Term>,
    group: Vec<(String, i32)>,
    /// The unit's name, hits, and whether it is in contact.
    unit: (String, u8, bool),
}

/// `dice`, declared once: its doc and its reader.
pub(crate) const DICE: Key<i64> = Key::int(
    "dice",
    1,
    MAX_DICE as i64,
    "action dice the player may give it",
)
.or("1");

/// `in_contact`, declared once: its doc and its reader.
pub(crate) const IN_CONTACT: Key<bool> = Key::flag(
    "in_contact",
    "true: in contact with an enemy, so it cannot rally",
);

/// `extra_discipline`, declared once: its doc and its reader.
pub(crate) const EXTRA_DISCIPLINE: Key<i64> = Key::int(
    "extra_discipline",
    -3,
    3,
    "added to the unit's adjusted Discipline",
)
.or("0");

/// `need`, declared once: its doc and its reader.
const NEED: Key<Need> = Key::one_of(
    "need",
    "need",
    "in a course: what the unit needs; the course stops (stopped-not-activated) without it",
);

/// What `pikeshot list` says of activation.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "activation",
    rule: "Activating Units",
    summary: "Action dice against the adjusted Discipline: what the unit may do, its bonus, and whether it can group move",
    keys: &[
        KeyDoc::unit("unit", "required: the unit activated"),
        DICE.doc(),
        KeyDoc::one_of(
            "allocate",
            Allocate::NAMES,
            "best: the matching dice reaching the highest activation, then a group move, then the most bonus; single: the highest die alone",
        )
        .or("best"),
        IN_CONTACT.doc(),
        KeyDoc::new(
            "group",
            Kind::Units,
            "other units moving as a group with it; each needs the die above its Discipline",
        ),
        EXTRA_DISCIPLINE.doc(),
        NEED.doc(),
    ],
    outcomes: &OUTCOMES,
    measures: &MEASURES,
};

impl Activation {
    /// Builds an activation.
    pub fn new(input: &ActivationInput) -> Result<Activation, InputError> {
        if !(1..=MAX_DICE).contains(&input.dice) {
            return Err(InputError::new(format!("{} action dice", input.dice))
                .key("dice")
                .accepted(format!("a whole number from 1 to {MAX_DICE}")));
        }
        let u = &input.unit;
        let terms = discipline_terms(u, input.extra_discipline, "extra_discipline");
        let discipline = crate::explain::sum(&terms);
        let group: Vec<i32> = input.group.iter().map(adjusted).collect();
        let has_group = !group.is_empty();
        let mut measures: Vec<Measure> = vec![measure(0, input.dice as i32), measure(1, 6)];
        for i in 2..7 {
            measures.push(measure(i, 1));
        }
        if has_group {
            measures.push(measure(7, 1));
        }
        let space = OutcomeSpace::from_labels(&OUTCOMES, measures);
        let shoots = u.weapon.is_some();
        let moves = u.troop.can_move(u.terrain);
        let move_and_shoot = u.weapon.is_some_and(|w| w.row().move_and_shoot);
        let mut table = Box::new([[(0u32, 0 as Leaf); MAX_DICE as usize + 1]; 7]);
        for face in 1..=6u8 {
            let lvl = level(face, discipline);
            let on = lvl >= Level::Equal;
            let greater = lvl == Level::Greater;
            let rally = greater
                && !input.in_contact
                && u.hits > 0
                && face as i32 - discipline >= u.hits as i32;
            let group_ok = has_group && greater && group.iter().all(|&d| face as i32 > d);
            for count in 1..=input.dice {
                let b = if on { bonus(face, count) } else { 0 };
                let mut v = vec![
                    b as i32,
                    if on { face as i32 } else { 0 },
                    (on && shoots) as i32,
                    (greater && moves) as i32,
                    (greater && moves) as i32,
                    (greater && moves && move_and_shoot) as i32,
                    rally as i32,
                ];
                if has_group {
                    v.push(group_ok as i32);
                }
                let rank = lvl as u32 + rally as u32;
                let key =
                    (rank << 12) | ((group_ok as u32) << 11) | ((b as u32) << 4) | face as u32;
                table[face as usize][count as usize] = (key, space.leaf(lvl as usize, &v));
            }
        }
        Ok(Activation {
            space,
            dice: input.dice,
            allocate: input.allocate,
            discipline,
            need: input.need,
            table,
            terms,
            group: input
                .group
                .iter()
                .map(|g| (g.name.clone(), adjusted(g)))
                .collect(),
            unit: (u.name.clone(), u.hits, input.in_contact),
        })
    }

    /// Builds the step from its keys (in [`INFO`]).
    pub fn from_step(f: &mut Fields, units: &[Unit]) -> Result<Activation, InputError> {
        let unit = find_unit(f, "unit", units)?.clone();
        let mut input = ActivationInput::new(unit);
        input.dice = DICE.read(f)?.unwrap_or(1) as u8;
        if let Some(a) = f.named(
            "allocate",
            "allocation",
            Allocate::from_name,
            &Allocate::names(),
        )? {
            input.allocate = a;
        }
        input.in_contact = IN_CONTACT.get(f)?;
        if let Some(names) = f.strings("group")? {
            let known: Vec<&str> = units.iter().map(|u| u.name.as_str()).collect();
            for n in names {
                let g = units.iter().find(|u| u.name == n).ok_or_else(|| {
                    f.locate(
                        "group",
                        InputError::new(format!("no unit named \"{n}\" in [units]"))
                            .one_of(&n, &known),
                    )
                })?;
                if g.name == input.unit.name || input.group.iter().any(|x| x.name == n) {
                    return Err(f.err(
                        "group",
                        format!(
                            "{n} is named twice in the group (the activated unit is its centre)"
                        ),
                    ));
                }
                input.group.push(g.clone());
            }
            if input.group.len() > 2 {
                return Err(f.err(
                    "group",
                    "a group is the central unit with its commander plus a unit to either side: at most two others",
                ));
            }
            if input.unit.commander.is_none() {
                return Err(f.err(
                    "group",
                    format!(
                        "a group move needs the central unit with its commander; {} has no `commander`",
                        input.unit.name
                    ),
                ));
            }
        }
        input.extra_discipline = EXTRA_DISCIPLINE.read(f)?.unwrap_or(0) as i32;
        input.need = NEED.read(f)?;
        if input.need == Some(Need::GroupMove) && input.group.is_empty() {
            return Err(f.err("need", "`need = \"group-move\"` needs a `group`"));
        }
        finish_step(f, INFO.keys)?;
        Activation::new(&input).map_err(|e| f.locate("dice", e))
    }

    /// The unit's adjusted Discipline (with `extra_discipline`).
    pub fn discipline(&self) -> i32 {
        self.discipline
    }
    /// That Discipline, term by term.
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }
    /// The other units of a group move, each with its adjusted Discipline.
    pub fn group(&self) -> &[(String, i32)] {
        &self.group
    }
    /// Action dice offered, and how they are given.
    pub fn dice(&self) -> (u8, Allocate) {
        (self.dice, self.allocate)
    }
    /// The unit's name, its hits, and whether it is in contact.
    pub fn unit(&self) -> (&str, u8, bool) {
        (&self.unit.0, self.unit.1, self.unit.2)
    }

    /// The level of a leaf.
    pub fn level_of(&self, leaf: Leaf) -> Level {
        match self.space.outcome_of(leaf) {
            0 => Level::None,
            1 => Level::Equal,
            _ => Level::Greater,
        }
    }

    /// The bonus of a leaf.
    pub fn bonus_of(&self, leaf: Leaf) -> u8 {
        self.space.value_of(leaf, 0) as u8
    }

    /// What a course needs of this activation.
    pub fn need(&self) -> Option<Need> {
        self.need
    }

    /// True when the leaf allows what `need` asks.
    pub fn meets(&self, need: Need, leaf: Leaf) -> bool {
        let flag = |name: &str| {
            self.space
                .measure_index(name)
                .is_some_and(|m| self.space.value_of(leaf, m) == 1)
        };
        match need {
            Need::Activate => self.level_of(leaf) >= Level::Equal,
            Need::Shoot => flag("can-shoot"),
            Need::Charge => flag("can-charge"),
            Need::Manoeuvre => flag("can-manoeuvre"),
            Need::MoveAndShoot => flag("can-move-and-shoot"),
            Need::Rally => flag("can-rally"),
            Need::GroupMove => flag("can-group-move"),
        }
    }
}

impl Procedure for Activation {
    fn space(&self) -> &OutcomeSpace {
        &self.space
    }
    #[inline]
    fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
        if self.dice == 1 {
            return self.table[dice.d6() as usize][1].1;
        }
        let pool = dice.pool(self.dice, 6);
        match self.allocate {
            Allocate::Single => {
                let face = (1..=6u8).rev().find(|&f| pool.count(f) > 0).unwrap_or(1);
                self.table[face as usize][1].1
            }
            Allocate::Best => {
                let mut best = (0u32, 0 as Leaf);
                for face in 1..=6u8 {
                    let c = pool.count(face) as usize;
                    if c > 0 && self.table[face as usize][c].0 >= best.0 {
                        best = self.table[face as usize][c];
                    }
                }
                best.1
            }
        }
    }
}

/// Activating Units, for `pikeshot tables`.
pub fn charts() -> Vec<Chart> {
    let mut rows = vec![vec![
        "Action Dice less than Discipline".to_string(),
        "Nothing".to_string(),
    ]];
    for r in &ACTIVATION {
        rows.push(vec![r.when.to_string(), r.actions.join("; ")]);
    }
    vec![Chart {
        id: "activation",
        title: "Activating Units".into(),
        rule: "Activation and Movement",
        headers: headers(&["Action die", "The unit may"]),
        rows,
        notes: vec![
            "Units are activated in order; the active player moves first if Action Dice are equal (the card prints no more of the order, and no figure depends on it)".into(),
            "Bonus combat dice, or movement, or shooting range if the Action Dice is a 6 or several dice show the same number: each 6 one bonus, n matching dice below 6 n-1 (docs/rules/sword-and-spear.md section 2)".into(),
            "Group move (central unit with commander plus a unit to either side) if the Action Dice exceeds the Discipline of every unit in the group".into(),
        ],
    }]
}
