//! Firing (Firing and Melee Chart) with Move and Fire [7.2], procedure
//! `fire`: one d6 per remaining SP of the firer, whole dice added or taken
//! away by the chart's modifiers; each 6 hits, and so does a double 5. A
//! target with at least one hit takes its morale test (8.0) and loses at
//! most 1 SP (2 from point-blank artillery).

use super::DiceCell::{D6, Words};
use super::hits::{self, roll_hits};
use super::morale::{self, After, MoraleCheck, MoraleWhy, loss_cap};
use super::readings::{Fives, Readings};
use super::terrain::{self, TOWN_FIRE_16TH_PS};
use super::unit::{Stand, find, finish, key_err, relocate};
use super::{Aspect, Era, Kind, MoveFire, d6, dice_chart};
use crate::dice::{Dice, EnumerationError};
use crate::error::InputError;
use crate::explain::{PoolLine, Source, pool_sum};
use crate::outcome::{Leaf, Measure, OutcomeSpace};
use crate::procedure::Procedure;
use crate::scenario::Fields;
use crate::systems::Key;
use crate::systems::chart::headers;
use crate::systems::{Chart, KeyDoc, ProcedureInfo};

/// The ±D6 modifiers of Firing, as printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FireDice {
    /// Artillery firing frontally or directly into the rear of Pike or
    /// Tercio: each extra rank.
    pub art_per_extra_rank: i8,
    /// Each bound moved this turn (Move and Fire for the exceptions).
    pub per_bound_moved: i8,
    /// Firer disordered.
    pub firer_disordered: i8,
    /// Target evading (LC, Dr, Sk).
    pub target_evading: i8,
    /// Firing at Sk or LC in the open.
    pub sk_lc_in_open: i8,
    /// Firing on any in cover.
    pub target_in_cover: i8,
    /// Any firing at artillery in the open.
    pub art_in_open: i8,
    /// 2nd rank of Pistols firing.
    pub second_rank_pistols: i8,
    /// Any non Art/Sk/LC firing at stands in prepared defences.
    pub defences: i8,
    /// Artillery firing at prepared defences.
    pub defences_artillery: i8,
}

/// Firing: −/+ ?D6 range factors from the army list are an input
/// (`range_dice`); the rest as printed.
pub const FIRE_DICE: FireDice = FireDice {
    art_per_extra_rank: 1,
    per_bound_moved: -1,
    firer_disordered: -1,
    target_evading: -1,
    sk_lc_in_open: -1,
    target_in_cover: -1,
    art_in_open: -1,
    second_rank_pistols: -1,
    defences: -2,
    defences_artillery: -1,
};

/// Move and Fire [7.2], dragoons: dice after moving 0, 1, 2 hexes; `None`:
/// no fire (a 3-hex move).
pub const DRAGOONS_HEXES: [Option<i8>; 4] = [Some(0), Some(-1), Some(-1), None];

/// Move and Fire [7.2], light cavalry: dice after moving 0–4 hexes.
pub const LC_HEXES: [i8; 5] = [0, 0, 0, -1, -2];

/// Most hexes a stand may have moved and still fire (LC, 4H: the sheet
/// gives nothing beyond).
pub const MAX_HEXES_MOVED: u8 = LC_HEXES.len() as u8 - 1;

/// Move and Fire [7.2], skirmishers: bounds moved without penalty.
pub const SK_FREE_BOUNDS: u8 = 1;

/// What a fire step asks beyond the two stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FireInput {
    /// Range factor from the army list, in dice.
    pub range_dice: i8,
    /// Where the fire arrives on the target.
    pub aspect: Option<Aspect>,
    /// Bounds moved this turn (all but dragoons and LC).
    pub bounds_moved: u8,
    /// Hexes moved this turn (dragoons and LC).
    pub hexes_moved: u8,
    /// The target is evading (LC, Dr, Sk).
    pub target_evading: bool,
    /// A 2nd rank of pistols firing.
    pub second_rank: bool,
    /// Artillery at point blank (loss cap 2SP).
    pub point_blank: bool,
    /// Further dice.
    pub extra_dice: i8,
    /// Added to the target's adjusted morale.
    pub extra_morale: i8,
}

