//! The kernel a course is sampled by (`engine::choose`): a compiled table
//! with packed counters where one fits, else an alias table over the exact
//! distribution, die by die only when that does not enumerate; and what
//! `timing.csv` says of it.

use std::path::Path;

use pikeshot::dice::{Dice, Sampler};
use pikeshot::engine::choose::Chosen;
use pikeshot::engine::{Kernel, KernelKind, KernelMode, ProcedureKernel};
use pikeshot::outcome::{Leaf, OutcomeSpace};
use pikeshot::procedure::Procedure;
use pikeshot::run::{RunPlan, prepare};

use crate::support::cli::run_to;

/// The sum of two d6 less two: 11 leaves, more than packed counters hold.
#[derive(Debug)]
struct TwoD6(OutcomeSpace);

impl TwoD6 {
    fn new() -> TwoD6 {
        let labels: Vec<String> = (2..=12).map(|s| format!("sum-{s}")).collect();
        TwoD6(OutcomeSpace::new(labels, vec![]))
    }
}

impl Procedure for TwoD6 {
    fn space(&self) -> &OutcomeSpace {
        &self.0
    }
    fn resolve<D: Dice>(&self, d: &mut D) -> Leaf {
        (d.d6() + d.d6() - 2) as Leaf
    }
}

/// One d6: six leaves, a compiled table with packed counters.
#[derive(Debug)]
struct OneD6(OutcomeSpace);

impl Procedure for OneD6 {
    fn space(&self) -> &OutcomeSpace {
        &self.0
    }
    fn resolve<D: Dice>(&self, d: &mut D) -> Leaf {
        (d.d6() - 1) as Leaf
    }
}

/// P(2d6 = s) = (6 - |s - 7|) / 36.
fn two_d6(s: usize) -> f64 {
    (6.0 - (s as f64 - 7.0).abs()) / 36.0
}

/// Asserts `counts` of `n` trials lie within 4 standard errors of `exact`.
#[track_caller]
fn within_4_se(counts: &[u64], n: u64, exact: impl Fn(usize) -> f64) {
    assert_eq!(counts.iter().sum::<u64>(), n);
    for (i, &c) in counts.iter().enumerate() {
        let p = exact(i);
        let se = (p * (1.0 - p) / n as f64).sqrt();
        let got = c as f64 / n as f64;
        assert!((got - p).abs() <= 4.0 * se, "leaf {i}: {got} against {p}");
    }
}

#[test]
fn eleven_leaves_take_the_alias_table_six_the_compiled_one() {
    let k = Chosen::new(TwoD6::new(), KernelMode::Auto);
    assert_eq!(k.kind(), KernelKind::Alias);
    let faces: Vec<String> = (1..=6).map(|f| format!("face-{f}")).collect();
    let d6 = Chosen::new(OneD6(OutcomeSpace::new(faces, vec![])), KernelMode::Auto);
    assert_eq!(d6.kind(), KernelKind::Compiled);
    let direct = Chosen::new(TwoD6::new(), KernelMode::Direct);
    assert_eq!(direct.kind(), KernelKind::DieByDie);
    // Whatever the kernel, the trials follow 2d6: (6 - |s - 7|) / 36.
    let n = 400_001;
    for k in [&k, &direct] {
        let mut counts = vec![0u64; 11];
        k.sample(&mut Sampler::new(5), n, &mut counts);
        within_4_se(&counts, n, |i| two_d6(i + 2));
    }
}

/// The compiled table of more than ten leaves (grouped draws looked up per
/// trial, no division) follows 2d6 too.
#[test]
fn a_compiled_table_of_many_leaves_follows_its_procedure() {
    let k = ProcedureKernel::new(TwoD6::new(), KernelMode::Auto);
    assert!(k.table().is_some_and(|t| !t.is_packed()));
    let n = 400_003;
    let mut counts = vec![0u64; 11];
    k.sample(&mut Sampler::new(9), n, &mut counts);
    within_4_se(&counts, n, |i| two_d6(i + 2));
}

/// The courses that rolled die by die or through a compiled table with
/// more than ten leaves are alias tables now; those that fit packed
/// counters stay compiled.
#[test]
fn shipped_courses_take_the_fastest_table() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let kind = |scenario: &str, course: &str| {
        let p = prepare(&root.join(scenario), &RunPlan::default()).unwrap();
        p.courses
            .iter()
            .find(|c| c.name == course)
            .unwrap_or_else(|| panic!("{scenario}: no course {course}"))
            .kernel
            .kind()
    };
    for (scenario, course, want) in [
        (
            "scenarios/mpbs/bombardment.toml",
            "bombard until threshold",
            KernelKind::Alias,
        ),
        (
            "scenarios/hakkaa/musketeers-vs-pike.toml",
            "one volley",
            KernelKind::Alias,
        ),
        (
            "scenarios/mpbs/charge-or-salvo.toml",
            "salvo, then charge",
            KernelKind::Alias,
        ),
        (
            "scenarios/mpbs/charge-or-salvo.toml",
            "charge now",
            KernelKind::Compiled,
        ),
    ] {
        assert_eq!(kind(scenario, course), want, "{scenario}: {course}");
    }
}

/// `timing.csv` names each course's kernel.
#[test]
fn timing_csv_names_the_kernel() {
    let tmp = tempfile::tempdir().unwrap();
    for (mode, want) in [("auto", "alias table"), ("direct", "die by die")] {
        let out = tmp.path().join(mode);
        run_to(
            "scenarios/mpbs/bombardment.toml",
            &[
                "--trials", "70000", "-q", "--plots", "none", "--kernel", mode,
            ],
            &out,
        );
        let text = std::fs::read_to_string(out.join("timing.csv")).unwrap();
        let mut lines = text.lines();
        assert!(lines.next().unwrap().ends_with(",kernel"));
        for line in lines {
            assert!(line.ends_with(&format!(",{want}")), "{mode}: {line}");
        }
    }
}
