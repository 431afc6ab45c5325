//! Chart legends: entries (`Swatch`: a colour, a line, a whisker, the
//! exact-value diamond, a tick, a dashed line or text alone) laid out in
//! rows that wrap within the space, in the house style of [`super::draw`].

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::draw::{INK, MUTED, draw_diamond_coloured, fit, font, width};

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
