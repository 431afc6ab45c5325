//! The figures, proven: on every course of every variant of every shipped
//! scenario (every one enumerates), the Monte Carlo kernels' whole leaf
//! distribution against the exact one, by a chi-square goodness-of-fit
//! test, and the coverage of the 95% Wilson intervals across all cells.

use pikeshot::engine::{self, KernelMode, RunOptions, Task, stream_id};
use pikeshot::run::{RunPlan, prepare};
use pikeshot::stats;

use super::shipped;

/// Trials of each course under each kernel mode.
const TRIALS: u64 = 100_000;

/// The family-wise significance level: each test's p-value must exceed
/// `ALPHA / m` for `m` tests (Bonferroni).
const ALPHA: f64 = 0.001;

/// Smallest expected count of a cell of its own; smaller cells are pooled.
const MIN_EXPECTED: f64 = 5.0;

/// ln Γ(x) for x > 0 (Lanczos, g = 7, nine terms; relative error ~1e-15).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + 7.5;
    let sum: f64 = G[0] + (1..9).map(|i| G[i] / (x + i as f64)).sum::<f64>();
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// The regularized upper incomplete gamma function Q(a, x): the series for
/// x < a + 1, Lentz's continued fraction above (Numerical Recipes 6.2).
fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let ln_front = a * x.ln() - x - ln_gamma(a);
    if x < a + 1.0 {
        let (mut term, mut sum, mut n) = (1.0 / a, 1.0 / a, a);
        for _ in 0..10_000 {
            n += 1.0;
            term *= x / n;
            sum += term;
            if term.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        1.0 - sum * ln_front.exp()
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let del = d * c;
            h *= del;
            if (del - 1.0).abs() < 1e-16 {
                break;
            }
        }
        ln_front.exp() * h
    }
}

/// P(X >= x) for X chi-square with `df` degrees of freedom.
fn chi_square_p(x: f64, df: usize) -> f64 {
    gamma_q(df as f64 / 2.0, x / 2.0)
}

#[test]
fn chi_square_tail_matches_published_critical_values() {
    // The 5% and 0.1% points of the chi-square distribution (any table,
    // e.g. NIST/SEMATECH e-Handbook 1.3.6.7.4), to their printed digits.
    for (x, df, p) in [
        (3.841, 1, 0.05),
        (10.828, 1, 0.001),
        (5.991, 2, 0.05),
        (18.307, 10, 0.05),
        (29.588, 10, 0.001),
        (124.342, 100, 0.05),
        (149.449, 100, 0.001),
    ] {
        let got = chi_square_p(x, df);
        assert!((got - p).abs() < p * 2e-3, "df {df}, x {x}: {got} vs {p}");
    }
    // df = 2 is exp(-x/2) exactly.
    assert!((chi_square_p(7.0, 2) - (-3.5f64).exp()).abs() < 1e-14);
}

/// A chi-square statistic and its degrees of freedom over cells of
/// (observed, expected) counts: cells expected below [`MIN_EXPECTED`] are
/// pooled, smallest first, into one cell (joined to the smallest other
/// cell while still below). `None` when fewer than two cells remain.
fn chi_square(cells: &[(f64, f64)]) -> Option<(f64, usize)> {
    let mut sorted: Vec<(f64, f64)> = cells
        .iter()
        .copied()
        .filter(|c| c.1 > 0.0 || c.0 > 0.0)
        .collect();
    sorted.sort_by(|a, b| a.1.total_cmp(&b.1));
    let mut kept: Vec<(f64, f64)> = Vec::new();
    let mut pool = (0.0, 0.0);
    for (o, e) in sorted {
        if e < MIN_EXPECTED {
            pool.0 += o;
            pool.1 += e;
        } else {
            kept.push((o, e));
        }
    }
    if pool.1 > 0.0 || pool.0 > 0.0 {
        if pool.1 < MIN_EXPECTED && !kept.is_empty() {
            kept[0].0 += pool.0;
            kept[0].1 += pool.1;
        } else {
            kept.push(pool);
        }
    }
    if kept.len() < 2 {
        return None;
    }
    let x: f64 = kept.iter().map(|&(o, e)| (o - e) * (o - e) / e).sum();
    Some((x, kept.len() - 1))
}

