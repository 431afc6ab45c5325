//! The charts across a sweep, PNG and SVG: for each swept key,
//! `sweep--<key>`, the key outcomes against the key's values (a numeric
//! axis when every value is a number, one slot per value otherwise), one
//! line per course, with 95% interval whiskers where there are trials; and
//! when two or more keys are swept, `sweep--heatmap--<course>` per course:
//! the first key outcome over the first two keys' values, printed in each
//! cell. The keys a chart does not show are held at their first value
//! (named in the subtitle).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::chart::{Area, Chart as ReportChart};
use super::draw::{self, DrawResult, INK, MUTED, PALETTE, Swatch, draw_legend_rows, font, percent};
use super::key::{KEY_OUTCOMES, KeyDef, KeyKind, KeyOutcome, key_outcome};
use super::model::{CourseRun, ScenarioRun};
use super::naming::{SLUG_BYTES, slug};
use super::sweep::{Sweep, SweepAxis};
use super::{Output, Staging};
use crate::error::Error;

/// The key outcomes of every variant × course of a swept run, gathered
/// course by course as the run's variants finish (a large sweep keeps
/// these and nothing else of its variants for the charts).
#[derive(Clone, Debug, Default)]
pub struct SweepValues {
    /// The courses, in order of the first variant.
    courses: Vec<String>,
    /// `values[point][course]`: the key outcomes of that variant's course.
    values: Vec<Vec<Vec<KeyOutcome>>>,
    /// The point the last course added belongs to.
    at: usize,
    /// The trials of the first course added.
    trials: Option<u64>,
    /// Whether a course's variant was not found among the sweep's points.
    lost: bool,
}

impl SweepValues {
    /// Adds `courses` (each variant's courses, variants in run order, after
    /// those added before) of a run over `sweep`.
    pub fn add(&mut self, sweep: &Sweep, courses: &[CourseRun]) {
        if self.values.len() != sweep.points.len() {
            self.values = vec![Vec::new(); sweep.points.len()];
        }
        for c in courses {
            while self.at < sweep.points.len() && sweep.points[self.at].label != c.variant {
                self.at += 1;
            }
            if self.at == sweep.points.len() {
                self.lost = true;
                return;
            }
            if self.at == 0 {
                self.courses.push(c.course.clone());
            }
            self.trials.get_or_insert(c.tally.trials);
            let s = c.stats();
            self.values[self.at].push(
                KEY_OUTCOMES
                    .iter()
                    .filter_map(|&d| key_outcome(d, s))
                    .collect(),
            );
        }
    }
}

/// The key outcomes of every variant × course of a swept run, and what the
/// charts draw of them.
pub struct SweepFigures<'a> {
    run: &'a ScenarioRun,
    sweep: &'a Sweep,
    /// The courses, in order of the first variant.
    pub courses: Vec<String>,
    /// The key outcomes the line charts draw (probabilities when any
    /// course has one, else the expectations).
    pub charted: Vec<KeyDef>,
    /// `values[point][course]`: the key outcomes of that variant's course.
    values: Vec<Vec<Vec<KeyOutcome>>>,
    /// Trials per course (0 under `--method exact`).
    trials: u64,
}

