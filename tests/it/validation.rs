//! docs/guide/validation.md, the published table of exact figures: every
//! key outcome of every course of every variant of every shipped scenario,
//! from `pikeshot report scenarios --method exact --format json`, as a
//! fraction where the dice make one, otherwise to 12 decimals. The test
//! fails when the committed table differs from what the tool gives, so a
//! changed figure is always a visible diff; `scripts/validation-table.sh`
//! writes it again.

use std::path::Path;

use serde_json::Value;

use crate::support::cli::{pikeshot_ok, stdout};

/// The committed table.
const TABLE: &str = "docs/guide/validation.md";

/// Denominators tried for a fraction: at most this, with no prime factor
/// but 2, 3 and 5 (the dice are d6, d8, d10, d12 and d20 and their
/// products).
const MAX_DENOMINATOR: u64 = 1_000_000;

fn smooth(mut k: u64) -> bool {
    for p in [2, 3, 5] {
        while k.is_multiple_of(p) {
            k /= p;
        }
    }
    k == 1
}

/// `x` as `h/k` when a convergent of its continued fraction with a
/// denominator of dice (see [`MAX_DENOMINATOR`]) equals it to within
/// 2e-15 relative: far closer than two such fractions ever lie (1e-12).
fn fraction(x: f64) -> Option<(u64, u64)> {
    if !(0.0..=1e6).contains(&x) {
        return None;
    }
    let tol = 2e-15 * x.max(1.0);
    let (mut h0, mut h1, mut k0, mut k1) = (0u64, 1u64, 1u64, 0u64);
    let mut r = x;
    for _ in 0..64 {
        let a = r.floor();
        if a > 1e12 {
            break;
        }
        let a = a as u64;
        let (h, k) = (
            a.checked_mul(h1)?.checked_add(h0)?,
            a.checked_mul(k1)?.checked_add(k0)?,
        );
        if k > MAX_DENOMINATOR {
            return None;
        }
        if (h as f64 / k as f64 - x).abs() <= tol {
            return smooth(k).then_some((h, k));
        }
        (h0, h1, k0, k1) = (h1, h, k1, k);
        let f = r - a as f64;
        if f <= 0.0 {
            return None;
        }
        r = 1.0 / f;
    }
    None
}

/// An exact figure as the table prints it.
fn figure(x: f64) -> String {
    match fraction(x) {
        Some((0, _)) => "0".into(),
        Some((h, 1)) => format!("{h}"),
        Some((h, k)) => format!("{h}/{k}"),
        None => format!("{x:.12}"),
    }
}

#[test]
fn fractions_are_found_only_where_the_dice_make_them() {
    assert_eq!(figure(35.0 / 1296.0), "35/1296");
    assert_eq!(figure(0.08101851851851852), "35/432");
    assert_eq!(figure(0.5), "1/2");
    assert_eq!(figure(2.0), "2");
    assert_eq!(figure(0.0), "0");
    assert_eq!(figure(7.0 / 100.0), "7/100");
    // A denominator with another prime is no die's: decimals.
    assert_eq!(figure(1.0 / 7.0), "0.142857142857");
    // Not a fraction within 2e-15: decimals.
    assert_eq!(figure(0.1 + 1e-13), "0.100000000000");
}

fn escape(s: &str) -> String {
    s.replace('|', "\\|")
}

/// The table's text, from the tool.
fn table() -> String {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let o = pikeshot_ok(&[
        "report",
        "scenarios",
        "--method",
        "exact",
        "--plots",
        "none",
        "--format",
        "json",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    let doc: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let mut t = String::from(
        "# Validation table\n\n\
         The exact figures of every shipped scenario: for each variant and course,\n\
         each key outcome, enumerated over every die path (`pikeshot report\n\
         scenarios --method exact --format json`). A probability or expectation\n\
         is a fraction where the dice make one (a denominator of 2s, 3s and 5s\n\
         up to 1,000,000), otherwise it is given to 12 decimals. Another tool\n\
         for these games can check itself against it.\n\n\
         `scripts/validation-table.sh` writes this page from the tool; a test\n\
         (`tests/it/validation.rs`) fails when it differs, so a changed figure\n\
         is always a visible diff.\n",
    );
    for s in doc["scenarios"].as_array().unwrap() {
        t.push_str(&format!(
            "\n## {}\n\n`scenarios/{}` ({})\n\n| variant | course | key outcome | exact |\n|---|---|---|---|\n",
            escape(s["name"].as_str().unwrap()),
            s["file"].as_str().unwrap(),
            s["system"].as_str().unwrap(),
        ));
        for c in s["courses"].as_array().unwrap() {
            let variant = c["variant"].as_str().unwrap();
            for k in c["key_outcomes"].as_array().unwrap() {
                let exact = k["exact"]
                    .as_f64()
                    .unwrap_or_else(|| panic!("{}: {} has no exact value", s["file"], c["course"]));
                t.push_str(&format!(
                    "| {} | {} | {} | {} |\n",
                    if variant.is_empty() {
                        "—".to_string()
                    } else {
                        escape(variant)
                    },
                    escape(c["course"].as_str().unwrap()),
                    k["name"].as_str().unwrap(),
                    figure(exact)
                ));
            }
        }
    }
    t
}

#[test]
fn the_committed_validation_table_is_what_the_tool_gives() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(TABLE);
    let now = table();
    if std::env::var_os("PIKESHOT_WRITE_VALIDATION").is_some() {
        std::fs::write(&path, &now).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != now {
        let line = committed
            .lines()
            .zip(now.lines())
            .position(|(a, b)| a != b)
            .map_or(committed.lines().count().min(now.lines().count()), |n| n);
        panic!(
            "{TABLE} differs from the tool from line {} on (committed: {:?}, now: {:?}); \
             if the figures changed on purpose, run scripts/validation-table.sh and commit the diff",
            line + 1,
            committed.lines().nth(line),
            now.lines().nth(line)
        );
    }
}
