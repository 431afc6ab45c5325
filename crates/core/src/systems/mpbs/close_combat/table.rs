//! The Close Combat Table (11.0): its results, what each does to the
//! loser's morale, and the formation hit both sides take.

use super::*;

/// The final DRM total is limited to `-DRM_LIMIT..=DRM_LIMIT` (11.0,
/// "Important", both cards).
pub const DRM_LIMIT: i32 = 4;

/// Which side of a close combat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The attacking unit(s).
    Attacker,
    /// The defending unit.
    Defender,
}

/// What a Close Combat Table result does to the losing side's morale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoraleLoss {
    /// Morale Shaken.
    Shaken,
    /// Morale Broken.
    Broken,
    /// Eliminated.
    Eliminated,
}

/// The eight results of the Close Combat Table (11.0), in table order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CcResult {
    /// ≤0: Attacker Eliminated.
    AttackerEliminated,
    /// 1–2: Attacker Morale Broken, retreat 2.
    AttackerBrokenRetreat2,
    /// 3: Attacker Morale Shaken, retreat 2.
    AttackerShakenRetreat2,
    /// 4: Attacker Morale Shaken, retreat 1.
    AttackerShakenRetreat1,
    /// 5: Defender Morale Shaken, retreat 1.
    DefenderShakenRetreat1,
    /// 6: Defender Morale Shaken, retreat 2.
    DefenderShakenRetreat2,
    /// 7–8: Defender Morale Broken, retreat 2.
    DefenderBrokenRetreat2,
    /// ≥9: Defender Eliminated.
    DefenderEliminated,
}

/// One row of the Close Combat Table (11.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CcRow {
    /// The modified rolls of the row.
    pub band: Band,
    /// The result.
    pub result: CcResult,
    /// Outcome label (kebab-case, as in outcomes.csv).
    pub label: &'static str,
    /// The result as the card names it.
    pub title: &'static str,
    /// The side whose morale suffers.
    pub loser: Side,
    /// What happens to the loser's morale.
    pub loss: MoraleLoss,
    /// Hexes the loser retreats (0 when eliminated).
    pub retreat: u8,
    /// The defender may advance into the vacated hex.
    pub defender_may_advance: bool,
    /// The attacker must advance into the vacated hex.
    pub attacker_must_advance: bool,
    /// Check for Cavalry Pursuit (11.7.2).
    pub pursuit_check: bool,
}

/// Close Combat Table (11.0): d10 + DRMs. The results are identical on the
/// SFO and series cards (docs/rules/mpbs.md, Where the cards differ), so both editions read this table.
pub const CC_TABLE: [CcRow; 8] = [
    CcRow {
        band: Band::new(i8::MIN, 0),
        result: CcResult::AttackerEliminated,
        label: "Attacker eliminated",
        title: "Attacker Eliminated",
        loser: Side::Attacker,
        loss: MoraleLoss::Eliminated,
        retreat: 0,
        defender_may_advance: true,
        attacker_must_advance: false,
        pursuit_check: true,
    },
    CcRow {
        band: Band::new(1, 2),
        result: CcResult::AttackerBrokenRetreat2,
        label: "Attacker broken, retreat 2",
        title: "Attacker Morale Broken",
        loser: Side::Attacker,
        loss: MoraleLoss::Broken,
        retreat: 2,
        defender_may_advance: true,
        attacker_must_advance: false,
        pursuit_check: true,
    },
    CcRow {
        band: Band::new(3, 3),
        result: CcResult::AttackerShakenRetreat2,
        label: "Attacker shaken, retreat 2",
        title: "Attacker Morale Shaken",
        loser: Side::Attacker,
        loss: MoraleLoss::Shaken,
        retreat: 2,
        defender_may_advance: true,
        attacker_must_advance: false,
        pursuit_check: false,
    },
    CcRow {
        band: Band::new(4, 4),
        result: CcResult::AttackerShakenRetreat1,
        label: "Attacker shaken, retreat 1",
        title: "Attacker Morale Shaken",
        loser: Side::Attacker,
        loss: MoraleLoss::Shaken,
        retreat: 1,
        defender_may_advance: false,
        attacker_must_advance: false,
        pursuit_check: false,
    },
    CcRow {
        band: Band::new(5, 5),
        result: CcResult::DefenderShakenRetreat1,
        label: "Defender shaken, retreat 1",
        title: "Defender Morale Shaken",
        loser: Side::Defender,
        loss: MoraleLoss::Shaken,
        retreat: 1,
        defender_may_advance: false,
        attacker_must_advance: false,
        pursuit_check: false,
    },
    CcRow {
        band: Band::new(6, 6),
        result: CcResult::DefenderShakenRetreat2,
        label: "Defender shaken, retreat 2",
        title: "Defender Morale Shaken",
        loser: Side::Defender,
        loss: MoraleLoss::Shaken,
        retreat: 2,
        defender_may_advance: false,
        attacker_must_advance: true,
        pursuit_check: false,
    },
    CcRow {
        band: Band::new(7, 8),
        result: CcResult::DefenderBrokenRetreat2,
        label: "Defender broken, retreat 2",
        title: "Defender Morale Broken",
        loser: Side::Defender,
        loss: MoraleLoss::Broken,
        retreat: 2,
        defender_may_advance: false,
        attacker_must_advance: true,
        pursuit_check: true,
    },
    CcRow {
        band: Band::new(9, i8::MAX),
        result: CcResult::DefenderEliminated,
        label: "Defender eliminated",
        title: "Defender Eliminated",
        loser: Side::Defender,
        loss: MoraleLoss::Eliminated,
        retreat: 0,
        defender_may_advance: false,
        attacker_must_advance: true,
        pursuit_check: true,
    },
];

