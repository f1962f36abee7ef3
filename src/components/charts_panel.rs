//! The five charts, each on its own canvas, fed from the one outputs memo. A fleet reading
//! a typed history stacks chart 1 by GPU type with each type's committed line (from the
//! fleet's plan); the other charts are the selected type's.

use leptos::prelude::*;

use crate::components::bilingual;
use crate::i18n::pick;

use crate::charts::usage::UsageData;
use crate::charts::{breakeven, budget, cost, load_duration, usage};
use crate::components::chart_canvas::{ChartCanvas, ChartDraw};
use crate::context::use_ctx;
use crate::core::series::UsageSeries;
use crate::state::{ParseStatus, UsageMode};

#[component]
pub fn ChartsPanel() -> impl IntoView {
    let ctx = use_ctx();
    let (lang, currency, outputs, state) = (ctx.lang, ctx.currency, ctx.outputs, ctx.state);
    let inputs = Memo::new(move |_| state.with(|s| s.inputs.clone()));
    let data_mode = Memo::new(move |_| state.with(|s| s.mode == UsageMode::Data));

    let lookback = Memo::new(move |_| inputs.with(|i| i.lookback));
    // A fleet on a typed history: each type's name and history keys (None otherwise).
    let fleet_keys = Memo::new(move |_| {
        state.with(|s| {
            (s.mode == UsageMode::Data && crate::fleet::active(&s.fleet)).then(|| {
                s.fleet
                    .types
                    .iter()
                    .map(|t| (t.name.clone(), t.keys.clone()))
                    .collect::<Vec<_>>()
            })
        })
    });
    // The stacked chart's bands (every type with its history; kept while prices change).
    let stacked = Memo::new(move |_| {
        let keys = fleet_keys.get()?;
        let lookback = lookback.get();
        ctx.parse_status.with(|p| match p {
            ParseStatus::Done(Ok(parsed)) if parsed.types.len() >= 2 => {
                let series = keys
                    .iter()
                    .map(|(_, k)| crate::fleet::row_series(k, &parsed.types))
                    .collect::<Option<Vec<UsageSeries>>>()?;
                let bands: Vec<(&str, &UsageSeries)> = keys
                    .iter()
                    .zip(&series)
                    .map(|((name, _), s)| (name.as_str(), s))
                    .collect();
                Some(UsageData::from_types(&bands, lookback)).filter(UsageData::stacked)
            }
            _ => None,
        })
    });
    // What the fleet's budget buys of each type (empty while it cannot be planned).
    let committed = Memo::new(move |_| {
        ctx.fleet.with(|f| match f {
            Some(Ok(plan)) => plan.rows.iter().map(|r| r.committed).collect(),
            _ => Vec::new(),
        })
    });
    let is_stacked = Memo::new(move |_| stacked.with(Option::is_some));
    let usage_data = Memo::new(move |_| {
        if !data_mode.get() {
            return None;
        }
        if let Some(mut d) = stacked.get() {
            committed.with(|c| {
                if c.len() == d.types.len() {
                    for (b, &n) in d.types.iter_mut().zip(c) {
                        b.committed = Some(n);
                    }
                }
            });
            return Some(d);
        }
        let lookback = lookback.get();
        ctx.parse_status.with(|p| match p {
            ParseStatus::Done(Ok(parsed)) => {
                outputs.with(|o| Some(UsageData::from_series(&parsed.series, lookback, o)))
            }
            _ => None,
        })
    });
    let ld = Memo::new(move |_| outputs.with(load_duration::LoadDurationData::from_outputs));
    let cost_data = Memo::new(move |_| outputs.with(cost::CostData::from_outputs));
    let budget_data = Memo::new(move |_| {
        inputs.with(|i| outputs.with(|o| Some(budget::BudgetData::from_outputs(i, o))))
    });
    let be = Memo::new(move |_| {
        inputs.with(|i| outputs.with(|o| breakeven::BreakevenData::from_outputs(i, o)))
    });

    let usage_summary = Signal::derive(move || {
        usage_data.with(|d| {
            d.as_ref()
                .map(|d| usage::summary(d, lang.get(), currency.get()))
                .unwrap_or_default()
        })
    });
    let ld_summary = Signal::derive(move || {
        ld.with(|d| {
            d.as_ref()
                .map(|d| load_duration::summary(d, lang.get(), currency.get()))
                .unwrap_or_default()
        })
    });
    let cost_summary = Signal::derive(move || {
        cost_data.with(|d| {
            d.as_ref()
                .map(|d| cost::summary(d, lang.get(), currency.get()))
                .unwrap_or_default()
        })
    });
    let budget_summary = Signal::derive(move || {
        budget_data.with(|d| {
            d.as_ref()
                .map(|d| budget::summary(d, lang.get(), currency.get()))
                .unwrap_or_default()
        })
    });
    let be_summary = Signal::derive(move || {
        be.with(|d| {
            d.as_ref()
                .map(|d| breakeven::summary(d, lang.get(), currency.get()))
                .unwrap_or_default()
        })
    });

    view! {
        <section class="card" aria-labelledby="charts-heading">
            <h2 id="charts-heading">{bilingual(lang, "Charts", "图表")}</h2>
            <div class:hidden=move || !data_mode.get()>
                <h3>{move || if is_stacked.get() {
                    pick(lang.get(), "Usage over time, stacked by GPU type", "用量随时间变化（按 GPU 型号堆叠）")
                } else {
                    pick(lang.get(), "Usage over time", "用量随时间变化")
                }}</h3>
                <ChartCanvas testid="chart-usage" summary=usage_summary lang currency draw=ChartDraw::of(usage_data, usage::draw) />
            </div>
            <h3>{bilingual(lang, "Load-duration curve", "负载持续曲线")}</h3>
            <ChartCanvas testid="chart-load-duration" summary=ld_summary lang currency draw=ChartDraw::of(ld, load_duration::draw) />
            <h3>{bilingual(lang, "Monthly cost vs GPUs committed", "月度成本与包月 GPU 数")}</h3>
            <ChartCanvas testid="chart-cost" summary=cost_summary lang currency draw=ChartDraw::of(cost_data, cost::draw) />
            <h3>{bilingual(lang, "Budget split: target vs plan", "预算分配：目标与方案")}</h3>
            <ChartCanvas testid="chart-budget" summary=budget_summary lang currency draw=ChartDraw::of(budget_data, budget::draw) />
            <h3>{bilingual(lang, "Monthly vs on-demand by hours used", "包月与按量随使用小时的成本")}</h3>
            <ChartCanvas testid="chart-breakeven" summary=be_summary lang currency draw=ChartDraw::of(be, breakeven::draw) />
        </section>
    }
}
