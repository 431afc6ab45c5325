//! Snaphance between rolls (issue "rules between rolls"): Pursuit 13.0
//! follows a won melee only, and a course that ends early reports what
//! happened with the step it ended at.

use crate::support::close;
use crate::support::course::{
    agrees_under_both_kernels, assert_no_stop_outcome, course, measure, outcome,
};

const GENDARMES: &str = "name = \"t\"\nsystem = \"snaphance\"\n\n\
    [units.gendarmes]\nkind = \"gendarmes\"\nstrength = 4\nleader = true\n\n\
    [units.pike]\nkind = \"pike\"\nstrength = 4\nranks = 2\n\n\
    [[course]]\nname = \"melee\"\nsteps = [{ procedure = \"melee\", attacker = \"gendarmes\", defender = \"pike\", attack_on = \"flank\" }]\n\n\
    [[course]]\nname = \"pursue\"\nsteps = [\n\
      { procedure = \"melee\", attacker = \"gendarmes\", defender = \"pike\", attack_on = \"flank\" },\n\
      { procedure = \"pursuit\", pursuer = \"gendarmes\", leader_adjust = 1 },\n]\n";

#[test]
fn pursuit_follows_a_won_melee_only() {
    // 13.0: the winner pursues. Gendarmes with their leader's +1 read a
    // modified 2-7: 1H on 2-3, 2H on 4-5, 3H on 6 (7 reads 6), a third
    // each. After a lost or drawn melee no die is rolled: no pursuit.
    let m = course(GENDARMES, "melee");
    let won = outcome(m.as_ref(), "attacker wins") + outcome(m.as_ref(), "defender destroyed");
    assert!(won > 0.5 && won < 0.7, "gendarmes win {won}");
    let k = course(GENDARMES, "pursue");
    assert!(close(outcome(k.as_ref(), "no pursuit"), 1.0 - won));
    for h in ["pursue 1H", "pursue 2H", "pursue 3H"] {
        assert!(close(outcome(k.as_ref(), h), won / 3.0), "{h}");
    }
    agrees_under_both_kernels(GENDARMES, "pursue", 0x5a_1301);
}

const GUNS: &str = "name = \"t\"\nsystem = \"snaphance\"\n\n\
    [units.guns]\nkind = \"artillery\"\nstrength = 3\n\n\
    [units.pike]\nkind = \"pike\"\nstrength = 2\n\n\
    [[course]]\nname = \"once\"\nsteps = [{ procedure = \"fire\", firer = \"guns\", target = \"pike\", point_blank = true }]\n\n\
    [[course]]\nname = \"fire, then melee\"\nsteps = [\n\
      { procedure = \"fire\", firer = \"guns\", target = \"pike\", point_blank = true },\n\
      { procedure = \"melee\", attacker = \"guns\", defender = \"pike\" },\n]\n";

#[test]
fn a_stand_destroyed_early_is_reported_as_destroyed() {
    // Point-blank artillery may destroy the 2-SP pike at once (cap 2): the
    // melee never happens, and the course reports "defender destroyed"
    // (what happened) with ended-at-step = 1.
    let once = course(GUNS, "once");
    let gone = outcome(once.as_ref(), "destroyed");
    assert!(gone > 0.0);
    let k = course(GUNS, "fire, then melee");
    assert_no_stop_outcome(k.as_ref(), |o| o.contains("ended early"));
    let ended = measure(k.as_ref(), "ended-at-step");
    assert!(close(ended[0], gone));
    assert!(close(ended[1], 1.0 - gone));
    assert!(outcome(k.as_ref(), "defender destroyed") >= gone - 1e-12);
    agrees_under_both_kernels(GUNS, "fire, then melee", 0x5a_1201);
}
