//! A PNG and an SVG histogram per course.
//!
//! Each plot shows the Monte Carlo probability of every outcome as a bar,
//! labelled with its percentage, the 95% Wilson interval as a whisker and
//! the exact probability, when known, as a diamond. An outcome the exact
//! enumeration finds impossible has no bar ([`OutcomeStat::possible`]).
//! The drawing helpers it
//! shares with the other charts are in [`super::draw`]; file names come from
//! [`super::naming`].

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::chart::{Area, Chart};
use super::draw::{
    DrawResult, INK, MUTED, draw_axis_labels, draw_diamond_coloured, font, nice_probability_top,
    percent, percent_axis, register_font, subtitle, thousands, width, wrap_labels,
};
use super::model::{CourseRun, CourseStats, OutcomeStat, ScenarioRun};
use super::naming::plan;
use super::{Output, Staging};
use crate::error::Error;

const BAR: RGBColor = RGBColor(76, 120, 168);

const EXACT: RGBColor = RGBColor(228, 87, 46);

/// A histogram PNG and SVG for every course.
pub struct Histograms;

impl Output for Histograms {
    fn render(&self, run: &ScenarioRun, out: &mut Staging) -> Result<(), Error> {
        register_font();
        for (course, stem) in run.courses.iter().zip(plan(run).courses) {
            Histogram::new(run, course).stage(out, &stem)?;
        }
        Ok(())
    }
}

/// A course's figures with only the outcomes that can happen (all of them,
/// should none).
fn drawn(course: &CourseRun) -> CourseStats {
    let mut stats = course.stats().clone();
    if stats.outcomes.iter().any(OutcomeStat::possible) {
        stats.outcomes.retain(OutcomeStat::possible);
    }
    stats
}

/// The histogram of one course.
struct Histogram<'a> {
    run: &'a ScenarioRun,
    course: &'a CourseRun,
    /// The course's figures, with only the outcomes that can happen.
    stats: CourseStats,
}

impl<'a> Histogram<'a> {
    fn new(run: &'a ScenarioRun, course: &'a CourseRun) -> Histogram<'a> {
        Histogram {
            run,
            course,
            stats: drawn(course),
        }
    }
}

/// The top of the probability axis: a round value above every bar, whisker
/// and marker, leaving room for the labels, at most 100%.
fn y_top(stats: &CourseStats) -> f64 {
    let top = stats
        .outcomes
        .iter()
        .map(|o| o.figure.top())
        .fold(0.0f64, f64::max);
    nice_probability_top(top)
}

