//! Receiving Casualties Table, and what a unit suffers from a fire or close
//! combat result: the step-loss roll (S4+, S5+, S6) and the commander-injury
//! roll (* on a 6, ** on 5 or 6).
//!
//! A unit hit by fire tests its TQ once per casualty result on this table:
//! "2 LC" is two LC results, each tested (docs/rules/hakkaa.md section 3), and "2 C" two C
//! results likewise. Between the two tests the unit's status may change, so
//! the second test sees the Disordered modifier the first one caused.

use super::draw::Draw;
use super::tq::{Tester, Tq};
use super::unit::{Effect, UnitState};

/// A casualty result's weight: the rows of the Receiving Casualties Table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// LC.
    Lc,
    /// C.
    C,
    /// HC.
    Hc,
}

impl Level {
    /// The three rows, in card order.
    pub const ALL: [Level; 3] = [Level::Lc, Level::C, Level::Hc];
    /// As printed.
    pub fn abbreviation(self) -> &'static str {
        ["LC", "C", "HC"][self as usize]
    }
}

/// A cell of the Receiving Casualties Table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Received {
    /// "-": unit status unchanged.
    Unchanged,
    /// D: Fall Back if Disordered, Disorder if not.
    D,
    /// F: Flee if Disordered, Fall Back if not.
    F,
    /// X: Step Loss; Flee if Disordered, Fall Back if not.
    X,
}

impl Received {
    /// As printed.
    pub fn cell(self) -> &'static str {
        match self {
            Received::Unchanged => "-",
            Received::D => "D",
            Received::F => "F",
            Received::X => "X",
        }
    }
}

use Received::{D, F, Unchanged as U, X};

/// Receiving Casualties Table: rows LC, C, HC; columns DS, S, F, DF of the
/// hit unit's TQ test.
pub const RECEIVING_CASUALTIES: [[Received; 4]; 3] = [
    [U, U, D, F], // LC
    [U, D, F, F], // C
    [D, D, F, X], // HC
];

/// The Receiving Casualties Table cell for a casualty level and a TQ result.
pub fn received(level: Level, tq: Tq) -> Received {
    RECEIVING_CASUALTIES[level as usize][tq as usize]
}

/// A commander-injury roll: "*" (a 6) or "**" (5 or 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Injury {
    /// No roll.
    None,
    /// *: any attached commander is injured on a single die roll of 6.
    On6,
    /// **: any attached commander is injured on a single die roll of 5 or 6.
    On5,
}

impl Injury {
    /// The d6 needed, if there is a roll.
    pub fn need(self) -> Option<u8> {
        match self {
            Injury::None => None,
            Injury::On6 => Some(6),
            Injury::On5 => Some(5),
        }
    }
    /// As printed ("", "*", "**").
    pub fn mark(self) -> &'static str {
        ["", "*", "**"][self as usize]
    }
}

/// A step-loss roll: S4+, S5+ or S6 on a single die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StepRoll {
    /// No roll.
    None,
    /// S6: a step loss on a 6.
    On6,
    /// S5+: a step loss on 5 or 6.
    On5,
    /// S4+: a step loss on 4, 5 or 6.
    On4,
}

impl StepRoll {
    /// The d6 needed, if there is a roll.
    pub fn need(self) -> Option<u8> {
        match self {
            StepRoll::None => None,
            StepRoll::On6 => Some(6),
            StepRoll::On5 => Some(5),
            StepRoll::On4 => Some(4),
        }
    }
    /// As printed ("", "S6", "S5+", "S4+").
    pub fn mark(self) -> &'static str {
        ["", "S6", "S5+", "S4+"][self as usize]
    }
}

/// The step-loss roll, then (if the unit survives and a commander is
/// attached) the commander-injury roll. An injured commander no longer
/// counts as attached.
#[inline]
pub fn suffer<W: Draw>(w: &mut W, s: &mut UnitState, step: StepRoll, injury: Injury) {
    if let Some(n) = step.need()
        && w.roll(n)
    {
        s.lose_step();
    }
    if s.eliminated() {
        return;
    }
    if let Some(n) = injury.need()
        && s.commander
        && w.roll(n)
    {
        s.commander = false;
    }
}

/// A table cell as printed: `first` (the result), then the commander-injury
/// and step-loss marks, those that are there, e.g. "D * S6", "LC S5+".
pub fn cell(first: &str, injury: Injury, step: StepRoll) -> String {
    [first, injury.mark(), step.mark()]
        .iter()
        .filter(|s| !s.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ")
}

/// `count` tests on the `level` row of the Receiving Casualties Table, each
/// with the unit's status as the previous one left it. Returns true when a
/// result moved the unit back: a fall back or a flee (D on a Disordered
/// unit, F, X), or it was eliminated.
#[inline]
pub fn receive<W: Draw>(
    w: &mut W,
    tester: &Tester,
    s: &mut UnitState,
    level: Level,
    count: u8,
) -> bool {
    let mut moved = false;
    for _ in 0..count {
        if s.eliminated() {
            return true;
        }
        let disordered = s.status.is_disordered();
        match received(level, tester.test(w, s)) {
            Received::Unchanged => {}
            Received::D => {
                moved |= disordered;
                s.status = s.status.after(Effect::Disorder);
            }
            Received::F => {
                moved = true;
                s.status = s.status.after(Effect::FallBackOrFlee);
            }
            Received::X => {
                moved = true;
                s.lose_step();
                if !s.eliminated() {
                    s.status = s.status.after(Effect::FallBackOrFlee);
                }
            }
        }
    }
    moved || s.eliminated()
}
