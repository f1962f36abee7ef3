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
use crate::components::value::Value;
use crate::inputs::Group;
use crate::page::context::{error_of, is_ok, use_ctx, Part};

#[component]
pub fn HiddenCostsCard() -> impl IntoView {
    let lang = use_ctx().lang;
    let view = Part::of(|p| &p.hidden);

    view! {
        <section node_ref=view.view.node class="card" aria-labelledby="hidden-heading">
            <details class="disclosure what-if" open=starts_open(&HIDDEN_INPUTS)>
            <WhatIfSummary heading_id="hidden-heading" title=("Hidden costs of on-demand GPUs", "按量 GPU 的隐性成本")
                gist=view.text(|v| v.verdict.clone()) />
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
                    <Figure testid="hidden-storage-cost" en="Storage" zh="存储" shown=view.shown(|v| &v.storage) />
                    <Figure testid="hidden-public-ip-cost" en="Public IP" zh="公网 IP" shown=view.shown(|v| &v.public_ip) />
                    <Figure testid="hidden-snapshots-cost" en="Snapshots" zh="快照" shown=view.shown(|v| &v.snapshots) />
                    <Figure testid="hidden-egress-cost" en="Egress" zh="出网流量" shown=view.shown(|v| &v.egress) />
                    <Figure testid="hidden-autostop-waste" en="Auto-stop waste" zh="自动关机前的闲置浪费"
                        shown=view.shown(|v| &v.autostop_waste)>
                        " ("
                        <Value testid="hidden-autostop-gpu-hours" shown=view.shown(|v| &v.autostop_gpu_hours) />
                        {bilingual(lang, " idle GPU-hours)", " 个闲置 GPU 小时）")}
                    </Figure>
                    <Figure testid="hidden-total" en="Total hidden costs per month" zh="每月隐性成本合计"
                        shown=view.shown(|v| &v.total) strong=true />
                    <Figure testid="hidden-elastic-gpu-hours" en="Elastic GPU-hours per month in the plan" zh="方案中每月弹性 GPU 小时"
                        shown=view.shown(|v| &v.elastic_gpu_hours) />
                    <Figure testid="hidden-per-elastic-hour" en="Surcharge per elastic GPU-hour" zh="每弹性 GPU 小时分摊"
                        shown=view.shown(|v| &v.per_elastic_hour) />
                    <Figure testid="hidden-effective-on-demand" en="Real on-demand price per GPU-hour" zh="按量真实价格（每 GPU 小时）"
                        shown=view.shown(|v| &v.effective_on_demand) />
                </dl>
                <p class="explainer" data-testid="hidden-verdict">{view.text(|v| v.verdict.clone())}</p>
                <HowComputed formula=view.text(|v| v.formula.clone()) anchor="hidden-costs" />
            </CardBody>
            </div>
            </div>
        </details>
        </section>
    }
}
