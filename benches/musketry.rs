//! Heavy infantry musketry (10.0) on its own: one resolution = one salvo.
//! The course "salvo" (with the morale check a salvo target takes, 10.6.3)
//! is benched too.

use criterion::{Criterion, criterion_group, criterion_main};

mod common;

const SCENARIO: &str = "scenarios/mpbs/salvo-vs-front.toml";

fn musketry(c: &mut Criterion) {
    common::bench_mpbs_step(c, "musketry", SCENARIO, "salvo");
}

criterion_group!(benches, musketry);
criterion_main!(benches);
