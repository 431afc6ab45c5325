//! Exact dice pools, one face at a time.
//!
//! The method of icepool (H. Liu, "Icepool: Efficient Computation of Dice
//! Pool Probabilities", AIIDE 2022): a statistic of a pool of `n` identical
//! dice is an evaluation over the faces, highest first. With `m` dice still
//! unplaced, all uniform on faces `1..=f`, the number showing face `f` is
//! Binomial(m, 1/f) and the others are uniform on `1..=f-1`. The statistic is
//! a state updated once per face with that face's count; histories that reach
//! the same state (and leave the same number of dice) merge, so the work is
//! about faces × states × dice, not one path per multiset of faces
//! (C(n + s − 1, s − 1) of them: 324 632 for thirty d6).

use std::collections::HashMap;
use std::hash::Hash;

/// The Binomial(m, 1/f) probabilities of `k = 0..=m` successes: from
/// `q^m`, each term the last times `(m - k) / (k + 1) * p / q`.
pub fn binomial(m: u32, f: u8) -> Vec<f64> {
    assert!(f >= 1, "a face index starts at 1");
    let mut v = vec![0.0; m as usize + 1];
    if f == 1 {
        v[m as usize] = 1.0;
        return v;
    }
    let p = 1.0 / f as f64;
    let q = 1.0 - p;
    let ratio = p / q;
    v[0] = q.powi(m as i32);
    for k in 0..m as usize {
        v[k + 1] = v[k] * (m as usize - k) as f64 / (k + 1) as f64 * ratio;
    }
    v
}

/// The exact distribution of a statistic of `n` dice with `sides` faces.
///
/// `next(state, face, count)` folds the count of one face into the state;
/// faces are visited from `sides` down to 1, each exactly once (a face no
/// die shows is visited with count 0). Returns every final state with its
/// probability, in the order the states were first reached.
pub fn evaluate<S, F>(n: u32, sides: u8, init: S, next: F) -> Vec<(S, f64)>
where
    S: Clone + Eq + Hash,
    F: FnMut(&S, u8, u32) -> S,
{
    evaluate_top(n, sides, sides, init, next)
}

/// As [`evaluate`] for a statistic that only the `top` highest faces
/// change: faces `sides` down to `sides - top + 1` are visited, and the dice
/// left (on the lower faces) are summed over without visiting them, as
/// icepool stops once its evaluator's state can no longer change.
pub fn evaluate_top<S, F>(n: u32, sides: u8, top: u8, init: S, mut next: F) -> Vec<(S, f64)>
where
    S: Clone + Eq + Hash,
    F: FnMut(&S, u8, u32) -> S,
{
    assert!(sides >= 1, "a die has at least one face");
    assert!(
        (1..=sides).contains(&top),
        "the faces that matter are among the die's"
    );
    // (state, dice left) -> probability, with first-reached order kept.
    let mut cur: Vec<((S, u32), f64)> = vec![((init, n), 1.0)];
    for face in ((sides - top + 1)..=sides).rev() {
        let mut rows: Vec<Option<Vec<f64>>> = vec![None; n as usize + 1];
        let mut index: HashMap<(S, u32), usize> = HashMap::with_capacity(cur.len() * 2);
        let mut out: Vec<((S, u32), f64)> = Vec::with_capacity(cur.len() * 2);
        for ((state, left), p) in cur {
            let row = rows[left as usize].get_or_insert_with(|| binomial(left, face));
            for (k, &w) in row.iter().enumerate() {
                if w == 0.0 {
                    continue;
                }
                let key = (next(&state, face, k as u32), left - k as u32);
                match index.get(&key) {
                    Some(&i) => out[i].1 += p * w,
                    None => {
                        index.insert(key.clone(), out.len());
                        out.push((key, p * w));
                    }
                }
            }
        }
        cur = out;
    }
    // The dice left show lower faces, which do not change the state.
    let mut index: HashMap<S, usize> = HashMap::with_capacity(cur.len());
    let mut out: Vec<(S, f64)> = Vec::with_capacity(cur.len());
    for ((s, _), p) in cur {
        match index.get(&s) {
            Some(&i) => out[i].1 += p,
            None => {
                index.insert(s.clone(), out.len());
                out.push((s, p));
            }
        }
    }
    out
}

/// The exact distribution of a count statistic of `n` dice with `sides`
/// faces: `add(face, count)` is what the face's count adds to the total,
/// and the result's index `t` holds P(total = t). A thin wrapper over
/// [`evaluate`] for the common case of a sum over faces.
pub fn count_distribution(n: u32, sides: u8, add: impl Fn(u8, u32) -> u32) -> Vec<f64> {
    let states = evaluate(n, sides, 0u32, |t, face, k| t + add(face, k));
    let max = states.iter().map(|(t, _)| *t).max().unwrap_or(0);
    let mut out = vec![0.0; max as usize + 1];
    for (t, p) in states {
        out[t as usize] += p;
    }
    out
}
