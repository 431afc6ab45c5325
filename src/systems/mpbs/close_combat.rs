//! Close Combat (11.0) of both cards: the Close Combat Table, its die roll
//! modifiers, the Close Combat Matrix (11.3.8) and the strength-ratio steps
//! (11.3.4).
//!
//! A [`CloseCombat`] is built once, from its scenario step
//! ([`CloseCombat::from_step`]) or from unit values ([`CloseCombat::new`]):
//! every DRM goes into a labelled breakdown ([`Modifiers`]), the total is
//! limited to −4..=+4, and the leaf of each die face is worked out, so
//! [`Procedure::resolve`] rolls one d10 and indexes. Every reading of what the
//! cards leave open is in `docs/rules/mpbs.md`, with the step key
//! that overrides it.

use super::unit::find_unit;
use super::{Band, Edition, Formation, MoraleState, Order, Unit, UnitKind, named_enum, terrain};
use crate::dice::Dice;
use crate::error::InputError;
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::Fields;
use crate::systems::{Chart, ProcedureInfo};

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
        label: "attacker-eliminated",
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
        label: "attacker-broken-retreat-2",
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
        label: "attacker-shaken-retreat-2",
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
        label: "attacker-shaken-retreat-1",
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
        label: "defender-shaken-retreat-1",
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
        label: "defender-shaken-retreat-2",
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
        label: "defender-broken-retreat-2",
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
        label: "defender-eliminated",
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

/// The classes of the Close Combat Matrix (11.3.8), as rows and columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CcClass {
    /// Cuirassier ("Curassier" on the cards).
    Cuirassier,
    /// Arquebusier.
    Arquebusier,
    /// Heavy infantry.
    HeavyInfantry,
    /// Light infantry: commanded muskets and dragoons (see 11.6).
    LightInfantry,
    /// A defender in Hedgehog (column only).
    Hedgehog,
    /// Heavy infantry without pikes (series card only).
    HeavyInfantryNoPikes,
}

impl CcClass {
    /// The heading on the card.
    pub fn label(self) -> &'static str {
        match self {
            CcClass::Cuirassier => "Cuirassier",
            CcClass::Arquebusier => "Arquebusier",
            CcClass::HeavyInfantry => "Hv Inf",
            CcClass::LightInfantry => "Lt Inf*",
            CcClass::Hedgehog => "Hedgehog",
            CcClass::HeavyInfantryNoPikes => "HI no Pikes",
        }
    }
    /// The matrix row of a unit kind; `None` for artillery, which is ignored
    /// in close combat (11.5). Dragoons and commanded muskets read as Lt Inf.
    pub fn of_kind(kind: UnitKind) -> Option<CcClass> {
        match kind {
            UnitKind::Cuirassier => Some(CcClass::Cuirassier),
            UnitKind::Arquebusier => Some(CcClass::Arquebusier),
            UnitKind::HeavyInfantry => Some(CcClass::HeavyInfantry),
            UnitKind::HeavyInfantryNoPikes => Some(CcClass::HeavyInfantryNoPikes),
            UnitKind::CommandedMuskets | UnitKind::Dragoons => Some(CcClass::LightInfantry),
            UnitKind::Artillery => None,
        }
    }
    /// The matrix column a defender reads: Hedgehog when it is in Hedgehog,
    /// else its kind's class.
    pub fn of_defender(unit: &Unit) -> Option<CcClass> {
        if unit.formation == Formation::Hedgehog {
            Some(CcClass::Hedgehog)
        } else {
            CcClass::of_kind(unit.kind)
        }
    }
}

/// A Close Combat Matrix: attacker rows × defender columns; `None` = NA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CcMatrix {
    /// Attacker rows, in card order.
    pub rows: &'static [CcClass],
    /// Defender columns, in card order.
    pub columns: &'static [CcClass],
    /// `cells[row][column]`; `None` = NA.
    pub cells: &'static [&'static [Option<i8>]],
}

impl CcMatrix {
    /// The cell for an attacker row and defender column: `None` when the
    /// card has no such row or column, `Some(None)` for NA.
    pub fn cell(&self, attacker: CcClass, defender: CcClass) -> Option<Option<i8>> {
        let r = self.rows.iter().position(|&c| c == attacker)?;
        let c = self.columns.iter().position(|&c| c == defender)?;
        Some(self.cells[r][c])
    }
}

const NA: Option<i8> = None;
const fn v(d: i8) -> Option<i8> {
    Some(d)
}

/// Close Combat Matrix (11.3.8), Sweden Fights On card: 4 attacker rows ×
/// 5 defender columns.
pub const SFO_MATRIX: CcMatrix = CcMatrix {
    rows: &[
        CcClass::Cuirassier,
        CcClass::Arquebusier,
        CcClass::HeavyInfantry,
        CcClass::LightInfantry,
    ],
    columns: &[
        CcClass::Cuirassier,
        CcClass::Arquebusier,
        CcClass::HeavyInfantry,
        CcClass::LightInfantry,
        CcClass::Hedgehog,
    ],
    cells: &[
        &[v(0), v(1), v(-1), v(2), v(-2)],
        &[v(-1), v(0), v(-2), v(1), v(-3)],
        &[v(1), v(2), v(0), v(2), v(-1)],
        &[NA, NA, NA, v(0), NA],
    ],
};

/// Close Combat Matrix (11.3.8), series card: the SFO matrix plus an HI no
/// Pikes row and column (5 × 6).
pub const SERIES_MATRIX: CcMatrix = CcMatrix {
    rows: &[
        CcClass::Cuirassier,
        CcClass::Arquebusier,
        CcClass::HeavyInfantry,
        CcClass::LightInfantry,
        CcClass::HeavyInfantryNoPikes,
    ],
    columns: &[
        CcClass::Cuirassier,
        CcClass::Arquebusier,
        CcClass::HeavyInfantry,
        CcClass::LightInfantry,
        CcClass::Hedgehog,
        CcClass::HeavyInfantryNoPikes,
    ],
    cells: &[
        &[v(0), v(1), v(-1), v(2), v(-2), v(1)],
        &[v(-1), v(0), v(-2), v(1), v(-3), v(0)],
        &[v(1), v(2), v(0), v(2), v(-1), v(1)],
        &[NA, NA, NA, v(0), NA, NA],
        &[v(-1), v(0), v(-1), v(1), v(-2), v(0)],
    ],
};

