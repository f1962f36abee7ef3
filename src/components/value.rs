//! One figure inside a sentence: `<span data-testid data-value>text</span>` (or `<strong>`),
//! its text and value read from the page presentation by their own closures. One component
//! for every such figure (a table's is [`crate::components::cell::Cell`], a list's
//! [`crate::components::figure::Figure`]).

use leptos::prelude::*;

use crate::present::Shown;

#[component]
pub fn Value(
    testid: &'static str,
    /// The figure (`Part::shown`).
    shown: Signal<Shown>,
    /// Set in bold (`<strong>`, a sentence's answer).
    #[prop(optional)]
    strong: bool,
) -> impl IntoView {
    let value = move || shown.with(|s| s.value.clone());
    let text = move || shown.with(|s| s.text.clone());
    if strong {
        view! { <strong data-testid=testid data-value=value>{text}</strong> }.into_any()
    } else {
        view! { <span data-testid=testid data-value=value>{text}</span> }.into_any()
    }
}
