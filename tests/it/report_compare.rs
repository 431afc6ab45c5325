//! Courses side by side and engagements, from a hand-built run:
//! comparison.csv against hand arithmetic, the summary's key probabilities,
//! the joint (stop reason, turn) distribution and its cumulative curves,
//! the plots, the terminal's key-outcome table, and determinism.

use crate::support::report::{
    Row, counted_course, mpbs_run, renamed, space, written_csv, written_rows,
};
use crate::support::{Z, assert_all_close, col as column, read_csv, wilson};
use std::fs;
use std::path::Path;

use pikeshot::report::{
    self, CourseRun, Engagement, KeyKind, ScenarioRun, terminal_table, write_reports,
};

/// The categories of the charges (a close combat is won or held).
const WON_HELD: [&str; 2] = ["won", "held"];

// The measures the courses share (id, min, max): courses are compared
// measure by measure, so each is written once.
const OWN_MORALE: (&str, i32, i32) = ("own-morale", 0, 3);
const ENEMY_MORALE: (&str, i32, i32) = ("enemy-morale", 0, 3);
const HITS_INFLICTED: (&str, i32, i32) = ("hits-inflicted", 0, 2);

/// "charge now": categories won/held; measures own-morale, enemy-morale
/// (0..=3), hits-inflicted, hits-taken (0..=2). 1000 trials:
///
/// | cat  | own | enemy | inflicted | taken | count | exact |
/// |------|-----|-------|-----------|-------|-------|-------|
/// | won  | 0   | 2     | 2         | 0     | 300   | 0.28  |
/// | won  | 1   | 3     | 1         | 1     | 100   | 0.10  |
/// | held | 2   | 0     | 0         | 2     | 200   | 0.22  |
/// | held | 0   | 1     | 1         | 0     | 400   | 0.40  |
///
/// P(enemy >= 2) = 400/1000 = 0.4 (exact 0.28 + 0.10 = 0.38);
/// P(own >= 2) = 200/1000 = 0.2 (exact 0.22).
/// Hits inflicted: 2×300, 1×500, 0×200: mean 1.1 (exact 0.56 + 0.5 = 1.06);
/// squared deviations 300·0.81 + 500·0.01 + 200·1.21 = 490, s² = 490/999.
/// Hits taken: 0×700, 1×100, 2×200: mean 0.5 (exact 0.1 + 0.44 = 0.54);
/// squared deviations 700·0.25 + 100·0.25 + 200·2.25 = 650, s² = 650/999.
fn charge_now() -> CourseRun {
    let measures = [
        OWN_MORALE,
        ENEMY_MORALE,
        HITS_INFLICTED,
        ("hits-taken", 0, 2),
    ];
    let space = space(&WON_HELD, &measures);
    // (category, [own, enemy, inflicted, taken], count, exact)
    let rows: [Row; 4] = [
        (0, &[0, 2, 2, 0], 300, 0.28),
        (0, &[1, 3, 1, 1], 100, 0.10),
        (1, &[2, 0, 0, 2], 200, 0.22),
        (1, &[0, 1, 1, 0], 400, 0.40),
    ];
    counted_course("", "charge now", space, 1000, &rows, true)
}

/// "salvo, then charge": no hits-taken measure, no exact. 200 trials:
/// won, own 0, enemy 3, inflicted 2: 150; held, own 3, enemy 0,
/// inflicted 0: 50.
/// P(enemy >= 2) = 150/200 = 0.75; P(own >= 2) = 50/200 = 0.25.
/// Hits inflicted: mean 300/200 = 1.5; squared deviations
/// 150·0.25 + 50·2.25 = 150, s² = 150/199.
fn salvo() -> CourseRun {
    let space = space(&WON_HELD, &[OWN_MORALE, ENEMY_MORALE, HITS_INFLICTED]);
    let rows: [Row; 2] = [(0, &[0, 3, 2], 150, 0.0), (1, &[3, 0, 0], 50, 0.0)];
    counted_course("", "salvo, then charge", space, 200, &rows, false)
}

