//! Chart 2: the load-duration curve. Integer GPU levels k = 1…K sorted by how many hours
//! a month they are busy (a falling step curve), the break-even line H* across it, and the
//! optimal N* marked where the curve drops below H*: levels left of N* pay for a monthly
//! GPU, levels right of it are cheaper on demand.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::downsample::{column_bounds, minmax_columns};
use super::text::words;
use super::{
    axis_end_for_legend, big_enough, cartesian, dashed, finite_or, label_at, mesh, plot_height,
    swatch, tick, upper, ChartError, ChartStyle, Frame, Legend, OrChart,
};
use crate::core::commitment::LoadDuration;
use crate::core::plan::PlanOutputs;
use crate::format::number_trim;
use crate::i18n::Lang;

/// What chart 2 draws.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadDurationData {
    /// Busy hours per month of level k = 1…K, in order (non-increasing).
    pub monthly_hours: Vec<f64>,
    /// H*: break-even hours per month.
    pub breakeven_hours: f64,
    /// H: hours in a month (the most a level can be busy).
    pub hours_per_month: f64,
    /// N*: levels busy more than H* a month.
    pub n_star: u32,
}

impl LoadDurationData {
    /// From the engine's § 3 result.
    pub fn new(ld: &LoadDuration) -> Self {
        let monthly_hours: Vec<f64> = ld
            .levels
            .iter()
            .map(|l| finite_or(l.monthly_hours, 0.0).max(0.0))
            .collect();
        let h = ld.month_scale * ld.history_hours;
        let hours_per_month = if h.is_finite() && h > 0.0 {
            h
        } else {
            monthly_hours.first().copied().unwrap_or(0.0)
        };
        Self {
            monthly_hours,
            breakeven_hours: finite_or(ld.breakeven_hours, 0.0).max(0.0),
            hours_per_month,
            n_star: ld.levels.iter().filter(|l| l.pays_monthly).count() as u32,
        }
    }

    /// `None` when the section has an input error.
    pub fn from_outputs(outputs: &PlanOutputs) -> Option<Self> {
        outputs.load_duration.as_ref().ok().map(Self::new)
    }

    /// Number of levels K.
    pub fn levels(&self) -> usize {
        self.monthly_hours.len()
    }
}

/// The text alternative.
pub fn summary(data: &LoadDurationData, lang: Lang, _currency: &str) -> String {
    let h = number_trim(data.breakeven_hours, 1, lang);
    let k = data.levels();
    match lang {
        Lang::En => format!(
            "Load-duration curve: {k} {}; break-even {h} h per month; optimal {} {}",
            if k == 1 { "level" } else { "levels" },
            data.n_star,
            if data.n_star == 1 { "GPU" } else { "GPUs" },
        ),
        Lang::Zh => format!(
            "负荷持续曲线：{k} 个档位；盈亏平衡每月 {h} 小时；最优 {} 张 GPU",
            data.n_star
        ),
    }
}

/// Draw chart 2: its [`frame`], then [`draw_base`] and [`draw_over`] on the same area (the
/// page draws the two on two canvases, the base redrawn only when its part changes).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &LoadDurationData,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    super::whole(area, data, style, frame, [draw_base, draw_over])
}

/// The legend (the same for every price).
fn legend<'a, DB: DrawingBackend + 'a>(style: &ChartStyle) -> Legend<'a, DB> {
    let w = words(style.lang);
    let p = &style.palette;
    let r = style.px(5.0) as i32;
    let mut legend = Legend::new();
    legend.add(
        w.ld_series,
        swatch(style, style.stroke(p.series, 2.0), None),
    );
    legend.add(
        w.breakeven,
        swatch(style, style.stroke(p.breakeven, 2.0), Some((5.0, 3.0))),
    );
    legend.add(w.optimal, {
        let shape = style.stroke(p.optimal, 2.0);
        move |(x, y)| Circle::new((x + r * 2, y), r, shape)
    });
    legend
}

