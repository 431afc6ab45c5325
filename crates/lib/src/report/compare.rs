//! Courses of action side by side: `comparison.csv` and the grouped bar
//! charts of the key outcomes (see [`key`](super::key)).
//!
//! `comparison.csv` has one row per key outcome present × course, grouped by
//! variant, then key outcome (in [`KEY_OUTCOMES`] order), then course (in run
//! order); it is written for every run, a header alone when no course has a
//! key measure.
//!
//! Each variant with a key measure gets up to two charts, PNG and SVG: the
//! probabilities (`comparison.png`, `<variant>--comparison.png` under a
//! sweep) and the expectations, on their own scale
//! (`comparison-expected.png`). Groups are key outcomes, one bar per course
//! coloured by course, with its value, 95% interval whisker and exact value
//! as a diamond.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::chart::{Area, Chart};
use super::csv::{figure_cells, stage};
use super::draw::{
    self, DrawResult, INK, PALETTE, Swatch, draw_axis_labels, draw_diamond_coloured,
    draw_legend_rows, font, percent, percent_axis, thousands, wrap_labels,
};
use super::figure::Figure;
use super::key::{KEY_OUTCOMES, KeyDef, KeyKind, KeyOutcome, difference, key_outcome};
use super::model::ScenarioRun;
use super::naming::plan;
use super::{Output, Staging};
use crate::error::Error;

/// Header of `comparison.csv`. The last five columns give each course's
/// difference from the first course of its variant that has the key
/// outcome (`diff_from` names it; empty on that course's own row): the
/// Monte Carlo difference, its 95% interval (Newcombe's hybrid score
/// interval for a probability, the normal interval of a difference of
/// means for an expectation) and the difference of the exact values.
pub const COMPARISON_HEADER: [&str; 15] = [
    "scenario",
    "variant",
    "measure",
    "course",
    "value",
    "ci_low",
    "ci_high",
    "exact",
    "own",
    "enemy",
    "diff_from",
    "diff",
    "diff_ci_low",
    "diff_ci_high",
    "diff_exact",
];

/// The key outcomes of one variant: its courses and, for each key outcome
/// present in any of them, the value for each course (`None` where the
/// course lacks the measure).
#[derive(Clone, Debug, PartialEq)]
pub struct VariantKeys {
    /// The variant (empty without a sweep).
    pub variant: String,
    /// The index in `run.courses` of each course of the variant, in order.
    pub courses: Vec<usize>,
    /// Each key outcome present, in [`KEY_OUTCOMES`] order, with one entry
    /// per course of [`VariantKeys::courses`].
    pub rows: Vec<(KeyDef, Vec<Option<KeyOutcome>>)>,
}

impl VariantKeys {
    /// The rows of one kind only.
    pub fn of_kind(&self, kind: KeyKind) -> Vec<&(KeyDef, Vec<Option<KeyOutcome>>)> {
        self.rows.iter().filter(|(d, _)| d.kind == kind).collect()
    }

    /// The rows a chart of `kind` draws: those of [`VariantKeys::of_kind`]
    /// with some value that is not zero (a key outcome every course has at
    /// exactly 0 says nothing drawn as bars), and `turns` only when no hit
    /// count is drawn (turns are not hits, so they never share its axis;
    /// an engagement's turn charts show them).
    pub fn charted(&self, kind: KeyKind) -> Vec<&(KeyDef, Vec<Option<KeyOutcome>>)> {
        let rows: Vec<_> = self
            .of_kind(kind)
            .into_iter()
            .filter(|(_, vals)| {
                vals.iter()
                    .flatten()
                    .any(|k| k.figure.value != 0.0 || k.figure.exact.is_some_and(|e| e != 0.0))
            })
            .collect();
        let hits = rows.iter().any(|(d, _)| d.measure != super::key::TURNS);
        rows.into_iter()
            .filter(|(d, _)| !hits || d.measure != super::key::TURNS)
            .collect()
    }

    /// For each row, the index (in [`VariantKeys::courses`]) of the course
    /// the others are compared with: the first that has the key outcome.
    pub fn reference(&self, row: usize) -> Option<usize> {
        self.rows[row].1.iter().position(Option::is_some)
    }

    /// The difference of course `j` (an index in [`VariantKeys::courses`])
    /// from the reference course of row `row`; `None` for the reference
    /// itself and for a course without the key outcome.
    pub fn difference(&self, row: usize, j: usize) -> Option<Figure> {
        let first = self.reference(row)?;
        let vals = &self.rows[row].1;
        if j == first {
            return None;
        }
        Some(difference(vals[j].as_ref()?, vals[first].as_ref()?))
    }
}

