//! Chart 1: usage over time. GPUs busy over the lookback window (one value per hour, or
//! finer), with horizontal lines for the average (dashed), the minimum stable waterline
//! (dotted) and the recommended N (solid), and weekends shaded. Long histories are drawn
//! as a min/max envelope per pixel column, so no peak or trough is ever dropped.
//!
//! **A mixed fleet with a typed history** (two or more GPU types, each with its history;
//! [`UsageData::from_types`]) is drawn stacked instead: one band per type in the fleet's
//! order (bottom first, one colour each from [`super::Palette::types`], the legend naming
//! each type with its commitment), the top of the stack being the fleet's total. Each type's
//! committed N (what the fleet's budget buys, formulas § 16) is a dashed line in its colour
//! drawn **at the top of its band's commitment, cumulatively**: type 1's line at N_1, type
//! 2's at N_1 + N_2, …, labelled in place "H100 +1 = 4". So the stack of usage and the stack
//! of commitments read alike: usage of type k above its line is on demand only if the types
//! below it are busy up to theirs too (the types are not interchangeable, § 16, so the lines
//! are a reading aid, not a pooled capacity). A type the budget buys none of draws no line.
//! The envelope rule holds per layer: the cumulative sums (type 1, types 1–2, …) are
//! downsampled to their min/max per pixel column, so the stack's top keeps every peak of the
//! total. The average, waterline and recommended-N lines (the selected type's) are not drawn
//! on the stack; the other charts stay those of the selected type.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::downsample::{column_bounds, minmax_columns};
use super::text::words;
use super::{
    axis_end_for_legend, big_enough, block, cartesian, dashed, finite_or, label_at, mesh,
    plot_height, swatch, tick, ChartError, ChartStyle, Frame, Legend, OrChart, Plot,
};
use crate::core::calendar::{civil_from_days, weekday};
use crate::core::plan::PlanOutputs;
use crate::core::profile::Lookback;
use crate::core::series::UsageSeries;
use crate::core::zone::Zone;
use crate::format::number_trim;
use crate::i18n::Lang;
use plotters::style::text_anchor::{HPos, VPos};

/// What chart 1 draws.
#[derive(Debug, Clone, PartialEq)]
pub struct UsageData {
    /// GPUs busy, one value per step, oldest first (the lookback window).
    pub values: Vec<f64>,
    /// Hours between two values (1 for hourly data).
    pub step_hours: f64,
    /// Local time (UTC seconds + offset) of the first value, when timestamps are known.
    pub start_local: Option<i64>,
    /// Index ranges `[start, end)` of values falling on a local Saturday or Sunday.
    pub weekends: Vec<(usize, usize)>,
    /// Average GPUs busy over the window.
    pub average: Option<f64>,
    /// Minimum stable waterline (GPUs).
    pub waterline: Option<f64>,
    /// The N the plan commits to.
    pub recommended: Option<u32>,
    /// A mixed fleet's types, stacked bottom first (empty: one type, the chart as always).
    /// `values` is then their sum, hour by hour.
    pub types: Vec<TypeBand>,
}

/// One GPU type's band in the stacked chart.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeBand {
    /// The type's name as shown.
    pub name: String,
    /// GPUs of this type busy, aligned with [`UsageData::values`].
    pub values: Vec<f64>,
    /// N_t the fleet's budget buys (`None` while the fleet cannot be planned: no lines).
    pub committed: Option<u32>,
}

/// The first index of the lookback window of `n` values (`ts`: their timestamps, if known).
fn window_start(n: usize, ts: Option<&[i64]>, lookback: Lookback) -> usize {
    match (lookback, ts) {
        (Lookback::All, _) => 0,
        (Lookback::Days(d), Some(t)) if !t.is_empty() => {
            let last = t[t.len() - 1];
            t.partition_point(|&x| last - x >= i64::from(d) * 86_400)
        }
        (Lookback::Days(d), _) => n.saturating_sub(d as usize * 24),
    }
}

fn is_weekend(local_seconds: i64) -> bool {
    weekday(local_seconds.div_euclid(86_400)) >= 5
}

