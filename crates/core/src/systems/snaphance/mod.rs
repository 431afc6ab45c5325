//! Snaphance (summary sheets): pike-and-shot stands rolling pools of d6.
//!
//! Firing and melee throw one d6 per remaining strength point (SP), with
//! whole dice added or taken away by the chart's modifiers; each 6 hits, and
//! so does a double 5. A stand that is hit takes a morale test on one d6
//! against its adjusted morale and loses SP when it fails, within the
//! sheet's loss caps. Order tests and pursuit are single d6 rolls.
//!
//! Every table and modifier is data headed by its sheet section; readings of
//! what the sheets leave open are in `docs/rules/snaphance.md`, each with the
//! scenario key that overrides it. Pools are exact one face at a time
//! ([`crate::engine::pools`]) and sampled through an alias table
//! ([`crate::engine::alias`]) or die by die.

pub mod course;
pub mod decision;
pub mod explain;
pub mod fire;
pub mod hits;
pub mod melee;
pub mod melee_dice;
pub mod morale;
pub mod one_die;
pub mod orders;
pub mod pursuit;
pub mod readings;
pub mod repeat;
pub mod scenario;
pub mod step;
pub mod terrain;
pub mod unit;

pub use readings::Readings;
pub use unit::Stand;

use crate::engine::KernelMode;
use crate::error::InputError;
use crate::scenario::Fields;
use crate::systems::BuiltCourses;
use crate::systems::Chart;
use crate::systems::chart::headers;
use crate::systems::named::named_enum;

named_enum! {
    /// Troop types as the summary sheets name them.
    Kind {
        /// A pike block (Pike).
        Pike = "pike",
        /// Pike and shot (P&S).
        PikeAndShot = "pike-and-shot",
        /// A tercio.
        Tercio = "tercio",
        /// Shot.
        Shot = "shot",
        /// Horse.
        Horse = "horse",
        /// Pistols (pistol-armed horse).
        Pistols = "pistols",
        /// Lancers.
        Lancers = "lancers",
        /// Gendarmes (lance-armed heavy horse).
        Gendarmes = "gendarmes",
        /// Light cavalry (LC).
        LightCavalry = "light-cavalry",
        /// Dragoons (Dr).
        Dragoons = "dragoons",
        /// Skirmishers (Sk).
        Skirmishers = "skirmishers",
        /// Artillery (Art).
        Artillery = "artillery",
    }
}

/// How a troop type moves and fires (Move and Fire [7.2]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveFire {
    /// Dragoons: −1D6 after moving 1 or 2 hexes; no fire after moving 3.
    Dragoons,
    /// Light cavalry: −1D6 after moving 3 hexes, −2D6 after 4.
    LightCavalry,
    /// Skirmishers: move once and fire normally (−1D6 per further bound).
    Skirmishers,
    /// Other stands: −1D6 for each time moved.
    Other,
    /// Artillery cannot move and fire.
    Artillery,
    /// The stand has no fire.
    NoFire,
}

/// Which woods line of the terrain sheet a troop type reads (docs/rules/snaphance.md
/// section 1 reads the interleaved sheet).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WoodsGroup {
    /// Lancers (and gendarmes, lance-armed).
    Lancers,
    /// Pike and Shot, Pike (and tercios).
    PikeAndShot,
    /// Shot, Dragoons.
    ShotDragoons,
    /// Horse, Pistols.
    HorsePistols,
    /// LC.
    LightCavalry,
    /// Sk.
    Skirmishers,
    /// Artillery (turns and moves freely).
    Artillery,
}

/// What the rules ask of a troop type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindRow {
    /// The troop type.
    pub kind: Kind,
    /// Mounted ("horse" on the sheets; cavalry for the loss caps).
    pub mounted: bool,
    /// A combat stand (CS); the others are support stands (SS).
    pub combat_stand: bool,
    /// A mounted combat stand (MCS).
    pub mcs: bool,
    /// Infantry ("inf" on the sheets: foot other than artillery).
    pub infantry: bool,
    /// How it moves and fires.
    pub move_fire: MoveFire,
    /// May evade fire ("target evading [LC, Dr, Sk]").
    pub evades: bool,
    /// Charge Bonus in dice when no army list says (docs/rules/snaphance.md section 1).
    pub charge_bonus: u8,
    /// Its woods line.
    pub woods: WoodsGroup,
}

/// A troop type's row; MCS is what the name says, a mounted combat stand
/// (4(d)), and infantry is foot other than artillery.
const fn row(
    kind: Kind,
    mounted: bool,
    combat_stand: bool,
    move_fire: MoveFire,
    charge_bonus: u8,
    woods: WoodsGroup,
) -> KindRow {
    KindRow {
        kind,
        mounted,
        combat_stand,
        mcs: mounted && combat_stand,
        infantry: !mounted && !matches!(kind, Kind::Artillery),
        move_fire,
        evades: matches!(
            kind,
            Kind::LightCavalry | Kind::Dragoons | Kind::Skirmishers
        ),
        charge_bonus,
        woods,
    }
}

