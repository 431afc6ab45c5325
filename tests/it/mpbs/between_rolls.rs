//! Musket & Pike: what follows each roll in a course, against the cards'
//! arithmetic (docs/rules/mpbs.md, "Courses and engagements" and "Close
//! combat and what follows it"). Every course is checked exactly and, under
//! both kernels, by Monte Carlo within 4.5 standard errors.

use crate::support::assert_close as close;
use crate::support::monte_carlo::{Leaves, assert_sample_matches};
use crate::support::scenario::{p_measure, p_outcome};
use pikeshot::engine::{Kernel, KernelMode};
use pikeshot::run::{RunPlan, prepare_file};
use pikeshot::scenario::Overrides;
use pikeshot::scenario::ScenarioFile;
use pikeshot::systems::mpbs::threshold::casualty_threshold;

/// Builds course `course` of `text` (after `sets`) under `mode`.
fn kernel(text: &str, sets: &[&str], course: &str, mode: KernelMode) -> Box<dyn Kernel> {
    let file = ScenarioFile::from_str("t.toml", text).unwrap_or_else(|e| panic!("{e}"));
    let req = RunPlan {
        kernel: mode,
        overrides: Overrides::parse(sets).unwrap(),
        ..RunPlan::default()
    };
    let p = prepare_file(file, &req).unwrap_or_else(|e| panic!("{e}"));
    p.courses
        .into_iter()
        .find(|c| c.name == course)
        .map(|c| c.kernel)
        .expect("course")
}

/// The exact leaf probabilities of a course, after checking the sampler of
/// both kernels against them (4.5 standard errors, fixed seed).
fn checked(text: &str, sets: &[&str], course: &str) -> (Vec<f64>, Box<dyn Kernel>) {
    let k = kernel(text, sets, course, KernelMode::Auto);
    let probs = k.exact(10_000_000).expect("exact");
    for mode in [KernelMode::Auto, KernelMode::Direct] {
        let k = kernel(text, sets, course, mode);
        assert_sample_matches(
            k.as_ref(),
            &probs,
            20_261_126,
            Leaves::Marginals,
            &format!("{course} {mode:?}"),
        );
    }
    (probs, k)
}

/// A cavalry charge whose DRM total is clamped to +4 (extra_drm 9, the
/// morale differential and strength ratio set to 0): rolls 0-2 give results
/// 4-6, 3-4 Defender Morale Broken and 5-9 Defender Eliminated, so a
/// pursuit check follows on 7/10.
const CHARGE: &str = r#"system = "mpbs"
edition = "series"
RULES
[units.cuir]
kind = "cuirassier"
morale = 7
strength = 4
order = "charge"
LEADER
[units.second]
kind = "cuirassier"
morale = 7
strength = 4
order = "charge"
SECOND
[units.foot]
kind = "arquebusier"
morale = 7
strength = 4
[[course]]
name = "c"
steps = [
  { procedure = "close-combat", attacker = ATTACKERS, defender = "foot", morale_differential = 0, strength_ratio = 0, extra_drm = 9 CCKEYS },
  THEN
]
"#;

fn charge(
    rules: &str,
    leader: &str,
    second: &str,
    attackers: &str,
    cc: &str,
    then: &str,
) -> String {
    CHARGE
        .replace("RULES", rules)
        .replace("LEADER", leader)
        .replace("SECOND", second)
        .replace("ATTACKERS", attackers)
        .replace("CCKEYS", cc)
        .replace("THEN", then)
}

/// The cuirassiers, with a −2 leader, charge alone and then roll
/// Interception, under `rules`.
fn led_charge_then_interception(rules: &str) -> String {
    charge(
        rules,
        "leader = -2",
        "",
        "\"cuir\"",
        "",
        "{ procedure = \"interception\", unit = \"cuir\" }",
    )
}

