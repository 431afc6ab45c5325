//! A PNG and an SVG histogram per course.
//!
//! Each plot shows the Monte Carlo probability of every outcome as a bar,
//! labelled with its percentage, the 95% Wilson interval as a whisker and
//! the exact probability, when known, as a diamond. Text goes through
//! plotters' `ab_glyph` backend with DejaVu Sans embedded in the binary
//! (`assets/fonts/`), so plots render on a machine without font packages.
//!
//! File names are slugs of the variant and course: `charge-now.png`, or
//! `terrain-woods--charge-now.svg` under a sweep (see [`file_stems`]).

use std::io;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::model::{CourseRun, CourseStats, ScenarioRun};
use super::{Output, Staging};
use crate::error::Error;

/// The embedded font: DejaVu Sans (Bitstream Vera licence, see
/// `assets/fonts/LICENSE-DejaVu.txt`).
static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// The family the embedded font is registered under. It is also the
/// `font-family` SVG files name, so a viewer falls back to any sans-serif.
pub const FONT_FAMILY: &str = "DejaVu Sans, sans-serif";

/// Plot size in pixels.
pub const SIZE: (u32, u32) = (1000, 600);

/// Registers the embedded font with plotters (once per process) under
/// [`FONT_FAMILY`] and under `sans-serif`, plotters' default family, so
/// other plots in the process (criterion's, say) find a font too.
pub fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for family in [FONT_FAMILY, "sans-serif"] {
            if plotters::style::register_font(family, FontStyle::Normal, FONT).is_err() {
                panic!("the embedded DejaVu Sans font is not a valid TTF");
            }
        }
    });
}

/// Text and outline colour.
pub(crate) const INK: RGBColor = RGBColor(33, 33, 33);
/// Secondary text, axes.
pub(crate) const MUTED: RGBColor = RGBColor(96, 96, 96);
const BAR: RGBColor = RGBColor(76, 120, 168);
const EXACT: RGBColor = RGBColor(228, 87, 46);
/// Grid lines.
pub(crate) const GRID: RGBColor = RGBColor(225, 225, 225);

/// Series colours of the comparison and engagement plots, in order: Tableau
/// 10, its light yellow and grey last.
pub const PALETTE: [RGBColor; 10] = [
    RGBColor(78, 121, 167),
    RGBColor(242, 142, 43),
    RGBColor(225, 87, 89),
    RGBColor(89, 161, 79),
    RGBColor(176, 122, 161),
    RGBColor(118, 183, 178),
    RGBColor(156, 117, 95),
    RGBColor(255, 157, 167),
    RGBColor(237, 201, 72),
    RGBColor(186, 176, 172),
];

/// The embedded font at `size` pixels, in [`INK`].
pub(crate) fn font(size: f64) -> TextStyle<'static> {
    (FONT_FAMILY, size).into_font().color(&INK)
}

