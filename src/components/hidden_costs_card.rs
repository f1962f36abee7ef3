//! § 13 Hidden costs of the elastic path: storage, public IP, snapshots, egress and
//! auto-stop waste per month, spread over the plan's elastic GPU-hours (§ 9).
//! The texts: `present::hidden`; this file only places them.

use leptos::prelude::*;

use crate::components::bilingual;

use crate::components::card_body::CardBody;
use crate::components::figure::Figure;
use crate::components::slider_field::SliderField;
use crate::context::{bind_input, error_of, is_ok, shown_of, text_of, use_ctx, Part};
use crate::core::error::{non_negative, Field};
use crate::core::hidden::{
    MAX_EGRESS_GB, MAX_EGRESS_PRICE, MAX_HIDDEN_MONTHLY, MAX_IDLE_TIMEOUT_HOURS, MAX_SESSIONS,
};
use crate::i18n::pick;
use crate::present::hidden::HiddenView;

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

    let view = Part::of(|p| &p.hidden);
    let text = move |part: fn(&HiddenView) -> String| text_of(view, part);
    let shown = move |part| shown_of(view, part);

    view! {
        <section class="card" aria-labelledby="hidden-heading">
            <h2 id="hidden-heading">
                {bilingual(lang, "Hidden costs of on-demand GPUs", "按量 GPU 的隐性成本")}
            </h2>
            <p class="explainer">
                {bilingual(
                    lang,
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
                <details class="how">
                    <summary>{bilingual(lang, "How is this computed?", "怎么算的？")}</summary>
                    <p class="formula">{text(|v| v.formula.clone())}</p>
                    <a href="docs/formulas.html#hidden-costs">{bilingual(lang, "Formula", "公式")}</a>
                </details>
            </CardBody>
        </section>
    }
}
