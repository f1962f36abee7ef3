//! The five charts, each on its own canvas, fed from the one outputs memo.

use leptos::prelude::*;

use crate::components::bilingual;

use crate::charts::usage::UsageData;
use crate::charts::{breakeven, budget, cost, load_duration, usage};
use crate::components::chart_canvas::{ChartCanvas, ChartDraw};
use crate::context::use_ctx;
use crate::state::{ParseStatus, UsageMode};

#[component]
pub fn ChartsPanel() -> impl IntoView {
    let ctx = use_ctx();
    let (lang, currency, outputs, state) = (ctx.lang, ctx.currency, ctx.outputs, ctx.state);
    let inputs = Memo::new(move |_| state.with(|s| s.inputs.clone()));
    let data_mode = Memo::new(move |_| state.with(|s| s.mode == UsageMode::Data));

    let usage_data = Memo::new(move |_| {
        if !data_mode.get() {
            return None;
        }
        let lookback = inputs.with(|i| i.lookback);
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
                <h3>{bilingual(lang, "Usage over time", "用量随时间变化")}</h3>
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