/// Outcome labels of a fire step.
pub const OUTCOMES: [&str; 4] = ["no hits", "morale passed", "SP lost", "destroyed"];

/// `aspect`, declared once: its doc and its reader.
pub(crate) const ASPECT: Key<Aspect> = Key::one_of(
    "aspect",
    "aspect",
    "where artillery fire arrives on pike/tercio ranks",
)
.or("front");

/// `range_dice`, declared once: its doc and its reader.
pub(crate) const RANGE_DICE: Key<i64> =
    Key::int("range_dice", -4, 4, "range factor from the army list").or("0");

/// `bounds_moved`, declared once: its doc and its reader.
pub(crate) const BOUNDS_MOVED: Key<i64> = Key::int(
    "bounds_moved",
    0,
    6,
    "bounds moved this turn (not Dr/LC; artillery cannot move and fire)",
);

/// `hexes_moved`, declared once: its doc and its reader.
pub(crate) const HEXES_MOVED: Key<i64> = Key::int(
    "hexes_moved",
    0,
    MAX_HEXES_MOVED as i64,
    "hexes moved this turn, dragoons (3H: no fire) and LC (up to 4H)",
);

/// `target_evading`, declared once: its doc and its reader.
pub(crate) const TARGET_EVADING: Key<bool> =
    Key::flag("target_evading", "true: target LC/Dr/Sk evading, -1D6");

/// `second_rank`, declared once: its doc and its reader.
pub(crate) const SECOND_RANK: Key<bool> =
    Key::flag("second_rank", "true: 2nd rank of pistols firing, -1D6");

/// `point_blank`, declared once: its doc and its reader.
pub(crate) const POINT_BLANK: Key<bool> = Key::flag(
    "point_blank",
    "true: artillery at point blank, loss cap 2SP",
);

/// `extra_dice`, declared once: its doc and its reader.
pub(crate) const EXTRA_DICE: Key<i64> = Key::int("extra_dice", -6, 6, "further dice").or("0");

/// `extra_morale`, declared once: its doc and its reader.
pub(crate) const EXTRA_MORALE: Key<i64> = Key::int(
    "extra_morale",
    -6,
    6,
    "added to the target's adjusted morale",
)
.or("0");

/// What `pikeshot list` shows of `fire`.
pub const INFO: ProcedureInfo = ProcedureInfo {
    name: "fire",
    rule: "Firing, 7.2, 8.0",
    summary: "one d6 per SP ± D6 modifiers; hit on each 6 and each double 5; morale test of the target",
    keys: &[
        KeyDoc::unit("firer", "the firing stand"),
        KeyDoc::unit(
            "target",
            "the stand fired at (terrain, defences, kind give modifiers)",
        ),
        RANGE_DICE.doc(),
        ASPECT.doc(),
        BOUNDS_MOVED.doc(),
        HEXES_MOVED.doc(),
        TARGET_EVADING.doc(),
        SECOND_RANK.doc(),
        POINT_BLANK.doc(),
        EXTRA_DICE.doc(),
        EXTRA_MORALE.doc(),
    ],
    outcomes: &OUTCOMES,
    measures: &["hits", "sp-lost"],
};

/// A fire step, built once: the pool size, the hit reading, and the leaf
/// for each number of hits and morale roll.
#[derive(Clone, Debug)]
pub struct Fire {
    dice: u8,
    fives: Fives,
    modifiers: Vec<PoolLine>,
    check: MoraleCheck,
    /// The target's morale test, for `pikeshot explain`.
    why: Box<MoraleWhy>,
    /// The firer's name.
    firer: String,
    cap: u8,
    space: OutcomeSpace,
    /// `leaves[h][roll - 1]`: the leaf for `h` hits and a morale roll.
    leaves: Vec<[Leaf; 6]>,
}

