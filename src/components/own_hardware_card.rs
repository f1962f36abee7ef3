//! § 12 Own hardware as a monthly option (inside a disclosure): P_own per GPU per month,
//! its parts, and its break-even against on demand in hours per day.
//! The texts: `present::own_hardware`; this file only places them.

use leptos::prelude::*;

use crate::components::bilingual;

use crate::components::card_body::CardBody;
use crate::components::figure::Figure;
use crate::components::slider_field::SliderField;
use crate::components::when::When;
use crate::context::{bind_input, error_of, flag_of, is_ok, shown_of, text_of, use_ctx, Part};
use crate::core::error::{non_negative, positive, Field, InputError, Problem};
use crate::core::own_hw::{
    MAX_COLO_OPS, MAX_DEPRECIATION_MONTHS, MAX_ELECTRICITY_PRICE, MAX_POWER_KW, MAX_PUE,
    MAX_PURCHASE,
};
use crate::i18n::pick;
use crate::present::own_hardware::OwnHardwareView;

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

    let view = Part::of(|p| &p.own_hardware);
    let text = move |part: fn(&OwnHardwareView) -> String| text_of(view, part);
    let shown = move |part| shown_of(view, part);

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
                <CardBody ok=is_ok(view) error=error_of(view)>
                    <When when=flag_of(view, |v| v.never_pays.is_some())>
                        <p class="warning" role="alert" data-testid="own-never-pays">
                            {text(|v| v.never_pays.clone().unwrap_or_default())}
                        </p>
                    </When>
                    <dl class="figures">
                        <div>
                            <dt>{bilingual(lang, "P_own: owning one GPU per month", "P_own：自购每卡每月成本")}</dt>
                            <dd data-testid="own-monthly" data-value=text(|v| v.monthly.value.clone())>
                                <strong>{text(|v| v.monthly.text.clone())}</strong>
                            </dd>
                        </div>
                        <Figure testid="own-depreciation" en="Depreciation" zh="折旧" shown=shown(|v| &v.depreciation) />
                        <div>
                            <dt>{bilingual(lang, "Electricity (running all month)", "电费（整月运行）")}</dt>
                            <dd data-testid="own-electricity" data-value=text(|v| v.electricity.value.clone())>
                                {text(|v| v.electricity.text.clone())}
                                " ("
                                <span data-testid="own-energy-kwh" data-value=text(|v| v.energy_kwh.value.clone())>
                                    {text(|v| v.energy_kwh.text.clone())}
                                </span>
                                " kWh)"
                            </dd>
                        </div>
                        <Figure testid="own-colo-ops-cost" en="Colocation and operations" zh="托管与运维"
                            shown=shown(|v| &v.colo_ops) />
                        <div>
                            <dt>{bilingual(lang, "Break-even against on demand, hours per day", "相比按量的盈亏平衡（每天小时数）")}</dt>
                            <dd data-testid="own-breakeven-hours-per-day" data-value=text(|v| v.breakeven_per_day.value.clone())>
                                {text(|v| v.breakeven_per_day.text.clone())}
                                " ("
                                <span data-testid="own-breakeven-hours" data-value=text(|v| v.breakeven_hours.value.clone())>
                                    {text(|v| v.breakeven_hours.text.clone())}
                                </span>
                                {bilingual(lang, " h a month, ", " 小时/月，利用率 ")}
                                <span data-testid="own-breakeven-utilization" data-value=text(|v| v.breakeven_utilization.value.clone())>
                                    {text(|v| v.breakeven_utilization.text.clone())}
                                </span>
                                {bilingual(lang, " utilization)", "）")}
                            </dd>
                        </div>
                        <Figure testid="own-saving-vs-monthly" en="Saving against renting one GPU monthly" zh="相比包月租用每月节省"
                            shown=shown(|v| &v.saving_vs_monthly) />
                    </dl>
                    <When when=flag_of(view, |v| v.verdict.is_some())>
                        <p class="explainer" data-testid="own-verdict">
                            {text(|v| v.verdict.clone().unwrap_or_default())}
                        </p>
                    </When>
                    <details class="how">
                        <summary>{bilingual(lang, "How is this computed?", "怎么算的？")}</summary>
                        <p class="formula">{text(|v| v.formula.clone())}</p>
                        <a href="docs/formulas.html#own-hardware">{bilingual(lang, "Formula", "公式")}</a>
                    </details>
                </CardBody>
            </details>
        </section>
    }
}
