//! Shared by the wasm-bindgen component tests (tests/browser.rs, tests/cards_browser.rs;
//! included with `#[path]`; a subdirectory, so not a test target).

use wasm_bindgen::JsCast;
use web_sys::{Event, EventInit, EventTarget, HtmlElement};

/// A fresh `<div>` at the end of the page's body, to mount a component into.
pub fn host() -> HtmlElement {
    let doc = web_sys::window().unwrap().document().unwrap();
    let host: HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    doc.body().unwrap().append_child(&host).unwrap();
    host
}

/// The text a user reads in `host`, its white space folded.
pub fn text(host: &HtmlElement) -> String {
    host.inner_text()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Panics unless the text a user reads in `host` contains `want` (the text in the message).
pub fn assert_reads(host: &HtmlElement, want: &str) {
    let t = text(host);
    assert!(t.contains(want), "{t}");
}

/// Dispatch a bubbling `kind` event (`input`, `change`) at `target`, as the browser does.
pub fn fire(target: &EventTarget, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    target
        .dispatch_event(&Event::new_with_event_init_dict(kind, &init).unwrap())
        .unwrap();
}

/// Let the effects run, and the cards off screen catch up after a burst of inputs (typed
/// within 120 ms of each other: `<html data-settling>` until they have, `context::SETTLE_MS`).
pub async fn settle() {
    gloo_timers::future::TimeoutFuture::new(10).await;
    let html = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .document_element()
        .unwrap();
    for _ in 0..100 {
        if !html.has_attribute("data-settling") {
            break;
        }
        gloo_timers::future::TimeoutFuture::new(20).await;
    }
}
