//! `pikeshot explain` of Hakkaa Päälle: the TQ test behind each roll (its
//! modifiers with the card's line and the unit state or key that set them,
//! the row clamp and what it cost), the row and column read and why, each
//! 2d6 band with its chance, the rolls a result leads to, and the results
//! equal to `run --method exact`.

use pikeshot::explain::{self, Roll, SourceKind};
use pikeshot::stats;

use super::explained;
use crate::support::assert_close;
use crate::support::scenario::{course, exact, prepare};

/// A disordered, fatigued Green firer (-2 on Green 7 reads row 5, off the
/// table: clamped to Rabble 6, 1 of the -2 lost) fires 5 FP, -1 by the
/// step, at a Trained target with a commander.
const VOLLEY: &str = r#"
system = "hakkaa"

[units.shot]
type = "mi"
tq = "green"
steps = 4
fp = 5
status = "disordered"
fatigued = true

[units.pike]
type = "hi"
tq = "trained"
steps = 4
commander = "commander"
field_works = true

[[course]]
name = "volley"
own = "shot"
enemy = "pike"
steps = [{ procedure = "fire", firer = "shot", target = "pike", fp_modifier = -1 }]

[[course]]
name = "charge"
own = "pike"
enemy = "shot"
steps = [{ procedure = "charge", charger = "pike", target = "shot" }]
"#;

fn term<'a>(r: &'a Roll, label: &str) -> &'a explain::Term {
    r.modifiers
        .iter()
        .find(|t| t.label == label)
        .unwrap_or_else(|| panic!("no {label} in {:?}", r.modifiers))
}

#[test]
fn the_firers_tq_modifiers_name_the_card_line_and_the_unit_state_and_the_clamp_says_what_it_cost() {
    let e = explained(VOLLEY);
    let c = &e.variants[0].courses[0];
    let r = &c.steps[0].cases[0].roll;
    assert_eq!(r.dice, "2d6, shot's TQ test (Green 7)");
    assert_eq!(r.table, "Fire table");
    // TQ modifiers: Disordered -1, Fatigued -1, each from the unit.
    let d = term(r, "Disordered");
    assert_eq!(
        (d.value, d.rule.as_str(), d.applied),
        (-1, "TQ modifiers", true)
    );
    assert_eq!(d.source.kind, SourceKind::Unit);
    assert_eq!(d.source.detail, "shot is Disordered");
    let f = term(r, "Fatigued");
    assert_eq!((f.value, f.source.kind), (-1, SourceKind::Unit));
    assert_eq!(f.source.detail, "shot: fatigued = true");
    // Green (7) - 2 = 5 is below the table: Rabble (6), 1 of the -2 lost.
    assert_eq!((r.raw_total, r.final_total), (-2, -1));
    let l = r.limit.as_ref().unwrap();
    assert_eq!((l.min, l.max, l.lost), (-1, 4, 1));
    let text = explain::text::render(&e);
    assert!(
        text.contains(
            "total -2, limited to -1 (TQ Table: rows Rabble (6) to Fanatic (11)): 1 of the -2 lost"
        ),
        "{text}"
    );
    assert!(
        text.contains("reads the Rabble (6) row of the TQ Table"),
        "{text}"
    );
    // The FP row: 5 from the unit, -1 from the step: the FP 4 row.
    assert_eq!(r.column_from.len(), 2);
    assert_eq!(r.column_from[0].value, 5);
    assert_eq!(r.column_from[0].source.detail, "shot: fp = 5");
    assert_eq!(r.column_from[1].value, -1);
    assert_eq!(r.column_from[1].source.kind, SourceKind::Key);
    assert_eq!(r.column_from[1].source.detail, "fp_modifier = -1");
    assert!(r.column.as_deref().unwrap().starts_with("FP 4 row"));
    // Rabble's bands on the FP 4 row: DS 2-3 "C * S5+", S 4-6 "C *",
    // F 7-9 "LC", DF 10-12 "NE".
    let bands: Vec<(&str, &str, &str)> = r
        .faces
        .iter()
        .map(|f| (f.faces.as_str(), f.row.as_str(), f.result.as_str()))
        .collect();
    assert_eq!(
        bands,
        [
            ("2-3", "DS", "C * S5+ (P 3/36)"),
            ("4-6", "S", "C * (P 12/36)"),
            ("7-9", "F", "LC (P 15/36)"),
            ("10-12", "DF", "NE (P 6/36)"),
        ]
    );
    // What the results lead to: on DS the target's S5+ step-loss die and
    // its ** ... * commander die (it has a commander), then a Receiving
    // Casualties test on the C row; on DF nothing.
    let when: Vec<&str> = r.follow_ups.iter().map(|f| f.when.as_str()).collect();
    assert!(
        when.contains(&"on DS (C * S5+): step-loss roll of pike"),
        "{when:?}"
    );
    assert!(
        when.contains(&"on DS (C * S5+), if pike still stands: commander-injury roll"),
        "{when:?}"
    );
    assert!(
        when.contains(&"on DS (C * S5+): Receiving Casualties test of pike"),
        "{when:?}"
    );
    assert!(!when.iter().any(|w| w.starts_with("on DF")), "{when:?}");
    let step_loss = &r.follow_ups[0].roll;
    assert_eq!(step_loss.dice, "1d6");
    assert_eq!(
        step_loss.faces.last().unwrap().result,
        "pike loses a step (P 2/6)"
    );
    // The target's own test: field works cannot apply to a Receiving
    // Casualties test, and says so.
    let rc = &r
        .follow_ups
        .iter()
        .find(|f| f.when.starts_with("on F (LC)"))
        .unwrap()
        .roll;
    assert_eq!(rc.table, "Receiving casualties table");
    let fw = term(rc, "charge reaction or close combat manning field works");
    assert!(!fw.applied);
    assert_eq!(fw.value, 1);
    assert!(
        fw.note
            .as_deref()
            .unwrap()
            .contains("only charge reaction and close combat")
    );
}

