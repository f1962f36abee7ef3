//! Prices: monthly, on-demand, spot, month length, currency, dated example presets.

use leptos::prelude::*;

use crate::components::bilingual;

use crate::components::input_fields::InputFields;
use crate::context::{memo_of, use_ctx};
use crate::core::breakeven::HOURS_PER_MONTH_CHOICES;
use crate::i18n::{texts, Lang};
use crate::inputs::Group;
use crate::state::Currency;

/// An example price set. Dated, editable, never a quote.
pub struct Preset {
    pub key: &'static str,
    pub name: &'static str,
    /// (monthly, on-demand, spot) in CNY and in USD.
    pub cny: (f64, f64, f64),
    pub usd: (f64, f64, f64),
}

/// The date the example prices were written down.
pub const PRESETS_DATE: &str = "2026-11";

/// The example terms, typical discounts in months of the monthly price P (illustrations):
/// 1 year all upfront at 10 × P (包年 ≈ ten months); 3 years partial upfront, 9 × P upfront and
/// P / 2 each month (27 months of P for 36).
pub const PRESET_1Y_UPFRONT_MONTHS: f64 = 10.0;
pub const PRESET_3Y_UPFRONT_MONTHS: f64 = 9.0;
pub const PRESET_3Y_MONTHLY_SHARE: f64 = 0.5;

pub const PRESETS: [Preset; 3] = [
    Preset {
        key: "a100-80g",
        name: "A100 80GB",
        cny: (15_000.0, 35.0, 12.0),
        usd: (1_500.0, 3.0, 1.2),
    },
    Preset {
        key: "h100-80g",
        name: "H100 80GB",
        cny: (28_000.0, 60.0, 22.0),
        usd: (2_200.0, 4.5, 2.0),
    },
    Preset {
        key: "rtx4090",
        name: "RTX 4090",
        cny: (2_500.0, 5.0, 2.0),
        usd: (300.0, 0.6, 0.3),
    },
];

#[component]
pub fn PricesPanel() -> impl IntoView {
    let ctx = use_ctx();
    let state = ctx.state;
    let currency = memo_of(state, |s| s.currency);
    let hours = memo_of(state, |s| s.inputs.hours_per_month);
    let lang = ctx.lang;
    let apply_preset = move |ev| {
        let key = event_target_value(&ev);
        if let Some(p) = PRESETS.iter().find(|p| p.key == key) {
            state.update(|s| {
                let (m, r, sp) = match s.currency {
                    Currency::Cny => p.cny,
                    Currency::Usd => p.usd,
                };
                s.inputs.monthly_price = m;
                s.inputs.on_demand_price = r;
                s.inputs.spot_price = sp;
                s.inputs.term_1y_upfront = PRESET_1Y_UPFRONT_MONTHS * m;
                s.inputs.term_1y_monthly = 0.0;
                s.inputs.term_3y_upfront = PRESET_3Y_UPFRONT_MONTHS * m;
                s.inputs.term_3y_monthly = PRESET_3Y_MONTHLY_SHARE * m;
            });
        }
    };

    view! {
        <section class="card" aria-labelledby="prices-heading">
            <h2 id="prices-heading">{move || texts(lang.get()).prices_heading}</h2>
            <div class="inline-controls">
                <label>
                    {bilingual(lang, "Currency", "币种")}
                    <select
                        data-testid="currency"
                        on:change=move |ev| {
                            if let Some(c) = Currency::from_code(&event_target_value(&ev)) {
                                state.update(|s| s.currency = c);
                            }
                        }
                    >
                        <option value="cny" selected=move || currency.get() == Currency::Cny>"¥ CNY"</option>
                        <option value="usd" selected=move || currency.get() == Currency::Usd>"$ USD"</option>
                    </select>
                </label>
                <label>
                    {bilingual(lang, "Hours in a month", "每月小时数")}
                    <select
                        data-testid="hours-per-month"
                        on:change=move |ev| {
                            if let Some(h) = crate::core::decimal::parse_f64(&event_target_value(&ev)) {
                                state.update(|s| s.inputs.hours_per_month = h);
                            }
                        }
                    >
                        {HOURS_PER_MONTH_CHOICES
                            .iter()
                            .map(|&h| {
                                view! {
                                    <option
                                        value=h.to_string()
                                        selected=move || hours.get() == h
                                    >
                                        {h.to_string()}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </label>
                <label>
                    {bilingual(lang, "Example prices", "示例价格")}
                    <select data-testid="preset" on:change=apply_preset>
                        <option value="">{bilingual(lang, "— choose —", "— 选择 —")}</option>
                        {PRESETS
                            .iter()
                            .map(|p| view! { <option value=p.key>{p.name}</option> })
                            .collect_view()}
                    </select>
                </label>
            </div>
            <p class="field-hint" data-testid="preset-note">
                {move || match lang.get() {
                    Lang::En => format!("Example prices noted {PRESETS_DATE}: illustrations, not quotes. Type your own. They also fill typical terms: 1 year all upfront at 10 months of the monthly price; 3 years at 9 months upfront plus half the monthly price each month."),
                    Lang::Zh => format!("示例价格记录于 {PRESETS_DATE}，仅作示意，不是报价。请填写你自己的价格。同时填入常见期限：包年全预付 = 10 个月包月价；三年 = 预付 9 个月包月价 + 每月半价。"),
                }}
            </p>
            <InputFields group_of=Group::Prices />
        </section>
    }
}