const REASONS: [&str; 3] = [
    "enemy-broken-or-eliminated",
    "own-broken-or-eliminated",
    "turn-limit",
];

/// "keep firing", an engagement of at most 3 turns: stop reasons as
/// categories, enemy-morale 0..=3 and turns 1..=3. 100 trials:
///
/// | reason        | enemy | turn | count | exact |
/// |---------------|-------|------|-------|-------|
/// | enemy-broken  | 2     | 1    | 20    | 0.25  |
/// | enemy-broken  | 3     | 2    | 30    | 0.20  |
/// | own-broken    | 1     | 2    | 10    | 0.15  |
/// | own-broken    | 0     | 3    | 5     | 0.05  |
/// | turn-limit    | 1     | 3    | 35    | 0.35  |
///
/// Joint (Monte Carlo), turns 1/2/3: enemy-broken 0.2/0.3/0, own-broken
/// 0/0.1/0.05, turn-limit 0/0/0.35; cumulative: enemy-broken 0.2/0.5/0.5,
/// own-broken 0/0.1/0.15, turn-limit 0/0/0.35, overall 0.2/0.6/1.
/// Exact: enemy-broken 0.25/0.2/0, own-broken 0/0.15/0.05, turn-limit
/// 0/0/0.35; cumulative 0.25/0.45/0.45, 0/0.15/0.2, 0/0/0.35, overall
/// 0.25/0.6/1.
/// P(enemy >= 2) = 50/100 = 0.5 (exact 0.45). Turns: 1×20, 2×40, 3×40:
/// mean 2.2 (exact 0.25 + 0.7 + 1.2 = 2.15); squared deviations
/// 20·1.44 + 40·0.04 + 40·0.64 = 56, s² = 56/99.
fn keep_firing() -> CourseRun {
    let space = space(&REASONS, &[ENEMY_MORALE, ("turns", 1, 3)]);
    // (reason, [enemy, turn], count, exact)
    let rows: [Row; 5] = [
        (0, &[2, 1], 20, 0.25),
        (0, &[3, 2], 30, 0.20),
        (1, &[1, 2], 10, 0.15),
        (1, &[0, 3], 5, 0.05),
        (2, &[1, 3], 35, 0.35),
    ];
    counted_course("", "keep firing", space, 100, &rows, true)
}

/// "charge now" under terrain=woods: morale only, 10 trials: enemy 2 and
/// own 0 four times, enemy 0 and own 2 six times.
fn woods() -> CourseRun {
    let space = space(&WON_HELD, &[OWN_MORALE, ENEMY_MORALE]);
    let rows: [Row; 2] = [(0, &[0, 2], 4, 0.0), (1, &[2, 0], 6, 0.0)];
    counted_course(
        "units.tercio.terrain=woods",
        "charge now",
        space,
        10,
        &rows,
        false,
    )
}

fn run() -> ScenarioRun {
    mpbs_run(
        "Charge or salvo",
        "charge-or-salvo",
        "sfo",
        42,
        vec![charge_now(), salvo(), keep_firing(), woods()],
    )
}

/// mean ± Z·s/√n from the sum of squared deviations `ss`.
fn mean_ci(mean: f64, ss: f64, n: f64) -> (f64, f64) {
    let half = Z * (ss / (n - 1.0)).sqrt() / n.sqrt();
    (mean - half, mean + half)
}

fn f6(x: f64) -> String {
    format!("{x:.6}")
}