/// The highest value the plot shows: the busiest level, H (hours in a month) or H*.
fn top_value(data: &LoadDurationData) -> f64 {
    data.monthly_hours
        .iter()
        .copied()
        .fold(finite_or(data.hours_per_month, 0.0), f64::max)
        .max(finite_or(data.breakeven_hours, 0.0))
}

/// The axes chart 2 is drawn on: levels `0..K`, hours `0..y_top` (headroom for the legend
/// above the data). `None` when there is nothing to plot (too small, no levels).
pub fn frame<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &LoadDurationData,
    style: &ChartStyle,
) -> Result<Option<Frame>, ChartError> {
    if !big_enough(area, style) || data.monthly_hours.is_empty() {
        return Ok(None);
    }
    let top = top_value(data);
    let (_, legend_h) = legend::<DB>(style).footprint(area, style)?;
    let y_top = axis_end_for_legend(
        top,
        f64::from(plot_height(area, style)),
        legend_h,
        upper(top),
        upper(top) * 3.0,
    );
    Ok(Some(Frame {
        x_end: data.levels() as f64,
        y_top,
    }))
}

/// Whether `a` and `b` draw the same base: the same curve, shaded at the same N*.
pub fn same_base(a: &LoadDurationData, b: &LoadDurationData) -> bool {
    a.monthly_hours == b.monthly_hours && a.n_star == b.n_star
}

/// The plot on `frame`: levels `0..x_end`, hours `0..y_top`.
fn plot<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    frame: &Frame,
    style: &ChartStyle,
) -> Result<super::Plot<'a, DB>, ChartError> {
    cartesian(area, style, 0.0..frame.x_end, 0.0..frame.y_top, 64.0)
}

/// Chart 2's base: background, axes, the curve with its area shaded at N*.
pub fn draw_base<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &LoadDurationData,
    frame: &Frame,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let w = words(style.lang);
    let p = &style.palette;
    let k = frame.x_end;
    area.fill(&p.background).chart()?;
    let mut chart = plot(area, frame, style)?;
    let lang = style.lang;
    let x_fmt = |v: &f64| tick(*v, lang);
    let y_fmt = |v: &f64| tick(*v, lang);
    mesh(&mut chart, style, w.ld_x, w.ld_y, 10, &x_fmt, &y_fmt)?;

    // The step curve: level k spans [k−1, k]. Beyond a point per pixel column, draw the
    // min/max envelope per column instead (the curve is monotone, so nothing is lost).
    let columns = chart.plotting_area().dim_in_pixel().0.max(1) as usize;
    let values = &data.monthly_hours;
    let steps: Vec<(f64, f64)> = if values.len() <= columns {
        let mut pts = Vec::with_capacity(values.len() * 2 + 1);
        for (i, &v) in values.iter().enumerate() {
            pts.push((i as f64, v));
            pts.push((i as f64 + 1.0, v));
        }
        pts
    } else {
        let cols = minmax_columns(values, columns);
        let mut pts = Vec::with_capacity(cols.len() * 2);
        for (i, &(lo, hi)) in cols.iter().enumerate() {
            let (a, b) = column_bounds(values.len(), columns, i);
            pts.push((a as f64, hi));
            pts.push((b as f64, lo));
        }
        pts
    };
    let n_star = (data.n_star as f64).min(k);
    // Area under the curve: darker where levels pay monthly.
    let paid: Vec<(f64, f64)> = steps.iter().copied().filter(|pt| pt.0 <= n_star).collect();
    let rest: Vec<(f64, f64)> = steps.iter().copied().filter(|pt| pt.0 >= n_star).collect();
    if paid.len() > 1 {
        chart
            .draw_series(AreaSeries::new(paid, 0.0, p.series.mix(0.30)))
            .chart()?;
    }
    if rest.len() > 1 {
        chart
            .draw_series(AreaSeries::new(rest, 0.0, p.series.mix(0.12)))
            .chart()?;
    }
    chart
        .draw_series(LineSeries::new(steps, style.stroke(p.series, 2.0)))
        .chart()?;
    area.present().chart()
}

