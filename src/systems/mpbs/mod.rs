//! Musket & Pike Battle Series (GMT), editions `sfo` (the Sweden Fights On
//! player aid card) and `series` (the current series card).
//!
//! The die is a d10 read 0–9. Every chart is data headed by its rule number;
//! editions are data, not branches: where the cards differ, a table holds one
//! entry per edition. Readings of what the cards leave open are in
//! `docs/rules/mpbs.md`.

pub mod artillery;
pub mod close_combat;
pub mod course;
pub mod leaders;
pub mod light_fire;
pub mod morale;
pub mod musketry;
pub mod orders;
pub mod pursuit;
pub mod retreat;
pub mod scenario;
pub mod terrain;
pub mod threshold;
pub mod unit;

pub use unit::Unit;

use std::fmt;

/// Which player aid card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Edition {
    /// Sweden Fights On player aid card.
    Sfo,
    /// The current series player aid card.
    Series,
}

impl Edition {
    /// Both editions, oldest first.
    pub const ALL: [Edition; 2] = [Edition::Sfo, Edition::Series];
    /// The name used in scenario files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Edition::Sfo => "sfo",
            Edition::Series => "series",
        }
    }
    /// Parses a scenario name.
    pub fn from_name(s: &str) -> Option<Edition> {
        Edition::ALL.into_iter().find(|e| e.name() == s)
    }
    /// The card's title.
    pub fn card(self) -> &'static str {
        match self {
            Edition::Sfo => "Sweden Fights On player aid card",
            Edition::Series => "Musket & Pike Battle Series player aid card",
        }
    }
}

impl fmt::Display for Edition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

pub(crate) use crate::systems::named::named_enum;

named_enum! {
    /// Unit kinds as the charts distinguish them.
    UnitKind {
        /// Cuirassier cavalry ("Curassier" on the cards).
        Cuirassier = "cuirassier",
        /// Arquebusier cavalry.
        Arquebusier = "arquebusier",
        /// Heavy infantry (pike and shot).
        HeavyInfantry = "heavy-infantry",
        /// Heavy infantry without pikes (series card's CC matrix only).
        HeavyInfantryNoPikes = "heavy-infantry-no-pikes",
        /// Commanded muskets (light infantry).
        CommandedMuskets = "commanded-muskets",
        /// Dragoons (light infantry fire column).
        Dragoons = "dragoons",
        /// Artillery.
        Artillery = "artillery",
    }
}

impl UnitKind {
    /// Cavalry (cuirassiers and arquebusiers).
    pub fn is_cavalry(self) -> bool {
        matches!(self, UnitKind::Cuirassier | UnitKind::Arquebusier)
    }
    /// Heavy infantry, with or without pikes.
    pub fn is_heavy_infantry(self) -> bool {
        matches!(
            self,
            UnitKind::HeavyInfantry | UnitKind::HeavyInfantryNoPikes
        )
    }
    /// Light infantry: commanded muskets and dragoons.
    pub fn is_light_infantry(self) -> bool {
        matches!(self, UnitKind::CommandedMuskets | UnitKind::Dragoons)
    }
}

named_enum! {
    /// A unit's formation (6.3).
    Formation {
        /// Formation Normal.
        Normal = "normal",
        /// Formation Shaken.
        Shaken = "shaken",
        /// Formation Broken.
        Broken = "broken",
        /// Hedgehog.
        Hedgehog = "hedgehog",
        /// Column (no formation hits).
        Column = "column",
        /// Open Order (no formation hits).
        OpenOrder = "open-order",
    }
}

impl Formation {
    /// The formation after one Formation Hit: Normal → Shaken → Broken;
    /// Broken and Hedgehog are unchanged; Column and Open Order take no
    /// formation hits (6.3, 11.0 Formation Hits).
    pub fn after_hit(self) -> Formation {
        match self {
            Formation::Normal => Formation::Shaken,
            Formation::Shaken => Formation::Broken,
            f => f,
        }
    }
}

named_enum! {
    /// A unit's morale level. Each loss is one step down; a loss while
    /// Morale Broken eliminates (RULES-NOTES 1(b)1).
    MoraleState {
        /// Good order (no morale marker).
        Good = "good",
        /// Morale Shaken.
        Shaken = "shaken",
        /// Morale Broken.
        Broken = "broken",
        /// Eliminated.
        Eliminated = "eliminated",
    }
}

