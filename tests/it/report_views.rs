//! Issue 12, items 3, 4 and 8 through the CLI: each course's difference
//! from the first, the "at least" views, and charts a person reads at a
//! glance (steps, legible decimal points, long names wrapped and cut).

use std::fs;

use crate::support::cli::{TempOut, pikeshot_ok, run_fresh, run_to, stdout, temp_out};
use crate::support::{col as column, json_find, read_csv};

/// `salvo-vs-front.toml` on the Sweden Fights On card (with the exact
/// figures where `exact`) into a fresh folder; returns the folder and the
/// terminal table.
fn salvo_vs_front(exact: bool) -> (TempOut, String) {
    let mut args = vec!["--set", "edition=sfo", "--trials", "20000"];
    if exact {
        args.push("--exact");
    }
    let (out, o) = run_fresh("scenarios/mpbs/salvo-vs-front.toml", &args);
    (out, stdout(&o))
}

/// Runs a Musket & Pike scenario of one heavy-infantry salvo per course
/// name (series card, `trials` trials) from a file beside a fresh output
/// folder, quietly, and returns that folder.
fn salvo_courses(stem: &str, names: &[String], trials: u64) -> TempOut {
    let courses: String = names
        .iter()
        .map(|n| {
            format!(
                "[[course]]\nname = \"{n}\"\nsteps = [{{ procedure = \"musketry\", firer = \"musketeers\", \
                 target = \"target\", column = \"salvo\" }}]\n"
            )
        })
        .collect();
    let text = format!(
        "name = \"{stem}\"\nsystem = \"mpbs\"\nedition = \"series\"\ntrials = {trials}\n\n\
         [units.musketeers]\nkind = \"heavy-infantry\"\nmorale = 7\nstrength = 6\n\n\
         [units.target]\nkind = \"heavy-infantry\"\nmorale = 6\nstrength = 8\n\n{courses}"
    );
    let out = temp_out();
    let file = out.beside(&format!("{stem}.toml"));
    fs::write(&file, text).unwrap();
    run_to(&file, &["-q"], &out);
    out
}

fn f(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("not a number: {s:?}"))
}

#[test]
fn each_course_differs_from_the_first_by_the_difference_of_its_values() {
    let (out, table) = salvo_vs_front(true);
    let (header, rows) = read_csv(&out.join("comparison.csv"));
    let col = |name: &str| column(&header, name);
    let mut checked = 0;
    for r in &rows {
        let first = rows
            .iter()
            .find(|x| x[col("measure")] == r[col("measure")])
            .unwrap();
        if std::ptr::eq(first, r) {
            // The first course is the reference: no difference of its own.
            assert_eq!(r[col("diff_from")], "", "{r:?}");
            assert_eq!(r[col("diff")], "", "{r:?}");
            continue;
        }
        assert_eq!(r[col("diff_from")], "front", "{r:?}");
        // The Monte Carlo difference is the difference of the values (to the
        // six decimals each is written with).
        let mc = f(&r[col("value")]) - f(&first[col("value")]);
        assert!((f(&r[col("diff")]) - mc).abs() < 2e-6, "{r:?}");
        // The exact difference is the difference of the exact values...
        let exact = f(&r[col("exact")]) - f(&first[col("exact")]);
        let diff_exact = f(&r[col("diff_exact")]);
        assert!((diff_exact - exact).abs() < 1e-9, "{r:?}");
        // ... the Monte Carlo difference lies inside its own 95% interval,
        // and within 4.5 standard errors of the exact difference (the
        // standard error read back from the interval's half-width; a
        // difference that is exactly zero has a zero-width interval for an
        // expectation whose every trial is 0).
        let (lo, hi) = (f(&r[col("diff_ci_low")]), f(&r[col("diff_ci_high")]));
        let diff = f(&r[col("diff")]);
        assert!(lo <= diff + 1e-12 && diff <= hi + 1e-12, "{r:?}");
        let se = (hi - lo) / 2.0 / 1.959_964;
        assert!((diff - diff_exact).abs() <= 4.5 * se + 1e-9, "{r:?}");
        checked += 1;
    }
    // Three courses against "front", six key outcomes each.
    assert_eq!(checked, 3 * 6);
    // The card: SFO heavy infantry at DRM 0 reads 1.5 expected hits on the
    // Salvo column (0 miss, 1-3 one hit, 4-9 two hits) and 1.2 on Front.
    let salvo = rows
        .iter()
        .find(|r| r[col("course")] == "salvo" && r[col("measure")] == "expected-hits-inflicted")
        .unwrap();
    assert!(
        (f(&salvo[col("diff_exact")]) - 0.3).abs() < 1e-9,
        "{salvo:?}"
    );
    // The terminal says it, with the exact difference.
    assert!(table.contains("== difference from \"front\""), "{table}");
    assert!(
        table.contains("expected hits inflicted") && table.contains("+0.300"),
        "{table}"
    );
    // Neither musketry course can break its own unit: exactly level.
    assert!(
        table.contains("P(own unit broken or eliminated): salvo ties with front (exact +0.00 pp)"),
        "{table}"
    );
}

