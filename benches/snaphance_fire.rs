//! Snaphance fire: one resolution = a 12-SP stand's pool of twelve d6 and
//! the target's morale test, from the alias table of its exact distribution
//! ("compiled") and die by die ("direct"); and the exact distributions of
//! 12- and 30-die fire pools, one face at a time.

use criterion::{Criterion, criterion_group, criterion_main};
use pikeshot::procedure::Procedure;
use pikeshot::systems::snaphance::fire::{Fire, FireInput};
use pikeshot::systems::snaphance::{Kind, Readings, Stand};

mod common;

fn fire(c: &mut Criterion) {
    common::bench_course(
        c,
        "snaphance-fire",
        "scenarios/snaphance/volley-12-sp.toml",
        "volley",
    );
}

fn exact_pools(c: &mut Criterion) {
    let mut g = c.benchmark_group("snaphance-exact-pool");
    for n in [12u8, 30] {
        let f = Fire::new(
            &Stand::new("firer", Kind::Shot, n),
            &Stand::new("target", Kind::PikeAndShot, 6),
            &FireInput::default(),
            &Readings::default(),
        )
        .expect("a plain volley builds");
        g.bench_function(format!("{n} dice with morale test"), |b| {
            b.iter(|| std::hint::black_box(f.exact(0)))
        });
    }
    g.finish();
}

criterion_group!(benches, fire, exact_pools);
criterion_main!(benches);