/// How the leader DRM is read (11.3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaderDrm {
    /// SFO: the rating of the one WC or AC used, converted to + when
    /// attacking: the attacker adds |rating|, the defender its rating (≤ 0).
    Rating,
    /// Series: ±1 for any leader, one per side.
    PlusMinusOne,
}

/// How the once-per-combat formation DRMs of a side combine (11.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormationCombine {
    /// SFO: each listed modifier applies at most once, so attackers in FS
    /// and FB together give −1 and −2.
    EachOnce,
    /// Series: only the worst formation modifier of each side.
    WorstOnly,
}

/// One once-per-combat formation DRM (11.0) and the formations it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormationDrm {
    /// Breakdown label.
    pub label: &'static str,
    /// Formations it applies to.
    pub formations: &'static [Formation],
    /// The DRM.
    pub drm: i8,
}

/// Attacker formation DRMs (11.0 "Attacker is or has"), both cards.
pub const ATTACKER_FORMATION_DRMS: [FormationDrm; 2] = [
    FormationDrm {
        label: "attacker Formation Shaken or Open Order",
        formations: &[Formation::Shaken, Formation::OpenOrder],
        drm: -1,
    },
    FormationDrm {
        label: "attacker Formation Broken",
        formations: &[Formation::Broken],
        drm: -2,
    },
];

/// Defender formation DRMs (11.0 "Defender is"), both cards.
pub const DEFENDER_FORMATION_DRMS: [FormationDrm; 2] = [
    FormationDrm {
        label: "defender Formation Shaken or Open Order",
        formations: &[Formation::Shaken, Formation::OpenOrder],
        drm: 1,
    },
    FormationDrm {
        label: "defender Formation Broken",
        formations: &[Formation::Broken],
        drm: 2,
    },
];

/// Label of the attacking leader's DRM (11.3.2) in the breakdown.
pub const ATTACKER_LEADER: &str = "attacker leader (11.3.2)";
/// Label of the defending leader's DRM (11.3.2) in the breakdown.
pub const DEFENDER_LEADER: &str = "defender leader (11.3.2)";
/// −1 when the defending cavalry expends a pistol shot (11.0, both cards).
pub const DEFENDER_PISTOL_DRM: i32 = -1;
/// +1 per attacking cavalry unit expending a pistol shot (11.0, both cards).
pub const ATTACKER_PISTOL_DRM: i32 = 1;
/// +1 per flank/rear hex the defender is attacked from (11.3.7, both cards).
pub const FLANK_HEX_DRM: i32 = 1;
/// Most flank/rear hexes (six neighbours, one of them the front).
pub const MAX_FLANK_HEXES: u8 = 5;
/// +1 when the attacker fired a Salvo just prior (11.0, both cards).
pub const FIRED_SALVO_DRM: i32 = 1;
/// +1 Heavy Infantry Momentum (11.3.6, both cards).
pub const HEAVY_INFANTRY_MOMENTUM: i32 = 1;
/// +2 Cavalry Momentum (11.3.6, both cards).
pub const CAVALRY_MOMENTUM: i32 = 2;

/// The close-combat rules where the cards differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CcRules {
    /// The edition.
    pub edition: Edition,
    /// Leader DRM (11.3.2).
    pub leader: LeaderDrm,
    /// How formation DRMs of a side combine.
    pub formation: FormationCombine,
    /// Cavalry momentum at NGBG Halmstad, when the card has it.
    pub halmstad_momentum: Option<i8>,
    /// The CC Matrix.
    pub matrix: &'static CcMatrix,
    /// The card prints the strength-ratio steps (only the series card does;
    /// the SFO card reads them too, docs/rules/mpbs.md, Strength ratio).
    pub strength_steps_printed: bool,
    /// The DRM list as printed, for `pikeshot tables`.
    pub drm_notes: &'static [&'static str],
}

/// Close combat rules of the Sweden Fights On card.
pub const SFO_RULES: CcRules = CcRules {
    edition: Edition::Sfo,
    leader: LeaderDrm::Rating,
    formation: FormationCombine::EachOnce,
    halmstad_momentum: None,
    matrix: &SFO_MATRIX,
    strength_steps_printed: false,
    drm_notes: &[
        "± WC or AC leadership rating, only one; converted to + when attacking (11.3.2); check Leader Casualty",
        "± Morale Differential (11.3.3)",
        "± Strength Ratio (11.3.4)",
        "± Close Combat Matrix (11.3.8)",
        "-1 Defending cavalry expends a pistol shot",
        "+1 Each attacking cavalry unit expending a pistol shot",
        "+1 Each flank/rear hex the defender is attacked from (11.3.7)",
        "At most once (card: \"per battle\", read \"per combat\"): attacker FS or Open Order -1; FB -2; fired Salvo just prior +1; Heavy Infantry Momentum +1; Cavalry Momentum +2 (11.3.6)",
        "At most once: defender FS or Open Order +1; FB +2",
        "Defender's TEC close combat DRM",
    ],
};

/// Close combat rules of the series card.
pub const SERIES_RULES: CcRules = CcRules {
    edition: Edition::Series,
    leader: LeaderDrm::PlusMinusOne,
    formation: FormationCombine::WorstOnly,
    halmstad_momentum: Some(1),
    matrix: &SERIES_MATRIX,
    strength_steps_printed: true,
    drm_notes: &[
        "±1 Attacking/defending leader, only 1 per side (11.3.2); check Leader Casualty",
        "± Morale Differential (11.3.3)",
        "± Strength Ratio (11.3.4): 4:1 +2, 2:1 +1, 1:2 -1, 1:4 -2",
        "± Close Combat Matrix (11.3.8)",
        "-1 Defending cavalry expends a pistol shot",
        "+1 Each attacking cavalry unit expending a pistol shot",
        "+1 Each flank/rear hex the defender is attacked from (11.3.7)",
        "At most once per combat; only the worst Formation modifier per side: attacker FS or Open Order -1; FB -2; fired Salvo just prior +1; Heavy Infantry Momentum +1; Cavalry Momentum +2 (NGBG Halmstad +1) (11.3.6)",
        "At most once per combat: defender FS or Open Order +1; FB +2",
        "Defender's TEC close combat DRM",
    ],
};

