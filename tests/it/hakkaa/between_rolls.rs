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

/// A charger that starts fell back (from an earlier turn) charges each turn
/// for two turns. Both units are Fanatic HBC; the charger's `extra_tq = 1`
/// offsets its Disordered −1, so both test on the Fanatic row (DS 2-6 15/36,
/// S 7-11 20/36, F 12 1/36, no DF). Closing row HBC (DS A_R, S A, F A) with
/// `favourable = true, unfavourable = false`: always into contact. Charge
/// Reaction, Other Cavalry at a gallop (DS St Fi, S (d) ½Fi, F (d), DF
/// Flee) with no Fire Points: a steady target always stands.
const FELL_BACK_CHARGER: &str = "name = \"t\"\nsystem = \"hakkaa\"\n\n\
    [units.a]\ntype = \"hbc\"\ntq = \"fanatic\"\nsteps = 4\nstatus = \"fell-back\"\nextra_tq = 1\n\n\
    [units.b]\ntype = \"hbc\"\ntq = \"fanatic\"\nsteps = 4\n\n\
    [[course]]\nname = \"c\"\nrepeat = { turns = 2 }\nsteps = [\n\
      { procedure = \"charge\", charger = \"a\", target = \"b\", favourable = true, unfavourable = false },\n]\n";

/// Close combat table: "-" Unit status unchanged; D Fall Back if
/// Disordered, Disorder if not; F Flee if Disordered, Fall Back if not.
/// Contact follows this turn's results, not the charger's old "fell back".
///
/// Turn 1 close combat: the charger (Disordered, fell back) stays in place
/// only on DS "-" (15/36); S D falls back again (20/36); F flees (1/36:
/// `own-fled` stops the engagement). The steady target stays on DS and S
/// (35/36) and falls back on F (1/36). So the two stay in contact with
/// 15/36 × 35/36 = 525/1296, and turn 2 rolls no Closing test and no Charge
/// Reaction: it fights at once. Turn 2 rolls Closing with (20 × 36 + 15 ×
/// 1)/1296 = 735/1296.
///
/// A turn-2 charge always makes contact, but the target's Charge Reaction
/// depends on its status: steady (target DS in turn 1), it stands; Disordered
/// or fell back, it tests at −1 (Elite row: DS 2-5 10/36 stands; S, F and
/// DF (d) or Flee: 26/36 it flees, and no close combat). So, over 36^3 =
/// 46656: two close combats = in contact 525 × 36 = 18900, plus charger S
/// and target DS 20 × 15 × 36 = 10800, plus a target Disordered or fell
/// back that stands: (20 × 20 + 20 × 1 + 15 × 1) × 10 = 4350; in all 34050.
/// One close combat: the charger fled (1296) or the target fled in turn 2
/// (435 × 26 = 11310): 12606. (With contact ended by the old status, turn
/// 2 always closed: two close combats 35 × (15 × 36 + 21 × 10) = 26250.)
#[test]
fn a_fell_back_charger_that_holds_stays_in_contact() {
    let k = course(FELL_BACK_CHARGER, "c");
    let cc = measure(k.as_ref(), "close-combats");
    assert!(close(cc[2], 34050.0 / 46656.0), "{cc:?}");
    assert!(close(cc[1], 12606.0 / 46656.0), "{cc:?}");
    agrees_under_both_kernels(FELL_BACK_CHARGER, "c", 0xe9_2501);
    let e = crate::support::explain::explained(FELL_BACK_CHARGER);
    let steps = &e.variants[0].courses[0].steps;
    let titles: Vec<&str> = steps.iter().map(|s| s.title.as_str()).collect();
    // Step 4 is turn 2's Closing part: rolled, or skipped in contact.
    let p = |title: &str| {
        steps
            .iter()
            .find(|s| s.title.starts_with(title))
            .unwrap_or_else(|| panic!("{title} in {titles:?}"))
            .p_reached
    };
    assert!(
        close(p("step 4: Closing table"), 735.0 / 1296.0),
        "{titles:?}"
    );
    assert!(
        close(
            p("step 4: no roll: a and b are already in contact"),
            525.0 / 1296.0
        ),
        "{titles:?}"
    );
}

/// `a` (fell back, `extra_tq = 1`: the Fanatic row) fights `b` (Fanatic,
/// steady); `c` (Fanatic, FP 8) then fires at `a`; then `a` charges `b`
/// on the Skirmishing Closing row (F_B in every column: never into contact).
const FIRE_IN_CONTACT: &str = "name = \"t\"\nsystem = \"hakkaa\"\n\n\
    [units.a]\ntype = \"hbc\"\ntq = \"fanatic\"\nsteps = 4\nstatus = \"fell-back\"\nextra_tq = 1\n\n\
    [units.b]\ntype = \"hbc\"\ntq = \"fanatic\"\nsteps = 4\n\n\
    [units.c]\ntype = \"hbc\"\ntq = \"fanatic\"\nsteps = 4\nfp = 8\n\n\
    [[course]]\nname = \"c\"\nsteps = [\n\
      { procedure = \"close-combat\", attacker = \"a\", defender = \"b\" },\n\
      { procedure = \"fire\", firer = \"c\", target = \"a\" },\n\
      { procedure = \"charge\", charger = \"a\", target = \"b\", closing_row = \"Skirmishing\" },\n]\n";

/// Fire ends contact when the volley itself moves its target back, even a
/// target whose status already reads "fell back": Receiving casualties "D
/// Fall Back if Disordered".
///
/// The close combat leaves `a` and `b` in contact with 15/36 × 35/36 =
/// 525/1296 (`a` DS "-"; `b` anything but F; see above). `c` tests on the
/// Fanatic row against FP 8+: DS (15/36) HC, S (20/36) 2 C, F (1/36) C.
/// `a`, Disordered, tests on the Fanatic row: HC gives D, D or F, each a
/// move back; C gives "-" on DS (15/36), else D or F. So `a` stays with
/// 20/36 × (15/36)^2 + 1/36 × 15/36 = 5040/46656, and only then does the
/// charge fight a second close combat: 525/1296 × 5040/46656.
#[test]
fn fire_that_moves_a_unit_back_ends_its_contact() {
    let k = course(FIRE_IN_CONTACT, "c");
    let cc = measure(k.as_ref(), "close-combats");
    let two = 525.0 / 1296.0 * 5040.0 / 46656.0;
    assert!(close(cc[2], two), "{cc:?}");
    assert!(close(cc[1], 1.0 - two), "{cc:?}");
    agrees_under_both_kernels(FIRE_IN_CONTACT, "c", 0xe9_2502);
}
