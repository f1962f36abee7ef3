//! The charts' canvas backend: plotters-canvas' `CanvasBackend` for drawing, but text is
//! measured with the 2D context's `measureText`.
//!
//! plotters' own measurement on wasm appends a `<span style="…">` to the page and reads its
//! `offsetWidth`/`offsetHeight` for every label, which forces a layout of the whole page each
//! time (measured: 4 ms of every price change with a year loaded), needs
//! `style-src-attr 'unsafe-inline'` in the CSP, and unwraps what the browser returns.
//! `measureText` needs no layout and no DOM.

use plotters::prelude::*;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// plotters-canvas' error type (not exported by name).
type CanvasError = <CanvasBackend as DrawingBackend>::ErrorType;

/// `CanvasBackend` with layout-free text measurement.
pub struct ChartBackend {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
}

impl ChartBackend {
    /// `None` when the canvas has no 2D context.
    pub fn new(canvas: HtmlCanvasElement) -> Option<Self> {
        let context = canvas
            .get_context("2d")
            .ok()??
            .dyn_into::<CanvasRenderingContext2d>()
            .ok()?;
        let inner = CanvasBackend::with_canvas_object(canvas)?;
        Some(Self { inner, context })
    }
}

/// The CSS `font` shorthand plotters-canvas uses when it draws the same text.
fn css_font<S: BackendTextStyle>(style: &S) -> String {
    format!(
        "{} {}px {}",
        style.style().as_str(),
        style.size(),
        style.family().as_str()
    )
}

impl DrawingBackend for ChartBackend {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_path(path, style)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.fill_polygon(vert, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_text(text, style, pos)
    }

    /// Width from `measureText`; height from the font's ascent + descent (what the span's
    /// line box measured), or 1.2 × the size where the browser lacks those metrics.
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        self.context.set_font(&css_font(style));
        let (width, height) = match self.context.measure_text(text) {
            Ok(m) => {
                let h = m.font_bounding_box_ascent() + m.font_bounding_box_descent();
                let h = if h.is_finite() && h > 0.0 {
                    h
                } else {
                    style.size() * 1.2
                };
                (m.width(), h)
            }
            // No metrics: a rough box rather than no chart.
            Err(_) => (
                style.size() * 0.6 * text.chars().count() as f64,
                style.size() * 1.2,
            ),
        };
        let px = |v: f64| {
            if v.is_finite() && v > 0.0 {
                v.ceil() as u32
            } else {
                0
            }
        };
        Ok((px(width), px(height)))
    }
}