/// The close combat rules of an edition.
pub fn rules(edition: Edition) -> &'static CcRules {
    match edition {
        Edition::Sfo => &SFO_RULES,
        Edition::Series => &SERIES_RULES,
    }
}

named_enum! {
    /// How a strength ratio that falls between two steps is read (11.3.4).
    StrengthRounding {
        /// In the defender's favour (default, docs/rules/mpbs.md, Strength ratio): the step at
        /// or below the ratio among 1:4, 1:2, 1:1 (0), 2:1, 4:1; below 1:4
        /// reads 1:4. So 3:1 is +1, 1:3 is −2, 2:3 is −1.
        Defender = "defender",
        /// The printed steps as thresholds: ≥4:1 +2, ≥2:1 +1, ≤1:4 −2,
        /// ≤1:2 −1, else 0. So 3:1 is +1, 1:3 is −1, 2:3 is 0.
        Steps = "steps",
    }
}

/// A strength-ratio step (11.3.4): attacker : defender and its DRM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RatioStep {
    /// Attacker part of the ratio.
    pub attacker: u32,
    /// Defender part of the ratio.
    pub defender: u32,
    /// The DRM.
    pub drm: i8,
    /// Printed on the series card (1:1 is implied: no modifier).
    pub printed: bool,
}

/// Strength ratio steps (11.3.4), printed on the series card and used for
/// both cards (docs/rules/mpbs.md, Strength ratio), highest first; 1:1 = 0 is implied.
pub const STRENGTH_STEPS: [RatioStep; 5] = [
    RatioStep {
        attacker: 4,
        defender: 1,
        drm: 2,
        printed: true,
    },
    RatioStep {
        attacker: 2,
        defender: 1,
        drm: 1,
        printed: true,
    },
    RatioStep {
        attacker: 1,
        defender: 1,
        drm: 0,
        printed: false,
    },
    RatioStep {
        attacker: 1,
        defender: 2,
        drm: -1,
        printed: true,
    },
    RatioStep {
        attacker: 1,
        defender: 4,
        drm: -2,
        printed: true,
    },
];

/// The strength-ratio DRM of `attacker_sp` against `defender_sp` (both > 0).
pub fn strength_ratio_drm(attacker_sp: u32, defender_sp: u32, rounding: StrengthRounding) -> i32 {
    let (a, d) = (attacker_sp as u64, defender_sp as u64);
    // a/d >= s.attacker/s.defender
    let at_least = |s: &RatioStep| a * s.defender as u64 >= d * s.attacker as u64;
    let at_most = |s: &RatioStep| a * s.defender as u64 <= d * s.attacker as u64;
    match rounding {
        StrengthRounding::Defender => {
            STRENGTH_STEPS
                .iter()
                .find(|s| at_least(s))
                .unwrap_or(&STRENGTH_STEPS[STRENGTH_STEPS.len() - 1])
                .drm as i32
        }
        StrengthRounding::Steps => {
            let up = STRENGTH_STEPS.iter().filter(|s| s.printed && s.drm > 0);
            let down = STRENGTH_STEPS
                .iter()
                .rev()
                .filter(|s| s.printed && s.drm < 0);
            up.clone()
                .find(|s| at_least(s))
                .or_else(|| down.clone().find(|s| at_most(s)))
                .map_or(0, |s| s.drm as i32)
        }
    }
}

/// Morale points a side counts below its printed rating in the morale
/// differential (11.3.3): Morale Shaken −1 (docs/rules/mpbs.md, Morale differential); Morale
/// Broken −2 (one per step, by extension).
pub const MORALE_STATE_PENALTY: [(MoraleState, i32); 3] = [
    (MoraleState::Good, 0),
    (MoraleState::Shaken, 1),
    (MoraleState::Broken, 2),
];

/// A unit's morale for the morale differential: printed rating less the
/// penalty of its morale state.
pub fn effective_morale(unit: &Unit) -> i32 {
    let penalty = MORALE_STATE_PENALTY
        .iter()
        .find(|(s, _)| *s == unit.morale_state)
        .map_or(0, |(_, p)| *p);
    unit.morale as i32 - penalty
}

named_enum! {
    /// Which momentum DRMs a step claims (11.3.6).
    Momentum {
        /// No momentum.
        None = "none",
        /// Every momentum DRM an attacker is eligible for (`momentum = true`).
        All = "all",
        /// Cavalry momentum only.
        Cavalry = "cavalry",
        /// Heavy infantry momentum only.
        HeavyInfantry = "heavy-infantry",
    }
}

/// True when `unit` may claim momentum (11.3.6, docs/rules/mpbs.md, Momentum): under
/// a Charge order and in Formation Normal (that it moved into contact this
/// activation is what the step asserts by claiming momentum).
/// A Morale Broken unit has no formation (6.3), so it is never eligible.
pub fn momentum_eligible(unit: &Unit) -> bool {
    unit.order == Order::Charge
        && unit.formation == Formation::Normal
        && unit.morale_state != MoraleState::Broken
}

/// Everything a close combat is built from: unit values plus the step's
/// modifiers. Courses that update unit states between steps build one per
/// state.
#[derive(Clone, Debug, PartialEq)]
pub struct CloseCombatInput {
    /// The attacking units; the first is the lead attacker, whose morale
    /// and CC Matrix row are read.
    pub attackers: Vec<Unit>,
    /// The defending unit.
    pub defender: Unit,
    /// The attacking leader used: its rating (−3..=0). On the series card
    /// only its presence counts (+1).
    pub attacker_leader: Option<i8>,
    /// The defending leader used: its rating (−3..=0). On the series card
    /// only its presence counts (−1).
    pub defender_leader: Option<i8>,
    /// Which attacking unit's stacked leader is the one used (index into
    /// `attackers`); `None` when no leader is used or the one used is not
    /// stacked with an attacker. Its leader is the one at risk (5.3).
    pub attacker_leader_unit: Option<usize>,
    /// The defending leader used is the one stacked with the defender.
    pub defender_leader_stacked: bool,
    /// Replaces the computed morale differential.
    pub morale_differential: Option<i32>,
    /// Replaces the computed strength-ratio DRM.
    pub strength_ratio: Option<i32>,
    /// How a ratio between steps is read.
    pub strength_rounding: StrengthRounding,
    /// The defending cavalry expends a pistol shot.
    pub defender_pistol: bool,
    /// Attacking cavalry units expending a pistol shot.
    pub attacker_pistols: u8,
    /// Flank/rear hexes the defender is attacked from.
    pub flank_hexes: u8,
    /// The attacker fired a Salvo just prior.
    pub fired_salvo: bool,
    /// Momentum claimed.
    pub momentum: Momentum,
    /// NGBG Halmstad (series card): cavalry momentum +1 instead of +2.
    pub halmstad: bool,
    /// Any further DRM, −9..=9, added before the ±4 limit.
    pub extra_drm: i32,
    /// Claim momentum only where an attacker is eligible, instead of
    /// refusing the claim: a course's later steps meet states (a formation
    /// hit from reaction fire, say) the scenario author could not see.
    pub momentum_if_eligible: bool,
}

