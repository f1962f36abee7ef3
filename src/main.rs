//! Mount, with the panic hook first and the network closed once the wasm runs.

// The panic banner: the application binary's own (not the library's), beside the other
// browser bindings.
#[path = "web/panic_banner.rs"]
mod panic_banner;

fn main() {
    panic_banner::install();
    close_network();
    // The static first screen scripts/prerender.mjs put in index.html goes in the same task
    // as the app arrives: no frame without the answer, never two copies. When it is on show,
    // the app waits until it has been painted once (the page is readable while the app
    // builds; it is also what Lighthouse's LCP sees).
    let copy = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("prerender"));
    // In a background tab nothing is painted (and requestAnimationFrame does not run): start.
    let visible = web_sys::window()
        .and_then(|w| w.document())
        .is_some_and(|d| d.visibility_state() == web_sys::VisibilityState::Visible);
    let shown = visible && copy.as_ref().is_some_and(|c| !c.has_attribute("hidden"));
    // The page is mounted hidden beside the copy; its answer's step replaces the copy
    // (`browser::show_app`, components/planner.rs `next_mount_step`).
    let start = move || {
        if copy.is_some() {
            if let Some(root) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.document_element())
            {
                let _ = root.set_attribute("data-mounting", "");
            }
        }
        leptos::mount::mount_to_body(gpu_rent_planner::components::app::App);
    };
    if shown {
        after_first_paint(start, 60);
    } else {
        start();
    }
}

/// Run `start` once the browser has reported the page's first largest-contentful-paint
/// (the inline script scripts/prerender.mjs adds sets `data-painted` on `<html>` then), or
/// after `frames` frames. Removing a painted element before its paint is reported makes
/// Chromium forget it: measured, the app's copy then counted as the page's LCP.
fn after_first_paint(start: impl FnOnce() + 'static, frames: u32) {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element());
    let painted = root
        .as_ref()
        .is_none_or(|r| r.has_attribute("data-painted"));
    if painted || frames == 0 {
        if let Some(r) = &root {
            let _ = r.remove_attribute("data-painted");
        }
        // In a task of its own: not in the one that instantiated the module (Lighthouse
        // counted the two together as one ~300 ms blocking task on its slowed phone).
        leptos::prelude::set_timeout(start, std::time::Duration::ZERO);
    } else {
        leptos::prelude::request_animation_frame(move || after_first_paint(start, frames - 1));
    }
}

/// The page's CSP (index.html) needs `connect-src 'self'` only for the loader's
/// `fetch()` of the .wasm. Now that the wasm runs, add a second policy with
/// `connect-src 'none'`: policies only ever tighten, so from here on the page cannot
/// fetch, XHR, beacon or open a socket to any origin, its own included (the privacy
/// promise; end2end/tests/privacy.test.mjs checks it).
fn close_network() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let (Ok(Some(head)), Ok(meta)) = (doc.query_selector("head"), doc.create_element("meta"))
    else {
        return;
    };
    let _ = meta.set_attribute("http-equiv", "Content-Security-Policy");
    // The one exception is the site's own /robots.txt (crawlers and audits fetch it through
    // the page; the page itself never does): a path-exact source, nothing else on the origin.
    let robots = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .filter(|o| o.starts_with("http"))
        .map(|o| format!("connect-src {o}/robots.txt"))
        .unwrap_or_else(|| "connect-src 'none'".to_string());
    let _ = meta.set_attribute("content", &robots);
    let _ = head.append_child(&meta);
}
