//! Snaphance courses and engagements: a melee fought to a finish against
//! hand arithmetic and against rounds composed by hand, state carried from
//! step to step (SP lost, disorder, recovery, order tests that stop a
//! course, stands destroyed early), Monte Carlo against exact, scenario
//! errors, and the command line (`tables`, `list`, `run`).

// Input errors are cold, as in the library (lib.rs).
#![allow(clippy::result_large_err)]

use crate::support::cli::{
    pikeshot_ok, pikeshot_refused, pikeshot_says, run_refused_text, run_to, stdout,
};
use crate::support::close;
use crate::support::course::measure;
use crate::support::monte_carlo::{Leaves, assert_sample_matches};
use std::collections::HashMap;

use pikeshot::engine::exact::exact;
use pikeshot::engine::{Kernel, KernelMode};
use pikeshot::error::InputError;
use pikeshot::outcome::Leaf;
use pikeshot::procedure::Procedure;
use pikeshot::scenario::ScenarioFile;
use pikeshot::stats;
use pikeshot::systems;
use pikeshot::systems::snaphance::fire::{Fire, FireInput};
use pikeshot::systems::snaphance::melee::{Melee, MeleeInput, MeleeResult, Role};
use pikeshot::systems::snaphance::{Aspect, Kind, Readings, Stand};

type Courses = Vec<(String, Box<dyn Kernel>)>;

fn courses(text: &str, mode: KernelMode) -> Result<Courses, InputError> {
    let file = ScenarioFile::from_str("s.toml", text)?;
    let v = file.variants()?;
    let mut f = file.fields(&v[0]);
    f.string("name")?;
    f.string("system")?;
    f.int("seed", 0, i64::MAX)?;
    f.int("trials", 1, i64::MAX)?;
    let b = systems::Registry::shipped().build_courses("snaphance", &mut f, mode)?;
    f.finish()?;
    Ok(b.courses)
}

fn course(text: &str, name: &str) -> Box<dyn Kernel> {
    courses(text, KernelMode::Auto)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap()
        .1
}

/// Exact probability of each outcome label.
fn labels(k: &dyn Kernel) -> HashMap<String, f64> {
    let p = stats::outcome_probs(k.space(), &k.exact(10_000_000).unwrap());
    k.space().outcomes().iter().cloned().zip(p).collect()
}

fn scenario(units: &str, steps: &str) -> String {
    format!(
        "name = \"t\"\nsystem = \"snaphance\"\n\n{units}\n[[course]]\nname = \"c\"\nsteps = [\n{steps}\n]\n"
    )
}

/// A scenario whose course repeats: `repeat` is the table's inside.
fn repeated(units: &str, steps: &str, repeat: &str) -> String {
    format!("{}repeat = {{ {repeat} }}\n", scenario(units, steps))
}

const PIKES: &str =
    "[units.a]\nkind = \"pike\"\nstrength = 1\n\n[units.d]\nkind = \"pike\"\nstrength = 1\n";

// ------------------------------------------------------------ engagements

#[test]
fn melee_to_a_finish_by_hand() {
    // 1-SP pikes: each round ends 901/1296 in a draw without loss (so the
    // next round is the same), 30/1296 a win for either side, 155/1296 a
    // destruction of either, 25/1296 both (see snaphance_melee).
    let q: f64 = 901.0 / 1296.0;
    for r in [1u32, 3, 10] {
        let text = repeated(
            PIKES,
            "{ procedure = \"melee\", attacker = \"a\", defender = \"d\" },",
            &format!("turns = {r}, until = [\"decided\"]"),
        );
        let k = course(&text, "c");
        let p = labels(k.as_ref());
        let decided = (1.0 - q.powi(r as i32)) / (1.0 - q);
        assert!(close(p["attacker wins"], 30.0 / 1296.0 * decided));
        assert!(close(p["defender wins"], 30.0 / 1296.0 * decided));
        assert!(close(p["attacker destroyed"], 155.0 / 1296.0 * decided));
        assert!(close(p["both destroyed"], 25.0 / 1296.0 * decided));
        assert!(close(
            p[&format!("undecided after {r} rounds")],
            q.powi(r as i32)
        ));
        let rounds = measure(k.as_ref(), "turns");
        assert_eq!(rounds.len(), r as usize, "turns 1..={r}");
        for n in 1..=r {
            let want = if n < r {
                q.powi(n as i32 - 1) * (1.0 - q)
            } else {
                q.powi(r as i32 - 1)
            };
            assert!(
                close(rounds[n as usize - 1], want),
                "{r} rounds, P(turns = {n})"
            );
        }
    }
}