impl UsageData {
    /// From raw values and optional UTC timestamps (same length; ignored otherwise).
    pub fn new(
        values: Vec<f64>,
        timestamps: Option<&[i64]>,
        zone: &Zone,
        average: Option<f64>,
        waterline: Option<f64>,
        recommended: Option<u32>,
    ) -> Self {
        let ts = timestamps.filter(|t| t.len() == values.len() && !t.is_empty());
        let step_hours = match ts {
            Some(t) if t.len() >= 2 => {
                let h = (t[t.len() - 1] - t[0]) as f64 / 3600.0 / (t.len() - 1) as f64;
                if h.is_finite() && h > 0.0 {
                    h
                } else {
                    1.0
                }
            }
            _ => 1.0,
        };
        let mut weekends = Vec::new();
        if let Some(t) = ts {
            let mut open: Option<usize> = None;
            for (i, &s) in t.iter().enumerate() {
                match (is_weekend(zone.local_s(s)), open) {
                    (true, None) => open = Some(i),
                    (false, Some(a)) => {
                        weekends.push((a, i));
                        open = None;
                    }
                    _ => {}
                }
            }
            if let Some(a) = open {
                weekends.push((a, t.len()));
            }
        }
        let clean = |v: Option<f64>| v.filter(|x| x.is_finite());
        Self {
            values,
            step_hours,
            start_local: ts.map(|t| zone.local_s(t[0])),
            weekends,
            average: clean(average),
            waterline: clean(waterline),
            recommended,
            types: Vec::new(),
        }
    }

    /// A mixed fleet's chart: each type's series over the lookback window (the types of one
    /// typed history share one timeline), stacked in the order given; the committed counts
    /// are set later ([`TypeBand::committed`], from the fleet's plan). Fewer than two types:
    /// the one-type chart of the first, without its lines.
    pub fn from_types(types: &[(&str, &UsageSeries)], lookback: Lookback) -> Self {
        let Some(&(_, first)) = types.first() else {
            return Self::new(Vec::new(), None, &Zone::fixed(0), None, None, None);
        };
        let n = types.iter().map(|(_, s)| s.values.len()).min().unwrap_or(0);
        let ts = first
            .timestamps
            .as_deref()
            .filter(|t| t.len() >= n && n > 0);
        let start = window_start(n, ts.map(|t| &t[..n]), lookback);
        let bands: Vec<TypeBand> = types
            .iter()
            .map(|(name, s)| TypeBand {
                name: (*name).to_string(),
                values: s.values[start..n]
                    .iter()
                    .map(|&v| finite_or(v, 0.0))
                    .collect(),
                committed: None,
            })
            .collect();
        // The total, summed in stacking order (the stack's top, exactly).
        let mut total = vec![0.0; n - start];
        for b in &bands {
            for (t, v) in total.iter_mut().zip(&b.values) {
                *t += v;
            }
        }
        let mut data = Self::new(
            total,
            ts.map(|t| &t[start..n]),
            &first.zone(),
            None,
            None,
            None,
        );
        if bands.len() >= 2 {
            data.types = bands;
        }
        data
    }

    /// Drawn stacked by GPU type.
    pub fn stacked(&self) -> bool {
        self.types.len() >= 2
    }

    /// Each type's committed line height, cumulative (N_1, N_1 + N_2, …), with its own N;
    /// empty unless every type's N is known.
    pub fn committed_levels(&self) -> Vec<(u32, u32)> {
        let mut level = 0u32;
        let mut out = Vec::with_capacity(self.types.len());
        for b in &self.types {
            let Some(n) = b.committed else {
                return Vec::new();
            };
            level = level.saturating_add(n);
            out.push((n, level));
        }
        out
    }

