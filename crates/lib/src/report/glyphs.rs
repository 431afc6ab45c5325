//! Text drawn onto a bitmap with each glyph rasterised once per process.
//!
//! Plotters' bitmap backend draws text through the `ab_glyph` font:
//! every character of every label is outlined and rasterised again, which
//! was about a third of the time a chart took to draw. [`Glyphs`] wraps
//! the bitmap backend and draws the embedded font's text with the same
//! steps (kerning, advances, each glyph's coverage, its vertical shift, the
//! anchor and rotation of the style, the colour mixed by coverage), the
//! coverage of each (character, size) kept after its first use: the pixels
//! are the ones plotters would set. Text in any other font goes to the
//! wrapped backend.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use ab_glyph::{Font, FontRef, ScaleFont};
use plotters::prelude::*;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};

use super::draw::{FONT, FONT_FAMILY};

/// One glyph at one size: its vertical shift and the coverage of each
/// pixel it touches, relative to its pixel bounds.
struct Glyph {
    y_shift: i32,
    pixels: Vec<(u32, u32, f32)>,
}

/// The embedded font, parsed once.
static FONT_REF: LazyLock<FontRef<'static>> = LazyLock::new(|| {
    FontRef::try_from_slice(FONT).expect("the embedded DejaVu Sans font is a valid TTF")
});

/// Each (character, size in pixels as bits) rasterised so far; `None` for
/// a character without an outline (a space).
type Cache = HashMap<(char, u64), Option<Arc<Glyph>>>;

static CACHE: LazyLock<Mutex<Cache>> = LazyLock::new(|| Mutex::new(HashMap::new()));

/// The glyph of `c` at `size` pixels, rasterised on first use.
fn glyph(c: char, size: f64) -> Option<Arc<Glyph>> {
    let key = (c, size.to_bits());
    if let Some(g) = CACHE.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return g.clone();
    }
    let font = FONT_REF.as_scaled(size as f32);
    let made = font.outline_glyph(font.scaled_glyph(c)).map(|q| {
        let rect = q.px_bounds();
        let mut pixels = Vec::new();
        q.draw(|x, y, c| pixels.push((x, y, c)));
        Arc::new(Glyph {
            y_shift: ((size as f32) / 2.0 + rect.min.y) as i32,
            pixels,
        })
    });
    CACHE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, made.clone());
    made
}

/// Whether text in `family` is drawn in the embedded font (the families
/// [`super::draw::register_font`] registers it under).
fn embedded(family: &str) -> bool {
    family == FONT_FAMILY || family == "sans-serif"
}

/// A bitmap backend whose text in the embedded font is drawn from cached
/// glyphs; everything else is the wrapped backend's.
pub struct Glyphs<'a> {
    inner: BitMapBackend<'a>,
}

impl<'a> Glyphs<'a> {
    /// Wraps `inner`.
    pub fn new(inner: BitMapBackend<'a>) -> Glyphs<'a> {
        Glyphs { inner }
    }
}

type Result<T> =
    std::result::Result<T, DrawingErrorKind<<BitMapBackend<'static> as DrawingBackend>::ErrorType>>;

impl DrawingBackend for Glyphs<'_> {
    type ErrorType = <BitMapBackend<'static> as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<()> {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> Result<()> {
        self.inner.present()
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<()> {
        self.inner.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<()> {
        self.inner.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<()> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<()> {
        self.inner.draw_path(path, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<()> {
        self.inner.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<()> {
        self.inner.fill_polygon(vert, style)
    }
    fn blit_bitmap(&mut self, pos: BackendCoord, (iw, ih): (u32, u32), src: &[u8]) -> Result<()> {
        self.inner.blit_bitmap(pos, (iw, ih), src)
    }
    fn estimate_text_size<TStyle: BackendTextStyle>(
        &self,
        text: &str,
        style: &TStyle,
    ) -> Result<(u32, u32)> {
        self.inner.estimate_text_size(text, style)
    }

    /// Plotters' own `draw_text` (the backend's default) over plotters'
    /// `ab_glyph` font drawing, step for step, with the glyphs cached.
    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> Result<()> {
        if !embedded(style.family().as_str()) {
            return self.inner.draw_text(text, style, pos);
        }
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let ((min_x, min_y), (max_x, max_y)) = style
            .layout_box(text)
            .map_err(|e| DrawingErrorKind::FontError(Box::new(e)))?;
        let (width, height) = (max_x - min_x, max_y - min_y);
        let dx = match style.anchor().h_pos {
            HPos::Left => 0,
            HPos::Right => -width,
            HPos::Center => -width / 2,
        };
        let dy = match style.anchor().v_pos {
            VPos::Top => 0,
            VPos::Center => -height / 2,
            VPos::Bottom => -height,
        };
        let trans = style.transform();
        let (w, h) = self.get_size();
        let size = style.size();
        let font = FONT_REF.as_scaled(size as f32);
        let mut x_shift = 0f32;
        let mut prev = None;
        for c in text.chars() {
            if let Some(pc) = prev {
                x_shift += font.kern(font.glyph_id(pc), font.glyph_id(c));
            }
            prev = Some(c);
            if let Some(g) = glyph(c, size) {
                let xs = x_shift as i32;
                for &(x, y, a) in &g.pixels {
                    let (x, y) = (x as i32 + xs, y as i32 + g.y_shift);
                    let (x, y) = trans.transform(x + dx - min_x, y + dy - min_y);
                    let (x, y) = (pos.0 + x, pos.1 + y);
                    if x >= 0 && x < w as i32 && y >= 0 && y < h as i32 {
                        self.inner.draw_pixel((x, y), color.mix(a as f64))?;
                    }
                }
            }
            x_shift += font.h_advance(font.glyph_id(c));
        }
        Ok(())
    }
}
