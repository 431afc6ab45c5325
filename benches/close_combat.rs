//! Close combat (11.0) on its own: one resolution = one d10 against the
//! folded DRM. The course "charge now" (close combat with the rolls a
//! course adds after it) is benched too.

use criterion::{Criterion, criterion_group, criterion_main};

mod common;

const SCENARIO: &str = "scenarios/mpbs/charge-or-salvo.toml";

fn close_combat(c: &mut Criterion) {
    common::bench_mpbs_step(c, "close-combat", SCENARIO, "charge now");
}

criterion_group!(benches, close_combat);
criterion_main!(benches);
