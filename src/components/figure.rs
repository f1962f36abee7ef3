//! One figure row of a card: `<div><dt>label</dt><dd data-testid data-value>text</dd></div>`
//! (the text in `<strong>` for a total; what the row adds after it, its children).
//! The label follows the language; the text and `data-value` are read from the card's
//! presentation memo, each by its own closure, so a change rewrites only what changed.

use leptos::prelude::*;

use crate::components::bilingual;
use crate::page::context::use_ctx;
use crate::present::Shown;

#[component]
pub fn Figure(
    testid: &'static str,
    en: &'static str,
    zh: &'static str,
    /// The figure as shown (see [`crate::page::context::Part::shown`]).
    shown: Signal<Shown>,
    /// The text set in bold (a card's total).
    #[prop(optional)]
    strong: bool,
    /// What the row adds after the figure (a figure it is made of, in brackets).
    #[prop(optional)]
    children: Option<Children>,
) -> impl IntoView {
    let lang = use_ctx().lang;
    let text = move || shown.with(|s| s.text.clone());
    view! {
        <div>
            <dt>{bilingual(lang, en, zh)}</dt>
            <dd data-testid=testid data-value=move || shown.with(|s| s.value.clone())>
                {if strong { view! { <strong>{text}</strong> }.into_any() } else { text.into_any() }}
                {children.map(|c| c())}
            </dd>
        </div>
    }
}
