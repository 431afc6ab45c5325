//! A fifth rule system is one folder and one line: a toy system, built and
//! registered only here, runs through the same public paths as the four
//! shipped ones — reading a scenario (its `system` looked up in a
//! registry), `list`, `run` (exact and Monte Carlo), `explain` (the
//! default every system has) and the page's metadata — with no file
//! outside this test changed.
//!
//! The toy: each unit rolls `dice` d6 and hits on a 5 or a 6. With 2 dice,
//! P(no hit) = (4/6)^2 = 4/9, so P(at least one hit) = 1 - 4/9 = 5/9; the
//! hits are binomial(2, 1/3): P(2 hits) = 1/9, P(1 hit) = 2·(1/3)·(2/3) =
//! 4/9.

use pikeshot::engine::Method;
use pikeshot::engine::{Kernel, KernelMode};
use pikeshot::error::InputError;
use pikeshot::explain::{ExplainRequest, explain_file};
use pikeshot::outcome::{Leaf, Measure, OutcomeSpace, Side};
use pikeshot::run::{RunPlan, execute, prepare_file};
use pikeshot::scenario::course::{self as scenario_course, NamedUnit};
use pikeshot::scenario::{Fields, ScenarioFile};
use pikeshot::systems::registry::read_units;
use pikeshot::systems::{
    BuiltCourses, Chart, KeyDoc, ProcedureInfo, Registry, Repeats, RuleSystem,
};
use pikeshot::{Dice, Procedure};

/// The toy system: one procedure, one unit key, no editions, no repeats.
struct Toy;

/// The one procedure a step may name.
const HIT_ON_5: &str = "hit-on-5";
/// Most dice a unit may roll.
const MAX_DICE: i64 = 6;
/// The keys of a `hit-on-5` step.
static STEP_KEYS: &[KeyDoc] = &[KeyDoc::unit("unit", "the unit that rolls")];
/// What `list` says of the procedure.
static PROCEDURES: &[ProcedureInfo] = &[ProcedureInfo {
    name: HIT_ON_5,
    rule: "T1",
    summary: "roll the unit's dice; each 5 or 6 hits",
    keys: STEP_KEYS,
    outcomes: &["no hit", "hit"],
    measures: &["hits"],
}];
/// Courses do not repeat.
static NO_REPEATS: Repeats = Repeats {
    max_turns: 0,
    stops: &[],
    default_until: "",
};

/// A toy unit: its name and how many dice it rolls.
struct Unit {
    name: String,
    dice: u8,
}

impl NamedUnit for Unit {
    fn unit_name(&self) -> &str {
        &self.name
    }
}

/// Rolls `dice` d6; each 5 or 6 is a hit.
struct HitOn5 {
    dice: u8,
    space: OutcomeSpace,
}

impl HitOn5 {
    fn new(dice: u8) -> HitOn5 {
        HitOn5 {
            dice,
            space: OutcomeSpace::from_labels(
                &["no hit", "hit"],
                vec![Measure::new("hits", 0, MAX_DICE as i32)],
            ),
        }
    }
}

impl Procedure for HitOn5 {
    fn space(&self) -> &OutcomeSpace {
        &self.space
    }
    fn resolve<D: Dice>(&self, dice: &mut D) -> Leaf {
        let hits = (0..self.dice).filter(|_| dice.d(6) >= 5).count() as i32;
        self.space.leaf(usize::from(hits > 0), &[hits])
    }
}

impl RuleSystem for Toy {
    fn id(&self) -> &'static str {
        "toy"
    }
    fn name(&self) -> &'static str {
        "Toy: hit on 5+"
    }
    fn procedures(&self) -> &'static [ProcedureInfo] {
        PROCEDURES
    }
    fn charts(&self, _edition: Option<&str>) -> Vec<Chart> {
        vec![Chart {
            id: "hits",
            title: "Hits".into(),
            rule: "T1",
            headers: vec!["d6".into(), "result".into()],
            rows: vec![
                vec!["1-4".into(), "miss".into()],
                vec!["5-6".into(), "hit".into()],
            ],
            notes: Vec::new(),
        }]
    }
    fn vocabulary(&self) -> String {
        String::new()
    }
    fn unit_keys(&self) -> Vec<KeyDoc> {
        vec![KeyDoc::int(
            "dice",
            1,
            MAX_DICE,
            "how many d6 the unit rolls",
        )]
    }
    fn repeats(&self) -> &'static Repeats {
        &NO_REPEATS
    }
    fn rules_keys(&self) -> Vec<KeyDoc> {
        Vec::new()
    }
    fn build_courses(&self, f: &mut Fields, mode: KernelMode) -> Result<BuiltCourses, InputError> {
        let units = read_units(self, f, |name, uf| {
            Ok(Unit {
                name: name.to_string(),
                dice: uf.req_int("dice", 1, MAX_DICE)? as u8,
            })
        })?;
        let names = scenario_course::unit_names(&units);
        scenario_course::build_courses(f, |_, mut cf, steps| {
            let (own, enemy) = scenario_course::own_enemy(&mut cf, &names)?;
            cf.finish()?;
            let [(procedure, mut sf)] = <[_; 1]>::try_from(steps)
                .map_err(|_| cf.err("steps", "a toy course rolls one step"))?;
            if procedure != HIT_ON_5 {
                return Err(sf
                    .err("procedure", format!("unknown procedure \"{procedure}\""))
                    .one_of(&procedure, &[HIT_ON_5]));
            }
            let name = sf.req_name("unit")?;
            let u = scenario_course::unit_index(&sf, "unit", &name, &names)?;
            sf.finish()?;
            let kernel: Box<dyn Kernel> =
                pikeshot::engine::ProcedureKernel::boxed(HitOn5::new(units[u].dice), mode);
            Ok((kernel, Side::of(&names, own.or(Some(u)), enemy, false)))
        })
        .map(BuiltCourses::from)
    }
}

