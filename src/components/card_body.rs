//! A card's figures, or the message of the input error that stops them. One component for
//! every card (its children are type-erased), so the switch is generated once.

use leptos::prelude::*;

#[component]
pub fn CardBody(
    /// The card's presentation succeeded (`context::is_ok`).
    ok: Memo<bool>,
    /// The message shown instead (`context::error_of`).
    error: Signal<String>,
    /// The error paragraph's `data-testid`, where it has one.
    #[prop(optional)]
    error_testid: Option<&'static str>,
    children: ChildrenFn,
) -> impl IntoView {
    move || {
        if ok.get() {
            children().into_any()
        } else {
            view! { <p class="error" role="alert" data-testid=error_testid>{error}</p> }.into_any()
        }
    }
}
