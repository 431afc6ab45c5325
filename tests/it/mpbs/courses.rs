//! Musket & Pike courses and engagements: state carried between rolls, the
//! morale checks of 10.6, the Casualty Threshold, pursuit, Unable to Retreat
//! and turn counting, each against hand arithmetic on the exact answer.

use crate::support::scenario::Want::{Measure as M, Outcome as O};
use crate::support::scenario::{assert_course, input_error};

/// A firer (morale 7, 6 SP) and a target (morale 6, `strength` SP, `cp`
/// Casualty Points) under the `rules` lines, and the head of a course "c"
/// between them.
fn duel(rules: &str, strength: u8, cp: u8) -> String {
    format!(
        r#"system = "mpbs"
edition = "series"
{rules}
[units.firer]
kind = "heavy-infantry"
morale = 7
strength = 6
[units.target]
kind = "heavy-infantry"
morale = 6
strength = {strength}
casualty_points = {cp}
[[course]]
name = "c"
"#
    )
}

/// [`duel`] with a target of 8 SP and one volley in `column`.
fn fire(rules: &str, cp: u8, column: &str) -> String {
    format!(
        r#"{}steps = [{{ procedure = "musketry", firer = "firer", target = "target", column = "{column}" }}]
"#,
        duel(rules, 8, cp)
    )
}

/// Series HI Salvo at DRM 0: faces 0-1 miss, 2-5 one hit, 6-9 two hits.
/// Every salvo target checks morale (10.6.3), combined with the hits
/// check (10.6.2) into one: P(fail) = P(d10 > 6) = 3/10.
#[test]
fn a_salvo_target_takes_one_combined_morale_check() {
    assert_course(
        &fire("", 0, "salvo"),
        "c",
        &[
            M("enemy-morale", 1, 0.3),
            M("enemy-morale", 0, 0.7),
            M("hits-inflicted", 0, 0.2),
            M("hits-inflicted", 1, 0.4),
            M("hits-inflicted", 2, 0.4),
        ],
    );
}

/// Without 10.6.3 only a hit triggers the check: 0.8 x 0.3.
#[test]
fn salvo_check_can_be_switched_off() {
    let rules = "[rules]\nmorale_check_on_salvo = false";
    assert_course(&fire(rules, 0, "salvo"), "c", &[M("enemy-morale", 1, 0.24)]);
}

/// Checks one per trigger: a hit and the salvo give two checks (each
/// failure one level down), a miss only the salvo's.
#[test]
fn uncombined_checks_stack() {
    let rules = "[rules]\nmorale_checks_combined = false";
    assert_course(
        &fire(rules, 0, "salvo"),
        "c",
        &[
            M("enemy-morale", 2, 0.8 * 0.09),
            M("enemy-morale", 1, 0.2 * 0.3 + 0.8 * 2.0 * 0.3 * 0.7),
        ],
    );
}

/// Morale 6, strength 8: Casualty Threshold 3 (12.5). At 2 CP any hit
/// (faces 1-9 on the series Front column) reaches it and triggers 10.6.4.
#[test]
fn reaching_the_casualty_threshold_triggers_a_check() {
    let rules = "[rules]\nmorale_check_on_hits = false";
    assert_course(
        &fire(rules, 2, "front"),
        "c",
        &[M("enemy-morale", 1, 0.9 * 0.3)],
    );
    // Already past the threshold: no further check.
    assert_course(&fire(rules, 3, "front"), "c", &[M("enemy-morale", 1, 0.0)]);
}

const CHARGE: &str = concat!(
    "system = \"mpbs\"\nedition = \"series\"\nRULES\n",
    crate::mpbs_horse_and_foot!(),
    "can_retreat = RETREAT\n[[course]]\nname = \"c\"\n",
    crate::mpbs_charge_step!()
);

/// The charge course with `rules` and `can_retreat`.
fn charge(rules: &str, retreat: bool) -> String {
    CHARGE
        .replace("RULES", rules)
        .replace("RETREAT", &retreat.to_string())
}

