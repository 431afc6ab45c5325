//! Terrain Effects Chart (TEC), one per edition.
//!
//! Hex rows and hexside rows with the MP costs (as printed, for display),
//! whether the terrain blocks LOS, and the two combat columns: the fire DRM
//! (for non-artillery and artillery fire, which differ only for the series
//! card's Woods "-1/+1 §" and the "-1@" musket-only Down Slope) and the close
//! combat DRM. `None` is the card's NA: not allowed.

use super::Edition;

/// The fire column of a TEC row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FireDrm {
    /// DRM for musketry, light infantry and cavalry fire. `None` = NA.
    pub musket: Option<i8>,
    /// DRM for artillery fire. `None` = NA.
    pub artillery: Option<i8>,
}

const fn both(v: i8) -> FireDrm {
    FireDrm {
        musket: Some(v),
        artillery: Some(v),
    }
}
const NA_FIRE: FireDrm = FireDrm {
    musket: None,
    artillery: None,
};

/// One row of the TEC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TecRow {
    /// Scenario-file name of the terrain.
    pub name: &'static str,
    /// The row's label on the card.
    pub label: &'static str,
    /// MP cost to enter (hex) or extra cost to cross (hexside) for Heavy
    /// Infantry, Cavalry and Light Infantry, as printed (`*` = Formation Hit,
    /// `#` = artillery/integrated artillery need a road, OT = other terrain).
    pub mp: [&'static str; 3],
    /// Blocks line of sight.
    pub blocks_los: bool,
    /// Fire column.
    pub fire: FireDrm,
    /// Close combat column; `None` = NA.
    pub close_combat: Option<i8>,
}

