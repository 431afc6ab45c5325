//! Shared bench helpers: build a course's kernel from a shipped scenario and
//! time whole chunks of trials, reported as resolutions per second.

// Each bench binary uses only some of these helpers.
#![allow(dead_code)]

use std::path::Path;

use criterion::{BenchmarkId, Criterion, Throughput};
use pikeshot::Sampler;
use pikeshot::engine::{CHUNK, Kernel, KernelMode};
use pikeshot::run::{RunRequest, prepare};

/// The repository root (this package is its `benches/` folder), which
/// scenario paths are relative to.
const REPO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The kernel of `course` (of the first sweep variant) in a shipped
/// scenario, built with `mode`.
pub fn kernel(scenario: &str, course: &str, mode: KernelMode) -> Box<dyn Kernel> {
    let req = RunRequest {
        kernel: mode,
        ..RunRequest::default()
    };
    let path = Path::new(REPO).join(scenario);
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

/// The Musket & Pike procedure of step `step` of `course` in a shipped
/// scenario, built on its own (without the rolls a course adds around it,
/// such as the morale checks a salvo triggers).
pub fn mpbs_step(
    scenario: &str,
    course: &str,
    step: usize,
) -> pikeshot::systems::mpbs::course::Step {
    use pikeshot::scenario::ScenarioFile;
    use pikeshot::systems::mpbs::{Edition, Unit, course::build_step};
    let path = Path::new(REPO).join(scenario);
    let file = ScenarioFile::load(&path).expect("shipped scenario loads");
    let variant = file.variants().expect("variants").remove(0);
    let mut f = file.fields(&variant);
    let edition = f
        .named("edition", "edition", Edition::from_name, &["sfo", "series"])
        .expect("edition")
        .expect("edition");
    let units: Vec<Unit> = f
        .named_tables("units")
        .expect("units")
        .expect("units")
        .into_iter()
        .map(|(name, mut uf)| Unit::from_fields(&name, &mut uf, edition).expect("unit"))
        .collect();
    let mut c = f
        .table_list("course")
        .expect("courses")
        .expect("courses")
        .into_iter()
        .find(|cf| cf.peek_string("name").as_deref() == Some(course))
        .expect("course");
    let mut sf = c
        .table_list("steps")
        .expect("steps")
        .expect("steps")
        .remove(step);
    let name = sf.peek_string("procedure").expect("procedure");
    build_step(&name, &mut sf, &units, edition).expect("step builds")
}

/// Benches one chunk of trials of a bare procedure on one core, in both
/// kernel modes.
pub fn bench_procedure<P: pikeshot::Procedure + 'static>(
    c: &mut Criterion,
    group: &str,
    name: &str,
    make: impl Fn() -> P,
) {
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(CHUNK));
    for (mode_name, mode) in [
        ("compiled", KernelMode::Auto),
        ("direct", KernelMode::Direct),
    ] {
        let k = pikeshot::engine::ProcedureKernel::boxed(make(), mode);
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
