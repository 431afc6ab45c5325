//! The two plots of an engagement: `<stem>-turns`, the probability of
//! stopping on each turn stacked by stop reason, and `<stem>-cumulative`,
//! the cumulative P(stopped by turn t) overall and per stop reason, with the
//! exact curves dashed when known.

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::Engagement;
use crate::error::Error;
use crate::report::chart::{Area, Chart as ReportChart};
use crate::report::draw::{
    self, DrawResult, INK, MUTED, PALETTE, Swatch, draw_legend_rows, font, percent, percent_axis,
    subtitle,
};
use crate::report::model::{CourseRun, ScenarioRun};
use crate::report::naming::plan;
use crate::report::{Output, Staging};

type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// One curve: colour, line width, Monte Carlo values, exact values.
type Series<'a> = (RGBColor, u32, &'a [f64], Option<&'a [f64]>);

/// The two plots of every engagement: `<stem>-turns` and
/// `<stem>-cumulative`, PNG and SVG.
pub struct EngagementPlots;

impl Output for EngagementPlots {
    fn render(&self, run: &ScenarioRun, out: &mut Staging) -> Result<(), Error> {
        draw::register_font();
        let stems = plan(run).courses;
        for (course, stem) in run.courses.iter().zip(stems) {
            let Some(e) = Engagement::of(course) else {
                continue;
            };
            for which in [Which::Turns, Which::Cumulative] {
                let name = format!("{stem}-{}", which.suffix());
                let plot = EngagementPlot {
                    run,
                    course,
                    e: &e,
                    which,
                };
                plot.stage(out, &name)?;
            }
        }
        Ok(())
    }
}

/// Which engagement plot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// The probability of stopping on each turn, stacked by stop reason.
    Turns,
    /// The cumulative P(stopped by turn t).
    Cumulative,
}

impl Which {
    /// The file-name suffix after the course stem.
    pub fn suffix(self) -> &'static str {
        match self {
            Which::Turns => "turns",
            Which::Cumulative => "cumulative",
        }
    }
}

/// One engagement plot of a course.
struct EngagementPlot<'a> {
    run: &'a ScenarioRun,
    course: &'a CourseRun,
    e: &'a Engagement,
    which: Which,
}