/// 5.3.3 "0 Return original Leader Immediately": the pinned example of the
/// series card. Cuirassiers with a −2 leader win a close combat (total
/// clamped to +4), then roll Interception (Charge 0-5) with that leader:
/// 0.91 × 0.8 + 0.09 × 0.6 = 0.782 (the leader stays on "no effect" 0.9 and
/// on "returns immediately" 0.01).
#[test]
fn a_leader_that_returns_immediately_keeps_its_modifier() {
    let text = led_charge_then_interception("[rules]\npursuit = false");
    let (p, k) = checked(&text, &[], "c");
    close(
        p_outcome(k.as_ref(), &p, "success"),
        0.91 * 0.8 + 0.09 * 0.6,
    );
    close(p_outcome(k.as_ref(), &p, "success"), 0.782);
    // The same on the SFO card (its leader modifier differs, the tables not).
    let (p, k) = checked(&text, &["edition=sfo"], "c");
    close(p_outcome(k.as_ref(), &p, "success"), 0.782);
}

/// 5.3: the leader at risk is the one whose modifier the close combat used.
/// The lead attacker has no leader; the second attacker's −2 leader gives
/// the modifier, so it rolls Leader Casualty (0.782 again on its own
/// Interception). With `attacker_leader = false` no leader is used, none is
/// at risk: 0.8.
#[test]
fn the_leader_at_risk_is_the_one_used() {
    for (cc, success) in [("", 0.782), (", attacker_leader = false", 0.8)] {
        let text = charge(
            "[rules]\npursuit = false",
            "",
            "leader = -2",
            "[\"cuir\", \"second\"]",
            cc,
            "{ procedure = \"interception\", unit = \"second\" }",
        );
        let (p, k) = checked(&text, &[], "c");
        close(p_outcome(k.as_ref(), &p, "success"), success);
    }
}

/// 11.7.2 leader modifier. The pursuit follows on 7/10; Charge order +1.
/// Series: the −2 leader used in the attack gives +1 (total +2: off map on
/// 7-9, 3/10). SFO: the rating as a plus, +2 (total +3: 6-9, 4/10). A
/// leader not used in the combat gives nothing (total +1: 8-9, 2/10).
#[test]
fn pursuit_takes_the_leadership_modifier_used_in_the_combat() {
    let one = |edition: &str, cc: &str, rules: &str| {
        let text = charge(
            &format!("[rules]\nleader_casualty = false\n{rules}"),
            "leader = -2",
            "",
            "\"cuir\"",
            cc,
            "",
        )
        .replace("  ,\n", "");
        let (p, k) = checked(&text, &[&format!("edition={edition}")], "c");
        p_measure(k.as_ref(), &p, "own-pursued-off-map", 1)
    };
    close(one("series", "", ""), 0.7 * 0.3);
    close(one("sfo", "", ""), 0.7 * 0.4);
    close(one("series", ", attacker_leader = false", ""), 0.7 * 0.2);
    close(one("sfo", ", attacker_leader = false", ""), 0.7 * 0.2);
    // [rules.pursuit] takes the pursuit step's keys: a leader override +2
    // (total +3), and the TACW column with Cromwell -2 and extra_drm +2
    // (total +1: off map on 6+, rolls 5-9).
    close(one("series", "", "[rules.pursuit]\nleader = 2"), 0.7 * 0.4);
    close(
        one(
            "series",
            "",
            "[rules.pursuit]\ncolumn = \"tacw\"\ncromwell = true\nextra_drm = 2",
        ),
        0.7 * 0.5,
    );
    close(one("sfo", "", "[rules.pursuit]\nleader = false"), 0.7 * 0.2);
}

/// 11.7.2: pursuing off the map is its own result, neither broken nor
/// eliminated; a later step that needs the pursuer ends the course with the
/// outcome `pursued-off-map`.
#[test]
fn pursuing_off_the_map_is_not_elimination() {
    let text = led_charge_then_interception("[rules]\nleader_casualty = false");
    let (p, k) = checked(&text, &[], "c");
    close(p_outcome(k.as_ref(), &p, "pursued-off-map"), 0.21);
    close(p_outcome(k.as_ref(), &p, "success"), 0.79 * 0.8);
    close(p_measure(k.as_ref(), &p, "own-morale", 3), 0.0);
    close(p_measure(k.as_ref(), &p, "own-morale", 2), 0.0);
    close(p_measure(k.as_ref(), &p, "own-pursued-off-map", 1), 0.21);
}

