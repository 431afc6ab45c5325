//! Reports written from a hand-built run: CSV contents against hand
//! arithmetic, plots, determinism, and whole-or-nothing writing.

mod diff;
mod draw;
mod engagement;
mod fixed;
mod naming;
mod stream;
mod summary;
mod sweep;

use crate::support::report::{
    Row, counted_course, mpbs_run, renamed, space, written_csv, written_rows,
};
use crate::support::{Z, assert_near, file_names, wilson};
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use pikeshot::error::Error;
use pikeshot::report::{
    self, CourseRun, ScenarioRun, check_writable, terminal_table, write_reports,
};

/// Course 1, "charge now", no sweep: outcomes attacker-repulsed,
/// defender-broken, no-effect; measures hits 0..=2 and turns 1..=2.
///
/// Counts (1000 trials):
///   repulsed, hits 0, turn 1: 300
///   repulsed, hits 1, turn 1: 100
///   repulsed, hits 2, turn 2: 300
///   broken,   hits 1, turn 1:  50
///   broken,   hits 2, turn 2: 250
///   no-effect: never
/// so repulsed 700, broken 300, no-effect 0; hits 0/1/2 = 300/150/550
/// (mean (150 + 2*550)/1000 = 1.25); turns 1/2 = 450/550 (mean 1.55).
///
/// Exact leaf probabilities:
///   repulsed h0 t1 0.25, repulsed h1 t1 0.125, repulsed h2 t2 0.325,
///   broken h1 t1 0.05, broken h2 t2 0.2, no-effect h0 t1 0.05 (sum 1)
/// so outcomes 0.7 / 0.25 / 0.05; hits 0.3 / 0.175 / 0.525 (mean
/// 0.175 + 1.05 = 1.225); turns 0.475 / 0.525 (mean 0.475 + 1.05 = 1.525).
fn course_one() -> CourseRun {
    let space = space(
        &["attacker-repulsed", "defender-broken", "no-effect"],
        &[("hits", 0, 2), ("turns", 1, 2)],
    );
    // (outcome, [hits, turns], count, exact)
    let rows: [Row; 6] = [
        (0, &[0, 1], 300, 0.25),
        (0, &[1, 1], 100, 0.125),
        (0, &[2, 2], 300, 0.325),
        (1, &[1, 1], 50, 0.05),
        (1, &[2, 2], 250, 0.2),
        (2, &[0, 1], 0, 0.05),
    ];
    let mut course = counted_course("", "charge now", space, 1000, &rows, true);
    course.tally.threads = 2;
    course
}

/// Course 2, "charge now" under the variant terrain=woods, no exact, only
/// the `hits` measure. Counts (100 trials): repulsed h0 10, broken h2 30,
/// no-effect h1 60: hits 0/1/2 = 10/60/30, mean (60 + 60)/100 = 1.2.
fn course_two() -> CourseRun {
    let space = space(
        &["attacker-repulsed", "defender-broken", "no-effect"],
        &[("hits", 0, 2)],
    );
    let rows: [Row; 3] = [(0, &[0], 10, 0.0), (1, &[2], 30, 0.0), (2, &[1], 60, 0.0)];
    let variant = "units.tercio.terrain=woods";
    let mut course = counted_course(variant, "charge now", space, 100, &rows, false);
    course.tally.exact_error = Some("more than 10 paths".into());
    course.tally.seconds = 0.25;
    course
}

fn run() -> ScenarioRun {
    mpbs_run(
        "Pike and shot, test",
        "test",
        "series",
        1631,
        vec![course_one(), course_two()],
    )
}

fn names(dir: &Path) -> BTreeSet<String> {
    file_names(dir).into_iter().collect()
}

fn num(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("not a number: {s:?}"))
}

#[track_caller]
fn cell_near(s: &str, want: f64, tol: f64) {
    assert_near(num(s), want, tol);
}

