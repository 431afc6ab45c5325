//! Outcome spaces: kebab-case ids beside display labels, id collisions, old labels, and leaves that round-trip (`outcome`).

use pikeshot::outcome::*;

#[test]
fn ids_are_kebab_case_and_labels_stay_for_display() {
    assert_eq!(kebab_id("1 hit + FH"), "1-hit-fh");
    assert_eq!(kebab_id("SP lost"), "sp-lost");
    assert_eq!(
        kebab_id("ended early: stand destroyed"),
        "ended-early-stand-destroyed"
    );
    assert_eq!(
        kebab_id("enemy-broken-or-eliminated"),
        "enemy-broken-or-eliminated"
    );
    let s = OutcomeSpace::from_labels(&["SP lost", "no effect"], vec![]);
    assert_eq!(s.outcomes(), ["SP lost", "no effect"]);
    assert_eq!(s.outcome_ids(), ["sp-lost", "no-effect"]);
    assert_eq!(s.outcome_index_by_id("no-effect"), Some(1));
    let s = s.with_outcome_ids(vec!["strength-lost".into(), "none".into()]);
    assert_eq!(s.outcome_index_by_id("strength-lost"), Some(0));
    assert_eq!(s.outcomes()[0], "SP lost");
    let m = Measure::new("sp-lost", 0, 3).labelled("SP lost");
    assert_eq!((m.id(), m.display()), ("sp-lost", "SP lost"));
    assert_eq!(Measure::new("hits", 0, 1).display(), "hits");
}

#[test]
#[should_panic(expected = "outcome ids collide: \"1 hit + FH\" and \"1 hit FH\"")]
fn colliding_derived_ids_are_refused_at_construction() {
    let _ = OutcomeSpace::from_labels(&["1 hit + FH", "no effect", "1 hit FH"], vec![]);
}

#[test]
fn old_labels_point_at_their_new_id() {
    let s = OutcomeSpace::from_labels(&["SP lost", "no effect"], vec![]);
    assert_eq!(s.id_for_old_name("SP lost"), Some("sp-lost"));
    assert_eq!(s.id_for_old_name("sp lost"), Some("sp-lost"));
    assert_eq!(s.id_for_old_name("sp-lost"), None);
    assert_eq!(s.id_for_old_name("routed"), None);
}

#[test]
#[should_panic(expected = "not kebab-case")]
fn explicit_ids_must_be_kebab_case() {
    let _ = OutcomeSpace::from_labels(&["a"], vec![]).with_outcome_ids(vec!["A b".into()]);
}

#[test]
fn leaves_round_trip() {
    let s = OutcomeSpace::from_labels(
        &["a", "b", "c"],
        vec![Measure::new("hits", 0, 2), Measure::new("turn", 1, 4)],
    );
    assert_eq!(s.len(), 3 * 3 * 4);
    let mut seen = vec![false; s.len()];
    for o in 0..3 {
        for h in 0..=2 {
            for t in 1..=4 {
                let l = s.leaf(o, &[h, t]);
                assert!(!seen[l as usize]);
                seen[l as usize] = true;
                assert_eq!(s.outcome_of(l), o);
                assert_eq!(s.value_of(l, 0), h);
                assert_eq!(s.value_of(l, 1), t);
            }
        }
    }
}