/// Chart 2's lines over its base (nothing else: the base shows through): H* across the
/// levels and N* where the curve crosses it, with their values (they move with the prices),
/// and the legend.
pub fn draw_over<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &LoadDurationData,
    frame: &Frame,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let w = words(style.lang);
    let p = &style.palette;
    let lang = style.lang;
    let k = frame.x_end;
    let h_star = finite_or(data.breakeven_hours, 0.0);
    let mut chart = plot(area, frame, style)?;

    // H*: dashed horizontal line across the levels, with its value.
    let be = style.stroke(p.breakeven, 2.0);
    chart
        .draw_series(dashed(
            style,
            vec![(0.0, h_star), (k, h_star)],
            be,
            (7.0, 4.0),
        ))
        .chart()?;
    label_at(
        &chart,
        style,
        format!("H* = {} {}", number_trim(h_star, 1, lang), w.hours_unit),
        (k, h_star),
        (0.0, -3.0),
        &p.breakeven,
        HPos::Right,
        VPos::Bottom,
    )?;

    // N*: dotted vertical line, a circle where the curve crosses H*, and its value.
    let n_star = (data.n_star as f64).min(k);
    let opt = style.stroke(p.optimal, 1.5);
    chart
        .draw_series(dashed(
            style,
            vec![(n_star, 0.0), (n_star, top_value(data).max(1.0))],
            opt,
            (2.0, 3.0),
        ))
        .chart()?;
    chart
        .draw_series(std::iter::once(Circle::new(
            (n_star, h_star),
            style.px(5.0),
            style.stroke(p.optimal, 2.0),
        )))
        .chart()?;
    let left_half = n_star > k / 2.0;
    label_at(
        &chart,
        style,
        format!("N* = {}", data.n_star),
        (n_star, h_star),
        (if left_half { -8.0 } else { 8.0 }, 8.0),
        &p.optimal,
        if left_half { HPos::Right } else { HPos::Left },
        VPos::Top,
    )?;
    // Last, over everything (as every chart's legend).
    legend(style).draw(&chart, style, SeriesLabelPosition::UpperRight)?;
    area.present().chart()
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::prelude::SVGBackend;

    fn data(h_star: f64, n_star: u32) -> LoadDurationData {
        LoadDurationData {
            monthly_hours: vec![730.0, 730.0, 500.0, 200.0],
            breakeven_hours: h_star,
            hours_per_month: 730.0,
            n_star,
        }
    }

    #[test]
    fn the_base_is_the_curve_shaded_at_n_star() {
        // H* moves, N* stays: the same base; N* or the curve changes: another.
        assert!(same_base(&data(360.0, 3), &data(364.0, 3)));
        assert!(!same_base(&data(360.0, 3), &data(600.0, 2)));
        let mut other = data(360.0, 3);
        other.monthly_hours[3] = 100.0;
        assert!(!same_base(&data(360.0, 3), &other));
    }

    #[test]
    fn the_frame_spans_the_levels_and_h_star() {
        let mut svg = String::new();
        let area = SVGBackend::with_string(&mut svg, (800, 320)).into_drawing_area();
        let style = ChartStyle::default();
        let f = frame(&area, &data(360.0, 3), &style).unwrap().unwrap();
        assert_eq!(f.x_end, 4.0);
        assert!(f.y_top >= 730.0);
        // H* above every level (prices where nothing pays monthly): the axis runs above it.
        let high = frame(&area, &data(2000.0, 0), &style).unwrap().unwrap();
        assert!(high.y_top >= 2000.0);
        let none = LoadDurationData {
            monthly_hours: Vec::new(),
            ..data(360.0, 0)
        };
        assert_eq!(frame(&area, &none, &style).unwrap(), None);
    }
}