/// Chart 6.3: a unit made Morale Broken by a close combat has no formation.
/// Cuirassiers charge heavy infantry at +4; the foot then fires back (front
/// column). Rolls 0-2: the foot wins or is shaken, Formation Shaken after
/// the combat, firing at −2 (2 hits only on 9: 1/10); rolls 3-4: Morale
/// Broken, no formation hit and no formation DRM (2 hits on 7-9: 3/10);
/// rolls 5-9: eliminated, the course ends.
#[test]
fn morale_broken_means_no_formation() {
    let text = r#"system = "mpbs"
edition = "series"
[rules]
pursuit = false
[units.cuir]
kind = "cuirassier"
morale = 7
strength = 4
[units.foot]
kind = "heavy-infantry"
morale = 7
strength = 6
[[course]]
name = "c"
steps = [
  { procedure = "close-combat", attacker = "cuir", defender = "foot", morale_differential = 0, strength_ratio = 0, extra_drm = 9 },
  { procedure = "musketry", firer = "foot", target = "cuir", column = "front" },
]
"#;
    for edition in ["series", "sfo"] {
        let (p, k) = checked(text, &[&format!("edition={edition}")], "c");
        close(
            p_measure(k.as_ref(), &p, "hits-taken", 2),
            0.3 * 0.1 + 0.2 * 0.3,
        );
        close(
            p_measure(k.as_ref(), &p, "formation-hits-inflicted", 1),
            0.3,
        );
        close(
            p_outcome(k.as_ref(), &p, "ended-early-unit-eliminated"),
            0.5,
        );
    }
}

const INTERCEPT: &str = r#"system = "mpbs"
edition = "EDITION"
RULES
[units.cav]
kind = "cuirassier"
morale = MORALE
strength = 4
[[course]]
name = "i"
steps = [{ procedure = "interception", unit = "cav" }]
"#;

fn intercept(edition: &str, morale: u8, rules: &str) -> f64 {
    let text = INTERCEPT
        .replace("EDITION", edition)
        .replace("MORALE", &morale.to_string())
        .replace("RULES", rules);
    let (p, k) = checked(&text, &[], "i");
    p_outcome(k.as_ref(), &p, "success")
}

/// Morale 9 reads as 8 on every table: Interception −1 (Charge 0-5: rolls
/// 0-6), the Casualty Threshold row of 8.
#[test]
fn morale_9_reads_as_8_everywhere() {
    for edition in ["sfo", "series"] {
        close(intercept(edition, 9, ""), 0.7);
        close(intercept(edition, 8, ""), 0.7);
        close(intercept(edition, 7, ""), 0.6);
    }
    for strength in 2..=20 {
        assert_eq!(
            casualty_threshold(9, strength),
            casualty_threshold(8, strength)
        );
    }
}

/// 9.3 on the SFO card: "Original Morale of 6" reads "6 or less" (+1:
/// Charge 0-5 at +1, rolls 0-4), as the series card prints it; the old
/// reading, exactly 6, is a switch.
#[test]
fn sfo_interception_morale_6_reads_6_or_less() {
    for morale in [4, 5, 6] {
        close(intercept("sfo", morale, ""), 0.5);
        close(intercept("series", morale, ""), 0.5);
    }
    let exactly = "[rules]\nsfo_interception_morale_6 = \"exactly-6\"";
    close(intercept("sfo", 5, exactly), 0.6);
    close(intercept("sfo", 6, exactly), 0.5);
    // The series card prints "6 or less": the switch does not change it.
    close(intercept("series", 5, exactly), 0.5);
}

