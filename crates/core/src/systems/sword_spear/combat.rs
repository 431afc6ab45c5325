//! The Combat Process shared by melee and shooting:
//!
//! 1. Roll combat dice.
//! 2. Place the top four dice of each side in order.
//! 3. Compare opposing dice pair by pair.
//! 4. Adjust for armour.
//! 5. Establish the outcome of each pair: a die at least double its opponent
//!    is a hit, a die that beats its opponent without doubling it gives the
//!    opponent a Discipline test, equal dice do nothing.
//! 6. Make the Discipline tests (one d6 each, passed on a roll at least the
//!    adjusted Discipline; a failure is a hit) and record hits; a unit whose
//!    hits reach its strength routs; a commander with a unit that routs or
//!    loses all its combat dice is at risk.
//!
//! A [`Clash`] holds both sides, folded from the scenario when the step is
//! built; [`Clash::roll`] rolls and compares without allocating. Exact
//! probabilities ([`Clash::exact`]) enumerate each side's pool separately
//! (as multisets, through the same [`Enumerator`]), reduce each to the
//! distribution of its top four dice, combine the pairs with the same
//! comparison code, and enumerate the Discipline tests and commander rolls
//! of each distinct result; so pools of many dice stay well inside the
//! budget.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::commanders;
use super::compare_table;
use super::named_enum;
use super::unit::Unit;
use crate::dice::{Dice, EnumerationError, Enumerator, Pool};
use crate::outcome::{Leaf, OutcomeSpace};
use crate::procedure::Procedure;

/// Dice of each side placed and compared.
pub const PLACED: usize = 4;

/// Most combat dice a side may roll.
pub const MAX_DICE: u8 = 24;

/// The top dice of a side, highest first: `dice[..n]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placed {
    /// The dice, highest first; entries past `n` are 0.
    pub dice: [u8; PLACED],
    /// How many dice are placed (at most four).
    pub n: u8,
}

impl Placed {
    /// The top four of `dice`, highest first (for tests and tools).
    pub fn of(dice: &[u8]) -> Placed {
        let mut v = dice.to_vec();
        v.sort_unstable_by(|a, b| b.cmp(a));
        let mut p = Placed::default();
        for &d in v.iter().take(PLACED) {
            p.dice[p.n as usize] = d;
            p.n += 1;
        }
        p
    }
}

/// Step 2: the top four dice of a rolled pool of d6, highest first.
///
/// Slot `i` takes the face whose run of dice (highest faces first) covers
/// position `i`; written without a data-dependent loop, so the compiler
/// keeps it in registers.
#[inline]
pub fn top_four(pool: &Pool) -> Placed {
    let mut p = Placed::default();
    let mut seen = 0usize;
    for face in (1..=6u8).rev() {
        let before = seen;
        seen += pool.count(face) as usize;
        for (i, slot) in p.dice.iter_mut().enumerate() {
            if before <= i && i < seen {
                *slot = face;
            }
        }
    }
    p.n = seen.min(PLACED) as u8;
    p
}

/// What one pair of dice does, after armour: from the side of the die that
/// wins it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PairEffect {
    /// The winner's die is at least double the loser's: a hit on the loser.
    Hit,
    /// The winner's die beats the loser's without doubling it: the loser
    /// takes a Discipline test.
    Test,
    /// Equal dice: nothing.
    Draw,
}

/// Step 5 for one pair: `winner` against `loser` when `winner >= loser`.
#[inline]
pub fn pair_effect(winner: u8, loser: u8) -> PairEffect {
    if winner == loser {
        PairEffect::Draw
    } else if winner >= 2 * loser {
        PairEffect::Hit
    } else {
        PairEffect::Test
    }
}

named_enum! {
    /// Which of the opponent's winning dice an armoured side lowers (the
    /// sheet leaves the choice to the player; docs/rules/sword-and-spear.md section 3).
    ArmourChoice {
        /// Hits before tests: a hit turned into a draw, else a hit into a
        /// test, else a test into a draw (default).
        HitsFirst = "hits-first",
        /// The order docs/rules/sword-and-spear.md section 3 quotes, to the letter: hit→test, then hit→draw,
        /// then test→draw.
        Literal = "literal",
    }
}