impl Fire {
    /// Builds `firer` firing at `target`. Errors carry the bare step key.
    pub fn new(
        firer: &Stand,
        target: &Stand,
        input: &FireInput,
        readings: &Readings,
    ) -> Result<Fire, InputError> {
        let d = FIRE_DICE;
        let fk = firer.kind;
        let mf = fk.row().move_fire;
        if mf == MoveFire::NoFire {
            return Err(key_err(
                "firer",
                format!(
                    "{} is {fk}: it has no fire (pike, lancers and gendarmes do not shoot)",
                    firer.name
                ),
            ));
        }
        let woods = |s: &Stand| s.terrain == terrain::Terrain::Woods;
        if !terrain::woods(fk).fire && (woods(firer) || woods(target)) {
            return Err(key_err(
                "firer",
                format!(
                    "{} is {fk}: Horse and Pistols get no fire in woods or against a stand in woods",
                    firer.name
                ),
            ));
        }
        const R: &str = "Firing";
        let fname = &firer.name;
        let tname = &target.name;
        let mut mods: Vec<PoolLine> = vec![firer.sp_line("1D6 per remaining SP", R)];
        if input.range_dice != 0 {
            mods.push(PoolLine::new(
                input.range_dice as i32,
                "range factor (army list)",
                R,
                Source::key(format!("range_dice = {}", input.range_dice)),
            ));
        }
        let aspect = input.aspect.unwrap_or(Aspect::Front);
        if fk == Kind::Artillery
            && target.kind.has_depth()
            && aspect != Aspect::Flank
            && target.ranks > 0
        {
            mods.push(PoolLine::new(
                d.art_per_extra_rank as i32 * target.ranks as i32,
                format!(
                    "art vs {} extra rank(s) of {}",
                    target.ranks,
                    target.kind.short()
                ),
                R,
                Source::unit(format!(
                    "{tname}: {} with ranks = {}, fired at {aspect}",
                    target.kind, target.ranks
                )),
            ));
        }
        // Move and Fire [7.2].
        let dragoon_or_lc = matches!(mf, MoveFire::Dragoons | MoveFire::LightCavalry);
        if dragoon_or_lc && input.bounds_moved > 0 {
            return Err(key_err(
                "bounds_moved",
                format!(
                    "{} is {fk}: its move and fire counts hexes; use `hexes_moved`",
                    firer.name
                ),
            ));
        }
        if !dragoon_or_lc && input.hexes_moved > 0 {
            return Err(key_err(
                "hexes_moved",
                format!(
                    "`hexes_moved` is for dragoons and light cavalry; {} is {fk}: use `bounds_moved`",
                    firer.name
                ),
            ));
        }
        let moved = match mf {
            MoveFire::Dragoons => DRAGOONS_HEXES
                .get(input.hexes_moved as usize)
                .copied()
                .flatten()
                .ok_or_else(|| {
                    key_err("hexes_moved", "Dragoons have no fire after a 3H move (7.2)")
                })? as i32,
            MoveFire::LightCavalry => {
                *LC_HEXES.get(input.hexes_moved as usize).ok_or_else(|| {
                    key_err(
                        "hexes_moved",
                        "the sheet gives LC fire after moves of up to 4H (7.2)",
                    )
                    .accepted("0 to 4")
                })? as i32
            }
            MoveFire::Artillery if input.bounds_moved > 0 => {
                return Err(key_err(
                    "bounds_moved",
                    "Artillery cannot move and fire (7.2)",
                ));
            }
            MoveFire::Skirmishers => {
                d.per_bound_moved as i32 * input.bounds_moved.saturating_sub(SK_FREE_BOUNDS) as i32
            }
            _ => d.per_bound_moved as i32 * input.bounds_moved as i32,
        };
        if moved != 0 {
            let key = if dragoon_or_lc {
                format!("hexes_moved = {}", input.hexes_moved)
            } else {
                format!("bounds_moved = {}", input.bounds_moved)
            };
            mods.push(PoolLine::new(
                moved,
                format!("moved this turn ({fk})"),
                "7.2",
                Source::key(key),
            ));
        } else if mf == MoveFire::Skirmishers && input.bounds_moved > 0 {
            mods.push(
                PoolLine::new(
                    d.per_bound_moved as i32 * input.bounds_moved as i32,
                    "moved this turn",
                    "7.2",
                    Source::key(format!("bounds_moved = {}", input.bounds_moved)),
                )
                .not_applied("skirmishers move once and fire normally"),
            );
        }
        if firer.is_disordered() {
            mods.push(PoolLine::new(
                d.firer_disordered as i32,
                "firer disordered",
                R,
                Source::unit(morale::disorder_why(firer)),
            ));
        }
        if input.target_evading {
            if !target.kind.row().evades {
                return Err(key_err(
                    "target_evading",
                    format!(
                        "only LC, Dr and Sk evade; {} is {}",
                        target.name, target.kind
                    ),
                ));
            }
            mods.push(PoolLine::new(
                d.target_evading as i32,
                format!("target evading ({tname})"),
                R,
                Source::key("target_evading = true"),
            ));
        }
        if matches!(target.kind, Kind::Skirmishers | Kind::LightCavalry) && target.in_open() {
            mods.push(PoolLine::new(
                d.sk_lc_in_open as i32,
                "firing at Sk/LC in the open",
                R,
                Source::unit(format!("{tname}: {} in {}", target.kind, target.terrain)),
            ));
        }
        if target.terrain.cover() {
            mods.push(PoolLine::new(
                d.target_in_cover as i32,
                format!("target in cover ({})", target.terrain),
                R,
                Source::unit(format!("{tname} is in {}", target.terrain)),
            ));
        }
        if target.kind == Kind::Artillery && target.in_open() {
            mods.push(PoolLine::new(
                d.art_in_open as i32,
                "firing at art in the open",
                R,
                Source::unit(format!("{tname}: artillery in {}", target.terrain)),
            ));
        }
        if input.second_rank {
            if fk != Kind::Pistols {
                return Err(key_err(
                    "second_rank",
                    format!("the 2nd rank line is for pistols; {} is {fk}", firer.name),
                ));
            }
            mods.push(PoolLine::new(
                d.second_rank_pistols as i32,
                "2nd rank of pistols",
                R,
                Source::key("second_rank = true"),
            ));
        }
        if target.defences {
            let v = match fk {
                Kind::Artillery => d.defences_artillery,
                Kind::Skirmishers | Kind::LightCavalry => 0,
                _ => d.defences,
            };
            let line = PoolLine::new(
                v as i32,
                "target in prepared defences",
                R,
                Source::unit(format!("{tname}: defences = true; firer {fk}")),
            );
            mods.push(if v != 0 {
                line
            } else {
                line.not_applied("Sk and LC lose no dice at defences")
            });
        }
        if firer.terrain == terrain::Terrain::Town
            && (fk == Kind::Tercio || (fk == Kind::PikeAndShot && firer.era == Era::Sixteenth))
        {
            mods.push(PoolLine::new(
                TOWN_FIRE_16TH_PS as i32,
                "16th century or tercio P&S firing out of a town",
                "towns 2.0",
                Source::unit(format!("{fname}: {fk} ({}) in a town", firer.era)),
            ));
        }
        if input.point_blank && fk != Kind::Artillery {
            return Err(key_err(
                "point_blank",
                format!("point blank is for artillery; {} is {fk}", firer.name),
            ));
        }
        if input.extra_dice != 0 {
            mods.push(PoolLine::new(
                input.extra_dice as i32,
                "extra_dice",
                "",
                Source::key(format!("extra_dice = {}", input.extra_dice)),
            ));
        }
        let dice = pool_sum(&mods).clamp(0, u8::MAX as i32) as u8;
        let after = if input.point_blank {
            After::PointBlank
        } else {
            After::Fire
        };
        let (cap, caps) = loss_cap(after, target, Some(firer));
        let why = Box::new(MoraleWhy {
            name: target.name.clone(),
            terms: morale::terms(
                target,
                target.is_disordered(),
                input.extra_morale,
                "extra_morale",
            ),
            caps,
        });
        let check = MoraleCheck::new(
            target,
            target.is_disordered(),
            input.extra_morale,
            readings.sp_loss,
        );
        let space = OutcomeSpace::from_labels(
            &OUTCOMES,
            vec![
                Measure::new("hits", 0, dice as i32),
                Measure::new("sp-lost", 0, cap as i32).labelled("SP lost"),
            ],
        );
        let leaves = (0..=dice as u32)
            .map(|h| {
                let mut row = [0; 6];
                for (r, l) in row.iter_mut().enumerate() {
                    let lost = check.loss(h, r as u8 + 1, cap);
                    let o = match (h, lost) {
                        (0, _) => 0,
                        (_, 0) => 1,
                        (_, x) if x >= check.remaining => 3,
                        _ => 2,
                    };
                    *l = space.leaf(o, &[h as i32, lost as i32]);
                }
                row
            })
            .collect();
        Ok(Fire {
            why,
            firer: firer.name.clone(),
            dice,
            fives: readings.fives,
            modifiers: mods,
            check,
            cap,
            space,
            leaves,
        })
    }

