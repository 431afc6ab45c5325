//! Sword & Spear melee (Combat Process): one resolution = one round of six
//! dice against six (two pools, top four placed and paired, armour against
//! a unit lacking protection, Discipline tests, rout check).

use criterion::{Criterion, criterion_group, criterion_main};

mod common;

fn sword_spear_melee(c: &mut Criterion) {
    common::bench_course(
        c,
        "sword-spear-melee",
        "scenarios/sword-and-spear/armoured-vs-lacking-protection.toml",
        "six against six, one round",
    );
}

criterion_group!(benches, sword_spear_melee);
criterion_main!(benches);
