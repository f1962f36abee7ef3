//! § 15 Commitment terms: on demand, monthly, 1 year and 3 years side by side, the
//! recommendation over the horizon, and the cumulative-cost chart beside the offers.
//! The texts: `present::terms`; this file only places them.

use std::sync::Arc;

use leptos::prelude::*;

use crate::components::value::Value;

use crate::charts::terms::{self as chart, TermsData};
use crate::components::bilingual;
use crate::components::card_body::CardBody;
use crate::components::chart_canvas::{ChartCanvas, ChartDraw};
use crate::components::how_computed::HowComputed;
use crate::components::input_fields::InputFields;
use crate::components::rows::Rows;
use crate::inputs::Group;
use crate::page::context::{count_of, error_of, is_ok, text_at, use_ctx, Part};
use crate::present::terms::TermsView;

#[component]
pub fn TermsCard() -> impl IntoView {
    let ctx = use_ctx();
    let (lang, currency, outputs) = (ctx.lang, ctx.currency, ctx.outputs);
    let view = Part::of(|p| &p.terms);
    let growth = Part::in_card(view.view, |p| &p.growth);
    let cell = move |i: usize, part: fn(&TermsView, usize) -> String| {
        text_at(view, i, |v| v.rows.len(), part)
    };
    let reason = move |i: usize, part: fn(&TermsView, usize) -> String| {
        text_at(view, i, |v| v.not_recommended.len(), part)
    };
    let rows = count_of(view, |v| v.rows.len());
    let reasons = count_of(view, |v| v.not_recommended.len());
    let data = Memo::new(move |_| outputs.with(TermsData::from_outputs));
    let summary = Signal::derive(move || {
        data.with(|d| {
            d.as_ref()
                .map(|d| chart::summary(d, lang.get(), currency.get()))
                .unwrap_or_default()
        })
    });
    view! {
        <section node_ref=view.view.node class="card" aria-labelledby="terms-heading">
            <h2 id="terms-heading">{bilingual(lang, "Which term to buy: monthly, 1 year or 3 years", "买哪种期限：包月、包年还是三年")}</h2>
            <p class="field-hint">{bilingual(
                lang,
                "Type the offers from your cloud console, per GPU: the upfront amount and the monthly amount of each term (all upfront, partial or no upfront). Leave both at 0 when a term is not offered.",
                "按每张 GPU 填入云控制台给出的报价：每种期限的预付金额与每月金额（全预付、部分预付或无预付）。没有该期限时两项都留 0。",
            )}</p>
            <div class="field-grid">
                <InputFields group_of=Group::Terms />
            </div>
            <CardBody ok=is_ok(view) error=error_of(view) error_testid="terms-error">
                <p class="term-recommendation">
                    {bilingual(lang, "Recommended: ", "推荐：")}
                    <Value testid="recommended-term" shown=view.shown(|v| &v.recommended) strong=true />
                </p>
                <p data-testid="terms-sentence">{view.text(|v| v.sentence.clone())}</p>
                <p class="field-hint">{view.text(|v| v.compared.clone())}</p>
                <p data-testid="terms-growth">{growth.text(|g| g.terms_line.clone())}</p>
                <ul class="reasons" data-testid="terms-not-recommended">
                    <Rows count=reasons row=Arc::new(move |i| view! {
                        <li>{reason(i, |v, i| v.not_recommended[i].clone())}</li>
                    }.into_any()) />
                </ul>
                <div class="table-wrap" tabindex="0">
                    <table class="term-table" data-testid="term-table">
                        <caption>{bilingual(lang, "Each option for the GPUs the plan commits (per month unless said)", "各期限方案（承诺的 GPU；未注明的为每月）")}</caption>
                        <thead><tr>
                            <th scope="col">{bilingual(lang, "Option", "方案")}</th>
                            <th scope="col">{bilingual(lang, "Pays per GPU", "每卡付款")}</th>
                            <th scope="col">{bilingual(lang, "Effective per GPU-month", "每卡每月等效价")}</th>
                            <th scope="col">{bilingual(lang, "Break-even hours", "盈亏平衡小时")}</th>
                            <th scope="col">"N"</th>
                            <th scope="col">{bilingual(lang, "Monthly total", "月度总额")}</th>
                            <th scope="col">{bilingual(lang, "Saving vs all on-demand", "比全部按量节省")}</th>
                            <th scope="col">{bilingual(lang, "Pays back", "回本")}</th>
                            <th scope="col">{bilingual(lang, "Cost over the horizon", "规划期总成本")}</th>
                            <th scope="col">{bilingual(lang, "Risk: usage drops / work stops", "风险：用量回落 / 工作停止")}</th>
                            <th scope="col">{bilingual(lang, "Verdict", "结论")}</th>
                        </tr></thead>
                        <tbody>
                            <Rows count=rows row=Arc::new(move |i| view! {
                                <tr data-term=cell(i, |v, i| v.rows[i].key.clone())
                                    data-payment=cell(i, |v, i| v.rows[i].payment.clone())
                                    class=cell(i, |v, i| if v.rows[i].recommended { "recommended".into() } else { String::new() })>
                                    <th scope="row">{cell(i, |v, i| v.rows[i].name.clone())}</th>
                                    <td data-label=bilingual(lang, "Pays per GPU", "每卡付款")>{cell(i, |v, i| v.rows[i].pays.clone())}</td>
                                    <td data-label=bilingual(lang, "Effective per GPU-month", "每卡每月等效价") data-testid="term-effective-monthly" data-value=cell(i, |v, i| v.rows[i].effective.value.clone())>
                                        {cell(i, |v, i| v.rows[i].effective.text.clone())}
                                    </td>
                                    <td data-label=bilingual(lang, "Break-even hours", "盈亏平衡小时") data-testid="term-breakeven-hours" data-value=cell(i, |v, i| v.rows[i].breakeven_hours.value.clone())>
                                        {cell(i, |v, i| v.rows[i].breakeven_hours.text.clone())}
                                    </td>
                                    <td data-label="N">{cell(i, |v, i| v.rows[i].gpus.clone())}</td>
                                    <td data-label=bilingual(lang, "Monthly total", "月度总额")>{cell(i, |v, i| v.rows[i].monthly_total.clone())}</td>
                                    <td data-label=bilingual(lang, "Saving vs all on-demand", "比全部按量节省") data-testid="term-saving" data-value=cell(i, |v, i| v.rows[i].saving.value.clone())>
                                        {cell(i, |v, i| v.rows[i].saving.text.clone())}
                                    </td>
                                    <td data-label=bilingual(lang, "Pays back", "回本") data-testid="term-breakeven-months" data-value=cell(i, |v, i| v.rows[i].breakeven_month.value.clone())>
                                        {cell(i, |v, i| v.rows[i].breakeven_month.text.clone())}
                                    </td>
                                    <td data-label=bilingual(lang, "Cost over the horizon", "规划期总成本") data-testid="term-horizon-cost" data-value=cell(i, |v, i| v.rows[i].horizon_cost.value.clone())>
                                        {cell(i, |v, i| v.rows[i].horizon_cost.text.clone())}
                                    </td>
                                    <td data-label=bilingual(lang, "Risk: usage drops / work stops", "风险：用量回落 / 工作停止")>{cell(i, |v, i| v.rows[i].risk.clone())}</td>
                                    <td data-label=bilingual(lang, "Verdict", "结论")>{cell(i, |v, i| v.rows[i].verdict.clone())}</td>
                                </tr>
                            }.into_any()) />
                        </tbody>
                    </table>
                </div>
                <h3>{bilingual(lang, "Cumulative cost by term", "各期限累计成本")}</h3>
                <ChartCanvas testid="chart-terms" summary lang currency draw=ChartDraw::of(data, chart::draw) />
                <HowComputed formula=view.text(|v| v.formula.clone()) formula_testid="terms-formula" anchor="terms"
                    general="E = U / m + R;  H*_E = E / r;  break-even month = ⌈N·U / (A − N·R − X)⌉;  cost over h months = N·⌈h/m⌉·(U + m·R) + h·X" />
            </CardBody>
        </section>
    }
}
