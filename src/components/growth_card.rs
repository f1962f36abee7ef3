//! § 22 Growth over the horizon: the history's trend, the growth used, the plans compared with
//! it (all now, monthly only, the ladder), the ladder's tranches, the risks if growth stops or
//! reverses, and the months one by one. The texts: `present::growth`; this file places them.
//! A what-if: closed unless a link sets its inputs, its body put in when first opened.

use std::sync::Arc;

use leptos::prelude::*;

use crate::components::value::Value;
use wasm_bindgen::JsCast;

use crate::components::bilingual;
use crate::components::card_body::CardBody;
use crate::components::cell::Cell;
use crate::components::column_heads::ColumnHeads;
use crate::components::growth_field::GrowthField;
use crate::components::how_computed::HowComputed;
use crate::components::input_fields::InputFields;
use crate::components::rows::Rows;
use crate::components::what_if::{starts_open, WhatIfSummary};
use crate::i18n::pick;
use crate::inputs::{by_param, Group, GROWTH_INPUTS};
use crate::page::context::{count_of, error_of, is_ok, shown_at, text_at, use_ctx, Part};
use crate::present::growth::GrowthView;
use crate::present::Shown;

/// The plans table's columns, (English, Chinese).
const PLAN_COLUMNS: [(&str, &str); 5] = [
    ("Plan", "方案"),
    ("GPUs committed", "承诺的卡数"),
    ("Expected cost", "预期成本"),
    ("Lost if growth stops", "增长停止时的损失"),
    ("Lost if it reverses", "增长反转时的损失"),
];

/// The ladder table's columns.
const TRANCHE_COLUMNS: [(&str, &str); 5] = [
    ("When", "何时"),
    ("GPUs added", "新增卡数"),
    ("Term", "期限"),
    ("Terms bought", "购买的期数"),
    ("Commitment cost", "承诺成本"),
];

/// More than the plans a card compares (on demand, monthly only, three terms, the ladder).
const MAX_PLANS: usize = 8;

