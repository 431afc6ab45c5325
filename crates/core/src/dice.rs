//! Where the dice come from.
//!
//! Every procedure is written once, generic over [`Dice`], and rolled two ways:
//! by the [`Sampler`] (Monte Carlo, xoshiro256++) and by the [`Enumerator`]
//! (every path of die results, each weighted exactly). So the two modes cannot
//! disagree about the rules; tests that compare them check the sampler, the
//! seeding and the runner.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The largest die this crate rolls (a d20).
pub const MAX_SIDES: u8 = 20;

/// The result of rolling a pool of identical dice: how many dice show each face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pool {
    counts: [u8; MAX_SIDES as usize + 1],
    n: u8,
    sides: u8,
}

impl Pool {
    /// A pool from per-face counts: `counts[f - 1]` dice show face `f`.
    pub fn from_counts(sides: u8, counts: &[u8]) -> Pool {
        assert!((1..=MAX_SIDES).contains(&sides) && counts.len() == sides as usize);
        let mut c = [0u8; MAX_SIDES as usize + 1];
        c[1..=sides as usize].copy_from_slice(counts);
        Pool {
            counts: c,
            n: counts.iter().sum(),
            sides,
        }
    }
    /// How many dice show `face` (1..=sides).
    #[inline]
    pub fn count(&self, face: u8) -> u8 {
        self.counts[face as usize]
    }
    /// Number of dice in the pool.
    pub fn len(&self) -> u8 {
        self.n
    }
    /// True when the pool has no dice.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    /// Number of sides of each die.
    pub fn sides(&self) -> u8 {
        self.sides
    }
    /// Sum of all faces.
    pub fn sum(&self) -> u32 {
        (1..=self.sides)
            .map(|f| f as u32 * self.counts[f as usize] as u32)
            .sum()
    }
    /// The faces, highest first (one entry per die).
    pub fn descending(&self) -> impl Iterator<Item = u8> + '_ {
        (1..=self.sides)
            .rev()
            .flat_map(move |f| std::iter::repeat_n(f, self.counts[f as usize] as usize))
    }
}

/// A source of die rolls. Procedures are generic over it.
pub trait Dice {
    /// One die with `sides` faces, read 1..=sides.
    fn d(&mut self, sides: u8) -> u8;
    /// A d10 read 0..=9, as Musket & Pike reads its die.
    #[inline]
    fn d10(&mut self) -> u8 {
        self.d(10) - 1
    }
    /// A d6, 1..=6.
    #[inline]
    fn d6(&mut self) -> u8 {
        self.d(6)
    }
    /// `n` identical dice of `sides` faces, as a multiset of faces.
    fn pool(&mut self, n: u8, sides: u8) -> Pool;
}

/// Cost of one roll of a die with `s` sides, in 1/1024ths of a bit:
/// `ceil(log2(s) * 1024)`. A word of entropy serves rolls while the total cost
/// stays at most [`WORD_BUDGET`], so the product of the sides it serves is at
/// most 2^24.
const COST: [u16; MAX_SIDES as usize + 1] = [
    0, 0, 1024, 1624, 2048, 2378, 2648, 2875, 3072, 3247, 3402, 3543, 3672, 3790, 3899, 4001, 4096,
    4186, 4271, 4350, 4426,
];
/// 24 bits: the product of the sides drawn from one 64-bit word is at most 2^24.
#[doc(hidden)]
pub const WORD_BUDGET: u16 = 24 * 1024;

/// The Monte Carlo dice: xoshiro256++ with rolls drawn by multiplication.
///
/// Each 64-bit word `x` serves several rolls: the roll of a die with `s` sides
/// is the high part of `x * s` (a 128-bit product) and the low part is kept
/// for the next roll. The rolls drawn from one word are the mixed-radix digits
/// of `floor(x * P / 2^64)` where `P` is the product of their sides, and a
/// word serves rolls only while `P <= 2^24`. Every joint result of those rolls
/// is therefore hit by `floor(2^64 / P)` or `ceil(2^64 / P)` words: its
/// probability is exact to a relative error below `P / 2^64 <= 2^-40`.
/// (Seven d10s, or nine d6s, share a word.)
pub struct Sampler {
    rng: Xoshiro256PlusPlus,
    word: u64,
    room: u16,
}