    /// Reads a scenario step (see [`INFO`]).
    pub fn from_step(
        f: &mut Fields,
        units: &[Stand],
        readings: &Readings,
    ) -> Result<Fire, InputError> {
        f.has("procedure");
        let firer = find(f, "firer", units)?;
        let target = find(f, "target", units)?;
        if firer.name == target.name {
            return Err(f.err("target", "a stand cannot fire at itself"));
        }
        let input = FireInput {
            range_dice: RANGE_DICE.read(f)?.unwrap_or(0) as i8,
            aspect: ASPECT.read(f)?,
            bounds_moved: BOUNDS_MOVED.read(f)?.unwrap_or(0) as u8,
            hexes_moved: HEXES_MOVED.read(f)?.unwrap_or(0) as u8,
            target_evading: TARGET_EVADING.get(f)?,
            second_rank: SECOND_RANK.get(f)?,
            point_blank: POINT_BLANK.get(f)?,
            extra_dice: EXTRA_DICE.read(f)?.unwrap_or(0) as i8,
            extra_morale: EXTRA_MORALE.read(f)?.unwrap_or(0) as i8,
        };
        let p = Fire::new(firer, target, &input, readings).map_err(|e| relocate(f, e))?;
        finish(f)?;
        Ok(p)
    }

    /// Dice thrown.
    pub fn dice(&self) -> u8 {
        self.dice
    }
    /// The pool built line by line, each line with its rule and source.
    pub fn lines(&self) -> &[PoolLine] {
        &self.modifiers
    }
    /// The target's morale test, line by line, for `pikeshot explain`.
    pub fn morale_why(&self) -> &MoraleWhy {
        &self.why
    }
    /// The firer's name.
    pub fn firer(&self) -> &str {
        &self.firer
    }
    /// How fives score (`[rules] fives`).
    pub fn fives(&self) -> Fives {
        self.fives
    }
    /// The morale test the target takes when hit.
    pub fn check(&self) -> &MoraleCheck {
        &self.check
    }