impl CloseCombatInput {
    /// The defaults: leaders from the units (the best rating stacked with
    /// each side), no other modifier claimed, rounding in the defender's
    /// favour.
    pub fn new(attackers: Vec<Unit>, defender: Unit) -> CloseCombatInput {
        let (attacker_leader, attacker_leader_unit) = best_leader(&attackers);
        let defender_leader = defender.leader;
        CloseCombatInput {
            attackers,
            defender_leader_stacked: defender_leader.is_some(),
            defender,
            attacker_leader,
            defender_leader,
            attacker_leader_unit,
            morale_differential: None,
            strength_ratio: None,
            strength_rounding: StrengthRounding::Defender,
            defender_pistol: false,
            attacker_pistols: 0,
            flank_hexes: 0,
            fired_salvo: false,
            momentum: Momentum::None,
            halmstad: false,
            extra_drm: 0,
            momentum_if_eligible: false,
        }
    }
}

/// The best (most negative) leader stacked with any of `units`, and the
/// first unit that has it.
pub fn best_leader(units: &[Unit]) -> (Option<i8>, Option<usize>) {
    units
        .iter()
        .enumerate()
        .filter_map(|(i, u)| u.leader.map(|r| (r, i)))
        .min()
        .map_or((None, None), |(r, i)| (Some(r), Some(i)))
}

/// The DRMs of a procedure, each labelled, with their total.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Modifiers {
    /// Each DRM that applies, in card order, with its label.
    pub breakdown: Vec<(&'static str, i32)>,
    /// Their sum.
    pub total: i32,
    /// The sum after the table's limits (close combat: −4..=+4).
    pub clamped: i32,
}

impl Modifiers {
    /// The DRM labelled `label`, if it applies.
    pub fn get(&self, label: &str) -> Option<i32> {
        self.breakdown
            .iter()
            .find(|(l, _)| *l == label)
            .map(|&(_, d)| d)
    }
    /// One line per DRM and the total, for display.
    pub fn describe(&self) -> String {
        let mut s = String::new();
        for (l, d) in &self.breakdown {
            s.push_str(&format!("{d:+} {l}\n"));
        }
        if self.total == self.clamped {
            s.push_str(&format!("= {:+}\n", self.total));
        } else {
            s.push_str(&format!(
                "= {:+} (limited to {:+})\n",
                self.total, self.clamped
            ));
        }
        s
    }
    fn push(&mut self, label: &'static str, drm: i32) {
        self.breakdown.push((label, drm));
    }
}

