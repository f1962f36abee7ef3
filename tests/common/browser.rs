//! Shared by the wasm-bindgen component tests (tests/browser.rs, tests/cards_browser.rs;
//! included with `#[path]`; a subdirectory, so not a test target).

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