/// Asserts an outcomes.csv row's `ci_low` and `ci_high` cells are the
/// Wilson interval of `k` in `n`, to six places.
#[track_caller]
fn assert_wilson_cells(row: &[String], k: f64, n: f64) {
    let (lo, hi) = wilson(k, n);
    assert_eq!(
        (row[7].as_str(), row[8].as_str()),
        (format!("{lo:.6}").as_str(), format!("{hi:.6}").as_str())
    );
}

#[test]
fn writes_every_file_and_nothing_else() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out/nested");
    let written = write_reports(&run(), &dir).unwrap();
    // Course 1 has a `turns` measure: it is an engagement (engagements.csv,
    // its turns and cumulative plots) and `turns` is a key measure (the
    // expectations comparison chart of the variant without a sweep).
    // Course 2 has no key measure: no comparison chart for its variant.
    // Both have a measure that varies: an at-least chart each.
    let expected: Vec<PathBuf> = [
        "outcomes.csv",
        "measures.csv",
        "summary.csv",
        "timing.csv",
        "comparison.csv",
        "engagements.csv",
        "charge-now.png",
        "charge-now.svg",
        "terrain-woods--charge-now.png",
        "terrain-woods--charge-now.svg",
        "charge-now-at-least.png",
        "charge-now-at-least.svg",
        "terrain-woods--charge-now-at-least.png",
        "terrain-woods--charge-now-at-least.svg",
        "charge-now-turns.png",
        "charge-now-turns.svg",
        "charge-now-cumulative.png",
        "charge-now-cumulative.svg",
        "comparison-expected.png",
        "comparison-expected.svg",
    ]
    .iter()
    .map(|n| dir.join(n))
    .collect();
    assert_eq!(written, expected);
    // No temporaries left behind.
    let on_disk = names(&dir);
    let wanted: BTreeSet<String> = expected
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(on_disk, wanted);
}

#[test]
fn outcomes_csv_has_probabilities_wilson_bounds_and_exact() {
    let rows = written_rows(
        &run(),
        "outcomes.csv",
        "scenario,variant,course,outcome,count,trials,probability,ci_low,ci_high,exact,label",
    );
    // Every category of both courses, zero counts included.
    assert_eq!(rows.len(), 6);
    let row = |variant: &str, outcome: &str| {
        rows.iter()
            .find(|r| r[1] == variant && r[3] == outcome)
            .unwrap_or_else(|| panic!("no row {variant}/{outcome}"))
            .clone()
    };

    let r = row("", "attacker-repulsed");
    assert_eq!(
        &r[..6],
        [
            "Pike and shot, test",
            "",
            "charge now",
            "attacker-repulsed",
            "700",
            "1000"
        ]
    );
    assert_eq!(r[6], "0.700000");
    // Wilson, k = 700, n = 1000: the formula, and the reference interval
    // (0.6709, 0.7276) to four places.
    assert_wilson_cells(&r, 700.0, 1000.0);
    cell_near(&r[7], 0.6709, 1e-4);
    cell_near(&r[8], 0.7276, 1e-4);
    assert_eq!(r[9], "0.7000000000");

    let r = row("", "defender-broken");
    assert_eq!((r[4].as_str(), r[6].as_str()), ("300", "0.300000"));
    assert_wilson_cells(&r, 300.0, 1000.0);
    assert_eq!(r[9], "0.2500000000");

    // k = 0: the interval is [0, z²/(n + z²)] = [0, 3.841459/1003.841459].
    let r = row("", "no-effect");
    assert_eq!(
        (r[4].as_str(), r[6].as_str(), r[7].as_str()),
        ("0", "0.000000", "0.000000")
    );
    cell_near(&r[8], Z * Z / (1000.0 + Z * Z), 1e-6);
    assert_eq!(r[8], "0.003827");
    assert_eq!(r[9], "0.0500000000");

    // The variant without exact values: empty `exact`, quoted variant kept.
    let r = row("units.tercio.terrain=woods", "no-effect");
    assert_eq!(
        (r[4].as_str(), r[5].as_str(), r[6].as_str()),
        ("60", "100", "0.600000")
    );
    assert_wilson_cells(&r, 60.0, 100.0);
    assert_eq!(r[9], "");
}