/// An error with the step key it belongs to.
pub(crate) type Fail = (&'static str, InputError);

fn fail(key: &'static str, message: impl Into<String>) -> Fail {
    (key, InputError::new(message))
}

/// The DRMs of a close combat: the labelled breakdown, the total and the
/// total limited to −4..=+4. Errors name the step key concerned.
pub fn modifiers(edition: Edition, input: &CloseCombatInput) -> Result<Modifiers, InputError> {
    assemble(edition, input).map_err(|(k, e)| e.key(k))
}

fn assemble(edition: Edition, input: &CloseCombatInput) -> Result<Modifiers, Fail> {
    let rules = rules(edition);
    let card = edition.card();
    let lead = input
        .attackers
        .first()
        .ok_or_else(|| fail("attacker", "no attacking unit"))?;
    let def = &input.defender;
    for (i, a) in input.attackers.iter().enumerate() {
        if a.kind == UnitKind::Artillery {
            return Err(fail(
                "attacker",
                format!(
                    "{} is artillery: artillery is ignored in close combat (11.5) and cannot attack",
                    a.name
                ),
            ));
        }
        if a.morale_state == MoraleState::Eliminated {
            return Err(fail("attacker", format!("{} is eliminated", a.name)));
        }
        if a.name == def.name {
            return Err(fail("defender", format!("{} cannot attack itself", a.name)));
        }
        if input.attackers[..i].iter().any(|b| b.name == a.name) {
            return Err(fail(
                "attacker",
                format!("{} is named twice among the attackers", a.name),
            ));
        }
    }
    if def.kind == UnitKind::Artillery {
        return Err(fail(
            "defender",
            format!(
                "{} is artillery: artillery is ignored in close combat (11.5); name the unit stacked with it as the defender",
                def.name
            ),
        ));
    }
    if def.morale_state == MoraleState::Eliminated {
        return Err(fail("defender", format!("{} is eliminated", def.name)));
    }
    let mut m = Modifiers::default();

    // Leaders (11.3.2).
    for (key, leader, sign) in [
        ("attacker_leader", input.attacker_leader, 1),
        ("defender_leader", input.defender_leader, -1),
    ] {
        let Some(r) = leader else { continue };
        if !(-3..=0).contains(&r) {
            return Err((
                key,
                InputError::new(format!("leader rating {r} is outside the cards' ratings"))
                    .accepted("a rating from -3 to 0"),
            ));
        }
        let drm = match rules.leader {
            LeaderDrm::Rating => sign * (r as i32).abs(),
            LeaderDrm::PlusMinusOne => sign,
        };
        let label = if sign > 0 {
            ATTACKER_LEADER
        } else {
            DEFENDER_LEADER
        };
        m.push(label, drm);
    }

    // Morale differential (11.3.3): the lead attacker against the defender.
    let morale = input
        .morale_differential
        .unwrap_or_else(|| effective_morale(lead) - effective_morale(def));
    m.push("morale differential (11.3.3)", morale);

    // Strength ratio (11.3.4): attackers' current SP summed.
    let strength = match input.strength_ratio {
        Some(s) => s,
        None => {
            let a: u32 = input
                .attackers
                .iter()
                .map(|u| u.current_strength() as u32)
                .sum();
            let d = def.current_strength() as u32;
            if a == 0 {
                return Err(fail("attacker", "the attackers have no strength left"));
            }
            if d == 0 {
                return Err(fail(
                    "defender",
                    format!("{} has no strength left", def.name),
                ));
            }
            strength_ratio_drm(a, d, input.strength_rounding)
        }
    };
    m.push("strength ratio (11.3.4)", strength);

    // CC Matrix (11.3.8): every attacker must be allowed; the lead's row counts.
    let column = CcClass::of_defender(def).expect("artillery refused above");
    if !rules.matrix.columns.contains(&column) {
        return Err(fail(
            "defender",
            format!(
                "{} is {}: the {card}'s CC matrix (11.3.8) has no \"{}\" column",
                def.name,
                def.kind,
                column.label()
            ),
        ));
    }
    let mut matrix = 0;
    for (i, a) in input.attackers.iter().enumerate() {
        let row = CcClass::of_kind(a.kind).expect("artillery refused above");
        if !rules.matrix.rows.contains(&row) {
            return Err(fail(
                "attacker",
                format!(
                    "{} is {}: the {card}'s CC matrix (11.3.8) has no \"{}\" row",
                    a.name,
                    a.kind,
                    row.label()
                ),
            ));
        }
        match rules.matrix.cell(row, column).flatten() {
            None => {
                return Err(fail(
                    "attacker",
                    format!(
                        "the CC matrix (11.3.8) reads NA for {} ({}) against {} ({}): not allowed (light infantry close-combats only light infantry, 11.6)",
                        a.name,
                        row.label(),
                        def.name,
                        column.label()
                    ),
                ));
            }
            Some(d) if i == 0 => matrix = d as i32,
            Some(_) => {}
        }
    }
    m.push("CC matrix (11.3.8)", matrix);

    // Pistol shots.
    if input.defender_pistol {
        if !def.kind.is_cavalry() {
            return Err(fail(
                "defender_pistol",
                format!(
                    "{} is {}: only defending cavalry expends a pistol shot",
                    def.name, def.kind
                ),
            ));
        }
        m.push("defending cavalry pistol shot", DEFENDER_PISTOL_DRM);
    }
    if input.attacker_pistols > 0 {
        let cavalry = input
            .attackers
            .iter()
            .filter(|u| u.kind.is_cavalry())
            .count();
        if input.attacker_pistols as usize > cavalry {
            return Err((
                "attacker_pistols",
                InputError::new(format!(
                    "{} pistol shots but {cavalry} attacking cavalry unit(s): one per attacking cavalry unit",
                    input.attacker_pistols
                ))
                .accepted(format!("a whole number from 0 to {cavalry}")),
            ));
        }
        m.push(
            "attacking cavalry pistol shots",
            ATTACKER_PISTOL_DRM * input.attacker_pistols as i32,
        );
    }

    // Flank/rear (11.3.7).
    if input.flank_hexes > MAX_FLANK_HEXES {
        return Err((
            "flank_hexes",
            InputError::new(format!("{} flank/rear hexes", input.flank_hexes))
                .accepted(format!("a whole number from 0 to {MAX_FLANK_HEXES}")),
        ));
    }
    if input.flank_hexes > 0 {
        m.push(
            "flank/rear hexes (11.3.7)",
            FLANK_HEX_DRM * input.flank_hexes as i32,
        );
    }

    // Once per combat: formations, salvo, momentum.
    let attacker_formations: Vec<Formation> = input.attackers.iter().map(|u| u.formation).collect();
    formation_drms(
        rules.formation,
        &ATTACKER_FORMATION_DRMS,
        &attacker_formations,
        &mut m,
    );
    if input.fired_salvo {
        if !input.attackers.iter().any(|u| u.kind.is_heavy_infantry()) {
            return Err(fail(
                "fired_salvo",
                "only heavy infantry fires a Salvo (10.4, docs/rules/mpbs.md, Salvo): no attacker is heavy infantry",
            ));
        }
        m.push("fired salvo just prior", FIRED_SALVO_DRM);
    }
    if input.halmstad && rules.halmstad_momentum.is_none() {
        return Err(fail(
            "halmstad",
            format!("the {card} has no NGBG Halmstad modifier (series card only)"),
        ));
    }
    momentum_drms(rules, input, &mut m)?;
    formation_drms(
        rules.formation,
        &DEFENDER_FORMATION_DRMS,
        &[def.formation],
        &mut m,
    );

    // TEC close combat column for the defender's hex and hexside.
    let hex = terrain::hex(edition, def.terrain).ok_or_else(|| {
        fail(
            "defender",
            format!(
                "{} stands in \"{}\", which is not on the {card}'s TEC",
                def.name, def.terrain
            ),
        )
    })?;
    let hex_drm = hex.close_combat.ok_or_else(|| {
        fail(
            "defender",
            format!(
                "the {card}'s TEC reads NA for close combat against {} in {}: not allowed",
                def.name, hex.label
            ),
        )
    })?;
    m.push("TEC hex", hex_drm as i32);
    if let Some(side) = def.hexside {
        let row = terrain::hexside(edition, side).ok_or_else(|| {
            fail(
                "defender",
                format!(
                    "{}'s hexside \"{side}\" is not on the {card}'s TEC",
                    def.name
                ),
            )
        })?;
        let drm = row.close_combat.ok_or_else(|| {
            fail(
                "defender",
                format!(
                    "the {card}'s TEC reads NA for close combat across {} against {}: not allowed",
                    row.label, def.name
                ),
            )
        })?;
        m.push("TEC hexside", drm as i32);
    }

    if !(-9..=9).contains(&input.extra_drm) {
        return Err((
            "extra_drm",
            InputError::new(format!("extra DRM {}", input.extra_drm))
                .accepted("a whole number from -9 to 9"),
        ));
    }
    if input.extra_drm != 0 {
        m.push("extra DRM", input.extra_drm);
    }
    m.total = m.breakdown.iter().map(|&(_, d)| d).sum();
    m.clamped = m.total.clamp(-DRM_LIMIT, DRM_LIMIT);
    Ok(m)
}

/// Adds the formation DRMs of one side, combined as the card says.
fn formation_drms(
    combine: FormationCombine,
    table: &[FormationDrm],
    formations: &[Formation],
    m: &mut Modifiers,
) {
    let mut applying = table
        .iter()
        .filter(|d| formations.iter().any(|f| d.formations.contains(f)));
    match combine {
        FormationCombine::EachOnce => {
            for d in applying {
                m.push(d.label, d.drm as i32);
            }
        }
        FormationCombine::WorstOnly => {
            let first = applying.next();
            if let Some(d) = applying.fold(first, |w, d| match w {
                Some(w) if w.drm.abs() >= d.drm.abs() => Some(w),
                _ => Some(d),
            }) {
                m.push(d.label, d.drm as i32);
            }
        }
    }
}

/// Adds the momentum DRMs claimed, refusing a claim no attacker is
/// eligible for.
fn momentum_drms(rules: &CcRules, input: &CloseCombatInput, m: &mut Modifiers) -> Result<(), Fail> {
    if input.momentum == Momentum::None {
        return Ok(());
    }
    let eligible = |cav: bool| {
        input.attackers.iter().any(|u| {
            momentum_eligible(u)
                && if cav {
                    u.kind.is_cavalry()
                } else {
                    u.kind.is_heavy_infantry()
                }
        })
    };
    let (cav, hi) = (eligible(true), eligible(false));
    let why = || {
        let each: Vec<String> = input
            .attackers
            .iter()
            .map(|u| {
                format!(
                    "{} is {} under {} in formation {}",
                    u.name, u.kind, u.order, u.formation
                )
            })
            .collect();
        each.join("; ")
    };
    let refuse = |what: &str| {
        fail(
            "momentum",
            format!(
                "{what} momentum (11.3.6) needs an attacking {what} unit under a Charge order in Formation Normal (docs/rules/mpbs.md, Momentum): {}",
                why()
            ),
        )
    };
    let want_cav = matches!(input.momentum, Momentum::All | Momentum::Cavalry);
    let want_hi = matches!(input.momentum, Momentum::All | Momentum::HeavyInfantry);
    match input.momentum {
        _ if input.momentum_if_eligible => {}
        Momentum::Cavalry if !cav => return Err(refuse("cavalry")),
        Momentum::HeavyInfantry if !hi => return Err(refuse("heavy infantry")),
        Momentum::All if !cav && !hi => {
            return Err(refuse("cavalry or heavy infantry"));
        }
        _ => {}
    }
    if want_hi && hi {
        m.push("heavy infantry momentum (11.3.6)", HEAVY_INFANTRY_MOMENTUM);
    }
    if want_cav && cav {
        match (input.halmstad, rules.halmstad_momentum) {
            (true, Some(d)) => m.push("cavalry momentum, NGBG Halmstad (11.3.6)", d as i32),
            _ => m.push("cavalry momentum (11.3.6)", CAVALRY_MOMENTUM),
        }
    }
    Ok(())
}

/// The outcome space of a close combat with `attackers` attacking units.
pub fn space(attackers: usize) -> OutcomeSpace {
    OutcomeSpace::from_labels(
        &OUTCOMES,
        vec![
            Measure::new(ATTACKER_FORMATION_HITS, 0, attackers.max(1) as i32),
            Measure::new(DEFENDER_FORMATION_HITS, 0, 1),
        ],
    )
}

/// A close combat built for one set of unit states: one d10 plus the
/// limited DRM on the Close Combat Table (11.0).
#[derive(Clone, Debug)]
pub struct CloseCombat {
    edition: Edition,
    space: OutcomeSpace,
    modifiers: Modifiers,
    by_face: [Leaf; 10],
    leader_units: [Option<String>; 2],
}

/// What `pikeshot list` says of close combat.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "close-combat",
    rule: "11.0",
    summary: "Close Combat Table: one d10 + DRMs limited to -4..+4; both sides then take a Formation Hit",
    keys: &[
        (
            "attacker",
            "required: the attacking unit, or a list of units; the first is the lead attacker (morale differential, CC matrix row), strengths are summed",
        ),
        ("defender", "required: the defending unit"),
        (
            "attacker_leader",
            "SFO: rating -3..0 of the one WC/AC used, added as +|rating|; series: true or a rating, +1; false: none (default: the best leader stacked with an attacker)",
        ),
        (
            "defender_leader",
            "SFO: rating -3..0, added as is; series: true or a rating, -1; false: none (default: the leader stacked with the defender)",
        ),
        (
            "morale_differential",
            "-9..9, replaces the computed morale differential (11.3.3: lead attacker's morale - defender's, -1 per morale step lost)",
        ),
        (
            "strength_ratio",
            "-2..2, replaces the computed strength-ratio DRM (11.3.4)",
        ),
        (
            "strength_rounding",
            "\"defender\" (default: a ratio between steps reads the step below, 1:3 is -2) or \"steps\" (printed steps as thresholds, 1:3 is -1)",
        ),
        (
            "defender_pistol",
            "true: the defending cavalry expends a pistol shot, -1",
        ),
        (
            "attacker_pistols",
            "attacking cavalry units expending a pistol shot, +1 each (at most one per attacking cavalry unit)",
        ),
        (
            "flank_hexes",
            "0..5 flank/rear hexes the defender is attacked from, +1 each (11.3.7)",
        ),
        (
            "fired_salvo",
            "true: the attacker fired a Salvo just prior, +1 (needs attacking heavy infantry)",
        ),
        (
            "momentum",
            "true (every momentum an attacker is eligible for), \"cavalry\" (+2) or \"heavy-infantry\" (+1); needs an attacker under Charge in Formation Normal (11.3.6)",
        ),
        (
            "halmstad",
            "series card only: NGBG Halmstad, cavalry momentum +1 instead of +2",
        ),
        (
            "extra_drm",
            "-9..9, any further DRM, added before the ±4 limit",
        ),
    ],
    outcomes: &OUTCOMES,
    measures: &[ATTACKER_FORMATION_HITS, DEFENDER_FORMATION_HITS],
};

