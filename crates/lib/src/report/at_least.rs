//! The "at least" chart of a course, `<stem>-at-least.png/svg`: for each
//! measure that takes more than one value, `P(X >= k)` as a step curve on
//! its own panel (hits and turns never share an axis), the way AnyDice's
//! "At Least" view reads. With exact values the exact curve is dashed and
//! the Monte Carlo values are dots on it; without, the Monte Carlo curve is
//! solid.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::chart::{Area, Chart};
use super::draw::{
    self, DrawResult, INK, MUTED, PALETTE, Swatch, draw_legend_rows, font, subtitle,
};
use super::model::{CourseRun, CourseStats, MeasureStat, ScenarioRun};
use super::naming::{AT_LEAST_SUFFIX as SUFFIX, plan};
use super::{Output, Staging};
use crate::error::Error;

/// Width of the chart in pixels.
const WIDTH: u32 = 1000;

/// The measures of a course its chart shows: those that take more than
/// one value.
pub fn charted(stats: &CourseStats) -> Vec<&MeasureStat> {
    stats
        .measures
        .iter()
        .filter(|m| !m.at_least_indices().is_empty())
        .collect()
}

/// Panels per row and rows for `n` panels.
fn grid(n: usize) -> (usize, usize) {
    let cols = match n {
        0..=3 => n.max(1),
        4 => 2,
        5 | 6 => 3,
        _ => 4,
    };
    (cols, n.div_ceil(cols))
}

/// The size of the chart of `n` panels.
fn size(n: usize) -> (u32, u32) {
    let (_, rows) = grid(n);
    let panel = if rows == 1 { 420 } else { 270 };
    (WIDTH, 84 + rows as u32 * panel + 48)
}

/// The "at least" chart of every course with a measure that varies.
pub struct AtLeastCharts;

impl Output for AtLeastCharts {
    fn render(&self, run: &ScenarioRun, out: &mut Staging) -> Result<(), Error> {
        draw::register_font();
        for (course, stem) in run.courses.iter().zip(plan(run).courses) {
            let stats = course.stats();
            let shown = charted(stats);
            if shown.is_empty() {
                continue;
            }
            AtLeast { run, course, shown }.stage(out, &format!("{stem}-{SUFFIX}"))?;
        }
        Ok(())
    }
}

/// The "at least" chart of one course: a panel per measure `shown`.
struct AtLeast<'a> {
    run: &'a ScenarioRun,
    course: &'a CourseRun,
    shown: Vec<&'a MeasureStat>,
}

impl Chart for AtLeast<'_> {
    fn size(&self) -> (u32, u32) {
        size(self.shown.len())
    }
    fn title(&self) -> String {
        format!(
            "{} — {}: at least k, P(X ≥ k)",
            self.run.id.name, self.course.course
        )
    }
    fn subtitle(&self) -> String {
        subtitle(self.run, self.course)
    }
    fn body<DB: DrawingBackend>(&self, root: &Area<DB>, top: i32) -> DrawResult<DB::ErrorType> {
        let shown = &self.shown;
        let (w, h) = draw::pixel_size(root);
        let exact = shown.iter().any(|m| m.exact_at_least.is_some());
        let colour = PALETTE[0];
        let legend = if exact {
            vec![
                Swatch::Dashed("exact P(X ≥ k), steps".into()),
                Swatch::Line(colour, 2, "Monte Carlo (dots)".into()),
            ]
        } else {
            vec![Swatch::Line(
                colour,
                2,
                "Monte Carlo P(X ≥ k), steps".into(),
            )]
        };
        let legend_h = draw_legend_rows(root, &[legend], 20, w - 20, h - 10)?;
        let body = root.margin(top + 8, legend_h + 16, 10, 16);
        let (cols, rows) = grid(shown.len());
        let panels = body.split_evenly((rows, cols));
        for (m, panel) in shown.iter().zip(panels.iter()) {
            panel_chart(panel, m, colour)?;
        }
        Ok(())
    }
}

/// One measure's panel: its label, `P(X >= k)` for every value from the
/// smallest that can happen to the largest, as steps.
fn panel_chart<DB: DrawingBackend>(
    panel: &DrawingArea<DB, Shift>,
    m: &MeasureStat,
    colour: RGBColor,
) -> DrawResult<DB::ErrorType> {
    let ks = m.at_least_indices();
    // From the smallest possible value (P = 100%) to the largest.
    let first = ks[0] - 1;
    let last = ks[ks.len() - 1];
    let x0 = m.min as f64 + first as f64;
    let x1 = m.min as f64 + last as f64;
    let (pw, _) = panel.dim_in_pixel();
    let label = draw::fit(panel, &m.label, &font(16.0), pw.saturating_sub(20));
    let mut chart = ChartBuilder::on(panel)
        .caption(label, font(16.0))
        .margin(6)
        .x_label_area_size(28)
        .y_label_area_size(48)
        .build_cartesian_2d((x0 - 0.5)..(x1 + 0.5), 0f64..1.05)?;
    let span = (last - first) as f64;
    let every = (span / 10.0).ceil().max(1.0) as i64;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels((last - first + 2).min(24))
        .x_label_formatter(&|x: &f64| {
            let r = x.round();
            if (x - r).abs() < 1e-6 && (r as i64 - x0 as i64) % every == 0 {
                format!("{}", r as i64)
            } else {
                String::new()
            }
        })
        .y_labels(5)
        .y_label_formatter(&|y: &f64| {
            if *y <= 1.0 + 1e-9 {
                format!("{:.0}%", y * 100.0)
            } else {
                String::new()
            }
        })
        .label_style(font(14.0).color(&MUTED))
        .bold_line_style(draw::GRID)
        .light_line_style(WHITE)
        .axis_style(MUTED)
        .draw()?;
    let area = chart.plotting_area();
    let xs: Vec<f64> = (first..=last).map(|i| m.min as f64 + i as f64).collect();
    let mc: Vec<f64> = (first..=last).map(|i| m.at_least[i]).collect();
    match &m.exact_at_least {
        Some(e) => {
            let ex: Vec<f64> = (first..=last).map(|i| e[i]).collect();
            area.draw(&plotters::element::DashedPathElement::new(
                draw::at_least_steps(&xs, &ex),
                8,
                5,
                INK.stroke_width(2),
            ))?;
        }
        None => {
            area.draw(&PathElement::new(
                draw::at_least_steps(&xs, &mc),
                colour.stroke_width(2),
            ))?;
        }
    }
    for (&x, &y) in xs.iter().zip(&mc) {
        if y.is_finite() {
            area.draw(&Circle::new((x, y), 4, colour.filled()))?;
        }
    }
    // The value at each k when they fit: above its dot.
    let px = |x: f64, y: f64| area.map_coordinate(&(x, y));
    let unit = (px(1.0, 0.0).0 - px(0.0, 0.0).0).max(1);
    let style = font(12.0).pos(Pos::new(HPos::Center, VPos::Bottom));
    let widest = mc
        .iter()
        .map(|&p| draw::width(panel, &draw::percent(p), &style) as i32)
        .max()
        .unwrap_or(0);
    if widest + 6 <= unit {
        for (&x, &y) in xs.iter().zip(&mc).skip(1) {
            if y.is_finite() {
                area.draw(
                    &(EmptyElement::at((x, y))
                        + Text::new(draw::percent(y), (0, -7), style.clone())),
                )?;
            }
        }
    }
    Ok(())
}
