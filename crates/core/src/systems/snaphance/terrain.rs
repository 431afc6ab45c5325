//! Terrain Effects – movement and melee [4.0], and the Rules for Town Hexes,
//! as data. The terrain sheet interleaves two columns; the woods lines here
//! are de-interleaved as docs/rules/snaphance.md section 1 reads them. Movement rules that
//! roll no dice (turning, halting, moving through) are not modelled; what
//! they imply for a stand's order is: a stand that disorders on entering a
//! terrain and "cannot recover" there is disordered while it stands there.

use super::{Era, Kind, WoodsGroup, d6};
use crate::systems::Chart;
use crate::systems::chart::headers;
use crate::systems::named::named_enum;

named_enum! {
    /// The terrain a stand stands in. Hills are a relation between two
    /// stands (the melee key `higher`); defences are a unit key.
    Terrain {
        /// Open ground.
        Open = "open",
        /// Woods.
        Woods = "woods",
        /// Stream.
        Stream = "stream",
        /// Swamp.
        Swamp = "swamp",
        /// Fields.
        Fields = "fields",
        /// Rough (as fields: "Fields/rough").
        Rough = "rough",
        /// A town hex.
        Town = "town",
    }
}

impl Terrain {
    /// Cover for fire ("firing on any in cover"): woods, and towns ("A
    /// town hex is cover for stands in it when fired on"). Prepared
    /// defences have their own fire line.
    pub fn cover(self) -> bool {
        matches!(self, Terrain::Woods | Terrain::Town)
    }
    /// Fields or rough.
    pub fn fields(self) -> bool {
        matches!(self, Terrain::Fields | Terrain::Rough)
    }
}

/// One woods line (Woods, Terrain Effects [4.0]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WoodsRow {
    /// The troop types it covers.
    pub group: WoodsGroup,
    /// As the sheet names them.
    pub label: &'static str,
    /// Melee dice when in woods or fighting a stand in woods.
    pub dice: i8,
    /// Keeps its Charge Bonus when charging out of woods.
    pub charge_bonus_from: bool,
    /// Keeps its Charge Bonus against a stand in woods.
    pub charge_bonus_into: bool,
    /// Keeps depth and P&S bonus in or against woods.
    pub pike_bonus: bool,
    /// Becomes disordered when fighting an enemy stand in woods.
    pub disorder_fighting: bool,
    /// Disorders on entering and cannot recover in woods.
    pub cannot_recover: bool,
    /// Has fire in woods or against a stand in woods.
    pub fire: bool,
    /// Foot of this line can close assault MCS in woods.
    pub assault_mcs: bool,
}

/// A woods line that the woods leave alone: no dice, the Charge Bonus kept
/// out of and into woods, depth and P&S bonus kept, no disorder, fire kept,
/// no close assault of MCS. [`WOODS`] writes each line as how it differs.
const fn unhindered(group: WoodsGroup, label: &'static str) -> WoodsRow {
    WoodsRow {
        group,
        label,
        dice: 0,
        charge_bonus_from: true,
        charge_bonus_into: true,
        pike_bonus: true,
        disorder_fighting: false,
        cannot_recover: false,
        fire: true,
        assault_mcs: false,
    }
}

/// Woods, de-interleaved (docs/rules/snaphance.md section 1).
pub const WOODS: [WoodsRow; 7] = [
    WoodsRow {
        dice: -2,
        charge_bonus_into: false,
        disorder_fighting: true,
        cannot_recover: true,
        ..unhindered(WoodsGroup::Lancers, "Lancers")
    },
    WoodsRow {
        dice: -1,
        charge_bonus_from: false,
        charge_bonus_into: false,
        pike_bonus: false,
        disorder_fighting: true,
        cannot_recover: true,
        assault_mcs: true,
        ..unhindered(WoodsGroup::PikeAndShot, "Pike and Shot, Pike")
    },
    WoodsRow {
        assault_mcs: true,
        ..unhindered(WoodsGroup::ShotDragoons, "Shot, Dragoons")
    },
    WoodsRow {
        charge_bonus_from: false,
        charge_bonus_into: false,
        cannot_recover: true,
        fire: false,
        ..unhindered(WoodsGroup::HorsePistols, "Horse, Pistols")
    },
    WoodsRow {
        charge_bonus_into: false,
        ..unhindered(WoodsGroup::LightCavalry, "LC")
    },
    unhindered(WoodsGroup::Skirmishers, "Sk"),
    unhindered(WoodsGroup::Artillery, "Art"),
];

