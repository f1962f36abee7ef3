//! § 13 Hidden costs of the elastic path: storage, public IP, snapshots, egress and
//! auto-stop waste per month, spread over the plan's elastic GPU-hours (§ 9).

use leptos::prelude::*;

use crate::components::bilingual;

use crate::components::slider_field::SliderField;
use crate::context::{bind_input, use_ctx};
use crate::core::error::{non_negative, Field};
use crate::core::hidden::{
    MAX_EGRESS_GB, MAX_EGRESS_PRICE, MAX_HIDDEN_MONTHLY, MAX_IDLE_TIMEOUT_HOURS, MAX_SESSIONS,
};
use crate::core::money::Money;
use crate::format::{money, number_trim, plain};
use crate::i18n::{error_message, pick, Lang};

#[component]
pub fn HiddenCostsCard() -> impl IntoView {
    let ctx = use_ctx();
    let state = ctx.state;
    let lang = ctx.lang;
    let label = move |en: &'static str, zh: &'static str| {
        Signal::derive(move || pick(lang.get(), en, zh).to_string())
    };

    let (storage, set_storage) = bind_input(
        state,
        |i| i.hidden_storage_monthly,
        |i, v| i.hidden_storage_monthly = v,
    );
    let (ip, set_ip) = bind_input(
        state,
        |i| i.hidden_public_ip_monthly,
        |i, v| i.hidden_public_ip_monthly = v,
    );
    let (snapshots, set_snapshots) = bind_input(
        state,
        |i| i.hidden_snapshots_monthly,
        |i, v| i.hidden_snapshots_monthly = v,
    );
    let (egress_price, set_egress_price) = bind_input(
        state,
        |i| i.hidden_egress_per_gb,
        |i, v| i.hidden_egress_per_gb = v,
    );
    let (egress_gb, set_egress_gb) =
        bind_input(state, |i| i.hidden_egress_gb, |i, v| i.hidden_egress_gb = v);
    let (sessions, set_sessions) =
        bind_input(state, |i| i.hidden_sessions, |i, v| i.hidden_sessions = v);
    let (timeout_min, set_timeout_min) = bind_input(
        state,
        |i| i.hidden_idle_timeout_hours * 60.0,
        |i, v| i.hidden_idle_timeout_hours = v / 60.0,
    );

    view! {
        <section class="card" aria-labelledby="hidden-heading">
            <h2 id="hidden-heading">
                {bilingual(lang, "Hidden costs of on-demand GPUs", "按量 GPU 的隐性成本")}
            </h2>
            <p class="explainer">
                {move || pick(
                    lang.get(),
                    "Elastic GPUs bring monthly extras that the hourly price does not show.",
                    "弹性 GPU 每月还有一些按小时价格里看不到的额外费用。",
                )}
            </p>
            <SliderField
                testid="hidden-storage"
                label=label("Cloud disks and storage per month", "云盘与存储（每月）")
                hint=label(
                    "Data and system disks kept between sessions.",
                    "会话之间一直保留的数据盘和系统盘。",
                )
                value=storage
                on_commit=set_storage
                field=Field::HiddenCost
                validate=|v| non_negative(Field::HiddenCost, v, MAX_HIDDEN_MONTHLY)
                lang
                min=0.0
                max=5000.0
                step=10.0
            />
            <SliderField
                testid="hidden-public-ip"
                label=label("Public IP per month", "公网 IP（每月）")
                hint=label("Elastic IPs and bandwidth packages.", "弹性公网 IP 与带宽包。")
                value=ip
                on_commit=set_ip
                field=Field::HiddenCost
                validate=|v| non_negative(Field::HiddenCost, v, MAX_HIDDEN_MONTHLY)
                lang
                min=0.0
                max=500.0
                step=5.0
            />
            <SliderField
                testid="hidden-snapshots"
                label=label("Snapshots and images per month", "快照与镜像（每月）")
                hint=label("Disk snapshots and custom images stored.", "保存的磁盘快照与自定义镜像。")
                value=snapshots
                on_commit=set_snapshots
                field=Field::HiddenCost
                validate=|v| non_negative(Field::HiddenCost, v, MAX_HIDDEN_MONTHLY)
                lang
                min=0.0
                max=2000.0
                step=10.0
            />
            <SliderField
                testid="hidden-egress-price"
                label=label("Egress price per GB", "出网流量单价（每 GB）")
                hint=label(
                    "What the cloud charges for each GB leaving it.",
                    "云厂商对每 GB 出网流量收取的费用。",
                )
                value=egress_price
                on_commit=set_egress_price
                field=Field::HiddenCost
                validate=|v| non_negative(Field::HiddenCost, v, MAX_EGRESS_PRICE)
                lang
                min=0.0
                max=5.0
                step=0.05
            />
            <SliderField
                testid="hidden-egress-gb"
                label=label("Egress per month (GB)", "每月出网流量（GB）")
                hint=label(
                    "Checkpoints, models and results downloaded each month.",
                    "每月下载的检查点、模型与结果。",
                )
                value=egress_gb
                on_commit=set_egress_gb
                field=Field::HiddenCost
                validate=|v| non_negative(Field::HiddenCost, v, MAX_EGRESS_GB)
                lang
                min=0.0
                max=10_000.0
                step=10.0
            />
            <SliderField
                testid="hidden-sessions"
                label=label("Elastic sessions per month", "每月弹性会话数")
                hint=label(
                    "Each session ends with one idle wait before auto-stop, billed for one GPU.",
                    "每个会话结束后都要空等一段时间才自动关机，按一张 GPU 计费。",
                )
                value=sessions
                on_commit=set_sessions
                field=Field::HiddenCost
                validate=|v| non_negative(Field::HiddenCost, v, MAX_SESSIONS)
                lang
                min=0.0
                max=500.0
                step=1.0
            />
            <SliderField
                testid="hidden-idle-timeout"
                label=label("Idle time before auto-stop (minutes)", "自动关机前的闲置时间（分钟）")
                hint=label(
                    "How long an idle GPU keeps running before it is stopped.",
                    "GPU 闲置后要运行多久才会被自动关机。",
                )
                value=timeout_min
                on_commit=set_timeout_min
                field=Field::HiddenCost
                validate=|v| non_negative(Field::HiddenCost, v, MAX_IDLE_TIMEOUT_HOURS * 60.0)
                lang
                min=0.0
                max=240.0
                step=5.0
            />
            {move || {
                let l = lang.get();
                let cur = ctx.currency.get();
                let inputs = state.with(|s| s.inputs.clone());
                let elastic_hours = ctx
                    .outputs
                    .with(|o| o.pools.as_ref().map(|p| p.elastic_gpu_hours).ok());
                match ctx.outputs.with(|o| o.hidden.clone()) {
                    Err(e) => view! { <p class="error" role="alert">{error_message(l, &e)}</p> }.into_any(),
                    Ok(h) => {
                        let r = Money::from_f64(inputs.on_demand_price);
                        let total = money(h.total, cur, l);
                        let verdict = match (h.per_elastic_gpu_hour, h.effective_on_demand_price) {
                            (Some(per), Some(real)) => match l {
                                Lang::En => format!(
                                    "Hidden costs add {total} a month: {} per elastic GPU-hour, so on demand really costs {} per GPU-hour, not {}.",
                                    money(per, cur, l), money(real, cur, l), money(r, cur, l)
                                ),
                                Lang::Zh => format!(
                                    "隐性成本每月 {total}，摊到每个弹性 GPU 小时 {}，按量的真实价格是每 GPU 小时 {}，而不是 {}。",
                                    money(per, cur, l), money(real, cur, l), money(r, cur, l)
                                ),
                            },
                            _ => match l {
                                Lang::En => format!(
                                    "Hidden costs add {total} a month. The plan uses no elastic GPU-hours, so there is nothing to spread them over."
                                ),
                                Lang::Zh => format!(
                                    "隐性成本每月 {total}。当前方案没有弹性 GPU 小时，无法分摊。"
                                ),
                            },
                        };
                        let hours_str = elastic_hours
                            .map(|e| number_trim(e, 2, l))
                            .unwrap_or_else(|| "—".to_string());
                        let formula = format!(
                            "{} + {} + {} + {} × {} + {} × {} × {} h × {} = {};  {} / {} GPU·h = {};  {} + {} = {}",
                            number_trim(inputs.hidden_storage_monthly, 2, l),
                            number_trim(inputs.hidden_public_ip_monthly, 2, l),
                            number_trim(inputs.hidden_snapshots_monthly, 2, l),
                            number_trim(inputs.hidden_egress_per_gb, 4, l),
                            number_trim(inputs.hidden_egress_gb, 2, l),
                            pick(l, "auto-stop", "自动关机"),
                            number_trim(inputs.hidden_sessions, 2, l),
                            number_trim(inputs.hidden_idle_timeout_hours, 4, l),
                            number_trim(inputs.on_demand_price, 2, l),
                            total,
                            total,
                            hours_str,
                            h.per_elastic_gpu_hour.map(|m| money(m, cur, l)).unwrap_or_else(|| "—".into()),
                            number_trim(inputs.on_demand_price, 2, l),
                            h.per_elastic_gpu_hour.map(|m| money(m, cur, l)).unwrap_or_else(|| "—".into()),
                            h.effective_on_demand_price.map(|m| money(m, cur, l)).unwrap_or_else(|| "—".into()),
                        );
                        let row = |dt: &'static str, dt_zh: &'static str, id: &'static str, m: Money| {
                            view! {
                                <div>
                                    <dt>{pick(l, dt, dt_zh)}</dt>
                                    <dd data-testid=id data-value=m.to_plain_string()>{money(m, cur, l)}</dd>
                                </div>
                            }
                        };
                        view! {
                            <dl class="figures">
                                {row("Storage", "存储", "hidden-storage-cost", h.storage)}
                                {row("Public IP", "公网 IP", "hidden-public-ip-cost", h.public_ip)}
                                {row("Snapshots", "快照", "hidden-snapshots-cost", h.snapshots)}
                                {row("Egress", "出网流量", "hidden-egress-cost", h.egress)}
                                <div>
                                    <dt>{pick(l, "Auto-stop waste", "自动关机前的闲置浪费")}</dt>
                                    <dd data-testid="hidden-autostop-waste" data-value=h.autostop_waste.to_plain_string()>
                                        {money(h.autostop_waste, cur, l)}
                                        " ("
                                        <span data-testid="hidden-autostop-gpu-hours" data-value=plain(h.autostop_gpu_hours, 2)>
                                            {number_trim(h.autostop_gpu_hours, 2, l)}
                                        </span>
                                        {pick(l, " idle GPU-hours)", " 个闲置 GPU 小时）")}
                                    </dd>
                                </div>
                                <div>
                                    <dt>{pick(l, "Total hidden costs per month", "每月隐性成本合计")}</dt>
                                    <dd data-testid="hidden-total" data-value=h.total.to_plain_string()>
                                        <strong>{total.clone()}</strong>
                                    </dd>
                                </div>
                                <div>
                                    <dt>{pick(l, "Elastic GPU-hours per month in the plan", "方案中每月弹性 GPU 小时")}</dt>
                                    <dd data-testid="hidden-elastic-gpu-hours" data-value=elastic_hours.map(|e| plain(e, 2)).unwrap_or_default()>
                                        {hours_str.clone()}
                                    </dd>
                                </div>
                                <div>
                                    <dt>{pick(l, "Surcharge per elastic GPU-hour", "每弹性 GPU 小时分摊")}</dt>
                                    <dd data-testid="hidden-per-elastic-hour" data-value=h.per_elastic_gpu_hour.map(|m| m.to_plain_string()).unwrap_or_default()>
                                        {h.per_elastic_gpu_hour.map(|m| money(m, cur, l)).unwrap_or_else(|| pick(l, "— (no elastic hours)", "—（没有弹性小时）").to_string())}
                                    </dd>
                                </div>
                                <div>
                                    <dt>{pick(l, "Real on-demand price per GPU-hour", "按量真实价格（每 GPU 小时）")}</dt>
                                    <dd data-testid="hidden-effective-on-demand" data-value=h.effective_on_demand_price.map(|m| m.to_plain_string()).unwrap_or_default()>
                                        {h.effective_on_demand_price.map(|m| money(m, cur, l)).unwrap_or_else(|| pick(l, "— (no elastic hours)", "—（没有弹性小时）").to_string())}
                                    </dd>
                                </div>
                            </dl>
                            <p class="explainer" data-testid="hidden-verdict">{verdict}</p>
                            <details class="how">
                                <summary>{pick(l, "How is this computed?", "怎么算的？")}</summary>
                                <p class="formula">{formula}</p>
                                <a href="docs/formulas.html#hidden-costs">{pick(l, "Formula", "公式")}</a>
                            </details>
                        }
                            .into_any()
                    }
                }
            }}
        </section>
    }
}
