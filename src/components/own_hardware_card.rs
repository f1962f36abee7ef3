//! § 12 Own hardware as a monthly option (inside a disclosure): P_own per GPU per month,
//! its parts, and its break-even against on demand in hours per day.

use leptos::prelude::*;

use crate::components::bilingual;

use crate::components::slider_field::SliderField;
use crate::context::{bind_input, use_ctx};
use crate::core::error::{non_negative, positive, Field, InputError, Problem};
use crate::core::money::Money;
use crate::core::own_hw::{
    MAX_COLO_OPS, MAX_DEPRECIATION_MONTHS, MAX_ELECTRICITY_PRICE, MAX_POWER_KW, MAX_PUE,
    MAX_PURCHASE,
};
use crate::format::{money, number_trim, percent, plain};
use crate::i18n::{error_message, pick, Lang};

/// PUE: finite, 1 ≤ PUE ≤ 5 (the engine's rule).
fn validate_pue(v: f64) -> Result<f64, InputError> {
    let v = positive(Field::Pue, v, MAX_PUE)?;
    if v < 1.0 {
        return Err(InputError::new(Field::Pue, Problem::TooSmall { min: 1.0 }));
    }
    Ok(v)
}

#[component]
pub fn OwnHardwareCard() -> impl IntoView {
    let ctx = use_ctx();
    let state = ctx.state;
    let lang = ctx.lang;
    let label = move |en: &'static str, zh: &'static str| {
        Signal::derive(move || pick(lang.get(), en, zh).to_string())
    };

    let (purchase, set_purchase) = bind_input(state, |i| i.own_purchase, |i, v| i.own_purchase = v);
    let (months, set_months) = bind_input(
        state,
        |i| i.own_depreciation_months,
        |i, v| i.own_depreciation_months = v,
    );
    let (kw, set_kw) = bind_input(state, |i| i.own_power_kw, |i, v| i.own_power_kw = v);
    let (pue, set_pue) = bind_input(state, |i| i.own_pue, |i, v| i.own_pue = v);
    let (kwh_price, set_kwh_price) = bind_input(
        state,
        |i| i.own_electricity_price,
        |i, v| i.own_electricity_price = v,
    );
    let (colo, set_colo) = bind_input(
        state,
        |i| i.own_colo_ops_monthly,
        |i, v| i.own_colo_ops_monthly = v,
    );

    view! {
        <section class="card" aria-labelledby="own-heading">
            <details class="disclosure" data-testid="own-hardware-details">
                <summary>
                    <h2 id="own-heading" class="summary-heading">
                        {bilingual(lang, "Own hardware (buy instead of rent)", "自购硬件（买而不租）")}
                    </h2>
                </summary>
                <SliderField
                    testid="own-purchase"
                    label=label("Purchase price per GPU", "每卡采购价")
                    hint=label(
                        "One GPU's share of the server: card, chassis, CPU, memory, network.",
                        "服务器分摊到每张卡的价格：显卡、机箱、CPU、内存、网络。",
                    )
                    value=purchase
                    on_commit=set_purchase
                    field=Field::Purchase
                    validate=|v| non_negative(Field::Purchase, v, MAX_PURCHASE)
                    lang
                    min=0.0
                    max=500_000.0
                    step=1000.0
                />
                <SliderField
                    testid="own-depreciation-months"
                    label=label("Depreciation months", "折旧月数")
                    hint=label(
                        "Months over which the purchase is written off.",
                        "采购成本分摊的月数。",
                    )
                    value=months
                    on_commit=set_months
                    field=Field::DepreciationMonths
                    validate=|v| positive(Field::DepreciationMonths, v, MAX_DEPRECIATION_MONTHS)
                    lang
                    min=1.0
                    max=120.0
                    step=1.0
                />
                <SliderField
                    testid="own-power-kw"
                    label=label("Power per GPU (kW)", "每卡功率（kW）")
                    hint=label(
                        "Average draw of one GPU's share of the server.",
                        "服务器分摊到每张卡的平均功耗。",
                    )
                    value=kw
                    on_commit=set_kw
                    field=Field::PowerKw
                    validate=|v| non_negative(Field::PowerKw, v, MAX_POWER_KW)
                    lang
                    min=0.0
                    max=2.0
                    step=0.05
                />
                <SliderField
                    testid="own-pue"
                    label=label("PUE", "PUE")
                    hint=label(
                        "Power usage effectiveness of the room: 1.5 means 50 % more for cooling and losses.",
                        "机房能效比：1.5 表示制冷与损耗再多用 50% 的电。",
                    )
                    value=pue
                    on_commit=set_pue
                    field=Field::Pue
                    validate=validate_pue
                    lang
                    min=1.0
                    max=3.0
                    step=0.05
                />
                <SliderField
                    testid="own-electricity-price"
                    label=label("Electricity price per kWh", "电价（每千瓦时）")
                    hint=label("What you pay for one kWh.", "每千瓦时电的价格。")
                    value=kwh_price
                    on_commit=set_kwh_price
                    field=Field::ElectricityPrice
                    validate=|v| non_negative(Field::ElectricityPrice, v, MAX_ELECTRICITY_PRICE)
                    lang
                    min=0.0
                    max=3.0
                    step=0.05
                />
                <SliderField
                    testid="own-colo-ops"
                    label=label("Colocation and operations per GPU per month", "托管与运维（每卡每月）")
                    hint=label(
                        "Rack space, network and the people who keep it running.",
                        "机柜、网络以及运维人力。",
                    )
                    value=colo
                    on_commit=set_colo
                    field=Field::ColoOps
                    validate=|v| non_negative(Field::ColoOps, v, MAX_COLO_OPS)
                    lang
                    min=0.0
                    max=5000.0
                    step=50.0
                />
                {move || {
                    let l = lang.get();
                    let cur = ctx.currency.get();
                    let inputs = state.with(|s| s.inputs.clone());
                    match ctx.outputs.with(|o| o.own_hardware.clone()) {
                        Err(e) => view! { <p class="error" role="alert">{error_message(l, &e)}</p> }.into_any(),
                        Ok(o) => {
                            let p_own = money(o.monthly, cur, l);
                            let per_day = number_trim(o.breakeven_hours_per_day, 2, l);
                            let h = inputs.hours_per_month;
                            let warning = o.never_pays.then(|| match l {
                                Lang::En => format!(
                                    "⚠ Owning never pays against on demand: {p_own} a month buys more than the {} hours of a month on demand ({} GPU-hours needed). Rent instead.",
                                    number_trim(h, 0, l),
                                    number_trim(o.breakeven_hours, 1, l)
                                ),
                                Lang::Zh => format!(
                                    "⚠ 自购永远比按量贵：每月 {p_own} 足够按量用满一个月的 {} 小时（需要 {} 个 GPU 小时才回本）。请租用。",
                                    number_trim(h, 0, l),
                                    number_trim(o.breakeven_hours, 1, l)
                                ),
                            });
                            let s = o.saving_vs_monthly_rent;
                            let rent = money(if s.is_negative() { -s } else { s }, cur, l);
                            let verdict = (!o.never_pays).then(|| {
                                let vs_rent = if o.saving_vs_monthly_rent.is_negative() {
                                    match l {
                                        Lang::En => format!("costs {rent} a month more than renting it monthly"),
                                        Lang::Zh => format!("比包月租用每月贵 {rent}"),
                                    }
                                } else {
                                    match l {
                                        Lang::En => format!("saves {rent} a month against renting it monthly"),
                                        Lang::Zh => format!("比包月租用每月省 {rent}"),
                                    }
                                };
                                match l {
                                    Lang::En => format!(
                                        "Owning one GPU costs {p_own} a month. It beats on demand if the GPU is busy more than {per_day} h a day, and {vs_rent}."
                                    ),
                                    Lang::Zh => format!(
                                        "自购一张 GPU 每月 {p_own}。每天使用超过 {per_day} 小时就比按量便宜，并且{vs_rent}。"
                                    ),
                                }
                            });
                            let formula = format!(
                                "P_own = {} / {} + {} kW × {} × {} h × {} + {} = {} + {} + {} = {};  P_own / r = {} / {} = {} h;  × 24 / {} = {} h/{}",
                                number_trim(inputs.own_purchase, 2, l),
                                number_trim(inputs.own_depreciation_months, 2, l),
                                number_trim(inputs.own_power_kw, 3, l),
                                number_trim(inputs.own_pue, 2, l),
                                number_trim(h, 0, l),
                                number_trim(inputs.own_electricity_price, 4, l),
                                number_trim(inputs.own_colo_ops_monthly, 2, l),
                                money(o.depreciation, cur, l),
                                money(o.electricity, cur, l),
                                money(o.colo_ops, cur, l),
                                p_own,
                                o.monthly.to_plain_string(),
                                number_trim(inputs.on_demand_price, 2, l),
                                number_trim(o.breakeven_hours, 2, l),
                                number_trim(h, 0, l),
                                per_day,
                                pick(l, "day", "天"),
                            );
                            let figure = |dt: &'static str, dt_zh: &'static str, id: &'static str, m: Money| {
                                view! {
                                    <div>
                                        <dt>{pick(l, dt, dt_zh)}</dt>
                                        <dd data-testid=id data-value=m.to_plain_string()>{money(m, cur, l)}</dd>
                                    </div>
                                }
                            };
                            view! {
                                {warning.map(|w| view! {
                                    <p class="warning" role="alert" data-testid="own-never-pays">{w}</p>
                                })}
                                <dl class="figures">
                                    <div>
                                        <dt>{pick(l, "P_own: owning one GPU per month", "P_own：自购每卡每月成本")}</dt>
                                        <dd data-testid="own-monthly" data-value=o.monthly.to_plain_string()>
                                            <strong>{p_own.clone()}</strong>
                                        </dd>
                                    </div>
                                    {figure("Depreciation", "折旧", "own-depreciation", o.depreciation)}
                                    <div>
                                        <dt>{pick(l, "Electricity (running all month)", "电费（整月运行）")}</dt>
                                        <dd data-testid="own-electricity" data-value=o.electricity.to_plain_string()>
                                            {money(o.electricity, cur, l)}
                                            " ("
                                            <span data-testid="own-energy-kwh" data-value=plain(o.energy_kwh, 2)>
                                                {number_trim(o.energy_kwh, 1, l)}
                                            </span>
                                            " kWh)"
                                        </dd>
                                    </div>
                                    {figure("Colocation and operations", "托管与运维", "own-colo-ops-cost", o.colo_ops)}
                                    <div>
                                        <dt>{pick(l, "Break-even against on demand, hours per day", "相比按量的盈亏平衡（每天小时数）")}</dt>
                                        <dd data-testid="own-breakeven-hours-per-day" data-value=plain(o.breakeven_hours_per_day, 2)>
                                            {format!("{per_day}{}", pick(l, " h a day", " 小时/天"))}
                                            " ("
                                            <span data-testid="own-breakeven-hours" data-value=plain(o.breakeven_hours, 2)>
                                                {number_trim(o.breakeven_hours, 1, l)}
                                            </span>
                                            {pick(l, " h a month, ", " 小时/月，利用率 ")}
                                            <span data-testid="own-breakeven-utilization" data-value=plain(o.breakeven_utilization, 4)>
                                                {percent(o.breakeven_utilization, 1, l)}
                                            </span>
                                            {pick(l, " utilization)", "）")}
                                        </dd>
                                    </div>
                                    <div>
                                        <dt>{pick(l, "Saving against renting one GPU monthly", "相比包月租用每月节省")}</dt>
                                        <dd data-testid="own-saving-vs-monthly" data-value=o.saving_vs_monthly_rent.to_plain_string()>
                                            {money(o.saving_vs_monthly_rent, cur, l)}
                                        </dd>
                                    </div>
                                </dl>
                                {verdict.map(|v| view! { <p class="explainer" data-testid="own-verdict">{v}</p> })}
                                <details class="how">
                                    <summary>{pick(l, "How is this computed?", "怎么算的？")}</summary>
                                    <p class="formula">{formula}</p>
                                    <a href="docs/formulas.html#own-hardware">{pick(l, "Formula", "公式")}</a>
                                </details>
                            }
                                .into_any()
                        }
                    }
                }}
            </details>
        </section>
    }
}
