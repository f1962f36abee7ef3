//! The six charts of the page, drawn with plotters.
//!
//! Every chart is a plain data struct built from engine outputs by a pure constructor,
//! a `draw` function generic over the plotters backend (canvas in the browser, SVG in
//! native tests) and a `summary` used as the canvas' text alternative:
//!
//! | chart | data | module |
//! |---|---|---|
//! | 1 usage over time | [`usage::UsageData`] | [`usage`] |
//! | 2 load-duration curve | [`load_duration::LoadDurationData`] | [`load_duration`] |
//! | 3 cost vs committed GPUs | [`cost::CostData`] | [`cost`] |
//! | 4 budget split | [`budget::BudgetData`] | [`budget`] |
//! | 5 break-even without data | [`breakeven::BreakevenData`] | [`breakeven`] |
//! | 6 cumulative cost by term | [`terms::TermsData`] | [`terms`] |
//!
//! Sizes (fonts, strokes, margins) are given in CSS pixels and multiplied by
//! [`ChartStyle::pixel_ratio`], so a canvas sized to its CSS box × devicePixelRatio stays
//! crisp. No drawing function panics: empty or degenerate data draws a short message.

pub mod breakeven;
pub mod budget;
pub mod cost;
pub mod downsample;
mod legend;
pub mod load_duration;
pub mod terms;
pub mod text;
pub mod theme;
pub mod usage;

use plotters::chart::MeshStyle;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::i18n::Lang;
pub(crate) use legend::Legend;
pub use theme::Palette;

/// Why a chart could not be drawn (a backend error, as text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChartError(pub String);

impl std::fmt::Display for ChartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ChartError {}

/// `?` on any plotters result inside a drawing function.
pub(crate) trait OrChart<T> {
    fn chart(self) -> Result<T, ChartError>;
}

impl<T, E: std::fmt::Display> OrChart<T> for Result<T, E> {
    fn chart(self) -> Result<T, ChartError> {
        self.map_err(|e| ChartError(e.to_string()))
    }
}

/// System fonts with CJK fallbacks (no quotes: the value goes into SVG attributes and the
/// canvas `font` shorthand as is).
pub const DEFAULT_FONT: &str =
    "system-ui, -apple-system, Segoe UI, PingFang SC, Microsoft YaHei, Noto Sans CJK SC, sans-serif";

/// How a chart looks: colours, language, currency, font, pixel ratio.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartStyle {
    pub palette: Palette,
    pub lang: Lang,
    /// Currency symbol for money axes ("¥" or "$").
    pub currency: String,
    pub font_family: String,
    /// devicePixelRatio: every size is multiplied by it (clamped to 0.5..=4).
    pub pixel_ratio: f64,
}

impl ChartStyle {
    pub fn new(lang: Lang, currency: &str, dark: bool, pixel_ratio: f64) -> Self {
        Self {
            palette: if dark { Palette::DARK } else { Palette::LIGHT },
            lang,
            currency: currency.to_string(),
            font_family: DEFAULT_FONT.to_string(),
            pixel_ratio,
        }
    }

    /// A font size of `css` pixels in backend pixels.
    pub fn font_px(&self, css: f64) -> f64 {
        css * self.ratio()
    }

    fn ratio(&self) -> f64 {
        if self.pixel_ratio.is_finite() {
            self.pixel_ratio.clamp(0.5, 4.0)
        } else {
            1.0
        }
    }

    /// CSS pixels → backend pixels.
    pub fn px(&self, css: f64) -> u32 {
        (css * self.ratio()).round().max(1.0) as u32
    }

    /// CSS pixels → backend pixels, signed.
    pub fn pxi(&self, css: f64) -> i32 {
        let v = (css * self.ratio()).round() as i32;
        if v == 0 && css != 0.0 {
            css.signum() as i32
        } else {
            v
        }
    }

