//! A cloud bill read as a history: its lines in the parse report (`present::bill_read`) and
//! the button that fills the prices from the bill's effective rates (through the one state
//! signal, so the link carries them).

use leptos::prelude::*;

use crate::context::{memo_of, use_ctx};
use crate::core::ingest::CurReport;
use crate::present::bill_read::bill_read;
use crate::state::Lang;

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
            crate::fleet::fill_prices(s, &fills);
        });
        filled.set(true);
    };
    view! {
        {move || {
            let b = cur.with_value(|c| bill_read(lang, c, currency.get(), hours.get()));
            let (summary, gpu_rows) = b.summary;
            view! {
                <ul class="bill-report" data-testid="bill-report">
                    <li data-testid="bill-summary" data-value=gpu_rows>{summary}</li>
                    {b.types.into_iter().map(|(key, text)| view! { <li data-testid="bill-type" data-key=key>{text}</li> }).collect_view()}
                    {b.currency.map(|(text, code)| view! { <li data-testid="bill-currency" data-value=code>{text}</li> })}
                    {b.rates.into_iter().map(|(key, text)| view! { <li data-testid="bill-rate" data-key=key>{text}</li> }).collect_view()}
                    {b.no_rates.map(|t| view! { <li data-testid="bill-no-rates">{t}</li> })}
                    {b.left_out.map(|(text, n)| view! { <li data-testid="bill-left-out" data-value=n>{text}</li> })}
                    {b.unknown.map(|(text, n)| view! { <li data-testid="bill-unknown-types" data-value=n>{text}</li> })}
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