/// The key outcomes of every variant of `run`, variants in order of first
/// appearance; a variant without key measures has no rows.
pub fn variant_keys(run: &ScenarioRun) -> Vec<VariantKeys> {
    run.variants()
        .into_iter()
        .map(|variant| {
            let courses: Vec<usize> = (0..run.courses.len())
                .filter(|&i| run.courses[i].variant == variant)
                .collect();
            let rows = KEY_OUTCOMES
                .iter()
                .filter_map(|&def| {
                    let values: Vec<Option<KeyOutcome>> = courses
                        .iter()
                        .map(|&i| key_outcome(def, run.courses[i].stats()))
                        .collect();
                    values.iter().any(Option::is_some).then_some((def, values))
                })
                .collect();
            VariantKeys {
                variant: variant.to_string(),
                courses,
                rows,
            }
        })
        .collect()
}

/// The rows of `comparison.csv`.
pub fn comparison_rows(run: &ScenarioRun) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for v in variant_keys(run) {
        for (row, (def, values)) in v.rows.iter().enumerate() {
            for (j, (&i, k)) in v.courses.iter().zip(values).enumerate() {
                let Some(k) = k else { continue };
                let d = v.difference(row, j);
                let from = match (d, v.reference(row)) {
                    (Some(_), Some(first)) => run.courses[v.courses[first]].course.clone(),
                    _ => String::new(),
                };
                let mut row = vec![
                    run.id.name.clone(),
                    v.variant.clone(),
                    def.name.to_string(),
                    run.courses[i].course.clone(),
                ];
                row.extend(figure_cells(k.figure));
                row.extend([
                    run.courses[i].side.own.clone(),
                    run.courses[i].side.enemy.clone(),
                    from,
                ]);
                // No difference on the first course's own row: empty cells.
                row.extend(d.map(figure_cells).unwrap_or_default());
                rows.push(row);
            }
        }
    }
    rows
}

/// `comparison.csv`.
pub struct ComparisonCsv;

impl Output for ComparisonCsv {
    fn render(&self, run: &ScenarioRun, out: &mut Staging) -> Result<(), Error> {
        stage(
            out,
            "comparison.csv",
            &COMPARISON_HEADER.map(String::from),
            &comparison_rows(run),
        )
    }
}

/// The comparison charts of every variant with key measures.
pub struct ComparisonCharts;

impl ComparisonCharts {
    /// The file stem suffix of the chart of `kind` after the variant's
    /// comparison stem.
    pub fn suffix(kind: KeyKind) -> &'static str {
        match kind {
            KeyKind::Probability => "",
            KeyKind::Expectation => "-expected",
        }
    }
}

impl Output for ComparisonCharts {
    fn render(&self, run: &ScenarioRun, out: &mut Staging) -> Result<(), Error> {
        draw::register_font();
        let names = plan(run).comparisons;
        let keys = variant_keys(run);
        for (variant, stem) in names {
            let Some(v) = keys.iter().find(|k| k.variant == variant) else {
                continue;
            };
            for kind in [KeyKind::Probability, KeyKind::Expectation] {
                if v.charted(kind).is_empty() {
                    continue;
                }
                let name = format!("{stem}{}", ComparisonCharts::suffix(kind));
                Comparison { run, v, kind }.stage(out, &name)?;
            }
        }
        Ok(())
    }
}

/// The comparison chart of one variant's key outcomes of one kind.
struct Comparison<'a> {
    run: &'a ScenarioRun,
    v: &'a VariantKeys,
    kind: KeyKind,
}

