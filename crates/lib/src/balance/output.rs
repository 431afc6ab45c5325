//! What `balance` and `sensitivity` print and write: the terminal tables,
//! `balance.csv` and `sensitivity.csv`, and the charts, in an output
//! folder replaced whole.

use std::path::Path;

use super::chart::{CurveChart, TornadoChart};
use super::eval::value;
use super::sensitivity::{Move, Sensitivity};
use super::solve::{Answer, Balance};
use crate::error::Result;
use crate::report::chart::Chart;
use crate::report::naming::{SLUG_BYTES, slug};
use crate::report::replace::NewFolder;
use crate::report::{Figure, Staging};

/// A figure's value as the tables print it: a percentage with two
/// decimals, or a number with three.
fn show(probability: bool, x: f64) -> String {
    if !x.is_finite() {
        "—".into()
    } else if probability {
        format!("{:.2}%", x * 100.0)
    } else {
        format!("{x:.3}")
    }
}

/// A change as the tables print it: percentage points, or a signed number.
fn show_change(probability: bool, d: f64) -> String {
    if probability {
        format!("{:+.2} pp", d * 100.0)
    } else {
        format!("{d:+.3}")
    }
}

/// A number as the CSV files write it.
fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.9}")
    } else {
        String::new()
    }
}

/// The 95% interval of a Monte Carlo figure as text, empty when exact.
fn interval(f: &Figure) -> String {
    if f.exact.is_some() || !f.ci.0.is_finite() {
        String::new()
    } else {
        format!(" [{:.4}, {:.4}]", f.ci.0, f.ci.1)
    }
}

/// The terminal text of a sensitivity: per course, its tornado table.
pub fn sensitivity_text(s: &Sensitivity) -> String {
    let mut out = format!("== what decides it: {}", s.name);
    if !s.variant.is_empty() {
        out.push_str(&format!(" (variant {})", s.variant));
    }
    out.push_str(&format!(
        "\n   {}; {} versions run; each key one step down and one step up\n",
        s.basis.describe(),
        s.runs
    ));
    let keyw = s
        .rows
        .iter()
        .map(|r| r.key.chars().count())
        .max()
        .unwrap_or(3)
        .max(3);
    let noww = s
        .rows
        .iter()
        .map(|r| r.now.chars().count())
        .max()
        .unwrap_or(3)
        .max(3);
    for c in 0..s.courses.len() {
        let Some(t) = s.tracked[c].first() else {
            continue;
        };
        let prob = t.target.is_probability();
        let base = s.base[c].first().copied().flatten();
        out.push_str(&format!(
            "\n-- {}: {} {}\n",
            s.courses[c],
            t.label,
            base.map_or("—".into(), |f| show(prob, value(&f)))
        ));
        out.push_str(&format!(
            "  {:keyw$}  {:noww$}  {:24}  {:24}  card\n",
            "key", "now", "one step down", "one step up"
        ));
        let side = |m: &Option<Move>| match m {
            None => "(end of range)".to_string(),
            Some(m) => match m.delta(c, 0) {
                Some(d) => format!("{}: {}", m.to, show_change(prob, d)),
                None => format!("{}: refused", m.to),
            },
        };
        for r in s.tornado(c) {
            let label: String = r.label.chars().take(60).collect();
            out.push_str(&format!(
                "  {:keyw$}  {:noww$}  {:24}  {:24}  {label}\n",
                r.key,
                r.now,
                side(&r.down),
                side(&r.up)
            ));
        }
    }
    if !s.computed.is_empty() {
        out.push_str(&format!(
            "\n{} ordered key{} left out: the scenario does not set {} and the reader computes {} value ({})\n",
            s.computed.len(),
            if s.computed.len() == 1 { "" } else { "s" },
            if s.computed.len() == 1 { "it" } else { "them" },
            if s.computed.len() == 1 { "its" } else { "their" },
            s.computed.join(", ")
        ));
    }
    out
}

