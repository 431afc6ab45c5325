//! Sword & Spear (Fantasy), from its quick reference sheet.
//!
//! Every die is a d6. Every chart of the sheet is data headed by its section
//! name, one file per procedure: activation against Discipline
//! ([`activation`]), Discipline tests and their adjustments
//! ([`discipline`]), the combat mechanism shared by melee and shooting
//! ([`combat`]), melee combat dice and impetus ([`melee`]), shooting by
//! weapon ([`shooting`]), risk to commanders ([`commanders`]), melee rounds
//! until a unit routs ([`engagement`]) and courses of several steps
//! ([`course`]). Readings of what the sheet leaves open are in
//! `docs/rules/sword-and-spear.md`, each with the scenario key that
//! overrides it.

pub mod activation;
pub mod combat;
pub mod commanders;
pub mod course;
pub mod discipline;
pub mod engagement;
pub mod impetus;
pub mod melee;
pub mod scenario;
pub mod shooting;
pub mod troops;
pub mod unit;

pub use unit::Unit;

use crate::error::{Error, InputError};
use crate::systems::Chart;

/// The system id used in scenario files and on the command line.
pub const SYSTEM: &str = "sword-and-spear";

/// The card, as named in messages.
pub const CARD: &str = "Sword & Spear Fantasy quick reference sheet";

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
pub(crate) use named_enum;

/// Every chart of the sheet, in card order, for `pikeshot tables`.
pub fn charts() -> Vec<Chart> {
    let mut c = Vec::new();
    c.extend(discipline::command_charts());
    c.extend(commanders::charts());
    c.extend(discipline::charts());
    c.extend(troops::charts());
    c.extend(activation::charts());
    c.extend(combat::charts());
    c.extend(shooting::charts());
    c.extend(melee::charts());
    c
}

/// The charts for `pikeshot tables sword-and-spear`: the sheet has one
/// edition, so `--edition` is refused.
pub fn charts_for(edition: Option<&str>) -> Result<Vec<Chart>, Error> {
    match edition {
        None => Ok(charts()),
        Some(e) => Err(InputError::new(format!(
            "Sword & Spear has a single card and no editions; drop `--edition {e}`"
        ))
        .key("--edition")
        .into()),
    }
}

/// What `pikeshot list sword-and-spear` prints.
pub fn list() -> String {
    let mut out = String::from("sword-and-spear — Sword & Spear (Fantasy) (no editions)\n");
    out.push_str("procedures (scenario steps):\n");
    out.push_str(&crate::systems::describe_procedures(course::PROCEDURES));
    out.push_str(&format!(
        "troop types: {}\n",
        troops::Troop::names().join(", ")
    ));
    out.push_str(&format!(
        "terrain: {}\n",
        troops::Terrain::names().join(", ")
    ));
    out.push_str(&format!("armour: {}\n", unit::Armour::names().join(", ")));
    out.push_str(&format!(
        "missile weapons: {}\n",
        shooting::Weapon::names().join(", ")
    ));
    out.push_str(&format!(
        "melee weapons: {}\n",
        unit::MeleeWeapon::names().join(", ")
    ));
    out.push_str(&format!(
        "commanders: {}\n",
        unit::Commander::names().join(", ")
    ));
    out.push_str(&format!("unit keys: {}\n", unit::UNIT_KEYS.join(", ")));
    let ids: Vec<&str> = charts().iter().map(|c| c.id).collect();
    out.push_str(&format!(
        "charts (pikeshot tables sword-and-spear): {}\n",
        ids.join(", ")
    ));
    out
}
