//! Chart 3: cost vs committed GPUs. The monthly total C(N) for N = 0…peak, the N each of
//! the four sizing rules picks (each with its own marker shape and a text label), and the
//! flat region near the optimum shaded: every N whose cost is within 2 % of C(N*).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::VPos;

use super::text::{with_currency, words};
use super::{
    along, big_enough, block, cartesian, finite_or, mesh, swatch, tick, upper, ChartError,
    ChartStyle, Frame, Legend, OrChart,
};
use crate::core::commitment::Commitment;
use crate::core::plan::PlanOutputs;
use crate::core::sizing::{SizingRule, SizingTable};
use crate::i18n::Lang;

/// C(N) within this fraction of C(N*) counts as "flat" (shaded).
pub const FLAT_TOLERANCE: f64 = 0.02;

/// What chart 3 draws (money in currency units per month).
#[derive(Debug, Clone, PartialEq)]
pub struct CostData {
    /// C(N) for N = 0…K.
    pub totals: Vec<f64>,
    /// N*: the cheapest N.
    pub n_star: u32,
    /// The N each sizing rule picks (empty when the sizing section has an input error).
    pub rules: Vec<(SizingRule, u32)>,
    /// The contiguous N range around N* within [`FLAT_TOLERANCE`] of C(N*).
    pub flat: (u32, u32),
}

/// The contiguous range of N around `n_star` whose cost is within `tolerance` of it.
pub fn flat_region(totals: &[f64], n_star: u32, tolerance: f64) -> (u32, u32) {
    let n = (n_star as usize).min(totals.len().saturating_sub(1));
    let Some(&best) = totals.get(n) else {
        return (0, 0);
    };
    let limit = best + best.abs() * tolerance.max(0.0) + 1e-9;
    let within = |i: usize| totals[i] <= limit;
    let mut lo = n;
    while lo > 0 && within(lo - 1) {
        lo -= 1;
    }
    let mut hi = n;
    while hi + 1 < totals.len() && within(hi + 1) {
        hi += 1;
    }
    (lo as u32, hi as u32)
}

impl CostData {
    pub fn new(c: &Commitment, sizing: Option<&SizingTable>) -> Self {
        let totals: Vec<f64> = c
            .rows
            .iter()
            .map(|r| finite_or(r.total.to_f64(), 0.0))
            .collect();
        let rules = sizing
            .map(|t| t.rows.iter().map(|r| (r.rule, r.n)).collect())
            .unwrap_or_default();
        Self {
            flat: flat_region(&totals, c.n_star, FLAT_TOLERANCE),
            totals,
            n_star: c.n_star,
            rules,
        }
    }

    /// `None` when the commitment section has an input error.
    pub fn from_outputs(outputs: &PlanOutputs) -> Option<Self> {
        let c = outputs.commitment.as_ref().ok()?;
        Some(Self::new(c, outputs.sizing.as_ref().ok()))
    }

    /// C(N), or `None` outside 0…K.
    pub fn cost(&self, n: u32) -> Option<f64> {
        self.totals.get(n as usize).copied()
    }
}

fn rule_name(lang: Lang, rule: SizingRule) -> &'static str {
    let w = words(lang);
    match rule {
        SizingRule::Average => w.rule_average,
        SizingRule::Waterline => w.rule_waterline,
        SizingRule::CostOptimal => w.rule_optimal,
        SizingRule::Peak => w.rule_peak,
    }
}

fn money_text(lang: Lang, currency: &str, v: f64) -> String {
    let s = ChartStyle {
        lang,
        currency: currency.to_string(),
        ..ChartStyle::default()
    };
    s.money(v)
}

/// The text alternative.
pub fn summary(data: &CostData, lang: Lang, currency: &str) -> String {
    let k = data.totals.len().saturating_sub(1);
    let best = data
        .cost(data.n_star)
        .map(|v| money_text(lang, currency, v))
        .unwrap_or_else(|| "—".into());
    let rules: Vec<String> = data
        .rules
        .iter()
        .map(|(r, n)| {
            let c = data
                .cost(*n)
                .map(|v| money_text(lang, currency, v))
                .unwrap_or_else(|| "—".into());
            match lang {
                Lang::En => format!("{} {n} ({c})", rule_name(lang, *r)),
                Lang::Zh => format!("{} {n}（{c}）", rule_name(lang, *r)),
            }
        })
        .collect();
    let (lo, hi) = data.flat;
    match lang {
        Lang::En => format!(
            "Cost vs committed GPUs: N from 0 to {k}; cheapest N* = {} at {best} per month; within 2 % of it from N = {lo} to {hi}{}{}",
            data.n_star,
            if rules.is_empty() { "" } else { "; rules: " },
            rules.join(", ")
        ),
        Lang::Zh => format!(
            "成本与包月 GPU 数：N 从 0 到 {k}；最便宜 N* = {}，每月 {best}；N = {lo} 到 {hi} 与之相差不超过 2 %{}{}",
            data.n_star,
            if rules.is_empty() { "" } else { "；各规则：" },
            rules.join("，")
        ),
    }
}

