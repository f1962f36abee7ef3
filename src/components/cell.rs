//! One figure cell of a table: `<td data-testid data-value>text</td>`, its text and value read
//! from the page presentation by their own closures. One component for every such cell.

use leptos::prelude::*;

use crate::i18n::pick;
use crate::page::context::use_ctx;
use crate::present::Shown;

#[component]
pub fn Cell(
    #[prop(into)] testid: String,
    /// The figure (`Part::shown` / `context::shown_at`).
    shown: Signal<Shown>,
    /// Its column's name, (English, Chinese), as `data-label`: what a table shown one block
    /// per row (on a phone, on paper) writes before the figure.
    #[prop(optional)]
    label: Option<(&'static str, &'static str)>,
) -> impl IntoView {
    let lang = use_ctx().lang;
    let label = move || label.map(|(en, zh)| pick(lang.get(), en, zh));
    view! {
        <td data-testid=testid data-label=label data-value=move || shown.with(|s| s.value.clone())>
            {move || shown.with(|s| s.text.clone())}
        </td>
    }
}