    /// The lookback window of `series` (the same window the sizing used) with the
    /// average, waterline and committed N of `outputs`.
    pub fn from_series(series: &UsageSeries, lookback: Lookback, outputs: &PlanOutputs) -> Self {
        let n = series.values.len();
        let ts = series
            .timestamps
            .as_deref()
            .filter(|t| t.len() == n && n > 0);
        let start = window_start(n, ts, lookback);
        let values = series.values[start..].to_vec();
        let wl = outputs.waterline.as_ref().ok();
        let average = wl.map(|w| w.average).or_else(|| {
            (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
        });
        Self::new(
            values,
            ts.map(|t| &t[start..]),
            &series.zone(),
            average,
            wl.map(|w| w.overall),
            outputs.baseline.as_ref().ok().map(|b| b.gpus),
        )
    }

    /// Days from the first value to the value at `index`.
    pub fn day_of(&self, index: usize) -> f64 {
        index as f64 * self.step_hours / 24.0
    }

    /// The largest value (0 when empty).
    pub fn peak(&self) -> f64 {
        self.values
            .iter()
            .copied()
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max)
    }
}

/// The text alternative.
pub fn summary(data: &UsageData, lang: Lang, _currency: &str) -> String {
    let days = number_trim(data.day_of(data.values.len()), 1, lang);
    let peak = number_trim(data.peak(), 1, lang);
    if data.stacked() {
        return stacked_summary(data, lang, &days, &peak);
    }
    let opt = |v: Option<f64>| {
        v.map(|x| number_trim(x, 2, lang))
            .unwrap_or_else(|| "—".into())
    };
    let avg = opt(data.average);
    let wl = opt(data.waterline);
    let n = data
        .recommended
        .map(|n| n.to_string())
        .unwrap_or_else(|| "—".into());
    let weekends = data.weekends.len();
    match lang {
        Lang::En => format!(
            "Usage over time: {days} days, peak {peak} GPUs busy; average {avg}; minimum stable waterline {wl}; recommended N {n}; {weekends} weekend stretches shaded"
        ),
        Lang::Zh => format!(
            "用量随时间变化：{days} 天，峰值 {peak} 张 GPU；平均 {avg}；最低稳定水位 {wl}；建议包月 N {n}；已标出 {weekends} 段周末"
        ),
    }
}

/// The text alternative of the stacked chart: every type with its commitment and its line.
fn stacked_summary(data: &UsageData, lang: Lang, days: &str, peak: &str) -> String {
    let levels = data.committed_levels();
    let types: Vec<String> = data
        .types
        .iter()
        .enumerate()
        .map(|(k, b)| match (levels.get(k), lang) {
            (Some((n, at)), Lang::En) => format!("{} {n} (line at {at})", b.name),
            (Some((n, at)), Lang::Zh) => format!("{} {n}（线在 {at}）", b.name),
            (None, _) => b.name.clone(),
        })
        .collect();
    let weekends = data.weekends.len();
    match lang {
        Lang::En => format!(
            "Usage over time, stacked by GPU type: {days} days, peak {peak} GPUs busy in all; committed N per type, stacked: {}; {weekends} weekend stretches shaded",
            types.join(", ")
        ),
        Lang::Zh => format!(
            "用量随时间变化（按 GPU 型号堆叠）：{days} 天，合计峰值 {peak} 张 GPU；各型号固定 N（逐层累加）：{}；已标出 {weekends} 段周末",
            types.join("，")
        ),
    }
}

/// A type's colour in the stack.
fn type_colour(style: &ChartStyle, k: usize) -> RGBColor {
    style.palette.types[k % style.palette.types.len()]
}

