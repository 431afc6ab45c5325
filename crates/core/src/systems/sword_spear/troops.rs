//! Troop types, the movement table and Fresh Status (Activation and
//! Movement).
//!
//! The movement table is data ([`MOVEMENT`]), one row per troop type in card
//! order. Which types count as foot, mounted or beasts is not printed on the
//! sheet; the reading ([`Class`]) is in `docs/rules/sword-and-spear.md`.

use super::{named_enum, numbered};
use crate::systems::Chart;
use crate::systems::chart::headers;

named_enum! {
    /// The troop types of the movement table, in card order.
    Troop {
        /// Heavy foot.
        HeavyFoot = "heavy-foot",
        /// Medium foot.
        MediumFoot = "medium-foot",
        /// Light foot (skirmishers).
        LightFoot = "light-foot",
        /// Cavalry.
        Cavalry = "cavalry",
        /// Light horse (skirmishers).
        LightHorse = "light-horse",
        /// Chariots.
        Chariots = "chariots",
        /// Swarms.
        Swarms = "swarms",
        /// Beasts.
        Beasts = "beasts",
        /// Large beasts.
        LargeBeasts = "large-beasts",
        /// Monsters.
        Monsters = "monsters",
        /// Mounted hero ("Hero (Mtd)").
        HeroMounted = "hero-mounted",
        /// Hero on foot ("Hero (Foot)").
        HeroFoot = "hero-foot",
        /// War wagons.
        WarWagons = "war-wagons",
        /// Artillery.
        Artillery = "artillery",
    }
}

/// Which family the sheet's conditions put a troop type in (a reading:
/// the sheet names "foot", "mounted", "beasts" and "large beasts" without
/// listing their members).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// Heavy, medium and light foot, and heroes on foot.
    Foot,
    /// Cavalry, light horse, chariots and mounted heroes.
    Mounted,
    /// Beasts and large beasts (named apart from "mounted" on the sheet).
    Beasts,
    /// Swarms, monsters, war wagons and artillery: neither foot, mounted nor beasts.
    Other,
}

/// One cell of the movement table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// A distance in DU (crossing an obstacle: its cost, e.g. −1).
    Du(i8),
    /// "-": no effect (crossing an obstacle costs nothing).
    Dash,
    /// "n/a": the troop type cannot enter (or cross) it.
    NotAllowed,
    /// Left blank on the sheet (Monsters crossing an obstacle).
    Blank,
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Move::Du(d) => write!(f, "{d}"),
            Move::Dash => f.write_str("-"),
            Move::NotAllowed => f.write_str("n/a"),
            Move::Blank => Ok(()),
        }
    }
}

named_enum! {
    /// The terrain a unit stands in: the worst it is partly in (so a
    /// unit partly in rough is "rough": not completely in the open).
    Terrain {
        /// Open terrain.
        Open = "open",
        /// Rough terrain.
        Rough = "rough",
        /// Difficult terrain.
        Difficult = "difficult",
    }
}

/// One row of the movement table: the troop type, its card label, its
/// family, and its movement in open, rough and difficult terrain and when
/// crossing an obstacle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TroopRow {
    /// The troop type.
    pub troop: Troop,
    /// The label on the sheet.
    pub label: &'static str,
    /// Foot, mounted, beasts or other (reading).
    pub class: Class,
    /// Movement in open, rough, difficult; crossing an obstacle.
    pub movement: [Move; 4],
}

use Move::{Blank, Dash, Du, NotAllowed};

/// Activation and Movement: "TROOP TYPE / MOVEMENT IN: Open, Rough,
/// Difficult, Obstacle" (DU), in card order.
pub const MOVEMENT: [TroopRow; 14] = [
    TroopRow {
        troop: Troop::HeavyFoot,
        label: "Heavy foot",
        class: Class::Foot,
        movement: [Du(2), Du(2), Du(1), Du(-1)],
    },
    TroopRow {
        troop: Troop::MediumFoot,
        label: "Medium foot",
        class: Class::Foot,
        movement: [Du(3), Du(3), Du(2), Du(-1)],
    },
    TroopRow {
        troop: Troop::LightFoot,
        label: "Light foot",
        class: Class::Foot,
        movement: [Du(3), Du(3), Du(3), Dash],
    },
    TroopRow {
        troop: Troop::Cavalry,
        label: "Cavalry",
        class: Class::Mounted,
        movement: [Du(4), Du(2), Du(1), Du(-1)],
    },
    TroopRow {
        troop: Troop::LightHorse,
        label: "Light horse",
        class: Class::Mounted,
        movement: [Du(5), Du(3), Du(2), Du(-1)],
    },
    TroopRow {
        troop: Troop::Chariots,
        label: "Chariots",
        class: Class::Mounted,
        movement: [Du(4), Du(1), NotAllowed, NotAllowed],
    },
    TroopRow {
        troop: Troop::Swarms,
        label: "Swarms",
        class: Class::Other,
        movement: [Du(3), Du(3), Du(2), Dash],
    },
    TroopRow {
        troop: Troop::Beasts,
        label: "Beasts",
        class: Class::Beasts,
        movement: [Du(4), Du(3), Du(2), Du(-1)],
    },
    TroopRow {
        troop: Troop::LargeBeasts,
        label: "Large Beasts",
        class: Class::Beasts,
        movement: [Du(3), Du(2), Du(1), Du(-1)],
    },
    TroopRow {
        troop: Troop::Monsters,
        label: "Monsters",
        class: Class::Other,
        movement: [Du(3), Du(3), Du(2), Blank],
    },
    TroopRow {
        troop: Troop::HeroMounted,
        label: "Hero (Mtd)",
        class: Class::Mounted,
        movement: [Du(5), Du(4), Du(3), Dash],
    },
    TroopRow {
        troop: Troop::HeroFoot,
        label: "Hero (Foot)",
        class: Class::Foot,
        movement: [Du(3), Du(3), Du(3), Dash],
    },
    TroopRow {
        troop: Troop::WarWagons,
        label: "War wagons",
        class: Class::Other,
        movement: [Du(1), Du(0), NotAllowed, NotAllowed],
    },
    TroopRow {
        troop: Troop::Artillery,
        label: "Artillery",
        class: Class::Other,
        movement: [Du(0), Du(0), NotAllowed, NotAllowed],
    },
];

