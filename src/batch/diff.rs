//! `pikeshot diff`: one scenario under two editions of its card, and how
//! each outcome's probability and each key outcome moves between them.
//!
//! The scenario is prepared twice with `--set edition=<from>` and
//! `--set edition=<to>` (which pins `edition` if the file sweeps it; any
//! other sweep stays, and variants are matched by label), resolved with the
//! same seed and options, and compared course by course. An outcome one
//! card cannot produce has probability 0 under it.
//!
//! The change is `to − from`. Its 95% interval combines the two intervals
//! by Newcombe's method (for proportions, his hybrid score interval from
//! the two Wilson intervals; for expectations it is the usual
//! `√(h₁² + h₂²)` half-width). With `--exact`, the exact change is shown
//! beside it.
//!
//! Outputs: a terminal table, `diff.csv`, and per variant a chart
//! (`diff.png`/`.svg`, or `<variant>--diff` under a sweep) of the change of
//! every outcome of every course: a bar per outcome, coloured by course,
//! with its interval and the exact change as a diamond.

use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::folder::stage_csv;
use crate::error::{Error, InputError};
use crate::report::csv::{DECIMALS, EXACT_DECIMALS};
use crate::report::key::{KEY_OUTCOMES, KeyKind, key_outcome};
use crate::report::plot::{
    self, DrawResult, INK, MUTED, PALETTE, Swatch, draw_diamond_coloured, draw_legend_rows, fit,
    font, other, thousands, variant_slug, width, with_svg_title,
};
use crate::report::{ScenarioRun, Staging, check_writable, fixed};
use crate::run::{self, RunRequest};
use crate::scenario::ScenarioFile;
use crate::systems::SYSTEMS;

/// The systems whose scenarios have an `edition` key, with their editions:
/// every system of the registry that has editions.
pub fn edition_systems() -> Vec<(&'static str, Vec<&'static str>)> {
    SYSTEMS
        .iter()
        .filter(|s| !s.editions().is_empty())
        .map(|s| (s.id(), s.editions().iter().map(|e| e.id).collect()))
        .collect()
}

/// What the user asked of `pikeshot diff`.
#[derive(Clone, Debug)]
pub struct DiffRequest {
    /// The scenario file.
    pub scenario: PathBuf,
    /// The edition compared from (default: the system's oldest).
    pub from: Option<String>,
    /// The edition compared to (default: the system's newest).
    pub to: Option<String>,
    /// Run options for both runs (`scenarios` and `out` unused).
    pub run: RunRequest,
    /// Output folder (default `reports/<stem>-diff/`).
    pub out: Option<PathBuf>,
}

/// A figure under one edition.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figure {
    /// Monte Carlo value.
    pub value: f64,
    /// 95% interval.
    pub ci: (f64, f64),
    /// Exact value.
    pub exact: Option<f64>,
}

impl Figure {
    /// An outcome a card cannot produce: probability 0, exactly.
    pub const IMPOSSIBLE: Figure = Figure {
        value: 0.0,
        ci: (0.0, 0.0),
        exact: Some(0.0),
    };
}

/// What a row compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// An outcome's probability.
    Outcome,
    /// A key outcome.
    Key(KeyKind),
}

/// One figure of one course under both editions.
#[derive(Clone, Debug, PartialEq)]
pub struct DiffRow {
    /// Variant (the sweep without `edition`; empty without a sweep).
    pub variant: String,
    /// Course.
    pub course: String,
    /// Outcome or key outcome.
    pub kind: RowKind,
    /// The outcome label or key outcome name.
    pub name: String,
    /// A label for tables: the outcome, or the key outcome's label.
    pub label: String,
    /// Under the `from` edition (`None`: the card cannot produce it).
    pub from: Option<Figure>,
    /// Under the `to` edition.
    pub to: Option<Figure>,
}

