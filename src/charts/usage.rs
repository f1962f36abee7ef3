//! Chart 1: usage over time. GPUs busy over the lookback window (one value per hour, or
//! finer), with horizontal lines for the average (dashed), the minimum stable waterline
//! (dotted) and the recommended N (solid), and weekends shaded. Long histories are drawn
//! as a min/max envelope per pixel column, so no peak or trough is ever dropped.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::downsample::{column_bounds, minmax_columns};
use super::text::words;
use super::{
    axis_end_for_legend, block, cartesian, dashed, finite_or, mesh, message, plot_height, prepare,
    swatch, tick, ChartError, ChartStyle, Legend, OrChart,
};
use crate::core::calendar::{civil_from_days, weekday};
use crate::core::plan::PlanOutputs;
use crate::core::profile::Lookback;
use crate::core::series::UsageSeries;
use crate::core::zone::Zone;
use crate::format::number_trim;
use crate::i18n::Lang;

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
        }
    }

    /// The lookback window of `series` (the same window the sizing used) with the
    /// average, waterline and committed N of `outputs`.
    pub fn from_series(series: &UsageSeries, lookback: Lookback, outputs: &PlanOutputs) -> Self {
        let n = series.values.len();
        let ts = series
            .timestamps
            .as_deref()
            .filter(|t| t.len() == n && n > 0);
        let start = match (lookback, ts) {
            (Lookback::All, _) => 0,
            (Lookback::Days(d), Some(t)) => {
                let last = t[n - 1];
                t.partition_point(|&x| last - x >= i64::from(d) * 86_400)
            }
            (Lookback::Days(d), None) => n.saturating_sub(d as usize * 24),
        };
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

/// Draw chart 1.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &UsageData,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let w = words(style.lang);
    if !prepare(area, style)? {
        return Ok(());
    }
    if data.values.is_empty() {
        return message(area, style, w.no_data);
    }
    let p = &style.palette;
    let lang = style.lang;
    let n = data.values.len();
    let x_end = data.day_of(n.saturating_sub(1)).max(data.step_hours / 24.0);
    let lines_top = [
        data.average.unwrap_or(0.0),
        data.waterline.unwrap_or(0.0),
        data.recommended.map(f64::from).unwrap_or(0.0),
    ]
    .iter()
    .fold(data.peak(), |a, &b| a.max(finite_or(b, 0.0)));
    let mut legend = Legend::new();
    legend_entries(&mut legend, data, style);
    // Headroom above the data for the legend (top right): as much as the legend is tall on
    // this canvas, at least 15 %, at most 3× the data (a phone's canvas is short).
    let y_top = if lines_top > 0.0 {
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
    let columns = chart.plotting_area().dim_in_pixel().0.max(1) as usize;
    let cols = minmax_columns(&data.values, columns);
    let c = cols.len();
    let mut envelope = Vec::with_capacity(c);
    let mut path = Vec::with_capacity(c * 2);
    for (i, &(lo, hi)) in cols.iter().enumerate() {
        let (a, b) = column_bounds(n, c, i);
        let x = data.day_of(a) + (data.day_of(b.max(a + 1) - 1) - data.day_of(a)) / 2.0;
        envelope.push((x, hi));
        path.push((x, lo));
        if hi != lo {
            path.push((x, hi));
        }
    }
    chart
        .draw_series(AreaSeries::new(envelope, 0.0, p.series.mix(0.18)))
        .chart()?;
    let line = style.stroke(p.series, 1.25);
    chart.draw_series(LineSeries::new(path, line)).chart()?;

    // Reference lines.
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
    legend.draw(&chart, style, SeriesLabelPosition::UpperRight)?;
    area.present().chart()
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
}