#[test]
fn measures_csv_has_every_value_at_least_and_exact() {
    let rows = written_rows(
        &run(),
        "measures.csv",
        "scenario,variant,course,measure,value,count,probability,at_least,exact,exact_at_least",
    );
    // Course 1: hits 0..=2, turns 1..=2; course 2: hits 0..=2.
    let keys: Vec<(String, String, String)> = rows
        .iter()
        .map(|r| (r[1].clone(), r[3].clone(), r[4].clone()))
        .collect();
    let want: Vec<(String, String, String)> = [
        ("", "hits", "0"),
        ("", "hits", "1"),
        ("", "hits", "2"),
        ("", "turns", "1"),
        ("", "turns", "2"),
        ("units.tercio.terrain=woods", "hits", "0"),
        ("units.tercio.terrain=woods", "hits", "1"),
        ("units.tercio.terrain=woods", "hits", "2"),
    ]
    .iter()
    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
    .collect();
    assert_eq!(keys, want);
    let cols = |i: usize| rows[i][5..].to_vec();
    // hits: counts 300/150/550; P(X >= v) = 1, 0.7, 0.55;
    // exact 0.3/0.175/0.525, at least 1, 0.7, 0.525.
    assert_eq!(
        cols(0),
        [
            "300",
            "0.300000",
            "1.000000",
            "0.3000000000",
            "1.0000000000"
        ]
    );
    assert_eq!(
        cols(1),
        [
            "150",
            "0.150000",
            "0.700000",
            "0.1750000000",
            "0.7000000000"
        ]
    );
    assert_eq!(
        cols(2),
        [
            "550",
            "0.550000",
            "0.550000",
            "0.5250000000",
            "0.5250000000"
        ]
    );
    // turns: 450/550; exact 0.475/0.525.
    assert_eq!(
        cols(3),
        [
            "450",
            "0.450000",
            "1.000000",
            "0.4750000000",
            "1.0000000000"
        ]
    );
    assert_eq!(
        cols(4),
        [
            "550",
            "0.550000",
            "0.550000",
            "0.5250000000",
            "0.5250000000"
        ]
    );
    // Course 2: 10/60/30 of 100, no exact.
    assert_eq!(cols(5), ["10", "0.100000", "1.000000", "", ""]);
    assert_eq!(cols(6), ["60", "0.600000", "0.900000", "", ""]);
    assert_eq!(cols(7), ["30", "0.300000", "0.300000", "", ""]);
}

#[test]
fn summary_and_timing_rows() {
    let (header, rows) = written_csv(&run(), "summary.csv");
    // Tidy: one row per variant × course × figure.
    assert_eq!(
        header,
        [
            "scenario", "variant", "course", "trials", "seed", "kind", "id", "value", "ci_low",
            "ci_high", "exact", "own", "enemy"
        ]
    );
    // Every column but the interval, which is checked to bracket the value.
    let cells = |r: &Vec<String>| -> Vec<String> {
        let lo: f64 = r[8].parse().unwrap();
        let hi: f64 = r[9].parse().unwrap();
        let v: f64 = r[7].parse().unwrap();
        assert!(lo <= v && v <= hi, "interval {lo}..{hi} around {v}");
        [&r[..8], &r[10..]].concat()
    };
    assert_eq!(rows.len(), 3);
    assert_eq!(
        cells(&rows[0]).join("|"),
        "Pike and shot, test||charge now|1000|1631|mean|hits|1.250000|1.2250000000||"
    );
    assert_eq!(
        cells(&rows[1]).join("|"),
        "Pike and shot, test||charge now|1000|1631|mean|turns|1.550000|1.5250000000||"
    );
    // Course 2 lacks `turns` (no row) and exact values (empty cell).
    assert_eq!(
        cells(&rows[2]).join("|"),
        "Pike and shot, test|units.tercio.terrain=woods|charge now|100|1631|mean|hits|1.200000|||"
    );

    let rows = written_rows(
        &run(),
        "timing.csv",
        "scenario,variant,course,trials,threads,seconds,resolutions_per_second,kernel",
    );
    // 1000 trials in 0.5 s; 100 in 0.25 s; these tallies name no kernel.
    assert_eq!(rows[0][3..], ["1000", "2", "0.500000", "2000", ""]);
    assert_eq!(rows[1][3..], ["100", "1", "0.250000", "400", ""]);
}

