//! Courses over unit states: a two-step course (salvo, then charge) and a
//! ten-turn engagement (bombardment until the casualty threshold).

use criterion::{Criterion, criterion_group, criterion_main};

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

criterion_group!(benches, courses);
criterion_main!(benches);