#[test]
fn pooling_keeps_large_cells_and_gathers_small_ones() {
    // Cells of 50, 30, 15, 3 and 2 expected: the last two pool into one of
    // 5 expected; 4 cells, 3 degrees of freedom.
    // (52-50)^2/50 + (28-30)^2/30 + (15-15)^2/15 + (5-5)^2/5
    //   = 0.08 + 0.1333… + 0 + 0.
    let (x, df) = chi_square(&[
        (52.0, 50.0),
        (28.0, 30.0),
        (15.0, 15.0),
        (4.0, 3.0),
        (1.0, 2.0),
    ])
    .unwrap();
    assert_eq!(df, 3);
    assert!((x - (0.08 + 4.0 / 30.0)).abs() < 1e-12, "{x}");
    // A pool still below 5 joins the smallest kept cell: (10+1)… with 1+1
    // expected joined to 10 expected: cells (12 vs 12) and (90 vs 88).
    let (x, df) = chi_square(&[(90.0, 88.0), (10.0, 10.0), (2.0, 1.0), (0.0, 1.0)]).unwrap();
    assert_eq!(df, 1);
    assert!((x - 4.0 / 88.0).abs() < 1e-12, "{x}");
    // One cell: nothing to test.
    assert_eq!(chi_square(&[(100.0, 100.0)]), None);
}

/// Every shipped course under both kernels: its leaf counts against exact
/// by chi-square (Bonferroni over all of them, family-wise 0.001), and
/// across all cells with at least [`MIN_EXPECTED`] expected trials, the
/// share whose 95% Wilson interval holds the exact probability lies
/// between 93% and 97%. Seeds are fixed (the run's own streams: seed 2026,
/// each course's variant identity and name), so the test is deterministic.
#[test]
fn monte_carlo_fits_exact_on_every_shipped_course() {
    let mut results: Vec<(String, f64, usize)> = Vec::new();
    let (mut covered, mut cells) = (0u64, 0u64);
    for path in shipped() {
        for mode in [KernelMode::Auto, KernelMode::Direct] {
            let req = RunPlan {
                kernel: mode,
                ..RunPlan::default()
            };
            let p = prepare(&path, &req).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let tasks: Vec<Task> = p
                .courses
                .iter()
                .map(|c| Task {
                    variant: stream_id(&c.identity),
                    course: stream_id(&c.name),
                    kernel: c.kernel.as_ref(),
                })
                .collect();
            let opts = RunOptions {
                trials: TRIALS,
                seed: 2026,
                method: engine::Method::Both,
                ..RunOptions::default()
            };
            let tallies = engine::Threads::new(None)
                .unwrap()
                .run(&tasks, &opts)
                .unwrap();
            for (pc, t) in p.courses.iter().zip(&tallies) {
                let (v, c) = (&pc.variant, &pc.name);
                let exact = t.exact.as_ref().unwrap_or_else(|| panic!("{c}: no exact"));
                let n = t.trials as f64;
                let pairs: Vec<(f64, f64)> = t
                    .counts
                    .iter()
                    .zip(exact)
                    .map(|(&o, &q)| (o as f64, q * n))
                    .collect();
                for (&k, &q) in t.counts.iter().zip(exact) {
                    if q * n >= MIN_EXPECTED {
                        let (lo, hi) = stats::wilson(k, t.trials);
                        cells += 1;
                        covered += u64::from(lo <= q && q <= hi);
                    }
                }
                if let Some((x, df)) = chi_square(&pairs) {
                    let file = path
                        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                        .unwrap_or(&path);
                    let name = format!("{} [{v}] {c} ({mode:?})", file.display());
                    results.push((name, chi_square_p(x, df), df));
                }
            }
        }
    }
    let m = results.len();
    assert!(m > 100, "only {m} tests");
    let (worst, p, df) = results
        .iter()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .expect("tests");
    let coverage = covered as f64 / cells as f64;
    println!(
        "chi-square: {m} courses x kernels, worst p = {p:.3e} ({worst}, {df} df), Bonferroni threshold {:.3e}; 95% interval coverage {covered}/{cells} = {:.2}%",
        ALPHA / m as f64,
        100.0 * coverage
    );
    assert!(*p > ALPHA / m as f64, "{worst}: p = {p} below {ALPHA}/{m}");
    assert!((0.93..=0.97).contains(&coverage), "coverage {coverage}");
}