    /// A text style of `css` pixels in the palette's text colour.
    pub fn font(&self, css: f64) -> TextStyle<'_> {
        // FontFamily::Name, not `(&str, size).into_font()`: plotters' From<&str> lower-cases the
        // name with the full Unicode case tables (11.7 KB of the page).
        FontDesc::new(
            FontFamily::Name(&self.font_family),
            css * self.ratio(),
            FontStyle::Normal,
        )
        .color(&self.palette.text)
    }

    /// A stroke of `css` pixels.
    pub fn stroke(&self, color: RGBColor, css: f64) -> ShapeStyle {
        ShapeStyle {
            color: color.to_rgba(),
            filled: false,
            stroke_width: self.px(css),
        }
    }

    /// Money on an axis: "¥12,000".
    pub fn money(&self, v: f64) -> String {
        let digits = if v.abs() < 10.0 && v != 0.0 { 2 } else { 0 };
        let s = crate::format::number(v.abs(), digits, self.lang);
        if v < 0.0 {
            format!("-{}{s}", self.currency)
        } else {
            format!("{}{s}", self.currency)
        }
    }
}

impl Default for ChartStyle {
    fn default() -> Self {
        ChartStyle::new(Lang::En, "¥", false, 1.0)
    }
}

/// Fill the background; returns false when the area is too small to draw a chart in.
pub(crate) fn prepare<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    style: &ChartStyle,
) -> Result<bool, ChartError> {
    area.fill(&style.palette.background).chart()?;
    Ok(big_enough(area, style))
}

/// Whether the area is large enough to draw a chart in.
pub(crate) fn big_enough<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    style: &ChartStyle,
) -> bool {
    let (w, h) = area.dim_in_pixel();
    w >= style.px(120.0) && h >= style.px(80.0)
}

/// The axes a chart drawn in two layers is drawn on (x `0..x_end`, y `0..y_top`): the base
/// layer (background, axes, the history) and the layer over it (what moves with the plan)
/// are drawn on the same frame, and the base is drawn again when its frame changes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    pub x_end: f64,
    pub y_top: f64,
}

/// A layered chart's `frame` (`usage::frame`): the axes its layers are drawn on, `None`
/// when there is nothing to plot.
pub type FrameFn<DB, T> =
    fn(&DrawingArea<DB, Shift>, &T, &ChartStyle) -> Result<Option<Frame>, ChartError>;

/// A layered chart's layer on its frame (`usage::draw_base`, `usage::draw_over`).
pub type LayerFn<DB, T> =
    fn(&DrawingArea<DB, Shift>, &T, &Frame, &ChartStyle) -> Result<(), ChartError>;

/// A chart drawn in two layers ([`Frame`]), drawn whole on one area (the SVG of the tests;
/// the page draws the layers apart): its frame, then its base and the layer over it; without
/// a frame (too small, no data), the "no data" message.
pub(crate) fn whole<DB: DrawingBackend, T>(
    area: &DrawingArea<DB, Shift>,
    data: &T,
    style: &ChartStyle,
    frame: FrameFn<DB, T>,
    layers: [LayerFn<DB, T>; 2],
) -> Result<(), ChartError> {
    match frame(area, data, style)? {
        Some(f) => {
            let [base, over] = layers;
            base(area, data, &f, style)?;
            over(area, data, &f, style)
        }
        None => no_data(area, style),
    }
}

/// A centred one-line message instead of a chart (empty or invalid data).
pub(crate) fn message<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    style: &ChartStyle,
    text: &str,
) -> Result<(), ChartError> {
    let (w, h) = area.dim_in_pixel();
    let font =
        style
            .font(14.0)
            .color(&style.palette.muted)
            .pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Center,
                plotters::style::text_anchor::VPos::Center,
            ));
    area.draw_text(text, &font, (w as i32 / 2, h as i32 / 2))
        .chart()
}

/// A finite value or `fallback`.
pub(crate) fn finite_or(v: f64, fallback: f64) -> f64 {
    if v.is_finite() {
        v
    } else {
        fallback
    }
}

/// An axis range `0..top` that is never empty: a little headroom above `max`.
pub(crate) fn upper(max: f64) -> f64 {
    let m = finite_or(max, 0.0).max(0.0);
    if m <= 0.0 {
        1.0
    } else {
        m * 1.08
    }
}