/// The legend, in drawing order, with the same styles `draw` uses (built first: its height
/// sets the headroom above the data).
fn legend_entries<'a, DB: DrawingBackend + 'a>(
    legend: &mut Legend<'a, DB>,
    data: &UsageData,
    style: &ChartStyle,
) {
    let w = words(style.lang);
    let p = &style.palette;
    let lang = style.lang;
    if !data.weekends.is_empty() {
        legend.add(w.weekend, block(style, p.weekend.mix(0.16)));
    }
    if data.stacked() {
        let sep = if lang == Lang::Zh { "：" } else { ": " };
        for (k, b) in data.types.iter().enumerate() {
            let label = match b.committed {
                Some(n) => format!("{}{sep}{} {n}", b.name, w.type_commit),
                None => b.name.clone(),
            };
            legend.add(label, block(style, type_colour(style, k).to_rgba()));
        }
        if data.committed_levels().iter().any(|&(n, _)| n > 0) {
            legend.add(
                w.stacked_commit,
                swatch(style, style.stroke(p.muted, 2.5), Some((6.0, 3.0))),
            );
        }
        // The teams' chart (§ 21): one committed line for the whole stack.
        if let Some(nr) = data.recommended {
            legend.add(
                format!("{} = {nr}", w.recommended),
                swatch(style, style.stroke(p.recommended, 2.5), None),
            );
        }
        return;
    }
    legend.add(
        w.usage_series,
        swatch(style, style.stroke(p.series, 1.25), None),
    );
    if let Some(v) = data.average {
        legend.add(
            format!("{} {}", w.average, number_trim(v, 2, lang)),
            swatch(style, style.stroke(p.average, 2.0), Some((6.0, 3.0))),
        );
    }
    if let Some(v) = data.waterline {
        legend.add(
            format!("{} {}", w.waterline, number_trim(v, 2, lang)),
            swatch(style, style.stroke(p.waterline, 2.5), Some((2.0, 3.0))),
        );
    }
    if let Some(nr) = data.recommended {
        legend.add(
            format!("{} = {nr}", w.recommended),
            swatch(style, style.stroke(p.recommended, 2.5), None),
        );
    }
}

/// Draw chart 1: its [`frame`], then [`draw_base`] and [`draw_over`] on the same area (the
/// page draws the two on two canvases, the base redrawn only when its part changes).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &UsageData,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    super::whole(area, data, style, frame, [draw_base, draw_over])
}

/// The axes chart 1 is drawn on: days `0..x_end`, GPUs `0..y_top` (headroom for the legend
/// above the data and the lines). `None` when there is nothing to plot: the area is too
/// small, or there are no values ([`draw`] shows the message).
pub fn frame<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &UsageData,
    style: &ChartStyle,
) -> Result<Option<Frame>, ChartError> {
    if !big_enough(area, style) || data.values.is_empty() {
        return Ok(None);
    }
    let n = data.values.len();
    let x_end = data.day_of(n.saturating_sub(1)).max(data.step_hours / 24.0);
    let lines_top = [
        data.average.unwrap_or(0.0),
        data.waterline.unwrap_or(0.0),
        data.recommended.map(f64::from).unwrap_or(0.0),
    ]
    .iter()
    .fold(data.peak(), |a, &b| a.max(finite_or(b, 0.0)))
    .max(
        data.committed_levels()
            .last()
            .map_or(0.0, |&(_, at)| f64::from(at)),
    );
    // Headroom above the data for the legend (top right): as much as the legend is tall on
    // this canvas, at least 15 %, at most 3× the data (a phone's canvas is short).
    let y_top = if lines_top > 0.0 {
        let mut legend = Legend::new();
        legend_entries(&mut legend, data, style);
        let (_, legend_h) = legend.footprint(area, style)?;
        axis_end_for_legend(
            lines_top,
            f64::from(plot_height(area, style)),
            legend_h,
            lines_top * 1.15,
            lines_top * 3.0,
        )
    } else {
        1.0
    };
    Ok(Some(Frame { x_end, y_top }))
}

/// Whether the base layers of `a` and `b` are the same picture on the same frame: the
/// history (values, weekends, each type's band), not the lines, counts or names.
pub fn same_base(a: &UsageData, b: &UsageData) -> bool {
    a.values == b.values
        && a.step_hours == b.step_hours
        && a.start_local == b.start_local
        && a.weekends == b.weekends
        && a.types.len() == b.types.len()
        && a.types
            .iter()
            .zip(&b.types)
            .all(|(x, y)| x.values == y.values)
}

