//! Heavy infantry musketry (10.0): one resolution = one salvo.

use criterion::{Criterion, criterion_group, criterion_main};

mod common;

fn musketry(c: &mut Criterion) {
    common::bench_course(c, "musketry", "scenarios/mpbs/salvo-vs-front.toml", "salvo");
}

criterion_group!(benches, musketry);
criterion_main!(benches);