named_enum! {
    /// What becomes of dice with no opposing die (a side placing more dice).
    Unpaired {
        /// Ignored (default, docs/rules/sword-and-spear.md section 3).
        Ignored = "ignored",
        /// Each is a hit on the opponent.
        Hits = "hits",
    }
}

named_enum! {
    /// When a commander with a unit is at risk.
    CommanderRisk {
        /// When the unit routs or loses all its combat dice: every die it
        /// placed is beaten and it placed no more dice than its opponent
        /// (default).
        RoutOrAllDiceLost = "rout-or-all-dice-lost",
        /// Only when the unit routs.
        RoutOnly = "rout-only",
    }
}

named_enum! {
    /// How many dice a unit's strength gives once it has hits.
    DiceFrom {
        /// Strength less hits (default, docs/rules/sword-and-spear.md section 3).
        StrengthLessHits = "strength-less-hits",
        /// Full strength whatever its hits.
        FullStrength = "full-strength",
    }
}

impl DiceFrom {
    /// Dice from strength for a unit of `strength` with `hits`.
    pub fn dice(self, strength: u8, hits: u8) -> u8 {
        match self {
            DiceFrom::StrengthLessHits => strength.saturating_sub(hits),
            DiceFrom::FullStrength => strength,
        }
    }
}

/// The switches of the combat mechanism.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClashRules {
    /// Dice with no opposing die.
    pub unpaired: Unpaired,
    /// How armour picks the die it lowers.
    pub armour_choice: ArmourChoice,
    /// When commanders are at risk.
    pub commander_risk: CommanderRisk,
}

impl Default for ClashRules {
    fn default() -> ClashRules {
        ClashRules {
            unpaired: Unpaired::Ignored,
            armour_choice: ArmourChoice::HitsFirst,
            commander_risk: CommanderRisk::RoutOrAllDiceLost,
        }
    }
}

/// One side of a clash, folded from its unit and situation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClashSide {
    /// Combat dice rolled.
    pub dice: u8,
    /// How far its armour lowers one of the opponent's winning dice (0–2).
    pub reduce: u8,
    /// It raises one of its own winning or drawing dice by 1 (the opponent
    /// lacks protection).
    pub raise: bool,
    /// The opponent's winning dice hurt it (false for a shooter).
    pub vulnerable: bool,
    /// Adjusted Discipline for its tests.
    pub discipline: i32,
    /// Strength: it routs when its hits reach it.
    pub strength: u8,
    /// Hits before this clash.
    pub hits: u8,
    /// A commander is with it.
    pub commander: bool,
    /// If it routs, mounted troops pursue it (the commander dies on 5+).
    pub pursued_by_mounted: bool,
}

impl ClashSide {
    /// `unit` rolling `dice`, testing at `discipline`: its strength, hits
    /// and commander from the unit; no armour effect either way, hurt by
    /// the opponent's winning dice, not pursued by mounted troops. Melee
    /// and shooting change what their situation changes.
    pub fn of(unit: &Unit, dice: u8, discipline: i32) -> ClashSide {
        ClashSide {
            dice,
            reduce: 0,
            raise: false,
            vulnerable: true,
            discipline,
            strength: unit.strength,
            hits: unit.hits,
            commander: unit.commander.is_some(),
            pursued_by_mounted: false,
        }
    }
}

/// Steps 3–5: the hits and tests each side suffers from the placed dice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DiceOutcome {
    /// Hits side `s` suffers from the dice.
    pub hits: [u8; 2],
    /// Discipline tests side `s` must take.
    pub tests: [u8; 2],
    /// Side `s` lost all its combat dice.
    pub all_lost: [bool; 2],
}

/// The whole of a clash for each side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ClashResult {
    /// New hits of side `s`: from the dice and from failed tests.
    pub hits: [u8; 2],
    /// Discipline tests side `s` took.
    pub tests: [u8; 2],
    /// Side `s` routs (its hits reach its strength).
    pub routed: [bool; 2],
    /// Side `s`'s commander is killed.
    pub killed: [bool; 2],
    /// Side `s` lost all its combat dice.
    pub all_lost: [bool; 2],
}

