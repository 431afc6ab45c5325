//! The chart of a diff: per variant, a bar per outcome of every course,
//! coloured by course, with its 95% interval and the exact change as a
//! diamond; a row whose every figure is exact is a bar of the exact change
//! alone.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Diff, DiffRow, exact_signed, pp, signed};
use crate::report::chart::{Area, Chart};
use crate::report::draw::{
    self, DrawResult, INK, MUTED, PALETTE, Swatch, draw_diamond_coloured, draw_legend_rows, fit,
    font, thousands, width,
};

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

/// The chart of one variant of a diff: the rows of its outcomes.
pub struct DiffChart<'a> {
    /// The diff.
    pub d: &'a Diff,
    /// The variant (empty without a sweep).
    pub variant: &'a str,
    /// Its outcome rows.
    pub rows: &'a [&'a DiffRow],
}

impl Chart for DiffChart<'_> {
    /// 1000 wide, tall enough for a row per outcome and a header row per
    /// course.
    fn size(&self) -> (u32, u32) {
        let slots = self.rows.len() + courses(self.rows).len();
        (1000, (230 + slots as u32 * ROW).max(420))
    }
    /// `from → to: scenario`.
    fn title(&self) -> String {
        let id = &self.d.id;
        format!("{} → {}: {}", id.from, id.to, id.scenario)
    }
    fn subtitle(&self) -> String {
        let d = self.d;
        let mut sub = Vec::new();
        if !self.variant.is_empty() {
            sub.push(self.variant.to_string());
        }
        sub.push(d.id.system.clone());
        sub.push(format!("seed {}", d.id.seed));
        sub.push(if self.rows.iter().all(|r| r.is_exact_only()) {
            "exact".to_string()
        } else if d.trials.0 == d.trials.1 {
            format!("{} trials per course and card", thousands(d.trials.0))
        } else {
            format!(
                "{} / {} trials per course",
                thousands(d.trials.0),
                thousands(d.trials.1)
            )
        });
        sub.join("  ·  ")
    }
    fn body<DB: DrawingBackend>(&self, root: &Area<DB>, top: i32) -> DrawResult<DB::ErrorType> {
        let (d, rows) = (self.d, self.rows);
        let (w, h) = draw::pixel_size(root);

        let names = courses(rows);
        let colour =
            |c: &str| PALETTE[names.iter().position(|n| *n == c).unwrap_or(0) % PALETTE.len()];
        let sampled = rows.iter().any(|r| !r.is_exact_only());
        let has_exact = rows
            .iter()
            .any(|r| !r.is_exact_only() && r.exact_change().is_some());
        let legend: Vec<Swatch> = names
            .iter()
            .map(|n| Swatch::Bar(colour(n), (*n).to_string()))
            .collect();
        let mut notes = Vec::new();
        if sampled {
            notes.push(Swatch::Whisker("95% interval of the change".into()));
        }
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
        let m = draw::nice_top(reach * 1.3);

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
        let body = root.margin(top, legend_h + 14, 14, 24);
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
        draw::house_mesh(
            chart
                .configure_mesh()
                .disable_y_mesh()
                .y_labels(0)
                .x_labels(9)
                .x_label_formatter(&fmt)
                .x_desc(format!(
                    "change in probability, percentage points ({} − {})",
                    d.id.to, d.id.from
                )),
        )
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
            // An exact-only row: the bar is the exact change, with no
            // interval and no diamond (nothing was sampled).
            let exact_only = r.is_exact_only();
            let c = if exact_only {
                r.exact_change().unwrap_or(f64::NAN) * 100.0
            } else {
                r.change() * 100.0
            };
            let (lo, hi) = if exact_only {
                (f64::NAN, f64::NAN)
            } else {
                let (lo, hi) = r.change_ci();
                (lo * 100.0, hi * 100.0)
            };
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
            let e = r.exact_change().filter(|_| !exact_only).map(|e| e * 100.0);
            if let Some(e) = e {
                draw_diamond_coloured(root, px(clamp(e), y), 6, INK, WHITE)?;
            }
            if c.is_finite() {
                let ends = [c, lo, hi, e.unwrap_or(c)];
                let text = if exact_only {
                    format!("{} pp", exact_signed(c, 2))
                } else {
                    pp(c)
                };
                // The value beyond the furthest mark on the side it points to.
                let (outer, dx, anchor): (fn(f64, f64) -> f64, i32, HPos) = if c >= 0.0 {
                    (f64::max, 8, HPos::Left)
                } else {
                    (f64::min, -8, HPos::Right)
                };
                let x = ends
                    .iter()
                    .copied()
                    .filter(|x| x.is_finite())
                    .fold(c, outer);
                let (xp, _) = px(clamp(x), y);
                root.draw(&Text::new(
                    text,
                    (xp + dx, ypx),
                    value_style.pos(Pos::new(anchor, VPos::Center)),
                ))?;
            }
        }
        Ok(())
    }
}
