//! § 11 Burst what-if: J jobs × g GPUs × d hours on F free fixed GPUs, with or without up
//! to E elastic GPUs billed at r per second, minute or hour.
//! The texts: `present::burst`; this file only places them.

use leptos::prelude::*;

use crate::components::bilingual;

use crate::components::card_body::CardBody;
use crate::components::figure::Figure;
use crate::components::input_fields::InputFields;
use crate::context::{error_of, is_ok, shown_of, text_of, use_ctx, Part};
use crate::core::burst::BillingIncrement;
use crate::i18n::{pick, Lang};
use crate::inputs::Group;
use crate::present::burst::BurstView;

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
    let text = move |part: fn(&BurstView) -> String| text_of(view, part);
    let shown = move |part| shown_of(view, part);

    view! {
        <section class="card" aria-labelledby="burst-heading">
            <h2 id="burst-heading">
                {bilingual(lang, "Burst: add elastic GPUs to a batch of jobs?", "突发任务：要不要加弹性 GPU？")}
            </h2>
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
            <CardBody ok=is_ok(view) error=error_of(view)>
                <div class="table-wrap" tabindex="0"><table class="compare" data-testid="burst-table">
                    <caption>{bilingual(lang, "Running the burst with and without elastic GPUs", "突发任务：仅用固定 GPU 与加弹性 GPU 对比")}</caption>
                    <thead>
                        <tr>
                            <th scope="col">{bilingual(lang, "Figure", "指标")}</th>
                            <th scope="col">{bilingual(lang, "Fixed GPUs only", "仅用固定 GPU")}</th>
                            <th scope="col">{bilingual(lang, "With elastic GPUs", "加弹性 GPU")}</th>
                        </tr>
                    </thead>
                    <tbody>
                        <tr>
                            <th scope="row">{bilingual(lang, "Jobs at once", "同时运行的任务数")}</th>
                            <td data-testid="burst-fixed-parallel" data-value=text(|v| v.fixed_parallel.value.clone())>{text(|v| v.fixed_parallel.text.clone())}</td>
                            <td data-testid="burst-elastic-parallel" data-value=text(|v| v.elastic_parallel.value.clone())>{text(|v| v.elastic_parallel.text.clone())}</td>
                        </tr>
                        <tr>
                            <th scope="row">{bilingual(lang, "Batches", "批次")}</th>
                            <td data-testid="burst-fixed-batches" data-value=text(|v| v.fixed_batches.value.clone())>{text(|v| v.fixed_batches.text.clone())}</td>
                            <td data-testid="burst-elastic-batches" data-value=text(|v| v.elastic_batches.value.clone())>{text(|v| v.elastic_batches.text.clone())}</td>
                        </tr>
                        <tr>
                            <th scope="row">{bilingual(lang, "Wall time", "总耗时")}</th>
                            <td data-testid="burst-fixed-wall-hours" data-value=text(|v| v.fixed_wall_hours.value.clone())>{text(|v| v.fixed_wall_hours.text.clone())}</td>
                            <td data-testid="burst-elastic-wall-hours" data-value=text(|v| v.elastic_wall_hours.value.clone())>{text(|v| v.elastic_wall_hours.text.clone())}</td>
                        </tr>
                        <tr>
                            <th scope="row">{bilingual(lang, "Elastic GPUs rented", "租用的弹性 GPU")}</th>
                            <td>"0"</td>
                            <td data-testid="burst-elastic-gpus-used" data-value=text(|v| v.elastic_gpus_used.value.clone())>{text(|v| v.elastic_gpus_used.text.clone())}</td>
                        </tr>
                        <tr>
                            <th scope="row">{bilingual(lang, "Elastic GPU-hours billed", "计费的弹性 GPU 小时")}</th>
                            <td>"0"</td>
                            <td data-testid="burst-elastic-gpu-hours" data-value=text(|v| v.elastic_gpu_hours.value.clone())>
                                {text(|v| v.elastic_gpu_hours.text.clone())}
                            </td>
                        </tr>
                        <tr>
                            <th scope="row">{bilingual(lang, "Extra cost", "额外费用")}</th>
                            <td data-testid="burst-fixed-cost" data-value=text(|v| v.fixed_cost.value.clone())>{text(|v| v.fixed_cost.text.clone())}</td>
                            <td data-testid="burst-elastic-cost" data-value=text(|v| v.elastic_cost.value.clone())>{text(|v| v.elastic_cost.text.clone())}</td>
                        </tr>
                    </tbody>
                </table></div>
                <dl class="figures">
                    <Figure testid="burst-hours-saved" en="Hours saved by elastic GPUs" zh="加弹性 GPU 节省的时间"
                        shown=shown(|v| &v.hours_saved) />
                    <Figure testid="burst-cost-per-hour-saved" en="Cost per hour saved" zh="每节省 1 小时的费用"
                        shown=shown(|v| &v.cost_per_hour_saved) />
                </dl>
                <p class="explainer" data-testid="burst-verdict">{text(|v| v.verdict.clone())}</p>
                <details class="how">
                    <summary>{bilingual(lang, "How is this computed?", "怎么算的？")}</summary>
                    <p class="formula">{text(|v| v.formula.clone())}</p>
                    <p class="explainer">
                        {bilingual(
                            lang,
                            "Only as many elastic GPUs are rented as the fewest batches need; those the last, smaller batch does not use are released after the previous batch. Each rental is rounded up to the billing increment.",
                            "只租用达到最少批次所需的弹性 GPU；最后一批较小时，用不到的 GPU 在上一批结束后释放。每次租用按计费粒度向上取整。",
                        )}
                    </p>
                    <a href="docs/formulas.html#burst">{bilingual(lang, "Formula", "公式")}</a>
                </details>
            </CardBody>
        </section>
    }
}
