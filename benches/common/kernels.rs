//! The kernels the throughput floors guard (`benches/floors.rs`,
//! `benches/floors.toml`), each built from a shipped scenario or from the
//! card's procedure, and the builders the criterion benches share.
//!
//! This file uses only `pikeshot` (no criterion), so that the integration
//! tests can include it and check that `floors.toml` names exactly these
//! kernels.

use std::path::{Path, PathBuf};

use pikeshot::Sampler;
use pikeshot::engine::{Kernel, KernelMode};
use pikeshot::run::{Method, RunPlan, prepare};

/// The repository root, which scenario paths are relative to: the manifest
/// folder of the package that includes this file (the root when the tests
/// do), or its parent (`benches/`, the benches package).
fn repo() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    if here.join("scenarios").is_dir() {
        here.to_path_buf()
    } else {
        here.join("..")
    }
}

/// Trials per call of a Monte Carlo kernel: short enough for a fine-grained
/// timing loop, long enough that the call itself costs nothing.
const BATCH: u64 = 4096;

/// One call of a guarded kernel: resolves a batch and returns how many
/// resolutions it made.
pub type Runner = Box<dyn FnMut() -> u64>;

/// A kernel the floors guard.
pub struct Guarded {
    /// Its key in `floors.toml`.
    pub name: &'static str,
    /// What one resolution is, for the table.
    pub what: &'static str,
    /// Builds the runner (scenario parsing and table building are not timed).
    pub build: fn() -> Runner,
}

/// Every guarded kernel, in the order of the table.
pub fn guarded() -> Vec<Guarded> {
    let g = |name, what, build| Guarded { name, what, build };
    vec![
        g("close-combat", "close combat 11.0, compiled", || {
            procedure(
                mpbs_step(CHARGE_OR_SALVO, "charge now", 0),
                KernelMode::Auto,
            )
        }),
        g(
            "close-combat-direct",
            "close combat 11.0, die by die",
            || {
                procedure(
                    mpbs_step(CHARGE_OR_SALVO, "charge now", 0),
                    KernelMode::Direct,
                )
            },
        ),
        g(
            "charge-now-course",
            "course \"charge now\", compiled",
            || course(CHARGE_OR_SALVO, "charge now", KernelMode::Auto),
        ),
        g("musketry", "salvo musketry 10.0, compiled", || {
            procedure(
                mpbs_step("scenarios/mpbs/salvo-vs-front.toml", "salvo", 0),
                KernelMode::Auto,
            )
        }),
        g(
            "salvo-course",
            "course \"salvo\" with morale, compiled",
            || {
                course(
                    "scenarios/mpbs/salvo-vs-front.toml",
                    "salvo",
                    KernelMode::Auto,
                )
            },
        ),
        g("salvo-then-charge", "two-step course, alias table", || {
            course(CHARGE_OR_SALVO, "salvo, then charge", KernelMode::Auto)
        }),
        g(
            "ten-turn-engagement",
            "bombardment until threshold, alias table",
            || {
                course(
                    "scenarios/mpbs/bombardment.toml",
                    "bombard until threshold",
                    KernelMode::Auto,
                )
            },
        ),
        g("hakkaa-fire", "Hakkaa Päälle volley, alias table", || {
            course(
                "scenarios/hakkaa/musketeers-vs-pike.toml",
                "one volley",
                KernelMode::Auto,
            )
        }),
        g(
            "snaphance-volley",
            "Snaphance 12-SP volley + morale",
            || {
                course(
                    "scenarios/snaphance/volley-12-sp.toml",
                    "volley",
                    KernelMode::Auto,
                )
            },
        ),
        g("snaphance-exact-12", "exact 12-die pool + morale", || {
            use pikeshot::procedure::Procedure;
            use pikeshot::systems::snaphance::fire::{Fire, FireInput};
            use pikeshot::systems::snaphance::{Kind, Readings, Stand};
            let f = Fire::new(
                &Stand::new("firer", Kind::Shot, 12),
                &Stand::new("target", Kind::PikeAndShot, 6),
                &FireInput::default(),
                &Readings::default(),
            )
            .expect("a plain volley builds");
            Box::new(move || {
                std::hint::black_box(f.exact(0));
                1
            })
        }),
        g("snaphance-exact-60", "exact 60-die pool + morale", || {
            use pikeshot::procedure::Procedure;
            use pikeshot::systems::snaphance::fire::{Fire, FireInput};
            use pikeshot::systems::snaphance::{Kind, Readings, Stand};
            let f = Fire::new(
                &Stand::new("firer", Kind::Shot, 60),
                &Stand::new("target", Kind::PikeAndShot, 6),
                &FireInput::default(),
                &Readings::default(),
            )
            .expect("a 60-die volley builds");
            Box::new(move || {
                std::hint::black_box(f.exact(0));
                1
            })
        }),
        g(
            "exact-sweep",
            "a charge-or-salvo variant, built and exact",
            exact_sweep,
        ),
        g("sword-spear-melee", "S&S six-v-six melee round", || {
            course(SWORD_SPEAR, SIX_V_SIX, KernelMode::Auto)
        }),
        g("sword-spear-exact", "S&S exact six-v-six round", || {
            use pikeshot::Procedure;
            use pikeshot::engine::exact::DEFAULT_BUDGET;
            let round = six_v_six();
            Box::new(move || {
                std::hint::black_box(round.exact(DEFAULT_BUDGET));
                1
            })
        }),
    ]
}