    /// Each counted line as (label, dice), the first the firer's SP.
    pub fn modifiers(&self) -> Vec<(String, i32)> {
        self.modifiers
            .iter()
            .filter(|l| l.applied)
            .map(|l| (l.label.clone(), l.dice))
            .collect()
    }
    /// The target's adjusted morale before the hits.
    pub fn target_morale(&self) -> i32 {
        self.check.base
    }
    /// The target's loss cap.
    pub fn cap(&self) -> u8 {
        self.cap
    }
    /// True when some roll ends in `leaf`.
    pub fn reachable(&self, leaf: Leaf) -> bool {
        self.leaves.iter().flatten().any(|&l| l == leaf)
    }
}

impl Procedure for Fire {
    fn space(&self) -> &OutcomeSpace {
        &self.space
    }
    #[inline]
    fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
        let h = roll_hits(dice, self.dice, self.fives) as usize;
        if h == 0 {
            return self.leaves[0][0];
        }
        self.leaves[h][dice.d6() as usize - 1]
    }
    fn exact(&self, _budget: u64) -> Option<Result<Vec<f64>, EnumerationError>> {
        let mut out = vec![0.0; self.space.len()];
        for (h, p) in hits::distribution(self.dice, self.fives)
            .into_iter()
            .enumerate()
        {
            if h == 0 {
                out[self.leaves[0][0] as usize] += p;
            } else {
                for &l in &self.leaves[h] {
                    out[l as usize] += p / 6.0;
                }
            }
        }
        Some(Ok(out))
    }
}