/// Chart 1's base: background, axes, weekends and the usage (one envelope, or the stacked
/// bands), which change with the history only.
pub fn draw_base<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &UsageData,
    frame: &Frame,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let w = words(style.lang);
    let p = &style.palette;
    let lang = style.lang;
    let Frame { x_end, y_top } = *frame;
    area.fill(&p.background).chart()?;
    let mut chart = cartesian(area, style, 0.0..x_end, 0.0..y_top, 52.0)?;
    let start_day = data.start_local.map(|s| s.div_euclid(86_400));
    let x_fmt = |v: &f64| match start_day {
        Some(d0) => {
            let (_, m, d) = civil_from_days(d0 + v.floor() as i64);
            format!("{m:02}-{d:02}")
        }
        None => tick(*v, lang),
    };
    let y_fmt = |v: &f64| tick(*v, lang);
    let x_desc = if start_day.is_some() {
        w.usage_x_date
    } else {
        w.usage_x_days
    };
    mesh(&mut chart, style, x_desc, w.usage_y, 8, &x_fmt, &y_fmt)?;

    // Weekends.
    let shade = p.weekend.mix(0.16);
    if !data.weekends.is_empty() {
        chart
            .draw_series(data.weekends.iter().map(|&(a, b)| {
                Rectangle::new(
                    [(data.day_of(a), 0.0), (data.day_of(b).min(x_end), y_top)],
                    shade.filled(),
                )
            }))
            .chart()?;
    }

    // The data: every value while they fit, else a min/max envelope per pixel column.
    let n = data.values.len();
    let columns = chart.plotting_area().dim_in_pixel().0.max(1) as usize;
    let c = columns.min(n);
    let x_of = |i: usize| {
        let (a, b) = column_bounds(n, c, i);
        data.day_of(a) + (data.day_of(b.max(a + 1) - 1) - data.day_of(a)) / 2.0
    };
    if data.stacked() {
        draw_bands(&mut chart, data, style, c, &x_of)?;
    } else {
        let cols = minmax_columns(&data.values, c);
        let (area_top, path) = envelope(&cols, &x_of);
        chart
            .draw_series(AreaSeries::new(area_top, 0.0, p.series.mix(0.18)))
            .chart()?;
        let line = style.stroke(p.series, 1.25);
        chart.draw_series(LineSeries::new(path, line)).chart()?;
    }
    area.present().chart()
}

/// Chart 1's lines and legend, over its base (nothing else: the base shows through): the
/// average, waterline and recommended N, or each type's committed line; they move with the
/// plan.
pub fn draw_over<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &UsageData,
    frame: &Frame,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let p = &style.palette;
    let Frame { x_end, y_top } = *frame;
    let mut chart = cartesian(area, style, 0.0..x_end, 0.0..y_top, 52.0)?;
    if let Some(v) = data.average {
        let s = style.stroke(p.average, 2.0);
        chart
            .draw_series(dashed(style, vec![(0.0, v), (x_end, v)], s, (8.0, 5.0)))
            .chart()?;
    }
    if let Some(v) = data.waterline {
        let s = style.stroke(p.waterline, 2.5);
        chart
            .draw_series(dashed(style, vec![(0.0, v), (x_end, v)], s, (2.0, 4.0)))
            .chart()?;
    }
    if let Some(nr) = data.recommended {
        let v = f64::from(nr);
        let s = style.stroke(p.recommended, 2.5);
        chart
            .draw_series(LineSeries::new(vec![(0.0, v), (x_end, v)], s))
            .chart()?;
    }
    if data.stacked() {
        committed_lines(&mut chart, data, style, x_end)?;
    }
    let mut legend = Legend::new();
    legend_entries(&mut legend, data, style);
    legend.draw(&chart, style, SeriesLabelPosition::UpperRight)?;
    area.present().chart()
}

/// Points in data coordinates (days, GPUs).
type Points = Vec<(f64, f64)>;

/// A column envelope's top (the area's upper edge) and the path through every column's
/// minimum and maximum (so no peak or trough is dropped).
fn envelope(cols: &[(f64, f64)], x_of: &dyn Fn(usize) -> f64) -> (Points, Points) {
    let mut top = Vec::with_capacity(cols.len());
    let mut path = Vec::with_capacity(cols.len() * 2);
    for (i, &(lo, hi)) in cols.iter().enumerate() {
        let x = x_of(i);
        top.push((x, hi));
        path.push((x, lo));
        if hi != lo {
            path.push((x, hi));
        }
    }
    (top, path)
}