impl CloseCombat {
    /// Builds a close combat from unit values and modifiers.
    pub fn new(edition: Edition, input: &CloseCombatInput) -> Result<CloseCombat, InputError> {
        CloseCombat::build(edition, input).map_err(|(k, e)| e.key(k))
    }

    fn build(edition: Edition, input: &CloseCombatInput) -> Result<CloseCombat, Fail> {
        let modifiers = assemble(edition, input)?;
        let space = space(input.attackers.len());
        let mut by_face = [0; 10];
        for (face, leaf) in by_face.iter_mut().enumerate() {
            let r = result(face as i32 + modifiers.clamped);
            let a = input
                .attackers
                .iter()
                .filter(|u| r.formation_hit_changes(Side::Attacker, u))
                .count() as i32;
            let d = r.formation_hit_changes(Side::Defender, &input.defender) as i32;
            *leaf = space.leaf(r as usize, &[a, d]);
        }
        let attacker_leader = input
            .attacker_leader_unit
            .filter(|_| modifiers.get(ATTACKER_LEADER).is_some())
            .and_then(|i| input.attackers.get(i))
            .map(|u| u.name.clone());
        let defender_leader = (modifiers.get(DEFENDER_LEADER).is_some()
            && input.defender_leader_stacked)
            .then(|| input.defender.name.clone());
        Ok(CloseCombat {
            edition,
            space,
            modifiers,
            by_face,
            leader_units: [attacker_leader, defender_leader],
        })
    }

