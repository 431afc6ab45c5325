//! `pikeshot explain` of Snaphance: a pool built line by line (SP, each
//! ±D6 with its rule and what set it; a line that cannot apply says why),
//! the morale test each hit stand takes with its adjusted morale line by
//! line, and the results equal to `run --method exact`.

use pikeshot::explain::{self, PoolLine, SourceKind};
use pikeshot::stats;

use super::explained;
use crate::support::assert_close;
use crate::support::scenario::{course, exact, prepare};

const FIGHTS: &str = r#"
system = "snaphance"

[units.shot]
kind = "shot"
strength = 4
disordered = true

[units.pike]
kind = "pike"
strength = 4
ranks = 2
terrain = "woods"
leader = true

[units.gendarmes]
kind = "gendarmes"
strength = 4
leader = true

[units.block]
kind = "pike"
strength = 4
ranks = 2

[[course]]
name = "volley"
own = "shot"
enemy = "pike"
steps = [{ procedure = "fire", firer = "shot", target = "pike", range_dice = 1 }]

[[course]]
name = "frontal charge"
own = "gendarmes"
enemy = "block"
steps = [{ procedure = "melee", attacker = "gendarmes", defender = "block" }]
"#;

fn line<'a>(pool: &'a [PoolLine], label: &str) -> &'a PoolLine {
    pool.iter()
        .find(|l| l.label.starts_with(label))
        .unwrap_or_else(|| panic!("no {label} in {pool:?}"))
}

#[test]
fn a_volley_builds_its_dice_line_by_line_and_the_target_tests_morale_per_hit() {
    let e = explained(FIGHTS);
    let r = &e.variants[0].courses[0].steps[0].cases[0].roll;
    // 4 SP, +1 range (army list, the step's key), -1 firer disordered,
    // -1 target in cover (woods): 3 dice.
    let sp = line(&r.pool, "1D6 per remaining SP");
    assert_eq!((sp.dice, sp.source.kind), (4, SourceKind::Unit));
    let range = line(&r.pool, "range factor");
    assert_eq!(
        (range.dice, range.source.detail.as_str()),
        (1, "range_dice = 1")
    );
    let dis = line(&r.pool, "firer disordered");
    assert_eq!(
        (dis.dice, dis.source.detail.as_str()),
        (-1, "shot: disordered = true")
    );
    let cover = line(&r.pool, "target in cover");
    assert_eq!((cover.dice, cover.rule.as_str()), (-1, "Firing"));
    assert_eq!(explain::pool_sum(&r.pool), 3);
    assert_eq!(r.dice, "3d6 (a pool)");
    let text = explain::text::render(&e);
    assert!(
        text.contains("-1  target in cover (woods) (Firing) — unit: pike is in woods  (= 3)"),
        "{text}"
    );
    // The pike's morale: 4 SP +1 leader -1 disordered (it cannot recover
    // in woods) = 4, then -1 a hit; 1 always passes, 6 always fails.
    let one = &r.follow_ups[0];
    assert_eq!(one.when, "on 1 hit from shot's fire: pike morale test");
    let m = &one.roll;
    let values: Vec<(&str, i32)> = m
        .modifiers
        .iter()
        .map(|t| (t.label.as_str(), t.value))
        .collect();
    assert_eq!(
        values,
        [
            ("commencing strength points", 4),
            ("commander attached", 1),
            ("disordered", -1),
            ("each hit just taken (1)", -1),
        ]
    );
    assert_eq!(
        m.modifiers[2].source.detail,
        "pike is in woods and cannot recover there"
    );
    assert_eq!(m.column.as_deref(), Some("adjusted morale 3"));
    let faces: Vec<(&str, &str)> = m
        .faces
        .iter()
        .map(|f| (f.faces.as_str(), f.result.as_str()))
        .collect();
    assert_eq!(
        faces,
        [
            ("1", "pass"),
            ("2-3", "pass"),
            ("4-5", "fail: loses 1 SP"),
            ("6", "fail: loses 1 SP")
        ]
    );
    // One follow-up per number of hits the 3 dice can score.
    assert_eq!(r.follow_ups.len(), 3);
}

#[test]
fn horse_against_pikes_loses_its_charge_bonus_and_says_so() {
    let e = explained(FIGHTS);
    let r = &e.variants[0].courses[1].steps[0].cases[0].roll;
    let cb = line(&r.pool, "no Charge Bonus");
    assert!(!cb.applied);
    assert_eq!(cb.note.as_deref(), Some("horse vs Pikes, P&S, Tercio"));
    // The defender's pool follows: 4 SP and +2D6 for each of 2 ranks vs horse.
    let d = &r.follow_ups[0];
    assert_eq!(d.when, "at the same time: block dice");
    let ranks = line(&d.roll.pool, "2 extra rank(s) of pikes vs horse");
    assert_eq!((ranks.dice, ranks.applied), (4, true));
    assert!(ranks.source.detail.contains("pike_ranks = each"));
    assert_eq!(explain::pool_sum(&d.roll.pool), 8);
}

#[test]
fn the_results_are_the_exact_runs() {
    let e = explained(FIGHTS);
    for (i, name) in ["volley", "frontal charge"].iter().enumerate() {
        let c = &e.variants[0].courses[i];
        let k = course(prepare("s.toml", FIGHTS), name);
        let probs = stats::outcome_probs(k.space(), &exact(k.as_ref()));
        assert_eq!(c.outcomes.len(), probs.len());
        for (r, p) in c.outcomes.iter().zip(&probs) {
            assert_close(r.p, *p);
        }
        // One roll: the step's results are the course's.
        for (a, b) in c.steps[0].results.iter().zip(&c.outcomes) {
            assert_close(a.p, b.p);
        }
    }
}