impl Chart for Comparison<'_> {
    fn title(&self) -> String {
        let name = &self.run.id.name;
        match self.kind {
            KeyKind::Probability => format!("{name} — key outcomes by course"),
            KeyKind::Expectation => format!("{name} — expected values by course"),
        }
    }
    fn subtitle(&self) -> String {
        let v = self.v;
        let courses: Vec<usize> = shown(v, &v.charted(self.kind))
            .iter()
            .map(|&j| v.courses[j])
            .collect();
        subtitle(self.run, v, &courses)
    }
    fn body<DB: DrawingBackend>(
        &self,
        root: &Area<DB>,
        header_h: i32,
    ) -> DrawResult<DB::ErrorType> {
        let (run, v, kind) = (self.run, self.v, self.kind);
        let rows = v.charted(kind);
        let shown = shown(v, &rows);
        let colour = |slot: usize| PALETTE[slot % PALETTE.len()];
        let has_exact = rows
            .iter()
            .any(|(_, vals)| vals.iter().flatten().any(|k| k.figure.exact.is_some()));

        let (w, h) = draw::pixel_size(root);

        // Legend: a swatch per course, then the notation.
        let courses: Vec<Swatch> = shown
            .iter()
            .enumerate()
            .map(|(s, &j)| Swatch::Bar(colour(s), run.courses[v.courses[j]].course.clone()))
            .collect();
        let mut notes = vec![Swatch::Whisker(match kind {
            KeyKind::Probability => "95% Wilson interval".into(),
            KeyKind::Expectation => "95% interval of the mean".into(),
        })];
        if has_exact {
            notes.push(Swatch::Diamond("exact".into()));
        }
        let legend_h = draw_legend_rows(root, &[courses, notes], 20, w - 20, h - 12)?;

        // Axes.
        let groups = rows.len().max(1);
        let top = rows
            .iter()
            .flat_map(|(_, vals)| vals.iter().flatten().map(reach))
            .fold(0.0f64, f64::max);
        let y_max = match kind {
            KeyKind::Probability => draw::nice_probability_top(top),
            KeyKind::Expectation => draw::nice_top(top),
        };
        let left_area = 80;
        let right_margin = 24;
        let slot = ((w - 14 - left_area - right_margin) / groups as i32).max(8) as u32;
        let labels: Vec<&str> = rows.iter().map(|(d, _)| d.label).collect();
        let (label_size, wrapped) = wrap_labels(root, &labels, slot.saturating_sub(12));
        let line_h = (label_size * 1.2).round() as i32;
        let lines = wrapped.iter().map(Vec::len).max().unwrap_or(1) as i32;
        let body = root.margin(header_h, legend_h + 14, 14, right_margin);
        let mut chart = ChartBuilder::on(&body)
            .x_label_area_size(12 + lines * line_h)
            .y_label_area_size(left_area)
            .build_cartesian_2d(-0.5f64..(groups as f64 - 0.5), 0f64..y_max)?;
        let y_desc = match kind {
            KeyKind::Probability => "probability",
            KeyKind::Expectation => "expected value",
        };
        let y_fmt = |y: &f64| match kind {
            KeyKind::Probability => percent_axis(*y, y_max),
            KeyKind::Expectation => {
                if y_max < 1.0 {
                    format!("{y:.2}")
                } else if y_max < 10.0 {
                    format!("{y:.1}")
                } else {
                    format!("{y:.0}")
                }
            }
        };
        draw::columns_mesh(&mut chart, &y_fmt, y_desc)?;
        let area = chart.plotting_area();
        let px = |x: f64, y: f64| area.map_coordinate(&(x, y));
        let unit_px = (px(1.0, 0.0).0 - px(0.0, 0.0).0).max(1) as f64;

        // Bar geometry: the shown courses share 80% of a group, each bar at
        // most 90 px wide; a group's bars are centred, courses without the key
        // outcome leaving no gap.
        let n = shown.len().max(1) as f64;
        let bar_slot = 0.8 / n;
        let half = (bar_slot * 0.42).min(45.0 / unit_px);
        let present: Vec<Vec<usize>> = rows
            .iter()
            .map(|(_, vals)| {
                (0..shown.len())
                    .filter(|&s| vals[shown[s]].is_some())
                    .collect()
            })
            .collect();
        let centre = |g: usize, s: usize| {
            let k = present[g].iter().position(|&x| x == s).unwrap_or(0) as f64;
            let m = present[g].len() as f64;
            g as f64 + bar_slot * (k - (m - 1.0) / 2.0)
        };
        let slot_px = (bar_slot * unit_px) as i32;

        for (g, (_, vals)) in rows.iter().enumerate() {
            for (s, &j) in shown.iter().enumerate() {
                let Some(k) = &vals[j] else { continue };
                let x = centre(g, s);
                if k.figure.value.is_finite() {
                    area.draw(&Rectangle::new(
                        [(x - half, 0.0), (x + half, k.figure.value.min(y_max))],
                        colour(s).filled(),
                    ))?;
                }
                if k.figure.ci.0.is_finite() && k.figure.ci.1.is_finite() {
                    let (lo, hi) = (k.figure.ci.0.max(0.0), k.figure.ci.1.min(y_max));
                    draw::draw_whisker(area, x, (lo, hi), half * 0.4)?;
                }
                if let Some(e) = k.figure.exact {
                    let r = ((half * unit_px) as i32).clamp(3, 7);
                    draw_diamond_coloured(root, px(x, e.min(y_max)), r, INK, WHITE)?;
                }
            }
        }

        // Value labels above each bar, in the largest size that fits its slot.
        let texts: Vec<String> = rows
            .iter()
            .flat_map(|(_, vals)| {
                shown
                    .iter()
                    .filter_map(|&j| vals[j].as_ref().map(|k| value_label(kind, k.figure.value)))
                    .collect::<Vec<_>>()
            })
            .collect();
        let size = [15.0, 14.0, 13.0, 12.0, 11.0, 10.0].into_iter().find(|&s| {
            let st = font(s);
            texts
                .iter()
                .all(|t| draw::width(root, t, &st) as i32 + 4 <= slot_px)
        });
        // Too narrow for level labels: upright ones, reading upwards.
        let upright = size.is_none() && slot_px >= 14;
        let labelled = size.is_some() || upright;
        let size = size.unwrap_or(11.0);
        if labelled {
            let plot_top = px(0.0, y_max).1;
            for (g, (_, vals)) in rows.iter().enumerate() {
                for (s, &j) in shown.iter().enumerate() {
                    let Some(k) = &vals[j] else { continue };
                    if !k.figure.value.is_finite() {
                        continue;
                    }
                    let x = centre(g, s);
                    let (cx, y) = px(x, reach(k).min(y_max));
                    let text = value_label(kind, k.figure.value);
                    let level = font(size);
                    let tw = draw::width(root, &text, &level) as i32;
                    let th = size as i32;
                    // A white box keeps the label legible where it must overlap.
                    if upright {
                        let y = (y - 10).max(plot_top + tw + 2);
                        root.draw(&Rectangle::new(
                            [(cx - th / 2 - 2, y - tw - 2), (cx + th / 2 + 2, y + 1)],
                            WHITE.mix(0.85).filled(),
                        ))?;
                        let style = level
                            .transform(FontTransform::Rotate270)
                            .pos(Pos::new(HPos::Left, VPos::Center));
                        root.draw(&Text::new(text, (cx, y), style))?;
                    } else {
                        let y = (y - 9).max(plot_top + th + 2);
                        root.draw(&Rectangle::new(
                            [(cx - tw / 2 - 2, y - th - 1), (cx + tw / 2 + 2, y + 1)],
                            WHITE.mix(0.85).filled(),
                        ))?;
                        let style = level.pos(Pos::new(HPos::Center, VPos::Bottom));
                        root.draw(&Text::new(text, (cx, y), style))?;
                    }
                }
            }
        }

        // Group labels under the axis.
        let axis_y = px(0.0, 0.0).1;
        draw_axis_labels(root, &wrapped, label_size, line_h, axis_y, |g| {
            px(g as f64, 0.0).0
        })?;
        Ok(())
    }
}