#[test]
fn comparison_csv_has_one_row_per_key_outcome_and_course() {
    let rows = written_rows(
        &run(),
        "comparison.csv",
        "scenario,variant,measure,course,value,ci_low,ci_high,exact,\
         own,enemy,diff_from,diff,diff_ci_low,diff_ci_high,diff_exact",
    );
    // Grouped by variant, then key outcome, then course in run order; a
    // course without the measure has no row.
    let keys: Vec<(&str, &str, &str)> = rows
        .iter()
        .map(|r| (r[1].as_str(), r[2].as_str(), r[3].as_str()))
        .collect();
    let woods = "units.tercio.terrain=woods";
    assert_eq!(
        keys,
        [
            ("", "p-enemy-broken-or-eliminated", "charge now"),
            ("", "p-enemy-broken-or-eliminated", "salvo, then charge"),
            ("", "p-enemy-broken-or-eliminated", "keep firing"),
            ("", "p-own-broken-or-eliminated", "charge now"),
            ("", "p-own-broken-or-eliminated", "salvo, then charge"),
            ("", "expected-hits-inflicted", "charge now"),
            ("", "expected-hits-inflicted", "salvo, then charge"),
            ("", "expected-hits-taken", "charge now"),
            ("", "expected-turns", "keep firing"),
            (woods, "p-enemy-broken-or-eliminated", "charge now"),
            (woods, "p-own-broken-or-eliminated", "charge now"),
        ]
    );
    assert!(rows.iter().all(|r| r[0] == "Charge or salvo"));

    // Probabilities: count / trials and the Wilson interval of the count.
    let prob = |r: &[String], k: f64, n: f64| {
        let (lo, hi) = wilson(k, n);
        assert_eq!(r[4..7], [f6(k / n), f6(lo), f6(hi)], "{r:?}");
    };
    prob(&rows[0], 400.0, 1000.0);
    prob(&rows[1], 150.0, 200.0);
    prob(&rows[2], 50.0, 100.0);
    prob(&rows[3], 200.0, 1000.0);
    prob(&rows[4], 50.0, 200.0);
    prob(&rows[9], 4.0, 10.0);
    prob(&rows[10], 6.0, 10.0);
    // Wilson k = 400, n = 1000 to four places: (0.3700, 0.4307).
    assert!((rows[0][5].parse::<f64>().unwrap() - 0.3700).abs() < 1e-4);
    assert!((rows[0][6].parse::<f64>().unwrap() - 0.4307).abs() < 1e-4);

    // Expectations: the mean and mean ± Z·s/√n (sample variance).
    let expect = |r: &[String], mean: f64, ss: f64, n: f64| {
        let (lo, hi) = mean_ci(mean, ss, n);
        assert_eq!(r[4..7], [f6(mean), f6(lo), f6(hi)], "{r:?}");
    };
    expect(&rows[5], 1.1, 490.0, 1000.0);
    expect(&rows[6], 1.5, 150.0, 200.0);
    expect(&rows[7], 0.5, 650.0, 1000.0);
    expect(&rows[8], 2.2, 56.0, 100.0);
    // Hits inflicted of "charge now": s = √(490/999) = 0.7003503,
    // half = 1.9599640 · 0.7003503 / 31.6227766 = 0.0434074.
    assert_eq!(rows[5][5..7], ["1.056593", "1.143407"]);

    // Exact: from the exact leaf probabilities, empty without them.
    let exact: Vec<&str> = rows.iter().map(|r| r[7].as_str()).collect();
    assert_eq!(
        exact,
        [
            "0.3800000000",
            "",
            "0.4500000000",
            "0.2200000000",
            "",
            "1.0600000000",
            "",
            "0.5400000000",
            "2.1500000000",
            "",
            ""
        ]
    );
}

#[test]
fn comparison_csv_is_written_for_a_single_course_and_without_key_measures() {
    let tmp = tempfile::tempdir().unwrap();
    let mut r = run();
    r.courses = vec![salvo()];
    write_reports(&r, tmp.path()).unwrap();
    let (_, rows) = read_csv(&tmp.path().join("comparison.csv"));
    // enemy, own, hits inflicted.
    assert_eq!(rows.len(), 3);
    assert!(tmp.path().join("comparison.png").is_file());
    assert!(tmp.path().join("comparison-expected.png").is_file());
    assert!(!tmp.path().join("engagements.csv").exists());

    // A course with no key measure: a header alone, and no chart.
    let tmp = tempfile::tempdir().unwrap();
    let space = space(&["a", "b"], &[("hits", 0, 1)]);
    r.courses = vec![counted_course(
        "",
        "plain",
        space,
        3,
        &[(0, &[0], 3, 0.0)],
        false,
    )];
    write_reports(&r, tmp.path()).unwrap();
    let (header, rows) = read_csv(&tmp.path().join("comparison.csv"));
    assert_eq!(header.len(), 15);
    assert!(rows.is_empty());
    assert!(!tmp.path().join("comparison.png").exists());
    assert!(!tmp.path().join("comparison-expected.png").exists());
}

