//! The results' section index: one link per card heading, in the order of the decision
//! (the answer and its link, the commitment, pools and budget, the what-ifs). Keyboard
//! reachable (links; a jump scrolls without adding a `#` to the address, whose query is
//! the plan's link); the section being read is marked `aria-current="location"`,
//! from the headings' positions on scroll (read once per frame at most). Sticky at the top
//! of the results on wide screens; out of print.

use leptos::prelude::*;

use crate::components::bilingual;
use crate::i18n::pick;
use crate::page::context::use_ctx;
use crate::web::scroll_signal::per_scroll_frame;

/// (heading id, English, Chinese). A heading missing from the page (the fleet card of a
/// one-type plan) has no link.
const SECTIONS: [(&str, &str, &str); 15] = [
    ("headline-heading", "The plan", "方案"),
    ("fleet-heading", "Fleet", "机群"),
    ("share-heading", "Share", "分享"),
    ("breakeven-heading", "Break-even", "盈亏平衡"),
    ("sizing-heading", "How many to commit", "买多少"),
    ("waterline-heading", "Waterline", "水位"),
    ("terms-heading", "Terms", "期限"),
    ("growth-heading", "Growth", "增长"),
    ("pools-heading", "Pools", "三个池"),
    ("budget-heading", "Budget", "预算"),
    ("spot-heading", "Spot", "竞价"),
    ("burst-heading", "Burst", "突发"),
    ("hidden-heading", "Hidden costs", "隐性成本"),
    ("review-heading", "Monthly review", "月度复盘"),
    ("action-heading", "Put it into practice", "付诸实践"),
];

/// A heading counts as being read once its top is above this share of the window's height
/// (just below the sticky index, where a jump puts it: the what-ifs are short while closed,
/// so a lower line would pass several at once). At the end of the page, where the last
/// sections cannot scroll that far up, the last heading in the window is.
const READING_LINE: f64 = 0.15;

fn heading(id: &str) -> Option<web_sys::Element> {
    web_sys::window()?.document()?.get_element_by_id(id)
}

fn heading_top(id: &str) -> Option<f64> {
    Some(heading(id)?.get_bounding_client_rect().top())
}

/// Scroll to a heading, and again on each of the next frames while it still moves: cards
/// around it that were never on screen hold a placeholder height until they are laid out,
/// and each scroll lays out a few more. A closed what-if (`components::what_if`) is opened
/// first.
fn jump_to(id: &'static str) {
    let Some(el) = heading(id) else {
        return;
    };
    if let Ok(Some(details)) = el.closest("details.what-if") {
        let _ = details.set_attribute("open", "");
    }
    el.scroll_into_view();
    follow(id, el.get_bounding_client_rect().top(), 8);
}

/// One frame later: scroll to the heading again if it moved, for at most `frames` frames.
fn follow(id: &'static str, top: f64, frames: u8) {
    request_animation_frame(move || {
        let Some(el) = heading(id) else {
            return;
        };
        let now = el.get_bounding_client_rect().top();
        if (now - top).abs() > 1.0 {
            el.scroll_into_view();
        }
        if frames > 1 {
            follow(id, el.get_bounding_client_rect().top(), frames - 1);
        }
    });
}

/// The section whose heading was passed last (the first one before any).
fn current_section() -> &'static str {
    let Some(w) = web_sys::window() else {
        return SECTIONS[0].0;
    };
    let height = w
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(800.0);
    let bottom = w
        .document()
        .and_then(|d| d.document_element())
        .map_or(f64::MAX, |e| f64::from(e.scroll_height()));
    let at_end = w.scroll_y().unwrap_or(0.0) + height >= bottom - 2.0;
    let mut current = SECTIONS[0].0;
    for (id, _, _) in SECTIONS {
        match heading_top(id) {
            Some(top) if top <= height * READING_LINE || (at_end && top < height) => current = id,
            _ => {}
        }
    }
    current
}

#[component]
pub fn SectionIndex() -> impl IntoView {
    let ctx = use_ctx();
    let lang = ctx.lang;
    let fleet = Memo::new(move |_| ctx.state.with(|s| crate::state::fleet::active(&s.fleet)));
    let current = per_scroll_frame(SECTIONS[0].0, current_section);
    view! {
        <nav class="section-index" aria-label=move || pick(lang.get(), "Sections", "章节")>
            <span class="section-index-label">{bilingual(lang, "Jump to:", "跳转：")}</span>
            <ul>
                {SECTIONS.into_iter().map(|(id, en, zh)| {
                    let hidden = move || id == "fleet-heading" && !fleet.get();
                    view! {
                        <li class:hidden=hidden>
                            <a href=format!("#{id}") data-testid=format!("index-{}", id.trim_end_matches("-heading"))
                                on:click=move |ev| {
                                    ev.prevent_default();
                                    jump_to(id);
                                }
                                aria-current=move || (current.get() == id).then_some("location")>
                                {bilingual(lang, en, zh)}
                            </a>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </nav>
    }
}