named_enum! {
    /// A wing's orders (5.0).
    Order {
        /// Charge.
        Charge = "charge",
        /// Make Ready.
        MakeReady = "make-ready",
        /// Receive Charge.
        ReceiveCharge = "receive-charge",
        /// Rally.
        Rally = "rally",
    }
}

named_enum! {
    /// Artillery weights, as the columns of the Artillery Fire Table (10.8).
    Gun {
        /// 3lb (Falcon).
        Light3 = "3lb",
        /// Double 3lb (series card only).
        Double3 = "double-3lb",
        /// 4-8lb (Saker).
        Medium = "4-8lb",
        /// Double 4-8lb.
        DoubleMedium = "double-4-8lb",
        /// 12lb on the SFO card, 12-24lb on the series card (Culverin).
        Heavy = "12-24lb",
        /// Double 12lb / Double 12-24lb.
        DoubleHeavy = "double-12-24lb",
    }
}

impl Gun {
    /// The range class of the Artillery Range Chart (10.8.2).
    pub fn range_class(self) -> RangeClass {
        match self {
            Gun::Light3 | Gun::Double3 => RangeClass::Falcon,
            Gun::Medium | Gun::DoubleMedium => RangeClass::Saker,
            Gun::Heavy | Gun::DoubleHeavy => RangeClass::Culverin,
        }
    }
}

/// The columns of the Artillery Range Chart (10.8.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RangeClass {
    /// 3lb Falcons.
    Falcon,
    /// 4-8lb Sakers.
    Saker,
    /// 12lb (12-24lb) Culverins.
    Culverin,
}

/// A die range on a chart, inclusive; `lo = i8::MIN` reads "or less",
/// `hi = i8::MAX` reads "or more".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Band {
    /// Lowest roll (inclusive).
    pub lo: i8,
    /// Highest roll (inclusive).
    pub hi: i8,
}

impl Band {
    /// `lo..=hi`.
    pub const fn new(lo: i8, hi: i8) -> Band {
        Band { lo, hi }
    }
    /// True when `roll` falls in the band.
    pub fn contains(self, roll: i32) -> bool {
        (self.lo as i32..=self.hi as i32).contains(&roll)
    }
}

impl fmt::Display for Band {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.lo, self.hi) {
            (i8::MIN, i8::MAX) => write!(f, "any"),
            (i8::MIN, h) => write!(f, "≤{h}"),
            (l, i8::MAX) => write!(f, "{l}+"),
            (l, h) if l == h => write!(f, "{l}"),
            (l, h) => write!(f, "{l}-{h}"),
        }
    }
}

/// Every chart of an edition's card, in card order, for `pikeshot tables`.
pub fn charts(edition: Edition) -> Vec<crate::systems::Chart> {
    let mut c = Vec::new();
    c.extend(orders::charts(edition));
    c.extend(terrain::charts(edition));
    c.extend(musketry::charts(edition));
    c.extend(light_fire::charts(edition));
    c.extend(threshold::charts(edition));
    c.extend(morale::charts(edition));
    c.extend(artillery::charts(edition));
    c.extend(close_combat::charts(edition));
    c.extend(retreat::charts(edition));
    c.extend(pursuit::charts(edition));
    c.extend(leaders::charts(edition));
    c
}

/// Musket & Pike in the registry of rule systems.
pub struct Mpbs;

/// Both editions, for the registry.
const EDITIONS: &[crate::systems::EditionInfo] = &[
    crate::systems::EditionInfo {
        id: "sfo",
        card: "Sweden Fights On player aid card",
    },
    crate::systems::EditionInfo {
        id: "series",
        card: "Musket & Pike Battle Series player aid card",
    },
];

/// What each stop condition of `repeat.until` means.
const STOPS: &[crate::systems::StopInfo] = &[
    crate::systems::StopInfo {
        name: "enemy-broken",
        meaning: "the enemy is Morale Broken or eliminated",
    },
    crate::systems::StopInfo {
        name: "enemy-threshold",
        meaning: "the enemy's casualty points reach its Casualty Threshold (12.5)",
    },
    crate::systems::StopInfo {
        name: "own-broken",
        meaning: "our unit is Morale Broken or eliminated",
    },
];