/// The Firing and Move and Fire charts.
pub fn charts() -> Vec<Chart> {
    let d = FIRE_DICE;
    let lc: Vec<String> = LC_HEXES.iter().map(|&v| d6(v)).collect();
    let dr: Vec<String> = DRAGOONS_HEXES
        .iter()
        .map(|v| v.map_or("no fire".into(), d6))
        .collect();
    vec![
        dice_chart(
            "fire",
            "Firing",
            "Firing and Melee Chart",
            &[
                (Words("1D6"), "per remaining SP"),
                (
                    Words("−/+ ?D6"),
                    "range factors from army list [range_dice]",
                ),
                (
                    D6(d.art_per_extra_rank),
                    "each extra rank of Pike or Tercio for art firing frontally/directly into rear",
                ),
                (
                    D6(d.per_bound_moved),
                    "each bound moved this turn (Move and Fire)",
                ),
                (D6(d.firer_disordered), "firer disordered"),
                (D6(d.target_evading), "target evading [LC, Dr, Sk]"),
                (D6(d.sk_lc_in_open), "firing at Sk/LC in the open"),
                (D6(d.target_in_cover), "firing on any in cover"),
                (D6(d.art_in_open), "any firing at art in open"),
                (D6(d.second_rank_pistols), "2nd rank of Pistols firing"),
                (
                    D6(d.defences),
                    "any non Art/Sk/LC firing at stands in prepared defences",
                ),
                (
                    D6(d.defences_artillery),
                    "artillery firing at prepared defences",
                ),
                (
                    D6(TOWN_FIRE_16TH_PS),
                    "16th century P&S and all tercios firing out of a town (Towns 2.0)",
                ),
            ],
            &[
                "Hit on 6 or double 5: each 6 one hit, each pair of 5s one hit (ASSUMPTION 4(b); readings.fives)",
                "Any hit: target takes a morale test (8.0); max loss 1SP, PB art 2SP",
                "Cover: woods and towns; prepared defences: the unit key defences",
            ],
        ),
        Chart {
            id: "move-and-fire",
            title: "Move and Fire".into(),
            rule: "7.2",
            headers: headers(&["Stands", "Moved", "Dice"]),
            rows: vec![
                vec!["Dragoons".into(), "1 or 2H".into(), dr[1].clone()],
                vec!["Dragoons".into(), "3H".into(), dr[3].clone()],
                vec!["LC".into(), "3H".into(), lc[3].clone()],
                vec!["LC".into(), "4H".into(), lc[4].clone()],
                vec![
                    "Sk".into(),
                    "once".into(),
                    format!("fire normally ({SK_FREE_BOUNDS} free bound)"),
                ],
                vec![
                    "Other stands".into(),
                    "each time moved".into(),
                    d6(d.per_bound_moved),
                ],
                vec![
                    "Artillery".into(),
                    "any".into(),
                    "cannot move and fire".into(),
                ],
            ],
            notes: vec![
                "Dragoons and LC count hexes (hexes_moved); the others bounds (bounds_moved)"
                    .into(),
            ],
        },
    ]
}