const fn row(
    name: &'static str,
    label: &'static str,
    mp: [&'static str; 3],
    blocks_los: bool,
    fire: FireDrm,
    close_combat: Option<i8>,
) -> TecRow {
    TecRow {
        name,
        label,
        mp,
        blocks_los,
        fire,
        close_combat,
    }
}

/// TEC hex rows, Sweden Fights On card.
pub const SFO_HEX: &[TecRow] = &[
    row(
        "clear",
        "Clear or Ploughed Field",
        ["1", "1", "1"],
        false,
        both(0),
        Some(0),
    ),
    row(
        "woods",
        "Woods",
        ["2*", "4*", "3"],
        true,
        both(-1),
        Some(-1),
    ),
    row("marsh", "Marsh", ["1*", "2*", "2"], false, both(0), Some(1)),
    row(
        "thicket",
        "Thicket",
        ["2*", "3*", "2"],
        false,
        both(0),
        Some(1),
    ),
    row(
        "hedge-lined-road",
        "Hedge Lined Road",
        ["2*", "3*", "2"],
        true,
        both(-1),
        Some(-1),
    ),
    row(
        "river-or-pond",
        "River or Pond",
        ["NA", "NA", "NA"],
        false,
        both(0),
        None,
    ),
    row(
        "marshy-stream",
        "Marshy Stream",
        ["2* #", "4*", "3"],
        false,
        both(0),
        Some(2),
    ),
    row(
        "stream",
        "Stream",
        ["2*", "3*", "2"],
        false,
        both(0),
        Some(1),
    ),
    row(
        "village",
        "Village",
        ["2*", "4*", "2"],
        true,
        both(-2),
        Some(-2),
    ),
    row(
        "bridge",
        "Bridge",
        ["2*", "2*", "1"],
        false,
        both(2),
        Some(-2),
    ),
    row("castle", "Castle", ["2*", "4*", "2"], true, NA_FIRE, None),
    row(
        "wagon",
        "Wagon in hex",
        ["OT", "OT", "OT"],
        true,
        both(-1),
        Some(-1),
    ),
    row(
        "garden",
        "Garden",
        ["2*", "2*", "1"],
        false,
        both(0),
        Some(0),
    ),
];

/// TEC hexside rows, Sweden Fights On card.
pub const SFO_HEXSIDE: &[TecRow] = &[
    row(
        "stream",
        "Stream Hexside",
        ["+1*", "+1*", "+1"],
        false,
        both(0),
        Some(-1),
    ),
    row(
        "hedge",
        "Hedge Hexside",
        ["+1*", "+1*", "+1"],
        true,
        both(-1),
        Some(-1),
    ),
    row(
        "up-slope",
        "Up Slope",
        ["+1*", "+1*", "+1"],
        true,
        both(0),
        Some(-1),
    ),
    row(
        "down-slope",
        "Down Slope",
        ["+1*", "+1*", "+1"],
        true,
        FireDrm {
            musket: Some(-1),
            artillery: Some(0),
        },
        Some(0),
    ),
    row(
        "entrenchment",
        "Entrenchment",
        ["+1*", "+1*", "+1"],
        false,
        both(-1),
        Some(-1),
    ),
    row("pond", "Pond", ["NA", "NA", "NA"], false, both(0), Some(0)),
    row(
        "marshy-stream",
        "Marshy Stream",
        ["+2* #", "+2*", "+2"],
        false,
        both(0),
        Some(-2),
    ),
    row(
        "deep-stream",
        "Deep Stream",
        ["+3* #", "+6*", "+3"],
        false,
        both(0),
        None,
    ),
    row(
        "castle-or-town-walls",
        "Castle or Town Walls",
        ["NA", "NA", "+4"],
        true,
        NA_FIRE,
        None,
    ),
    row(
        "garden-walls",
        "Garden Walls",
        ["+3* #", "NA", "+2"],
        false,
        both(-1),
        Some(-2),
    ),
    row(
        "elevated-road",
        "Elevated Road",
        ["+1*", "+1*", "+1"],
        false,
        both(0),
        Some(-1),
    ),
];

/// TEC hex rows, series card.
pub const SERIES_HEX: &[TecRow] = &[
    row(
        "clear",
        "Clear or Ploughed Field",
        ["1", "1", "1"],
        false,
        both(0),
        Some(0),
    ),
    row(
        "woods",
        "Woods",
        ["2*", "4*", "3"],
        true,
        FireDrm {
            musket: Some(-1),
            artillery: Some(1),
        },
        Some(-1),
    ),
    row("marsh", "Marsh", ["1*", "2*", "2"], false, both(0), Some(1)),
    row(
        "thicket",
        "Thicket, Vineyard, or Garden",
        ["2*", "3*", "2"],
        false,
        both(0),
        Some(1),
    ),
    row(
        "hedge-lined-road",
        "Hedge Lined Road",
        ["2*", "3*", "2"],
        true,
        both(-1),
        Some(-1),
    ),
    row(
        "river-or-pond",
        "River or Pond",
        ["NA", "NA", "NA"],
        false,
        both(0),
        None,
    ),
    row(
        "marshy-stream",
        "Marshy Stream",
        ["2* #", "4*", "3"],
        false,
        both(0),
        Some(2),
    ),
    row(
        "stream",
        "Stream",
        ["2*", "3*", "2"],
        false,
        both(0),
        Some(1),
    ),
    row(
        "village",
        "Village",
        ["2*", "4*", "2"],
        true,
        both(-2),
        Some(-2),
    ),
    row(
        "bridge",
        "Bridge",
        ["2*", "2*", "1"],
        false,
        both(2),
        Some(-2),
    ),
    row("castle", "Castle", ["2*", "4*", "2"], true, NA_FIRE, None),
    row(
        "wagon",
        "Wagon in hex",
        ["OT", "OT", "OT"],
        true,
        both(-1),
        Some(-1),
    ),
    row(
        "chateau",
        "Chateau",
        ["2* #", "NA", "2"],
        true,
        both(-2),
        Some(-2),
    ),
    row(
        "alerheim-gully",
        "ULB: Alerheim Gully",
        ["1", "2", "1"],
        false,
        both(-1),
        Some(-1),
    ),
    row(
        "alerheim-schloss",
        "ULB: Alerheim Schloss",
        ["NA", "NA", "NA"],
        true,
        NA_FIRE,
        None,
    ),
];

/// TEC hexside rows, series card.
pub const SERIES_HEXSIDE: &[TecRow] = &[
    row(
        "stream",
        "Stream Hexside",
        ["+1*", "+1*", "+1"],
        false,
        both(0),
        Some(-1),
    ),
    row(
        "hedge",
        "Hedge Hexside",
        ["+1*", "+1*", "+1"],
        true,
        both(-1),
        Some(-1),
    ),
    row(
        "up-slope",
        "Up Steep Slope",
        ["+1*", "+1*", "+1"],
        true,
        both(0),
        Some(-1),
    ),
    row(
        "down-slope",
        "Down Steep Slope",
        ["+1*", "+1*", "+1"],
        true,
        FireDrm {
            musket: Some(-1),
            artillery: Some(0),
        },
        Some(0),
    ),
    row(
        "entrenchment",
        "Entrenchment",
        ["+1*", "+1*", "+1"],
        false,
        both(-1),
        Some(-1),
    ),
    row(
        "river-or-pond",
        "River or Pond",
        ["NA", "NA", "NA"],
        false,
        both(0),
        Some(0),
    ),
    row(
        "marshy-stream",
        "Marshy Stream",
        ["+2* #", "+2*", "+2"],
        false,
        both(0),
        Some(-2),
    ),
    row(
        "bridge",
        "Bridge",
        ["+1*", "+1*", "+0"],
        false,
        both(0),
        Some(2),
    ),
    row(
        "freiburg-redoubt",
        "ULB: Freiburg Redoubt",
        ["+1*", "+1*", "+1"],
        false,
        both(-2),
        Some(-2),
    ),
    row(
        "freiburg-star-fort",
        "ULB: Freiburg Star Fort",
        ["+1*", "+1*", "+1"],
        false,
        both(-3),
        Some(-3),
    ),
    row(
        "freiburg-abatis",
        "ULB: Freiburg Abatis",
        ["+1*", "NA", "+1"],
        false,
        both(-1),
        Some(-1),
    ),
    row(
        "mergentheim-struetle",
        "ULB: Mergentheim Struetle",
        ["+1", "+1", "+1"],
        false,
        both(0),
        Some(0),
    ),
];

/// The hex rows of an edition's TEC.
pub fn hex_rows(edition: Edition) -> &'static [TecRow] {
    match edition {
        Edition::Sfo => SFO_HEX,
        Edition::Series => SERIES_HEX,
    }
}