#[test]
fn plots_are_png_and_svg_with_labels() {
    let tmp = tempfile::tempdir().unwrap();
    write_reports(&run(), tmp.path()).unwrap();
    for stem in ["charge-now", "terrain-woods--charge-now"] {
        let png = fs::read(tmp.path().join(format!("{stem}.png"))).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        // IHDR: width and height, big-endian, at bytes 16..24.
        assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 1000);
        assert_eq!(u32::from_be_bytes(png[20..24].try_into().unwrap()), 600);
        // A blank or text-less 1000x600 image compresses to a few kB.
        assert!(png.len() > 20_000, "{stem}.png is only {} bytes", png.len());

        let svg = fs::read_to_string(tmp.path().join(format!("{stem}.svg"))).unwrap();
        assert!(svg.starts_with("<svg"));
        let texts: Vec<String> = svg
            .split("<text")
            .skip(1)
            .map(|t| {
                let body = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
                body.trim().to_string()
            })
            .collect();
        for label in [
            "attacker-repulsed",
            "defender-broken",
            "no-effect",
            "outcome",
            "probability",
        ] {
            assert!(texts.iter().any(|t| t == label), "{stem}.svg lacks {label}");
        }
        assert!(texts.iter().any(|t| t.contains("charge now")));
        assert!(texts.iter().any(|t| t.contains("Pike and shot, test")));
    }
    // The exact values appear in the legend only where there are some;
    // the variant appears in the subtitle only under a sweep.
    let one = fs::read_to_string(tmp.path().join("charge-now.svg")).unwrap();
    let two = fs::read_to_string(tmp.path().join("terrain-woods--charge-now.svg")).unwrap();
    assert!(one.contains("exact probability") && !two.contains("exact probability"));
    assert!(two.contains("units.tercio.terrain=woods") && !one.contains("terrain=woods"));
    // Percentages on the bars: 70.0%, 30.0%, 0%; 10.0%, 30.0%, 60.0%.
    for p in ["70.0%", "30.0%", "0%"] {
        assert!(
            one.contains(&format!("\n{p}\n")),
            "charge-now.svg lacks {p}"
        );
    }
    for p in ["10.0%", "30.0%", "60.0%"] {
        assert!(two.contains(&format!("\n{p}\n")), "woods svg lacks {p}");
    }
}

#[test]
fn writing_twice_gives_identical_files() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let b = tmp.path().join("b");
    write_reports(&run(), &a).unwrap();
    write_reports(&run(), &b).unwrap();
    // And overwriting in place.
    write_reports(&run(), &a).unwrap();
    for name in [
        "outcomes.csv",
        "measures.csv",
        "summary.csv",
        "charge-now.png",
        "charge-now.svg",
        "terrain-woods--charge-now.svg",
    ] {
        assert_eq!(
            fs::read(a.join(name)).unwrap(),
            fs::read(b.join(name)).unwrap(),
            "{name} differs"
        );
    }
}

#[test]
fn unwritable_folder_fails_naming_it_and_leaves_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("plain-file");
    fs::write(&file, b"not a folder").unwrap();
    let dir = file.join("reports");

    match write_reports(&run(), &dir) {
        Err(Error::Io { path, .. }) => assert_eq!(path, dir),
        other => panic!("expected Error::Io, got {other:?}"),
    }
    match check_writable(&dir) {
        Err(Error::Io { path, .. }) => assert_eq!(path, dir),
        other => panic!("expected Error::Io, got {other:?}"),
    }
    assert_eq!(
        names(tmp.path()),
        BTreeSet::from(["plain-file".to_string()])
    );
    assert_eq!(fs::read(&file).unwrap(), b"not a folder");
    let msg = write_reports(&run(), &dir).unwrap_err().to_string();
    assert!(msg.contains("plain-file/reports"), "{msg}");
}