#[test]
fn the_json_document_carries_each_difference() {
    let (_out, o) = run_fresh(
        "scenarios/mpbs/salvo-vs-front.toml",
        &[
            "--set",
            "edition=sfo",
            "--trials",
            "2000",
            "--exact",
            "--format",
            "json",
        ],
    );
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let courses = doc["scenarios"][0]["courses"].as_array().unwrap();
    let key = |course: &str| {
        let c = courses.iter().find(|c| c["course"] == course).unwrap();
        json_find(&c["key_outcomes"], "name", "expected-hits-inflicted").clone()
    };
    assert!(key("front")["difference"].is_null());
    let d = &key("salvo")["difference"];
    assert_eq!(d["from"], "front");
    assert!((d["exact"].as_f64().unwrap() - 0.3).abs() < 1e-9, "{d}");
    assert!(d["ci_low"].as_f64().unwrap() <= 0.3 && 0.3 <= d["ci_high"].as_f64().unwrap());
    // Each value of a measure carries P(X >= value).
    let salvo = courses.iter().find(|c| c["course"] == "salvo").unwrap();
    let hits = json_find(&salvo["measures"], "measure", "hits-inflicted");
    let two = &hits["distribution"][2];
    assert_eq!(two["value"], 2);
    assert!((two["exact_at_least"].as_f64().unwrap() - 0.6).abs() < 1e-9);
}

#[test]
fn at_least_views_read_the_card() {
    let (out, table) = salvo_vs_front(true);
    // SFO heavy infantry Salvo at DRM 0 (10.0): die 0 misses, 1-3 one hit,
    // 4-9 two hits, so P(hits >= 1) = 9/10 and P(hits >= 2) = 6/10.
    let (header, rows) = read_csv(&out.join("measures.csv"));
    let col = |name: &str| column(&header, name);
    let row = |k: &str| {
        rows.iter()
            .find(|r| {
                r[col("course")] == "salvo"
                    && r[col("measure")] == "hits-inflicted"
                    && r[col("value")] == k
            })
            .unwrap()
    };
    for (k, want) in [("1", 0.9), ("2", 0.6)] {
        let r = row(k);
        assert!((f(&r[col("exact_at_least")]) - want).abs() < 1e-9, "{r:?}");
        // Monte Carlo within 4.5 standard errors of the card.
        let se = (want * (1.0 - want) / 20000.0f64).sqrt();
        assert!((f(&r[col("at_least")]) - want).abs() < 4.5 * se, "{r:?}");
    }
    // The terminal's at-least line of the salvo: each k with the exact
    // value in brackets.
    let block = &table[table.find("== salvo ").unwrap()..];
    let block = &block[..block.find("\n\n").unwrap()];
    let line = block
        .lines()
        .find(|l| l.trim_start().starts_with("hits inflicted  "))
        .unwrap_or_else(|| panic!("{block}"));
    assert!(
        line.contains(">=1 ")
            && line.contains("[90.00%]")
            && line.contains(">=2 ")
            && line.contains("[60.00%]"),
        "{line}"
    );
    // Its chart: a panel per measure that varies, PNG and SVG.
    let svg = fs::read_to_string(out.join("salvo-at-least.svg")).unwrap();
    assert!(svg.contains("salvo: at least k"), "title");
    // The panel names the measure by its label.
    assert!(svg.contains("hits inflicted"));
    assert!(out.join("salvo-at-least.png").is_file());
}

/// Every `points="x,y x,y …"` polyline of an SVG.
fn polylines(svg: &str) -> Vec<Vec<(f64, f64)>> {
    svg.split("<polyline")
        .skip(1)
        .filter_map(|p| {
            let start = p.find("points=\"")? + 8;
            let end = start + p[start..].find('"')?;
            Some(
                p[start..end]
                    .split_whitespace()
                    .filter_map(|xy| {
                        let (x, y) = xy.split_once(',')?;
                        Some((x.parse().ok()?, y.parse().ok()?))
                    })
                    .collect(),
            )
        })
        .collect()
}