impl DiffRow {
    fn sides(&self) -> (Figure, Figure) {
        let missing = match self.kind {
            RowKind::Outcome => Figure::IMPOSSIBLE,
            RowKind::Key(_) => Figure {
                value: f64::NAN,
                ci: (f64::NAN, f64::NAN),
                exact: None,
            },
        };
        (self.from.unwrap_or(missing), self.to.unwrap_or(missing))
    }
    /// `to − from`.
    pub fn change(&self) -> f64 {
        let (a, b) = self.sides();
        b.value - a.value
    }
    /// The 95% interval of the change (Newcombe).
    pub fn change_ci(&self) -> (f64, f64) {
        let (a, b) = self.sides();
        let d = b.value - a.value;
        let lo = d - ((b.value - b.ci.0).powi(2) + (a.ci.1 - a.value).powi(2)).sqrt();
        let hi = d + ((b.ci.1 - b.value).powi(2) + (a.value - a.ci.0).powi(2)).sqrt();
        (lo, hi)
    }
    /// The exact change, when both sides are exact.
    pub fn exact_change(&self) -> Option<f64> {
        let (a, b) = self.sides();
        Some(b.exact? - a.exact?)
    }
}

/// Both runs compared.
pub struct Diff {
    /// Scenario name.
    pub scenario: String,
    /// Rule system.
    pub system: String,
    /// Edition compared from.
    pub from: String,
    /// Edition compared to.
    pub to: String,
    /// Seed of both runs.
    pub seed: u64,
    /// Trials per course, from and to.
    pub trials: (u64, u64),
    /// Every row: per variant, per course, its outcomes then key outcomes.
    pub rows: Vec<DiffRow>,
    /// The folder written.
    pub dir: PathBuf,
    /// The files written.
    pub written: Vec<PathBuf>,
}

impl Diff {
    /// The variants, in order.
    pub fn variants(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for r in &self.rows {
            if !out.contains(&r.variant.as_str()) {
                out.push(&r.variant);
            }
        }
        out
    }
}

fn check_edition(system: &str, editions: &[&str], e: &str, flag: &str) -> Result<(), Error> {
    if editions.contains(&e) {
        Ok(())
    } else {
        Err(InputError::new(format!("{system} has no edition \"{e}\""))
            .key(flag)
            .one_of(e, editions)
            .into())
    }
}

/// Runs `pikeshot diff`.
pub fn diff(req: &DiffRequest) -> Result<Diff, Error> {
    let file = ScenarioFile::load(&req.scenario)?;
    let systems = edition_systems();
    let system = file.table.get("system").and_then(|v| v.as_str());
    if let Some(s) = system
        && !systems.iter().any(|(x, _)| *x == s)
    {
        let names: Vec<&str> = systems.iter().map(|(x, _)| *x).collect();
        return Err(file
            .source
            .locate(
                InputError::new(format!(
                    "`pikeshot diff` compares the editions of a card; system \"{s}\" has none"
                ))
                .key("system")
                .accepted(format!("a scenario of {}", names.join(", "))),
                "system",
            )
            .into());
    }
    // Without `system`, preparing the file below names what is missing.
    let system = system.or(systems.first().map(|(x, _)| *x)).unwrap_or("");
    let editions = systems
        .iter()
        .find(|(x, _)| *x == system)
        .map(|(_, e)| e.clone())
        .unwrap_or_default();
    let from = req
        .from
        .clone()
        .or_else(|| editions.first().map(|e| e.to_string()))
        .unwrap_or_default();
    let to = req
        .to
        .clone()
        .or_else(|| editions.last().map(|e| e.to_string()))
        .unwrap_or_default();
    check_edition(system, &editions, &from, "--from")?;
    check_edition(system, &editions, &to, "--to")?;
    if from == to {
        return Err(InputError::new(format!(
            "--from and --to are both \"{}\"; compare two different editions",
            from
        ))
        .key("--to")
        .accepted(editions.join(", "))
        .into());
    }
    let side = |edition: &str| -> Result<run::Prepared, Error> {
        let mut r = req.run.clone();
        r.sets.push(format!("edition={edition}"));
        run::prepare_file(file.clone(), &r)
    };
    let (pa, pb) = (side(&from)?, side(&to)?);
    let stem = file.stem();
    let dir = req
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("reports").join(format!("{stem}-diff")));
    check_writable(&dir)?;
    let ra = run::execute(&pa, &req.run)?;
    let rb = run::execute(&pb, &req.run)?;
    let rows = compare(&ra, &rb);
    let mut d = Diff {
        scenario: ra.scenario.clone(),
        system: ra.system.clone(),
        from,
        to,
        seed: ra.seed,
        trials: (pa.trials, pb.trials),
        rows,
        dir: dir.clone(),
        written: Vec::new(),
    };
    d.written = write(&d, &dir)?;
    Ok(d)
}