fn finish_label(r: MeleeResult) -> &'static str {
    match r {
        MeleeResult::AttackerWins => "attacker wins",
        MeleeResult::DefenderWins => "defender wins",
        MeleeResult::AttackerDestroyed => "attacker destroyed",
        MeleeResult::DefenderDestroyed => "defender destroyed",
        MeleeResult::BothDestroyed => "both destroyed",
        _ => "undecided after 2 rounds",
    }
}

#[test]
fn rounds_compose_with_state_carried() {
    // Gendarmes charge a pike block in the flank: round 1 with the Charge
    // Bonus and the pike disordered; round 2 with neither the Charge Bonus
    // nor a new disorder, each side's SP lost and disorder carried.
    let units = "[units.g]\nkind = \"gendarmes\"\nstrength = 4\n\n[units.p]\nkind = \"pike\"\nstrength = 4\nranks = 2\n";
    let text = repeated(
        units,
        "{ procedure = \"melee\", attacker = \"g\", defender = \"p\", attack_on = \"flank\" },",
        "turns = 2, until = [\"decided\"]",
    );
    let k = course(&text, "c");
    let s = k.space();
    let probs = k.exact(10_000_000).unwrap();
    let m = |name: &str| s.measure_index(name).unwrap();
    let (own, taken, enemy, inflicted, turns) = (
        m("own-morale"),
        m("hits-taken"),
        m("enemy-morale"),
        m("hits-inflicted"),
        m("turns"),
    );
    assert_eq!(
        s.measures().len(),
        5,
        "no per-stand SP measure beside the keys"
    );
    type Key = (String, i32, i32, i32, i32, i32);
    let got: HashMap<Key, f64> = probs
        .iter()
        .enumerate()
        .filter(|(_, p)| **p > 0.0)
        .map(|(l, &p)| {
            let l = l as Leaf;
            (
                (
                    s.outcomes()[s.outcome_of(l)].clone(),
                    s.value_of(l, taken),
                    s.value_of(l, inflicted),
                    s.value_of(l, turns),
                    s.value_of(l, own),
                    s.value_of(l, enemy),
                ),
                p,
            )
        })
        .collect();
    let r = Readings::default();
    let g = Stand::new("g", Kind::Gendarmes, 4);
    let mut p = Stand::new("p", Kind::Pike, 4);
    p.ranks = 2;
    let first = MeleeInput {
        attack_on: Aspect::Flank,
        commenced_behind_front: true,
        ..MeleeInput::default()
    };
    let r1 = Melee::new(&g, &p, &first, &r, false).unwrap();
    assert_eq!(r1.pool(Role::Attacker).dice, 4 + 1 + 2);
    assert_eq!(r1.pool(Role::Defender).dice, 4 - 1);
    // Key morale scale: good 0, disordered 1, beaten 2, destroyed 3. The
    // pike is disordered by the flank charge from behind its front.
    let levels = |res: MeleeResult, g_disordered: bool| -> (i32, i32) {
        use MeleeResult::*;
        let own = match res {
            AttackerDestroyed | BothDestroyed => 3,
            DefenderWins => 2,
            _ if g_disordered => 1,
            _ => 0,
        };
        let enemy = match res {
            DefenderDestroyed | BothDestroyed => 3,
            AttackerWins => 2,
            _ => 1,
        };
        (own, enemy)
    };
    let mut want: HashMap<Key, f64> = HashMap::new();
    for (l1, &p1) in exact(&r1, 1).unwrap().iter().enumerate() {
        if p1 == 0.0 {
            continue;
        }
        let l1 = l1 as Leaf;
        let (la, ld) = (
            r1.sp_lost(l1, Role::Attacker) as i32,
            r1.sp_lost(l1, Role::Defender) as i32,
        );
        let res = r1.result_of(l1);
        if !res.ongoing() {
            let (o, e) = levels(res, r1.disorders(Role::Attacker));
            *want
                .entry((finish_label(res).into(), la, ld, 1, o, e))
                .or_default() += p1;
            continue;
        }
        let g2 = Stand {
            sp_lost: la as u8,
            disordered: r1.disorders(Role::Attacker),
            ..g.clone()
        };
        let p2 = Stand {
            sp_lost: ld as u8,
            disordered: true,
            ..p.clone()
        };
        let r2 = Melee::new(&g2, &p2, &MeleeInput { round: 2, ..first }, &r, false).unwrap();
        assert_eq!(
            r2.pool(Role::Attacker).dice as i32,
            4 - la + 1,
            "no Charge Bonus in round 2"
        );
        assert_eq!(
            r2.pool(Role::Defender).dice as i32,
            4 - ld - 1,
            "still disordered"
        );
        for (l2, &q) in exact(&r2, 1).unwrap().iter().enumerate() {
            if q == 0.0 {
                continue;
            }
            let l2 = l2 as Leaf;
            let res2 = r2.result_of(l2);
            let (o, e) = levels(
                res2,
                r1.disorders(Role::Attacker) || r2.disorders(Role::Attacker),
            );
            let key = (
                finish_label(res2).to_string(),
                la + r2.sp_lost(l2, Role::Attacker) as i32,
                ld + r2.sp_lost(l2, Role::Defender) as i32,
                2,
                o,
                e,
            );
            *want.entry(key).or_default() += p1 * q;
        }
    }
    assert_eq!(got.len(), want.len());
    for (key, w) in &want {
        let g = got.get(key).copied().unwrap_or(0.0);
        assert!((g - w).abs() < 1e-12, "{key:?}: {g} vs {w}");
    }
}