impl ReportChart for EngagementPlot<'_> {
    fn title(&self) -> String {
        let what = match self.which {
            Which::Turns => "turns to each stop reason",
            Which::Cumulative => "P(stopped by turn t)",
        };
        format!("{} — {}: {what}", self.run.id.name, self.course.course)
    }
    fn subtitle(&self) -> String {
        subtitle(self.run, self.course)
    }
    fn body<DB: DrawingBackend>(&self, root: &Area<DB>, top: i32) -> DrawResult<DB::ErrorType> {
        let (e, which) = (self.e, self.which);
        let (w, h) = draw::pixel_size(root);

        // Legend: one swatch per stop reason, then the notation.
        let has_exact = e.exact.is_some();
        let mut items: Vec<Swatch> = Vec::new();
        if which == Which::Cumulative {
            items.push(Swatch::Line(INK, 3, "every stop reason".into()));
        }
        for (r, reason) in e.reasons.iter().enumerate() {
            if !e.possible(r) {
                continue;
            }
            items.push(match which {
                Which::Turns => Swatch::Bar(reason_colour(r), reason.clone()),
                Which::Cumulative => Swatch::Line(reason_colour(r), 2, reason.clone()),
            });
        }
        let mut notes = vec![Swatch::Text(format!(
            "Monte Carlo, {} trials",
            draw::thousands(e.trials)
        ))];
        if has_exact {
            notes.push(match which {
                Which::Turns => Swatch::Tick("exact (ticks at each stack boundary)".into()),
                Which::Cumulative => Swatch::Dashed("exact (dashed); Monte Carlo as dots".into()),
            });
        }
        let legend_h = draw_legend_rows(root, &[items, notes], 20, w - 20, h - 12)?;

        let turns = e.turn_count().max(1);
        let first = e.first_turn as f64;
        let last = first + turns as f64 - 1.0;
        let body = root.margin(top, legend_h + 14, 14, 24);
        let (y_max, y_desc) = match which {
            Which::Turns => {
                let mut top = e.per_turn().into_iter().fold(0.0f64, f64::max);
                if let Some(x) = e.exact_per_turn() {
                    top = x.into_iter().fold(top, f64::max);
                }
                (draw::nice_probability_top(top), "P(stops on turn t)")
            }
            Which::Cumulative => (1.0, "P(stopped by turn t)"),
        };
        let pad = match which {
            Which::Turns => 0.5,
            Which::Cumulative => 0.3,
        };
        let mut chart = ChartBuilder::on(&body)
            .x_label_area_size(56)
            .y_label_area_size(80)
            .build_cartesian_2d((first - pad)..(last + pad), 0f64..y_max)?;
        draw::columns_mesh(&mut chart, &|y: &f64| percent_axis(*y, y_max), y_desc)?;
        let plot_area = chart.plotting_area();
        let px = |x: f64, y: f64| plot_area.map_coordinate(&(x, y));
        let unit_px = (px(1.0, 0.0).0 - px(0.0, 0.0).0).max(1);

        // Turn labels under the axis, thinned when turns are dense.
        let axis_y = px(first, 0.0).1;
        let label_style = font(14.0)
            .color(&MUTED)
            .pos(Pos::new(HPos::Center, VPos::Top));
        let widest = draw::width(root, &format!("{}", last as i64), &label_style) as i32 + 8;
        let every = ((widest + unit_px - 1) / unit_px).max(1) as usize;
        for (i, t) in e.turns().enumerate() {
            if i % every != 0 && i + 1 != turns {
                continue;
            }
            let (x, _) = px(t as f64, 0.0);
            root.draw(&Text::new(
                t.to_string(),
                (x, axis_y + 8),
                label_style.clone(),
            ))?;
        }
        let (x0, _) = px(first - pad, 0.0);
        let (x1, _) = px(last + pad, 0.0);
        root.draw(&Text::new(
            "turn",
            ((x0 + x1) / 2, axis_y + 32),
            font(16.0).pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;

        match which {
            Which::Turns => draw_turns(root, &chart, e, y_max, unit_px),
            Which::Cumulative => draw_cumulative(root, &chart, e, turns),
        }
    }
}

/// The colour of stop reason `r`.
fn reason_colour(r: usize) -> RGBColor {
    PALETTE[r % PALETTE.len()]
}

fn draw_turns<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &Chart<DB>,
    e: &Engagement,
    y_max: f64,
    unit_px: i32,
) -> DrawResult<DB::ErrorType> {
    let plot_area = chart.plotting_area();
    let px = |x: f64, y: f64| plot_area.map_coordinate(&(x, y));
    let half = 0.38f64.min(50.0 / unit_px as f64);
    for (i, t) in e.turns().enumerate() {
        let x = t as f64;
        let mut base = 0.0;
        for (r, row) in e.probs.iter().enumerate() {
            let p = row[i];
            if p.is_finite() && p > 0.0 {
                plot_area.draw(&Rectangle::new(
                    [(x - half, base), (x + half, base + p)],
                    reason_colour(r).filled(),
                ))?;
                base += p;
            }
        }
    }
    // Exact: a tick at each stack boundary, where the bars' edges should be.
    if let Some(exact) = &e.exact {
        let tick = INK.stroke_width(2);
        for (i, t) in e.turns().enumerate() {
            let x = t as f64;
            let mut base = 0.0;
            for row in exact {
                if row[i] <= 0.0 {
                    continue;
                }
                base += row[i];
                plot_area.draw(&PathElement::new(
                    vec![(x - half * 1.25, base), (x + half * 1.25, base)],
                    tick,
                ))?;
            }
        }
    }
    // The probability of stopping on each turn above its bar, when the
    // labels fit side by side.
    let per_turn = e.per_turn();
    let exact_per_turn = e.exact_per_turn();
    let style = font(13.0).pos(Pos::new(HPos::Center, VPos::Bottom));
    let widest = per_turn
        .iter()
        .map(|&p| draw::width(root, &percent(p), &style) as i32)
        .max()
        .unwrap_or(0);
    if widest + 4 <= unit_px {
        let plot_top = px(0.0, y_max).1;
        for (i, t) in e.turns().enumerate() {
            let p = per_turn[i];
            if !p.is_finite() {
                continue;
            }
            let top = p.max(exact_per_turn.as_ref().map_or(0.0, |x| x[i]));
            let (x, y) = px(t as f64, top);
            let y = (y - 7).max(plot_top + 16);
            root.draw(&Text::new(percent(p), (x, y), style.clone()))?;
        }
    }
    Ok(())
}