/// The rows comparing two runs of one scenario: for each course of `a` (in
/// run order) matched by variant and name in `b`, every outcome of either
/// (those of `a` first), then every key outcome of either.
pub fn compare(a: &ScenarioRun, b: &ScenarioRun) -> Vec<DiffRow> {
    let mut rows = Vec::new();
    let mut pairs: Vec<(Option<usize>, Option<usize>)> = Vec::new();
    for (i, c) in a.courses.iter().enumerate() {
        let j = b
            .courses
            .iter()
            .position(|d| d.variant == c.variant && d.course == c.course);
        pairs.push((Some(i), j));
    }
    for j in 0..b.courses.len() {
        if !pairs.iter().any(|(_, x)| *x == Some(j)) {
            pairs.push((None, Some(j)));
        }
    }
    for (i, j) in pairs {
        let ca = i.map(|i| &a.courses[i]);
        let cb = j.map(|j| &b.courses[j]);
        let any = ca.or(cb).expect("one side");
        let sa = ca.map(|c| c.stats());
        let sb = cb.map(|c| c.stats());
        let mut labels: Vec<String> = Vec::new();
        for s in [&sa, &sb].into_iter().flatten() {
            for o in &s.outcomes {
                if !labels.contains(&o.label) {
                    labels.push(o.label.clone());
                }
            }
        }
        let outcome = |s: &Option<crate::report::CourseStats>, label: &str| {
            s.as_ref()?
                .outcomes
                .iter()
                .find(|o| o.label == label)
                .map(|o| Figure {
                    value: o.probability,
                    ci: o.ci,
                    exact: o.exact,
                })
        };
        for l in &labels {
            rows.push(DiffRow {
                variant: any.variant.clone(),
                course: any.course.clone(),
                kind: RowKind::Outcome,
                name: l.clone(),
                label: l.clone(),
                from: outcome(&sa, l),
                to: outcome(&sb, l),
            });
        }
        for def in KEY_OUTCOMES {
            let key = |s: &Option<crate::report::CourseStats>| {
                key_outcome(def, s.as_ref()?).map(|k| Figure {
                    value: k.value,
                    ci: k.ci,
                    exact: k.exact,
                })
            };
            let (fa, fb) = (key(&sa), key(&sb));
            if fa.is_none() && fb.is_none() {
                continue;
            }
            rows.push(DiffRow {
                variant: any.variant.clone(),
                course: any.course.clone(),
                kind: RowKind::Key(def.kind),
                name: def.name.to_string(),
                label: def.label.to_string(),
                from: fa,
                to: fb,
            });
        }
    }
    rows
}

/// Header of `diff.csv`.
pub const DIFF_HEADER: [&str; 19] = [
    "scenario",
    "variant",
    "course",
    "kind",
    "name",
    "from_edition",
    "to_edition",
    "from",
    "from_ci_low",
    "from_ci_high",
    "to",
    "to_ci_low",
    "to_ci_high",
    "change",
    "change_ci_low",
    "change_ci_high",
    "from_exact",
    "to_exact",
    "exact_change",
];

