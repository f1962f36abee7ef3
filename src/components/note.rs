//! A paragraph a card shows only when its presentation has it: a warning
//! (`<p class="warning" role="alert" data-testid>text</p>`) or an explainer
//! (`<p class="explainer" data-testid>text</p>`), built when the flag flips (`<When>`). One
//! component for every such paragraph.

use leptos::prelude::*;

use crate::components::when::When;

#[component]
pub fn Note(
    /// `warning` (announced: `role="alert"`) or `explainer`.
    class: &'static str,
    testid: &'static str,
    /// Whether the presentation has it (`Part::flag`).
    when: Memo<bool>,
    /// Its text (`Part::text`).
    text: Signal<String>,
) -> impl IntoView {
    let role = (class == "warning").then_some("alert");
    view! {
        <When when>
            <p class=class role=role data-testid=testid>
                {text}
            </p>
        </When>
    }
}