/// Lower-case alphanumerics, everything else folded into single dashes,
/// at most `max` characters.
pub fn slug(s: &str, max: usize) -> String {
    let mut out = String::new();
    for ch in s.chars().flat_map(char::to_lowercase) {
        if ch.is_alphanumeric() {
            out.push(ch);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let mut out: String = out.chars().take(max).collect();
    while out.ends_with('-') {
        out.pop();
    }
    out
}

/// The slug of a variant: each `key=value` as the last segment of the key
/// and the value, e.g. `units.tercio.terrain=woods` → `terrain-woods`.
pub fn variant_slug(variant: &str) -> String {
    let parts: Vec<String> = variant
        .split(", ")
        .map(|part| match part.split_once('=') {
            Some((key, value)) => {
                let last = key.rsplit('.').next().unwrap_or(key);
                format!("{last}-{value}")
            }
            None => part.to_string(),
        })
        .collect();
    slug(&parts.join("-"), 80)
}

/// The file stem of the plots of every course of `run`, in order:
/// `<course>` without a sweep, `<variant>--<course>` with one (slugs, see
/// [`slug`] and [`variant_slug`]). A course whose name has no letter or
/// digit is `course-<n>` (1-based); a stem already taken gets `-2`, `-3`…
/// A stem is taken when it, or a name derived from it (an engagement's
/// `-turns` and `-cumulative`), is already the name of another plot,
/// comparison charts included (see [`plan`]).
pub fn file_stems(run: &ScenarioRun) -> Vec<String> {
    plan(run).courses
}

/// A probability as a percentage for a bar label: one decimal, more for
/// small values, and `<0.01%` for tiny non-zero ones.
pub fn percent(p: f64) -> String {
    let pc = p * 100.0;
    if p <= 0.0 {
        "0%".into()
    } else if pc < 0.01 {
        "<0.01%".into()
    } else if pc < 1.0 {
        format!("{pc:.2}%")
    } else {
        format!("{pc:.1}%")
    }
}

/// `1234567` → `1,234,567`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// The file stems of a run's plots, unique across every plot of the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlotNames {
    /// The stem of each course's histogram, in run order; an engagement's
    /// plots add `-turns` and `-cumulative` to it.
    pub courses: Vec<String>,
    /// For each variant with key measures, in order of first appearance: the
    /// variant and the stem of its comparison charts (`comparison`, or
    /// `<variant>--comparison` under a sweep); the expectations chart adds
    /// `-expected`.
    pub comparisons: Vec<(String, String)>,
}

/// Plans every plot name of `run` so that none is made twice: comparison
/// charts first, then each course (see [`file_stems`]), each name checked
/// against every name already given, its derived names included.
pub fn plan(run: &ScenarioRun) -> PlotNames {
    let mut taken: Vec<String> = Vec::new();
    let mut claim = |base: String, suffixes: &[&str]| -> String {
        let mut stem = base.clone();
        let mut k = 2;
        loop {
            let mut names = vec![stem.clone()];
            names.extend(suffixes.iter().map(|s| format!("{stem}-{s}")));
            if names.iter().all(|n| !taken.contains(n)) {
                taken.extend(names);
                return stem;
            }
            stem = format!("{base}-{k}");
            k += 1;
        }
    };
    let mut comparisons = Vec::new();
    for variant in run.variants() {
        if !run
            .courses
            .iter()
            .any(|c| c.variant == variant && super::key::has_key_measures(&c.space))
        {
            continue;
        }
        let v = variant_slug(variant);
        let base = if v.is_empty() {
            "comparison".to_string()
        } else {
            format!("{v}--comparison")
        };
        comparisons.push((variant.to_string(), claim(base, &["expected"])));
    }
    let mut courses = Vec::with_capacity(run.courses.len());
    for (i, c) in run.courses.iter().enumerate() {
        let mut course = slug(&c.course, 60);
        if course.is_empty() {
            course = format!("course-{}", i + 1);
        }
        let variant = variant_slug(&c.variant);
        let base = if variant.is_empty() {
            course
        } else {
            format!("{variant}--{course}")
        };
        let suffixes: &[&str] = if super::engagement::is_engagement(c) {
            &["turns", "cumulative"]
        } else {
            &[]
        };
        courses.push(claim(base, suffixes));
    }
    PlotNames {
        courses,
        comparisons,
    }
}

/// A histogram PNG and SVG for every course.
pub struct Histograms;

impl Output for Histograms {
    fn render(&self, run: &ScenarioRun, out: &mut Staging) -> Result<(), Error> {
        register_font();
        for (course, stem) in run.courses.iter().zip(plan(run).courses) {
            let stats = course.stats();
            let png = format!("{stem}.png");
            out.with_path(&png, |tmp| {
                let root = BitMapBackend::new(tmp, SIZE).into_drawing_area();
                draw(&root, run, course, &stats).map_err(other)?;
                root.present().map_err(other)
            })?;
            let svg = render_svg(run, course)
                .map_err(|e| Error::io(out.dir().join(format!("{stem}.svg")), e))?;
            out.bytes(&format!("{stem}.svg"), svg.as_bytes())?;
        }
        Ok(())
    }
}

pub(crate) fn other(e: impl std::fmt::Debug) -> io::Error {
    io::Error::other(format!("cannot draw the plot: {e:?}"))
}

/// Adds a `<title>` (the plot's name for screen readers and tooltips) after
/// the opening `<svg>` tag.
pub(crate) fn with_svg_title(svg: &str, title: &str) -> String {
    let Some(start) = svg.find("<svg") else {
        return svg.to_string();
    };
    let Some(end) = svg[start..].find('>') else {
        return svg.to_string();
    };
    let at = start + end + 1;
    let escaped = title
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    format!("{}\n<title>{escaped}</title>{}", &svg[..at], &svg[at..])
}

fn title(run: &ScenarioRun, course: &CourseRun) -> String {
    format!("{} — {}", run.scenario, course.course)
}

/// The subtitle: variant, system and edition, seed, trials.
pub(crate) fn subtitle(run: &ScenarioRun, course: &CourseRun) -> String {
    let mut parts = Vec::new();
    if !course.variant.is_empty() {
        parts.push(course.variant.clone());
    }
    parts.push(match &run.edition {
        Some(e) => format!("{} ({e})", run.system),
        None => run.system.clone(),
    });
    parts.push(format!("seed {}", run.seed));
    parts.push(format!("{} trials", thousands(course.tally.trials)));
    parts.join("  ·  ")
}

pub(crate) type DrawResult<E> = Result<(), DrawingAreaErrorKind<E>>;

/// Width in pixels of `text` in `style`.
pub(crate) fn width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle,
) -> u32 {
    area.estimate_text_size(text, style).map_or(0, |(w, _)| w)
}

