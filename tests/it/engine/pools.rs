//! Exact dice pools face by face, against binomials and sums worked by hand (`engine::pools`).

use pikeshot::engine::pools::*;

#[test]
fn binomial_rows_sum_to_one() {
    for m in [0, 1, 5, 30, 120] {
        for f in 1..=6 {
            let s: f64 = binomial(m, f).iter().sum();
            assert!((s - 1.0).abs() < 1e-12, "m={m} f={f}: {s}");
        }
    }
    // Binomial(2, 1/2) = 1/4, 1/2, 1/4; Binomial(4, 1/6) by hand.
    assert_eq!(binomial(2, 2), vec![0.25, 0.5, 0.25]);
    let b = binomial(4, 6);
    for (k, ways) in [625.0, 500.0, 150.0, 20.0, 1.0].into_iter().enumerate() {
        assert!((b[k] - ways / 1296.0).abs() < 1e-15, "{k}");
    }
}

#[test]
fn sum_of_two_d6_by_faces() {
    let d = count_distribution(2, 6, |f, k| f as u32 * k);
    for (s, &p) in d.iter().enumerate().skip(2) {
        let ways = 6 - (7i32 - s as i32).abs();
        assert!((p - ways as f64 / 36.0).abs() < 1e-15, "sum {s}");
    }
    assert_eq!(d[0] + d[1], 0.0);
}

#[test]
fn count_of_sixes_is_binomial() {
    let d = count_distribution(12, 6, |f, k| if f == 6 { k } else { 0 });
    let b = binomial(12, 6);
    for (x, y) in d.iter().zip(&b) {
        assert!((x - y).abs() < 1e-15);
    }
}

#[test]
fn top_faces_only_equal_every_face() {
    let stat = |s: &(u32, u32), face: u8, k: u32| match face {
        6 => (k, s.1),
        5 => (s.0, k),
        _ => *s,
    };
    let mut all = evaluate(9, 6, (0, 0), stat);
    let mut top = evaluate_top(9, 6, 2, (0, 0), stat);
    all.sort_by_key(|(s, _)| *s);
    top.sort_by_key(|(s, _)| *s);
    assert_eq!(all.len(), top.len());
    for ((a, p), (b, q)) in all.iter().zip(&top) {
        assert_eq!(a, b);
        assert!((p - q).abs() < 1e-15);
    }
}

#[test]
fn highest_face_of_three_d6() {
    // P(max = m) = (m^3 - (m-1)^3) / 216.
    let states = evaluate(
        3,
        6,
        0u8,
        |best, face, k| {
            if *best == 0 && k > 0 { face } else { *best }
        },
    );
    for m in 1..=6u8 {
        let p: f64 = states.iter().filter(|(s, _)| *s == m).map(|(_, p)| p).sum();
        let want = (m as f64).powi(3) - (m as f64 - 1.0).powi(3);
        assert!((p - want / 216.0).abs() < 1e-15, "max {m}");
    }
}
