//! A table's column headers: `<thead><tr><th scope="col">label</th>…</tr></thead>`, each label
//! in the page's language. One component for every card's table head.

use leptos::prelude::*;

use crate::components::bilingual;
use crate::page::context::use_ctx;

#[component]
pub fn ColumnHeads(
    /// Each column's label, (English, Chinese); the same text twice for a symbol (`N*`).
    labels: &'static [(&'static str, &'static str)],
) -> impl IntoView {
    let lang = use_ctx().lang;
    view! {
        <thead><tr>
            {labels
                .iter()
                .map(|&(en, zh)| view! { <th scope="col">{bilingual(lang, en, zh)}</th> })
                .collect_view()}
        </tr></thead>
    }
}
