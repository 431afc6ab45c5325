//! Close combat (11.0): one resolution = one d10 against the folded DRM.

use criterion::{Criterion, criterion_group, criterion_main};

mod common;

fn close_combat(c: &mut Criterion) {
    common::bench_course(
        c,
        "close-combat",
        "scenarios/mpbs/charge-or-salvo.toml",
        "charge now",
    );
}

criterion_group!(benches, close_combat);
criterion_main!(benches);