/// The courses a chart shows (indices into `v.courses`): those with at
/// least one of the key outcomes in `rows`.
fn shown(v: &VariantKeys, rows: &[&(KeyDef, Vec<Option<KeyOutcome>>)]) -> Vec<usize> {
    (0..v.courses.len())
        .filter(|&j| rows.iter().any(|(_, vals)| vals[j].is_some()))
        .collect()
}

/// Variant, system and edition, seed, trials.
fn subtitle(run: &ScenarioRun, v: &VariantKeys, shown: &[usize]) -> String {
    let mut parts = Vec::new();
    if !v.variant.is_empty() {
        parts.push(v.variant.clone());
    }
    parts.push(draw::system_text(run));
    parts.push(format!("seed {}", run.id.seed));
    let trials: Vec<u64> = shown.iter().map(|&i| run.courses[i].tally.trials).collect();
    let lo = trials.iter().copied().min().unwrap_or(0);
    let hi = trials.iter().copied().max().unwrap_or(0);
    parts.push(if hi == 0 {
        "exact, no trials".to_string()
    } else if lo == hi {
        format!("{} trials per course", thousands(lo))
    } else {
        format!("{}–{} trials per course", thousands(lo), thousands(hi))
    });
    parts.extend(draw::set_parts(run));
    parts.join("  ·  ")
}

/// A value label: a percentage or an expectation with two decimals.
fn value_label(kind: KeyKind, x: f64) -> String {
    match kind {
        KeyKind::Probability => percent(x),
        KeyKind::Expectation => format!("{x:.2}"),
    }
}

/// The highest point a bar reaches: value, interval and exact.
fn reach(k: &KeyOutcome) -> f64 {
    [k.figure.value, k.figure.ci.1, k.figure.exact.unwrap_or(0.0)]
        .into_iter()
        .filter(|x| x.is_finite())
        .fold(0.0, f64::max)
}