    /// Builds a close combat from a scenario step (keys in [`INFO`]),
    /// refusing unknown keys. Errors name the file, line and key.
    pub fn from_step(
        f: &mut Fields,
        units: &[Unit],
        edition: Edition,
    ) -> Result<CloseCombat, InputError> {
        CloseCombat::from_step_with(f, units, edition, false)
    }

    /// As [`CloseCombat::from_step`]; with `momentum_if_eligible` a momentum
    /// claim applies only where an attacker is eligible (courses, after
    /// their first step).
    pub fn from_step_with(
        f: &mut Fields,
        units: &[Unit],
        edition: Edition,
        momentum_if_eligible: bool,
    ) -> Result<CloseCombat, InputError> {
        let rules = rules(edition);
        f.has("procedure");
        let names = f.strings("attacker")?.ok_or_else(|| {
            f.missing("attacker")
                .accepted("a unit name, or a list of unit names")
        })?;
        let known: Vec<&str> = units.iter().map(|u| u.name.as_str()).collect();
        let mut attackers: Vec<Unit> = Vec::with_capacity(names.len());
        for n in &names {
            let u = units.iter().find(|u| &u.name == n).ok_or_else(|| {
                f.locate(
                    "attacker",
                    InputError::new(format!("no unit named \"{n}\" in [units]")).one_of(n, &known),
                )
            })?;
            attackers.push(u.clone());
        }
        let defender = find_unit(f, "defender", units)?.clone();
        let mut input = CloseCombatInput::new(attackers, defender);
        (input.attacker_leader, input.attacker_leader_unit) =
            read_leader(f, "attacker_leader", rules, &input.attackers)?;
        let defender_leader = read_leader(
            f,
            "defender_leader",
            rules,
            std::slice::from_ref(&input.defender),
        )?;
        input.defender_leader = defender_leader.0;
        input.defender_leader_stacked = defender_leader.1.is_some();
        input.morale_differential = f.int("morale_differential", -9, 9)?.map(|v| v as i32);
        input.strength_ratio = f.int("strength_ratio", -2, 2)?.map(|v| v as i32);
        if let Some(r) = f.named(
            "strength_rounding",
            "strength rounding",
            StrengthRounding::from_name,
            &StrengthRounding::names(),
        )? {
            input.strength_rounding = r;
        }
        input.defender_pistol = f.flag("defender_pistol")?;
        input.attacker_pistols = f.int("attacker_pistols", 0, 9)?.unwrap_or(0) as u8;
        input.flank_hexes = f
            .int("flank_hexes", 0, MAX_FLANK_HEXES as i64)?
            .unwrap_or(0) as u8;
        input.fired_salvo = f.flag("fired_salvo")?;
        input.momentum = read_momentum(f)?;
        input.momentum_if_eligible = momentum_if_eligible;
        if f.has("halmstad") {
            if rules.halmstad_momentum.is_none() {
                return Err(f.err(
                    "halmstad",
                    format!(
                        "the {} has no NGBG Halmstad modifier (series card only)",
                        edition.card()
                    ),
                ));
            }
            input.halmstad = f.flag("halmstad")?;
        }
        input.extra_drm = f.int("extra_drm", -9, 9)?.unwrap_or(0) as i32;
        finish_step(f, &INFO)?;
        CloseCombat::build(edition, &input).map_err(|(k, e)| f.locate(k, e))
    }

    /// The edition it was built for.
    pub fn edition(&self) -> Edition {
        self.edition
    }
    /// The DRMs, their total and the limited total.
    pub fn modifiers(&self) -> &Modifiers {
        &self.modifiers
    }
    /// The unit whose stacked leader gave `side` its leader modifier: the
    /// leader at risk on the Leader Casualty Table (5.3). `None` when no
    /// leader modifier was used, or the leader used is not stacked with a
    /// unit of the scenario.
    pub fn leader_unit(&self, side: Side) -> Option<&str> {
        self.leader_units[side as usize].as_deref()
    }
    /// The leader modifier `side` used (as added to the roll), if any.
    pub fn leader_modifier(&self, side: Side) -> Option<i32> {
        self.modifiers.get(match side {
            Side::Attacker => ATTACKER_LEADER,
            Side::Defender => DEFENDER_LEADER,
        })
    }
    /// The DRM added to the die (the limited total).
    pub fn drm(&self) -> i32 {
        self.modifiers.clamped
    }
    /// The Close Combat Table result of a leaf of this procedure.
    pub fn result_of(&self, leaf: Leaf) -> CcResult {
        CcResult::ALL[self.space.outcome_of(leaf)]
    }
}

impl Procedure for CloseCombat {
    fn space(&self) -> &OutcomeSpace {
        &self.space
    }
    #[inline]
    fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
        self.by_face[dice.d10() as usize]
    }
}

/// Refuses keys of a step that `info` does not list (besides `procedure`),
/// without consuming the caller's reader.
pub(crate) fn finish_step(f: &Fields, info: &ProcedureInfo) -> Result<(), InputError> {
    let mut g = f.fresh();
    g.has("procedure");
    for (k, _) in info.keys {
        g.has(k);
    }
    g.finish()
}

