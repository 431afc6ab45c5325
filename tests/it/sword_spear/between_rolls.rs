//! Sword & Spear between rolls: an early rout is reported as a rout with
//! the step the course ended at, impetus only in the round it applies to,
//! "shot this phase" does not outlive the melee of that phase, and melee
//! reports Discipline tests apart from hits.

use pikeshot::stats;

use crate::support::close;
use crate::support::course::{
    agrees_under_both_kernels, assert_no_stop_outcome, course, exact_of, measure, outcome,
};

#[test]
fn three_longbow_volleys_rout_the_target_as_often_as_they_do() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/sword-and-spear/longbow-vs-heavily-armoured.toml"
    ))
    .unwrap();
    let one = course(&text, "one volley at 5 DU");
    let first = outcome(one.as_ref(), "target-routs");
    let k = course(&text, "three volleys");
    assert_no_stop_outcome(k.as_ref(), |o| o.starts_with("stopped-"));
    let routs = outcome(k.as_ref(), "target-routs");
    // A rout in any volley is a rout (12.1%, not the 7.8% of the last volley
    // alone); the course ends at the volley that routed it.
    assert!((routs - 0.121).abs() < 0.0005, "{routs}");
    assert!(close(routs + outcome(k.as_ref(), "target-stands"), 1.0));
    let ended = measure(k.as_ref(), "ended-at-step");
    assert!(close(ended[0], first));
    assert!(ended[1] > 0.0 && ended[2] > 0.0);
    agrees_under_both_kernels(&text, "three volleys", 0x55_1201);
}

const SHOOT_THEN_FIGHT: &str = "name = \"t\"\nsystem = \"sword-and-spear\"\n\n\
    [units.h]\ntroop = \"cavalry\"\ndiscipline = 3\nstrength = 3\nweapon = \"bow\"\n\n\
    [units.s]\ntroop = \"medium-foot\"\ndiscipline = 4\nstrength = 4\n\n";

fn shoot_then_fight(third: &str) -> String {
    format!(
        "{SHOOT_THEN_FIGHT}[[course]]\nname = \"c\"\nsteps = [\n\
         {{ procedure = \"shooting\", firer = \"h\", target = \"s\", range = 4 }},\n\
         {{ procedure = \"melee\", attacker = \"h\", defender = \"s\", attacker_charged = true }},\n\
         {{ procedure = \"melee\", attacker = \"h\", defender = \"s\", attacker_charged = true{third} }},\n]\n"
    )
}

#[test]
fn shot_this_phase_ends_with_the_melee_of_that_phase() {
    // The second melee is a later phase: the cavalry that shot before the
    // first melee has its impetus again, exactly as if `attacker_shot =
    // false` were written, and not as with `attacker_shot = true`.
    let plain = exact_of(course(&shoot_then_fight(""), "c").as_ref());
    let reset = exact_of(course(&shoot_then_fight(", attacker_shot = false"), "c").as_ref());
    let kept = exact_of(course(&shoot_then_fight(", attacker_shot = true"), "c").as_ref());
    assert_eq!(plain.len(), reset.len());
    assert!(plain.iter().zip(&reset).all(|(a, b)| close(*a, *b)));
    assert!(plain.iter().zip(&kept).any(|(a, b)| (a - b).abs() > 1e-6));
    agrees_under_both_kernels(&shoot_then_fight(""), "c", 0x55_1301);
}

const MELEE: &str = "name = \"t\"\nsystem = \"sword-and-spear\"\n\n\
    [units.a]\ntroop = \"medium-foot\"\ndiscipline = 4\nstrength = 4\n\n\
    [units.b]\ntroop = \"heavy-foot\"\ndiscipline = 3\nstrength = 4\narmour = \"armoured\"\n\n\
    [[course]]\nname = \"melee\"\nsteps = [{ procedure = \"melee\", attacker = \"a\", defender = \"b\" }]\n";

#[test]
fn melee_reports_discipline_tests_apart_from_hits() {
    use pikeshot::procedure::Procedure;
    use pikeshot::systems::sword_spear::melee::{MeleeInput, MeleeRound};
    use pikeshot::systems::sword_spear::troops::Troop;
    use pikeshot::systems::sword_spear::unit::{Armour, Unit};
    let k = course(MELEE, "melee");
    let mut b = Unit::new("b", Troop::HeavyFoot, 3, 4);
    b.armour = Armour::Armoured;
    let r = MeleeRound::new(
        &MeleeInput::new(Unit::new("a", Troop::MediumFoot, 4, 4), b),
        true,
    )
    .unwrap();
    let p = pikeshot::engine::exact::exact(&r, 10_000_000).unwrap();
    for (course_m, round_m) in [
        ("tests-taken", "attacker-tests"),
        ("tests-inflicted", "defender-tests"),
        ("hits-taken", "attacker-hits"),
        ("hits-inflicted", "defender-hits"),
    ] {
        let want = stats::measure_probs(r.space(), r.space().measure_index(round_m).unwrap(), &p);
        let got = measure(k.as_ref(), course_m);
        for (i, w) in want.iter().enumerate() {
            let g = got.get(i).copied().unwrap_or(0.0);
            assert!((g - w).abs() < 1e-12, "{course_m}={i}: {g} vs {w}");
        }
    }
    agrees_under_both_kernels(MELEE, "melee", 0x55_1601);
}
