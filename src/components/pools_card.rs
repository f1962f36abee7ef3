//! § 9 Three pools: N reserved + elastic hours split between spot and on-demand.

use leptos::prelude::*;

use crate::components::bilingual;

use crate::components::slider_field::SliderField;
use crate::context::{bind_input, use_ctx};
use crate::core::error::{non_negative, Field};
use crate::format::{money, number_trim, percent};
use crate::i18n::{error_message, pick};

#[component]
pub fn PoolsCard() -> impl IntoView {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let (share, set_share) = bind_input(
        ctx.state,
        |i| i.interruptible_percent,
        |i, v| i.interruptible_percent = v,
    );
    view! {
        <section class="card" aria-labelledby="pools-heading">
            <h2 id="pools-heading">{bilingual(lang, "Three pools: monthly + on-demand + spot", "三池组合：包月 + 按量 + 竞价")}</h2>
            <SliderField
                testid="interruptible-share"
                label=Signal::derive(move || pick(lang.get(), "Interruptible share of elastic work (%)", "弹性任务中可中断的比例（%）").to_string())
                hint=Signal::derive(move || pick(lang.get(), "Work that checkpoints and can restart runs on spot", "能保存检查点、可重启的任务放到竞价实例").to_string())
                value=share
                on_commit=set_share
                field=Field::InterruptibleShare
                validate=|v| non_negative(Field::InterruptibleShare, v, 100.0)
                lang
                min=0.0
                max=100.0
                step=5.0
            />
            {move || {
                let l = lang.get();
                let cur = ctx.currency.get();
                match ctx.outputs.with(|o| o.pools.clone()) {
                    Err(e) => view! { <p class="error" role="alert">{error_message(l, &e)}</p> }.into_any(),
                    Ok(p) => view! {
                        <div class="table-wrap" tabindex="0">
                            <table data-testid="pools-table">
                                <caption>{pick(l, "Monthly cost by pool", "各资源池月度成本")}</caption>
                                <thead><tr>
                                    <th scope="col">{pick(l, "Pool", "资源池")}</th>
                                    <th scope="col">{pick(l, "GPUs / GPU-hours", "GPU 数 / GPU 小时")}</th>
                                    <th scope="col">{pick(l, "Per month", "每月")}</th>
                                    <th scope="col">{pick(l, "Share", "占比")}</th>
                                </tr></thead>
                                <tbody>
                                    <tr>
                                        <th scope="row">{pick(l, "Monthly (fixed baseline)", "包月（固定基线）")}</th>
                                        <td>{p.reserved_gpus} {pick(l, " GPUs", " 张")}</td>
                                        <td data-testid="pool-reserved" data-value=p.reserved.to_plain_string()>{money(p.reserved, cur, l)}</td>
                                        <td>{percent(p.reserved_share, 1, l)}</td>
                                    </tr>
                                    <tr>
                                        <th scope="row">{pick(l, "On-demand (elastic)", "按量（弹性）")}</th>
                                        <td>{number_trim(p.on_demand_gpu_hours, 1, l)} " h"</td>
                                        <td data-testid="pool-on-demand" data-value=p.on_demand.to_plain_string()>{money(p.on_demand, cur, l)}</td>
                                        <td>{percent(p.on_demand_share, 1, l)}</td>
                                    </tr>
                                    <tr>
                                        <th scope="row">{pick(l, "Spot (interruptible)", "竞价（可中断）")}</th>
                                        <td>{number_trim(p.spot_gpu_hours, 1, l)} " h"</td>
                                        <td data-testid="pool-spot" data-value=p.spot.to_plain_string()>{money(p.spot, cur, l)}</td>
                                        <td>{percent(p.spot_share, 1, l)}</td>
                                    </tr>
                                </tbody>
                                <tfoot><tr>
                                    <th scope="row">{pick(l, "Total", "合计")}</th>
                                    <td></td>
                                    <td data-testid="pools-total" data-value=p.total.to_plain_string()><strong>{money(p.total, cur, l)}</strong></td>
                                    <td>{percent(p.reserved_share + p.on_demand_share + p.spot_share, 1, l)}</td>
                                </tr></tfoot>
                            </table>
                        </div>
                        <p class="field-hint">{pick(l, "Spot instead of on-demand saves ", "用竞价代替按量节省 ")}{money(p.saving_vs_no_spot, cur, l)}{pick(l, " a month.", " /月。")}</p>
                        <details class="how">
                            <summary>{pick(l, "How is this computed?", "怎么算的？")}</summary>
                            <p class="formula">{"N·P + (1 − f)·E·r + f·E·s_eff;  E = elastic GPU-hours per month beyond N"}</p>
                            <p class="formula" data-testid="pools-formula">{
                                let (price, r) = ctx.state.with(|s| (s.inputs.monthly_price, s.inputs.on_demand_price));
                                let s_eff = if p.spot_gpu_hours > 0.0 { p.spot.to_f64() / p.spot_gpu_hours } else { 0.0 };
                                format!(
                                    "{} × {} + {} h × {} + {} h × {} = {} + {} + {} = {}",
                                    p.reserved_gpus,
                                    number_trim(price, 2, l),
                                    number_trim(p.on_demand_gpu_hours, 2, l),
                                    number_trim(r, 4, l),
                                    number_trim(p.spot_gpu_hours, 2, l),
                                    number_trim(s_eff, 4, l),
                                    money(p.reserved, cur, l),
                                    money(p.on_demand, cur, l),
                                    money(p.spot, cur, l),
                                    money(p.total, cur, l),
                                )
                            }</p>
                            <a href="docs/formulas.html#pools">{pick(l, "Formula", "公式")}</a>
                        </details>
                    }.into_any(),
                }
            }}
        </section>
    }
}