#[test]
fn monte_carlo_matches_exact_for_engagements() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/snaphance/fire-or-charge.toml"
    ))
    .unwrap();
    for mode in [KernelMode::Direct, KernelMode::Auto] {
        for (name, k) in courses(&text, mode).unwrap() {
            assert_eq!(k.is_compiled(), mode == KernelMode::Auto, "{name}");
            let probs = k.exact(10_000_000).unwrap();
            assert_sample_matches(
                k.as_ref(),
                &probs,
                1600,
                Leaves::Marginals,
                &format!("{name} {mode:?}"),
            );
        }
    }
}

#[test]
fn steps_before_from_step_run_once() {
    // Shot fire at a 1-SP pike, then charge it. With `from_step = 1` the
    // volley is fired once: the course ends at step 1 (no turn begun)
    // exactly when that volley destroys the pike. With `from_step = 0` the
    // volley is fired again each turn, so more courses end at step 1.
    let units =
        "[units.a]\nkind = \"shot\"\nstrength = 4\n\n[units.d]\nkind = \"pike\"\nstrength = 1\n";
    let fire = "{ procedure = \"fire\", firer = \"a\", target = \"d\" },";
    let steps = format!("{fire}\n{{ procedure = \"melee\", attacker = \"a\", defender = \"d\" }},");
    let destroyed = labels(course(&scenario(units, fire), "c").as_ref())["destroyed"];
    assert!(destroyed > 0.01, "{destroyed}");
    let once = course(
        &repeated(
            units,
            &steps,
            "turns = 3, until = [\"decided\"], from_step = 1",
        ),
        "c",
    );
    let turns = measure(once.as_ref(), "turns");
    assert_eq!(turns.len(), 4, "turns 0..=3");
    assert!(close(turns[0], destroyed));
    assert!(close(measure(once.as_ref(), "ended-at-step")[0], destroyed));
    let every = course(
        &repeated(units, &steps, "turns = 3, until = [\"decided\"]"),
        "c",
    );
    assert_eq!(measure(every.as_ref(), "turns").len(), 3, "turns 1..=3");
    assert!(measure(every.as_ref(), "ended-at-step")[0] > destroyed + 1e-6);
    // A repeated course whose last step is a melee reports the engagement.
    assert!(labels(once.as_ref()).contains_key("undecided after 3 rounds"));
    // Until the enemy is destroyed: a beaten pike fights on. The pike is
    // destroyed (morale 3) exactly in the courses reported "defender
    // destroyed" or "both destroyed"; those include the volley's (turns 0,
    // reported by the last step's own outcome, docs/rules section 8).
    let k = course(
        &repeated(
            units,
            &steps,
            "turns = 3, until = [\"enemy-destroyed\"], from_step = 1",
        ),
        "c",
    );
    let t = measure(k.as_ref(), "turns");
    let e = measure(k.as_ref(), "enemy-morale");
    let p = labels(k.as_ref());
    assert!(close(e[3], p["defender destroyed"] + p["both destroyed"]));
    assert!(p["defender destroyed"] > t[0] + 1e-6);
    assert!(close(t[0], destroyed));
}