/// 5.3.3 "1 Use Replacement, but original Leader returns at end of next
/// turn" in an engagement. The cuirassiers' close combat (total clamped to
/// +4, every result using the −2 leader) comes first, once; Interception
/// (Charge 0-5; the −2 leader makes 0-7 succeed, 8/10, else 6/10) then
/// repeats for three turns. The leader is removed on a 9 (1/10): then a 1
/// (1/10) brings it back at the end of the next turn, 2-9 (8/10) never. So
/// it is away for 0.01 + 0.08 of turns 1 and 2, and 0.08 of turn 3:
/// Interception succeeds 0.91 × 0.8 + 0.09 × 0.6 = 0.782 in turns 1 and 2,
/// and 0.92 × 0.8 + 0.08 × 0.6 = 0.784 in turn 3, on both cards.
#[test]
fn a_leader_that_returns_at_the_end_of_the_next_turn_is_back_the_turn_after() {
    use pikeshot::explain::{ExplainRequest, explain_file};
    let text = charge(
        "[rules]\npursuit = false",
        "leader = -2",
        "",
        "\"cuir\"",
        "",
        "{ procedure = \"interception\", unit = \"cuir\" }",
    )
    .replace(
        "name = \"c\"\n",
        "name = \"c\"\nrepeat = { turns = 3, from_step = 1 }\n",
    );
    for edition in ["series", "sfo"] {
        let file = ScenarioFile::from_str("t.toml", &text).unwrap();
        let req = ExplainRequest {
            overrides: Overrides::parse(&[format!("edition={edition}")]).unwrap(),
            ..ExplainRequest::default()
        };
        let x = explain_file(file, &req).unwrap_or_else(|e| panic!("{e}"));
        let course = &x.variants[0].courses[0];
        let success: Vec<f64> = course
            .steps
            .iter()
            .filter(|s| s.procedure == "interception")
            .map(|s| s.results.iter().find(|r| r.id == "success").unwrap().p)
            .collect();
        assert_eq!(success.len(), 3, "{edition}: one Interception a turn");
        close(success[0], 0.91 * 0.8 + 0.09 * 0.6);
        close(success[1], 0.782);
        close(success[2], 0.92 * 0.8 + 0.08 * 0.6);
        close(success[2], 0.784);
    }
    // The run itself agrees with its sampler (4.5 standard errors).
    checked(&text, &[], "c");
}

/// Two cuirassiers (`lead` and `second`, morale 7) close together on
/// cuirassiers (`enemy`, morale 7); then `second` fights `enemy` again
/// alone. Matrix 0, strength ratio 0 (set), no leaders, pursuit off.
const TWO_THEN_ONE: &str = r#"system = "mpbs"
edition = "EDITION"
[rules]
pursuit = false
[units.lead]
kind = "cuirassier"
morale = 7
strength = 4
[units.second]
kind = "cuirassier"
morale = 7
strength = 4
[units.enemy]
kind = "cuirassier"
morale = 7
strength = 4
[[course]]
name = "c"
own = "second"
enemy = "enemy"
steps = [
  { procedure = "close-combat", attacker = ["lead", "second"], defender = "enemy", strength_ratio = 0 },
  { procedure = "close-combat", attacker = "second", defender = "enemy", strength_ratio = 0 },
]
"#;