/// The woods line of a troop type.
pub fn woods(kind: Kind) -> &'static WoodsRow {
    let g = kind.row().woods;
    WOODS
        .iter()
        .find(|r| r.group == g)
        .expect("every woods group has a line")
}

/// Stream: all halt on entering, disordered, no Charge Bonus, no depth
/// bonus; cannot recover; +1D6 on the bank fighting a stand in the stream;
/// a stand on the bank keeps its Charge Bonus charging into the stream.
pub const STREAM_BANK_DICE: i8 = 1;

/// Hills: +1D6 to the stand on the higher hex.
pub const HIGHER_DICE: i8 = 1;

/// Defences: what a stand attacking a stand behind defences gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DefencesRow {
    /// Infantry attacking defences.
    pub infantry_dice: i8,
    /// Mounted attacking defences (and they disorder).
    pub mounted_dice: i8,
}

/// Defences: no Charge Bonus attacking defences; no depth bonus for pikes or
/// pike bonus for P&S attacking; −1D6 infantry; −2D6 and disorder mounted.
pub const DEFENCES: DefencesRow = DefencesRow {
    infantry_dice: -1,
    mounted_dice: -2,
};

/// Town dice for one side of a fight across a town hex edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TownRow {
    /// Other foot.
    pub foot: i8,
    /// Mounted.
    pub mounted: i8,
    /// Pike blocks.
    pub pike: i8,
    /// Tercios.
    pub tercio: i8,
    /// P&S of more than one stand.
    pub ps: i8,
    /// A single-stand P&S.
    pub single_stand_ps: i8,
}

/// 3.1 Stands attacking town hexes (and, 4.0, stands outside attacked from
/// a town): no Charge Bonus; pikes no depth bonus and disorder; P&S no
/// pike additions; tercios +1 depth bonus at most; −1D6 foot; −2D6 and
/// disorder any mounted.
pub const TOWN_ATTACKING: TownRow = TownRow {
    foot: -1,
    mounted: -2,
    pike: -1,
    tercio: -1,
    ps: -1,
    single_stand_ps: -1,
};

/// Tercios attacking a town keep at most this much depth bonus (3.1).
pub const TOWN_TERCIO_DEPTH: i8 = 1;

/// 3.2 Stands defending town hexes, or attacking out of them: −3D6 mounted;
/// −1D6 single stand P&S and no pike combat additions; −2D6 pike and no
/// depth; −2D6 tercio and no depth; no Charge Bonus. Other foot: nothing.
pub const TOWN_INSIDE: TownRow = TownRow {
    foot: 0,
    mounted: -3,
    pike: -2,
    tercio: -2,
    ps: 0,
    single_stand_ps: -1,
};

impl TownRow {
    /// The dice this row gives a stand of `kind` (`single_stand` for P&S).
    pub fn dice(&self, kind: Kind, single_stand: bool) -> i8 {
        match kind {
            k if k.mounted() => self.mounted,
            Kind::Pike => self.pike,
            Kind::Tercio => self.tercio,
            Kind::PikeAndShot if single_stand => self.single_stand_ps,
            Kind::PikeAndShot => self.ps,
            _ => self.foot,
        }
    }
}

/// 2.0 Stands firing out of town hexes: 16th century and tercio P&S.
pub const TOWN_FIRE_16TH_PS: i8 = -2;

/// True when a stand of `kind` (of `era`, for P&S) standing in `terrain`
/// disorders on entering and cannot recover there, so is disordered while
/// it stands there: woods per its woods line (late-era P&S recover in
/// woods), any stand in a stream, any but Sk in a swamp, and MCS, pikes,
/// tercios and 16th century P&S in a town (1.0). Fields: disorder on
/// entering but recover, so only the unit's own `disordered` counts.
pub fn cannot_recover(kind: Kind, era: Era, terrain: Terrain) -> bool {
    match terrain {
        Terrain::Open | Terrain::Fields | Terrain::Rough => false,
        Terrain::Woods => {
            woods(kind).cannot_recover && !(kind == Kind::PikeAndShot && era == Era::Late)
        }
        Terrain::Stream => true,
        Terrain::Swamp => kind != Kind::Skirmishers,
        Terrain::Town => {
            kind.mcs()
                || matches!(kind, Kind::Pike | Kind::Tercio)
                || (kind == Kind::PikeAndShot && era == Era::Sixteenth)
        }
    }
}

