//! `sweep.csv` and the sweep charts (issue 14, item 2), and the plots a
//! large sweep draws by default (item 3), through the CLI.

use std::path::{Path, PathBuf};

use crate::support::cli::{TempOut, run_to, stderr, temp_out};
use crate::support::{col, file_names as names, image_names, read_csv};

/// Two courses of charge-or-salvo's brigade against the tercio, without
/// the long "keep firing" engagement, swept over `sweep`.
pub(super) fn scenario(dir: &Path, sweep: &str) -> PathBuf {
    let text = format!(
        r#"name = "charge or salvo, swept"
system = "mpbs"
edition = "series"
seed = 1631
trials = 2000

[units.swedes]
kind = "heavy-infantry"
morale = 7
strength = 6
regimental_artillery = true
order = "charge"

[units.tercio]
kind = "heavy-infantry"
morale = 6
strength = 10
hexes = 2
terrain = "clear"

[[course]]
name = "charge now"
steps = [
  {{ procedure = "close-combat", attacker = "swedes", defender = "tercio", momentum = true }},
]

[[course]]
name = "salvo, then charge"
steps = [
  {{ procedure = "musketry", firer = "swedes", target = "tercio", column = "salvo" }},
  {{ procedure = "close-combat", attacker = "swedes", defender = "tercio", fired_salvo = true }},
]

[sweep]
{sweep}
"#
    );
    let path = dir.join("swept.toml");
    std::fs::write(&path, text).unwrap();
    path
}

const TWO_KEYS: &str = "\"units.tercio.morale\" = [5, 6, 7]\nedition = [\"series\", \"sfo\"]";

#[test]
fn sweep_csv_has_a_typed_column_per_key_and_the_figures_of_the_other_csv_files() {
    let out = temp_out();
    let file = scenario(out.dir(), TWO_KEYS);
    run_to(&file, &["--method", "both", "--plots", "none", "-q"], &out);
    let (h, rows) = read_csv(&out.join("sweep.csv"));
    assert_eq!(
        h,
        [
            "units.tercio.morale",
            "edition",
            "variant",
            "course",
            "own",
            "enemy",
            "kind",
            "id",
            "value",
            "ci_low",
            "ci_high",
            "exact"
        ]
    );
    // 3 × 2 variants × 2 courses, each with its key outcomes and means.
    let c = |n: &str| col(&h, n);
    let pairs: std::collections::BTreeSet<(String, String)> = rows
        .iter()
        .map(|r| (r[c("variant")].clone(), r[c("course")].clone()))
        .collect();
    assert_eq!(pairs.len(), 12);
    for r in &rows {
        // The swept values are plain values in their own columns, the
        // morale a whole number, and they agree with the label.
        let morale: i64 = r[0].parse().expect("a whole number");
        assert!((5..=7).contains(&morale), "{r:?}");
        assert!(["series", "sfo"].contains(&r[1].as_str()), "{r:?}");
        assert_eq!(
            r[c("variant")],
            format!("units.tercio.morale={morale}, edition={}", r[1])
        );
        assert_eq!((&*r[c("own")], &*r[c("enemy")]), ("swedes", "tercio"));
        let (v, lo, hi): (f64, f64, f64) = (
            r[c("value")].parse().unwrap(),
            r[c("ci_low")].parse().unwrap(),
            r[c("ci_high")].parse().unwrap(),
        );
        assert!(lo <= v && v <= hi, "{r:?}");
        assert!(!r[c("exact")].is_empty(), "{r:?}");
    }
    // Each key outcome is the figure comparison.csv gives that variant's
    // course, and each mean the one summary.csv gives.
    let (ch, crows) = read_csv(&out.join("comparison.csv"));
    let (sh, srows) = read_csv(&out.join("summary.csv"));
    let mut keys = 0;
    let mut means = 0;
    for r in &rows {
        let (variant, course, id) = (&r[c("variant")], &r[c("course")], &r[c("id")]);
        let same = |t: &[String], hh: &[String], id_col: &str| {
            t[col(hh, "variant")] == *variant
                && t[col(hh, "course")] == *course
                && t[col(hh, id_col)] == *id
        };
        let want = if r[c("kind")] == "key" {
            keys += 1;
            let m = crows.iter().find(|t| same(t, &ch, "measure")).unwrap();
            (
                m[col(&ch, "value")].clone(),
                m[col(&ch, "ci_low")].clone(),
                m[col(&ch, "exact")].clone(),
            )
        } else {
            assert_eq!(r[c("kind")], "mean");
            means += 1;
            let m = srows
                .iter()
                .find(|t| same(t, &sh, "id") && t[col(&sh, "kind")] == "mean")
                .unwrap();
            (
                m[col(&sh, "value")].clone(),
                m[col(&sh, "ci_low")].clone(),
                m[col(&sh, "exact")].clone(),
            )
        };
        assert_eq!(
            (
                r[c("value")].clone(),
                r[c("ci_low")].clone(),
                r[c("exact")].clone()
            ),
            want,
            "{r:?}"
        );
    }
    assert!(keys >= 24 && means >= 24, "{keys} key rows, {means} means");
    // And P(enemy broken) of a variant's course is the sum of the
    // outcomes.csv rows of that course where the enemy ends broken or
    // eliminated... as measures.csv has it: P(enemy-morale >= 2).
    let (mh, mrows) = read_csv(&out.join("measures.csv"));
    let variant = "units.tercio.morale=6, edition=sfo";
    let at_least = mrows
        .iter()
        .find(|m| {
            m[col(&mh, "variant")] == variant
                && m[col(&mh, "course")] == "charge now"
                && m[col(&mh, "measure")] == "enemy-morale"
                && m[col(&mh, "value")] == "2"
        })
        .unwrap();
    let row = rows
        .iter()
        .find(|r| {
            r[c("variant")] == variant
                && r[c("course")] == "charge now"
                && r[c("id")] == "p-enemy-broken-or-eliminated"
        })
        .unwrap();
    let got: f64 = row[c("exact")].parse().unwrap();
    let want: f64 = at_least[col(&mh, "exact_at_least")].parse().unwrap();
    assert!((got - want).abs() < 1e-9, "{got} against {want}");
}

