//! § 13 Hidden costs of the elastic path: storage, public IP, snapshots, egress and
//! auto-stop waste per month, spread over the plan's elastic GPU-hours (§ 9).
//! The texts: `present::hidden`; this file only places them.

use leptos::prelude::*;

use crate::components::what_if::{starts_open, WhatIfSummary};
use crate::inputs::HIDDEN_INPUTS;

use crate::components::how_computed::HowComputed;

use crate::components::bilingual;

use crate::components::card_body::CardBody;
use crate::components::figure::Figure;
use crate::components::input_fields::InputFields;
use crate::inputs::Group;
use crate::page::context::{error_of, is_ok, shown_of, text_of, use_ctx, Part};
use crate::present::hidden::HiddenView;

#[component]
pub fn HiddenCostsCard() -> impl IntoView {
    let ctx = use_ctx();
    let _state = ctx.state;
    let lang = ctx.lang;

    let view = Part::of(|p| &p.hidden);
    let text = move |part: fn(&HiddenView) -> String| text_of(view, part);
    let shown = move |part| shown_of(view, part);

    view! {
        <section node_ref=view.view.node class="card" aria-labelledby="hidden-heading">
            <details class="disclosure what-if" open=starts_open(&HIDDEN_INPUTS)>
            <WhatIfSummary heading_id="hidden-heading" title=("Hidden costs of on-demand GPUs", "按量 GPU 的隐性成本")
                gist=text_of(view, |v| v.verdict.clone()) />
            <p class="explainer">
                {bilingual(
                    lang,
                    "Elastic GPUs bring monthly extras that the hourly price does not show.",
                    "弹性 GPU 每月还有一些按小时价格里看不到的额外费用。",
                )}
            </p>
            <div class="split">
            <div class="split-in">
            <InputFields group_of=Group::Hidden />
            </div>
            <div class="split-out">
            <CardBody ok=is_ok(view) error=error_of(view)>
                <dl class="figures">
                    <Figure testid="hidden-storage-cost" en="Storage" zh="存储" shown=shown(|v| &v.storage) />
                    <Figure testid="hidden-public-ip-cost" en="Public IP" zh="公网 IP" shown=shown(|v| &v.public_ip) />
                    <Figure testid="hidden-snapshots-cost" en="Snapshots" zh="快照" shown=shown(|v| &v.snapshots) />
                    <Figure testid="hidden-egress-cost" en="Egress" zh="出网流量" shown=shown(|v| &v.egress) />
                    <div>
                        <dt>{bilingual(lang, "Auto-stop waste", "自动关机前的闲置浪费")}</dt>
                        <dd data-testid="hidden-autostop-waste" data-value=text(|v| v.autostop_waste.value.clone())>
                            {text(|v| v.autostop_waste.text.clone())}
                            " ("
                            <span data-testid="hidden-autostop-gpu-hours" data-value=text(|v| v.autostop_gpu_hours.value.clone())>
                                {text(|v| v.autostop_gpu_hours.text.clone())}
                            </span>
                            {bilingual(lang, " idle GPU-hours)", " 个闲置 GPU 小时）")}
                        </dd>
                    </div>
                    <div>
                        <dt>{bilingual(lang, "Total hidden costs per month", "每月隐性成本合计")}</dt>
                        <dd data-testid="hidden-total" data-value=text(|v| v.total.value.clone())>
                            <strong>{text(|v| v.total.text.clone())}</strong>
                        </dd>
                    </div>
                    <Figure testid="hidden-elastic-gpu-hours" en="Elastic GPU-hours per month in the plan" zh="方案中每月弹性 GPU 小时"
                        shown=shown(|v| &v.elastic_gpu_hours) />
                    <Figure testid="hidden-per-elastic-hour" en="Surcharge per elastic GPU-hour" zh="每弹性 GPU 小时分摊"
                        shown=shown(|v| &v.per_elastic_hour) />
                    <Figure testid="hidden-effective-on-demand" en="Real on-demand price per GPU-hour" zh="按量真实价格（每 GPU 小时）"
                        shown=shown(|v| &v.effective_on_demand) />
                </dl>
                <p class="explainer" data-testid="hidden-verdict">{text(|v| v.verdict.clone())}</p>
                <HowComputed formula=text(|v| v.formula.clone()) anchor="hidden-costs" />
            </CardBody>
            </div>
            </div>
        </details>
        </section>
    }
}