#[component]
pub fn GrowthCard() -> impl IntoView {
    let lang = use_ctx().lang;
    let view = Part::of(|p| &p.growth);
    let plan = move |i: usize, part: fn(&GrowthView, usize) -> String| {
        text_at(view, i, |v| v.plans.len(), part)
    };
    let tranche = move |i: usize, part: fn(&GrowthView, usize) -> String| {
        text_at(view, i, |v| v.tranches.len(), part)
    };
    let plan_fig = move |i: usize, part: fn(&GrowthView, usize) -> &Shown| {
        shown_at(view, i, |v| v.plans.len(), part)
    };
    let tranche_fig = move |i: usize, part: fn(&GrowthView, usize) -> &Shown| {
        shown_at(view, i, |v| v.tranches.len(), part)
    };
    // A month's cell k = month × MAX_PLANS + plan: one index for `text_at`.
    let month = move |i: usize, part: fn(&GrowthView, usize) -> String| {
        text_at(view, i, |v| v.months.len() * MAX_PLANS, part)
    };
    let plans = count_of(view, |v| v.plans.len());
    let tranches = count_of(view, |v| v.tranches.len());
    let months = count_of(view, |v| v.months.len());
    let growth = by_param("growth").expect("the growth input is declared");
    // Closed, the card is its summary only: its body (months × plans of figures) is put in
    // when first opened and stays (a price change wrote ~45 hidden texts before).
    let opened = RwSignal::new(starts_open(&GROWTH_INPUTS));
    view! {
        <section node_ref=view.view.node class="card" aria-labelledby="growth-heading">
            <details class="disclosure what-if" open=opened.get_untracked()
                on:toggle=move |ev| {
                    let open = ev.target()
                        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                        .is_some_and(|d| d.has_attribute("open"));
                    if open && !opened.get_untracked() { opened.set(true); }
                }>
            <WhatIfSummary heading_id="growth-heading" title=("Growth over the horizon: when to commit", "增长与承诺阶梯：什么时候承诺多少")
                gist=view.text(|v| v.gist.clone()) />
            <p class="field-hint">{bilingual(
                lang,
                "The terms above assume the last weeks repeat. Here the history's trend carries the usage forward month by month, and commitments can be bought in tranches (a ladder) as the growth shows.",
                "上面的期限比较假设最近几周会一直重复。这里按历史趋势逐月推算用量，并允许随增长分批（阶梯式）购买承诺。",
            )}</p>
            <Show when=move || opened.get()>
            <div class="field-grid">
                <GrowthField spec=growth />
                <InputFields group_of=Group::Growth />
            </div>
            <CardBody ok=is_ok(view) error=error_of(view) error_testid="growth-error">
                <p>
                    {bilingual(lang, "Trend of the history: ", "历史趋势：")}
                    <Value testid="trend-fitted" shown=view.shown(|v| &v.trend) strong=true />
                    " "<Value testid="trend-interval" shown=view.shown(|v| &v.interval) />
                </p>
                <p class="field-hint" data-testid="trend-note">{view.text(|v| v.trend_note.clone())}</p>
                <p data-testid="growth-rate" data-value=view.text(|v| v.rate.value.clone())>{view.text(|v| v.rate.text.clone())}</p>
                <p class="term-recommendation">
                    <Value testid="recommended-ladder" shown=view.shown(|v| &v.recommended) strong=true />
                </p>
                <div class="table-wrap" tabindex="0">
                    <table class="growth-table" data-testid="growth-plans">
                        <caption>{bilingual(lang, "Each plan over the months compared, with the growth", "各方案在比较月份内的成本（含增长）")}</caption>
                        <ColumnHeads labels=&PLAN_COLUMNS />
                        <tbody>
                            <Rows count=plans row=Arc::new(move |i| view! {
                                <tr data-plan=plan(i, |v, i| v.plans[i].key.clone())
                                    class=plan(i, |v, i| if v.plans[i].recommended { "recommended".into() } else { String::new() })>
                                    <th scope="row">{plan(i, |v, i| v.plans[i].name.clone())}</th>
                                    <td data-label=move || pick(lang.get(), PLAN_COLUMNS[1].0, PLAN_COLUMNS[1].1)>{plan(i, |v, i| v.plans[i].gpus.clone())}</td>
                                    <Cell testid="growth-plan-cost" label=PLAN_COLUMNS[2] shown=plan_fig(i, |v, i| &v.plans[i].cost) />
                                    <Cell testid="growth-risk-flat" label=PLAN_COLUMNS[3] shown=plan_fig(i, |v, i| &v.plans[i].risk_flat) />
                                    <Cell testid="growth-risk-decline" label=PLAN_COLUMNS[4] shown=plan_fig(i, |v, i| &v.plans[i].risk_decline) />
                                </tr>
                            }.into_any()) />
                        </tbody>
                    </table>
                </div>
                <p class="field-hint" data-testid="growth-risk-note">{view.text(|v| v.risk_note.clone())}</p>
                <h3>{bilingual(lang, "The ladder: what to buy when", "承诺阶梯：何时买多少")}</h3>
                <div class="table-wrap" tabindex="0">
                    <table class="growth-table" data-testid="ladder-table">
                        <caption>
                            {bilingual(lang, "Each tranche kept to the horizon's end (renewed on its term); total ", "每档保持到规划期末（按其期限续约）；合计 ")}
                            <Value testid="ladder-total" shown=view.shown(|v| &v.ladder_total) />
                        </caption>
                        <ColumnHeads labels=&TRANCHE_COLUMNS />
                        <tbody>
                            <Rows count=tranches row=Arc::new(move |i| view! {
                                <tr data-month=tranche(i, |v, i| v.tranches[i].month.clone())>
                                    <th scope="row">{tranche(i, |v, i| v.tranches[i].when.clone())}</th>
                                    <Cell testid="ladder-add" label=TRANCHE_COLUMNS[1] shown=tranche_fig(i, |v, i| &v.tranches[i].add) />
                                    <Cell testid="ladder-term" label=TRANCHE_COLUMNS[2] shown=tranche_fig(i, |v, i| &v.tranches[i].term) />
                                    <td data-label=move || pick(lang.get(), TRANCHE_COLUMNS[3].0, TRANCHE_COLUMNS[3].1)>{tranche(i, |v, i| v.tranches[i].terms_bought.clone())}</td>
                                    <Cell testid="ladder-cost" label=TRANCHE_COLUMNS[4] shown=tranche_fig(i, |v, i| &v.tranches[i].cost) />
                                </tr>
                            }.into_any()) />
                        </tbody>
                    </table>
                </div>
                <details class="how">
                    <summary>{bilingual(lang, "Month by month", "逐月明细")}</summary>
                    <div class="table-wrap" tabindex="0">
                        <table class="growth-table" data-testid="growth-months">
                            <thead><tr>
                                <th scope="col">{bilingual(lang, "Month", "月份")}</th>
                                <th scope="col">{bilingual(lang, "Growth factor", "增长倍数")}</th>
                                <th scope="col">{bilingual(lang, "Projected waterline (GPUs)", "预测水位（卡）")}</th>
                                <th scope="col">{bilingual(lang, "GPU-hours", "卡时")}</th>
                                <th scope="col">{bilingual(lang, "Ladder: committed", "阶梯：已承诺")}</th>
                                <Rows count=plans row=Arc::new(move |j| view! {
                                    <th scope="col">{plan(j, |v, j| v.plans[j].name.clone())}</th>
                                }.into_any()) />
                            </tr></thead>
                            <tbody>
                                <Rows count=months row=Arc::new(move |i| view! {
                                    <tr data-month=month(i * MAX_PLANS, |v, k| v.months[k / MAX_PLANS].month.clone())>
                                        <th scope="row">{month(i * MAX_PLANS, |v, k| v.months[k / MAX_PLANS].month.clone())}</th>
                                        <td data-label=bilingual(lang, "Growth factor", "增长倍数")>{month(i * MAX_PLANS, |v, k| v.months[k / MAX_PLANS].factor.clone())}</td>
                                        <td data-label=bilingual(lang, "Projected waterline (GPUs)", "预测水位（卡）")>{month(i * MAX_PLANS, |v, k| v.months[k / MAX_PLANS].waterline.clone())}</td>
                                        <td data-label=bilingual(lang, "GPU-hours", "卡时")>{month(i * MAX_PLANS, |v, k| v.months[k / MAX_PLANS].gpu_hours.clone())}</td>
                                        <td data-label=bilingual(lang, "Ladder: committed", "阶梯：已承诺")>{month(i * MAX_PLANS, |v, k| v.months[k / MAX_PLANS].committed.clone())}</td>
                                        <Rows count=plans row=Arc::new(move |j| view! {
                                            <td data-label=plan(j, |v, j| v.plans[j].name.clone()) data-plan=plan(j, |v, j| v.plans[j].key.clone())>
                                                {month(i * MAX_PLANS + j, |v, k| v.months[k / MAX_PLANS].costs.get(k % MAX_PLANS).cloned().unwrap_or_default())}
                                            </td>
                                        }.into_any()) />
                                    </tr>
                                }.into_any()) />
                            </tbody>
                        </table>
                    </div>
                </details>
                <HowComputed formula=view.text(|v| v.formula.clone()) formula_testid="growth-formula" anchor="growth"
                    general="f_j = (1 + g)^j;  X_j(C) = r·(H/T)·Σ_t max(0, f_j·u_t − C);  cover(s) = min_m ⌈(h − s + 1)/m⌉·(U_m + m·R_m);  ladder = min over C_1 ≤ … ≤ C_h ≤ cap of Σ ΔC_s·cover(s) + Σ X_j(C_j)" />
            </CardBody>
            </Show>
            </details>
        </section>
    }
}
