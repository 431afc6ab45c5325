//! Hakkaa Päälle between rolls: units in contact after a close combat fight
//! the next close combat without Closing or Charge Reaction tests.

use crate::support::close;
use crate::support::course::{agrees_under_both_kernels, course, measure};

const IN_CONTACT: &str = "name = \"t\"\nsystem = \"hakkaa\"\n\n\
    [units.a]\ntype = \"hbc\"\ntq = \"trained\"\nsteps = 4\n\n\
    [units.b]\ntype = \"hbc\"\ntq = \"trained\"\nsteps = 4\n\n\
    [[course]]\nname = \"c\"\nsteps = [\n\
      { procedure = \"close-combat\", attacker = \"a\", defender = \"b\" },\n\
      { procedure = \"charge\", charger = \"a\", target = \"b\", closing_row = \"Skirmishing\" },\n]\n";

#[test]
fn units_in_contact_do_not_close_again() {
    // Close combat: a side that rolls DS or S (2d6 <= 8 for Trained, 26/36)
    // at most disorders and stays; F or DF falls back. Both stay with
    // (26/36)^2: then the charge is already in contact and fights a second
    // close combat. Otherwise the Skirmishing Closing row (F_B in every column)
    // never reaches contact.
    let k = course(IN_CONTACT, "c");
    let cc = measure(k.as_ref(), "close-combats");
    let both = (26.0f64 / 36.0).powi(2);
    assert!(close(cc[2], both), "{cc:?}");
    assert!(close(cc[1], 1.0 - both));
    agrees_under_both_kernels(IN_CONTACT, "c", 0xe9_1401);
}
