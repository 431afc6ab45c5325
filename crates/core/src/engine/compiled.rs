//! Compiled kernels: a procedure folded into a flat table before the loop.
//!
//! When every die a procedure rolls has the same number of sides `s` and no
//! path rolls more than `depth` dice, each path of results is a prefix of a
//! `depth`-digit number in base `s`. Enumerating the procedure once (with the
//! exact [`crate::dice::Enumerator`], so the table comes from the
//! very same `resolve`) fills a table from that number to the leaf it ends
//! in. A trial is then one uniform draw below `s^depth` and one lookup: the
//! distribution sampled is exactly that of replaying `resolve` with fresh dice.

use crate::dice::{Enumerator, Sampler, cost_of};
use crate::outcome::Leaf;
use crate::procedure::Procedure;

/// Largest table a procedure is compiled to (entries).
pub const MAX_ENTRIES: u32 = 10_000;

/// Draws grouped into one multiplication are looked up in a joint table of at
/// most this many entries.
const MAX_GROUP_ENTRIES: u32 = 1_000;

/// Leaves counted in packed 6-bit lanes of a u64 (10 lanes).
const LANES: usize = 10;
/// Increments a lane can take before it must be flushed.
const LANE_CAP: u32 = 63;

/// A procedure compiled to a uniform table of leaves.
#[derive(Clone, Debug)]
pub struct CompiledTable {
    /// Leaf for each value of the uniform draw, as an index into `distinct`.
    entries: Vec<u32>,
    /// The distinct leaves the table reaches, in increasing order.
    distinct: Vec<Leaf>,
    /// Number of table values (`s^depth`).
    size: u32,
    /// How many table draws are grouped into one multiplication.
    group: u32,
    /// `size^group`.
    group_size: u32,
    /// Cost of drawing below `group_size`.
    group_cost: u16,
    /// When the table has at most [`LANES`] distinct leaves: per grouped
    /// draw the packed increment of its lanes.
    packed: Option<Vec<u64>>,
    /// Otherwise: per grouped draw, the distinct leaf of each of its
    /// `group` trials (`group` entries a draw), so that no trial divides
    /// by the table's size.
    joint: Vec<u32>,
}

impl CompiledTable {
    /// Compiles `p` if all its dice have the same sides and the table fits
    /// in [`MAX_ENTRIES`]; `None` otherwise (the runner then replays
    /// `resolve` directly).
    pub fn compile<P: Procedure>(p: &P) -> Option<CompiledTable> {
        let mut paths: Vec<(Vec<u32>, Leaf)> = Vec::new();
        let mut sides_seen: Option<u8> = None;
        let mut uniform = true;
        let budget = MAX_ENTRIES as u64;
        let res = Enumerator::new().for_each(
            budget,
            |d| p.resolve(d),
            |e, leaf, _| {
                let path = e.current_path();
                for &s in &path.sides {
                    match sides_seen {
                        _ if s == 0 => uniform = false, // a pool
                        None => sides_seen = Some(s),
                        Some(t) if t != s => uniform = false,
                        _ => {}
                    }
                }
                paths.push((path.rolls, leaf));
            },
        );
        if res.is_err() || !uniform {
            return None;
        }
        let s = sides_seen.unwrap_or(1) as u64;
        let depth = paths.iter().map(|(r, _)| r.len()).max().unwrap_or(0) as u32;
        let size = s.checked_pow(depth)?;
        if size > MAX_ENTRIES as u64 {
            return None;
        }
        let size = size as u32;
        let mut entries = vec![Leaf::MAX; size as usize];
        for (rolls, leaf) in &paths {
            let mut prefix = 0u64;
            for &r in rolls {
                prefix = prefix * s + r as u64;
            }
            let width = s.pow(depth - rolls.len() as u32);
            let start = (prefix * width) as usize;
            entries[start..start + width as usize].fill(*leaf);
        }
        debug_assert!(entries.iter().all(|&l| l != Leaf::MAX));
        // Group draws: as many as fit in MAX_GROUP_ENTRIES joint values.
        let mut group = 1u32;
        let mut group_size = size;
        while size > 1 && group_size * size <= MAX_GROUP_ENTRIES {
            group += 1;
            group_size *= size;
        }
        let mut distinct: Vec<Leaf> = entries.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let entries: Vec<u32> = entries
            .iter()
            .map(|l| {
                distinct
                    .binary_search(l)
                    .expect("every entry is a distinct leaf") as u32
            })
            .collect();
        let packed = (distinct.len() <= LANES).then(|| {
            (0..group_size)
                .map(|mut v| {
                    let mut inc = 0u64;
                    for _ in 0..group {
                        inc += 1u64 << (6 * entries[(v % size) as usize]);
                        v /= size;
                    }
                    inc
                })
                .collect()
        });
        // Trial j of grouped draw v is digit j of v in base `size`.
        let joint = match packed {
            Some(_) => Vec::new(),
            None => (0..group_size)
                .flat_map(|v| {
                    let entries = &entries;
                    (0..group).map(move |j| entries[(v / size.pow(j) % size) as usize])
                })
                .collect(),
        };
        Some(CompiledTable {
            entries,
            distinct,
            size,
            group,
            group_size,
            group_cost: cost_of(group_size),
            packed,
            joint,
        })
    }

    /// Whether trials are counted in packed lanes (at most ten distinct
    /// leaves): the fastest way to sample there is.
    pub fn is_packed(&self) -> bool {
        self.packed.is_some()
    }

    /// Number of table entries (`sides^depth`).
    pub fn size(&self) -> u32 {
        self.size
    }

    /// Resolves `n` trials from `rng`, adding each leaf's count to `counts`.
    pub fn sample(&self, rng: &mut Sampler, n: u64, counts: &mut [u64]) {
        let groups = n / self.group as u64;
        let rest = n % self.group as u64;
        // Counted per distinct leaf: a small array that stays in cache,
        // scattered into the (possibly large) leaf counts at the end.
        let mut local = vec![0u64; self.distinct.len()];
        match &self.packed {
            Some(incs) => {
                // Lanes in a fixed array the optimiser keeps in registers.
                let mut lanes = [0u64; LANES];
                let per_flush = (LANE_CAP / self.group) as u64;
                let mut left = groups;
                while left > 0 {
                    let batch = left.min(per_flush);
                    let mut acc = 0u64;
                    for _ in 0..batch {
                        let v = rng.below(self.group_size, self.group_cost);
                        acc += incs[v as usize];
                    }
                    for (i, lane) in lanes.iter_mut().enumerate() {
                        *lane += (acc >> (6 * i)) & 63;
                    }
                    left -= batch;
                }
                for (l, c) in local.iter_mut().zip(lanes) {
                    *l += c;
                }
            }
            None => {
                let g = self.group as usize;
                for _ in 0..groups {
                    let v = rng.below(self.group_size, self.group_cost) as usize;
                    for &e in &self.joint[v * g..v * g + g] {
                        local[e as usize] += 1;
                    }
                }
            }
        }
        let cost = cost_of(self.size);
        for _ in 0..rest {
            let v = rng.below(self.size, cost);
            local[self.entries[v as usize] as usize] += 1;
        }
        for (&leaf, c) in self.distinct.iter().zip(local) {
            counts[leaf as usize] += c;
        }
    }
}
