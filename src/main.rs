//! Mount, with the panic hook first and the network closed once the wasm runs.

mod panic_banner;

fn main() {
    panic_banner::install();
    close_network();
    leptos::mount::mount_to_body(gpu_rent_planner::app::App);
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
    let _ = meta.set_attribute("content", "connect-src 'none'");
    let _ = head.append_child(&meta);
}
