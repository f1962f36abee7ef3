//! On a phone, while the results scroll past the answer, a compact bar at the bottom keeps
//! the plan's monthly total and the committed count in view (the headline's own figures:
//! `sticky-total` and `sticky-n` carry the `data-value`s of `plan-monthly-total` and
//! `recommended-n`). CSS shows it on narrow screens only, hides it while a field has the
//! focus (it must never cover one) and in print.

use leptos::prelude::*;

use crate::components::bilingual;
use crate::page::context::{use_ctx, Part};
use crate::web::scroll_signal::per_scroll_frame;

/// The bar shows once the headline's bottom has scrolled above the top of the screen.
fn answer_scrolled_away() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("headline-heading"))
        .and_then(|h| h.closest("section").ok().flatten())
        .is_some_and(|s| s.get_bounding_client_rect().bottom() < 0.0)
}

#[component]
pub fn StickyBar() -> impl IntoView {
    let lang = use_ctx().lang;
    let view = Part::of(|p| &p.headline);
    let shown = per_scroll_frame(false, answer_scrolled_away);
    view! {
        <aside class="sticky-bar" class:shown=move || shown.get()
            aria-label=move || crate::i18n::pick(lang.get(), "The plan in short", "方案摘要")>
            <span data-testid="sticky-n" data-value=view.text(|v| v.sentence.value.clone())>
                {bilingual(lang, "Commit ", "包月 ")}
                <strong>{view.text(|v| v.sentence.value.clone())}</strong>
                {bilingual(lang, " GPUs", " 张")}
            </span>
            <span data-testid="sticky-total" data-value=view.text(|v| v.total.value.clone())>
                <strong>{view.text(|v| v.total.text.clone())}</strong>
                {bilingual(lang, " / month", " /月")}
            </span>
            <a href="#headline-heading"
                on:click=|ev| {
                    // No `#` in the address: its query is the plan's link.
                    ev.prevent_default();
                    if let Some(w) = web_sys::window() {
                        w.scroll_to_with_x_and_y(0.0, 0.0);
                    }
                }
                aria-label=move || crate::i18n::pick(lang.get(), "Back to the plan", "回到方案")>"↑"</a>
        </aside>
    }
}