/// The header of `sensitivity.csv`.
pub const SENSITIVITY_HEADER: [&str; 14] = [
    "course",
    "figure",
    "key",
    "value",
    "base",
    "down_to",
    "down_change",
    "down_refused",
    "up_to",
    "up_change",
    "up_refused",
    "size",
    "method",
    "card",
];

/// The rows of `sensitivity.csv`: every course × tracked figure × key,
/// each course's keys in tornado order of its first figure.
pub fn sensitivity_rows(s: &Sensitivity) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let method = if s.basis == super::eval::Basis::Exact {
        "exact"
    } else {
        "monte-carlo"
    };
    for c in 0..s.courses.len() {
        let order = s.tornado(c);
        for (t, tr) in s.tracked[c].iter().enumerate() {
            let base = s.base[c][t].map_or(f64::NAN, |f| value(&f));
            for r in &order {
                let side = |m: &Option<Move>| -> [String; 3] {
                    match m {
                        None => [String::new(), String::new(), String::new()],
                        Some(m) => match &m.change {
                            Ok(_) => [
                                m.to.clone(),
                                m.delta(c, t).map_or(String::new(), num),
                                String::new(),
                            ],
                            Err(why) => [m.to.clone(), String::new(), why.clone()],
                        },
                    }
                };
                let [dt, dc, dr] = side(&r.down);
                let [ut, uc, ur] = side(&r.up);
                rows.push(vec![
                    s.courses[c].clone(),
                    tr.target.name(),
                    r.key.clone(),
                    r.now.clone(),
                    num(base),
                    dt,
                    dc,
                    dr,
                    ut,
                    uc,
                    ur,
                    num(r.size(c, t)),
                    method.to_string(),
                    r.label.to_string(),
                ]);
            }
        }
    }
    rows
}

/// The terminal text of a balance: the curve (one key) or the ranked
/// combinations (several), and the answer.
pub fn balance_text(b: &Balance) -> String {
    let prob = b.goal.is_probability();
    let mut out = format!("== balance: {}", b.name);
    if !b.variant.is_empty() {
        out.push_str(&format!(" (variant {})", b.variant));
    }
    out.push_str(&format!(
        "\n   target {}; {}; {} versions run\n",
        b.goal.describe(),
        b.basis.describe(),
        b.points.len()
    ));
    let now: Vec<String> = b
        .axes
        .iter()
        .map(|a| {
            format!(
                "{}={}",
                a.knob.path,
                a.knob
                    .current
                    .map_or("(computed)".into(), |c| a.knob.text(c))
            )
        })
        .collect();
    out.push_str(&format!(
        "   as it is ({}): {}\n",
        now.join(", "),
        b.base.map_or("—".into(), |f| format!(
            "{}{}",
            show(prob, value(&f)),
            interval(&f)
        ))
    ));
    let figure = |i: usize| match &b.points[i].figure {
        Ok(f) => format!("{}{}", show(prob, value(f)), interval(f)),
        Err(why) => format!("refused: {why}"),
    };
    if b.axes.len() == 1 {
        let a = &b.axes[0];
        out.push_str(&format!("\n  {:>16}  figure\n", a.knob.path));
        for (i, p) in b.points.iter().enumerate() {
            let mark = if a.knob.current == Some(p.picks[0]) {
                " (as it is)"
            } else {
                ""
            };
            out.push_str(&format!(
                "  {:>16}  {}{mark}\n",
                a.knob.text(p.picks[0]),
                figure(i)
            ));
        }
        out.push('\n');
        match b.answer() {
            Answer::Value { point, met } => out.push_str(&format!(
                "{}: --set {} gives {}\n",
                if met {
                    "meets the target"
                } else {
                    "closest to the target (none meets it)"
                },
                b.assignments(point).join(" --set "),
                figure(point)
            )),
            Answer::Between(x, y) => {
                let closest = if b.points[x].distance <= b.points[y].distance {
                    x
                } else {
                    y
                };
                out.push_str(&format!(
                    "the target lies between --set {} ({}) and --set {} ({}); closest: --set {}\n",
                    b.assignments(x).join(" --set "),
                    figure(x),
                    b.assignments(y).join(" --set "),
                    figure(y),
                    b.assignments(closest).join(" --set ")
                ))
            }
            Answer::None => out.push_str("no value could be run\n"),
        }
    } else {
        let ranked = b.ranked();
        let tol = if prob {
            format!("{:.2} pp", b.tolerance * 100.0)
        } else {
            format!("{}", b.tolerance)
        };
        out.push_str(&format!(
            "\n{} of {} combinations within {tol} of the target, closest first:\n",
            ranked.len(),
            b.points.len()
        ));
        for &i in ranked.iter().take(40) {
            out.push_str(&format!(
                "  {}  →  {}  (off by {})\n",
                b.assignments(i).join(", "),
                figure(i),
                if prob {
                    format!("{:.2} pp", b.points[i].distance * 100.0)
                } else {
                    format!("{:.3}", b.points[i].distance)
                }
            ));
        }
        if ranked.len() > 40 {
            out.push_str(&format!("  … {} more in balance.csv\n", ranked.len() - 40));
        }
    }
    out
}

