//! A two-step course (salvo, then charge) over unit states.

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

criterion_group!(benches, two_step);
criterion_main!(benches);