#[test]
fn summary_csv_gains_the_key_probabilities_and_exact_twins() {
    let (header, rows) = written_csv(&run(), "summary.csv");
    let col = |name: &str| column(&header, name);
    // The existing columns stay first; the figures are rows (tidy).
    assert_eq!(
        header[..5],
        ["scenario", "variant", "course", "trials", "seed"]
    );
    assert_eq!(
        header[5..],
        [
            "kind", "id", "value", "ci_low", "ci_high", "exact", "own", "enemy"
        ]
    );
    let courses = run().courses;
    // The value and exact value of figure `id` of course `i`: empty when the
    // course has no such row.
    let figure = |i: usize, kind: &str, id: &str| -> [String; 2] {
        let c = &courses[i];
        let hits: Vec<&Vec<String>> = rows
            .iter()
            .filter(|r| {
                r[col("variant")] == c.variant
                    && r[col("course")] == c.course
                    && r[col("kind")] == kind
                    && r[col("id")] == id
            })
            .collect();
        assert!(hits.len() <= 1, "{id} twice for course {i}");
        hits.first().map_or_else(Default::default, |r| {
            [r[col("value")].clone(), r[col("exact")].clone()]
        })
    };
    let cells = |i: usize| {
        let [pe, xe] = figure(i, "key", "p-enemy-broken-or-eliminated");
        let [po, xo] = figure(i, "key", "p-own-broken-or-eliminated");
        [pe, po, xe, xo]
    };
    assert_eq!(
        cells(0),
        ["0.400000", "0.200000", "0.3800000000", "0.2200000000"]
    );
    assert_eq!(cells(1), ["0.750000", "0.250000", "", ""]);
    // The engagement has no own-morale measure.
    assert_eq!(cells(2), ["0.500000", "", "0.4500000000", ""]);
    assert_eq!(cells(3), ["0.400000", "0.600000", "", ""]);
    assert_eq!(figure(0, "mean", "hits-inflicted")[0], "1.100000");
    // The key probabilities follow the means of their course.
    let kinds: Vec<&str> = rows
        .iter()
        .filter(|r| r[col("course")] == courses[0].course && r[col("variant")].is_empty())
        .map(|r| r[col("kind")].as_str())
        .collect();
    let first_key = kinds.iter().position(|k| *k == "key").unwrap();
    assert!(kinds[..first_key].iter().all(|k| *k == "mean"));
    assert!(kinds[first_key..].iter().all(|k| *k == "key"));
}

