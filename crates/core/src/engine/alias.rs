//! Kernels sampled from an exact distribution through an alias table.
//!
//! A procedure whose exact leaf distribution is cheap to compute (an `exact`
//! override such as a dice pool evaluated one face at a time, or a chain of
//! steps propagated state by state) is folded, once before the loop, into a
//! Walker–Vose alias table over its leaves of non-zero probability. A trial
//! is then 32 bits of the generator and one lookup: with `2^b` columns (the
//! leaves padded to a power of two) the high `b` bits pick a column and the
//! other `32 - b` decide between its two leaves, so two trials share one
//! 64-bit word. Tables of more than 2^16 leaves take a whole word a trial
//! (the column by a 32×32-bit multiply, the split on 32 bits).
//!
//! The distribution sampled is the exact one up to the table's resolution:
//! each column's split is rounded to `2^-(32-b)`, so a leaf's probability is
//! off by at most about `2^-32` per column it appears in, far below the Monte
//! Carlo error of any run. The compiled tables of [`super::compiled`] are
//! exact but only fit small single-die procedures; this covers pools of any
//! size and whole chains of steps.
//!
//! [`Tabulated`] keeps the procedure too: [`KernelMode::Direct`] replays
//! `resolve` with real dice, die by die, which is what the Monte Carlo
//! against exact tests hold the table to.

use crate::dice::Sampler;
use crate::engine::{Kernel, KernelKind, KernelMode, TableKernel, TrialTable, exact};
use crate::outcome::Leaf;
use crate::procedure::Procedure;

/// One column of an alias table: with probability `threshold / 2^bits`
/// the trial ends in `primary`, else in `alias` (indices into the table's
/// leaves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Column {
    threshold: u32,
    primary: u32,
    alias: u32,
}

/// Most columns for which a trial takes only 32 bits of the generator (6
/// of them pick the column of a 64-column table, 26 split it; either way a
/// leaf's probability is resolved to `2^-32`).
pub const HALF_WORD_COLUMNS: usize = 1 << 16;

/// Columns of the fixed-size fast path.
const SMALL: usize = 64;

/// A Walker–Vose alias table over the leaves of non-zero probability.
#[derive(Clone, Debug)]
pub struct AliasTable {
    columns: Vec<Column>,
    /// Half-word tables: each column packed as `threshold | primary << 32 |
    /// alias << 48`, the column count a power of two.
    packed: Option<Vec<u64>>,
    /// Bits of a half word that pick the column (packed tables).
    column_bits: u32,
    /// Tables of [`SMALL`] columns (every table of at most [`SMALL`]
    /// leaves) as a fixed array, so that neither the column nor the leaf
    /// index needs a bounds check in the loop.
    small: Option<Box<[u64; SMALL]>>,
    /// The distinct leaves, in leaf order.
    leaves: Vec<Leaf>,
}

impl AliasTable {
    /// A table for leaf probabilities `probs` (index = leaf). `None` when no
    /// leaf has positive probability or there are more than 2^31 leaves.
    pub fn new(probs: &[f64]) -> Option<AliasTable> {
        let leaves: Vec<Leaf> = probs
            .iter()
            .enumerate()
            .filter(|(_, p)| **p > 0.0)
            .map(|(i, _)| i as Leaf)
            .collect();
        if leaves.is_empty() || leaves.len() > 1 << 31 {
            return None;
        }
        let total: f64 = leaves.iter().map(|&l| probs[l as usize]).sum();
        let weights: Vec<f64> = leaves.iter().map(|&l| probs[l as usize] / total).collect();
        if leaves.len() <= HALF_WORD_COLUMNS {
            // A power of two of columns, at least SMALL (padding leaves of
            // weight 0, whose columns are all alias), so the column is a bit
            // field; a table of SMALL columns is also kept as a fixed array.
            let k = leaves.len().next_power_of_two().max(SMALL);
            let column_bits = k.trailing_zeros();
            let split_bits = 32 - column_bits;
            let mut w = weights.clone();
            w.resize(k, 0.0);
            let columns = vose(&w, leaves.len(), split_bits);
            let packed: Vec<u64> = columns
                .iter()
                .map(|c| c.threshold as u64 | (c.primary as u64) << 32 | (c.alias as u64) << 48)
                .collect();
            let small = (k == SMALL).then(|| {
                let mut t = Box::new([0u64; SMALL]);
                t.copy_from_slice(&packed);
                t
            });
            return Some(AliasTable {
                columns,
                packed: Some(packed),
                column_bits,
                small,
                leaves,
            });
        }
        Some(AliasTable {
            columns: vose(&weights, leaves.len(), 32),
            packed: None,
            column_bits: 0,
            small: None,
            leaves,
        })
    }

