//! What the two cards print for close combat besides the results: the
//! Close Combat Matrix (11.3.8), the DRM lines and values, the
//! strength-ratio steps (11.3.4). Both cards' data stay side by side.

use super::*;

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