// ------------------------------------------------------------ state

#[test]
fn fire_twice_carries_sp_lost_and_ends_early() {
    // Point-blank artillery (3 dice, cap 2) at a 2-SP pike: the first volley
    // may destroy it, ending the course early; else the second volley sees
    // its SP lost (one die less for nothing; its morale one lower).
    let units = "[units.guns]\nkind = \"artillery\"\nstrength = 3\n\n[units.pike]\nkind = \"pike\"\nstrength = 2\n";
    let step = "{ procedure = \"fire\", firer = \"guns\", target = \"pike\", point_blank = true },";
    let text = scenario(units, &format!("{step}\n{step}"));
    let k = course(&text, "c");
    let r = Readings::default();
    let guns = Stand::new("guns", Kind::Artillery, 3);
    let pike = Stand::new("pike", Kind::Pike, 2);
    let pb = FireInput {
        point_blank: true,
        ..FireInput::default()
    };
    let f1 = Fire::new(&guns, &pike, &pb, &r).unwrap();
    let p1 = exact(&f1, 1).unwrap();
    let lost1 = stats::measure_probs(f1.space(), 1, &p1);
    let p = labels(k.as_ref());
    // Destroyed by the first volley: the course ends at step 1 and reports
    // what happened, "destroyed" (docs/rules/snaphance.md section 8).
    let ended = measure(k.as_ref(), "ended-at-step");
    assert!(close(ended[0], lost1[2]));
    assert!(close(ended[1], 1.0 - lost1[2]));
    // Second volley at a 1-SP pike after one SP lost.
    let hurt = Stand {
        sp_lost: 1,
        ..pike.clone()
    };
    let f2 = Fire::new(&guns, &hurt, &pb, &r).unwrap();
    let o2 = stats::outcome_probs(f2.space(), &exact(&f2, 1).unwrap());
    let o_fresh = stats::outcome_probs(f1.space(), &p1);
    // "destroyed" of the course: destroyed by volley 2 after 0 or 1 lost.
    let want = lost1[2] + lost1[0] * o_fresh[3] + lost1[1] * o2[3];
    assert!(close(p["destroyed"], want), "{} vs {want}", p["destroyed"]);
    let sp = measure(k.as_ref(), "hits-inflicted");
    assert!(close(sp.iter().sum::<f64>(), 1.0));
    assert!(close(sp[0], lost1[0] * o_fresh[0..2].iter().sum::<f64>()));
    // Key measures: fire neither beats nor disorders, so the pike ends good
    // (0) or destroyed (3, early or by the second volley); the guns take
    // nothing and stay good.
    let enemy = measure(k.as_ref(), "enemy-morale");
    let gone = p["destroyed"];
    assert!(close(enemy[3], gone));
    assert!(close(enemy[0], 1.0 - gone));
    assert!(close(sp[2], gone), "destroyed = both SP lost");
    assert!(close(measure(k.as_ref(), "own-morale")[0], 1.0));
    assert!(close(measure(k.as_ref(), "hits-taken")[0], 1.0));
}