    /// Number of columns (the leaves padded to a power of two, at least 64,
    /// for tables of at most 2^16 leaves).
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.columns.len()
    }

    /// Bits of the generator a trial takes: 32, or 64 for a table of more
    /// than [`HALF_WORD_COLUMNS`] columns.
    pub fn bits_per_trial(&self) -> u32 {
        if self.packed.is_some() { 32 } else { 64 }
    }

    /// The probability the table gives each leaf (index = leaf), from its
    /// columns: what the sampler draws, to compare with the exact input.
    pub fn probabilities(&self, n_leaves: usize) -> Vec<f64> {
        let mut out = vec![0.0; n_leaves];
        let k = self.columns.len() as f64;
        let scale = match self.packed {
            Some(_) => (1u64 << (32 - self.column_bits)) as f64,
            None => 4_294_967_296.0,
        };
        for c in &self.columns {
            let keep = c.threshold as f64 / scale;
            if let Some(&l) = self.leaves.get(c.primary as usize) {
                out[l as usize] += keep / k;
            }
            if let Some(&l) = self.leaves.get(c.alias as usize) {
                out[l as usize] += (1.0 - keep) / k;
            }
        }
        out
    }

    /// Resolves `n` trials with words from `rng`, adding each leaf's count
    /// to `counts` (indexed by leaf).
    pub fn sample(&self, rng: &mut Sampler, n: u64, counts: &mut [u64]) {
        // Count into a short local histogram (one slot per distinct leaf),
        // two of them alternating so that repeats of one leaf do not chain
        // through memory.
        if let Some(t) = &self.small {
            return self.sample_small(t, rng, n, counts);
        }
        let mut h0 = vec![0u64; self.leaves.len()];
        let mut h1 = vec![0u64; self.leaves.len()];
        match &self.packed {
            Some(cols) => {
                let shift = 32 - self.column_bits;
                let mask = ((1u64 << shift) - 1) as u32;
                let pick = |u: u32| -> usize {
                    // `column_bits` may be 0 (one column): shift a u64.
                    let c = cols[((u as u64) >> shift) as usize];
                    let keep = (u & mask) < c as u32;
                    std::hint::select_unpredictable(keep, (c >> 32) as u16, (c >> 48) as u16)
                        as usize
                };
                for _ in 0..n / 2 {
                    let w = rng.next_word();
                    let a = pick(w as u32);
                    let b = pick((w >> 32) as u32);
                    h0[a] += 1;
                    h1[b] += 1;
                }
                if n % 2 == 1 {
                    h0[pick(rng.next_word() as u32)] += 1;
                }
            }
            None => {
                let k = self.columns.len() as u64;
                let cols = &self.columns[..];
                let pick = |w: u64| -> usize {
                    let c = cols[(((w >> 32) * k) >> 32) as usize];
                    std::hint::select_unpredictable((w as u32) < c.threshold, c.primary, c.alias)
                        as usize
                };
                for _ in 0..n / 2 {
                    let a = pick(rng.next_word());
                    let b = pick(rng.next_word());
                    h0[a] += 1;
                    h1[b] += 1;
                }
                if n % 2 == 1 {
                    h0[pick(rng.next_word())] += 1;
                }
            }
        }
        for ((&l, a), b) in self.leaves.iter().zip(h0).zip(h1) {
            counts[l as usize] += a + b;
        }
    }
}