/// Format a number for an axis tick in the current language.
pub(crate) fn tick(v: f64, lang: Lang) -> String {
    let a = v.abs();
    let decimals = if a == 0.0 || a >= 100.0 {
        0
    } else if a >= 1.0 {
        1
    } else {
        2
    };
    crate::format::number_trim(v, decimals, lang)
}

/// The chart context every chart draws on: f64 × f64.
pub(crate) type Plot<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// `lo..hi`, widened when empty or not finite.
pub(crate) fn span(lo: f64, hi: f64) -> std::ops::Range<f64> {
    let lo = finite_or(lo, 0.0);
    let hi = finite_or(hi, lo + 1.0);
    if hi > lo {
        lo..hi
    } else {
        lo..lo + 1.0
    }
}

/// The plotting area's width, device pixels, that `cartesian` leaves on `area`.
pub(crate) fn plot_width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    style: &ChartStyle,
    y_label_css: f64,
) -> i32 {
    let used = style.px(CHART_MARGIN) + style.px(CHART_MARGIN_RIGHT) + style.px(y_label_css);
    area.dim_in_pixel().0 as i32 - used as i32
}

/// A polyline's vertices and `per_segment − 1` evenly spaced points between each pair: what
/// `Legend::draw_clear` must keep clear of.
pub(crate) fn along(points: &[(f64, f64)], per_segment: usize) -> Vec<(f64, f64)> {
    let k = per_segment.max(1);
    let mut out = Vec::with_capacity(points.len() * k);
    for pair in points.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        for i in 0..k {
            let t = i as f64 / k as f64;
            out.push((x0 + (x1 - x0) * t, y0 + (y1 - y0) * t));
        }
    }
    out.extend(points.last().copied());
    out
}

/// The plotting area's height, device pixels, that `cartesian` leaves on `area`.
pub(crate) fn plot_height<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    style: &ChartStyle,
) -> i32 {
    let used = 2 * style.px(CHART_MARGIN) + style.px(CHART_X_LABELS);
    area.dim_in_pixel().1 as i32 - used as i32
}

/// How far an axis must run past the data's end (`content_end`, axis units) so that a
/// legend `need_px` long fits beyond the data on a plotting area `plot_px` long: the data
/// then ends at `plot_px − need_px`. Clamped to `[min, max]`; with no room at all, `max`
/// (the legend then overlaps, as on any canvas too small for it).
pub(crate) fn axis_end_for_legend(
    content_end: f64,
    plot_px: f64,
    need_px: f64,
    min: f64,
    max: f64,
) -> f64 {
    let room = plot_px - need_px;
    if room <= 0.0 {
        return max;
    }
    (content_end * plot_px / room).clamp(min, max)
}

/// `cartesian`'s outer margins and x label band, CSS px.
const CHART_MARGIN: f64 = 10.0;
const CHART_MARGIN_RIGHT: f64 = 18.0;
const CHART_X_LABELS: f64 = 46.0;

/// A cartesian chart with the page's margins; `y_label_css` is the width kept for the
/// y tick labels (money needs more).
pub(crate) fn cartesian<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    style: &ChartStyle,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
    y_label_css: f64,
) -> Result<Plot<'a, DB>, ChartError> {
    ChartBuilder::on(area)
        .margin(style.px(CHART_MARGIN))
        .margin_right(style.px(CHART_MARGIN_RIGHT))
        .x_label_area_size(style.px(CHART_X_LABELS))
        .y_label_area_size(style.px(y_label_css))
        .build_cartesian_2d(span(x.start, x.end), span(y.start, y.end))
        .chart()
}

/// Grid, axes, tick labels and axis titles.
pub(crate) fn mesh<'a, DB: DrawingBackend + 'a>(
    chart: &mut Plot<'a, DB>,
    style: &ChartStyle,
    x_desc: &str,
    y_desc: &str,
    x_labels: usize,
    x_fmt: &dyn Fn(&f64) -> String,
    y_fmt: &dyn Fn(&f64) -> String,
) -> Result<(), ChartError> {
    house_mesh(&mut chart.configure_mesh(), style)
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_labels(x_labels)
        .y_labels(6)
        .x_label_formatter(x_fmt)
        .y_label_formatter(y_fmt)
        .draw()
        .chart()
}