#[test]
fn the_results_are_the_exact_runs_and_a_skipped_part_says_why() {
    let e = explained(VOLLEY);
    for (i, name) in ["volley", "charge"].iter().enumerate() {
        let c = &e.variants[0].courses[i];
        assert_eq!(&c.name, name);
        let k = course(prepare("h.toml", VOLLEY), name);
        let probs = stats::outcome_probs(k.space(), &exact(k.as_ref()));
        assert_eq!(c.outcomes.len(), probs.len());
        for (r, p) in c.outcomes.iter().zip(&probs) {
            assert_close(r.p, *p);
        }
    }
    // The volley is one roll: its step's results are the course's; the
    // firer's DF (10-12 on Rabble, 6/36) leaves the target steady at least.
    let v = &e.variants[0].courses[0];
    let steady = v.steps[0]
        .results
        .iter()
        .find(|r| r.id == "target-steady")
        .unwrap();
    assert!(steady.p >= 6.0 / 36.0 - 1e-12);
    // The charge: the reaction is skipped when the charger did not go in,
    // and the step says which state stops it.
    let c = &e.variants[0].courses[1];
    let skipped = c
        .steps
        .iter()
        .find(|s| s.title.starts_with("step 2: no roll"))
        .unwrap();
    assert_eq!(
        skipped.title,
        "step 2: no roll: pike did not go in: its Closing result did not reach contact"
    );
    assert!(skipped.rule.is_empty());
    let text = explain::text::render(&e);
    assert!(!text.contains("()"), "{text}");
    // The closing row and conditions are named: HI reads AI/HI; the target
    // is Disordered and the charger not: favourable.
    let closing = &c.steps[0].cases[0].roll;
    assert_eq!(closing.column.as_deref(), Some("AI/HI row"));
    assert!(
        closing
            .notes
            .iter()
            .any(|n| n.starts_with("favourable conditions:") && n.contains("enemy Disordered")),
        "{:?}",
        closing.notes
    );
}

#[test]
fn with_roll_mode_the_roll_moves_and_reads_off_the_table_end() {
    let text = format!("{VOLLEY}\n[rules]\ntq_modifier_mode = \"roll\"\n");
    let e = explained(&text);
    let r = &e.variants[0].courses[0].steps[0].cases[0].roll;
    // No row clamp: the -2 moves the roll up by 2 on the Green row, whose
    // DF is 11-12: faces 9-12 read 11-14, the top past the table's end.
    assert!(r.limit.is_none());
    assert_eq!(r.final_total, -2);
    let last = r.faces.last().unwrap();
    assert_eq!((last.modified.as_str(), last.row.as_str()), ("11-14", "DF"));
    assert!(last.note.as_deref().unwrap().contains("table's end"));
}