impl AliasTable {
    /// The fixed-size loop: 64 columns, 6 bits pick one, 26 split it.
    fn sample_small(&self, t: &[u64; SMALL], rng: &mut Sampler, n: u64, counts: &mut [u64]) {
        const SHIFT: u32 = 32 - SMALL.trailing_zeros();
        const MASK: u32 = (1 << SHIFT) - 1;
        let mut h0 = [0u64; SMALL];
        let mut h1 = [0u64; SMALL];
        let pick = |u: u32| -> usize {
            let c = t[(u >> SHIFT) as usize];
            let keep = (u & MASK) < c as u32;
            std::hint::select_unpredictable(keep, (c >> 32) as usize, (c >> 48) as usize) % SMALL
        };
        for _ in 0..n / 2 {
            let w = rng.next_word();
            h0[pick(w as u32)] += 1;
            h1[pick((w >> 32) as u32)] += 1;
        }
        if n % 2 == 1 {
            h0[pick(rng.next_word() as u32)] += 1;
        }
        for (i, &l) in self.leaves.iter().enumerate() {
            counts[l as usize] += h0[i] + h1[i];
        }
    }
}

/// Vose's alias method over `weights` (summing to 1; the first `real` are
/// leaves, the rest padding of weight 0), thresholds on `bits` bits. A
/// column whose own weight fills it keeps itself always (threshold
/// `2^bits`, or `u32::MAX` for 32 bits with itself as alias).
fn vose(weights: &[f64], real: usize, bits: u32) -> Vec<Column> {
    let k = weights.len();
    let full = (1u64 << bits) as f64;
    let mut scaled: Vec<f64> = weights.iter().map(|w| w * k as f64).collect();
    let mut columns: Vec<Column> = (0..k as u32)
        .map(|i| Column {
            threshold: (full as u64).min(u32::MAX as u64) as u32,
            primary: i,
            alias: i,
        })
        .collect();
    let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..k).partition(|&i| scaled[i] < 1.0);
    while let (Some(s), Some(&l)) = (small.pop(), large.last()) {
        // Column s keeps its own leaf with probability scaled[s] and gives
        // the rest to l.
        columns[s].threshold = (scaled[s].clamp(0.0, 1.0) * full).round().min(full - 1.0) as u32;
        columns[s].alias = l as u32;
        scaled[l] -= 1.0 - scaled[s];
        if scaled[l] < 1.0 {
            large.pop();
            small.push(l);
        }
    }
    // Whatever is left holds (up to rounding) exactly 1: always itself. A
    // padding column can only be left over by rounding: it goes to the
    // heaviest leaf.
    let heaviest = (0..real)
        .max_by(|&a, &b| weights[a].total_cmp(&weights[b]))
        .unwrap_or(0) as u32;
    for i in small.into_iter().chain(large) {
        if i >= real {
            columns[i].primary = heaviest;
            columns[i].alias = heaviest;
        }
    }
    columns
}

/// A procedure with its exact distribution folded into an alias table.
pub type Tabulated<P> = TableKernel<P, AliasTable>;

impl<P: Procedure> Tabulated<P> {
    /// Prepares `procedure`: with [`KernelMode::Auto`], computes its exact
    /// distribution within the default budget and builds the alias table;
    /// with [`KernelMode::Direct`] (or when the exact distribution is out of
    /// budget) trials replay `resolve` with real dice.
    pub fn new(procedure: P, mode: KernelMode) -> Tabulated<P> {
        let exact = match mode {
            KernelMode::Auto => exact::exact(&procedure, exact::DEFAULT_BUDGET).ok(),
            KernelMode::Direct => None,
        };
        let table = exact.as_deref().and_then(AliasTable::new);
        TableKernel {
            procedure,
            table,
            exact,
        }
    }
}

impl TrialTable for AliasTable {
    fn draw(&self, rng: &mut Sampler, n: u64, counts: &mut [u64]) {
        self.sample(rng, n, counts)
    }
    fn kind(&self) -> KernelKind {
        KernelKind::Alias
    }
}

impl<P: Procedure + 'static> Tabulated<P> {
    /// Boxes `procedure` as a [`Kernel`] (see [`Tabulated::new`]).
    pub fn boxed(procedure: P, mode: KernelMode) -> Box<dyn Kernel> {
        Box::new(Tabulated::new(procedure, mode))
    }
}