/// Troop types: mounted, combat stand, move and fire, default Charge
/// Bonus (an army-list value; ASSUMPTION, docs/rules/snaphance.md section 1: gendarmes +2D6,
/// other lance and sword horse and LC +1D6, the rest none; Swiss pike +1D6
/// through [`Stand::charge_bonus`]) and woods line. Dragoons fight on foot.
pub const KINDS: [KindRow; 12] = [
    row(
        Kind::Pike,
        false,
        true,
        MoveFire::NoFire,
        0,
        WoodsGroup::PikeAndShot,
    ),
    row(
        Kind::PikeAndShot,
        false,
        true,
        MoveFire::Other,
        0,
        WoodsGroup::PikeAndShot,
    ),
    row(
        Kind::Tercio,
        false,
        true,
        MoveFire::Other,
        0,
        WoodsGroup::PikeAndShot,
    ),
    row(
        Kind::Shot,
        false,
        true,
        MoveFire::Other,
        0,
        WoodsGroup::ShotDragoons,
    ),
    row(
        Kind::Horse,
        true,
        true,
        MoveFire::Other,
        1,
        WoodsGroup::HorsePistols,
    ),
    row(
        Kind::Pistols,
        true,
        true,
        MoveFire::Other,
        0,
        WoodsGroup::HorsePistols,
    ),
    row(
        Kind::Lancers,
        true,
        true,
        MoveFire::NoFire,
        1,
        WoodsGroup::Lancers,
    ),
    row(
        Kind::Gendarmes,
        true,
        true,
        MoveFire::NoFire,
        2,
        WoodsGroup::Lancers,
    ),
    row(
        Kind::LightCavalry,
        true,
        false,
        MoveFire::LightCavalry,
        1,
        WoodsGroup::LightCavalry,
    ),
    row(
        Kind::Dragoons,
        false,
        false,
        MoveFire::Dragoons,
        0,
        WoodsGroup::ShotDragoons,
    ),
    row(
        Kind::Skirmishers,
        false,
        false,
        MoveFire::Skirmishers,
        0,
        WoodsGroup::Skirmishers,
    ),
    row(
        Kind::Artillery,
        false,
        false,
        MoveFire::Artillery,
        0,
        WoodsGroup::Artillery,
    ),
];

impl Kind {
    /// The troop type's row of [`KINDS`].
    pub fn row(self) -> &'static KindRow {
        &KINDS[self as usize]
    }
    /// Mounted.
    pub fn mounted(self) -> bool {
        self.row().mounted
    }
    /// A mounted combat stand.
    pub fn mcs(self) -> bool {
        self.row().mcs
    }
    /// A combat stand.
    pub fn combat_stand(self) -> bool {
        self.row().combat_stand
    }
    /// Infantry.
    pub fn infantry(self) -> bool {
        self.row().infantry
    }
    /// Pike, pike and shot, or tercio: the stands with pikes.
    pub fn has_pikes(self) -> bool {
        matches!(self, Kind::Pike | Kind::PikeAndShot | Kind::Tercio)
    }
    /// Pike blocks and tercios: the stands with ranks (depth).
    pub fn has_depth(self) -> bool {
        matches!(self, Kind::Pike | Kind::Tercio)
    }
    /// Sheet abbreviation.
    pub fn short(self) -> &'static str {
        match self {
            Kind::Pike => "Pike",
            Kind::PikeAndShot => "P&S",
            Kind::Tercio => "Tercio",
            Kind::Shot => "Shot",
            Kind::Horse => "Horse",
            Kind::Pistols => "Pistols",
            Kind::Lancers => "Lancers",
            Kind::Gendarmes => "Gendarmes",
            Kind::LightCavalry => "LC",
            Kind::Dragoons => "Dr",
            Kind::Skirmishers => "Sk",
            Kind::Artillery => "Art",
        }
    }
}

named_enum! {
    /// Order class (Order Test [4.5]).
    Class {
        /// A class: passes on 3+.
        A = "A",
        /// B class: passes on 4+.
        B = "B",
        /// C class: passes on 5+.
        C = "C",
    }
}

named_enum! {
    /// The era of a pike-and-shot stand (towns 1.0, 2.0; woods).
    Era {
        /// 16th century P&S: −2D6 firing out of towns, cannot recover in towns.
        Sixteenth = "16th",
        /// 17th century P&S: fires normally from towns and recovers there.
        Seventeenth = "17th",
        /// Late era (1660+) P&S: as 17th century, and recovers in woods.
        Late = "late",
    }
}