/// `text` shortened with an ellipsis to at most `max` pixels.
pub(crate) fn fit<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle,
    max: u32,
) -> String {
    if width(area, text, style) <= max {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    for n in (1..chars.len()).rev() {
        let s: String = chars[..n].iter().collect::<String>() + "…";
        if width(area, &s, style) <= max {
            return s;
        }
    }
    "…".into()
}

/// Pieces of a label that may end a line: after a dash, underscore, slash
/// or space.
fn tokens(label: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for ch in label.chars() {
        cur.push(ch);
        if matches!(ch, '-' | '_' | '/' | ' ') {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Greedy word wrap of `label` into lines of at most `max` pixels. Returns
/// the lines and whether a piece had to be broken mid-word.
fn wrap<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    label: &str,
    style: &TextStyle,
    max: u32,
) -> (Vec<String>, bool) {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut broke = false;
    for tok in tokens(label) {
        let candidate = format!("{line}{tok}");
        if width(area, candidate.trim_end(), style) <= max {
            line = candidate;
            continue;
        }
        if !line.trim_end().is_empty() {
            lines.push(line.trim_end().to_string());
        }
        line = String::new();
        if width(area, tok.trim_end(), style) <= max {
            line = tok;
            continue;
        }
        // A piece wider than the slot: break it between characters.
        broke = true;
        for ch in tok.chars() {
            let candidate = format!("{line}{ch}");
            if !line.is_empty() && width(area, candidate.trim_end(), style) > max {
                lines.push(std::mem::take(&mut line));
            }
            line.push(ch);
        }
    }
    if !line.trim_end().is_empty() {
        lines.push(line.trim_end().to_string());
    }
    (lines, broke)
}

/// The labels of every outcome wrapped to `slot` pixels, with the font size
/// used: the largest size that wraps every label into at most three lines
/// without breaking a word; failing that, the smallest size, with a label
/// longer than four lines cut short by an ellipsis.
pub(crate) fn wrap_labels<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    labels: &[&str],
    slot: u32,
) -> (f64, Vec<Vec<String>>) {
    const SIZES: [f64; 5] = [16.0, 15.0, 14.0, 13.0, 12.0];
    const MAX_LINES: usize = 4;
    let wrap_all = |size: f64| -> Vec<(Vec<String>, bool)> {
        let style = font(size);
        labels.iter().map(|l| wrap(area, l, &style, slot)).collect()
    };
    for size in SIZES {
        let wrapped = wrap_all(size);
        if wrapped
            .iter()
            .all(|(lines, broke)| !broke && lines.len() <= 3)
        {
            return (size, wrapped.into_iter().map(|(l, _)| l).collect());
        }
    }
    let size = SIZES[SIZES.len() - 1];
    let style = font(size);
    let lines = wrap_all(size)
        .into_iter()
        .map(|(mut lines, _)| {
            if lines.len() > MAX_LINES {
                lines.truncate(MAX_LINES);
                let last = format!("{}…", lines[MAX_LINES - 1]);
                lines[MAX_LINES - 1] = fit(area, &last, &style, slot);
            }
            lines
        })
        .collect();
    (size, lines)
}

/// The top of the probability axis: a round value above every bar, whisker
/// and marker, leaving room for the labels, at most 100%.
fn y_top(stats: &CourseStats) -> f64 {
    let top = stats
        .outcomes
        .iter()
        .map(|o| o.ci.1.max(o.probability).max(o.exact.unwrap_or(0.0)))
        .fold(0.0f64, f64::max);
    nice_probability_top(top)
}

/// A round top for a probability axis above `top`, with 15% headroom, at
/// most 1: a multiple of the tick step plotters picks for such a range, so
/// the top of the axis carries a label.
pub(crate) fn nice_probability_top(top: f64) -> f64 {
    let top = if top.is_finite() { top } else { 0.0 };
    let want = (top * 1.15).max(0.01);
    let step = if want > 0.5 {
        0.2
    } else if want > 0.2 {
        0.1
    } else if want > 0.05 {
        0.02
    } else {
        0.005
    };
    ((want / step).ceil() * step).min(1.0)
}

/// A round top for an axis of non-negative values above `top`, with 15%
/// headroom: a multiple of a 1-2-5 step giving about eight ticks.
pub(crate) fn nice_top(top: f64) -> f64 {
    let top = if top.is_finite() { top } else { 0.0 };
    let want = (top * 1.15).max(0.1);
    let raw = want / 8.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|k| k * mag)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * mag);
    (want / step).ceil() * step
}

