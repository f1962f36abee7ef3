//! The charts' canvas backend: plotters-canvas' `CanvasBackend` for drawing, but text is
//! measured with the 2D context's `measureText`.
//!
//! plotters' own measurement on wasm appends a `<span style="…">` to the page and reads its
//! `offsetWidth`/`offsetHeight` for every label, which forces a layout of the whole page each
//! time (measured: 4 ms of every price change with a year loaded), needs
//! `style-src-attr 'unsafe-inline'` in the CSP, and unwraps what the browser returns.
//! `measureText` needs no layout and no DOM.
//!
//! Text is drawn here too, setting the context's font, alignment and baseline only when they
//! change: plotters-canvas sets all three before every label, and Chromium parses the CSS
//! font string each time (measured: `set font` was the most expensive canvas call of a price
//! change with the charts in view). Nothing else sets those three on this context.

use std::cell::RefCell;

use plotters::prelude::*;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontTransform,
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
    /// The font, text alignment and baseline last set on the context (empty: not set yet).
    text_state: RefCell<(String, &'static str, &'static str)>,
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
        Some(Self {
            inner,
            context,
            text_state: RefCell::new((String::new(), "", "")),
        })
    }

    /// Set the context's font (and, when given, alignment and baseline) unless already set.
    fn set_text_state(&self, font: String, align_baseline: Option<(&'static str, &'static str)>) {
        let mut state = self.text_state.borrow_mut();
        if state.0 != font {
            self.context.set_font(&font);
            state.0 = font;
        }
        if let Some((align, baseline)) = align_baseline {
            if state.1 != align {
                self.context.set_text_align(align);
                state.1 = align;
            }
            if state.2 != baseline {
                self.context.set_text_baseline(baseline);
                state.2 = baseline;
            }
        }
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
        // As plotters-canvas draws it (rotation, anchor, colour), with the font cached.
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let degree = match style.transform() {
            FontTransform::None => 0.0,
            FontTransform::Rotate90 => 90.0,
            FontTransform::Rotate180 => 180.0,
            FontTransform::Rotate270 => 270.0,
        } / 180.0
            * std::f64::consts::PI;
        let (mut x, mut y) = (f64::from(pos.0), f64::from(pos.1));
        let before = (degree != 0.0).then(|| self.text_state.borrow().clone());
        if degree != 0.0 {
            self.context.save();
            let _ = self.context.translate(x, y);
            let _ = self.context.rotate(degree);
            (x, y) = (0.0, 0.0);
        }
        let baseline = match style.anchor().v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        };
        let align = match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        };
        self.set_text_state(css_font(style), Some((align, baseline)));
        let (r, g, b) = color.rgb;
        self.context
            .set_fill_style_str(&format!("rgba({r},{g},{b},{})", color.alpha));
        // fillText does not throw for a 2D context with finite coordinates; a label that
        // could not be drawn must not cost the rest of the chart either.
        let _ = self.context.fill_text(text, x, y);
        if let Some(before) = before {
            // restore() puts back the text state of save(), which the cache held then.
            self.context.restore();
            *self.text_state.borrow_mut() = before;
        }
        Ok(())
    }

    /// Width from `measureText`; height from the font's ascent + descent (what the span's
    /// line box measured), or 1.2 × the size where the browser lacks those metrics.
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        self.set_text_state(css_font(style), None);
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
