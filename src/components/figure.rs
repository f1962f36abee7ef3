//! One figure row of a card: `<div><dt>label</dt><dd data-testid data-value>text</dd></div>`.
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
    /// The figure as shown (see [`crate::page::context::shown_of`]).
    shown: Signal<Shown>,
) -> impl IntoView {
    let lang = use_ctx().lang;
    view! {
        <div>
            <dt>{bilingual(lang, en, zh)}</dt>
            <dd data-testid=testid data-value=move || shown.with(|s| s.value.clone())>
                {move || shown.with(|s| s.text.clone())}
            </dd>
        </div>
    }
}
