//! § 8 Spot pool: effective price per useful GPU-hour with checkpoints (Young's interval),
//! the first-order validity range, and the expected run of a job without checkpoints.
//! δ and R are shown in minutes (the engine keeps hours); λ in reclaims per hour.
//! The output texts: `present::spot`; this file places them and holds the inputs.

use leptos::prelude::*;

use crate::components::what_if::{starts_open, WhatIfSummary};
use crate::inputs::SPOT_INPUTS;

use crate::components::how_computed::HowComputed;

use crate::components::bilingual;
use crate::components::figure::Figure;

use crate::components::card_body::CardBody;
use crate::components::input_fields::InputFields;
use crate::components::note::Note;
use crate::components::when::When;
use crate::inputs::{young_or_one, Group};
use crate::page::context::{error_of, is_ok, memo_of, use_ctx, Part};

#[component]
pub fn SpotCard() -> impl IntoView {
    let ctx = use_ctx();
    let state = ctx.state;
    let lang = ctx.lang;
    let use_young = memo_of(state, |s| s.inputs.checkpoint_interval_hours.is_none());
    let custom_interval = memo_of(state, |s| s.inputs.checkpoint_interval_hours.is_some());
    let on_young = move |ev| {
        let checked = event_target_checked(&ev);
        state.update(|s| {
            s.inputs.checkpoint_interval_hours = if checked {
                None
            } else {
                Some(young_or_one(&s.inputs))
            }
        });
    };

    // The outputs, as shown: one memo for each part of the card (with and without
    // checkpoints fail separately); every text below reads its own part of one of them.
    let checkpoints = Part::of(|p| &p.spot);
    let no_checkpoint = Part::in_card(checkpoints.view, |p| &p.spot_no_checkpoint);

    view! {
        <section node_ref=checkpoints.view.node class="card" aria-labelledby="spot-heading">
            <details class="disclosure what-if" open=starts_open(&SPOT_INPUTS)>
            <WhatIfSummary heading_id="spot-heading" title=("Spot instances with checkpoints", "竞价实例（带检查点）")
                gist=checkpoints.text(|v| v.verdict.clone().or_else(|| v.warning.clone()).unwrap_or_default()) />
            <div class="split">
            <div class="split-in">
            <InputFields group_of=Group::Spot />
            <div class="field">
                <label class="check">
                    <input
                        type="checkbox"
                        data-testid="use-young"
                        prop:checked=move || use_young.get()
                        on:change=on_young
                    />
                    " "
                    {bilingual(
                        lang,
                        "Use Young's optimum checkpoint interval √(2δ/λ)",
                        "使用 Young 最优检查点间隔 √(2δ/λ)",
                    )}
                </label>
            </div>
            <When when=custom_interval>
                <InputFields group_of=Group::SpotInterval />
            </When>
            </div>
            <div class="split-out">
            <CardBody ok=is_ok(checkpoints) error=error_of(checkpoints)>
                <Note class="warning" testid="spot-warning" when=checkpoints.flag(|v| v.warning.is_some())
                    text=checkpoints.text(|v| v.warning.clone().unwrap_or_default()) />
                <dl class="figures">
                    <Figure testid="spot-effective-price"
                        en="Spot price per useful GPU-hour (with checkpoints)" zh="竞价每有效 GPU 小时价格（带检查点）"
                        shown=checkpoints.shown(|v| &v.effective_price) />
                    <Figure testid="spot-saving"
                        en="Saving against on demand per useful GPU-hour" zh="相比按量每有效 GPU 小时节省"
                        shown=checkpoints.shown(|v| &v.saving) />
                    <Figure testid="spot-young-interval"
                        en="Young's optimum checkpoint interval" zh="Young 最优检查点间隔"
                        shown=checkpoints.shown(|v| &v.young_interval) />
                    <Figure testid="spot-interval" en="Checkpoint interval used" zh="采用的检查点间隔"
                        shown=checkpoints.shown(|v| &v.interval) />
                    <Figure testid="spot-checkpoint-overhead"
                        en="Time lost saving checkpoints (δ/τ)" zh="保存检查点损失的时间（δ/τ）"
                        shown=checkpoints.shown(|v| &v.checkpoint_overhead) />
                    <Figure testid="spot-reclaim-overhead"
                        en="Time lost to reclaims (λ(τ/2 + R))" zh="被回收损失的时间（λ(τ/2 + R)）"
                        shown=checkpoints.shown(|v| &v.reclaim_overhead) />
                    <Figure testid="spot-first-order"
                        en="First-order formula accurate?" zh="一阶近似是否适用？"
                        shown=checkpoints.shown(|v| &v.first_order) />
                </dl>
                <Note class="explainer" testid="spot-verdict" when=checkpoints.flag(|v| v.verdict.is_some())
                    text=checkpoints.text(|v| v.verdict.clone().unwrap_or_default()) />
                <HowComputed formula=checkpoints.text(|v| v.formula.clone()) anchor="spot" />
            </CardBody>
            </div>
            </div>
            <h3>{bilingual(lang, "Without checkpoints", "不做检查点")}</h3>
            <div class="split">
            <div class="split-in">
            <InputFields group_of=Group::SpotJob />
            </div>
            <div class="split-out">
            <CardBody ok=is_ok(no_checkpoint) error=error_of(no_checkpoint)>
                <Note class="warning" testid="spot-no-checkpoint-warning" when=no_checkpoint.flag(|v| v.warning.is_some())
                    text=no_checkpoint.text(|v| v.warning.clone().unwrap_or_default()) />
                <dl class="figures">
                    <Figure testid="spot-no-checkpoint-hours"
                        en="Expected wall time per GPU" zh="每卡预计实际耗时"
                        shown=no_checkpoint.shown(|v| &v.hours) />
                    <Figure testid="spot-no-checkpoint-cost"
                        en="Expected spot cost per GPU" zh="每卡预计竞价费用"
                        shown=no_checkpoint.shown(|v| &v.cost) />
                    <Figure testid="spot-no-checkpoint-on-demand"
                        en="Same job on demand per GPU" zh="同样任务按量（每卡）"
                        shown=no_checkpoint.shown(|v| &v.on_demand) />
                    <Figure testid="spot-no-checkpoint-price"
                        en="Spot price per useful GPU-hour without checkpoints" zh="不做检查点时竞价每有效 GPU 小时价格"
                        shown=no_checkpoint.shown(|v| &v.price) />
                </dl>
                <HowComputed formula=no_checkpoint.text(|v| v.formula.clone()) anchor="spot" />
            </CardBody>
            </div>
            </div>
        </details>
        </section>
    }
}