#[test]
fn order_tests_stop_or_recover() {
    let units = "[units.c]\nkind = \"shot\"\nstrength = 4\nclass = \"C\"\n\n\
                 [units.b]\nkind = \"shot\"\nstrength = 4\nclass = \"B\"\ndisordered = true\n\n\
                 [units.t]\nkind = \"pike\"\nstrength = 4\n";
    let r = Readings::default();
    let t = Stand::new("t", Kind::Pike, 4);
    let fire_probs = |firer: &Stand| {
        let f = Fire::new(firer, &t, &FireInput::default(), &r).unwrap();
        stats::outcome_probs(f.space(), &exact(&f, 1).unwrap())
    };
    // A failed order test for a move stops the course (C class: 5+).
    let text = scenario(
        units,
        "{ procedure = \"order-test\", unit = \"c\" },\n{ procedure = \"fire\", firer = \"c\", target = \"t\" },",
    );
    let p = labels(course(&text, "c").as_ref());
    assert!(close(p["stopped: order test failed"], 4.0 / 6.0));
    let f = fire_probs(&Stand::new("c", Kind::Shot, 4));
    assert!(close(p["no hits"], f[0] / 3.0));
    // ... or not, with on_fail = "continue".
    let text = scenario(
        units,
        "{ procedure = \"order-test\", unit = \"c\", on_fail = \"continue\" },\n{ procedure = \"fire\", firer = \"c\", target = \"t\" },",
    );
    let p = labels(course(&text, "c").as_ref());
    assert!(!p.contains_key("stopped: order test failed"));
    assert!(close(p["no hits"], f[0]));
    // Recovering: half the time the B class shot fires in order (4 dice),
    // else still disordered (3 dice).
    let text = scenario(
        units,
        "{ procedure = \"order-test\", unit = \"b\", purpose = \"recover\" },\n{ procedure = \"fire\", firer = \"b\", target = \"t\" },",
    );
    let p = labels(course(&text, "c").as_ref());
    let ordered = fire_probs(&Stand::new("b", Kind::Shot, 4));
    let disordered = fire_probs(&Stand {
        disordered: true,
        ..Stand::new("b", Kind::Shot, 4)
    });
    for (i, label) in ["no hits", "morale passed", "SP lost"].iter().enumerate() {
        assert!(
            close(p[*label], 0.5 * ordered[i] + 0.5 * disordered[i]),
            "{label}"
        );
    }
}

#[test]
fn a_melee_disorders_for_the_next_step() {
    // Lancers attack shot in woods: they fight disordered (-1D6) and stay
    // so, so their fire... lancers do not fire; use the shot's fire after a
    // flank charge on it instead: the shot is disordered by a charge from
    // behind its front and fires with a die less afterwards.
    let units = "[units.h]\nkind = \"horse\"\nstrength = 4\n\n[units.s]\nkind = \"shot\"\nstrength = 4\nsupported = true\n";
    let text = scenario(
        units,
        "{ procedure = \"melee\", attacker = \"h\", defender = \"s\", attack_on = \"flank\" },\n\
         { procedure = \"fire\", firer = \"s\", target = \"h\" },",
    );
    let k = course(&text, "c");
    let r = Readings::default();
    let h = Stand::new("h", Kind::Horse, 4);
    let s = Stand {
        supported: true,
        ..Stand::new("s", Kind::Shot, 4)
    };
    let m = Melee::new(
        &h,
        &s,
        &MeleeInput {
            attack_on: Aspect::Flank,
            commenced_behind_front: true,
            ..MeleeInput::default()
        },
        &r,
        false,
    )
    .unwrap();
    assert!(m.disorders(Role::Defender));
    let mut want_no_hits = 0.0;
    for (l, &q) in exact(&m, 1).unwrap().iter().enumerate() {
        if q == 0.0 {
            continue;
        }
        let l = l as Leaf;
        let (la, ld) = (m.sp_lost(l, Role::Attacker), m.sp_lost(l, Role::Defender));
        if ld >= 4 {
            continue;
        }
        let s2 = Stand {
            sp_lost: ld,
            disordered: true,
            ..s.clone()
        };
        let h2 = Stand {
            sp_lost: la,
            ..h.clone()
        };
        let f = Fire::new(&s2, &h2, &FireInput::default(), &r).unwrap();
        assert_eq!(f.dice(), 4 - ld - 1);
        want_no_hits += q * stats::outcome_probs(f.space(), &exact(&f, 1).unwrap())[0];
    }
    assert!(close(labels(k.as_ref())["no hits"], want_no_hits));
}