#[test]
fn a_chart_per_swept_key_and_a_heatmap_per_course_for_two_keys() {
    let tmp = tempfile::tempdir().unwrap();
    let file = scenario(tmp.path(), TWO_KEYS);
    let (two, one) = (tmp.path().join("two"), tmp.path().join("one"));
    run_to(
        &file,
        &["--method", "exact", "--plots", "summary", "-q"],
        &two,
    );
    let f = names(&two);
    for stem in [
        "sweep--units-tercio-morale",
        "sweep--edition",
        "sweep--heatmap--charge-now",
        "sweep--heatmap--salvo-then-charge",
    ] {
        for ext in ["png", "svg"] {
            assert!(f.contains(&format!("{stem}.{ext}")), "{stem}.{ext}: {f:?}");
        }
    }
    // Six variants: summary still draws each variant's comparison charts.
    assert!(f.iter().any(|n| n.ends_with("--comparison.png")), "{f:?}");
    let svg = std::fs::read_to_string(two.join("sweep--units-tercio-morale.svg")).unwrap();
    assert!(svg.contains("units.tercio.morale"));
    // One key swept (the other pinned): its chart, no heatmap.
    run_to(
        &file,
        &[
            "--method",
            "exact",
            "--plots",
            "summary",
            "--set",
            "edition=sfo",
            "-q",
        ],
        &one,
    );
    let f = names(&one);
    assert!(
        f.contains(&"sweep--units-tercio-morale.png".to_string()),
        "{f:?}"
    );
    assert!(!f.iter().any(|n| n.starts_with("sweep--edition")), "{f:?}");
    assert!(!f.iter().any(|n| n.contains("heatmap")), "{f:?}");
    let (h, _) = read_csv(&one.join("sweep.csv"));
    assert_eq!(h[0], "units.tercio.morale");
    assert_eq!(h[1], "variant");
}

#[test]
fn a_sweep_of_21_variants_draws_no_per_variant_plot_unless_all_is_asked() {
    let tmp = tempfile::tempdir().unwrap();
    let file = scenario(
        tmp.path(),
        "\"units.tercio.morale\" = [2, 3, 4, 5, 6, 7, 8]\n\"units.tercio.strength\" = [8, 10, 12]",
    );
    let (d, a) = (tmp.path().join("default"), tmp.path().join("all"));
    let o = run_to(&file, &["--method", "exact"], &d);
    let note = stderr(&o);
    assert_eq!(
        note.matches("draws the summary charts only").count(),
        1,
        "{note}"
    );
    let summary = image_names(&d);
    assert!(!summary.is_empty());
    assert!(
        summary.iter().all(|f| f.starts_with("sweep--")),
        "{summary:?}"
    );
    let record = std::fs::read_to_string(d.join("run.json")).unwrap();
    assert!(record.contains("\"plots\": \"summary\""), "{record}");
    let o = run_to(&file, &["--method", "exact", "--plots", "all", "-q"], &a);
    assert!(!stderr(&o).contains("summary charts only"));
    let all = image_names(&a);
    assert!(
        all.contains(&"morale-2-strength-8--charge-now.png".to_string()),
        "{all:?}"
    );
    assert!(
        all.iter()
            .filter(|f| f.ends_with("--comparison.png"))
            .count()
            == 21
    );
    for f in &summary {
        assert!(all.contains(f), "{f} missing from --plots all");
    }
}

/// Runs the two-key sweep with `args` on each of `threads` thread counts and
/// asserts each of `files` is more than 1000 bytes and the same bytes on
/// every count; the output folder of the first count.
#[track_caller]
fn same_bytes_on(args: &[&str], threads: [&str; 2], files: &[&str]) -> TempOut {
    let first = temp_out();
    let file = scenario(first.dir(), TWO_KEYS);
    let second = first.beside("second");
    for (t, out) in threads.iter().zip([&*first, &second]) {
        run_to(&file, &[args, &["--threads", t, "-q"]].concat(), out);
    }
    for f in files {
        let a = std::fs::read(first.join(f)).unwrap();
        assert!(a.len() > 1000, "{f}");
        assert_eq!(a, std::fs::read(second.join(f)).unwrap(), "{f}");
    }
    first
}

