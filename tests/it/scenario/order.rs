//! Several errors in one file are reported in file order (issue 13, item
//! 10), whatever order the code checks them in: within one unit, and a bad
//! `[rules]` key below the units (read first) after a unit error above it.

use pikeshot::error::InputError;
use pikeshot::run::RunPlan;

use crate::support::located::{assert_located, line_containing};
use crate::support::scenario::refused_under;
use crate::support::shipped;

const FILE: &str = "t.toml";

fn refused(text: &str) -> InputError {
    refused_under(FILE, text, &RunPlan::default())
}

/// `text` with `lines` inserted after the line `[units.UNIT]` and `rules`
/// appended at the end as a `[rules]` table.
fn broken(text: &str, unit: &str, lines: &str, rules: &str) -> String {
    let head = format!("[units.{unit}]\n");
    assert!(text.contains(&head), "no {head}");
    format!(
        "{}\n[rules]\n{rules}\n",
        text.replacen(&head, &format!("{head}{lines}\n"), 1)
    )
}

/// Asserts the errors are exactly `want` (key, the text of its line), in
/// that order: the first as the error, the others in `more`.
#[track_caller]
fn assert_in_order(text: &str, want: &[(&str, &str)]) {
    let e = refused(text);
    let all: Vec<&InputError> = std::iter::once(&e).chain(&e.more).collect();
    assert_eq!(all.len(), want.len(), "{e}");
    for (got, (key, line)) in all.iter().zip(want) {
        assert_located(got, Some(FILE), key, line_containing(text, line), "");
    }
    let lines: Vec<usize> = all.iter().map(|e| e.line.unwrap()).collect();
    assert!(lines.is_sorted(), "{lines:?}");
    // Every error is in the message, in that order.
    let shown = e.to_string();
    let at: Vec<usize> = want
        .iter()
        .map(|(k, _)| shown.find(&format!("`{k}`")).expect(k))
        .collect();
    assert!(at.is_sorted(), "{shown}");
}

/// Scenario `folder/file` with two bad keys of unit `unit` (`key = value`
/// pairs, in this file order, the reverse of the code's) and a bad `[rules]`
/// key appended: the three errors come in file order.
#[track_caller]
fn unit_then_rules(folder: &str, file: &str, unit: &str, keys: [&str; 2], rule: &str) {
    let text = broken(&shipped(folder, file), unit, &keys.join("\n"), rule);
    let key = |line: &str, table: &str| format!("{table}.{}", line.split(" = ").next().unwrap());
    let (a, b) = (
        key(keys[0], &format!("units.{unit}")),
        key(keys[1], &format!("units.{unit}")),
    );
    let r = key(rule, "rules");
    assert_in_order(&text, &[(&a, keys[0]), (&b, keys[1]), (&r, rule)]);
}

#[test]
fn hakkaa_errors_come_in_file_order() {
    // The unit reader reads `limbered` before `fatigued`; `[rules]` is read
    // before any unit.
    unit_then_rules(
        "hakkaa",
        "musketeers-vs-pike.toml",
        "musketeers",
        ["fatigued = 3", "limbered = \"yes\""],
        "tq_modifier_mode = \"bogus\"",
    );
}

#[test]
fn musket_and_pike_errors_come_in_file_order() {
    // `hexes` is read before `can_retreat`; `edition` and `[rules]` before
    // any unit.
    unit_then_rules(
        "mpbs",
        "salvo-vs-front.toml",
        "musketeers",
        ["can_retreat = 1", "hexes = 7"],
        "morale_check_on_hits = \"often\"",
    );
}

#[test]
fn snaphance_errors_come_in_file_order() {
    // `sp_lost` is read before `leader`; `[rules]` before any unit.
    unit_then_rules(
        "snaphance",
        "shot-vs-pike.toml",
        "musketeers",
        ["leader = 2", "sp_lost = -1"],
        "sp_loss = \"bogus\"",
    );
}

#[test]
fn sword_and_spear_errors_come_in_file_order() {
    // `large` is read before `heroic`; `[rules]` before any unit.
    unit_then_rules(
        "sword-and-spear",
        "heavy-foot-vs-cavalry.toml",
        "knights",
        ["heroic = 1", "large = \"x\""],
        "later_rounds_impetus = 3",
    );
}

#[test]
fn a_misspelt_unit_key_above_a_bad_value_comes_first() {
    // A key no unit has is refused even beside a bad value (the keys the
    // reader asked may then be incomplete, but no unit asks `fatiuged`).
    let text = broken(
        &shipped("hakkaa", "musketeers-vs-pike.toml"),
        "musketeers",
        "fatiuged = true\nlimbered = \"yes\"",
        "tq_modifier_mode = \"bogus\"",
    );
    assert_in_order(
        &text,
        &[
            ("units.musketeers.fatiuged", "fatiuged = true"),
            ("units.musketeers.limbered", "limbered = \"yes\""),
            ("rules.tq_modifier_mode", "tq_modifier_mode = \"bogus\""),
        ],
    );
    assert!(
        refused(&text)
            .to_string()
            .contains("did you mean `fatigued`?")
    );
}

#[test]
fn errors_in_two_courses_and_an_unknown_top_key_below_come_in_file_order() {
    // Each course is read on its own: an error in the second does not hide
    // one in the first; the misspelt `[unit.extra]` at the end comes last.
    let text = shipped("hakkaa", "musketeers-vs-pike.toml")
        .replacen(
            "name = \"one volley\"\n",
            "name = \"one volley\"\nown = 5\n",
            1,
        )
        .replacen(
            "name = \"one volley at close range\"\n",
            "name = \"one volley at close range\"\nenemy = true\n",
            1,
        )
        + "\n[unit.extra]\ntype = \"mi\"\n";
    assert_in_order(
        &text,
        &[
            ("course[0].own", "own = 5"),
            ("course[1].enemy", "enemy = true"),
            ("unit", "[unit.extra]"),
        ],
    );
}

#[test]
fn at_most_ten_errors_are_shown_then_how_many_more() {
    let mut text = shipped("hakkaa", "musketeers-vs-pike.toml");
    for i in 0..12 {
        text = text.replacen(
            "[[course]]",
            &format!("[units.u{i}]\ntype = \"mi\"\ntq = \"trained\"\nsteps = 4\nfatigued = {i}\n\n[[course]]"),
            1,
        );
    }
    let e = refused(&text);
    assert_eq!(e.more.len(), 11, "{e}");
    let shown = e.to_string();
    assert_eq!(
        shown.matches("expected true or false").count(),
        10,
        "{shown}"
    );
    assert!(shown.ends_with("and 2 more"), "{shown}");
    assert!(shown.contains("units.u0.fatigued") && !shown.contains("units.u11.fatigued"));
}

#[test]
fn the_command_line_reports_them_all_with_exit_2_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("bad.toml");
    let text = broken(
        &shipped("snaphance", "shot-vs-pike.toml"),
        "musketeers",
        "leader = 2\nsp_lost = -1",
        "sp_loss = \"bogus\"",
    );
    std::fs::write(&path, &text).unwrap();
    let out = tmp.path().join("out");
    let err = crate::support::cli::run_refused(&path, &out);
    let at = |k: &str| err.find(k).unwrap_or_else(|| panic!("{k} not in {err}"));
    assert!(at("units.musketeers.leader") < at("units.musketeers.sp_lost"));
    assert!(at("units.musketeers.sp_lost") < at("rules.sp_loss"));
    assert!(!out.exists(), "nothing written");
}
