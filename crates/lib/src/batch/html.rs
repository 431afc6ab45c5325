//! `index.html`: one static page for a whole report.
//!
//! No script, no network, no external asset: the style sheet is inline and
//! every link and image is a path relative to the page, so the page works
//! from a CI artifact unpacked anywhere. It is built from the CSV files of
//! the scenario folders (and their `explain.json`) only, so it is a pure function of their bytes.
//!
//! Every element but the void ones (`meta`, `img`) is closed, and all text
//! and attribute values are escaped, so the page also parses as XML.

use std::fmt::Write as _;

use super::html_parts::{dec, esc, figure, href, pct, plots};
use super::html_views;
use super::site::{Entry, Folder, MANIFEST, SUMMARY};
use crate::report::KEY_OUTCOMES;
use crate::report::draw::thousands;
use crate::report::folder::PlotKind;
use crate::report::key::KeyKind;
use crate::targets::{CheckRow, VerdictCounts};

const STYLE: &str = "\
:root{--ink:#212121;--muted:#606060;--line:#e1e1e1;--head:#f5f5f5;--pass:#2e7d32;--fail:#c62828;--border:#8a6d00}
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;color:var(--ink);margin:0 auto;max-width:1200px;padding:1rem 1.5rem 4rem;line-height:1.45}
h1{font-size:1.7rem;margin:.5rem 0}
h2{font-size:1.35rem;margin:2.5rem 0 .4rem;padding-bottom:.25rem;border-bottom:2px solid var(--line)}
h3{font-size:1.1rem;margin:1.6rem 0 .3rem}
a{color:#1f5f9f}
code{font-size:.9em}
table{border-collapse:collapse;margin:.5rem 0 1rem;font-size:.9rem}
th,td{padding:.25rem .6rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
thead th{background:var(--head);font-weight:600}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.ci{display:block;color:var(--muted);font-size:.78rem}
.ex{color:var(--muted)}
.meta{color:var(--muted);font-size:.9rem;margin:.2rem 0}
.pass{color:var(--pass)}
.fail{color:var(--fail);font-weight:600}
.borderline{color:var(--border)}
.plots{display:flex;flex-wrap:wrap;gap:.8rem;margin:.4rem 0 1rem}
.wide{max-width:100%;overflow-x:auto;margin:.5rem 0 1rem}
.wide table{margin:0}
.diff{display:block;font-size:.78rem}
.k{color:var(--muted);font-size:.78rem}
figure{margin:0;flex:1 1 100%;max-width:1000px}
figure img{width:100%;height:auto;border:1px solid var(--line)}
figcaption{font-size:.8rem;color:var(--muted)}
details{margin:.6rem 0;padding:.2rem .6rem;border-left:3px solid var(--line)}
summary{cursor:pointer;font-weight:600}
details.explain summary,details.step summary{font-weight:500}
details.step{margin:.3rem 0 .3rem .4rem}
.case{margin:.4rem 0 .8rem;padding-left:.6rem;border-left:2px solid var(--head)}
.case p{margin:.15rem 0}
table.terms{font-size:.82rem;margin:.2rem 0}
";

/// Distinct values of `column` in order of first appearance, among rows
/// where `keep` holds.
fn distinct(t: &super::site::Table, column: &str, keep: impl Fn(usize) -> bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for i in 0..t.rows.len() {
        if keep(i) {
            let v = t.get(i, column);
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// The verdict counts of a scenario's targets, as a short cell.
fn targets_cell(rows: &[&CheckRow]) -> String {
    if rows.is_empty() {
        return "–".into();
    }
    let owned: Vec<CheckRow> = rows.iter().map(|r| (*r).clone()).collect();
    let t = VerdictCounts::of(&owned);
    let mut parts = Vec::new();
    if t.fail > 0 {
        parts.push(format!("<span class=\"fail\">{} failed</span>", t.fail));
    }
    parts.push(format!(
        "<span class=\"pass\">{} passed</span>",
        t.pass + t.borderline
    ));
    if t.borderline > 0 {
        parts.push(format!(
            "<span class=\"borderline\">{} borderline</span>",
            t.borderline
        ));
    }
    parts.join(", ")
}

/// The page for a report's scenarios.
pub fn page(entries: &[Entry], folders: &[Folder], checks: &[CheckRow]) -> String {
    let mut o = String::new();
    let courses: usize = folders
        .iter()
        .map(|f| {
            let mut pairs: Vec<(String, String)> = Vec::new();
            for i in 0..f.outcomes.rows.len() {
                let p = (f.outcomes.get(i, "variant"), f.outcomes.get(i, "course"));
                if !pairs.contains(&p) {
                    pairs.push(p);
                }
            }
            pairs.len()
        })
        .sum();
    let _ = writeln!(o, "<!DOCTYPE html>");
    let _ = writeln!(o, "<html lang=\"en\">");
    let _ = writeln!(o, "<head>");
    let _ = writeln!(o, "<meta charset=\"utf-8\">");
    let _ = writeln!(
        o,
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    );
    let _ = writeln!(
        o,
        "<title>pikeshot report: {} scenario{}</title>",
        entries.len(),
        if entries.len() == 1 { "" } else { "s" }
    );
    let _ = writeln!(o, "<style>\n{STYLE}</style>");
    let _ = writeln!(o, "</head>");
    let _ = writeln!(o, "<body>");
    let _ = writeln!(o, "<header>");
    let _ = writeln!(o, "<h1>pikeshot report</h1>");
    let _ = writeln!(
        o,
        "<p class=\"meta\">{} scenario{}, {} course runs · pikeshot {} · \
         <a href=\"{}\">{}</a> · <a href=\"{}\">{}</a> · <a href=\"expect.csv\">expect.csv</a></p>",
        entries.len(),
        if entries.len() == 1 { "" } else { "s" },
        courses,
        esc(env!("CARGO_PKG_VERSION")),
        SUMMARY,
        SUMMARY,
        MANIFEST,
        MANIFEST,
    );
    if let Some(r) = folders.iter().find_map(|f| f.record.as_ref()) {
        let sets = if r.sets.is_empty() {
            "no --set".to_string()
        } else {
            r.sets
                .iter()
                .map(|s| format!("<code>--set {}</code>", esc(s)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let _ = writeln!(
            o,
            "<p class=\"meta run\">run options: exact {} · kernel {} · {sets} \
             (each scenario's trials and seed under its name)</p>",
            if r.exact { "on" } else { "off" },
            esc(&r.kernel),
        );
    }
    if !checks.is_empty() {
        let t = VerdictCounts::of(checks);
        let class = if t.fail > 0 { "fail" } else { "pass" };
        let _ = writeln!(o, "<p class=\"{class}\">{}</p>", esc(&t.line()));
    }
    let _ = writeln!(o, "</header>");
    let _ = writeln!(o, "<main>");

    // Contents.
    let _ = writeln!(o, "<section id=\"contents\">");
    let _ = writeln!(o, "<h2>Scenarios</h2>");
    if entries.is_empty() {
        let _ = writeln!(o, "<p class=\"meta\">No scenario in this report.</p>");
    } else {
        let _ = writeln!(
            o,
            "<div class=\"wide\"><table>\n<thead><tr><th>scenario</th><th>file</th><th>system</th>\
             <th class=\"num\">variants</th><th class=\"num\">courses</th><th>targets</th></tr></thead>\n<tbody>"
        );
        for (k, (e, f)) in entries.iter().zip(folders).enumerate() {
            let variants = distinct(&f.outcomes, "variant", |_| true).len();
            let courses = distinct(&f.outcomes, "course", |_| true).len();
            let mine: Vec<&CheckRow> = checks.iter().filter(|c| c.scenario == e.file).collect();
            let _ = writeln!(
                o,
                "<tr><td><a href=\"#scenario-{}\">{}</a></td><td><code>{}</code></td><td>{}</td>\
                 <td class=\"num\">{variants}</td><td class=\"num\">{courses}</td><td>{}</td></tr>",
                k + 1,
                esc(&e.scenario),
                esc(&e.file),
                esc(&system_text(e)),
                targets_cell(&mine),
            );
        }
        let _ = writeln!(o, "</tbody>\n</table></div>");
    }
    let _ = writeln!(o, "</section>");

    // Failed targets first, where CI readers look.
    let failed: Vec<&CheckRow> = checks.iter().filter(|c| c.failed()).collect();
    if !failed.is_empty() {
        let _ = writeln!(o, "<section id=\"failed\">");
        let _ = writeln!(o, "<h2 class=\"fail\">Failed targets</h2>");
        targets_table(&mut o, &failed, true);
        let _ = writeln!(o, "</section>");
    }

    for (k, (e, f)) in entries.iter().zip(folders).enumerate() {
        scenario(&mut o, k + 1, e, f, checks);
    }
    let _ = writeln!(o, "</main>");
    let _ = writeln!(o, "</body>");
    let _ = writeln!(o, "</html>");
    o
}

fn system_text(e: &Entry) -> String {
    if e.edition.is_empty() {
        e.system.clone()
    } else {
        format!("{} ({})", e.system, e.edition)
    }
}

/// A table of targets: (scenario,) variant, course, target, measured,
/// 95% interval, exact, verdict.
fn targets_table(o: &mut String, rows: &[&CheckRow], with_scenario: bool) {
    let _ = write!(o, "<div class=\"wide\"><table>\n<thead><tr>");
    if with_scenario {
        let _ = write!(o, "<th>scenario</th>");
    }
    let _ = writeln!(
        o,
        "<th>variant</th><th>course</th><th>target</th><th class=\"num\">measured</th>\
         <th class=\"num\">95% interval</th><th class=\"num\">exact</th><th>verdict</th></tr></thead>\n<tbody>"
    );
    for r in rows {
        let _ = write!(o, "<tr>");
        if with_scenario {
            let _ = write!(o, "<td><code>{}</code></td>", esc(&r.scenario));
        }
        let _ = writeln!(
            o,
            "<td>{}</td><td>{}</td><td><code>{}</code></td><td class=\"num\">{}</td>\
             <td class=\"num\">{} – {}</td><td class=\"num\">{}</td><td class=\"{}\">{} ({})</td></tr>",
            esc(if r.variant.is_empty() {
                "–"
            } else {
                &r.variant
            }),
            esc(&r.course),
            esc(&r.describe()),
            dec(&r.value, 4),
            dec(&r.ci_low, 4),
            dec(&r.ci_high, 4),
            dec(&r.exact, 4),
            esc(&r.verdict),
            esc(&r.verdict),
            esc(&r.basis),
        );
    }
    let _ = writeln!(o, "</tbody>\n</table></div>");
}

/// One scenario's section.
fn scenario(o: &mut String, k: usize, e: &Entry, f: &Folder, checks: &[CheckRow]) {
    let base = format!("{}/", e.folder);
    let _ = writeln!(o, "<section class=\"scenario\" id=\"scenario-{k}\">");
    let _ = writeln!(o, "<h2>{}</h2>", esc(&e.scenario));
    let seed = if f.summary.rows.is_empty() {
        String::new()
    } else {
        f.summary.get(0, "seed")
    };
    let mut meta = vec![
        format!("<code>{}</code>", esc(&e.file)),
        esc(&system_text(e)),
    ];
    if !seed.is_empty() {
        meta.push(format!("seed {}", esc(&seed)));
    }
    let links: Vec<String> = f
        .files
        .iter()
        .map(|name| {
            format!(
                "<a href=\"{}\">{}</a>",
                esc(&href(&format!("{base}{name}"))),
                name
            )
        })
        .collect();
    meta.push(links.join(" "));
    let _ = writeln!(o, "<p class=\"meta\">{}</p>", meta.join(" · "));
    if let Some(r) = &f.record {
        let _ = writeln!(
            o,
            "<p class=\"meta run\">{}</p>",
            html_views::run_options(r)
        );
    }
    let _ = writeln!(
        o,
        "<p class=\"meta\"><a href=\"#contents\">back to the list</a></p>"
    );

    let mine: Vec<&CheckRow> = checks.iter().filter(|c| c.scenario == e.file).collect();
    if !mine.is_empty() {
        let _ = writeln!(o, "<h3>Targets</h3>");
        targets_table(o, &mine, false);
    }

    super::html_decision::section(o, f.decisions.as_ref(), &base);

    let has_exact = (0..f.outcomes.rows.len()).any(|i| !f.outcomes.get(i, "exact").is_empty());
    // A swept scenario opens with its view across the sweep; each
    // variant's detail follows, collapsed.
    let swept = super::html_sweep::section(o, f, &base);
    let variants = distinct(&f.outcomes, "variant", |_| true);
    if swept {
        let _ = writeln!(
            o,
            "<details class=\"variants\"><summary>Each variant in detail ({})</summary>",
            variants.len()
        );
    }
    for variant in variants {
        let _ = writeln!(o, "<section class=\"variant\">");
        if !variant.is_empty() {
            let _ = writeln!(o, "<h3>{}</h3>", esc(&variant));
        }
        key_table(o, f, &variant);
        let figures: Vec<usize> = (0..f.plots.rows.len())
            .filter(|&i| {
                f.plots.get(i, "variant") == variant
                    && matches!(
                        PlotKind::from_name(&f.plots.get(i, "kind")),
                        Some(PlotKind::Comparison | PlotKind::ComparisonExpected)
                    )
            })
            .collect();
        plots(o, f, &base, &figures);
        for course in distinct(&f.outcomes, "course", |i| {
            f.outcomes.get(i, "variant") == variant
        }) {
            let rows: Vec<usize> = (0..f.outcomes.rows.len())
                .filter(|&i| {
                    f.outcomes.get(i, "variant") == variant && f.outcomes.get(i, "course") == course
                })
                .collect();
            let trials = rows
                .first()
                .and_then(|&i| f.outcomes.get(i, "trials").parse::<u64>().ok())
                .map_or_else(String::new, |n| format!(" · {} trials", thousands(n)));
            let _ = writeln!(o, "<details open=\"open\">");
            let _ = writeln!(
                o,
                "<summary>{}<span class=\"ex\">{}</span></summary>",
                esc(&course),
                trials
            );
            let _ = write!(
                o,
                "<div class=\"wide\"><table>\n<thead><tr><th>outcome</th><th class=\"num\">simulated</th><th class=\"num\">95% interval</th>"
            );
            if has_exact {
                let _ = write!(o, "<th class=\"num\">exact</th>");
            }
            let _ = writeln!(o, "</tr></thead>\n<tbody>");
            for &i in &rows {
                // The card's label; the id in a folder written before labels.
                let mut label = f.outcomes.get(i, "label");
                if label.is_empty() {
                    label = f.outcomes.get(i, "outcome");
                }
                let _ = write!(
                    o,
                    "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{} – {}</td>",
                    esc(&label),
                    pct(&f.outcomes.get(i, "probability"), 2),
                    pct(&f.outcomes.get(i, "ci_low"), 2),
                    pct(&f.outcomes.get(i, "ci_high"), 2),
                );
                if has_exact {
                    let _ = write!(
                        o,
                        "<td class=\"num\">{}</td>",
                        pct(&f.outcomes.get(i, "exact"), 3)
                    );
                }
                let _ = writeln!(o, "</tr>");
            }
            let _ = writeln!(o, "</tbody>\n</table></div>");
            html_views::at_least_table(o, f, &variant, &course);
            let figures: Vec<usize> = (0..f.plots.rows.len())
                .filter(|&i| {
                    f.plots.get(i, "variant") == variant && f.plots.get(i, "course") == course
                })
                .collect();
            plots(o, f, &base, &figures);
            super::html_explain::course(
                o,
                f.explain.as_ref(),
                &variant,
                &course,
                &href(&format!("{base}{}", super::site::EXPLAIN_JSON)),
            );
            let _ = writeln!(o, "</details>");
        }
        let _ = writeln!(o, "</section>");
    }
    if swept {
        let _ = writeln!(o, "</details>");
    }
    let _ = writeln!(o, "</section>");
}

/// The key outcomes of one variant: a row per key outcome, a column per
/// course; each cell the simulated value, its 95% interval and the exact
/// value beside it.
fn key_table(o: &mut String, f: &Folder, variant: &str) {
    let t = &f.comparison;
    let idx: Vec<usize> = (0..t.rows.len())
        .filter(|&i| t.get(i, "variant") == variant)
        .collect();
    if idx.is_empty() {
        return;
    }
    let courses = distinct(t, "course", |i| t.get(i, "variant") == variant);
    let measures = distinct(t, "measure", |i| t.get(i, "variant") == variant);
    let any_exact = idx.iter().any(|&i| !t.get(i, "exact").is_empty());
    let _ = write!(
        o,
        "<div class=\"wide\"><table class=\"key\">\n<thead><tr><th>key outcome</th>"
    );
    for c in &courses {
        let _ = write!(o, "<th class=\"num\">{}</th>", esc(c));
    }
    let _ = writeln!(o, "</tr></thead>\n<tbody>");
    for m in &measures {
        let def = KEY_OUTCOMES.iter().find(|d| d.name == m);
        let label = def.map_or(m.as_str(), |d| d.label);
        let prob = def.is_none_or(|d| d.kind == KeyKind::Probability);
        let _ = write!(o, "<tr><td>{}</td>", esc(label));
        for c in &courses {
            let cell = idx
                .iter()
                .find(|&&i| t.get(i, "measure") == *m && t.get(i, "course") == *c);
            match cell {
                None => {
                    let _ = write!(o, "<td class=\"num\">–</td>");
                }
                Some(&i) => {
                    let kind = if prob {
                        KeyKind::Probability
                    } else {
                        KeyKind::Expectation
                    };
                    let _ = write!(
                        o,
                        "<td class=\"num\">{}{}</td>",
                        figure(t, i, prob),
                        html_views::difference_line(t, i, kind),
                    );
                }
            }
        }
        let _ = writeln!(o, "</tr>");
    }
    let _ = writeln!(o, "</tbody>\n</table></div>");
    let _ = writeln!(
        o,
        "<p class=\"meta\">Simulated value{}, with its 95% interval below{}.</p>",
        if any_exact {
            ", the exact value beside it"
        } else {
            ""
        },
        if (0..t.rows.len()).any(|i| !t.get(i, "diff_from").is_empty()) {
            ", then the difference from the first course (95% interval: Newcombe for \
             probabilities, normal for means)"
        } else {
            ""
        }
    );
}
