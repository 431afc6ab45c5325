//! The dice: exact enumeration of every die path and pool, the path budget, the sampler's faces and the entropy cost table (`dice`).

use pikeshot::dice::*;

#[test]
fn enumerates_two_d6_exactly() {
    let mut e = Enumerator::new();
    let mut dist = [0.0f64; 13];
    let n = e
        .for_each(1000, |d| d.d6() + d.d6(), |_, s, p| dist[s as usize] += p)
        .unwrap();
    assert_eq!(n, 36);
    for (s, &p) in dist.iter().enumerate().skip(2) {
        let ways = 6 - (7i32 - s as i32).abs();
        assert!((p - ways as f64 / 36.0).abs() < 1e-15, "sum {s}");
    }
}

#[test]
fn pools_are_multisets_with_multinomial_weights() {
    let mut e = Enumerator::new();
    let mut total = 0.0;
    let mut sum_dist = [0.0f64; 13];
    let n = e
        .for_each(
            1000,
            |d| d.pool(2, 6).sum(),
            |_, s, p| {
                total += p;
                sum_dist[s as usize] += p;
            },
        )
        .unwrap();
    assert_eq!(n, 21); // C(7, 2) multisets of two d6
    assert!((total - 1.0).abs() < 1e-12);
    assert!((sum_dist[7] - 6.0 / 36.0).abs() < 1e-12);
    assert!((sum_dist[2] - 1.0 / 36.0).abs() < 1e-12);
}

#[test]
fn variable_depth_paths_weigh_right() {
    // Roll a d10; on 9 roll again: P(second roll happens and shows 0) = 1/100.
    let mut e = Enumerator::new();
    let mut p_reroll_zero = 0.0;
    let mut total = 0.0;
    e.for_each(
        1000,
        |d| {
            let a = d.d10();
            if a == 9 { Some(d.d10()) } else { None }
        },
        |_, v, p| {
            total += p;
            if v == Some(0) {
                p_reroll_zero += p
            }
        },
    )
    .unwrap();
    assert!((total - 1.0).abs() < 1e-15);
    assert!((p_reroll_zero - 0.01).abs() < 1e-15);
}

#[test]
fn budget_is_enforced() {
    let mut e = Enumerator::new();
    let r = e.for_each(50, |d| d.d10() + d.d10(), |_, _, _| {});
    assert_eq!(r, Err(EnumerationError::Budget { budget: 50 }));
}

#[test]
fn sampler_faces_are_in_range_and_balanced() {
    let mut s = Sampler::new(7);
    let mut c = [0u32; 10];
    let n = 200_000;
    for _ in 0..n {
        c[s.d10() as usize] += 1;
    }
    // Each face ~ Binomial(n, 0.1): sd = sqrt(n * .1 * .9) ~ 134; allow 5 sd.
    for (f, &k) in c.iter().enumerate() {
        assert!((k as f64 - 20_000.0).abs() < 5.0 * 134.2, "face {f}: {k}");
    }
    for _ in 0..1000 {
        let r = s.d(6);
        assert!((1..=6).contains(&r));
    }
}

#[test]
fn cost_table_matches_formula() {
    for s in 2..=MAX_SIDES as u32 {
        assert_eq!(cost_of(s), ((s as f64).log2() * 1024.0).ceil() as u16);
    }
    // Seven d10s share a word, an eighth does not.
    assert!(7 * cost_of(10) <= WORD_BUDGET && 8 * cost_of(10) > WORD_BUDGET);
}