/// Draw chart 3: its [`frame`], then [`draw_base`] and [`draw_over`] on the same area (the
/// page draws the base on a canvas of its own, redrawn only when the frame changes).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &CostData,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    super::whole(area, data, style, frame, [draw_base, draw_over])
}

/// The axes chart 3 is drawn on: N from −0.5 to `x_end` + 0.5 (`x_end` = the peak), money
/// `0..y_top`. `None` when there is nothing to plot (too small, no totals).
pub fn frame<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &CostData,
    style: &ChartStyle,
) -> Result<Option<Frame>, ChartError> {
    if !big_enough(area, style) || data.totals.is_empty() {
        return Ok(None);
    }
    let top = data.totals.iter().copied().fold(0.0, f64::max);
    Ok(Some(Frame {
        x_end: (data.totals.len() - 1) as f64,
        y_top: upper(top) * 1.1,
    }))
}

/// Whether `a` and `b` draw the same base: always, the base is the frame's axes alone.
pub fn same_base(_: &CostData, _: &CostData) -> bool {
    true
}

/// The plot on `frame`.
fn plot<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    frame: &Frame,
    style: &ChartStyle,
) -> Result<super::Plot<'a, DB>, ChartError> {
    let k = frame.x_end;
    cartesian(area, style, -0.5..k + 0.5, 0.0..frame.y_top, 84.0)
}

/// Chart 3's base: background and the axes with their labels (they change with the frame
/// only: the peak, the highest monthly total, the language and the currency).
pub fn draw_base<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    _data: &CostData,
    frame: &Frame,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let w = words(style.lang);
    let lang = style.lang;
    area.fill(&style.palette.background).chart()?;
    let k = frame.x_end;
    let mut chart = plot(area, frame, style)?;
    let x_fmt = |v: &f64| {
        if (v - v.round()).abs() < 1e-9 && *v >= 0.0 {
            tick(*v, lang)
        } else {
            String::new()
        }
    };
    let y_fmt = |v: &f64| style.money(*v);
    let y_desc = with_currency(lang, w.cost_y, &style.currency);
    mesh(
        &mut chart,
        style,
        w.cost_x,
        &y_desc,
        (k as usize + 2).min(12),
        &x_fmt,
        &y_fmt,
    )?;
    area.present().chart()
}

