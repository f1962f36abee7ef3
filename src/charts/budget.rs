//! Chart 4: budget split. The shares the user set (default 60 / 25 / 15 fixed / elastic /
//! spot and emergency) as one stacked bar, beside the shares the chosen plan's monthly
//! spend implies. Every segment carries its percentage as text, so colour is not the only
//! way to tell them apart.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::text::words;
use super::{
    axis_end_for_legend, block, cartesian, finite_or, house_mesh, label_at, message, plot_height,
    plot_width, prepare, ChartError, ChartStyle, Legend, OrChart, Palette,
};
use crate::core::plan::{PlanInputs, PlanOutputs};
use crate::format::number_trim;
use crate::i18n::Lang;

/// What chart 4 draws: shares in percent (fixed, elastic, spot and emergency).
#[derive(Debug, Clone, PartialEq)]
pub struct BudgetData {
    /// The user's split.
    pub target: [f64; 3],
    /// The split the plan implies; `None` when the plan has an input error or spends nothing.
    pub implied: Option<[f64; 3]>,
}

impl BudgetData {
    pub fn from_outputs(inputs: &PlanInputs, outputs: &PlanOutputs) -> Self {
        let clean = |v: f64| finite_or(v, 0.0).clamp(0.0, 100.0);
        let implied = outputs.budget_implied.as_ref().ok().and_then(|s| {
            (s.total.cents() > 0).then(|| {
                [
                    clean(s.fixed_share * 100.0),
                    clean(s.elastic_share * 100.0),
                    clean(s.spot_share * 100.0),
                ]
            })
        });
        Self {
            target: [
                clean(inputs.budget_fixed_percent),
                clean(inputs.budget_elastic_percent),
                clean(inputs.budget_spot_percent),
            ],
            implied,
        }
    }
}

fn pct(v: f64, lang: Lang) -> String {
    format!("{} %", number_trim(v, 1, lang))
}

/// The text alternative.
pub fn summary(data: &BudgetData, lang: Lang, _currency: &str) -> String {
    let [f, e, s] = data.target.map(|v| pct(v, lang));
    let implied = data.implied.map(|x| x.map(|v| pct(v, lang)));
    match lang {
        Lang::En => {
            let tail = match implied {
                Some([a, b, c]) => {
                    format!("; the plan implies {a} fixed, {b} elastic, {c} spot and emergency")
                }
                None => "; the plan's split is not available".into(),
            };
            format!("Budget split: your split {f} fixed, {e} elastic, {s} spot and emergency{tail}")
        }
        Lang::Zh => {
            let tail = match implied {
                Some([a, b, c]) => format!("；方案实际为固定 {a}、弹性 {b}、竞价与应急 {c}"),
                None => "；暂无方案实际分配".into(),
            };
            format!("预算分配：你的分配为固定 {f}、弹性 {e}、竞价与应急 {s}{tail}")
        }
    }
}

/// Draw chart 4.
/// The two bars: centres and half width, in x units (the axis runs 0..3 or wider).
const BAR_CENTRES: [f64; 2] = [0.6, 1.6];
const BAR_HALF: f64 = 0.38;

/// Past this x-axis end the bars (and their titles, one unit apart) get too narrow to keep
/// the legend beside them.
const MAX_X_END_BESIDE: f64 = 3.6;

/// Where the x axis ends so that a legend `need_px` wide fits right of the bars on
/// a plotting area `plot_px` wide: at least 3 (the bars' own layout), at most 6.
fn legend_x_end(plot_px: f64, need_px: f64) -> f64 {
    axis_end_for_legend(BAR_CENTRES[1] + BAR_HALF, plot_px, need_px, 3.0, 6.0)
}

pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &BudgetData,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let w = words(style.lang);
    if !prepare(area, style)? {
        return Ok(());
    }
    if data.target.iter().sum::<f64>() <= 0.0 && data.implied.is_none() {
        return message(area, style, w.no_data);
    }
    let p = &style.palette;
    let lang = style.lang;
    let colors = [p.fixed, p.elastic, p.spot];
    let names = [w.fixed, w.elastic, w.spot];
    let mut legend = Legend::new();
    for (name, color) in names.iter().zip(colors) {
        legend.add(*name, block(style, color.to_rgba()));
    }
    // The legend sits right of the two bars; on a narrower canvas the x axis grows so it
    // still fits there. Where that would squeeze the bars (and their titles) together, the
    // legend goes above them instead: the y axis grows until the titles clear it.
    let (legend_w, legend_h) = legend.footprint(area, style)?;
    let beside = legend_x_end(f64::from(plot_width(area, style, 52.0)), legend_w);
    let (x_end, y_top) = if beside <= MAX_X_END_BESIDE {
        (beside, 118.0)
    } else {
        // Titles: 8 px above the bars, 12 px text.
        let titles = style.font_px(12.0) * 1.25 + f64::from(style.px(8.0));
        let above = axis_end_for_legend(
            100.0,
            f64::from(plot_height(area, style)),
            legend_h + titles,
            118.0,
            300.0,
        );
        (3.0, above)
    };
    let mut chart = cartesian(area, style, 0.0..x_end, 0.0..y_top, 52.0)?;
    house_mesh(&mut chart.configure_mesh(), style)
        .disable_x_mesh()
        .x_labels(0)
        .y_labels(6)
        .y_desc(w.budget_y)
        .y_label_formatter(&|v: &f64| {
            if *v <= 100.0 {
                number_trim(*v, 0, lang)
            } else {
                String::new()
            }
        })
        .draw()
        .chart()?;

    let bars: [(f64, &str, Option<[f64; 3]>); 2] = [
        (BAR_CENTRES[0], w.budget_target, Some(data.target)),
        (BAR_CENTRES[1], w.budget_implied, data.implied),
    ];
    let half = BAR_HALF;
    let y = chart.as_coord_spec().clone();
    let px_per_pct = {
        let a = y.translate(&(0.0, 0.0)).1;
        let b = y.translate(&(0.0, 100.0)).1;
        (a - b).abs() as f64 / 100.0
    };
    for (x, title, shares) in bars {
        label_at(
            &chart,
            style,
            title.to_string(),
            (x, 100.0),
            (0.0, -8.0),
            &p.text,
            HPos::Center,
            VPos::Bottom,
        )?;
        let Some(shares) = shares else {
            label_at(
                &chart,
                style,
                "—".into(),
                (x, 50.0),
                (0.0, 0.0),
                &p.muted,
                HPos::Center,
                VPos::Center,
            )?;
            continue;
        };
        let total: f64 = shares.iter().sum();
        let scale = if total > 100.0 { 100.0 / total } else { 1.0 };
        let mut base = 0.0;
        for (i, &s) in shares.iter().enumerate() {
            let h = s * scale;
            if h <= 0.0 {
                continue;
            }
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x - half, base), (x + half, base + h)],
                    colors[i].filled(),
                )))
                .chart()?;
            if h * px_per_pct >= style.px(14.0) as f64 {
                label_at(
                    &chart,
                    style,
                    pct(s, lang),
                    (x, base + h / 2.0),
                    (0.0, 0.0),
                    &Palette::on(colors[i]),
                    HPos::Center,
                    VPos::Center,
                )?;
            }
            base += h;
        }
    }
    legend.draw(&chart, style, SeriesLabelPosition::UpperRight)?;
    area.present().chart()
}

#[cfg(test)]
mod tests {
    use super::legend_x_end;

    #[test]
    fn the_axis_grows_only_when_the_legend_would_cover_a_bar() {
        // The bars end at 1.6 + 0.38 = 1.98.
        // Wide: 600 px, legend 120 px; 0..3 leaves (3 − 1.98) / 3 · 600 = 204 px right of them.
        assert_eq!(legend_x_end(600.0, 120.0), 3.0);
        // A 375 px phone: 235 px plot, 120 px legend: 1.98 · 235 / 115 = 4.0461…
        assert!((legend_x_end(235.0, 120.0) - 1.98 * 235.0 / 115.0).abs() < 1e-12);
        // Past the cap, and no room at all.
        assert_eq!(legend_x_end(130.0, 120.0), 6.0);
        assert_eq!(legend_x_end(100.0, 120.0), 6.0);
    }
}