/// Cuirassiers (morale 7, 4 SP, Charge, momentum) on heavy infantry (morale
/// 6, 8 SP): morale +1, strength 1:2 -1, matrix -1, cavalry momentum +2 =
/// +1. Faces 6-7 defender Morale Broken, 8-9 eliminated; on both the
/// cuirassiers pursue (Other column: +1 Charge order, +1 momentum): faces
/// 0-2 break off, 3-6 pursue and eliminate, 7-9 off map (the pursuer lost).
#[test]
fn victorious_cavalry_pursues() {
    assert_course(
        &charge("", true),
        "c",
        &[
            M("enemy-morale", 3, 0.2 + 0.2 * 0.7),
            // Pursuing off the map (0.4 x 0.3) is its own result, not
            // elimination (docs/rules/mpbs.md, Cavalry Pursuit).
            M("own-morale", 3, 0.0),
            M("own-pursued-off-map", 1, 0.4 * 0.3),
            // The table result is still what the course reports.
            O("defender-broken-retreat-2", 0.2),
        ],
    );
    let no_pursuit = charge("[rules]\npursuit = false", true);
    assert_course(
        &no_pursuit,
        "c",
        &[M("enemy-morale", 3, 0.2), M("own-morale", 3, 0.0)],
    );
}

/// A defender that cannot retreat and is Morale Broken rolls 11.4.5: base
/// morale 6 gives -2, so faces 0-6 eliminate (7/10) and 7-9 stand at Morale
/// Shaken.
#[test]
fn a_broken_unit_that_cannot_retreat_rolls_for_it() {
    assert_course(
        &charge("[rules]\npursuit = false", false),
        "c",
        &[
            M("enemy-morale", 3, 0.2 + 0.2 * 0.7),
            M("enemy-morale", 1, 0.2 + 0.2 * 0.3),
        ],
    );
}

/// [`duel`] with a target of 2 SP (threshold 1) and without morale checks.
fn threshold_duel() -> String {
    duel(
        "[rules]\nmorale_check_on_hits = false\nmorale_check_on_threshold = false",
        2,
        0,
    )
}

/// An engagement: front fire each turn until the target (morale 6, 2 SP,
/// threshold 1) reaches its threshold; a hit is 9/10 a turn.
#[test]
fn engagements_count_turns_to_each_stop() {
    let text = format!(
        "{}{}",
        threshold_duel(),
        r#"steps = [{ procedure = "musketry", firer = "firer", target = "target", column = "front" }]
repeat = { turns = 3, until = ["enemy-threshold"] }
"#
    );
    assert_course(
        &text,
        "c",
        &[
            O("enemy-casualty-threshold", 0.999),
            O("turn-limit", 0.001),
            M("turns", 1, 0.9),
            M("turns", 2, 0.09),
            M("turns", 3, 0.01),
        ],
    );
}

/// `from_step = 1`: the first volley is fired once, the second every turn;
/// each volley reaches the threshold 9 times in 10 (as above).
#[test]
fn steps_before_from_step_run_once() {
    let text = |from: u8| {
        format!(
            r#"{}steps = [
  {{ procedure = "musketry", firer = "firer", target = "target", column = "front" }},
  {{ procedure = "musketry", firer = "firer", target = "target", column = "front" }},
]
repeat = {{ turns = 2, until = ["enemy-threshold"], from_step = {from} }}
"#,
            threshold_duel()
        )
    };
    // 1 + 2 volleys, then 2 × 2.
    for (from, volleys) in [(1, 3), (0, 4)] {
        assert_course(
            &text(from),
            "c",
            &[O("turn-limit", 0.1f64.powi(volleys)), M("turns", 2, 0.01)],
        );
    }
    let e = input_error("t.toml", &text(2)).to_string();
    assert!(
        e.contains("repeat.from_step") && e.contains("from 0 to 1"),
        "{e}"
    );
}

/// A course that would fire a second salvo with the marker the first one
/// placed is refused, pointing at the second step.
#[test]
fn a_second_salvo_is_refused() {
    let salvo =
        r#"{ procedure = "musketry", firer = "firer", target = "target", column = "salvo" }"#;
    let text = fire("", 0, "salvo").replace(
        &format!("steps = [{salvo}]"),
        &format!("steps = [\n  {salvo},\n  {salvo},\n]"),
    );
    let e = input_error("t.toml", &text).to_string();
    assert!(
        e.contains("t.toml:17")
            && e.contains("course[0].steps[1].column")
            && e.contains("Salvo marker"),
        "{e}"
    );
}