/// A tick label of a probability axis whose top is `y_max`.
pub(crate) fn percent_axis(y: f64, y_max: f64) -> String {
    let pc = y * 100.0;
    if y_max <= 0.05 {
        format!("{pc:.1}%")
    } else {
        format!("{pc:.0}%")
    }
}

/// One entry of a legend drawn by [`draw_legend_rows`].
pub(crate) enum Swatch {
    /// A filled square of a series colour, then its name.
    Bar(RGBColor, String),
    /// A short line of a colour and width with a dot, then its name.
    Line(RGBColor, u32, String),
    /// A 95% interval whisker, then the text.
    Whisker(String),
    /// The exact-value diamond, then the text.
    Diamond(String),
    /// A black tick, then the text.
    Tick(String),
    /// A dashed line, then the text.
    Dashed(String),
    /// Text alone.
    Text(String),
}

impl Swatch {
    fn text(&self) -> &str {
        match self {
            Swatch::Bar(_, t)
            | Swatch::Line(_, _, t)
            | Swatch::Whisker(t)
            | Swatch::Diamond(t)
            | Swatch::Tick(t)
            | Swatch::Dashed(t) => t,
            Swatch::Text(t) => t,
        }
    }
    /// Width of the symbol before the text, gap included.
    fn symbol_width(&self) -> i32 {
        match self {
            Swatch::Text(_) => 0,
            Swatch::Line(..) | Swatch::Dashed(_) => 34,
            _ => 24,
        }
    }
}

/// Height of one legend line in pixels.
const LEGEND_LINE: i32 = 22;

