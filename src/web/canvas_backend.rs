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
//!
//! Consecutive strokes of one colour and width are stroked as one `Path2D` (each a subpath):
//! plotters draws a dashed line as one `draw_path` per dash (a dotted line across a chart is
//! ~100 strokes; with the fleet's committed lines, hundreds per price change). Anything else
//! drawn strokes them first, so the order of what is painted is plotters'.

use std::cell::RefCell;

use plotters::prelude::*;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontTransform,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, Path2d};

/// plotters-canvas' error type (not exported by name).
type CanvasError = <CanvasBackend as DrawingBackend>::ErrorType;

/// `CanvasBackend` with layout-free text measurement.
pub struct ChartBackend {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
    /// The font, text alignment and baseline last set on the context (empty: not set yet).
    text_state: RefCell<(String, &'static str, &'static str)>,
    /// Strokes not painted yet: their path data, colour and width (see the module's doc).
    strokes: RefCell<Option<(String, BackendColor, u32)>>,
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
            strokes: RefCell::new(None),
        })
    }

    /// Stroke the strokes held back (`draw_path`), before anything else is drawn.
    fn flush(&self) {
        let Some((d, color, width)) = self.strokes.borrow_mut().take() else {
            return;
        };
        if let Ok(path) = Path2d::new_with_path_string(&d) {
            self.context.set_stroke_style_str(&css_colour(color));
            self.context.set_line_width(f64::from(width));
            self.context.stroke_with_path(&path);
        }
    }

    /// Copy `picture` (a canvas of the same size: a chart's base) onto the canvas.
    pub fn copy(&self, picture: &HtmlCanvasElement) {
        self.flush();
        let _ = self
            .context
            .draw_image_with_html_canvas_element(picture, 0.0, 0.0);
    }

    /// Fill the points as a polygon, in one `Path2D` (not generic: one copy for every kind
    /// of polygon plotters fills).
    fn fill_path(&self, points: &[BackendCoord], color: BackendColor) {
        if color.alpha == 0.0 {
            return;
        }
        let Some(path) = svg_path(points.iter().copied(), true)
            .and_then(|d| Path2d::new_with_path_string(&d).ok())
        else {
            return;
        };
        self.context.set_fill_style_str(&css_colour(color));
        self.context.fill_with_path_2d(&path);
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

impl Drop for ChartBackend {
    /// Strokes still held back are painted (a drawing that ends without `present`).
    fn drop(&mut self) {
        self.flush();
    }
}

/// Whether two colours are the same (`BackendColor` has no `PartialEq`).
fn same_colour(a: BackendColor, b: BackendColor) -> bool {
    a.rgb == b.rgb && a.alpha == b.alpha
}

/// `rgba(r,g,b,a)`, as plotters-canvas writes a colour.
fn css_colour(color: BackendColor) -> String {
    let (r, g, b) = color.rgb;
    format!("rgba({r},{g},{b},{})", color.alpha)
}

/// The points as an SVG path (`M x y L x y x y …`, closed with `Z` for a polygon), in the
/// backend's integer pixels; `None` without points.
fn svg_path(points: impl IntoIterator<Item = BackendCoord>, close: bool) -> Option<String> {
    let mut out = String::new();
    for (i, (x, y)) in points.into_iter().enumerate() {
        out.push_str(match i {
            0 => "M",
            1 => "L",
            _ => " ",
        });
        push_int(&mut out, x);
        out.push(' ');
        push_int(&mut out, y);
    }
    if out.is_empty() {
        return None;
    }
    if close {
        out.push('Z');
    }
    Some(out)
}

/// `v` in decimal, without `core::fmt` (ten thousand of them per chart).
fn push_int(out: &mut String, v: i32) {
    if v < 0 {
        out.push('-');
    }
    let mut digits = [0u8; 10];
    let (mut n, mut i) = (v.unsigned_abs(), digits.len());
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        out.push(char::from(d));
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
        self.flush();
        self.inner.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.flush();
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.flush();
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.flush();
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    /// As plotters-canvas strokes a path (colour, width), through one `Path2D`.
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        let (color, width) = (style.color(), style.stroke_width());
        if color.alpha == 0.0 {
            return Ok(());
        }
        let Some(d) = svg_path(path, false) else {
            return Ok(());
        };
        let mut strokes = self.strokes.borrow_mut();
        match strokes.as_mut() {
            Some((all, c, w)) if same_colour(*c, color) && *w == width => {
                all.push(' ');
                all.push_str(&d);
            }
            _ => {
                drop(strokes);
                self.flush();
                *self.strokes.borrow_mut() = Some((d, color, width));
            }
        }
        Ok(())
    }

    /// As plotters-canvas fills a polygon, through one `Path2D`.
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.flush();
        let points: Vec<BackendCoord> = vert.into_iter().collect();
        self.fill_path(&points, style.color());
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.flush();
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        // As plotters-canvas draws it (rotation, anchor, colour), with the font cached.
        self.flush();
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
        self.context.set_fill_style_str(&css_colour(color));
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

#[cfg(test)]
mod tests {
    use super::{push_int, svg_path};

    #[test]
    fn a_path_is_written_as_the_points_it_joins() {
        assert_eq!(
            svg_path([(0, 5), (10, -3), (2147483647, -2147483648)], false).as_deref(),
            Some("M0 5L10 -3 2147483647 -2147483648")
        );
        assert_eq!(
            svg_path([(1, 2), (3, 4), (5, 6)], true).as_deref(),
            Some("M1 2L3 4 5 6Z")
        );
        assert_eq!(svg_path([(7, 8)], false).as_deref(), Some("M7 8"));
        assert_eq!(svg_path(std::iter::empty(), true), None);
    }

    #[test]
    fn integers_are_written_as_format_writes_them() {
        for v in [0, 9, 10, -1, -10, 99_999, i32::MAX, i32::MIN, 1_000_000_007] {
            let mut s = String::new();
            push_int(&mut s, v);
            assert_eq!(s, v.to_string());
        }
    }
}