/// Asserts every polyline of `svg` with more than one point is a step
/// curve: each segment horizontal or vertical, none sloping.
fn assert_steps(svg: &str, what: &str) {
    let lines = polylines(svg);
    assert!(lines.iter().any(|l| l.len() > 2), "{what}: no curve drawn");
    for l in lines {
        for w in l.windows(2) {
            let ((x0, y0), (x1, y1)) = (w[0], w[1]);
            assert!(
                x0 == x1 || y0 == y1,
                "{what}: a sloping segment {:?} → {:?}",
                w[0],
                w[1]
            );
        }
    }
}

#[test]
fn cumulative_curves_are_steps_not_slopes() {
    // Monte Carlo only: the curves are drawn solid through the values.
    let (out, _) = salvo_vs_front(false);
    assert_steps(
        &fs::read_to_string(out.join("salvo-at-least.svg")).unwrap(),
        "salvo-at-least",
    );
    let (out, _) = run_fresh(
        "scenarios/mpbs/charge-or-salvo.toml",
        &["--set", "edition=series", "--trials", "5000", "-q"],
    );
    let svg = fs::read_to_string(out.join("keep-firing-cumulative.svg")).unwrap();
    assert_steps(&svg, "keep-firing-cumulative");
    // The chart's subtitle names the --set that made it.
    assert!(svg.contains("--set edition=series"), "subtitle");
}

/// The text of every `<text>` element of an SVG.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| Some(t[t.find('>')? + 1..t.find("</text>")?].trim().to_string()))
        .collect()
}

#[test]
fn a_course_name_at_the_limit_is_wrapped_and_cut_and_a_longer_one_refused() {
    // A course name labels every row of the outputs: 200 characters at
    // most (issue 26). Six thousand are refused at the name's line.
    let long: String = "pikemen advance ".repeat(375);
    assert_eq!(long.len(), 6000);
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("long.toml");
    let text = format!(
        "name = \"Long names\"\nsystem = \"mpbs\"\nedition = \"series\"\n\n\
         [units.musketeers]\nkind = \"heavy-infantry\"\nmorale = 7\nstrength = 6\n\n\
         [[course]]\nname = \"{}\"\nsteps = [{{ procedure = \"musketry\", firer = \"musketeers\", \
         target = \"musketeers\", column = \"salvo\" }}]\n",
        long.trim_end()
    );
    fs::write(&file, text).unwrap();
    let o = crate::support::cli::pikeshot(&["explain", file.to_str().unwrap()]);
    let err = crate::support::cli::stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("long.toml:11: `course[0].name`"), "{err}");
    assert!(err.contains("at most 200 characters"), "{err}");
    // At the limit, in capitals (wider): wrapped between words and cut.
    let long: String = "PIKEMEN ADVANCE ".repeat(13)[..200].trim_end().to_string();
    let out = salvo_courses("Long names", &[long], 200);
    let svg = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.extension().is_some_and(|x| x == "svg")
                && !p.to_string_lossy().contains("at-least")
                && !p.to_string_lossy().contains("comparison")
        })
        .expect("a histogram");
    let texts = texts(&fs::read_to_string(&svg).unwrap());
    // The title's first line is the scenario and the start of the course
    // name, broken between words; the second line goes on with the name
    // and is cut with an ellipsis.
    assert!(
        texts[0].starts_with("Long names — PIKEMEN ADVANCE") && texts[0].ends_with("PIKEMEN"),
        "{:?}",
        &texts[..2]
    );
    assert!(
        texts[1].starts_with("ADVANCE PIKEMEN ADVANCE"),
        "{}",
        texts[1]
    );
    assert!(texts[1].ends_with('…'), "{}", texts[1]);
    // No line of the chart is longer than its width could hold.
    assert!(texts.iter().all(|t| t.chars().count() < 150), "{texts:?}");
}