/// Two sides ready to roll against each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clash {
    /// The two sides.
    pub sides: [ClashSide; 2],
    /// The switches.
    pub rules: ClashRules,
    fail: [u8; 2],
}

/// Conversions an armour reduction can make, scored per [`ArmourChoice`].
fn reduction_score(choice: ArmourChoice, before: PairEffect, after: PairEffect) -> u8 {
    use PairEffect::*;
    match (choice, before, after) {
        (ArmourChoice::HitsFirst, Hit, Draw) => 3,
        (ArmourChoice::HitsFirst, Hit, Test) => 2,
        (ArmourChoice::Literal, Hit, Test) => 3,
        (ArmourChoice::Literal, Hit, Draw) => 2,
        (_, Test, Draw) => 1,
        _ => 0,
    }
}

/// Conversions a raise against an opponent lacking protection can make:
/// a draw into a hit, else a test into a hit, else a draw into a test.
fn raise_score(before: PairEffect, after: PairEffect) -> u8 {
    use PairEffect::*;
    match (before, after) {
        (Draw, Hit) => 3,
        (Test, Hit) => 2,
        (Draw, Test) => 1,
        _ => 0,
    }
}

/// Number of multisets of `n` d6 (the paths of one pool).
pub fn multisets(n: u8) -> u64 {
    // C(n + 5, 5)
    let n = n as u64;
    (1..=5).fold(1u64, |acc, k| acc * (n + k) / k)
}

static TOP_FOUR: [OnceLock<Vec<(Placed, f64)>>; MAX_DICE as usize + 1] =
    [const { OnceLock::new() }; MAX_DICE as usize + 1];

/// The exact distribution of the top four of `n` d6, enumerated once (as
/// multisets, by the [`Enumerator`]) and kept.
pub fn top_four_distribution(n: u8) -> &'static [(Placed, f64)] {
    assert!(n <= MAX_DICE);
    TOP_FOUR[n as usize].get_or_init(|| {
        if n == 0 {
            return vec![(Placed::default(), 1.0)];
        }
        let mut m: BTreeMap<Placed, f64> = BTreeMap::new();
        Enumerator::new()
            .for_each(
                u64::MAX,
                |d| top_four(&d.pool(n, 6)),
                |_, p, w| *m.entry(p).or_default() += w,
            )
            .expect("no budget for the cached pools");
        m.into_iter().collect()
    })
}

impl Clash {
    /// Two sides and the switches.
    pub fn new(sides: [ClashSide; 2], rules: ClashRules) -> Clash {
        let fail = [
            super::discipline::fail_faces(sides[0].discipline),
            super::discipline::fail_faces(sides[1].discipline),
        ];
        Clash { sides, rules, fail }
    }