// ------------------------------------------------------------ input

fn scenario_err(text: &str, key: &str, says: &str) {
    let e = courses(text, KernelMode::Auto)
        .err()
        .unwrap_or_else(|| panic!("no error for {key}"));
    assert_eq!(e.key.as_deref(), Some(key), "{e}");
    assert!(e.line.is_some(), "{e}");
    assert!(e.to_string().contains(says), "`{says}` not in: {e}");
}

#[test]
fn scenario_errors_are_located() {
    let melee = "{ procedure = \"melee\", attacker = \"a\", defender = \"d\" },";
    scenario_err(
        &format!("{}\n[rules]\nfives = \"pairs\"\n", scenario(PIKES, melee)),
        "rules.fives",
        "did you mean `pair`",
    );
    scenario_err(
        &format!("{}\n[rules]\nsp_los = \"one\"\n", scenario(PIKES, melee)),
        "rules.sp_los",
        "did you mean `sp_loss`",
    );
    scenario_err(
        &scenario(
            PIKES,
            "{ procedure = \"mele\", attacker = \"a\", defender = \"d\" },",
        ),
        "course[0].steps[0].procedure",
        "did you mean `melee`",
    );
    scenario_err(
        &repeated(PIKES, melee, "turns = 0, until = [\"decided\"]"),
        "course[0].repeat.turns",
        "from 1 to 20",
    );
    // The old spellings name the new one.
    scenario_err(
        &scenario(
            PIKES,
            "{ procedure = \"melee-to-finish\", attacker = \"a\", defender = \"d\", max_rounds = 3 },",
        ),
        "course[0].steps[0].procedure",
        "repeat = { turns = 10, until = [\"decided\"] }",
    );
    scenario_err(
        &repeated(PIKES, melee, "turns = 3, until = [\"decidd\"]"),
        "course[0].repeat.until",
        "did you mean `decided`",
    );
    scenario_err(
        &repeated(PIKES, melee, "turns = 3, from_step = 1"),
        "course[0].repeat.from_step",
        "from 0 to 0",
    );
    scenario_err(
        &scenario(
            PIKES,
            "{ procedure = \"melee\", attacker = \"a\", defender = \"d\", max_rounds = 3 },",
        ),
        "course[0].steps[0].max_rounds",
        "unknown key",
    );
    scenario_err(
        &scenario(
            PIKES,
            "{ procedure = \"melee\", attacker = \"a\", defender = \"d\", max_rounds = 3 },",
        ),
        "course[0].steps[0].max_rounds",
        "repeat = { turns = N",
    );
    let twice = format!(
        "{}\n[[course]]\nname = \"c\"\nsteps = [{melee}]\n",
        scenario(PIKES, melee)
    );
    scenario_err(&twice, "course[1].name", "two courses are named");
}

#[test]
fn readings_switch_the_whole_scenario() {
    let step = "{ procedure = \"fire\", firer = \"a\", target = \"d\" },";
    let units =
        "[units.a]\nkind = \"shot\"\nstrength = 2\n\n[units.d]\nkind = \"pike\"\nstrength = 4\n";
    let hits = |readings: &str| {
        let text = format!("{}\n{readings}\n", scenario(units, step));
        measure(course(&text, "c").as_ref(), "hits")
    };
    // Two dice: 5,5 is a hit (pair) or two (all-if-pair), 1/36 either way.
    assert!(close(hits("")[1], 11.0 / 36.0));
    assert!(close(
        hits("[rules]\nfives = \"all-if-pair\"")[2],
        2.0 / 36.0
    ));
    assert!(close(hits("[rules]\nfives = \"none\"")[1], 10.0 / 36.0));
}

// ------------------------------------------------------------ command line

