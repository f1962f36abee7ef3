//! § 11 Burst what-if: J jobs × g GPUs × d hours on F free fixed GPUs, with or without up
//! to E elastic GPUs billed at r per second, minute or hour.
//! The texts: `present::burst`; this file only places them.

use leptos::prelude::*;

use crate::components::what_if::{starts_open, WhatIfSummary};
use crate::inputs::BURST_INPUTS;

use crate::components::cell::Cell;

use crate::components::how_computed::HowComputed;

use crate::components::bilingual;
use crate::components::column_heads::ColumnHeads;

use crate::components::card_body::CardBody;
use crate::components::figure::Figure;
use crate::components::input_fields::InputFields;
use crate::core::burst::BillingIncrement;
use crate::i18n::{pick, Lang};
use crate::inputs::Group;
use crate::page::context::{error_of, is_ok, use_ctx, Part};

fn increment_label(l: Lang, inc: BillingIncrement) -> &'static str {
    match inc {
        BillingIncrement::Second => pick(l, "Per second", "按秒计费"),
        BillingIncrement::Minute => pick(l, "Per minute", "按分钟计费"),
        BillingIncrement::Hour => pick(l, "Per started hour", "按小时计费（不足一小时按一小时）"),
    }
}

#[component]
pub fn BurstCard() -> impl IntoView {
    let ctx = use_ctx();
    let state = ctx.state;
    let lang = ctx.lang;

    let on_increment = move |ev| {
        let inc = match event_target_value(&ev).as_str() {
            "second" => BillingIncrement::Second,
            "hour" => BillingIncrement::Hour,
            _ => BillingIncrement::Minute,
        };
        state.update(|s| s.inputs.billing_increment = inc);
    };
    let increment = move || state.with(|s| s.inputs.billing_increment);
    let view = Part::of(|p| &p.burst);

    view! {
        <section node_ref=view.view.node class="card" aria-labelledby="burst-heading">
            <details class="disclosure what-if" open=starts_open(&BURST_INPUTS)>
            <WhatIfSummary heading_id="burst-heading" title=("Burst: add elastic GPUs to a batch of jobs?", "突发任务：要不要加弹性 GPU？")
                gist=view.text(|v| v.verdict.clone()) />
            <div class="split">
            <div class="split-in">
            <InputFields group_of=Group::Burst />
            <div class="field">
                <label class="field-label" for="billing-increment">
                    {bilingual(lang, "Billing increment of elastic GPUs", "弹性 GPU 计费粒度")}
                </label>
                <select id="billing-increment" data-testid="billing-increment" on:change=on_increment>
                    {[BillingIncrement::Second, BillingIncrement::Minute, BillingIncrement::Hour]
                        .into_iter()
                        .map(|inc| {
                            view! {
                                <option value=inc.key() selected=move || increment() == inc>
                                    {move || increment_label(lang.get(), inc)}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </div>
            </div>
            <div class="split-out">
            <CardBody ok=is_ok(view) error=error_of(view)>
                <div class="table-wrap" tabindex="0"><table class="compare" data-testid="burst-table">
                    <caption>{bilingual(lang, "Running the burst with and without elastic GPUs", "突发任务：仅用固定 GPU 与加弹性 GPU 对比")}</caption>
                    <ColumnHeads labels=&[("Figure", "指标"), ("Fixed GPUs only", "仅用固定 GPU"), ("With elastic GPUs", "加弹性 GPU")] />
                    <tbody>
                        <tr>
                            <th scope="row">{bilingual(lang, "Jobs at once", "同时运行的任务数")}</th>
                            <Cell testid="burst-fixed-parallel" shown=view.shown(|v| &v.fixed_parallel) />
                            <Cell testid="burst-elastic-parallel" shown=view.shown(|v| &v.elastic_parallel) />
                        </tr>
                        <tr>
                            <th scope="row">{bilingual(lang, "Batches", "批次")}</th>
                            <Cell testid="burst-fixed-batches" shown=view.shown(|v| &v.fixed_batches) />
                            <Cell testid="burst-elastic-batches" shown=view.shown(|v| &v.elastic_batches) />
                        </tr>
                        <tr>
                            <th scope="row">{bilingual(lang, "Wall time", "总耗时")}</th>
                            <Cell testid="burst-fixed-wall-hours" shown=view.shown(|v| &v.fixed_wall_hours) />
                            <Cell testid="burst-elastic-wall-hours" shown=view.shown(|v| &v.elastic_wall_hours) />
                        </tr>
                        <tr>
                            <th scope="row">{bilingual(lang, "Elastic GPUs rented", "租用的弹性 GPU")}</th>
                            <td>"0"</td>
                            <Cell testid="burst-elastic-gpus-used" shown=view.shown(|v| &v.elastic_gpus_used) />
                        </tr>
                        <tr>
                            <th scope="row">{bilingual(lang, "Elastic GPU-hours billed", "计费的弹性 GPU 小时")}</th>
                            <td>"0"</td>
                            <Cell testid="burst-elastic-gpu-hours" shown=view.shown(|v| &v.elastic_gpu_hours) />
                        </tr>
                        <tr>
                            <th scope="row">{bilingual(lang, "Extra cost", "额外费用")}</th>
                            <Cell testid="burst-fixed-cost" shown=view.shown(|v| &v.fixed_cost) />
                            <Cell testid="burst-elastic-cost" shown=view.shown(|v| &v.elastic_cost) />
                        </tr>
                    </tbody>
                </table></div>
                <dl class="figures">
                    <Figure testid="burst-hours-saved" en="Hours saved by elastic GPUs" zh="加弹性 GPU 节省的时间"
                        shown=view.shown(|v| &v.hours_saved) />
                    <Figure testid="burst-cost-per-hour-saved" en="Cost per hour saved" zh="每节省 1 小时的费用"
                        shown=view.shown(|v| &v.cost_per_hour_saved) />
                </dl>
                <p class="explainer" data-testid="burst-verdict">{view.text(|v| v.verdict.clone())}</p>
                <HowComputed formula=view.text(|v| v.formula.clone()) anchor="burst">
                    <p class="explainer">
                        {bilingual(
                            lang,
                            "Only as many elastic GPUs are rented as the fewest batches need; those the last, smaller batch does not use are released after the previous batch. Each rental is rounded up to the billing increment.",
                            "只租用达到最少批次所需的弹性 GPU；最后一批较小时，用不到的 GPU 在上一批结束后释放。每次租用按计费粒度向上取整。",
                        )}
                    </p>
                </HowComputed>
            </CardBody>
            </div>
            </div>
        </details>
        </section>
    }
}