/// Draws legend entries between `x0` and `x1`, ending at `bottom`: each group
/// starts a new line, and a group wraps onto further lines when it is wider
/// than the space. Text longer than a whole line is shortened with an
/// ellipsis. Returns the height used.
pub(crate) fn draw_legend_rows<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    groups: &[Vec<Swatch>],
    x0: i32,
    x1: i32,
    bottom: i32,
) -> Result<i32, DrawingAreaErrorKind<DB::ErrorType>> {
    let style = font(14.0)
        .color(&MUTED)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let gap = 22;
    let avail = (x1 - x0).max(40);
    // Lay out: (line, x, swatch, text) for each entry.
    let mut placed: Vec<(i32, i32, &Swatch, String)> = Vec::new();
    let mut line = -1;
    for group in groups.iter().filter(|g| !g.is_empty()) {
        line += 1;
        let mut x = 0;
        for sw in group {
            let max_text = (avail - sw.symbol_width()).max(20) as u32;
            let text = fit(root, sw.text(), &style, max_text);
            let w = sw.symbol_width() + width(root, &text, &style) as i32;
            if x > 0 && x + w > avail {
                line += 1;
                x = 0;
            }
            placed.push((line, x, sw, text));
            x += w + gap;
        }
    }
    let lines = line + 1;
    let top = bottom - lines * LEGEND_LINE;
    for (line, x, sw, text) in placed {
        let y = top + line * LEGEND_LINE + LEGEND_LINE / 2;
        let x = x0 + x;
        match sw {
            Swatch::Bar(c, _) => {
                root.draw(&Rectangle::new([(x, y - 7), (x + 16, y + 7)], c.filled()))?;
            }
            Swatch::Line(c, w, _) => {
                root.draw(&PathElement::new(
                    vec![(x, y), (x + 26, y)],
                    c.stroke_width(*w),
                ))?;
                root.draw(&Circle::new((x + 13, y), *w as i32 + 2, c.filled()))?;
            }
            Swatch::Whisker(_) => {
                let s = INK.stroke_width(2);
                root.draw(&PathElement::new(vec![(x + 8, y - 8), (x + 8, y + 8)], s))?;
                root.draw(&PathElement::new(vec![(x + 3, y - 8), (x + 13, y - 8)], s))?;
                root.draw(&PathElement::new(vec![(x + 3, y + 8), (x + 13, y + 8)], s))?;
            }
            Swatch::Diamond(_) => {
                draw_diamond_coloured(root, (x + 8, y), 6, INK, WHITE)?;
            }
            Swatch::Tick(_) => {
                root.draw(&PathElement::new(
                    vec![(x, y), (x + 16, y)],
                    INK.stroke_width(2),
                ))?;
            }
            Swatch::Dashed(_) => {
                root.draw(&DashedPathElement::new(
                    vec![(x, y), (x + 28, y)],
                    7,
                    5,
                    INK.stroke_width(2),
                ))?;
            }
            Swatch::Text(_) => {}
        }
        root.draw(&Text::new(text, (x + sw.symbol_width(), y), style.clone()))?;
    }
    Ok(lines.max(0) * LEGEND_LINE)
}

