//! The charts of `balance` (the figure against the key varied, with the
//! target) and `sensitivity` (a tornado per course), PNG and SVG.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::eval::value;
use super::sensitivity::Sensitivity;
use super::solve::Balance;
use crate::report::chart::{Area, Chart};
use crate::report::draw::{self, DrawResult, INK, MUTED, PALETTE, Swatch, draw_legend_rows, font};

/// Most lines a balance chart draws (one per combination of the keys after
/// the first; those holding the closest combinations first).
const MAX_LINES: usize = 12;

/// Most keys a tornado chart draws (the largest effects).
pub const MAX_BARS: usize = 24;

/// A figure as a chart prints it: a percentage, or two decimals.
fn shown(probability: bool, x: f64) -> String {
    if probability {
        draw::percent(x)
    } else {
        format!("{x:.2}")
    }
}

/// The figure of a balance against the first key varied, one line per
/// combination of the others, with the target drawn across.
pub struct CurveChart<'a> {
    /// The solved question.
    pub balance: &'a Balance,
}

impl CurveChart<'_> {
    /// The lines drawn: for each, its label and the point of each value of
    /// the first key.
    fn lines(&self) -> Vec<(String, Vec<usize>)> {
        let b = self.balance;
        let n0 = b.axes[0].tried.len();
        let per = b.points.len() / n0.max(1);
        // Point index = i0 * per + rest.
        let mut order: Vec<usize> = (0..per).collect();
        let best_of = |r: usize| {
            (0..n0)
                .map(|i| b.points[i * per + r].distance)
                .fold(f64::INFINITY, f64::min)
        };
        order.sort_by(|&x, &y| best_of(x).total_cmp(&best_of(y)));
        order.truncate(MAX_LINES);
        order.sort_unstable();
        order
            .into_iter()
            .map(|r| {
                let pts: Vec<usize> = (0..n0).map(|i| i * per + r).collect();
                let label = b.axes[1..]
                    .iter()
                    .enumerate()
                    .map(|(k, a)| {
                        format!(
                            "{}={}",
                            a.knob.path,
                            a.knob.text(b.points[pts[0]].picks[k + 1])
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                (label, pts)
            })
            .collect()
    }
}

impl Chart for CurveChart<'_> {
    fn title(&self) -> String {
        format!("{} — {}", self.balance.name, self.balance.goal.describe())
    }

    fn subtitle(&self) -> String {
        let b = self.balance;
        let mut parts = vec![b.basis.describe()];
        if !b.variant.is_empty() {
            parts.push(format!("variant {}", b.variant));
        }
        parts.push(format!("{} versions run", b.points.len()));
        parts.join("  ·  ")
    }

    fn body<DB: DrawingBackend>(&self, root: &Area<DB>, top: i32) -> DrawResult<DB::ErrorType> {
        let b = self.balance;
        let prob = b.goal.is_probability();
        let (w, h) = draw::pixel_size(root);
        let lines = self.lines();
        let colour = |c: usize| PALETTE[c % PALETTE.len()];
        let mut legend = vec![vec![Swatch::Dashed(format!(
            "target: {}",
            b.goal.describe()
        ))]];
        if b.axes.len() > 1 {
            legend.push(
                lines
                    .iter()
                    .enumerate()
                    .map(|(c, (l, _))| Swatch::Line(colour(c), 2, l.clone()))
                    .collect(),
            );
        }
        let legend_h = draw_legend_rows(root, &legend, 20, w - 20, h - 10)?;
        let body = root.margin(top + 8, legend_h + 16, 10, 16);
        let axis = &b.axes[0];
        let n = axis.tried.len();
        let mut y_top = b
            .points
            .iter()
            .filter_map(|p| p.figure.as_ref().ok())
            .map(|f| {
                let hi = if f.ci.1.is_finite() { f.ci.1 } else { 0.0 };
                value(f).max(hi)
            })
            .fold(0.0f64, f64::max);
        for t in [b.goal.lo, b.goal.hi] {
            if t.is_finite() {
                y_top = y_top.max(t);
            }
        }
        let y_max = if prob {
            draw::nice_probability_top(y_top)
        } else {
            draw::nice_top(y_top)
        };
        let mut chart = ChartBuilder::on(&body)
            .margin(6)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..y_max)?;
        let every = n.div_ceil(24).max(1);
        let x_fmt = |x: &f64| {
            let r = x.round();
            if (x - r).abs() < 1e-6
                && r >= 0.0
                && (r as usize) < n
                && (r as usize).is_multiple_of(every)
            {
                axis.knob.text(axis.tried[r as usize])
            } else {
                String::new()
            }
        };
        let y_fmt = |y: &f64| {
            if prob {
                draw::percent_axis(*y, y_max)
            } else {
                format!("{y:.1}")
            }
        };
        let mut mesh = chart.configure_mesh();
        crate::report::draw::house_mesh(&mut mesh)
            .disable_x_mesh()
            .x_desc(axis.knob.path.as_str())
            .x_labels(n.min(24) + 2)
            .y_labels(6)
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&y_fmt)
            .draw()?;
        let area = chart.plotting_area();
        for t in [b.goal.lo, b.goal.hi] {
            if t.is_finite() && t <= y_max {
                area.draw(&DashedPathElement::new(
                    vec![(-0.5, t), (n as f64 - 0.5, t)],
                    6,
                    4,
                    INK.stroke_width(2),
                ))?;
            }
        }
        for (c, (_, pts)) in lines.iter().enumerate() {
            let xy: Vec<(f64, f64)> = pts
                .iter()
                .enumerate()
                .filter_map(|(i, &p)| {
                    b.points[p]
                        .figure
                        .as_ref()
                        .ok()
                        .map(|f| (i as f64, value(f)))
                })
                .collect();
            area.draw(&PathElement::new(xy.clone(), colour(c).stroke_width(2)))?;
            for &(x, y) in &xy {
                area.draw(&Circle::new((x, y), 4, colour(c).filled()))?;
            }
            for (i, &p) in pts.iter().enumerate() {
                if let Ok(f) = &b.points[p].figure
                    && f.exact.is_none()
                    && f.ci.0.is_finite()
                    && f.ci.1.is_finite()
                {
                    area.draw(&PathElement::new(
                        vec![(i as f64, f.ci.0), (i as f64, f.ci.1)],
                        colour(c).stroke_width(1),
                    ))?;
                }
            }
        }
        Ok(())
    }
}