/// The rows of `diff.csv`: `kind` is `outcome` or `key`; a side whose card
/// cannot produce an outcome has empty value columns (and 0 in the change).
pub fn diff_rows(d: &Diff) -> Vec<Vec<String>> {
    let mc = |x: f64| fixed(x, DECIMALS);
    let ex = |x: Option<f64>| x.map_or_else(String::new, |x| fixed(x, EXACT_DECIMALS));
    let side = |f: &Option<Figure>| match f {
        Some(f) => [mc(f.value), mc(f.ci.0), mc(f.ci.1)],
        None => Default::default(),
    };
    d.rows
        .iter()
        .map(|r| {
            let (lo, hi) = r.change_ci();
            let mut row = vec![
                d.scenario.clone(),
                r.variant.clone(),
                r.course.clone(),
                match r.kind {
                    RowKind::Outcome => "outcome".into(),
                    RowKind::Key(_) => "key".into(),
                },
                r.name.clone(),
                d.from.clone(),
                d.to.clone(),
            ];
            row.extend(side(&r.from));
            row.extend(side(&r.to));
            row.extend([mc(r.change()), mc(lo), mc(hi)]);
            row.extend([
                ex(r.from.and_then(|f| f.exact)),
                ex(r.to.and_then(|f| f.exact)),
                ex(r.exact_change()),
            ]);
            row
        })
        .collect()
}

/// The chart stem of a variant: `diff`, or `<variant>--diff`.
pub fn chart_stem(variant: &str) -> String {
    let v = variant_slug(variant);
    if v.is_empty() {
        "diff".into()
    } else {
        format!("{v}--diff")
    }
}

/// Writes `diff.csv` and the charts into `dir`.
fn write(d: &Diff, dir: &Path) -> Result<Vec<PathBuf>, Error> {
    plot::register_font();
    let mut staging = Staging::new(dir)?;
    stage_csv(
        &mut staging,
        "diff.csv",
        &DIFF_HEADER.map(String::from),
        &diff_rows(d),
    )?;
    let mut stems: Vec<String> = Vec::new();
    for variant in d.variants() {
        let rows: Vec<&DiffRow> = d
            .rows
            .iter()
            .filter(|r| r.variant == variant && r.kind == RowKind::Outcome)
            .collect();
        if rows.is_empty() {
            continue;
        }
        let mut stem = chart_stem(variant);
        let base = stem.clone();
        let mut k = 2;
        while stems.contains(&stem) {
            stem = format!("{base}-{k}");
            k += 1;
        }
        stems.push(stem.clone());
        let size = chart_size(&rows);
        staging.with_path(&format!("{stem}.png"), |tmp| {
            let root = BitMapBackend::new(tmp, size).into_drawing_area();
            draw(&root, d, variant, &rows).map_err(other)?;
            root.present().map_err(other)
        })?;
        let svg = render_svg(d, variant, &rows)
            .map_err(|e| Error::io(dir.join(format!("{stem}.svg")), e))?;
        staging.bytes(&format!("{stem}.svg"), svg.as_bytes())?;
    }
    staging.commit()
}

/// Height of one bar's row, in pixels.
const ROW: u32 = 24;

/// The courses of `rows`, in order.
fn courses<'a>(rows: &[&'a DiffRow]) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for r in rows {
        if !out.contains(&r.course.as_str()) {
            out.push(&r.course);
        }
    }
    out
}

/// Chart size: 1000 wide, tall enough for a row per outcome and a header
/// row per course.
fn chart_size(rows: &[&DiffRow]) -> (u32, u32) {
    let slots = rows.len() + courses(rows).len();
    (1000, (230 + slots as u32 * ROW).max(420))
}

/// Renders the chart of one variant as an SVG document.
pub fn render_svg(d: &Diff, variant: &str, rows: &[&DiffRow]) -> io::Result<String> {
    plot::register_font();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, chart_size(rows)).into_drawing_area();
        draw(&root, d, variant, rows)
            .and_then(|()| root.present())
            .map_err(other)?;
    }
    Ok(with_svg_title(&svg, &title(d)))
}

fn title(d: &Diff) -> String {
    format!("{} → {}: {}", d.from, d.to, d.scenario)
}

