//! What every chart of the reports is: a title, a subtitle and a body under
//! them, drawn the same onto a bitmap (`<name>.png`) and into an SVG
//! document (`<name>.svg`). Each chart (the histogram, the at-least,
//! comparison, engagement, sweep and diff charts) says only those; the
//! white page, the header and the two files come from [`Chart`]'s provided
//! methods.

use std::io;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::draw::{DrawResult, SIZE, draw_header, other, register_font, with_svg_title};
use crate::error::Error;

/// The whole area of a chart, on a bitmap or in an SVG document.
pub(crate) type Area<DB> = DrawingArea<DB, Shift>;

/// A chart of the reports.
pub(crate) trait Chart {
    /// Its size in pixels: [`SIZE`] unless the chart says otherwise.
    fn size(&self) -> (u32, u32) {
        SIZE
    }
    /// Its title: the heading drawn and the SVG's `<title>`.
    fn title(&self) -> String;
    /// The line under the title (variant, system, seed, trials, `--set`s).
    fn subtitle(&self) -> String;
    /// Draws everything under the header, which ends `top` pixels down.
    fn body<DB: DrawingBackend>(&self, root: &Area<DB>, top: i32) -> DrawResult<DB::ErrorType>;

    /// Draws the whole chart onto `root`: a white page, the header, the body.
    fn draw<DB: DrawingBackend>(&self, root: &Area<DB>) -> DrawResult<DB::ErrorType> {
        root.fill(&WHITE)?;
        let top = draw_header(root, &self.title(), &self.subtitle())?;
        self.body(root, top)
    }

    /// The chart as an SVG document (what `<name>.svg` holds), with its
    /// title as the document's `<title>`.
    fn svg(&self) -> io::Result<String> {
        register_font();
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, self.size()).into_drawing_area();
            self.draw(&root)
                .and_then(|()| root.present())
                .map_err(other)?;
        }
        Ok(with_svg_title(&svg, &self.title()))
    }

    /// Writes the chart into `out` twice: `<name>.png` and `<name>.svg`.
    fn stage(&self, out: &mut super::Staging, name: &str) -> Result<(), Error> {
        out.with_path(&format!("{name}.png"), |tmp| {
            super::raster::write_png(tmp, self.size(), |root| self.draw(root))
        })?;
        let svg = self
            .svg()
            .map_err(|e| Error::io(out.dir().join(format!("{name}.svg")), e))?;
        out.bytes(&format!("{name}.svg"), svg.as_bytes())
    }
}
