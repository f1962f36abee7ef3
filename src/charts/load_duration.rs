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
    axis_end_for_legend, cartesian, dashed, finite_or, label_at, mesh, message, plot_height,
    prepare, swatch, tick, upper, ChartError, ChartStyle, Legend, OrChart,
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

/// Draw chart 2.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &LoadDurationData,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let w = words(style.lang);
    if !prepare(area, style)? {
        return Ok(());
    }
    if data.monthly_hours.is_empty() {
        return message(area, style, w.no_data);
    }
    let p = &style.palette;
    let k = data.levels() as f64;
    let h_star = finite_or(data.breakeven_hours, 0.0);
    let top_value = data
        .monthly_hours
        .iter()
        .copied()
        .fold(finite_or(data.hours_per_month, 0.0), f64::max)
        .max(h_star);
    // The legend (top right) first: the y axis runs far enough above the data for it.
    let line = style.stroke(p.series, 2.0);
    let be = style.stroke(p.breakeven, 2.0);
    let r = style.px(5.0);
    let mut legend = Legend::new();
    legend.add(w.ld_series, swatch(style, line, None));
    legend.add(w.breakeven, swatch(style, be, Some((5.0, 3.0))));
    legend.add(w.optimal, {
        let r = r as i32;
        let shape = style.stroke(p.optimal, 2.0);
        move |(x, y)| Circle::new((x + r * 2, y), r, shape)
    });
    let (_, legend_h) = legend.footprint(area, style)?;
    let y_top = axis_end_for_legend(
        top_value,
        f64::from(plot_height(area, style)),
        legend_h,
        upper(top_value),
        upper(top_value) * 3.0,
    );
    let mut chart = cartesian(area, style, 0.0..k, 0.0..y_top, 64.0)?;
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
    chart.draw_series(LineSeries::new(steps, line)).chart()?;

    // H*: dashed horizontal line across the levels, with its value.
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
    let opt = style.stroke(p.optimal, 1.5);
    chart
        .draw_series(dashed(
            style,
            vec![(n_star, 0.0), (n_star, top_value.max(1.0))],
            opt,
            (2.0, 3.0),
        ))
        .chart()?;
    chart
        .draw_series(std::iter::once(Circle::new(
            (n_star, h_star),
            r,
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
    legend.draw(&chart, style, SeriesLabelPosition::UpperRight)?;
    area.present().chart()
}