#[test]
fn engagement_joint_distribution_and_cumulative_curves() {
    let e = Engagement::of(&keep_firing()).unwrap();
    assert!(Engagement::of(&charge_now()).is_none());
    assert_eq!(e.reasons, REASONS);
    assert_eq!(e.turns().collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(e.counts, [vec![20, 30, 0], vec![0, 10, 5], vec![0, 0, 35]]);
    assert_all_close(&e.probs[0], &[0.2, 0.3, 0.0]);
    assert_all_close(&e.per_turn(), &[0.2, 0.4, 0.4]);
    let c = e.cumulative();
    assert_all_close(&c.overall, &[0.2, 0.6, 1.0]);
    assert_all_close(&c.by_reason[0], &[0.2, 0.5, 0.5]);
    assert_all_close(&c.by_reason[1], &[0.0, 0.1, 0.15]);
    assert_all_close(&c.by_reason[2], &[0.0, 0.0, 0.35]);

    let x = e.exact.as_ref().unwrap();
    assert_all_close(&x[0], &[0.25, 0.2, 0.0]);
    assert_all_close(&x[1], &[0.0, 0.15, 0.05]);
    assert_all_close(&e.exact_per_turn().unwrap(), &[0.25, 0.35, 0.4]);
    let c = e.exact_cumulative().unwrap();
    assert_all_close(&c.overall, &[0.25, 0.6, 1.0]);
    assert_all_close(&c.by_reason[0], &[0.25, 0.45, 0.45]);
    assert_all_close(&c.by_reason[1], &[0.0, 0.15, 0.2]);
    assert_all_close(&c.by_reason[2], &[0.0, 0.0, 0.35]);
}

#[test]
fn engagements_csv_lists_each_reason_and_turn_then_every_reason() {
    let rows = written_rows(
        &run(),
        "engagements.csv",
        "scenario,variant,course,stop_reason,turn,count,probability,cumulative,exact,exact_cumulative",
    );
    // Only the engagement: 3 reasons × 3 turns, then 3 rows for "any".
    assert_eq!(rows.len(), 12);
    assert!(rows.iter().all(|r| r[2] == "keep firing"));
    let tail = |i: usize| rows[i][3..].to_vec();
    assert_eq!(
        tail(1),
        [
            "enemy-broken-or-eliminated",
            "2",
            "30",
            "0.300000",
            "0.500000",
            "0.2000000000",
            "0.4500000000"
        ]
    );
    assert_eq!(
        tail(5),
        [
            "own-broken-or-eliminated",
            "3",
            "5",
            "0.050000",
            "0.150000",
            "0.0500000000",
            "0.2000000000"
        ]
    );
    assert_eq!(
        tail(10),
        [
            "any",
            "2",
            "40",
            "0.400000",
            "0.600000",
            "0.3500000000",
            "0.6000000000"
        ]
    );
    assert_eq!(
        tail(11),
        [
            "any",
            "3",
            "40",
            "0.400000",
            "1.000000",
            "0.4000000000",
            "1.0000000000"
        ]
    );
}

/// The text of every `<text>` element of an SVG.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .map(|t| {
            t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()]
                .trim()
                .to_string()
        })
        .collect()
}

fn is_png(path: &Path) {
    let png = fs::read(path).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{}", path.display());
    assert!(
        png.len() > 20_000,
        "{} is only {} bytes",
        path.display(),
        png.len()
    );
}