/// The stacked bands, bottom first: layer k is the sum of types 1…k, downsampled to its
/// min/max per column; band k fills between the tops of layers k − 1 and k, and layer k's
/// min/max path is stroked in type k's colour.
fn draw_bands<'a, DB: DrawingBackend + 'a>(
    chart: &mut Plot<'a, DB>,
    data: &UsageData,
    style: &ChartStyle,
    columns: usize,
    x_of: &dyn Fn(usize) -> f64,
) -> Result<(), ChartError> {
    let mut layer = vec![0.0; data.values.len()];
    let mut below: Vec<(f64, f64)> = Vec::new();
    for (k, band) in data.types.iter().enumerate() {
        for (s, v) in layer.iter_mut().zip(&band.values) {
            *s += v;
        }
        let (top, path) = envelope(&minmax_columns(&layer, columns), x_of);
        let colour = type_colour(style, k);
        let mut outline = top.clone();
        if below.is_empty() {
            outline.extend(top.iter().rev().map(|&(x, _)| (x, 0.0)));
        } else {
            outline.extend(below.iter().rev().copied());
        }
        chart
            .draw_series(std::iter::once(Polygon::new(
                outline,
                colour.mix(0.3).filled(),
            )))
            .chart()?;
        chart
            .draw_series(LineSeries::new(path, style.stroke(colour, 1.25)))
            .chart()?;
        below = top;
    }
    Ok(())
}