/// The hexside rows of an edition's TEC.
pub fn hexside_rows(edition: Edition) -> &'static [TecRow] {
    match edition {
        Edition::Sfo => SFO_HEXSIDE,
        Edition::Series => SERIES_HEXSIDE,
    }
}

/// Other names a card's TEC hex rows answer to, as (edition, name, row
/// name): the series card's "Thicket, Vineyard, or Garden" row answers to
/// `garden` and `vineyard` as well as `thicket` (docs/rules/mpbs.md, "Card
/// names across editions"). On the SFO card `garden` is its own row.
pub const HEX_ALIASES: &[(Edition, &str, &str)] = &[
    (Edition::Series, "garden", "thicket"),
    (Edition::Series, "vineyard", "thicket"),
];

/// Other names a card's TEC hexside rows answer to, as (edition, name, row
/// name): the SFO card's "Pond" and the series card's "River or Pond"
/// hexsides (same values) answer to both names.
pub const HEXSIDE_ALIASES: &[(Edition, &str, &str)] = &[
    (Edition::Sfo, "river-or-pond", "pond"),
    (Edition::Series, "pond", "river-or-pond"),
];

fn find(
    rows: &'static [TecRow],
    aliases: &[(Edition, &str, &str)],
    edition: Edition,
    name: &str,
) -> Option<&'static TecRow> {
    let name = aliases
        .iter()
        .find(|(e, a, _)| *e == edition && *a == name)
        .map_or(name, |&(_, _, row)| row);
    rows.iter().find(|r| r.name == name)
}

/// The hex row named `name` (or one of its [`HEX_ALIASES`]) in an edition's TEC.
pub fn hex(edition: Edition, name: &str) -> Option<&'static TecRow> {
    find(hex_rows(edition), HEX_ALIASES, edition, name)
}

/// The hexside row named `name` (or one of its [`HEXSIDE_ALIASES`]) in an
/// edition's TEC.
pub fn hexside(edition: Edition, name: &str) -> Option<&'static TecRow> {
    find(hexside_rows(edition), HEXSIDE_ALIASES, edition, name)
}

/// Every name an edition's TEC hex rows answer to (rows, then aliases).
pub fn hex_names(edition: Edition) -> Vec<&'static str> {
    names(hex_rows(edition), HEX_ALIASES, edition)
}

/// Every name an edition's TEC hexside rows answer to (rows, then aliases).
pub fn hexside_names(edition: Edition) -> Vec<&'static str> {
    names(hexside_rows(edition), HEXSIDE_ALIASES, edition)
}

fn names(
    rows: &'static [TecRow],
    aliases: &[(Edition, &'static str, &str)],
    edition: Edition,
) -> Vec<&'static str> {
    rows.iter()
        .map(|r| r.name)
        .chain(
            aliases
                .iter()
                .filter(|(e, _, _)| *e == edition)
                .map(|&(_, a, _)| a),
        )
        .collect()
}

/// The TEC of an edition as charts for `pikeshot tables` (hex and hexside rows).
pub fn charts(edition: Edition) -> Vec<crate::systems::Chart> {
    let fire = |f: FireDrm| match (f.musket, f.artillery) {
        (None, _) => "NA".to_string(),
        (Some(m), Some(a)) if m != a => format!("{m:+}/{a:+} (musket/artillery)"),
        (Some(m), _) => format!("{m:+}"),
    };
    let cc = |c: Option<i8>| c.map_or("NA".to_string(), |v| format!("{v:+}"));
    let rows = |rows: &[TecRow]| {
        rows.iter()
            .map(|r| {
                vec![
                    r.name.to_string(),
                    r.label.to_string(),
                    r.mp[0].to_string(),
                    r.mp[1].to_string(),
                    r.mp[2].to_string(),
                    if r.blocks_los { "Yes" } else { "-" }.to_string(),
                    fire(r.fire),
                    cc(r.close_combat),
                ]
            })
            .collect()
    };
    let headers: Vec<String> = [
        "name",
        "Terrain",
        "HI MP",
        "Cav MP",
        "LI MP",
        "Blocks LOS",
        "Fire",
        "Close Combat",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let notes = vec![
        "* = Formation Hit; NA = not allowed; OT = other terrain in hex; # = artillery needs a road".to_string(),
        "Fire and Close Combat are DRMs for fire at, and close combat against, a unit in the hex or across the hexside".to_string(),
    ];
    vec![
        crate::systems::Chart {
            id: "tec",
            title: format!("Terrain Effects Chart, hex terrain — {}", edition.card()),
            rule: "TEC",
            headers: headers.clone(),
            rows: rows(hex_rows(edition)),
            notes: notes.clone(),
        },
        crate::systems::Chart {
            id: "tec-hexside",
            title: format!(
                "Terrain Effects Chart, hexside terrain — {}",
                edition.card()
            ),
            rule: "TEC",
            headers,
            rows: rows(hexside_rows(edition)),
            notes,
        },
    ]
}
