//! Sword & Spear melee (Combat Process): one resolution = one round of six
//! dice against six (two pools, top four placed and paired, armour against
//! a unit lacking protection, Discipline tests, rout check). `compiled`
//! draws from the round's exact distribution (each side's pool tabulated as
//! multisets) through an alias table; `direct` rolls the dice. `exact` times
//! the exact distribution of the round itself, from its built procedure.

use criterion::{Criterion, criterion_group, criterion_main};
use pikeshot::Procedure;
use pikeshot::engine::exact::DEFAULT_BUDGET;
use pikeshot::systems::sword_spear::melee::{MeleeInput, MeleeRound};
use pikeshot::systems::sword_spear::troops::Troop;
use pikeshot::systems::sword_spear::unit::{Armour, Unit};

mod common;

fn sword_spear_melee(c: &mut Criterion) {
    common::bench_course(
        c,
        "sword-spear-melee",
        "scenarios/sword-and-spear/armoured-vs-lacking-protection.toml",
        "six against six, one round",
    );
    // The same round as the shipped scenario's: fresh large medium foot of
    // four, the warband charging, the legion armoured.
    let mut legion = Unit::new("legion", Troop::MediumFoot, 3, 4);
    legion.large = true;
    legion.armour = Armour::Armoured;
    let mut warband = Unit::new("warband", Troop::MediumFoot, 4, 4);
    warband.large = true;
    warband.armour = Armour::LackingProtection;
    let mut m = MeleeInput::new(warband, legion);
    m.sides[0].charged = true;
    let round = MeleeRound::new(&m, true).expect("the round builds");
    assert_eq!((round.dice()[0].total, round.dice()[1].total), (6, 6));
    c.bench_function("sword-spear-melee/exact/six against six, one round", |b| {
        b.iter(|| std::hint::black_box(round.exact(DEFAULT_BUDGET)))
    });
}

criterion_group!(benches, sword_spear_melee);
criterion_main!(benches);
