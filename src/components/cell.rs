//! One figure cell of a table: `<td data-testid data-value>text</td>`, its text and value read
//! from the page presentation by their own closures. One component for every such cell.

use leptos::prelude::*;

use crate::present::Shown;

#[component]
pub fn Cell(
    #[prop(into)] testid: String,
    /// The figure (`context::shown_of` / `shown_at`).
    shown: Signal<Shown>,
) -> impl IntoView {
    view! {
        <td data-testid=testid data-value=move || shown.with(|s| s.value.clone())>
            {move || shown.with(|s| s.text.clone())}
        </td>
    }
}