    /// Steps 3–5 on placed dice: compare, adjust for armour, judge each pair.
    // Pairs are positions in two parallel arrays; indexing reads plainest.
    #[allow(clippy::needless_range_loop)]
    #[inline]
    pub fn compare(&self, a: &Placed, b: &Placed) -> DiceOutcome {
        let mut d = [a.dice, b.dice];
        let n = [a.n as usize, b.n as usize];
        let pairs = n[0].min(n[1]);
        // Step 4a: armour lowers one of the opponent's winning dice, never
        // below the armoured side's own die.
        for s in 0..2 {
            let r = self.sides[s].reduce;
            if r == 0 {
                continue;
            }
            let o = 1 - s;
            let mut best = (0u8, 0usize, 0u8);
            for i in 0..pairs {
                let (mine, theirs) = (d[s][i], d[o][i]);
                if theirs <= mine {
                    continue;
                }
                let lowered = theirs - r.min(theirs - mine);
                let score = reduction_score(
                    self.rules.armour_choice,
                    pair_effect(theirs, mine),
                    pair_effect(lowered, mine),
                );
                if score > best.0 {
                    best = (score, i, lowered);
                }
            }
            if best.0 > 0 {
                d[o][best.1] = best.2;
            }
        }
        // Step 4b: against an opponent lacking protection, raise one of
        // one's own winning or drawing dice by 1 (both sides choose on the
        // dice as armour left them).
        let mut raised = [None; 2];
        for (s, slot) in raised.iter_mut().enumerate() {
            if !self.sides[s].raise {
                continue;
            }
            let o = 1 - s;
            let mut best = (0u8, 0usize);
            for i in 0..pairs {
                let (mine, theirs) = (d[s][i], d[o][i]);
                if mine < theirs {
                    continue;
                }
                let score = raise_score(pair_effect(mine, theirs), pair_effect(mine + 1, theirs));
                if score > best.0 {
                    best = (score, i);
                }
            }
            if best.0 > 0 {
                *slot = Some(best.1);
            }
        }
        for (s, r) in raised.iter().enumerate() {
            if let Some(i) = r {
                d[s][*i] += 1;
            }
        }
        // Step 5.
        let mut out = DiceOutcome::default();
        let mut won_or_drew = [false; 2];
        for i in 0..pairs {
            let (x, y) = (d[0][i], d[1][i]);
            let (loser, v) = if x >= y {
                (1, pair_effect(x, y))
            } else {
                (0, pair_effect(y, x))
            };
            if x >= y {
                won_or_drew[0] = true;
            }
            if y >= x {
                won_or_drew[1] = true;
            }
            match v {
                PairEffect::Hit => out.hits[loser] += 1,
                PairEffect::Test => out.tests[loser] += 1,
                PairEffect::Draw => {}
            }
        }
        for s in 0..2 {
            let o = 1 - s;
            let unpaired = (n[s] - pairs) as u8;
            if self.rules.unpaired == Unpaired::Hits {
                out.hits[o] += unpaired;
            }
            out.all_lost[s] = n[s] <= n[o] && !won_or_drew[s];
        }
        for s in 0..2 {
            if !self.sides[s].vulnerable {
                out.hits[s] = 0;
                out.tests[s] = 0;
                out.all_lost[s] = false;
            }
        }
        out
    }

    /// Step 6 once the tests are rolled: `failures` of each side's tests
    /// become hits, a side whose hits reach its strength routs, and a side
    /// whose commander is at risk has the roll that kills it (d6 at least).
    // Sides are positions in parallel arrays; indexing reads plainest.
    #[allow(clippy::needless_range_loop)]
    #[inline]
    pub fn settle(&self, o: &DiceOutcome, failures: [u8; 2]) -> (ClashResult, [Option<u8>; 2]) {
        let mut r = ClashResult {
            tests: o.tests,
            all_lost: o.all_lost,
            ..ClashResult::default()
        };
        for s in 0..2 {
            r.hits[s] = o.hits[s] + failures[s];
            let side = &self.sides[s];
            r.routed[s] =
                side.vulnerable && side.hits as u32 + r.hits[s] as u32 >= side.strength as u32;
        }
        let mut risk = [None; 2];
        for (s, slot) in risk.iter_mut().enumerate() {
            let side = &self.sides[s];
            let at_risk = side.commander
                && side.vulnerable
                && (r.routed[s]
                    || (self.rules.commander_risk == CommanderRisk::RoutOrAllDiceLost
                        && r.all_lost[s]));
            if at_risk {
                let pursued = r.routed[s] && side.pursued_by_mounted && !r.routed[1 - s];
                *slot = Some(commanders::kill_on(pursued));
            }
        }
        (r, risk)
    }

    /// Step 6: Discipline tests, rout, and risk to commanders.
    #[inline]
    pub fn finish<D: Dice>(&self, o: &DiceOutcome, dice: &mut D) -> ClashResult {
        let mut failures = [0u8; 2];
        for (s, f) in failures.iter_mut().enumerate() {
            if o.tests[s] > 0 {
                let pool = dice.pool(o.tests[s], 6);
                for face in 1..=self.fail[s] {
                    *f += pool.count(face);
                }
            }
        }
        let (mut r, risk) = self.settle(o, failures);
        for (s, k) in risk.iter().enumerate() {
            if let Some(k) = k {
                r.killed[s] = dice.d6() >= *k;
            }
        }
        r
    }

