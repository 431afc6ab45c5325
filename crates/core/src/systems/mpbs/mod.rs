//! Musket & Pike Battle Series (GMT), editions `sfo` (the Sweden Fights On
//! player aid card) and `series` (the current series card).
//!
//! The die is a d10 read 0–9. Every chart is data headed by its rule number;
//! editions are data, not branches: where the cards differ, a table holds one
//! entry per edition. Readings of what the cards leave open are in
//! `docs/rules/mpbs.md`.

/// Implements `Procedure` for a roll that is one d10 looked up in a table:
/// the outcome space is `self.space` and the leaf of face `f` is
/// `self.$faces[f]` (a `[Leaf; 10]` filled when the roll is built). Most
/// Musket & Pike rolls have this shape; each leaves `exact` to enumeration
/// of the ten faces.
macro_rules! d10_procedure {
    ($name:ty, $faces:ident) => {
        impl $crate::procedure::Procedure for $name {
            fn space(&self) -> &$crate::outcome::OutcomeSpace {
                &self.space
            }
            #[inline]
            fn resolve<D: $crate::dice::Dice>(&self, dice: &mut D) -> $crate::outcome::Leaf {
                self.$faces[dice.d10() as usize]
            }
        }
    };
}

pub mod artillery;
pub mod close_combat;
pub mod course;
pub mod drm_roll;
pub mod explain;
pub mod input;
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

/// The highest original morale the cards' tables print a row or modifier
/// for.
pub const MAX_CHART_MORALE: u8 = 8;

/// The original morale a table reads: a 9 reads as 8 on every table that
/// reads morale (Casualty Threshold 12.5, Interception 9.3, Unable to
/// Retreat 11.4.5; docs/rules/mpbs.md, "Morale 9").
pub fn chart_morale(original_morale: u8) -> u8 {
    original_morale.min(MAX_CHART_MORALE)
}

use crate::engine::KernelMode;
use crate::error::InputError;
use crate::scenario::Fields;
use crate::systems::BuiltCourses;
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

/// A unit not told otherwise is in Formation Normal.
impl Default for Formation {
    fn default() -> Formation {
        Formation::Normal
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
    /// Morale Broken eliminates (docs/rules/mpbs.md, Morale levels).
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

/// The morale states a unit may start a course in (`morale_state`): all
/// but eliminated.
pub const MORALE_STATES_IN_PLAY: [&str; 3] = ["good", "shaken", "broken"];

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

/// Other names the guns answer to: the SFO card heads its column "12 lb",
/// the series card "12-24 lb" (docs/rules/mpbs.md, "Card names across
/// editions").
pub const GUN_ALIASES: &[(&str, Gun)] = &[("12lb", Gun::Heavy), ("double-12lb", Gun::DoubleHeavy)];

/// A closed set of names some of which only one edition's card prints, and
/// which answers to a few other names besides (the cards' spellings).
pub trait CardNamed: crate::systems::named::NameSet + Copy + 'static {
    /// Other names the values answer to.
    const ALIASES: &'static [(&'static str, Self)];
    /// Whether the edition's card prints this value.
    fn on_card(self, edition: Edition) -> bool;
    /// The value named `s` (or one of its [`CardNamed::ALIASES`]) if the
    /// edition's card has it.
    fn parse(edition: Edition, s: &str) -> Option<Self> {
        Self::from_name(s)
            .or_else(|| Self::ALIASES.iter().find(|(a, _)| *a == s).map(|&(_, v)| v))
            .filter(|v| v.on_card(edition))
    }
    /// Every name a value answers to on the edition's card, in card order,
    /// the aliases last.
    fn card_names(edition: Edition) -> Vec<&'static str> {
        Self::names()
            .into_iter()
            .filter(|n| Self::from_name(n).is_some_and(|v| v.on_card(edition)))
            .chain(Self::ALIASES.iter().map(|&(a, _)| a))
            .collect()
    }
}

/// Other names the unit kinds answer to: the Close Combat Matrix's "Lt Inf"
/// column is commanded muskets and dragoons, which read the same on every
/// table (docs/rules/mpbs.md, "Card names across editions").
pub const KIND_ALIASES: &[(&str, UnitKind)] = &[("light-infantry", UnitKind::CommandedMuskets)];

impl CardNamed for UnitKind {
    const ALIASES: &'static [(&'static str, UnitKind)] = KIND_ALIASES;
    /// HI no Pikes: series only.
    fn on_card(self, edition: Edition) -> bool {
        self != UnitKind::HeavyInfantryNoPikes || edition == Edition::Series
    }
}

impl CardNamed for Gun {
    const ALIASES: &'static [(&'static str, Gun)] = GUN_ALIASES;
    /// Double 3lb: series only.
    fn on_card(self, edition: Edition) -> bool {
        self != Gun::Double3 || edition == Edition::Series
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

/// What `repeat` accepts: the turns of an engagement, its stop conditions
/// (in `Stop::ALL` order), none by default.
pub const REPEATS: crate::systems::Repeats = crate::systems::Repeats {
    max_turns: course::MAX_TURNS as u8,
    stops: course::Stop::STOPS,
    default_until: "none: the course runs all its turns",
};

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
        // Every name the readers accept, per card: the card's own names,
        // then the names that answer to them (`light-infantry`, `12lb`, the
        // series card's `garden` and `vineyard`).
        let mut out = String::new();
        for e in Edition::ALL {
            out.push_str(&format!(
                "unit kinds ({e}): {}\n",
                UnitKind::card_names(e).join(", ")
            ));
        }
        out.push_str(&crate::systems::registry::vocabulary(&[
            ("formations", Formation::names()),
            ("morale states", MoraleState::names()),
            ("orders", Order::names()),
        ]));
        for e in Edition::ALL {
            out.push_str(&format!("guns ({e}): {}\n", Gun::card_names(e).join(", ")));
        }
        for e in Edition::ALL {
            let hex = terrain::hex_names(e);
            let side = terrain::hexside_names(e);
            out.push_str(&format!("terrain ({e}): {}\n", hex.join(", ")));
            out.push_str(&format!("hexsides ({e}): {}\n", side.join(", ")));
        }
        out
    }
    fn unit_keys(&self) -> Vec<crate::systems::KeyDoc> {
        unit::keys::all()
    }
    fn repeats(&self) -> &'static crate::systems::Repeats {
        &REPEATS
    }
    fn rules_keys(&self) -> Vec<crate::systems::KeyDoc> {
        course::rules::keys::all()
    }
    fn decide(
        &self,
        f: &mut Fields,
        ask: &crate::scenario::decision::DecideAsk,
    ) -> Result<Vec<crate::engine::decide::summary::Decided>, InputError> {
        scenario::decide(f, ask)
    }
    fn reads_decisions(&self) -> bool {
        true
    }
    fn build_courses(&self, f: &mut Fields, mode: KernelMode) -> Result<BuiltCourses, InputError> {
        let b = scenario::build(f, mode)?;
        Ok(BuiltCourses {
            edition: Some(b.edition.name().to_string()),
            courses: b.courses,
            sides: b.sides,
        })
    }
    fn explain(
        &self,
        f: &mut crate::scenario::Fields,
    ) -> Result<crate::explain::Explained, crate::error::InputError> {
        scenario::explain(f)
    }
}