impl<'a> SweepFigures<'a> {
    /// The figures of `run`; `None` without a sweep or a key outcome.
    pub fn of(run: &'a ScenarioRun) -> Option<SweepFigures<'a>> {
        let mut values = SweepValues::default();
        values.add(run.sweep.as_ref()?, &run.courses);
        SweepFigures::with(run, values)
    }

    /// The figures of `run` (whose own courses are not read: a large
    /// sweep's are written as they finish) from `values` gathered over its
    /// sweep; `None` without a sweep or a key outcome.
    pub fn with(run: &'a ScenarioRun, values: SweepValues) -> Option<SweepFigures<'a>> {
        let sweep = run.sweep.as_ref()?;
        if values.lost {
            return None;
        }
        let SweepValues {
            courses,
            values,
            trials,
            ..
        } = values;
        if values.len() != sweep.points.len() {
            return None;
        }
        let present = |kind: KeyKind| -> Vec<KeyDef> {
            KEY_OUTCOMES
                .iter()
                .filter(|d| {
                    d.kind == kind
                        && values
                            .iter()
                            .flatten()
                            .any(|ks| ks.iter().any(|k| k.def.name == d.name))
                })
                .copied()
                .collect()
        };
        let mut charted = present(KeyKind::Probability);
        if charted.is_empty() {
            charted = present(KeyKind::Expectation);
        }
        charted.truncate(4);
        (!charted.is_empty()).then_some(SweepFigures {
            run,
            sweep,
            courses,
            charted,
            values,
            trials: trials.unwrap_or(0),
        })
    }

    /// The key outcome `def` of course `course` at point `point`.
    fn value(&self, point: usize, course: usize, def: &KeyDef) -> Option<&KeyOutcome> {
        self.values
            .get(point)?
            .get(course)?
            .iter()
            .find(|k| k.def.name == def.name)
    }

    /// The point whose picks are those given for `free` axes (each a pair
    /// of axis and value index) and the first value on every other axis.
    fn point_at(&self, free: &[(usize, usize)]) -> Option<usize> {
        let mut i = 0;
        for (a, axis) in self.sweep.axes.iter().enumerate() {
            let pick = free.iter().find(|(f, _)| *f == a).map_or(0, |(_, p)| *p);
            i = i * axis.values.len() + pick;
        }
        (i < self.sweep.points.len()).then_some(i)
    }

    /// The keys held at their first value when `free` axes are drawn.
    fn held(&self, free: &[usize]) -> Vec<String> {
        self.sweep
            .axes
            .iter()
            .enumerate()
            .filter(|(a, _)| !free.contains(a))
            .map(|(_, axis)| format!("{}={}", axis.key, axis.values[0].text()))
            .collect()
    }

    /// The subtitle: the keys held, system, seed, trials.
    fn subtitle(&self, free: &[usize]) -> String {
        let mut parts = Vec::new();
        let held = self.held(free);
        if !held.is_empty() {
            parts.push(format!("other keys at {}", held.join(", ")));
        }
        parts.push(draw::system_text(self.run));
        parts.push(format!("seed {}", self.run.id.seed));
        let trials = self.trials;
        parts.push(draw::trials_note(trials));
        parts.extend(draw::set_parts(self.run));
        parts.join("  ·  ")
    }
}

/// The file stem of the line chart of swept key `key`.
pub fn key_stem(key: &str) -> String {
    format!("sweep--{}", slug(key, SLUG_BYTES))
}

/// The file stem of the heatmap of course `course` (the `n`th, 1-based).
pub fn heatmap_stem(course: &str, n: usize) -> String {
    let mut s = slug(course, SLUG_BYTES);
    if s.is_empty() {
        s = format!("course-{n}");
    }
    format!("sweep--heatmap--{s}")
}

/// Charts by the index they draw (an axis or a course) and file stem.
pub type Stems = Vec<(usize, String)>;

/// The charts of a sweep, in the order they are written: each key's line
/// chart (axis index, stem), then each course's heatmap (course index,
/// stem) when two keys or more are swept. Stems are unique (`-2`, `-3`…).
pub fn chart_stems(fig: &SweepFigures) -> (Stems, Stems) {
    let mut taken: Vec<String> = Vec::new();
    let mut claim = |base: String| {
        let mut stem = base.clone();
        let mut k = 2;
        while taken.contains(&stem) {
            stem = format!("{base}-{k}");
            k += 1;
        }
        taken.push(stem.clone());
        stem
    };
    let keys = (0..fig.sweep.axes.len())
        .map(|a| (a, claim(key_stem(&fig.sweep.axes[a].key))))
        .collect();
    let maps = if fig.sweep.axes.len() >= 2 {
        (0..fig.courses.len())
            .map(|c| (c, claim(heatmap_stem(&fig.courses[c], c + 1))))
            .collect()
    } else {
        Vec::new()
    };
    (keys, maps)
}

/// One chart of a sweep.
#[derive(Clone, Copy)]
enum Chart {
    /// The line chart of the axis at this index.
    Line(usize),
    /// The heatmap of the course at this index.
    Heat(usize),
}

/// The sweep charts of a swept run.
pub struct SweepCharts;

/// The charts of a sweep in the order they are written: each key's line
/// chart, then each course's heatmap.
fn charts(fig: &SweepFigures) -> impl Iterator<Item = (Chart, String)> {
    let (keys, maps) = chart_stems(fig);
    keys.into_iter()
        .map(|(a, s)| (Chart::Line(a), s))
        .chain(maps.into_iter().map(|(c, s)| (Chart::Heat(c), s)))
}

/// One chart of a sweep with the figures it is drawn from.
struct SweepChart<'a, 'f> {
    fig: &'a SweepFigures<'f>,
    chart: Chart,
}

impl ReportChart for SweepChart<'_, '_> {
    fn title(&self) -> String {
        title(self.fig, self.chart)
    }
    /// Names the keys the chart does not show, held at their first value.
    fn subtitle(&self) -> String {
        let free: Vec<usize> = match self.chart {
            Chart::Line(a) => vec![a],
            Chart::Heat(_) => vec![0, 1],
        };
        self.fig.subtitle(&free)
    }
    fn body<DB: DrawingBackend>(&self, root: &Area<DB>, top: i32) -> DrawResult<DB::ErrorType> {
        match self.chart {
            Chart::Line(a) => line_chart(root, self.fig, a, top),
            Chart::Heat(c) => heatmap(root, self.fig, c, top),
        }
    }
}

/// One sweep chart as SVG: its file stem, title and text (also what
/// `pikeshot serve` sends the page).
#[derive(Clone, Debug, serde::Serialize)]
pub struct SweepSvg {
    /// The file stem `report` writes it under (`sweep--<key>`, ...).
    pub stem: String,
    /// Its title.
    pub title: String,
    /// The SVG text, as `<stem>.svg` holds it.
    pub svg: String,
}

/// Every sweep chart of `run` as SVG, in the order `report` writes them
/// (none without a sweep or a key outcome): `pikeshot serve` shows these
/// on its page.
pub fn svg_charts(run: &ScenarioRun) -> Result<Vec<SweepSvg>, Error> {
    let Some(fig) = SweepFigures::of(run) else {
        return Ok(Vec::new());
    };
    charts(&fig)
        .map(|(chart, stem)| {
            let svg = SweepChart { fig: &fig, chart }
                .svg()
                .map_err(|e| Error::internal(format!("the sweep chart {stem}"), e))?;
            Ok(SweepSvg {
                title: title(&fig, chart),
                stem,
                svg,
            })
        })
        .collect()
}

impl Output for SweepCharts {
    fn render(&self, run: &ScenarioRun, out: &mut Staging) -> Result<(), Error> {
        match SweepFigures::of(run) {
            Some(fig) => draw_figures(&fig, out),
            None => Ok(()),
        }
    }
}

/// Draws every chart of `fig` (see [`chart_stems`]) into `out`.
pub fn draw_figures(fig: &SweepFigures, out: &mut Staging) -> Result<(), Error> {
    draw::register_font();
    for (chart, stem) in charts(fig) {
        SweepChart { fig, chart }.stage(out, &stem)?;
    }
    Ok(())
}

fn title(fig: &SweepFigures, chart: Chart) -> String {
    match chart {
        Chart::Line(a) => format!(
            "{} — key outcomes against {}",
            fig.run.id.name, fig.sweep.axes[a].key
        ),
        Chart::Heat(c) => format!(
            "{} — {}: {}",
            fig.run.id.name, fig.courses[c], fig.charted[0].label
        ),
    }
}

/// A probability as a percentage, an expectation with two decimals.
fn shown(def: &KeyDef, x: f64) -> String {
    match def.kind {
        KeyKind::Probability => percent(x),
        KeyKind::Expectation => format!("{x:.2}"),
    }
}

/// The x position of value `i` of `axis`: the value itself on a numeric
/// axis, its slot otherwise.
fn x_of(axis: &SweepAxis, i: usize) -> f64 {
    if axis.numeric() {
        axis.values[i].number().unwrap_or(i as f64)
    } else {
        i as f64
    }
}

/// The tick label of slot `x` of a categorical axis: the value's text at
/// a whole slot, every slot up to 24 values (every second up to 48, …).
fn slot_label(axis: &SweepAxis, x: f64) -> String {
    let every = axis.values.len().div_ceil(24).max(1);
    let r = x.round();
    if (x - r).abs() < 1e-6 && r >= 0.0 && (r as usize).is_multiple_of(every) {
        axis.values
            .get(r as usize)
            .map_or_else(String::new, |v| v.text())
    } else {
        String::new()
    }
}

/// Key outcome panels side by side, each with one line per course over the
/// values of axis `a`.
fn line_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &SweepFigures,
    a: usize,
    top: i32,
) -> DrawResult<DB::ErrorType> {
    let (w, h) = draw::pixel_size(root);
    let axis = &fig.sweep.axes[a];
    let points: Vec<Option<usize>> = (0..axis.values.len())
        .map(|i| fig.point_at(&[(a, i)]))
        .collect();
    let trials = fig.trials > 0;
    let colour = |c: usize| PALETTE[c % PALETTE.len()];
    let mut legend: Vec<Vec<Swatch>> = vec![
        (0..fig.courses.len())
            .map(|c| Swatch::Line(colour(c), 2, fig.courses[c].clone()))
            .collect(),
    ];
    if trials {
        legend.push(vec![Swatch::Whisker("95% interval".into())]);
    }
    let legend_h = draw_legend_rows(root, &legend, 20, w - 20, h - 10)?;
    let body = root.margin(top + 8, legend_h + 16, 10, 16);
    let panels = body.split_evenly((1, fig.charted.len()));
    let xs: Vec<f64> = (0..axis.values.len()).map(|i| x_of(axis, i)).collect();
    let (lo, hi) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &x| {
            (l.min(x), h.max(x))
        });
    let pad = if hi > lo { (hi - lo) * 0.05 } else { 0.5 };
    let numeric = axis.numeric();
    for (def, panel) in fig.charted.iter().zip(panels.iter()) {
        let y_top = points
            .iter()
            .flatten()
            .flat_map(|&p| (0..fig.courses.len()).filter_map(move |c| fig.value(p, c, def)))
            .map(|k| {
                let hi = if k.figure.ci.1.is_finite() {
                    k.figure.ci.1
                } else {
                    0.0
                };
                k.figure.value.max(hi)
            })
            .fold(0.0f64, f64::max);
        let y_max = match def.kind {
            KeyKind::Probability => draw::nice_probability_top(y_top),
            KeyKind::Expectation => draw::nice_top(y_top),
        };
        let (pw, _) = panel.dim_in_pixel();
        let caption = draw::fit(panel, def.label, &font(16.0), pw.saturating_sub(20));
        let mut chart = ChartBuilder::on(panel)
            .caption(caption, font(16.0))
            .margin(6)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d((lo - pad)..(hi + pad), 0f64..y_max)?;
        let labels = if numeric {
            8
        } else {
            axis.values.len().min(24) + 2
        };
        let y_fmt = |y: &f64| match def.kind {
            KeyKind::Probability => draw::percent_axis(*y, y_max),
            KeyKind::Expectation => format!("{y:.1}"),
        };
        // A numeric axis prints its numbers ("." decimals); a categorical
        // one each value's text at its slot.
        let x_fmt = |x: &f64| {
            if numeric {
                let text = format!("{x:.3}");
                let text = text.trim_end_matches('0').trim_end_matches('.');
                return if text == "-0" {
                    "0".into()
                } else {
                    text.into()
                };
            }
            slot_label(axis, *x)
        };
        let mut mesh = chart.configure_mesh();
        draw::house_mesh(&mut mesh)
            .disable_x_mesh()
            .x_desc(axis.key.as_str())
            .x_labels(labels)
            .y_labels(6)
            .y_label_formatter(&y_fmt)
            .x_label_formatter(&x_fmt)
            .draw()?;
        let area = chart.plotting_area();
        for c in 0..fig.courses.len() {
            let line: Vec<(f64, f64)> = points
                .iter()
                .enumerate()
                .filter_map(|(i, p)| {
                    let k = fig.value((*p)?, c, def)?;
                    k.figure
                        .value
                        .is_finite()
                        .then_some((xs[i], k.figure.value))
                })
                .collect();
            area.draw(&PathElement::new(line.clone(), colour(c).stroke_width(2)))?;
            for &(x, y) in &line {
                area.draw(&Circle::new((x, y), 3, colour(c).filled()))?;
            }
            if trials {
                for (i, p) in points.iter().enumerate() {
                    let Some(k) = p.and_then(|p| fig.value(p, c, def)) else {
                        continue;
                    };
                    if k.figure.ci.0.is_finite() && k.figure.ci.1.is_finite() {
                        area.draw(&PathElement::new(
                            vec![(xs[i], k.figure.ci.0), (xs[i], k.figure.ci.1)],
                            colour(c).stroke_width(1),
                        ))?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// The first charted key outcome of course `c` over the first two axes:
/// a cell per pair of values, coloured from white (0) to the palette's
/// blue (the largest value), its value printed in it when it fits.
fn heatmap<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &SweepFigures,
    c: usize,
    top: i32,
) -> DrawResult<DB::ErrorType> {
    let (w, h) = draw::pixel_size(root);
    let (ax, ay) = (&fig.sweep.axes[0], &fig.sweep.axes[1]);
    let def = fig.charted[0];
    let (nx, ny) = (ax.values.len(), ay.values.len());
    let cell = |i: usize, j: usize| {
        fig.point_at(&[(0, i), (1, j)])
            .and_then(|p| fig.value(p, c, &def))
            .map(|k| k.figure.value)
            .filter(|v| v.is_finite())
    };
    let top_value = (0..nx)
        .flat_map(|i| (0..ny).map(move |j| (i, j)))
        .filter_map(|(i, j)| cell(i, j))
        .fold(0.0f64, f64::max);
    let scale = match def.kind {
        KeyKind::Probability => 1.0,
        KeyKind::Expectation => top_value.max(1e-12),
    };
    let legend = vec![vec![Swatch::Text(format!(
        "colour: {} from white (0) to blue ({}); a cell per pair of values",
        def.label,
        shown(&def, scale)
    ))]];
    let legend_h = draw_legend_rows(root, &legend, 20, w - 20, h - 10)?;
    let body = root.margin(top + 8, legend_h + 16, 10, 24);
    let mut chart = ChartBuilder::on(&body)
        .x_label_area_size(48)
        .y_label_area_size(96)
        .build_cartesian_2d(-0.5f64..(nx as f64 - 0.5), -0.5f64..(ny as f64 - 0.5))?;
    let mut mesh = chart.configure_mesh();
    draw::house_mesh(&mut mesh)
        .disable_mesh()
        .x_desc(ax.key.as_str())
        .y_desc(ay.key.as_str())
        .x_labels(nx.min(24) + 2)
        .y_labels(ny.min(24) + 2)
        .x_label_formatter(&|x: &f64| slot_label(ax, *x))
        .y_label_formatter(&|y: &f64| slot_label(ay, *y))
        .draw()?;
    let area = chart.plotting_area();
    let blue = PALETTE[0];
    let mix = |t: f64| {
        let t = t.clamp(0.0, 1.0);
        let m = |c: u8| (255.0 + (c as f64 - 255.0) * t).round() as u8;
        RGBColor(m(blue.0), m(blue.1), m(blue.2))
    };
    let px = |x: f64, y: f64| area.map_coordinate(&(x, y));
    let cell_w = (px(1.0, 0.0).0 - px(0.0, 0.0).0).abs();
    let cell_h = (px(0.0, 0.0).1 - px(0.0, 1.0).1).abs();
    let style =
        font(if cell_h >= 24 { 14.0 } else { 10.0 }).pos(Pos::new(HPos::Center, VPos::Center));
    for i in 0..nx {
        for j in 0..ny {
            let (x, y) = (i as f64, j as f64);
            let Some(v) = cell(i, j) else {
                area.draw(&Rectangle::new(
                    [(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)],
                    MUTED.mix(0.15).filled(),
                ))?;
                continue;
            };
            let t = v / scale;
            area.draw(&Rectangle::new(
                [(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)],
                mix(t).filled(),
            ))?;
            let text = shown(&def, v);
            let tw = draw::width(root, &text, &style) as i32;
            if tw + 4 <= cell_w && cell_h >= 12 {
                let ink = if t > 0.55 { WHITE } else { INK };
                area.draw(&Text::new(text, (x, y), style.clone().color(&ink)))?;
            }
        }
    }
    Ok(())
}