/// Chart 3's curve, the rules' markers and labels, the flat region and the legend, over its
/// base (nothing else: the base shows through); they move with the prices.
pub fn draw_over<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &CostData,
    frame: &Frame,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let w = words(style.lang);
    let p = &style.palette;
    let lang = style.lang;
    let y_top = frame.y_top;
    let mut chart = plot(area, frame, style)?;
    let mut legend = Legend::new();

    // The flat region near the optimum.
    let (lo, hi) = data.flat;
    let band = p.optimal.mix(0.13);
    chart
        .draw_series(std::iter::once(Rectangle::new(
            [(lo as f64 - 0.3, 0.0), (hi as f64 + 0.3, y_top)],
            band.filled(),
        )))
        .chart()?;
    legend.add(w.cost_flat, block(style, band));

    // C(N): a solid line, with a dot per N while they fit.
    let line = style.stroke(p.series, 2.0);
    let pts: Vec<(f64, f64)> = data
        .totals
        .iter()
        .enumerate()
        .map(|(n, &c)| (n as f64, c))
        .collect();
    chart
        .draw_series(LineSeries::new(pts.clone(), line))
        .chart()?;
    legend.add(w.cost_series, swatch(style, line, None));
    let plot_w = chart.plotting_area().dim_in_pixel().0 as f64;
    if pts.len() as f64 * style.px(8.0) as f64 <= plot_w {
        let r = style.px(2.5);
        chart
            .draw_series(pts.iter().map(|&pt| Circle::new(pt, r, p.series.filled())))
            .chart()?;
    }

    // What the legend must not cover: the curve, and the rule labels above their markers.
    let mut keep_clear = along(&pts, 8);
    let units_per_px = y_top / f64::from(chart.plotting_area().dim_in_pixel().1.max(1));

    // The four rules: one marker shape each, labels stacked where rules agree.
    let mut placed: Vec<(std::ops::Range<i32>, std::ops::Range<i32>)> = Vec::new();
    let m = style.px(6.0) as i32;
    // N* first, so the hollow shapes of rules agreeing with it stay visible on top.
    let order = [
        SizingRule::CostOptimal,
        SizingRule::Average,
        SizingRule::Waterline,
        SizingRule::Peak,
    ];
    for rule in order {
        let Some(&(_, n)) = data.rules.iter().find(|(r, _)| *r == rule) else {
            continue;
        };
        let Some(c) = data.cost(n) else { continue };
        let color = match rule {
            SizingRule::Average => p.average,
            SizingRule::Waterline => p.waterline,
            SizingRule::CostOptimal => p.optimal,
            SizingRule::Peak => p.text,
        };
        let s = style.stroke(color, 2.0);
        let at = (n as f64, c);
        match rule {
            SizingRule::Average => chart
                .draw_series(std::iter::once(
                    EmptyElement::at(at) + Rectangle::new([(-m - 3, -m - 3), (m + 3, m + 3)], s),
                ))
                .chart()?,
            SizingRule::Waterline => chart
                .draw_series(std::iter::once(
                    EmptyElement::at(at) + TriangleMarker::new((0, 0), m + 3, s),
                ))
                .chart()?,
            SizingRule::CostOptimal => chart
                .draw_series(std::iter::once(
                    EmptyElement::at(at) + Circle::new((0, 0), m as u32, color.filled()),
                ))
                .chart()?,
            SizingRule::Peak => chart
                .draw_series(std::iter::once(
                    EmptyElement::at(at) + Cross::new((0, 0), m, s),
                ))
                .chart()?,
        };
        legend.add_labelled(rule_name(lang, rule), move |(x, y)| match rule {
            SizingRule::Average => {
                Rectangle::new([(x + m, y - m), (x + 3 * m, y + m)], s).into_dyn()
            }
            SizingRule::Waterline => TriangleMarker::new((x + 2 * m, y), m + 1, s).into_dyn(),
            SizingRule::CostOptimal => {
                Circle::new((x + 2 * m, y), m as u32, color.filled()).into_dyn()
            }
            SizingRule::Peak => Cross::new((x + 2 * m, y), m, s).into_dyn(),
        });
        // Text label above the marker, raised a line at a time until it touches no label
        // already drawn (rules picking the same or neighbouring N).
        let text = format!("{} {n}", rule_name(lang, rule));
        let (h, span) = super::inside_anchor(&chart, style, &text, at)?;
        let pad = style.pxi(3.0);
        let marker_y = chart.backend_coord(&at).1;
        let line_px = |level: usize| {
            let bottom = marker_y - style.pxi(10.0 + 15.0 * level as f64);
            bottom - style.pxi(14.0)..bottom
        };
        let overlaps = |a: &std::ops::Range<i32>, b: &std::ops::Range<i32>| {
            a.start < b.end + pad && b.start < a.end + pad
        };
        let mut level = 0usize;
        while placed
            .iter()
            .any(|(x, y)| overlaps(x, &span) && overlaps(y, &line_px(level)))
        {
            level += 1;
        }
        placed.push((span, line_px(level)));
        let up = 10.0 + 15.0 * level as f64;
        let label_top_px = f64::from(style.px(up + 14.0));
        keep_clear.push((at.0, at.1 + label_top_px / 2.0 * units_per_px));
        keep_clear.push((at.0, at.1 + label_top_px * units_per_px));
        super::label_at(&chart, style, text, at, (0.0, -up), &color, h, VPos::Bottom)?;
    }
    use SeriesLabelPosition::{LowerLeft, LowerMiddle, LowerRight, UpperMiddle};
    legend.compact(&chart, style, 0.45)?;
    legend.draw_clear(
        &chart,
        style,
        &[LowerRight, LowerLeft, LowerMiddle, UpperMiddle],
        &keep_clear,
    )?;
    area.present().chart()
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::prelude::SVGBackend;

    #[test]
    fn the_frame_spans_the_counts_and_the_highest_total() {
        let mut svg = String::new();
        let area = SVGBackend::with_string(&mut svg, (800, 320)).into_drawing_area();
        let style = ChartStyle::default();
        let data = CostData {
            totals: vec![1500.0, 1200.0, 1000.0, 1100.0],
            n_star: 2,
            rules: Vec::new(),
            flat: (2, 2),
        };
        let f = frame(&area, &data, &style).unwrap().unwrap();
        assert_eq!(f.x_end, 3.0);
        assert_eq!(f.y_top, upper(1500.0) * 1.1);
        // A price that lowers the totals under the same highest one keeps the frame (and so
        // the base with its axes).
        let cheaper = CostData {
            totals: vec![1500.0, 1100.0, 800.0, 900.0],
            ..data.clone()
        };
        assert_eq!(frame(&area, &cheaper, &style).unwrap(), Some(f));
        let none = CostData {
            totals: Vec::new(),
            ..data
        };
        assert_eq!(frame(&area, &none, &style).unwrap(), None);
    }

    #[test]
    fn flat_region_spreads_from_the_optimum_while_within_tolerance() {
        let t = [100.0, 60.0, 51.0, 50.0, 50.9, 52.0, 70.0];
        assert_eq!(flat_region(&t, 3, 0.02), (2, 4));
        assert_eq!(flat_region(&t, 3, 0.0), (3, 3));
        assert_eq!(flat_region(&t, 3, 0.9), (1, 6));
        assert_eq!(flat_region(&t, 3, 1.0), (0, 6));
        assert_eq!(flat_region(&[], 0, 0.02), (0, 0));
        assert_eq!(flat_region(&[0.0, 0.0], 9, 0.02), (0, 1));
    }
}