/// The charts' one mesh style: muted tick labels, axis titles, a light grid, small ticks.
pub(crate) fn house_mesh<'m, 'a, 'b, DB: DrawingBackend>(
    mesh: &'m mut MeshStyle<'a, 'b, RangedCoordf64, RangedCoordf64, DB>,
    style: &'b ChartStyle,
) -> &'m mut MeshStyle<'a, 'b, RangedCoordf64, RangedCoordf64, DB> {
    let p = &style.palette;
    mesh.label_style(style.font(11.5).color(&p.muted))
        .axis_desc_style(style.font(12.5))
        .axis_style(style.stroke(p.muted, 1.0))
        .bold_line_style(style.stroke(p.grid, 1.0))
        .light_line_style(TRANSPARENT)
        .set_all_tick_mark_size(style.px(4.0))
}

/// A legend swatch: a short line, dashed when `dash` is given (dash, gap in CSS px).
pub(crate) fn swatch<DB: DrawingBackend>(
    style: &ChartStyle,
    shape: ShapeStyle,
    dash: Option<(f64, f64)>,
) -> impl Fn((i32, i32)) -> DynElement<'static, DB, (i32, i32)> {
    let w = style.pxi(22.0);
    let d = dash.map(|(a, b)| (style.pxi(a), style.pxi(b)));
    move |(x, y)| match d {
        Some((a, b)) => DashedPathElement::new(vec![(x, y), (x + w, y)], a, b, shape).into_dyn(),
        None => PathElement::new(vec![(x, y), (x + w, y)], shape).into_dyn(),
    }
}

/// A legend swatch: a filled square.
pub(crate) fn block<DB: DrawingBackend>(
    style: &ChartStyle,
    fill: RGBAColor,
) -> impl Fn((i32, i32)) -> DynElement<'static, DB, (i32, i32)> {
    let s = style.pxi(6.0);
    move |(x, y)| Rectangle::new([(x + s, y - s), (x + 3 * s, y + s)], fill.filled()).into_dyn()
}

/// A horizontal or sloped dashed line in data coordinates.
pub(crate) fn dashed(
    style: &ChartStyle,
    points: Vec<(f64, f64)>,
    shape: ShapeStyle,
    dash: (f64, f64),
) -> DashedLineSeries<std::vec::IntoIter<(f64, f64)>, i32> {
    DashedLineSeries::new(points, style.pxi(dash.0), style.pxi(dash.1), shape)
}

/// Text anchored at `h`/`v` around a data point, moved by `offset` CSS pixels.
#[allow(clippy::too_many_arguments)]
pub(crate) fn label_at<'a, DB: DrawingBackend + 'a>(
    chart: &Plot<'a, DB>,
    style: &ChartStyle,
    text: String,
    at: (f64, f64),
    offset: (f64, f64),
    color: &RGBColor,
    h: plotters::style::text_anchor::HPos,
    v: plotters::style::text_anchor::VPos,
) -> Result<(), ChartError> {
    let font = style
        .font(12.0)
        .color(color)
        .pos(plotters::style::text_anchor::Pos::new(h, v));
    let shift = (style.pxi(offset.0), style.pxi(offset.1));
    chart
        .plotting_area()
        .draw(&(EmptyElement::at(at) + Text::new(text, shift, font)))
        .chart()
}

/// How to anchor `label_at`'s text over `at` so it stays inside the plotting area (centred,
/// unless that would cross the left or right edge: a marker at the first or last N), and
/// the horizontal pixels it then covers.
pub(crate) fn inside_anchor<'a, DB: DrawingBackend + 'a>(
    chart: &Plot<'a, DB>,
    style: &ChartStyle,
    text: &str,
    at: (f64, f64),
) -> Result<(HPos, std::ops::Range<i32>), ChartError> {
    let plot = chart.plotting_area();
    let (tw, _) = plot.estimate_text_size(text, &style.font(12.0)).chart()?;
    let (tw, half) = (tw as i32, tw as i32 / 2);
    let x = chart.backend_coord(&at).0 - plot.get_base_pixel().0;
    Ok(if x - half < 0 {
        (HPos::Left, x..x + tw)
    } else if x + half > plot.dim_in_pixel().0 as i32 {
        (HPos::Right, x - tw..x)
    } else {
        (HPos::Center, x - half..x + tw - half)
    })
}

