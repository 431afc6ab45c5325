//! Shared bench helpers: build a course's kernel from a shipped scenario and
//! time whole chunks of trials, reported as resolutions per second.

// Each bench binary uses only some of these helpers.
#![allow(dead_code)]

pub mod kernels;

use criterion::{BenchmarkId, Criterion, Throughput};
use kernels::kernel;
use pikeshot::Sampler;
use pikeshot::engine::{CHUNK, Kernel, KernelMode};

/// Benches one chunk of trials of `course` on one core, in both kernel modes.
pub fn bench_course(c: &mut Criterion, group: &str, scenario: &str, course: &str) {
    bench_modes(c, group, course, |mode| kernel(scenario, course, mode));
}

/// Benches one chunk of trials of a bare procedure on one core, in both
/// kernel modes.
pub fn bench_procedure<P: pikeshot::Procedure + 'static>(
    c: &mut Criterion,
    group: &str,
    name: &str,
    make: impl Fn() -> P,
) {
    bench_modes(c, group, name, |mode| {
        pikeshot::engine::ProcedureKernel::boxed(make(), mode)
    });
}

/// Benches a Musket & Pike step of a shipped scenario on its own, as
/// `group` (step 0 of `course`, without the rolls a course adds around it),
/// and the whole course, as `group`-course.
pub fn bench_mpbs_step(c: &mut Criterion, group: &str, scenario: &str, course: &str) {
    bench_procedure(c, group, course, || kernels::mpbs_step(scenario, course, 0));
    bench_course(c, &format!("{group}-course"), scenario, course);
}

/// Benches one chunk of trials of the kernel `make` builds in each kernel
/// mode ("compiled", "direct"), on one core, as `group`/MODE/`name`.
fn bench_modes(
    c: &mut Criterion,
    group: &str,
    name: &str,
    make: impl Fn(KernelMode) -> Box<dyn Kernel>,
) {
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(CHUNK));
    for (mode_name, mode) in [
        ("compiled", KernelMode::Auto),
        ("direct", KernelMode::Direct),
    ] {
        let k = make(mode);
        let mut counts = vec![0u64; k.space().len()];
        let mut rng = Sampler::new(1);
        g.bench_with_input(BenchmarkId::new(mode_name, name), &(), |b, _| {
            b.iter(|| {
                k.sample(&mut rng, CHUNK, &mut counts);
                std::hint::black_box(&counts);
            })
        });
    }
    g.finish();
}
