//! A what-if card (spot, burst, hidden costs, putting the plan into practice) is a disclosure
//! whose summary is the card's heading and its gist, the one line that answers it, so the
//! what-ifs read as a list of answers below the plan and a planner opens the one to test
//! (the page is a third shorter; `docs/decisions.md`, issue 20). It starts open when the
//! plan's inputs for it differ from their defaults (a link or a saved session set them). The
//! section index opens it before it jumps. It prints as it is shown: closed, its gist.
//!
//! A card writes `<details class="disclosure what-if" open=starts_open(…)>` itself, and this
//! summary first (a wrapper taking the card as `Children` cost 0.4 KB gzip more: a
//! type-erased view per card; opening it reactively, a memo and an effect per card, more).

use leptos::prelude::*;

use crate::components::bilingual;
use crate::inputs::WhatIfInputs;
use crate::page::context::use_ctx;

/// Whether the card starts open: its inputs differ from their defaults (read once, when
/// the page is built from a link or a session; later it opens when the planner opens it).
pub fn starts_open(inputs: &WhatIfInputs) -> bool {
    use_ctx().state.with_untracked(|s| inputs.set_in(&s.inputs))
}

#[component]
pub fn WhatIfSummary(
    /// The heading's id (the section index links to it).
    heading_id: &'static str,
    /// The heading (English, Chinese).
    title: (&'static str, &'static str),
    /// The card's answer in one line, shown while it is closed (empty while the card shows
    /// an input error instead: open, it says which).
    gist: Signal<String>,
) -> impl IntoView {
    let lang = use_ctx().lang;
    view! {
        <summary>
            <h2 id=heading_id class="summary-heading">{bilingual(lang, title.0, title.1)}</h2>
            <span class="what-if-gist">{move || gist.get()}</span>
        </summary>
    }
}