/// Background and the "no data" message, for a chart without data.
pub fn no_data<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    if prepare(area, style)? {
        message(area, style, text::words(style.lang).no_data)?;
    }
    area.present().chart()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn along_samples_between_vertices() {
        assert_eq!(
            along(&[(0.0, 0.0), (4.0, 8.0), (4.0, 0.0)], 2),
            vec![(0.0, 0.0), (2.0, 4.0), (4.0, 8.0), (4.0, 4.0), (4.0, 0.0)]
        );
        assert_eq!(along(&[(1.0, 1.0)], 8), vec![(1.0, 1.0)]);
        assert!(along(&[], 8).is_empty());
    }

    /// The x of the legend's text in an SVG drawn with `draw_clear` over `points`.
    fn legend_text_x(points: &[(f64, f64)]) -> i32 {
        let style = ChartStyle::new(Lang::En, "$", false, 1.0);
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (400, 300)).into_drawing_area();
            let chart = cartesian(&area, &style, 0.0..10.0, 0.0..10.0, 52.0).unwrap();
            let mut legend = Legend::new();
            legend.add("LEGENDX", block(&style, RGBColor(0, 0, 0).to_rgba()));
            use SeriesLabelPosition::{LowerLeft, LowerRight};
            legend
                .draw_clear(&chart, &style, &[LowerRight, LowerLeft], points)
                .unwrap();
            area.present().unwrap();
        }
        let at = svg.find("LEGENDX").unwrap_or_else(|| panic!("{svg}"));
        let tag = &svg[svg[..at].rfind("<text").unwrap()..at];
        let x = tag.split("x=\"").nth(1).unwrap().split('"').next().unwrap();
        x.parse().unwrap()
    }

    #[test]
    fn the_legend_takes_the_corner_the_data_leaves_free() {
        // Nothing drawn: the first corner (lower right).
        let free = legend_text_x(&[]);
        assert!(free > 200, "{free}");
        // A line along the bottom right: the lower left is free, the legend goes there.
        let right = along(&[(6.0, 0.5), (10.0, 0.5)], 8);
        let moved = legend_text_x(&right);
        assert!(moved < 200, "{moved}");
        // Lines in both lower corners: the one covering fewer points (the left, 3) wins.
        let mut both = right.clone();
        both.extend([(0.5, 0.5), (1.0, 0.5), (1.5, 0.5)]);
        assert!(legend_text_x(&both) < 200);
    }

    #[test]
    fn headroom_makes_the_data_end_where_the_legend_begins() {
        // A phone's usage chart: 194 px tall plot, legend 84 px + 2 × 5 px gaps, data up to
        // 10 GPUs: 10 · 194 / (194 − 94) = 19.4, so 10 sits 94 px below the top.
        assert!((axis_end_for_legend(10.0, 194.0, 94.0, 11.5, 30.0) - 19.4).abs() < 1e-12);
        // A desktop's: 254 px: 10 · 254 / 160 = 15.875.
        assert!((axis_end_for_legend(10.0, 254.0, 94.0, 11.5, 30.0) - 15.875).abs() < 1e-12);
        // A small legend still leaves the minimum headroom; no room at all gives the maximum.
        assert_eq!(axis_end_for_legend(10.0, 1000.0, 20.0, 11.5, 30.0), 11.5);
        assert_eq!(axis_end_for_legend(10.0, 90.0, 94.0, 11.5, 30.0), 30.0);
        assert_eq!(axis_end_for_legend(10.0, 100.0, 90.0, 11.5, 30.0), 30.0);
    }
}
