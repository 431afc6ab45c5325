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

/// Declares a closed set of names read from scenario files.
macro_rules! named_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $($(#[$vm])* $var),+ }
        impl $name {
            /// Every value, in card order.
            pub const ALL: &'static [$name] = &[$($name::$var),+];
            /// The name used in scenario files.
            pub fn name(self) -> &'static str { match self { $($name::$var => $s),+ } }
            /// Parses a scenario-file name.
            pub fn from_name(s: &str) -> Option<$name> {
                Self::ALL.iter().copied().find(|v| v.name() == s)
            }
            /// All scenario-file names.
            pub fn names() -> Vec<&'static str> { Self::ALL.iter().map(|v| v.name()).collect() }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str(self.name()) }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use named_enum;

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

/// Other names the unit kinds answer to: the Close Combat Matrix's "Lt Inf"
/// column is commanded muskets and dragoons, which read the same on every
/// table (docs/rules/mpbs.md, "Card names across editions").
pub const KIND_ALIASES: &[(&str, UnitKind)] = &[("light-infantry", UnitKind::CommandedMuskets)];

impl UnitKind {
    /// Whether the edition's card prints this kind (HI no Pikes: series only).
    pub fn on_card(self, edition: Edition) -> bool {
        self != UnitKind::HeavyInfantryNoPikes || edition == Edition::Series
    }
    /// The kind named `s` (or one of its [`KIND_ALIASES`]) if the edition's card has it.
    pub fn parse(edition: Edition, s: &str) -> Option<UnitKind> {
        UnitKind::from_name(s)
            .or_else(|| KIND_ALIASES.iter().find(|(a, _)| *a == s).map(|&(_, k)| k))
            .filter(|k| k.on_card(edition))
    }
    /// Every name a kind answers to on the edition's card.
    pub fn card_names(edition: Edition) -> Vec<&'static str> {
        UnitKind::ALL
            .iter()
            .filter(|k| k.on_card(edition))
            .map(|k| k.name())
            .chain(KIND_ALIASES.iter().map(|&(a, _)| a))
            .collect()
    }
}

impl Gun {
    /// Whether the edition's card prints this gun (Double 3lb: series only).
    pub fn on_card(self, edition: Edition) -> bool {
        self != Gun::Double3 || edition == Edition::Series
    }
    /// The gun named `s` (or one of its [`GUN_ALIASES`]) if the edition's card has it.
    pub fn parse(edition: Edition, s: &str) -> Option<Gun> {
        Gun::from_name(s)
            .or_else(|| GUN_ALIASES.iter().find(|(a, _)| *a == s).map(|&(_, g)| g))
            .filter(|g| g.on_card(edition))
    }
    /// Every name a gun answers to on the edition's card.
    pub fn card_names(edition: Edition) -> Vec<&'static str> {
        Gun::ALL
            .iter()
            .filter(|g| g.on_card(edition))
            .map(|g| g.name())
            .chain(GUN_ALIASES.iter().map(|&(a, _)| a))
            .collect()
    }

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

/// What `pikeshot list mpbs` prints.
pub fn list() -> String {
    let mut out = String::from("mpbs — Musket & Pike Battle Series (editions: sfo, series)\n");
    out.push_str("procedures (scenario steps):\n");
    out.push_str(&crate::systems::describe_procedures(course::PROCEDURES));
    out.push_str(&format!("unit kinds: {}\n", UnitKind::names().join(", ")));
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
    out.push_str("unit keys: kind, morale, strength, hexes, casualty_points, formation, morale_state, terrain, hexside, salvo_marker, regimental_artillery, gun, leader, order, can_retreat\n");
    out.push_str("course keys: name, steps, own, enemy, repeat = { turns, until = [enemy-broken, enemy-threshold, own-broken] }\n");
    out.push_str("[rules] keys: morale_check_on_hits, morale_check_on_salvo, morale_check_on_threshold, morale_check_on_table, morale_check_on_broken_formation_hit, morale_checks_combined, morale_check_drm, pursuit (true, false or a table of the pursuit step's keys plus defending_leader), leader_casualty, eliminate_at_strength, sfo_interception_morale_6 (6-or-less, exactly-6)\n");
    let ids: Vec<&str> = charts(Edition::Series)
        .iter()
        .map(|c| c.id)
        .collect::<Vec<_>>();
    out.push_str(&format!(
        "charts (pikeshot tables mpbs): {}\n",
        ids.join(", ")
    ));
    out
}