/// Draws the histogram of one course onto `root`.
fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    run: &ScenarioRun,
    course: &CourseRun,
    stats: &CourseStats,
) -> DrawResult<DB::ErrorType> {
    let (w, h) = root.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    root.fill(&WHITE)?;

    // Header: title and subtitle.
    let title_style = font(24.0);
    let sub_style = font(16.0).color(&MUTED);
    let max_text = (w - 40) as u32;
    root.draw(&Text::new(
        fit(root, &title(run, course), &title_style, max_text),
        (20, 12),
        title_style.clone(),
    ))?;
    root.draw(&Text::new(
        fit(root, &subtitle(run, course), &sub_style, max_text),
        (20, 44),
        sub_style.clone(),
    ))?;

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

    let body = root.margin(76, 34, 14, right_margin);
    let y_max = y_top(stats);
    let mut chart = ChartBuilder::on(&body)
        .x_label_area_size(bottom_area)
        .y_label_area_size(left_area)
        .margin_left(0)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..y_max)?;
    let percent_axis = |y: &f64| {
        let pc = y * 100.0;
        if y_max <= 0.05 {
            format!("{pc:.1}%")
        } else {
            format!("{pc:.0}%")
        }
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_labels(8)
        .y_label_formatter(&percent_axis)
        .y_desc("probability")
        .axis_desc_style(font(16.0))
        .label_style(font(14.0).color(&MUTED))
        .bold_line_style(GRID)
        .light_line_style(WHITE)
        .axis_style(MUTED)
        .draw()?;

    let plot = chart.plotting_area();
    let px = |x: f64, y: f64| plot.map_coordinate(&(x, y));
    let unit_px = (px(1.0, 0.0).0 - px(0.0, 0.0).0).max(1) as f64;
    let half = (0.36f64).min(60.0 / unit_px);
    let cap = half * 0.35;

    // Bars.
    for (i, o) in stats.outcomes.iter().enumerate() {
        let x = i as f64;
        plot.draw(&Rectangle::new(
            [(x - half, 0.0), (x + half, o.probability)],
            BAR.filled(),
        ))?;
    }
    // Whiskers: the 95% Wilson interval.
    let whisker = INK.stroke_width(2);
    for (i, o) in stats.outcomes.iter().enumerate() {
        let x = i as f64;
        let (lo, hi) = o.ci;
        plot.draw(&PathElement::new(vec![(x, lo), (x, hi)], whisker))?;
        plot.draw(&PathElement::new(
            vec![(x - cap, lo), (x + cap, lo)],
            whisker,
        ))?;
        plot.draw(&PathElement::new(
            vec![(x - cap, hi), (x + cap, hi)],
            whisker,
        ))?;
    }
    // Exact values.
    for (i, o) in stats.outcomes.iter().enumerate() {
        if let Some(e) = o.exact {
            let at = px(i as f64, e);
            draw_diamond(root, at, 7)?;
        }
    }
    // Percentages above each bar (inside it when there is no room above).
    let pct_style = font(15.0);
    let plot_top = px(0.0, y_max).1;
    for (i, o) in stats.outcomes.iter().enumerate() {
        let top = o.ci.1.max(o.probability).max(o.exact.unwrap_or(0.0));
        let (x, y) = px(i as f64, top);
        let text = percent(o.probability);
        if y - 22 >= plot_top {
            let style = pct_style.pos(Pos::new(HPos::Center, VPos::Bottom));
            root.draw(&Text::new(text, (x, y - 6), style))?;
        } else {
            // Below the bar top, the whisker's lower cap and the marker.
            let below = [
                px(i as f64, o.probability).1,
                px(i as f64, o.ci.0).1,
                o.exact.map_or(0, |e| px(i as f64, e).1 + 7),
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
    let label_style = font(label_size).pos(Pos::new(HPos::Center, VPos::Top));
    let axis_y = px(0.0, 0.0).1;
    for (i, lines) in wrapped.iter().enumerate() {
        let (x, _) = px(i as f64, 0.0);
        for (k, line) in lines.iter().enumerate() {
            root.draw(&Text::new(
                line.clone(),
                (x, axis_y + 10 + k as i32 * line_h),
                label_style.clone(),
            ))?;
        }
    }
    let (x0, _) = px(-0.5, 0.0);
    let (x1, _) = px(n as f64 - 0.5, 0.0);
    root.draw(&Text::new(
        "outcome",
        ((x0 + x1) / 2, axis_y + 10 + lines * line_h + 6),
        font(16.0).pos(Pos::new(HPos::Center, VPos::Top)),
    ))?;
    Ok(())
}

/// Draws a diamond filled with `fill` and outlined with `outline`, centred on
/// `at`.
pub(crate) fn draw_diamond_coloured<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    r: i32,
    fill: RGBColor,
    outline: RGBColor,
) -> DrawResult<DB::ErrorType> {
    let pts = vec![(x, y - r), (x + r, y), (x, y + r), (x - r, y)];
    let mut edge = pts.clone();
    edge.push((x, y - r));
    root.draw(&Polygon::new(pts, fill.filled()))?;
    root.draw(&PathElement::new(edge, outline.stroke_width(1)))
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
        &format!(
            "Monte Carlo probability ({} trials)",
            thousands(stats.trials)
        ),
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

/// Renders the histogram of one course as an SVG document.
pub fn render_svg(run: &ScenarioRun, course: &CourseRun) -> io::Result<String> {
    register_font();
    let stats = course.stats();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        draw(&root, run, course, &stats)
            .and_then(|()| root.present())
            .map_err(other)?;
    }
    Ok(with_svg_title(&svg, &title(run, course)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_fold_punctuation_and_case() {
        assert_eq!(slug("Salvo, then Charge!", 60), "salvo-then-charge");
        assert_eq!(slug("  --  ", 60), "");
        assert_eq!(variant_slug("units.tercio.terrain=woods"), "terrain-woods");
        assert_eq!(
            variant_slug("units.tercio.terrain=woods, units.swedes.morale=6"),
            "terrain-woods-morale-6"
        );
        assert_eq!(variant_slug(""), "");
    }

    #[test]
    fn percentages_and_thousands() {
        assert_eq!(percent(0.4213), "42.1%");
        assert_eq!(percent(0.0042), "0.42%");
        assert_eq!(percent(0.00005), "<0.01%");
        assert_eq!(percent(0.0), "0%");
        assert_eq!(thousands(1_000_000), "1,000,000");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1234), "1,234");
    }

    #[test]
    fn labels_split_after_dashes_and_spaces() {
        assert_eq!(
            tokens("defender-morale broken"),
            vec!["defender-", "morale ", "broken"]
        );
    }
}
