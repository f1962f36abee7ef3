//! A cloud bill read as a history: its lines in the parse report (`present::bill_read`) and
//! the button that fills the prices from the bill's effective rates (through the one state
//! signal, so the link carries them).

use leptos::prelude::*;

use crate::core::ingest::CurReport;
use crate::format::Lang;
use crate::page::context::{memo_of, use_ctx};
use crate::present::bill_read::bill_read;

#[component]
pub fn BillReport(cur: CurReport, lang: Lang) -> impl IntoView {
    let state = use_ctx().state;
    let currency = memo_of(state, |s| s.currency);
    let hours = memo_of(state, |s| s.inputs.hours_per_month);
    let cur = StoredValue::new(cur);
    let filled = RwSignal::new(false);
    let fill = move |_| {
        let fills = cur.with_value(|c| c.price_fills(hours.get_untracked()));
        state.update(|s| {
            crate::state::fleet::fill_prices(s, &fills);
        });
        filled.set(true);
    };
    view! {
        {move || {
            let b = cur.with_value(|c| bill_read(lang, c, currency.get(), hours.get()));
            let items = b.items();
            view! {
                <ul class="bill-report" data-testid="bill-report">
                    {items.into_iter().map(|(id, text, value, key)| view! { <li data-testid=id data-value=value data-key=key>{text}</li> }).collect_view()}
                </ul>
                {b.currency_warning.map(|t| view! { <p class="warning" role="status" data-testid="bill-currency-warning">{t}</p> })}
                {b.fill.map(|label| view! {
                    <p class="field-hint">
                        <button type="button" data-testid="bill-fill-prices" on:click=fill>{label}</button>
                        " " {b.fill_note}
                        {move || filled.get().then(|| view! { " " <span data-testid="bill-filled">{crate::i18n::pick(lang, "Filled.", "已填入。")}</span> })}
                    </p>
                })}
            }
        }}
    }
}