/// The header of `balance.csv` for `b`: a column per key varied, then the
/// figure.
pub fn balance_header(b: &Balance) -> Vec<String> {
    let mut h: Vec<String> = b.axes.iter().map(|a| a.knob.path.clone()).collect();
    h.extend(
        [
            "value", "ci_low", "ci_high", "exact", "distance", "within", "steps", "refused",
        ]
        .map(String::from),
    );
    h
}

/// The rows of `balance.csv`: every combination tried.
pub fn balance_rows(b: &Balance) -> Vec<Vec<String>> {
    b.points
        .iter()
        .map(|p| {
            let mut r: Vec<String> = b
                .axes
                .iter()
                .zip(&p.picks)
                .map(|(a, &i)| a.knob.text(i))
                .collect();
            match &p.figure {
                Ok(f) => r.extend([
                    num(f.value),
                    num(f.ci.0),
                    num(f.ci.1),
                    f.exact.map_or(String::new(), num),
                    num(p.distance),
                    (p.distance <= b.tolerance + crate::targets::EXACT_TOLERANCE).to_string(),
                    p.steps.to_string(),
                    String::new(),
                ]),
                Err(why) => r.extend([
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                    "false".into(),
                    p.steps.to_string(),
                    why.clone(),
                ]),
            }
            r
        })
        .collect()
}

/// Writes `balance.csv` and `balance.png`/`.svg` into `dir`, replaced whole.
pub fn write_balance(dir: &Path, b: &Balance) -> Result<()> {
    crate::report::draw::register_font();
    let folder = NewFolder::begin(dir, "--out", "balance")?;
    let mut out = Staging::new(folder.path())?;
    crate::report::csv::stage(
        &mut out,
        "balance.csv",
        &balance_header(b),
        &balance_rows(b),
    )?;
    CurveChart { balance: b }.stage(&mut out, "balance")?;
    out.commit()?;
    folder.commit()
}

/// Writes `sensitivity.csv` and a tornado chart per course
/// (`tornado--<course>.png`/`.svg`) into `dir`, replaced whole.
pub fn write_sensitivity(dir: &Path, s: &Sensitivity) -> Result<()> {
    crate::report::draw::register_font();
    let folder = NewFolder::begin(dir, "--out", "sensitivity")?;
    let mut out = Staging::new(folder.path())?;
    let header: Vec<String> = SENSITIVITY_HEADER.map(String::from).to_vec();
    crate::report::csv::stage(&mut out, "sensitivity.csv", &header, &sensitivity_rows(s))?;
    let mut stems: Vec<String> = Vec::new();
    for c in 0..s.courses.len() {
        if s.tracked[c].is_empty() {
            continue;
        }
        let mut stem = format!("tornado--{}", slug(&s.courses[c], SLUG_BYTES));
        if stems.contains(&stem) || stem == "tornado--" {
            stem = format!("tornado--course-{}", c + 1);
        }
        stems.push(stem.clone());
        TornadoChart {
            sensitivity: s,
            course: c,
        }
        .stage(&mut out, &stem)?;
    }
    out.commit()?;
    folder.commit()
}
