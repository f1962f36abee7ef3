//! The panic hook: log the panic to the console and reveal the static error banner of
//! `index.html` (`#panic-banner`, both languages, a "Reload" link to the current URL).
//!
//! Release builds use `panic = "abort"`: the hook runs, then the wasm instance traps and is
//! dead. So the banner is plain HTML already in the page; the hook only removes its
//! `hidden` attribute and writes the message into `#panic-detail`, with no allocation-heavy
//! work and no call that could panic again. The reload link is `href=""`, which resolves
//! to the current URL (kept up to date by `history.replaceState`), so the inputs survive.

use std::panic::PanicHookInfo;

/// Install the hook. Called first thing in `main`.
pub fn install() {
    std::panic::set_hook(Box::new(hook));
}

/// The hook itself: console (stack trace) first, then the banner.
pub fn hook(info: &PanicHookInfo) {
    console_error_panic_hook::hook(info);
    let message = info
        .payload()
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| info.payload().downcast_ref::<String>().cloned())
        .unwrap_or_default();
    show(&message);
}

/// Reveal `#panic-banner` and put `message` (cut to 300 characters) in `#panic-detail`.
/// Returns false when the page has no banner (nothing else to do then).
pub fn show(message: &str) -> bool {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    let Some(banner) = doc.get_element_by_id("panic-banner") else {
        return false;
    };
    if let Some(detail) = doc.get_element_by_id("panic-detail") {
        let mut text: String = message.chars().take(300).collect();
        if message.chars().count() > 300 {
            text.push('…');
        }
        detail.set_text_content(Some(&text));
    }
    banner.remove_attribute("hidden").is_ok()
}
