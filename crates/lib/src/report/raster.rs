//! Writing a chart as a PNG file: plotters draws into an RGB buffer in
//! memory and the `png` crate encodes it. Plotters' own file target would
//! encode through the `image` crate, a large build for one format.

use std::io;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::draw::other;
use super::glyphs::Glyphs;

/// Draws a chart of `size` pixels with `draw` (its text from cached glyphs,
/// [`Glyphs`]) and writes it to `path` as an 8-bit RGB PNG.
///
/// Every row is filtered with Paeth and compressed fast. Adaptive filtering
/// (plotters' file target: every filter tried on every row) took over 40% of
/// a report's CPU for files only about 6% smaller; the pixels are the same.
pub fn write_png<E: std::fmt::Debug>(
    path: &Path,
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<Glyphs<'_>, Shift>) -> Result<(), E>,
) -> io::Result<()> {
    let (width, height) = size;
    let mut rgb = vec![0u8; width as usize * height as usize * 3];
    {
        let root = Glyphs::new(BitMapBackend::with_buffer(&mut rgb, size)).into_drawing_area();
        draw(&root).map_err(other)?;
        root.present().map_err(other)?;
    }
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    encoder.set_filter(png::FilterType::Paeth);
    encoder.set_adaptive_filter(png::AdaptiveFilterType::NonAdaptive);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&rgb)?;
    writer.finish()?;
    std::fs::write(path, bytes)
}