/// The tornado of one course: each key's change of the course's first
/// figure one step down (left of the centre line when it lowers it) and
/// one step up, largest first.
pub struct TornadoChart<'a> {
    /// The sensitivity.
    pub sensitivity: &'a Sensitivity,
    /// The course, by index.
    pub course: usize,
}

impl TornadoChart<'_> {
    fn bars(&self) -> Vec<&super::sensitivity::Row> {
        let mut rows = self.sensitivity.tornado(self.course);
        rows.truncate(MAX_BARS);
        rows
    }
}

impl Chart for TornadoChart<'_> {
    fn size(&self) -> (u32, u32) {
        (1000, 180 + 30 * self.bars().len().max(1) as u32)
    }

    fn title(&self) -> String {
        let s = self.sensitivity;
        let what = s.tracked[self.course]
            .first()
            .map_or(String::new(), |t| t.label.clone());
        format!(
            "{} — what decides {}: {what}",
            s.name, s.courses[self.course]
        )
    }

    fn subtitle(&self) -> String {
        let s = self.sensitivity;
        let mut parts = vec![s.basis.describe()];
        if !s.variant.is_empty() {
            parts.push(format!("variant {}", s.variant));
        }
        if let Some(Some(f)) = s.base[self.course].first() {
            let prob = s.tracked[self.course][0].target.is_probability();
            parts.push(format!("as it is: {}", shown(prob, value(f))));
        }
        let shown_n = self.bars().len();
        if shown_n < s.rows.len() {
            parts.push(format!("the {shown_n} largest of {} keys", s.rows.len()));
        }
        parts.join("  ·  ")
    }

    fn body<DB: DrawingBackend>(&self, root: &Area<DB>, top: i32) -> DrawResult<DB::ErrorType> {
        let s = self.sensitivity;
        let c = self.course;
        let rows = self.bars();
        let prob = s.tracked[c]
            .first()
            .is_some_and(|t| t.target.is_probability());
        let (w, h) = draw::pixel_size(root);
        let (down_c, up_c) = (PALETTE[0], PALETTE[1]);
        let legend = vec![vec![
            Swatch::Bar(down_c, "one step down".into()),
            Swatch::Bar(up_c, "one step up".into()),
            Swatch::Text("the value moved to at each bar's end".into()),
        ]];
        let legend_h = draw_legend_rows(root, &legend, 20, w - 20, h - 10)?;
        let body: DrawingArea<DB, Shift> = root.margin(top + 8, legend_h + 16, 10, 16);
        let span = rows
            .iter()
            .map(|r| r.size(c, 0))
            .fold(0.0f64, f64::max)
            .max(if prob { 0.01 } else { 0.1 })
            * 1.25;
        let n = rows.len().max(1);
        let label_w = 330u32;
        let mut chart = ChartBuilder::on(&body)
            .margin(6)
            .x_label_area_size(40)
            .y_label_area_size(label_w)
            .build_cartesian_2d(-span..span, 0f64..n as f64)?;
        let x_fmt = |x: &f64| {
            if prob {
                format!("{:+.1} pp", x * 100.0)
            } else {
                format!("{x:+.2}")
            }
        };
        let mut mesh = chart.configure_mesh();
        crate::report::draw::house_mesh(&mut mesh)
            .disable_y_mesh()
            .y_labels(0)
            .x_labels(7)
            .x_label_formatter(&x_fmt)
            .x_desc("change")
            .draw()?;
        let area = chart.plotting_area();
        area.draw(&PathElement::new(
            vec![(0.0, 0.0), (0.0, n as f64)],
            MUTED.stroke_width(1),
        ))?;
        let text = font(13.0).color(&INK);
        for (i, r) in rows.iter().enumerate() {
            let y = n as f64 - i as f64 - 0.5;
            for (m, col, down) in [(&r.down, down_c, true), (&r.up, up_c, false)] {
                let Some(m) = m else { continue };
                let Some(d) = m.delta(c, 0) else { continue };
                area.draw(&Rectangle::new(
                    [(0.0, y - 0.32), (d, y + 0.32)],
                    col.filled(),
                ))?;
                let (px, py) = area.map_coordinate(&(d, y));
                // No change: the step down's value left of the line, the step up's right.
                let left = d < 0.0 || (d == 0.0 && down);
                let pos = if left {
                    Pos::new(HPos::Right, VPos::Center)
                } else {
                    Pos::new(HPos::Left, VPos::Center)
                };
                let dx = if left { -4 } else { 4 };
                root.draw(&Text::new(
                    m.to.clone(),
                    (px + dx, py),
                    text.clone().pos(pos),
                ))?;
            }
            let (_, py) = area.map_coordinate(&(0.0, y));
            let (ax, _) = area.map_coordinate(&(-span, y));
            let label = draw::fit(
                root,
                &format!("{} ({})", r.key, r.now),
                &font(13.0),
                label_w - 12,
            );
            root.draw(&Text::new(
                label,
                (ax - 8, py),
                font(13.0)
                    .color(&INK)
                    .pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
        }
        Ok(())
    }
}