/// The Close Combat Table of an edition (the same on both cards).
pub fn cc_table(edition: Edition) -> &'static [CcRow; 8] {
    match edition {
        Edition::Sfo | Edition::Series => &CC_TABLE,
    }
}

/// The outcome labels of close combat, in table order.
pub const OUTCOMES: [&str; 8] = [
    CC_TABLE[0].label,
    CC_TABLE[1].label,
    CC_TABLE[2].label,
    CC_TABLE[3].label,
    CC_TABLE[4].label,
    CC_TABLE[5].label,
    CC_TABLE[6].label,
    CC_TABLE[7].label,
];

/// Measure: attacking units whose formation the after-combat Formation Hit
/// changes.
pub const ATTACKER_FORMATION_HITS: &str = "attacker-formation-hits";
/// Measure: 1 when the after-combat Formation Hit changes the defender's
/// formation.
pub const DEFENDER_FORMATION_HITS: &str = "defender-formation-hits";

/// The Close Combat Table result for a modified roll (die + clamped DRM).
pub fn result(modified_roll: i32) -> CcResult {
    let r = modified_roll.clamp(i8::MIN as i32, i8::MAX as i32);
    CC_TABLE
        .iter()
        .find(|row| row.band.contains(r))
        .map(|row| row.result)
        .expect("the Close Combat Table covers every roll")
}

/// A unit's morale after a loss: one step down for Morale Shaken (Good →
/// MS → MB), at least Morale Broken for Morale Broken, and any loss while
/// Morale Broken eliminates (docs/rules/mpbs.md, Morale levels).
pub fn morale_after(current: MoraleState, loss: MoraleLoss) -> MoraleState {
    match (current, loss) {
        (MoraleState::Eliminated, _) | (_, MoraleLoss::Eliminated) => MoraleState::Eliminated,
        (MoraleState::Broken, _) => MoraleState::Eliminated,
        (_, MoraleLoss::Broken) => MoraleState::Broken,
        (MoraleState::Good, MoraleLoss::Shaken) => MoraleState::Shaken,
        (MoraleState::Shaken, MoraleLoss::Shaken) => MoraleState::Broken,
    }
}

impl CcResult {
    /// Every result, in table order.
    pub const ALL: [CcResult; 8] = [
        CcResult::AttackerEliminated,
        CcResult::AttackerBrokenRetreat2,
        CcResult::AttackerShakenRetreat2,
        CcResult::AttackerShakenRetreat1,
        CcResult::DefenderShakenRetreat1,
        CcResult::DefenderShakenRetreat2,
        CcResult::DefenderBrokenRetreat2,
        CcResult::DefenderEliminated,
    ];
    /// The result with outcome index `i` (table order), if any.
    pub fn from_index(i: usize) -> Option<CcResult> {
        CcResult::ALL.get(i).copied()
    }
    /// The table row of the result.
    pub fn row(self) -> &'static CcRow {
        &CC_TABLE[self as usize]
    }
    /// The outcome label.
    pub fn label(self) -> &'static str {
        self.row().label
    }
    /// The side whose morale suffers.
    pub fn loser(self) -> Side {
        self.row().loser
    }
    /// The defender may advance into the vacated hex.
    pub fn defender_may_advance(self) -> bool {
        self.row().defender_may_advance
    }
    /// The attacker must advance into the vacated hex.
    pub fn attacker_must_advance(self) -> bool {
        self.row().attacker_must_advance
    }
    /// Check for Cavalry Pursuit.
    pub fn pursuit_check(self) -> bool {
        self.row().pursuit_check
    }
    /// What the result does to a unit of `side` whose morale is `current`:
    /// its morale afterwards and the hexes it retreats. The winner is
    /// unchanged and stays. A loser already Morale Shaken that gets a Morale
    /// Shaken result becomes Morale Broken and retreats 2 hexes in all; a
    /// loser already Morale Broken is eliminated (docs/rules/mpbs.md, Morale levels).
    pub fn effect(self, side: Side, current: MoraleState) -> (MoraleState, u8) {
        let row = self.row();
        if side != row.loser {
            return (current, 0);
        }
        let after = morale_after(current, row.loss);
        let retreat = match after {
            MoraleState::Eliminated => 0,
            MoraleState::Broken => 2,
            _ => row.retreat,
        };
        (after, retreat)
    }
    /// True when the Formation Hit both sides take after close combat
    /// changes `unit` (of `side`): Formation Normal → Shaken or Shaken →
    /// Broken, and the unit survives the result. Broken, Hedgehog, Column
    /// and Open Order take no further effect (11.0, 6.3).
    ///
    /// A unit Morale Broken after the result has no formation (chart 6.3,
    /// "Morale Broken (no formation)"), so it takes no Formation Hit
    /// (docs/rules/mpbs.md, "Morale Broken means no formation").
    pub fn formation_hit_changes(self, side: Side, unit: &Unit) -> bool {
        let (after, _) = self.effect(side, unit.morale_state);
        matches!(after, MoraleState::Good | MoraleState::Shaken)
            && unit.formation.after_hit() != unit.formation
    }
}
