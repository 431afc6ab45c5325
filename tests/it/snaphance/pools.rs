//! Exact d6 pools for Snaphance: the hit distribution one face at a time
//! against brute force over every roll and against the plain enumerator's
//! multisets, thirty-die pools against closed forms, and the alias table
//! the fast kernel samples against the exact distribution it folds.

use crate::support::step::Plain;
use pikeshot::engine::alias::{AliasTable, Tabulated};
use pikeshot::engine::exact::exact;
use pikeshot::engine::pools::binomial;
use pikeshot::engine::{Kernel, KernelMode};
use pikeshot::systems::snaphance::fire::{Fire, FireInput};
use pikeshot::systems::snaphance::hits::distribution;
use pikeshot::systems::snaphance::readings::Fives;
use pikeshot::systems::snaphance::{Kind, Readings, Stand};

/// P(hits = h) by running over all 6^n rolls.
fn brute(n: u32, fives: Fives) -> Vec<f64> {
    let total = 6u64.pow(n);
    let mut count = vec![0u64; n as usize + 1];
    for mut code in 0..total {
        let (mut sixes, mut fv) = (0, 0);
        for _ in 0..n {
            match code % 6 {
                5 => sixes += 1,
                4 => fv += 1,
                _ => {}
            }
            code /= 6;
        }
        count[fives.hits(sixes, fv) as usize] += 1;
    }
    count.iter().map(|&c| c as f64 / total as f64).collect()
}

#[test]
fn hits_face_by_face_equal_every_roll() {
    for fives in [Fives::Pair, Fives::AllIfPair, Fives::Each, Fives::Ignore] {
        for n in 0..=6u8 {
            let fast = distribution(n, fives);
            let slow = brute(n as u32, fives);
            assert_eq!(fast.len(), slow.len());
            for (h, (a, b)) in fast.iter().zip(&slow).enumerate() {
                assert!((a - b).abs() < 1e-14, "{fives} n={n} h={h}: {a} vs {b}");
            }
        }
    }
}

#[test]
fn thirty_dice_against_closed_forms() {
    let n = 30u32;
    let d = distribution(n as u8, Fives::Pair);
    assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    // No hit: no 6 and at most one 5.
    let p0 = (4.0f64 / 6.0).powi(30) + 30.0 * (1.0 / 6.0) * (4.0f64 / 6.0).powi(29);
    assert!((d[0] - p0).abs() < 1e-15, "{} vs {p0}", d[0]);
    // All hits: thirty 6s.
    assert!((d[30] - (1.0f64 / 6.0).powi(30)).abs() < 1e-35);
    // Mean: the 6s and the 5s are each Binomial(30, 1/6):
    // E = 30/6 + E[floor(F / 2)], F ~ Binomial(30, 1/6).
    let b = binomial(n, 6);
    let e_pairs: f64 = b.iter().enumerate().map(|(k, p)| (k / 2) as f64 * p).sum();
    let mean: f64 = d.iter().enumerate().map(|(h, p)| h as f64 * p).sum();
    assert!((mean - (5.0 + e_pairs)).abs() < 1e-12, "{mean}");
    // Each 5 hits: hits ~ Binomial(30, 1/3).
    let each = distribution(30, Fives::Each);
    for (h, (a, b)) in each.iter().zip(binomial(30, 3)).enumerate() {
        assert!((a - b).abs() < 1e-14, "h={h}");
    }
}

fn twelve_dice() -> Fire {
    Fire::new(
        &Stand::new("tercio", Kind::Tercio, 12),
        &Stand::new("t", Kind::PikeAndShot, 6),
        &FireInput::default(),
        &Readings::default(),
    )
    .unwrap()
}

#[test]
fn twelve_dice_equal_multiset_enumeration() {
    let f = twelve_dice();
    assert_eq!(f.dice(), 12);
    let fast = exact(&f, 1).unwrap();
    // C(17, 5) = 6188 multisets, each followed by a morale die when hit.
    let slow = exact(&Plain(f.clone()), 100_000).unwrap();
    for (a, b) in fast.iter().zip(&slow) {
        assert!((a - b).abs() < 1e-13, "{a} vs {b}");
    }
    assert!((fast.iter().sum::<f64>() - 1.0).abs() < 1e-12);
}

#[test]
fn thirty_dice_fire_is_exact_within_any_budget() {
    let f = Fire::new(
        &Stand::new("battery", Kind::Shot, 30),
        &Stand::new("t", Kind::PikeAndShot, 6),
        &FireInput::default(),
        &Readings::default(),
    )
    .unwrap();
    assert_eq!(f.dice(), 30);
    // The face-by-face override needs no paths; the plain enumerator would
    // need C(35, 5) = 324 632 multisets times the morale die.
    let p = exact(&f, 1).unwrap();
    assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!(exact(&Plain(f), 1_000).is_err());
}

#[test]
fn alias_table_holds_the_exact_distribution() {
    let f = twelve_dice();
    let probs = exact(&f, 1).unwrap();
    let t = AliasTable::new(&probs).unwrap();
    assert_eq!(t.bits_per_trial(), 32);
    for (a, b) in t.probabilities(probs.len()).iter().zip(&probs) {
        assert!((a - b).abs() < 1e-9, "{a} vs {b}");
    }
    // The kernel samples from it, and reports the same exact distribution.
    let k = Tabulated::new(f.clone(), KernelMode::Auto);
    assert!(k.is_compiled());
    assert_eq!(k.exact(10_000_000).unwrap(), probs);
    let direct = Tabulated::new(f, KernelMode::Direct);
    assert!(!direct.is_compiled());
    assert_eq!(direct.exact(10_000_000).unwrap(), probs);
}

#[test]
fn large_tables_take_a_whole_word() {
    // More leaves than a half word can split: the 64-bit path.
    let n = (1 << 16) + 5;
    let probs: Vec<f64> = (0..n).map(|i| 1.0 + (i % 3) as f64).collect();
    let t = AliasTable::new(&probs).unwrap();
    assert_eq!(t.bits_per_trial(), 64);
    let total: f64 = probs.iter().sum();
    for (i, (a, b)) in t
        .probabilities(n)
        .iter()
        .zip(&probs)
        .enumerate()
        .step_by(997)
    {
        assert!((a - b / total).abs() < 1e-12, "leaf {i}");
    }
    let mut counts = vec![0u64; n];
    t.sample(&mut pikeshot::Sampler::new(3), 100_001, &mut counts);
    assert_eq!(counts.iter().sum::<u64>(), 100_001);
}
