//! Drawing helpers shared by every chart the reports write: the embedded
//! font, colours, text fitting and wrapping, axis tops and tick labels,
//! legends and markers, number formatting.
//!
//! Text goes through plotters' `ab_glyph` backend with DejaVu Sans embedded
//! in the binary (`assets/fonts/`), so charts render on a machine without
//! font packages.

use std::io;
use std::sync::Once;

use plotters::chart::MeshStyle;
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::model::{CourseRun, ScenarioRun};

pub(crate) use super::legend::{Swatch, draw_legend_rows};

/// The embedded font: DejaVu Sans (Bitstream Vera licence, see
/// `assets/fonts/LICENSE-DejaVu.txt`).
pub(crate) static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

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

/// Grid lines.
pub(crate) const GRID: RGBColor = RGBColor(225, 225, 225);

/// Series colours of the comparison, engagement and at-least plots, in
/// order: Tableau 20 (each hue dark, then light), so that up to twenty
/// courses or stop reasons keep distinct colours.
pub const PALETTE: [RGBColor; 20] = [
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
    RGBColor(160, 203, 232),
    RGBColor(255, 190, 125),
    RGBColor(140, 209, 125),
    RGBColor(182, 153, 45),
    RGBColor(73, 152, 148),
    RGBColor(134, 188, 182),
    RGBColor(121, 112, 110),
    RGBColor(212, 166, 200),
    RGBColor(157, 118, 150),
    RGBColor(215, 181, 166),
];

/// The house style of a chart's mesh: axis titles, muted tick labels, a
/// light grid and muted axes (every chart draws its mesh through this).
pub(crate) fn house_mesh<'m, 'a, 'b, X: Ranged, Y: Ranged, DB: DrawingBackend>(
    mesh: &'m mut MeshStyle<'a, 'b, X, Y, DB>,
) -> &'m mut MeshStyle<'a, 'b, X, Y, DB> {
    mesh.axis_desc_style(font(16.0))
        .label_style(font(14.0).color(&MUTED))
        .bold_line_style(GRID)
        .light_line_style(WHITE)
        .axis_style(MUTED)
}

/// Draws the mesh of a chart whose columns are labelled by hand (one per
/// course or per turn): no vertical grid and no x tick labels, eight y tick
/// labels written by `y_fmt`, the y axis titled `y_desc`; in the house
/// style ([`house_mesh`]).
pub(crate) fn columns_mesh<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    y_fmt: &dyn Fn(&f64) -> String,
    y_desc: &str,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    house_mesh(
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .y_labels(8)
            .y_label_formatter(&y_fmt)
            .y_desc(y_desc),
    )
    .draw()
}

/// The embedded font at `size` pixels rounded to an even number, in
/// the ink colour.
///
/// Even sizes only: plotters' `ab_glyph` text backend places each glyph at
/// `(size / 2 + top of its pixel box) as i32`, which truncates toward zero.
/// At an odd size the half pixel is dropped upward for a glyph that sits on
/// the baseline and its top above the half-height (a full stop: its box
/// top is below the centre line) but downward for one that rises above it
/// (a digit), so the full stop of "29.8%" came out a pixel high, reading
/// as a raised dot "29·8%". At an even size `size / 2` is whole and every
/// glyph keeps the baseline.
pub fn font(size: f64) -> TextStyle<'static> {
    (FONT_FAMILY, even_px(size)).into_font().color(&INK)
}

/// `size` rounded to the nearest even whole number of pixels, at least 2.
pub fn even_px(size: f64) -> f64 {
    ((size / 2.0).round() * 2.0).max(2.0)
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

/// A drawing error as an I/O error, for the files that fail to render.
pub(crate) fn other(e: impl std::fmt::Debug) -> io::Error {
    io::Error::other(format!("cannot draw the plot: {e:?}"))
}

/// The size of `root` in pixels, as the `i32` coordinates drawing uses.
pub(crate) fn pixel_size<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>) -> (i32, i32) {
    let (w, h) = root.dim_in_pixel();
    (w as i32, h as i32)
}