fn draw_cumulative<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &Chart<DB>,
    e: &Engagement,
    turns: usize,
) -> DrawResult<DB::ErrorType> {
    let plot_area = chart.plotting_area();
    let points = |ys: &[f64]| -> Vec<(f64, f64)> {
        e.turns()
            .zip(ys.iter().copied())
            .filter(|(_, y)| y.is_finite())
            .map(|(t, y)| (t as f64, y))
            .collect()
    };
    let xs: Vec<f64> = e.turns().map(f64::from).collect();
    let steps = |ys: &[f64]| draw::cumulative_steps(&xs, ys);
    let cum = e.cumulative();
    let exact = e.exact_cumulative();
    let mut series: Vec<Series> = Vec::new();
    for (r, ys) in cum.by_reason.iter().enumerate() {
        if !e.possible(r) {
            continue;
        }
        series.push((
            reason_colour(r),
            2,
            ys,
            exact.as_ref().map(|x| x.by_reason[r].as_slice()),
        ));
    }
    series.push((
        INK,
        3,
        &cum.overall,
        exact.as_ref().map(|x| x.overall.as_slice()),
    ));
    // With exact values: the exact curve dashed, the Monte Carlo values as
    // dots on it. Without: the Monte Carlo curve solid, with its dots. A
    // curve holds its level from one turn to the next (steps, not slopes:
    // nothing stops between turns).
    for (colour, width, ys, exact_ys) in series {
        let pts = points(ys);
        match exact_ys {
            Some(x) => chart_dashed(plot_area, steps(x), colour.stroke_width(width))?,
            None => plot_area.draw(&PathElement::new(steps(ys), colour.stroke_width(width)))?,
        }
        for &p in &pts {
            plot_area.draw(&Circle::new(p, width + 2, colour.filled()))?;
        }
    }
    // The overall value at each turn, when turns are few enough to label:
    // above left of its dot (below left near the top), on a white box.
    if turns <= 15 {
        let px = |x: f64, y: f64| plot_area.map_coordinate(&(x, y));
        let top = px(0.0, 1.0).1;
        let size = 13.0;
        for (t, y) in points(&cum.overall) {
            let (x, py) = px(t, y);
            let text = percent(y);
            let near_top = py - 26 < top;
            let (ty, v) = if near_top {
                (py + 7, VPos::Top)
            } else {
                (py - 7, VPos::Bottom)
            };
            let style = font(size).pos(Pos::new(HPos::Right, v));
            let tw = draw::width(root, &text, &style) as i32;
            let (y0, y1) = if near_top {
                (ty - 1, ty + size as i32 + 1)
            } else {
                (ty - size as i32 - 1, ty + 1)
            };
            root.draw(&Rectangle::new(
                [(x - 6 - tw - 2, y0), (x - 6 + 2, y1)],
                WHITE.mix(0.85).filled(),
            ))?;
            root.draw(&Text::new(text, (x - 6, ty), style))?;
        }
    }
    Ok(())
}

/// A dashed polyline through `pts` on a plotting area.
fn chart_dashed<DB: DrawingBackend>(
    area: &DrawingArea<DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    pts: Vec<(f64, f64)>,
    style: ShapeStyle,
) -> DrawResult<DB::ErrorType> {
    area.draw(&DashedPathElement::new(pts, 9, 6, style))
}
