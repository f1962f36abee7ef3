//! Chart 5: break-even without data. The monthly price P (flat) against the on-demand cost
//! r·h of one GPU used h hours a month; the lines cross at H* = P / r.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::text::{where_used, with_currency, words};
use super::{
    cartesian, dashed, finite_or, label_at, mesh, message, prepare, swatch, tick, upper,
    ChartError, ChartStyle, Legend, OrChart,
};
use crate::core::plan::{PlanInputs, PlanOutputs};
use crate::format::{number, number_trim};
use crate::i18n::Lang;

/// What chart 5 draws (money in currency units per GPU per month).
#[derive(Debug, Clone, PartialEq)]
pub struct BreakevenData {
    /// P: monthly price per GPU.
    pub monthly_price: f64,
    /// r: on-demand price per GPU-hour.
    pub on_demand_price: f64,
    /// H: hours in a month.
    pub hours_per_month: f64,
    /// H* = P / r.
    pub breakeven_hours: f64,
    /// The slider h (hours used per GPU per month), marked when given.
    pub used_hours: Option<f64>,
}

impl BreakevenData {
    /// `None` when the break-even section has an input error.
    pub fn from_outputs(inputs: &PlanInputs, outputs: &PlanOutputs) -> Option<Self> {
        let b = outputs.breakeven.as_ref().ok()?;
        let used = inputs.used_hours;
        Some(Self {
            monthly_price: inputs.monthly_price,
            on_demand_price: inputs.on_demand_price,
            hours_per_month: b.hours_per_month,
            breakeven_hours: b.hours,
            used_hours: (used.is_finite() && used >= 0.0 && used <= b.hours_per_month)
                .then_some(used),
        })
    }

    /// Right end of the hours axis: the month, or past H* when the monthly never pays.
    pub fn x_max(&self) -> f64 {
        let h = finite_or(self.hours_per_month, 0.0).max(1.0);
        let be = finite_or(self.breakeven_hours, 0.0);
        if be * 1.1 > h {
            be * 1.1
        } else {
            h
        }
    }

    fn valid(&self) -> bool {
        [
            self.monthly_price,
            self.on_demand_price,
            self.hours_per_month,
            self.breakeven_hours,
        ]
        .iter()
        .all(|v| v.is_finite() && *v > 0.0)
    }
}

/// The text alternative.
pub fn summary(data: &BreakevenData, lang: Lang, currency: &str) -> String {
    let p = number_trim(data.monthly_price, 2, lang);
    let r = number_trim(data.on_demand_price, 4, lang);
    let h = number_trim(data.breakeven_hours, 1, lang);
    let util = if data.hours_per_month > 0.0 {
        number(data.breakeven_hours / data.hours_per_month * 100.0, 1, lang)
    } else {
        "—".into()
    };
    let month = number_trim(data.hours_per_month, 0, lang);
    match lang {
        Lang::En => format!(
            "Break-even without data: monthly {currency}{p} per GPU against on demand {currency}{r} per hour; the lines cross at {h} h per month ({util} % of {month} h){}",
            where_used(lang, data.used_hours)
        ),
        Lang::Zh => format!(
            "无数据时的盈亏平衡：包月每卡 {currency}{p}，按量每小时 {currency}{r}；两线交于每月 {h} 小时（{month} 小时的 {util} %）{}",
            where_used(lang, data.used_hours)
        ),
    }
}

/// Draw chart 5.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &BreakevenData,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let w = words(style.lang);
    if !prepare(area, style)? {
        return Ok(());
    }
    if !data.valid() {
        return message(area, style, w.no_data);
    }
    let p = &style.palette;
    let lang = style.lang;
    let x_max = data.x_max();
    let price = data.monthly_price;
    let r = data.on_demand_price;
    let h_star = data.breakeven_hours;
    let y_top = upper(price.max(r * x_max));
    let mut chart = cartesian(area, style, 0.0..x_max, 0.0..y_top, 78.0)?;
    let mut legend = Legend::new();
    let x_fmt = |v: &f64| tick(*v, lang);
    let y_fmt = |v: &f64| style.money(*v);
    let y_desc = with_currency(lang, w.be_y, &style.currency);
    mesh(&mut chart, style, w.be_x, &y_desc, 8, &x_fmt, &y_fmt)?;

    let monthly = style.stroke(p.monthly, 2.0);
    chart
        .draw_series(LineSeries::new(vec![(0.0, price), (x_max, price)], monthly))
        .chart()?;
    legend.add(w.be_monthly, swatch(style, monthly, None));
    let od = style.stroke(p.on_demand, 2.0);
    chart
        .draw_series(dashed(
            style,
            vec![(0.0, 0.0), (x_max, r * x_max)],
            od,
            (8.0, 4.0),
        ))
        .chart()?;
    legend.add(w.be_on_demand, swatch(style, od, Some((6.0, 3.0))));

    // H*: dotted vertical line down to the axis, a circle at the crossing, its value.
    let be = style.stroke(p.breakeven, 1.5);
    chart
        .draw_series(dashed(
            style,
            vec![(h_star, 0.0), (h_star, price)],
            be,
            (2.0, 3.0),
        ))
        .chart()?;
    chart
        .draw_series(std::iter::once(Circle::new(
            (h_star, price),
            style.px(5.0),
            style.stroke(p.breakeven, 2.0),
        )))
        .chart()?;
    legend.add(w.breakeven, {
        let rr = style.px(5.0);
        let s = style.stroke(p.breakeven, 2.0);
        move |(x, y)| Circle::new((x + rr as i32 * 2, y), rr, s)
    });
    // Left of the crossing the on-demand line runs below P, right of it above: put the
    // label where the lines are not.
    let room_left = h_star > x_max * 0.25;
    label_at(
        &chart,
        style,
        format!("H* = {} {}", number_trim(h_star, 1, lang), w.hours_unit),
        (h_star, price),
        if room_left { (-8.0, -6.0) } else { (8.0, 8.0) },
        &p.breakeven,
        if room_left { HPos::Right } else { HPos::Left },
        if room_left { VPos::Bottom } else { VPos::Top },
    )?;

    if let Some(u) = data.used_hours {
        let s = style.stroke(p.muted, 1.0);
        chart
            .draw_series(dashed(style, vec![(u, 0.0), (u, y_top)], s, (1.0, 3.0)))
            .chart()?;
        label_at(
            &chart,
            style,
            format!("{} {} {}", w.be_used, number_trim(u, 1, lang), w.hours_unit),
            (u, y_top),
            (if u > x_max * 0.6 { -4.0 } else { 4.0 }, 4.0),
            &p.muted,
            if u > x_max * 0.6 {
                HPos::Right
            } else {
                HPos::Left
            },
            VPos::Top,
        )?;
    }
    legend.draw(&chart, style, SeriesLabelPosition::LowerRight)?;
    area.present().chart()
}
