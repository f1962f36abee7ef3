//! The "How is this computed?" disclosure under a card's figures: the general formula (if the
//! card states one), the formula with this plan's numbers, anything the card adds, and the
//! link to its section of docs/formulas.md. One component for every card.

use leptos::prelude::*;

use crate::components::bilingual;
use crate::page::context::use_ctx;

#[component]
pub fn HowComputed(
    /// The formula with this plan's numbers (`Part::text`).
    formula: Signal<String>,
    /// Its paragraph's `data-testid`, where it has one.
    #[prop(optional)]
    formula_testid: Option<&'static str>,
    /// The formula in symbols, shown above.
    #[prop(optional)]
    general: Option<&'static str>,
    /// The section of docs/formulas.html.
    anchor: &'static str,
    /// The link's text (default "Formula" / "公式").
    #[prop(optional)]
    link: Option<(&'static str, &'static str)>,
    #[prop(optional)] children: Option<Children>,
) -> impl IntoView {
    let lang = use_ctx().lang;
    let (en, zh) = link.unwrap_or(("Formula", "公式"));
    view! {
        <details class="how">
            <summary>{bilingual(lang, "How is this computed?", "怎么算的？")}</summary>
            {general.map(|g| view! { <p class="formula">{g}</p> })}
            <p class="formula" data-testid=formula_testid>{formula}</p>
            {children.map(|c| c())}
            <a href=format!("docs/formulas.html#{anchor}")>{bilingual(lang, en, zh)}</a>
        </details>
    }
}
