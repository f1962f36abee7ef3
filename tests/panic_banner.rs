//! The panic banner (src/web/panic_banner.rs, used by main.rs) in headless Chromium: the hook's
//! DOM work on a copy of index.html's banner markup, read from index.html itself.
#![cfg(target_arch = "wasm32")]

#[allow(dead_code)] // install() and hook() are main.rs's
#[path = "../src/web/panic_banner.rs"]
mod panic_banner;

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// index.html's `#panic-banner` element, exactly as shipped.
fn banner_markup() -> &'static str {
    let html = include_str!("../index.html");
    let start = html
        .find("<div id=\"panic-banner\"")
        .expect("index.html has the banner");
    let end = start + html[start..].find("</div>").expect("banner closes") + "</div>".len();
    &html[start..end]
}

fn install_banner() -> web_sys::Element {
    let doc = web_sys::window().unwrap().document().unwrap();
    if let Some(old) = doc.get_element_by_id("panic-banner") {
        old.remove();
    }
    let host = doc.create_element("div").unwrap();
    host.set_inner_html(banner_markup());
    doc.body().unwrap().append_child(&host).unwrap();
    doc.get_element_by_id("panic-banner").unwrap()
}

#[wasm_bindgen_test]
fn banner_is_hidden_until_a_panic_then_shown_with_the_message() {
    let banner = install_banner();
    assert!(banner.has_attribute("hidden"), "hidden while all is well");
    assert_eq!(banner.get_attribute("role").as_deref(), Some("alert"));
    assert!(panic_banner::show(
        "index out of bounds: the len is 3 but the index is 7"
    ));
    assert!(!banner.has_attribute("hidden"), "shown after the hook ran");
    let text = banner.text_content().unwrap();
    assert!(
        text.contains("Something went wrong inside the planner."),
        "{text}"
    );
    assert!(text.contains("规划器内部出错。"), "{text}");
    assert!(text.contains("the len is 3 but the index is 7"), "{text}");
    // Both reload links point to the current URL ("" resolves to it, query included).
    let doc = web_sys::window().unwrap().document().unwrap();
    let here = web_sys::window().unwrap().location().href().unwrap();
    let here = here.split('#').next().unwrap();
    let mut links = 0;
    let mut node = doc.query_selector("#panic-banner a").unwrap();
    while let Some(el) = node {
        let a: web_sys::HtmlAnchorElement = el.clone().unchecked_into();
        if el.closest("#panic-banner").unwrap().is_some() {
            assert_eq!(a.href(), here);
            links += 1;
        }
        // next <a> in document order
        node = el.next_element_sibling().or_else(|| {
            el.parent_element()
                .and_then(|p| p.next_element_sibling())
                .and_then(|p| p.query_selector("a").ok().flatten())
        });
    }
    assert_eq!(links, 2, "a Reload link in each language");
}

#[wasm_bindgen_test]
fn a_long_message_is_cut() {
    install_banner();
    assert!(panic_banner::show(&"x".repeat(5000)));
    let doc = web_sys::window().unwrap().document().unwrap();
    let detail = doc
        .get_element_by_id("panic-detail")
        .unwrap()
        .text_content()
        .unwrap();
    assert_eq!(detail.chars().count(), 301);
    assert!(detail.ends_with('…'));
}

#[wasm_bindgen_test]
fn without_a_banner_the_hook_does_nothing() {
    let doc = web_sys::window().unwrap().document().unwrap();
    if let Some(old) = doc.get_element_by_id("panic-banner") {
        old.remove();
    }
    assert!(!panic_banner::show("boom"));
}