impl Chart for Histogram<'_> {
    fn title(&self) -> String {
        format!("{} — {}", self.run.id.name, self.course.course)
    }
    fn subtitle(&self) -> String {
        subtitle(self.run, self.course)
    }
    fn body<DB: DrawingBackend>(&self, root: &Area<DB>, top: i32) -> DrawResult<DB::ErrorType> {
        let stats = &self.stats;
        let (w, h) = super::draw::pixel_size(root);

        // Footer: the legend.
        let legend_y = h - 22;
        draw_legend(root, stats, legend_y)?;

        // The plot itself, between header and footer.
        let n = stats.outcomes.len();
        let left_area = 80;
        let right_margin = 24;
        let slot = ((w - 14 - left_area - right_margin) / n as i32).max(8) as u32;
        let labels: Vec<&str> = stats.outcomes.iter().map(|o| o.label.as_str()).collect();
        let (label_size, wrapped) = wrap_labels(root, &labels, slot.saturating_sub(6));
        let line_h = (label_size * 1.2).round() as i32;
        let lines = wrapped.iter().map(Vec::len).max().unwrap_or(1) as i32;
        let x_desc_h = 26;
        let bottom_area = 10 + lines * line_h + x_desc_h;

        let body = root.margin(top, 34, 14, right_margin);
        let y_max = y_top(stats);
        let mut chart = ChartBuilder::on(&body)
            .x_label_area_size(bottom_area)
            .y_label_area_size(left_area)
            .margin_left(0)
            .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..y_max)?;
        let percent_axis = |y: &f64| percent_axis(*y, y_max);
        super::draw::columns_mesh(&mut chart, &percent_axis, "probability")?;

        let plot = chart.plotting_area();
        let px = |x: f64, y: f64| plot.map_coordinate(&(x, y));
        let unit_px = (px(1.0, 0.0).0 - px(0.0, 0.0).0).max(1) as f64;
        let half = (0.36f64).min(60.0 / unit_px);
        let cap = half * 0.35;

        // Bars.
        for (i, o) in stats.outcomes.iter().enumerate() {
            let x = i as f64;
            plot.draw(&Rectangle::new(
                [(x - half, 0.0), (x + half, o.figure.value)],
                BAR.filled(),
            ))?;
        }
        // Whiskers: the 95% Wilson interval.
        for (i, o) in stats.outcomes.iter().enumerate() {
            super::draw::draw_whisker(plot, i as f64, o.figure.ci, cap)?;
        }
        // Exact values.
        for (i, o) in stats.outcomes.iter().enumerate() {
            if let Some(e) = o.figure.exact {
                let at = px(i as f64, e);
                draw_diamond(root, at, 7)?;
            }
        }
        // Percentages above each bar (inside it when there is no room above).
        let pct_style = font(15.0);
        let plot_top = px(0.0, y_max).1;
        for (i, o) in stats.outcomes.iter().enumerate() {
            let top = o.figure.top();
            let (x, y) = px(i as f64, top);
            let text = percent(o.figure.value);
            if y - 22 >= plot_top {
                let style = pct_style.pos(Pos::new(HPos::Center, VPos::Bottom));
                root.draw(&Text::new(text, (x, y - 6), style))?;
            } else {
                // Below the bar top, the whisker's lower cap and the marker.
                let below = [
                    px(i as f64, o.figure.value).1,
                    px(i as f64, o.figure.ci.0).1,
                    o.figure.exact.map_or(0, |e| px(i as f64, e).1 + 7),
                ]
                .into_iter()
                .max()
                .unwrap_or(0);
                let style = pct_style
                    .color(&WHITE)
                    .pos(Pos::new(HPos::Center, VPos::Top));
                root.draw(&Text::new(text, (x, below + 6), style))?;
            }
        }

        // Outcome labels under the bars, and the axis name under them.
        let axis_y = px(0.0, 0.0).1;
        draw_axis_labels(root, &wrapped, label_size, line_h, axis_y, |i| {
            px(i as f64, 0.0).0
        })?;
        let (x0, _) = px(-0.5, 0.0);
        let (x1, _) = px(n as f64 - 0.5, 0.0);
        root.draw(&Text::new(
            "outcome",
            ((x0 + x1) / 2, axis_y + 10 + lines * line_h + 6),
            font(16.0).pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
        Ok(())
    }
}

/// Draws a filled diamond with a dark outline, centred on `at`.
fn draw_diamond<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    r: i32,
) -> DrawResult<DB::ErrorType> {
    draw_diamond_coloured(root, (x, y), r, EXACT, INK)
}

/// The legend along the bottom edge: bar, whisker, and diamond when exact
/// values are shown.
fn draw_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    stats: &CourseStats,
    y: i32,
) -> DrawResult<DB::ErrorType> {
    let style = font(14.0)
        .color(&MUTED)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let mut x = 20;
    let label = |x: &mut i32, text: &str| -> DrawResult<DB::ErrorType> {
        root.draw(&Text::new(text.to_string(), (*x, y), style.clone()))?;
        *x += width(root, text, &style) as i32 + 26;
        Ok(())
    };
    root.draw(&Rectangle::new([(x, y - 6), (x + 18, y + 6)], BAR.filled()))?;
    x += 26;
    label(
        &mut x,
        &if stats.trials == 0 {
            "exact probability".to_string()
        } else {
            format!(
                "Monte Carlo probability ({} trials)",
                thousands(stats.trials)
            )
        },
    )?;
    let whisker = INK.stroke_width(2);
    root.draw(&PathElement::new(
        vec![(x + 6, y - 8), (x + 6, y + 8)],
        whisker,
    ))?;
    root.draw(&PathElement::new(
        vec![(x + 1, y - 8), (x + 11, y - 8)],
        whisker,
    ))?;
    root.draw(&PathElement::new(
        vec![(x + 1, y + 8), (x + 11, y + 8)],
        whisker,
    ))?;
    x += 20;
    label(&mut x, "95% Wilson interval")?;
    if stats.has_exact() {
        draw_diamond(root, (x + 7, y), 7)?;
        x += 22;
        label(&mut x, "exact probability")?;
    }
    Ok(())
}