/// Draws a 95% interval as a whisker onto a chart's plotting area: a
/// vertical line at `x` from `lo` to `hi`, capped at both ends by a line
/// `cap` wide on each side, in the ink colour.
pub(crate) fn draw_whisker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    x: f64,
    (lo, hi): (f64, f64),
    cap: f64,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let whisker = INK.stroke_width(2);
    area.draw(&PathElement::new(vec![(x, lo), (x, hi)], whisker))?;
    area.draw(&PathElement::new(
        vec![(x - cap, lo), (x + cap, lo)],
        whisker,
    ))?;
    area.draw(&PathElement::new(
        vec![(x - cap, hi), (x + cap, hi)],
        whisker,
    ))
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

/// The subtitle: variant, system and edition, seed, trials.
pub(crate) fn subtitle(run: &ScenarioRun, course: &CourseRun) -> String {
    let mut parts = Vec::new();
    if !course.variant.is_empty() {
        parts.push(course.variant.clone());
    }
    parts.push(system_text(run));
    parts.push(format!("seed {}", run.id.seed));
    parts.push(trials_note(course.tally.trials));
    parts.extend(set_parts(run));
    parts.join("  ·  ")
}

/// "1,000,000 trials", or "exact, no trials" for a run without Monte Carlo
/// (`--method exact`).
pub fn trials_note(trials: u64) -> String {
    if trials == 0 {
        "exact, no trials".to_string()
    } else {
        format!("{} trials", thousands(trials))
    }
}

/// The system and its edition for a chart's subtitle: `mpbs (series)`;
/// the system alone when the run's variants use several editions (the
/// variant label then names the edition).
pub(crate) fn system_text(run: &ScenarioRun) -> String {
    match run.id.editions.as_slice() {
        [e] => format!("{} ({e})", run.id.system),
        _ => run.id.system.clone(),
    }
}

/// Each `--set` of the run, for a subtitle: `--set units.pike.terrain=woods`.
pub(crate) fn set_parts(run: &ScenarioRun) -> Vec<String> {
    run.sets.iter().map(|s| format!("--set {s}")).collect()
}

/// The result of drawing onto a plotters area.
pub(crate) type DrawResult<E> = Result<(), DrawingAreaErrorKind<E>>;

/// Draws a chart's header and returns its height in pixels: `title`
/// wrapped onto at most two lines (the second cut with an ellipsis if the
/// title is longer still), then `subtitle` wrapped onto at most two lines
/// the same way, each within the width of `root` less a 20-pixel margin
/// either side. A short title and subtitle take 76 pixels.
pub(crate) fn draw_header<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    subtitle: &str,
) -> Result<i32, DrawingAreaErrorKind<DB::ErrorType>> {
    let w = root.dim_in_pixel().0 as i32;
    let title_style = font(24.0);
    let sub_style = font(16.0).color(&MUTED);
    let max_text = (w - 40).max(20) as u32;
    let mut y = 12;
    for line in wrap_lines(root, title, &title_style, max_text, 2) {
        root.draw(&Text::new(line, (20, y), title_style.clone()))?;
        y += 30;
    }
    y += 2;
    for line in wrap_lines(root, subtitle, &sub_style, max_text, 2) {
        root.draw(&Text::new(line, (20, y), sub_style.clone()))?;
        y += 20;
    }
    Ok(y.max(76))
}