/// A registry of the toy alone, built for this test.
static TOY: Registry = Registry::new(&[&Toy]);

const SCENARIO: &str = r#"
name = "toy volley"
system = "toy"
seed = 7
trials = 200000

[units.musketeers]
dice = 2

[[course]]
name = "volley"
steps = [{ procedure = "hit-on-5", unit = "musketeers" }]
"#;

/// P(at least one hit with 2 dice) = 1 - (4/6)^2 = 5/9.
const P_HIT: f64 = 5.0 / 9.0;

fn file() -> ScenarioFile {
    ScenarioFile::from_str("toy.toml", SCENARIO).unwrap()
}

/// `pikeshot run` of the toy scenario through the toy registry.
fn run(exact: bool) -> pikeshot::report::ScenarioRun {
    let plan = RunPlan {
        systems: TOY,
        method: if exact {
            Method::Exact
        } else {
            Method::MonteCarlo
        },
        ..RunPlan::default()
    };
    let p = prepare_file(file(), &plan).unwrap_or_else(|e| panic!("{e}"));
    execute(&p, &plan).unwrap_or_else(|e| panic!("{e}"))
}

/// Each outcome's share of a tally's counts.
fn outcome_counts(space: &OutcomeSpace, counts: &[u64]) -> Vec<u64> {
    let mut out = vec![0u64; space.outcomes().len()];
    for (leaf, c) in counts.iter().enumerate() {
        out[space.outcome_of(leaf as Leaf)] += c;
    }
    out
}

#[test]
fn the_toy_scenario_is_read_through_its_registry_and_refused_by_the_shipped_one() {
    let req = RunPlan {
        systems: TOY,
        ..RunPlan::default()
    };
    let p = prepare_file(file(), &req).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.id.system, "toy");
    // The shipped registry does not know the toy: the `system` key is
    // refused, naming the systems it knows.
    let e = match prepare_file(file(), &RunPlan::default()) {
        Err(pikeshot::Error::Input(e)) => e,
        other => panic!("not refused: {:?}", other.map(|_| ())),
    };
    assert_eq!(e.key.as_deref(), Some("system"));
    assert!(e.to_string().contains("mpbs"), "{e}");
    // And the toy registry refuses a shipped system's scenario, and a
    // unit key the toy does not declare.
    let bad = SCENARIO.replace("dice = 2", "dice = 2\nmorale = 7");
    let e = match prepare_file(ScenarioFile::from_str("toy.toml", &bad).unwrap(), &req) {
        Err(pikeshot::Error::Input(e)) => e,
        other => panic!("not refused: {:?}", other.map(|_| ())),
    };
    assert_eq!(e.key.as_deref(), Some("units.musketeers.morale"), "{e}");
    assert_eq!(e.line, Some(9), "{e}");
}

#[test]
fn the_toy_runs_exactly_through_the_run_path() {
    let r = run(true);
    assert_eq!(r.courses.len(), 1);
    let c = &r.courses[0];
    assert_eq!(c.course, "volley");
    let exact = c.tally.exact.as_ref().expect("an exact answer");
    let hit = c.space.outcomes().iter().position(|o| o == "hit").unwrap();
    let p: f64 = (0..c.space.len())
        .filter(|&l| c.space.outcome_of(l as Leaf) == hit)
        .map(|l| exact[l])
        .sum();
    assert!((p - P_HIT).abs() < 1e-12, "P(hit) = {p}, 5/9 wanted");
    // Hits are binomial(2, 1/3): 4/9, 4/9, 1/9 for 0, 1, 2 hits.
    let stats = c.stats();
    let hits = stats.measure("hits").expect("the hits measure");
    let dist: Vec<f64> = hits.exact.clone().expect("exact hits");
    for (k, want) in [4.0 / 9.0, 4.0 / 9.0, 1.0 / 9.0].into_iter().enumerate() {
        assert!((dist[k] - want).abs() < 1e-12, "P({k} hits) = {}", dist[k]);
    }
}