/// The terrain charts, for `pikeshot tables snaphance`.
pub fn charts() -> Vec<Chart> {
    let keep = |b: bool, s: &str| if b { "kept".to_string() } else { s.to_string() };
    let woods_rows = WOODS
        .iter()
        .map(|r| {
            vec![
                r.label.to_string(),
                if r.dice == 0 {
                    String::new()
                } else {
                    format!("{} in or vs unit in", d6(r.dice))
                },
                format!(
                    "from woods: {}; into woods: {}",
                    keep(r.charge_bonus_from, "none"),
                    keep(r.charge_bonus_into, "none")
                ),
                keep(r.pike_bonus, "none in or vs"),
                match (r.cannot_recover, r.disorder_fighting) {
                    (true, true) => "disordered, cannot recover; disorder fighting vs woods",
                    (true, false) => "disordered, cannot recover",
                    (false, _) => "",
                }
                .to_string(),
                if r.fire { "" } else { "none in or vs" }.to_string(),
            ]
        })
        .collect();
    let dice = |v: i8| {
        if v == 0 { String::new() } else { d6(v) }
    };
    let town = |name: &str, r: &TownRow, extra: &str| {
        vec![
            name.to_string(),
            dice(r.foot),
            dice(r.mounted),
            dice(r.pike),
            dice(r.tercio),
            dice(r.ps),
            dice(r.single_stand_ps),
            extra.to_string(),
        ]
    };
    vec![
        Chart {
            id: "woods",
            title: "Terrain Effects – Woods (de-interleaved)".into(),
            rule: "4.0",
            headers: headers(&["Stands", "Melee dice", "Charge Bonus", "Depth / P&S bonus", "Order", "Fire"]),
            rows: woods_rows,
            notes: vec![
                "Gendarmes read the Lancers line; tercios the Pike and Shot line".into(),
                "Late era (1660+) P&S can recover in woods".into(),
                "Pike/P&S and Shot/Dragoons can close assault MCS in woods".into(),
            ],
        },
        Chart {
            id: "terrain",
            title: "Terrain Effects – movement and melee".into(),
            rule: "4.0",
            headers: headers(&["Terrain", "Melee", "Charge Bonus", "Order"]),
            rows: vec![
                vec![
                    "Stream".into(),
                    format!("{} on bank fighting stand in stream; no depth bonus in stream", d6(STREAM_BANK_DICE)),
                    "none in stream; kept charging in from the bank".into(),
                    "all disordered, cannot recover".into(),
                ],
                vec![
                    "Hills".into(),
                    format!("{} to the stand on the higher hex", d6(HIGHER_DICE)),
                    String::new(),
                    String::new(),
                ],
                vec![
                    "Swamp".into(),
                    String::new(),
                    "none in swamp; kept charging in from outside, except vs Sk in swamp".into(),
                    "all bar Sk disordered, cannot recover".into(),
                ],
                vec![
                    "Fields/rough".into(),
                    String::new(),
                    "none in or vs unit in".into(),
                    "all bar Sk/LC/Dr disorder on entering; can recover".into(),
                ],
                vec![
                    "Defences (attacking)".into(),
                    format!(
                        "{} infantry; {} and disorder mounted; no depth or P&S bonus",
                        d6(DEFENCES.infantry_dice),
                        d6(DEFENCES.mounted_dice)
                    ),
                    "none".into(),
                    "mounted disorder".into(),
                ],
            ],
            notes: vec![
                "Movement-only rules (turning, halting, moving through) roll no dice".into(),
            ],
        },
        Chart {
            id: "towns",
            title: "Rules for Town Hexes – combat".into(),
            rule: "Towns 3.1, 3.2",
            headers: headers(&["Stand", "Foot", "Mounted", "Pike", "Tercio", "P&S", "Single P&S", "Also"]),
            rows: vec![
                town(
                    "3.1 attacking a town (or attacked from one, 4.0)",
                    &TOWN_ATTACKING,
                    "no Charge Bonus; pike no depth and disorder; P&S no pike additions; \
                     tercio +1 depth at most; mounted disorder; no flank/rear benefit",
                ),
                town(
                    "3.2 defending in or attacking out of a town",
                    &TOWN_INSIDE,
                    "no Charge Bonus; pike and tercio no depth; P&S no pike additions",
                ),
            ],
            notes: vec![
                format!(
                    "2.0 firing out of a town: 16th century P&S and all tercios {}; a town is cover",
                    d6(TOWN_FIRE_16TH_PS)
                ),
                "3.3 a stand beaten in a town may stay: one extra SP lost, melee ongoing (hold_town)"
                    .into(),
                "5.0 combat stands leaving a town to attack: no Charge Bonus (left_town)".into(),
                "1.0 MCS, pikes, tercios and 16th century P&S are disordered in a town".into(),
            ],
        },
    ]
}
