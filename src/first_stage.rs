//! The first-stage module (issue 21): a small second binary of this crate, without Leptos,
//! that a link's first screen waits for instead of the whole application.
//!
//! scripts/prerender.mjs puts a static copy of the header and the headline card in
//! index.html. Opened with the defaults, the copy's figures are the default plan's and it is
//! shown at once. Opened with a link (or an autosaved session) the copy is shown with its
//! figures hidden (`#prerender[data-pending]`): this module decodes the same query, plans it
//! with the application's own code ([`crate::page::pipeline::headline_for_query`]), writes the
//! headline's texts into the copy's `data-slot` elements and shows them. When it cannot say
//! exactly what the application will say (a history `pipeline::read_link_series` declines,
//! a headline that is an error message or a warning), it leaves the figures hidden: the page
//! never shows a figure it has not computed for these inputs. The application removes the copy when it
//! mounts, as before.

use web_sys::Document;

use crate::core::zone::ZoneChoice;
use crate::format::Lang;
use crate::present::headline::HeadlineView;

/// The attribute on `<html>` once this module has finished (`filled` or `left`); the
/// application's loader waits for it before fetching the application's .wasm, so the
/// first figures do not share the network with it.
pub const DONE_ATTRIBUTE: &str = "data-first";

/// The texts (and `data-value`s) this module writes, by slot: `data-slot` in the copy, the
/// test id of the same element in the page.
pub fn slots(view: &HeadlineView) -> [(&'static str, &str, Option<&str>); 4] {
    [
        (
            "recommended-n",
            &view.sentence.text,
            Some(&view.sentence.value),
        ),
        (
            "plan-monthly-total",
            &view.total.text,
            Some(&view.total.value),
        ),
        ("plan-saving", &view.saving.text, Some(&view.saving.value)),
        ("headline-formula", &view.formula, None),
    ]
}

/// Run once, at start: fill the pending copy, or leave it.
pub fn run() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let outcome = fill(&doc);
    if let Some(root) = doc.document_element() {
        let _ = root.set_attribute(DONE_ATTRIBUTE, if outcome { "filled" } else { "left" });
    }
}

fn fill(doc: &Document) -> bool {
    let Some(copy) = doc.get_element_by_id("prerender") else {
        return false;
    };
    let Some(source) = copy.get_attribute("data-pending") else {
        return false;
    };
    let query = match source.as_str() {
        "saved" => match crate::web::browser::storage_get(crate::state::AUTOSAVE_KEY) {
            Ok(Some(q)) => q,
            _ => return false,
        },
        _ => crate::web::browser::start_query(),
    };
    let langs = crate::web::browser::browser_languages();
    let langs: Vec<&str> = langs.iter().map(String::as_str).collect();
    let zone = |tz: &ZoneChoice| crate::web::time_zones::resolve(tz);
    let Some((lang, Ok(view))) = crate::page::pipeline::headline_for_query(
        &query,
        &langs,
        zone,
        crate::web::time_zones::locale_date_order(),
        &crate::page::pipeline::read_link_series,
    ) else {
        return false;
    };
    if view.no_history {
        return false; // the copy has no place for the warning
    }
    let (show, hide) = match lang {
        Lang::Zh => ("prerender-zh", "prerender-en"),
        Lang::En => ("prerender-en", "prerender-zh"),
    };
    let (Some(shown), Some(hidden)) = (doc.get_element_by_id(show), doc.get_element_by_id(hide))
    else {
        return false;
    };
    for (slot, text, value) in slots(&view) {
        let Ok(Some(el)) = shown.query_selector(&format!("[data-slot={slot}]")) else {
            return false;
        };
        el.set_text_content(Some(text));
        if let Some(v) = value {
            let _ = el.set_attribute("data-value", v);
        }
    }
    let _ = hidden.set_attribute("hidden", "");
    let _ = shown.remove_attribute("hidden");
    if let Some(root) = doc.document_element() {
        let _ = root.set_attribute("lang", lang.html_tag());
    }
    let _ = copy.remove_attribute("data-pending");
    true
}
