//! Close combat (11.0) on its own: one resolution = one d10 against the
//! folded DRM. The course "charge now" (close combat with the rolls a
//! course adds after it) is benched too.

use criterion::{Criterion, criterion_group, criterion_main};

mod common;

const SCENARIO: &str = "scenarios/mpbs/charge-or-salvo.toml";

fn close_combat(c: &mut Criterion) {
    common::bench_procedure(c, "close-combat", "charge now", || {
        common::kernels::mpbs_step(SCENARIO, "charge now", 0)
    });
    common::bench_course(c, "close-combat-course", SCENARIO, "charge now");
}

criterion_group!(benches, close_combat);
criterion_main!(benches);
