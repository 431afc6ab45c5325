//! Courses over unit states: a two-step course (salvo, then charge) and a
//! ten-turn engagement (bombardment until the casualty threshold).

use criterion::{Criterion, criterion_group, criterion_main};

mod common;

fn two_step(c: &mut Criterion) {
    common::bench_course(
        c,
        "two-step-course",
        "scenarios/mpbs/charge-or-salvo.toml",
        "salvo, then charge",
    );
}

fn engagement(c: &mut Criterion) {
    common::bench_course(
        c,
        "ten-turn-engagement",
        "scenarios/mpbs/bombardment.toml",
        "bombard until threshold",
    );
}

criterion_group!(benches, two_step, engagement);
criterion_main!(benches);