/// Reads a leader key: a rating −3..=0, `true` (series: a leader is used;
/// SFO: the stacked leader's rating) or `false` (no leader); with the unit
/// of `side` whose stacked leader is the one used (docs/rules/mpbs.md,
/// "Leader (11.3.2)").
fn read_leader(
    f: &mut Fields,
    key: &'static str,
    rules: &CcRules,
    side: &[Unit],
) -> Result<(Option<i8>, Option<usize>), InputError> {
    let best = best_leader(side);
    if !f.has(key) {
        return Ok(best);
    }
    if let Ok(Some(b)) = f.bool(key) {
        return match (b, rules.leader, best) {
            (false, _, _) => Ok((None, None)),
            (true, LeaderDrm::PlusMinusOne, (d, i)) => Ok((Some(d.unwrap_or(0)), i)),
            (true, LeaderDrm::Rating, (Some(d), i)) => Ok((Some(d), i)),
            (true, LeaderDrm::Rating, (None, _)) => Err(f.err(
                key,
                format!(
                    "the {} uses the leader's rating (11.3.2), and no unit on this side has a leader: give the rating",
                    rules.edition.card()
                ),
            )
            .accepted("a rating from -3 to 0, or false")),
        };
    }
    let rating = f.int(key, -3, 0).map(|v| v.map(|r| r as i8)).map_err(|e| {
        let accepted = match rules.leader {
            LeaderDrm::Rating => {
                "a rating from -3 to 0, true (the stacked leader's rating) or false"
            }
            LeaderDrm::PlusMinusOne => "true, false, or a rating from -3 to 0",
        };
        e.accepted(accepted)
    })?;
    let unit = rating.and_then(|r| side.iter().position(|u| u.leader == Some(r)));
    Ok((rating, unit))
}

/// Reads `momentum`: true, false, or the name of one momentum.
fn read_momentum(f: &mut Fields) -> Result<Momentum, InputError> {
    if !f.has("momentum") {
        return Ok(Momentum::None);
    }
    if let Ok(Some(b)) = f.bool("momentum") {
        return Ok(if b { Momentum::All } else { Momentum::None });
    }
    let names = ["true", "false", "cavalry", "heavy-infantry"];
    match f.string("momentum") {
        Ok(Some(s)) => Momentum::from_name(&s).ok_or_else(|| {
            f.locate(
                "momentum",
                InputError::new(format!("unknown momentum \"{s}\"")).one_of(&s, &names),
            )
        }),
        Ok(None) => Ok(Momentum::None),
        Err(e) => Err(e.accepted(names.join(", "))),
    }
}

/// The close combat charts of an edition: the Close Combat Table with its
/// DRMs, the CC Matrix and the strength-ratio steps.
pub fn charts(edition: Edition) -> Vec<Chart> {
    let rules = rules(edition);
    let mut notes: Vec<String> = rules.drm_notes.iter().map(|s| s.to_string()).collect();
    notes.push(format!(
        "Total of all DRMs limited to -{DRM_LIMIT}..+{DRM_LIMIT}"
    ));
    notes.push(
        "After close combat both sides take a Formation Hit: FN -> FS -> FB; no effect if FB or Hedgehog (none in Column or Open Order, 6.3)"
            .into(),
    );
    let table = Chart {
        id: "close-combat",
        title: "Close Combat Table".into(),
        rule: "11.0",
        headers: [
            "Die Roll",
            "Result",
            "Retreat",
            "Advance",
            "Cavalry Pursuit",
        ]
        .map(String::from)
        .to_vec(),
        rows: cc_table(edition)
            .iter()
            .map(|r| {
                let loser = match r.loser {
                    Side::Attacker => "Attacker",
                    Side::Defender => "Defender",
                };
                vec![
                    r.band.to_string(),
                    r.title.to_string(),
                    if r.retreat == 0 {
                        "-".into()
                    } else {
                        format!(
                            "{loser} {} hex{}",
                            r.retreat,
                            if r.retreat > 1 { "es" } else { "" }
                        )
                    },
                    if r.defender_may_advance {
                        "Defender may".into()
                    } else if r.attacker_must_advance {
                        "Attacker must".into()
                    } else {
                        "None".into()
                    },
                    if r.pursuit_check { "Check" } else { "-" }.into(),
                ]
            })
            .collect(),
        notes,
    };
    let m = rules.matrix;
    let mut headers = vec!["Attacker \\ Defender".to_string()];
    headers.extend(m.columns.iter().map(|c| c.label().to_string()));
    let matrix = Chart {
        id: "cc-matrix",
        title: "Close Combat Matrix".into(),
        rule: "11.3.8",
        headers,
        rows: m
            .rows
            .iter()
            .zip(m.cells)
            .map(|(r, cells)| {
                let mut row = vec![r.label().to_string()];
                row.extend(cells.iter().map(|c| match c {
                    None => "NA".to_string(),
                    Some(0) => "0".to_string(),
                    Some(d) => format!("{d:+}"),
                }));
                row
            })
            .collect(),
        notes: vec![
            "Artillery is ignored in Close Combat (11.5)".into(),
            "* See 11.6; commanded muskets and dragoons read as Lt Inf".into(),
            "A defender in Hedgehog reads the Hedgehog column".into(),
        ],
    };
    let mut ratio_notes = vec![
        "Attackers' current SP (strength - casualty points) summed, against the defender's".into(),
        "Default: a ratio between steps reads the step below it (in the defender's favour), below 1:4 reads 1:4 (strength_rounding = \"defender\"); \"steps\" reads the printed steps as thresholds".into(),
    ];
    if !rules.strength_steps_printed {
        ratio_notes.push(
            "This card prints no steps: the series card's steps are used (docs/rules/mpbs.md, Strength ratio)"
                .into(),
        );
    }
    let ratio = Chart {
        id: "strength-ratio",
        title: "Strength Ratio".into(),
        rule: "11.3.4",
        headers: vec!["Ratio".into(), "DRM".into()],
        rows: STRENGTH_STEPS
            .iter()
            .map(|s| {
                vec![
                    format!(
                        "{}:{}{}",
                        s.attacker,
                        s.defender,
                        if s.printed { "" } else { " (implied)" }
                    ),
                    if s.drm == 0 {
                        "0".into()
                    } else {
                        format!("{:+}", s.drm)
                    },
                ]
            })
            .collect(),
        notes: ratio_notes,
    };
    vec![table, matrix, ratio]
}