/// `text` word-wrapped into at most `max_lines` lines of at most `max`
/// pixels, the last line cut with an ellipsis when text remains. Linear in
/// the length of the text: only the lines kept are measured.
pub(crate) fn wrap_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle,
    max: u32,
    max_lines: usize,
) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut rest: &str = text;
    while !rest.is_empty() && lines.len() + 1 < max_lines {
        if width(area, rest, style) <= max {
            break;
        }
        // The longest prefix that fits, then back to the last break
        // (space, dash, slash) in it, if there is one.
        let cut = fit(area, rest, style, max);
        let kept = cut.strip_suffix('…').unwrap_or(&cut);
        let n = kept.len();
        if n == 0 {
            break;
        }
        // After " — " (scenario, then course) if it is in the second half
        // of the line, else after the last space, dash or slash.
        let after = |i: usize, sep: &str| i + sep.len();
        let at = rest[..n]
            .rfind(" — ")
            .map(|i| after(i, " — "))
            .filter(|&i| i > n / 2)
            .or_else(|| {
                rest[..n]
                    .rfind([' ', '-', '/'])
                    .map(|i| i + 1)
                    .filter(|&i| i > n / 3)
            })
            .unwrap_or(n);
        lines.push(rest[..at].trim_end().to_string());
        rest = rest[at..].trim_start();
    }
    if !rest.is_empty() {
        lines.push(fit(area, rest, style, max));
    }
    lines
}

/// Draws wrapped labels under an axis at `axis_y`: label `i` centred on
/// `x_of(i)`, its lines `line_h` pixels apart in a font of `size`.
pub(crate) fn draw_axis_labels<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    wrapped: &[Vec<String>],
    size: f64,
    line_h: i32,
    axis_y: i32,
    x_of: impl Fn(usize) -> i32,
) -> DrawResult<DB::ErrorType> {
    let style = font(size).pos(Pos::new(HPos::Center, VPos::Top));
    for (i, lines) in wrapped.iter().enumerate() {
        for (k, line) in lines.iter().enumerate() {
            root.draw(&Text::new(
                line.clone(),
                (x_of(i), axis_y + 10 + k as i32 * line_h),
                style.clone(),
            ))?;
        }
    }
    Ok(())
}

/// Width in pixels of `text` in `style`.
pub(crate) fn width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle,
) -> u32 {
    area.estimate_text_size(text, style).map_or(0, |(w, _)| w)
}

/// `text` shortened with an ellipsis to at most `max` pixels.
///
/// The longest prefix that fits is found by bisection over the prefix
/// length (a prefix is never wider than a longer one), so a name of
/// thousands of characters is measured a dozen times, not once per
/// character.
pub fn fit<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle,
    max: u32,
) -> String {
    if width(area, text, style) <= max {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let cut = |n: usize| chars[..n].iter().collect::<String>() + "…";
    // The widest prefix shown is `max` pixels; at least one pixel a
    // character bounds the search.
    let (mut lo, mut hi) = (0usize, chars.len().min(max as usize + 1));
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if width(area, &cut(mid), style) <= max {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    if lo == 0 { "…".into() } else { cut(lo) }
}

/// Pieces of a label that may end a line: after a dash, underscore, slash
/// or space.
#[doc(hidden)]
pub fn tokens(label: &str) -> Vec<String> {
    super::pieces_after(label, &['-', '_', '/', ' '])
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

/// The corners of a step curve of `P(X >= k)` through the points `(xs[i],
/// ys[i])`: between two values the curve keeps the level of the larger
/// (`P(X >= x)` for `x` in `(k - 1, k]` is `P(X >= k)`), so it drops at
/// each value rather than sloping between them.
pub(crate) fn at_least_steps(xs: &[f64], ys: &[f64]) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(2 * xs.len());
    for (i, (&x, &y)) in xs.iter().zip(ys).enumerate() {
        if !y.is_finite() {
            continue;
        }
        if i > 0 {
            out.push((xs[i - 1], y));
        }
        out.push((x, y));
    }
    out
}

/// The corners of a step curve of `P(T <= t)` through `(xs[i], ys[i])`:
/// the level of a turn holds until the next turn, where it rises.
pub(crate) fn cumulative_steps(xs: &[f64], ys: &[f64]) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(2 * xs.len());
    for (i, (&x, &y)) in xs.iter().zip(ys).enumerate() {
        if !y.is_finite() {
            continue;
        }
        if i > 0 && ys[i - 1].is_finite() {
            out.push((x, ys[i - 1]));
        }
        out.push((x, y));
    }
    out
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