impl crate::systems::RuleSystem for Mpbs {
    fn id(&self) -> &'static str {
        "mpbs"
    }
    fn name(&self) -> &'static str {
        "Musket & Pike Battle Series"
    }
    fn editions(&self) -> &'static [crate::systems::EditionInfo] {
        EDITIONS
    }
    fn procedures(&self) -> &'static [crate::systems::ProcedureInfo] {
        course::PROCEDURES
    }
    fn charts(&self, edition: Option<&str>) -> Vec<crate::systems::Chart> {
        charts(
            edition
                .and_then(Edition::from_name)
                .unwrap_or(Edition::Series),
        )
    }
    fn vocabulary(&self) -> String {
        let mut out = format!("unit kinds: {}\n", UnitKind::names().join(", "));
        out.push_str(&format!("formations: {}\n", Formation::names().join(", ")));
        out.push_str(&format!(
            "morale states: {}\n",
            MoraleState::names().join(", ")
        ));
        out.push_str(&format!("orders: {}\n", Order::names().join(", ")));
        out.push_str(&format!("guns: {}\n", Gun::names().join(", ")));
        for e in Edition::ALL {
            let hex: Vec<&str> = terrain::hex_rows(e).iter().map(|r| r.name).collect();
            let side: Vec<&str> = terrain::hexside_rows(e).iter().map(|r| r.name).collect();
            out.push_str(&format!("terrain ({e}): {}\n", hex.join(", ")));
            out.push_str(&format!("hexsides ({e}): {}\n", side.join(", ")));
        }
        out
    }
    fn unit_keys(&self) -> Vec<&'static str> {
        vec![
            "kind",
            "morale",
            "strength",
            "hexes",
            "casualty_points",
            "formation",
            "morale_state",
            "terrain",
            "hexside",
            "salvo_marker",
            "regimental_artillery",
            "gun",
            "leader",
            "order",
            "can_retreat",
        ]
    }
    fn max_turns(&self) -> u8 {
        scenario::MAX_TURNS as u8
    }
    fn stop_conditions(&self) -> &'static [crate::systems::StopInfo] {
        STOPS
    }
    fn rules_keys(&self) -> Vec<crate::systems::KeyInfo> {
        use crate::systems::registry::flag;
        vec![
            flag(
                "morale_check_on_hits",
                true,
                "10.6.2: a morale check when fire inflicts at least one hit",
            ),
            flag(
                "morale_check_on_salvo",
                true,
                "10.6.3: a morale check for the target of Salvo fire",
            ),
            flag(
                "morale_check_on_threshold",
                true,
                "10.6.4: a morale check when casualty points first reach the Casualty Threshold (12.5)",
            ),
            flag(
                "morale_check_on_table",
                true,
                "10.6.5: a morale check for an MC result on a fire table",
            ),
            flag(
                "morale_check_on_broken_formation_hit",
                true,
                "10.6.6: a morale check for a formation hit on a unit already Formation Broken",
            ),
            flag(
                "morale_checks_combined",
                true,
                "10.6.2-10.6.4 triggered by one fire give one check together (true) or one each (false)",
            ),
            crate::systems::KeyInfo {
                key: "morale_check_drm",
                accepted: "-9..9".into(),
                default: "0".into(),
                meaning: "DRM added to every morale check roll",
            },
            flag(
                "pursuit",
                true,
                "11.7.2: roll Cavalry Pursuit after a result that calls for it when the winner is cavalry",
            ),
            flag(
                "leader_casualty",
                true,
                "5.3: roll Leader Casualty for each side whose leader DRM was used",
            ),
            flag(
                "eliminate_at_strength",
                true,
                "a unit whose casualty points reach its strength is eliminated",
            ),
        ]
    }
    fn build_courses(
        &self,
        f: &mut crate::scenario::Fields,
        mode: crate::engine::KernelMode,
    ) -> Result<crate::systems::BuiltCourses, crate::error::InputError> {
        let b = scenario::build(f, mode)?;
        Ok(crate::systems::BuiltCourses {
            edition: Some(b.edition.name().to_string()),
            courses: b.courses,
            sides: b.sides,
        })
    }
}

/// What `pikeshot list mpbs` prints.
pub fn list() -> String {
    crate::systems::RuleSystem::list(&Mpbs)
}
