//! § 2 Effective idle-adjusted cost of a monthly GPU used h hours a month.
//! The texts: `present::effective`; this file only places them.

use leptos::prelude::*;

use crate::components::how_computed::HowComputed;

use crate::components::card_body::CardBody;

use crate::components::bilingual;
use crate::components::figure::Figure;
use crate::page::context::{error_of, is_ok, use_ctx, Part};

#[component]
pub fn EffectiveCostCard() -> impl IntoView {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let view = Part::of(|p| &p.effective);
    view! {
        <section node_ref=view.view.node class="card" aria-labelledby="effective-heading">
            <h2 id="effective-heading">
                {bilingual(lang, "Effective cost of a monthly GPU", "包月 GPU 的实际成本")}
            </h2>
            <CardBody ok=is_ok(view) error=error_of(view)>
                <p class="field-hint" data-testid="effective-source">{view.text(|v| v.source.clone())}</p>
                <dl class="figures">
                    <Figure testid="effective-hourly" en="Cost per hour actually used" zh="每实际使用小时成本"
                        shown=view.shown(|v| &v.hourly) />
                    <Figure testid="idle-hours" en="Idle hours per GPU per month" zh="每卡每月闲置小时"
                        shown=view.shown(|v| &v.idle_hours) />
                    <Figure testid="idle-cost" en="Money burnt idle per GPU per month" zh="每卡每月闲置浪费"
                        shown=view.shown(|v| &v.idle_cost) />
                    <Figure testid="on-demand-same-hours" en="Same hours on demand, per GPU" zh="同样小时数按量（每卡）"
                        shown=view.shown(|v| &v.on_demand) />
                    <Figure testid="fleet-idle-cost" en="Fleet: idle money per month" zh="整个集群每月闲置浪费"
                        shown=view.shown(|v| &v.fleet_idle) />
                </dl>
                <p class="explainer" data-testid="effective-verdict">{view.text(|v| v.verdict.clone())}</p>
                <HowComputed formula=view.text(|v| v.formula.clone()) anchor="effective-cost" />
            </CardBody>
        </section>
    }
}