    /// One clash: roll both pools, place, compare, test.
    #[inline]
    pub fn roll<D: Dice>(&self, dice: &mut D) -> ClashResult {
        let a = if self.sides[0].dice > 0 {
            top_four(&dice.pool(self.sides[0].dice, 6))
        } else {
            Placed::default()
        };
        let b = if self.sides[1].dice > 0 {
            top_four(&dice.pool(self.sides[1].dice, 6))
        } else {
            Placed::default()
        };
        let o = self.compare(&a, &b);
        self.finish(&o, dice)
    }

    /// Steps 3–5 over every pair of top fours of the two pools: the
    /// probability of each dice outcome, in a table of [`OUTCOME_CELLS`].
    /// Each pair's cell comes from the comparison's table (kept between
    /// clashes), worked out by [`Clash::compare`] when first read.
    fn outcome_cells(&self, ta: &[(Placed, f64)], tb: &[(Placed, f64)]) -> Vec<f64> {
        let table = compare_table::table(self);
        let mut ib = [0u16; compare_table::PLACINGS];
        for ((pb, _), i) in tb.iter().zip(ib.iter_mut()) {
            *i = compare_table::index(pb) as u16;
        }
        let mut outcomes = vec![0.0f64; OUTCOME_CELLS];
        for (pa, wa) in ta {
            let ia = compare_table::index(pa);
            for ((pb, wb), &jb) in tb.iter().zip(&ib) {
                let c = table.cell(ia, jb as usize, || cell(&self.compare(pa, pb)));
                outcomes[c] += wa * wb;
            }
        }
        outcomes
    }

    /// The exact distribution of the dice outcomes (steps 3–5: hits and
    /// Discipline tests from the dice, lost dice), before any test is
    /// rolled: what `pikeshot explain` says a round triggers.
    pub fn dice_outcomes(&self) -> Vec<(DiceOutcome, f64)> {
        let ta = top_four_distribution(self.sides[0].dice);
        let tb = top_four_distribution(self.sides[1].dice);
        self.outcome_cells(ta, tb)
            .into_iter()
            .enumerate()
            .filter(|&(_, w)| w > 0.0)
            .map(|(i, w)| (uncell(i), w))
            .collect()
    }

    /// Exact probabilities of a space of `len` leaves, `leaf` mapping each
    /// result to its leaf. Each side's pool is tabulated alone, as
    /// multisets, and reduced to the distribution of its top four
    /// ([`top_four_distribution`]); every pair of top fours is compared
    /// (steps 3–5) into a table of dice outcomes; each outcome is then
    /// settled (step 6) for every number of failed tests (binomial in the
    /// tests taken) and every commander roll. Fails when more than `budget`
    /// paths (multisets, pairs and settled results) would be visited.
    pub fn exact(
        &self,
        budget: u64,
        len: usize,
        leaf: impl Fn(&ClashResult) -> Leaf,
    ) -> Result<Vec<f64>, EnumerationError> {
        let over = EnumerationError::Budget { budget };
        let (na, nb) = (self.sides[0].dice, self.sides[1].dice);
        let ta = top_four_distribution(na);
        let tb = top_four_distribution(nb);
        let mut used = multisets(na)
            .saturating_add(multisets(nb))
            .saturating_add(ta.len() as u64 * tb.len() as u64);
        if used > budget {
            return Err(over);
        }
        let outcomes = self.outcome_cells(ta, tb);
        let mut probs = vec![0.0f64; len];
        for (i, &w) in outcomes.iter().enumerate() {
            if w == 0.0 {
                continue;
            }
            let o = uncell(i);
            let fails = [0, 1].map(|s| failures(o.tests[s], self.fail[s]));
            for (f0, p0) in fails[0].iter().enumerate() {
                for (f1, p1) in fails[1].iter().enumerate() {
                    let (r, risk) = self.settle(&o, [f0 as u8, f1 as u8]);
                    // Each side at risk: its commander killed or not.
                    let rolls = risk.map(|k| match k {
                        None => vec![(false, 1.0)],
                        Some(k) => {
                            let p = f64::from(7 - k.min(7)) / 6.0;
                            vec![(false, 1.0 - p), (true, p)]
                        }
                    });
                    for &(k0, q0) in &rolls[0] {
                        for &(k1, q1) in &rolls[1] {
                            used += 1;
                            if used > budget {
                                return Err(over);
                            }
                            let mut r = r;
                            r.killed = [k0, k1];
                            probs[leaf(&r) as usize] += w * p0 * p1 * q0 * q1;
                        }
                    }
                }
            }
        }
        Ok(probs)
    }
}