#[test]
fn failed_rename_removes_the_temporaries() {
    let tmp = tempfile::tempdir().unwrap();
    // A folder where outcomes.csv should go: its rename fails.
    fs::create_dir(tmp.path().join("outcomes.csv")).unwrap();
    match write_reports(&run(), tmp.path()) {
        Err(Error::Io { path, .. }) => assert_eq!(path, tmp.path().join("outcomes.csv")),
        other => panic!("expected Error::Io, got {other:?}"),
    }
    // outcomes.csv is renamed first: nothing else was written, no temporary
    // is left.
    assert_eq!(
        names(tmp.path()),
        BTreeSet::from(["outcomes.csv".to_string()])
    );
    assert!(tmp.path().join("outcomes.csv").is_dir());
}

#[test]
fn check_writable_creates_the_folder_and_leaves_it_empty() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("new/reports");
    check_writable(&dir).unwrap();
    assert!(dir.is_dir());
    assert!(names(&dir).is_empty());
}

#[test]
fn plot_names_are_slugs_and_unique() {
    let mut r = run();
    r.courses.push(renamed(course_one(), "Charge now!"));
    r.courses.push(renamed(course_one(), "?!"));
    assert_eq!(
        report::naming::file_stems(&r),
        [
            "charge-now",
            "terrain-woods--charge-now",
            "charge-now-2",
            "course-4"
        ]
    );
    let tmp = tempfile::tempdir().unwrap();
    let written = write_reports(&r, tmp.path()).unwrap();
    // Six CSV files, a histogram and an at-least chart (PNG and SVG) per
    // course, two plots (PNG and SVG) per engagement (courses 1, 3 and 4),
    // and the expectations chart of the variant without a sweep.
    assert_eq!(written.len(), 6 + 2 * 4 + 2 * 4 + 4 * 3 + 2);
}

#[test]
fn terminal_table_shows_probabilities_intervals_exact_and_means() {
    let t = terminal_table(&run());
    assert!(t.starts_with("Pike and shot, test  (mpbs, edition series, seed 1631)\n"));
    let (lo, hi) = wilson(700.0, 1000.0);
    let repulsed = t
        .lines()
        .find(|l| l.trim_start().starts_with("attacker-repulsed"))
        .unwrap();
    assert!(repulsed.contains("70.00%"), "{repulsed}");
    assert!(
        repulsed.contains(&format!("{:.2}%", lo * 100.0)),
        "{repulsed}"
    );
    assert!(
        repulsed.contains(&format!("{:.2}%", hi * 100.0)),
        "{repulsed}"
    );
    assert!(repulsed.trim_end().ends_with("70.000%"), "{repulsed}");
    assert!(t.contains("means: hits 1.250 (exact 1.2250), turns 1.550 (exact 1.5250)"));
    assert!(t.contains("[units.tercio.terrain=woods]"));
    assert!(t.contains("means: hits 1.200\n"));
    assert!(t.contains("exact: not computed (more than 10 paths)"));
    for line in t.lines() {
        assert!(line.chars().count() <= 100, "too wide: {line}");
    }
}

#[test]
fn terminal_table_puts_courses_sharing_outcomes_side_by_side() {
    let mut r = run();
    r.courses.insert(1, renamed(course_one(), "salvo"));
    let t = terminal_table(&r);
    let side = t
        .split("== side by side (exact probability)\n")
        .nth(1)
        .unwrap();
    let mut lines = side.lines();
    assert_eq!(
        lines.next().unwrap().split_whitespace().collect::<Vec<_>>(),
        ["outcome", "charge", "now", "salvo"]
    );
    assert_eq!(
        lines.next().unwrap().split_whitespace().collect::<Vec<_>>(),
        ["attacker-repulsed", "70.00%", "70.00%"]
    );
    // The woods variant has a single course: no side-by-side table for it.
    assert_eq!(t.matches("== side by side").count(), 1);
}
