//! Prices: monthly, on-demand, spot, month length, currency, dated example presets.

use leptos::prelude::*;

use crate::components::bilingual;

use crate::components::input_fields::InputFields;
use crate::components::type_bar::TypeBar;
use crate::core::breakeven::HOURS_PER_MONTH_CHOICES;
use crate::format::Currency;
use crate::i18n::{texts, Lang};
use crate::inputs::Group;
use crate::page::context::{memo_of, use_ctx};
use crate::state::presets::{PRESETS, PRESETS_DATE};

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
            state.update(|s| p.apply(s.currency, &mut s.inputs));
        }
    };

    view! {
        <section class="card" aria-labelledby="prices-heading">
            <h2 id="prices-heading">{move || texts(lang.get()).prices_heading}</h2>
            <TypeBar />
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
            // Two short paragraphs, not one long one: on a phone the long one was the largest
            // text on the first screen, so Lighthouse took it (mounted after the headline)
            // as the page's LCP instead of the headline (issue 21).
            <div class="field-hint" data-testid="preset-note">
                <p>
                    {move || match lang.get() {
                        Lang::En => format!("Example prices noted {PRESETS_DATE}: illustrations, not quotes. Type your own."),
                        Lang::Zh => format!("示例价格记录于 {PRESETS_DATE}，仅作示意，不是报价。请填写你自己的价格。"),
                    }}
                </p>
                <p>
                    {bilingual(
                        lang,
                        "They also fill typical terms: 1 year all upfront at 10 months of the monthly price; 3 years at 9 months upfront plus half the monthly price each month.",
                        "同时填入常见期限：包年全预付 = 10 个月包月价；三年 = 预付 9 个月包月价 + 每月半价。",
                    )}
                </p>
            </div>
            <InputFields group_of=Group::Prices />
        </section>
    }
}