#[test]
fn sweep_csv_is_byte_identical_on_one_thread_and_two() {
    same_bytes_on(
        &["--trials", "3000", "--plots", "none"],
        ["1", "2"],
        &["sweep.csv"],
    );
}

/// `run` builds and runs each variant of a sweep as one task on the
/// command's threads, its chunks shared with idle threads; under a
/// precision target (rounds of chunks, doubling, course by course) each
/// course still stops at the same trials with the same counts on any
/// thread count.
#[test]
fn a_swept_run_to_a_precision_is_byte_identical_on_one_thread_and_three() {
    let one = same_bytes_on(
        &[
            "--precision",
            "0.003",
            "--method",
            "both",
            "--plots",
            "none",
        ],
        ["1", "3"],
        &["outcomes.csv", "measures.csv", "summary.csv", "sweep.csv"],
    );
    // The target took more than the first chunk: a half-width of 0.003
    // needs up to 1.96² · 0.25 / 0.003² ≈ 107,000 trials, and each course
    // stops at a power of two chunks.
    let (h, rows) = read_csv(&one.join("summary.csv"));
    let trials = col(&h, "trials");
    let mut seen: Vec<u64> = rows.iter().map(|r| r[trials].parse().unwrap()).collect();
    seen.sort_unstable();
    seen.dedup();
    assert!(
        seen.iter().all(|t| [65_536, 131_072].contains(t)) && seen.contains(&131_072),
        "{seen:?}"
    );
}

/// A sweep prints one summary table across its variants: a row per
/// variant with its swept values, each course's P(enemy broken or
/// eliminated) and P(own unit broken or eliminated) as `sweep.csv` has
/// them, the best course of each marked `*` (most enemy broken, least own
/// broken), and no per-variant table unless `--detail`.
#[test]
fn a_sweep_prints_one_summary_table_with_the_best_course_marked() {
    let out = temp_out();
    let scenario = "scenarios/mpbs/cuirassiers-vs-pike.toml";
    let o = run_to(scenario, &["--plots", "none"], &out);
    let table = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        table.contains("== sweep: 10 variants × 3 courses (exact)"),
        "{table}"
    );
    assert!(!table.contains("== key outcomes"), "{table}");
    assert!(table.contains("(--detail prints each variant's tables)"));
    // Each variant's row, against sweep.csv.
    let (h, rows) = read_csv(&out.join("sweep.csv"));
    let (terrain, edition, variant, course, id, exact) = (
        col(&h, "units.pike.terrain"),
        col(&h, "edition"),
        col(&h, "variant"),
        col(&h, "course"),
        col(&h, "id"),
        col(&h, "exact"),
    );
    let mut variants: Vec<&str> = rows.iter().map(|r| r[variant].as_str()).collect();
    variants.dedup();
    assert_eq!(variants.len(), 10);
    for v in variants {
        let of = |key: &str| -> Vec<f64> {
            rows.iter()
                .filter(|r| r[variant] == v && r[id] == key)
                .map(|r| r[exact].parse().unwrap())
                .collect()
        };
        let first = rows.iter().find(|r| r[variant] == v).unwrap();
        let line = table
            .lines()
            .find(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                w.len() == 8 && w[0] == first[terrain] && w[1] == first[edition]
            })
            .unwrap_or_else(|| panic!("no row for {v}:\n{table}"));
        let cells: Vec<&str> = line.split_whitespace().skip(2).collect();
        let enemy = of("p-enemy-broken-or-eliminated");
        let own = of("p-own-broken-or-eliminated");
        assert_eq!(
            enemy.len(),
            3,
            "{v}: {:?}",
            rows.iter().map(|r| &r[course]).collect::<Vec<_>>()
        );
        for (k, want) in enemy.iter().chain(&own).enumerate() {
            let shown: f64 = cells[k].trim_end_matches(['*', '%']).parse().unwrap();
            assert!(
                (shown - want * 100.0).abs() < 0.006,
                "{v} column {k}: {line}"
            );
        }
        // The best of each group is the one marked, when it is unique.
        for (group, vals, more) in [(0, &enemy, true), (1, &own, false)] {
            let best = (0..3)
                .max_by(|&a, &b| {
                    let (x, y) = if more {
                        (vals[a], vals[b])
                    } else {
                        (vals[b], vals[a])
                    };
                    x.partial_cmp(&y).unwrap()
                })
                .unwrap();
            let unique = vals
                .iter()
                .filter(|x| (**x - vals[best]).abs() < 1e-12)
                .count()
                == 1;
            for j in 0..3 {
                let marked = cells[group * 3 + j].ends_with('*');
                assert_eq!(marked, unique && j == best, "{v}: {line}");
            }
        }
    }
    // `--detail` prints each variant's tables before the summary.
    let detail = out.beside("detail");
    let o = run_to(scenario, &["--plots", "none", "--detail"], &detail);
    let table = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(table.matches("== key outcomes").count(), 10);
    assert!(table.contains("== sweep: 10 variants"));
}