const CHARGE_OR_SALVO: &str = "scenarios/mpbs/charge-or-salvo.toml";
const SWORD_SPEAR: &str = "scenarios/sword-and-spear/armoured-vs-lacking-protection.toml";
const SIX_V_SIX: &str = "six against six, one round";

/// The Sword & Spear round of the shipped scenario's six-against-six
/// course, built as a procedure of its own (its exact distribution is then
/// computed, not read from the course's table): fresh large medium foot of
/// four, the warband charging, the legion armoured.
pub fn six_v_six() -> pikeshot::systems::sword_spear::melee::MeleeRound {
    use pikeshot::systems::sword_spear::melee::{MeleeInput, MeleeRound};
    use pikeshot::systems::sword_spear::troops::Troop;
    use pikeshot::systems::sword_spear::unit::{Armour, Unit};
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
    round
}

/// One call: the shipped charge-or-salvo file read and each of its
/// variants (both cards) built and solved exactly, course by course, as
/// `--method exact` does; counts variants.
fn exact_sweep() -> Runner {
    use pikeshot::engine::exact::DEFAULT_BUDGET;
    let path = repo().join(CHARGE_OR_SALVO);
    let plan = RunPlan {
        method: Method::Exact,
        kernel: KernelMode::Direct,
        ..RunPlan::default()
    };
    Box::new(move || {
        let p = prepare(&path, &plan).expect("shipped scenario builds");
        let mut variants = std::collections::BTreeSet::new();
        for c in &p.courses {
            std::hint::black_box(c.kernel.exact(DEFAULT_BUDGET).expect("exact within budget"));
            variants.insert(c.variant.clone());
        }
        variants.len() as u64
    })
}

/// The reference every kernel's throughput is divided by: raw
/// xoshiro256++ words, summed so that none is optimised away.
pub fn reference() -> Runner {
    let mut rng = Sampler::new(7);
    Box::new(move || {
        let mut acc = 0u64;
        for _ in 0..BATCH {
            acc = acc.wrapping_add(rng.next_word());
        }
        std::hint::black_box(acc);
        BATCH
    })
}

/// A runner of `k`: a batch of trials a call.
fn sampling(k: Box<dyn Kernel>) -> Runner {
    let mut counts = vec![0u64; k.space().len()];
    let mut rng = Sampler::new(1);
    Box::new(move || {
        k.sample(&mut rng, BATCH, &mut counts);
        std::hint::black_box(&counts);
        BATCH
    })
}

/// A runner of a course of a shipped scenario.
fn course(scenario: &str, name: &str, mode: KernelMode) -> Runner {
    sampling(kernel(scenario, name, mode))
}

/// A runner of a bare procedure.
fn procedure<P: pikeshot::Procedure + 'static>(p: P, mode: KernelMode) -> Runner {
    sampling(pikeshot::engine::ProcedureKernel::boxed(p, mode))
}

/// The kernel of `course` (of the first sweep variant) in a shipped
/// scenario, built with `mode`.
pub fn kernel(scenario: &str, course: &str, mode: KernelMode) -> Box<dyn Kernel> {
    let plan = RunPlan {
        kernel: mode,
        ..RunPlan::default()
    };
    let path = repo().join(scenario);
    let p = prepare(&path, &plan).expect("shipped scenario builds");
    p.courses
        .into_iter()
        .find(|c| c.name == course)
        .map(|c| c.kernel)
        .unwrap_or_else(|| panic!("no course {course} in {scenario}"))
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
    let path = repo().join(scenario);
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
