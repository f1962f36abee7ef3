//! The only place that touches the browser for app state: reading the start URL and
//! the browser language, and writing the URL with `history.replaceState`.

/// The query string the page was opened with (`?…` or empty).
pub fn start_query() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// `navigator.languages` (falls back to `navigator.language`).
pub fn browser_languages() -> Vec<String> {
    let Some(nav) = web_sys::window().map(|w| w.navigator()) else {
        return Vec::new();
    };
    let mut tags: Vec<String> = nav
        .languages()
        .iter()
        .filter_map(|v| v.as_string())
        .collect();
    if tags.is_empty() {
        if let Some(l) = nav.language() {
            tags.push(l);
        }
    }
    tags
}

/// Replace the current history entry's query (no new history entry, no reload).
pub fn replace_query(query: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(history) = window.history() else {
        return;
    };
    let location = window.location();
    let path = location.pathname().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    let current = location.search().unwrap_or_default();
    if current == query {
        return;
    }
    let url = format!("{path}{query}{hash}");
    let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
}

/// Set `<html lang>` so screen readers and fonts follow the UI language.
pub fn set_document_lang(tag: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = el.set_attribute("lang", tag);
    }
}

/// The browser's offset from UTC in minutes, east positive (Beijing: +480).
pub fn utc_offset_minutes() -> i32 {
    -(js_sys::Date::new_0().get_timezone_offset() as i32)
}