/// `x` with a sign and `d` decimals, never `-0.00`.
fn signed(x: f64, d: usize) -> String {
    let s = format!("{x:+.d$}");
    match s.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => format!("+{rest}"),
        _ => s,
    }
}

/// `+1.23 pp`.
fn pp(x: f64) -> String {
    format!("{} pp", signed(x, 2))
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    d: &Diff,
    variant: &str,
    rows: &[&DiffRow],
) -> DrawResult<DB::ErrorType> {
    let (w, h) = root.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    root.fill(&WHITE)?;
    let title_style = font(24.0);
    let sub_style = font(16.0).color(&MUTED);
    let max_text = (w - 40) as u32;
    root.draw(&Text::new(
        fit(root, &title(d), &title_style, max_text),
        (20, 12),
        title_style.clone(),
    ))?;
    let mut sub = Vec::new();
    if !variant.is_empty() {
        sub.push(variant.to_string());
    }
    sub.push(d.system.clone());
    sub.push(format!("seed {}", d.seed));
    sub.push(if d.trials.0 == d.trials.1 {
        format!("{} trials per course and card", thousands(d.trials.0))
    } else {
        format!(
            "{} / {} trials per course",
            thousands(d.trials.0),
            thousands(d.trials.1)
        )
    });
    root.draw(&Text::new(
        fit(root, &sub.join("  ·  "), &sub_style, max_text),
        (20, 44),
        sub_style.clone(),
    ))?;

    let names = courses(rows);
    let colour = |c: &str| PALETTE[names.iter().position(|n| *n == c).unwrap_or(0) % PALETTE.len()];
    let has_exact = rows.iter().any(|r| r.exact_change().is_some());
    let legend: Vec<Swatch> = names
        .iter()
        .map(|n| Swatch::Bar(colour(n), (*n).to_string()))
        .collect();
    let mut notes = vec![Swatch::Whisker("95% interval of the change".into())];
    if has_exact {
        notes.push(Swatch::Diamond("exact change".into()));
    }
    let legend_h = draw_legend_rows(root, &[legend, notes], 20, w - 20, h - 12)?;

    // Scale: percentage points, symmetric about zero.
    let reach = rows
        .iter()
        .flat_map(|r| {
            let (lo, hi) = r.change_ci();
            [r.change(), lo, hi, r.exact_change().unwrap_or(0.0)]
        })
        .filter(|x| x.is_finite())
        .fold(0.0f64, |m, x| m.max(x.abs()))
        * 100.0;
    let m = plot::nice_top(reach * 1.3);

    // Slots, top to bottom: a header per course, then its rows.
    let mut slots: Vec<Option<&DiffRow>> = Vec::new();
    let mut headers: Vec<(usize, &str)> = Vec::new();
    for c in &names {
        headers.push((slots.len(), c));
        slots.push(None);
        slots.extend(rows.iter().filter(|r| r.course == *c).map(|r| Some(*r)));
    }
    let n = slots.len() as f64;
    let y_of = |slot: usize| n - slot as f64 - 0.5;

    let label_style = font(14.0);
    let label_w = rows
        .iter()
        .map(|r| width(root, &r.label, &label_style))
        .chain(names.iter().map(|c| width(root, c, &font(15.0))))
        .max()
        .unwrap_or(100)
        .clamp(100, 300) as i32
        + 16;
    let body = root.margin(76, legend_h + 14, 14, 24);
    let mut chart = ChartBuilder::on(&body)
        .x_label_area_size(52)
        .y_label_area_size(label_w)
        .build_cartesian_2d(-m..m, 0f64..n)?;
    let fmt = |x: &f64| {
        if m < 1.0 {
            signed(*x, 2)
        } else if m < 10.0 {
            signed(*x, 1)
        } else {
            signed(*x, 0)
        }
    };
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(0)
        .x_labels(9)
        .x_label_formatter(&fmt)
        .x_desc(format!(
            "change in probability, percentage points ({} − {})",
            d.to, d.from
        ))
        .axis_desc_style(font(16.0))
        .label_style(font(14.0).color(&MUTED))
        .bold_line_style(plot::GRID)
        .light_line_style(WHITE)
        .axis_style(MUTED)
        .draw()?;
    let area = chart.plotting_area();
    let px = |x: f64, y: f64| area.map_coordinate(&(x, y));
    area.draw(&PathElement::new(
        vec![(0.0, 0.0), (0.0, n)],
        INK.stroke_width(1),
    ))?;

    // Course headers and outcome labels in the left column.
    let (left, _) = px(-m, 0.0);
    for (slot, c) in &headers {
        let (_, y) = px(-m, y_of(*slot));
        let c_colour = colour(c);
        let style = font(15.0)
            .color(&c_colour)
            .pos(Pos::new(HPos::Left, VPos::Center));
        root.draw(&Text::new(
            fit(root, c, &style, (w - 60) as u32),
            (left - label_w + 4, y),
            style,
        ))?;
    }
    let right_label = label_style.pos(Pos::new(HPos::Right, VPos::Center));
    let value_style = font(13.0).color(&MUTED);
    for (slot, r) in slots.iter().enumerate() {
        let Some(r) = r else { continue };
        let y = y_of(slot);
        let (_, ypx) = px(-m, y);
        root.draw(&Text::new(
            fit(root, &r.label, &right_label, (label_w - 12) as u32),
            (left - 8, ypx),
            right_label.clone(),
        ))?;
        let c = r.change() * 100.0;
        let (lo, hi) = r.change_ci();
        let (lo, hi) = (lo * 100.0, hi * 100.0);
        let clamp = |x: f64| x.clamp(-m, m);
        if c.is_finite() {
            area.draw(&Rectangle::new(
                [(0.0, y - 0.32), (clamp(c), y + 0.32)],
                colour(&r.course).filled(),
            ))?;
        }
        if lo.is_finite() && hi.is_finite() {
            let s = INK.stroke_width(2);
            let (lo, hi) = (clamp(lo), clamp(hi));
            area.draw(&PathElement::new(vec![(lo, y), (hi, y)], s))?;
            area.draw(&PathElement::new(vec![(lo, y - 0.2), (lo, y + 0.2)], s))?;
            area.draw(&PathElement::new(vec![(hi, y - 0.2), (hi, y + 0.2)], s))?;
        }
        let e = r.exact_change().map(|e| e * 100.0);
        if let Some(e) = e {
            draw_diamond_coloured(root, px(clamp(e), y), 6, INK, WHITE)?;
        }
        if c.is_finite() {
            let ends = [c, lo, hi, e.unwrap_or(c)];
            let text = pp(c);
            if c >= 0.0 {
                let x = ends
                    .iter()
                    .copied()
                    .filter(|x| x.is_finite())
                    .fold(c, f64::max);
                let (xp, _) = px(clamp(x), y);
                root.draw(&Text::new(
                    text,
                    (xp + 8, ypx),
                    value_style.pos(Pos::new(HPos::Left, VPos::Center)),
                ))?;
            } else {
                let x = ends
                    .iter()
                    .copied()
                    .filter(|x| x.is_finite())
                    .fold(c, f64::min);
                let (xp, _) = px(clamp(x), y);
                root.draw(&Text::new(
                    text,
                    (xp - 8, ypx),
                    value_style.pos(Pos::new(HPos::Right, VPos::Center)),
                ))?;
            }
        }
    }
    Ok(())
}