#[test]
fn comparison_and_engagement_plots_are_written() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let written = write_reports(&run(), dir).unwrap();
    let names: Vec<String> = written
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names[6..],
        [
            "charge-now.png",
            "charge-now.svg",
            "salvo-then-charge.png",
            "salvo-then-charge.svg",
            "keep-firing.png",
            "keep-firing.svg",
            "terrain-woods--charge-now.png",
            "terrain-woods--charge-now.svg",
            "charge-now-at-least.png",
            "charge-now-at-least.svg",
            "salvo-then-charge-at-least.png",
            "salvo-then-charge-at-least.svg",
            "keep-firing-at-least.png",
            "keep-firing-at-least.svg",
            "terrain-woods--charge-now-at-least.png",
            "terrain-woods--charge-now-at-least.svg",
            "keep-firing-turns.png",
            "keep-firing-turns.svg",
            "keep-firing-cumulative.png",
            "keep-firing-cumulative.svg",
            "comparison.png",
            "comparison.svg",
            "comparison-expected.png",
            "comparison-expected.svg",
            "terrain-woods--comparison.png",
            "terrain-woods--comparison.svg",
        ]
    );
    for stem in [
        "comparison",
        "comparison-expected",
        "terrain-woods--comparison",
        "keep-firing-turns",
        "keep-firing-cumulative",
    ] {
        is_png(&dir.join(format!("{stem}.png")));
        let svg = fs::read_to_string(dir.join(format!("{stem}.svg"))).unwrap();
        assert!(svg.starts_with("<svg"), "{stem}");
    }

    // The probability chart: groups, every course in the legend, values,
    // the exact marker's legend.
    let svg = fs::read_to_string(dir.join("comparison.svg")).unwrap();
    let texts = svg_texts(&svg);
    for t in [
        "P(enemy broken or eliminated)",
        "P(own unit broken or eliminated)",
        "charge now",
        "salvo, then charge",
        "keep firing",
        "40.0%",
        "75.0%",
        "50.0%",
        "20.0%",
        "25.0%",
        "exact",
        "95% Wilson interval",
    ] {
        assert!(texts.iter().any(|x| x == t), "comparison.svg lacks {t:?}");
    }
    // The expectations chart: its own groups and values.
    let texts = svg_texts(&fs::read_to_string(dir.join("comparison-expected.svg")).unwrap());
    for t in [
        "expected hits inflicted",
        "expected hits taken",
        "1.10",
        "1.50",
        "0.50",
        "charge now",
    ] {
        assert!(texts.iter().any(|x| x == t), "expected chart lacks {t:?}");
    }
    // Turns are not hits: "keep firing"'s expected turns (2.20), its only
    // expectation, are not drawn on the hits' axis (the engagement's turn
    // charts show them), so neither is the course.
    for t in ["expected turns", "2.20", "keep firing"] {
        assert!(
            !texts.iter().any(|x| x == t),
            "expected chart draws {t:?} beside hits"
        );
    }
    // The woods variant: no exact values, its variant in the subtitle.
    let svg = fs::read_to_string(dir.join("terrain-woods--comparison.svg")).unwrap();
    assert!(svg.contains("units.tercio.terrain=woods"));
    assert!(!svg_texts(&svg).iter().any(|t| t == "exact"));
    assert!(!dir.join("terrain-woods--comparison-expected.png").exists());

    // Engagement plots: every stop reason in the legend, turns on the axis,
    // the stacked totals 20%/40%/40% and the cumulative 20%/60%/100%.
    let turns = svg_texts(&fs::read_to_string(dir.join("keep-firing-turns.svg")).unwrap());
    let cum = svg_texts(&fs::read_to_string(dir.join("keep-firing-cumulative.svg")).unwrap());
    for texts in [&turns, &cum] {
        for t in REASONS.iter().copied().chain(["1", "2", "3", "turn"]) {
            assert!(texts.iter().any(|x| x == t), "engagement plot lacks {t:?}");
        }
        assert!(texts.iter().any(|x| x.contains("keep firing")));
    }
    for t in ["20.0%", "40.0%"] {
        assert!(turns.iter().any(|x| x == t), "turns plot lacks {t}");
    }
    for t in ["20.0%", "60.0%", "100.0%", "every stop reason"] {
        assert!(cum.iter().any(|x| x == t), "cumulative plot lacks {t}");
    }
    assert!(turns.iter().any(|x| x.starts_with("exact")));
    assert!(cum.iter().any(|x| x.starts_with("exact")));
}

#[test]
fn plot_names_never_collide_with_comparison_or_engagement_plots() {
    let mut r = run();
    r.courses.push(renamed(salvo(), "Comparison"));
    r.courses.push(renamed(salvo(), "keep firing turns"));
    let plan = report::naming::plan(&r);
    assert_eq!(
        plan.courses,
        [
            "charge-now",
            "salvo-then-charge",
            "keep-firing",
            "terrain-woods--charge-now",
            "comparison-2",
            "keep-firing-turns-2"
        ]
    );
    assert_eq!(
        plan.comparisons,
        [
            (String::new(), "comparison".to_string()),
            (
                "units.tercio.terrain=woods".to_string(),
                "terrain-woods--comparison".to_string()
            )
        ]
    );
    let tmp = tempfile::tempdir().unwrap();
    write_reports(&r, tmp.path()).unwrap();
    assert!(tmp.path().join("comparison-2.png").is_file());
    assert!(tmp.path().join("keep-firing-turns-2.svg").is_file());
}

#[test]
fn writing_twice_gives_identical_files() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let written = write_reports(&run(), &a).unwrap();
    write_reports(&run(), &b).unwrap();
    for path in written {
        let name = path.file_name().unwrap();
        if name == "timing.csv" {
            continue;
        }
        assert_eq!(
            fs::read(&path).unwrap(),
            fs::read(b.join(name)).unwrap(),
            "{name:?} differs"
        );
    }
}