named_enum! {
    /// Where an attack or a shot arrives on the stand it is aimed at.
    Aspect {
        /// Its front.
        Front = "front",
        /// Its flank.
        Flank = "flank",
        /// Its rear.
        Rear = "rear",
    }
}

/// Every chart of the summary sheets, in sheet order, for `pikeshot tables`.
pub fn charts() -> Vec<Chart> {
    let mut c = Vec::new();
    c.extend(fire::charts());
    c.extend(melee::charts());
    c.extend(morale::charts());
    c.extend(orders::charts());
    c.extend(pursuit::charts());
    c.extend(terrain::charts());
    c.push(kinds_chart());
    c
}

/// A modifier in D6 as the charts write it: `+1D6`, `-2D6`.
fn d6(n: i8) -> String {
    format!("{n:+}D6")
}

/// The Dice cell of a (Dice, Modifier) chart line: a modifier in D6, or the
/// card's words where the line has no number.
#[derive(Clone, Copy, Debug)]
enum DiceCell {
    /// A modifier in D6.
    D6(i8),
    /// The card's words.
    Words(&'static str),
}

/// A (Dice, Modifier) chart: one row a line of the card, the Dice cell in
/// D6 or the card's words.
fn dice_chart(
    id: &'static str,
    title: &str,
    rule: &'static str,
    lines: &[(DiceCell, &str)],
    notes: &[&str],
) -> Chart {
    Chart {
        id,
        title: title.into(),
        rule,
        headers: headers(&["Dice", "Modifier"]),
        rows: lines
            .iter()
            .map(|&(dice, modifier)| {
                let dice = match dice {
                    DiceCell::D6(n) => d6(n),
                    DiceCell::Words(w) => w.to_string(),
                };
                vec![dice, modifier.to_string()]
            })
            .collect(),
        notes: notes.iter().map(|&n| n.to_string()).collect(),
    }
}

/// Troop types and what the rules ask of each.
fn kinds_chart() -> Chart {
    let yes = |b: bool| if b { "yes" } else { "" }.to_string();
    Chart {
        id: "troop-types",
        title: "Troop types".into(),
        rule: "Summary sheets",
        headers: headers(&[
            "Kind",
            "Sheet",
            "Mounted",
            "CS",
            "MCS",
            "Inf",
            "Move and fire",
            "Evades",
            "Charge Bonus",
        ]),
        rows: KINDS
            .iter()
            .map(|r| {
                vec![
                    r.kind.name().to_string(),
                    r.kind.short().to_string(),
                    yes(r.mounted),
                    yes(r.combat_stand),
                    yes(r.mcs),
                    yes(r.infantry),
                    format!("{:?}", r.move_fire),
                    yes(r.evades),
                    d6(r.charge_bonus as i8),
                ]
            })
            .collect(),
        notes: vec![
            "CS = combat stand, SS = support stand, MCS = mounted combat stand (4(d))".into(),
            "Charge Bonus: army-list value, default shown (ASSUMPTION 4(b)); \
             Swiss pike +1D6; override with the unit key charge_bonus"
                .into(),
            "Dragoons fight on foot; gendarmes read the Lancers woods line".into(),
        ],
    }
}

/// Snaphance in the registry of rule systems.
pub struct Snaphance;

impl crate::systems::RuleSystem for Snaphance {
    fn id(&self) -> &'static str {
        "snaphance"
    }
    fn name(&self) -> &'static str {
        "Snaphance summary sheets"
    }
    fn procedures(&self) -> &'static [crate::systems::ProcedureInfo] {
        step::PROCEDURES
    }
    fn charts(&self, _edition: Option<&str>) -> Vec<Chart> {
        charts()
    }
    fn vocabulary(&self) -> String {
        crate::systems::registry::vocabulary(&[
            ("kinds", Kind::names()),
            ("terrain", terrain::Terrain::names()),
            ("classes", Class::names()),
            ("eras (pike-and-shot)", Era::names()),
        ])
    }
    fn unit_keys(&self) -> Vec<crate::systems::KeyDoc> {
        unit::unit_keys()
    }
    fn repeats(&self) -> &'static crate::systems::Repeats {
        &repeat::REPEATS
    }
    fn rules_keys(&self) -> Vec<crate::systems::KeyDoc> {
        use crate::systems::rules::RulesTable;
        Readings::keys()
    }
    fn explain(&self, f: &mut Fields) -> Result<crate::explain::Explained, InputError> {
        scenario::explain(f)
    }
    fn build_courses(&self, f: &mut Fields, mode: KernelMode) -> Result<BuiltCourses, InputError> {
        scenario::build(f, mode)
    }
    fn decide(
        &self,
        f: &mut Fields,
        ask: &crate::scenario::decision::DecideAsk,
    ) -> Result<Vec<crate::engine::decide::summary::Decided>, InputError> {
        decision::decide(f, ask)
    }
    fn reads_decisions(&self) -> bool {
        true
    }
}
