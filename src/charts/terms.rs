//! Chart 6: cumulative cost by term. Month by month from the start, the money paid on demand,
//! monthly, for 1 year and for 3 years (an upfront is a step at the start of each term);
//! each term's break-even month (where it meets the on-demand line) is marked, and the
//! horizon is a dotted line.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::text::{with_currency, words};
use super::{
    cartesian, dashed, label_at, mesh, message, prepare, swatch, tick, upper, ChartError,
    ChartStyle, Legend, OrChart,
};
use crate::core::plan::PlanOutputs;
use crate::core::terms::Term;
use crate::format::{money_short, number_trim};
use crate::i18n::Lang;

/// One option's line.
#[derive(Debug, Clone, PartialEq)]
pub struct TermLine {
    pub term: Term,
    /// (month, cumulative cost) with the upfront steps as two points at the same month.
    pub points: Vec<(f64, f64)>,
    /// (month, cumulative cost) where it pays back against on demand.
    pub breakeven: Option<(f64, f64)>,
    pub recommended: bool,
}

/// What chart 6 draws (money in currency units, for the whole committed fleet).
#[derive(Debug, Clone, PartialEq)]
pub struct TermsData {
    /// Months shown: the longest offered term, at least the horizon, at most 36.
    pub months: u32,
    /// The months compared (horizon − months left).
    pub horizon: u32,
    pub lines: Vec<TermLine>,
}

impl TermsData {
    /// `None` when the terms section has an input error.
    pub fn from_outputs(outputs: &PlanOutputs) -> Option<Self> {
        let t = outputs.terms.as_ref().ok()?;
        let longest = t.rows.iter().map(|r| r.term.months()).max().unwrap_or(1);
        let months = longest.max(t.compared_months).clamp(12, 36);
        let lines = t
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let m = r.term.months();
                let mut points = Vec::with_capacity(months as usize + 4);
                let next_upfront = (r.upfront * u64::from(r.gpus)).to_f64();
                for month in 0..=months {
                    let at = (f64::from(month), r.cumulative(month).to_f64());
                    points.push(at);
                    // The next term starts after month k·m: its upfront is a step there.
                    if m > 0 && month > 0 && month % m == 0 && month < months && next_upfront > 0.0
                    {
                        points.push((at.0, at.1 + next_upfront));
                    }
                }
                TermLine {
                    term: r.term,
                    points,
                    breakeven: r
                        .breakeven_month
                        .filter(|_| r.term != Term::OnDemand && r.upfront.cents() > 0)
                        .map(|b| (f64::from(b), r.cumulative(b).to_f64())),
                    recommended: i == t.recommended,
                }
            })
            .collect();
        Some(Self {
            months,
            horizon: t.compared_months,
            lines,
        })
    }

    fn top(&self) -> f64 {
        self.lines
            .iter()
            .flat_map(|l| l.points.iter().map(|p| p.1))
            .fold(0.0, f64::max)
    }
}

fn line_name(lang: Lang, term: Term) -> &'static str {
    let w = words(lang);
    match term {
        Term::OnDemand => w.terms_on_demand,
        Term::Monthly => w.terms_monthly,
        Term::OneYear => w.terms_one_year,
        Term::ThreeYear => w.terms_three_years,
    }
}

/// The text alternative.
pub fn summary(data: &TermsData, lang: Lang, currency: &str) -> String {
    let parts: Vec<String> = data
        .lines
        .iter()
        .map(|l| {
            let end = l.points.last().map_or(0.0, |p| p.1);
            let cost = crate::core::money::Money::from_f64(end);
            let paid = money_short(cost, currency, lang);
            let back = l
                .breakeven
                .map(|(m, _)| match lang {
                    Lang::En => format!(", pays back in month {}", number_trim(m, 0, lang)),
                    Lang::Zh => format!("，第 {} 个月回本", number_trim(m, 0, lang)),
                })
                .unwrap_or_default();
            format!("{} {paid}{back}", line_name(lang, l.term))
        })
        .collect();
    match lang {
        Lang::En => format!(
            "Cumulative cost over {} months: {}",
            data.months,
            parts.join("; ")
        ),
        Lang::Zh => format!("{} 个月的累计成本：{}", data.months, parts.join("；")),
    }
}

/// Draw chart 6.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &TermsData,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let w = words(style.lang);
    if !prepare(area, style)? {
        return Ok(());
    }
    let top = data.top();
    if !(top.is_finite() && top > 0.0) || data.lines.is_empty() {
        return message(area, style, w.no_data);
    }
    let p = &style.palette;
    let lang = style.lang;
    let x_max = f64::from(data.months);
    let y_top = upper(top);
    let mut chart = cartesian(area, style, 0.0..x_max, 0.0..y_top, 78.0)?;
    let mut legend = Legend::new();
    let x_fmt = |v: &f64| tick(*v, lang);
    let y_fmt = |v: &f64| style.money(*v);
    let y_desc = with_currency(lang, w.terms_y, &style.currency);
    mesh(&mut chart, style, w.terms_x, &y_desc, 8, &x_fmt, &y_fmt)?;

    for l in &data.lines {
        let (color, dash) = match l.term {
            Term::OnDemand => (p.on_demand, Some((8.0, 4.0))),
            Term::Monthly => (p.monthly, None),
            Term::OneYear => (p.waterline, Some((3.0, 3.0))),
            Term::ThreeYear => (p.breakeven, Some((12.0, 3.0))),
        };
        let s = style.stroke(color, if l.recommended { 3.0 } else { 2.0 });
        match dash {
            Some(d) => chart
                .draw_series(dashed(style, l.points.clone(), s, d))
                .chart()?,
            None => chart
                .draw_series(LineSeries::new(l.points.clone(), s))
                .chart()?,
        };
        legend.add(line_name(lang, l.term), swatch(style, s, dash));
        if let Some((m, v)) = l.breakeven {
            chart
                .draw_series(std::iter::once(Circle::new(
                    (m, v),
                    style.px(5.0),
                    style.stroke(color, 2.0),
                )))
                .chart()?;
            let right = m > x_max * 0.6;
            label_at(
                &chart,
                style,
                format!("{} {}", w.terms_breakeven, number_trim(m, 0, lang)),
                (m, v),
                (if right { -8.0 } else { 8.0 }, 6.0),
                &color,
                if right { HPos::Right } else { HPos::Left },
                VPos::Top,
            )?;
        }
    }
    if data.horizon > 0 && f64::from(data.horizon) <= x_max {
        let h = f64::from(data.horizon);
        let s = style.stroke(p.muted, 1.0);
        chart
            .draw_series(dashed(style, vec![(h, 0.0), (h, y_top)], s, (1.0, 3.0)))
            .chart()?;
        label_at(
            &chart,
            style,
            w.terms_horizon.to_string(),
            (h, y_top),
            (-4.0, 4.0),
            &p.muted,
            HPos::Right,
            VPos::Top,
        )?;
    }
    legend.draw(&chart, style, SeriesLabelPosition::UpperLeft)?;
    area.present().chart()
}