#[test]
fn terminal_shows_key_outcomes_per_course_with_exact_and_engagement_shares() {
    let t = terminal_table(&run());
    for line in t.lines() {
        assert!(line.chars().count() <= 100, "too wide: {line}");
    }
    let block = t.split("== key outcomes\n").nth(1).unwrap();
    let block: Vec<&str> = block.split("\n\n").next().unwrap().lines().collect();
    // Legend, then the course names over their columns.
    assert!(block[0].contains("[exact]"), "{}", block[0]);
    let words = |l: &str| l.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    assert_eq!(
        words(block[1]),
        [
            "charge", "now", "salvo,", "then", "charge", "keep", "firing"
        ]
    );
    // The words of the row labelled `label`, after the label.
    let values = |label: &str| {
        let line = block
            .iter()
            .find(|l| l.trim_start().starts_with(label))
            .unwrap_or_else(|| panic!("no row {label}"));
        words(line)[label.split_whitespace().count()..].to_vec()
    };
    // Monte Carlo [exact], or ± half the Wilson interval without exact.
    let (lo, hi) = wilson(150.0, 200.0);
    let half = format!("±{:.2}%", (hi - lo) / 2.0 * 100.0);
    let p_enemy = ["40.00%", "[38.00%]", "75.00%", &half, "50.00%", "[45.00%]"];
    for (label, want) in [
        ("P(enemy broken or eliminated)", &p_enemy[..]),
        ("expected hits taken", &["0.500", "[0.540]", "-", "-"]),
        ("expected turns", &["-", "-", "2.200", "[2.150]"]),
        // The share of the engagement ending each way.
        ("ends: turn-limit", &["-", "-", "35.00%", "[35.00%]"]),
        (
            "ends: own-broken-or-eliminated",
            &["-", "-", "15.00%", "[20.00%]"],
        ),
    ] {
        assert_eq!(values(label), want, "{label}");
    }
    // The woods variant has its own block, Monte Carlo ± only.
    let woods = t
        .split("== key outcomes  [units.tercio.terrain=woods]\n")
        .nth(1)
        .unwrap();
    assert!(
        woods
            .lines()
            .next()
            .unwrap()
            .contains("± half the 95% interval")
    );
}

#[test]
fn terminal_wraps_long_course_names_and_splits_wide_tables() {
    let mut r = run();
    r.courses.truncate(3);
    let long = "keep firing until the tercio breaks or the brigade runs out of powder";
    r.courses[2].course = long.into();
    for k in 0..5 {
        let name = format!("salvo number {k}, then charge the tercio in the flank");
        r.courses.push(renamed(salvo(), name));
    }
    let t = terminal_table(&r);
    for line in t.lines() {
        assert!(line.chars().count() <= 100, "too wide: {line}");
    }
    // No course name is cut: every word of each appears in a header.
    let block = t.split("== key outcomes\n").nth(1).unwrap();
    assert!(!block.contains('…'));
    for word in long.split(' ') {
        assert!(
            block.split_whitespace().any(|w| w == word),
            "{word} missing"
        );
    }
    // Eight courses do not fit in 100 columns: the table continues below,
    // with its rows again.
    assert!(
        block
            .lines()
            .filter(|l| l.trim_start().starts_with("P(enemy broken or eliminated)"))
            .count()
            >= 2
    );
}

#[test]
fn key_outcomes_api() {
    let course = charge_now();
    let keys = report::key_outcomes(course.stats());
    let names: Vec<&str> = keys.iter().map(|k| k.def.name).collect();
    assert_eq!(
        names,
        [
            "p-enemy-broken-or-eliminated",
            "p-own-broken-or-eliminated",
            "expected-hits-inflicted",
            "expected-hits-taken"
        ]
    );
    assert_eq!(keys[0].def.kind, KeyKind::Probability);
    assert!((keys[0].figure.value - 0.4).abs() < 1e-12);
    assert!((keys[0].figure.exact.unwrap() - 0.38).abs() < 1e-12);
    assert_eq!(keys[2].def.kind, KeyKind::Expectation);
    assert!((keys[2].figure.exact.unwrap() - 1.06).abs() < 1e-12);
}
