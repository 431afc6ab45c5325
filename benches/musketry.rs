//! Heavy infantry musketry (10.0) on its own: one resolution = one salvo.
//! The course "salvo" (with the morale check a salvo target takes, 10.6.3)
//! is benched too.

use criterion::{Criterion, criterion_group, criterion_main};

mod common;

const SCENARIO: &str = "scenarios/mpbs/salvo-vs-front.toml";

fn musketry(c: &mut Criterion) {
    common::bench_procedure(c, "musketry", "salvo", || {
        common::kernels::mpbs_step(SCENARIO, "salvo", 0)
    });
    common::bench_course(c, "musketry-course", SCENARIO, "salvo");
}

criterion_group!(benches, musketry);
criterion_main!(benches);