impl Troop {
    /// The troop type's row of the movement table.
    pub fn row(self) -> &'static TroopRow {
        &MOVEMENT[self as usize]
    }
    /// The troop type's family.
    pub fn class(self) -> Class {
        self.row().class
    }
    /// Movement in `terrain` (DU), or `None` where the sheet reads n/a.
    pub fn movement(self, terrain: Terrain) -> Option<i8> {
        match self.row().movement[terrain as usize] {
            Du(d) => Some(d),
            _ => None,
        }
    }
    /// True when the type can move at all in `terrain` (a distance above 0).
    pub fn can_move(self, terrain: Terrain) -> bool {
        self.movement(terrain).is_some_and(|d| d > 0)
    }
    /// Foot (reading: heavy, medium, light foot and heroes on foot).
    pub fn is_foot(self) -> bool {
        self.class() == Class::Foot
    }
    /// Mounted (reading: cavalry, light horse, chariots, mounted heroes).
    pub fn is_mounted(self) -> bool {
        self.class() == Class::Mounted
    }
    /// Either hero.
    pub fn is_hero(self) -> bool {
        matches!(self, Troop::HeroMounted | Troop::HeroFoot)
    }
    /// Medium or heavy foot (the uphill die).
    pub fn is_medium_or_heavy_foot(self) -> bool {
        matches!(self, Troop::MediumFoot | Troop::HeavyFoot)
    }
    /// Skirmishers unless a unit says otherwise: light foot and light horse.
    pub fn default_skirmisher(self) -> bool {
        matches!(self, Troop::LightFoot | Troop::LightHorse)
    }
}

/// Fresh Status: the four conditions, in card order.
pub const FRESH_STATUS: [&str; 4] = [
    "Has no Hits",
    "Is in the Open if Mounted or Heavy Foot",
    "Is not in difficult terrain",
    "Has no enemy in contact with flank or rear",
];

/// Fresh Status: true when a unit of `troop` with `hits` hits, standing in
/// `terrain`, with or without an enemy on its flank or rear, is Fresh.
pub fn is_fresh(troop: Troop, hits: u8, terrain: Terrain, enemy_on_flank_or_rear: bool) -> bool {
    let open_if_needed =
        !(troop.is_mounted() || troop == Troop::HeavyFoot) || terrain == Terrain::Open;
    hits == 0 && open_if_needed && terrain != Terrain::Difficult && !enemy_on_flank_or_rear
}

/// The movement table and Fresh Status, for `pikeshot tables`.
pub fn charts() -> Vec<Chart> {
    let movement = Chart {
        id: "movement",
        title: "Movement (DU)".into(),
        rule: "Activation and Movement",
        headers: headers(&["Troop type", "Open", "Rough", "Difficult", "Obstacle"]),
        rows: MOVEMENT
            .iter()
            .map(|r| {
                let mut row = vec![r.label.to_string()];
                row.extend(r.movement.iter().map(|m| m.to_string()));
                row
            })
            .collect(),
        notes: vec![
            "Obstacle: the cost of crossing one; \"-\" no effect; n/a not allowed; Monsters' cell is blank on the sheet".into(),
            "Families (reading): foot = heavy, medium, light foot, hero (foot); mounted = cavalry, light horse, chariots, hero (mtd); beasts = beasts, large beasts".into(),
        ],
    };
    let fresh = Chart {
        id: "fresh-status",
        title: "Fresh Status: a unit is Fresh if it".into(),
        rule: "Activation and Movement",
        headers: headers(&["#", "Condition"]),
        rows: numbered(&FRESH_STATUS),
        notes: vec![],
    };
    vec![movement, fresh]
}
