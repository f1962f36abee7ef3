//! § 2 Effective idle-adjusted cost of a monthly GPU used h hours a month.

use leptos::prelude::*;

use crate::components::bilingual;

use crate::context::use_ctx;
use crate::core::effective::Cheaper;
use crate::format::{money, number_trim, percent, plain};
use crate::i18n::{error_message, pick};

#[component]
pub fn EffectiveCostCard() -> impl IntoView {
    let ctx = use_ctx();
    let lang = ctx.lang;
    view! {
        <section class="card" aria-labelledby="effective-heading">
            <h2 id="effective-heading">
                {bilingual(lang, "Effective cost of a monthly GPU", "包月 GPU 的实际成本")}
            </h2>
            {move || {
                let l = lang.get();
                let cur = ctx.currency.get();
                let (p, r) = ctx.state.with(|s| (s.inputs.monthly_price, s.inputs.on_demand_price));
                match ctx.outputs.with(|o| o.effective_cost.clone()) {
                    Err(e) => view! { <p class="error" role="alert">{error_message(l, &e)}</p> }.into_any(),
                    Ok(ec) => {
                        let h = number_trim(ec.used_hours, 1, l);
                        let per_hour = ec.cost_per_used_hour.map(|m| money(m, cur, l));
                        let cheaper = match (ec.cheaper, l) {
                            (Cheaper::OnDemand, crate::i18n::Lang::En) => format!(
                                "At {h} h a month, on-demand is cheaper by {} per GPU.",
                                money(ec.difference, cur, l)
                            ),
                            (Cheaper::OnDemand, crate::i18n::Lang::Zh) => format!(
                                "每月用 {h} 小时，按量每卡便宜 {}。",
                                money(ec.difference, cur, l)
                            ),
                            (Cheaper::Monthly, crate::i18n::Lang::En) => format!(
                                "At {h} h a month, monthly is cheaper by {} per GPU.",
                                money(-ec.difference, cur, l)
                            ),
                            (Cheaper::Monthly, crate::i18n::Lang::Zh) => format!(
                                "每月用 {h} 小时，包月每卡便宜 {}。",
                                money(-ec.difference, cur, l)
                            ),
                            (Cheaper::Same, crate::i18n::Lang::En) => format!("At {h} h a month both cost the same."),
                            (Cheaper::Same, crate::i18n::Lang::Zh) => format!("每月用 {h} 小时，两者成本相同。"),
                        };
                        let from_history = ctx.profile.with(|p| matches!(p, Some(Ok(_))));
                        let source = match (from_history, l) {
                            (true, crate::i18n::Lang::En) => format!(
                                "From your history: each of the {} committed GPU(s) worked {h} h a month on average.",
                                ec.gpus
                            ),
                            (true, crate::i18n::Lang::Zh) => format!(
                                "来自你的用量历史：{} 张包月 GPU 平均每张每月工作 {h} 小时。",
                                ec.gpus
                            ),
                            (false, crate::i18n::Lang::En) => {
                                format!("From the sliders: {} GPU(s), each used {h} h a month.", ec.gpus)
                            }
                            (false, crate::i18n::Lang::Zh) => {
                                format!("来自滑块：{} 张 GPU，每张每月使用 {h} 小时。", ec.gpus)
                            }
                        };
                        view! {
                            <p class="field-hint" data-testid="effective-source">{source}</p>
                            <dl class="figures">
                                <div>
                                    <dt>{pick(l, "Cost per hour actually used", "每实际使用小时成本")}</dt>
                                    <dd
                                        data-testid="effective-hourly"
                                        data-value=ec.cost_per_used_hour.map(|m| m.to_plain_string()).unwrap_or_default()
                                    >
                                        {per_hour.clone().unwrap_or_else(|| pick(l, "— (no hour used)", "—（未使用）").to_string())}
                                        {ec.multiple_of_on_demand.map(|x| format!(" · {}× {}", number_trim(x, 2, l), pick(l, "on-demand", "按量价")))}
                                    </dd>
                                </div>
                                <div>
                                    <dt>{pick(l, "Idle hours per GPU per month", "每卡每月闲置小时")}</dt>
                                    <dd data-testid="idle-hours" data-value=plain(ec.idle_hours, 2)>
                                        {number_trim(ec.idle_hours, 1, l)} " h (" {percent(ec.idle_fraction, 1, l)} ")"
                                    </dd>
                                </div>
                                <div>
                                    <dt>{pick(l, "Money burnt idle per GPU per month", "每卡每月闲置浪费")}</dt>
                                    <dd data-testid="idle-cost" data-value=ec.idle_money.to_plain_string()>
                                        {money(ec.idle_money, cur, l)}
                                    </dd>
                                </div>
                                <div>
                                    <dt>{pick(l, "Same hours on demand, per GPU", "同样小时数按量（每卡）")}</dt>
                                    <dd data-testid="on-demand-same-hours" data-value=ec.on_demand.to_plain_string()>
                                        {money(ec.on_demand, cur, l)}
                                    </dd>
                                </div>
                                <div>
                                    <dt>{pick(l, "Fleet: idle money per month", "整个集群每月闲置浪费")}</dt>
                                    <dd data-testid="fleet-idle-cost" data-value=ec.fleet_idle_money.to_plain_string()>
                                        {money(ec.fleet_idle_money, cur, l)} " (" {ec.gpus} " GPU)"
                                    </dd>
                                </div>
                            </dl>
                            <p class="explainer" data-testid="effective-verdict">{cheaper}</p>
                            <details class="how">
                                <summary>{pick(l, "How is this computed?", "怎么算的？")}</summary>
                                <p class="formula">
                                    {format!(
                                        "P / h = {} / {} = {};  {}: P·(H − h)/H = {} × ({} − {}) / {} = {};  r·h = {} × {} = {}",
                                        number_trim(p, 2, l),
                                        h,
                                        per_hour.unwrap_or_else(|| "—".into()),
                                        pick(l, "idle", "闲置"),
                                        number_trim(p, 2, l),
                                        number_trim(ec.used_hours + ec.idle_hours, 0, l),
                                        h,
                                        number_trim(ec.used_hours + ec.idle_hours, 0, l),
                                        money(ec.idle_money, cur, l),
                                        number_trim(r, 4, l),
                                        h,
                                        money(ec.on_demand, cur, l),
                                    )}
                                </p>
                                <a href="docs/formulas.html#effective-cost">{pick(l, "Formula", "公式")}</a>
                            </details>
                        }
                            .into_any()
                    }
                }
            }}
        </section>
    }
}