/// Dice outcomes a pair of top fours can give: hits and tests 0..=4 a
/// side, and whether each side lost all its dice.
const OUTCOME_CELLS: usize = 5 * 5 * 5 * 5 * 2 * 2;

/// The cell of a dice outcome in a table of [`OUTCOME_CELLS`].
#[inline]
fn cell(o: &DiceOutcome) -> usize {
    let h = |v: u8| (v as usize).min(4);
    ((((h(o.hits[0]) * 5 + h(o.hits[1])) * 5 + h(o.tests[0])) * 5 + h(o.tests[1])) * 2
        + o.all_lost[0] as usize)
        * 2
        + o.all_lost[1] as usize
}

/// The dice outcome of a cell (inverse of [`cell`]).
fn uncell(mut i: usize) -> DiceOutcome {
    let mut take = |n: usize| {
        let v = i % n;
        i /= n;
        v
    };
    let lost1 = take(2) == 1;
    let lost0 = take(2) == 1;
    let t1 = take(5) as u8;
    let t0 = take(5) as u8;
    let h1 = take(5) as u8;
    let h0 = take(5) as u8;
    DiceOutcome {
        hits: [h0, h1],
        tests: [t0, t1],
        all_lost: [lost0, lost1],
    }
}

/// The distribution of failures among `tests` Discipline tests, each a d6
/// failed on a face up to `fail` (binomial, index = failures).
fn failures(tests: u8, fail: u8) -> Vec<f64> {
    let p = f64::from(fail.min(6)) / 6.0;
    let q = 1.0 - p;
    let n = tests as i32;
    let mut choose = 1.0f64;
    (0..=n)
        .map(|k| {
            let v = choose * p.powi(k) * q.powi(n - k);
            choose = choose * f64::from(n - k) / f64::from(k + 1);
            v
        })
        .collect()
}

/// A procedure that is one [`Clash`] read into leaves (a melee round, a
/// volley of shooting). Its [`Procedure`] comes from the clash: a trial is
/// [`Clash::roll`] read by `leaf_of`, the exact distribution
/// [`Clash::exact`] read the same way, taken from and kept in the
/// procedure's `shared` cell when it has one.
pub trait ClashProcedure: Sync + Send {
    /// The clash as built.
    fn clash(&self) -> &Clash;
    /// The procedure's outcome space.
    fn outcomes(&self) -> &OutcomeSpace;
    /// The leaf of a result.
    fn leaf_of(&self, r: &ClashResult) -> Leaf;
    /// The exact result shared with every procedure built with the same
    /// cell (rounds that are the same procedure); `None`, not shared.
    fn shared(&self) -> Option<&OnceLock<Vec<f64>>> {
        None
    }
}

impl<T: ClashProcedure> Procedure for T {
    fn space(&self) -> &OutcomeSpace {
        self.outcomes()
    }
    #[inline]
    fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
        let r = self.clash().roll(dice);
        self.leaf_of(&r)
    }
    fn exact(&self, budget: u64) -> Option<Result<Vec<f64>, EnumerationError>> {
        if let Some(v) = self.shared().and_then(OnceLock::get) {
            return Some(Ok(v.clone()));
        }
        let r = self
            .clash()
            .exact(budget, self.outcomes().len(), |r| self.leaf_of(r));
        if let (Ok(v), Some(c)) = (&r, self.shared()) {
            let _ = c.set(v.clone());
        }
        Some(r)
    }
}
