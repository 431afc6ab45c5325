//! Courses over unit states: a two-step course (salvo, then charge) and a
//! ten-turn engagement (bombardment until the casualty threshold); and the
//! growth of a long course's exact answer with its turns ("keep firing" of
//! `scenarios/mpbs/charge-or-salvo.toml` repeated 2, 10, 20 and 50 turns:
//! built and solved exactly, its states and the results it reaches
//! printed beside).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use pikeshot::engine::exact::DEFAULT_BUDGET;
use pikeshot::engine::{KernelMode, Method};
use pikeshot::run::{RunPlan, prepare_file};
use pikeshot::scenario::ScenarioFile;

mod common;

/// The benched courses: bench group, shipped scenario, course name.
const COURSES: [(&str, &str, &str); 2] = [
    (
        "two-step-course",
        "scenarios/mpbs/charge-or-salvo.toml",
        "salvo, then charge",
    ),
    (
        "ten-turn-engagement",
        "scenarios/mpbs/bombardment.toml",
        "bombard until threshold",
    ),
];

fn courses(c: &mut Criterion) {
    for (group, scenario, course) in COURSES {
        common::bench_course(c, group, scenario, course);
    }
}

/// "keep firing" (front fire traded each turn until one side breaks) on
/// the series card, over `turns` turns.
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

fn long_course(c: &mut Criterion) {
    let mut g = c.benchmark_group("keep-firing-exact");
    g.sample_size(10);
    let plan = RunPlan {
        method: Method::Exact,
        kernel: KernelMode::Direct,
        ..RunPlan::default()
    };
    for turns in [2u32, 10, 20, 50] {
        let text = keep_firing(turns);
        let solve = || {
            let file = ScenarioFile::from_str("keep-firing.toml", &text).expect("the scenario");
            let p = prepare_file(file, &plan).expect("the course builds");
            let k = &p.courses[0].kernel;
            let probs = k.exact(DEFAULT_BUDGET).expect("exact within budget");
            (probs.len(), probs.iter().filter(|&&x| x > 0.0).count())
        };
        let (leaves, reached) = solve();
        eprintln!("{turns} turns: {leaves} results numbered, {reached} of non-zero probability");
        g.bench_with_input(BenchmarkId::new("turns", turns), &turns, |b, _| {
            b.iter(|| std::hint::black_box(solve()))
        });
    }
    g.finish();
}

criterion_group!(benches, courses, long_course);
criterion_main!(benches);
