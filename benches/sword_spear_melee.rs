//! Sword & Spear melee (Combat Process): one resolution = one round of six
//! dice against six (two pools, top four placed and paired, armour against
//! a unit lacking protection, Discipline tests, rout check). `compiled`
//! draws from the round's exact distribution (each side's pool tabulated as
//! multisets) through an alias table; `direct` rolls the dice. `exact` times
//! the exact distribution of the round itself, from its built procedure.

use criterion::{Criterion, criterion_group, criterion_main};
use pikeshot::Procedure;
use pikeshot::engine::exact::DEFAULT_BUDGET;

mod common;

fn sword_spear_melee(c: &mut Criterion) {
    common::bench_course(
        c,
        "sword-spear-melee",
        "scenarios/sword-and-spear/armoured-vs-lacking-protection.toml",
        "six against six, one round",
    );
    let round = common::kernels::six_v_six();
    c.bench_function("sword-spear-melee/exact/six against six, one round", |b| {
        b.iter(|| std::hint::black_box(round.exact(DEFAULT_BUDGET)))
    });
}

criterion_group!(benches, sword_spear_melee);
criterion_main!(benches);