/// Each type's committed N, dashed in its colour at the cumulative height, labelled at the
/// left ("A100 3", then "H100 +1 = 4"): above its line when the room up to the next line
/// holds the text, else below it when that room is free, else only in the legend (lines a
/// few pixels apart on a phone).
fn committed_lines<'a, DB: DrawingBackend + 'a>(
    chart: &mut Plot<'a, DB>,
    data: &UsageData,
    style: &ChartStyle,
    x_end: f64,
) -> Result<(), ChartError> {
    let lines: Vec<(usize, u32, u32)> = data
        .committed_levels()
        .iter()
        .enumerate()
        .filter(|(_, &(n, _))| n > 0)
        .map(|(k, &(n, at))| (k, n, at))
        .collect();
    // Backend pixels: each line's y, the plotting area's top and bottom.
    let ys: Vec<i32> = lines
        .iter()
        .map(|&(_, _, at)| chart.backend_coord(&(0.0, f64::from(at))).1)
        .collect();
    let (_, rows) = chart.plotting_area().get_pixel_range();
    let need = (style.font_px(12.0) * 1.25).round() as i32 + style.pxi(4.0);
    let mut previous_above = false;
    for (i, &(k, n, at)) in lines.iter().enumerate() {
        let v = f64::from(at);
        let s = style.stroke(type_colour(style, k), 2.5);
        chart
            .draw_series(dashed(style, vec![(0.0, v), (x_end, v)], s, (6.0, 3.0)))
            .chart()?;
        let above = ys[i] - ys.get(i + 1).copied().unwrap_or(rows.start);
        let below = if i == 0 {
            rows.end - ys[i]
        } else if previous_above {
            0
        } else {
            ys[i - 1] - ys[i]
        };
        let place = if above >= need {
            Some((VPos::Bottom, -3.0))
        } else if below >= need {
            Some((VPos::Top, 3.0))
        } else {
            None
        };
        previous_above = matches!(place, Some((VPos::Bottom, _)));
        let Some((vpos, dy)) = place else {
            continue;
        };
        let name = &data.types[k].name;
        let text = if i == 0 {
            format!("{name} {n}")
        } else {
            format!("{name} +{n} = {at}")
        };
        label_at(
            chart,
            style,
            text,
            (0.0, v),
            (4.0, dy),
            &style.palette.text,
            HPos::Left,
            vpos,
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_and_weekends() {
        assert!(!is_weekend(19_723 * 86_400)); // Monday
        assert!(is_weekend(19_728 * 86_400)); // Saturday
        assert!(is_weekend(19_729 * 86_400 + 86_399)); // Sunday 23:59:59
        assert!(!is_weekend(19_730 * 86_400)); // Monday
    }

    #[test]
    fn weekend_ranges_follow_local_time() {
        // 14 days hourly from Monday 2024-01-01 00:00 at UTC+8.
        let t0 = 19_723 * 86_400 - 8 * 3600;
        let ts: Vec<i64> = (0..14 * 24).map(|i| t0 + i * 3600).collect();
        let d = UsageData::new(
            vec![1.0; ts.len()],
            Some(&ts),
            &Zone::fixed(480),
            None,
            None,
            None,
        );
        assert_eq!(d.weekends, vec![(120, 168), (288, 336)]);
        assert_eq!(d.start_local, Some(19_723 * 86_400));
        assert_eq!(d.step_hours, 1.0);
        // Read in UTC the same instants start on Sunday 16:00: 8 weekend hours first,
        // and every weekend moves 8 hours later.
        let utc = UsageData::new(
            vec![1.0; ts.len()],
            Some(&ts),
            &Zone::fixed(0),
            None,
            None,
            None,
        );
        assert_eq!(utc.weekends, vec![(0, 8), (128, 176), (296, 336)]);
        // Without timestamps: no weekends, hourly steps.
        let bare = UsageData::new(
            vec![1.0; 5],
            None,
            &Zone::fixed(0),
            None,
            Some(f64::NAN),
            Some(2),
        );
        assert!(bare.weekends.is_empty() && bare.waterline.is_none());
    }

    fn two_types(a100: Option<u32>, h100: Option<u32>) -> UsageData {
        let a: Vec<f64> = (0..48).map(|h| if h < 12 { 6.0 } else { 4.0 }).collect();
        let h: Vec<f64> = (0..48).map(|h| if h < 20 { 4.0 } else { 3.0 }).collect();
        let (sa, sh) = (UsageSeries::from_values(a), UsageSeries::from_values(h));
        let mut d = UsageData::from_types(&[("A100", &sa), ("H100", &sh)], Lookback::All);
        d.types[0].committed = a100;
        d.types[1].committed = h100;
        d
    }

    #[test]
    fn the_base_is_the_history_alone() {
        let d = two_types(Some(3), Some(1));
        // Other commitments, other names: the same base.
        let mut other = two_types(Some(4), None);
        other.types[1].name = "H800".into();
        assert!(same_base(&d, &other));
        // Another hour of history, or one type's hours changed: another base.
        let mut longer = d.clone();
        longer.values.push(1.0);
        assert!(!same_base(&d, &longer));
        let mut moved = d.clone();
        moved.types[1].values[0] = 5.0;
        assert!(!same_base(&d, &moved));
    }

    #[test]
    fn the_frame_makes_room_for_the_committed_lines() {
        use plotters::prelude::SVGBackend;
        let mut svg = String::new();
        let area = SVGBackend::with_string(&mut svg, (800, 320)).into_drawing_area();
        let style = ChartStyle::default();
        let frame = |d: &UsageData| frame(&area, d, &style).unwrap().unwrap();
        // 48 hours: two days on x; the stack peaks at 10 GPUs, lines at 3 and 4 are below it.
        let low = frame(&two_types(Some(3), Some(1)));
        assert_eq!(low.x_end, 47.0 / 24.0);
        assert!(low.y_top > 10.0);
        // Lines above the peak (12 + 2 = 14): the axis runs above them.
        let high = frame(&two_types(Some(12), Some(2)));
        assert!(high.y_top > 14.0 && high.y_top > low.y_top);
        // Nothing to plot: no frame (the whole chart says "no data").
        let mut empty = two_types(None, None);
        empty.values.clear();
        assert_eq!(super::frame(&area, &empty, &style).unwrap(), None);
    }
}