#[test]
fn the_toy_runs_by_monte_carlo_within_four_standard_errors() {
    let r = run(false);
    let c = &r.courses[0];
    let n = c.tally.trials;
    assert_eq!(n, 200_000, "the scenario's trials");
    let by_outcome = outcome_counts(&c.space, &c.tally.counts);
    let hit = c.space.outcomes().iter().position(|o| o == "hit").unwrap();
    let p = by_outcome[hit] as f64 / n as f64;
    // SE = sqrt(5/9 · 4/9 / 200000) ≈ 0.00111.
    let se = (P_HIT * (1.0 - P_HIT) / n as f64).sqrt();
    assert!(
        (p - P_HIT).abs() < 4.0 * se,
        "P(hit) = {p}, 5/9 ± {}",
        4.0 * se
    );
}

#[test]
fn list_and_tables_come_from_the_toy_registry() {
    let all = TOY.list(None).unwrap();
    assert_eq!(all, Toy.list());
    assert!(
        all.starts_with("toy — Toy: hit on 5+ (no editions)\n"),
        "{all}"
    );
    assert!(all.contains("  hit-on-5 (T1): roll the unit's dice; each 5 or 6 hits\n"));
    assert!(
        all.contains("      outcomes: no-hit (\"no hit\"), hit\n"),
        "{all}"
    );
    assert!(
        all.contains("  dice                     how many d6 the unit rolls (accepts: 1..=6)\n"),
        "{all}"
    );
    let e = TOY.list(Some("mpbs")).unwrap_err().to_string();
    assert!(e.contains("unknown rule system \"mpbs\""), "{e}");
    let t = TOY.tables("toy", None, None).unwrap();
    assert!(t.starts_with("Hits (T1)\n"), "{t}");
    assert!(TOY.card_line("toy", None).unwrap().is_none(), "no editions");
    assert_eq!(TOY.ids(), ["toy"]);
}

#[test]
fn the_default_explain_gives_the_dice_table_and_exact_results() {
    let req = ExplainRequest {
        systems: TOY,
        ..ExplainRequest::default()
    };
    let e = explain_file(file(), &req).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(e.system, "toy");
    let course = &e.variants[0].courses[0];
    assert_eq!(course.name, "volley");
    assert_eq!(course.own, "musketeers");
    let roll = &course.steps[0].cases[0].roll;
    assert_eq!(roll.dice, "2d6");
    // The table: every one of the 36 paths, the faces and their result;
    // (5, 1) hits, (4, 4) does not.
    assert_eq!(roll.faces.len(), 36);
    let row = |faces: &str| {
        roll.faces
            .iter()
            .find(|f| f.faces == faces)
            .unwrap_or_else(|| panic!("no row {faces}"))
            .result
            .clone()
    };
    assert_eq!(row("5, 1"), "hit");
    assert_eq!(row("4, 4"), "no hit");
    assert_eq!(row("6, 6"), "hit");
    let hit = course.outcomes.iter().find(|r| r.id == "hit").unwrap();
    assert!((hit.p - P_HIT).abs() < 1e-12, "{}", hit.p);
    let text = pikeshot::explain::text::render(&e);
    assert!(
        text.contains("course \"volley\" (own musketeers, enemy -)"),
        "{text}"
    );
    // The shipped registry refuses the toy's scenario.
    assert!(explain_file(file(), &ExplainRequest::default()).is_err());
}

#[test]
fn the_page_metadata_lists_the_toy_and_its_keys() {
    let meta = pikeshot::serve::meta::systems_with(TOY);
    assert_eq!(meta.systems.len(), 1);
    let m = &meta.systems[0];
    assert_eq!(m.id, "toy");
    assert_eq!(m.list, Toy.list(), "the whole `pikeshot list` text");
    let units: Vec<&str> = m.unit_keys.iter().map(|k| k.key).collect();
    assert_eq!(units, ["dice"]);
    assert_eq!(m.procedures.len(), 1);
    assert_eq!(m.procedures[0].name, HIT_ON_5);
    let steps: Vec<&str> = m.procedures[0].keys.iter().map(|k| k.key).collect();
    assert_eq!(steps, ["unit"]);
    assert_eq!(m.charts, ["hits"]);
    let json = serde_json::to_value(&meta).unwrap();
    assert_eq!(json["systems"][0]["unit_keys"][0]["control"]["max"], 6);
}
