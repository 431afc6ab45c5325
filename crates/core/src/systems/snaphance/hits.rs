//! Hits of a pool of d6 ("Hit on 6 or double 5", Firing and Melee), and the
//! exact distribution of a pool's hits, one face at a time.

use super::readings::Fives;
use crate::dice::{Dice, Pool};
use crate::engine::pools;

/// Faces that score ("Hit on 6 or double 5").
pub const HIT_FACE: u8 = 6;
/// The face that scores in pairs.
pub const PAIR_FACE: u8 = 5;

/// The hits a rolled pool scores.
#[inline]
pub fn hits_of(pool: &Pool, fives: Fives) -> u32 {
    fives.hits(pool.count(HIT_FACE) as u32, pool.count(PAIR_FACE) as u32)
}

/// Rolls `n` d6 (no roll at all for an empty pool) and counts the hits.
#[inline]
pub fn roll_hits<D: Dice>(dice: &mut D, n: u8, fives: Fives) -> u32 {
    if n == 0 {
        return 0;
    }
    hits_of(&dice.pool(n, 6), fives)
}

/// P(hits = h) for `n` d6, index `h` in `0..=n`, one face at a time (the
/// method of [`pools::evaluate_top`] with its two states, the counts of 6s
/// and of 5s, held in dense arrays): the 6s are Binomial(n, 1/6); the 5s
/// among the other `m` dice Binomial(m, 1/5); lower faces score nothing.
pub fn distribution(n: u8, fives: Fives) -> Vec<f64> {
    let n = n as u32;
    let mut out = vec![0.0; n as usize + 1];
    for (sixes, p6) in pools::binomial(n, HIT_FACE).into_iter().enumerate() {
        let rest = n - sixes as u32;
        for (fv, p5) in pools::binomial(rest, PAIR_FACE).into_iter().enumerate() {
            out[fives.hits(sixes as u32, fv as u32) as usize] += p6 * p5;
        }
    }
    out
}

/// The same distribution by the general evaluator, visiting the two faces
/// that score (used to check [`distribution`]).
pub fn distribution_by_evaluator(n: u8, fives: Fives) -> Vec<f64> {
    let by_face =
        pools::evaluate_top(
            n as u32,
            6,
            2,
            (0u32, 0u32),
            |&(sixes, fv), face, k| match face {
                HIT_FACE => (k, fv),
                PAIR_FACE => (sixes, k),
                _ => (sixes, fv),
            },
        );
    let mut out = vec![0.0; n as usize + 1];
    for ((sixes, fv), p) in by_face {
        out[fives.hits(sixes, fv) as usize] += p;
    }
    out
}