#[test]
fn tables_and_list() {
    pikeshot_says(
        &["tables", "snaphance"],
        &[
            "Firing (Firing and Melee Chart)",
            "Move and Fire (7.2)",
            "Melee (10.0)",
            "Morale Test/SP losses (8.0)",
            "Order Test [1D6] (4.5)",
            "Pursuit [1D6] (13.0)",
            "Terrain Effects – Woods",
            "Rules for Town Hexes",
            "Troop types",
        ],
    );
    let pursuit = stdout(&pikeshot_ok(&["tables", "snaphance", "pursuit"]));
    assert!(pursuit.starts_with("Pursuit [1D6] (13.0)"));
    pikeshot_refused(
        &["tables", "snaphance", "--edition", "series"],
        &["no editions"],
    );
    pikeshot_refused(
        &["tables", "snaphance", "purusit"],
        &["did you mean `pursuit`"],
    );
    pikeshot_says(
        &["list", "snaphance"],
        &[
            "fire (",
            "melee (",
            "repeat = { turns = 1..20, until = [...] }",
            "`from_step = K`",
            "decided ",
            "enemy-destroyed ",
            "morale-test (",
            "order-test (",
            "pursuit (",
            "kinds: pike, pike-and-shot",
            "[rules] keys (readings of what the card leaves open):\n  fives",
        ],
    );
}

#[test]
fn run_writes_exact_and_refuses_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    let args = ["--trials", "20000", "--exact", "-q"];
    run_to("scenarios/snaphance/gendarmes-vs-pike.toml", &args, &out);
    let csv = std::fs::read_to_string(out.join("outcomes.csv")).unwrap();
    assert!(csv.contains("flank charge") && csv.contains("attacker-wins"));
    let err = run_refused_text(
        tmp.path(),
        &scenario(
            PIKES,
            "{ procedure = \"fire\", firer = \"a\", target = \"d\" },",
        ),
        &out,
    );
    assert!(
        err.contains("bad.toml:") && err.contains("has no fire"),
        "{err}"
    );
}

#[test]
fn own_and_enemy_keys_choose_the_key_stands() {
    // The same engagement seen from the pike's side: its hits taken are the
    // gendarmes' hits inflicted, and the morale levels swap likewise.
    let units = "[units.g]\nkind = \"gendarmes\"\nstrength = 4\n\n[units.p]\nkind = \"pike\"\nstrength = 4\nranks = 2\n";
    let step = "{ procedure = \"melee\", attacker = \"g\", defender = \"p\" },";
    let with_keys = |keys: &str| {
        format!(
            "name = \"t\"\nsystem = \"snaphance\"\n\n{units}\n[[course]]\nname = \"c\"\n{keys}\nrepeat = {{ turns = 3, until = [\"decided\"] }}\nsteps = [\n{step}\n]\n"
        )
    };
    let plain = course(&with_keys(""), "c");
    let swapped = course(&with_keys("own = \"p\"\nenemy = \"g\""), "c");
    for (a, b) in [
        ("hits-inflicted", "hits-taken"),
        ("hits-taken", "hits-inflicted"),
        ("enemy-morale", "own-morale"),
        ("own-morale", "enemy-morale"),
    ] {
        let (x, y) = (measure(plain.as_ref(), a), measure(swapped.as_ref(), b));
        assert_eq!(x.len(), y.len());
        for (p, q) in x.iter().zip(&y) {
            assert!(close(*p, *q), "{a} vs swapped {b}");
        }
    }
    // Each side's P(beaten or destroyed) is its opponent's win or the
    // destruction labels.
    let p = labels(plain.as_ref());
    let enemy = measure(plain.as_ref(), "enemy-morale");
    assert!(close(
        enemy[2] + enemy[3],
        p["attacker wins"] + p["defender destroyed"] + p["both destroyed"]
    ));
    let own = measure(plain.as_ref(), "own-morale");
    assert!(close(
        own[2] + own[3],
        p["defender wins"] + p["attacker destroyed"] + p["both destroyed"]
    ));
    scenario_err(
        &with_keys("own = \"pikes\""),
        "course[0].own",
        "no unit named",
    );
    scenario_err(
        &with_keys("own = \"g\"\nenemy = \"g\""),
        "course[0].enemy",
        "same unit",
    );
}