/// 11.0: "Attacker Morale Broken…", "Attacker Morale Shaken…" and the
/// Formation Hit after close combat fall on every attacking unit, so the
/// second attacker fights on under the result the first combat left.
///
/// First combat, DRM 0 (morale differential 7 − 7 = 0), roll r:
/// - r 0 (1/10): Attacker Eliminated, both attackers: the course ends
///   (`ended-early-unit-eliminated`).
/// - r 1-2 (2/10): attackers MB (no formation, 6.3), enemy FS. Second combat:
///   morale differential 5 − 7 = −2, enemy FS +1: DRM −1.
/// - r 3-4 (2/10): attackers MS and FS, enemy FS: −1 − 1 + 1 = −1.
/// - r 5-6 (2/10): enemy MS, everyone FS: +1 − 1 + 1 = +1.
/// - r 7-8 (2/10): enemy MB (no formation), second FS: +2 − 1 = +1.
/// - r 9 (1/10): Defender Eliminated, the course ends.
///
/// Second combat at −1 (mass 0.4): ≤0 on rolls 0-1 (2/10), 1-2 on 2-3,
/// 3 on 4, 4 on 5, 5 on 6, 6 on 7, 7-8 on 8-9, never ≥9. At +1 (mass 0.4):
/// never ≤0, 1-2 on 0-1, 3 on 2, 4 on 3, 5 on 4, 6 on 5, 7-8 on 6-7, ≥9 on
/// 8-9. So: attacker-eliminated 0.4 × 0.2 = 0.08; attacker-broken-retreat-2
/// 0.4 × 0.2 + 0.4 × 0.2 = 0.16; each shaken result 0.4 × 0.1 × 2 = 0.08;
/// defender-broken-retreat-2 0.16; defender-eliminated 0.4 × 0.2 = 0.08;
/// ended early 0.1 + 0.1 = 0.2.
///
/// The second attacker eliminated (own-morale 3): r 0 (0.1); r 1-2 (0.2)
/// with any attacker result at −1 (a loss while MB eliminates: 0.2 + 0.2 +
/// 0.1 + 0.1 = 0.6), 0.12; r 3-4 (0.2) with Attacker Eliminated at −1
/// (0.2), 0.04: 0.1 + 0.12 + 0.04 = 0.26. (Carrying the lead attacker's
/// result alone, the second would fight at +1 or +2 in Formation Normal:
/// never attacker-eliminated, ended early only on r 9.)
#[test]
fn every_attacker_carries_the_close_combat_result() {
    for edition in ["series", "sfo"] {
        let text = TWO_THEN_ONE.replace("EDITION", edition);
        let (p, k) = checked(&text, &[], "c");
        let k = k.as_ref();
        for (label, want) in [
            ("attacker-eliminated", 0.08),
            ("attacker-broken-retreat-2", 0.16),
            ("attacker-shaken-retreat-2", 0.08),
            ("attacker-shaken-retreat-1", 0.08),
            ("defender-shaken-retreat-1", 0.08),
            ("defender-shaken-retreat-2", 0.08),
            ("defender-broken-retreat-2", 0.16),
            ("defender-eliminated", 0.08),
            ("ended-early-unit-eliminated", 0.2),
        ] {
            close(p_outcome(k, &p, label), want);
        }
        close(p_measure(k, &p, "own-morale", 3), 0.26);
    }
}

/// `explain` shows what the first combat left on every attacker in the
/// later step: after r 3-4 of the first combat (see above) both attackers
/// are Morale Shaken and Formation Shaken.
#[test]
fn explain_shows_the_result_carried_on_every_attacker() {
    let text = TWO_THEN_ONE.replace("EDITION", "series");
    let e = crate::support::explain::explained(&text);
    let steps = &e.variants[0].courses[0].steps;
    let first = &steps[0];
    assert!(
        first.title.contains("lead and second against enemy"),
        "{}",
        first.title
    );
    let second = steps
        .iter()
        .find(|s| s.title.starts_with("step 2"))
        .expect("step 2");
    let case = second
        .cases
        .iter()
        .find(|c| {
            c.state
                .iter()
                .any(|l| l.starts_with("lead:") && l.contains("morale shaken"))
        })
        .unwrap_or_else(|| {
            panic!(
                "{:#?}",
                second.cases.iter().map(|c| &c.state).collect::<Vec<_>>()
            )
        });
    close(case.p_reached, 0.2);
    for unit in ["lead", "second"] {
        let line = case
            .state
            .iter()
            .find(|l| l.starts_with(&format!("{unit}:")))
            .unwrap_or_else(|| panic!("{unit} in {:?}", case.state));
        assert!(line.contains("formation shaken"), "{line}");
        assert!(line.contains("morale shaken"), "{line}");
    }
    // Morale differential 6 − 7 = −1 read from the carried state.
    assert_eq!(case.roll.raw_total, -1);
}
