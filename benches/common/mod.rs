//! Shared bench helpers: build a course's kernel from a shipped scenario and
//! time whole chunks of trials, reported as resolutions per second.

use std::path::Path;

use criterion::{BenchmarkId, Criterion, Throughput};
use pikeshot::Sampler;
use pikeshot::engine::{CHUNK, Kernel, KernelMode};
use pikeshot::run::{RunRequest, prepare};

/// The kernel of `course` (of the first sweep variant) in a shipped
/// scenario, built with `mode`.
pub fn kernel(scenario: &str, course: &str, mode: KernelMode) -> Box<dyn Kernel> {
    let req = RunRequest {
        kernel: mode,
        ..RunRequest::default()
    };
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(scenario);
    let p = prepare(&path, &req).expect("shipped scenario builds");
    p.courses
        .into_iter()
        .find(|(_, c, _)| c == course)
        .map(|(_, _, k)| k)
        .unwrap_or_else(|| panic!("no course {course} in {scenario}"))
}

/// Benches one chunk of trials of `course` on one core, in both kernel modes.
pub fn bench_course(c: &mut Criterion, group: &str, scenario: &str, course: &str) {
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(CHUNK));
    for (name, mode) in [
        ("compiled", KernelMode::Auto),
        ("direct", KernelMode::Direct),
    ] {
        let k = kernel(scenario, course, mode);
        let mut counts = vec![0u64; k.space().len()];
        let mut rng = Sampler::new(1);
        g.bench_with_input(BenchmarkId::new(name, course), &(), |b, _| {
            b.iter(|| {
                k.sample(&mut rng, CHUNK, &mut counts);
                std::hint::black_box(&counts);
            })
        });
    }
    g.finish();
}