/// The bottom row of ink of each glyph of `text` drawn in the charts' font
/// at `size` pixels: glyphs are told apart by blank columns between them.
fn glyph_bottoms(text: &str, size: f64) -> Vec<usize> {
    use plotters::prelude::*;
    pikeshot::report::draw::register_font();
    let (w, h) = (200usize, 60usize);
    let mut buf = vec![255u8; w * h * 3];
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w as u32, h as u32)).into_drawing_area();
        root.draw(&Text::new(
            text.to_string(),
            (10, 10),
            pikeshot::report::draw::font(size),
        ))
        .unwrap();
        root.present().unwrap();
    }
    let ink = |x: usize, y: usize| buf[(y * w + x) * 3] < 160;
    let mut bottoms = Vec::new();
    let mut x = 0;
    while x < w {
        if !(0..h).any(|y| ink(x, y)) {
            x += 1;
            continue;
        }
        let mut bottom = 0;
        while x < w && (0..h).any(|y| ink(x, y)) {
            bottom = bottom.max((0..h).rev().find(|&y| ink(x, y)).unwrap());
            x += 1;
        }
        bottoms.push(bottom);
    }
    bottoms
}

#[test]
fn the_decimal_point_sits_on_the_baseline_at_every_size() {
    // "1.1": the full stop's lowest ink is on the digits' baseline, not a
    // pixel above it (the raised "29·8%" of odd sizes before).
    for size in [11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 24.0] {
        let b = glyph_bottoms("1.1", size);
        assert_eq!(b.len(), 3, "size {size}: glyphs {b:?}");
        assert_eq!(b[1], b[0], "size {size}: the point sits at {b:?}");
    }
}

#[test]
fn comparison_charts_leave_out_what_no_course_can_do_and_keep_twenty_colours() {
    let (out, _) = salvo_vs_front(true);
    // Musketry never breaks the firer and no course takes a hit: exactly 0
    // for every course, so neither is drawn as a group of empty bars.
    let p = texts(&fs::read_to_string(out.join("comparison.svg")).unwrap());
    assert!(
        p.iter().any(|t| t == "P(enemy broken or eliminated)"),
        "{p:?}"
    );
    assert!(!p.iter().any(|t| t.contains("own unit broken")), "{p:?}");
    let e = texts(&fs::read_to_string(out.join("comparison-expected.svg")).unwrap());
    assert!(e.iter().any(|t| t == "expected hits inflicted"), "{e:?}");
    assert!(!e.iter().any(|t| t.contains("hits taken")), "{e:?}");

    // Twenty courses: twenty distinct bar colours in the legend.
    let names: Vec<String> = (1..=20).map(|k| format!("salvo {k}")).collect();
    let out = salvo_courses("Twenty", &names, 100);
    let svg = fs::read_to_string(out.join("comparison-expected.svg")).unwrap();
    let mut fills: Vec<&str> = svg
        .split("<rect")
        .skip(1)
        .filter_map(|r| {
            let at = r.find("fill=\"#")? + 6;
            Some(&r[at..at + 7])
        })
        .filter(|c| !c.eq_ignore_ascii_case("#FFFFFF"))
        .collect();
    fills.sort_unstable();
    fills.dedup();
    assert!(fills.len() >= 20, "{} colours: {fills:?}", fills.len());
}

#[test]
fn the_page_shows_differences_at_least_tables_run_options_and_both_editions() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("scenarios");
    fs::create_dir_all(&dir).unwrap();
    fs::copy(
        "scenarios/mpbs/charge-or-salvo.toml",
        dir.join("charge-or-salvo.toml"),
    )
    .unwrap();
    let out = tmp.path().join("site");
    pikeshot_ok(&[
        "report",
        dir.to_str().unwrap(),
        "--trials",
        "2000",
        "--set",
        "units.tercio.morale=6",
        "--out",
        out.to_str().unwrap(),
    ]);
    let page = fs::read_to_string(out.join("index.html")).unwrap();
    // A sweep of both cards is not listed as one edition.
    assert!(page.contains("mpbs (series, sfo)"), "editions");
    // The run options, from run.json.
    assert!(page.contains("run with 2,000 trials · seed 1631 · exact off · kernel auto"));
    assert!(page.contains("<code>--set units.tercio.morale=6</code>"));
    // Each course's difference from the first, under its key outcome.
    assert!(
        page.contains("<span class=\"diff\">vs charge now: +"),
        "differences"
    );
    // The at-least table of each course and its chart.
    assert!(
        page.contains("at least k: P(X &#8805; k)"),
        "at-least table"
    );
    assert!(
        page.contains("salvo-then-charge-at-least.png"),
        "at-least chart"
    );
    // Wide tables scroll inside their own box.
    assert!(page.contains("<div class=\"wide\"><table class=\"key\">"));
}