impl Sampler {
    /// A sampler seeded from a 64-bit seed (expanded by SplitMix64).
    pub fn new(seed: u64) -> Sampler {
        Sampler {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            word: 0,
            room: 0,
        }
    }
    /// The next raw 64-bit word of the generator.
    #[inline(always)]
    pub fn next_word(&mut self) -> u64 {
        self.rng.next_u64()
    }
    /// A uniform integer in `0..n` for `n <= 2^24`, drawn from the shared
    /// word under the same 2^-40 bound as the dice. Used by compiled kernels.
    #[inline(always)]
    pub fn below(&mut self, n: u32, cost: u16) -> u32 {
        if self.room < cost {
            self.word = self.rng.next_u64();
            self.room = WORD_BUDGET;
        }
        self.room -= cost;
        let m = self.word as u128 * n as u128;
        self.word = m as u64;
        (m >> 64) as u32
    }
}

/// Cost in 1/1024ths of a bit of drawing a uniform value below `n`
/// (`ceil(log2 n * 1024)`); `n` must be at most 2^24.
pub fn cost_of(n: u32) -> u16 {
    assert!(
        (1..=1 << 24).contains(&n),
        "range {n} too large for one draw"
    );
    if n <= MAX_SIDES as u32 {
        return COST[n as usize];
    }
    ((n as f64).log2() * 1024.0).ceil() as u16
}

impl Dice for Sampler {
    #[inline(always)]
    fn d(&mut self, sides: u8) -> u8 {
        debug_assert!((1..=MAX_SIDES).contains(&sides));
        self.below(sides as u32, COST[sides as usize]) as u8 + 1
    }
    fn pool(&mut self, n: u8, sides: u8) -> Pool {
        let mut counts = [0u8; MAX_SIDES as usize + 1];
        for _ in 0..n {
            counts[self.d(sides) as usize] += 1;
        }
        Pool { counts, n, sides }
    }
}

/// One decision point met while enumerating: a die or a pool.
#[derive(Clone, Debug)]
struct Choice {
    /// Sides of the die (for a pool: of each die); 0 for a pick.
    sides: u8,
    /// Number of dice for a pool; 0 for a single die; the options of a pick.
    n: u8,
    /// Which option is taken on the current path.
    idx: u32,
    /// How many options there are.
    options: u32,
}

/// The multisets of `n` dice with `sides` faces and their exact probabilities.
#[derive(Debug)]
struct PoolTable {
    pools: Vec<Pool>,
    probs: Vec<f64>,
}

impl PoolTable {
    fn new(n: u8, sides: u8) -> PoolTable {
        let mut pools = Vec::new();
        let mut probs = Vec::new();
        let mut counts = vec![0u8; sides as usize];
        // ln(n!) and face probabilities for the multinomial weight.
        let ln_fact = |k: u32| (1..=k).map(|i| (i as f64).ln()).sum::<f64>();
        fn rec(face: usize, left: u8, counts: &mut Vec<u8>, out: &mut dyn FnMut(&[u8])) {
            if face + 1 == counts.len() {
                counts[face] = left;
                out(counts);
                return;
            }
            for c in (0..=left).rev() {
                counts[face] = c;
                rec(face + 1, left - c, counts, out);
            }
        }
        let lnf_n = ln_fact(n as u32);
        let ln_sides_n = n as f64 * (sides as f64).ln();
        rec(0, n, &mut counts, &mut |c: &[u8]| {
            let lw = lnf_n - c.iter().map(|&k| ln_fact(k as u32)).sum::<f64>() - ln_sides_n;
            pools.push(Pool::from_counts(sides, c));
            probs.push(lw.exp());
        });
        // Renormalise so the weights sum to exactly what they should, up to rounding.
        let total: f64 = probs.iter().sum();
        for p in &mut probs {
            *p /= total;
        }
        PoolTable { pools, probs }
    }
}

/// Why an exact enumeration stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum EnumerationError {
    /// More than `budget` leaves: the dice space is too large to enumerate.
    Budget {
        /// The leaf budget that was exceeded.
        budget: u64,
    },
}

impl std::fmt::Display for EnumerationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EnumerationError::Budget { budget } => write!(
                f,
                "exact enumeration needs more than {budget} paths of die results; \
                 run without --exact (Monte Carlo) or raise --exact-budget"
            ),
        }
    }
}

impl std::error::Error for EnumerationError {}

