//! Sparse outcome spaces (`outcome::OutcomeSpace`): a course whose every
//! combination of outcome and measure values would not fit numbers only the
//! results it reaches, so its limit is its states. "keep firing" (front
//! fire traded each turn until one side breaks) of
//! `scenarios/mpbs/charge-or-salvo.toml`: 18 turns are dense, 50 sparse.

use std::collections::BTreeMap;

use pikeshot::engine::{Kernel, KernelMode};
use pikeshot::outcome::MAX_LEAVES;

use crate::support::course::{course, course_mode, exact_of};
use crate::support::monte_carlo::assert_course_sample;

/// "keep firing" on the series card over `turns` turns.
fn keep_firing(turns: u32) -> String {
    format!(
        r#"
system = "mpbs"
edition = "series"
[units.swedes]
kind = "heavy-infantry"
morale = 7
strength = 6
regimental_artillery = true
order = "charge"
[units.tercio]
kind = "heavy-infantry"
morale = 6
strength = 10
hexes = 2
terrain = "clear"
[[course]]
name = "keep firing"
steps = [
  {{ procedure = "musketry", firer = "swedes", target = "tercio", column = "front" }},
  {{ procedure = "musketry", firer = "tercio", target = "swedes", column = "front" }},
]
repeat = {{ turns = {turns}, until = ["enemy-broken", "own-broken"] }}
"#
    )
}

/// Each result of non-zero probability by what it reads (outcome id, then
/// each measure's id and value), with its probability.
fn results(k: &dyn Kernel) -> BTreeMap<(String, Vec<(String, i32)>), f64> {
    let s = k.space();
    let mut out = BTreeMap::new();
    for (leaf, p) in exact_of(k).into_iter().enumerate() {
        if p == 0.0 {
            continue;
        }
        let l = leaf as u32;
        let values = s
            .measures()
            .iter()
            .enumerate()
            .map(|(m, meas)| (meas.id().to_string(), s.value_of(l, m)))
            .collect();
        let key = (s.outcome_ids()[s.outcome_of(l)].clone(), values);
        assert!(out.insert(key, p).is_none(), "two leaves read the same");
    }
    out
}

/// The turn a result stopped on.
fn turn(key: &(String, Vec<(String, i32)>)) -> i32 {
    key.1.iter().find(|(m, _)| m == "turns").expect("turns").1
}

/// 50 turns build and solve exactly: the space numbers only the results
/// reached (far fewer than its combinations), they sum to 1, and every
/// result that stopped before turn 18 has exactly the probability the dense
/// 18-turn course gives it (the two courses are the same until then), read
/// through the sparse space's own numbering.
#[test]
fn a_long_course_numbers_only_the_results_it_reaches() {
    let dense = course(&keep_firing(18), "keep firing");
    assert!(!dense.space().is_sparse());
    let long = course(&keep_firing(50), "keep firing");
    let space = long.space();
    assert!(space.is_sparse());
    let combinations =
        pikeshot::outcome::OutcomeSpace::leaf_count(space.outcomes().len(), space.measures());
    assert!(combinations > MAX_LEAVES as u128, "{combinations}");
    assert!(space.len() <= MAX_LEAVES, "{}", space.len());
    let total: f64 = exact_of(long.as_ref()).iter().sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");

    let early = |k: &dyn Kernel| -> BTreeMap<_, f64> {
        results(k)
            .into_iter()
            .filter(|(key, _)| turn(key) < 18)
            .collect()
    };
    let (a, b) = (early(dense.as_ref()), early(long.as_ref()));
    assert!(!a.is_empty());
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "the same results stop before turn 18"
    );
    for (key, p) in &a {
        assert!(
            (p - b[key]).abs() < 1e-12,
            "{key:?}: {p} against {}",
            b[key]
        );
    }
    // Some courses run on past turn 18: the long course reports them.
    assert!(results(long.as_ref()).keys().any(|k| turn(k) > 18));
}

/// Trials of the 50-turn course, under both kernels, agree with its exact
/// answer (every outcome's and measure's marginal within the Monte Carlo
/// check's bound).
#[test]
fn monte_carlo_agrees_with_exact_on_a_sparse_course() {
    let text = keep_firing(50);
    let probs = exact_of(course(&text, "keep firing").as_ref());
    for mode in [KernelMode::Auto, KernelMode::Direct] {
        let k = course_mode(&text, "keep firing", mode);
        assert_course_sample(k.as_ref(), &probs, 50, "keep firing, 50 turns", mode);
    }
}