/// A probability as a percentage, or `-`.
fn pct(x: f64, d: usize) -> String {
    if x.is_finite() {
        format!("{:.d$}%", x * 100.0)
    } else {
        "-".into()
    }
}

/// The terminal table of a diff: per variant and course, each outcome's
/// probability under both cards, the change in percentage points with its
/// 95% interval and the exact change; then the key outcomes likewise.
pub fn terminal(d: &Diff) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}  ({}, {} → {}, seed {})",
        d.scenario, d.system, d.from, d.to, d.seed
    );
    let exact = d.rows.iter().any(|r| r.exact_change().is_some());
    let label_w = d
        .rows
        .iter()
        .map(|r| r.label.chars().count())
        .max()
        .unwrap_or(7)
        .clamp(7, 36);
    let mut i = 0;
    while i < d.rows.len() {
        let (variant, course) = (&d.rows[i].variant, &d.rows[i].course);
        let group: Vec<&DiffRow> = d.rows[i..]
            .iter()
            .take_while(|r| r.variant == *variant && r.course == *course)
            .collect();
        i += group.len();
        out.push('\n');
        let mut head = format!("== {course}");
        if !variant.is_empty() {
            let _ = write!(head, "  [{variant}]");
        }
        let _ = writeln!(out, "{head}");
        let mut line = format!(
            "  {:<label_w$}  {:>9}  {:>9}  {:>10}  {:^21}",
            "", d.from, d.to, "change", "95% interval"
        );
        if exact {
            let _ = write!(line, "  {:>12}", "exact change");
        }
        let _ = writeln!(out, "{}", line.trim_end());
        for r in group {
            let (lo, hi) = r.change_ci();
            let cut: String = if r.label.chars().count() > label_w {
                r.label.chars().take(label_w - 1).collect::<String>() + "…"
            } else {
                r.label.clone()
            };
            let (fv, tv, ch, lo_s, hi_s, ex) = match r.kind {
                RowKind::Outcome | RowKind::Key(KeyKind::Probability) => (
                    r.from.map_or("-".into(), |f| pct(f.value, 2)),
                    r.to.map_or("-".into(), |f| pct(f.value, 2)),
                    pp(r.change() * 100.0),
                    signed(lo * 100.0, 2),
                    signed(hi * 100.0, 2),
                    r.exact_change()
                        .map_or("-".into(), |e| format!("{} pp", signed(e * 100.0, 3))),
                ),
                RowKind::Key(KeyKind::Expectation) => (
                    r.from.map_or("-".into(), |f| format!("{:.3}", f.value)),
                    r.to.map_or("-".into(), |f| format!("{:.3}", f.value)),
                    signed(r.change(), 3),
                    signed(lo, 3),
                    signed(hi, 3),
                    r.exact_change().map_or("-".into(), |e| signed(e, 4)),
                ),
            };
            let mut line = format!(
                "  {:<label_w$}  {fv:>9}  {tv:>9}  {ch:>10}  {:^21}",
                cut,
                format!("[{lo_s}, {hi_s}]")
            );
            if exact {
                let _ = write!(line, "  {ex:>12}");
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn change_interval_is_newcombe_from_the_two_intervals() {
        // from 0.40 [0.38, 0.43], to 0.50 [0.47, 0.52]:
        // change 0.10; low 0.10 - sqrt(0.03² + 0.03²), high 0.10 + sqrt(0.02² + 0.02²).
        let r = DiffRow {
            variant: String::new(),
            course: "c".into(),
            kind: RowKind::Outcome,
            name: "x".into(),
            label: "x".into(),
            from: Some(Figure {
                value: 0.40,
                ci: (0.38, 0.43),
                exact: Some(0.4),
            }),
            to: Some(Figure {
                value: 0.50,
                ci: (0.47, 0.52),
                exact: Some(0.5),
            }),
        };
        assert!((r.change() - 0.10).abs() < 1e-12);
        let (lo, hi) = r.change_ci();
        assert!((lo - (0.10 - (0.0018f64).sqrt())).abs() < 1e-12);
        assert!((hi - (0.10 + (0.0008f64).sqrt())).abs() < 1e-12);
        assert!((r.exact_change().unwrap() - 0.1).abs() < 1e-12);
        assert_eq!(signed(-1e-9, 2), "+0.00");
        assert_eq!(signed(-0.5, 1), "-0.5");
        // An outcome the `to` card cannot produce falls to 0, exactly.
        let gone = DiffRow { to: None, ..r };
        assert!((gone.change() + 0.40).abs() < 1e-12);
        assert!((gone.exact_change().unwrap() + 0.4).abs() < 1e-12);
    }
}