/// The exact dice: replays a procedure over every path of die results,
/// depth-first in odometer order, and weights each leaf exactly (the product
/// of `1/sides` for each die and the multinomial weight of each pool).
///
/// The procedure must be deterministic given its dice: the same results on a
/// path's prefix must lead to the same next request.
#[derive(Debug, Default)]
pub struct Enumerator {
    choices: Vec<Choice>,
    pos: usize,
    prob: f64,
    pools: Vec<((u8, u8), PoolTable)>,
}

/// One complete path of die results and its probability.
#[derive(Clone, Debug)]
pub struct Path {
    /// The die results in the order they were rolled; a pool contributes the
    /// index of its multiset.
    pub rolls: Vec<u32>,
    /// The sides of each roll (0 for a pool or a pick).
    pub sides: Vec<u8>,
    /// Probability of the path.
    pub prob: f64,
}

impl Enumerator {
    /// A fresh enumerator.
    pub fn new() -> Enumerator {
        Enumerator::default()
    }

    /// Calls `f` once per path of die results, with the path's probability
    /// and the value `f` returned, visiting at most `budget` paths.
    pub fn for_each<T>(
        &mut self,
        budget: u64,
        mut f: impl FnMut(&mut Enumerator) -> T,
        mut leaf: impl FnMut(&Enumerator, T, f64),
    ) -> Result<u64, EnumerationError> {
        self.choices.clear();
        let mut visited = 0u64;
        loop {
            if visited == budget {
                return Err(EnumerationError::Budget { budget });
            }
            self.pos = 0;
            self.prob = 1.0;
            let v = f(self);
            assert_eq!(
                self.pos,
                self.choices.len(),
                "a procedure rolled fewer dice on a replayed path: it is not deterministic"
            );
            visited += 1;
            let p = self.prob;
            leaf(self, v, p);
            // Odometer: advance the deepest choice that has options left.
            loop {
                match self.choices.last_mut() {
                    None => return Ok(visited),
                    Some(c) if c.idx + 1 < c.options => {
                        c.idx += 1;
                        break;
                    }
                    Some(_) => {
                        self.choices.pop();
                    }
                }
            }
        }
    }

    /// The die results of the current path so far (pool multiset indices for pools).
    pub fn current_path(&self) -> Path {
        Path {
            rolls: self.choices[..self.pos].iter().map(|c| c.idx).collect(),
            sides: self.choices[..self.pos]
                .iter()
                .map(|c| if c.n == 0 { c.sides } else { 0 })
                .collect(),
            prob: self.prob,
        }
    }

    /// One draw among `options` results that are not die faces (a band of
    /// a 2d6 table, hit or miss): branches into each, weighting the path by
    /// `weight(i)` for the result `i` taken. A system that enumerates
    /// results rather than dice replays its procedure through this, with
    /// [`Enumerator::for_each`] as for dice.
    pub fn pick(&mut self, options: u8, weight: impl FnOnce(usize) -> f64) -> usize {
        let idx = self.take(0, options, options as u32) as usize;
        self.prob *= weight(idx);
        idx
    }

    fn take(&mut self, sides: u8, n: u8, options: u32) -> u32 {
        if self.pos == self.choices.len() {
            self.choices.push(Choice {
                sides,
                n,
                idx: 0,
                options,
            });
        } else {
            let c = &self.choices[self.pos];
            assert!(
                c.sides == sides && c.n == n,
                "a procedure asked for different dice on a replayed path: it is not deterministic"
            );
        }
        let idx = self.choices[self.pos].idx;
        self.pos += 1;
        idx
    }
}

impl Dice for Enumerator {
    fn d(&mut self, sides: u8) -> u8 {
        assert!((1..=MAX_SIDES).contains(&sides));
        let idx = self.take(sides, 0, sides as u32);
        self.prob /= sides as f64;
        idx as u8 + 1
    }
    fn pool(&mut self, n: u8, sides: u8) -> Pool {
        assert!((1..=MAX_SIDES).contains(&sides));
        let key = (n, sides);
        let t = match self.pools.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                self.pools.push((key, PoolTable::new(n, sides)));
                self.pools.len() - 1
            }
        };
        let options = self.pools[t].1.pools.len() as u32;
        let idx = self.take(sides, n, options) as usize;
        let table = &self.pools[t].1;
        self.prob *= table.probs[idx];
        table.pools[idx]
    }
}
